//! Errors at the C boundary: a status code plus a message, never a panic or an abort.
//!
//! A failure is recorded three ways, so a C program finds it however it looks:
//!
//! * **`glcmdLastError`**: the thread's last failure, code and text (thread-local, cleared when
//!   read, like `glGetError`).
//! * **The error callback** (`glcmdSetErrorCallback`), KHR_debug-shaped, called on the failing
//!   thread at the failure; not again for a failure raised while that thread runs it (the
//!   callback's own failing calls would otherwise recurse until the stack overflows).
//! * **`glGetError`**, for failures of GL entry points only: the failure raises the GL error the
//!   GL would have raised for the same mistake (`GL_INVALID_VALUE` for a NULL array, a negative
//!   count or a sync handle that names nothing, `GL_INVALID_ENUM` for an unknown pname,
//!   `GL_INVALID_OPERATION` otherwise), which the thread's next `glGetError` returns before
//!   asking the device.
//!
//! `glcmd::Error`s map to codes one to one (`from_glcmd`); their text is kept, with the Rust API
//! it names put in C terms (`c_terms.rs`: `glcmdRunOnRenderThread` for `Device::with_gl`, ...).

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::ffi::{c_char, c_void, CStr, CString};
use std::sync::Mutex;

use crate::types::{
    GlcmdDebugProc, GlcmdStatus, GLCMD_ERROR_BLOCKED, GLCMD_ERROR_CONTEXT, GLCMD_ERROR_DEVICE_LOST,
    GLCMD_ERROR_FRAME_ENDED, GLCMD_ERROR_INTERNAL, GLCMD_ERROR_INVALID_ARGUMENT, GLCMD_ERROR_INVALID_HANDLE,
    GLCMD_ERROR_LINK_NOT_SUBMITTED, GLCMD_ERROR_LIST_ACTIVE, GLCMD_ERROR_NO_CURRENT_DEVICE,
    GLCMD_ERROR_NO_CURRENT_LIST, GLCMD_ERROR_NO_SUCH_OBJECT, GLCMD_ERROR_NULL_POINTER, GLCMD_ERROR_ON_RENDER_THREAD,
    GLCMD_ERROR_OUT_OF_MEMORY, GLCMD_ERROR_SLOT, GLCMD_ERROR_UNAVAILABLE, GLCMD_ERROR_UNKNOWN_PNAME,
    GLCMD_ERROR_UNKNOWN_SYNC, GLCMD_ERROR_UNSUPPORTED, GLCMD_ERROR_WOULD_DEADLOCK, GLCMD_OK,
};

/// A failure: its code and its message (which names the function). Boxed, so a `Result` of the
/// success path is a pointer wide: entry points move it through `catch_unwind`, and a wide one
/// costs store-forwarding stalls on every call.
#[derive(Debug)]
pub struct CallError(Box<Failure>);

#[derive(Debug)]
pub struct Failure {
    pub status: GlcmdStatus,
    pub message: String,
    /// The GL error to raise where the status alone does not say it (`gl_error` otherwise).
    pub gl: Option<u32>,
}

impl std::ops::Deref for CallError {
    type Target = Failure;
    fn deref(&self) -> &Failure {
        &self.0
    }
}

impl CallError {
    #[cold]
    pub fn new(status: GlcmdStatus, message: String) -> CallError {
        CallError(Box::new(Failure { status, message, gl: None }))
    }

    /// The same failure, raising `error` for `glGetError` (the error the GL gives for the case).
    pub fn raising(mut self, error: u32) -> CallError {
        self.0.gl = Some(error);
        self
    }

    /// A NULL pointer argument; it raises the error the GL gives for it in `function`
    /// (`glcmd::spec_gl_error`: `GL_INVALID_VALUE` unless the function's row says otherwise).
    pub fn null(function: &str, argument: &str) -> CallError {
        CallError::new(GLCMD_ERROR_NULL_POINTER, format!("{function}: `{argument}` is NULL"))
            .raising(glcmd::spec_gl_error(function, glcmd::Check::NullPointer))
    }

    pub fn no_list(function: &str) -> CallError {
        CallError::new(
            GLCMD_ERROR_NO_CURRENT_LIST,
            format!("{function}: no command list is current on this thread; call glcmdListBegin first (the call was not recorded)"),
        )
    }

    pub fn no_device(function: &str) -> CallError {
        CallError::new(
            GLCMD_ERROR_NO_CURRENT_DEVICE,
            format!(
                "{function}: no device is current on this thread; call glcmdListBegin or glcmdDeviceMakeCurrent first"
            ),
        )
    }

    pub fn unsupported(function: &str, reason: &str) -> CallError {
        CallError::new(GLCMD_ERROR_UNSUPPORTED, format!("{function}: unsupported through the C ABI: {reason}"))
    }

    /// A panic caught at the boundary. The recording methods panic only on input they cannot
    /// take (a parameter buffer past 4 GiB, ...); anything else is a bug of glcmd.
    pub fn panicked(function: &str, payload: Box<dyn Any + Send>) -> CallError {
        let text = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".into());
        CallError::new(GLCMD_ERROR_INTERNAL, format!("{function}: glcmd refused the call: {text}"))
    }

    /// A `glcmd::Error`, with its code.
    #[allow(unreachable_patterns)]
    pub fn from_glcmd(function: &str, e: glcmd::Error) -> CallError {
        use glcmd::Error as E;
        let status = match &e {
            E::Context(_) | E::Present(_) => GLCMD_ERROR_CONTEXT,
            E::DeviceLost { .. } => GLCMD_ERROR_DEVICE_LOST,
            E::UnknownPname { .. } => GLCMD_ERROR_UNKNOWN_PNAME,
            E::UnsupportedQuery { .. } => GLCMD_ERROR_UNSUPPORTED,
            E::UnknownSync { .. } => GLCMD_ERROR_UNKNOWN_SYNC,
            E::SlotOutOfRange { .. }
            | E::TooManySlots { .. }
            | E::SlotTaken { .. }
            | E::SlotClaimed { .. }
            | E::ClaimMismatch { .. } => GLCMD_ERROR_SLOT,
            E::FrameEnded { .. } => GLCMD_ERROR_FRAME_ENDED,
            E::Unavailable { .. } => GLCMD_ERROR_UNAVAILABLE,
            E::InvalidArgument { .. } => GLCMD_ERROR_INVALID_ARGUMENT,
            E::OutOfMemory { .. } => GLCMD_ERROR_OUT_OF_MEMORY,
            E::WouldDeadlock { .. } => GLCMD_ERROR_WOULD_DEADLOCK,
            E::Blocked { .. } => GLCMD_ERROR_BLOCKED,
            E::OnRenderThread { .. } => GLCMD_ERROR_ON_RENDER_THREAD,
            E::NoSuchObject { .. } | E::OtherClass { .. } => GLCMD_ERROR_NO_SUCH_OBJECT,
            E::Refused { .. } => GLCMD_ERROR_INVALID_ARGUMENT,
            E::OutputOffset { offset: None, .. } => GLCMD_ERROR_NULL_POINTER,
            E::OutputOffset { .. } => GLCMD_ERROR_INVALID_ARGUMENT,
            E::LinkNotSubmitted { .. } => GLCMD_ERROR_LINK_NOT_SUBMITTED,
            _ => GLCMD_ERROR_INTERNAL,
        };
        // The GL's error for the same mistake (one rule, `glcmd::Error::gl_error`: a name that is
        // no program or shader is GL_INVALID_VALUE, ...); the status's own otherwise.
        // A query the GL refused: the device's flag holds the GL's error already.
        let raised = if matches!(e, E::Refused { .. }) { Some(glcmd::gl::NO_ERROR) } else { e.gl_error() };
        let text = crate::c_terms::translate(&e.to_string());
        let message = if text.starts_with(function) { text } else { format!("{function}: {text}") };
        let error = CallError::new(status, message);
        match raised {
            Some(gl) => error.raising(gl),
            None => error,
        }
    }
}

/// The error the GL raises for the same mistake.
fn gl_error(status: GlcmdStatus) -> u32 {
    use glcmd::gl;
    match status {
        // A sync handle that names no sync object: `GL_INVALID_VALUE`, as the GL gives for
        // glClientWaitSync, glWaitSync, glGetSynciv and glDeleteSync (GL 4.6 §4.1).
        GLCMD_ERROR_NULL_POINTER | GLCMD_ERROR_INVALID_ARGUMENT | GLCMD_ERROR_UNKNOWN_SYNC => gl::INVALID_VALUE,
        GLCMD_ERROR_UNKNOWN_PNAME => gl::INVALID_ENUM,
        GLCMD_ERROR_OUT_OF_MEMORY => gl::OUT_OF_MEMORY,
        GLCMD_ERROR_DEVICE_LOST => gl::CONTEXT_LOST,
        _ => gl::INVALID_OPERATION,
    }
}

thread_local! {
    /// The last failure of this thread: code and text.
    static LAST: RefCell<(GlcmdStatus, CString)> = RefCell::new((GLCMD_OK, CString::default()));
    /// The GL error flag of this thread: the first error a failed entry point raised (or, on an
    /// immediate thread, the first error the device held for its earlier calls), until
    /// `glGetError` returns it (0: none). One flag, as Mesa keeps it: errors raised while it is
    /// set are dropped.
    static PENDING_GL: Cell<u32> = const { Cell::new(0) };
    /// Set while this thread runs the error callback (see `call_back`).
    static IN_CALLBACK: Cell<bool> = const { Cell::new(false) };
}

/// The error callback and its user pointer (as an address: the pointer is the caller's).
static CALLBACK: Mutex<(GlcmdDebugProc, usize)> = Mutex::new((None, 0));

pub fn set_callback(callback: GlcmdDebugProc, user: *const c_void) {
    *CALLBACK.lock().unwrap_or_else(|e| e.into_inner()) = (callback, user as usize);
}

/// Records the failure of a glcmd function and returns its code.
pub fn fail(function: &str, e: CallError) -> GlcmdStatus {
    let status = e.status;
    log::debug!("{}", e.message);
    let _ = function;
    let text = CString::new(e.message.replace('\0', " ")).unwrap_or_default();
    // Recorded first, so the callback can read it with glcmdLastError; the callback gets a copy
    // of its own, which a failure inside the callback cannot replace.
    let copy = text.clone();
    let _ = LAST.try_with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            *l = (status, text);
        }
    });
    call_back(status, &copy);
    status
}

/// Calls the error callback with a failure, unless this thread is already running it.
///
/// A failure raised by the callback's own work (a failing GL or glcmd call inside it) is
/// recorded by the caller (last error, GL error) but does not call the callback again: each
/// such call would fail again, recursing until the stack overflows. Failures on other threads
/// still call it (it is process-wide). The callback is copied out of its lock before the call,
/// so `glcmdSetErrorCallback` from inside it does not deadlock; the replacement gets the next
/// failure raised outside a callback.
fn call_back(status: GlcmdStatus, message: &CStr) {
    let (callback, user) = *CALLBACK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(cb) = callback else { return };
    // A thread whose thread-locals are gone (exiting) counts as inside: no call.
    if IN_CALLBACK.try_with(|c| c.replace(true)).unwrap_or(true) {
        return;
    }
    let length = message.to_bytes().len().min(i32::MAX as usize) as i32;
    // SAFETY: the application's callback, with the GLDEBUGPROC arguments it declares; the
    // message is a NUL-terminated string alive for the call. A C function cannot unwind into
    // Rust (an unwinding `extern "system"` fn aborts), so the flag below is always cleared.
    unsafe {
        cb(
            glcmd::gl::DEBUG_SOURCE_THIRD_PARTY,
            glcmd::gl::DEBUG_TYPE_ERROR,
            status as u32,
            glcmd::gl::DEBUG_SEVERITY_HIGH,
            length,
            message.as_ptr(),
            user as *const c_void,
        )
    };
    let _ = IN_CALLBACK.try_with(|c| c.set(false));
}

/// Records the failure of a GL entry point: also raises its GL error for `glGetError`.
pub fn fail_gl(function: &str, e: CallError) {
    raise_gl(e.gl.unwrap_or_else(|| gl_error(e.status)));
    fail(function, e);
}

/// Raises GL error `error` for this thread's `glGetError`, unless one is pending (the first
/// error is kept, as the GL keeps it).
pub fn raise_gl(error: u32) {
    let _ = PENDING_GL.try_with(|p| {
        if p.get() == 0 {
            p.set(error);
        }
    });
}

/// The GL error pending for this thread (0: none).
pub fn pending_gl() -> u32 {
    PENDING_GL.try_with(|p| p.get()).unwrap_or(0)
}

/// The GL error a failed entry point of this thread raised, cleared (0: none).
pub fn take_pending_gl() -> u32 {
    PENDING_GL.try_with(|p| p.replace(0)).unwrap_or(0)
}

/// The last failure of this thread, cleared; the text stays valid until the next failure.
pub fn take_last() -> (GlcmdStatus, *const c_char) {
    LAST.try_with(|l| match l.try_borrow_mut() {
        Ok(mut l) => match std::mem::replace(&mut l.0, GLCMD_OK) {
            GLCMD_OK => (GLCMD_OK, c"".as_ptr()),
            status => (status, l.1.as_ptr()),
        },
        Err(_) => (GLCMD_OK, c"".as_ptr()),
    })
    .unwrap_or((GLCMD_OK, c"".as_ptr()))
}

pub fn status_name(status: GlcmdStatus) -> &'static CStr {
    match status {
        GLCMD_OK => c"GLCMD_OK",
        GLCMD_ERROR_NO_CURRENT_LIST => c"GLCMD_ERROR_NO_CURRENT_LIST",
        GLCMD_ERROR_NO_CURRENT_DEVICE => c"GLCMD_ERROR_NO_CURRENT_DEVICE",
        GLCMD_ERROR_INVALID_HANDLE => c"GLCMD_ERROR_INVALID_HANDLE",
        GLCMD_ERROR_NULL_POINTER => c"GLCMD_ERROR_NULL_POINTER",
        GLCMD_ERROR_INVALID_ARGUMENT => c"GLCMD_ERROR_INVALID_ARGUMENT",
        GLCMD_ERROR_UNKNOWN_PNAME => c"GLCMD_ERROR_UNKNOWN_PNAME",
        GLCMD_ERROR_UNSUPPORTED => c"GLCMD_ERROR_UNSUPPORTED",
        GLCMD_ERROR_LIST_ACTIVE => c"GLCMD_ERROR_LIST_ACTIVE",
        GLCMD_ERROR_DEVICE_LOST => c"GLCMD_ERROR_DEVICE_LOST",
        GLCMD_ERROR_WOULD_DEADLOCK => c"GLCMD_ERROR_WOULD_DEADLOCK",
        GLCMD_ERROR_BLOCKED => c"GLCMD_ERROR_BLOCKED",
        GLCMD_ERROR_ON_RENDER_THREAD => c"GLCMD_ERROR_ON_RENDER_THREAD",
        GLCMD_ERROR_SLOT => c"GLCMD_ERROR_SLOT",
        GLCMD_ERROR_FRAME_ENDED => c"GLCMD_ERROR_FRAME_ENDED",
        GLCMD_ERROR_UNAVAILABLE => c"GLCMD_ERROR_UNAVAILABLE",
        GLCMD_ERROR_OUT_OF_MEMORY => c"GLCMD_ERROR_OUT_OF_MEMORY",
        GLCMD_ERROR_NO_SUCH_OBJECT => c"GLCMD_ERROR_NO_SUCH_OBJECT",
        GLCMD_ERROR_LINK_NOT_SUBMITTED => c"GLCMD_ERROR_LINK_NOT_SUBMITTED",
        GLCMD_ERROR_CONTEXT => c"GLCMD_ERROR_CONTEXT",
        GLCMD_ERROR_UNKNOWN_SYNC => c"GLCMD_ERROR_UNKNOWN_SYNC",
        GLCMD_ERROR_INTERNAL => c"GLCMD_ERROR_INTERNAL",
        _ => c"unknown status",
    }
}
