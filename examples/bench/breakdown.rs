//! Where a glcmd frame's time goes (issue 20, item 3): the render thread's phases and the
//! hand-off on the recording side, per frame, for the frame benchmark's glcmd variant.
//!
//! A GL-bound frame is as fast as the render thread. The library's phase clock
//! (`Stats::render`, `runtime/render/phases.rs`) charges every moment of that thread to one
//! phase: replaying, waiting for a frame's first list, waiting for a later slot, idle (no frame
//! begun), ending frames, round trips, the rest; the phases add up to the thread's clock between
//! two frame ends exactly. Beside it this module times the recording side of the benchmark's
//! harness (`frame.rs`), with a clock reading at a few points per frame and two per list:
//!
//! * `wake_first` / `wake_last`: from the harness's start signal (just before the pool's start
//!   barrier) to the first and the last worker running (the barrier wakes them one by one);
//! * `slot0`: from the start signal to the frame's first list (slot 0) handed to glcmd, which
//!   is when the render thread can start the frame;
//! * `span`: from the start signal to every worker done (the pool's done barrier returned);
//! * `take` and `submit`: time in `Device::command_list` and `Frame::submit`, summed over the
//!   frame's lists (`lists` of them): the hand-off's cost on the workers;
//! * `main_wait`: the coordinating thread's time in its wait for frame i−2 to end before it
//!   begins frame i, and `main_late`: of the waits that blocked, the time from the frame's end
//!   (the render thread's reading, `RenderTimes::at`) to the wait's return, summed: how late the
//!   harness begins the next frame after the one it waited for ended.
//!
//! Every figure is ns per measured frame (warm-up excluded), as sums over the measured frames
//! divided by their number. The table (`glbound.rs`) gives the render thread's clock per frame
//! beside the harness's throughput: in steady state they agree (the render thread is the
//! frame), and the phases say what it did.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The names of the figures, in the order of [`Breakdown::values`] (the child's `bd=` field).
pub const FIELDS: [&str; 17] = [
    "clock",
    "replay",
    "wait_first",
    "wait_later",
    "idle",
    "frame_end",
    "round_trips",
    "other",
    "wake_first",
    "wake_last",
    "slot0",
    "span",
    "take",
    "submit",
    "lists",
    "main_wait",
    "main_late",
];

/// The recording side's clock readings, summed over frames. Shared by the harness's threads
/// (relaxed atomics: each figure is a sum, read after the threads have joined or between
/// frames).
pub struct HandOff {
    epoch: Instant,
    /// This frame's start signal, ns since `epoch`.
    go: AtomicU64,
    /// This frame's earliest and latest worker start, ns after `go`.
    first: AtomicU64,
    last: AtomicU64,
    sums: [AtomicU64; Sum::N],
}

/// The summed figures of [`HandOff`].
#[derive(Clone, Copy)]
pub enum Sum {
    WakeFirst,
    WakeLast,
    Slot0,
    Span,
    Take,
    Submit,
    Lists,
    MainWait,
    MainLate,
}

impl Sum {
    const N: usize = 9;
}

impl Default for HandOff {
    fn default() -> Self {
        HandOff {
            epoch: Instant::now(),
            go: AtomicU64::new(0),
            first: AtomicU64::new(u64::MAX),
            last: AtomicU64::new(0),
            sums: Default::default(),
        }
    }
}

impl HandOff {
    fn now(&self) -> u64 {
        self.epoch.elapsed().as_nanos() as u64
    }

    /// Ns since the frame's start signal.
    fn since_go(&self) -> u64 {
        self.now().saturating_sub(self.go.load(Ordering::Relaxed))
    }

    pub fn add(&self, what: Sum, ns: u64) {
        self.sums[what as usize].fetch_add(ns, Ordering::Relaxed);
    }

    /// The coordinating thread, just before it signals the workers to start a frame.
    pub fn signal(&self) {
        self.first.store(u64::MAX, Ordering::Relaxed);
        self.last.store(0, Ordering::Relaxed);
        self.go.store(self.now(), Ordering::Relaxed);
    }

    /// A worker, as soon as it runs after the start signal.
    pub fn woke(&self) {
        let d = self.since_go();
        self.first.fetch_min(d, Ordering::Relaxed);
        self.last.fetch_max(d, Ordering::Relaxed);
    }

    /// The worker that handed the frame's first list (slot 0) over, just after.
    pub fn slot0(&self) {
        self.add(Sum::Slot0, self.since_go());
    }

    /// The coordinating thread, when every worker is done with the frame.
    pub fn done(&self) {
        self.add(Sum::Span, self.since_go());
        let first = self.first.load(Ordering::Relaxed);
        if first != u64::MAX {
            self.add(Sum::WakeFirst, first);
            self.add(Sum::WakeLast, self.last.load(Ordering::Relaxed));
        }
    }

    /// The sums so far.
    pub fn sums(&self) -> [u64; Sum::N] {
        std::array::from_fn(|i| self.sums[i].load(Ordering::Relaxed))
    }
}

/// Per measured frame: the render thread's phases and the recording side's figures.
#[derive(Clone, Copy, Debug)]
pub struct Breakdown {
    pub values: [f64; FIELDS.len()],
}

impl Breakdown {
    /// From the device's counters at the two ends of the measured frames and the hand-off's
    /// sums at the same two points.
    pub fn new(
        before: &glcmd::Stats,
        after: &glcmd::Stats,
        hand_before: [u64; Sum::N],
        hand_after: [u64; Sum::N],
        frames: usize,
    ) -> Breakdown {
        let r = after.render.since(&before.render);
        let per = |ns: f64| ns / frames as f64;
        let mut values = vec![per(r.clock.as_nanos() as f64)];
        values.extend(r.phases().iter().map(|(_, d)| per(d.as_nanos() as f64)));
        values.extend(hand_after.iter().zip(hand_before).map(|(a, b)| per(a.saturating_sub(b) as f64)));
        Breakdown { values: values.try_into().expect("one value per field") }
    }

    /// The figure named `name` (see [`FIELDS`]).
    pub fn get(&self, name: &str) -> f64 {
        FIELDS.iter().position(|f| *f == name).and_then(|i| self.values.get(i)).copied().unwrap_or(f64::NAN)
    }

    /// The child's `bd=` field.
    pub fn encode(&self) -> String {
        self.values.iter().map(|v| format!("{v:.0}")).collect::<Vec<_>>().join(",")
    }

    pub fn decode(s: &str) -> Option<Breakdown> {
        let values: Vec<f64> = s.split(',').map(|x| x.parse().ok()).collect::<Option<_>>()?;
        Some(Breakdown { values: values.try_into().ok()? })
    }

    /// The render thread's phases against its clock: the sum over the clock (1 exactly, but for
    /// the rounding of each figure to whole ns).
    pub fn phases_over_clock(&self) -> f64 {
        self.values[1..8].iter().sum::<f64>() / self.values[0]
    }
}
