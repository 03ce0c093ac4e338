//! The interposed Xlib functions that end what an adopted context uses: `XDestroyWindow`,
//! `XDestroySubwindows` and `XCloseDisplay` (`teardown.rs` says why and what they do). Each
//! hands back the contexts concerned, then calls the next definition (libX11's).
//!
//! Destroying a window destroys every window inside it, so a context drawing to a child of the
//! destroyed window is handed back too: the window's ancestors are asked of the X server with
//! `xcb_query_tree` on the program's connection, whose errors come back in the reply (Xlib's
//! `XQueryTree` would call the program's error handler for a window that is already gone).
//! These are looked up in libX11-xcb and libxcb themselves when the global scope lacks them
//! (with EGL, nothing but Mesa's locally opened driver loads libX11-xcb).
//! The question is asked only while an adopted context draws to a window, and a window that is
//! itself the one destroyed needs none.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::ffi::{c_int, c_ulong, c_void, CStr};

use crate::contexts::{self, Current, Rebind};
use crate::{native, real, teardown};

/// How many ancestors are looked at, at most (X window trees are shallow; a loop guard).
const MAX_DEPTH: usize = 64;

/// `xcb_query_tree_reply_t` up to the parent.
#[repr(C)]
struct QueryTreeReply {
    response_type: u8,
    pad0: u8,
    sequence: u16,
    length: u32,
    root: u32,
    parent: u32,
}

type GetXcbConnection = unsafe extern "C" fn(*mut c_void) -> *mut c_void;
type QueryTree = unsafe extern "C" fn(*mut c_void, u32) -> u32;
type QueryTreeReplyFn = unsafe extern "C" fn(*mut c_void, u32, *mut *mut c_void) -> *mut QueryTreeReply;

/// The function `name` of the library `soname`: in the global scope, or from the library
/// itself. libX11-xcb is loaded wherever Mesa's GLX or EGL on X11 is, but EGL's driver is
/// opened by libglvnd with `RTLD_LOCAL`, which keeps its dependencies out of the global scope:
/// the library is then opened here (a reference more to one already loaded, or a small load).
fn x_function(soname: &CStr, name: &CStr) -> *const c_void {
    // SAFETY: dlsym and dlopen with NUL-terminated names.
    unsafe {
        let f = libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr());
        if !f.is_null() {
            return f;
        }
        let Some(open) = real::dlopen() else { return std::ptr::null() };
        let handle = open(soname.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
        if handle.is_null() {
            return std::ptr::null();
        }
        libc::dlsym(handle, name.as_ptr())
    }
}

/// The parent of `window`, asked of the server of `dpy`; None for the root, a window that is
/// gone, or when libxcb cannot be reached.
fn parent(dpy: *mut c_void, window: c_ulong) -> Option<c_ulong> {
    let (conn, query, reply) = (
        x_function(c"libX11-xcb.so.1", c"XGetXCBConnection"),
        x_function(c"libxcb.so.1", c"xcb_query_tree"),
        x_function(c"libxcb.so.1", c"xcb_query_tree_reply"),
    );
    if conn.is_null() || query.is_null() || reply.is_null() {
        return None;
    }
    // SAFETY: libX11-xcb's and libxcb's functions of these names and signatures, on the
    // program's open connection; the reply and error are malloc'ed by libxcb and freed here.
    unsafe {
        let conn = std::mem::transmute::<*const c_void, GetXcbConnection>(conn)(dpy);
        if conn.is_null() {
            return None;
        }
        let cookie = std::mem::transmute::<*const c_void, QueryTree>(query)(conn, window as u32);
        let mut error: *mut c_void = std::ptr::null_mut();
        let r = std::mem::transmute::<*const c_void, QueryTreeReplyFn>(reply)(conn, cookie, &mut error);
        libc::free(error);
        if r.is_null() {
            return None;
        }
        let parent = (*r).parent as c_ulong;
        libc::free(r.cast());
        (parent != 0).then_some(parent)
    }
}

/// Whether `window` is `ancestor` (with `inclusive`) or lies inside it.
fn inside(dpy: *mut c_void, window: c_ulong, ancestor: c_ulong, inclusive: bool) -> bool {
    if window == ancestor {
        return inclusive;
    }
    let mut w = window;
    for _ in 0..MAX_DEPTH {
        match parent(dpy, w) {
            Some(p) if p == ancestor => return true,
            Some(p) => w = p,
            None => return false,
        }
    }
    false
}

/// Hands back the contexts drawing to a window inside `ancestor` (or `ancestor` itself, with
/// `inclusive`).
fn window_going(dpy: *mut c_void, ancestor: c_ulong, inclusive: bool) {
    if crate::current::on_render_thread() {
        return;
    }
    let uses = |c: &Current| native::windows_of(c).into_iter().any(|w| inside(dpy, w, ancestor, inclusive));
    contexts::hand_back(uses, Rebind::Surfaceless);
}

type DestroyFn = unsafe extern "C" fn(*mut c_void, c_ulong) -> c_int;

fn next_destroy(name: &CStr, dpy: *mut c_void, window: c_ulong) -> c_int {
    let f = real::next(name);
    if f.is_null() {
        return 0;
    }
    // SAFETY: libX11's function of this name; the program's arguments.
    unsafe { std::mem::transmute::<*const c_void, DestroyFn>(f)(dpy, window) }
}

#[no_mangle]
pub unsafe extern "C" fn XDestroyWindow(dpy: *mut c_void, window: c_ulong) -> c_int {
    window_going(dpy, window, true);
    next_destroy(c"XDestroyWindow", dpy, window)
}

#[no_mangle]
pub unsafe extern "C" fn XDestroySubwindows(dpy: *mut c_void, window: c_ulong) -> c_int {
    window_going(dpy, window, false);
    next_destroy(c"XDestroySubwindows", dpy, window)
}

#[no_mangle]
pub unsafe extern "C" fn XCloseDisplay(dpy: *mut c_void) -> c_int {
    if !crate::current::on_render_thread() {
        let display = dpy as usize;
        contexts::hand_back(|c| native::uses_connection(c, display), Rebind::Same);
        teardown::connection_closed(display);
    }
    type F = unsafe extern "C" fn(*mut c_void) -> c_int;
    let f = real::next(c"XCloseDisplay");
    if f.is_null() {
        return 0;
    }
    // SAFETY: libX11's function of this name; the program's argument.
    unsafe { std::mem::transmute::<*const c_void, F>(f)(dpy) }
}
