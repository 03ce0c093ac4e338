//! The device handle, the render thread, frames and round trips.
//!
//! ## Threads
//!
//! [`Device`] is a cheap `Clone + Send + Sync` handle. Creating one starts the render thread,
//! which creates (or adopts) the GL context, loads [`Gl`] and then serves one channel of
//! messages. The context object never leaves that thread.
//!
//! ## Frames and order
//!
//! Work is submitted in frames. [`Device::begin_frame`] takes the number of lists (slots) the
//! frame will have and returns a [`Frame`]; workers record lists in any order and submit each
//! to its slot. The render thread replays a frame's lists in slot order, starting a list as
//! soon as every lower slot has run, so the result never depends on which worker finished
//! first. Frames run in the order they were begun.
//!
//! The end of a frame is a defined point: when its last slot has run, the deletes recorded in
//! the frame run (see `replay`), the lists go back to the pool, and a window context presents.
//! A `Frame` dropped with slots never submitted ends with those slots empty (and a warning), so
//! a failed worker cannot stall the device.
//!
//! ## Round trips
//!
//! Create and query functions send a closure and wait for its answer. A round trip runs after
//! every list that was submitted before it (including lower slots that still have to arrive, so
//! a query must not wait on a list its own thread has yet to submit), and before any list
//! submitted after it. Called on the render thread itself (from a callback) it runs at once.
//!
//! ## Failure
//!
//! If the render thread panics or cannot create its context, every waiting and later call
//! returns [`Error::DeviceLost`] with the reason; nothing hangs. Dropping the last handle
//! replays every submitted list, then destroys the context.
//!
//! ## Steady state
//!
//! Lists come from a pool and return to it with their capacity; frame bookkeeping is reused;
//! the channel is bounded (preallocated). A steady-state frame makes no heap allocation.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::{JoinHandle, ThreadId};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use crate::context::GlContext;
use crate::diagnostics::{self, DebugMessage, DiagnosticOptions, Diagnostics, Report, Sink};
use crate::generated::types::GLsync;
use crate::generated::Gl;
use crate::list::CommandList;
use crate::replay::{self, ReplayState};
use crate::{special, Error};

/// Messages the channel can hold before senders wait. Preallocated, so sending never allocates.
const CHANNEL_CAPACITY: usize = 4096;
/// Lists the pool keeps for reuse.
const POOL_LIMIT: usize = 1024;

/// A handle to the render thread. Clone it freely; the last handle dropped shuts the thread
/// down after replaying everything submitted.
#[derive(Clone)]
pub struct Device {
    shared: Arc<Shared>,
}

/// What the device side owns: the sender and the thread to join.
struct Shared {
    tx: Sender<Msg>,
    /// Disconnects when the render thread exits: a waiting round trip selects on it, so a
    /// request stuck in the channel of a dead render thread cannot hang its caller.
    alive: Receiver<()>,
    common: Arc<Common>,
    thread: Mutex<Option<JoinHandle<()>>>,
    render_thread: ThreadId,
    track_sites: bool,
}

/// What both sides share.
struct Common {
    pool: Mutex<Vec<CommandList>>,
    lost: Mutex<Option<String>>,
    next_frame: AtomicU64,
    round_trips: AtomicU64,
    stats: Mutex<Stats>,
    /// Notified at every frame end and when the render thread exits (see `wait_frames`).
    frame_ended: Condvar,
    reports: Receiver<Report>,
}

/// Counters of the render thread, for `Device::stats`.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Frames ended.
    pub frames: u64,
    /// Lists and commands replayed.
    pub lists: u64,
    pub commands: u64,
    /// Round trips (create and query calls) served.
    pub round_trips: u64,
    /// The last ended frame.
    pub last_frame: FrameStats,
}

/// Statistics of one frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameStats {
    pub lists: u32,
    pub commands: u64,
    pub packet_bytes: u64,
    pub param_bytes: u64,
    /// Time spent replaying the frame's lists and its deferred deletes.
    pub replay: Duration,
}

/// A round trip's work, run on the render thread.
type Job = Box<dyn FnOnce(&RenderContext) + Send>;
/// A waiting round trip: the position (frame, slot) of the latest list submitted before it,
/// its GL function name, and its work.
type PendingCall = (Option<(u64, u32)>, &'static str, Job);

enum Msg {
    Begin {
        frame: u64,
        slots: u32,
    },
    List {
        frame: u64,
        slot: u32,
        list: CommandList,
    },
    Close {
        frame: u64,
    },
    Call(&'static str, Job),
    /// A create: runs as soon as the render thread sees it, ahead of waiting lists and round
    /// trips. New names cannot affect lists recorded before them, and making creates wait for
    /// lower slots would deadlock a worker that creates while its own slot is unsubmitted.
    Create(&'static str, Job),
    Shutdown,
}

/// How the render thread gets its context.
enum ContextSource {
    Headless,
    Window(glutin::context::NotCurrentContext, glutin::surface::Surface<glutin::surface::WindowSurface>),
}

/// Options for [`Device::with_options`].
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Lists from `command_list` record the source location of every command (implied by any
    /// diagnostic).
    pub track_sites: bool,
    /// Error attribution, strict mode, use-after-delete tracking, watchdog.
    pub diagnostics: DiagnosticOptions,
}

impl Device {
    /// Starts a render thread with a headless context: EGL device platform, OpenGL 4.5 core,
    /// surfaceless (render into framebuffer objects).
    pub fn headless() -> Result<Device, Error> {
        Self::start(ContextSource::Headless, Options::default())
    }

    /// Like [`Device::headless`], with options.
    pub fn with_options(options: Options) -> Result<Device, Error> {
        Self::start(ContextSource::Headless, options)
    }

    /// Starts a render thread on an application's own glutin context and window surface,
    /// handed over *not current*. The render thread makes it current and presents at the end of
    /// every frame (`swap_buffers`).
    pub fn with_window(
        context: glutin::context::NotCurrentContext,
        surface: glutin::surface::Surface<glutin::surface::WindowSurface>,
    ) -> Result<Device, Error> {
        Self::start(ContextSource::Window(context, surface), Options::default())
    }

    fn start(source: ContextSource, options: Options) -> Result<Device, Error> {
        let (tx, rx) = crossbeam_channel::bounded(CHANNEL_CAPACITY);
        let (report_tx, report_rx) = crossbeam_channel::unbounded();
        let track_sites = options.track_sites || options.diagnostics.any();
        let common = Arc::new(Common {
            reports: report_rx,
            pool: Mutex::new(Vec::new()),
            lost: Mutex::new(None),
            next_frame: AtomicU64::new(0),
            round_trips: AtomicU64::new(0),
            stats: Mutex::new(Stats::default()),
            frame_ended: Condvar::new(),
        });
        let (ready_tx, ready_rx) = crossbeam_channel::bounded(1);
        let (alive_tx, alive_rx) = crossbeam_channel::bounded::<()>(0);
        let thread_common = common.clone();
        let thread = std::thread::Builder::new()
            .name("glcmd-render".into())
            .spawn(move || {
                let _alive = alive_tx;
                render_thread(source, options.diagnostics, Sink { tx: report_tx }, rx, thread_common, ready_tx)
            })
            .map_err(|e| Error::DeviceLost { reason: format!("cannot start the render thread: {e}") })?;
        let render_thread = thread.thread().id();
        match ready_rx.recv() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                let _ = thread.join();
                return Err(e);
            }
            Err(_) => {
                let _ = thread.join();
                return Err(Error::DeviceLost { reason: lost_reason(&common) });
            }
        }
        Ok(Device {
            shared: Arc::new(Shared {
                tx,
                alive: alive_rx,
                common,
                thread: Mutex::new(Some(thread)),
                render_thread,
                track_sites,
            }),
        })
    }

    /// A cleared list from the pool (or a new one). Record into it on any thread.
    pub fn command_list(&self) -> CommandList {
        let mut list = self.shared.common.pool.lock().unwrap_or_else(|e| e.into_inner()).pop().unwrap_or_default();
        if self.shared.track_sites != list.sites.is_some() {
            list.track_sites(self.shared.track_sites);
        }
        list
    }

    /// Begins a frame of `slots` lists. Submit exactly one list per slot (an empty list is
    /// fine); the render thread replays them in slot order.
    pub fn begin_frame(&self, slots: usize) -> Result<Frame, Error> {
        let frame = self.shared.common.next_frame.fetch_add(1, Ordering::Relaxed);
        let slots32 =
            u32::try_from(slots).map_err(|_| Error::SlotOutOfRange { slot: slots, slots: u32::MAX as usize })?;
        self.send(Msg::Begin { frame, slots: slots32 })?;
        Ok(Frame { device: self.clone(), frame, slots, submitted: Default::default() })
    }

    /// Submits one list as a frame of its own.
    pub fn submit(&self, list: CommandList) -> Result<(), Error> {
        let frame = self.begin_frame(1)?;
        frame.submit(0, list)
    }

    /// Runs `f` with the raw function table on the render thread, after everything submitted
    /// before. The escape hatch for special functions (`glMapBufferRange`, ...) and vendor
    /// pnames.
    pub fn with_gl<R: Send + 'static>(&self, f: impl FnOnce(&Gl) -> R + Send + 'static) -> Result<R, Error> {
        self.call("with_gl", move |ctx| Ok(f(ctx.gl())))
    }

    /// Queues `f` to run on the render thread after everything submitted so far, and returns at
    /// once (an asynchronous round trip: send results back over a channel of your own). It
    /// still runs if this is the last handle and is dropped right after: dropping the device
    /// runs everything submitted.
    pub fn post(&self, f: impl FnOnce(&Gl) + Send + 'static) -> Result<(), Error> {
        self.send(Msg::Call("post", Box::new(move |ctx| f(ctx.gl()))))
    }

    /// Diagnostic reports (GL errors attributed to recording sites, uses after delete, stalls),
    /// when the device was created with diagnostics on. Every clone of the receiver sees each
    /// report once between them.
    pub fn reports(&self) -> Receiver<Report> {
        self.shared.common.reports.clone()
    }

    /// Sets the application's KHR_debug callback. It runs on the render thread, after glcmd's
    /// own attribution when diagnostics are on (`glDebugMessageCallback` itself is special:
    /// glcmd owns the one GL callback and chains this one).
    pub fn set_debug_callback(&self, callback: impl Fn(&DebugMessage) + Send + 'static) -> Result<(), Error> {
        self.call("glDebugMessageCallback", move |ctx| {
            ctx.diag.install(ctx.gl());
            ctx.diag.set_app_callback(Some(Box::new(callback)));
            Ok(())
        })
    }

    /// Blocks until `frames` frames have ended (their lists replayed, their deletes run), then
    /// returns the counters. Frames end in the order they were begun, so after
    /// `begin_frame` returned the n-th frame (counting from 1), `wait_frames(n)` waits for it.
    /// Allocates nothing and makes no round trip, so an application can keep a number of frames
    /// in flight with it. Returns `DeviceLost` if the render thread dies first.
    pub fn wait_frames(&self, frames: u64) -> Result<Stats, Error> {
        let common = &self.shared.common;
        let mut stats = common.stats.lock().unwrap_or_else(|e| e.into_inner());
        while stats.frames < frames {
            if alive_gone(&self.shared.alive) {
                return Err(self.lost());
            }
            stats = common
                .frame_ended
                .wait_timeout(stats, std::time::Duration::from_millis(100))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        let mut s = stats.clone();
        s.round_trips = common.round_trips.load(Ordering::Relaxed);
        Ok(s)
    }

    /// Counters of the render thread.
    pub fn stats(&self) -> Stats {
        let mut s = self.shared.common.stats.lock().unwrap_or_else(|e| e.into_inner()).clone();
        s.round_trips = self.shared.common.round_trips.load(Ordering::Relaxed);
        s
    }

    /// True on the render thread (inside a `with_gl` closure or a GL callback).
    pub fn is_render_thread(&self) -> bool {
        std::thread::current().id() == self.shared.render_thread
    }

    fn send(&self, msg: Msg) -> Result<(), Error> {
        self.shared.tx.send(msg).map_err(|_| self.lost())
    }

    /// A round trip: runs `f` on the render thread after every earlier submission and returns
    /// its result. Generated create and query methods call this.
    pub(crate) fn call<R: Send + 'static>(
        &self,
        function: &'static str,
        f: impl FnOnce(&RenderContext) -> Result<R, Error> + Send + 'static,
    ) -> Result<R, Error> {
        self.round_trip(function, false, f)
    }

    /// Like [`Device::call`], for create functions: runs without waiting for earlier lists.
    pub(crate) fn create<R: Send + 'static>(
        &self,
        function: &'static str,
        f: impl FnOnce(&RenderContext) -> Result<R, Error> + Send + 'static,
    ) -> Result<R, Error> {
        self.round_trip(function, true, f)
    }

    fn round_trip<R: Send + 'static>(
        &self,
        function: &'static str,
        immediate: bool,
        f: impl FnOnce(&RenderContext) -> Result<R, Error> + Send + 'static,
    ) -> Result<R, Error> {
        self.shared.common.round_trips.fetch_add(1, Ordering::Relaxed);
        if self.is_render_thread() {
            // Waiting for ourselves would deadlock: run now, with the state as it is.
            return CURRENT.with(|c| match c.get() {
                // SAFETY: CURRENT is set while the RenderContext lives on this thread's stack,
                // and RenderContext is only used through shared references.
                Some(ctx) => f(unsafe { &*ctx }),
                None => Err(Error::DeviceLost { reason: "called during render thread start-up or shutdown".into() }),
            });
        }
        let (tx, rx) = crossbeam_channel::bounded(1);
        let job: Job = Box::new(move |ctx| {
            let _ = tx.send(f(ctx));
        });
        self.send(if immediate { Msg::Create(function, job) } else { Msg::Call(function, job) })?;
        crossbeam_channel::select! {
            recv(rx) -> reply => match reply {
                Ok(result) => result,
                // Dropped unanswered: the render thread is dying; wait until it has said why.
                Err(_) => {
                    let _ = self.shared.alive.recv();
                    Err(self.lost())
                }
            },
            // The render thread exited; its answer may still have been sent just before.
            recv(self.shared.alive) -> _ => rx.try_recv().unwrap_or_else(|_| Err(self.lost())),
        }
    }

    fn lost(&self) -> Error {
        Error::DeviceLost { reason: lost_reason(&self.shared.common) }
    }
}

/// Whether the render thread has exited (its end of the `alive` channel is gone).
fn alive_gone(alive: &Receiver<()>) -> bool {
    matches!(alive.try_recv(), Err(crossbeam_channel::TryRecvError::Disconnected))
}

fn lost_reason(common: &Common) -> String {
    common
        .lost
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_else(|| "the render thread has exited".into())
}

impl Drop for Shared {
    fn drop(&mut self) {
        // Everything submitted still runs: the render thread drains the channel first.
        let _ = self.tx.send(Msg::Shutdown);
        if std::thread::current().id() == self.render_thread {
            return; // the last handle died on the render thread itself; it exits on its own
        }
        if let Some(t) = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = t.join();
        }
    }
}

/// One frame's submission handle. `Send + Sync`: share it by reference with scoped worker
/// threads. Dropping it closes the frame; slots never submitted stay empty.
pub struct Frame {
    device: Device,
    frame: u64,
    slots: usize,
    /// Which slots were submitted, for the first 256 slots (no allocation per frame).
    submitted: [AtomicU64; 4],
}

impl Frame {
    /// Submits the list of `slot`.
    pub fn submit(&self, slot: usize, list: CommandList) -> Result<(), Error> {
        if slot >= self.slots {
            return Err(Error::SlotOutOfRange { slot, slots: self.slots });
        }
        if slot < 256 {
            let bit = 1u64 << (slot % 64);
            if self.submitted[slot / 64].fetch_or(bit, Ordering::AcqRel) & bit != 0 {
                return Err(Error::SlotTaken { slot });
            }
        }
        self.device.send(Msg::List { frame: self.frame, slot: slot as u32, list })
    }

    /// The number of slots.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The device this frame belongs to.
    pub fn device(&self) -> &Device {
        &self.device
    }
}

impl Drop for Frame {
    fn drop(&mut self) {
        let _ = self.device.send(Msg::Close { frame: self.frame });
    }
}

thread_local! {
    /// The render context of this thread, while it is the render thread.
    static CURRENT: Cell<Option<*const RenderContext>> = const { Cell::new(None) };
}

/// What round-trip closures see on the render thread.
pub struct RenderContext {
    gl: Box<Gl>,
    context: GlContext,
    state: RefCell<ReplayState>,
    /// Dropped after the context: the debug callback points into it.
    pub(crate) diag: Box<Diagnostics>,
}

impl RenderContext {
    /// The function table.
    pub fn gl(&self) -> &Gl {
        &self.gl
    }

    /// The GL sync object behind a glcmd sync handle.
    pub fn sync_object(&self, function: &'static str, id: u32) -> Result<GLsync, Error> {
        let state = self.state.try_borrow().map_err(|_| Error::UnknownSync { function, id })?;
        state.syncs.get(&id).copied().ok_or(Error::UnknownSync { function, id })
    }

    /// Names a create function returned are live (again), for use-after-delete tracking.
    pub fn objects_created(&self, class: &'static str, names: &[u32]) {
        if self.diag.options.track_deletes {
            self.diag.objects_created(class, names);
        }
    }

    /// A description of the context (EGL device, GL renderer).
    pub fn describe(&self) -> String {
        self.context.describe()
    }
}

/// The lists of one frame.
#[derive(Default)]
struct FrameSlots {
    id: u64,
    /// Known once the Begin message arrived.
    slots: Option<u32>,
    next: u32,
    /// Received lists, by slot; replayed ones are kept (for deferred deletes) until the end.
    lists: Vec<Option<CommandList>>,
    replayed: Vec<CommandList>,
    closed: bool,
    stats: FrameStats,
}

/// Decides what the render thread does next: replay lists in frame and slot order, run round
/// trips at their place in submission order, end frames.
struct Scheduler {
    /// Frames from the oldest unfinished one on, consecutive ids.
    frames: VecDeque<FrameSlots>,
    /// Id of `frames[0]`.
    first: u64,
    /// Round trips, each with the position of the latest list submitted before it.
    calls: VecDeque<PendingCall>,
    /// Creates, run before anything else.
    creates: VecDeque<(&'static str, Job)>,
    /// Ended frames' bookkeeping, reused.
    spare: Vec<FrameSlots>,
    shutting_down: bool,
}

impl Scheduler {
    fn frame_mut(&mut self, id: u64) -> &mut FrameSlots {
        while self.first + self.frames.len() as u64 <= id {
            let mut f = self.spare.pop().unwrap_or_default();
            f.id = self.first + self.frames.len() as u64;
            self.frames.push_back(f);
        }
        let index = (id - self.first) as usize;
        &mut self.frames[index]
    }

    /// The position of the latest list received and not yet replayed.
    fn latest_pending(&self) -> Option<(u64, u32)> {
        self.frames.iter().rev().find_map(|f| {
            let last = f.lists.iter().rposition(|l| l.is_some())?;
            Some((f.id, last as u32))
        })
    }

    fn is_replayed(&self, pos: (u64, u32)) -> bool {
        match self.frames.front() {
            None => true,
            Some(f) => pos.0 < f.id || (pos.0 == f.id && pos.1 < f.next),
        }
    }

    fn handle(&mut self, msg: Msg, common: &Common) {
        match msg {
            Msg::Begin { frame, slots } => {
                let f = self.frame_mut(frame);
                f.slots = Some(slots);
                if f.lists.len() < slots as usize {
                    f.lists.resize_with(slots as usize, || None);
                }
            }
            Msg::List { frame, slot, list } => {
                if frame < self.first {
                    log::error!("frame {frame}: slot {slot} submitted after the frame ended (submitted twice?); the list was dropped");
                    recycle(common, list);
                    return;
                }
                let f = self.frame_mut(frame);
                let slot = slot as usize;
                if f.lists.len() <= slot {
                    f.lists.resize_with(slot + 1, || None);
                }
                if f.lists[slot].is_some() {
                    log::error!("frame {frame}: slot {slot} submitted twice; the second list was dropped");
                    recycle(common, list);
                } else {
                    f.lists[slot] = Some(list);
                }
            }
            Msg::Close { frame } => {
                // Every slot may have run, and the frame ended, before its handle was dropped:
                // then there is nothing left to close.
                if frame >= self.first {
                    self.frame_mut(frame).closed = true;
                }
            }
            Msg::Call(name, call) => {
                let barrier = self.latest_pending();
                self.calls.push_back((barrier, name, call));
            }
            Msg::Create(name, call) => self.creates.push_back((name, call)),
            Msg::Shutdown => self.shutting_down = true,
        }
    }

    /// Does everything that can be done now.
    fn run(&mut self, ctx: &RenderContext, common: &Common) {
        loop {
            // 0. Creates never wait.
            if let Some((name, call)) = self.creates.pop_front() {
                ctx.diag.round_trip(Some(name));
                call(ctx);
                ctx.diag.round_trip(None);
                continue;
            }
            // 1. A frame whose slots have all run ends before anything else happens.
            if let Some(f) = self.frames.front() {
                if f.slots.is_some_and(|n| f.next >= n) {
                    self.end_frame(ctx, common);
                    continue;
                }
            }
            // 2. A round trip whose predecessors have all run.
            if let Some((barrier, _, _)) = self.calls.front() {
                if barrier.is_none_or(|b| self.is_replayed(b)) {
                    let (_, name, call) = self.calls.pop_front().expect("front exists");
                    ctx.diag.round_trip(Some(name));
                    call(ctx);
                    ctx.diag.round_trip(None);
                    continue;
                }
            }
            // 3. The next list, unless it was submitted after a waiting round trip.
            let limit = self.calls.front().and_then(|(b, _, _)| *b);
            let shutting_down = self.shutting_down;
            let Some(f) = self.frames.front_mut() else { break };
            if limit.is_some_and(|b| (f.id, f.next) > b) {
                break;
            }
            let next = f.next as usize;
            if let Some(list) = f.lists.get_mut(next).and_then(Option::take) {
                let start = Instant::now();
                let index = f.replayed.len() as u32;
                {
                    let mut state = ctx.state.borrow_mut();
                    special::begin_list(&ctx.gl, &list);
                    if ctx.diag.options.any() {
                        ctx.diag.replay(&ctx.gl, &mut state, &list, index);
                    } else {
                        replay::replay(&ctx.gl, &mut state, &list, index);
                    }
                    special::end_list(&ctx.gl, &list);
                }
                let (packet_bytes, param_bytes) = list.byte_sizes();
                f.stats.lists += 1;
                f.stats.commands += list.len() as u64;
                f.stats.packet_bytes += packet_bytes as u64;
                f.stats.param_bytes += param_bytes as u64;
                f.stats.replay += start.elapsed();
                f.replayed.push(list);
                f.next += 1;
                continue;
            }
            // A closed frame (or any frame at shutdown) skips slots that never came.
            if (f.closed || shutting_down) && f.slots.is_some_and(|n| f.next < n) {
                log::warn!("frame {}: slot {} was never submitted; the frame ends without it", f.id, f.next);
                f.next += 1;
                continue;
            }
            if shutting_down && f.slots.is_none() {
                // Lists of a frame whose Begin never came cannot exist; drop the entry.
                self.frames.pop_front();
                self.first += 1;
                continue;
            }
            break;
        }
    }

    fn end_frame(&mut self, ctx: &RenderContext, common: &Common) {
        let mut f = self.frames.pop_front().expect("a frame to end");
        self.first += 1;
        let start = Instant::now();
        replay::run_deferred(&ctx.gl, &mut ctx.state.borrow_mut(), &f.replayed);
        if let Err(e) = ctx.context.present() {
            log::error!("presenting frame {} failed: {e}", f.id);
        }
        f.stats.replay += start.elapsed();
        // The lists go back to the pool before the frame is published as ended, so a thread
        // that waited for the end finds them there.
        for list in f.replayed.drain(..) {
            recycle(common, list);
        }
        {
            let mut stats = common.stats.lock().unwrap_or_else(|e| e.into_inner());
            stats.frames += 1;
            stats.lists += f.stats.lists as u64;
            stats.commands += f.stats.commands;
            stats.last_frame = f.stats;
        }
        common.frame_ended.notify_all();
        f.lists.clear();
        f.slots = None;
        f.next = 0;
        f.closed = false;
        f.stats = FrameStats::default();
        self.spare.push(f);
    }

    fn idle(&self) -> bool {
        self.calls.is_empty()
            && self.creates.is_empty()
            && self.frames.iter().all(|f| f.lists.iter().all(Option::is_none))
    }
}

fn recycle(common: &Common, mut list: CommandList) {
    list.clear_commands();
    let mut pool = common.pool.lock().unwrap_or_else(|e| e.into_inner());
    if pool.len() < POOL_LIMIT {
        pool.push(list);
    }
}

fn render_thread(
    source: ContextSource,
    options: DiagnosticOptions,
    sink: Sink,
    rx: Receiver<Msg>,
    common: Arc<Common>,
    ready: Sender<Result<(), Error>>,
) {
    let diag = Diagnostics::new(options, sink.clone());
    let crumbs = diag.crumbs.clone();
    let watchdog = diag.options.watchdog.map(|limit| diagnostics::start_watchdog(crumbs.clone(), limit, sink));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let context = match source {
            ContextSource::Headless => GlContext::headless(),
            ContextSource::Window(c, s) => GlContext::from_window(c, s),
        };
        let context = match context {
            Ok(c) => c,
            Err(e) => {
                *common.lost.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.to_string());
                let _ = ready.send(Err(Error::Context(e)));
                return;
            }
        };
        let gl = Gl::load_with(|name| context.get_proc_address(name));
        let ctx = RenderContext { gl, context, state: RefCell::new(ReplayState::default()), diag };
        if ctx.diag.options.debug_output {
            ctx.diag.install(&ctx.gl);
        }
        CURRENT.with(|c| c.set(Some(&ctx as *const RenderContext)));
        let _ = ready.send(Ok(()));
        let mut scheduler = Scheduler {
            frames: VecDeque::new(),
            first: 0,
            calls: VecDeque::new(),
            creates: VecDeque::new(),
            spare: Vec::new(),
            shutting_down: false,
        };
        loop {
            scheduler.run(&ctx, &common);
            if scheduler.shutting_down && scheduler.idle() {
                break;
            }
            match rx.recv() {
                Ok(msg) => {
                    scheduler.handle(msg, &common);
                    // Take whatever else is queued before running, so a burst is handled in one pass.
                    while let Ok(msg) = rx.try_recv() {
                        scheduler.handle(msg, &common);
                    }
                }
                Err(_) => scheduler.shutting_down = true,
            }
        }
        // Sync objects still alive are deleted with the context.
        CURRENT.with(|c| c.set(None));
        drop(ctx);
    }));
    if let Err(panic) = result {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        CURRENT.with(|c| c.set(None));
        let crumbs = crumbs.summary();
        let crumbs = if crumbs.is_empty() { String::new() } else { format!("; {crumbs}") };
        *common.lost.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(format!("the render thread panicked: {message}{crumbs}"));
    }
    // Drop whatever is still queued (lists, round trips): their callers get DeviceLost, with
    // the reason set above.
    while rx.try_recv().is_ok() {}
    common.frame_ended.notify_all();
    drop(crumbs);
    if let Some(w) = watchdog {
        let _ = w.join();
    }
}
