//! The GLX functions glcmd-run has no other business with, forwarded to the driver thread
//! (`driver.rs`; `forward.rs` has the machinery): calls on displays, visuals, configs,
//! drawables and contexts named by their handles run there as they are; `glXWaitGL`,
//! `glXWaitX` and `glXUseXFont`, which act on the calling thread's current context, run where
//! that context is (`forward::on_current_context`). GLX reports errors through Xlib's error
//! handler, which is the process's own whichever thread reads the error, so nothing is carried
//! back but the answer. A thread that calls the driver itself (`driver::make_local`), or every
//! thread when forwarding is off, reaches the system's functions directly.

#![allow(non_snake_case, clippy::missing_safety_doc, clippy::unused_unit)]

use std::ffi::{c_char, c_int, c_uint, c_ulong, c_void, CStr};

use crate::forward::{self, forwarded, on_current, Api};

type P = *mut c_void;

forwarded! {
    api = Api::Glx, lookup = crate::glx::real_glx, by_name = forwarded_by_name;
    fn glXChooseVisual(dpy: P, screen: c_int, attribs: *mut c_int) -> P = std::ptr::null_mut();
    fn glXCopyContext(dpy: P, src: P, dst: P, mask: c_ulong) -> () = ();
    fn glXCreateGLXPixmap(dpy: P, visual: P, pixmap: c_ulong) -> c_ulong = 0;
    fn glXDestroyGLXPixmap(dpy: P, pixmap: c_ulong) -> () = ();
    fn glXQueryExtension(dpy: P, error_base: *mut c_int, event_base: *mut c_int) -> c_int = 0;
    fn glXQueryVersion(dpy: P, major: *mut c_int, minor: *mut c_int) -> c_int = 0;
    fn glXIsDirect(dpy: P, ctx: P) -> c_int = 0;
    fn glXGetConfig(dpy: P, visual: P, attribute: c_int, value: *mut c_int) -> c_int = 1;
    fn glXQueryExtensionsString(dpy: P, screen: c_int) -> *const c_char = std::ptr::null();
    fn glXQueryServerString(dpy: P, screen: c_int, name: c_int) -> *const c_char = std::ptr::null();
    fn glXGetClientString(dpy: P, name: c_int) -> *const c_char = std::ptr::null();
    fn glXGetFBConfigs(dpy: P, screen: c_int, count: *mut c_int) -> *mut P = std::ptr::null_mut();
    fn glXChooseFBConfig(dpy: P, screen: c_int, attribs: *const c_int, count: *mut c_int) -> *mut P = std::ptr::null_mut();
    fn glXGetFBConfigAttrib(dpy: P, config: P, attribute: c_int, value: *mut c_int) -> c_int = 1;
    fn glXGetVisualFromFBConfig(dpy: P, config: P) -> P = std::ptr::null_mut();
    fn glXCreatePixmap(dpy: P, config: P, pixmap: c_ulong, attribs: *const c_int) -> c_ulong = 0;
    fn glXDestroyPixmap(dpy: P, pixmap: c_ulong) -> () = ();
    fn glXCreatePbuffer(dpy: P, config: P, attribs: *const c_int) -> c_ulong = 0;
    fn glXQueryDrawable(dpy: P, drawable: c_ulong, attribute: c_int, value: *mut c_uint) -> () = ();
    fn glXQueryContext(dpy: P, ctx: P, attribute: c_int, value: *mut c_int) -> c_int = 1;
    fn glXSelectEvent(dpy: P, drawable: c_ulong, mask: c_ulong) -> () = ();
    fn glXGetSelectedEvent(dpy: P, drawable: c_ulong, mask: *mut c_ulong) -> () = ();
}

on_current! {
    api = Api::Glx, lookup = crate::glx::real_glx, by_name = on_current_by_name;
    fn glXWaitGL() -> ();
    fn glXWaitX() -> ();
    fn glXUseXFont(font: c_ulong, first: c_int, count: c_int, list_base: c_int) -> ();
}

/// `glXGetProcAddress`'s answer for a GLX name no other part of this library serves: this
/// module's function, a forwarding trampoline for the system's (when forwarding), or the
/// system's.
pub fn for_name(name: &CStr) -> *const c_void {
    if let Some(f) = interposed(name) {
        return f;
    }
    // SAFETY: the lookup touches no thread state of the caller's.
    let real = unsafe { crate::driver::run(|| crate::glx::real_glx(name) as usize) };
    if real == 0 || !crate::driver::forwarding() || !name.to_bytes().starts_with(b"glX") {
        return real as *const c_void;
    }
    forward::trampoline_for(Api::Glx, name, real)
}

/// This module's stand-in for a GLX function, if it has one.
pub fn interposed(name: &CStr) -> Option<*const c_void> {
    let name = name.to_bytes();
    forwarded_by_name(name).or_else(|| on_current_by_name(name))
}
