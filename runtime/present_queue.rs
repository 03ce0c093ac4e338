//! The count of queued and done presents (`present.rs` says why presents are counted), below
//! the device handle that holds it and the present functions that use it.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use crate::Error;

/// The presents queued and done, and the first error of a queued one not yet reported.
#[derive(Default)]
pub(crate) struct PresentQueue {
    state: Mutex<Counts>,
    done: Condvar,
}

impl PresentQueue {
    pub(crate) fn counts(&self) -> MutexGuard<'_, Counts> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a present to be done, at most `timeout`.
    pub(crate) fn wait<'a>(&self, mut c: MutexGuard<'a, Counts>, timeout: Duration) -> MutexGuard<'a, Counts> {
        c.waiters += 1;
        let mut c = self.done.wait_timeout(c, timeout).unwrap_or_else(|e| e.into_inner()).0;
        c.waiters -= 1;
        c
    }
}

#[derive(Default)]
pub(crate) struct Counts {
    pub(crate) queued: u64,
    pub(crate) done: u64,
    pub(crate) error: Option<Error>,
    /// Threads in [`PresentQueue::wait`]: a present wakes them only if there are any (a
    /// `Condvar::notify_all` is a system call even with no one to wake, microseconds in a
    /// sandbox such as gVisor, once a frame).
    waiters: usize,
}

/// Counts its present as done when dropped: after the swap, or unrun.
pub(crate) struct DoneOnDrop {
    queue: Arc<PresentQueue>,
    /// The present's error, if it failed.
    pub(crate) error: Option<Error>,
}

impl DoneOnDrop {
    pub(crate) fn new(queue: Arc<PresentQueue>) -> DoneOnDrop {
        DoneOnDrop { queue, error: None }
    }
}

impl Drop for DoneOnDrop {
    fn drop(&mut self) {
        let mut c = self.queue.counts();
        c.done += 1;
        if c.error.is_none() {
            c.error = self.error.take();
        }
        if c.waiters > 0 {
            self.queue.done.notify_all();
        }
    }
}
