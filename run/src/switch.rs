//! The driver's side effects of a make-current that switches a thread from one context to
//! another, whichever of the two glcmd serves.
//!
//! Made current directly, a context switch flushes the context the thread had current before
//! (EGL 1.5 §3.7.3, GLX 1.4 §3.3.7): its commands reach the GPU before anything the next
//! context does. Two contexts that share nothing still see each other's results when they draw
//! to one surface (a window's back buffer belongs to the drawable, not to the context), and a
//! program that switches from one to the other and reads relies on that flush. Through
//! glcmd-run, two cases lose it:
//!
//! * **From an adopted context** (to a direct one, or to another adopted one, which has a render
//!   thread of its own): leaving immediate mode only *submits* the thread's calls; the render
//!   thread replays them later. So the next make-current of a *different* context on the
//!   thread first waits until the device has replayed everything submitted and flushed it
//!   ([`settle`]): a round trip per switch between contexts, none for a thread that releases
//!   and makes the same context current again (Qt's `doneCurrent`/`makeCurrent` per frame).
//!   The device a thread last released is kept ([`released`]) until then.
//! * **From a direct context to an adopted one**: glcmd-run does not call the real
//!   make-current for an adopted context (its render thread holds it), so the driver would
//!   neither flush nor release the direct one, which would also stay current on the thread (and
//!   another thread could not make it current). [`release_direct`] releases it with the real
//!   function, which flushes it. EGL keeps one current context per client API, so only a
//!   desktop OpenGL context is released there (an OpenGL ES one stays current, as directly).

use std::cell::Cell;
use std::ffi::c_void;

use crate::current::Api;
use crate::real;

thread_local! {
    /// The adopted context this thread released last and its device, until the thread makes
    /// a context current again.
    static LAST: Cell<Option<(usize, usize)>> = const { Cell::new(None) };
}

/// This thread released adopted `context`, whose calls `device` replays.
pub fn released(context: usize, device: usize) {
    LAST.with(|l| l.set(Some((context, device))));
}

/// Before this thread makes `context` current: if it released another adopted context last,
/// waits until that context's device has replayed everything and flushed it.
pub fn settle(context: usize) {
    let Some((last, device)) = LAST.with(|l| l.take()) else { return };
    if last != context {
        drain(device);
    }
}

/// Waits until `device` has replayed everything submitted to it, then flushes its context on
/// the render thread. A device already destroyed has nothing left to do.
pub fn drain(device: usize) {
    let Ok(entry) = glcmd_capi::handles::device("glcmd-run", device) else { return };
    let Ok(device) = entry.device("glcmd-run") else { return };
    // SAFETY: `with_gl` runs this on the render thread, where the context is current.
    let flushed = device.with_gl(|gl| unsafe { (gl.Flush)() });
    if let Err(e) = flushed {
        eprintln!("glcmd-run: flushing a context at a switch failed: {e}");
    }
}

/// Before this thread makes an adopted context of `api` current: releases, with the real
/// function, a context of the same API that runs directly and is current on this thread.
pub fn release_direct(api: Api) {
    match api {
        Api::Glx => release_direct_glx(),
        Api::Egl => release_direct_egl(),
    }
}

fn release_direct_glx() {
    if crate::driver::forwarding() {
        // This thread's calls go to the driver thread: it has no direct context current.
        return;
    }
    let (Some(current), Some(display), Some(make_current)) =
        (real::glx_get_current_context(), real::glx_get_current_display(), real::glx_make_current())
    else {
        return;
    };
    // SAFETY: the system's functions; the display is the one its context is current on.
    unsafe {
        if current().is_null() {
            return;
        }
        let d = display();
        if !d.is_null() {
            make_current(d, 0, std::ptr::null_mut());
        }
    }
}

fn release_direct_egl() {
    const EGL_OPENGL_API: u32 = 0x30A2;
    if crate::driver::forwarding() {
        // This thread's EGL calls go to the driver thread: it has no direct context current.
        return;
    }
    let (Some(current), Some(display), Some(make_current), Some(query), Some(bind)) = (
        real::egl_get_current_context(),
        real::egl_get_current_display(),
        real::egl_make_current(),
        real::egl_query_api(),
        real::egl_bind_api(),
    ) else {
        return;
    };
    // SAFETY: the system's functions. A release applies to the thread's bound API, so desktop
    // OpenGL is bound for it and the program's binding restored.
    unsafe {
        let bound_api = query();
        if bound_api != EGL_OPENGL_API {
            bind(EGL_OPENGL_API);
        }
        if !current().is_null() {
            let null: *mut c_void = std::ptr::null_mut();
            make_current(display(), null, null, null);
        }
        if bound_api != EGL_OPENGL_API {
            bind(bound_api);
        }
    }
}
