//! The interposed GLX functions: making a context current, swapping, destroying, the
//! current-context queries, `glXCreateContextAttribsARB`, `glXCreateContext` and
//! `glXCreateNewContext` (to note shared contexts) and the swap
//! intervals (run where the context is current). `proc_address.rs` hands them out.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::ffi::{c_int, c_ulong, c_void, CStr};

use crate::contexts::{self, Api, Current, Outcome, Verdict};
use crate::{driver, real};

/// Makes `c` current on this thread with the real function the program called
/// (`glXMakeCurrent` if `legacy`: an X error it raises names the program's request),
/// classifies it, and releases it.
fn probe(c: Current, legacy: bool) -> Result<Verdict, String> {
    // SAFETY: real GLX and GL calls with the program's handles; on the driver thread (when this
    // thread's calls go there) with nothing else current meanwhile.
    unsafe { driver::isolated_glx(|| probe_here(c, legacy)) }
}

/// [`probe`] on the calling thread.
fn probe_here(c: Current, legacy: bool) -> Result<Verdict, String> {
    let make_current = real::glx_make_context_current().ok_or("no glXMakeContextCurrent")?;
    let d = c.display as *mut c_void;
    let x = c.context as *mut c_void;
    let made = match real::glx_make_current() {
        // SAFETY: the program's own handles, passed to the real function as the program passed them.
        Some(f) if legacy => unsafe { f(d, c.draw as c_ulong, x) },
        // SAFETY: as above.
        _ => unsafe { make_current(d, c.draw as c_ulong, c.read as c_ulong, x) },
    };
    if made == 0 {
        // The program's own call, refused (the driver raised its X error): its answer stands.
        return Ok(Verdict::Refused);
    }
    let verdict = contexts::classify();
    // SAFETY: releases what the line above made current.
    unsafe { make_current(d, 0, 0, std::ptr::null_mut()) };
    Ok(verdict)
}

fn make_current(dpy: *mut c_void, draw: c_ulong, read: c_ulong, ctx: *mut c_void, legacy: bool) -> Outcome {
    let c = Current {
        api: Api::Glx,
        display: dpy as usize,
        draw: draw as usize,
        read: read as usize,
        context: ctx as usize,
    };
    contexts::make_current(c, || probe(c, legacy))
}

/// A make-current that glcmd passes to the driver (`here`, the real call): where this thread's
/// calls go to the driver thread, as for a thread with nothing current there, else here; a
/// context that runs directly makes this thread call the driver itself from now on.
fn passed_on(outcome: Outcome, here: impl FnOnce() -> c_int) -> c_int {
    let made = match outcome {
        Outcome::Done(ok) => return ok as c_int,
        Outcome::Direct | Outcome::DirectThenRelease => {
            driver::make_local();
            here()
        }
        // SAFETY: the real call with the program's arguments.
        Outcome::PassThrough | Outcome::BadAccess | Outcome::PassThenRelease => unsafe { driver::isolated_glx(here) },
    };
    if matches!(outcome, Outcome::PassThenRelease | Outcome::DirectThenRelease) && made != 0 {
        contexts::release_thread();
    }
    made
}

#[no_mangle]
pub unsafe extern "C" fn glXMakeCurrent(dpy: *mut c_void, drawable: c_ulong, ctx: *mut c_void) -> c_int {
    let outcome = make_current(dpy, drawable, drawable, ctx, true);
    // SAFETY: the program's call, passed on unchanged.
    passed_on(outcome, || real::glx_make_current().map_or(0, |f| unsafe { f(dpy, drawable, ctx) }))
}

#[no_mangle]
pub unsafe extern "C" fn glXMakeContextCurrent(
    dpy: *mut c_void,
    draw: c_ulong,
    read: c_ulong,
    ctx: *mut c_void,
) -> c_int {
    let outcome = make_current(dpy, draw, read, ctx, false);
    // SAFETY: the program's call, passed on unchanged.
    passed_on(outcome, || real::glx_make_context_current().map_or(0, |f| unsafe { f(dpy, draw, read, ctx) }))
}

#[no_mangle]
pub unsafe extern "C" fn glXSwapBuffers(dpy: *mut c_void, drawable: c_ulong) {
    if contexts::swap(dpy as usize, drawable as usize).is_none() {
        if let Some(f) = real::glx_swap_buffers() {
            // SAFETY: the program's call, passed on unchanged (on the driver thread, with nothing
            // current there, where this thread's calls go).
            unsafe { driver::isolated_glx(|| f(dpy, drawable)) }
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn glXDestroyContext(dpy: *mut c_void, ctx: *mut c_void) {
    contexts::destroy(ctx as usize);
    if let Some(f) = real::glx_destroy_context() {
        // SAFETY: the program's call, passed on unchanged.
        unsafe { driver::run(|| f(dpy, ctx)) }
    }
}

/// `glXDestroyWindow` and `glXDestroyPbuffer`: a device using the drawable goes first.
fn drawable_destroyed(name: &'static CStr, dpy: *mut c_void, drawable: c_ulong) {
    contexts::surface_destroyed(dpy as usize, drawable as usize);
    type F = unsafe extern "C" fn(*mut c_void, c_ulong);
    let f = real_glx(name);
    if !f.is_null() {
        // SAFETY: the system's function of this name; the program's arguments.
        unsafe { driver::run(|| std::mem::transmute::<*const c_void, F>(f)(dpy, drawable)) }
    }
}

#[no_mangle]
pub unsafe extern "C" fn glXDestroyWindow(dpy: *mut c_void, window: c_ulong) {
    drawable_destroyed(c"glXDestroyWindow", dpy, window)
}

#[no_mangle]
pub unsafe extern "C" fn glXDestroyPbuffer(dpy: *mut c_void, pbuffer: c_ulong) {
    drawable_destroyed(c"glXDestroyPbuffer", dpy, pbuffer)
}

#[no_mangle]
pub unsafe extern "C" fn glXGetCurrentContext() -> *mut c_void {
    match contexts::bound() {
        Some(c) if c.api == Api::Glx => c.context as *mut c_void,
        // A forwarding thread has nothing current in the driver.
        _ if driver::forwarding() => std::ptr::null_mut(),
        // SAFETY: passed on.
        _ => real::glx_get_current_context().map_or(std::ptr::null_mut(), |f| unsafe { f() }),
    }
}

#[no_mangle]
pub unsafe extern "C" fn glXGetCurrentDrawable() -> c_ulong {
    match contexts::bound() {
        Some(c) if c.api == Api::Glx => c.draw as c_ulong,
        // A forwarding thread has nothing current in the driver.
        _ if driver::forwarding() => 0,
        // SAFETY: passed on.
        _ => real::glx_get_current_drawable().map_or(0, |f| unsafe { f() }),
    }
}

#[no_mangle]
pub unsafe extern "C" fn glXGetCurrentReadDrawable() -> c_ulong {
    match contexts::bound() {
        Some(c) if c.api == Api::Glx => c.read as c_ulong,
        // A forwarding thread has nothing current in the driver.
        _ if driver::forwarding() => 0,
        // SAFETY: passed on.
        _ => real::glx_get_current_read_drawable().map_or(0, |f| unsafe { f() }),
    }
}

#[no_mangle]
pub unsafe extern "C" fn glXGetCurrentDisplay() -> *mut c_void {
    match contexts::bound() {
        Some(c) if c.api == Api::Glx => c.display as *mut c_void,
        // A forwarding thread has nothing current in the driver.
        _ if driver::forwarding() => std::ptr::null_mut(),
        // SAFETY: passed on.
        _ => real::glx_get_current_display().map_or(std::ptr::null_mut(), |f| unsafe { f() }),
    }
}

/// `glXCreateContextAttribsARB`: the real one, noting a context made with a share context.
unsafe extern "C" fn create_context_attribs(
    dpy: *mut c_void,
    config: *mut c_void,
    share: *mut c_void,
    direct: c_int,
    attribs: *const c_int,
) -> *mut c_void {
    type F = unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_void, c_int, *const c_int) -> *mut c_void;
    let f = real_glx(c"glXCreateContextAttribsARB");
    if f.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the system's function of this name; the program's arguments.
    let ctx =
        unsafe { driver::run(|| std::mem::transmute::<*const c_void, F>(f)(dpy, config, share, direct, attribs)) };
    if !ctx.is_null() && !share.is_null() {
        contexts::shared_created(ctx as usize, share as usize);
    }
    ctx
}

/// `glXCreateContext`: the real one, noting a context made with a share list (a legacy
/// context runs directly; one that shares with an adopted context makes its group direct:
/// [`contexts::shared_created`]).
#[no_mangle]
pub unsafe extern "C" fn glXCreateContext(
    dpy: *mut c_void,
    visual: *mut c_void,
    share: *mut c_void,
    direct: c_int,
) -> *mut c_void {
    type F = unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_void, c_int) -> *mut c_void;
    let f = real::next(c"glXCreateContext");
    if f.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the system's function of this name; the program's arguments.
    let ctx = unsafe { driver::run(|| std::mem::transmute::<*const c_void, F>(f)(dpy, visual, share, direct)) };
    if !ctx.is_null() && !share.is_null() {
        contexts::shared_created(ctx as usize, share as usize);
    }
    ctx
}

/// `glXCreateNewContext` (GLX 1.3): the real one, noting a context made with a share list, as
/// [`glXCreateContext`].
#[no_mangle]
pub unsafe extern "C" fn glXCreateNewContext(
    dpy: *mut c_void,
    config: *mut c_void,
    render_type: c_int,
    share: *mut c_void,
    direct: c_int,
) -> *mut c_void {
    type F = unsafe extern "C" fn(*mut c_void, *mut c_void, c_int, *mut c_void, c_int) -> *mut c_void;
    let f = real::next(c"glXCreateNewContext");
    if f.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the system's function of this name; the program's arguments.
    let ctx =
        unsafe { driver::run(|| std::mem::transmute::<*const c_void, F>(f)(dpy, config, render_type, share, direct)) };
    if !ctx.is_null() && !share.is_null() {
        contexts::shared_created(ctx as usize, share as usize);
    }
    ctx
}

/// `glXSwapIntervalEXT(dpy, drawable, interval)`, run where the context is current.
unsafe extern "C" fn swap_interval_ext(dpy: *mut c_void, drawable: c_ulong, interval: c_int) {
    type F = unsafe extern "C" fn(*mut c_void, c_ulong, c_int);
    let f = real_glx(c"glXSwapIntervalEXT") as usize;
    if f == 0 {
        return;
    }
    let dpy_int = dpy as usize;
    let run = move || {
        // SAFETY: the system's function of this name, where the context is current.
        unsafe { std::mem::transmute::<usize, F>(f)(dpy_int as *mut c_void, drawable, interval) };
        true
    };
    match contexts::bound() {
        Some(c) if c.api == Api::Glx => {
            contexts::on_render_thread(c, run);
        }
        // SAFETY: the system's function with the program's arguments, as for a thread with
        // nothing current.
        _ => {
            unsafe { driver::isolated_glx(run) };
        }
    }
}

/// `glXSwapIntervalMESA(interval)` and `glXSwapIntervalSGI(interval)`, run where the context is
/// current; the driver's return value (0, or a GLX error code) is the program's.
fn swap_interval(name: &'static CStr, interval: c_int) -> c_int {
    const GLX_BAD_CONTEXT: c_int = 5;
    type F = unsafe extern "C" fn(c_int) -> c_int;
    let f = real_glx(name) as usize;
    if f == 0 {
        return GLX_BAD_CONTEXT;
    }
    let answer = std::sync::Arc::new(std::sync::atomic::AtomicI32::new(GLX_BAD_CONTEXT));
    let out = answer.clone();
    let run = move || {
        // SAFETY: the system's function of this name, where the context is current.
        let code = unsafe { std::mem::transmute::<usize, F>(f)(interval) };
        out.store(code, std::sync::atomic::Ordering::SeqCst);
        true
    };
    match contexts::bound() {
        Some(c) if c.api == Api::Glx => {
            contexts::on_render_thread(c, run);
        }
        // SAFETY: the system's function with the program's arguments, as for a thread with
        // nothing current.
        _ => {
            unsafe { driver::isolated_glx(run) };
        }
    }
    answer.load(std::sync::atomic::Ordering::SeqCst)
}

unsafe extern "C" fn swap_interval_mesa(interval: c_int) -> c_int {
    swap_interval(c"glXSwapIntervalMESA", interval)
}

unsafe extern "C" fn swap_interval_sgi(interval: c_int) -> c_int {
    swap_interval(c"glXSwapIntervalSGI", interval)
}

/// The system's GLX function `name`.
pub fn real_glx(name: &CStr) -> *const c_void {
    driver::system_function(real::glx_get_proc_address(), name)
}

/// This library's stand-in for a GLX function, if it has one.
pub fn interposed(name: &CStr) -> Option<*const c_void> {
    Some(match name.to_bytes() {
        b"glXMakeCurrent" => glXMakeCurrent as *const c_void,
        b"glXMakeContextCurrent" => glXMakeContextCurrent as *const c_void,
        b"glXSwapBuffers" => glXSwapBuffers as *const c_void,
        b"glXDestroyContext" => glXDestroyContext as *const c_void,
        b"glXDestroyWindow" => glXDestroyWindow as *const c_void,
        b"glXDestroyPbuffer" => glXDestroyPbuffer as *const c_void,
        b"glXGetCurrentContext" => glXGetCurrentContext as *const c_void,
        b"glXGetCurrentDrawable" => glXGetCurrentDrawable as *const c_void,
        b"glXGetCurrentReadDrawable" => glXGetCurrentReadDrawable as *const c_void,
        b"glXGetCurrentDisplay" => glXGetCurrentDisplay as *const c_void,
        b"glXCreateContextAttribsARB" => create_context_attribs as *const c_void,
        b"glXCreateContext" => glXCreateContext as *const c_void,
        b"glXCreateNewContext" => glXCreateNewContext as *const c_void,
        b"glXSwapIntervalEXT" => swap_interval_ext as *const c_void,
        b"glXSwapIntervalMESA" => swap_interval_mesa as *const c_void,
        b"glXSwapIntervalSGI" => swap_interval_sgi as *const c_void,
        _ => return None,
    })
}
