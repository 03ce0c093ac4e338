//! The C entry points of the special functions, written by hand (like `runtime/special.rs`).
//! With `pixels.rs` and `sizes.rs` (the pixel-store state, the size queries), this is where the
//! crate names GL functions; every other entry point is generated. Each behaves as the Rust
//! special documents, with the C signature of `glcorearb.h`:
//!
//! | GL function | C entry point |
//! | --- | --- |
//! | `glFenceSync` | records the fence into the current list (`CommandList::fence_sync`); the `GLsync` it returns is glcmd's handle, which becomes a sync object when the list replays |
//! | `glClientWaitSync` | `Device::client_wait_sync`, a round trip (the fence's list must have been submitted); `GL_WAIT_FAILED` on error |
//! | `glEGLImageTargetTexture2DOES`, `glEGLImageTargetRenderbufferStorageOES` | a round trip: the EGL image, the driver's handle, goes to the GL on the render thread as the program gave it |
//! | `glFinish`, `glFlush` | `Device::finish`, `Device::flush`: round trips after every submitted list. On an immediate thread (`immediate.rs`) `glFlush` submits the pending calls and waits for nothing |
//! | `glGetError` | the GL error a failed entry point of this thread raised, if any; else `Device::get_error` (which also returns the `GL_INVALID_OPERATION` of a command glcmd skipped). If it cannot ask (no device), it reports that and returns `GL_NO_ERROR`, so `while (glGetError())` loops end. On an immediate thread it sees the thread's own earlier calls, with one flag as Mesa keeps it (`immediate.rs`) |
//! | `glGetProgramResourceiv` | `Device::get_program_resourceiv`; writes at most `count` values |
//! | `glGetDebugMessageLog(ARB)` | `Device::get_debug_message_log`; writes the messages that fit in `bufSize` |
//! | `glMapBuffer*`, `glMapNamedBuffer*` | a round trip that maps on the render thread after every submitted list (ranges checked for overflow first); the pointer is process memory, usable on any thread until `glUnmapBuffer` |
//! | `glDebugMessageCallback(ARB)` | `Device::set_program_debug_callback`: the callback runs on the render thread, after glcmd's own attribution, or, while the program has `GL_DEBUG_OUTPUT_SYNCHRONOUS` on, on the program's thread before the call that raised the message returns (`debug_sync.rs`); `glGetPointerv` answers the program's function and pointer; NULL removes it |
//!
//! The other specials (OpenCL and EGL handles, client pointer arrays) are unsupported entry
//! points generated with the rest.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::ffi::{c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use glcmd::generated::types::*;
use glcmd::{gl, Gl};

use crate::call;
use crate::conv::{self, checked};
use crate::error::{self, CallError};

/// `glFenceSync` (GL_VERSION_3_2, special): records the fence; returns its handle.
pub unsafe extern "system" fn glFenceSync(condition: GLenum, flags: GLbitfield) -> GLsync {
    const F: &str = "glFenceSync";
    call::record_value(F, std::ptr::null(), |cur| Ok(conv::sync_to_c(cur.list.fence_sync(condition, flags))))
}

/// `glClientWaitSync` (GL_VERSION_3_2, special): a round trip.
pub unsafe extern "system" fn glClientWaitSync(sync: GLsync, flags: GLbitfield, timeout: GLuint64) -> GLenum {
    const F: &str = "glClientWaitSync";
    call::round_trip(F, gl::WAIT_FAILED, |d| checked(F, d.client_wait_sync(conv::sync(sync), flags, timeout)))
}

/// Gives `image`, an EGL image the program made with the driver's `eglCreateImage`, to the GL on
/// the render thread, after the thread's earlier calls: the image is the driver's handle, which
/// the driver looks up (Mesa: `GL_INVALID_VALUE` for one that is no image), as when the program
/// calls it directly. The context's textures and renderbuffers are the render thread's, so the
/// target's bound object takes the image there.
fn egl_image_target(f: &'static str, target: GLenum, image: GLeglImageOES, renderbuffer: bool) {
    let image = image as usize;
    call::round_trip(f, (), move |d| {
        checked(
            f,
            // SAFETY: `with_gl` runs this on the render thread with `g` its current context's
            // table; the handle is passed as the program gave it, as the driver takes it directly.
            d.with_gl(move |g| unsafe {
                if renderbuffer {
                    (g.EGLImageTargetRenderbufferStorageOES)(target, image as GLeglImageOES)
                } else {
                    (g.EGLImageTargetTexture2DOES)(target, image as GLeglImageOES)
                }
            }),
        )
    })
}

/// `glEGLImageTargetTexture2DOES` (GL_OES_EGL_image, special): a round trip.
pub unsafe extern "system" fn glEGLImageTargetTexture2DOES(target: GLenum, image: GLeglImageOES) {
    egl_image_target("glEGLImageTargetTexture2DOES", target, image, false)
}

/// `glEGLImageTargetRenderbufferStorageOES` (GL_OES_EGL_image, special): a round trip.
pub unsafe extern "system" fn glEGLImageTargetRenderbufferStorageOES(target: GLenum, image: GLeglImageOES) {
    egl_image_target("glEGLImageTargetRenderbufferStorageOES", target, image, true)
}

/// `glFinish` (GL_VERSION_1_0, special): a round trip.
pub unsafe extern "system" fn glFinish() {
    const F: &str = "glFinish";
    call::round_trip(F, (), |d| checked(F, d.finish()))
}

/// `glFlush` (GL_VERSION_1_0, special): a round trip; on an immediate thread, submits the
/// pending calls.
pub unsafe extern "system" fn glFlush() {
    const F: &str = "glFlush";
    if crate::immediate::is_immediate() {
        return call::round_trip(F, (), |_| crate::immediate::flush(F));
    }
    call::round_trip(F, (), |d| checked(F, d.flush()))
}

/// `glGetError` (GL_VERSION_1_0, special): this thread's entry-point error first, then the
/// device's.
pub unsafe extern "system" fn glGetError() -> GLenum {
    const F: &str = "glGetError";
    let immediate = crate::immediate::is_immediate();
    if immediate && error::pending_gl() != gl::NO_ERROR {
        // The device's errors came after the thread's flag: dropped, as the GL drops them.
        crate::immediate::collect_errors(F);
    }
    let pending = error::take_pending_gl();
    if pending != gl::NO_ERROR {
        if immediate {
            crate::immediate::own_flag_returned();
        }
        return pending;
    }
    let result = catch_unwind(AssertUnwindSafe(|| {
        let device = crate::current::device_entry(F)?.device(F)?;
        if !immediate {
            return checked(F, device.get_error());
        }
        let first = crate::immediate::get_error(F, &device)?;
        if first != gl::NO_ERROR {
            // One flag: later errors were dropped by the GL; drop what the device still holds.
            crate::immediate::collect_errors(F);
            error::take_pending_gl();
        }
        Ok(first)
    }));
    match result {
        Ok(Ok(e)) => e,
        // Reported, but not raised again: a `while (glGetError())` loop must end.
        Ok(Err(e)) => {
            error::fail(F, e);
            gl::NO_ERROR
        }
        Err(payload) => {
            error::fail(F, CallError::panicked(F, payload));
            gl::NO_ERROR
        }
    }
}

/// `glGetProgramResourceiv` (GL_VERSION_4_3, special): a round trip; at most `count` values.
pub unsafe extern "system" fn glGetProgramResourceiv(
    program: GLuint,
    programInterface: GLenum,
    index: GLuint,
    propCount: GLsizei,
    props: *const GLenum,
    count: GLsizei,
    length: *mut GLsizei,
    params: *mut GLint,
) {
    const F: &str = "glGetProgramResourceiv";
    call::round_trip(F, (), |d| {
        if params.is_null() {
            // Mesa 22's `_mesa_GetProgramResourceiv` returns at a NULL `params` before any check.
            conv::null_noted(F, "params", "nothing was asked, as the GL asks nothing");
            return Ok(());
        }
        let n = conv::count(F, "propCount", propCount as i64)?;
        let room = conv::count(F, "count", count as i64)?;
        // SAFETY: the GL reads `propCount` properties.
        let props = unsafe { conv::slice(F, "props", props, n)? };
        let values = checked(F, d.get_program_resourceiv(program, programInterface, index, &props))?;
        let written = values.len().min(room);
        // SAFETY: `params` has room for `count` values (the GL's contract); `length` is NULL or
        // room for one.
        unsafe {
            conv::write_slice(params, &values[..written]);
            conv::write_one(length, written as GLsizei);
        }
        Ok(())
    })
}

/// The messages of the debug log written as `glGetDebugMessageLog` writes them: as many as fit
/// in `buf_size` bytes of `log` (all, if `log` is NULL), each array entry only where the array is
/// not NULL. Returns how many were written.
#[allow(clippy::too_many_arguments)]
unsafe fn debug_log(
    f: &'static str,
    count: GLuint,
    buf_size: GLsizei,
    sources: *mut GLenum,
    types: *mut GLenum,
    ids: *mut GLuint,
    severities: *mut GLenum,
    lengths: *mut GLsizei,
    log: *mut GLchar,
) -> GLuint {
    call::round_trip(f, 0, |d| {
        let room = if log.is_null() { usize::MAX } else { conv::count(f, "bufSize", buf_size as i64)? };
        let messages = checked(f, d.get_debug_message_log(count))?;
        let (mut written, mut at) = (0usize, 0usize);
        for m in &messages {
            let bytes = m.message.len() + 1;
            if at + bytes > room {
                break;
            }
            // SAFETY: each array is NULL or has room for `count` entries, and `written < count`
            // (the device returned at most `count` messages); `log` has room for `bufSize`
            // bytes and `at + bytes <= bufSize`.
            unsafe {
                conv::write_one(sources.add(written), m.source);
                conv::write_one(types.add(written), m.kind);
                conv::write_one(ids.add(written), m.id);
                conv::write_one(severities.add(written), m.severity);
                conv::write_one(lengths.add(written), bytes as GLsizei);
                if !log.is_null() {
                    std::ptr::copy_nonoverlapping(m.message.as_ptr(), log.add(at).cast::<u8>(), m.message.len());
                    log.add(at + m.message.len()).write(0);
                }
            }
            written += 1;
            at += bytes;
        }
        Ok(written as GLuint)
    })
}

/// `glGetDebugMessageLog` (GL_VERSION_4_3, special): a round trip.
pub unsafe extern "system" fn glGetDebugMessageLog(
    count: GLuint,
    bufSize: GLsizei,
    sources: *mut GLenum,
    types: *mut GLenum,
    ids: *mut GLuint,
    severities: *mut GLenum,
    lengths: *mut GLsizei,
    messageLog: *mut GLchar,
) -> GLuint {
    // SAFETY: the GL's contract on the arrays, passed on.
    unsafe { debug_log("glGetDebugMessageLog", count, bufSize, sources, types, ids, severities, lengths, messageLog) }
}

/// `glGetDebugMessageLogARB` (GL_ARB_debug_output, special): as `glGetDebugMessageLog`.
pub unsafe extern "system" fn glGetDebugMessageLogARB(
    count: GLuint,
    bufSize: GLsizei,
    sources: *mut GLenum,
    types: *mut GLenum,
    ids: *mut GLuint,
    severities: *mut GLenum,
    lengths: *mut GLsizei,
    messageLog: *mut GLchar,
) -> GLuint {
    // SAFETY: the GL's contract on the arrays, passed on.
    unsafe {
        debug_log("glGetDebugMessageLogARB", count, bufSize, sources, types, ids, severities, lengths, messageLog)
    }
}

/// A map: a round trip that runs `map` on the render thread after every submitted list, with
/// offset and length (if any) checked for overflow first (Mesa's range check wraps).
fn map(
    f: &'static str,
    range: Option<(GLintptr, GLsizeiptr)>,
    map: impl Fn(&Gl) -> usize + Send + Clone + 'static,
) -> *mut c_void {
    call::round_trip(f, std::ptr::null_mut(), |d| {
        if let Some((offset, length)) = range {
            checked(f, glcmd::arguments::check_ranges(f, &[("offset", offset as i64), ("length", length as i64)]))?;
        }
        Ok(checked(f, d.with_gl(map.clone()))? as *mut c_void)
    })
}

/// `glMapBuffer` (GL_VERSION_1_5, special): a round trip.
pub unsafe extern "system" fn glMapBuffer(target: GLenum, access: GLenum) -> *mut c_void {
    // SAFETY (closure): on the render thread; plain values the GL validates.
    map("glMapBuffer", None, move |g| unsafe { (g.MapBuffer)(target, access) } as usize)
}

/// `glMapBufferRange` (GL_VERSION_3_0, special): a round trip.
pub unsafe extern "system" fn glMapBufferRange(
    target: GLenum,
    offset: GLintptr,
    length: GLsizeiptr,
    access: GLbitfield,
) -> *mut c_void {
    // SAFETY (closure): on the render thread; plain values the GL validates, the range checked.
    map("glMapBufferRange", Some((offset, length)), move |g| unsafe {
        (g.MapBufferRange)(target, offset, length, access)
    } as usize)
}

/// `glMapNamedBuffer` (GL_VERSION_4_5, special): a round trip.
pub unsafe extern "system" fn glMapNamedBuffer(buffer: GLuint, access: GLenum) -> *mut c_void {
    // SAFETY (closure): on the render thread; plain values the GL validates.
    map("glMapNamedBuffer", None, move |g| unsafe { (g.MapNamedBuffer)(buffer, access) } as usize)
}

/// `glMapNamedBufferRange` (GL_VERSION_4_5, special): a round trip.
pub unsafe extern "system" fn glMapNamedBufferRange(
    buffer: GLuint,
    offset: GLintptr,
    length: GLsizeiptr,
    access: GLbitfield,
) -> *mut c_void {
    // SAFETY (closure): on the render thread; plain values the GL validates, the range checked.
    map("glMapNamedBufferRange", Some((offset, length)), move |g| unsafe {
        (g.MapNamedBufferRange)(buffer, offset, length, access)
    } as usize)
}

/// `glMapNamedBufferEXT` (GL_EXT_direct_state_access, special): a round trip.
pub unsafe extern "system" fn glMapNamedBufferEXT(buffer: GLuint, access: GLenum) -> *mut c_void {
    // SAFETY (closure): on the render thread; plain values the GL validates.
    map("glMapNamedBufferEXT", None, move |g| unsafe { (g.MapNamedBufferEXT)(buffer, access) } as usize)
}

/// `glMapNamedBufferRangeEXT` (GL_EXT_direct_state_access, special): a round trip.
pub unsafe extern "system" fn glMapNamedBufferRangeEXT(
    buffer: GLuint,
    offset: GLintptr,
    length: GLsizeiptr,
    access: GLbitfield,
) -> *mut c_void {
    // SAFETY (closure): on the render thread; plain values the GL validates, the range checked.
    map("glMapNamedBufferRangeEXT", Some((offset, length)), move |g| unsafe {
        (g.MapNamedBufferRangeEXT)(buffer, offset, length, access)
    } as usize)
}

/// Sets the device's debug callback to a C one (`None`: removes it). The program's function and
/// pointer are what `glGetPointerv` answers; while the program has synchronous output on, its
/// messages reach it on its own thread (`debug_sync.rs`).
fn debug_callback(
    f: &'static str,
    callback: Option<unsafe extern "system" fn(GLenum, GLenum, GLuint, GLenum, GLsizei, *const GLchar, *mut c_void)>,
    user: *const c_void,
) {
    let Ok(entry) = crate::current::device_entry(f) else {
        return call::round_trip(f, (), |_| Err(CallError::no_device(f)));
    };
    call::round_trip(f, (), |d| {
        let user = user as usize;
        let function = callback.map_or(0, |cb| cb as usize);
        let sync = entry.debug.clone();
        let result = d.set_program_debug_callback(function, user, move |m| {
            if let Some(cb) = callback {
                let text = CString::new(m.message.replace('\0', " ")).unwrap_or_default();
                sync.deliver(crate::debug_sync::Message {
                    callback: cb,
                    user,
                    source: m.source,
                    kind: m.kind,
                    id: m.id,
                    severity: m.severity,
                    text,
                });
            }
        });
        let (output, synchronous) = checked(f, result)?;
        entry.debug.installed(callback.is_some(), output, synchronous);
        Ok(())
    })
}

/// `glDebugMessageCallback` (GL_VERSION_4_3, special): `Device::set_debug_callback`.
pub unsafe extern "system" fn glDebugMessageCallback(callback: GLDEBUGPROC, userParam: *const c_void) {
    debug_callback("glDebugMessageCallback", callback, userParam)
}

/// `glDebugMessageCallbackARB` (GL_ARB_debug_output, special): `Device::set_debug_callback`.
pub unsafe extern "system" fn glDebugMessageCallbackARB(callback: GLDEBUGPROCARB, userParam: *const c_void) {
    debug_callback("glDebugMessageCallbackARB", callback, userParam)
}
