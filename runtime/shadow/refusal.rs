//! Why a command was not passed to the GL: every check of the shadow and of the guards says it
//! with a [`Refusal`], whose text the report carries.

use super::target::Target;
use crate::generated::types::GLenum;
use crate::vocab::{check, Check, Class};

/// Why a command was not passed to the GL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// An offset argument with no buffer bound to the target it is an offset into.
    NoBuffer { target: Target, vertex_array: Option<u32> },
    /// A draw while an enabled attribute of the vertex array reads no buffer.
    ClientArray { vertex_array: u32, attribute: usize },
    /// A draw in a core-profile context with no vertex array object bound.
    NoVertexArray,
    /// A vertex-buffer binding of buffer 0 at a non-zero offset (a client address).
    OffsetWithoutBuffer { offset: u64 },
    /// Buffer data for AMD_pinned_memory's target, which would keep a pointer into the list.
    PinnedMemory,
    /// A name that is no object of its class.
    NoSuchObject { class: Class, name: u32 },
    /// A name of a shader where a program is wanted (`class`), or the other way round.
    OtherClass { class: Class, name: u32 },
    /// A negative count of a draw, or a mode that is no primitive type of the core profile
    /// (checked before the vertex array, as the GL does).
    DrawArgument { argument: &'static str, value: i64 },
    /// A draw refused for its vertex array or buffers while the draw framebuffer is incomplete
    /// (`status`): the GL's earlier check is the one that fails.
    Framebuffer { status: GLenum, then: Box<Refusal> },
    /// A negative buffer offset or size, or offsets and sizes whose sum overflows.
    Range { value: i64 },
    /// A texture level the texture does not have (the driver would dereference the object its
    /// own check rejected).
    Level { texture: u32, level: i32, max: i32 },
    /// Consecutive bindings `first..first + count` past the end of the 32-bit range.
    Wraps { first: u32, count: i64 },
    /// A NaN where the GL range-checks a state value (`shadow_hooks::refuses_nan` in the generator).
    NotANumber { argument: &'static str },
    /// A read or write of `len` bytes at `offset` into the buffer bound to `target`, which
    /// passes the end of its storage (`size` bytes) or of the 64-bit range.
    Overrun { target: Target, offset: u64, len: Option<u64>, size: u64 },
    /// A range of `len` bytes at `offset` of buffer `buffer`'s storage (or mapping, `mapped`) of
    /// `size` bytes that passes its end.
    Storage { buffer: u32, offset: u64, len: u64, size: u64, mapped: bool },
    /// An argument the GL refuses with `error` before any check glcmd makes for its own safety
    /// (`Check::Earlier`): `argument` is `value`, outside what the GL accepts (`accepted`).
    Earlier { argument: &'static str, value: i64, accepted: &'static str, error: GLenum },
}

impl Refusal {
    /// The kind of check that refused the command.
    pub fn check(&self) -> Check {
        match self {
            Refusal::NoBuffer { .. } => Check::NoBuffer,
            Refusal::ClientArray { .. } => Check::ClientArray,
            Refusal::NoVertexArray => Check::NoVertexArray,
            Refusal::OffsetWithoutBuffer { .. } => Check::OffsetWithoutBuffer,
            Refusal::PinnedMemory => Check::PinnedMemory,
            Refusal::NoSuchObject { class, .. } => Check::NoSuchObject(*class),
            Refusal::OtherClass { class, .. } => Check::OtherClass(*class),
            Refusal::DrawArgument { argument: "mode", .. } => Check::Mode,
            Refusal::DrawArgument { .. } | Refusal::Range { .. } => Check::Range,
            Refusal::Level { .. } => Check::Level,
            Refusal::Wraps { .. } => Check::Wraps,
            Refusal::NotANumber { .. } => Check::NotANumber,
            Refusal::Overrun { .. } => Check::Overrun,
            Refusal::Storage { .. } => Check::Storage,
            Refusal::Framebuffer { .. } => Check::Framebuffer,
            Refusal::Earlier { error, .. } => Check::Earlier(*error),
        }
    }

    /// The error the GL specification gives when `function` is called with the argument this
    /// check refused, which the skipped command raises for `glGetError`: the function's row of
    /// `SPEC_ERRORS` or the check's usual error (`crate::vocab::check`).
    pub fn gl_error(&self, function: &str) -> GLenum {
        check::gl_error(function, self.check())
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NoBuffer { target, vertex_array: Some(v) } => write!(
                f,
                "no buffer is bound to {} of vertex array object {v}: the offset would be read as a client \
                 pointer, so glcmd skipped the call; bind an element buffer (glVertexArrayElementBuffer)",
                target.gl_name()
            ),
            Refusal::NoBuffer { target, vertex_array: None } => write!(
                f,
                "no buffer is bound to {}: the offset would be used as a client pointer, so glcmd skipped the \
                 call; bind a buffer to {} first",
                target.gl_name(),
                target.gl_name()
            ),
            Refusal::ClientArray { vertex_array, attribute } => write!(
                f,
                "attribute {attribute} of vertex array object {vertex_array} is enabled but reads no buffer (a \
                 client array, whose pointer the GL would read as process memory), so glcmd skipped the draw; \
                 bind a buffer to its binding point or disable the attribute"
            ),
            Refusal::NoVertexArray => f.write_str(
                "no vertex array object is bound (the core profile has no default one), so glcmd skipped the draw",
            ),
            Refusal::Range { value } => write!(
                f,
                "buffer offset or size {value} is negative or makes offset + size overflow (drivers compute the sum \
                 without checking, and would touch memory past the buffer), so glcmd skipped the call"
            ),
            Refusal::NoSuchObject { class, name } => write!(
                f,
                "{name} is not the name of an existing {} (drivers do not all check: some dereference the failed \
                 lookup), so glcmd skipped the call",
                class.name()
            ),
            Refusal::OtherClass { class, name } => write!(
                f,
                "{name} is not the name of a {} but of a {} (drivers do not all check: some dereference the \
                 failed lookup), so glcmd skipped the call",
                class.name(),
                if *class == Class::Program { "shader" } else { "program" }
            ),
            Refusal::DrawArgument { argument: "mode", value } => write!(
                f,
                "mode {} is no primitive type of the core profile, so glcmd skipped the draw (the GL checks the \
                 mode before the vertex array; glcmd checks the vertex array, so it checks the mode first too)",
                crate::vocab::EnumName(*value as u32)
            ),
            Refusal::DrawArgument { argument, value } => write!(
                f,
                "`{argument}` is {value}, which is negative, so glcmd skipped the draw (the GL checks counts before \
                 the vertex array; glcmd checks the vertex array, so it checks the counts first too)"
            ),
            Refusal::Framebuffer { status, then } => write!(
                f,
                "{then}; the draw framebuffer is incomplete too ({}), which the GL checks first, so the draw \
                 raises its error",
                crate::vocab::EnumName(*status)
            ),
            Refusal::PinnedMemory => f.write_str(
                "GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD (AMD_pinned_memory) would keep a pointer into the command \
                 list as the buffer's storage, so glcmd skipped the call; pin memory through Device::with_gl",
            ),
            Refusal::NotANumber { argument } => write!(
                f,
                "`{argument}` is NaN, which passes the driver's range checks (comparisons with NaN are false) and \
                 leaves state the driver may crash on later, so glcmd skipped the call"
            ),
            Refusal::Wraps { first, count } => write!(
                f,
                "bindings {first}..{first}+{count} run past 2^32 (Mesa checks first + count in 32-bit unsigned \
                 arithmetic, so the wrapped sum passes and it writes past its arrays), so glcmd skipped the call"
            ),
            Refusal::Level { texture, level, max } => write!(
                f,
                "level {level} of texture {texture}, whose levels are 0..={max} (0 only, for rectangle, buffer and \
                 multisample textures): Mesa dereferences the texture its own check rejected, so glcmd skipped the call"
            ),
            Refusal::Overrun { target, offset, len: Some(len), size } => write!(
                f,
                "the call would access {len} bytes at offset {offset} of the buffer bound to {}, whose storage is \
                 {size} bytes (drivers compute the end in 32- or 64-bit arithmetic that can wrap, and then read \
                 process memory), so glcmd skipped the call; keep offset + size within the buffer",
                target.gl_name()
            ),
            Refusal::Overrun { target, offset, len: None, size } => write!(
                f,
                "the call would access more than 2^64 bytes from offset {offset} of the buffer bound to {} ({size} \
                 bytes of storage): its count and stride overflow, so glcmd skipped the call",
                target.gl_name()
            ),
            Refusal::Storage { buffer, offset, len, size, mapped } => {
                let what = if *mapped { "mapped range" } else { "storage" };
                write!(
                    f,
                    "the call would access {len} bytes at offset {offset} of buffer {buffer}, whose {what} is {size} \
                     bytes, so glcmd skipped the call (the GL refuses it too; a driver computing the end in wrapping \
                     arithmetic would write outside the buffer); keep offset + size within the buffer"
                )
            }
            Refusal::Earlier { argument, value, accepted, error } => write!(
                f,
                "`{argument}` is {value:#x} ({value}), but the GL accepts only {accepted}: the GL raises {} for it \
                 before the checks glcmd makes for its own safety, so glcmd skipped the call with that error",
                crate::vocab::EnumName(*error)
            ),
            Refusal::OffsetWithoutBuffer { offset } => write!(
                f,
                "buffer 0 with offset {offset:#x}: with no buffer the offset would be a client address, so glcmd \
                 skipped the call"
            ),
        }
    }
}
