//! The buffer names a device knows to exist, for the recording side: whether a recorded
//! `glBindBuffer(GL_PIXEL_UNPACK_BUFFER, n)` will be accepted decides what the pointer of the
//! next pixel transfer means (an offset into that buffer, or client memory), and a list must
//! decide it when it records, long before the GL sees the bind (`pixels.rs`, "Bindings").
//!
//! In the core profile the GL accepts a bind of 0 and of a name its `glGenBuffers` or
//! `glCreateBuffers` made that has not been deleted since; it refuses every other name (never
//! generated, or deleted) with `GL_INVALID_OPERATION` and keeps the binding it had. Every such
//! name of a device is made on its render thread (a pool refill or a create's round trip,
//! `pools.rs`, `pooled_create.rs`), which enters it here before the name can reach a caller; a
//! recorded `glDeleteBuffers` takes its names out when it is recorded (the GL refuses to bind them
//! from that place in the stream on). A name the GL makes again after its delete ran is entered
//! again by the create that makes it.
//!
//! So "in the set" proves the bind will be accepted, for every name made through glcmd. A name
//! not in the set is not proof of the opposite: a `Device::with_gl` closure can make names
//! behind glcmd's back. The tracking therefore marks such a bind *unsure* instead of guessing;
//! an immediate C thread asks the GL then (`capi/src/immediate.rs`), and until it does the pointer
//! is taken as an offset, which the render thread checks against the real binding before the GL
//! sees it (an offset is never read as client memory).

use std::collections::HashSet;
use std::sync::Mutex;

/// The buffer names of one device that exist (see the module doc).
#[derive(Debug, Default)]
pub struct BufferNames {
    names: Mutex<HashSet<u32>>,
}

impl BufferNames {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<u32>> {
        self.names.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Names the GL made (render thread, before they are handed out).
    pub(crate) fn made(&self, names: &[u32]) {
        self.lock().extend(names.iter().copied().filter(|&n| n != 0));
    }

    /// Names a recorded delete names: from there on a bind of them is refused.
    pub(crate) fn deleted(&self, names: &[u32]) {
        let mut set = self.lock();
        for n in names {
            set.remove(n);
        }
    }

    /// Whether a bind of `name` is sure to be accepted (0 always is).
    pub(crate) fn exists(&self, name: u32) -> bool {
        name == 0 || self.lock().contains(&name)
    }
}
