//! The render thread's scheduler: which message, list or round trip runs next. Lists run in
//! frame and slot order; a round trip runs once everything submitted before it has run (a
//! create at once); a wait that only the calling thread could end fails at once; frames that
//! hold later work back past the wait limit are given up. The ordering rules themselves are
//! stated in `frame.rs`; this file keeps them.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use super::phases::{Phase, PhaseClock};
use super::render_context::{take_local, Job, Msg, RenderContext, LOCAL};
use crate::channel::{recycle_all, recycle_unreplayed, CallKind, SharedState};
use crate::list::CommandList;
use crate::options::FrameStats;
use crate::replay;
use crate::vocab::{Report, ReportKind};
use crate::{debug_groups, Error};

/// The lists of one frame.
#[derive(Default)]
pub(super) struct FrameSlots {
    pub(super) id: u64,
    /// Known once the Begin message arrived.
    pub(super) slots: Option<u32>,
    pub(super) next: u32,
    /// Received lists, by slot; grown as lists arrive (never to more than the frame's slots).
    pub(super) lists: Vec<Option<CommandList>>,
    /// Replayed lists, kept (for deferred deletes) until the end.
    pub(super) replayed: Vec<CommandList>,
    /// The Frame handle was dropped: missing slots are skipped.
    pub(super) closed: bool,
    /// Given up after stalling later work (rule 4).
    pub(super) abandoned: bool,
    pub(super) stats: FrameStats,
}

impl FrameSlots {
    pub(super) fn has_list(&self, slot: u32) -> bool {
        self.lists.get(slot as usize).is_some_and(Option::is_some)
    }

    pub(super) fn done(&self) -> bool {
        self.slots.is_some_and(|n| self.next >= n)
    }
}

/// A round trip waiting for its barrier.
pub(super) struct PendingCall {
    /// The latest list received before it: it runs once that (and everything before) ran.
    pub(super) barrier: Option<(u64, u32)>,
    pub(super) name: &'static str,
    pub(super) kind: CallKind,
    pub(super) job: Job,
}

/// The slot replay is waiting for, since when, and what has been reported about it.
pub(super) struct Waiting {
    pub(super) frame: u64,
    pub(super) slot: u32,
    pub(super) since: Instant,
    pub(super) reported: bool,
    /// Whether `SharedState::stall` shows it (see [`Scheduler::publish_waiting`]).
    pub(super) published: bool,
}

/// Decides what the render thread does next.
pub(super) struct Scheduler {
    /// Frames from the oldest unfinished one on, consecutive ids.
    pub(super) frames: VecDeque<FrameSlots>,
    /// Id of `frames[0]`.
    pub(super) first: u64,
    pub(super) calls: VecDeque<PendingCall>,
    /// Creates, run before anything else.
    pub(super) creates: VecDeque<(&'static str, Job)>,
    /// Ended frames' bookkeeping, reused.
    pub(super) spare: Vec<FrameSlots>,
    pub(super) shutting_down: bool,
    pub(super) waiting: Option<Waiting>,
    /// Where the thread's time goes (`phases.rs`).
    pub(super) clock: PhaseClock,
}

impl Scheduler {
    pub(super) fn frame_mut(&mut self, id: u64) -> &mut FrameSlots {
        while self.first + self.frames.len() as u64 <= id {
            let mut f = self.spare.pop().unwrap_or_default();
            f.id = self.first + self.frames.len() as u64;
            self.frames.push_back(f);
        }
        let index = (id - self.first) as usize;
        &mut self.frames[index]
    }

    /// The position of the latest list received and not yet replayed.
    pub(super) fn latest_pending(&self) -> Option<(u64, u32)> {
        self.frames.iter().rev().find_map(|f| {
            let last = f.lists.iter().rposition(Option::is_some)?;
            Some((f.id, last as u32))
        })
    }

    pub(super) fn is_replayed(&self, pos: (u64, u32)) -> bool {
        match self.frames.front() {
            None => true,
            Some(f) => pos.0 < f.id || (pos.0 == f.id && pos.1 < f.next),
        }
    }

    /// Slots not yet received that lie before `barrier`, in replay order.
    pub(super) fn missing_before(&self, barrier: (u64, u32)) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.frames.iter().take_while(move |f| f.id <= barrier.0).flat_map(move |f| {
            let end = if f.id == barrier.0 { barrier.1 } else { f.slots.unwrap_or(0) };
            (f.next..end).filter(move |&s| !f.has_list(s) && !f.closed && !f.abandoned).map(move |s| (f.id, s))
        })
    }

    pub(super) fn handle(&mut self, msg: Msg, ctx: &RenderContext) {
        let common = &ctx.shared;
        match msg {
            Msg::Begin { frame, slots } => {
                let f = self.frame_mut(frame);
                f.slots = Some(slots);
            }
            Msg::List { frame, slot, list } => {
                let late =
                    frame < self.first || self.frames.get((frame - self.first) as usize).is_some_and(|f| f.abandoned);
                if late {
                    // `Frame::submit` gives such a list back to its caller (it checks the frame
                    // under the lock the frame is given up with); this is the fallback.
                    common.sink.send(Report::lifecycle(
                        ReportKind::Submission,
                        format!(
                            "frame {frame}: slot {slot} was submitted after the frame ended (it had been given up); \
                             the list was dropped"
                        ),
                    ));
                    recycle_unreplayed(common, list);
                    return;
                }
                let f = self.frame_mut(frame);
                let slot = slot as usize;
                if f.lists.len() <= slot {
                    f.lists.resize_with(slot + 1, || None);
                }
                if f.lists[slot].is_some() {
                    common.sink.send(Report::lifecycle(
                        ReportKind::Submission,
                        format!("frame {frame}: slot {slot} was submitted twice; the second list was dropped"),
                    ));
                    recycle_unreplayed(common, list);
                } else {
                    f.lists[slot] = Some(list);
                }
            }
            Msg::Whole { frame, list } => {
                self.handle(Msg::Begin { frame, slots: 1 }, ctx);
                self.handle(Msg::List { frame, slot: 0, list }, ctx);
                self.handle(Msg::Close { frame }, ctx);
            }
            Msg::Close { frame } => {
                // Every slot may have run, and the frame ended, before its handle was dropped.
                if frame >= self.first {
                    self.frame_mut(frame).closed = true;
                }
            }
            Msg::Call { name, kind: CallKind::Create, job, .. } => self.creates.push_back((name, job)),
            Msg::Call { name, kind, thread, job } => {
                let barrier = self.latest_pending();
                if kind == CallKind::Query {
                    if let Some(e) = barrier.and_then(|b| self.would_deadlock(b, name, thread, common)) {
                        job(Err(e));
                        return;
                    }
                }
                self.calls.push_back(PendingCall { barrier, name, kind, job });
            }
            Msg::Refill => {}
            Msg::Shutdown => self.shutting_down = true,
        }
    }

    /// A round trip from `thread` whose barrier lies behind a slot only `thread` could submit.
    pub(super) fn would_deadlock(
        &self,
        barrier: (u64, u32),
        name: &'static str,
        thread: ThreadId,
        common: &SharedState,
    ) -> Option<Error> {
        let open = common.open.lock().unwrap_or_else(|e| e.into_inner());
        for (frame, slot) in self.missing_before(barrier) {
            if let Some(reason) = open.owed_by(frame, slot, thread) {
                return Some(Error::WouldDeadlock { what: name.to_string(), frame, slot, reason });
            }
        }
        None
    }

    /// Does everything that can be done now.
    pub(super) fn run(&mut self, ctx: &RenderContext) {
        loop {
            if let Some(msg) = take_local() {
                self.handle(msg, ctx);
                continue;
            }
            // 0. Creates never wait.
            if let Some((name, call)) = self.creates.pop_front() {
                self.clock.switch(Phase::RoundTrip);
                ctx.diag.round_trip(Some(name));
                forget_repeats(ctx);
                call(Ok(ctx));
                ctx.diag.round_trip(None);
                self.clock.switch(Phase::Other);
                continue;
            }
            // 1. A frame whose slots have all run ends before anything else happens.
            if self.frames.front().is_some_and(FrameSlots::done) {
                self.end_frame(ctx);
                continue;
            }
            // 2. A round trip whose predecessors have all run.
            if let Some(call) = self.calls.front() {
                if call.barrier.is_none_or(|b| self.is_replayed(b)) {
                    let call = self.calls.pop_front().expect("front exists");
                    self.clock.switch(Phase::RoundTrip);
                    ctx.diag.round_trip(Some(call.name));
                    if !keeps_repeats(call.name) {
                        forget_repeats(ctx);
                    }
                    (call.job)(Ok(ctx));
                    ctx.poll_known();
                    ctx.diag.round_trip(None);
                    self.clock.switch(Phase::Other);
                    continue;
                }
            }
            // 3. The next list, unless it was submitted after a waiting round trip.
            let limit = self.calls.front().and_then(|c| c.barrier);
            let shutting_down = self.shutting_down;
            let Some(f) = self.frames.front_mut() else { break };
            if limit.is_some_and(|b| (f.id, f.next) > b) {
                break;
            }
            let next = f.next as usize;
            if let Some(list) = f.lists.get_mut(next).and_then(Option::take) {
                if self.waiting.take().is_some_and(|w| w.published) {
                    // The slot came: `wait_frames` must not see the old stall any more.
                    *ctx.shared.stall.lock().unwrap_or_else(|e| e.into_inner()) = None;
                }
                replay_list(ctx, f, list, &mut self.clock);
                continue;
            }
            // A closed or given-up frame (or any frame at shutdown) skips slots that never came.
            if (f.closed || f.abandoned || shutting_down) && f.slots.is_some_and(|n| f.next < n) {
                if !f.abandoned {
                    ctx.shared.sink.send(Report::lifecycle(
                        ReportKind::Submission,
                        format!("frame {}: slot {} was never submitted; the frame ends without it", f.id, f.next),
                    ));
                }
                f.next += 1;
                continue;
            }
            if shutting_down && f.slots.is_none() {
                // Lists of a frame whose Begin never came cannot exist; drop the entry.
                self.frames.pop_front();
                self.first += 1;
                continue;
            }
            break;
        }
        self.note_waiting(ctx);
    }

    /// After `run`: if replay waits for a slot that has not been submitted, remember since
    /// when. Published for `wait_frames` (and program lookups) by [`Self::publish_waiting`]
    /// once the wait outlasts the spin, or before the render thread parks: with many workers the
    /// next slot is often a few microseconds late, and publishing each such wait (a lock and a
    /// wake of every thread in `wait_frames`) cost the render thread more than the wait.
    pub(super) fn note_waiting(&mut self, ctx: &RenderContext) {
        let now_waiting = self.frames.front().and_then(|f| {
            let blocked = f.slots.is_some_and(|n| f.next < n) && !f.has_list(f.next) && !f.closed && !f.abandoned;
            blocked.then_some((f.id, f.next))
        });
        match (&self.waiting, now_waiting) {
            (Some(w), Some((frame, slot))) if (w.frame, w.slot) == (frame, slot) => {
                if !w.published && w.since.elapsed() >= ctx.shared.options.spin {
                    self.publish_waiting(ctx);
                }
            }
            (old, Some((frame, slot))) => {
                // A published wait is replaced at once, so `wait_frames` never sees a stale slot.
                let republish = old.as_ref().is_some_and(|w| w.published);
                // The clock's last reading (the end of the list replayed before, typically): a
                // wait's start to within microseconds, for limits of milliseconds, without
                // reading the clock once more per list.
                let since = self.clock.last();
                self.waiting = Some(Waiting { frame, slot, since, reported: false, published: false });
                if republish {
                    self.publish_waiting(ctx);
                }
            }
            (Some(w), None) => {
                if w.published {
                    *ctx.shared.stall.lock().unwrap_or_else(|e| e.into_inner()) = None;
                }
                self.waiting = None;
            }
            (None, None) => {}
        }
    }

    /// Shows the slot replay waits for in `SharedState::stall` and wakes the threads in
    /// `wait_frames`, which decide from it whether they owe that slot (and must fail at once
    /// instead of waiting).
    pub(super) fn publish_waiting(&mut self, ctx: &RenderContext) {
        if let Some(w) = self.waiting.as_mut().filter(|w| !w.published) {
            w.published = true;
            *ctx.shared.stall.lock().unwrap_or_else(|e| e.into_inner()) = Some((w.frame, w.slot, w.since));
            ctx.shared.wake_frame_waiters();
        }
    }

    /// Whether anything waits behind the slot replay is waiting for.
    pub(super) fn later_work(&self) -> (bool, bool) {
        let later_frames = self.frames.iter().skip(1).any(|f| f.lists.iter().any(Option::is_some) || f.closed);
        let calls = self.calls.iter().any(|c| c.barrier.is_some_and(|b| !self.is_replayed(b)));
        (later_frames, calls)
    }

    /// How long the render thread may park before a stall deadline.
    pub(super) fn timeout(&self, ctx: &RenderContext) -> Option<Duration> {
        let w = self.waiting.as_ref()?;
        let (frames, calls) = self.later_work();
        let watchdog = ctx.diag.options.watchdog.filter(|_| !w.reported && (frames || calls));
        let limit = (frames || calls).then_some(ctx.shared.options.wait_limit);
        let deadline = [watchdog, limit].into_iter().flatten().min()?;
        Some(deadline.saturating_sub(w.since.elapsed()).max(Duration::from_millis(1)))
    }

    /// Acts on a stall that has lasted: reports it (watchdog), gives up a frame that holds later
    /// frames back, fails round trips blocked on it (rules 4 and 7 of the ordering rules).
    pub(super) fn check_stall(&mut self, ctx: &RenderContext) {
        forget_repeats(ctx);
        let Some(w) = &mut self.waiting else { return };
        let (frame, slot, waited) = (w.frame, w.slot, w.since.elapsed());
        let (later_frames, calls) = {
            // Only later frames are held back by a missing slot; lists of the same frame
            // waiting for it are not a reason to give the frame up.
            let (frames, calls) = (
                self.frames.iter().skip(1).any(|f| f.lists.iter().any(Option::is_some) || f.closed),
                self.calls.iter().any(|c| c.barrier.is_some_and(|b| (b.0, b.1) >= (frame, slot))),
            );
            (frames, calls)
        };
        let w = self.waiting.as_mut().expect("checked above");
        if let Some(limit) = ctx.diag.options.watchdog {
            if !w.reported && waited >= limit && (later_frames || calls) {
                w.reported = true;
                let blocked: Vec<&str> = self.calls.iter().map(|c| c.name).collect();
                let stalled = format!(
                    "replay has waited {} ms for frame {frame} slot {slot}, which has not been submitted{}",
                    waited.as_millis(),
                    if blocked.is_empty() {
                        String::new()
                    } else {
                        format!("; blocked round trips: {}", blocked.join(", "))
                    }
                );
                let post_mortem = ctx.shared.capture.as_ref().map(|r| r.post_mortem_note(&stalled)).unwrap_or_default();
                ctx.shared.sink.send(Report {
                    kind: ReportKind::Stall,
                    call: if blocked.is_empty() {
                        format!("frame {frame}")
                    } else {
                        format!("round trip {}", blocked.join(", "))
                    },
                    list: None,
                    index: None,
                    site: None,
                    message: format!("{stalled}{post_mortem}"),
                    deleted_by: None,
                    breadcrumbs: Vec::new(),
                });
            }
        }
        if waited < ctx.shared.options.wait_limit {
            return;
        }
        if later_frames {
            // Rule 4: give the frame up.
            let f = self.frames.front_mut().expect("waiting on the front frame");
            let missing: Vec<u32> = (f.next..f.slots.unwrap_or(f.next)).filter(|&s| !f.has_list(s)).collect();
            // A slot submitted and still in the channel is not given up: `Frame::submit` marks
            // it under this lock before sending, or finds the frame given up and keeps its list.
            if !ctx.shared.open.lock().unwrap_or_else(|e| e.into_inner()).abandon(frame, &missing) {
                return;
            }
            f.abandoned = true;
            ctx.shared.sink.send(Report::lifecycle(
                ReportKind::AbandonedFrame,
                format!(
                    "frame {frame} held later frames back for {} ms (Options::wait_limit) waiting for slot {slot}; it \
                     was given up and its unsubmitted slots {missing:?} skipped (a leaked Frame, or a worker that \
                     never submitted)",
                    waited.as_millis()
                ),
            ));
            self.waiting = None;
            *ctx.shared.stall.lock().unwrap_or_else(|e| e.into_inner()) = None;
            return;
        }
        // Rule 7: round trips blocked on the slot fail.
        let mut kept = VecDeque::with_capacity(self.calls.len());
        for c in self.calls.drain(..) {
            let blocked = c.kind == CallKind::Query && c.barrier.is_some_and(|b| b >= (frame, slot));
            if blocked {
                (c.job)(Err(Error::Blocked { what: c.name.to_string(), frame, slot, waited_ms: waited.as_millis() }));
            } else {
                kept.push_back(c);
            }
        }
        self.calls = kept;
        if let Some(w) = self.waiting.as_mut() {
            w.since = Instant::now();
            w.reported = false;
        }
    }

    pub(super) fn end_frame(&mut self, ctx: &RenderContext) {
        let common = &ctx.shared;
        let mut f = self.frames.pop_front().expect("a frame to end");
        self.first += 1;
        let start = self.clock.switch(Phase::FrameEnd);
        {
            let mut state = ctx.state.borrow_mut();
            // SAFETY: the frame's replayed lists, in the order their indices were given.
            unsafe {
                replay::run_deferred(&ctx.gl, ctx.raw_gl(), &mut state, &f.replayed, |list, slot, op| {
                    ctx.diag.delete_ran(list, slot, op)
                })
            };
        }
        if let Some(r) = &common.capture {
            let handing = Instant::now();
            r.frame_ended(&mut f.replayed);
            r.copied(handing.elapsed());
            r.send(crate::capture_writer::recorder::Event::FrameEnd { frame: f.id });
        }
        // A frame of implicit hand-overs only (an immediate context's) is not the program's
        // frame: it presents when the program asks.
        let implicit = !f.replayed.is_empty() && f.replayed.iter().all(|l| l.implicit);
        if !implicit && ctx.context.presents_at_frame_end() {
            forget_repeats(ctx);
            match ctx.context.present() {
                Ok(()) => common.stats.lock().unwrap_or_else(|e| e.into_inner()).presents += 1,
                Err(e) => ctx.shared.sink.send(Report::lifecycle(
                    ReportKind::Present,
                    format!("presenting frame {} failed: {e}; the window shows an older frame", f.id),
                )),
            }
        }
        f.stats.replay += start.elapsed();
        // The lists go back to the pool before the frame is published as ended, so a thread
        // that waited for the end finds them there.
        recycle_all(common, &mut f.replayed);
        {
            let (refused, repeats_skipped) = {
                let state = ctx.state.borrow();
                (state.refused, state.repeats_skipped)
            };
            let mut stats = common.stats.lock().unwrap_or_else(|e| e.into_inner());
            stats.frames += 1;
            stats.lists += f.stats.lists as u64;
            stats.commands += f.stats.commands;
            stats.replay += f.stats.replay;
            stats.refused = refused;
            stats.repeats_skipped = repeats_skipped;
            stats.deleted_names = ctx.diag.deleted_names();
            stats.last_frame = f.stats;
            stats.render = self.clock.reading();
        }
        common.ended.store(self.first, Ordering::Release);
        common.wake_frame_waiters();
        f.lists.clear();
        f.slots = None;
        f.next = 0;
        f.closed = false;
        f.abandoned = false;
        f.stats = FrameStats::default();
        self.spare.push(f);
        self.clock.switch(Phase::Other);
    }

    pub(super) fn idle(&self) -> bool {
        self.calls.is_empty()
            && self.creates.is_empty()
            && self.frames.iter().all(|f| f.lists.iter().all(Option::is_none))
            && LOCAL.with(|l| l.borrow().as_ref().is_none_or(VecDeque::is_empty))
    }

    /// What waiting now would be for: the first list of the oldest begun frame, a later slot of
    /// it, or (no frame begun) nothing yet.
    pub(super) fn wait_phase(&self) -> Phase {
        match self.frames.front() {
            None => Phase::Idle,
            Some(f) if f.next == 0 => Phase::WaitFirst,
            Some(_) => Phase::WaitLater,
        }
    }

    /// The frame whose replay has started and not ended (parks are counted against it).
    pub(super) fn frame_in_progress(&mut self) -> Option<&mut FrameSlots> {
        self.frames.front_mut().filter(|f| f.next > 0)
    }
}

/// Something other than a list's replay or a pure query is about to run on the context: the
/// next list starts with no binding call known (`repeats.rs`, *Across lists*). Everything the
/// render thread does between lists calls this unless it is known to change no binding.
pub(super) fn forget_repeats(ctx: &RenderContext) {
    if let Ok(mut state) = ctx.state.try_borrow_mut() {
        state.carried = None;
    }
}

/// Round trips that change no binding, after which the next list may skip a repeat of the last
/// list's binding calls: the GL's queries (`glGetError` forgets itself when it reports an
/// error: `special.rs`), a flush, a finish and a client wait. Everything else forgets.
fn keeps_repeats(name: &str) -> bool {
    name.starts_with("glGet") || name.starts_with("glIs") || matches!(name, "glFlush" | "glFinish" | "glClientWaitSync")
}

pub(super) fn replay_list(ctx: &RenderContext, f: &mut FrameSlots, list: CommandList, clock: &mut PhaseClock) {
    let start = clock.switch(Phase::Replay);
    let index = f.replayed.len() as u32;
    if let Some(r) = &ctx.shared.capture {
        // Filed before the list replays, so that what replay sends (a lookup of a program this
        // list links) comes after it in the capture.
        let slots = f.slots.unwrap_or(1);
        if let Some(setup) = r.wants(f.id, slots) {
            let filing = Instant::now();
            r.list(f.id, f.next, slots, index as usize, &list, setup);
            r.copied(filing.elapsed());
        }
    }
    {
        let mut state = ctx.state.borrow_mut();
        let pushed = debug_groups::begin_list(ctx.raw_gl(), &ctx.info, &list);
        // SAFETY: lists reach the render thread only from glcmd's recording methods (packets
        // written by generated code) or from a capture that `capture::validate::check_list`
        // passed, and `ctx.gl` is this thread's table.
        unsafe {
            if ctx.diag.options.any() {
                ctx.diag.replay(&ctx.gl, ctx.raw_gl(), &mut state, &list, index);
            } else {
                replay::replay(&ctx.gl, ctx.raw_gl(), &mut state, &list, index);
            }
        }
        debug_groups::end_list(ctx.raw_gl(), pushed);
        super::polls::poll(ctx.raw_gl(), &mut state);
    }
    let (packet_bytes, param_bytes) = list.byte_sizes();
    f.stats.lists += 1;
    f.stats.commands += list.commands;
    f.stats.packet_bytes += packet_bytes as u64;
    f.stats.param_bytes += param_bytes as u64;
    f.stats.replay += clock.switch(Phase::Other) - start;
    f.replayed.push(list);
    f.next += 1;
}
