//! The registry of open frames, shared by the application's threads (which begin frames,
//! claim and submit slots) and the render thread (which reads it to tell a wait that only the
//! calling thread could end from one that depends on another thread). It sits below both the
//! device handle and `frame.rs`, which fill it, and the render loop, which reads it.

use std::thread::ThreadId;

/// Frames begun and not yet dropped, with the thread that began each, how many slots were
/// submitted, and the claims: what the render thread consults to tell a wait that only the
/// caller could end from one that depends on another thread. Flat vectors, reused, so a
/// steady-state frame allocates nothing.
#[derive(Default)]
pub(crate) struct OpenFrames {
    frames: Vec<OpenFrame>,
    /// (frame, slot, thread) of claimed, unsubmitted slots.
    claims: Vec<(u64, u32, ThreadId)>,
    /// (frame, slot) of slots submitted in open frames: the render thread may not have seen the
    /// submit yet when a lookup on the submitting thread reads its stall, which then names a
    /// slot that is on its way, not owed.
    sent: Vec<(u64, u32)>,
}

struct OpenFrame {
    frame: u64,
    thread: ThreadId,
}

impl OpenFrames {
    pub(crate) fn begin(&mut self, frame: u64) {
        self.frames.push(OpenFrame { frame, thread: std::thread::current().id() });
    }

    pub(crate) fn claim(&mut self, frame: u64, slot: u32) {
        self.claims.push((frame, slot, std::thread::current().id()));
    }

    pub(crate) fn submitted(&mut self, frame: u64, slot: u32) {
        self.claims.retain(|&(f, s, _)| (f, s) != (frame, slot));
        if self.frames.iter().any(|f| f.frame == frame) {
            self.sent.push((frame, slot));
        }
    }

    pub(crate) fn close(&mut self, frame: u64) {
        self.frames.retain(|f| f.frame != frame);
        self.claims.retain(|&(f, _, _)| f != frame);
        self.sent.retain(|&(f, _)| f != frame);
    }

    /// Gives a frame up (rule 4) unless one of its `missing` slots was submitted and is on its
    /// way to the render thread: false then (the list arrives next, nothing is given up).
    pub(crate) fn abandon(&mut self, frame: u64, missing: &[u32]) -> bool {
        if self.sent.iter().any(|&(f, s)| f == frame && missing.contains(&s)) {
            return false;
        }
        self.close(frame);
        true
    }

    /// The frame was begun and has neither been dropped nor given up.
    pub(crate) fn is_open(&self, frame: u64) -> bool {
        self.frames.iter().any(|f| f.frame == frame)
    }

    /// Who owes an unsubmitted slot, as far as glcmd can tell: `Some(reason)` if only `thread`
    /// can end a wait for it.
    pub(crate) fn owed_by(&self, frame: u64, slot: u32, thread: ThreadId) -> Option<&'static str> {
        if self.sent.contains(&(frame, slot)) {
            return None;
        }
        if let Some(&(_, _, t)) = self.claims.iter().find(|&&(f, s, _)| (f, s) == (frame, slot)) {
            return (t == thread).then_some("this thread claimed (Frame::list) and has not submitted");
        }
        self.frames
            .iter()
            .any(|f| f.frame == frame && f.thread == thread)
            .then_some("is unsubmitted in a frame this thread began and still holds open (drop the Frame to skip it)")
    }

    /// The oldest open frame, if any.
    pub(crate) fn oldest(&self) -> Option<u64> {
        self.frames.iter().map(|f| f.frame).min()
    }
}
