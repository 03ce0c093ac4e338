//! [`SyncHandle`]: glcmd's handle for a GL sync object. (Not named `Sync`, which would hide
//! std's `Sync` trait under `use glcmd::*`.)
//!
//! `glFenceSync` must run at its place in the command stream, but the recording thread needs a
//! handle at once. So `CommandList::fence_sync` returns a `SyncHandle` with a fresh id; when the list
//! replays, the fence is created and the render thread maps the id to the real `GLsync`. Later
//! recorded waits, queries and deletes name the id and are resolved on the render thread.

use std::sync::atomic::{AtomicU32, Ordering};

static NEXT: AtomicU32 = AtomicU32::new(1);

/// A handle to a GL sync object created by a recorded fence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SyncHandle(u32);

impl SyncHandle {
    pub(crate) fn new() -> SyncHandle {
        SyncHandle(NEXT.fetch_add(1, Ordering::Relaxed))
    }

    /// The id carried in packets.
    pub fn id(self) -> u32 {
        self.0
    }

    /// The handle with id `id`, as a foreign caller (the C ABI, which hands `GLsync` values out
    /// as ids) gives it back. Safe: the render thread resolves ids, and one that names no sync
    /// object makes the call fail (a query) or be skipped and reported (a recorded command).
    pub fn from_id(id: u32) -> SyncHandle {
        SyncHandle(id)
    }
}
