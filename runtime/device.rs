//! The device handle: what application threads hold.
//!
//! [`Device`] is a cheap `Clone + Send + Sync` handle. Creating one starts the render thread
//! (`render.rs`), which creates (or adopts) the GL context, loads the function table and then
//! serves one channel of messages. The context object never leaves that thread. This module is
//! the application side of that channel, as wgpu-hal splits a device from its queue: lists from
//! the pool, frames (`frame.rs`), round trips for creates and queries, and the counters.
//!
//! ## Round trips
//!
//! A create (when its pool is empty) or a query sends a closure and waits for its answer. The
//! ordering rules, including when a round trip runs and when it fails instead of waiting, are
//! stated once, in `frame.rs`. The caller spins briefly before parking (a thread wake-up costs
//! more than a short query), and selects on the render thread's liveness, so a round trip never
//! outlives the render thread. Called on the render thread itself (from `with_gl`, `post` or a
//! callback) a round trip runs at once, with the state as it is.
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

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::{JoinHandle, ThreadId};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use crate::channel::{lost_reason, CallKind, SharedState};
use crate::generated::Gl;
use crate::list::CommandList;
use crate::open_frames::OpenFrames;
use crate::render::{self, ContextSource, RenderContext};
use crate::render_host::{RenderBody, RenderEnd};
use crate::vocab::{DebugMessage, Sink};
use crate::Error;

use crate::options::{Options, Stats};

/// The channel's messages and round-trip jobs, served by this device's render thread.
pub(crate) type Msg = crate::channel::Msg<RenderContext>;
pub(crate) type Job = crate::channel::Job<RenderContext>;

/// Messages the channel can hold before senders wait. Preallocated, so sending never allocates.
const CHANNEL_CAPACITY: usize = 4096;
/// The most names one create call makes (a larger count is refused with an error: no engine
/// creates that many objects at once, and the GL would try).
pub const MAX_CREATE: usize = 1 << 20;

static NEXT_DEVICE: AtomicU64 = AtomicU64::new(1);

/// A handle to the render thread. Clone it freely; the last handle dropped shuts the thread
/// down after replaying everything submitted.
///
/// **Queries answer from the submitted stream.** A query (`get_*`, `is_*`, `get_error`, ...)
/// runs after every list *submitted* before it (ordering rule 6, `frame.rs`); calls still in a
/// list that has not been submitted are not seen, so `compile_shader` recorded in a list and
/// `get_shaderiv(COMPILE_STATUS)` asked before that list is submitted answers for the shader as
/// it was. To read one's own writes, submit first, or record through an immediate context
/// ([`Device::immediate`]), whose queries submit its pending calls before they ask.
#[derive(Clone)]
pub struct Device {
    pub(crate) inner: Arc<HandleInner>,
}

/// What the device side owns: the sender and the thread to join.
pub(crate) struct HandleInner {
    pub(crate) tx: Sender<Msg>,
    /// Disconnects when the render thread exits: a waiting round trip selects on it, so a
    /// request stuck in the channel of a dead render thread cannot hang its caller.
    alive: Receiver<()>,
    pub(crate) shared: Arc<SharedState>,
    thread: Mutex<Option<JoinHandle<()>>>,
    render_thread: ThreadId,
    track_sites: bool,
    /// Presents queued and done (`present.rs`).
    pub(crate) presents: Arc<crate::present_queue::PresentQueue>,
}

/// A round trip's work with its answer type erased (see `Device::call`).
type ErasedJob = Box<dyn FnOnce(&RenderContext) -> Result<Box<dyn Any + Send>, Error> + Send>;

// Only boxing a query's closure is generic over the closure, and unboxing its answer over the
// answer's type: each of the hundreds of generated queries adds a few lines of machine code, not
// its own copy of the channel and the wait.
fn erase_job<R: Send + 'static>(f: impl FnOnce(&RenderContext) -> Result<R, Error> + Send + 'static) -> ErasedJob {
    Box::new(move |ctx| f(ctx).map(box_answer::<R>))
}

fn box_answer<R: Send + 'static>(answer: R) -> Box<dyn Any + Send> {
    Box::new(answer)
}

fn unbox_answer<R: 'static>(answer: Box<dyn Any + Send>) -> R {
    *answer.downcast::<R>().expect("a round trip's job answers its own type")
}

impl Device {
    /// Starts a render thread with a headless context: EGL device platform, OpenGL 4.5 core,
    /// surfaceless. It has **no default framebuffer**: framebuffer 0 is incomplete (drawing to
    /// it raises `GL_INVALID_FRAMEBUFFER_OPERATION`), the initial viewport and scissor box are
    /// 0×0, and [`Device::present`] fails. Render into framebuffer objects.
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

    /// Like [`Device::with_window`], with options.
    pub fn with_window_and_options(
        context: glutin::context::NotCurrentContext,
        surface: glutin::surface::Surface<glutin::surface::WindowSurface>,
        options: Options,
    ) -> Result<Device, Error> {
        Self::start(ContextSource::Window(context, surface), options)
    }

    /// Starts a render thread on an EGL context the application already made (with SDL, GLFW,
    /// raw EGL, or a preload library that intercepted `eglMakeCurrent`). The render thread binds
    /// `EGL_OPENGL_API`, makes the context current with `handles.draw` and `handles.read`, and
    /// loads GL through `handles.get_proc_address`, through which it also resolves every EGL
    /// function it calls (never through the process's global symbols). Framebuffer 0 is the
    /// draw surface's default framebuffer, with the viewport and scissor box the GL gives it
    /// (the surface's size). Presents only when asked ([`Device::present`]). When the last
    /// handle is dropped, the render thread makes no context current; it destroys nothing.
    /// `options.robust_access` cannot change a context that exists already:
    /// [`Device::robust_access`] says whether it has robust buffer access.
    ///
    /// # Safety
    /// * `display` is an initialized `EGLDisplay`, `context` a desktop-OpenGL `EGLContext` of
    ///   it, and `draw`/`read` `EGLSurface`s of it compatible with the context (or both null,
    ///   `EGL_NO_SURFACE`, where `EGL_KHR_surfaceless_context` allows it);
    /// * `get_proc_address` is `eglGetProcAddress` or a function that answers as it does for
    ///   the GL and EGL names, with the C signatures of the functions it returns;
    /// * the context is current on no thread, and no other thread makes it current while the
    ///   device lives;
    /// * the display, context and surfaces (and any native window behind them) stay valid
    ///   until the render thread has exited: the last `Device` handle dropped.
    pub unsafe fn adopt_egl(handles: crate::AdoptEgl, options: Options) -> Result<Device, Error> {
        Self::start(ContextSource::Adopted(crate::adopt::Handles::Egl(handles)), options)
    }

    /// Like [`Device::adopt_egl`], for a GLX context (`glXMakeContextCurrent` with `drawable`
    /// and `read_drawable`, `glXSwapBuffers`), every GLX and GL function looked up through
    /// `handles.get_proc_address`.
    ///
    /// # Safety
    /// * `display` is an Xlib `Display*` made thread-safe (`XInitThreads` called before any
    ///   other Xlib call of the process), `context` a `GLXContext` of it, `drawable` and
    ///   `read_drawable` GLX drawables (windows, pixmaps, pbuffers) compatible with the
    ///   context's config, or 0 (`read_drawable` 0: the same as `drawable`; `drawable` 0: no
    ///   surface, if the context allows it). An X error raised by a bad handle goes to the
    ///   application's Xlib error handler, whose default ends the process;
    /// * `get_proc_address` is `glXGetProcAddressARB` or a function that answers as it does for
    ///   the GL and GLX names;
    /// * the context is current on no thread, and no other thread makes it current while the
    ///   device lives;
    /// * the display connection, context and drawables stay valid until the last `Device`
    ///   handle is dropped.
    pub unsafe fn adopt_glx(handles: crate::AdoptGlx, options: Options) -> Result<Device, Error> {
        Self::start(ContextSource::Adopted(crate::adopt::Handles::Glx(handles)), options)
    }

    fn start(source: ContextSource, options: Options) -> Result<Device, Error> {
        let (tx, rx) = crossbeam_channel::bounded(CHANNEL_CAPACITY);
        let (report_tx, report_rx) = crossbeam_channel::bounded(options.report_capacity.max(1));
        let track_sites = options.track_sites || options.diagnostics.any();
        let sink = Sink::new(report_tx);
        let capture = options.capture.clone().map(crate::capture_writer::recorder::Recorder::start).transpose()?;
        let common = Arc::new(SharedState {
            id: NEXT_DEVICE.fetch_add(1, Ordering::Relaxed),
            options,
            reports: report_rx,
            sink,
            pool: Mutex::new(Vec::new()),
            lost: Mutex::new(None),
            next_frame: AtomicU64::new(0),
            ended: AtomicU64::new(0),
            round_trips: AtomicU64::new(0),
            stats: Mutex::new(Stats::default()),
            frame_ended: Condvar::new(),
            frame_waiters: std::sync::atomic::AtomicUsize::new(0),
            stall: Mutex::new(None),
            open: Mutex::new(OpenFrames::default()),
            warned: AtomicU64::new(0),
            robust: std::sync::atomic::AtomicBool::new(false),
            pools: Default::default(),
            programs: Default::default(),
            buffer_names: Default::default(),
            known: Default::default(),
            recorded: Default::default(),
            limits: std::sync::OnceLock::new(),
            capture,
            senders: Default::default(),
        });
        let (ready_tx, ready_rx) = crossbeam_channel::bounded(1);
        let (alive_tx, alive_rx) = crossbeam_channel::bounded::<()>(0);
        let thread_common = common.clone();
        let body: RenderBody = Box::new(move |jobs| {
            render::run(source, rx, thread_common, ready_tx, jobs);
            RenderEnd::new(alive_tx)
        });
        let (thread, render_thread) = crate::render_host::start(common.options.render_host.as_ref(), body)
            .map_err(|e| Error::DeviceLost { reason: format!("cannot start the render thread: {e}") })?;
        // The render thread has ended when its end of `alive` is gone (a host's thread lives on).
        let join = |thread: Option<JoinHandle<()>>| match thread {
            Some(t) => drop(t.join()),
            None => drop(alive_rx.recv()),
        };
        match ready_rx.recv() {
            Ok(Ok(())) => common.recorded.set_bounds(common.limits.get().and_then(crate::recorded_state::Bounds::of)),
            Ok(Err(e)) => {
                join(thread);
                return Err(e);
            }
            Err(_) => {
                join(thread);
                return Err(Error::DeviceLost { reason: lost_reason(&common) });
            }
        }
        Ok(Device {
            inner: Arc::new(HandleInner {
                tx,
                alive: alive_rx,
                shared: common,
                thread: Mutex::new(thread),
                render_thread,
                track_sites,
                presents: Default::default(),
            }),
        })
    }

    /// A cleared list from the pool (or a new one). Record into it on any thread. Until it is
    /// submitted, the calling thread is taken to hold it: a query from this thread that would
    /// wait for an unclaimed slot another thread has not submitted fails at once, since this
    /// list may be that slot's (*Who owes a slot*, `frame.rs`). To read your own writes, use
    /// [`Device::immediate`]; to record for a frame slot while asking queries, [`Frame::list`](crate::Frame::list).
    pub fn command_list(&self) -> CommandList {
        let mut list = self.inner.shared.pool.lock().unwrap_or_else(|e| e.into_inner()).pop().unwrap_or_default();
        if self.inner.track_sites != list.sites.is_some() {
            list.track_sites(self.inner.track_sites);
        }
        if list.programs.is_none() {
            list.programs = Some(self.inner.shared.programs.clone());
        }
        if list.buffer_names.is_none() {
            list.buffer_names = Some(self.inner.shared.buffer_names.clone());
        }
        if list.known.is_none() {
            list.known = Some(self.inner.shared.known.clone());
        }
        if list.recorded_state.is_none() {
            list.recorded_state = Some(self.inner.shared.recorded.clone());
        }
        // Held by this thread until it is submitted or claimed (`open_frames.rs`: a query from
        // this thread that would wait for an unclaimed slot fails at once).
        let me = Some(std::thread::current().id());
        match &list.hold {
            Some(hold) => *hold.lock().unwrap_or_else(|e| e.into_inner()) = me,
            None => {
                let hold = Arc::new(Mutex::new(me));
                self.inner.shared.open.lock().unwrap_or_else(|e| e.into_inner()).register_hold(&hold);
                list.hold = Some(hold);
            }
        }
        list
    }

    /// What a program lookup checks while it waits for a link to replay (`programs.rs`), called
    /// only when it must wait: device loss; a wait on the render thread itself (the link cannot
    /// replay while the render thread runs the caller); and a wait only the calling thread could
    /// end, the render thread stuck on a slot this thread owes (its own open frame, or a claimed
    /// slot). Each fails at once, naming the frame and slot. Given `Some(waited)` (the wait
    /// limit passed), it returns the `Blocked` error, naming the slot the render thread waits for.
    fn program_wait_check(&self, function: &'static str) -> impl Fn(Option<Duration>) -> Option<Error> + '_ {
        let me = std::thread::current().id();
        move |waited| {
            if alive_gone(&self.inner.alive) {
                return Some(self.lost());
            }
            if self.is_render_thread() {
                return Some(Error::OnRenderThread { what: function });
            }
            let common = &self.inner.shared;
            let stall = *common.stall.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(waited) = waited {
                let (frame, slot) = stall.map_or((0, 0), |(f, s, _)| (f, s));
                return Some(Error::Blocked {
                    what: format!("{function} (waiting for a program's link to replay)"),
                    frame,
                    slot,
                    waited_ms: waited.as_millis(),
                });
            }
            let (frame, slot, _) = stall?;
            let reason = common.open.lock().unwrap_or_else(|e| e.into_inner()).owed_by(frame, slot, me)?;
            Some(Error::WouldDeadlock { what: function.to_string(), frame, slot, reason })
        }
    }

    /// A program interface lookup from the cache (`programs.rs`): `None` when the GL must be
    /// asked.
    pub(crate) fn program_lookup(
        &self,
        function: &'static str,
        program: u32,
        key: (crate::programs::Lookup, u32, &str),
    ) -> Result<Option<i64>, Error> {
        let check = self.program_wait_check(function);
        self.inner.shared.programs.lookup(function, program, key, self.inner.shared.options.wait_limit, &check)
    }

    /// Keeps the GL's answer to a lookup the cache did not hold.
    pub(crate) fn program_remember(&self, program: u32, key: (crate::programs::Lookup, u32, &str), value: i64) {
        self.inner.shared.programs.remember(program, key, value);
    }

    /// The cached link status of a program (`None`: not cached).
    pub(crate) fn program_link_status(&self, function: &'static str, program: u32) -> Result<Option<i32>, Error> {
        let check = self.program_wait_check(function);
        self.inner.shared.programs.link_status(function, program, self.inner.shared.options.wait_limit, &check)
    }

    /// The cached info log of a program (`None`: not cached).
    pub(crate) fn program_info_log(&self, function: &'static str, program: u32) -> Result<Option<String>, Error> {
        let check = self.program_wait_check(function);
        self.inner.shared.programs.info_log(function, program, self.inner.shared.options.wait_limit, &check)
    }

    /// Runs `f` with the raw function table on the render thread, after everything submitted
    /// before. The escape hatch for special functions (`glMapBufferRange`, ...) and vendor
    /// pnames. Whatever `f` binds is read back into the binding shadow afterwards.
    pub fn with_gl<R: Send + 'static>(&self, f: impl FnOnce(&Gl) -> R + Send + 'static) -> Result<R, Error> {
        self.call("with_gl", move |ctx| {
            let r = f(ctx.raw_gl());
            ctx.refresh_shadow();
            ctx.capture_note("with_gl");
            Ok(r)
        })
    }

    /// Compares glcmd's binding shadow (what the render thread believes is bound, which decides
    /// whether an offset may reach the GL) with the GL's own bindings, after everything
    /// submitted so far has run. Returns one line for each place where the shadow claims more
    /// than the GL has (a buffer the GL has not bound, an attribute it thinks reads a buffer
    /// while the GL's reads client memory, a larger storage size); empty when the shadow is
    /// exact or errs on the safe side. A diagnostic for tests and bug reports: it reads back
    /// every tracked vertex array, so it costs a few hundred GL queries.
    pub fn audit_binding_shadow(&self) -> Result<Vec<String>, Error> {
        self.call("audit_binding_shadow", |ctx| Ok(ctx.audit_shadow()))
    }

    /// Queues `f` to run on the render thread after everything submitted so far, and returns at
    /// once (an asynchronous round trip: send results back over a channel of your own). It
    /// still runs if this is the last handle and is dropped right after: dropping the device
    /// runs everything submitted.
    pub fn post(&self, f: impl FnOnce(&Gl) + Send + 'static) -> Result<(), Error> {
        let job: Job = Box::new(move |ctx| {
            if let Ok(ctx) = ctx {
                f(ctx.raw_gl());
                ctx.refresh_shadow();
                ctx.capture_note("post");
            }
        });
        self.send(Msg::Call { name: "post", kind: CallKind::Post, thread: std::thread::current().id(), job })
    }

    /// Diagnostic reports: GL errors attributed to recording sites, commands skipped because an
    /// argument was unsafe, uses after delete, stalls, and lifecycle warnings (a slot never
    /// submitted, a list submitted to an ended frame, a GL function the context lacks). Every
    /// clone of the receiver sees each report once between them. The queue holds
    /// `Options::report_capacity` reports; more are counted in `Stats::reports_dropped`.
    pub fn reports(&self) -> crate::vocab::Reports {
        crate::vocab::Reports::new(self.inner.shared.reports.clone())
    }

    /// Sets the application's KHR_debug callback. It runs on the render thread, after glcmd's
    /// own attribution when diagnostics are on (`glDebugMessageCallback` itself is special:
    /// glcmd owns the one GL callback and chains this one).
    ///
    /// The callback runs inside the GL call that raised the message, often in the middle of a
    /// list's replay. It may call back into glcmd through a clone of the device:
    ///
    /// * `set_debug_callback` (also to replace or clear itself: the new callback gets the next
    ///   message; the old closure is dropped once it has returned);
    /// * queries, creates and `with_gl`: they run at once, with the GL state as it is at that
    ///   command (no waiting for the rest of the list);
    /// * `submit`, `begin_frame`, `Frame::submit` and `post`: queued, replayed after the frame
    ///   being replayed;
    /// * anything that would wait for the render thread (`wait_frames`, a program lookup
    ///   waiting for a link not yet replayed) fails with [`Error::OnRenderThread`].
    ///
    /// Messages the GL raises for the callback's own calls are not delivered (to it or to a
    /// callback it installs) nor reported: that would recurse. A callback that holds a clone of
    /// the device keeps the device alive until it is replaced; dropping the last handle inside
    /// it shuts the device down after what was submitted has replayed.
    pub fn set_debug_callback(&self, callback: impl Fn(&DebugMessage) + Send + 'static) -> Result<(), Error> {
        self.call("glDebugMessageCallback", move |ctx| {
            ctx.diag.install(ctx.raw_gl());
            ctx.diag.set_app_callback(Some(Box::new(callback)));
            // A closure is no C function: `glGetPointerv` answers NULL, not glcmd's trampoline.
            ctx.diag.set_program_pointers(0, 0);
            Ok(())
        })
    }

    /// `glDebugMessageCallback` as a C program calls it (the C ABI's entry point): `callback`
    /// receives the messages, as with [`set_debug_callback`](Self::set_debug_callback), but the
    /// GL's debug state stays as the program set it (glcmd enables neither `GL_DEBUG_OUTPUT` nor
    /// `GL_DEBUG_OUTPUT_SYNCHRONOUS` on its behalf, unless its own diagnostics have), and
    /// `glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION)` / `(GL_DEBUG_CALLBACK_USER_PARAM)` answer
    /// `function` and `user`, the program's own values, not glcmd's trampoline and context.
    /// Returns whether `GL_DEBUG_OUTPUT` and `GL_DEBUG_OUTPUT_SYNCHRONOUS` are enabled once every
    /// call submitted before it has replayed.
    pub fn set_program_debug_callback(
        &self,
        function: usize,
        user: usize,
        callback: impl Fn(&DebugMessage) + Send + 'static,
    ) -> Result<(bool, bool), Error> {
        self.call("glDebugMessageCallback", move |ctx| {
            let gl_fns = ctx.raw_gl();
            ctx.diag.install_callback(gl_fns);
            ctx.diag.set_app_callback(Some(Box::new(callback)));
            ctx.diag.set_program_pointers(function, user);
            // SAFETY: plain state queries.
            let enabled = |cap| unsafe { (gl_fns.IsEnabled)(cap) } != 0;
            Ok((enabled(crate::gl::DEBUG_OUTPUT), enabled(crate::gl::DEBUG_OUTPUT_SYNCHRONOUS)))
        })
    }

    /// A round trip that runs nothing: returns once everything submitted before it has replayed
    /// (and the debug messages it raised have reached the callback).
    pub fn sync_point(&self) -> Result<(), Error> {
        self.call("glcmd sync point", |_| Ok(()))
    }

    /// Blocks until `frames` frames have ended (their lists replayed, their deletes run), then
    /// returns the counters. Frames end in the order they were begun, so after
    /// `begin_frame` returned the n-th frame (counting from 1), `wait_frames(n)` waits for it.
    /// Allocates nothing and makes no round trip, so an application can keep a number of frames
    /// in flight with it.
    ///
    /// Fails at once on the render thread, and when a frame it would wait for is held open by
    /// this thread with slots unsubmitted; fails with [`Error::Blocked`] when the device has
    /// waited `Options::wait_limit` for an unsubmitted slot of such a frame; returns
    /// `DeviceLost` if the render thread dies first.
    pub fn wait_frames(&self, frames: u64) -> Result<Stats, Error> {
        if self.is_render_thread() {
            return Err(Error::OnRenderThread { what: "wait_frames" });
        }
        let common = &self.inner.shared;
        let me = std::thread::current().id();
        let limit = common.options.wait_limit;
        let started = Instant::now();
        let mut stats = common.stats.lock().unwrap_or_else(|e| e.into_inner());
        // Counted while `stats` is held, before the count is read (`wake_frame_waiters`).
        let _counted = common.count_frame_waiter();
        while stats.frames < frames {
            if alive_gone(&self.inner.alive) {
                return Err(self.lost());
            }
            // A frame nobody has begun: only a `begin_frame` can end this wait; past the limit
            // it is an error, as any wait on another thread is.
            let begun = common.next_frame.load(Ordering::Acquire);
            if frames > begun && started.elapsed() >= limit {
                return Err(Error::Blocked {
                    what: format!("wait_frames({frames}): frame {} has not been begun", frames - 1),
                    frame: frames - 1,
                    slot: 0,
                    waited_ms: started.elapsed().as_millis(),
                });
            }
            // The frame the render thread is stuck on, if it is waiting for a slot.
            if let Some((frame, slot, since)) = *common.stall.lock().unwrap_or_else(|e| e.into_inner()) {
                if frame < frames {
                    // (The stall may be a moment old: a slot this thread has just submitted is
                    // on its way, and `owed_by` knows it.)
                    let owed = common.open.lock().unwrap_or_else(|e| e.into_inner()).owed_by(frame, slot, me);
                    if let Some(reason) = owed {
                        return Err(Error::WouldDeadlock {
                            what: format!("wait_frames({frames})"),
                            frame,
                            slot,
                            reason,
                        });
                    }
                    if since.elapsed() >= limit {
                        return Err(Error::Blocked {
                            what: format!("wait_frames({frames})"),
                            frame,
                            slot,
                            waited_ms: since.elapsed().as_millis(),
                        });
                    }
                }
            }
            stats =
                common.frame_ended.wait_timeout(stats, Duration::from_millis(50)).unwrap_or_else(|e| e.into_inner()).0;
        }
        let mut s = stats.clone();
        drop(stats);
        self.fill_counters(&mut s);
        Ok(s)
    }

    /// What the device answers without a round trip from what its render thread read
    /// (`known_answers.rs`): for tests and audits.
    #[doc(hidden)]
    pub fn known_answers(&self) -> &crate::known_answers::KnownAnswers {
        &self.inner.shared.known
    }

    /// The state this device's owning immediate thread recorded (`recorded_state.rs`): for
    /// tests and audits.
    #[doc(hidden)]
    pub fn recorded_state(&self) -> &crate::recorded_state::RecordedState {
        &self.inner.shared.recorded
    }

    /// The context's implementation-dependent constants, read once at start-up (`limits.rs`):
    /// the `glGet*` methods answer them from here without a round trip.
    pub fn limits(&self) -> &crate::limits::Limits {
        self.inner.shared.limits.get().expect("the render thread reads the limits before the device is handed out")
    }

    /// Whether the context has robust buffer access (`Options::robust_access` asked for it and
    /// the driver offered it): reads past the end of a buffer return zeros.
    pub fn robust_access(&self) -> bool {
        self.inner.shared.robust.load(Ordering::Relaxed)
    }

    /// Counters of the render thread.
    pub fn stats(&self) -> Stats {
        let mut s = self.inner.shared.stats.lock().unwrap_or_else(|e| e.into_inner()).clone();
        self.fill_counters(&mut s);
        s
    }

    fn fill_counters(&self, s: &mut Stats) {
        s.round_trips = self.inner.shared.round_trips.load(Ordering::Relaxed);
        s.reports_dropped = self.inner.shared.sink.dropped();
        s.pooled_names = self.inner.shared.pools.held();
        (s.program_entries, s.program_answers) = self.inner.shared.programs.held();
    }

    /// True on the render thread (inside a `with_gl` closure or a GL callback).
    pub fn is_render_thread(&self) -> bool {
        std::thread::current().id() == self.inner.render_thread
    }

    /// Sends a message (noted: `SenderChanges`). On the render thread it goes to the thread's
    /// own queue instead of the bounded channel, which the render thread itself drains: a `post`
    /// or `submit` loop inside `with_gl` must not wait for the thread it runs on.
    pub(crate) fn send(&self, msg: Msg) -> Result<(), Error> {
        self.inner.shared.senders.note();
        if self.is_render_thread() {
            return render::send_local(msg).map_err(|_| self.lost());
        }
        self.inner.tx.send(msg).map_err(|_| self.lost())
    }

    /// A round trip: runs `f` on the render thread after every earlier submission and returns
    /// its result. Generated query methods call this.
    pub(crate) fn call<R: Send + 'static>(
        &self,
        function: &'static str,
        f: impl FnOnce(&RenderContext) -> Result<R, Error> + Send + 'static,
    ) -> Result<R, Error> {
        self.round_trip_erased(function, CallKind::Query, erase_job(f)).map(unbox_answer)
    }

    /// Like [`Device::call`], for create functions: runs without waiting for earlier lists.
    pub(crate) fn create<R: Send + 'static>(
        &self,
        function: &'static str,
        f: impl FnOnce(&RenderContext) -> Result<R, Error> + Send + 'static,
    ) -> Result<R, Error> {
        self.round_trip_erased(function, CallKind::Create, erase_job(f)).map(unbox_answer)
    }

    fn round_trip_erased(
        &self,
        function: &'static str,
        kind: CallKind,
        f: ErasedJob,
    ) -> Result<Box<dyn Any + Send>, Error> {
        if let Some(refused) = crate::round_trips::round_trip_refused(function) {
            return Err(refused);
        }
        self.inner.shared.round_trips.fetch_add(1, Ordering::Relaxed);
        if self.is_render_thread() {
            // Waiting for ourselves would deadlock: run now, with the state as it is.
            return render::with_current(|ctx| match ctx {
                Some(ctx) => f(ctx),
                None => Err(Error::DeviceLost { reason: "called during render thread start-up or shutdown".into() }),
            });
        }
        let (tx, rx) = crossbeam_channel::bounded(1);
        let job: Job = Box::new(move |ctx| {
            let _ = tx.send(ctx.and_then(f));
        });
        self.send(Msg::Call { name: function, kind, thread: std::thread::current().id(), job })?;
        // A short query is answered in a few microseconds: spin on the reply before parking.
        let spin_until = Instant::now() + self.inner.shared.options.spin;
        loop {
            match rx.try_recv() {
                Ok(result) => return result,
                Err(crossbeam_channel::TryRecvError::Disconnected) => break,
                Err(crossbeam_channel::TryRecvError::Empty) if Instant::now() < spin_until => std::hint::spin_loop(),
                Err(crossbeam_channel::TryRecvError::Empty) => break,
            }
        }
        crossbeam_channel::select! {
            recv(rx) -> reply => match reply {
                Ok(result) => result,
                // Dropped unanswered: the render thread is dying; wait until it has said why.
                Err(_) => {
                    let _ = self.inner.alive.recv();
                    Err(self.lost())
                }
            },
            // The render thread exited; its answer may still have been sent just before.
            recv(self.inner.alive) -> _ => rx.try_recv().unwrap_or_else(|_| Err(self.lost())),
        }
    }

    /// The error of a call to a device whose render thread is gone.
    pub(crate) fn lost(&self) -> Error {
        Error::DeviceLost { reason: lost_reason(&self.inner.shared) }
    }

    /// Whether the render thread has exited.
    pub(crate) fn render_thread_gone(&self) -> bool {
        alive_gone(&self.inner.alive)
    }

    /// Runs `f` on this thread with every round trip refused: a create or query that would
    /// ask the render thread fails at once (`Error::Unavailable`) instead, and the answer says
    /// whether one did. Answers glcmd gives from its own knowledge (limits, name pools, the
    /// program cache) are unaffected. Not nested: an inner call ends the refusal.
    pub fn refusing_round_trips<R>(f: impl FnOnce() -> R) -> (R, bool) {
        crate::round_trips::refusing(f)
    }

    /// The round trips (creates and queries that asked the render thread) the calling thread
    /// has made, over all devices.
    pub fn thread_round_trips() -> u64 {
        crate::round_trips::made()
    }
}

/// Whether the render thread has exited (its end of the `alive` channel is gone).
fn alive_gone(alive: &Receiver<()>) -> bool {
    matches!(alive.try_recv(), Err(crossbeam_channel::TryRecvError::Disconnected))
}

impl Drop for HandleInner {
    fn drop(&mut self) {
        // Everything submitted still runs: the render thread drains the channel first.
        if std::thread::current().id() == self.render_thread {
            // The last handle died on the render thread itself (a closure it ran held it): it
            // exits on its own once the channel is drained.
            let _ = render::send_local(Msg::Shutdown);
            return;
        }
        let _ = self.tx.send(Msg::Shutdown);
        match self.thread.lock().unwrap_or_else(|e| e.into_inner()).take() {
            Some(t) => drop(t.join()),
            // A host's thread: the body has ended when its end of `alive` is gone.
            None => drop(self.alive.recv()),
        }
    }
}
