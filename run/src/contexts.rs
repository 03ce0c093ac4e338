//! The program's contexts, and which of them glcmd serves.
//!
//! When the program makes a context current (`eglMakeCurrent`, `glXMakeCurrent`,
//! `glXMakeContextCurrent`), the interposed function comes here. The first time a context is
//! seen, it is **probed**: made current on the calling thread with the real function, asked for
//! its API, profile and version, and released. A desktop OpenGL 4.5 (or later) core context is
//! then **adopted**: glcmd starts a render thread that makes it current with the program's
//! surfaces (`glcmdDeviceAdoptEGL` / `glcmdDeviceAdoptGLX`), and the calling thread becomes an
//! immediate glcmd thread (`glcmdThreadMakeImmediate`), whose GL calls are recorded and whose
//! queries see them. Any other context (compatibility profile, OpenGL ES, older than 4.5, one
//! that shares objects with another context, or every context with `GLCMD_RUN=direct`) runs
//! **directly**: made current on the calling thread as if glcmd were not there, with one line
//! on stderr saying why.
//!
//! What the program sees stays what it asked for: `eglGetCurrentContext` and friends answer
//! with the context and surfaces the thread made current, although the real context is current
//! on glcmd's render thread; a swap presents through glcmd after the thread's pending calls.
//!
//! ## Several contexts, threads and surfaces
//!
//! * Each adopted context has a device (a render thread) of its own.
//! * A context glcmd serves is current on one program thread at a time (as the APIs require:
//!   making it current on a second thread fails, `EGL_BAD_ACCESS` / `BadAccess`, with a
//!   message); it may move between threads, each becoming immediate in turn.
//! * Made current with other surfaces, or when one of its surfaces is destroyed
//!   (`eglDestroySurface`, `glXDestroyWindow`, `glXDestroyPbuffer`), the context is handed back
//!   (its device replays everything submitted, then releases it) and adopted again on the new
//!   surfaces: glcmd's render thread keeps a context current on the surfaces it was adopted with.
//! * Contexts created with a share context run directly, with a message (glcmd's pools and
//!   binding shadow would not see the other context's deletes).
//! * A make-current that switches contexts has the driver's side effects whichever of the two
//!   glcmd serves: the previous context is flushed (`switch.rs`), and with EGL a surface an idle
//!   adopted context holds on its render thread is handed back to the context that takes it.
//! * A window-system call that ends what an adopted context uses hands the context back first
//!   ([`hand_back`], `lifetimes.rs`): its work replays and presents while the object is alive.

use std::collections::HashMap;
use std::sync::Mutex;
use std::thread::ThreadId;

use glcmd_capi::types::GlcmdDevice;

pub use crate::current::{Api, Current};
use crate::{adopt, dispatch, native, options, real, switch};

/// What glcmd does with a context.
enum Served {
    /// Adopted: the device, the surfaces it was adopted with, and the program thread it is
    /// current on.
    Glcmd { device: usize, current: Current, thread: Option<ThreadId> },
    /// Runs on the program's threads, untouched (the display, for forgetting it when the
    /// display ends: `forget_display`).
    Direct { display: usize },
}

static CONTEXTS: Mutex<Option<HashMap<usize, Served>>> = Mutex::new(None);
/// Contexts created with a share context (noted by the create interposers).
static SHARED: Mutex<Vec<usize>> = Mutex::new(Vec::new());

thread_local! {
    /// What this thread made current through glcmd (None: nothing, or a direct context).
    static BOUND: std::cell::Cell<Option<Current>> = const { std::cell::Cell::new(None) };
}

fn contexts<R>(f: impl FnOnce(&mut HashMap<usize, Served>) -> R) -> R {
    let mut guard = CONTEXTS.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(HashMap::new))
}

/// Notes that `context` was created sharing objects with another context.
pub fn note_shared(context: usize) {
    SHARED.lock().unwrap_or_else(|e| e.into_inner()).push(context);
}

/// What this thread made current through glcmd, if anything.
pub fn bound() -> Option<Current> {
    BOUND.with(|b| b.get())
}

/// How a make-current call ends: handled here (the value to return), or to be passed to the
/// real function.
pub enum Outcome {
    Done(bool),
    PassThrough,
}

/// The interposed make-current, for both APIs. `probe` makes `c` current on this thread with
/// the real function and releases it again, returning the answer of [`classify`].
pub fn make_current(c: Current, probe: impl FnOnce() -> Result<Verdict, String>) -> Outcome {
    if crate::current::on_render_thread() {
        // glcmd's own render thread: an adopted context, or a device the program made itself.
        return Outcome::PassThrough;
    }
    if c.context == 0 {
        release_thread();
        return Outcome::PassThrough;
    }
    let known = contexts(|m| match m.get(&c.context) {
        None => None,
        Some(Served::Direct { .. }) => Some(None),
        Some(Served::Glcmd { device, current, thread }) => Some(Some((*device, *current, *thread))),
    });
    match known {
        Some(None) => {
            release_thread();
            switch::settle(c.context);
            free_surfaces_for(c);
            Outcome::PassThrough
        }
        Some(Some((device, first, thread))) => {
            free_surfaces_for(c);
            bind_adopted(c, device, first, thread)
        }
        None => {
            free_surfaces_for(c);
            let verdict = probe();
            first_use(c, verdict)
        }
    }
}

/// The first make-current of a context: adopt it or let it run directly.
fn first_use(c: Current, verdict: Result<Verdict, String>) -> Outcome {
    let shared = SHARED.lock().unwrap_or_else(|e| e.into_inner()).contains(&c.context);
    let reason = match (&verdict, options::direct_requested()) {
        (_, true) => Some("GLCMD_RUN=direct".to_string()),
        (Err(e), _) => Some(format!("it could not be probed ({e})")),
        (Ok(Verdict::Other(what)), _) => Some(format!("it is {what}; glcmd serves OpenGL 4.5 core contexts")),
        (Ok(Verdict::Core), _) if shared => Some("it shares objects with another context".into()),
        (Ok(Verdict::Core), _) => None,
    };
    if let Some(reason) = reason {
        eprintln!("glcmd-run: context {:#x} runs directly, not through glcmd: {reason}", c.context);
        contexts(|m| m.insert(c.context, Served::Direct { display: c.display }));
        release_thread();
        switch::settle(c.context);
        free_surfaces_for(c);
        return Outcome::PassThrough;
    }
    match adopt::adopt(c) {
        Ok(device) => {
            register_exit();
            contexts(|m| m.insert(c.context, Served::Glcmd { device, current: c, thread: None }));
            bind_adopted(c, device, c, None)
        }
        Err(e) => {
            eprintln!(
                "glcmd-run: context {:#x} runs directly, not through glcmd: glcmd could not adopt it: {e}",
                c.context
            );
            contexts(|m| m.insert(c.context, Served::Direct { display: c.display }));
            release_thread();
            switch::settle(c.context);
            Outcome::PassThrough
        }
    }
}

/// Makes this thread immediate on the device of an adopted context.
fn bind_adopted(c: Current, device: usize, first: Current, thread: Option<ThreadId>) -> Outcome {
    let me = std::thread::current().id();
    if thread.is_some_and(|t| t != me) {
        eprintln!(
            "glcmd-run: context {:#x} is current on another thread; a context is current on one thread at a time (make it current on nothing there first)",
            c.context
        );
        return Outcome::Done(false);
    }
    if (c.draw, c.read, c.display) != (first.draw, first.read, first.display) {
        // The render thread keeps the context current on the surfaces it was adopted with: hand
        // it back (everything submitted replays first) and adopt it again on the new ones.
        release_thread();
        if let Some(Served::Glcmd { device, .. }) = contexts(|m| m.remove(&c.context)) {
            adopt::destroy(device);
        }
        return first_use(c, Ok(Verdict::Core));
    }
    if bound() == Some(c) {
        return Outcome::Done(true);
    }
    release_thread();
    // The driver's side effects of this switch: the context the thread had current before is
    // flushed (replayed and flushed on its render thread, or released with the real function).
    switch::settle(c.context);
    switch::release_direct(c.api);
    let status = glcmd_capi::api::glcmdThreadMakeImmediate(device as *mut GlcmdDevice);
    if status != glcmd_capi::types::GLCMD_OK {
        eprintln!("glcmd-run: glcmdThreadMakeImmediate failed: {}", adopt::last_error());
        return Outcome::Done(false);
    }
    contexts(|m| {
        if let Some(Served::Glcmd { thread, .. }) = m.get_mut(&c.context) {
            *thread = Some(me);
        }
    });
    BOUND.with(|b| b.set(Some(c)));
    dispatch::use_glcmd();
    Outcome::Done(true)
}

/// Ends this thread's glcmd binding, if it has one: its pending calls are submitted, and its
/// GL calls go to the driver again.
pub fn release_thread() {
    let Some(c) = bound() else { return };
    // NULL: submits what is pending and leaves immediate mode.
    glcmd_capi::api::glcmdThreadMakeImmediate(std::ptr::null_mut());
    if let Some(device) = device_for(c.context) {
        switch::released(c.context, device);
    }
    contexts(|m| {
        if let Some(Served::Glcmd { thread, .. }) = m.get_mut(&c.context) {
            *thread = None;
        }
    });
    BOUND.with(|b| b.set(None));
    dispatch::use_driver();
}

/// The device serving `context`, if glcmd adopted it.
pub fn device_for(context: usize) -> Option<usize> {
    contexts(|m| match m.get(&context) {
        Some(Served::Glcmd { device, .. }) => Some(*device),
        _ => None,
    })
}

/// The interposed swap: if this thread's context is glcmd's, its pending calls are submitted
/// and the device presents (true); otherwise the real swap should run (false).
pub fn swap(display: usize, draw: usize) -> Option<bool> {
    let c = bound()?;
    if c.display != display || c.draw != draw {
        return None;
    }
    Some(device_for(c.context).is_some_and(adopt::present))
}

/// The interposed context destruction: an adopted context's device is destroyed first (every
/// submitted list replays; the render thread releases the context), then the real function
/// runs.
pub fn destroy(context: usize) {
    if bound().is_some_and(|c| c.context == context) {
        release_thread();
    }
    let served = contexts(|m| m.remove(&context));
    if let Some(Served::Glcmd { device, thread, .. }) = served {
        if thread.is_some() {
            eprintln!("glcmd-run: context {context:#x} destroyed while current on another thread");
        }
        adopt::destroy(device);
    }
}

/// The interposed surface destruction: a device whose context is current on `surface` on its
/// render thread is destroyed first (everything submitted replays, the context is released),
/// so the surface really goes; a thread that had the context current keeps it current
/// directly ([`hand_back`]), and the context is adopted again when it is next made current.
pub fn surface_destroyed(display: usize, surface: usize) {
    hand_back(|c| c.display == display && (c.draw == surface || c.read == surface), Rebind::Same);
}

/// Destroys every device at exit, once a device exists, for an `exit` called on a thread other
/// than the main one (the main thread's exit is handled earlier: [`MAIN_THREAD_EXIT`]). `atexit`
/// handlers run before the libraries' destructors, but only before those registered earlier.
fn register_exit() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    extern "C" fn at_exit() {
        destroy_all();
    }
    ONCE.call_once(|| {
        // SAFETY: registers a function with no arguments that runs once at exit.
        unsafe { libc::atexit(at_exit) };
    });
}

/// Finishes every device when the main thread exits (`exit`, or a return from `main`), before
/// any `atexit` handler or C++ static destructor runs.
///
/// What it protects against: everything the program submitted still replays when its device is
/// destroyed, and on llvmpipe a replayed draw or dispatch may compile a shader with LLVM. LLVM
/// registers the destructors of some of its function-local statics the first time they are
/// used, which is after glcmd adopted the context, so `exit` runs them *before* an `atexit`
/// handler of ours: a render thread still draining at that point ran LLVM on destroyed statics
/// and crashed the process after the program's last line (piglit's
/// `arb_texture_view-bug-layers-image`, with a cold shader cache). `exit` calls the exiting
/// thread's thread-local destructors before every other exit handler (glibc's
/// `__run_exit_handlers`), so a thread-local destructor registered on the main thread at load
/// time runs first of all.
///
/// Registered from `.init_array`, which the dynamic loader runs on the main thread before
/// `main`. (A main thread that ends with `pthread_exit` while other threads go on drawing runs
/// it too, and their devices are gone from then on: a known limit, for a rare shape of program.) glibc's `__cxa_thread_atexit_impl` is declared here: the `libc` crate does not
/// export it. It takes an address inside this library (to keep the library loaded while the
/// destructor is pending); any static of ours serves.
#[used]
#[link_section = ".init_array"]
static MAIN_THREAD_EXIT: extern "C" fn() = register_main_thread_exit;

extern "C" fn register_main_thread_exit() {
    extern "C" {
        fn __cxa_thread_atexit_impl(
            dtor: unsafe extern "C" fn(*mut libc::c_void),
            obj: *mut libc::c_void,
            dso_symbol: *mut libc::c_void,
        ) -> libc::c_int;
    }
    unsafe extern "C" fn on_main_thread_exit(_: *mut libc::c_void) {
        // A panic must not unwind into the C library; `destroy_all` reports failures itself.
        let _ = std::panic::catch_unwind(destroy_all);
    }
    let inside_this_library = std::ptr::addr_of!(MAIN_THREAD_EXIT) as *mut libc::c_void;
    // SAFETY: registers a destructor for the calling (main) thread with glibc, which calls it
    // with the null object once, at that thread's exit.
    unsafe { __cxa_thread_atexit_impl(on_main_thread_exit, std::ptr::null_mut(), inside_this_library) };
}

/// Every adopted device, destroyed in turn (at exit, before the libraries' destructors run).
pub fn destroy_all() {
    release_thread();
    let connections: Vec<usize> = contexts(|m| {
        m.values()
            .filter_map(|v| match v {
                Served::Glcmd { current, .. } => native::connection_of(current),
                Served::Direct { .. } => None,
            })
            .collect()
    });
    // At exit a context may still be current on another thread of the program (which goes on
    // running until the process ends): nothing to say about that.
    hand_back(|_| true, Rebind::No);
    // The last presents replayed after the program's last X call: nothing else sends them.
    native::flush(&connections);
}

/// What [`hand_back`] leaves current on the thread that had a handed-back context current.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Rebind {
    /// Nothing (at exit, or when the thread's make-current replaces it anyway).
    No,
    /// The context, on the same surfaces, made current directly.
    Same,
    /// The context with no surface, made current directly: for a window being destroyed, on
    /// which Mesa's release would present what a rebinding left pending (`BadDrawable`).
    Surfaceless,
}

/// Hands back every adopted context whose handles `select` picks, before a window-system call
/// ends something it uses (`lifetimes.rs`): its device replays everything submitted and queued
/// (presents included) and releases the context on its render thread, while the display and
/// the surfaces are still alive. The calling thread, if it had one of them current, gets it
/// current again directly as `rebind` says (the real make-current), so that the program's
/// thread is left as it would be without glcmd: a context may stay current on a surface being
/// destroyed or a display being terminated, as the window system allows (on a window being
/// destroyed, with no surface: eglGetCurrentSurface and glXGetCurrentDrawable then answer none).
/// The next make-current of the context adopts it again.
pub fn hand_back(select: impl Fn(&Current) -> bool, rebind: Rebind) {
    hand_back_where(|c, _| select(c), rebind)
}

/// [`hand_back`], where `select` also learns the program thread the context is current on.
fn hand_back_where(select: impl Fn(&Current, Option<ThreadId>) -> bool, rebind: Rebind) {
    // `select` may ask the X server: not while holding the registry.
    let adopted: Vec<(usize, usize, Current, Option<ThreadId>)> = contexts(|m| {
        m.iter()
            .filter_map(|(k, v)| match v {
                Served::Glcmd { device, current, thread } => Some((*k, *device, *current, *thread)),
                Served::Direct { .. } => None,
            })
            .collect()
    });
    for (context, device, _, _) in adopted.into_iter().filter(|(_, _, c, t)| select(c, *t)) {
        let mine = bound().filter(|c| c.context == context);
        if mine.is_some() {
            release_thread();
        }
        contexts(|m| m.remove(&context));
        adopt::destroy(device);
        match (mine, rebind) {
            (Some(c), Rebind::Same) => make_current_directly(c),
            (Some(c), Rebind::Surfaceless) => make_current_directly(Current { draw: 0, read: 0, ..c }),
            _ => {}
        }
    }
}

/// Before the EGL context `c` is made current (probed, adopted or run directly): another adopted
/// context that holds one of `c`'s surfaces on its render thread, and is current on no program
/// thread but this one, is handed back (this thread's binding to it ends: the make-current
/// replaces it). EGL refuses a surface current in another thread (`EGL_BAD_ACCESS`), and the
/// program has let go of it. One current on another program thread stays: the real call then
/// fails as it would directly.
fn free_surfaces_for(c: Current) {
    if c.api != Api::Egl || (c.draw == 0 && c.read == 0) {
        return;
    }
    let me = std::thread::current().id();
    let shares = |a: &Current| {
        a.api == Api::Egl
            && a.context != c.context
            && a.display == c.display
            && [a.draw, a.read].iter().any(|&s| s != 0 && (s == c.draw || s == c.read))
    };
    hand_back_where(|a, thread| thread.is_none_or(|t| t == me) && shares(a), Rebind::No);
}

/// Forgets every context of `display` (terminated or closed: its handles may be reused by new
/// contexts, which must be probed afresh). Adopted ones must have been handed back.
pub fn forget_display(display: usize) {
    contexts(|m| {
        m.retain(|_, v| match v {
            Served::Direct { display: d } => *d != display,
            Served::Glcmd { current, .. } => current.display != display,
        })
    });
}

/// Makes `c` current on this thread with the real function (for [`hand_back`]).
fn make_current_directly(c: Current) {
    match c.api {
        Api::Egl => {
            if let Some(f) = real::egl_make_current() {
                let p = |h: usize| h as *mut std::ffi::c_void;
                // SAFETY: the handles the program made current, still alive (the call that ends
                // them has not run yet), and the context is current on no thread now.
                unsafe { f(p(c.display), p(c.draw), p(c.read), p(c.context)) };
            }
        }
        Api::Glx => {
            if let Some(f) = real::glx_make_context_current() {
                let (d, x) = (c.display as *mut std::ffi::c_void, c.context as *mut std::ffi::c_void);
                // SAFETY: as above.
                unsafe { f(d, c.draw as std::ffi::c_ulong, c.read as std::ffi::c_ulong, x) };
            }
        }
    }
}

/// The answer of a probe.
pub enum Verdict {
    /// Desktop OpenGL, core profile, 4.5 or later.
    Core,
    /// Anything else, described ("an OpenGL ES 3.2 context", "a compatibility-profile context").
    Other(String),
}

/// Classifies the context current on this thread, through the driver's own functions.
pub fn classify() -> Verdict {
    type GetString = unsafe extern "system" fn(u32) -> *const u8;
    type GetIntegerv = unsafe extern "system" fn(u32, *mut i32);
    let get_string = real::gl_function(c"glGetString");
    let get_integerv = real::gl_function(c"glGetIntegerv");
    if get_string.is_null() || get_integerv.is_null() {
        return Verdict::Other("a context whose GL functions cannot be found".into());
    }
    // SAFETY: the driver's functions of these names, with a context current on this thread.
    let (version, profile, major, minor) = unsafe {
        let get_string: GetString = std::mem::transmute(get_string);
        let get_integerv: GetIntegerv = std::mem::transmute(get_integerv);
        let v = get_string(0x1F02); // GL_VERSION
        let version =
            if v.is_null() { String::new() } else { std::ffi::CStr::from_ptr(v.cast()).to_string_lossy().into_owned() };
        let (mut profile, mut major, mut minor) = (0, 0, 0);
        get_integerv(0x9126, &mut profile); // GL_CONTEXT_PROFILE_MASK
        get_integerv(0x821B, &mut major); // GL_MAJOR_VERSION
        get_integerv(0x821C, &mut minor); // GL_MINOR_VERSION
        (version, profile, major, minor)
    };
    if version.starts_with("OpenGL ES") {
        return Verdict::Other(format!("an OpenGL ES context ({version})"));
    }
    if profile & 1 == 0 {
        return Verdict::Other(format!("a compatibility-profile context ({version})"));
    }
    if (major, minor) < (4, 5) {
        return Verdict::Other(format!("an OpenGL {major}.{minor} core context"));
    }
    Verdict::Core
}

/// Runs `f` on the render thread of `c`'s device, after this thread's pending calls (for a
/// window-system call that needs the context current, such as a swap interval).
pub fn on_render_thread(c: Current, f: impl FnOnce() -> bool + Send + 'static) -> bool {
    let Some(handle) = device_for(c.context) else { return false };
    let Some(device) = glcmd_capi::handles::device("glcmd-run", handle).ok().and_then(|d| d.device("glcmd-run").ok())
    else {
        return false;
    };
    // SAFETY: glcmd's glFlush on an immediate thread submits what is pending.
    unsafe { glcmd_capi::special::glFlush() };
    device.with_gl(move |_| f()).unwrap_or(false)
}
