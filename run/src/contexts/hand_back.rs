//! The ends of a context's service: when a thread ends or the process exits, and in the child
//! of `fork` (the mechanisms are `lifetime.rs`; this is what `contexts.rs` does there).
//!
//! * A thread that ends with an adopted context current (returns, `pthread_exit`, or calls
//!   `exit`, whose thread-locals go before any `atexit` handler) hands it back: the device
//!   finishes and the context is made current on that thread with the real function, as the
//!   program left it ([`hand_back_current`]). What the thread still calls (`atexit` handlers,
//!   C++ static destructors) reaches the context directly, as without glcmd; no render thread
//!   replays while exit destroys other libraries' statics (LLVM's, on llvmpipe); a context left
//!   current on a thread that ended stays bound to it, as the driver keeps it.
//! * When the main thread exits, every other device finishes too, and no context is adopted
//!   from then on ([`finish_at_exit`]).
//! * The registry is held across `fork`; the child forgets every device (their render threads
//!   are not in it: joining them panicked) and its contexts run directly ([`fork_child`]).

use std::collections::HashMap;

use super::{bound, contexts, destroy_pending, release_thread, Api, Served, BOUND, CONTEXTS, DESTROY_PENDING};
use crate::{adopt, dispatch, lifetime, native, real};

/// When the main thread exits: this thread's context is handed back ([`hand_back_current`]),
/// every other device finishes (replays what was submitted, releases its context) and its
/// context runs directly from then on, and no context is adopted any more.
pub(super) fn finish_at_exit() {
    lifetime::mark_exiting();
    let connections = super::adopted_connections();
    hand_back_current();
    let all: Vec<usize> =
        contexts(|m| m.iter().filter_map(|(k, v)| matches!(v, Served::Glcmd { .. }).then_some(*k)).collect());
    for context in all {
        let served = contexts(|m| {
            let mut pending = DESTROY_PENDING.lock().unwrap_or_else(|e| e.into_inner());
            match pending.iter().position(|&p| p == context) {
                Some(at) => {
                    pending.swap_remove(at);
                    m.remove(&context)
                }
                None => {
                    let display = match m.get(&context) {
                        Some(Served::Glcmd { current, .. }) => current.display,
                        _ => 0,
                    };
                    m.insert(context, Served::Direct { display })
                }
            }
        });
        if let Some(Served::Glcmd { device, .. }) = served {
            adopt::destroy(device);
        }
    }
    // The last presents replayed after the program's last X call: nothing else sends them.
    native::flush(&connections);
}

/// At the end of a thread that has an adopted context current (its thread-locals destroyed: the
/// thread returns, or calls `exit`, or `main` returns), the context is handed back to the
/// driver: the device replays everything and releases it, and the context is made current on
/// this thread with the real function, as the program left it. What the thread still calls
/// (`atexit` handlers, C++ static destructors, thread-local destructors that run later)
/// reaches the context directly, as without glcmd, and a context left current on a thread that
/// ended stays bound to it as the driver keeps it (`EGL_BAD_ACCESS` elsewhere, as directly).
/// The context runs directly from then on. A context the program destroyed while current goes
/// with its device, current nowhere.
pub(super) fn hand_back_current() {
    let Some(c) = bound() else { return };
    if contexts(|_| destroy_pending(c.context)) {
        release_thread(); // destroys the device
        return;
    }
    release_thread();
    if let Some(Served::Glcmd { device, .. }) = contexts(|m| m.insert(c.context, Served::Direct { display: c.display }))
    {
        adopt::destroy(device);
    }
    crate::driver::make_local_quietly();
    let made = match c.api {
        Api::Egl => real::egl_make_current().map(|f| {
            let p = |h: usize| h as *mut std::ffi::c_void;
            // SAFETY: the handles this thread made current, released by the device just now.
            unsafe { f(p(c.display), p(c.draw), p(c.read), p(c.context)) == 1 }
        }),
        Api::Glx => real::glx_make_context_current().map(|f| {
            let (d, x) = (c.display as *mut std::ffi::c_void, c.context as *mut std::ffi::c_void);
            // SAFETY: as above.
            unsafe { f(d, c.draw as std::ffi::c_ulong, c.read as std::ffi::c_ulong, x) != 0 }
        }),
    };
    if made != Some(true) {
        eprintln!(
            "glcmd-run: context {:#x} could not be made current again on its thread as the thread ended; GL calls there do nothing",
            c.context
        );
    }
}

/// The registry's lock, held.
type Registry = std::sync::MutexGuard<'static, Option<HashMap<usize, Served>>>;

thread_local! {
    /// The registry, held by the thread that forks from [`fork_prepare`] until the fork is done,
    /// so that the child's copy is not one another thread was changing.
    static HELD: std::cell::RefCell<Option<Registry>> = const { std::cell::RefCell::new(None) };
}

pub(super) extern "C" fn fork_prepare() {
    let guard = CONTEXTS.lock().unwrap_or_else(|e| e.into_inner());
    let _ = HELD.try_with(|h| *h.borrow_mut() = Some(guard));
}

pub(super) extern "C" fn fork_parent() {
    let _ = HELD.try_with(|h| h.borrow_mut().take());
}

/// In the child of `fork`: every context runs directly (the render threads serving them are
/// not in the child; their devices are never touched again), and this thread, if its context
/// was served, is on nothing: its GL calls say once that they do nothing.
pub(super) extern "C" fn fork_child() {
    crate::driver::forget_after_fork();
    if let Some(mut guard) = HELD.try_with(|h| h.borrow_mut().take()).ok().flatten() {
        for served in guard.get_or_insert_with(HashMap::new).values_mut() {
            let display = match served {
                Served::Glcmd { current, .. } => current.display,
                Served::Direct { display } => *display,
            };
            *served = Served::Direct { display };
        }
        DESTROY_PENDING.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
    if bound().is_some() {
        BOUND.with(|b| b.set(None));
        glcmd_capi::current::forget_after_fork();
        dispatch::use_forked();
    }
}
