//! Synchronous debug output: a program's debug callback runs on its own thread, before the call
//! that raised the message returns.
//!
//! The GL promises that while `GL_DEBUG_OUTPUT` and `GL_DEBUG_OUTPUT_SYNCHRONOUS` are enabled,
//! the callback runs on the thread that made the call, inside that call (debuggers and engines
//! break in the callback to see the caller's stack). Through glcmd the GL call runs later, on the
//! render thread, so the callback would run there, after the call returned. Mesa's glthread
//! makes calls synchronous while that state is on; so does this module:
//!
//! * **Tracking the state.** Each device keeps what the program has set: whether a C callback is
//!   installed, and `GL_DEBUG_OUTPUT` / `GL_DEBUG_OUTPUT_SYNCHRONOUS`, read from the GL when the
//!   callback is installed (`Device::set_program_debug_callback`, after every earlier call has
//!   replayed) and then updated by `glEnable`/`glDisable` of those two caps at their entry
//!   points ([`DebugSync::set_cap`], from `call::debug_cap`), in the program's order. While all three hold, the device is *synchronous*.
//! * **On the render thread**, the callback glcmd installs hands a synchronous device's messages
//!   to a queue instead of calling the program's callback ([`DebugSync::deliver`]); otherwise it
//!   calls it there, as before (asynchronous output may run on any thread, at any time).
//! * **On the program's thread**, after every entry point (`call::after_call`): while its
//!   device is synchronous, an immediate thread submits its pending calls and waits for them to
//!   replay (`Device::sync_point`, a round trip), then every queued message is passed to the
//!   program's callback on this thread, before the entry point returns. Queries wait anyway. A
//!   thread recording an explicit list gets the messages of what has replayed at its next entry
//!   point (its calls run when it submits, as it asked). Turning the state off hands what is
//!   still queued to the callback at once.
//!
//! Cost: one relaxed atomic load per entry point while no device in the process is synchronous
//! (the common case); a round trip per call while one is, as the GL's synchronous mode costs a
//! driver its threading. A callback that makes GL calls gets no nested delivery (its calls' own
//! messages wait for the next entry point), so it cannot recurse.
//!
//! This module holds the state and imports nothing of the crate (`handles.rs` keeps one per
//! device); `call.rs`, which knows the calling thread, drives it.

use std::cell::Cell;
use std::ffi::{c_void, CString};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use glcmd::generated::types::*;
use glcmd::gl;

/// A C debug callback (`GLDEBUGPROC`).
pub type Callback = unsafe extern "system" fn(GLenum, GLenum, GLuint, GLenum, GLsizei, *const GLchar, *mut c_void);

/// Devices of the process that are synchronous now: [`after_call`] does nothing while it is 0.
static SYNCHRONOUS_DEVICES: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Set while this thread passes messages to the program's callback.
    static DELIVERING: Cell<bool> = const { Cell::new(false) };
}

/// A message for the program's callback, with the callback it was raised for.
pub struct Message {
    pub callback: Callback,
    pub user: usize,
    pub source: GLenum,
    pub kind: GLenum,
    pub id: GLuint,
    pub severity: GLenum,
    pub text: CString,
}

impl Message {
    /// Calls the program's callback with it.
    fn deliver(&self) {
        let length = self.text.as_bytes().len().min(i32::MAX as usize) as GLsizei;
        // SAFETY: the program's callback with its declared arguments; the text is NUL-terminated
        // and lives through the call; `user` is the program's pointer, unchanged.
        unsafe {
            (self.callback)(
                self.source,
                self.kind,
                self.id,
                self.severity,
                length,
                self.text.as_ptr(),
                self.user as *mut c_void,
            )
        }
    }
}

/// A device's synchronous-output state (module doc).
#[derive(Default)]
pub struct DebugSync {
    callback: AtomicBool,
    output: AtomicBool,
    synchronous: AtomicBool,
    active: AtomicBool,
    queue: Mutex<Vec<Message>>,
}

impl DebugSync {
    /// Whether the program's messages must reach it on its own thread now.
    pub fn active(&self) -> bool {
        self.active.load(Ordering::Acquire)
    }

    fn update(&self) {
        let now = self.callback.load(Ordering::Acquire)
            && self.output.load(Ordering::Acquire)
            && self.synchronous.load(Ordering::Acquire);
        if self.active.swap(now, Ordering::AcqRel) != now {
            if now {
                SYNCHRONOUS_DEVICES.fetch_add(1, Ordering::AcqRel);
            } else {
                SYNCHRONOUS_DEVICES.fetch_sub(1, Ordering::AcqRel);
                // What was raised while it was on is the program's still: hand it over now.
                self.drain();
            }
        }
    }

    /// At `glEnable(cap)` (`on`) and `glDisable(cap)`: follows `GL_DEBUG_OUTPUT` and
    /// `GL_DEBUG_OUTPUT_SYNCHRONOUS`; other caps change nothing.
    pub fn set_cap(&self, cap: GLenum, on: bool) {
        let flag = match cap {
            gl::DEBUG_OUTPUT => &self.output,
            gl::DEBUG_OUTPUT_SYNCHRONOUS => &self.synchronous,
            _ => return,
        };
        flag.store(on, Ordering::Release);
        self.update();
    }

    /// After `glDebugMessageCallback`: whether a callback is set, and the GL's state then.
    pub fn installed(&self, callback: bool, output: bool, synchronous: bool) {
        self.callback.store(callback, Ordering::Release);
        self.output.store(output, Ordering::Release);
        self.synchronous.store(synchronous, Ordering::Release);
        self.update();
    }

    /// On the render thread: queues `m` while synchronous, else calls the program's callback.
    pub fn deliver(&self, m: Message) {
        if self.active() {
            self.queue.lock().unwrap_or_else(|e| e.into_inner()).push(m);
        } else {
            m.deliver();
        }
    }

    /// Passes every queued message to the program's callback, on the calling thread.
    pub fn drain(&self) {
        if DELIVERING.with(|d| d.replace(true)) {
            return;
        }
        let messages = std::mem::take(&mut *self.queue.lock().unwrap_or_else(|e| e.into_inner()));
        for m in &messages {
            m.deliver();
        }
        DELIVERING.with(|d| d.set(false));
    }
}

impl Drop for DebugSync {
    fn drop(&mut self) {
        if *self.active.get_mut() {
            SYNCHRONOUS_DEVICES.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// Whether any device of the process is synchronous now (one relaxed load: `call.rs` asks after
/// every entry point).
#[inline(always)]
pub fn any_synchronous() -> bool {
    SYNCHRONOUS_DEVICES.load(Ordering::Relaxed) != 0
}

/// Whether this thread is passing messages to the program's callback now (its calls there get
/// no nested delivery).
pub fn delivering() -> bool {
    DELIVERING.with(|d| d.get())
}
