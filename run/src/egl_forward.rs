//! The EGL functions glcmd-run has no other business with, forwarded to the driver thread
//! (`driver.rs`), and the per-thread state EGL keeps that forwarding must not lose.
//!
//! Three kinds (`forward.rs` has the machinery):
//!
//! * **Calls on objects** (displays, configs, surfaces, contexts, syncs, images named by their
//!   handles): the same answer on any thread, so they run on the driver thread as they are.
//! * **Calls on the calling thread's current context** (`eglWaitClient`, `eglWaitGL`,
//!   `eglWaitNative`, `eglBindTexImage`, `eglReleaseTexImage`, `eglCopyBuffers`,
//!   `eglCreateSync`, `eglWaitSync`, `eglClientWaitSync` and their KHR forms): where that context
//!   is (`forward::on_current_context`); a client wait is polled there, never held
//!   ([`client_wait`]).
//! * **Per-thread state**: `eglGetError` answers the error the thread's last forwarded call left
//!   (or glcmd's own answer); `eglBindAPI` is checked by the driver (bound and restored on the
//!   driver thread) and kept per thread, `eglQueryAPI` answers it, and the calls that depend on
//!   it (`eglCreateContext`, the probe) bind it around themselves.
//!
//! A thread that calls the driver itself (`driver::make_local`), or every thread when
//! forwarding is off, reaches the system's functions directly, as before. A function handed out
//! by `eglGetProcAddress` that this library does not name (an extension) is forwarded by a
//! trampoline (`forward::trampoline_for`).

#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::cell::Cell;
use std::ffi::{c_char, c_ulong, c_void, CStr};

use crate::driver;
use std::sync::atomic::AtomicUsize;

use crate::contexts;
use crate::forward::{self, forwarded, on_current, Api};

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

forwarded! {
    api = Api::Egl, lookup = crate::egl::real_egl, by_name = forwarded_by_name;
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

on_current! {
    api = Api::Egl, lookup = crate::egl::real_egl, by_name = on_current_by_name;
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
}

/// `eglClientWaitSync` and its KHR form, polled: the wait is made with a timeout of 0, again
/// and again (the flush flag with the first only), sleeping between (20 µs, doubling to 1 ms),
/// until the sync is signalled, an error comes or `timeout` has passed. A wait made with the
/// program's timeout would hold the driver thread (or an adopted context's render thread) for
/// that long, and with it every other thread's EGL calls: a reusable sync that another thread
/// signals (`eglSignalSyncKHR`) would then never be signalled. A thread whose calls reach the
/// driver itself waits as it asked.
fn client_wait(name: &'static CStr, real: usize, args: [usize; 4], timeout: u64) -> i32 {
    const EGL_TIMEOUT_EXPIRED: i32 = 0x30F5;
    const EGL_FOREVER: u64 = u64::MAX;
    fn call(f: usize, a: [usize; 4]) -> usize {
        type F = unsafe extern "C" fn(P, P, i32, u64) -> i32;
        // SAFETY: the system's eglClientWaitSync(KHR), whose signature this is (the KHR form
        // takes EGLint flags and EGLTimeKHR, the same registers); the program's arguments.
        unsafe { std::mem::transmute::<usize, F>(f)(a[0] as P, a[1] as P, a[2] as i32, a[3] as u64) as u32 as usize }
    }
    let bound = contexts::bound().is_some_and(|c| c.api == Api::Egl && !crate::current::on_render_thread());
    if !driver::forwarding() && !bound {
        return forward::on_current_context(Api::Egl, name, real, call, [args[0], args[1], args[2], timeout as usize])
            as i32;
    }
    let start = std::time::Instant::now();
    let (mut flags, mut pause) = (args[2], std::time::Duration::from_micros(20));
    loop {
        let answer =
            forward::on_current_context(Api::Egl, name, real, call, [args[0], args[1], flags, 0]) as u32 as i32;
        let passed = start.elapsed().as_nanos();
        if answer != EGL_TIMEOUT_EXPIRED || (timeout != EGL_FOREVER && passed >= u128::from(timeout)) {
            return answer;
        }
        flags = 0;
        std::thread::sleep(pause);
        pause = (pause * 2).min(std::time::Duration::from_millis(1));
    }
}

#[no_mangle]
pub unsafe extern "C" fn eglClientWaitSync(dpy: P, sync: P, flags: i32, timeout: u64) -> i32 {
    static REAL: AtomicUsize = AtomicUsize::new(0);
    let f = forward::real(&REAL, c"eglClientWaitSync", crate::egl::real_egl);
    client_wait(c"eglClientWaitSync", f, [dpy as usize, sync as usize, flags as u32 as usize, 0], timeout)
}

unsafe extern "C" fn client_wait_sync_khr(dpy: P, sync: P, flags: i32, timeout: u64) -> i32 {
    static REAL: AtomicUsize = AtomicUsize::new(0);
    let f = forward::real(&REAL, c"eglClientWaitSyncKHR", crate::egl::real_egl);
    client_wait(c"eglClientWaitSyncKHR", f, [dpy as usize, sync as usize, flags as u32 as usize, 0], timeout)
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
    forward::trampoline_for(Api::Egl, name, real)
}

/// This module's stand-in for an EGL function, if it has one.
pub fn interposed(name: &CStr) -> Option<*const c_void> {
    let name = name.to_bytes();
    forwarded_by_name(name).or_else(|| on_current_by_name(name)).or(match name {
        b"eglGetError" => Some(eglGetError as *const c_void),
        b"eglClientWaitSync" => Some(eglClientWaitSync as *const c_void),
        b"eglClientWaitSyncKHR" => Some(client_wait_sync_khr as *const c_void),
        b"eglBindAPI" => Some(eglBindAPI as *const c_void),
        b"eglQueryAPI" => Some(eglQueryAPI as *const c_void),
        _ => None,
    })
}
