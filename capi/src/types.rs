//! The C types of the ABI, the ground floor of the crate: status codes, flags, handles, the
//! option and report structs, the callback typedefs. Every other module may use them; they use
//! nothing of the crate, so the modules that build on them (errors, conversions, the thread's
//! current list, the entry points) import downward only, and `api.rs`, the exported functions,
//! sits on top.
//!
//! `glcmd.h` declares these before the functions of `api.rs` (glcmd-codegen's `c_header`
//! emitter reads both files, this one first), so every public item here is part of the C ABI
//! and its doc comment is its C documentation: keep them C (NUL-terminated strings, `#[repr(C)]`
//! structs, fixed-size integers, `Option<extern fn>` callbacks), or the emitter refuses them.

use std::ffi::{c_char, c_ulong, c_void};

use glcmd::generated::types::{GLchar, GLenum, GLsizei, GLuint};

/// A status code: GLCMD_OK or one of the GLCMD_ERROR_* codes.
pub type GlcmdStatus = i32;

/// Success.
pub const GLCMD_OK: GlcmdStatus = 0;
/// A GL entry point was called on a thread with no current list (glcmdListBegin makes one).
pub const GLCMD_ERROR_NO_CURRENT_LIST: GlcmdStatus = 1;
/// A create or query was made on a thread with no current device (glcmdListBegin or
/// glcmdDeviceMakeCurrent makes one current).
pub const GLCMD_ERROR_NO_CURRENT_DEVICE: GlcmdStatus = 2;
/// A device or frame handle that is not live: destroyed, ended, NULL or never made.
pub const GLCMD_ERROR_INVALID_HANDLE: GlcmdStatus = 3;
/// NULL where an array, string or output is required. A GL entry point goes on with zeros, an
/// empty string or nothing written in its place, so that the GL answers the call (its error, if
/// any, is the call's); a glcmd function does nothing.
pub const GLCMD_ERROR_NULL_POINTER: GlcmdStatus = 4;
/// An argument glcmd refuses: a negative count or size, a string that is not UTF-8, a value
/// glcmd's checks reject.
pub const GLCMD_ERROR_INVALID_ARGUMENT: GlcmdStatus = 5;
/// A pname glcmd's tables do not know, so the length of its array is unknown.
pub const GLCMD_ERROR_UNKNOWN_PNAME: GlcmdStatus = 6;
/// The function cannot be called through the C ABI (see glcmdFunctionInfo), or a format or
/// type whose pixel size glcmd does not know.
pub const GLCMD_ERROR_UNSUPPORTED: GlcmdStatus = 7;
/// glcmdListBegin while a list is current on the thread (submit or discard it first), or
/// glcmdDeviceMakeCurrent to another device while one is.
pub const GLCMD_ERROR_LIST_ACTIVE: GlcmdStatus = 8;
/// The render thread is gone (a lost context, a panic); create a new device.
pub const GLCMD_ERROR_DEVICE_LOST: GlcmdStatus = 9;
/// A wait only the calling thread could end (a slot it holds unsubmitted): it fails at once.
pub const GLCMD_ERROR_WOULD_DEADLOCK: GlcmdStatus = 10;
/// A wait for a slot no thread submitted ran past the device's wait limit.
pub const GLCMD_ERROR_BLOCKED: GlcmdStatus = 11;
/// A waiting call made on the render thread (inside glcmdRunOnRenderThread or a debug callback).
pub const GLCMD_ERROR_ON_RENDER_THREAD: GlcmdStatus = 12;
/// A slot out of range, already submitted or claimed, or too many slots.
pub const GLCMD_ERROR_SLOT: GlcmdStatus = 13;
/// The frame had already ended (given up after the wait limit): the list was not replayed.
pub const GLCMD_ERROR_FRAME_ENDED: GlcmdStatus = 14;
/// The GL context does not provide this function.
pub const GLCMD_ERROR_UNAVAILABLE: GlcmdStatus = 15;
/// A result too large to allocate.
pub const GLCMD_ERROR_OUT_OF_MEMORY: GlcmdStatus = 16;
/// An object name that does not exist; the call was not made.
pub const GLCMD_ERROR_NO_SUCH_OBJECT: GlcmdStatus = 17;
/// A program lookup whose link is recorded in a list not yet submitted.
pub const GLCMD_ERROR_LINK_NOT_SUBMITTED: GlcmdStatus = 18;
/// The GL context could not be created.
pub const GLCMD_ERROR_CONTEXT: GlcmdStatus = 19;
/// A GLsync that names no sync object (its fence has not replayed, or it was deleted).
pub const GLCMD_ERROR_UNKNOWN_SYNC: GlcmdStatus = 20;
/// An internal error of glcmd (a caught panic); the message says where.
pub const GLCMD_ERROR_INTERNAL: GlcmdStatus = 21;

/// GlcmdDeviceOptions.flags: attribute GL debug messages to the recorded call and list.
pub const GLCMD_DEVICE_DEBUG_OUTPUT: u32 = 1;
/// GlcmdDeviceOptions.flags: glGetError after every replayed command.
pub const GLCMD_DEVICE_STRICT: u32 = 2;
/// GlcmdDeviceOptions.flags: report uses of deleted object names.
pub const GLCMD_DEVICE_TRACK_DELETES: u32 = 4;
/// GlcmdDeviceOptions.flags: ask for a robust-access context.
pub const GLCMD_DEVICE_ROBUST_ACCESS: u32 = 8;

/// GlcmdReport.kind: no report was waiting.
pub const GLCMD_REPORT_NONE: u32 = 0;
/// GlcmdReport.kind: a KHR_debug message of the driver.
pub const GLCMD_REPORT_DEBUG_MESSAGE: u32 = 1;
/// GlcmdReport.kind: glGetError returned an error (strict mode).
pub const GLCMD_REPORT_GL_ERROR: u32 = 2;
/// GlcmdReport.kind: a command named an object whose delete was recorded before it.
pub const GLCMD_REPORT_USE_AFTER_DELETE: u32 = 3;
/// GlcmdReport.kind: a replay step took longer than the watchdog allows.
pub const GLCMD_REPORT_STALL: u32 = 4;
/// GlcmdReport.kind: legal GL that is almost surely a bug (a draw with no program).
pub const GLCMD_REPORT_VALIDATION: u32 = 5;
/// GlcmdReport.kind: a command glcmd did not pass to the GL because an argument was unsafe (it
/// raised GL_INVALID_OPERATION).
pub const GLCMD_REPORT_SKIPPED: u32 = 6;
/// GlcmdReport.kind: a function the context does not provide was called.
pub const GLCMD_REPORT_UNAVAILABLE: u32 = 7;
/// GlcmdReport.kind: submission and frame life cycle (a slot never submitted, ...).
pub const GLCMD_REPORT_SUBMISSION: u32 = 8;
/// GlcmdReport.kind: a frame held later work back past the wait limit and was given up.
pub const GLCMD_REPORT_ABANDONED_FRAME: u32 = 9;
/// GlcmdReport.kind: presenting a frame (swapping a window's buffers) failed.
pub const GLCMD_REPORT_PRESENT: u32 = 10;

/// glcmdFunctionInfo kind: recorded into the current list.
pub const GLCMD_KIND_RECORD: u32 = 1;
/// glcmdFunctionInfo kind: creates at once (from a name pool, or a round trip).
pub const GLCMD_KIND_CREATE: u32 = 2;
/// glcmdFunctionInfo kind: recorded; runs at the end of the frame it replays in.
pub const GLCMD_KIND_DELETE: u32 = 3;
/// glcmdFunctionInfo kind: a round trip after every submitted list (some answered from caches).
pub const GLCMD_KIND_QUERY: u32 = 4;
/// glcmdFunctionInfo kind: hand-written (README, "C and C++").
pub const GLCMD_KIND_SPECIAL: u32 = 5;
/// glcmdFunctionInfo flag: the entry point always fails with GLCMD_ERROR_UNSUPPORTED.
pub const GLCMD_FUNCTION_UNSUPPORTED: u32 = 1;
/// glcmdFunctionInfo flag: the entry point may make a round trip to the render thread.
pub const GLCMD_FUNCTION_ROUND_TRIP: u32 = 2;
/// glcmdFunctionInfo flag: the Rust method is unsafe: the entry point computes the lengths its
/// contract asks for, or passes GPU addresses and handles through as given.
pub const GLCMD_FUNCTION_UNSAFE: u32 = 4;

/// A device: a render thread that owns a GL context. An opaque handle.
pub struct GlcmdDevice {
    _private: [u8; 0],
}

/// A frame of numbered slots, replayed in slot order. An opaque handle.
pub struct GlcmdFrame {
    _private: [u8; 0],
}

/// Options of glcmdDeviceCreateHeadless. Zero-initialise it and set `size`.
#[repr(C)]
pub struct GlcmdDeviceOptions {
    /// sizeof(GlcmdDeviceOptions), for compatibility with later versions.
    pub size: u32,
    /// GLCMD_DEVICE_* flags.
    pub flags: u32,
    /// How long work may wait for a slot nobody submitted before it fails (ms); 0: 10 s.
    pub wait_limit_ms: u32,
    /// Report replay steps slower than this (ms); 0: no watchdog.
    pub watchdog_ms: u32,
}

/// An EGL context the application made, for glcmdDeviceAdoptEGL: the render thread makes it
/// current with these surfaces and presents on glcmdDevicePresent. Every EGL and GL function is
/// looked up through `getProcAddress`, never by its global symbol.
#[repr(C)]
#[allow(non_snake_case)]
pub struct GlcmdAdoptEGL {
    /// The initialized EGLDisplay.
    pub display: *mut c_void,
    /// The EGLContext: desktop OpenGL, current on no thread.
    pub context: *mut c_void,
    /// The EGLSurface drawn to (framebuffer 0), or EGL_NO_SURFACE.
    pub draw: *mut c_void,
    /// The EGLSurface read from, or EGL_NO_SURFACE.
    pub read: *mut c_void,
    /// eglGetProcAddress, or a function that answers as it does (EGL functions included).
    pub getProcAddress: Option<unsafe extern "C" fn(name: *const c_char) -> *mut c_void>,
}

/// A GLX context the application made, for glcmdDeviceAdoptGLX. Xlib must be thread-safe
/// (XInitThreads before any other Xlib call). Every GLX and GL function is looked up through
/// `getProcAddress`.
#[repr(C)]
#[allow(non_snake_case)]
pub struct GlcmdAdoptGLX {
    /// The Xlib Display*.
    pub display: *mut c_void,
    /// The GLXContext, current on no thread.
    pub context: *mut c_void,
    /// The GLXDrawable drawn to (framebuffer 0), or 0 (None).
    pub drawable: c_ulong,
    /// The GLXDrawable read from; 0: the same as `drawable`.
    pub readDrawable: c_ulong,
    /// glXGetProcAddressARB, or a function that answers as it does (GLX functions included).
    pub getProcAddress: Option<unsafe extern "C" fn(name: *const c_char) -> *mut c_void>,
}

/// A diagnostic report (glcmdGetReport). The strings stay valid until the next glcmdGetReport
/// on the same thread.
#[repr(C)]
pub struct GlcmdReport {
    /// GLCMD_REPORT_*; GLCMD_REPORT_NONE when no report was waiting.
    pub kind: u32,
    /// Index of the command in its list, or -1.
    pub index: i64,
    /// The GL call with its arguments (empty for life-cycle reports).
    pub call: *const c_char,
    /// The list's label (glcmdListSetLabel), or NULL.
    pub list: *const c_char,
    /// The message of the driver or of glcmd.
    pub message: *const c_char,
    /// For a use after delete: the delete call, or NULL.
    pub deleted_by: *const c_char,
    /// The whole report as one line of text.
    pub text: *const c_char,
}

/// The error callback (glcmdSetErrorCallback): KHR_debug's GLDEBUGPROC signature, so an
/// application can pass the callback it gives glDebugMessageCallback. source is
/// GL_DEBUG_SOURCE_THIRD_PARTY, kind GL_DEBUG_TYPE_ERROR, id the GlcmdStatus, severity
/// GL_DEBUG_SEVERITY_HIGH. It runs on the thread whose call failed; glcmdSetErrorCallback
/// says what it may call.
pub type GlcmdDebugProc = Option<
    unsafe extern "system" fn(
        source: GLenum,
        kind: GLenum,
        id: GLuint,
        severity: GLenum,
        length: GLsizei,
        message: *const GLchar,
        user: *const c_void,
    ),
>;

/// A function glcmdRunOnRenderThread runs on the render thread, with the GL context current.
pub type GlcmdRenderThreadProc = Option<unsafe extern "C" fn(user: *mut c_void)>;
