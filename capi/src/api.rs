//! The exported functions of the C ABI: devices, frames, lists, reports, errors and the
//! entry-point lookup. The top floor of the crate: it calls every module below and none calls
//! it. The C types these functions take are in `types.rs`. `glcmd.h` declares exactly what the
//! two files define (glcmd-codegen's `c_header` emitter reads them), so every public item here
//! is part of the C ABI and its doc comment is its C documentation.
//!
//! Every function returns a `GlcmdStatus` (or a value that has a "none"), catches panics, and
//! records a failure where `glcmdLastError` and the error callback find it. Handles are opaque
//! values, not pointers: a stale, forged or NULL handle is `GLCMD_ERROR_INVALID_HANDLE`, never a
//! crash (`handles.rs`).

// The C names of the ABI; the safety contract of each `unsafe extern "C" fn` is its C
// documentation (the pointers it takes), which is also the header's.
#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::ffi::{c_char, c_void, CStr};

use crate::adopt;
use crate::current;
use crate::error::{self, CallError};
use crate::generated::GlcmdGL;
use crate::handles;
use crate::recording::Recording;
use crate::types::{
    GlcmdAdoptEGL, GlcmdAdoptGLX, GlcmdDebugProc, GlcmdDevice, GlcmdDeviceOptions, GlcmdFrame, GlcmdRenderThreadProc,
    GlcmdReport, GlcmdStatus, GLCMD_ERROR_INVALID_ARGUMENT, GLCMD_OK,
};

/// Runs `body` with panics caught, and records a failure.
fn guard(function: &'static str, body: impl FnOnce() -> Result<(), CallError>) -> GlcmdStatus {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)) {
        Ok(Ok(())) => GLCMD_OK,
        Ok(Err(e)) => error::fail(function, e),
        Err(payload) => error::fail(function, CallError::panicked(function, payload)),
    }
}

/// Creates a device: a render thread with a headless OpenGL 4.5 core context (EGL device
/// platform; no window system, no GPU needed with Mesa's llvmpipe). `options` may be NULL.
/// Writes the handle to `*device`.
#[no_mangle]
pub unsafe extern "C" fn glcmdDeviceCreateHeadless(
    options: *const GlcmdDeviceOptions,
    device: *mut *mut GlcmdDevice,
) -> GlcmdStatus {
    const F: &str = "glcmdDeviceCreateHeadless";
    guard(F, || {
        if device.is_null() {
            return Err(CallError::null(F, "device"));
        }
        // SAFETY: non-NULL; the caller passes a GlcmdDeviceOptions, whose `size` says how much
        // of it there is.
        let opts = unsafe { handles::device_options(F, options)? };
        let handle = handles::create_device(opts)?;
        // SAFETY: non-NULL, checked above; the caller passes room for a handle.
        unsafe { device.write_unaligned(handle as *mut GlcmdDevice) };
        Ok(())
    })
}

/// Creates a device on an EGL context the application made (SDL, GLFW, raw EGL): the render
/// thread binds EGL_OPENGL_API, makes `adopt->context` current with `adopt->draw` and
/// `adopt->read`, and looks up every EGL and GL function through `adopt->getProcAddress`.
/// Framebuffer 0 is the draw surface's default framebuffer; the viewport and scissor box start
/// at its size. It presents on glcmdDevicePresent only. `options` may be NULL. Writes the handle
/// to `*device`. glcmdDeviceDestroy makes no context current on the render thread and destroys
/// nothing: the display, context and surfaces stay the application's.
///
/// The display must be initialized, the context desktop OpenGL and current on no thread, the
/// surfaces compatible with it (or EGL_NO_SURFACE), and all of them valid until
/// glcmdDeviceDestroy returns.
#[no_mangle]
pub unsafe extern "C" fn glcmdDeviceAdoptEGL(
    adopt: *const GlcmdAdoptEGL,
    options: *const GlcmdDeviceOptions,
    device: *mut *mut GlcmdDevice,
) -> GlcmdStatus {
    const F: &str = "glcmdDeviceAdoptEGL";
    guard(F, || {
        if device.is_null() {
            return Err(CallError::null(F, "device"));
        }
        // SAFETY: non-NULL (checked by `as_ref`); the caller passes a GlcmdAdoptEGL.
        let Some(adopt) = (unsafe { adopt.as_ref() }) else { return Err(CallError::null(F, "adopt")) };
        // SAFETY: the caller passes NULL or a GlcmdDeviceOptions of `size` bytes.
        let opts = unsafe { handles::device_options(F, options)? };
        // SAFETY: the handles' contract, above, is the caller's.
        let handle = unsafe { adopt::egl_call(F, adopt, opts)? };
        // SAFETY: non-NULL, checked above; the caller passes room for a handle.
        unsafe { device.write_unaligned(handle) };
        Ok(())
    })
}

/// Creates a device on a GLX context the application made: as glcmdDeviceAdoptEGL, with
/// glXMakeContextCurrent(display, drawable, readDrawable, context) and glXSwapBuffers, every
/// GLX and GL function looked up through `adopt->getProcAddress`. Xlib must be thread-safe
/// (XInitThreads before any other Xlib call); an X error from a bad handle goes to the
/// application's Xlib error handler.
#[no_mangle]
pub unsafe extern "C" fn glcmdDeviceAdoptGLX(
    adopt: *const GlcmdAdoptGLX,
    options: *const GlcmdDeviceOptions,
    device: *mut *mut GlcmdDevice,
) -> GlcmdStatus {
    const F: &str = "glcmdDeviceAdoptGLX";
    guard(F, || {
        if device.is_null() {
            return Err(CallError::null(F, "device"));
        }
        // SAFETY: non-NULL (checked by `as_ref`); the caller passes a GlcmdAdoptGLX.
        let Some(adopt) = (unsafe { adopt.as_ref() }) else { return Err(CallError::null(F, "adopt")) };
        // SAFETY: the caller passes NULL or a GlcmdDeviceOptions of `size` bytes.
        let opts = unsafe { handles::device_options(F, options)? };
        // SAFETY: the handles' contract, above, is the caller's.
        let handle = unsafe { adopt::glx_call(F, adopt, opts)? };
        // SAFETY: non-NULL, checked above; the caller passes room for a handle.
        unsafe { device.write_unaligned(handle) };
        Ok(())
    })
}

/// Presents: swaps the buffers of the device's surface (eglSwapBuffers / glXSwapBuffers) after
/// every list submitted before (an immediate thread's pending calls are submitted first), and
/// returns when done. GLCMD_ERROR_CONTEXT on a headless device
/// or one adopted with no surface, or when the platform refuses the swap (the message says
/// which).
#[no_mangle]
pub extern "C" fn glcmdDevicePresent(device: *mut GlcmdDevice) -> GlcmdStatus {
    const F: &str = "glcmdDevicePresent";
    guard(F, || {
        let d = handles::device(F, device as usize)?.device(F)?;
        crate::immediate::flush(F)?;
        d.present().map_err(|e| CallError::from_glcmd(F, e))
    })
}

/// Queues a present after every list submitted before and returns without waiting for it,
/// unless two presents are already queued and not done: then it waits for the oldest (at most
/// the wait limit). The calling thread records its next frame while the render thread replays
/// this one. An immediate thread's pending calls are submitted first. Returns the error of an
/// earlier queued present that failed, if one did since the last call (GLCMD_ERROR_CONTEXT).
#[no_mangle]
pub extern "C" fn glcmdDeviceQueuePresent(device: *mut GlcmdDevice) -> GlcmdStatus {
    const F: &str = "glcmdDeviceQueuePresent";
    guard(F, || {
        let d = handles::device(F, device as usize)?.device(F)?;
        crate::immediate::flush(F)?;
        d.queue_present().map_err(|e| CallError::from_glcmd(F, e))
    })
}

/// Destroys a device: ends its open frames (their missing slots are skipped), replays every list
/// submitted to it, then destroys the context and joins the render thread. Lists still current
/// on threads become orphans (submitting one fails; discard them). The handle is invalid after.
#[no_mangle]
pub extern "C" fn glcmdDeviceDestroy(device: *mut GlcmdDevice) -> GlcmdStatus {
    const F: &str = "glcmdDeviceDestroy";
    guard(F, || handles::destroy_device(F, device as usize))
}

/// Makes `device` the calling thread's current device, for creates and queries made without a
/// list (glcmdListBegin also makes its device current). NULL makes none current. Fails with
/// GLCMD_ERROR_LIST_ACTIVE while a list is current that belongs to another device (for NULL: to
/// any device).
#[no_mangle]
pub extern "C" fn glcmdDeviceMakeCurrent(device: *mut GlcmdDevice) -> GlcmdStatus {
    const F: &str = "glcmdDeviceMakeCurrent";
    guard(F, || {
        let entry = if device.is_null() { None } else { Some(handles::device(F, device as usize)?) };
        current::make_current(F, entry)
    })
}

/// Blocks until `frames` frames of the device have ended (counting from 1, in the order they
/// were begun). Fails at once where waiting could not end (a frame this thread holds open).
#[no_mangle]
pub extern "C" fn glcmdDeviceWaitFrames(device: *mut GlcmdDevice, frames: u64) -> GlcmdStatus {
    const F: &str = "glcmdDeviceWaitFrames";
    guard(F, || {
        let d = handles::device(F, device as usize)?.device(F)?;
        d.wait_frames(frames).map(|_| ()).map_err(|e| CallError::from_glcmd(F, e))
    })
}

/// Runs `proc(user)` on the render thread, with the context current, after every list submitted
/// before, and returns when it has run: the escape hatch for what the entry points do not cover
/// (load the real functions with eglGetProcAddress there). glcmd reads the buffer bindings back
/// afterwards.
///
/// Code on the render thread (`proc`, and a GL debug callback set with glDebugMessageCallback,
/// which runs there during replay) has no current device or list of its own: a GL entry point
/// called there fails with GLCMD_ERROR_NO_CURRENT_DEVICE or GLCMD_ERROR_NO_CURRENT_LIST. After
/// glcmdDeviceMakeCurrent(device) there, creates, queries and glDebugMessageCallback (also to
/// replace or remove the running debug callback: the change applies to the next message) run at
/// once, with the GL state as it is; glcmdListBegin and a submit queue a list that replays
/// later; a call that would wait for the render thread fails with GLCMD_ERROR_ON_RENDER_THREAD.
/// The device stays current on the render thread until glcmdDeviceMakeCurrent(NULL) there.
/// Messages the GL raises for a debug callback's own calls are not delivered to it again.
#[no_mangle]
pub extern "C" fn glcmdRunOnRenderThread(
    device: *mut GlcmdDevice,
    proc: GlcmdRenderThreadProc,
    user: *mut c_void,
) -> GlcmdStatus {
    const F: &str = "glcmdRunOnRenderThread";
    guard(F, || {
        let Some(proc) = proc else { return Err(CallError::null(F, "proc")) };
        let d = handles::device(F, device as usize)?.device(F)?;
        let user = user as usize;
        d.with_gl(move |_| {
            // SAFETY: the caller's function, run as documented: on the render thread with the
            // context current. `user` is the caller's pointer, handed back unchanged.
            unsafe { proc(user as *mut c_void) }
        })
        .map_err(|e| CallError::from_glcmd(F, e))
    })
}

/// Begins a frame of `slots` lists: submit one list to each slot (glcmdListSubmit), from any
/// threads; they replay in slot order. Frames replay in the order they were begun.
#[no_mangle]
pub unsafe extern "C" fn glcmdFrameBegin(
    device: *mut GlcmdDevice,
    slots: u32,
    frame: *mut *mut GlcmdFrame,
) -> GlcmdStatus {
    const F: &str = "glcmdFrameBegin";
    guard(F, || {
        if frame.is_null() {
            return Err(CallError::null(F, "frame"));
        }
        let handle = handles::begin_frame(F, device as usize, slots)?;
        // SAFETY: non-NULL, checked above; the caller passes room for a handle.
        unsafe { frame.write_unaligned(handle as *mut GlcmdFrame) };
        Ok(())
    })
}

/// Ends a frame: slots not submitted are skipped (and reported). Call it once every slot that
/// will be submitted has been; the handle is invalid after.
#[no_mangle]
pub extern "C" fn glcmdFrameEnd(frame: *mut GlcmdFrame) -> GlcmdStatus {
    const F: &str = "glcmdFrameEnd";
    guard(F, || handles::end_frame(F, frame as usize))
}

/// Makes a new list current on the calling thread (and its device current): the GL entry points
/// of this thread record into it until glcmdListSubmit, glcmdSubmit or glcmdListDiscard.
/// Until then the thread holds an unclaimed list: a query it asks that would wait for an
/// unclaimed slot fails at once (GLCMD_ERROR_WOULD_DEADLOCK), since the list may be that slot's;
/// a worker recording for a frame slot uses glcmdListBeginSlot instead.
#[no_mangle]
pub extern "C" fn glcmdListBegin(device: *mut GlcmdDevice) -> GlcmdStatus {
    const F: &str = "glcmdListBegin";
    guard(F, || {
        let entry = handles::device(F, device as usize)?;
        let list = entry.device(F)?.command_list();
        current::begin(F, entry, Recording::new(list))
    })
}

/// Like glcmdListBegin, with the list claimed for `slot` of `frame`: a query from this thread
/// that would wait for that slot fails at once (GLCMD_ERROR_WOULD_DEADLOCK) instead of waiting.
#[no_mangle]
pub extern "C" fn glcmdListBeginSlot(frame: *mut GlcmdFrame, slot: u32) -> GlcmdStatus {
    const F: &str = "glcmdListBeginSlot";
    guard(F, || {
        current::check_free(F)?;
        let entry = handles::frame(F, frame as usize)?;
        let list = entry.frame.list(slot as usize).map_err(|e| CallError::from_glcmd(F, e))?;
        current::begin(F, entry.device.clone(), Recording::new(list))
    })
}

/// Names the current list: a debug group around it at replay, and the `list` of its reports.
/// `label` is a NUL-terminated UTF-8 string (copied; NULL is GLCMD_ERROR_NULL_POINTER).
#[no_mangle]
pub unsafe extern "C" fn glcmdListSetLabel(label: *const c_char) -> GlcmdStatus {
    const F: &str = "glcmdListSetLabel";
    guard(F, || {
        // SAFETY: a NUL-terminated string (NULL checked by `conv::string`).
        let label = unsafe { crate::conv::string(F, "label", label.cast(), None)? };
        current::with_recording(F, |r| r.list.set_label(label))
    })
}

/// Submits the calling thread's current list to `slot` of `frame`; the thread has no current
/// list after (its device stays current). A refused submit (any error: an invalid handle, a slot
/// out of range, taken or claimed, an ended frame, a lost device) leaves the list current on the
/// thread, unchanged: submit it again (to another slot or frame, or with glcmdSubmit) or discard
/// it (glcmdListDiscard). Nothing recorded in it, deletes included, is lost by a refusal.
#[no_mangle]
pub extern "C" fn glcmdListSubmit(frame: *mut GlcmdFrame, slot: u32) -> GlcmdStatus {
    const F: &str = "glcmdListSubmit";
    guard(F, || {
        let entry = handles::frame(F, frame as usize)?;
        current::submit(F, |list| entry.frame.submit(slot as usize, list))
    })
}

/// Submits the calling thread's current list as a frame of its own (after any frame still
/// open); the thread has no current list after. A refused submit (an invalid handle, a lost
/// device) leaves the list current on the thread, unchanged, as for glcmdListSubmit.
#[no_mangle]
pub extern "C" fn glcmdSubmit(device: *mut GlcmdDevice) -> GlcmdStatus {
    const F: &str = "glcmdSubmit";
    guard(F, || {
        let d = handles::device(F, device as usize)?.device(F)?;
        current::submit(F, |list| d.submit(list))
    })
}

/// Drops the calling thread's current list unsubmitted (GLCMD_OK if there was none).
#[no_mangle]
pub extern "C" fn glcmdListDiscard() -> GlcmdStatus {
    const F: &str = "glcmdListDiscard";
    guard(F, || {
        current::discard();
        Ok(())
    })
}

/// Takes the next diagnostic report of the device, if any (`report` points to a whole GlcmdReport,
/// written): `report->kind` is GLCMD_REPORT_NONE
/// when none was waiting. Commands recorded through the C entry points carry no source location;
/// the list label and command index identify them.
#[no_mangle]
pub unsafe extern "C" fn glcmdGetReport(device: *mut GlcmdDevice, report: *mut GlcmdReport) -> GlcmdStatus {
    const F: &str = "glcmdGetReport";
    guard(F, || {
        if report.is_null() {
            return Err(CallError::null(F, "report"));
        }
        let d = handles::device(F, device as usize)?.device(F)?;
        let r = crate::reports::next(&d);
        // SAFETY: non-NULL, checked above; the caller passes a GlcmdReport.
        unsafe { report.write_unaligned(r) };
        Ok(())
    })
}

/// Installs the error callback, called on every failure of a glcmd function or GL entry point,
/// on the failing thread (so it must be thread-safe). NULL removes it. Process-wide.
///
/// What the callback may call: any glcmd function and any GL entry point, including
/// glcmdSetErrorCallback (to replace or remove the callback; the change applies to the next
/// failure) and glcmdLastError (which returns the failure being reported). A call that fails
/// inside the callback returns its error, sets the thread's last error and, for a GL entry
/// point, the GL error glGetError returns, as anywhere else; but it does not call the callback
/// again: a thread never re-enters the callback, so a callback whose own calls fail cannot
/// recurse. (Failures on other threads still call it, concurrently.) `message` is valid only
/// during the call; the callback must return normally (no longjmp or C++ exception out of it).
#[no_mangle]
pub extern "C" fn glcmdSetErrorCallback(callback: GlcmdDebugProc, user: *const c_void) -> GlcmdStatus {
    const F: &str = "glcmdSetErrorCallback";
    guard(F, || {
        error::set_callback(callback, user);
        Ok(())
    })
}

/// The code of the calling thread's last failure (GLCMD_OK if none since the last call), which
/// it clears. If `message` is not NULL it receives the failure's text (or ""), valid until the
/// next failure on this thread.
#[no_mangle]
pub unsafe extern "C" fn glcmdLastError(message: *mut *const c_char) -> GlcmdStatus {
    let (status, text) = error::take_last();
    if !message.is_null() {
        // SAFETY: non-NULL; the caller passes room for a pointer.
        unsafe { message.write_unaligned(text) };
    }
    status
}

/// The name of a status code ("GLCMD_ERROR_NULL_POINTER"), or "unknown status".
#[no_mangle]
pub extern "C" fn glcmdStatusName(status: GlcmdStatus) -> *const c_char {
    error::status_name(status).as_ptr()
}

/// The entry point of GL function `name` (every function of glcorearb.h, the few gl.xml-only
/// functions glcmd generates, and gl.xml's aliases of them, which get the entry point of the
/// function they alias: docs/extensions.md), or NULL for a name glcmd does not know. `name` is NULL (which gives NULL) or a NUL-terminated string. Compatible
/// with glad's and SDL's loader signature. The entry points
/// record into, or query through, the current list and device of the thread that calls them.
#[no_mangle]
pub unsafe extern "C" fn glcmdGetProcAddress(name: *const c_char) -> *mut c_void {
    if name.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: a NUL-terminated string, as for every GetProcAddress.
    let name = unsafe { CStr::from_ptr(name) };
    std::panic::catch_unwind(|| match name.to_str().ok().and_then(crate::lookup::serving) {
        Some(i) => crate::lookup::address(i) as *mut c_void,
        None => std::ptr::null_mut(),
    })
    .unwrap_or(std::ptr::null_mut())
}

/// Fills `table` with every entry point (the same as glcmdGetProcAddress gives). `table` points
/// to a whole GlcmdGL (sizeof(GlcmdGL) bytes, written); NULL is GLCMD_ERROR_NULL_POINTER.
#[no_mangle]
pub unsafe extern "C" fn glcmdLoadGL(table: *mut GlcmdGL) -> GlcmdStatus {
    const F: &str = "glcmdLoadGL";
    guard(F, || {
        if table.is_null() {
            return Err(CallError::null(F, "table"));
        }
        // SAFETY: non-NULL; the caller passes a GlcmdGL.
        unsafe { table.write_unaligned(crate::generated::TABLE) };
        Ok(())
    })
}

/// The number of GL functions with an entry point (GLCMD_FUNCTION_COUNT).
#[no_mangle]
pub extern "C" fn glcmdFunctionCount() -> u32 {
    crate::generated::COUNT as u32
}

/// Function number `index` (0 to glcmdFunctionCount() - 1, sorted by name): its GL name, its
/// kind (GLCMD_KIND_*) and its GLCMD_FUNCTION_* flags. NULL outputs are skipped.
#[no_mangle]
pub unsafe extern "C" fn glcmdFunctionInfo(
    index: u32,
    name: *mut *const c_char,
    kind: *mut u32,
    flags: *mut u32,
) -> GlcmdStatus {
    const F: &str = "glcmdFunctionInfo";
    guard(F, || {
        let i = index as usize;
        if i >= crate::generated::COUNT {
            return Err(CallError::new(
                GLCMD_ERROR_INVALID_ARGUMENT,
                format!("{F}: index {index} is out of range (there are {} functions)", crate::generated::COUNT),
            ));
        }
        // SAFETY: each output is NULL (skipped) or room for one value.
        unsafe {
            if !name.is_null() {
                name.write_unaligned(crate::lookup::c_name(i).as_ptr());
            }
            if !kind.is_null() {
                kind.write_unaligned(crate::generated::KINDS[i] as u32);
            }
            if !flags.is_null() {
                flags.write_unaligned(crate::generated::FLAGS[i] as u32);
            }
        }
        Ok(())
    })
}

// Immediate threads (issue 18): kept in a block of their own at the end of the file.

/// Makes the calling thread immediate on `device` (and `device` its current device): its GL
/// entry points then behave as a GL context current on this thread. Calls record into an
/// implicit list that glcmd submits for the thread (a frame of one list, as glcmdSubmit, never
/// empty) before every entry point that asks the render thread (queries, glGetError,
/// glReadPixels into client memory, maps, glClientWaitSync, glFinish, program lookups the cache
/// cannot answer), on glFlush and when the list grows past 1 MiB; so each query sees every call
/// this thread made before it, with no glcmdListBegin or submit. Deletes record with no list.
/// Answers glcmd has without asking (limits, glGetString, pooled creates) submit nothing. The
/// pixel-store state and pixel-buffer bindings carry across implicit submits. glGetError
/// returns the errors of this thread's own earlier calls (those raised at replay and those
/// glcmd raised), the first one kept as the GL keeps it.
///
/// Immediate threads of one device share its one GL context: their implicit lists interleave at
/// submit boundaries (state one binds can be seen by another between its submits).
///
/// On an immediate thread glcmdListBegin, glcmdListBeginSlot, glcmdSubmit and glcmdListSubmit
/// fail with GLCMD_ERROR_LIST_ACTIVE, and glcmdDeviceMakeCurrent of another device too;
/// glcmdListDiscard drops the pending calls. Calls still pending when the thread exits are
/// submitted then (without waiting).
///
/// NULL submits the pending calls and leaves immediate mode (the device stays current);
/// another device submits them to the old device first. Fails with GLCMD_ERROR_LIST_ACTIVE
/// while an explicit list is current (submit or discard it first); a refused submit leaves the
/// thread as it was.
#[no_mangle]
pub extern "C" fn glcmdThreadMakeImmediate(device: *mut GlcmdDevice) -> GlcmdStatus {
    const F: &str = "glcmdThreadMakeImmediate";
    guard(F, || {
        let entry = if device.is_null() { None } else { Some(handles::device(F, device as usize)?) };
        crate::immediate::make_immediate(F, entry)
    })
}
