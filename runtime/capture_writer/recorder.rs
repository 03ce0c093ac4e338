//! The capturing side: what the device sends, and the writer thread that keeps the set-up log
//! and the post-mortem ring and writes capture files.
//!
//! The render thread does the least it can. A list it must keep is not copied: when the list's
//! frame ends (after its deferred deletes, which read the packets, have run), the list's two
//! buffers are handed to the writer thread, and the list goes back to the pool with two spare
//! buffers the writer has finished with. Until that frame end, the render thread *holds* what
//! it would send: the list's place in the stream, and every event sent after it from any thread
//! (a program lookup answered from the cache on a worker must not overtake the list that linked
//! the program), so the writer sees events in the order they happened. Holding costs a lock and
//! a push; handing over costs two pointer swaps per list.
//!
//! With a post-mortem ring on, a list is copied (a `memcpy` of what it holds) and sent *before*
//! it replays, so that a list that hangs or crashes the driver is in the post-mortem capture;
//! nothing is held then. Sites are `&'static` locations, copied as pointers either way.
//!
//! Encoding, the set-up log, the ring and the file are the writer thread's. Creates and queries
//! send their encoded arguments and answer from whichever thread answered them.

use std::collections::VecDeque;
use std::io::Write;
use std::panic::Location;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender};

use super::format::{self, Header};
pub use super::options::{CaptureOptions, PostMortem, SetupLog};
use crate::error::CaptureError;
use crate::list::CommandList;

/// What the writer thread is sent.
pub(crate) enum Event {
    Call {
        function: u16,
        args: Vec<u8>,
        answer: Vec<u8>,
        setup: bool,
    },
    List {
        frame: u64,
        slot: u32,
        slots: u32,
        label: String,
        packets: Vec<u64>,
        params: Vec<u64>,
        sites: Option<Vec<(usize, &'static Location<'static>)>>,
        setup: bool,
    },
    FrameEnd {
        frame: u64,
    },
    Note(String),
    Start {
        path: PathBuf,
        first: u64,
        frames: u64,
        done: Sender<Result<CaptureSummary, CaptureError>>,
    },
    PostMortem {
        path: PathBuf,
        reason: String,
    },
    Shutdown,
}

/// What a finished capture wrote. `#[non_exhaustive]`: read only, as every counters type of
/// glcmd (`options.rs`).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CaptureSummary {
    pub path: PathBuf,
    /// Frames written (fewer than asked for when the device went away first).
    pub frames: u64,
    pub records: u64,
    pub bytes: u64,
    /// Bytes of list packets and parameters in the captured frames (not the set-up).
    pub list_bytes: u64,
    pub setup_incomplete: bool,
    /// Time the render thread spent on the captured frames' lists: holding and handing them
    /// over, plus copying them when a post-mortem ring is kept (its whole cost).
    pub copy_time: Duration,
    /// Time the writer thread spent encoding and writing the captured frames.
    pub writer_time: Duration,
}

/// A capture in progress (`Device::capture`).
#[derive(Debug)]
pub struct CaptureHandle {
    rx: Receiver<Result<CaptureSummary, CaptureError>>,
    pub(crate) first: u64,
    pub(crate) frames: u64,
}

impl CaptureHandle {
    /// The number of the first frame captured.
    pub fn first_frame(&self) -> u64 {
        self.first
    }

    /// Waits until the capture's frames have ended and the file is written, or the device is
    /// gone (the file then holds the frames that ended, and says it is truncated), at most
    /// `timeout`.
    pub fn wait(&self, timeout: Duration) -> Result<CaptureSummary, CaptureError> {
        match self.rx.recv_timeout(timeout) {
            Ok(r) => r,
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                Err(CaptureError::Timeout { waited_ms: timeout.as_millis(), first: self.first, frames: self.frames })
            }
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => Err(CaptureError::DeviceGone),
        }
    }
}

/// The device's end: shared by the render thread and the application threads.
pub(crate) struct Recorder {
    tx: Sender<Event>,
    options: CaptureOptions,
    /// The frames of the capture asked for: lists of frames in `from..until` are copied.
    from: AtomicU64,
    until: AtomicU64,
    busy: Arc<AtomicBool>,
    dumps: AtomicU32,
    thread: Mutex<Option<JoinHandle<()>>>,
    /// Nanoseconds the render thread spent on lists for the writer, since the device started.
    copy_nanos: Arc<AtomicU64>,
    /// Buffers the writer has encoded, back for the lists handed over (or the next copies): a
    /// large fresh allocation costs page faults, a reused one does not.
    spare: Arc<Mutex<Vec<Vec<u64>>>>,
    /// Events held until the frame in replay ends (module essay), in the order they were sent;
    /// `Some(i)` marks the list `i` of that frame, whose buffers are handed over then.
    held: Mutex<Vec<(Option<usize>, Event)>>,
}

/// Buffers kept for reuse at most.
const SPARE_BUFFERS: usize = 64;

/// Post-mortem captures written per device at most.
const MAX_DUMPS: u32 = 8;

impl Recorder {
    pub(crate) fn start(options: CaptureOptions) -> Result<Recorder, CaptureError> {
        let (tx, rx) = crossbeam_channel::unbounded();
        let busy = Arc::new(AtomicBool::new(false));
        let copy_nanos = Arc::new(AtomicU64::new(0));
        let spare = Arc::new(Mutex::new(Vec::new()));
        let writer = Writer::new(&options, busy.clone(), copy_nanos.clone(), spare.clone());
        let thread =
            std::thread::Builder::new().name("glcmd-capture".into()).spawn(move || writer.run(rx)).map_err(|e| {
                CaptureError::Io { path: PathBuf::new(), message: format!("cannot start the writer thread: {e}") }
            })?;
        Ok(Recorder {
            tx,
            options,
            from: AtomicU64::new(u64::MAX),
            until: AtomicU64::new(0),
            busy,
            dumps: AtomicU32::new(0),
            thread: Mutex::new(Some(thread)),
            copy_nanos,
            spare,
            held: Mutex::new(Vec::new()),
        })
    }

    /// Whether a list of `frame` (of `slots` slots) is copied, and whether it goes to the set-up
    /// log. Render thread, once per list.
    pub(crate) fn wants(&self, frame: u64, slots: u32) -> Option<bool> {
        let setup = match self.options.setup {
            SetupLog::Everything => true,
            SetupLog::OneSlotFrames => slots <= 1,
        };
        let window = frame >= self.from.load(Ordering::Relaxed) && frame < self.until.load(Ordering::Relaxed);
        (setup || window || self.options.post_mortem.is_some()).then_some(setup)
    }

    /// Files list `index` of frame `frame` (render thread, before the list replays): held until
    /// the frame ends, or with a post-mortem ring copied and sent at once (module essay).
    pub(crate) fn list(&self, frame: u64, slot: u32, slots: u32, index: usize, list: &CommandList, setup: bool) {
        let copy_now = self.options.post_mortem.is_some();
        let event = Event::List {
            frame,
            slot,
            slots,
            label: list.label.clone(),
            packets: if copy_now { self.copy(&list.packets) } else { Vec::new() },
            params: if copy_now { self.copy(&list.params) } else { Vec::new() },
            sites: list.sites.clone(),
            setup,
        };
        if copy_now {
            self.send(event);
        } else {
            self.held.lock().unwrap_or_else(|e| e.into_inner()).push((Some(index), event));
        }
    }

    /// The frame whose lists are `lists` has ended and its deferred deletes have run (render
    /// thread): hands the held lists' buffers to the writer, each list getting spare buffers
    /// in exchange, and sends everything held, in order.
    pub(crate) fn frame_ended(&self, lists: &mut [CommandList]) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        for (index, mut event) in held.drain(..) {
            if let (Some(i), Event::List { packets, params, .. }) = (index, &mut event) {
                let Some(list) = lists.get_mut(i) else { continue };
                *packets = std::mem::replace(&mut list.packets, self.spare_buffer());
                *params = std::mem::replace(&mut list.params, self.spare_buffer());
            }
            let _ = self.tx.send(event);
        }
    }

    /// A buffer the writer is done with, or an empty one.
    fn spare_buffer(&self) -> Vec<u64> {
        self.spare.lock().unwrap_or_else(|e| e.into_inner()).pop().unwrap_or_default()
    }

    /// A copy of `words` in a reused buffer (render thread).
    fn copy(&self, words: &[u64]) -> Vec<u64> {
        let reused = {
            let mut spare = self.spare.lock().unwrap_or_else(|e| e.into_inner());
            // The most recently returned buffer that is large enough.
            spare.iter().rposition(|b| b.capacity() >= words.len()).map(|i| spare.swap_remove(i))
        };
        let mut v = reused.unwrap_or_default();
        v.clear();
        v.extend_from_slice(words);
        v
    }

    /// The render thread spent `d` on a list for the writer.
    pub(crate) fn copied(&self, d: Duration) {
        self.copy_nanos.fetch_add(d.as_nanos() as u64, Ordering::Relaxed);
    }

    /// Sends `event` to the writer, or holds it behind a held list (module essay).
    pub(crate) fn send(&self, event: Event) {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if held.is_empty() {
            // The writer is gone only after the render thread finished: nothing to record then.
            let _ = self.tx.send(event);
        } else {
            held.push((None, event));
        }
    }

    /// A create or query and its answer. Creates and program interface lookups go to the set-up
    /// log too.
    pub(crate) fn call(&self, function: u16, args: Vec<u8>, answer: Vec<u8>) {
        let setup = crate::generated::capture::call_info(function).is_some_and(|(_, setup)| setup);
        self.send(Event::Call { function, args, answer, setup });
    }

    /// Starts a capture of frames `first..first + frames`.
    pub(crate) fn begin(&self, path: PathBuf, first: u64, frames: u64) -> Result<CaptureHandle, CaptureError> {
        if frames == 0 {
            return Err(CaptureError::NoFrames);
        }
        if self.busy.swap(true, Ordering::AcqRel) {
            return Err(CaptureError::Busy);
        }
        // The file is created now, so a bad path fails here rather than frames later.
        let file = std::fs::File::create(&path)
            .map_err(|e| CaptureError::Io { path: path.clone(), message: e.to_string() })?;
        drop(file);
        self.until.store(first.saturating_add(frames), Ordering::Relaxed);
        self.from.store(first, Ordering::Relaxed);
        let (done, rx) = crossbeam_channel::bounded(1);
        self.send(Event::Start { path, first, frames, done });
        Ok(CaptureHandle { rx, first, frames })
    }

    /// Asks for a post-mortem capture, if they are on: returns the path it will have.
    pub(crate) fn post_mortem(&self, reason: &str) -> Option<PathBuf> {
        let pm = self.options.post_mortem.as_ref()?;
        let n = self.dumps.fetch_add(1, Ordering::Relaxed);
        if n >= MAX_DUMPS {
            return None;
        }
        let path = numbered(&pm.path, n);
        // Not held: the render thread may be the one that is stuck (and with a ring on, nothing
        // is held anyway).
        let _ = self.tx.send(Event::PostMortem { path: path.clone(), reason: reason.to_string() });
        Some(path)
    }

    /// The text a report or a device-lost reason gets when a post-mortem capture was asked for.
    pub(crate) fn post_mortem_note(&self, reason: &str) -> String {
        match (self.post_mortem(reason), &self.options.post_mortem) {
            (Some(path), Some(pm)) => {
                format!("; the last {} frames are in the post-mortem capture {}", pm.frames, path.display())
            }
            _ => String::new(),
        }
    }

    /// Writes what is pending and stops the writer. Render thread, as it exits.
    pub(crate) fn finish(&self) {
        {
            // A frame that never ended (the render thread is leaving): its lists are gone, the
            // rest of what is held still goes out, in order.
            let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
            for (index, event) in held.drain(..) {
                if index.is_none() {
                    let _ = self.tx.send(event);
                }
            }
        }
        let _ = self.tx.send(Event::Shutdown);
        if let Some(t) = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = t.join();
        }
    }
}

/// `path` for the first dump, `stem-2.ext` for the second, and so on.
fn numbered(path: &Path, n: u32) -> PathBuf {
    if n == 0 {
        return path.to_path_buf();
    }
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{}.{}", n + 1, ext.to_string_lossy()),
        None => format!("{stem}-{}", n + 1),
    };
    path.with_file_name(name)
}

/// One encoded record and its place in the stream.
#[derive(Clone)]
struct Entry {
    seq: u64,
    bytes: Arc<Vec<u8>>,
}

/// The records between two frame ends (the second one included).
struct Bucket {
    entries: Vec<Entry>,
}

/// A capture being written.
struct Window {
    path: PathBuf,
    first: u64,
    last: u64,
    file: Option<std::io::BufWriter<std::fs::File>>,
    opened: bool,
    /// Queries that came after the request and before the window's first frame.
    early: Vec<Entry>,
    records: u64,
    bytes: u64,
    list_bytes: u64,
    frames: u64,
    /// The render thread's copy time when the window opened, and the writer's time since.
    copy_start: u64,
    writer_time: Duration,
    error: Option<String>,
    done: Sender<Result<CaptureSummary, CaptureError>>,
}

/// The writer thread's state.
struct Writer {
    seq: u64,
    setup_kind: SetupLog,
    setup: Vec<Entry>,
    setup_bytes: usize,
    setup_limit: usize,
    setup_full: bool,
    /// A frame whose lists went to the set-up log and whose end has not come yet.
    setup_frame: Option<u64>,
    ring_frames: usize,
    ring: VecDeque<Bucket>,
    current: Bucket,
    window: Option<Window>,
    busy: Arc<AtomicBool>,
    copy_nanos: Arc<AtomicU64>,
    spare: Arc<Mutex<Vec<Vec<u64>>>>,
}

impl Writer {
    fn new(
        options: &CaptureOptions,
        busy: Arc<AtomicBool>,
        copy_nanos: Arc<AtomicU64>,
        spare: Arc<Mutex<Vec<Vec<u64>>>>,
    ) -> Writer {
        Writer {
            seq: 0,
            setup_kind: options.setup,
            setup: Vec::new(),
            setup_bytes: 0,
            setup_limit: options.setup_limit,
            setup_full: false,
            setup_frame: None,
            ring_frames: options.post_mortem.as_ref().map_or(0, |p| p.frames),
            ring: VecDeque::new(),
            current: Bucket { entries: Vec::new() },
            window: None,
            busy,
            copy_nanos,
            spare,
        }
    }

    fn run(mut self, rx: Receiver<Event>) {
        while let Ok(event) = rx.recv() {
            let start = std::time::Instant::now();
            match event {
                Event::Shutdown => break,
                e => self.handle(e),
            }
            if let Some(w) = self.window.as_mut().filter(|w| w.opened) {
                w.writer_time += start.elapsed();
            }
        }
        // The device is gone: a capture in progress ends here.
        if let Some(w) = self.window.take() {
            self.close(w, true);
        }
    }

    fn handle(&mut self, event: Event) {
        match event {
            Event::Call { function, args, answer, setup } => {
                let bytes = format::call_record(function, &args, &answer);
                self.record(bytes, setup, None);
            }
            Event::List { frame, slot, slots, label, packets, params, sites, setup } => {
                let bytes = format::list_record(frame, slot, slots, &label, &packets, &params, sites.as_deref());
                let list_bytes = ((packets.len() + params.len()) * 8) as u64;
                let setup = setup && !(self.setup_kind == SetupLog::OneSlotFrames && slots > 1);
                if setup {
                    self.setup_frame = Some(frame);
                }
                self.open_window(frame);
                if let Some(w) = self.window.as_mut().filter(|w| w.opened) {
                    w.list_bytes += list_bytes;
                }
                self.record(bytes, setup, Some(frame));
                let mut spare = self.spare.lock().unwrap_or_else(|e| e.into_inner());
                for b in [packets, params] {
                    if spare.len() < SPARE_BUFFERS && b.capacity() > 0 {
                        spare.push(b);
                    }
                }
            }
            Event::FrameEnd { frame } => {
                self.open_window(frame);
                let setup = self.setup_frame == Some(frame);
                if setup {
                    self.setup_frame = None;
                }
                self.record(format::frame_end_record(frame), setup, Some(frame));
                if self.ring_frames > 0 {
                    let full = std::mem::replace(&mut self.current, Bucket { entries: Vec::new() });
                    self.ring.push_back(full);
                    while self.ring.len() > self.ring_frames {
                        self.ring.pop_front();
                    }
                }
                if let Some(w) = self.window.as_mut().filter(|w| w.opened) {
                    w.frames += 1;
                    if frame >= w.last {
                        let w = self.window.take().expect("checked");
                        self.close(w, false);
                    }
                }
            }
            Event::Note(text) => self.record(format::note_record(&text), false, None),
            Event::Start { path, first, frames, done } => {
                self.window = Some(Window {
                    path,
                    first,
                    last: first + frames - 1,
                    file: None,
                    opened: false,
                    early: Vec::new(),
                    records: 0,
                    bytes: 0,
                    list_bytes: 0,
                    frames: 0,
                    copy_start: 0,
                    writer_time: Duration::ZERO,
                    error: None,
                    done,
                });
            }
            Event::PostMortem { path, reason } => self.write_post_mortem(&path, &reason),
            Event::Shutdown => {}
        }
    }

    /// Files an encoded record: the set-up log, the ring, the capture being written.
    fn record(&mut self, bytes: Vec<u8>, setup: bool, frame: Option<u64>) {
        let entry = Entry { seq: self.seq, bytes: Arc::new(bytes) };
        self.seq += 1;
        if setup && !self.setup_full {
            if self.setup_bytes + entry.bytes.len() > self.setup_limit {
                self.setup_full = true;
            } else {
                self.setup_bytes += entry.bytes.len();
                self.setup.push(entry.clone());
            }
        }
        if self.ring_frames > 0 {
            self.current.entries.push(entry.clone());
        }
        let Some(w) = self.window.as_mut() else { return };
        if w.opened {
            write(w, &entry.bytes);
        } else if frame.is_none() && !setup {
            // A query between the request and the first captured frame.
            w.early.push(entry);
        }
    }

    /// Opens the capture asked for at the first record of one of its frames.
    fn open_window(&mut self, frame: u64) {
        let incomplete = self.setup_full;
        let Some(w) = self.window.as_mut() else { return };
        if !w.opened && frame >= w.first {
            // The list that opens the window was copied already.
            w.copy_start = self.copy_nanos.load(Ordering::Relaxed);
            open(w, &self.setup, incomplete);
        }
    }

    fn close(&mut self, mut w: Window, truncated: bool) {
        if !w.opened {
            // No frame of the capture ever came: the set-up only.
            open(&mut w, &self.setup, self.setup_full);
        }
        let records = w.records;
        write(&mut w, &format::end_record(records));
        let mut result = match (w.file.take(), w.error.take()) {
            (_, Some(e)) => Err(e),
            (Some(mut f), None) => f.flush().map_err(|e| e.to_string()),
            (None, None) => Err("the file was not opened".into()),
        };
        if truncated && result.is_ok() {
            result = mark_truncated(&w.path).map_err(|e| e.to_string());
        }
        let answer = result
            .map(|()| CaptureSummary {
                path: w.path.clone(),
                frames: w.frames,
                records: w.records,
                bytes: w.bytes,
                list_bytes: w.list_bytes,
                setup_incomplete: self.setup_full,
                copy_time: Duration::from_nanos(self.copy_nanos.load(Ordering::Relaxed).saturating_sub(w.copy_start)),
                writer_time: w.writer_time,
            })
            .map_err(|message| CaptureError::Io { path: w.path.clone(), message });
        let _ = w.done.send(answer);
        self.busy.store(false, Ordering::Release);
    }

    /// The set-up log up to the ring's first frame, then the ring and the frame in progress.
    fn write_post_mortem(&mut self, path: &Path, reason: &str) {
        let start = self
            .ring
            .front()
            .and_then(|b| b.entries.first())
            .or_else(|| self.current.entries.first())
            .map_or(self.seq, |e| e.seq);
        let header = Header {
            version: format::VERSION,
            fingerprint: crate::generated::capture::FINGERPRINT,
            families: format::families(),
            flags: format::FLAG_POST_MORTEM
                | if self.setup_full { format::FLAG_SETUP_INCOMPLETE } else { 0 }
                | if self.current.entries.is_empty() { 0 } else { format::FLAG_TRUNCATED },
            first_frame: 0,
            frames: self.ring_frames as u64,
        };
        let result = (|| -> std::io::Result<()> {
            let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
            f.write_all(&header.encode())?;
            let mut records = 0u64;
            for e in self.setup.iter().take_while(|e| e.seq < start) {
                f.write_all(&e.bytes)?;
                records += 1;
            }
            f.write_all(&format::setup_end_record())?;
            f.write_all(&format::note_record(&format!("post-mortem: {reason}")))?;
            records += 2;
            for e in self.ring.iter().flat_map(|b| &b.entries).chain(&self.current.entries) {
                f.write_all(&e.bytes)?;
                records += 1;
            }
            f.write_all(&format::end_record(records))?;
            f.flush()
        })();
        if let Err(e) = result {
            log::error!("glcmd: the post-mortem capture {} could not be written: {e}", path.display());
        }
    }
}

/// Starts writing a capture: the header, the set-up log so far, the queries since the request.
fn open(w: &mut Window, setup: &[Entry], incomplete: bool) {
    w.opened = true;
    let header = Header {
        version: format::VERSION,
        fingerprint: crate::generated::capture::FINGERPRINT,
        families: format::families(),
        flags: if incomplete { format::FLAG_SETUP_INCOMPLETE } else { 0 },
        first_frame: w.first,
        frames: w.last - w.first + 1,
    };
    match std::fs::File::create(&w.path) {
        Ok(f) => w.file = Some(std::io::BufWriter::with_capacity(1 << 20, f)),
        Err(e) => w.error = Some(e.to_string()),
    }
    if let Some(f) = w.file.as_mut() {
        if let Err(e) = f.write_all(&header.encode()) {
            w.error = Some(e.to_string());
        }
    }
    w.bytes += format::HEADER_BYTES as u64;
    for e in setup {
        write(w, &e.bytes);
    }
    write(w, &format::setup_end_record());
    for e in std::mem::take(&mut w.early) {
        write(w, &e.bytes);
    }
}

fn write(w: &mut Window, bytes: &[u8]) {
    w.records += 1;
    w.bytes += bytes.len() as u64;
    if w.error.is_some() {
        return;
    }
    if let Some(f) = w.file.as_mut() {
        if let Err(e) = f.write_all(bytes) {
            w.error = Some(e.to_string());
        }
    }
}

/// Sets the truncated flag of a written capture.
fn mark_truncated(path: &Path) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::OpenOptions::new().read(true).write(true).open(path)?;
    // Flags are at byte 24 (magic 8, byte order 4, version 4, fingerprint 8).
    f.seek(SeekFrom::Start(24))?;
    let mut b = [0u8; 4];
    f.read_exact(&mut b)?;
    let flags = u32::from_ne_bytes(b) | format::FLAG_TRUNCATED;
    f.seek(SeekFrom::Start(24))?;
    f.write_all(&flags.to_ne_bytes())
}
