//! The interposed EGL functions: making a context current, swapping, destroying contexts and
//! surfaces, the current-context queries, and image creation, which waits for the thread's GL
//! calls to reach the driver (`proc_address.rs` hands them out). Everything else of
//! EGL is the system's: `dl.rs` makes a program that opens libEGL with `dlopen` find these too.
//!
//! Each answers and sets `eglGetError` as the driver does (`tests/c/egl_entry.c` compares them
//! all): a call glcmd answers itself where the real one would succeed leaves `EGL_SUCCESS`
//! ([`succeed`]); one that fails is the real function's own failure, called with the program's
//! arguments (a make-current of a context current on another thread fails in the driver, since
//! glcmd's render thread has it current: `EGL_BAD_ACCESS`), so its error is the driver's.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::ffi::{c_void, CStr};

use crate::contexts::{self, Api, Current, Outcome, Verdict};
use crate::{driver, egl_forward, real};

type EGLBoolean = u32;
const EGL_TRUE: EGLBoolean = 1;
const EGL_FALSE: EGLBoolean = 0;
const EGL_DRAW: i32 = 0x3059;
const EGL_READ: i32 = 0x305A;
const EGL_BAD_ACCESS: i32 = 0x3002;
const EGL_OPENGL_API: u32 = 0x30A2;

/// Makes `c` current with the real function, classifies it, and releases it: on this thread,
/// or on the driver thread with nothing else current there meanwhile (`driver::isolated`), with
/// desktop OpenGL bound (its release is that API's).
fn probe(c: Current) -> Result<Verdict, String> {
    if !driver::forwarding() {
        return probe_here(c);
    }
    let fail = || Err("no eglBindAPI".to_string());
    // SAFETY: real EGL and GL calls with the program's handles, on the driver thread's state,
    // which `isolated` and `with_api` restore.
    unsafe { driver::isolated(|| egl_forward::with_api(EGL_OPENGL_API, fail, || probe_here(c))) }
}

/// [`probe`] on the calling thread. An OpenGL ES context is known from `eglQueryContext` alone
/// and is not made current.
fn probe_here(c: Current) -> Result<Verdict, String> {
    let make_current = real::egl_make_current().ok_or("no eglMakeCurrent")?;
    let (d, s, r, x) =
        (c.display as *mut c_void, c.draw as *mut c_void, c.read as *mut c_void, c.context as *mut c_void);
    if let Some(es) = opengl_es_version(d, x) {
        return Ok(Verdict::Other(format!("an OpenGL ES {es} context")));
    }
    // SAFETY: the program's own handles, passed to the real function as the program passed them.
    if unsafe { make_current(d, s, r, x) } != EGL_TRUE {
        // The program's own call, refused: its answer and error stand.
        return Ok(Verdict::Refused);
    }
    let verdict = contexts::classify();
    let null = std::ptr::null_mut();
    // SAFETY: releases what the line above made current.
    unsafe { make_current(d, null, null, null) };
    Ok(verdict)
}

/// The client version of `context` if it is an OpenGL ES context (`eglQueryContext`, which asks
/// nothing of the GL).
fn opengl_es_version(display: *mut c_void, context: *mut c_void) -> Option<i32> {
    const EGL_CONTEXT_CLIENT_TYPE: i32 = 0x3097;
    const EGL_CONTEXT_CLIENT_VERSION: i32 = 0x3098;
    const EGL_OPENGL_ES_API: i32 = 0x30A0;
    type F = unsafe extern "C" fn(*mut c_void, *mut c_void, i32, *mut i32) -> EGLBoolean;
    let f = real_egl(c"eglQueryContext");
    if f.is_null() {
        return None;
    }
    // SAFETY: the system's function of this name, with the program's handles and an output.
    let query = unsafe { std::mem::transmute::<*const c_void, F>(f) };
    let (mut api, mut version) = (0, 0);
    // SAFETY: as above.
    if unsafe { query(display, context, EGL_CONTEXT_CLIENT_TYPE, &mut api) } != EGL_TRUE || api != EGL_OPENGL_ES_API {
        return None;
    }
    // SAFETY: as above.
    unsafe { query(display, context, EGL_CONTEXT_CLIENT_VERSION, &mut version) };
    Some(version)
}

#[no_mangle]
pub unsafe extern "C" fn eglMakeCurrent(
    dpy: *mut c_void,
    draw: *mut c_void,
    read: *mut c_void,
    ctx: *mut c_void,
) -> EGLBoolean {
    let c = Current {
        api: Api::Egl,
        display: dpy as usize,
        draw: draw as usize,
        read: read as usize,
        context: ctx as usize,
    };
    let Some(real_make_current) = real::egl_make_current() else { return EGL_FALSE };
    // SAFETY (each use): the program's call, passed on unchanged.
    let here = || unsafe { real_make_current(dpy, draw, read, ctx) };
    let outcome = contexts::make_current(c, || probe(c));
    match outcome {
        Outcome::Done(true) => succeed(EGL_TRUE),
        Outcome::Done(false) => EGL_FALSE,
        // The driver answers for a thread with nothing current (on the driver thread, isolated).
        // SAFETY: as above.
        Outcome::PassThrough => unsafe { driver::isolated(here) },
        Outcome::BadAccess if driver::forwarding() => fail(EGL_BAD_ACCESS),
        Outcome::BadAccess => here(),
        Outcome::Direct => {
            driver::make_local();
            here()
        }
        Outcome::DirectThenRelease => {
            driver::make_local();
            released(here())
        }
        // A release: the driver checks the display and surfaces as for a thread with nothing
        // current (the program's thread has nothing current in the driver).
        // SAFETY: as above.
        Outcome::PassThenRelease => released(unsafe { driver::isolated(here) }),
    }
}

/// After a release or a switch to a direct context: if the driver accepted it, this thread's
/// glcmd binding ends.
fn released(made: EGLBoolean) -> EGLBoolean {
    if made == EGL_TRUE {
        contexts::release_thread();
    }
    made
}

/// `EGL_FALSE` with this thread's EGL error set to `code` (on a forwarding thread).
fn fail(code: i32) -> EGLBoolean {
    driver::set_error(code);
    EGL_FALSE
}

/// Returns `value` after setting this thread's EGL error to `EGL_SUCCESS`, for a call glcmd
/// answered itself where the real function would have succeeded: `eglGetError` then says what
/// it says after the real one (`EGL_SUCCESS`, not the error of an earlier call). The real
/// `eglGetCurrentContext` succeeds always and sets it (libglvnd's and Mesa's alike).
fn succeed<T>(value: T) -> T {
    if driver::forwarding() {
        driver::set_error(driver::EGL_SUCCESS);
        return value;
    }
    if let Some(f) = real::egl_get_current_context() {
        // SAFETY: no arguments; asks this thread's current context.
        unsafe { f() };
    }
    value
}

#[no_mangle]
pub unsafe extern "C" fn eglSwapBuffers(dpy: *mut c_void, surface: *mut c_void) -> EGLBoolean {
    match contexts::swap(dpy as usize, surface as usize) {
        Some(true) => succeed(EGL_TRUE),
        Some(false) => EGL_FALSE,
        None => match real::egl_swap_buffers() {
            // SAFETY: the program's call, passed on unchanged, as for a thread with nothing
            // current where this one's calls are forwarded.
            Some(f) => unsafe { driver::isolated(|| f(dpy, surface)) },
            None => EGL_FALSE,
        },
    }
}

/// `eglSwapBuffersWithDamageKHR` / `EXT`: the damage is a hint; glcmd presents the whole surface.
unsafe extern "C" fn swap_with_damage(dpy: *mut c_void, surface: *mut c_void, rects: *const i32, n: i32) -> EGLBoolean {
    match contexts::swap(dpy as usize, surface as usize) {
        Some(true) => succeed(EGL_TRUE),
        Some(false) => EGL_FALSE,
        None => {
            type F = unsafe extern "C" fn(*mut c_void, *mut c_void, *const i32, i32) -> EGLBoolean;
            let f = real_egl(c"eglSwapBuffersWithDamageKHR");
            if f.is_null() {
                return EGL_FALSE;
            }
            // SAFETY: the system's function of this name; the program's arguments.
            unsafe { driver::isolated(|| std::mem::transmute::<*const c_void, F>(f)(dpy, surface, rects, n)) }
        }
    }
}

/// `eglCreateImage` and `eglCreateImageKHR`: an image of a GL object (`EGL_GL_TEXTURE_2D`, a
/// renderbuffer) is made from the object as the driver has it, so the calls that made it must
/// have reached the driver: an immediate thread's recorded calls are replayed first (directly,
/// they ran at once). Then the real function, with the program's arguments.
#[no_mangle]
pub unsafe extern "C" fn eglCreateImage(
    dpy: *mut c_void,
    ctx: *mut c_void,
    target: u32,
    buffer: *mut c_void,
    attribs: *const isize,
) -> *mut c_void {
    // SAFETY: the program's arguments, for the system's function of this name.
    unsafe { create_image(c"eglCreateImage", dpy, ctx, target, buffer, attribs) }
}

/// [`eglCreateImage`]'s `EGL_KHR_image_base` form (`EGLint` attributes).
unsafe extern "C" fn create_image_khr(
    dpy: *mut c_void,
    ctx: *mut c_void,
    target: u32,
    buffer: *mut c_void,
    attribs: *const i32,
) -> *mut c_void {
    // SAFETY: as above.
    unsafe { create_image(c"eglCreateImageKHR", dpy, ctx, target, buffer, attribs) }
}

/// Both image creations: the thread's calls replayed first, then the system's `name` (whose
/// attribute list is of `A`: `EGLAttrib` or `EGLint`) with the program's arguments.
///
/// # Safety
/// The program's arguments, as the real function takes them.
unsafe fn create_image<A>(
    name: &'static CStr,
    dpy: *mut c_void,
    ctx: *mut c_void,
    target: u32,
    buffer: *mut c_void,
    attribs: *const A,
) -> *mut c_void {
    glcmd_capi::call::wait_replayed(name.to_str().unwrap_or("eglCreateImage"));
    let f = real_egl(name);
    if f.is_null() {
        return std::ptr::null_mut();
    }
    type F<A> = unsafe extern "C" fn(*mut c_void, *mut c_void, u32, *mut c_void, *const A) -> *mut c_void;
    // SAFETY: the system's function of this name, whose signature `F<A>` is; the caller's arguments.
    unsafe { driver::egl(|| std::mem::transmute::<*const c_void, F<A>>(f)(dpy, ctx, target, buffer, attribs)) }
}

#[no_mangle]
pub unsafe extern "C" fn eglDestroyContext(dpy: *mut c_void, ctx: *mut c_void) -> EGLBoolean {
    contexts::destroy(ctx as usize);
    match real::egl_destroy_context() {
        // SAFETY: the program's call, passed on unchanged.
        Some(f) => unsafe { driver::egl(|| f(dpy, ctx)) },
        None => EGL_FALSE,
    }
}

#[no_mangle]
pub unsafe extern "C" fn eglDestroySurface(dpy: *mut c_void, surface: *mut c_void) -> EGLBoolean {
    contexts::surface_destroyed(dpy as usize, surface as usize);
    match real::egl_destroy_surface() {
        // SAFETY: the program's call, passed on unchanged.
        Some(f) => unsafe { driver::egl(|| f(dpy, surface)) },
        None => EGL_FALSE,
    }
}

#[no_mangle]
pub unsafe extern "C" fn eglCreateContext(
    dpy: *mut c_void,
    config: *mut c_void,
    share: *mut c_void,
    attribs: *const i32,
) -> *mut c_void {
    type F = unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_void, *const i32) -> *mut c_void;
    let f = real::next(c"eglCreateContext");
    if f.is_null() {
        return std::ptr::null_mut();
    }
    let create = || {
        // SAFETY: the system's function of this name; the program's arguments.
        unsafe { std::mem::transmute::<*const c_void, F>(f)(dpy, config, share, attribs) }
    };
    // The context is of the API the calling thread bound: bound around the call where it runs
    // on the driver thread.
    let ctx = match driver::forwarding() {
        true => {
            let api = egl_forward::bound_api();
            // SAFETY: on the driver thread's state, restored by `with_api`.
            unsafe { driver::egl(|| egl_forward::with_api(api, std::ptr::null_mut, create)) }
        }
        false => create(),
    };
    if !ctx.is_null() && !share.is_null() {
        contexts::shared_created(ctx as usize, share as usize);
    }
    ctx
}

#[no_mangle]
pub unsafe extern "C" fn eglGetCurrentContext() -> *mut c_void {
    match contexts::bound() {
        Some(c) if c.api == Api::Egl => succeed(c.context as *mut c_void),
        // A forwarding thread has nothing current in the driver.
        _ if driver::forwarding() => succeed(std::ptr::null_mut()),
        // SAFETY: passed on.
        _ => real::egl_get_current_context().map_or(std::ptr::null_mut(), |f| unsafe { f() }),
    }
}

#[no_mangle]
pub unsafe extern "C" fn eglGetCurrentSurface(readdraw: i32) -> *mut c_void {
    match contexts::bound() {
        Some(c) if c.api == Api::Egl && readdraw == EGL_DRAW => succeed(c.draw as *mut c_void),
        Some(c) if c.api == Api::Egl && readdraw == EGL_READ => succeed(c.read as *mut c_void),
        // A forwarding thread has nothing current in the driver.
        _ if driver::forwarding() => succeed(std::ptr::null_mut()),
        // SAFETY: passed on.
        _ => real::egl_get_current_surface().map_or(std::ptr::null_mut(), |f| unsafe { f(readdraw) }),
    }
}

#[no_mangle]
pub unsafe extern "C" fn eglGetCurrentDisplay() -> *mut c_void {
    match contexts::bound() {
        Some(c) if c.api == Api::Egl => succeed(c.display as *mut c_void),
        // A forwarding thread has nothing current in the driver.
        _ if driver::forwarding() => succeed(std::ptr::null_mut()),
        // SAFETY: passed on.
        _ => real::egl_get_current_display().map_or(std::ptr::null_mut(), |f| unsafe { f() }),
    }
}

#[no_mangle]
pub unsafe extern "C" fn eglReleaseThread() -> EGLBoolean {
    // Ends the thread's use of EGL: what it issued replays and is flushed first (teardown.rs).
    if let Some(device) = contexts::bound().and_then(|c| contexts::device_for(c.context)) {
        contexts::release_thread();
        crate::switch::drain(device);
    }
    if driver::forwarding() {
        // The thread's EGL state, as a release leaves it: nothing current (above), OpenGL ES
        // bound, no error. The driver thread's own state is not the program's to release.
        egl_forward::release_thread_state();
        return succeed(EGL_TRUE);
    }
    // SAFETY: passed on.
    real::egl_release_thread().map_or(EGL_TRUE, |f| unsafe { f() })
}

#[no_mangle]
pub unsafe extern "C" fn eglSwapInterval(dpy: *mut c_void, interval: i32) -> EGLBoolean {
    let dpy_int = dpy as usize;
    let run = move || match real::egl_swap_interval() {
        // SAFETY: on the thread where the context is current, as the API requires.
        Some(f) => (unsafe { f(dpy_int as *mut c_void, interval) }) == EGL_TRUE,
        None => false,
    };
    match contexts::bound() {
        Some(c) if c.api == Api::Egl => match contexts::on_render_thread(c, run) {
            true => succeed(EGL_TRUE),
            false => EGL_FALSE,
        },
        // SAFETY: the system's function with the program's arguments, for a thread with
        // nothing current.
        _ => (unsafe { driver::isolated(run) }) as EGLBoolean,
    }
}

/// The system's EGL function `name` (through the real `eglGetProcAddress`, which serves
/// extension functions, then the next definition).
pub fn real_egl(name: &CStr) -> *const c_void {
    driver::system_function(real::egl_get_proc_address(), name)
}

/// This library's stand-in for an EGL function, if it has one.
pub fn interposed(name: &CStr) -> Option<*const c_void> {
    Some(match name.to_bytes() {
        b"eglMakeCurrent" => eglMakeCurrent as *const c_void,
        b"eglSwapBuffers" => eglSwapBuffers as *const c_void,
        b"eglSwapBuffersWithDamageKHR" | b"eglSwapBuffersWithDamageEXT" => swap_with_damage as *const c_void,
        b"eglDestroyContext" => eglDestroyContext as *const c_void,
        b"eglDestroySurface" => eglDestroySurface as *const c_void,
        b"eglCreateContext" => eglCreateContext as *const c_void,
        b"eglGetCurrentContext" => eglGetCurrentContext as *const c_void,
        b"eglGetCurrentSurface" => eglGetCurrentSurface as *const c_void,
        b"eglGetCurrentDisplay" => eglGetCurrentDisplay as *const c_void,
        b"eglReleaseThread" => eglReleaseThread as *const c_void,
        b"eglSwapInterval" => eglSwapInterval as *const c_void,
        b"eglCreateImage" => eglCreateImage as *const c_void,
        b"eglCreateImageKHR" => create_image_khr as *const c_void,
        _ => return None,
    })
}
