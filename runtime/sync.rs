//! [`SyncHandle`]: glcmd's handle for a GL sync object. (Not named `Sync`, which would hide
//! std's `Sync` trait under `use glcmd::*`.)
//!
//! `glFenceSync` must run at its place in the command stream, but the recording thread needs a
//! handle at once. So `CommandList::fence_sync` returns a `SyncHandle` with a fresh id; when the list
//! replays, the fence is created and the render thread maps the id to the real `GLsync`. Later
//! recorded waits, queries and deletes name the id and are resolved on the render thread.
//!
//! A fence the GL refuses returns 0 from the GL (a condition other than
//! `GL_SYNC_GPU_COMMANDS_COMPLETE`: `GL_INVALID_ENUM`; flags other than 0: `GL_INVALID_VALUE`,
//! GL 4.6 §4.1). Those are the only arguments, so the recording thread knows the answer at once:
//! such a fence is still recorded (the GL raises its error at the fence's place in the stream)
//! but its handle is the null handle (id 0), which the program sees as the GL's 0, and which
//! every later use resolves to the null `GLsync`, as the GL's 0 would be.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::generated::{
    enums as gl,
    types::{GLbitfield, GLenum},
};

static NEXT: AtomicU32 = AtomicU32::new(1);

/// A handle to a GL sync object created by a recorded fence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SyncHandle(u32);

impl SyncHandle {
    pub(crate) fn new() -> SyncHandle {
        SyncHandle(NEXT.fetch_add(1, Ordering::Relaxed))
    }

    /// The handle of a recorded `glFenceSync(condition, flags)`: a fresh one, or the null handle
    /// where the GL refuses the fence and returns 0 (see the module's essay).
    pub(crate) fn for_fence(condition: GLenum, flags: GLbitfield) -> SyncHandle {
        if condition == gl::SYNC_GPU_COMMANDS_COMPLETE && flags == 0 {
            SyncHandle::new()
        } else {
            SyncHandle::NULL
        }
    }

    /// The null handle: the GL's 0, naming no sync object.
    pub const NULL: SyncHandle = SyncHandle(0);

    /// Whether this is the null handle (a refused fence's).
    pub fn is_null(self) -> bool {
        self.0 == 0
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
