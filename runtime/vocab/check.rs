//! # Which GL error a failed check raises
//!
//! glcmd checks some arguments itself before they reach the GL (names that must be objects,
//! buffer ranges, offsets with no buffer, NaN, sync handles, ...): a driver that mishandles them
//! would corrupt memory, and safe code must not depend on the driver's validation. A program
//! sees such a check as GL behaviour, so a failed check raises the error the GL specification
//! names for the same call, and that error depends on the function, not only on the kind of
//! check: a buffer that does not exist is `GL_INVALID_OPERATION` for `glNamedBufferSubData`
//! (GL 4.6 §6.3) but `GL_INVALID_VALUE` for `glTransformFeedbackBufferBase` (§13.2.2) and for
//! `glBindImageTexture`'s texture (§8.26).
//!
//! The rule is therefore data, in two parts:
//!
//! * [`Check`], the kind of check (with the object class, for existence checks), and its
//!   [`Check::usual_error`]: what the specification gives for most functions (a name of a
//!   program or shader that is none: `GL_INVALID_VALUE`, §7.1; a name of another class:
//!   `GL_INVALID_OPERATION`, as for most DSA commands in §2.3.1's table of errors; a negative
//!   size or a wrapping range: `GL_INVALID_VALUE`; ...);
//! * the exceptions, one row per function and check ([`SpecError`]), written by hand with the
//!   section of the specification that names them in `codegen/src/spec_errors.rs` and emitted
//!   into the generated table `crate::generated::spec_errors::SPEC_ERRORS`.
//!
//! [`gl_error`] reads both: a function's own row if it has one, the usual error otherwise.
//! Replay (a refused command: the function is the packet's opcode's), queries (`Error` names
//! its function) and the C ABI all go through it, so one table decides. `docs/errors.md` lists
//! every check and row, and `tests/gl_errors.rs` tests each row against direct GL.
//!
//! Where two checks apply to one call the GL's order decides which error is raised (Mesa checks
//! a draw's count and mode before its vertex array): the checks that mirror the earlier ones
//! run first, so the error is the GL's. Replay checks object names before ranges and storage
//! (Mesa's `_mesa_lookup_*_err` comes before its range checks); an argument the GL refuses
//! before anything glcmd checks (a target, a stream, an attribute index or stride) is checked
//! first of all, with the GL's error ([`Check::Earlier`]): so glcmd's own safety check comes
//! last, and a call the GL would refuse anyway raises the GL's error.

use crate::generated::{enums as gl, types::GLenum};

use super::class::Class;

/// A kind of check glcmd makes before a call reaches the GL (or instead of a query's GL call).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// A name that is no object of the class (`class` is the class the call wants).
    NoSuchObject(Class),
    /// A name of a program where a shader is wanted, or the other way round (`class` is the
    /// class the call wants).
    OtherClass(Class),
    /// A negative offset, size or count, or offsets and sizes whose sum overflows.
    Range,
    /// A read or write past the end of a buffer's storage.
    Overrun,
    /// A range of a buffer's storage (or mapping) named by a sub-data, copy, clear, invalidate,
    /// texture-buffer, query-result or flush call that passes its end.
    Storage,
    /// An offset argument with no buffer bound where it is an offset into.
    NoBuffer,
    /// A draw whose enabled attribute reads no buffer.
    ClientArray,
    /// A draw with no vertex array object bound (core profile).
    NoVertexArray,
    /// A draw whose mode is no primitive type of the core profile.
    Mode,
    /// A draw that failed a check of glcmd's while the draw framebuffer is incomplete.
    Framebuffer,
    /// A vertex-buffer binding of buffer 0 at a non-zero offset.
    OffsetWithoutBuffer,
    /// AMD_pinned_memory's buffer target.
    PinnedMemory,
    /// A texture level the texture cannot have.
    Level,
    /// Bindings `first..first + count` past 2^32.
    Wraps,
    /// NaN for range-checked float state.
    NotANumber,
    /// A sync handle that names no sync object.
    UnknownSync,
    /// A negative size or count argument of a query or create.
    InvalidArgument,
    /// A pname glcmd's tables do not know.
    UnknownPname,
    /// A result too large to allocate.
    OutOfMemory,
    /// A NULL array or output pointer of a C entry point where the GL would read or write
    /// through it.
    NullPointer,
    /// An argument the GL refuses, with this error, before the check glcmd makes for its own
    /// safety (a target, a stream, an attribute index): glcmd checks it first, so the call raises
    /// the GL's error, not glcmd's.
    Earlier(GLenum),
}

impl Check {
    /// The error the specification gives for this check in most functions; a function whose
    /// specification differs has a row in `SPEC_ERRORS`.
    pub fn usual_error(self) -> GLenum {
        match self {
            Check::NoSuchObject(Class::Program | Class::Shader) => gl::INVALID_VALUE,
            Check::Range
            | Check::Storage
            | Check::Level
            | Check::NotANumber
            | Check::UnknownSync
            | Check::InvalidArgument
            | Check::NullPointer => gl::INVALID_VALUE,
            Check::Mode | Check::UnknownPname => gl::INVALID_ENUM,
            Check::OutOfMemory => gl::OUT_OF_MEMORY,
            Check::Earlier(error) => error,
            Check::Framebuffer => gl::INVALID_FRAMEBUFFER_OPERATION,
            Check::NoSuchObject(_)
            | Check::OtherClass(_)
            | Check::Overrun
            | Check::NoBuffer
            | Check::ClientArray
            | Check::NoVertexArray
            | Check::OffsetWithoutBuffer
            | Check::Wraps
            | Check::PinnedMemory => gl::INVALID_OPERATION,
        }
    }
}

/// One exception to [`Check::usual_error`]: `function` raises `error` when `check` fails.
/// `NO_ERROR` means the GL raises nothing (the call answers as for a name that is no object).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// The GL function, as the registry spells it (`glTransformFeedbackBufferBase`).
    pub function: &'static str,
    pub check: Check,
    pub error: GLenum,
}

/// The error `function` raises when `check` fails: its row of `SPEC_ERRORS`, or the usual one.
pub fn gl_error(function: &str, check: Check) -> GLenum {
    crate::generated::spec_errors::SPEC_ERRORS
        .iter()
        .find(|row| row.check == check && row.function == function)
        .map_or_else(|| check.usual_error(), |row| row.error)
}

/// Records `error` in glcmd's error flag, as the GL records an error: the flag keeps the first
/// error until `glGetError` reads it, and later errors are dropped. The specification also
/// allows several flags; Mesa and NVIDIA keep one, so a program through glcmd reads what it
/// reads directly. `raised` holds the flag: the GL's own pending flag moved there
/// (`replay::ReplayState::keep_pending_errors`, always before glcmd records one of its own) or glcmd's
/// refusal; while it is set, whatever the GL raises later is dropped when `glGetError` reads it.
pub(crate) fn record_error(raised: &mut Vec<GLenum>, error: GLenum) {
    if raised.is_empty() {
        raised.push(error);
    }
}
