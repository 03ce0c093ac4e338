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

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use crate::channel::SharedState;
use crate::context::GlContext;

use crate::diagnostics::{self, Diagnostics};
use crate::render_host::HostJob;
use crate::replay::ReplayState;
use crate::Error;

mod phases;
mod polls;
mod render_context;
mod scheduler;

pub use render_context::RenderContext;
use render_context::{checking_table, CurrentGuard, Msg, CURRENT, LOCAL};
pub(crate) use render_context::{send_local, with_current, ContextSource};
use scheduler::Scheduler;

/// The render thread's body.
pub(crate) fn run(
    source: ContextSource,
    rx: Receiver<Msg>,
    common: Arc<SharedState>,
    ready: Sender<Result<(), Error>>,
    jobs: Option<Receiver<HostJob>>,
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
            // SAFETY: the handles come from `Device::adopt_egl` / `adopt_glx`, whose callers
            // promised they are valid, current on no thread and outlive the device.
            ContextSource::Adopted(handles) => unsafe { GlContext::adopt(handles) },
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
        let mut replay_state = ReplayState::new(&gl, common.sink.clone(), common.programs.clone());
        replay_state.known = Some(crate::known_answers::KnownAtReplay::new(common.known.clone(), info.version));
        replay_state.skip_repeats = options.skip_repeats;
        let state = RefCell::new(replay_state);
        let (gl, real) = match checking_table(&gl, options.checked_gl) {
            Ok(Some(checking)) => (checking, Some(gl)),
            Ok(None) => (gl, None),
            Err(e) => {
                *common.lost.lock().unwrap_or_else(|e| e.into_inner()) = Some(e.to_string());
                let _ = ready.send(Err(e));
                return;
            }
        };
        let ctx = RenderContext { gl, real, context, info, state, shared: common.clone(), diag };
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
            let get_error = ctx.raw_gl().GetError;
            crate::loader::set_missing_hook(Some(Box::new(move |name| {
                unsafe { (*diag).report_unavailable(name) };
                crate::loader::raise_in_stub(get_error);
            })));
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
            clock: phases::PhaseClock::new(),
        };
        // Without a host, a receiver that never delivers: the waits below stay one shape.
        let jobs = jobs.unwrap_or_else(crossbeam_channel::never);
        serve(&mut scheduler, &ctx, &Inbox { rx: &rx, jobs: &jobs }, options.spin);
        // The context may outlive `ctx.diag` (an adopted one is released, not destroyed).
        ctx.diag.detach(ctx.raw_gl());
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

/// What waiting for the channel gave. A temporary of the render loop, moved once from the
/// channel to its match: boxing the message (a `CommandList` by value) would cost an allocation
/// per message for nothing.
#[allow(clippy::large_enum_variant)]
enum Next {
    Msg(Msg),
    /// A job of the render host's (`render_host.rs`), run between the device's work.
    Job(HostJob),
    /// A stall deadline passed.
    Timeout,
    /// Every sender is gone.
    Disconnected,
}

/// What the render loop waits on: the device's channel and the host's jobs (a receiver that
/// never delivers where there is no host).
struct Inbox<'a> {
    rx: &'a Receiver<Msg>,
    jobs: &'a Receiver<HostJob>,
}

impl Inbox<'_> {
    /// A message or job already queued, or why there is none.
    fn try_next(&self) -> Result<Next, crossbeam_channel::TryRecvError> {
        if let Ok(job) = self.jobs.try_recv() {
            return Ok(Next::Job(job));
        }
        match self.rx.try_recv() {
            Ok(m) => Ok(Next::Msg(m)),
            Err(crossbeam_channel::TryRecvError::Disconnected) => Ok(Next::Disconnected),
            Err(e) => Err(e),
        }
    }

    /// Waits for a message or a job, at most `timeout` (None: without a limit).
    fn wait(&self, timeout: Option<Duration>) -> Next {
        let mut select = crossbeam_channel::Select::new();
        let msgs = select.recv(self.rx);
        select.recv(self.jobs);
        let op = match timeout {
            Some(t) => match select.select_timeout(t) {
                Ok(op) => op,
                Err(_) => return Next::Timeout,
            },
            None => select.select(),
        };
        if op.index() == msgs {
            match op.recv(self.rx) {
                Ok(m) => Next::Msg(m),
                Err(_) => Next::Disconnected,
            }
        } else {
            // The host's receiver never disconnects while the host lives; if it does, there is
            // nothing to run and the loop goes on.
            op.recv(self.jobs).map_or(Next::Timeout, Next::Job)
        }
    }
}

/// The message loop: run what can run, then wait (spinning first) for the next message or a
/// stall deadline.
fn serve(scheduler: &mut Scheduler, ctx: &RenderContext, inbox: &Inbox, spin: Duration) {
    loop {
        scheduler.run(ctx);
        ctx.shared.pools.refill(ctx.raw_gl(), |class, names, created| {
            scheduler::forget_repeats(ctx);
            ctx.objects_created(class, names, created)
        });
        if scheduler.shutting_down && scheduler.idle() {
            return;
        }
        let got = next(scheduler, ctx, inbox, spin);
        scheduler.clock.switch(phases::Phase::Other);
        match got {
            Next::Msg(msg) => {
                scheduler.handle(msg, ctx);
                // Take whatever else is queued before running, so a burst is handled in one pass.
                while let Ok(msg) = inbox.rx.try_recv() {
                    scheduler.handle(msg, ctx);
                }
            }
            Next::Job(job) => {
                // A host's job (an EGL call) may run anything on the context.
                scheduler::forget_repeats(ctx);
                job()
            }
            Next::Timeout => scheduler.check_stall(ctx),
            Next::Disconnected => scheduler.shutting_down = true,
        }
    }
}

fn next(scheduler: &mut Scheduler, ctx: &RenderContext, inbox: &Inbox, spin: Duration) -> Next {
    // Spin a little first: the next list or query usually comes within microseconds. The wait
    // is charged to what it waits for (`phases.rs`).
    let spin_until = scheduler.clock.switch(scheduler.wait_phase()) + spin;
    loop {
        match inbox.try_next() {
            Ok(next) => return next,
            Err(_) if Instant::now() < spin_until && !scheduler.shutting_down => std::hint::spin_loop(),
            Err(_) => break,
        }
    }
    if scheduler.shutting_down {
        // Shutting down with work left that waits for nothing more: run it.
        return Next::Timeout;
    }
    // Park until a message arrives or a stall deadline passes, counting the park. A thread in
    // `wait_frames` must know what replay waits for before the render thread sleeps.
    scheduler.publish_waiting(ctx);
    let timeout = scheduler.timeout(ctx);
    let start = Instant::now();
    let next = inbox.wait(timeout);
    let parked = start.elapsed();
    if let Some(f) = scheduler.frame_in_progress() {
        f.stats.parks += 1;
        f.stats.parked += parked;
    }
    let mut stats = ctx.shared.stats.lock().unwrap_or_else(|e| e.into_inner());
    stats.parks += 1;
    stats.parked += parked;
    next
}
