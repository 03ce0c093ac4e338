//! Name pools: creates without a round trip.
//!
//! `create_buffers`, `create_textures(target)`, `gen_*` and the other creates of the core object
//! types hand out names from per-device pools (per target where the object has one:
//! `create_textures`, `create_queries`) that the render thread refills ahead of demand. The
//! names are real and immediate, as the design requires: they were made by the GL (created
//! objects, or generated names for the `gen_*` forms), before the caller asked; taking them is
//! a few atomic operations on a lock-free queue. The first create of a kind (and of a target)
//! is a round trip that also starts its pool; a pool running below half full asks the render
//! thread for a refill, which it makes with one GL call between two messages. A pool starts at
//! `POOL_START` names and doubles (up to `POOL_SIZE`, at most once between two refills) when a
//! taker finds it empty, so it settles at what the application creates between two refills; a create that finds it empty
//! is a round trip, as without pools.
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

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

use crossbeam_channel::{Receiver, Sender};

use crate::generated::{types::*, Gl};

/// The most names one pool holds ahead of demand.
pub const POOL_SIZE: usize = 2048;
/// What a pool holds when it starts. A taker that finds it empty (it outran the refills) doubles
/// it, up to [`POOL_SIZE`]: a pool grows to what the application creates between two refills.
pub const POOL_START: usize = 64;
/// Pools a device can have: one per create function and target.
const MAX_POOLS: usize = 64;

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
    /// How many names the refills keep it at.
    want: AtomicUsize,
    /// `want` was doubled since the last refill. A pool grows once per refill, not once per
    /// taker that finds it empty: before the refill arrives, every take finds it empty, and
    /// doubling on each would jump to `POOL_SIZE` on a burst of a few creates.
    grown: AtomicBool,
    tx: Sender<GLuint>,
    rx: Receiver<GLuint>,
}

/// The device's pools: append-only slots, so takers find a pool without a lock (only the render
/// thread adds one, and a slot is published by `len` after it is set).
pub(crate) struct Pools {
    slots: Box<[OnceLock<Pool>]>,
    len: AtomicUsize,
    /// A pool went below half full since the last refill.
    pub(crate) low: AtomicBool,
}

impl Default for Pools {
    fn default() -> Pools {
        Pools {
            slots: (0..MAX_POOLS).map(|_| OnceLock::new()).collect(),
            len: AtomicUsize::new(0),
            low: AtomicBool::new(false),
        }
    }
}

impl Pools {
    fn pools(&self) -> impl Iterator<Item = &Pool> {
        self.slots[..self.len.load(Ordering::Acquire)].iter().filter_map(OnceLock::get)
    }

    fn find(&self, function: usize, target: GLenum) -> Option<&Pool> {
        self.pools().find(|p| p.function == function && p.target == target)
    }

    /// Notes how full `pool` is after a take: below half asks for a refill; empty doubles it.
    fn taken(&self, pool: &Pool, short: bool) {
        let want = pool.want.load(Ordering::Relaxed);
        if short && want < POOL_SIZE && !pool.grown.swap(true, Ordering::AcqRel) {
            pool.want.store((want * 2).min(POOL_SIZE), Ordering::Relaxed);
        }
        if pool.rx.len() < want / 2 {
            self.low.store(true, Ordering::Release);
        }
    }

    /// Takes up to `n` names from the pool of (`function`, `target`), if it exists. `None`: no
    /// pool yet.
    pub(crate) fn take(&self, function: usize, target: GLenum, n: usize) -> Option<Vec<GLuint>> {
        let pool = self.find(function, target)?;
        let mut names = Vec::with_capacity(n);
        while names.len() < n {
            match pool.rx.try_recv() {
                Ok(name) => names.push(name),
                Err(_) => break,
            }
        }
        self.taken(pool, names.len() < n);
        Some(names)
    }

    /// Takes one name, without allocating. `None`: no pool yet, or it is empty.
    pub(crate) fn take_one(&self, function: usize, target: GLenum) -> Option<GLuint> {
        let pool = self.find(function, target)?;
        let name = pool.rx.try_recv().ok();
        self.taken(pool, name.is_none());
        name
    }

    /// Names held by every pool now.
    pub(crate) fn held(&self) -> usize {
        self.pools().map(|p| p.rx.len()).sum()
    }

    /// Starts the pool of (`function`, `target`) if it does not exist. Render thread (the only
    /// writer of the slots).
    pub(crate) fn start(&self, function: usize, target: GLenum, class: &'static str, created: bool, make: MakeNames) {
        if self.find(function, target).is_some() {
            return;
        }
        let len = self.len.load(Ordering::Acquire);
        let Some(slot) = self.slots.get(len) else {
            return; // Every slot is taken: this create stays a round trip.
        };
        let (tx, rx) = crossbeam_channel::bounded(POOL_SIZE);
        let pool = Pool {
            function,
            target,
            class,
            created,
            make,
            want: AtomicUsize::new(POOL_START),
            grown: AtomicBool::new(false),
            tx,
            rx,
        };
        if slot.set(pool).is_ok() {
            self.len.store(len + 1, Ordering::Release);
        }
        self.low.store(true, Ordering::Release);
    }

    /// Tops up every pool below half full: one GL call per pool. Render thread. `made` hears
    /// about each batch (class, names, created) so the shadow and the diagnostics learn them.
    pub(crate) fn refill(&self, gl: &Gl, mut made: impl FnMut(&'static str, &[GLuint], bool)) {
        if !self.low.swap(false, Ordering::AcqRel) {
            return;
        }
        for pool in self.pools() {
            pool.grown.store(false, Ordering::Release);
            let (have, want) = (pool.rx.len(), pool.want.load(Ordering::Relaxed));
            if have >= want / 2 {
                continue;
            }
            let n = want - have;
            let mut names = vec![0 as GLuint; n];
            let _r = crate::arguments::region(names.as_ptr(), n * 4);
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
