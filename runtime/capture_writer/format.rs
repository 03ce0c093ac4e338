//! The bytes of a capture file: the header and the records (the format is described in the
//! essay of `capture/mod.rs`). Encoding is used by the recorder's writer thread, decoding by
//! the loader.

use std::panic::Location;

/// The first bytes of every capture.
pub const MAGIC: [u8; 8] = *b"GLCMDCAP";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
/// Written in the writer's byte order: the reader sees these bytes in its own order only if the
/// two agree.
pub const BYTE_ORDER_MARK: u32 = 0x0102_0304;
/// Size of the header in bytes.
pub const HEADER_BYTES: usize = 48;

/// Header flag: a post-mortem capture (the device was lost or stalled).
pub const FLAG_POST_MORTEM: u32 = 1;
/// Header flag: the set-up log had reached its limit; objects made after that are missing.
pub const FLAG_SETUP_INCOMPLETE: u32 = 2;
/// Header flag: fewer frames than asked for (the device went away, or a post-mortem capture
/// ends inside a frame).
pub const FLAG_TRUNCATED: u32 = 4;

/// Header field `families`: bit 0, the `ext` cargo feature (`GL_EXT_*` functions); bit 1,
/// `vendor` (NV, AMD, INTEL, MESA, OVR). Opcodes are indices into the selected functions, so a
/// capture replays only on a build with the same families; the field lets the refusal say
/// which features to build with.
pub const FAMILY_EXT: u32 = 1;
pub const FAMILY_VENDOR: u32 = 2;

/// The families of this build.
pub fn families() -> u32 {
    (if cfg!(feature = "ext") { FAMILY_EXT } else { 0 }) | (if cfg!(feature = "vendor") { FAMILY_VENDOR } else { 0 })
}

/// Families as cargo features: "ext, vendor", or "none" (core, ARB and KHR only).
pub fn family_features(families: u32) -> String {
    let names: Vec<&str> = [(FAMILY_EXT, "ext"), (FAMILY_VENDOR, "vendor")]
        .iter()
        .filter(|(bit, _)| families & bit != 0)
        .map(|(_, name)| *name)
        .collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

/// Record tags.
pub const TAG_CALL: u8 = 1;
pub const TAG_LIST: u8 = 2;
pub const TAG_FRAME_END: u8 = 3;
pub const TAG_SETUP_END: u8 = 4;
pub const TAG_NOTE: u8 = 5;
pub const TAG_END: u8 = 6;

/// The fixed header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub version: u32,
    /// `generated::capture::FINGERPRINT` of the build that wrote the capture.
    pub fingerprint: u64,
    pub flags: u32,
    /// The extension families of the build that wrote it ([`families`]): the function table,
    /// and so every opcode, depends on them.
    pub families: u32,
    /// Number of the first captured frame (as the capturing device numbered its frames).
    pub first_frame: u64,
    /// Frames asked for (a post-mortem capture: the ring's size).
    pub frames: u64,
}

impl Header {
    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(HEADER_BYTES);
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&BYTE_ORDER_MARK.to_ne_bytes());
        b.extend_from_slice(&self.version.to_ne_bytes());
        b.extend_from_slice(&self.fingerprint.to_ne_bytes());
        b.extend_from_slice(&self.flags.to_ne_bytes());
        b.extend_from_slice(&self.families.to_ne_bytes());
        b.extend_from_slice(&self.first_frame.to_ne_bytes());
        b.extend_from_slice(&self.frames.to_ne_bytes());
        debug_assert_eq!(b.len(), HEADER_BYTES);
        b
    }
}

/// Builds one record: tag, payload length, payload.
pub struct Record {
    bytes: Vec<u8>,
}

impl Record {
    pub fn new(tag: u8) -> Record {
        let mut bytes = Vec::with_capacity(64);
        bytes.push(tag);
        bytes.extend_from_slice(&0u32.to_ne_bytes());
        Record { bytes }
    }

    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.bytes.extend_from_slice(&v.to_ne_bytes());
        self
    }

    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.bytes.extend_from_slice(&v.to_ne_bytes());
        self
    }

    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.bytes.extend_from_slice(&v.to_ne_bytes());
        self
    }

    /// A `u32` length and the bytes.
    pub fn blob(&mut self, b: &[u8]) -> &mut Self {
        self.u32(b.len() as u32);
        self.bytes.extend_from_slice(b);
        self
    }

    /// A `u32` byte length and the words' bytes (in memory order: the machine's byte order).
    pub fn words(&mut self, w: &[u64]) -> &mut Self {
        self.u32((w.len() * 8) as u32);
        self.bytes.extend_from_slice(super::words_as_bytes(w));
        self
    }

    pub fn finish(mut self) -> Vec<u8> {
        let len = (self.bytes.len() - 5) as u32;
        self.bytes[1..5].copy_from_slice(&len.to_ne_bytes());
        self.bytes
    }
}

/// A `LIST` record: frame, slot, the frame's slot count, label, packets, parameters, and the
/// recording sites as text (slot, `file:line:column`).
pub fn list_record(
    frame: u64,
    slot: u32,
    slots: u32,
    label: &str,
    packets: &[u64],
    params: &[u64],
    sites: Option<&[(usize, &'static Location<'static>)]>,
) -> Vec<u8> {
    let mut r = Record::new(TAG_LIST);
    r.u64(frame).u32(slot).u32(slots).blob(label.as_bytes()).words(packets).words(params);
    let sites = sites.unwrap_or(&[]);
    r.u32(sites.len() as u32);
    for (at, site) in sites {
        r.u32(*at as u32).blob(format!("{}:{}:{}", site.file(), site.line(), site.column()).as_bytes());
    }
    r.finish()
}

/// A `CALL` record: function index, arguments, answer.
pub fn call_record(function: u16, args: &[u8], answer: &[u8]) -> Vec<u8> {
    let mut r = Record::new(TAG_CALL);
    r.u16(function).blob(args).blob(answer);
    r.finish()
}

pub fn frame_end_record(frame: u64) -> Vec<u8> {
    let mut r = Record::new(TAG_FRAME_END);
    r.u64(frame);
    r.finish()
}

pub fn setup_end_record() -> Vec<u8> {
    Record::new(TAG_SETUP_END).finish()
}

pub fn note_record(text: &str) -> Vec<u8> {
    let mut r = Record::new(TAG_NOTE);
    r.blob(text.as_bytes());
    r.finish()
}

/// The last record: how many records came before it (a file without it was cut short).
pub fn end_record(records: u64) -> Vec<u8> {
    let mut r = Record::new(TAG_END);
    r.u64(records);
    r.finish()
}
