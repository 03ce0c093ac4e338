//! Reading a capture: the header, then every record in order, each checked before the next is
//! read. A file that is not a capture of this build, is cut short, or holds anything the
//! validator refuses gives a [`LoadError`] naming the byte offset (and for a packet, the frame,
//! the list and the command); the loader never panics on input and allocates at most a small
//! multiple of the file's size.

use std::collections::HashMap;
use std::path::Path;

use super::calls::{CallProblem, Names};
use super::format::{self, Header};
use super::validate::{self, PacketProblem};
use crate::vocab::Class;

/// Why a capture cannot be loaded.
#[derive(Debug)]
pub enum LoadError {
    Io {
        path: String,
        message: String,
    },
    NotACapture {
        found: Vec<u8>,
    },
    ByteOrder {
        machine: &'static str,
    },
    Version {
        found: u32,
        supported: u32,
    },
    Fingerprint {
        file: u64,
        this_build: u64,
    },
    Families {
        file: String,
        this_build: String,
    },
    Truncated {
        offset: usize,
        what: String,
    },
    Malformed {
        offset: usize,
        what: String,
    },
    Packet {
        frame: u64,
        /// Index of the list among the frame's lists in the capture.
        list: usize,
        slot: u32,
        label: String,
        command: usize,
        offset: usize,
        problem: PacketProblem,
    },
    Call {
        offset: usize,
        function: String,
        problem: CallProblem,
    },
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Io { path, message } => write!(f, "{path}: {message}"),
            LoadError::NotACapture { found } => {
                write!(f, "not a glcmd capture: it starts with {found:02x?}, not \"GLCMDCAP\"")
            }
            LoadError::ByteOrder { machine } => write!(
                f,
                "the capture was written on a machine of the other byte order; this machine is {machine}-endian"
            ),
            LoadError::Version { found, supported } => {
                write!(f, "capture format version {found}; this build reads version {supported}")
            }
            LoadError::Fingerprint { file, this_build } => write!(
                f,
                "the capture was made by a glcmd build with another opcode table (fingerprint {file:#018x}, this \
                 build {this_build:#018x}); replay it with the glcmd version that wrote it"
            ),
            LoadError::Families { file, this_build } => families_text(f, file, this_build),
            LoadError::Truncated { offset, what } => write!(f, "truncated at byte {offset}: {what}"),
            LoadError::Malformed { offset, what } => write!(f, "malformed record at byte {offset}: {what}"),
            LoadError::Packet { frame, list, slot, label, command, offset, problem } => write!(
                f,
                "frame {frame}, list {list} (slot {slot}{}), command {command} at byte {offset}: {problem}",
                label_text(label)
            ),
            LoadError::Call { offset, function, problem } => write!(f, "{function} at byte {offset}: {problem}"),
        }
    }
}

/// No source: a packet's or a call's problem is part of the message.
impl std::error::Error for LoadError {}

/// The message of [`LoadError::Families`].
fn families_text(f: &mut std::fmt::Formatter<'_>, file: &str, this_build: &str) -> std::fmt::Result {
    write!(
        f,
        "the capture was written by a glcmd build with the extension families {file} (cargo features) and this \
         build has {this_build}: opcodes differ between the two. Build the replayer with the same features \
         (glcmd-replay: `--no-default-features --features \"{file}\"`, or none for \"none\")"
    )
}

fn label_text(label: &str) -> String {
    if label.is_empty() {
        String::new()
    } else {
        format!(", \"{label}\"")
    }
}

/// One list of a capture, checked.
#[derive(Clone, Debug)]
pub struct ListRecord {
    /// Byte offset of the record in the file.
    pub offset: usize,
    /// Byte offset of the first packet in the file.
    pub packets_offset: usize,
    pub frame: u64,
    pub slot: u32,
    pub slots: u32,
    pub label: String,
    pub(crate) packets: Vec<u64>,
    pub(crate) params: Vec<u64>,
    pub commands: u64,
    /// Recording sites, when the capturing device tracked them: (slot, `file:line:column`).
    pub sites: Vec<(u32, String)>,
}

/// Where one packet of a list lies in the file (for tools and tests that patch captures).
#[derive(Clone, Copy, Debug)]
pub struct PacketInfo {
    /// Byte offset of the packet in the file.
    pub offset: usize,
    pub opcode: u16,
    pub function: &'static str,
}

impl ListRecord {
    /// Every packet, with its byte offset in the file.
    pub fn packet_infos(&self) -> Vec<PacketInfo> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < self.packets.len() {
            let opcode = validate::opcode(self.packets[at]);
            let function = crate::generated::NAMES[opcode as usize];
            out.push(PacketInfo { offset: self.packets_offset + at * 8, opcode, function });
            at += crate::generated::SLOTS[opcode as usize] as usize;
        }
        out
    }

    /// Byte offset of the parameter buffer in the file.
    pub fn params_offset(&self) -> usize {
        self.packets_offset + self.packets.len() * 8 + 4
    }

    /// The parameter buffer's bytes.
    pub fn params(&self) -> Vec<u8> {
        self.params.iter().flat_map(|w| w.to_ne_bytes()).collect()
    }

    /// Bytes of packets and of parameters.
    pub fn byte_sizes(&self) -> (usize, usize) {
        (self.packets.len() * 8, self.params.len() * 8)
    }
}

/// One record of a capture.
#[derive(Clone, Debug)]
pub enum Record {
    /// A create or query and its answer: function index, encoded arguments and answer.
    Call {
        offset: usize,
        function: u16,
        args: Vec<u8>,
        answer: Vec<u8>,
    },
    List(ListRecord),
    FrameEnd {
        frame: u64,
    },
    /// The set-up ends; the captured frames follow.
    SetupEnd,
    Note(String),
}

/// A capture, loaded and checked: every packet and record passed the validator.
#[derive(Clone, Debug)]
pub struct Capture {
    pub header: Header,
    pub records: Vec<Record>,
    /// File size in bytes.
    pub bytes: usize,
}

/// Names the capture's creates returned so far, by class (loading).
#[derive(Default)]
pub(crate) struct Known {
    sets: [std::collections::HashSet<u32>; 11],
}

impl Names for Known {
    fn map(&mut self, class: Class, name: u32, param: &'static str) -> Result<u32, CallProblem> {
        if name == 0 || self.sets[class as usize].contains(&name) {
            Ok(name)
        } else {
            Err(CallProblem::UnknownName { param, class, name })
        }
    }

    fn created(&mut self, class: Class, captured: &[u32], _: Option<&[u32]>) {
        self.sets[class as usize].extend(captured.iter().copied().filter(|&n| n != 0));
    }
}

/// Reads fields of a record payload, reporting offsets in the file.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    end: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], LoadError> {
        if n > self.end - self.at {
            let past_file = self.end == self.bytes.len();
            let what = format!("{what}: {n} bytes needed, {} left", self.end - self.at);
            return Err(if past_file {
                LoadError::Truncated { offset: self.at, what }
            } else {
                LoadError::Malformed { offset: self.at, what: format!("{what} in the record") }
            });
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn u16(&mut self, what: &str) -> Result<u16, LoadError> {
        Ok(u16::from_ne_bytes(self.take(2, what)?.try_into().expect("2 bytes")))
    }

    fn u32(&mut self, what: &str) -> Result<u32, LoadError> {
        Ok(u32::from_ne_bytes(self.take(4, what)?.try_into().expect("4 bytes")))
    }

    fn u64(&mut self, what: &str) -> Result<u64, LoadError> {
        Ok(u64::from_ne_bytes(self.take(8, what)?.try_into().expect("8 bytes")))
    }

    fn blob(&mut self, what: &str) -> Result<&'a [u8], LoadError> {
        let n = self.u32(what)? as usize;
        self.take(n, what)
    }

    fn words(&mut self, what: &str) -> Result<(usize, Vec<u64>), LoadError> {
        let at = self.at;
        let b = self.blob(what)?;
        if b.len() % 8 != 0 {
            return Err(LoadError::Malformed {
                offset: at,
                what: format!("{what}: {} bytes, not whole slots", b.len()),
            });
        }
        let words = b.chunks_exact(8).map(|c| u64::from_ne_bytes(c.try_into().expect("8 bytes"))).collect();
        Ok((at + 4, words))
    }

    fn text(&mut self, what: &str) -> Result<String, LoadError> {
        let at = self.at;
        let b = self.blob(what)?;
        String::from_utf8(b.to_vec())
            .map_err(|_| LoadError::Malformed { offset: at, what: format!("{what} is not UTF-8") })
    }
}

impl Capture {
    /// Reads and checks a capture file.
    pub fn open(path: impl AsRef<Path>) -> Result<Capture, LoadError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path)
            .map_err(|e| LoadError::Io { path: path.display().to_string(), message: e.to_string() })?;
        Capture::from_bytes(&bytes)
    }

    /// Checks a capture held in memory.
    pub fn from_bytes(bytes: &[u8]) -> Result<Capture, LoadError> {
        let header = read_header(bytes)?;
        let mut records = Vec::new();
        let mut known = Known::default();
        // Lists seen per frame, for error messages.
        let mut lists_in_frame: HashMap<u64, usize> = HashMap::new();
        let mut at = format::HEADER_BYTES;
        let mut ended = false;
        while at < bytes.len() {
            if ended {
                return Err(LoadError::Malformed { offset: at, what: "bytes after the end record".into() });
            }
            let mut head = Cursor { bytes, at, end: bytes.len() };
            let tag = head.take(1, "record tag")?[0];
            let len = head.u32("record length")? as usize;
            let start = head.at;
            if len > bytes.len() - start {
                return Err(LoadError::Truncated {
                    offset: at,
                    what: format!("a record of {len} bytes, {} left in the file", bytes.len() - start),
                });
            }
            let mut c = Cursor { bytes, at: start, end: start + len };
            match tag {
                format::TAG_CALL => {
                    let function = c.u16("function")?;
                    let args = c.blob("arguments")?.to_vec();
                    let answer = c.blob("answer")?.to_vec();
                    let name = crate::generated::capture::call_info(function).map_or("?", |(n, _)| n);
                    crate::generated::capture::call(function, &args, &answer, &mut known, None)
                        .map_err(|problem| LoadError::Call { offset: at, function: name.to_string(), problem })?;
                    records.push(Record::Call { offset: at, function, args, answer });
                }
                format::TAG_LIST => {
                    let frame = c.u64("frame")?;
                    let slot = c.u32("slot")?;
                    let slots = c.u32("slots")?;
                    let label = c.text("label")?;
                    let (packets_offset, mut packets) = c.words("packets")?;
                    let (_, mut params) = c.words("parameters")?;
                    let n_sites = c.u32("site count")? as usize;
                    if n_sites.saturating_mul(8) > c.end - c.at {
                        return Err(LoadError::Malformed { offset: c.at, what: format!("{n_sites} sites do not fit") });
                    }
                    let mut sites = Vec::with_capacity(n_sites);
                    for _ in 0..n_sites {
                        let s = c.u32("site slot")?;
                        sites.push((s, c.text("site")?));
                    }
                    let list = {
                        let n = lists_in_frame.entry(frame).or_default();
                        *n += 1;
                        *n - 1
                    };
                    let commands =
                        validate::check_list(&mut packets, &mut params, Some(&mut known), false).map_err(|e| {
                            LoadError::Packet {
                                frame,
                                list,
                                slot,
                                label: label.clone(),
                                command: e.command,
                                offset: packets_offset + e.slot * 8,
                                problem: e.problem,
                            }
                        })?;
                    records.push(Record::List(ListRecord {
                        offset: at,
                        packets_offset,
                        frame,
                        slot,
                        slots,
                        label,
                        packets,
                        params,
                        commands,
                        sites,
                    }));
                }
                format::TAG_FRAME_END => records.push(Record::FrameEnd { frame: c.u64("frame")? }),
                format::TAG_SETUP_END => records.push(Record::SetupEnd),
                format::TAG_NOTE => records.push(Record::Note(c.text("note")?)),
                format::TAG_END => {
                    let count = c.u64("record count")?;
                    if count != records.len() as u64 {
                        return Err(LoadError::Malformed {
                            offset: at,
                            what: format!("the end record counts {count} records, the file has {}", records.len()),
                        });
                    }
                    ended = true;
                }
                other => return Err(LoadError::Malformed { offset: at, what: format!("unknown record tag {other}") }),
            }
            if c.at != c.end {
                return Err(LoadError::Malformed {
                    offset: c.at,
                    what: format!("{} bytes left in the record", c.end - c.at),
                });
            }
            at = start + len;
        }
        if !ended {
            return Err(LoadError::Truncated {
                offset: bytes.len(),
                what: "the file ends without its end record".into(),
            });
        }
        Ok(Capture { header, records, bytes: bytes.len() })
    }

    /// The lists, in replay order.
    pub fn lists(&self) -> impl Iterator<Item = &ListRecord> {
        self.records.iter().filter_map(|r| match r {
            Record::List(l) => Some(l),
            _ => None,
        })
    }

    /// Frames the capture holds after its set-up (its captured frames).
    pub fn frames(&self) -> usize {
        let setup_end = self.records.iter().position(|r| matches!(r, Record::SetupEnd)).unwrap_or(0);
        self.records[setup_end..].iter().filter(|r| matches!(r, Record::FrameEnd { .. })).count()
    }

    /// Whether the header carries `flag` (`format::FLAG_*`).
    pub fn has_flag(&self, flag: u32) -> bool {
        self.header.flags & flag != 0
    }
}

fn read_header(bytes: &[u8]) -> Result<Header, LoadError> {
    if bytes.len() < format::MAGIC.len() || bytes[..8] != format::MAGIC {
        return Err(LoadError::NotACapture { found: bytes[..bytes.len().min(8)].to_vec() });
    }
    let mut c = Cursor { bytes, at: 8, end: bytes.len() };
    let bom = c.u32("byte order mark")?;
    if bom != format::BYTE_ORDER_MARK {
        if bom.swap_bytes() == format::BYTE_ORDER_MARK {
            let machine = if cfg!(target_endian = "little") { "little" } else { "big" };
            return Err(LoadError::ByteOrder { machine });
        }
        return Err(LoadError::Malformed { offset: 8, what: format!("byte order mark {bom:#010x}") });
    }
    let version = c.u32("version")?;
    if version != format::VERSION {
        return Err(LoadError::Version { found: version, supported: format::VERSION });
    }
    let fingerprint = c.u64("fingerprint")?;
    let flags = c.u32("flags")?;
    let families = c.u32("families")?;
    if fingerprint != crate::generated::capture::FINGERPRINT {
        if families != format::families() {
            return Err(LoadError::Families {
                file: format::family_features(families),
                this_build: format::family_features(format::families()),
            });
        }
        return Err(LoadError::Fingerprint { file: fingerprint, this_build: crate::generated::capture::FINGERPRINT });
    }
    let first_frame = c.u64("first frame")?;
    let frames = c.u64("frames")?;
    Ok(Header { version, fingerprint, flags, families, first_frame, frames })
}
