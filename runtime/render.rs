//! The render thread: the one thread that owns the GL context, and its loop.
//!
//! The thread creates (or adopts) the context, loads the function table (`loader.rs`), reads
//! the binding shadow's limits, and then serves the device's channel. Its [`Scheduler`] decides
//! what to do next, following the ordering rules stated in `frame.rs`: creates at once; a frame
//! whose slots have all run ends (deferred deletes, pool, present); a round trip whose barrier
//! has been reached runs; otherwise the next slot's list replays, if it has arrived.
//!
//! ## Waiting
//!
//! When there is nothing to do the thread spins on the channel for `Options::spin` (a thread
//! wake-up costs more than most gaps between lists), then parks. Parks are counted per frame
//! (`FrameStats::parks`), since each one costs a wake-up when the next list arrives.
//!
//! While the next slot to replay has not been submitted, the thread publishes that as a stall
//! (`SharedState::stall`, read by `wait_frames`) and keeps a timer: past the watchdog limit it reports
//! what waits on whom; past `Options::wait_limit` a frame that holds later frames back is given
//! up (its missing slots skipped), and round trips still blocked fail with `Error::Blocked`.
//!
//! ## Messages from the render thread itself
//!
//! Closures running here (`with_gl`, `post`, callbacks) may submit, post or drop the last
//! handle. Those messages go to a queue of this thread's own ([`send_local`]), drained before
//! the channel, so the thread never blocks on its own bounded channel.
//!
//! ## Failure
//!
//! A panic on this thread is caught: the reason and the breadcrumbs are stored for
//! `DeviceLost`, the thread-local pointers to the context are cleared *before* the context is
//! dropped (so nothing that runs during the unwinding can reach a freed function table), and
//! every queued round trip is dropped, which answers its caller.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use crate::channel::{recycle, recycle_unreplayed, CallKind, SharedState};
use crate::context::GlContext;
use crate::options::FrameStats;

/// The channel's messages and jobs, as this thread serves them (with its own context).
type Msg = crate::channel::Msg<RenderContext>;
type Job = crate::channel::Job<RenderContext>;
use crate::diagnostics::{self, Diagnostics};
use crate::generated::types::GLsync;
use crate::generated::Gl;
use crate::list::CommandList;
use crate::loader::ContextInfo;
use crate::replay::{self, ReplayState};
use crate::shadow::Target;
use crate::vocab::{Class, Report, ReportKind};
use crate::{debug_groups, Error};

/// How the render thread gets its context.
pub(crate) enum ContextSource {
    Headless,
    Window(glutin::context::NotCurrentContext, glutin::surface::Surface<glutin::surface::WindowSurface>),
}

thread_local! {
    /// The render context of this thread, while it is the render thread.
    static CURRENT: Cell<Option<*const RenderContext>> = const { Cell::new(None) };
    /// Messages this thread sent to itself (see the module essay).
    static LOCAL: RefCell<Option<VecDeque<Msg>>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's render context, if it is a render thread with a live context.
pub(crate) fn with_current<R>(f: impl FnOnce(Option<&RenderContext>) -> R) -> R {
    let ctx = CURRENT.with(|c| c.get());
    // SAFETY: CURRENT is set only while the RenderContext lives on this thread's stack, and is
    // cleared (by `CurrentGuard`) before it is dropped; RenderContext is only used through
    // shared references.
    f(ctx.map(|p| unsafe { &*p }))
}

/// Queues a message from the render thread to itself; gives it back when this is not a render
/// thread (the caller sends it over the channel instead).
#[allow(clippy::result_large_err)]
pub(crate) fn send_local(msg: Msg) -> Result<(), Msg> {
    LOCAL.with(|l| match l.borrow_mut().as_mut() {
        Some(q) => {
            q.push_back(msg);
            Ok(())
        }
        None => Err(msg),
    })
}

fn take_local() -> Option<Msg> {
    LOCAL.with(|l| l.borrow_mut().as_mut().and_then(VecDeque::pop_front))
}

/// Clears the thread-local pointers when dropped: declared after the RenderContext, so during
/// a normal exit and during unwinding alike it runs before the context is dropped.
struct CurrentGuard;

impl Drop for CurrentGuard {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(None));
        crate::context::mark_render_thread(false);
        crate::loader::set_missing_hook(None);
        #[cfg(feature = "checking")]
        crate::checked::uninstall();
    }
}

/// The checking table over `real`, when asked for (and compiled in).
fn checking_table(real: &Gl, wanted: bool) -> Result<Option<Box<Gl>>, Error> {
    if !wanted {
        return Ok(None);
    }
    #[cfg(feature = "checking")]
    {
        Ok(Some(crate::checked::install(real)))
    }
    #[cfg(not(feature = "checking"))]
    {
        let _ = real;
        Err(Error::DeviceLost {
            reason: "Options::checked_gl needs glcmd built with the `checking` cargo feature".into(),
        })
    }
}

/// What round-trip closures see on the render thread.
pub struct RenderContext {
    /// The table calls go through: the driver's, or the checking table (`Options::checked_gl`).
    gl: Box<Gl>,
    /// The driver's own table when `gl` is the checking one.
    real: Option<Box<Gl>>,
    context: GlContext,
    pub(crate) info: ContextInfo,
    pub(crate) state: RefCell<ReplayState>,
    pub(crate) common: Arc<SharedState>,
    /// Dropped after the context: the debug callback points into it.
    pub(crate) diag: Box<Diagnostics>,
}

impl RenderContext {
    /// The function table that generated queries call through.
    pub fn gl(&self) -> &Gl {
        &self.gl
    }

    /// The driver's own table: for glcmd's internal calls and for application closures
    /// (`with_gl`, `post`), which pass memory of their own.
    pub fn raw_gl(&self) -> &Gl {
        self.real.as_deref().unwrap_or(&self.gl)
    }

    /// The GL sync object behind a glcmd sync handle.
    pub fn sync_object(&self, function: &'static str, id: u32) -> Result<GLsync, Error> {
        let state = self.state.try_borrow().map_err(|_| Error::UnknownSync { function, id })?;
        state.syncs.get(&id).copied().ok_or(Error::UnknownSync { function, id })
    }

    /// Names a create (`created`) or gen function returned: live (again) for use-after-delete
    /// tracking, and known to the binding shadow.
    pub fn objects_created(&self, class: &'static str, names: &[u32], created: bool) {
        if self.diag.options.track_deletes {
            self.diag.objects_created(class, names);
        }
        if class == "program" {
            // A name handed out again: what was kept for an older program of that name goes.
            self.common.programs.created(names);
        }
        if let (Ok(mut state), Some(class)) = (self.state.try_borrow_mut(), Class::from_xml(class)) {
            state.shadow.names_created(class, names, created);
        }
    }

    /// Before a query that names an object: the name exists (see `Shadow::check_name`).
    pub fn check_name(&self, function: &'static str, class: Class, name: u32, first: bool) -> Result<(), Error> {
        match self.state.try_borrow_mut() {
            Ok(mut state) => state
                .shadow
                .check_name(self.raw_gl(), class, name, first)
                .map_err(|_| Error::NoSuchObject { function, class: class.name(), name }),
            // Inside replay (a callback): the shadow is in use; the GL decides.
            Err(_) => Ok(()),
        }
    }

    /// A program was linked outside a list (`create_shader_programv`): the interface cache
    /// reads it.
    pub fn program_linked(&self, program: u32) {
        if let Ok(mut state) = self.state.try_borrow_mut() {
            let state = &mut *state;
            state.programs.linked(self.raw_gl(), program, false, &mut state.raised);
        }
    }

    /// The error of a query of a function the context lacks.
    pub fn unavailable(&self, function: &'static str) -> Error {
        let (major, minor) = self.info.version;
        Error::Unavailable {
            function,
            reason: format!(
                "OpenGL {major}.{minor} by {}; {}",
                self.info.vendor,
                if self.info.mesa_dispatch_checked {
                    "not in gl.xml's features of this version and extensions, or unknown to Mesa's dispatch table"
                } else {
                    "not in gl.xml's features of this version and extensions"
                }
            ),
        }
    }

    /// Runs `f` with `target` unbound (if a buffer is bound to it), then binds it again: an
    /// output pointer of a query stays a pointer.
    pub fn without_buffer<R>(&self, target: Target, f: impl FnOnce() -> R) -> R {
        match self.state.try_borrow() {
            Ok(state) => replay::without_buffer(self.raw_gl(), &state.shadow, target, f),
            // Inside replay (a callback): the shadow is in use; read the binding from the GL.
            Err(_) => {
                let mut bound = 0;
                let pname = match target {
                    Target::PixelPack => crate::gl::PIXEL_PACK_BUFFER_BINDING,
                    Target::Query => crate::gl::QUERY_BUFFER_BINDING,
                    _ => crate::gl::PIXEL_UNPACK_BUFFER_BINDING,
                };
                // SAFETY: a single-integer query; binds of 0 and of the buffer read back.
                let raw = self.raw_gl();
                unsafe { (raw.GetIntegerv)(pname, &mut bound) };
                if bound == 0 {
                    return f();
                }
                unsafe { (raw.BindBuffer)(target.gl_enum(), 0) };
                let r = f();
                unsafe { (raw.BindBuffer)(target.gl_enum(), bound as u32) };
                r
            }
        }
    }

    /// Reads the bindings back after code that may have changed them behind the shadow.
    /// Also forgets the cached interfaces of programs such code deleted (`programs.rs`).
    pub(crate) fn refresh_shadow(&self) {
        if let Ok(mut state) = self.state.try_borrow_mut() {
            state.shadow.refresh(self.raw_gl());
        }
        self.common.programs.forget_dead(self.raw_gl());
    }

    /// [`Shadow::audit`](crate::shadow::Shadow::audit) of the binding shadow (empty if the
    /// shadow is in use by a replay further up this thread's stack).
    pub(crate) fn audit_shadow(&self) -> Vec<String> {
        match self.state.try_borrow() {
            Ok(state) => state.shadow.audit(self.raw_gl()),
            Err(_) => Vec::new(),
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
    /// Received lists, by slot; grown as lists arrive (never to more than the frame's slots).
    lists: Vec<Option<CommandList>>,
    /// Replayed lists, kept (for deferred deletes) until the end.
    replayed: Vec<CommandList>,
    /// The Frame handle was dropped: missing slots are skipped.
    closed: bool,
    /// Given up after stalling later work (rule 4).
    abandoned: bool,
    stats: FrameStats,
}

impl FrameSlots {
    fn has_list(&self, slot: u32) -> bool {
        self.lists.get(slot as usize).is_some_and(Option::is_some)
    }

    fn done(&self) -> bool {
        self.slots.is_some_and(|n| self.next >= n)
    }
}

/// A round trip waiting for its barrier.
struct PendingCall {
    /// The latest list received before it: it runs once that (and everything before) ran.
    barrier: Option<(u64, u32)>,
    name: &'static str,
    kind: CallKind,
    job: Job,
}

/// The slot replay is waiting for, since when, and what has been reported about it.
struct Waiting {
    frame: u64,
    slot: u32,
    since: Instant,
    reported: bool,
}

/// Decides what the render thread does next.
struct Scheduler {
    /// Frames from the oldest unfinished one on, consecutive ids.
    frames: VecDeque<FrameSlots>,
    /// Id of `frames[0]`.
    first: u64,
    calls: VecDeque<PendingCall>,
    /// Creates, run before anything else.
    creates: VecDeque<(&'static str, Job)>,
    /// Ended frames' bookkeeping, reused.
    spare: Vec<FrameSlots>,
    shutting_down: bool,
    waiting: Option<Waiting>,
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
            let last = f.lists.iter().rposition(Option::is_some)?;
            Some((f.id, last as u32))
        })
    }

    fn is_replayed(&self, pos: (u64, u32)) -> bool {
        match self.frames.front() {
            None => true,
            Some(f) => pos.0 < f.id || (pos.0 == f.id && pos.1 < f.next),
        }
    }

    /// Slots not yet received that lie before `barrier`, in replay order.
    fn missing_before(&self, barrier: (u64, u32)) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.frames.iter().take_while(move |f| f.id <= barrier.0).flat_map(move |f| {
            let end = if f.id == barrier.0 { barrier.1 } else { f.slots.unwrap_or(0) };
            (f.next..end).filter(move |&s| !f.has_list(s) && !f.closed && !f.abandoned).map(move |s| (f.id, s))
        })
    }

    fn handle(&mut self, msg: Msg, ctx: &RenderContext) {
        let common = &ctx.common;
        match msg {
            Msg::Begin { frame, slots } => {
                let f = self.frame_mut(frame);
                f.slots = Some(slots);
            }
            Msg::List { frame, slot, list } => {
                let late =
                    frame < self.first || self.frames.get((frame - self.first) as usize).is_some_and(|f| f.abandoned);
                if late {
                    // `Frame::submit` gives such a list back to its caller (it checks the frame
                    // under the lock the frame is given up with); this is the fallback.
                    common.sink.send(Report::lifecycle(
                        ReportKind::Submission,
                        format!(
                            "frame {frame}: slot {slot} was submitted after the frame ended (it had been given up); \
                             the list was dropped"
                        ),
                    ));
                    recycle_unreplayed(common, list);
                    return;
                }
                let f = self.frame_mut(frame);
                let slot = slot as usize;
                if f.lists.len() <= slot {
                    f.lists.resize_with(slot + 1, || None);
                }
                if f.lists[slot].is_some() {
                    common.sink.send(Report::lifecycle(
                        ReportKind::Submission,
                        format!("frame {frame}: slot {slot} was submitted twice; the second list was dropped"),
                    ));
                    recycle_unreplayed(common, list);
                } else {
                    f.lists[slot] = Some(list);
                }
            }
            Msg::Close { frame } => {
                // Every slot may have run, and the frame ended, before its handle was dropped.
                if frame >= self.first {
                    self.frame_mut(frame).closed = true;
                }
            }
            Msg::Call { name, kind: CallKind::Create, job, .. } => self.creates.push_back((name, job)),
            Msg::Call { name, kind, thread, job } => {
                let barrier = self.latest_pending();
                if kind == CallKind::Query {
                    if let Some(e) = barrier.and_then(|b| self.would_deadlock(b, name, thread, common)) {
                        job(Err(e));
                        return;
                    }
                }
                self.calls.push_back(PendingCall { barrier, name, kind, job });
            }
            Msg::Refill => {}
            Msg::Shutdown => self.shutting_down = true,
        }
    }

    /// A round trip from `thread` whose barrier lies behind a slot only `thread` could submit.
    fn would_deadlock(
        &self,
        barrier: (u64, u32),
        name: &'static str,
        thread: ThreadId,
        common: &SharedState,
    ) -> Option<Error> {
        let open = common.open.lock().unwrap_or_else(|e| e.into_inner());
        for (frame, slot) in self.missing_before(barrier) {
            if let Some(reason) = open.owed_by(frame, slot, thread) {
                return Some(Error::WouldDeadlock { what: name.to_string(), frame, slot, reason });
            }
        }
        None
    }

    /// Does everything that can be done now.
    fn run(&mut self, ctx: &RenderContext) {
        loop {
            if let Some(msg) = take_local() {
                self.handle(msg, ctx);
                continue;
            }
            // 0. Creates never wait.
            if let Some((name, call)) = self.creates.pop_front() {
                ctx.diag.round_trip(Some(name));
                call(Ok(ctx));
                ctx.diag.round_trip(None);
                continue;
            }
            // 1. A frame whose slots have all run ends before anything else happens.
            if self.frames.front().is_some_and(FrameSlots::done) {
                self.end_frame(ctx);
                continue;
            }
            // 2. A round trip whose predecessors have all run.
            if let Some(call) = self.calls.front() {
                if call.barrier.is_none_or(|b| self.is_replayed(b)) {
                    let call = self.calls.pop_front().expect("front exists");
                    ctx.diag.round_trip(Some(call.name));
                    (call.job)(Ok(ctx));
                    ctx.diag.round_trip(None);
                    continue;
                }
            }
            // 3. The next list, unless it was submitted after a waiting round trip.
            let limit = self.calls.front().and_then(|c| c.barrier);
            let shutting_down = self.shutting_down;
            let Some(f) = self.frames.front_mut() else { break };
            if limit.is_some_and(|b| (f.id, f.next) > b) {
                break;
            }
            let next = f.next as usize;
            if let Some(list) = f.lists.get_mut(next).and_then(Option::take) {
                if self.waiting.take().is_some() {
                    // The slot came: `wait_frames` must not see the old stall any more.
                    *ctx.common.stall.lock().unwrap_or_else(|e| e.into_inner()) = None;
                }
                replay_list(ctx, f, list);
                continue;
            }
            // A closed or given-up frame (or any frame at shutdown) skips slots that never came.
            if (f.closed || f.abandoned || shutting_down) && f.slots.is_some_and(|n| f.next < n) {
                if !f.abandoned {
                    ctx.common.sink.send(Report::lifecycle(
                        ReportKind::Submission,
                        format!("frame {}: slot {} was never submitted; the frame ends without it", f.id, f.next),
                    ));
                }
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
        self.note_waiting(ctx);
    }

    /// After `run`: if replay waits for a slot that has not been submitted, remember since
    /// when, and publish it for `wait_frames`.
    fn note_waiting(&mut self, ctx: &RenderContext) {
        let now_waiting = self.frames.front().and_then(|f| {
            let blocked = f.slots.is_some_and(|n| f.next < n) && !f.has_list(f.next) && !f.closed && !f.abandoned;
            blocked.then_some((f.id, f.next))
        });
        match (&self.waiting, now_waiting) {
            (Some(w), Some((frame, slot))) if (w.frame, w.slot) == (frame, slot) => {}
            (_, Some((frame, slot))) => {
                let since = Instant::now();
                self.waiting = Some(Waiting { frame, slot, since, reported: false });
                *ctx.common.stall.lock().unwrap_or_else(|e| e.into_inner()) = Some((frame, slot, since));
                ctx.common.frame_ended.notify_all();
            }
            (Some(_), None) => {
                self.waiting = None;
                *ctx.common.stall.lock().unwrap_or_else(|e| e.into_inner()) = None;
            }
            (None, None) => {}
        }
    }

    /// Whether anything waits behind the slot replay is waiting for.
    fn later_work(&self) -> (bool, bool) {
        let later_frames = self.frames.iter().skip(1).any(|f| f.lists.iter().any(Option::is_some) || f.closed);
        let calls = self.calls.iter().any(|c| c.barrier.is_some_and(|b| !self.is_replayed(b)));
        (later_frames, calls)
    }

    /// How long the render thread may park before a stall deadline.
    fn timeout(&self, ctx: &RenderContext) -> Option<Duration> {
        let w = self.waiting.as_ref()?;
        let (frames, calls) = self.later_work();
        let watchdog = ctx.diag.options.watchdog.filter(|_| !w.reported && (frames || calls));
        let limit = (frames || calls).then_some(ctx.common.options.wait_limit);
        let deadline = [watchdog, limit].into_iter().flatten().min()?;
        Some(deadline.saturating_sub(w.since.elapsed()).max(Duration::from_millis(1)))
    }

    /// Acts on a stall that has lasted: reports it (watchdog), gives up a frame that holds later
    /// frames back, fails round trips blocked on it (rules 4 and 7 of the ordering rules).
    fn check_stall(&mut self, ctx: &RenderContext) {
        let Some(w) = &mut self.waiting else { return };
        let (frame, slot, waited) = (w.frame, w.slot, w.since.elapsed());
        let (later_frames, calls) = {
            // Only later frames are held back by a missing slot; lists of the same frame
            // waiting for it are not a reason to give the frame up.
            let (frames, calls) = (
                self.frames.iter().skip(1).any(|f| f.lists.iter().any(Option::is_some) || f.closed),
                self.calls.iter().any(|c| c.barrier.is_some_and(|b| (b.0, b.1) >= (frame, slot))),
            );
            (frames, calls)
        };
        let w = self.waiting.as_mut().expect("checked above");
        if let Some(limit) = ctx.diag.options.watchdog {
            if !w.reported && waited >= limit && (later_frames || calls) {
                w.reported = true;
                let blocked: Vec<&str> = self.calls.iter().map(|c| c.name).collect();
                let stalled = format!(
                    "replay has waited {} ms for frame {frame} slot {slot}, which has not been submitted{}",
                    waited.as_millis(),
                    if blocked.is_empty() {
                        String::new()
                    } else {
                        format!("; blocked round trips: {}", blocked.join(", "))
                    }
                );
                let post_mortem = ctx.common.capture.as_ref().map(|r| r.post_mortem_note(&stalled)).unwrap_or_default();
                ctx.common.sink.send(Report {
                    kind: ReportKind::Stall,
                    call: if blocked.is_empty() {
                        format!("frame {frame}")
                    } else {
                        format!("round trip {}", blocked.join(", "))
                    },
                    list: None,
                    index: None,
                    site: None,
                    message: format!("{stalled}{post_mortem}"),
                    deleted_by: None,
                    breadcrumbs: Vec::new(),
                });
            }
        }
        if waited < ctx.common.options.wait_limit {
            return;
        }
        if later_frames {
            // Rule 4: give the frame up.
            let f = self.frames.front_mut().expect("waiting on the front frame");
            let missing: Vec<u32> = (f.next..f.slots.unwrap_or(f.next)).filter(|&s| !f.has_list(s)).collect();
            // A slot submitted and still in the channel is not given up: `Frame::submit` marks
            // it under this lock before sending, or finds the frame given up and keeps its list.
            if !ctx.common.open.lock().unwrap_or_else(|e| e.into_inner()).abandon(frame, &missing) {
                return;
            }
            f.abandoned = true;
            ctx.common.sink.send(Report::lifecycle(
                ReportKind::AbandonedFrame,
                format!(
                    "frame {frame} held later frames back for {} ms (Options::wait_limit) waiting for slot {slot}; it \
                     was given up and its unsubmitted slots {missing:?} skipped (a leaked Frame, or a worker that \
                     never submitted)",
                    waited.as_millis()
                ),
            ));
            self.waiting = None;
            *ctx.common.stall.lock().unwrap_or_else(|e| e.into_inner()) = None;
            return;
        }
        // Rule 7: round trips blocked on the slot fail.
        let mut kept = VecDeque::with_capacity(self.calls.len());
        for c in self.calls.drain(..) {
            let blocked = c.kind == CallKind::Query && c.barrier.is_some_and(|b| b >= (frame, slot));
            if blocked {
                (c.job)(Err(Error::Blocked { what: c.name.to_string(), frame, slot, waited_ms: waited.as_millis() }));
            } else {
                kept.push_back(c);
            }
        }
        self.calls = kept;
        if let Some(w) = self.waiting.as_mut() {
            w.since = Instant::now();
            w.reported = false;
        }
    }

    fn end_frame(&mut self, ctx: &RenderContext) {
        let common = &ctx.common;
        let mut f = self.frames.pop_front().expect("a frame to end");
        self.first += 1;
        let start = Instant::now();
        {
            let mut state = ctx.state.borrow_mut();
            // SAFETY: the frame's replayed lists, in the order their indices were given.
            unsafe {
                replay::run_deferred(&ctx.gl, ctx.raw_gl(), &mut state, &f.replayed, |list, slot, op| {
                    ctx.diag.delete_ran(list, slot, op)
                })
            };
        }
        if let Some(r) = &common.capture {
            let handing = Instant::now();
            r.frame_ended(&mut f.replayed);
            r.copied(handing.elapsed());
            r.send(crate::capture_writer::recorder::Event::FrameEnd { frame: f.id });
        }
        if let Err(e) = ctx.context.present() {
            ctx.common.sink.send(Report::lifecycle(
                ReportKind::Present,
                format!("presenting frame {} failed: {e}; the window shows an older frame", f.id),
            ));
        }
        f.stats.replay += start.elapsed();
        // The lists go back to the pool before the frame is published as ended, so a thread
        // that waited for the end finds them there.
        for list in f.replayed.drain(..) {
            recycle(common, list);
        }
        {
            let refused = ctx.state.borrow().refused;
            let mut stats = common.stats.lock().unwrap_or_else(|e| e.into_inner());
            stats.frames += 1;
            stats.lists += f.stats.lists as u64;
            stats.commands += f.stats.commands;
            stats.replay += f.stats.replay;
            stats.refused = refused;
            stats.deleted_names = ctx.diag.deleted_names();
            stats.last_frame = f.stats;
        }
        common.ended.store(self.first, Ordering::Release);
        common.frame_ended.notify_all();
        f.lists.clear();
        f.slots = None;
        f.next = 0;
        f.closed = false;
        f.abandoned = false;
        f.stats = FrameStats::default();
        self.spare.push(f);
    }

    fn idle(&self) -> bool {
        self.calls.is_empty()
            && self.creates.is_empty()
            && self.frames.iter().all(|f| f.lists.iter().all(Option::is_none))
            && LOCAL.with(|l| l.borrow().as_ref().is_none_or(VecDeque::is_empty))
    }

    /// The frame whose replay has started and not ended (parks are counted against it).
    fn frame_in_progress(&mut self) -> Option<&mut FrameSlots> {
        self.frames.front_mut().filter(|f| f.next > 0)
    }
}

fn replay_list(ctx: &RenderContext, f: &mut FrameSlots, list: CommandList) {
    let start = Instant::now();
    let index = f.replayed.len() as u32;
    if let Some(r) = &ctx.common.capture {
        // Filed before the list replays, so that what replay sends (a lookup of a program this
        // list links) comes after it in the capture.
        let slots = f.slots.unwrap_or(1);
        if let Some(setup) = r.wants(f.id, slots) {
            let filing = Instant::now();
            r.list(f.id, f.next, slots, index as usize, &list, setup);
            r.copied(filing.elapsed());
        }
    }
    {
        let mut state = ctx.state.borrow_mut();
        let pushed = debug_groups::begin_list(ctx.raw_gl(), &ctx.info, &list);
        // SAFETY: lists reach the render thread only from glcmd's recording methods (packets
        // written by generated code) or from a capture that `capture::validate::check_list`
        // passed, and `ctx.gl` is this thread's table.
        unsafe {
            if ctx.diag.options.any() {
                ctx.diag.replay(&ctx.gl, ctx.raw_gl(), &mut state, &list, index);
            } else {
                replay::replay(&ctx.gl, ctx.raw_gl(), &mut state, &list, index);
            }
        }
        debug_groups::end_list(ctx.raw_gl(), pushed);
    }
    let (packet_bytes, param_bytes) = list.byte_sizes();
    f.stats.lists += 1;
    f.stats.commands += list.commands;
    f.stats.packet_bytes += packet_bytes as u64;
    f.stats.param_bytes += param_bytes as u64;
    f.stats.replay += start.elapsed();
    f.replayed.push(list);
    f.next += 1;
}

/// The render thread's body.
pub(crate) fn run(
    source: ContextSource,
    rx: Receiver<Msg>,
    common: Arc<SharedState>,
    ready: Sender<Result<(), Error>>,
) {
    let options = common.options.clone();
    let diag = Diagnostics::new(options.diagnostics.clone(), common.sink.clone());
    let crumbs = diag.crumbs.clone();
    let watchdog = diag.options.watchdog.map(|limit| {
        // A stall the watchdog reports writes the post-mortem capture, if one is kept.
        let for_stall = common.clone();
        let post_mortem =
            move |why: &str| for_stall.capture.as_ref().map(|r| r.post_mortem_note(why)).unwrap_or_default();
        diagnostics::start_watchdog(crumbs.clone(), limit, common.sink.clone(), Box::new(post_mortem))
    });
    LOCAL.with(|l| *l.borrow_mut() = Some(VecDeque::new()));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let context = match source {
            ContextSource::Headless => GlContext::headless_with(options.robust_access),
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
        let (gl, info) = context.load_gl_with_info();
        {
            // What the context really has, whatever was asked for.
            let mut flags = 0;
            // SAFETY: a single-integer query on the current context.
            unsafe { (gl.GetIntegerv)(crate::gl::CONTEXT_FLAGS, &mut flags) };
            let robust = flags as u32 & crate::gl::CONTEXT_FLAG_ROBUST_ACCESS_BIT != 0;
            common.robust.store(robust, Ordering::Relaxed);
        }
        let _ = common.limits.set(crate::limits::Limits::read(&gl));
        let state = RefCell::new(ReplayState::new(&gl, common.sink.clone(), common.programs.clone()));
        let (gl, real) = match checking_table(&gl, options.checked_gl) {
            Ok(Some(checking)) => (checking, Some(gl)),
            Ok(None) => (gl, None),
            Err(e) => {
                *common.lost.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.to_string());
                let _ = ready.send(Err(e));
                return;
            }
        };
        let ctx = RenderContext { gl, real, context, info, state, common: common.clone(), diag };
        if ctx.diag.options.debug_output {
            ctx.diag.install(ctx.raw_gl());
        }
        CURRENT.with(|c| c.set(Some(&ctx as *const RenderContext)));
        crate::context::mark_render_thread(true);
        let _guard = CurrentGuard;
        {
            let diag: *const Diagnostics = &*ctx.diag;
            // SAFETY: the hook is removed by `_guard` before `ctx` (and its boxed Diagnostics)
            // is dropped.
            crate::loader::set_missing_hook(Some(Box::new(move |name| unsafe { (*diag).report_unavailable(name) })));
        }
        let _ = ready.send(Ok(()));
        let mut scheduler = Scheduler {
            frames: VecDeque::new(),
            first: 0,
            calls: VecDeque::new(),
            creates: VecDeque::new(),
            spare: Vec::new(),
            shutting_down: false,
            waiting: None,
        };
        serve(&mut scheduler, &ctx, &rx, options.spin);
        // Sync objects still alive are deleted with the context.
    }));
    if let Err(panic) = result {
        let message = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        let crumbs = crumbs.summary();
        let crumbs = if crumbs.is_empty() { String::new() } else { format!("; {crumbs}") };
        let reason = format!("the render thread panicked: {message}{crumbs}");
        let post_mortem = common.capture.as_ref().map(|r| r.post_mortem_note(&reason)).unwrap_or_default();
        *common.lost.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!("{reason}{post_mortem}"));
    }
    // Drop whatever is still queued (lists, round trips): their callers get DeviceLost, with
    // the reason set above.
    LOCAL.with(|l| l.borrow_mut().take());
    while rx.try_recv().is_ok() {}
    common.frame_ended.notify_all();
    drop(crumbs);
    if let Some(w) = watchdog {
        let _ = w.join();
    }
    // The capture writer finishes what it has (a post-mortem capture included) before callers
    // can see the device gone.
    if let Some(r) = &common.capture {
        r.finish();
    }
}

/// What waiting for the channel gave.
enum Next {
    Msg(Msg),
    /// A stall deadline passed.
    Timeout,
    /// Every sender is gone.
    Disconnected,
}

/// The message loop: run what can run, then wait (spinning first) for the next message or a
/// stall deadline.
fn serve(scheduler: &mut Scheduler, ctx: &RenderContext, rx: &Receiver<Msg>, spin: Duration) {
    loop {
        scheduler.run(ctx);
        ctx.common.pools.refill(ctx.raw_gl(), |class, names, created| ctx.objects_created(class, names, created));
        if scheduler.shutting_down && scheduler.idle() {
            return;
        }
        match next(scheduler, ctx, rx, spin) {
            Next::Msg(msg) => {
                scheduler.handle(msg, ctx);
                // Take whatever else is queued before running, so a burst is handled in one pass.
                while let Ok(msg) = rx.try_recv() {
                    scheduler.handle(msg, ctx);
                }
            }
            Next::Timeout => scheduler.check_stall(ctx),
            Next::Disconnected => scheduler.shutting_down = true,
        }
    }
}

fn next(scheduler: &mut Scheduler, ctx: &RenderContext, rx: &Receiver<Msg>, spin: Duration) -> Next {
    // Spin a little first: the next list or query usually comes within microseconds.
    let spin_until = Instant::now() + spin;
    loop {
        match rx.try_recv() {
            Ok(m) => return Next::Msg(m),
            Err(crossbeam_channel::TryRecvError::Disconnected) => return Next::Disconnected,
            Err(crossbeam_channel::TryRecvError::Empty) if Instant::now() < spin_until && !scheduler.shutting_down => {
                std::hint::spin_loop()
            }
            Err(crossbeam_channel::TryRecvError::Empty) => break,
        }
    }
    if scheduler.shutting_down {
        // Shutting down with work left that waits for nothing more: run it.
        return Next::Timeout;
    }
    // Park until a message arrives or a stall deadline passes, counting the park.
    let timeout = scheduler.timeout(ctx);
    let start = Instant::now();
    let next = match timeout {
        Some(t) => match rx.recv_timeout(t) {
            Ok(m) => Next::Msg(m),
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
            Err(RecvTimeoutError::Disconnected) => Next::Disconnected,
        },
        None => match rx.recv() {
            Ok(m) => Next::Msg(m),
            Err(_) => Next::Disconnected,
        },
    };
    let parked = start.elapsed();
    if let Some(f) = scheduler.frame_in_progress() {
        f.stats.parks += 1;
        f.stats.parked += parked;
    }
    let mut stats = ctx.common.stats.lock().unwrap_or_else(|e| e.into_inner());
    stats.parks += 1;
    stats.parked += parked;
    next
}
