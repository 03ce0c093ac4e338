//! Handing a program's context to glcmd, presenting, and giving it back.
//!
//! The render thread reaches EGL and GLX only through the get-proc-address function given
//! here, the real one (`real.rs`), since this library's own `eglMakeCurrent` and swap functions
//! stand in front of the system's in the global scope.

use std::ffi::{c_char, c_void};

use glcmd_capi::types::{GlcmdAdoptEGL, GlcmdAdoptGLX, GlcmdDevice};

use crate::current::{Api, Current};
use crate::{options, real};

unsafe extern "C" fn egl_get_proc_address(name: *const c_char) -> *mut c_void {
    match real::egl_get_proc_address() {
        // SAFETY: the caller passes a NUL-terminated name.
        Some(f) => unsafe { f(name) as *mut c_void },
        None => std::ptr::null_mut(),
    }
}

unsafe extern "C" fn glx_get_proc_address(name: *const c_char) -> *mut c_void {
    match real::glx_get_proc_address() {
        // SAFETY: the caller passes a NUL-terminated name.
        Some(f) => unsafe { f(name) as *mut c_void },
        None => std::ptr::null_mut(),
    }
}

/// Starts a glcmd device on the context `c`, which is current on no thread. Returns the
/// device handle.
pub fn adopt(c: Current) -> Result<usize, String> {
    let mut opts = options::from_environment()?;
    // The render thread is the driver thread, where the program's EGL and GLX calls go.
    if crate::driver::forwarding() {
        opts.device = opts.device.render_host(crate::driver::host());
    }
    let device = match c.api {
        Api::Egl => {
            let adopt = GlcmdAdoptEGL {
                display: c.display as *mut c_void,
                context: c.context as *mut c_void,
                draw: c.draw as *mut c_void,
                read: c.read as *mut c_void,
                getProcAddress: Some(egl_get_proc_address),
            };
            // SAFETY: handles the program made current (so valid), released on this thread by
            // the probe; the context lives until the program destroys it (`contexts::destroy`
            // destroys the device first).
            unsafe { glcmd_capi::adopt::egl(&adopt, opts.device.clone()) }?
        }
        Api::Glx => {
            let adopt = GlcmdAdoptGLX {
                display: c.display as *mut c_void,
                context: c.context as *mut c_void,
                drawable: c.draw as std::ffi::c_ulong,
                readDrawable: c.read as std::ffi::c_ulong,
                getProcAddress: Some(glx_get_proc_address),
            };
            // SAFETY: as above.
            unsafe { glcmd_capi::adopt::glx(&adopt, opts.device.clone()) }?
        }
    };
    options::started(device as usize, &opts);
    crate::reports::start(device as usize);
    crate::native::note_adoption();
    Ok(device as usize)
}

/// Submits this thread's pending calls and queues a present through `device`: the program
/// records its next frame while the render thread replays this one (at most two frames in
/// flight, as a driver's swap allows).
pub fn present(device: usize) -> bool {
    let status = glcmd_capi::api::glcmdDeviceQueuePresent(device as *mut GlcmdDevice);
    if status != glcmd_capi::types::GLCMD_OK {
        eprintln!("glcmd-run: present failed: {}", last_error());
        return false;
    }
    options::presented(device);
    true
}

/// Destroys a device: everything submitted replays, then the render thread releases the
/// context (the program destroys it) and is joined.
pub fn destroy(device: usize) {
    // Everything submitted (presents included) has run when this returns, whoever else may
    // still hold the device for a moment: the call that ends what it uses comes next
    // (`teardown.rs`). The device is dropped here last, after the handle, so that the render
    // thread is joined on this thread unless another holder outlives both.
    let held = glcmd_capi::handles::device("glcmd-run", device).ok().and_then(|e| e.device("glcmd-run").ok());
    if let Some(d) = &held {
        let _ = d.with_gl(|_| ());
    }
    let capture = options::finished(device);
    let status = glcmd_capi::api::glcmdDeviceDestroy(device as *mut GlcmdDevice);
    drop(held);
    if status != glcmd_capi::types::GLCMD_OK {
        eprintln!("glcmd-run: destroying the device failed: {}", last_error());
    }
    crate::reports::finish(device);
    if let Some(capture) = capture {
        options::wait_capture(capture);
    }
}

/// glcmd's last error message on this thread.
pub fn last_error() -> String {
    let mut message: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: writes a pointer to a NUL-terminated string valid until the next glcmd call.
    unsafe {
        glcmd_capi::api::glcmdLastError(&mut message);
        if message.is_null() {
            return "(no message)".into();
        }
        std::ffi::CStr::from_ptr(message).to_string_lossy().into_owned()
    }
}
