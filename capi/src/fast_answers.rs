//! Answers at the driver's cost: program interface lookups (`glGetUniformLocation` and its kin)
//! from the calling thread's copy of the interface cache, and `glGetIntegerv` and `glIsEnabled`
//! of limits and of state an immediate thread set itself, before the generic entry point runs.
//!
//! A renderer in LearnOpenGL's style looks a uniform up before every `glUniform*`; the driver
//! answers in about 17 ns on the GPU machine. The generic entry point (`call::round_trip`: the
//! panic guard, the thread's mode, the device handle cloned, round trips refused and counted,
//! the answer converted) cost about 870 instructions for an answer the thread's copy
//! (`glcmd::Device::recent_lookup`) gives in about a hundred. The generated lookup entry points
//! ask [`recent`] first; it answers only where the generic path would give the same answer and
//! do nothing else:
//!
//! * the name is not NULL (else the generic path substitutes it), and the copy holds it (only
//!   UTF-8 names are ever held: any other misses, and the generic path refuses it);
//! * no device delivers debug messages synchronously (the generic path waits for replay and
//!   delivers them after every call: `debug_sync.rs`);
//! * an immediate thread has no program delete pending in its list (the generic path submits
//!   it and waits for it to run);
//! * the thread has a device that was not destroyed, and the device answers from the copy
//!   (capture off; the copy stamped with the cache's current epoch, so a relink, a delete or a
//!   link not yet replayed is seen exactly as the shared cache sees it).
//!
//! `glGetIntegerv` and `glIsEnabled` ([`integerv`], [`is_enabled`]) likewise: an immediate thread
//! (whose queries the recorded state answers), no synchronous debug output, an output that is
//! not NULL (the generic path leaves that to the GL), and the device's answer from the limits
//! cache or the recorded state (capture off). Dear ImGui's OpenGL 3 backend asks 25 of them a
//! frame; the generic path cost about 950 instructions each for these answers.
//!
//! Nothing here can panic (borrows are tried, locks' poison is ignored as everywhere in the
//! ABI), so no guard is needed between C and this code.

use std::ffi::CStr;

use glcmd::programs::Lookup;
use glcmd::types::{GLchar, GLenum, GLint, GLuint};

use crate::current::THREAD;

/// The answer of lookup `lookup` of `name` in `program` from the calling thread's copy, if the
/// generic entry point would give exactly it; `None`: take the generic path.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string, as the GL requires of the lookups' name argument
/// (the generic path reads it the same way).
#[inline]
pub unsafe fn recent(lookup: Lookup, aux: u32, program: GLuint, name: *const GLchar) -> Option<i64> {
    if name.is_null() || crate::debug_sync::any_synchronous() {
        return None;
    }
    // SAFETY: the caller's contract. Not validated as UTF-8: only UTF-8 names are held, so any
    // other misses, and the generic path refuses it.
    let name = unsafe { CStr::from_ptr(name) }.to_bytes();
    THREAD
        .try_with(|t| {
            let t = t.try_borrow().ok()?;
            if t.immediate && t.recording.as_ref().is_some_and(|r| r.list.deletes_programs()) {
                // Its program deletes must be submitted first (`immediate::ask`).
                return None;
            }
            t.device.as_ref()?.with_device(|d| d.recent_lookup(lookup, aux, program, name))?
        })
        .ok()?
}

/// `f` of the calling thread's device, if the thread is immediate, no device delivers debug
/// messages synchronously, and the device was not destroyed.
#[inline]
fn immediate_device<R>(f: impl FnOnce(&glcmd::Device) -> Option<R>) -> Option<R> {
    if crate::debug_sync::any_synchronous() {
        return None;
    }
    THREAD
        .try_with(|t| {
            let t = t.try_borrow().ok()?;
            if !t.immediate {
                return None;
            }
            t.device.as_ref()?.with_device(f)?
        })
        .ok()?
}

/// `glGetIntegerv(pname, data)` answered here: true if `data` was written.
///
/// # Safety
/// `data` is NULL or has room for the values `pname` yields, as the GL requires.
#[inline]
pub unsafe fn integerv(pname: GLenum, data: *mut GLint) -> bool {
    if data.is_null() {
        return false;
    }
    // SAFETY: the caller's contract; `v` holds what the GL writes for `pname`.
    let write = |v: &[GLint]| unsafe { crate::conv::write_slice(data, v) };
    immediate_device(|d| glcmd::recorded_state::answering(|| d.known_integerv(pname, write).then_some(()))).is_some()
}

/// `glIsEnabled(cap)` answered here.
#[inline]
pub fn is_enabled(cap: GLenum) -> Option<bool> {
    immediate_device(|d| glcmd::recorded_state::answering(|| d.known_is_enabled(cap)))
}
