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
//! * A share group runs directly whole, with a message per context (glcmd's pools and binding
//!   shadow would not see the other context's deletes, and nothing would order the two
//!   streams): a context created with a share context, and the share context, which glcmd hands
//!   back at that create if it adopted it earlier ([`shared_created`]; a group split because the
//!   share context is current on another thread then is said on stderr). Serving a whole group
//!   on one driver thread is issue 35's item 3, after issue 31's one driver thread.
//!
//! ## As the driver behaves
//!
//! * Where glcmd refuses an EGL make-current (the context is current on another program
//!   thread), the real function is called with the program's arguments, and the driver refuses
//!   it: the context is current on glcmd's render thread, so it returns false and sets its own
//!   `EGL_BAD_ACCESS`, as without glcmd. (GLX: Mesa accepts such a call, against the
//!   specification, so glcmd refuses it itself, returning false, with no X error.) A
//!   make-current the driver refuses at the first look (a destroyed context, a bad surface)
//!   returns the driver's answer and error, with no message and nothing noted.
//! * A context the program destroys while it is current on one of its threads stays alive
//!   until that thread releases it (EGL 1.5, GLX): the real destroy runs at once (the driver
//!   defers it, the context being current on glcmd's render thread), and the device goes when
//!   the thread releases the context (`DESTROY_PENDING`).
//! * A thread that ends with an adopted context current, and the thread that calls `exit`,
//!   hand the context back: it is made current on that thread with the real function, so that
//!   `atexit` handlers reach it directly (`contexts/hand_back.rs`, on `lifetime.rs`).
//! * A child made by `fork` forgets every device (their render threads are not in it): its
//!   contexts run directly, and a GL call on the thread whose context glcmd served says once
//!   that it does nothing.
//! * A make-current that switches contexts has the driver's side effects whichever of the two
//!   glcmd serves: the previous context is flushed (`switch.rs`), and with EGL a surface an idle
//!   adopted context holds on its render thread is handed back to the context that takes it.
//! * A window-system call that ends what an adopted context uses hands the context back first
//!   ([`hand_back`], `teardown.rs`): its work replays and presents while the object is alive.

use std::collections::HashMap;
use std::sync::Mutex;
use std::thread::ThreadId;

use glcmd_capi::types::GlcmdDevice;

pub use crate::current::{Api, Current};
use crate::{adopt, dispatch, lifetime, native, options, real, switch};

mod hand_back;
use hand_back::{finish_at_exit, fork_child, fork_parent, fork_prepare, hand_back_current};

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
/// Adopted contexts the program destroyed while current on one of its threads: the device goes
/// when that thread releases the context. Locked inside `CONTEXTS` only.
static DESTROY_PENDING: Mutex<Vec<usize>> = Mutex::new(Vec::new());

fn destroy_pending(context: usize) -> bool {
    DESTROY_PENDING.lock().unwrap_or_else(|e| e.into_inner()).contains(&context)
}

thread_local! {
    /// What this thread made current through glcmd (None: nothing, or a direct context).
    static BOUND: std::cell::Cell<Option<Current>> = const { std::cell::Cell::new(None) };
}

fn contexts<R>(f: impl FnOnce(&mut HashMap<usize, Served>) -> R) -> R {
    let mut guard = CONTEXTS.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(HashMap::new))
}

/// Notes that `context` was created sharing objects with another context.
fn note_shared(context: usize) {
    SHARED.lock().unwrap_or_else(|e| e.into_inner()).push(context);
}

/// After the program created `context` sharing the objects of `share` (the create
/// interposers): both run directly, so that one share group is never split between glcmd's
/// deferred stream and the driver's direct calls, with nothing ordering the two (issue 35, item
/// 3: until every context of a group is served on one driver thread, the group runs directly
/// whole). A `share` that glcmd adopted already is handed back now: its device replays
/// everything submitted and releases it, and the thread that had it current (this one) gets it
/// current again directly, as it left it. One current on another program thread cannot be
/// handed back from here (a context is made current only by its own thread): the group is then
/// split, and glcmd says so.
pub fn shared_created(context: usize, share: usize) {
    note_shared(context);
    note_shared(share);
    let Some((current, thread)) = contexts(|m| match m.get(&share) {
        Some(Served::Glcmd { current, thread, .. }) => Some((*current, *thread)),
        _ => None,
    }) else {
        return;
    };
    let me = std::thread::current().id();
    if thread.is_some_and(|t| t != me) {
        eprintln!(
            "glcmd-run: context {context:#x} shares the objects of context {share:#x}, which glcmd serves and which is \
             current on another thread: glcmd cannot hand it back from here, so the share group is split (calls of \
             the two are not ordered by glcmd); make {share:#x} current on nothing before creating a context that \
             shares with it"
        );
        return;
    }
    eprintln!(
        "glcmd-run: context {share:#x} runs directly from now on, not through glcmd: context {context:#x} was created \
         sharing its objects, and glcmd serves a share group only whole"
    );
    hand_back_where(|c, _| c.context == share, Rebind::Same);
    contexts(|m| m.insert(share, Served::Direct { display: current.display }));
}

/// What this thread made current through glcmd, if anything.
pub fn bound() -> Option<Current> {
    BOUND.with(|b| b.get())
}

/// How a make-current call ends: handled here (the value to return), or to be passed to the
/// real function.
pub enum Outcome {
    Done(bool),
    /// Pass to the real function: the driver answers (glcmd's render thread, a destroyed
    /// context).
    PassThrough,
    /// Pass to the real function on this thread: the context runs directly, so this thread
    /// calls the driver itself from now on (`driver::make_local`).
    Direct,
    /// Pass to the real function; if it succeeds, end this thread's glcmd binding
    /// ([`release_thread`]). A make-current the driver refuses leaves the thread's context
    /// current, glcmd's included, as the driver leaves its own.
    PassThenRelease,
    /// [`Outcome::PassThenRelease`] for a context that runs directly ([`Outcome::Direct`]).
    DirectThenRelease,
    /// EGL: the context is current on another program thread. Directly the driver refuses it
    /// with `EGL_BAD_ACCESS`; where the program's EGL calls go to the driver thread, which has
    /// the context current, glcmd answers that itself.
    BadAccess,
}

/// The interposed make-current, for both APIs. `probe` makes `c` current on this thread with
/// the real function and releases it again, returning the answer of [`classify`].
pub fn make_current(c: Current, probe: impl FnOnce() -> Result<Verdict, String>) -> Outcome {
    if crate::current::on_render_thread() {
        // glcmd's own render thread: an adopted context, or a device the program made itself.
        return Outcome::PassThrough;
    }
    if c.context == 0 {
        if bound().is_some_and(|b| crate::driver::forwarding() && releases(c, b)) {
            // The thread's own adopted context, released on its display: the driver, which has
            // nothing current for this thread, would accept it; asking it on the driver thread
            // would release and restore the render loop's context for nothing (a flush each time
            // a program releases its context per frame, as Qt does).
            release_thread();
            return Outcome::Done(true);
        }
        return Outcome::PassThenRelease;
    }
    if contexts(|_| destroy_pending(c.context)) {
        // Destroyed by the program, alive until released: the driver answers (its handle is
        // gone: EGL_BAD_CONTEXT), the binding stays.
        return Outcome::PassThrough;
    }
    let known = contexts(|m| match m.get(&c.context) {
        None => None,
        Some(Served::Direct { .. }) => Some(None),
        Some(Served::Glcmd { device, current, thread }) => Some(Some((*device, *current, *thread))),
    });
    match known {
        Some(None) => {
            // The driver flushes the context it replaces: an adopted one replays and flushes
            // first (its binding ends when the real call succeeds).
            flush_bound_unless(c.context);
            switch::settle(c.context);
            free_surfaces_for(c);
            Outcome::DirectThenRelease
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

/// Whether `c` (no context) is a release the driver accepts for a thread whose context is `b`:
/// the same API and display, and no surfaces.
fn releases(c: Current, b: Current) -> bool {
    c.api == b.api && c.display == b.display && c.draw == 0 && c.read == 0
}

/// Before this thread makes `context` current directly: if it has another, adopted context
/// current, that context's calls are submitted, replayed and flushed on its render thread, as
/// the driver flushes the context a make-current replaces (the binding itself ends once the real
/// call has succeeded).
fn flush_bound_unless(context: usize) {
    let Some(b) = bound().filter(|b| b.context != context) else { return };
    if let Some(device) = device_for(b.context) {
        // SAFETY: glcmd's glFlush on an immediate thread submits what is pending.
        unsafe { glcmd_capi::special::glFlush() };
        switch::drain(device);
    }
}

/// The first make-current of a context: adopt it or let it run directly.
fn first_use(c: Current, verdict: Result<Verdict, String>) -> Outcome {
    if let Ok(Verdict::Refused) = verdict {
        // The driver's own answer and error, as without glcmd; nothing is noted, and this
        // thread keeps what it had current.
        return Outcome::Done(false);
    }
    let shared = SHARED.lock().unwrap_or_else(|e| e.into_inner()).contains(&c.context);
    let reason = match (&verdict, options::direct_requested()) {
        (_, true) => Some("GLCMD_RUN=direct".to_string()),
        _ if lifetime::exiting() => Some("the process is exiting (glcmd finished its devices when it began)".into()),
        (Err(e), _) => Some(format!("it could not be probed ({e})")),
        (Ok(Verdict::Other(what)), _) => Some(format!("it is {what}; glcmd serves OpenGL 4.5 core contexts")),
        (Ok(Verdict::Core), _) if shared => Some("it shares objects with another context".into()),
        (Ok(Verdict::Core), _) => None,
        (Ok(Verdict::Refused), _) => unreachable!("returned above"),
    };
    if let Some(reason) = reason {
        eprintln!("glcmd-run: context {:#x} runs directly, not through glcmd: {reason}", c.context);
        contexts(|m| m.insert(c.context, Served::Direct { display: c.display }));
        release_thread();
        switch::settle(c.context);
        free_surfaces_for(c);
        return Outcome::Direct;
    }
    match adopt::adopt(c) {
        Ok(device) => {
            register_exit();
            crate::driver::keep_current_when(destroy_pending);
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
            Outcome::Direct
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
        return match c.api {
            // EGL's driver refuses it with its own error (EGL_BAD_ACCESS): the context is
            // current on the render thread.
            Api::Egl => Outcome::BadAccess,
            // Mesa's GLX (22) does not refuse it, against the GLX specification, and would make
            // the context current on two threads at once, one of them glcmd's render thread:
            // refused here, with the message (no BadAccess: an X error can be raised only
            // inside Xlib).
            Api::Glx => Outcome::Done(false),
        };
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
    lifetime::watch_thread(hand_back_current);
    Outcome::Done(true)
}

/// Ends this thread's glcmd binding, if it has one: its pending calls are submitted, and its
/// GL calls go to the driver again. A context the program destroyed while current goes now.
pub fn release_thread() {
    let Some(c) = bound() else {
        // Already on the driver's table, but for the thread of a child of `fork` whose calls
        // were told they do nothing (`hand_back::fork_child`): from its next context on, they
        // reach the driver again.
        dispatch::use_driver();
        return;
    };
    // NULL: submits what is pending and leaves immediate mode.
    glcmd_capi::api::glcmdThreadMakeImmediate(std::ptr::null_mut());
    if let Some(device) = device_for(c.context) {
        switch::released(c.context, device);
    }
    let destroyed = contexts(|m| {
        if let Some(Served::Glcmd { thread, .. }) = m.get_mut(&c.context) {
            *thread = None;
        }
        let mut pending = DESTROY_PENDING.lock().unwrap_or_else(|e| e.into_inner());
        let at = pending.iter().position(|&p| p == c.context)?;
        pending.swap_remove(at);
        m.remove(&c.context)
    });
    BOUND.with(|b| b.set(None));
    dispatch::use_driver();
    if let Some(Served::Glcmd { device, .. }) = destroyed {
        adopt::destroy(device);
    }
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
    if c.display != display || c.draw != draw || contexts(|_| destroy_pending(c.context)) {
        // Not this thread's surface, or a context the program destroyed (the driver refuses a
        // swap on it: EGL_BAD_SURFACE): the real function answers.
        return None;
    }
    Some(device_for(c.context).is_some_and(adopt::present))
}

/// The interposed context destruction, before the real function runs: an adopted context that
/// is current on no program thread loses its device now (every submitted list replays; the
/// render thread releases the context, which the real function then destroys). One current on
/// a program thread stays alive until that thread releases it, as the driver keeps it
/// ([`release_thread`]); the real destroy, deferred by the driver, runs at once.
pub fn destroy(context: usize) {
    // The address may come back for a new context, which shares nothing.
    SHARED.lock().unwrap_or_else(|e| e.into_inner()).retain(|&c| c != context);
    let served = contexts(|m| match m.get(&context) {
        Some(Served::Glcmd { thread: Some(_), .. }) => {
            let mut pending = DESTROY_PENDING.lock().unwrap_or_else(|e| e.into_inner());
            if !pending.contains(&context) {
                pending.push(context);
            }
            None
        }
        _ => m.remove(&context),
    });
    if let Some(Served::Glcmd { device, .. }) = served {
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
/// than the main one (the main thread's exit is handled earlier: [`MAIN_THREAD_EXIT`]; the
/// exiting thread's own context is handed back when its thread-locals go,
/// [`hand_back_current`]). `atexit` handlers run before the libraries' destructors, but only
/// before those registered earlier. Also registers the fork handlers ([`fork_child`]).
fn register_exit() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    extern "C" fn at_exit() {
        // A panic must not unwind into the C library (it would abort).
        let _ = std::panic::catch_unwind(destroy_all);
    }
    ONCE.call_once(|| {
        // SAFETY: registers a function with no arguments that runs once at exit.
        unsafe { libc::atexit(at_exit) };
        lifetime::at_fork(fork_prepare, fork_parent, fork_child);
    });
}

/// Finishes every device when the main thread exits (`exit`, or a return from `main`), before
/// any `atexit` handler or C++ static destructor runs ([`finish_at_exit`]): the main thread's
/// own context is handed back to it first, current directly, so that GL calls in those
/// handlers work as without glcmd (they did nothing: the thread's glcmd state was gone).
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
        // A panic must not unwind into the C library; `finish_at_exit` reports failures itself.
        let _ = std::panic::catch_unwind(finish_at_exit);
    }
    let inside_this_library = std::ptr::addr_of!(MAIN_THREAD_EXIT) as *mut libc::c_void;
    // SAFETY: registers a destructor for the calling (main) thread with glibc, which calls it
    // with the null object once, at that thread's exit.
    unsafe { __cxa_thread_atexit_impl(on_main_thread_exit, std::ptr::null_mut(), inside_this_library) };
}

/// Every adopted device, destroyed in turn (at exit, before the libraries' destructors run).
pub fn destroy_all() {
    release_thread();
    let connections = adopted_connections();
    // At exit a context may still be current on another thread of the program (which goes on
    // running until the process ends): nothing to say about that.
    hand_back(|_| true, Rebind::No);
    // The last presents replayed after the program's last X call: nothing else sends them.
    native::flush(&connections);
}

/// The X connections the adopted contexts present through (to flush them at exit).
fn adopted_connections() -> Vec<usize> {
    contexts(|m| {
        m.values()
            .filter_map(|v| match v {
                Served::Glcmd { current, .. } => native::connection_of(current),
                Served::Direct { .. } => None,
            })
            .collect()
    })
}

/// The process ends without its exit handlers (`_exit`) or with only its quick-exit ones: as at
/// `exit`, the calling thread's context is handed back to it directly, every device finishes,
/// and the X connections are flushed.
pub fn finish_for_exit() {
    finish_at_exit();
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
/// ends something it uses (`teardown.rs`): its device replays everything submitted and queued
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
        contexts(|m| {
            DESTROY_PENDING.lock().unwrap_or_else(|e| e.into_inner()).retain(|&p| p != context);
            m.remove(&context)
        });
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
    crate::driver::make_local_quietly();
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
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Desktop OpenGL, core profile, 4.5 or later.
    Core,
    /// Anything else, described ("an OpenGL ES 3.2 context", "a compatibility-profile context").
    Other(String),
    /// The driver refused to make the context current (its error is set, as for the program's
    /// own call).
    Refused,
}

/// Classifies the context current on this thread, through the driver's own functions.
///
/// The program's context must come out of this exactly as it went in, whatever kind it is: no
/// error flag, no debug-log message, no binding (the context may run directly, and then the
/// program sees everything done here). So only queries that cannot fail on any context are
/// made: `glGetString(GL_VERSION)` (every API and version), and `GL_CONTEXT_PROFILE_MASK` only
/// once the version string says desktop OpenGL 3.2 or later, where it exists. (Asked of an
/// OpenGL ES context it raised `GL_INVALID_ENUM`, which the program's first `glGetError` then
/// saw: every GLES test of piglit failed.) The version comes from the string, not from
/// `GL_MAJOR_VERSION`, which OpenGL 2.1 and OpenGL ES 2.0 refuse.
pub fn classify() -> Verdict {
    type GetString = unsafe extern "system" fn(u32) -> *const u8;
    type GetIntegerv = unsafe extern "system" fn(u32, *mut i32);
    let get_string = real::gl_function(c"glGetString");
    let get_integerv = real::gl_function(c"glGetIntegerv");
    if get_string.is_null() || get_integerv.is_null() {
        return Verdict::Other("a context whose GL functions cannot be found".into());
    }
    // SAFETY: the driver's function of this name, with a context current on this thread.
    let version = unsafe {
        let get_string: GetString = std::mem::transmute(get_string);
        let v = get_string(0x1F02); // GL_VERSION
        if v.is_null() {
            String::new()
        } else {
            std::ffi::CStr::from_ptr(v.cast()).to_string_lossy().into_owned()
        }
    };
    let kind = classify_version(&version);
    if kind != Verdict::Core {
        return kind;
    }
    let mut profile = 0;
    // SAFETY: as above; desktop OpenGL 3.2 or later (`classify_version`) knows this pname.
    unsafe {
        let get_integerv: GetIntegerv = std::mem::transmute(get_integerv);
        get_integerv(0x9126, &mut profile); // GL_CONTEXT_PROFILE_MASK
    }
    if profile & 1 == 0 {
        return Verdict::Other(format!("a compatibility-profile context ({version})"));
    }
    Verdict::Core
}

/// What a `GL_VERSION` string says: [`Verdict::Core`] for desktop OpenGL 4.5 or later (whose
/// profile is still to be asked), anything else described.
fn classify_version(version: &str) -> Verdict {
    if version.starts_with("OpenGL ES") {
        return Verdict::Other(format!("an OpenGL ES context ({version})"));
    }
    // "<major>.<minor>[.<release>][ <vendor-specific>]"
    let mut numbers = version.split(|c: char| !c.is_ascii_digit()).map(|n| n.parse::<u32>().ok());
    match (numbers.next().flatten(), numbers.next().flatten()) {
        (Some(major), Some(minor)) if (major, minor) >= (4, 5) => Verdict::Core,
        (Some(major), Some(minor)) => Verdict::Other(format!("an OpenGL {major}.{minor} context")),
        _ => Verdict::Other(format!("a context whose version is not understood ({version:?})")),
    }
}

/// Runs `f` on the render thread of `c`'s device, after this thread's pending calls (for a
/// window-system call that needs the context current, such as a swap interval).
pub fn on_render_thread(c: Current, f: impl FnOnce() -> bool + Send + 'static) -> bool {
    on_render_thread_with(c, f).unwrap_or(false)
}

/// [`on_render_thread`] with any answer; None if `c` has no device (any more).
pub fn on_render_thread_with<R: Send + 'static>(c: Current, f: impl FnOnce() -> R + Send + 'static) -> Option<R> {
    let handle = device_for(c.context)?;
    let device = glcmd_capi::handles::device("glcmd-run", handle).ok().and_then(|d| d.device("glcmd-run").ok())?;
    // SAFETY: glcmd's glFlush on an immediate thread submits what is pending.
    unsafe { glcmd_capi::special::glFlush() };
    device.with_gl(move |_| f()).ok()
}

#[cfg(test)]
mod tests {
    use super::{classify_version, Verdict};

    #[test]
    fn versions_are_read_from_the_string_alone() {
        assert_eq!(classify_version("4.5 (Core Profile) Mesa 22.3.6"), Verdict::Core);
        assert_eq!(classify_version("4.6.0 NVIDIA 535.54"), Verdict::Core);
        assert_eq!(classify_version("10.0"), Verdict::Core);
        assert!(matches!(classify_version("OpenGL ES 3.2 Mesa 22.3.6"), Verdict::Other(s) if s.contains("OpenGL ES")));
        assert!(matches!(classify_version("OpenGL ES-CM 1.1 Mesa"), Verdict::Other(s) if s.contains("OpenGL ES")));
        assert!(matches!(classify_version("3.3 (Core Profile) Mesa"), Verdict::Other(s) if s.contains("3.3")));
        assert!(matches!(classify_version("2.1 Mesa 22.3.6"), Verdict::Other(s) if s.contains("2.1")));
        assert!(matches!(classify_version(""), Verdict::Other(_)));
    }
}
