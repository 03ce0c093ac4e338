//! Readable dumps of command lists, one GL call per line in apitrace style:
//!
//! ```text
//! glBindTexture(GL_TEXTURE_2D, 5)
//! glNamedFramebufferDrawBuffers(3, 2, {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1})
//! glShaderSource(7, 1, {"#version 450\n..."}, {17})
//! ```
//!
//! The per-opcode dump functions are generated (`generated/inspect.rs`); they call the
//! formatting helpers here. Enums are printed by name from their gl.xml group, arrays show
//! their contents (long ones abbreviated), strings are quoted.

use std::fmt::{self, Write};

use crate::generated::enums::enum_name;
use crate::generated::inspect::DUMP;
use crate::list::CommandList;

/// Writes one packet as a GL call.
pub type DumpFn = unsafe fn(*const u64, *const u8, &mut dyn Write) -> fmt::Result;
/// Calls back with (gl.xml class, name) for every GL object a packet names.
pub type ObjectsFn = unsafe fn(*const u64, *const u8, &mut dyn FnMut(&'static str, u32));

/// Displays a GL enum value by name (`GL_COLOR`), or in hex when no enumerant has that value.
/// Error messages use it.
#[derive(Clone, Copy, Debug)]
pub struct EnumName(pub u32);

impl fmt::Display for EnumName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match enum_name("", self.0) {
            Some(name) => f.write_str(name),
            None => write!(f, "0x{:04X}", self.0),
        }
    }
}

/// The gl.xml object class an `identifier` of `glObjectLabel` names.
pub fn class_of_identifier(identifier: u32) -> Option<&'static str> {
    use crate::gl;
    Some(match identifier {
        gl::BUFFER => "buffer",
        gl::SHADER => "shader",
        gl::PROGRAM => "program",
        gl::VERTEX_ARRAY => "vertex array",
        gl::QUERY => "query",
        gl::PROGRAM_PIPELINE => "program pipeline",
        gl::TRANSFORM_FEEDBACK => "transform feedback",
        gl::SAMPLER => "sampler",
        gl::TEXTURE => "texture",
        gl::RENDERBUFFER => "renderbuffer",
        gl::FRAMEBUFFER => "framebuffer",
        _ => return None,
    })
}

/// Array elements shown before the rest is abbreviated.
const SHOWN: usize = 16;

pub fn enum_value(out: &mut dyn Write, group: &str, value: u32) -> fmt::Result {
    match enum_name(group, value) {
        Some(name) => out.write_str(name),
        None if value == 0 => out.write_str("0"),
        None => write!(out, "0x{value:04X}"),
    }
}

pub fn boolean(out: &mut dyn Write, value: u8) -> fmt::Result {
    match value {
        0 => out.write_str("GL_FALSE"),
        1 => out.write_str("GL_TRUE"),
        v => write!(out, "{v}"),
    }
}

/// `GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT`, falling back to hex for unnamed bits.
pub fn bitfield(out: &mut dyn Write, group: &str, value: u32) -> fmt::Result {
    if value == 0 {
        return out.write_str("0");
    }
    if let Some(name) = enum_name(group, value).filter(|_| !group.is_empty()) {
        return out.write_str(name);
    }
    let mut first = true;
    let mut rest = 0;
    for bit in 0..32 {
        let b = 1u32 << bit;
        if value & b == 0 {
            continue;
        }
        match enum_name(group, b).filter(|_| !group.is_empty()) {
            Some(name) => {
                if !first {
                    out.write_str(" | ")?;
                }
                out.write_str(name)?;
                first = false;
            }
            None => rest |= b,
        }
    }
    if rest != 0 {
        if !first {
            out.write_str(" | ")?;
        }
        write!(out, "0x{rest:X}")?;
    }
    Ok(())
}

/// A displayable array element.
pub trait Element: Copy {
    fn show(self, out: &mut dyn Write, enum_group: Option<&str>) -> fmt::Result;
}

macro_rules! element_display {
    ($($t:ty),*) => {$(
        impl Element for $t {
            fn show(self, out: &mut dyn Write, enum_group: Option<&str>) -> fmt::Result {
                match enum_group {
                    Some(g) => enum_value(out, g, self as u32),
                    None => write!(out, "{}", self),
                }
            }
        }
    )*};
}
element_display!(u8, i8, u16, i16, u32, i32, u64, i64, usize, isize);

macro_rules! element_float {
    ($($t:ty),*) => {$(
        impl Element for $t {
            fn show(self, out: &mut dyn Write, _: Option<&str>) -> fmt::Result {
                write!(out, "{:?}", self)
            }
        }
    )*};
}
element_float!(f32, f64);

/// `{a, b, c}`; more than 16 elements end in `... (N values)`.
///
/// # Safety
/// `ptr` points to `len` readable elements (unaligned is fine).
pub unsafe fn array<T: Element>(
    out: &mut dyn Write,
    ptr: *const T,
    len: usize,
    enum_group: Option<&str>,
) -> fmt::Result {
    out.write_str("{")?;
    for i in 0..len.min(SHOWN) {
        if i > 0 {
            out.write_str(", ")?;
        }
        // SAFETY: i < len, guaranteed readable by the caller.
        unsafe { ptr.add(i).read_unaligned() }.show(out, enum_group)?;
    }
    if len > SHOWN {
        write!(out, ", ... ({len} values)")?;
    }
    out.write_str("}")
}

/// A quoted, escaped string, up to its NUL or `len` bytes; long strings are abbreviated.
///
/// # Safety
/// `ptr` points to a NUL-terminated string (and, with `len`, at least `len` bytes).
pub unsafe fn string(out: &mut dyn Write, ptr: *const u8, len: Option<i64>) -> fmt::Result {
    let bytes = match len {
        // SAFETY: the list stored `len` bytes (plus a NUL) at `ptr`.
        Some(n) if n >= 0 => unsafe { std::slice::from_raw_parts(ptr, n as usize) },
        // SAFETY: the list stored a NUL-terminated copy.
        _ => unsafe { std::ffi::CStr::from_ptr(ptr.cast()) }.to_bytes(),
    };
    let text = String::from_utf8_lossy(bytes);
    const LIMIT: usize = 60;
    if text.chars().count() > LIMIT {
        let head: String = text.chars().take(LIMIT).collect();
        write!(out, "{head:?}... ({} bytes)", bytes.len())
    } else {
        write!(out, "{text:?}")
    }
}

/// `{"a", "b"}` for strings stored by `CommandList::push_strs`.
///
/// # Safety
/// `table` is the offset of a push_strs table of `count` strings inside `params`.
pub unsafe fn strings(out: &mut dyn Write, params: *const u8, table: u32, count: usize) -> fmt::Result {
    out.write_str("{")?;
    for i in 0..count {
        if i > 0 {
            out.write_str(", ")?;
        }
        // SAFETY: the table holds `count` offsets of NUL-terminated strings.
        unsafe {
            let off = params.add(table as usize + 4 * i).cast::<u32>().read_unaligned();
            string(out, params.add(off as usize), None)?;
        }
    }
    out.write_str("}")
}

/// Caller-sized data: a buffer offset, or the first bytes in hex.
///
/// # Safety
/// When `len != u32::MAX`, `offset` is the offset of `len` bytes inside `params`.
pub unsafe fn bytes(out: &mut dyn Write, params: *const u8, offset: u64, len: u32) -> fmt::Result {
    if len == u32::MAX {
        return write!(out, "buffer+0x{offset:x}");
    }
    out.write_str("<")?;
    for i in 0..(len as usize).min(SHOWN) {
        // SAFETY: i < len.
        write!(out, "{:02x}", unsafe { *params.add(offset as usize + i) })?;
    }
    if len as usize > SHOWN {
        out.write_str("..")?;
    }
    write!(out, " ({len} bytes)>")
}

impl CommandList {
    /// Calls `each(index, slot, opcode)` for every packet, in order.
    pub(crate) fn walk(&self, mut each: impl FnMut(usize, usize, usize)) {
        let mut at = 0;
        let mut index = 0;
        while at < self.packets.len() {
            let op = (self.packets[at] & 0xFFFF) as usize;
            each(index, at, op);
            at += crate::generated::SLOTS[op] as usize;
            index += 1;
        }
    }

    /// Writes the packet at `slot` as a GL call.
    pub(crate) fn write_command(&self, slot: usize, out: &mut dyn Write) -> fmt::Result {
        let op = (self.packets[slot] & 0xFFFF) as usize;
        // SAFETY: `slot` is the start of a packet of this list (from `walk` or a site table).
        unsafe { DUMP[op](self.packets.as_ptr().add(slot), self.params.as_ptr().cast(), out) }
    }

    /// The GL call at `slot`, as text.
    pub(crate) fn describe(&self, slot: usize) -> String {
        let mut s = String::new();
        let _ = self.write_command(slot, &mut s);
        s
    }
}

/// One GL call per line. A labelled list starts with `# label`; with recording sites on,
/// each line ends with `  // file:line:column`.
impl fmt::Display for CommandList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(label) = self.label() {
            writeln!(f, "# {label}")?;
        }
        let mut result = Ok(());
        let sites = self.sites.as_deref().unwrap_or(&[]);
        self.walk(|index, slot, _| {
            if result.is_err() {
                return;
            }
            result = (|| {
                self.write_command(slot, f)?;
                if let Some((_, site)) = sites.get(index) {
                    write!(f, "  // {}:{}:{}", site.file(), site.line(), site.column())?;
                }
                writeln!(f)
            })();
        });
        result
    }
}
