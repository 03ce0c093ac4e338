//! The edges of a thread's and of the process's life, as mechanisms (`contexts.rs` decides what
//! happens there).
//!
//! * **A thread's end.** [`watch_thread`] registers a function to run when the calling thread's
//!   thread-local storage is destroyed: when the thread returns or calls `pthread_exit`, and, for
//!   the thread that calls `exit` (or returns from `main`), *before* any `atexit` handler or C++
//!   static destructor runs (glibc's `__run_exit_handlers` destroys the exiting thread's
//!   thread-locals first). `contexts.rs` hands a thread's adopted context back to the driver
//!   there, so that whatever the thread still calls (an `atexit` handler's `glFinish` and
//!   `glReadPixels`) reaches the context directly, as without glcmd, and no render thread is
//!   still replaying while exit destroys other libraries' statics.
//! * **Exit.** [`mark_exiting`] records that the main thread is exiting: from then on no context
//!   is adopted (a render thread started by an exit handler would replay while exit destroys the
//!   statics of the libraries it calls, LLVM's on llvmpipe).
//! * **`fork`.** A child has one thread, a copy of the caller; glcmd's render threads are not in
//!   it. [`at_fork`] registers the handlers with which `contexts.rs` holds its registry across
//!   the fork and then, in the child, forgets every device (never replaying, joining or
//!   destroying one: that waited on, or panicked at, threads the child does not have).

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};

static EXITING: AtomicBool = AtomicBool::new(false);

/// Records that the process is exiting (its main thread's thread-locals are being destroyed).
pub fn mark_exiting() {
    EXITING.store(true, Ordering::SeqCst);
}

/// Whether the process is exiting.
pub fn exiting() -> bool {
    EXITING.load(Ordering::SeqCst)
}

extern "C" {
    /// glibc's registration of a thread-local destructor (the `libc` crate does not export it):
    /// `dtor(obj)` runs once when the calling thread's thread-locals are destroyed; `dso_symbol`,
    /// an address inside this library, keeps the library loaded while it is pending.
    fn __cxa_thread_atexit_impl(
        dtor: unsafe extern "C" fn(*mut c_void),
        obj: *mut c_void,
        dso_symbol: *mut c_void,
    ) -> libc::c_int;
}

/// Registers `f` to run when the calling thread's thread-locals are destroyed (see the module's
/// documentation), once per thread and function however often this is called; functions
/// registered later run first. A panic in `f` is caught (it must not unwind into the C library).
pub fn watch_thread(f: fn()) {
    thread_local! {
        static WATCHED: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let new = WATCHED
        .try_with(|w| {
            let mut w = w.borrow_mut();
            let new = !w.contains(&(f as usize));
            if new {
                w.push(f as usize);
            }
            new
        })
        .unwrap_or(false);
    if !new {
        return;
    }
    unsafe extern "C" fn run(f: *mut c_void) {
        // SAFETY: `f` is the `fn()` registered below.
        let f: fn() = unsafe { std::mem::transmute::<*mut c_void, fn()>(f) };
        let _ = std::panic::catch_unwind(f);
    }
    static ANCHOR: u8 = 0;
    // SAFETY: registers a destructor for the calling thread, called with `f` once at its end.
    unsafe { __cxa_thread_atexit_impl(run, f as *const () as *mut c_void, std::ptr::addr_of!(ANCHOR) as *mut c_void) };
}

/// Registers fork handlers (`pthread_atfork`): `prepare` runs in the parent before the fork,
/// `parent` after it in the parent, `child` in the child.
pub fn at_fork(prepare: extern "C" fn(), parent: extern "C" fn(), child: extern "C" fn()) {
    // SAFETY: registers three functions without arguments, run around every fork.
    unsafe { libc::pthread_atfork(Some(prepare), Some(parent), Some(child)) };
}
