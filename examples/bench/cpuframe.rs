//! The CPU-bound frame with one recording thread, judged so that noise cannot hide a few
//! per cent (issue 20, item 4): `bench --only cpuframe [--rounds R] [--workers W]`.
//!
//! **What one worker should do.** Each object costs 50 µs of CPU work and three GL calls. Direct
//! GL does both on one thread: frame = work + GL calls. glcmd's worker does the work and records
//! (a few ns per command) and submits one list per slot as soon as it is full (8 object lists
//! per worker and frame), while the render thread replays the slots already submitted and the
//! harness keeps two frames in flight: frame = max(work + record, replay), which is below direct
//! GL by the GL calls' cost minus the recording's. On the GPU machine the GL calls are about
//! 0.4 ms of a 100 ms frame, so the expected ratio is about 0.997; on llvmpipe (6–16 ms of GL,
//! depending on the machine's load) 0.85–0.95 when the render thread has a core of its own.
//!
//! **Why a single run cannot show it.** In the GPU rounds of issue 20 the same work measured
//! twice in one run (direct GL in the bench's process and alone in a process of its own)
//! differed by up to 25 % (102.96 against 128.95 ms), and direct GL's frame over glcmd's with one
//! worker went from 0.93 to 1.09 across rounds with nothing added to the worker's path. A ratio of two single
//! measurements taken a minute apart measures the machine's drift, not glcmd.
//!
//! **The method.** One *round* runs every variant once, in the bench's process, in an order
//! rotated by one each round (so no variant always follows another, or always runs first):
//!
//! - (cpu) the CPU work alone on the calling thread, no GL;
//! - (w) the CPU work alone on `W` threads fed through the same pool and barriers as (b) and
//!   (c), no GL: what running the work on a pool's thread costs by itself;
//! - (a) direct GL, one thread (the bench's own context);
//! - (b) glcmd, `W` workers;
//! - (b0) glcmd recorded by the calling thread itself, no pool (`frame::glcmd` with 0 workers):
//!   each list submitted as soon as it is full, as an application with one recording thread
//!   (its main thread) writes it; the same thread as (a), so (b0)/(a) leaves out where the
//!   scheduler puts a thread, and (b)/(b0) is what the pool's hand-off costs;
//! - (c) a `Box<dyn FnOnce>` per call, `W` workers.
//!
//! Each variant's figure is its median frame, as in the full bench. Ratios are taken **within a
//! round** (b/a, b0/a, b/b0, b/w, w/cpu, c/a, a/cpu) and summarised over the rounds by their
//! median with a 95 % percentile-bootstrap interval (rounds resampled with replacement, fixed
//! seed: `speeds::paired_interval`, tested in `tests/bench_speeds.rs`). Pairing within a round
//! removes the drift between rounds; the interval says what is left.
//!
//! **Where the time goes.** For (w), (b) and (c) the table gives the worker threads' time on a
//! CPU and time runnable but waiting for one, per frame (`/proc/thread-self/schedstat`): on a
//! machine with spare cores the waiting is near zero and (b)'s CPU time exceeds (w)'s by the
//! recording alone; on the 2-core development machine the render thread (and llvmpipe's own
//! threads) compete with the worker, and the waiting shows it. For (b0) the figures are the
//! calling thread's. For (b) it also gives the render thread's replay time and parks per frame,
//! and for (b) and (b0) the wall time spent in `Frame::submit` per frame: a submit wakes the
//! parked render thread, and where no core is idle the kernel may run the woken thread on the
//! submitting thread's core at once, so the submit returns only after the render thread has
//! replayed (on the loaded 2-core machine: 14–16 ms for a frame's 9 submits, against 0.09 ms
//! for all of a frame's recording and submitting with no CPU work, when the render thread never
//! parks).

use std::fmt::Write as _;

use glcmd::{Device, Gl};

use crate::frame::{self, FrameCfg, FrameResult, Sched};
use crate::harness::ms;
use crate::scene::Scene;
use crate::speeds;

/// One round's figures.
pub struct Round {
    pub cpu: f64,
    pub pool: (f64, Option<Sched>),
    pub direct: FrameResult,
    pub glcmd: FrameResult,
    pub inline: FrameResult,
    pub closures: FrameResult,
}

pub struct CpuFrame {
    pub cfg: FrameCfg,
    pub workers: usize,
    pub rounds: Vec<Round>,
}

/// Runs `rounds` rounds, the variants' order rotated by one each round.
///
/// # Safety
/// `g` and `s` belong to the context current on this thread.
#[allow(clippy::too_many_arguments)]
pub unsafe fn run(
    g: &Gl,
    s: &Scene,
    device: &Device,
    ds: Scene,
    cfg: &FrameCfg,
    workers: usize,
    rounds: usize,
    progress: &dyn Fn(&str),
) -> CpuFrame {
    let mut out = CpuFrame { cfg: *cfg, workers, rounds: Vec::new() };
    for r in 0..rounds {
        progress(&format!("CPU-bound frame, round {} of {rounds}", r + 1));
        let (mut cpu, mut pool, mut direct, mut glcmd, mut inline, mut closures) = (None, None, None, None, None, None);
        for v in 0..6 {
            match (v + r) % 6 {
                0 => cpu = Some(frame::cpu_only(cfg)),
                1 => pool = Some(frame::cpu_pool(cfg, workers)),
                // SAFETY: as this function's.
                2 => direct = Some(unsafe { frame::direct(g, s, cfg) }),
                3 => glcmd = Some(frame::glcmd(device, ds, cfg, workers)),
                4 => inline = Some(frame::glcmd(device, ds, cfg, 0)),
                _ => closures = Some(frame::closures(cfg, workers)),
            }
        }
        let (cpu, pool, direct) = (cpu.unwrap(), pool.unwrap(), direct.unwrap());
        let (glcmd, inline, closures) = (glcmd.unwrap(), inline.unwrap(), closures.unwrap());
        out.rounds.push(Round { cpu, pool, direct, glcmd, inline, closures });
    }
    out
}

/// A ratio cell: median over rounds and its interval.
fn cell(i: Option<speeds::Interval>) -> String {
    match i {
        Some(i) => format!("**{:.3}** ({:.3}–{:.3})", i.ratio, i.lo, i.hi),
        None => "–".into(),
    }
}

impl CpuFrame {
    /// A ratio taken within each round, over the rounds.
    pub fn ratio(&self, f: impl Fn(&Round) -> f64) -> Option<speeds::Interval> {
        speeds::paired_interval(&self.rounds.iter().map(f).collect::<Vec<_>>(), speeds::RESAMPLES, speeds::SEED)
    }

    fn med(&self, f: impl Fn(&Round) -> f64) -> f64 {
        speeds::median(&self.rounds.iter().map(f).filter(|x| x.is_finite()).collect::<Vec<_>>())
    }

    /// glcmd / direct GL: the headline.
    pub fn glcmd_vs_direct(&self) -> Option<speeds::Interval> {
        self.ratio(|r| r.glcmd.median_ns / r.direct.median_ns)
    }

    pub fn table(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "{} objects per frame, {} iterations of CPU work per object, {} worker(s); {} rounds, each every variant \
             once in an order rotated by one per round; a variant's figure is its median frame over {} frames; ratios \
             are taken within a round and given as the median over rounds (95 % bootstrap interval over rounds).\n",
            self.cfg.objects,
            self.cfg.iters,
            self.workers,
            self.rounds.len(),
            self.cfg.frames
        );
        let _ = writeln!(
            out,
            "| variant | frame, median over rounds (ms) | min–max (ms) | recording thread(s) on a CPU / frame (ms) | waiting for a CPU / frame (ms) |"
        );
        let _ = writeln!(out, "| --- | ---: | ---: | ---: | ---: |");
        let sched = |f: &dyn Fn(&Round) -> Option<Sched>| {
            let run = self.med(|r| f(r).map_or(f64::NAN, |s| s.run_ns));
            let wait = self.med(|r| f(r).map_or(f64::NAN, |s| s.wait_ns));
            (ms(run), ms(wait))
        };
        type Pick<'a> = &'a dyn Fn(&Round) -> f64;
        type PickSched<'a> = &'a dyn Fn(&Round) -> Option<Sched>;
        let rows: [(&str, Pick, Option<PickSched>); 6] = [
            ("(cpu) CPU work alone, calling thread", &|r| r.cpu, None),
            ("(w) CPU work alone, pool thread(s)", &|r| r.pool.0, Some(&|r| r.pool.1)),
            ("(a) direct GL, one thread", &|r| r.direct.median_ns, None),
            ("(b) glcmd", &|r| r.glcmd.median_ns, Some(&|r| r.glcmd.worker_sched)),
            ("(b0) glcmd, recorded by the calling thread", &|r| r.inline.median_ns, Some(&|r| r.inline.worker_sched)),
            ("(c) `Box<dyn FnOnce>` per call", &|r| r.closures.median_ns, Some(&|r| r.closures.worker_sched)),
        ];
        for (label, f, s) in rows {
            let v: Vec<f64> = self.rounds.iter().map(f).collect();
            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let (run, wait) = s.map(sched).unwrap_or(("–".into(), "–".into()));
            let _ = writeln!(out, "| {label} | {} | {}–{} | {run} | {wait} |", ms(speeds::median(&v)), ms(lo), ms(hi));
        }
        let same = self
            .rounds
            .iter()
            .all(|r| [&r.glcmd, &r.inline, &r.closures].iter().all(|x| x.checksum == r.direct.checksum));
        let _ = writeln!(
            out,
            "\nRender thread of (b), per frame (median over rounds): replay {} ms, parked {} ms, {:.1} parks. \
             Wall time in `Frame::submit` per frame: (b) {} ms, (b0) {} ms. Images: {}.\n",
            ms(self.med(|r| r.glcmd.replay_ns_per_frame.unwrap_or(f64::NAN))),
            ms(self.med(|r| r.glcmd.parked_ns_per_frame.unwrap_or(f64::NAN))),
            self.med(|r| r.glcmd.parks_per_frame.unwrap_or(f64::NAN)),
            ms(self.med(|r| r.glcmd.submit_ns_per_frame.unwrap_or(f64::NAN))),
            ms(self.med(|r| r.inline.submit_ns_per_frame.unwrap_or(f64::NAN))),
            if same { "all the same as direct GL's" } else { "DIFFERENT" }
        );
        let _ = writeln!(out, "| ratio, within a round | median (95 % interval) | what it shows |");
        let _ = writeln!(out, "| --- | ---: | --- |");
        let lines: [(&str, Pick, &str); 7] = [
            ("(b) glcmd / (a) direct", &|r| r.glcmd.median_ns / r.direct.median_ns, "the goal: ≤ 1"),
            (
                "(b0) glcmd on the calling thread / (a) direct",
                &|r| r.inline.median_ns / r.direct.median_ns,
                "the same on direct GL's own thread",
            ),
            ("(b) / (b0)", &|r| r.glcmd.median_ns / r.inline.median_ns, "what the pool's hand-off costs glcmd"),
            (
                "(b) glcmd / (w) work on a pool thread",
                &|r| r.glcmd.median_ns / r.pool.0,
                "glcmd's cost beside the bare pool",
            ),
            (
                "(w) pool thread / (cpu) calling thread",
                &|r| r.pool.0 / r.cpu,
                "moving the work to a pool thread, no GL",
            ),
            (
                "(c) closures / (a) direct",
                &|r| r.closures.median_ns / r.direct.median_ns,
                "what a Rust programmer would write",
            ),
            (
                "(a) direct / (cpu) work alone",
                &|r| r.direct.median_ns / r.cpu,
                "the GL calls' share of direct GL's frame",
            ),
        ];
        for (label, f, what) in lines {
            let _ = writeln!(out, "| {label} | {} | {what} |", cell(self.ratio(f)));
        }
        let _ = writeln!(out, "\nPer round (ms): cpu, w, a, b, b0, c:");
        for (i, r) in self.rounds.iter().enumerate() {
            let v = [r.cpu, r.pool.0, r.direct.median_ns, r.glcmd.median_ns, r.inline.median_ns, r.closures.median_ns];
            let _ = writeln!(out, "- round {}: {}", i + 1, v.map(ms).join(", "));
        }
    }
}
