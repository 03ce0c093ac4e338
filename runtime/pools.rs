//! Name pools: creates without a round trip.
//!
//! `create_buffers`, `create_textures(target)`, `gen_*` and the other creates of the core object
//! types hand out names from per-device pools (per target where the object has one:
//! `create_textures`, `create_queries`) that the render thread refills ahead of demand. The
//! names are real and immediate, as the design requires: they were made by the GL (created
//! objects, or generated names for the `gen_*` forms), before the caller asked; taking them is
//! a few atomic operations on a lock-free queue. The first create of a kind (and of a target)
//! is a round trip that also starts its pool; a pool running below half full asks the render
//! thread for a refill, which it makes with one GL call between two messages.
//!
//! Pools keep the guarantees creates have:
//!
//! * **Deferred deletes and reuse.** A deleted name can come back from the GL only when a pool
//!   is refilled, which happens on the render thread after the delete ran (at the end of its
//!   frame), exactly as for a create made then.
//! * **Use-after-delete diagnostics.** Names are marked live when the refill makes them; the
//!   binding shadow and the name checks learn them then too.
//! * **Order.** A pooled name exists before the caller asks for it, so every list recorded with
//!   it runs after its creation.
//!
//! Two visible differences from direct GL, documented on the methods: a pool holds up to
//! `POOL_SIZE` objects the application has not asked for yet (empty objects, with no storage),
//! and when two kinds of create share a namespace (`gen_buffers` beside `create_buffers`,
//! textures of different targets), the names each returns differ from a direct sequence, since
//! each pool was filled ahead. A sequence of creates of one kind returns the names direct GL
//! returns.
//!
//! `create_shader` and `create_program` stay round trips: they are made once per shader at load
//! time, not per frame, and a pool per shader type would hold objects for nothing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;

use crossbeam_channel::{Receiver, Sender};

use crate::generated::{types::*, Gl};

/// Names a pool holds when full; it asks for a refill below half of it.
pub const POOL_SIZE: usize = 128;

/// Makes `n` names with the GL (`glCreateTextures(target, n, names)`, `glGenBuffers(n, names)`).
///
/// # Safety
/// `names` points to `n` writable names; `gl` is the current context's table.
pub type MakeNames = unsafe fn(gl: &Gl, target: GLenum, n: GLsizei, names: *mut GLuint);

/// One pool: a create function (by its index in the function table) and target.
pub(crate) struct Pool {
    pub(crate) function: usize,
    pub(crate) target: GLenum,
    pub(crate) class: &'static str,
    pub(crate) created: bool,
    pub(crate) make: MakeNames,
    tx: Sender<GLuint>,
    rx: Receiver<GLuint>,
}

/// The device's pools.
#[derive(Default)]
pub(crate) struct Pools {
    pools: RwLock<Vec<Pool>>,
    /// A pool went below half full since the last refill.
    pub(crate) low: AtomicBool,
}

impl Pools {
    /// Takes up to `n` names from the pool of (`function`, `target`), if it exists. `None`: no
    /// pool yet.
    pub(crate) fn take(&self, function: usize, target: GLenum, n: usize) -> Option<Vec<GLuint>> {
        let pools = self.pools.read().unwrap_or_else(|e| e.into_inner());
        let pool = pools.iter().find(|p| p.function == function && p.target == target)?;
        let mut names = Vec::with_capacity(n);
        while names.len() < n {
            match pool.rx.try_recv() {
                Ok(name) => names.push(name),
                Err(_) => break,
            }
        }
        if pool.rx.len() < POOL_SIZE / 2 {
            self.low.store(true, Ordering::Release);
        }
        Some(names)
    }

    /// Starts the pool of (`function`, `target`) if it does not exist. Render thread.
    pub(crate) fn start(&self, function: usize, target: GLenum, class: &'static str, created: bool, make: MakeNames) {
        let mut pools = self.pools.write().unwrap_or_else(|e| e.into_inner());
        if pools.iter().any(|p| p.function == function && p.target == target) {
            return;
        }
        let (tx, rx) = crossbeam_channel::bounded(POOL_SIZE);
        pools.push(Pool { function, target, class, created, make, tx, rx });
        self.low.store(true, Ordering::Release);
    }

    /// Tops up every pool below half full: one GL call per pool. Render thread. `made` hears
    /// about each batch (class, names, created) so the shadow and the diagnostics learn them.
    pub(crate) fn refill(&self, gl: &Gl, mut made: impl FnMut(&'static str, &[GLuint], bool)) {
        if !self.low.swap(false, Ordering::AcqRel) {
            return;
        }
        let pools = self.pools.read().unwrap_or_else(|e| e.into_inner());
        for pool in pools.iter() {
            let have = pool.rx.len();
            if have >= POOL_SIZE / 2 {
                continue;
            }
            let n = POOL_SIZE - have;
            let mut names = vec![0 as GLuint; n];
            let _r = crate::codec::region(names.as_ptr(), n * 4);
            // SAFETY: `names` holds `n` names; `gl` is this thread's table.
            unsafe { (pool.make)(gl, pool.target, n as GLsizei, names.as_mut_ptr()) };
            if names.contains(&0) {
                // The GL refused (an invalid target): nothing to pool.
                continue;
            }
            made(pool.class, &names, pool.created);
            for name in names {
                if pool.tx.try_send(name).is_err() {
                    break;
                }
            }
        }
    }
}
