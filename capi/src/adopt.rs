//! Adopting an application's own EGL or GLX context: the C structs ([`GlcmdAdoptEGL`],
//! [`GlcmdAdoptGLX`]) to `glcmd::Device::adopt_egl` / `adopt_glx`, and the device registered as
//! a handle. `api.rs` exports them to C (`glcmdDeviceAdoptEGL`, `glcmdDeviceAdoptGLX`, with
//! `GlcmdDeviceOptions`); Rust callers of this crate, such as a preload library that intercepts
//! an unmodified program's `eglMakeCurrent`, call [`egl`] and [`glx`] here with a whole
//! `glcmd::Options` (capture to a file, diagnostics, post-mortem ring, wait limit), which the C
//! options struct does not carry, and get the same `*mut GlcmdDevice` handle a C program gets.

use std::ffi::{c_char, c_void};

use glcmd::{AdoptEgl, AdoptGlx, Device, Options};

use crate::error::CallError;
use crate::handles;
use crate::types::{GlcmdAdoptEGL, GlcmdAdoptGLX, GlcmdDevice};

/// The C member's type: `void *(*)(const char *)`.
type CLookup = unsafe extern "C" fn(*const c_char) -> *mut c_void;

/// Adopts the EGL context of `adopt` with `options`; returns the device's handle (for
/// `glcmdDevicePresent`, `glcmdDeviceMakeCurrent`, `glcmdListBegin`, ..., and
/// `glcmdDeviceDestroy`, which releases the context without destroying it), or the message of
/// the failure.
///
/// # Safety
/// The contract of `glcmd::Device::adopt_egl`: an initialized display, a desktop-OpenGL context
/// of it current on no thread, surfaces of it compatible with the context (or NULL), a
/// `getProcAddress` that answers as `eglGetProcAddress`, all valid until the device is
/// destroyed.
pub unsafe fn egl(adopt: &GlcmdAdoptEGL, options: Options) -> Result<*mut GlcmdDevice, String> {
    // SAFETY: forwarded contract.
    unsafe { egl_call("glcmd_capi::adopt::egl", adopt, options) }.map_err(|e| e.message.clone())
}

/// Like [`egl`], for a GLX context.
///
/// # Safety
/// The contract of `glcmd::Device::adopt_glx`: a thread-safe Xlib display (`XInitThreads`), a
/// GLX context of it current on no thread, drawables compatible with it (or 0), a
/// `getProcAddress` that answers as `glXGetProcAddressARB`, all valid until the device is
/// destroyed.
pub unsafe fn glx(adopt: &GlcmdAdoptGLX, options: Options) -> Result<*mut GlcmdDevice, String> {
    // SAFETY: forwarded contract.
    unsafe { glx_call("glcmd_capi::adopt::glx", adopt, options) }.map_err(|e| e.message.clone())
}

/// The checks both adoptions make before handing anything to glcmd: a lookup function, a
/// display and a context; returns the lookup as glcmd's type.
fn checked_lookup(
    function: &str,
    lookup: Option<CLookup>,
    display: *mut std::ffi::c_void,
    context: *mut std::ffi::c_void,
) -> Result<glcmd::GetProcAddress, CallError> {
    let Some(gpa) = lookup else { return Err(CallError::null(function, "adopt->getProcAddress")) };
    if display.is_null() {
        return Err(CallError::null(function, "adopt->display"));
    }
    if context.is_null() {
        return Err(CallError::null(function, "adopt->context"));
    }
    // SAFETY: the same C signature; a `*mut c_void` result read as `*const c_void`.
    Ok(unsafe { std::mem::transmute::<CLookup, glcmd::GetProcAddress>(gpa) })
}

/// A started device as a C handle, or the error naming `function`.
fn register(function: &str, device: Result<Device, glcmd::Error>) -> Result<*mut GlcmdDevice, CallError> {
    let device = device.map_err(|e| CallError::from_glcmd(function, e))?;
    Ok(handles::register_device(device) as *mut GlcmdDevice)
}

/// [`egl`], failing with a `CallError` that names `function`.
///
/// # Safety
/// As [`egl`].
pub(crate) unsafe fn egl_call(
    function: &str,
    adopt: &GlcmdAdoptEGL,
    options: Options,
) -> Result<*mut GlcmdDevice, CallError> {
    let get_proc_address = checked_lookup(function, adopt.getProcAddress, adopt.display, adopt.context)?;
    let handles = AdoptEgl {
        display: adopt.display,
        context: adopt.context,
        draw: adopt.draw,
        read: adopt.read,
        get_proc_address,
    };
    // SAFETY: forwarded contract.
    register(function, unsafe { Device::adopt_egl(handles, options) })
}

/// [`glx`], failing with a `CallError` that names `function`.
///
/// # Safety
/// As [`glx`].
pub(crate) unsafe fn glx_call(
    function: &str,
    adopt: &GlcmdAdoptGLX,
    options: Options,
) -> Result<*mut GlcmdDevice, CallError> {
    let get_proc_address = checked_lookup(function, adopt.getProcAddress, adopt.display, adopt.context)?;
    let handles = AdoptGlx {
        display: adopt.display,
        context: adopt.context,
        drawable: adopt.drawable,
        read_drawable: adopt.readDrawable,
        get_proc_address,
    };
    // SAFETY: forwarded contract.
    register(function, unsafe { Device::adopt_glx(handles, options) })
}
