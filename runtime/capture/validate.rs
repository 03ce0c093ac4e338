//! Checks a list read from a capture before anything of it can reach the GL, and translates
//! the object names it uses.
//!
//! The replay loop (`replay::replay`) trusts its input: every packet starts with an opcode
//! below `OPCODE_COUNT` and fits in the packet buffer, and every array offset lies inside the
//! parameter buffer with room for what the GL reads there. Lists recorded by glcmd's methods
//! are so by construction; a list read from a file is so only once `check_list` has passed
//! it. For each packet, from the generated tables (`generated::capture::OPCODES`):
//!
//! * the opcode is known, its packet lies inside the list, and it is not refused (an `unsafe`
//!   recording method: the size of its data depends on GL state glcmd does not check);
//! * every array argument's offset and length lie inside the parameter buffer: the length is
//!   computed as the GL will compute it (count times element size, the pname's count, a string
//!   up to its NUL or its length argument, each string of a string table), counts are not
//!   negative, and a `_len` field agrees with the count argument it must equal;
//! * the markers for "offset into the bound buffer" and "null" appear only where the recording
//!   method can write them (elsewhere the GL would read through a null pointer);
//! * every object name is one the capture created (`Names`), and is translated when replaying.
//!
//! Nothing here allocates in proportion to a count read from the file.

use super::calls::{CallProblem, Names};
use super::tables::{ArrayField, Int, Len, NameCount, NameField, Opcode};
use crate::generated::capture::OPCODES;
use crate::generated::pname::Count;
use crate::generated::{OPCODE_COUNT, SLOTS};
use crate::vocab::params::{BYTES_NULL, BYTES_OFFSET};

/// Why a packet is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PacketProblem {
    UnknownOpcode(u16),
    PastEnd { function: &'static str, slots: usize, left: usize },
    Refused { function: &'static str, reason: &'static str },
    OutOfRange { function: &'static str, param: &'static str, start: u64, end: u64, size: usize },
    NegativeCount { function: &'static str, param: &'static str, count: i64 },
    CountMismatch { function: &'static str, param: &'static str, len: i64, count: i64 },
    Unterminated { function: &'static str, param: &'static str },
    Marker { function: &'static str, param: &'static str, marker: &'static str },
    Name { function: &'static str, problem: CallProblem },
}

impl std::fmt::Display for PacketProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PacketProblem::UnknownOpcode(opcode) => {
                write!(f, "unknown opcode {opcode} (this build has {OPCODE_COUNT})")
            }
            PacketProblem::PastEnd { function, slots, left } => {
                write!(f, "{function}: the packet needs {slots} slots, but the list ends after {left}")
            }
            PacketProblem::Refused { function, reason } => {
                write!(f, "{function} is not replayed from a capture: {reason}")
            }
            PacketProblem::OutOfRange { function, param, start, end, size } => {
                write!(f, "{function}: `{param}` spans bytes {start}..{end} of a {size}-byte parameter buffer")
            }
            PacketProblem::NegativeCount { function, param, count } => {
                write!(f, "{function}: `{param}` has a negative count ({count})")
            }
            PacketProblem::CountMismatch { function, param, len, count } => {
                write!(f, "{function}: `{param}` holds {len} bytes, but its count argument says {count}")
            }
            PacketProblem::Unterminated { function, param } => {
                write!(f, "{function}: `{param}` has no NUL inside the parameter buffer")
            }
            PacketProblem::Marker { function, param, marker } => {
                write!(f, "{function}: `{param}` is marked as {marker}, which this argument cannot be")
            }
            PacketProblem::Name { function, problem } => write!(f, "{function}: {problem}"),
        }
    }
}

/// No source: a name's problem is part of the message.
impl std::error::Error for PacketProblem {}

/// Where a problem is: the packet's slot and its command index in the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    pub slot: usize,
    pub command: usize,
    pub problem: PacketProblem,
}

// The bytes of a run of 8-byte slots.
pub(crate) use crate::capture_writer::words_as_bytes as bytes;

fn bytes_mut(words: &mut [u64]) -> &mut [u8] {
    // SAFETY: as in `bytes`; the borrow is exclusive.
    unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), words.len() * 8) }
}

/// The opcode of the packet starting at `word`.
pub(crate) fn opcode(word: u64) -> u16 {
    let b = word.to_ne_bytes();
    u16::from_ne_bytes([b[0], b[1]])
}

/// Checks every packet of a list; with `names`, checks (loading) or translates (replay, when
/// `write`) the object names. Returns the number of commands.
pub(crate) fn check_list(
    packets: &mut [u64],
    params: &mut [u64],
    names: Option<&mut dyn Names>,
    write: bool,
) -> Result<u64, At> {
    let mut names = names;
    let (mut at, mut command) = (0usize, 0usize);
    while at < packets.len() {
        let fail = |problem| At { slot: at, command, problem };
        let op = opcode(packets[at]);
        if op as usize >= OPCODE_COUNT {
            return Err(fail(PacketProblem::UnknownOpcode(op)));
        }
        let info: &Opcode = &OPCODES[op as usize];
        let slots = SLOTS[op as usize] as usize;
        if slots == 0 || packets.len() - at < slots {
            return Err(fail(PacketProblem::PastEnd { function: info.function, slots, left: packets.len() - at }));
        }
        if let Some(reason) = info.refused {
            return Err(fail(PacketProblem::Refused { function: info.function, reason }));
        }
        {
            let packet = bytes(&packets[at..at + slots]);
            let params = bytes(params);
            for field in info.arrays {
                check_array(info.function, field, packet, params).map_err(fail)?;
            }
        }
        if let Some(names) = names.as_deref_mut() {
            let packet = bytes_mut(&mut packets[at..at + slots]);
            let params = bytes_mut(params);
            for field in info.names {
                map_names(info.function, field, packet, params, names, write).map_err(fail)?;
            }
        }
        at += slots;
        command += 1;
    }
    Ok(command as u64)
}

/// The offset stored in an array field.
fn offset_of(field: &ArrayField, packet: &[u8]) -> u64 {
    let size = if field.wide { 8 } else { 4 };
    Int { at: field.at, size, signed: false }.read(packet) as u64
}

fn check_range(
    function: &'static str,
    param: &'static str,
    start: u64,
    len: u64,
    params: &[u8],
) -> Result<(), PacketProblem> {
    let end = start.saturating_add(len);
    // The replay loop addresses parameters with 32-bit offsets.
    if start > u32::MAX as u64 || end > params.len() as u64 {
        return Err(PacketProblem::OutOfRange { function, param, start, end, size: params.len() });
    }
    Ok(())
}

fn count(function: &'static str, param: &'static str, value: i64) -> Result<u64, PacketProblem> {
    u64::try_from(value).map_err(|_| PacketProblem::NegativeCount { function, param, count: value })
}

/// Bytes from `start` up to and including the first NUL.
fn until_nul(function: &'static str, param: &'static str, start: u64, params: &[u8]) -> Result<u64, PacketProblem> {
    check_range(function, param, start, 0, params)?;
    match params[start as usize..].iter().position(|&b| b == 0) {
        Some(n) => Ok(n as u64 + 1),
        None => Err(PacketProblem::Unterminated { function, param }),
    }
}

fn check_array(function: &'static str, field: &ArrayField, packet: &[u8], params: &[u8]) -> Result<(), PacketProblem> {
    let param = field.param;
    let start = offset_of(field, packet);
    if field.nullable && !field.wide && start == u32::MAX as u64 {
        return Ok(());
    }
    let len = match field.len {
        Len::Count { count: c, elem, div } => {
            let n = count(function, param, c.read(packet))? / div.max(1) as u64;
            n.saturating_mul(elem as u64)
        }
        Len::Const { bytes } => bytes as u64,
        Len::Bytes { len, elem, offsets, null, equals } => {
            let n = len.read(packet) as u32;
            match n {
                BYTES_OFFSET if offsets => return Ok(()),
                BYTES_OFFSET => return Err(PacketProblem::Marker { function, param, marker: "a buffer offset" }),
                BYTES_NULL if null => return Ok(()),
                BYTES_NULL => return Err(PacketProblem::Marker { function, param, marker: "a null pointer" }),
                _ => {}
            }
            if let Some(c) = equals {
                let want = c.read(packet);
                if want != n as i64 {
                    return Err(PacketProblem::CountMismatch { function, param, len: n as i64, count: want });
                }
            }
            (n as u64).saturating_mul(elem as u64)
        }
        Len::Pname { pname, count, elem } => {
            let n = match count(pname.read(packet) as u32) {
                Some(Count::Fixed(n)) => n as u64,
                // As the recording method pads an array whose pname the tables do not know.
                _ => 16,
            };
            n.saturating_mul(elem as u64)
        }
        // A length the recording method derived from the string is never negative; the GL
        // would read a negative one as "up to a NUL", and Mesa's glDeleteNamedStringARB
        // allocates `length + 1` bytes for any negative but -1.
        Len::String { length } => match length.map(|l| l.read(packet)) {
            Some(n) => count(function, param, n)?,
            None => until_nul(function, param, start, params)?,
        },
        Len::Strings { count: c, lengths } => {
            let n = count(function, param, c.read(packet))?;
            let table = n.saturating_mul(4);
            check_range(function, param, start, table, params)?;
            let lengths_at = match lengths {
                Some(at) => {
                    let l = Int { at, size: 4, signed: false }.read(packet) as u64;
                    check_range(function, param, l, table, params)?;
                    Some(l)
                }
                None => None,
            };
            let word = |at: u64| {
                let at = at as usize;
                u32::from_ne_bytes(params[at..at + 4].try_into().expect("4 bytes"))
            };
            for i in 0..n {
                let s = word(start + i * 4) as u64;
                // Lengths are the strings' lengths as recorded: never negative.
                match lengths_at.map(|l| word(l + i * 4) as i32 as i64) {
                    Some(len) => check_range(function, param, s, count(function, param, len)?, params)?,
                    None => {
                        until_nul(function, param, s, params)?;
                    }
                }
            }
            table
        }
    };
    check_range(function, param, start, len, params)
}

fn read_u32(b: &[u8], at: usize) -> u32 {
    u32::from_ne_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn map_names(
    function: &'static str,
    field: &NameField,
    packet: &mut [u8],
    params: &mut [u8],
    names: &mut dyn Names,
    write: bool,
) -> Result<(), PacketProblem> {
    let Some(class) = field.class.resolve(packet) else { return Ok(()) };
    let param = field.param;
    let mut one = |slot: &mut [u8]| -> Result<(), PacketProblem> {
        let name = u32::from_ne_bytes(slot[..4].try_into().expect("4 bytes"));
        let mapped = names.map(class, name, param).map_err(|problem| PacketProblem::Name { function, problem })?;
        if write {
            slot[..4].copy_from_slice(&mapped.to_ne_bytes());
        }
        Ok(())
    };
    let at = field.at as usize;
    match field.array {
        None => one(&mut packet[at..at + 4]),
        Some((n, nullable)) => {
            let start = read_u32(packet, at) as u64;
            if nullable && start == u32::MAX as u64 {
                return Ok(());
            }
            let n = match n {
                NameCount::Field(c) => count(function, param, c.read(packet))?,
                NameCount::Const(k) => k as u64,
            };
            check_range(function, param, start, n.saturating_mul(4), params)?;
            for i in 0..n as usize {
                let p = start as usize + i * 4;
                one(&mut params[p..p + 4])?;
            }
            Ok(())
        }
    }
}

/// The programs the links of a (checked) list link, for the program interface cache.
pub(crate) fn links(packets: &[u64]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < packets.len() {
        let op = opcode(packets[at]) as usize;
        let slots = SLOTS[op] as usize;
        if let Some(program) = OPCODES[op].links {
            out.push(program.read(bytes(&packets[at..at + slots])) as u32);
        }
        at += slots;
    }
    out
}
