//! What every generated entry point calls: the boundary between C and the Rust API.
//!
//! * [`record`] runs a recording closure on the thread's current list (on an immediate thread,
//!   its implicit list, submitted once it passes a size: `immediate.rs`);
//! * [`round_trip`] runs a create or query closure with the thread's current device, as the
//!   thread's style requires (`immediate::ask`: an immediate thread submits its pending calls
//!   first where the answer needs them; a thread with an unsubmitted explicit list gets an error
//!   instead of a stale answer);
//! * [`unsupported`] reports a function the C ABI cannot call.
//!
//! Each catches panics (`catch_unwind`: a Rust panic never unwinds into C, with or without
//! `panic = "abort"`), and turns a failure into the thread's last error, the error callback and
//! a pending GL error (`error.rs`). Nothing here allocates on the success path.

use std::panic::{catch_unwind, AssertUnwindSafe};

use glcmd::Device;

use crate::current::THREAD;
use crate::error::{self, CallError};
use crate::recording::Recording;

/// Runs `body` on the calling thread's current list.
#[inline(always)]
pub fn record(function: &'static str, body: impl FnOnce(&mut Recording) -> Result<(), CallError>) {
    let result = catch_unwind(AssertUnwindSafe(|| {
        THREAD
            .try_with(|t| match t.try_borrow_mut() {
                Ok(mut t) => match t.recording.as_mut() {
                    Some(recording) => {
                        body(recording)?;
                        crate::immediate::after_record(&mut t, function)
                    }
                    None => Err(CallError::no_list(function)),
                },
                Err(_) => Err(CallError::no_list(function)),
            })
            .unwrap_or_else(|_| Err(CallError::no_list(function)))
    }));
    match result {
        Ok(Ok(())) => {}
        Ok(Err(e)) => fail(function, e),
        Err(payload) => fail(function, CallError::panicked(function, payload)),
    }
    after_call(function);
}

/// Raises an entry point's failure; on an immediate thread, after the errors of its earlier
/// calls (`immediate::collect_errors`).
#[cold]
fn fail(function: &'static str, e: CallError) {
    crate::immediate::collect_errors(function);
    error::fail_gl(function, e);
}

/// Like [`record`], for a recording entry point that returns a value (`glFenceSync`).
pub fn record_value<R>(
    function: &'static str,
    default: R,
    body: impl FnOnce(&mut Recording) -> Result<R, CallError>,
) -> R {
    let result = catch_unwind(AssertUnwindSafe(|| {
        crate::current::with_thread(function, |t| match t.recording.as_mut() {
            Some(recording) => {
                let v = body(recording)?;
                crate::immediate::after_record(t, function)?;
                Ok(v)
            }
            None => Err(CallError::no_list(function)),
        })
    }));
    settle(function, default, result)
}

/// Runs `body` with the calling thread's current device (`immediate::ask`: it may run twice,
/// first with round trips refused); returns `default` if it fails.
#[inline]
pub fn round_trip<R>(function: &'static str, default: R, body: impl Fn(&Device) -> Result<R, CallError>) -> R {
    let result = catch_unwind(AssertUnwindSafe(|| crate::immediate::ask(function, body)));
    settle(function, default, result)
}

/// On an immediate thread, waits until the render thread has replayed every call the thread made
/// (its pending calls are submitted first): for a call outside GL that reads GL objects as the
/// driver has them (`eglCreateImage` of a texture or renderbuffer). Nothing elsewhere.
pub fn wait_replayed(function: &'static str) {
    if crate::immediate::is_immediate() {
        round_trip(function, (), |d| crate::conv::checked(function, d.with_gl(|_| ())));
    }
}

/// The answer of an entry point: the body's value, or `default` after raising its error (or
/// the panic it caught) as the GL error and through the error callback. No panic crosses into C.
fn settle<R>(function: &'static str, default: R, result: std::thread::Result<Result<R, CallError>>) -> R {
    let answer = match result {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            fail(function, e);
            default
        }
        Err(payload) => {
            fail(function, CallError::panicked(function, payload));
            default
        }
    };
    after_call(function);
    answer
}

/// Reports a function the C ABI cannot call.
#[cold]
pub fn unsupported(function: &'static str, reason: &str) {
    error::fail_gl(function, CallError::unsupported(function, reason));
}

/// Whether the thread's current list has bound a pixel-pack buffer (so a pixel read writes into
/// it, and is recorded, instead of a round trip into client memory).
#[inline]
pub fn pack_buffer_bound() -> bool {
    THREAD
        .try_with(|t| t.try_borrow().ok().and_then(|t| t.recording.as_ref().map(|r| r.list.pixel_state().pack_buffer)))
        .ok()
        .flatten()
        .unwrap_or(false)
}

/// At `glEnable(cap)` (`on`) and `glDisable(cap)`, before they are recorded: the program's
/// debug-output state of the calling thread's device (`debug_sync.rs`).
pub fn debug_cap(function: &'static str, cap: glcmd::generated::types::GLenum, on: bool) {
    if cap != glcmd::gl::DEBUG_OUTPUT && cap != glcmd::gl::DEBUG_OUTPUT_SYNCHRONOUS {
        return;
    }
    if let Ok(entry) = crate::current::device_entry(function) {
        entry.debug.set_cap(cap, on);
    }
}

/// After every entry point: while the thread's device is synchronous, an immediate thread waits
/// for its calls to replay, and the messages they raised reach the program's callback on this
/// thread (`debug_sync.rs`).
#[inline(always)]
fn after_call(function: &'static str) {
    if crate::debug_sync::any_synchronous() {
        synchronize(function);
    }
}

#[cold]
fn synchronize(function: &'static str) {
    if crate::debug_sync::delivering() {
        return;
    }
    let Ok(entry) = crate::current::device_entry(function) else { return };
    if !entry.debug.active() {
        return;
    }
    if crate::immediate::is_immediate() && crate::immediate::flush(function).is_ok() {
        if let Ok(device) = entry.device(function) {
            // A failure here (the device lost) leaves the messages queued; the entry point has
            // already raised whatever it had to.
            let _ = device.sync_point();
        }
    }
    entry.debug.drain();
}
