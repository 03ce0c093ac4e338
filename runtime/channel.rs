//! # The channel contract between the application's threads and the render thread
//!
//! Application threads (through [`Device`](crate::Device), [`Frame`](crate::Frame) and the C
//! ABI) talk to the render thread over one channel of [`Msg`]s, and both sides read and write
//! one [`SharedState`]: the list pool, frame numbers, counters, the open-frame registry, the
//! name pools, the program and limits caches, the capture writer. This module is that
//! contract, at the floor below both sides: the device handle (which sends) and the render
//! thread (which receives) import it and never each other's internals. The render thread's
//! context type is a parameter of [`Msg`], so the contract does not name the thread that
//! serves it.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::ThreadId;
use std::time::Instant;

use crossbeam_channel::Receiver;

use crate::list::CommandList;
use crate::open_frames::OpenFrames;
use crate::options::{Options, Stats};
use crate::vocab::{Report, Sink};
use crate::Error;

/// Lists the pool keeps for reuse.
const POOL_LIMIT: usize = 1024;

/// What both sides share.
pub(crate) struct SharedState {
    /// This device's number, for list claims.
    pub(crate) id: u64,
    pub(crate) options: Options,
    pub(crate) pool: Mutex<Vec<CommandList>>,
    pub(crate) lost: Mutex<Option<String>>,
    pub(crate) next_frame: AtomicU64,
    /// Frames below this number have ended.
    pub(crate) ended: AtomicU64,
    pub(crate) round_trips: AtomicU64,
    pub(crate) stats: Mutex<Stats>,
    /// Notified at every frame end, when the render thread exits, and when a stall is published
    /// ([`SharedState::wake_frame_waiters`]).
    pub(crate) frame_ended: Condvar,
    /// The threads in `Device::wait_frames`, counted while they hold `stats` (see
    /// [`SharedState::wake_frame_waiters`]).
    pub(crate) frame_waiters: AtomicUsize,
    /// The unsubmitted slot the render thread has been waiting on, and since when.
    pub(crate) stall: Mutex<Option<(u64, u32, Instant)>>,
    pub(crate) open: Mutex<OpenFrames>,
    /// The frame a `Submission` report was last given for (rule 8 of `frame.rs`), plus one.
    pub(crate) warned: AtomicU64,
    pub(crate) reports: Receiver<Report>,
    pub(crate) sink: Sink,
    /// The context has robust buffer access (set by the render thread at start-up).
    pub(crate) robust: std::sync::atomic::AtomicBool,
    /// Name pools (`pools.rs`).
    pub(crate) pools: crate::pools::Pools,
    /// The program interface cache (`programs.rs`).
    pub(crate) programs: Arc<crate::programs::Programs>,
    /// The buffer names that exist, for the lists' pixel-binding tracking (`buffer_names.rs`).
    pub(crate) buffer_names: Arc<crate::buffer_names::BufferNames>,
    /// Query results and fence states the render thread has seen (`known_answers.rs`).
    pub(crate) known: Arc<crate::known_answers::KnownAnswers>,
    /// The state an immediate thread recorded, for `glGetIntegerv` (`recorded_state.rs`).
    pub(crate) recorded: Arc<crate::recorded_state::RecordedState>,
    /// The limits cache (`limits.rs`), read by the render thread before the device is handed
    /// out.
    pub(crate) limits: std::sync::OnceLock<crate::limits::Limits>,
    /// Capture (`capture/`), when `Options::capture` is on.
    pub(crate) capture: Option<crate::capture_writer::recorder::Recorder>,
    /// Which thread sent the last message, and how often that changed (`known_errors.rs`).
    pub(crate) senders: SenderChanges,
}

/// Counts the times the thread sending to the render thread changed: an immediate thread that
/// answers `glGetError` from what it recorded (`known_errors.rs`) may do so only while no other
/// thread's list, query or present has run on the context since its last look. Every message
/// that can run GL calls is noted when sent ([`SenderChanges::note`]); a thread that is the only
/// sender changes nothing, so its own hand-overs and round trips leave the count as it is.
#[derive(Default)]
pub(crate) struct SenderChanges {
    last: AtomicU64,
    changes: AtomicU64,
}

thread_local! {
    /// This thread's token for [`SenderChanges`] (0: not taken yet).
    static SENDER: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Tokens handed out so far.
static SENDERS: AtomicU64 = AtomicU64::new(0);

impl SenderChanges {
    /// A message of the calling thread is about to be sent.
    #[inline]
    pub(crate) fn note(&self) {
        let me = SENDER.with(|s| {
            if s.get() == 0 {
                s.set(SENDERS.fetch_add(1, Ordering::Relaxed) + 1);
            }
            s.get()
        });
        // Relaxed: a thread that relies on another's calls having run synchronises with it
        // (a mutex, a join), which orders this store before its later load.
        if self.last.swap(me, Ordering::Relaxed) != me {
            self.changes.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// How often the sender changed.
    pub(crate) fn count(&self) -> u64 {
        self.changes.load(Ordering::Relaxed)
    }
}

impl SharedState {
    /// Wakes the threads in `Device::wait_frames`, if there are any. `Condvar::notify_all` is a
    /// system call (a futex wake) whether or not anyone waits, and a system call costs
    /// microseconds in a sandbox such as gVisor: once per frame end, with an immediate
    /// context's frame per `glGetError`, it was about a microsecond per query there. Exact: a
    /// waiter counts itself while it holds `stats`, before it reads the frame count, and the
    /// render thread changes that count (or the stall) before it reads the waiters, so either
    /// the waiter sees the change or the render thread sees the waiter (and the waits are
    /// bounded besides).
    pub(crate) fn wake_frame_waiters(&self) {
        if self.frame_waiters.load(Ordering::SeqCst) > 0 {
            self.frame_ended.notify_all();
        }
    }

    /// Counts the calling thread among the frame waiters until the guard is dropped; called
    /// with `stats` held.
    pub(crate) fn count_frame_waiter(&self) -> FrameWaiter<'_> {
        self.frame_waiters.fetch_add(1, Ordering::SeqCst);
        FrameWaiter(&self.frame_waiters)
    }
}

/// A thread in `Device::wait_frames`, uncounted when it leaves.
pub(crate) struct FrameWaiter<'a>(&'a AtomicUsize);

impl Drop for FrameWaiter<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A round trip's work, run on the render thread: given the context, or the error that ends it
/// without running (the render thread found the wait could not end).
pub(crate) type Job<C> = Box<dyn FnOnce(Result<&C, Error>) + Send>;

/// How a round trip is ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CallKind {
    /// After every list submitted before it (rule 6).
    Query,
    /// At once, ahead of waiting lists and round trips (rule 5).
    Create,
    /// Like a query, but nobody waits for it (`post`): it never fails for waiting too long.
    Post,
}

/// A message from an application thread to the render thread. `C` is the render thread's
/// context type (`RenderContext`), which round-trip jobs receive: named by the parts above this
/// floor, so the contract does not import the render thread.
pub(crate) enum Msg<C> {
    Begin {
        frame: u64,
        slots: u32,
    },
    List {
        frame: u64,
        slot: u32,
        list: CommandList,
    },
    Close {
        frame: u64,
    },
    /// A frame of one list, begun, submitted and closed at once (`Device::submit`): what
    /// `Begin`, `List` and `Close` say, in one message. An immediate thread hands every batch
    /// over this way, and before each query that asks the render thread.
    Whole {
        frame: u64,
        list: CommandList,
    },
    Call {
        name: &'static str,
        kind: CallKind,
        thread: ThreadId,
        job: Job<C>,
    },
    /// A name pool runs low: wakes the render thread to refill it.
    Refill,
    Shutdown,
}

/// Why the device is lost, for errors.
pub(crate) fn lost_reason(common: &SharedState) -> String {
    common
        .lost
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_else(|| "the render thread has exited".into())
}

/// Puts a list dropped without replay back in the pool: its submitted links and deletes will
/// never run, so lookups waiting for them stop waiting.
pub(crate) fn recycle_unreplayed(common: &SharedState, list: CommandList) {
    if list.links_submitted {
        common.programs.skipped(&list.links);
        common.programs.deletes_dropped(&list.program_deletes);
    }
    recycle(common, list);
}

/// Puts a frame's replayed lists back in the pool, emptied, under one lock: at 15 workers a
/// frame has about 120 lists, and the workers take lists from the same pool while the render
/// thread returns them, so one lock per list would contend with them 120 times a frame.
pub(crate) fn recycle_all(common: &SharedState, lists: &mut Vec<CommandList>) {
    for list in lists.iter_mut() {
        list.clear_commands();
    }
    let mut pool = common.pool.lock().unwrap_or_else(|e| e.into_inner());
    let room = POOL_LIMIT.saturating_sub(pool.len()).min(lists.len());
    pool.extend(lists.drain(..room));
    drop(pool);
    lists.clear();
}

/// Puts a replayed (or dropped) list back in the pool, emptied.
pub(crate) fn recycle(common: &SharedState, mut list: CommandList) {
    list.clear_commands();
    let mut pool = common.pool.lock().unwrap_or_else(|e| e.into_inner());
    if pool.len() < POOL_LIMIT {
        pool.push(list);
    }
}
