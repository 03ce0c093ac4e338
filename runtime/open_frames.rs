//! The registry of open frames, shared by the application's threads (which begin frames,
//! claim and submit slots) and the render thread (which reads it to tell a wait that only the
//! calling thread could end from one that depends on another thread). It sits below both the
//! device handle and `frame.rs`, which fill it, and the render loop, which reads it.

use std::sync::Weak;
use std::thread::ThreadId;

use crate::list::Hold;

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
    /// The holds of this device's lists (`CommandList::hold`): which thread holds an unsubmitted,
    /// unclaimed list. One entry per list object (lists keep their hold across the pool).
    held: Vec<Weak<std::sync::Mutex<Option<ThreadId>>>>,
}

struct OpenFrame {
    frame: u64,
    thread: ThreadId,
    /// Another thread has claimed or submitted a slot of it: the frame was handed out (through
    /// an `Arc` or to scoped threads), and the thread that began it no longer holds its slots.
    shared: bool,
}

impl OpenFrames {
    pub(crate) fn begin(&mut self, frame: u64) {
        self.frames.push(OpenFrame { frame, thread: std::thread::current().id(), shared: false });
    }

    pub(crate) fn claim(&mut self, frame: u64, slot: u32) {
        self.touch(frame);
        self.claims.push((frame, slot, std::thread::current().id()));
    }

    /// A thread claims or submits a slot of `frame`: if it is not the thread that began the
    /// frame, the frame has been handed out.
    fn touch(&mut self, frame: u64) {
        let me = std::thread::current().id();
        if let Some(f) = self.frames.iter_mut().find(|f| f.frame == frame && f.thread != me) {
            f.shared = true;
        }
    }

    /// Registers a list's hold (once per list object), forgetting the holds of dropped lists.
    pub(crate) fn register_hold(&mut self, hold: &Hold) {
        self.held.retain(|h| h.strong_count() > 0);
        self.held.push(std::sync::Arc::downgrade(hold));
    }

    /// Whether `thread` holds an unsubmitted, unclaimed list of this device.
    fn holds_list(&self, thread: ThreadId) -> bool {
        self.held.iter().filter_map(Weak::upgrade).any(|h| *h.lock().unwrap_or_else(|e| e.into_inner()) == Some(thread))
    }

    pub(crate) fn submitted(&mut self, frame: u64, slot: u32) {
        self.touch(frame);
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

    /// Who owes an unsubmitted slot, as far as glcmd can tell: `Some(reason)` if `thread` may be
    /// the only one that can end a wait for it. A claimed slot is owed by the claiming thread;
    /// an unclaimed one by the thread that began the frame while it has not handed the frame
    /// out, and otherwise possibly by any thread that holds an unsubmitted, unclaimed list
    /// (`Device::command_list`): glcmd cannot tell which slot such a list is for, and waiting
    /// for a list the waiting thread holds would last until the wait limit.
    pub(crate) fn owed_by(&self, frame: u64, slot: u32, thread: ThreadId) -> Option<&'static str> {
        if self.sent.contains(&(frame, slot)) {
            return None;
        }
        if let Some(&(_, _, t)) = self.claims.iter().find(|&&(f, s, _)| (f, s) == (frame, slot)) {
            return (t == thread).then_some("this thread claimed (Frame::list) and has not submitted");
        }
        let open = self.frames.iter().find(|f| f.frame == frame)?;
        if open.thread == thread && !open.shared {
            return Some(
                "is unsubmitted in a frame this thread began and still holds open (drop the Frame to skip it)",
            );
        }
        self.holds_list(thread).then_some(
            "is unclaimed, and this thread holds an unsubmitted list that may be meant for it: submit that list \
             first, or make it claimed for its slot (Frame::list) so that other threads' slots are waited for",
        )
    }

    /// The oldest open frame, if any.
    pub(crate) fn oldest(&self) -> Option<u64> {
        self.frames.iter().map(|f| f.frame).min()
    }
}
