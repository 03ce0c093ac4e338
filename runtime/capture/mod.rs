//! # Capture and replay
//!
//! A command list holds no pointers: packets and a parameter buffer. So frames can be written
//! to a file and replayed elsewhere (what apitrace does by interposing on every GL call costs
//! glcmd a copy of the lists it already has). A capture serves the engine developer who
//! attaches one to a bug report, the driver developer who replays it without the engine
//! (`glcmd-replay`), and the CI that compares today's frame with yesterday's; kept as a ring of
//! the last frames, it is the post-mortem record when the device is lost or stalls (the idea
//! of D3D12's DRED: what the GPU was doing when it failed, kept where a crash cannot lose it).
//!
//! ## What is captured, and from where
//!
//! A replay starts from a clean context, so a capture also holds what made the objects its
//! frames use. glcmd keeps a **set-up log** from the moment the device starts (with
//! `Options::capture` on): every create with the names it returned, every program interface
//! lookup, and the lists of one-slot frames (`Device::submit`, `begin_frame(1)`), where
//! engines do their loading: uploads, shader builds, framebuffer set-up. A capture asked for
//! mid-run (`Device::capture`, or a post-mortem one) is the set-up log up to its first frame,
//! then everything of its frames: lists, creates, queries with their answers, frame ends.
//!
//! Why a side log rather than capturing from device creation: the post-mortem ring and a
//! capture asked for after an hour of play start mid-run; keeping every frame since creation
//! grows without bound (the scene example records 0.5 MB per frame), while set-up is bounded
//! by the engine's content. Why not snapshot object contents as RenderDoc does: that needs a
//! read-back of every GL state, and glcmd knows packets, not GL state. The cost of the choice:
//! per-frame lists of multi-slot frames that *define* objects used later (a streaming upload
//! inside the frame fan-out) are not in the log; `SetupLog::Everything` keeps every list
//! instead (exact, as apitrace, at the cost of memory), and `setup_limit` bounds either (a
//! capture whose set-up log overflowed says so in its header). Lists that rely on state an
//! earlier, unlogged list left behind replay from the state the set-up leaves; lists that set
//! the state they use (as the README recommends) replay exactly. `Device::with_gl` and `post`
//! closures run arbitrary code and are not captured; a capture notes where they ran.
//!
//! ## The file
//!
//! All integers are in the byte order of the capturing machine, which the header records;
//! packets are stored exactly as they lie in memory (`#[repr(C, packed)]` structs), so a
//! capture is replayed on a machine of the same byte order.
//!
//! ```text
//! header (48 bytes)
//!   magic        8  "GLCMDCAP"
//!   byte order   4  0x01020304 as the writer's u32 (a reader of the other order sees 0x04030201)
//!   version      4  1
//!   fingerprint  8  generated::capture::FINGERPRINT: hash of the opcode table, every packet
//!                   layout, every argument's role, and the encoding of every replayable create
//!                   and query. A capture from a build with another table is refused.
//!   flags        4  1 post-mortem, 2 set-up log incomplete, 4 truncated
//!   reserved     4
//!   first frame  8  the capturing device's number of the first captured frame
//!   frames       8  frames asked for
//! records, in replay order, each: tag u8, payload length u32, payload
//!   1 CALL       function u16 (index in the function table), arguments (u32 length + bytes),
//!                answer (u32 length + bytes): a create with the names it returned, or a query
//!                with the answer it got (encoding: `wire.rs`)
//!   2 LIST       frame u64, slot u32, slots of its frame u32, label (u32 + UTF-8),
//!                packets (u32 byte length + slots), parameters (u32 byte length + slots),
//!                sites u32, then per site: packet slot u32, "file:line:column" (u32 + UTF-8)
//!                (sites only when the capturing device tracked them: diagnostics on)
//!   3 FRAME END  frame u64
//!   4 SET-UP END the set-up log ends; the captured frames follow
//!   5 NOTE       text (u32 + UTF-8): a post-mortem reason, a with_gl that was not captured
//!   6 END        number of records before it; a file without it was cut short
//! ```
//!
//! ## Untrusted input
//!
//! (Loading and replaying need the cargo feature `capture-replay`; writing captures does not.)
//!
//! Replaying a file from elsewhere is replaying untrusted input, so loading
//! ([`Capture::from_bytes`]) checks everything before anything reaches the GL (`validate.rs`):
//! every record lies inside the file, every opcode is known and its packet inside its list,
//! every array offset and length inside the parameter buffer (lengths computed as the GL
//! computes them), counts consistent with lengths, markers only where the recording method can
//! write them, every object name one the capture created, every create and query decodable.
//! Opcodes whose recording method is `unsafe` (pixel data sized by GL state, GPU addresses)
//! are refused: their safety was the application's promise, which a file cannot make. A
//! malformed file gives a [`LoadError`] naming the frame, list, command and byte offset; the
//! loader never panics, never loops on input, and allocates at most a small multiple of the
//! file's size. Replay ([`replay`]) then goes through the ordinary path: lists are submitted
//! to frames of a [`Device`], whose render thread applies the binding shadow,
//! name and range checks it applies to any list; names are translated (`player.rs`) and the
//! translated list checked again. The loader is fuzzed (`replay/tests/fuzz.rs`). A replay cannot
//! amplify the file: a create makes exactly the names it recorded, and what the records would
//! allocate and draw is counted against a resource budget before they reach the device
//! (`budget.rs`).
//!
//! ## What a replay does not reproduce
//!
//! * Uniform locations are not remapped (apitrace remaps them): the recorded lookups are
//!   replayed and compared, so a driver that assigns other locations shows up as `DIFF` lines,
//!   but uniform calls keep the captured locations.
//! * Answers are compared as values: a query whose answer is an object name (a binding) differs
//!   when the replay's names do.
//! * Sync handles are glcmd's ids, replayed as they are (they only mean something between the
//!   fence and the waits of the same capture).
//! * A replay follows the capture's order and frame structure, not its timing.
//!
//! ## Cost
//!
//! Off (`Options::capture: None`), nothing. On, the render thread copies nothing: each list it
//! keeps (the set-up policy, a capture's frames) gives its two buffers to the writer thread when
//! its frame ends, and takes back two the writer has finished with (`recorder.rs` says how the
//! order of events survives the wait). With a post-mortem ring on, every list is copied before
//! it replays instead, so that a list that hangs the driver is in the ring. The writer encodes,
//! keeps the set-up log and the ring, and writes files; creates and queries send their encoded
//! arguments and answer. The summary of a capture says how long each side spent; BENCHMARKS.md
//! has the figures.

// Loading and replaying: the cargo feature `capture-replay` (glcmd-replay turns it on). Its
// call table (`generated::capture::call`) names every `Device` query, so a build with it
// compiles all of them; a build without it compiles only those its crates call.
#[cfg(feature = "capture-replay")]
pub mod budget;
#[cfg(feature = "capture-replay")]
pub mod calls;
#[cfg(feature = "capture-replay")]
pub mod load;
#[cfg(feature = "capture-replay")]
pub mod player;
#[cfg(feature = "capture-replay")]
pub mod tables;
#[cfg(feature = "capture-replay")]
pub mod validate;

use std::path::PathBuf;

#[cfg(feature = "capture-replay")]
pub use budget::{OverBudget, ReplayBudget, Resource};
pub use format::Header;
#[cfg(feature = "capture-replay")]
pub use load::{Capture, ListRecord, LoadError, PacketInfo, Record};
#[cfg(feature = "capture-replay")]
pub use player::{read_final_framebuffer, replay, Image, ReplayError, ReplayEvent, ReplayOptions, ReplaySummary};
pub use recorder::{CaptureHandle, CaptureOptions, CaptureSummary, PostMortem, SetupLog};

pub use crate::capture_writer::{format, recorder, wire};
pub use crate::error::CaptureError;

use crate::device::Device;
use crate::render::RenderContext;

impl Device {
    /// Writes the next `frames` frames (from the next frame begun after this call) to `path`,
    /// with the set-up log before them, so the file replays from a clean context
    /// (`glcmd-replay`). Needs `Options::capture`; one capture at a time. Returns at once; the
    /// handle waits for the file.
    pub fn capture(&self, path: impl Into<PathBuf>, frames: u64) -> Result<CaptureHandle, crate::Error> {
        let common = &self.inner.shared;
        let recorder = common.capture.as_ref().ok_or(CaptureError::Off)?;
        let first = common.next_frame.load(std::sync::atomic::Ordering::Relaxed);
        Ok(recorder.begin(path.into(), first, frames)?)
    }

    /// Records a create or query answered without a round trip (capture hook of the generated
    /// methods; nothing when capture is off).
    #[doc(hidden)]
    pub fn capture_call<T: wire::Put + ?Sized>(&self, function: u16, args: &dyn Fn(&mut wire::Writer), answer: &T) {
        if let Some(r) = &self.inner.shared.capture {
            record_call(r, function, args, wire::encode(answer));
        }
    }
}

impl RenderContext {
    /// Notes, in a capture, code that ran unrecorded (`with_gl`, `post`).
    pub(crate) fn capture_note(&self, what: &str) {
        if let Some(r) = &self.shared.capture {
            r.send(recorder::Event::Note(format!("{what} ran here; its GL calls are not in the capture")));
        }
    }

    /// Records a create or query answered on the render thread (capture hook of the generated
    /// round trips; nothing when capture is off).
    #[doc(hidden)]
    pub fn capture_call<T: wire::Put + ?Sized>(&self, function: u16, args: &dyn Fn(&mut wire::Writer), answer: &T) {
        if let Some(r) = &self.shared.capture {
            record_call(r, function, args, wire::encode(answer));
        }
    }
}

/// Not generic: the hooks above are generic over the answer's type only.
fn record_call(r: &recorder::Recorder, function: u16, args: &dyn Fn(&mut wire::Writer), answer: Vec<u8>) {
    let mut w = wire::Writer::default();
    args(&mut w);
    r.call(function, w.bytes, answer);
}
