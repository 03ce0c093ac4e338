//! The calling thread's copy of the program interface answers it used last: a cached lookup at
//! the cost of a hash probe, with no lock.
//!
//! The program interface cache (`programs.rs`) is shared by every thread of a device, behind a
//! mutex: a lookup there is a lock, two probes and an unlock, about 75 ns on the GPU machine
//! where the driver answers `glGetUniformLocation` in about 17 ns. A renderer in LearnOpenGL's
//! style looks a location up before every `glUniform*` call, so that difference is paid per
//! uniform. This room keeps, per thread, the answers that thread was given, stamped with the
//! cache's **epoch**: a counter the cache bumps (under its lock) on every change that could change
//! an answer or whether a lookup may answer at once (a link recorded, submitted, replayed or
//! skipped, a program deleted or its name handed out again). While the epoch is unchanged the
//! shared cache is exactly as it was when the answer was given, so the same lookup would give the
//! same answer without waiting: the copy may give it. A changed epoch, another device, or a name
//! not held sends the lookup to the shared cache, whose answer is copied here with the epoch read
//! under its lock.
//!
//! What it protects against: a stale answer. An answer is never kept across an epoch change, so
//! a relink, a delete or a pending link is seen exactly as the shared cache sees it. Bounded:
//! past [`KEPT`] names the copy starts again.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::generated::types::GLuint;
use crate::vocab::hash::FastHash;

/// What a lookup asks, as the cache keys it: the lookup function (`programs::Lookup` as its
/// `u8`, so this room need not import the cache above it), its auxiliary argument, and the name's
/// bytes (a C caller's name is looked up unvalidated: only UTF-8 names are ever kept, so any
/// other misses and takes the path that refuses it).
pub type Key<'a> = (u8, u32, &'a [u8]);

/// Names a thread's copy keeps before it starts again.
pub const KEPT: usize = 4096;

type ByName = HashMap<Box<[u8]>, i64, FastHash>;

#[derive(Default)]
struct Recent {
    /// The cache these answers came from (`Programs::id`) and its epoch then.
    owner: u64,
    epoch: u64,
    answers: HashMap<(GLuint, u8, u32), ByName, FastHash>,
    names: usize,
}

thread_local! {
    static RECENT: RefCell<Recent> = RefCell::new(Recent::default());
}

/// The answer this thread was given for `key` of `program` by cache `owner` at `epoch`, if it
/// was given at that very epoch.
#[inline]
pub fn get(owner: u64, epoch: u64, program: GLuint, key: Key) -> Option<i64> {
    RECENT
        .try_with(|r| {
            let r = r.borrow();
            if r.owner != owner || r.epoch != epoch {
                return None;
            }
            r.answers.get(&(program, key.0, key.1))?.get(key.2).copied()
        })
        .ok()
        .flatten()
}

/// Keeps an answer cache `owner` gave at `epoch` (read under its lock).
pub fn keep(owner: u64, epoch: u64, program: GLuint, key: Key, value: i64) {
    let _ = RECENT.try_with(|r| {
        let mut r = r.borrow_mut();
        if r.owner != owner || r.epoch != epoch || r.names >= KEPT {
            r.answers.clear();
            r.names = 0;
            r.owner = owner;
            r.epoch = epoch;
        }
        let by_name = r.answers.entry((program, key.0, key.1)).or_default();
        if by_name.insert(key.2.into(), value).is_none() {
            r.names += 1;
        }
    });
}
