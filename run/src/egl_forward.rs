//! The EGL functions glcmd-run has no other business with, forwarded to the driver thread
//! (`driver.rs`), and the per-thread state EGL keeps that forwarding must not lose.
//!
//! Three kinds:
//!
//! * **Calls on objects** (displays, configs, surfaces, contexts, syncs, images named by their
//!   handles): the same answer on any thread, so they run on the driver thread as they are
//!   ([`forwarded!`]).
//! * **Calls on the calling thread's current context** (`eglWaitClient`, `eglWaitGL`,
//!   `eglWaitNative`, `eglBindTexImage`, `eglReleaseTexImage`, `eglCopyBuffers`,
//!   `eglCreateSync`, `eglWaitSync` and their KHR forms): for a thread with an adopted context
//!   current, its recorded calls replay first and the call runs on that context's render
//!   thread, after them (a fence then follows the draws before it, as directly); for a thread
//!   with nothing current, on the driver thread with nothing current there
//!   (`driver::isolated`), so the driver answers as it answers a thread without a context.
//! * **Per-thread state**: `eglGetError` answers the error the thread's last forwarded call left
//!   (or glcmd's own answer); `eglBindAPI` is checked by the driver (bound and restored on the
//!   driver thread) and kept per thread, `eglQueryAPI` answers it, and the calls that depend on
//!   it (`eglCreateContext`, `eglMakeCurrent`'s release) bind it around themselves.
//!
//! A thread that calls the driver itself (`driver::make_local`), or every thread when
//! forwarding is off, reaches the system's functions directly, as before.
//!
//! A function handed out by `eglGetProcAddress` that this library does not name (an extension)
//! is forwarded by one of a fixed set of trampolines ([`trampoline_for`]): EGL's functions take
//! at most six arguments, all of integer class (handles, integers, pointers; `EGLTime` is 64-bit),
//! and return one integer-class value, so a trampoline of six `usize` arguments passes any of
//! them through unchanged under the C calling conventions of x86-64 and AArch64 (the callee
//! ignores the registers it does not take; a narrower return value is the low bits).

#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::cell::Cell;
use std::ffi::{c_char, c_ulong, c_void, CStr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::contexts::{self, Api};
use crate::driver;

type P = *mut c_void;
const EGL_FALSE: u32 = 0;
const EGL_TRUE: u32 = 1;
const EGL_OPENGL_ES_API: u32 = 0x30A0;

thread_local! {
    /// The API this thread bound (`eglBindAPI`); EGL's initial value is OpenGL ES.
    static BOUND_API: Cell<u32> = const { Cell::new(EGL_OPENGL_ES_API) };
}

/// The API the calling thread bound, as the driver would answer `eglQueryAPI`.
pub fn bound_api() -> u32 {
    BOUND_API.with(Cell::get)
}

/// The system's `name`, looked up once (on the driver thread when forwarding: the lookup of an
/// extension asks the driver).
fn real(cell: &AtomicUsize, name: &CStr) -> usize {
    let known = cell.load(Ordering::Relaxed);
    if known != 0 {
        return known;
    }
    // SAFETY: the lookup touches no thread state of the caller's.
    let found = unsafe { driver::run(|| crate::egl::real_egl(name) as usize) };
    cell.store(found, Ordering::Relaxed);
    found
}

/// Defines each function as the system's, run on the driver thread (its error kept for the
/// caller), or here where this thread's calls are not forwarded. `fail` is the answer when the
/// system has no such function.
macro_rules! forwarded {
    ($(fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty = $fail:expr;)*) => {$(
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $ret {
            static REAL: AtomicUsize = AtomicUsize::new(0);
            let f = real(&REAL, CStr::from_bytes_with_nul(concat!(stringify!($name), "\0").as_bytes()).unwrap());
            if f == 0 {
                return $fail;
            }
            // SAFETY: the system's function of this name has this C signature.
            let f = unsafe { std::mem::transmute::<usize, unsafe extern "C" fn($($ty),*) -> $ret>(f) };
            // SAFETY: the program's arguments, for the system's function; EGL handles are valid
            // on every thread.
            unsafe { driver::egl(move || f($($arg),*)) }
        }
    )*
        /// The functions defined by `forwarded!`, by name.
        fn forwarded_by_name(name: &[u8]) -> Option<*const c_void> {
            match name {
                $(n if n == stringify!($name).as_bytes() => Some($name as *const c_void),)*
                _ => None,
            }
        }
    };
}

forwarded! {
    fn eglInitialize(dpy: P, major: *mut i32, minor: *mut i32) -> u32 = EGL_FALSE;
    fn eglChooseConfig(dpy: P, attribs: *const i32, configs: *mut P, size: i32, count: *mut i32) -> u32 = EGL_FALSE;
    fn eglGetConfigs(dpy: P, configs: *mut P, size: i32, count: *mut i32) -> u32 = EGL_FALSE;
    fn eglGetConfigAttrib(dpy: P, config: P, attribute: i32, value: *mut i32) -> u32 = EGL_FALSE;
    fn eglCreatePbufferSurface(dpy: P, config: P, attribs: *const i32) -> P = std::ptr::null_mut();
    fn eglCreatePixmapSurface(dpy: P, config: P, pixmap: c_ulong, attribs: *const i32) -> P = std::ptr::null_mut();
    fn eglCreatePlatformPixmapSurface(dpy: P, config: P, pixmap: P, attribs: *const isize) -> P = std::ptr::null_mut();
    fn eglCreatePbufferFromClientBuffer(dpy: P, kind: u32, buffer: P, config: P, attribs: *const i32) -> P = std::ptr::null_mut();
    fn eglQueryContext(dpy: P, ctx: P, attribute: i32, value: *mut i32) -> u32 = EGL_FALSE;
    fn eglQuerySurface(dpy: P, surface: P, attribute: i32, value: *mut i32) -> u32 = EGL_FALSE;
    fn eglSurfaceAttrib(dpy: P, surface: P, attribute: i32, value: i32) -> u32 = EGL_FALSE;
    fn eglQueryString(dpy: P, name: i32) -> *const c_char = std::ptr::null();
    fn eglDestroySync(dpy: P, sync: P) -> u32 = EGL_FALSE;
    fn eglGetSyncAttrib(dpy: P, sync: P, attribute: i32, value: *mut isize) -> u32 = EGL_FALSE;
    fn eglDestroyImage(dpy: P, image: P) -> u32 = EGL_FALSE;
}

/// Runs the real `f` (looked up as `name`), which acts on the calling thread's current context,
/// where that context is (module essay): on an adopted context's render thread after the
/// thread's recorded calls, or isolated on the driver thread for a thread with nothing current.
/// Arguments and answer travel as integers.
fn on_current_context(
    name: &'static CStr,
    cell: &'static AtomicUsize,
    call: fn(usize, [usize; 4]) -> usize,
    args: [usize; 4],
) -> usize {
    let f = real(cell, name);
    if f == 0 {
        return 0;
    }
    let forwarding = driver::forwarding();
    match contexts::bound().filter(|c| c.api == Api::Egl && !crate::current::on_render_thread()) {
        Some(c) => {
            glcmd_capi::call::wait_replayed(name.to_str().unwrap_or("an EGL call"));
            let answer = contexts::on_render_thread_with(c, move || {
                let answer = call(f, args);
                // SAFETY: the system's function; no arguments.
                (answer, crate::real::egl_get_error().map_or(driver::EGL_SUCCESS, |e| unsafe { e() }))
            });
            // EGL_CONTEXT_LOST: the device is gone.
            let (answer, error) = answer.unwrap_or((0, 0x300E));
            // Where this thread's calls are not forwarded, its EGL error is the driver's own,
            // which glcmd cannot set: the error of this call is then not kept.
            if forwarding {
                driver::set_error(error);
            }
            answer
        }
        // SAFETY: a real EGL call with the program's arguments.
        None if forwarding => unsafe { driver::isolated(|| call(f, args)) },
        None => call(f, args),
    }
}

/// Defines each function of the second kind (module essay) through [`on_current_context`].
macro_rules! on_current {
    ($(fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {$(
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $ret {
            static REAL: AtomicUsize = AtomicUsize::new(0);
            let name = CStr::from_bytes_with_nul(concat!(stringify!($name), "\0").as_bytes()).unwrap();
            #[allow(unused_mut)]
            let mut args = [0usize; 4];
            let mut _i = 0;
            $( args[_i] = $arg as usize; _i += 1; )*
            #[allow(unused_variables)]
            fn call(f: usize, args: [usize; 4]) -> usize {
                let mut _i = 0;
                $( let $arg = args[_i] as $ty; _i += 1; )*
                // SAFETY: the system's function of this name has this C signature; the
                // program's arguments, passed back as they came.
                unsafe { std::mem::transmute::<usize, unsafe extern "C" fn($($ty),*) -> $ret>(f)($($arg),*) as usize }
            }
            on_current_context(name, &REAL, call, args) as $ret
        }
    )*
        /// The functions defined by `on_current!`, by name.
        fn on_current_by_name(name: &[u8]) -> Option<*const c_void> {
            match name {
                $(n if n == stringify!($name).as_bytes() => Some($name as *const c_void),)*
                _ => None,
            }
        }
    };
}

on_current! {
    fn eglWaitClient() -> u32;
    fn eglWaitGL() -> u32;
    fn eglWaitNative(engine: i32) -> u32;
    fn eglBindTexImage(dpy: P, surface: P, buffer: i32) -> u32;
    fn eglReleaseTexImage(dpy: P, surface: P, buffer: i32) -> u32;
    fn eglCopyBuffers(dpy: P, surface: P, target: c_ulong) -> u32;
    fn eglCreateSync(dpy: P, kind: u32, attribs: *const isize) -> P;
    fn eglWaitSync(dpy: P, sync: P, flags: i32) -> u32;
    fn eglCreateSyncKHR(dpy: P, kind: u32, attribs: *const i32) -> P;
    fn eglWaitSyncKHR(dpy: P, sync: P, flags: i32) -> i32;
    fn eglClientWaitSync(dpy: P, sync: P, flags: i32, timeout: u64) -> i32;
    fn eglClientWaitSyncKHR(dpy: P, sync: P, flags: i32, timeout: u64) -> i32;
}

#[no_mangle]
pub unsafe extern "C" fn eglGetError() -> i32 {
    if driver::forwarding() {
        return driver::take_error();
    }
    // SAFETY: the system's function; no arguments.
    crate::real::egl_get_error().map_or(driver::EGL_SUCCESS, |f| unsafe { f() })
}

#[no_mangle]
pub unsafe extern "C" fn eglBindAPI(api: u32) -> u32 {
    let Some(bind) = crate::real::egl_bind_api() else { return EGL_FALSE };
    if !driver::forwarding() {
        // SAFETY: the system's function, with the program's argument.
        return unsafe { bind(api) };
    }
    // The driver checks the API (it refuses one it does not serve); the driver thread's own
    // binding is put back.
    // SAFETY: the system's functions, on the driver thread's state, restored.
    let accepted = unsafe { driver::egl(|| with_api(api, || EGL_FALSE, || EGL_TRUE)) };
    if accepted == EGL_TRUE {
        BOUND_API.with(|b| b.set(api));
    }
    accepted
}

#[no_mangle]
pub unsafe extern "C" fn eglQueryAPI() -> u32 {
    if driver::forwarding() {
        driver::set_error(driver::EGL_SUCCESS);
        return bound_api();
    }
    // SAFETY: the system's function; no arguments.
    crate::real::egl_query_api().map_or(EGL_OPENGL_ES_API, |f| unsafe { f() })
}

/// Runs `f` with `api` bound on this thread (the driver thread), then binds what was bound
/// before. `refused` (and the driver's error) if the driver refuses `api`.
///
/// # Safety
/// On the thread whose binding it changes and restores.
pub unsafe fn with_api<R>(api: u32, refused: impl FnOnce() -> R, f: impl FnOnce() -> R) -> R {
    let (Some(query), Some(bind)) = (crate::real::egl_query_api(), crate::real::egl_bind_api()) else { return f() };
    // SAFETY: the system's functions, on this thread's state.
    unsafe {
        let before = query();
        if before == api {
            return f();
        }
        if bind(api) != EGL_TRUE {
            return refused();
        }
        let answer = f();
        bind(before);
        answer
    }
}

/// A forwarding thread's `eglReleaseThread`: its bound API back to OpenGL ES.
pub fn release_thread_state() {
    BOUND_API.with(|b| b.set(EGL_OPENGL_ES_API));
}

/// Trampolines for the functions `eglGetProcAddress` hands out that nothing here names.
type Trampoline = unsafe extern "C" fn(usize, usize, usize, usize, usize, usize) -> usize;
const SLOTS: usize = 32;
static TARGETS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
static ASSIGNED: Mutex<Vec<(Vec<u8>, usize)>> = Mutex::new(Vec::new());

fn through_slot(slot: usize, a: [usize; 6]) -> usize {
    let f = TARGETS[slot].load(Ordering::Acquire);
    // SAFETY: the system's function handed out for this slot; the caller's arguments, passed on
    // in the same registers (module essay).
    unsafe {
        let f = std::mem::transmute::<usize, Trampoline>(f);
        driver::egl(move || f(a[0], a[1], a[2], a[3], a[4], a[5]))
    }
}

macro_rules! trampolines {
    ($($i:literal)*) => {
        const TRAMPOLINES: [Trampoline; SLOTS] = [$({
            unsafe extern "C" fn t(a: usize, b: usize, c: usize, d: usize, e: usize, f: usize) -> usize {
                through_slot($i, [a, b, c, d, e, f])
            }
            t as Trampoline
        }),*];
    };
}
trampolines!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);

/// A forwarding trampoline for the system's EGL function `name` at `real` (the same one for
/// the same name), or `real` itself once every slot is taken (said once: that function's calls
/// then stay on the calling thread).
fn trampoline_for(name: &CStr, real: usize) -> *const c_void {
    let mut assigned = ASSIGNED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, slot)) = assigned.iter().find(|(n, _)| n == name.to_bytes()) {
        return TRAMPOLINES[slot] as *const c_void;
    }
    let slot = assigned.len();
    if slot == SLOTS {
        static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        if !SAID.swap(true, Ordering::Relaxed) {
            eprintln!("glcmd-run: more than {SLOTS} EGL extension functions looked up: {name:?} and later ones are called on the program's thread");
        }
        return real as *const c_void;
    }
    TARGETS[slot].store(real, Ordering::Release);
    assigned.push((name.to_bytes().to_vec(), slot));
    TRAMPOLINES[slot] as *const c_void
}

/// `eglGetProcAddress`'s answer for an EGL name no other part of this library serves: this
/// module's function, a forwarding trampoline for the system's (when forwarding), or the
/// system's.
pub fn for_name(name: &CStr) -> *const c_void {
    if let Some(f) = interposed(name) {
        return f;
    }
    // SAFETY: the lookup touches no thread state of the caller's.
    let real = unsafe { driver::run(|| crate::egl::real_egl(name) as usize) };
    if real == 0 || !driver::forwarding() || !name.to_bytes().starts_with(b"egl") {
        return real as *const c_void;
    }
    trampoline_for(name, real)
}

/// This module's stand-in for an EGL function, if it has one.
pub fn interposed(name: &CStr) -> Option<*const c_void> {
    let name = name.to_bytes();
    forwarded_by_name(name).or_else(|| on_current_by_name(name)).or(match name {
        b"eglGetError" => Some(eglGetError as *const c_void),
        b"eglBindAPI" => Some(eglBindAPI as *const c_void),
        b"eglQueryAPI" => Some(eglQueryAPI as *const c_void),
        _ => None,
    })
}
