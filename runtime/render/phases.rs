//! The render thread's phase clock: where its time goes, frame by frame (issue 20).
//!
//! A GL-bound frame is as fast as the render thread, so when glcmd's frame is slower than direct
//! GL's, the question is what the render thread did besides replaying: waiting for the first
//! list of a frame (the application's workers had not started), waiting for a later slot (a
//! worker's hand-off was late), waiting with no frame begun at all (the application had not
//! begun the next frame), ending frames, running round trips, or its own bookkeeping.
//!
//! The clock is one reading of `Instant` at each change of phase, charged to the phase that
//! ends there: so every moment since the thread started serving lies in exactly one phase, and
//! the phases add up to the clock exactly (`Duration`s are whole nanoseconds, and the readings
//! telescope). The changes of phase sit where the thread read the clock already (around each
//! list's replay, at the start of a wait) plus one reading per wait, per round trip and per
//! frame end; nothing per command, and nothing shared until a frame ends, when the totals are
//! copied into `Stats::render` under the lock the frame's counters are published with.

use std::time::{Duration, Instant};

use crate::options::RenderTimes;

/// What the render thread is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    Replay,
    WaitFirst,
    WaitLater,
    Idle,
    FrameEnd,
    RoundTrip,
    Other,
}

/// The running totals, one per phase (indexed by `Phase as usize`).
pub(super) struct PhaseClock {
    start: Instant,
    phase: Phase,
    since: Instant,
    totals: [Duration; 7],
}

impl PhaseClock {
    /// A clock that starts now, in [`Phase::Other`].
    pub(super) fn new() -> PhaseClock {
        let now = Instant::now();
        PhaseClock { start: now, phase: Phase::Other, since: now, totals: [Duration::ZERO; 7] }
    }

    /// Ends the current phase now and starts `to`; returns the reading.
    pub(super) fn switch(&mut self, to: Phase) -> Instant {
        let now = Instant::now();
        self.totals[self.phase as usize] += now.saturating_duration_since(self.since);
        self.phase = to;
        self.since = now;
        now
    }

    /// The last reading: when the current phase began. A moment ago wherever the thread is
    /// between two changes of phase, so it stands in for a fresh reading where a few
    /// microseconds do not matter.
    pub(super) fn last(&self) -> Instant {
        self.since
    }

    /// The totals up to now, the current phase included up to the reading: what `Stats::render`
    /// shows from one frame end to the next.
    pub(super) fn reading(&self) -> RenderTimes {
        let now = Instant::now();
        let mut t = self.totals;
        t[self.phase as usize] += now.saturating_duration_since(self.since);
        RenderTimes {
            replay: t[Phase::Replay as usize],
            wait_first: t[Phase::WaitFirst as usize],
            wait_later: t[Phase::WaitLater as usize],
            idle: t[Phase::Idle as usize],
            frame_end: t[Phase::FrameEnd as usize],
            round_trips: t[Phase::RoundTrip as usize],
            other: t[Phase::Other as usize],
            clock: now.saturating_duration_since(self.start),
            at: Some(now),
        }
    }
}
