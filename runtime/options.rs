//! The device's public configuration and counters: [`Options`] (how a device is made), and
//! [`Stats`], [`RenderTimes`] and [`FrameStats`] (what its render thread has done). Plain data
//! that both sides of the device read, so it sits below them.
//!
//! ## One rule for options and counters
//!
//! Every public options type of glcmd ([`Options`], [`DiagnosticOptions`], and in `capture`
//! `CaptureOptions`, `PostMortem`, `ReplayOptions`, `ReplayBudget`) is `#[non_exhaustive]`
//! and has builder methods, one per field, named as the field, taking `self` by value and
//! returning `Self`, `#[must_use]`:
//!
//! ```
//! use std::time::Duration;
//! use glcmd::{DiagnosticOptions, Options};
//! let options = Options::default()
//!     .track_sites(true)
//!     .wait_limit(Duration::from_secs(2))
//!     .diagnostics(DiagnosticOptions::default().strict(true).watchdog(Some(Duration::from_secs(5))));
//! assert!(options.diagnostics.strict && options.track_sites);
//! ```
//!
//! Every public counters or summary type ([`Stats`], [`RenderTimes`], [`FrameStats`], and in
//! `capture` `CaptureSummary`, `ReplaySummary`) is `#[non_exhaustive]` and read only. So a new
//! option or counter is never a breaking change; outside glcmd a struct literal does not compile:
//!
//! ```compile_fail,E0639
//! let d = glcmd::DiagnosticOptions { strict: true, ..Default::default() };
//! ```
//!
//! The builders are written by one macro (`builders.rs`, whose essay gives the whole rule), which
//! also stops glcmd compiling when an options type has a field without its builder;
//! `tests/options_rule.rs` checks every builder from outside the crate.

use std::time::{Duration, Instant};

use crate::builders::builders;
use crate::capture_writer::recorder::CaptureOptions;
use crate::diagnostics::DiagnosticOptions;

/// Options for [`Device::with_options`](crate::Device::with_options).
///
/// Made from [`Options::default`] and changed with its builder methods, one per field:
/// `Options::default().track_sites(true).wait_limit(Duration::from_secs(1))`. The struct is
/// `#[non_exhaustive]` (a struct literal does not compile outside glcmd), so a new option is not
/// a breaking change.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// Lists from `command_list` record the source location of every command (implied by any
    /// diagnostic).
    pub track_sites: bool,
    /// Error attribution, strict mode, use-after-delete tracking, watchdog.
    pub diagnostics: DiagnosticOptions,
    /// How long later work may wait for a slot that has not been submitted before glcmd stops
    /// waiting: a blocked round trip or `wait_frames` fails with [`Error::Blocked`](crate::Error::Blocked), and a frame
    /// that holds later frames back has its missing slots given up (rules 4 and 7 of the
    /// ordering rules, `frame.rs`). Default 10 s.
    pub wait_limit: Duration,
    /// How long the render thread (and a thread waiting for a round trip) spins before parking
    /// when it has nothing to do. A wake-up after parking costs 5–20 µs; spinning longer than
    /// that buys nothing, and an idle device parks for good after it. Default 20 µs.
    pub spin: Duration,
    /// Capacity of the `reports` queue; further reports are counted in
    /// `Stats::reports_dropped` (and still logged). Default 1024.
    pub report_capacity: usize,
    /// Ask for a robust-access context (`EGL_EXT_create_context_robustness`, robust buffer
    /// access): reads past the end of a bound buffer (a draw with too many vertices or indices)
    /// return zeros instead of undefined values. Headless contexts only; ignored where the
    /// driver does not offer it (`Device::robust_access` tells). Default off (it costs: see
    /// BENCHMARKS.md).
    pub robust_access: bool,
    /// Replay and queries go through the checking function table (`glcmd::checked`), which
    /// checks every pointer and offset against the memory the call may touch and records
    /// violations. For tests; needs the `checking` cargo feature (without it, creating the
    /// device fails). Default off.
    pub checked_gl: bool,
    /// Capture and post-mortem capture (`glcmd::capture`): keeps the set-up log from the start
    /// so `Device::capture` can write frames that replay from a clean context. Default off
    /// (`None`): capture costs nothing.
    pub capture: Option<CaptureOptions>,
    /// The size (packet and array bytes) past which an immediate context (`Device::immediate`)
    /// submits its pending calls at its next recording call, so a thread that asks nothing
    /// still streams its work: the render thread replays one batch while the thread records the
    /// next. Default 16 KiB, the C immediate threads' and glcmd-run's rule (issue 31: on the
    /// H100, the H200 and llvmpipe every call-bound frame ran faster at 16 KiB than at 1 MiB and
    /// none slower; BENCHMARKS.md). Right after the context synchronised with the render thread
    /// the first three hand-overs come at an eighth, a quarter and a half of it
    /// ([`HandOvers`](crate::HandOvers)); `usize::MAX` never submits for size.
    pub immediate_flush_bytes: usize,
    /// Runs the render thread on a host's thread instead of one of its own (`glcmd::render_host`:
    /// glcmd-run's one driver thread). Default `None`: the device starts its own thread.
    pub render_host: Option<crate::render_host::RenderHost>,
    /// Replay skips binding and `glUniform*` calls that repeat what the state already holds
    /// (`repeats.rs`). Default on. Turn it off for an adopted context that shares objects with
    /// another context that changes them while this one uses them: the GL guarantees that one
    /// context sees another's changes to a texture or program only once it binds it again
    /// (GL 4.6 §5.3), and a skipped repeat is no bind. (glcmd-run never serves a context of a
    /// share group, and a headless device's context shares nothing.)
    pub skip_repeats: bool,
    /// An immediate thread (C's `glcmdThreadMakeImmediate`, glcmd-run) answers `glGetError`
    /// with `GL_NO_ERROR` without a round trip where glcmd knows no call since the last answer
    /// can have raised one: each was seen, with the same arguments and the same program, vertex
    /// array and sampler units, in a stretch the GL answered `GL_NO_ERROR` for, and nothing
    /// else changed the context since (`known_errors.rs` gives the rule). Default on; off while
    /// capturing (a capture keeps every `glGetError`).
    pub known_errors: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            track_sites: false,
            diagnostics: DiagnosticOptions::default(),
            wait_limit: Duration::from_secs(10),
            spin: Duration::from_micros(20),
            report_capacity: 1024,
            robust_access: false,
            checked_gl: false,
            capture: None,
            immediate_flush_bytes: 16 << 10,
            render_host: None,
            skip_repeats: true,
            known_errors: true,
        }
    }
}

builders!(Options {
    track_sites: bool,
    diagnostics: DiagnosticOptions,
    wait_limit: Duration,
    spin: Duration,
    report_capacity: usize,
    robust_access: bool,
    checked_gl: bool,
    capture: Option<CaptureOptions>,
    immediate_flush_bytes: usize,
    render_host: Option<crate::render_host::RenderHost>,
    skip_repeats: bool,
    known_errors: bool,
});

/// Counters of the render thread, for `Device::stats`. `#[non_exhaustive]`: a new counter is not
/// a breaking change (read the fields; `Stats::default()` makes one).
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Stats {
    /// Frames ended.
    pub frames: u64,
    /// Lists and commands replayed.
    pub lists: u64,
    pub commands: u64,
    /// Commands not passed to the GL because an argument was unsafe (each was reported).
    pub refused: u64,
    /// Binding and `glUniform*` calls not passed to the GL because they repeated the last of
    /// their kind, with nothing between that could change what they set (`repeats.rs`).
    pub repeats_skipped: u64,
    /// Round trips (create and query calls) served.
    pub round_trips: u64,
    /// Swaps of the window's or the adopted context's surface: at the end of a window device's
    /// frames (not of an immediate context's implicit ones), and asked for (`Device::present`,
    /// `Device::queue_present`).
    pub presents: u64,
    /// Reports dropped because nobody read `Device::reports` and its queue was full.
    pub reports_dropped: u64,
    /// Deleted names use-after-delete tracking remembers now (at most
    /// `DiagnosticOptions::deleted_names_kept`).
    pub deleted_names: usize,
    /// Times the render thread parked (blocked with nothing to do), and for how long in all.
    pub parks: u64,
    pub parked: Duration,
    /// Time spent replaying lists and deferred deletes, over all ended frames.
    pub replay: Duration,
    /// Names the name pools hold now: made by the GL ahead of demand, not yet handed out.
    pub pooled_names: usize,
    /// Programs the program interface cache holds an entry for now (live programs with
    /// answers, and pending links), and the answers it keeps for them (`programs.rs`).
    pub program_entries: usize,
    pub program_answers: usize,
    /// The last ended frame.
    pub last_frame: FrameStats,
    /// Where the render thread's time went, up to the last frame end.
    pub render: RenderTimes,
}

/// Where the render thread's time went (issue 20): every moment since it started serving lies
/// in exactly one phase, so the phases add up to [`RenderTimes::clock`] exactly. Taken at each
/// frame end; the difference of two readings ([`RenderTimes::since`]) is the breakdown of the
/// frames ended between them. The clock is read where the render thread read it anyway (around
/// each list's replay) and once more per wait, round trip and frame end: nothing per command.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RenderTimes {
    /// Replaying lists (with their debug groups and capture filing).
    pub replay: Duration,
    /// Waiting (spinning or parked) for the first list of a frame that has been begun.
    pub wait_first: Duration,
    /// Waiting for a later slot's list, the slots before it having replayed.
    pub wait_later: Duration,
    /// Waiting with no frame begun (as far as the render thread has heard): the application has
    /// not begun the next frame yet.
    pub idle: Duration,
    /// Ending frames: deferred deletes, capture hand-off, present, lists back to the pool, the
    /// counters, waking the threads in `wait_frames`.
    pub frame_end: Duration,
    /// Round trips (creates and queries) run.
    pub round_trips: Duration,
    /// The rest: taking messages off the channel and filing them, scheduling, refilling the
    /// name pools, a stall's checks.
    pub other: Duration,
    /// The render thread's clock at the last frame end: time since it started serving.
    pub clock: Duration,
    /// When the last frame ended (the render thread's reading of the clock); `None` before the
    /// first.
    pub at: Option<Instant>,
}

impl RenderTimes {
    /// The phases, with their names, in the order of the fields.
    pub fn phases(&self) -> [(&'static str, Duration); 7] {
        [
            ("replay", self.replay),
            ("wait_first", self.wait_first),
            ("wait_later", self.wait_later),
            ("idle", self.idle),
            ("frame_end", self.frame_end),
            ("round_trips", self.round_trips),
            ("other", self.other),
        ]
    }

    /// The sum of the phases: equal to `clock`.
    pub fn sum(&self) -> Duration {
        self.phases().iter().map(|p| p.1).sum()
    }

    /// What happened between `earlier` (an older reading) and this one; `at` is this one's.
    pub fn since(&self, earlier: &RenderTimes) -> RenderTimes {
        RenderTimes {
            replay: self.replay.saturating_sub(earlier.replay),
            wait_first: self.wait_first.saturating_sub(earlier.wait_first),
            wait_later: self.wait_later.saturating_sub(earlier.wait_later),
            idle: self.idle.saturating_sub(earlier.idle),
            frame_end: self.frame_end.saturating_sub(earlier.frame_end),
            round_trips: self.round_trips.saturating_sub(earlier.round_trips),
            other: self.other.saturating_sub(earlier.other),
            clock: self.clock.saturating_sub(earlier.clock),
            at: self.at,
        }
    }
}

/// Statistics of one frame. `#[non_exhaustive]`, as [`Stats`].
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct FrameStats {
    pub lists: u32,
    pub commands: u64,
    pub packet_bytes: u64,
    pub param_bytes: u64,
    /// Time spent replaying the frame's lists and its deferred deletes.
    pub replay: Duration,
    /// Times the render thread parked between the frame's first list and its end (waiting for
    /// the next slot), and for how long.
    pub parks: u32,
    pub parked: Duration,
}
