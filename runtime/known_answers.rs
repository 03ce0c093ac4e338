//! Answers without a round trip: query results and fence states the render thread has seen.
//!
//! A program that reads a timer query a few frames after it ended (mpv keeps a ring of them),
//! or waits on the fence of the frame before last to bound its swap chain (mpv, most engines),
//! asks about work the render thread replayed long ago. A round trip would still hand the
//! thread's pending calls over and wait behind everything submitted since, so the program's
//! thread and the render thread take turns instead of overlapping (issue 35 item 5, issue 31).
//! The render thread therefore notes, after each list it replays, what it can learn cheaply and
//! exactly, and the recording side answers from that when nothing recorded since can have
//! changed the answer:
//!
//! * **Fences.** A fence the render thread created is polled (`GL_SYNC_STATUS`) after each list
//!   until it is signalled; a signalled sync stays signalled (GL 4.6 §4.1), so from then on
//!   `glClientWaitSync` on it answers `GL_ALREADY_SIGNALED` at once. A recorded `glDeleteSync`
//!   leaves a tombstone at once (from that place in the stream on the sync is no sync object,
//!   and the GL's error is the round trip's to give), which the delete's replay removes.
//! * **Query objects.** When a `glEndQuery` replays, the render thread notes which query it
//!   ended (`GL_CURRENT_QUERY` of the target, asked before the end); a `glQueryCounter` the GL
//!   accepted is noted the same way. Noted queries are polled (`GL_QUERY_RESULT_AVAILABLE`) after
//!   each list, and an available result is kept. Every call that can change a query's result or
//!   make it no query (`glBeginQuery*`, `glQueryCounter`, `glDeleteQueries`) counts as a *touch*:
//!   counted when it is recorded and again when it replays, and its replay drops the kept result.
//!   A result answers `glGetQueryObject*v` only while the two counts are equal (every touch
//!   recorded on this device has replayed, and the result came after the last of them).
//!
//! What makes an answer exact, and what turns answers off:
//!
//! * The output pointer of `glGetQueryObject*v` is an offset while a buffer is bound to
//!   `GL_QUERY_BUFFER`, and whether one is bound is known only at that point of the stream. A
//!   recorded bind of a non-zero buffer there turns query answers off for the device for good.
//! * Touches are counted only for lists this device handed out (`Device::command_list`, which
//!   every immediate context and every C thread uses). A list recorded elsewhere
//!   (`CommandList::new`, another device's) carries touches nobody counted, so its submit turns
//!   every answer off for the device for good.
//! * A closure run on the render thread (`Device::with_gl`, `post`) may do anything: afterwards
//!   every kept result is dropped and its query polled again, so what is kept is what the GL
//!   has after the closure (a query it left active fails the poll and keeps nothing; the
//!   glcmd-made errors of such a poll are dropped, the program's own pending ones kept).
//!
//! The conversions are the GL's (GL 4.6 §4.2.4, Mesa's `get_query_object`): the result is kept as
//! the 64-bit value, and the 32-bit getters saturate it.

use std::collections::HashMap;

use crate::vocab::hash::FastHash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::generated::{enums as gl, types::GLenum};

/// What a device knows without asking (see the module doc). One per device, shared by its
/// recording threads and its render thread.
#[derive(Debug, Default)]
pub struct KnownAnswers {
    inner: Mutex<Inner>,
    /// Answers are off for good (a foreign list was submitted, or a query buffer was bound).
    off: AtomicBool,
    /// Fences or queries wait for a poll: the render thread's cheap check after each list.
    polling: AtomicBool,
}

#[derive(Debug, Default)]
struct Inner {
    queries: HashMap<u32, QueryState, FastHash>,
    /// Queries whose end replayed, whose result is not available yet.
    unavailable: Vec<u32>,
    fences: HashMap<u32, Fence, FastHash>,
    query_answers_off: bool,
}

#[derive(Debug, Default)]
struct QueryState {
    recorded: u64,
    replayed: u64,
    result: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fence {
    /// Created by a replayed fence, not seen signalled yet.
    Waiting,
    Signalled,
    /// Deleted by a recorded `glDeleteSync` whose replay has not run.
    Deleted,
}

/// What a poll of a query found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum QueryPoll {
    Result(u64),
    NotYet,
    /// The GL refused the poll (a closure left the query active, or deleted it): not asked again.
    Refused,
}

/// A getter of `glGetQueryObject*v`, by the type it writes.
pub trait QueryValue: Copy {
    /// The GL's conversion of a 64-bit result (saturating for the 32-bit getters).
    fn from_result(v: u64) -> Self;
}

impl QueryValue for i32 {
    fn from_result(v: u64) -> Self {
        v.min(i32::MAX as u64) as i32
    }
}
impl QueryValue for u32 {
    fn from_result(v: u64) -> Self {
        v.min(u32::MAX as u64) as u32
    }
}
impl QueryValue for i64 {
    fn from_result(v: u64) -> Self {
        v as i64
    }
}
impl QueryValue for u64 {
    fn from_result(v: u64) -> Self {
        v
    }
}

impl KnownAnswers {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    // The recording side.

    /// Recorded touches of queries (`glBeginQuery*`, `glQueryCounter`, `glDeleteQueries`).
    pub(crate) fn queries_touched(&self, ids: &[u32]) {
        let mut inner = self.lock();
        for &id in ids {
            inner.queries.entry(id).or_default().recorded += 1;
        }
    }

    /// A recorded `glDeleteSync`.
    pub(crate) fn fence_deleted(&self, id: u32) {
        if id != 0 {
            self.lock().fences.insert(id, Fence::Deleted);
        }
    }

    /// A recorded bind of `buffer` to `GL_QUERY_BUFFER`.
    pub(crate) fn query_buffer_bound(&self, buffer: u32) {
        if buffer != 0 {
            self.lock().query_answers_off = true;
        }
    }

    /// A list this device did not hand out was submitted.
    pub(crate) fn foreign_list(&self) {
        self.off.store(true, Ordering::Relaxed);
    }

    /// `glGetQueryObject*v(id, pname)` answered from a kept result, if it can be.
    pub fn query_object<T: QueryValue>(&self, id: u32, pname: GLenum) -> Option<Vec<T>> {
        if self.off.load(Ordering::Relaxed) {
            return None;
        }
        let inner = self.lock();
        if inner.query_answers_off {
            return None;
        }
        let q = inner.queries.get(&id).filter(|q| q.recorded == q.replayed)?;
        let result = q.result?;
        match pname {
            gl::QUERY_RESULT | gl::QUERY_RESULT_NO_WAIT => Some(vec![T::from_result(result)]),
            gl::QUERY_RESULT_AVAILABLE => Some(vec![T::from_result(1)]),
            _ => None,
        }
    }

    /// Whether `id` is known to name a query object: a kept result (its end or counter succeeded)
    /// and no recorded touch since (a delete among them).
    pub fn is_query(&self, id: u32) -> bool {
        self.query_object::<u32>(id, gl::QUERY_RESULT_AVAILABLE).is_some()
    }

    /// Whether the fence `id` is known to be a sync object: replayed, no delete recorded since.
    pub fn is_sync(&self, id: u32) -> bool {
        !self.off.load(Ordering::Relaxed)
            && matches!(self.lock().fences.get(&id), Some(Fence::Waiting | Fence::Signalled))
    }

    /// Whether the fence `id` is known to be signalled (and not deleted since).
    pub fn fence_signalled(&self, id: u32) -> bool {
        !self.off.load(Ordering::Relaxed) && self.lock().fences.get(&id) == Some(&Fence::Signalled)
    }

    // The render thread's side.

    /// A touch of `ids` replayed (`counted`: recorded through this device's lists).
    pub(crate) fn queries_touch_replayed(&self, ids: &[u32], counted: bool) {
        let mut inner = self.lock();
        for &id in ids {
            inner.unavailable.retain(|&q| q != id);
            let q = inner.queries.entry(id).or_default();
            q.replayed += counted as u64;
            q.result = None;
        }
    }

    /// A query ended (or its counter was written) at this point of the replay: poll it.
    pub(crate) fn query_ended(&self, id: u32) {
        let mut inner = self.lock();
        if !inner.unavailable.contains(&id) {
            inner.unavailable.push(id);
        }
        self.polling.store(true, Ordering::Relaxed);
    }

    /// A fence replayed and made GL sync object `id` (unless its delete is already recorded).
    pub(crate) fn fence_created(&self, id: u32) {
        let mut inner = self.lock();
        inner.fences.entry(id).or_insert(Fence::Waiting);
        self.polling.store(true, Ordering::Relaxed);
    }

    /// A `glDeleteSync` replayed.
    pub(crate) fn fence_forgotten(&self, id: u32) {
        self.lock().fences.remove(&id);
    }

    /// After a closure ran on the render thread: every kept result is polled again.
    pub(crate) fn repoll(&self) {
        let mut inner = self.lock();
        let Inner { queries, unavailable, .. } = &mut *inner;
        for (&id, q) in queries.iter_mut() {
            if q.result.take().is_some() && !unavailable.contains(&id) {
                unavailable.push(id);
            }
        }
        if !unavailable.is_empty() {
            self.polling.store(true, Ordering::Relaxed);
        }
    }

    /// Whether anything waits for a poll (a cheap check after every list).
    pub(crate) fn wants_poll(&self) -> bool {
        self.polling.load(Ordering::Relaxed)
    }

    /// One poll: `fence` says whether a fence is signalled now, `query` what a query has. At
    /// most `limit` of each are asked (queries oldest first; a fence once seen signalled is not
    /// asked again, and every fence signals once its commands complete, so each gets its turn).
    pub(crate) fn poll(&self, limit: usize, fence: impl Fn(u32) -> bool, query: impl Fn(u32) -> QueryPoll) {
        let mut inner = self.lock();
        let Inner { queries, unavailable, fences, .. } = &mut *inner;
        for (&id, state) in fences.iter_mut().filter(|(_, s)| **s == Fence::Waiting).take(limit) {
            if fence(id) {
                *state = Fence::Signalled;
            }
        }
        let waiting_fences = fences.values().any(|s| *s == Fence::Waiting);
        let mut asked = 0;
        unavailable.retain(|&id| {
            if asked == limit {
                return true;
            }
            asked += 1;
            match query(id) {
                QueryPoll::Result(v) => {
                    queries.entry(id).or_default().result = Some(v);
                    false
                }
                QueryPoll::NotYet => true,
                QueryPoll::Refused => false,
            }
        });
        self.polling.store(waiting_fences || !unavailable.is_empty(), Ordering::Relaxed);
    }
}

/// What replay needs to tell a device's known answers.
pub(crate) struct KnownAtReplay {
    pub(crate) answers: std::sync::Arc<KnownAnswers>,
    /// Query targets whose `GL_CURRENT_QUERY` this context answers; empty below GL 3.3, whose
    /// results cannot be read as 64-bit values (`glGetQueryObjectui64v`), so nothing is noted.
    pub(crate) targets: Vec<GLenum>,
}

impl KnownAtReplay {
    pub(crate) fn new(answers: std::sync::Arc<KnownAnswers>, version: (u32, u32)) -> KnownAtReplay {
        let mut targets = Vec::new();
        if version >= (3, 3) {
            targets.extend([
                gl::SAMPLES_PASSED,
                gl::ANY_SAMPLES_PASSED,
                gl::PRIMITIVES_GENERATED,
                gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN,
                gl::TIME_ELAPSED,
            ]);
        }
        if version >= (4, 3) {
            targets.push(gl::ANY_SAMPLES_PASSED_CONSERVATIVE);
        }
        KnownAtReplay { answers, targets }
    }

    /// Whether results of this context can be kept at all.
    pub(crate) fn keeps_results(&self) -> bool {
        !self.targets.is_empty()
    }
}
