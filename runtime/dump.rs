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
//!
//! Reports (attribution, strict mode, use after delete), `CommandList`'s `Display` and the
//! capture player read packets here, outside replay, so the readers hold to one rule: every
//! argument form a recording method can write prints as itself (`NULL` for a null pointer or
//! `Bytes::None`, `buffer+0x10` for a buffer offset, `{}` for an empty slice), and every read of
//! the parameter buffer is bounds-checked against it (a slice, not a pointer). A dump cannot
//! read memory that is not there, whatever the packet holds.

use std::fmt::{self, Write};

use crate::generated::enums::enum_name;
use crate::generated::inspect::DUMP;
use crate::list::CommandList;
use crate::vocab::params::{BYTES_NULL, BYTES_OFFSET};

pub use crate::vocab::names::EnumName;

/// Writes one packet as a GL call; the slice is the list's whole parameter buffer.
///
/// # Safety
/// The pointer is the start of a packet, inside its list, whose opcode selects the function.
pub type DumpFn = unsafe fn(*const u64, &[u8], &mut dyn Write) -> fmt::Result;
/// Calls back with (gl.xml class, name) for every GL object a packet names (safety as for
/// [`DumpFn`]).
pub type ObjectsFn = unsafe fn(*const u64, &[u8], &mut dyn FnMut(&'static str, u32));

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

/// One call being dumped: `glName(` then each argument, separated by `, `, then `)`.
///
/// The generated dump functions are straight lines of one call per argument. The first write
/// error is kept and every later write skipped, so they need no `?` after each write: a
/// function per opcode of `write!` and `?` was an eighth of the crate's machine code, and every
/// dependent build compiled it.
pub struct Line<'a> {
    out: &'a mut dyn Write,
    params: &'a [u8],
    first: bool,
    result: fmt::Result,
}

impl<'a> Line<'a> {
    /// Starts the line with the GL function's name; `params` is the list's parameter buffer.
    pub fn new(out: &'a mut dyn Write, params: &'a [u8], function: &str) -> Self {
        let result = out.write_str(function).and_then(|()| out.write_str("("));
        Line { out, params, first: true, result }
    }

    fn arg(&mut self, write: impl FnOnce(&mut dyn Write, &[u8]) -> fmt::Result) {
        if self.result.is_ok() {
            let separator = if self.first { "" } else { ", " };
            self.result = self.out.write_str(separator).and_then(|()| write(&mut *self.out, self.params));
        }
        self.first = false;
    }

    /// An integer as a number.
    pub fn display(&mut self, value: &dyn fmt::Display) {
        self.arg(|out, _| write!(out, "{value}"));
    }

    /// A floating-point value as Rust's `{:?}` writes it (`1.0`, not `1`).
    pub fn float(&mut self, value: &dyn fmt::Debug) {
        self.arg(|out, _| write!(out, "{value:?}"));
    }

    /// A pointer-sized offset or opaque handle, in hex.
    pub fn hex(&mut self, value: &dyn fmt::LowerHex) {
        self.arg(|out, _| write!(out, "0x{value:x}"));
    }

    /// A glcmd sync id.
    pub fn sync(&mut self, id: u64) {
        self.arg(|out, _| write!(out, "sync#{id}"));
    }

    pub fn enum_value(&mut self, group: &str, value: u32) {
        self.arg(|out, _| enum_value(out, group, value));
    }

    pub fn boolean(&mut self, value: u8) {
        self.arg(|out, _| boolean(out, value));
    }

    pub fn bitfield(&mut self, group: &str, value: u32) {
        self.arg(|out, _| bitfield(out, group, value));
    }

    /// An input array (see [`array()`]).
    pub fn array<T: Element>(&mut self, offset: u64, len: usize, enum_group: Option<&str>) {
        self.arg(|out, params| array::<T>(out, params, offset, len, enum_group));
    }

    /// An input array the GL accepts as a null pointer (see [`nullable_array()`]).
    pub fn nullable_array<T: Element>(&mut self, offset: u64, len: usize, enum_group: Option<&str>) {
        self.arg(|out, params| nullable_array::<T>(out, params, offset, len, enum_group));
    }

    pub fn string(&mut self, offset: u64, len: Option<i64>) {
        self.arg(|out, params| string(out, params, offset, len));
    }

    pub fn strings(&mut self, table: u64, count: usize) {
        self.arg(|out, params| strings(out, params, table, count));
    }

    pub fn bytes(&mut self, offset: u64, len: u32) {
        self.arg(|out, params| bytes(out, params, offset, len));
    }

    /// Closes the call.
    pub fn end(self) -> fmt::Result {
        self.result.and_then(|()| self.out.write_str(")"))
    }

    /// Closes a `glFenceSync` call with the sync it returned.
    pub fn end_returning_sync(self, id: u64) -> fmt::Result {
        self.result.and_then(|()| write!(self.out, ") = sync#{id}"))
    }
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

/// A displayable array element: a plain number, read from any byte position.
pub trait Element: bytemuck::Pod {
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

// Every reader below takes the list's whole parameter buffer as a slice and checks each offset
// and length against it. The fields come from packets the recording methods wrote, but they
// encode several argument forms (an offset, a NULL, a buffer offset, a length marker), and a
// reader that took one form for another would read memory that is not there: a dump of
// `Bytes::None` once read 4 GiB from offset 0. A region outside the buffer is printed as such.

/// The offset of a nullable array that was recorded as `None` (a null pointer).
pub const NULL_ARRAY: u64 = u32::MAX as u64;

/// The `len` bytes at `offset` of `params`, if all of them lie inside it.
pub(crate) fn region(params: &[u8], offset: u64, len: u64) -> Option<&[u8]> {
    let start = usize::try_from(offset).ok()?;
    let end = start.checked_add(usize::try_from(len).ok()?)?;
    params.get(start..end)
}

fn outside(out: &mut dyn Write, what: &str, offset: u64) -> fmt::Result {
    write!(out, "<{what} at 0x{offset:x}, outside the list's parameters>")
}

/// `{a, b, c}`; more than 16 elements end in `... (N values)`.
pub fn array<T: Element>(
    out: &mut dyn Write,
    params: &[u8],
    offset: u64,
    len: usize,
    enum_group: Option<&str>,
) -> fmt::Result {
    let size = std::mem::size_of::<T>();
    let Some(data) = region(params, offset, (len as u64).saturating_mul(size as u64)) else {
        return outside(out, &format!("{len} values"), offset);
    };
    out.write_str("{")?;
    for (i, chunk) in data.chunks_exact(size).take(SHOWN).enumerate() {
        if i > 0 {
            out.write_str(", ")?;
        }
        bytemuck::pod_read_unaligned::<T>(chunk).show(out, enum_group)?;
    }
    if len > SHOWN {
        write!(out, ", ... ({len} values)")?;
    }
    out.write_str("}")
}

/// An array the GL accepts as a null pointer: `NULL` for `None`, else as [`array()`].
pub fn nullable_array<T: Element>(
    out: &mut dyn Write,
    params: &[u8],
    offset: u64,
    len: usize,
    enum_group: Option<&str>,
) -> fmt::Result {
    if offset == NULL_ARRAY {
        return out.write_str("NULL");
    }
    array::<T>(out, params, offset, len, enum_group)
}

/// A quoted, escaped string, up to its NUL or `len` bytes; long strings are abbreviated.
pub fn string(out: &mut dyn Write, params: &[u8], offset: u64, len: Option<i64>) -> fmt::Result {
    let Some(rest) = usize::try_from(offset).ok().and_then(|o| params.get(o..)) else {
        return outside(out, "a string", offset);
    };
    let bytes = match len {
        Some(n) if n >= 0 => match rest.get(..n as usize) {
            Some(b) => b,
            None => return outside(out, &format!("a string of {n} bytes"), offset),
        },
        _ => match rest.iter().position(|&b| b == 0) {
            Some(n) => &rest[..n],
            None => return outside(out, "an unterminated string", offset),
        },
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

/// `{"a", "b"}` for strings stored by `CommandList::push_strs` (a table of `count` u32 offsets
/// at `table`); more than 16 end in `... (N strings)`.
pub fn strings(out: &mut dyn Write, params: &[u8], table: u64, count: usize) -> fmt::Result {
    let Some(offsets) = region(params, table, (count as u64).saturating_mul(4)) else {
        return outside(out, &format!("a table of {count} strings"), table);
    };
    out.write_str("{")?;
    for (i, off) in offsets.chunks_exact(4).take(SHOWN).enumerate() {
        if i > 0 {
            out.write_str(", ")?;
        }
        string(out, params, bytemuck::pod_read_unaligned::<u32>(off) as u64, None)?;
    }
    if count > SHOWN {
        write!(out, ", ... ({count} strings)")?;
    }
    out.write_str("}")
}

/// A `glcmd::Bytes` argument: `buffer+0x10` for a buffer offset, `NULL` for `Bytes::None`,
/// else the first bytes in hex and the length.
pub fn bytes(out: &mut dyn Write, params: &[u8], offset: u64, len: u32) -> fmt::Result {
    match len {
        BYTES_OFFSET => return write!(out, "buffer+0x{offset:x}"),
        BYTES_NULL => return out.write_str("NULL"),
        _ => {}
    }
    let Some(data) = region(params, offset, len as u64) else {
        return outside(out, &format!("{len} bytes"), offset);
    };
    out.write_str("<")?;
    for b in data.iter().take(SHOWN) {
        write!(out, "{b:02x}")?;
    }
    if data.len() > SHOWN {
        out.write_str("..")?;
    }
    write!(out, " ({len} bytes)>")
}

/// Calls `each` with the `count` u32 names at `offset` (none for a null array, or for one
/// outside the buffer: there are no names to check).
pub fn names(params: &[u8], offset: u64, count: usize, nullable: bool, mut each: impl FnMut(u32)) {
    if nullable && offset == NULL_ARRAY {
        return;
    }
    if let Some(data) = region(params, offset, (count as u64).saturating_mul(4)) {
        data.chunks_exact(4).for_each(|n| each(bytemuck::pod_read_unaligned::<u32>(n)));
    }
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
        unsafe { DUMP[op](self.packets.as_ptr().add(slot), self.param_bytes(), out) }
    }

    /// The parameter buffer as bytes, for the readers of packets outside replay.
    pub(crate) fn param_bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.params)
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

#[cfg(test)]
mod tests {
    use crate::generated::enums::{enum_name, ANY_NAMES, ANY_VALUES, GROUPS};

    /// `enum_name` binary-searches the generated tables: each must be sorted, one name per value.
    #[test]
    fn the_enum_name_tables_are_sorted_and_parallel() {
        assert!(GROUPS.windows(2).all(|w| w[0].0 < w[1].0), "groups sorted by name, each once");
        for (group, values, names) in GROUPS {
            assert_eq!(values.len(), names.len(), "{group}");
            assert!(values.windows(2).all(|w| w[0] < w[1]), "{group}: values sorted, each once");
        }
        assert_eq!(ANY_VALUES.len(), ANY_NAMES.len());
        assert!(ANY_VALUES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn enum_names_come_from_the_group_then_from_any_enumerant() {
        assert_eq!(enum_name("TextureTarget", 0x0DE1), Some("GL_TEXTURE_2D"));
        assert_eq!(enum_name("PrimitiveType", 0x0004), Some("GL_TRIANGLES"));
        // GL_ZERO and GL_POINTS are 0: only a group names 0 or 1.
        assert_eq!(enum_name("PrimitiveType", 0), Some("GL_POINTS"));
        assert_eq!(enum_name("no such group", 0), None);
        // An unknown group, or a value outside the group: any enumerant with that value.
        assert_eq!(enum_name("no such group", 0x0DE1), Some("GL_TEXTURE_2D"));
        assert_eq!(enum_name("PrimitiveType", 0x0DE1), Some("GL_TEXTURE_2D"));
        assert_eq!(enum_name("TextureTarget", 0x7FFF_FFFF), None);
    }
}
