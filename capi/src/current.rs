//! The calling thread's current list and device: what a GL entry point records into and
//! queries through.
//!
//! C engines call `glBindTexture(...)` with no list argument, so the list is thread-local, as a
//! GL context is current on a thread: `glcmdListBegin` makes one current, `glcmdListSubmit` /
//! `glcmdSubmit` / `glcmdListDiscard` end it. The device stays current after the list ends, so
//! the thread can go on creating and querying (`glcmdDeviceMakeCurrent` makes one current
//! without a list). An immediate thread (`immediate.rs`, `glcmdThreadMakeImmediate`) always has
//! its implicit list current, and refuses the explicit list functions.
//!
//! The state is a `RefCell` in a `const`-initialised thread local: a recording entry point costs
//! the TLS access and the borrow flag over the Rust method. No entry point calls back into C
//! while the cell is borrowed (the error callback runs after), so a borrow never fails but in a
//! thread-local destructor, where it is an error like any other.

use std::cell::RefCell;
use std::sync::Arc;

use glcmd::CommandList;

use crate::error::CallError;
use crate::handles::DeviceEntry;
use crate::recording::Recording;
use crate::types::{GLCMD_ERROR_INTERNAL, GLCMD_ERROR_LIST_ACTIVE};

pub struct Thread {
    pub device: Option<Arc<DeviceEntry>>,
    pub recording: Option<Recording>,
    /// The thread is immediate on `device`: `recording` is its implicit list, always present.
    pub immediate: bool,
    /// Counts the times the thread became immediate or left it (`immediate::make_immediate`):
    /// what it knows of its context's state from its own calls (`elements.rs`) holds only
    /// within one epoch, since other threads may have had the context in between.
    pub epoch: u64,
    /// When an immediate thread's implicit list is submitted for size (`immediate.rs`).
    pub hand_overs: glcmd::HandOvers,
    /// What the immediate thread knows of its errors (glcmd's `known_errors.rs`), from its first
    /// `glGetError` on its device on.
    pub known_errors: Option<Box<glcmd::known_errors::KnownErrors>>,
}

/// An immediate thread that exits submits the calls it has pending (as `glFlush` would): a GL
/// context runs every call it was given. Nothing waits; a failure is dropped with the thread.
impl Drop for Thread {
    fn drop(&mut self) {
        if !self.immediate {
            return;
        }
        let (Some(entry), Some(recording)) = (self.device.take(), self.recording.take()) else { return };
        if recording.list.is_empty() {
            return;
        }
        // Thread-local destruction: a panic must not leave this function (it would abort).
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if let Ok(device) = entry.device("thread exit") {
                let _ = device.submit(recording.list);
            }
        }));
    }
}

thread_local! {
    pub static THREAD: RefCell<Thread> =
        const { RefCell::new(Thread {
            device: None,
            recording: None,
            immediate: false,
            epoch: 0,
            hand_overs: glcmd::HandOvers::new(),
            known_errors: None,
        }) };
}

fn gone(function: &str) -> CallError {
    CallError::new(
        GLCMD_ERROR_INTERNAL,
        format!("{function}: called while this thread is exiting (its thread-local state is gone)"),
    )
}

/// Runs `f` with the thread's state.
pub fn with_thread<R>(function: &str, f: impl FnOnce(&mut Thread) -> Result<R, CallError>) -> Result<R, CallError> {
    THREAD
        .try_with(|t| match t.try_borrow_mut() {
            Ok(mut t) => f(&mut t),
            Err(_) => Err(gone(function)),
        })
        .unwrap_or_else(|_| Err(gone(function)))
}

/// Fails if a list is current.
pub fn check_free(function: &str) -> Result<(), CallError> {
    with_thread(function, |t| match &t.recording {
        Some(_) => Err(active(function, t.immediate)),
        None => Ok(()),
    })
}

fn active(function: &str, immediate: bool) -> CallError {
    if immediate {
        return explicit_refused(function);
    }
    CallError::new(
        GLCMD_ERROR_LIST_ACTIVE,
        format!("{function}: a list is already current on this thread; submit it (glcmdListSubmit, glcmdSubmit) or discard it (glcmdListDiscard) first"),
    )
}

/// The rule for explicit list functions on an immediate thread.
pub fn explicit_refused(function: &str) -> CallError {
    CallError::new(
        GLCMD_ERROR_LIST_ACTIVE,
        format!(
            "{function}: this thread is immediate (glcmdThreadMakeImmediate): its GL calls record into an implicit \
             list that glcmd submits for it (glFlush submits now); call glcmdThreadMakeImmediate(NULL) first to use \
             explicit lists on it"
        ),
    )
}

/// Makes `recording` current, with its device.
pub fn begin(function: &str, device: Arc<DeviceEntry>, recording: Recording) -> Result<(), CallError> {
    with_thread(function, |t| {
        if t.recording.is_some() {
            return Err(active(function, t.immediate));
        }
        t.device = Some(device);
        t.recording = Some(recording);
        Ok(())
    })
}

/// Makes a device current (or none).
pub fn make_current(function: &str, device: Option<Arc<DeviceEntry>>) -> Result<(), CallError> {
    with_thread(function, |t| {
        let same = match (&t.device, &device) {
            (Some(a), Some(b)) => a.id == b.id,
            _ => false,
        };
        if t.immediate && !same {
            return Err(explicit_refused(function));
        }
        if t.recording.is_some() && !same {
            return Err(CallError::new(
                GLCMD_ERROR_LIST_ACTIVE,
                format!("{function}: a list of another device is current on this thread; submit or discard it first"),
            ));
        }
        t.device = device;
        Ok(())
    })
}

/// Takes the current list (the device stays current). Refused on an immediate thread (its
/// implicit list is submitted for it).
pub fn take(function: &str) -> Result<Recording, CallError> {
    with_thread(function, |t| {
        if t.immediate {
            return Err(explicit_refused(function));
        }
        t.recording.take().ok_or_else(|| CallError::no_list(function))
    })
}

/// Submits the current list with `submit`; a refused submit puts the list back, unchanged, as
/// the thread's current list (with its pixel-store state), so nothing recorded is lost.
pub fn submit(
    function: &'static str,
    submit: impl FnOnce(CommandList) -> Result<(), glcmd::SubmitError>,
) -> Result<(), CallError> {
    let mut recording = take(function)?;
    let list = std::mem::take(&mut recording.list);
    let Err(refused) = submit(list) else { return Ok(()) };
    let (error, list) = refused.into_parts();
    recording.list = list;
    // Nothing ran on this thread in between that could have made another list current.
    with_thread(function, |t| {
        t.recording = Some(recording);
        Ok(())
    })?;
    Err(CallError::from_glcmd(function, error))
}

/// Runs `f` on the current list.
pub fn with_recording<R>(function: &str, f: impl FnOnce(&mut Recording) -> R) -> Result<R, CallError> {
    with_thread(function, |t| match t.recording.as_mut() {
        Some(r) => Ok(f(r)),
        None => Err(CallError::no_list(function)),
    })
}

/// Drops the current list, if any; on an immediate thread, the calls its implicit list holds
/// (the list stays, empty, with its pixel state).
pub fn discard() {
    let list = THREAD
        .try_with(|t| {
            t.try_borrow_mut().ok().and_then(|mut t| {
                if !t.immediate {
                    return t.recording.take().map(|r| r.list);
                }
                let mut fresh = t.device.as_ref()?.device("glcmdListDiscard").ok()?.command_list();
                fresh.track_sites(false);
                if let Some(known) = t.known_errors.as_mut() {
                    known.discarded();
                }
                let r = t.recording.as_mut()?;
                fresh.carry_pixel_state(&r.list);
                Some(std::mem::replace(&mut r.list, fresh))
            })
        })
        .ok()
        .flatten();
    drop(list);
}

/// The current device entry.
pub fn device_entry(function: &str) -> Result<Arc<DeviceEntry>, CallError> {
    with_thread(function, |t| t.device.clone().ok_or_else(|| CallError::no_device(function)))
}

/// Runs `f` with the current list, if one is current (for tests and benchmarks: a dump of what
/// the entry points recorded).
#[doc(hidden)]
pub fn inspect_list<R>(f: impl FnOnce(&CommandList) -> R) -> Option<R> {
    THREAD.try_with(|t| t.try_borrow().ok().and_then(|t| t.recording.as_ref().map(|r| f(&r.list)))).ok().flatten()
}

/// Makes a list that belongs to no device current on this thread (for benchmarks: recording
/// needs no device; such a list can only be discarded). False if a list is current already.
#[doc(hidden)]
pub fn begin_detached() -> bool {
    with_thread("begin_detached", |t| {
        if t.recording.is_some() {
            return Ok(false);
        }
        t.recording = Some(Recording::new(CommandList::new()));
        Ok(true)
    })
    .unwrap_or(false)
}

/// Runs `f` on the current list, mutably (benchmarks empty it between batches).
#[doc(hidden)]
pub fn with_list_mut<R>(f: impl FnOnce(&mut CommandList) -> R) -> Option<R> {
    with_thread("with_list_mut", |t| Ok(t.recording.as_mut().map(|r| f(&mut r.list)))).ok().flatten()
}

/// In a child process made by `fork`, forgets the calling thread's device and list without
/// submitting or dropping them: the device's render thread is not in the child (`fork` copies
/// only the calling thread), so a submit at this thread's exit would reach a queue no thread
/// serves, and dropping the device would join a thread that does not exist. The memory stays
/// where it is (the child's copy of the parent's); the thread is then on no device.
pub fn forget_after_fork() {
    let _ = THREAD.try_with(|t| {
        if let Ok(mut t) = t.try_borrow_mut() {
            std::mem::forget(t.device.take());
            std::mem::forget(t.recording.take());
            t.immediate = false;
        }
    });
}
