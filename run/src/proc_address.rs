//! `eglGetProcAddress`, `glXGetProcAddress` and `glXGetProcAddressARB`: for a `gl*` function
//! glcmd serves (those of glcorearb.h, the gl.xml-only ones it generates, and gl.xml's aliases of
//! them: `exports.rs`), this library's exported symbol (which follows the calling thread's table, so a
//! pointer the program keeps behaves like a directly linked call); for an interposed EGL or GLX
//! function, its stand-in; for anything else, the system's answer.
//!
//! All three give the same answers: Debian's piglit resolves every GL function with
//! `glXGetProcAddressARB`, on EGL platforms too (libglvnd forwards it to the current EGL
//! context), because piglit-dispatch is set up before waffle's own lookup exists.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::ffi::{c_char, c_void, CStr};

use crate::{dispatch, egl, egl_forward, glx, glx_forward, teardown};

/// The answer for `name`, or None for the system's.
fn ours(name: &CStr) -> Option<*const c_void> {
    match name.to_bytes() {
        b"eglGetProcAddress" => return Some(eglGetProcAddress as *const c_void),
        b"glXGetProcAddress" => return Some(glXGetProcAddress as *const c_void),
        b"glXGetProcAddressARB" => return Some(glXGetProcAddressARB as *const c_void),
        _ => {}
    }
    dispatch::exported(name)
        .or_else(|| egl::interposed(name))
        .or_else(|| egl_forward::interposed(name))
        .or_else(|| glx_forward::interposed(name))
        .or_else(|| glx::interposed(name))
        .or_else(|| teardown::interposed(name))
}

/// `name` as a C string, if it is one.
fn name<'a>(name: *const c_char) -> Option<&'a CStr> {
    // SAFETY: the caller passes NULL or a NUL-terminated name.
    (!name.is_null()).then(|| unsafe { CStr::from_ptr(name) })
}

#[no_mangle]
pub unsafe extern "C" fn eglGetProcAddress(procname: *const c_char) -> *const c_void {
    name(procname).map_or(std::ptr::null(), |n| ours(n).unwrap_or_else(|| egl_forward::for_name(n)))
}

#[no_mangle]
pub unsafe extern "C" fn glXGetProcAddressARB(procname: *const c_char) -> *const c_void {
    name(procname).map_or(std::ptr::null(), |n| {
        ours(n).unwrap_or_else(|| {
            if n.to_bytes().starts_with(b"egl") {
                egl_forward::for_name(n)
            } else {
                glx_forward::for_name(n)
            }
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn glXGetProcAddress(procname: *const c_char) -> *const c_void {
    // SAFETY: the same contract.
    unsafe { glXGetProcAddressARB(procname) }
}
