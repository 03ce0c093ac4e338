//! The one driver thread: every EGL and GLX call of the program, and the render thread of the
//! context glcmd adopts, on one thread (issue 31).
//!
//! NVIDIA's driver runs GL 1.3–1.7× slower in any process whose EGL calls come from two
//! threads, whichever calls they are (a display initialised on one thread and a context used on
//! another is enough). Under glcmd-run the program's thread records and glcmd's render thread
//! calls the driver, so without this module the process is always in that mode, and glcmd-run
//! pays it before any cost of its own. So every EGL and GLX call the program makes is
//! **forwarded** to one thread, started at the program's first such call, and the render thread
//! of the context glcmd adopts runs on that same thread (`glcmd::render_host`): while the device
//! lives, its render loop runs the forwarded calls between lists (`egl_forward.rs`,
//! `glx_forward.rs`, `forward.rs`).
//!
//! ## What a forwarded call keeps
//!
//! * **Its error.** EGL's error is per thread: after each forwarded EGL call the driver thread reads
//!   its own `eglGetError` and the calling thread keeps it ([`set_error`]); the program's
//!   `eglGetError` answers from there and resets it, as EGL does.
//! * **The caller's thread state.** EGL keeps the bound API and the current context per thread.
//!   The bound API is the calling thread's own (`egl_forward.rs` keeps it and binds it around
//!   the calls that depend on it); the current context is what glcmd's registry says this thread
//!   made current. A call that would act on the driver thread's current context on behalf of a
//!   thread with nothing current runs [`isolated`]: with nothing current there, and the driver
//!   thread's context current again afterwards.
//! * **Its order.** The caller waits for the answer: a forwarded call is synchronous, as a
//!   direct one.
//!
//! ## Where a call is not forwarded
//!
//! A thread that makes a context current that runs directly (an OpenGL ES or compatibility
//! context: glcmd does not serve it) calls the driver itself from then on ([`make_local`]):
//! its GL calls reach the driver on its own thread, so its EGL and GLX calls must too. The
//! process is then in the driver's two-thread mode, and glcmd says so once on stderr. The same
//! holds for a second adopted context while the first is alive (its render thread is a thread of
//! its own). X errors of a forwarded GLX call reach the program's Xlib error handler, which is
//! the process's, from the driver thread. `GLCMD_RUN_DRIVER_THREAD=0` turns forwarding off (every
//! EGL and GLX call on the program's threads, each adopted context on a render thread of its
//! own).
//!
//! ## Nothing waits forever
//!
//! A forwarded call waits for the driver thread, which runs jobs whenever its render loop would
//! wait, so it waits at most for the list being replayed. A child of `fork` has no driver thread
//! (fork copies only the caller): from the fork on, the child's calls are its own
//! ([`forget_after_fork`]). A call from the driver thread itself runs at once.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::thread::ThreadId;

use crossbeam_channel::{Receiver, Sender};
use glcmd::render_host::{HostJob, RenderBody, RenderHost};

use crate::real;

/// `EGL_SUCCESS`.
pub const EGL_SUCCESS: i32 = 0x3000;

struct Driver {
    jobs: Sender<HostJob>,
    inbox: Receiver<HostJob>,
    thread: ThreadId,
    /// A device's render loop runs on the thread now.
    hosting: AtomicBool,
}

static DRIVER: OnceLock<Option<Driver>> = OnceLock::new();
/// Set in a child of `fork`: no driver thread there.
static FORKED: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// This thread calls the driver itself (it has a direct context current, or had).
    static LOCAL: Cell<bool> = const { Cell::new(false) };
    /// The EGL error of this thread's last forwarded call.
    static ERROR: Cell<i32> = const { Cell::new(EGL_SUCCESS) };
}

/// Whether forwarding is wanted: not with `GLCMD_RUN=direct` or `GLCMD_RUN_DRIVER_THREAD=0`.
fn wanted() -> bool {
    !crate::options::direct_requested() && std::env::var("GLCMD_RUN_DRIVER_THREAD").map_or(true, |v| v != "0")
}

/// The driver thread, started at the first call that asks for it (None: forwarding is off).
fn driver() -> Option<&'static Driver> {
    if FORKED.load(Ordering::Relaxed) {
        return None;
    }
    DRIVER.get_or_init(|| wanted().then(start).flatten()).as_ref()
}

fn start() -> Option<Driver> {
    let (jobs, inbox) = crossbeam_channel::unbounded::<HostJob>();
    let queue = inbox.clone();
    // Named `glcmd-driver` while it hosts no render loop and `glcmd-render` while it does
    // ([`host`]): the interposed functions called from it reach the system's under either name
    // (`current::on_render_thread`), and a thread count by name counts render loops.
    let thread = std::thread::Builder::new()
        .name("glcmd-driver".into())
        .spawn(move || {
            for job in queue.iter() {
                job();
            }
        })
        .map_err(|e| {
            eprintln!("glcmd-run: cannot start the driver thread ({e}); EGL calls stay on the program's threads")
        })
        .ok()?;
    let id = thread.thread().id();
    extern "C" fn nothing() {}
    extern "C" fn child() {
        forget_after_fork();
    }
    crate::lifetime::at_fork(nothing, nothing, child);
    Some(Driver { jobs, inbox, thread: id, hosting: AtomicBool::new(false) })
}

/// Whether this thread's EGL calls go to the driver thread (starting it if need be). Never for
/// glcmd's own threads: the driver thread, a render thread of a device a program made itself
/// (it owns its context), or a thread the driver started from one of them.
pub fn forwarding() -> bool {
    !LOCAL.with(Cell::get) && !glcmds_own() && driver().is_some_and(|d| d.thread != std::thread::current().id())
}

/// Whether this thread is one of glcmd's own (`current::on_render_thread`), asked once per
/// thread: a thread is named before it calls anything.
fn glcmds_own() -> bool {
    thread_local! {
        static OWN: Cell<Option<bool>> = const { Cell::new(None) };
    }
    OWN.with(|own| match own.get() {
        Some(known) => known,
        None => {
            let known = crate::current::on_render_thread();
            own.set(Some(known));
            known
        }
    })
}

/// This thread calls the driver itself from now on (it makes a direct context current). Says
/// once what that costs, where EGL calls were forwarded before.
pub fn make_local() {
    if LOCAL.with(|l| l.replace(true)) || !DRIVER.get().is_some_and(Option::is_some) {
        return;
    }
    static SAID: AtomicBool = AtomicBool::new(false);
    if !SAID.swap(true, Ordering::Relaxed) {
        eprintln!(
            "glcmd-run: a thread of the program calls the driver itself (its context is not one glcmd serves) while glcmd's driver thread \
             makes the other EGL calls: some drivers (NVIDIA's) run GL slower when two threads call EGL; \
             GLCMD_RUN_DRIVER_THREAD=0 keeps every EGL call on the program's threads"
        );
    }
}

/// [`make_local`] without the message: a context handed back to its thread (at the thread's
/// end, at exit, before a window-system object ends), where speed no longer matters. Safe while
/// the thread's locals are being destroyed.
pub fn make_local_quietly() {
    let _ = LOCAL.try_with(|l| l.set(true));
}

/// A child of `fork` has no driver thread: its calls are its own from now on.
pub fn forget_after_fork() {
    FORKED.store(true, Ordering::Relaxed);
}

/// The error a forwarded call left for this thread, reset to `EGL_SUCCESS` (`eglGetError`).
pub fn take_error() -> i32 {
    ERROR.with(|e| e.replace(EGL_SUCCESS))
}

/// Sets this thread's EGL error (an answer glcmd gives itself on a forwarding thread).
pub fn set_error(code: i32) {
    ERROR.with(|e| e.set(code));
}

/// Carries a closure and its answer across threads. Sound only as [`run`] uses it: the caller
/// waits until the closure has run and its answer is back, so nothing it borrows or points to
/// is used on two threads at once, and EGL's handles are valid on every thread.
struct Unchecked<T>(T);
// SAFETY: see above.
unsafe impl<T> Send for Unchecked<T> {}

impl<T> Unchecked<T> {
    fn into_inner(self) -> T {
        self.0
    }
}

/// Runs `f` on the driver thread if this thread's EGL calls go there, else here; returns its
/// answer.
///
/// # Safety
/// `f` may run on another thread while this one waits: it must not use this thread's
/// thread-local state (EGL's included: it makes real EGL calls, whose thread state is the
/// driver thread's).
pub unsafe fn run<R>(f: impl FnOnce() -> R) -> R {
    let Some(d) = driver().filter(|_| forwarding()) else { return f() };
    let (tx, rx) = crossbeam_channel::bounded(1);
    let f = Unchecked(f);
    let job = move || {
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Unchecked(f.into_inner()())));
        let _ = tx.send(answer);
    };
    let job: Box<dyn FnOnce() + Send + '_> = Box::new(job);
    // SAFETY: the job's borrows outlive it: this function does not return before the job has
    // run and sent its answer (or been dropped unrun, which drops its sender).
    let job: HostJob = unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + '_>, HostJob>(job) };
    if d.jobs.send(job).is_err() {
        unreachable!("the driver thread's receiver lives as long as the process");
    }
    match rx.recv() {
        Ok(Ok(answer)) => answer.into_inner(),
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(_) => unreachable!("the driver thread drops no job unrun"),
    }
}

/// The system's function `name`, through `get_proc_address` (the real `eglGetProcAddress` or
/// `glXGetProcAddressARB`, which serve extension functions), then the next definition; looked
/// up on the driver thread where this thread's calls go (the lookup of an extension asks the
/// driver).
pub fn system_function(
    get_proc_address: Option<real::GetProcAddress>,
    name: &std::ffi::CStr,
) -> *const std::ffi::c_void {
    let lookup = || {
        if let Some(f) = get_proc_address {
            // SAFETY: a NUL-terminated name.
            let p = unsafe { f(name.as_ptr()) };
            if !p.is_null() {
                return p as usize;
            }
        }
        real::next(name) as usize
    };
    // SAFETY: a lookup, which touches no thread state of the caller's.
    unsafe { run(lookup) as *const std::ffi::c_void }
}

/// [`run`] for a real EGL call: on a forwarding thread, the driver thread's `eglGetError`
/// after it becomes this thread's ([`take_error`]).
///
/// # Safety
/// As [`run`].
pub unsafe fn egl<R>(f: impl FnOnce() -> R) -> R {
    if !forwarding() {
        return f();
    }
    // SAFETY: as the caller promised; `egl_get_error` is the system's, called where `f` ran.
    let (answer, error) = unsafe { run(|| (f(), real::egl_get_error().map_or(EGL_SUCCESS, |e| e()))) };
    set_error(error);
    answer
}

/// [`egl`] for a call that acts on the calling thread's current context, made for a
/// forwarding thread that has none: on the driver thread it runs with nothing current, and
/// what was current there before (the render loop's context, when a device is hosted) is
/// current again afterwards.
///
/// # Safety
/// As [`run`].
pub unsafe fn isolated<R>(f: impl FnOnce() -> R) -> R {
    if !forwarding() {
        return f();
    }
    // SAFETY: as the caller promised.
    let (answer, error) = unsafe { run(|| with_nothing_current(f)) };
    set_error(error);
    answer
}

/// [`isolated`] for a GLX call (GLX keeps no error of its own: the thread's EGL error is left
/// as it was).
///
/// # Safety
/// As [`run`].
pub unsafe fn isolated_glx<R>(f: impl FnOnce() -> R) -> R {
    if !forwarding() {
        return f();
    }
    // SAFETY: as the caller promised.
    unsafe { run(|| with_nothing_current(f)).0 }
}

/// Contexts [`Saved::release`] must leave current: set by the registry (`contexts.rs`) to the
/// contexts the program destroyed while current, which the driver frees when they are released
/// (the render loop still replays their last calls, so they stay current until the device goes).
static KEEP_CURRENT: OnceLock<fn(usize) -> bool> = OnceLock::new();

/// Sets the rule of [`KEEP_CURRENT`].
pub fn keep_current_when(rule: fn(usize) -> bool) {
    let _ = KEEP_CURRENT.set(rule);
}

fn keep_current(context: usize) -> bool {
    KEEP_CURRENT.get().is_some_and(|rule| rule(context))
}

/// What is current on this thread, EGL's (of the bound API) and GLX's, released by
/// [`Saved::release`] and made current again by [`Saved::restore`].
struct Saved {
    egl: Option<[usize; 4]>,
    glx: Option<(usize, std::ffi::c_ulong, std::ffi::c_ulong, usize)>,
}

impl Saved {
    /// Releases what is current on this thread, remembering it; a context [`keep_current`] names
    /// stays current (the call then runs beside it).
    ///
    /// # Safety
    /// The system's functions, on this thread's own state.
    unsafe fn release() -> Saved {
        const EGL_DRAW: i32 = 0x3059;
        const EGL_READ: i32 = 0x305A;
        let mut saved = Saved { egl: None, glx: None };
        let null = std::ptr::null_mut();
        // SAFETY: as the caller promised; the handles were current here, so alive.
        unsafe {
            if let (Some(ctx), Some(dpy), Some(surface), Some(make_current)) = (
                real::egl_get_current_context(),
                real::egl_get_current_display(),
                real::egl_get_current_surface(),
                real::egl_make_current(),
            ) {
                let c = ctx();
                if !c.is_null() && !keep_current(c as usize) {
                    let d = dpy();
                    saved.egl = Some([d as usize, surface(EGL_DRAW) as usize, surface(EGL_READ) as usize, c as usize]);
                    make_current(d, null, null, null);
                }
            }
            if let (Some(ctx), Some(dpy), Some(draw), Some(read), Some(make_current)) = (
                real::glx_get_current_context(),
                real::glx_get_current_display(),
                real::glx_get_current_drawable(),
                real::glx_get_current_read_drawable(),
                real::glx_make_context_current(),
            ) {
                let c = ctx();
                if !c.is_null() && !keep_current(c as usize) {
                    let d = dpy();
                    saved.glx = Some((d as usize, draw(), read(), c as usize));
                    make_current(d, 0, 0, null);
                }
            }
        }
        saved
    }

    /// Makes current again what [`Saved::release`] released.
    ///
    /// # Safety
    /// On the thread that released it; the handles are still alive (nothing ran between that
    /// could end them but the program's own call, which the driver defers for a current
    /// context).
    unsafe fn restore(self) {
        let p = |h: usize| h as *mut std::ffi::c_void;
        // SAFETY: as the caller promised.
        unsafe {
            if let (Some([d, s, r, c]), Some(make_current)) = (self.egl, real::egl_make_current()) {
                make_current(p(d), p(s), p(r), p(c));
            }
            if let (Some((d, s, r, c)), Some(make_current)) = (self.glx, real::glx_make_context_current()) {
                make_current(p(d), s, r, p(c));
            }
        }
    }
}

/// Runs `f` with nothing current on this thread, then makes current again what was; `f`'s
/// answer and the EGL error it left.
///
/// # Safety
/// `f` is a real EGL or GLX call with the program's arguments.
unsafe fn with_nothing_current<R>(f: impl FnOnce() -> R) -> (R, i32) {
    let get_error = real::egl_get_error();
    // SAFETY: as the caller promised; this thread's own state.
    unsafe {
        let saved = Saved::release();
        if let Some(e) = get_error {
            e();
        }
        let answer = f();
        let error = get_error.map_or(EGL_SUCCESS, |e| e());
        saved.restore();
        (answer, error)
    }
}

/// The render host glcmd's devices run on: the driver thread while no other device is hosted
/// there, else a thread of the device's own (said once: the driver's two-thread mode again).
pub fn host() -> Option<RenderHost> {
    let d = driver()?;
    Some(RenderHost::new(move |body: RenderBody| {
        if d.hosting.swap(true, Ordering::AcqRel) {
            return own_thread(body);
        }
        let inbox = d.inbox.clone();
        let job: HostJob = Box::new(move || {
            name_this_thread(c"glcmd-render");
            // The device's handle waits for `end`: the thread is free for the next device first.
            let end = body(Some(inbox));
            name_this_thread(c"glcmd-driver");
            d.hosting.store(false, Ordering::Release);
            drop(end);
        });
        d.jobs.send(job).map_err(|_| "the driver thread is gone".to_string())?;
        Ok(d.thread)
    }))
}

/// Renames the calling thread (at most 15 bytes).
fn name_this_thread(name: &std::ffi::CStr) {
    // SAFETY: the calling thread, a NUL-terminated name of at most 15 bytes.
    unsafe { libc::pthread_setname_np(libc::pthread_self(), name.as_ptr()) };
}

/// A render thread of its own, for a second device.
fn own_thread(body: RenderBody) -> Result<ThreadId, String> {
    static SAID: AtomicBool = AtomicBool::new(false);
    if !SAID.swap(true, Ordering::Relaxed) {
        eprintln!(
            "glcmd-run: a second context is adopted while the first is alive: it gets a render thread of its own, so \
             two threads call the driver (some drivers, NVIDIA's, run GL slower then)"
        );
    }
    let thread = std::thread::Builder::new()
        .name("glcmd-render".into())
        .spawn(move || drop(body(None)))
        .map_err(|e| e.to_string())?;
    Ok(thread.thread().id())
}
