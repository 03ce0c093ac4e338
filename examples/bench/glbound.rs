//! The GL-bound frame (issue 10): no CPU work per object, so the render thread's replay *is*
//! the frame. Compared by throughput (frames over a run ended by `glFinish`, ms per frame), not
//! by medians of unfinished frames: a driver that queues work (NVIDIA's threaded optimisations)
//! pays it in the final finish.
//!
//! Every variant runs **alone in a process of its own** (a child of this binary): a second GL
//! context in the same process (the direct context beside glcmd's) slows both down on the GPU
//! machine, which made in-process GL-bound comparisons swing by 2×. The variants are
//! interleaved (direct, glcmd with 1, 2, 4, 8, 15 workers, robust access, 15 workers with one
//! list each, (e), (f)) and the sequence runs `reps` times, so a drift of the machine's speed
//! spreads over every variant; each ratio is per run and given as median (min–max) over the
//! runs.
//!
//! The GPU machine runs GL-bound frames at one of two speeds, so the per-run ratios above are
//! fast/slow against slow/fast half the time: the table *by speed* (module `speeds`) classifies
//! every segment of every variant by its speed and gives each variant's ratio to direct GL
//! within each speed with a bootstrap interval. Each child times `segments` segments.
//!
//! Variants: (a′) direct GL; (b) glcmd; (b, robust) glcmd on a robust-access context; (e) direct
//! GL with the driver's threading (`__GL_THREADED_OPTIMIZATIONS=1` or `mesa_glthread=true`);
//! (f) glcmd with the driver's threading, so replay only marshals and the driver's thread does
//! the work.

use std::fmt::Write as _;

use crate::breakdown::Breakdown;
use crate::child::{self, ChildResult};
use crate::frame::FrameCfg;
use crate::harness::{median, ms};
use crate::speeds::{self, Speeds};
use crate::WORKERS;

/// Worker counts of variant (f).
const F_WORKERS: [usize; 2] = [1, 4];

/// Variant (b, coarse): the most workers, each recording its share of the objects into one
/// list instead of `LISTS_PER_WORKER` (16 lists a frame instead of 119). Beside (b) at the same
/// worker count it separates what each list costs from what the number of threads costs.
const COARSE_WORKERS: usize = 15;
const COARSE_LABEL: &str = "(b) glcmd, one list per worker";

type Run = Result<ChildResult, String>;

pub struct GlBound {
    pub cfg: FrameCfg,
    pub reps: usize,
    /// Segments per child process.
    pub segments: usize,
    /// Per run.
    pub direct: Vec<Run>,
    pub glcmd: Vec<Vec<(usize, Run)>>,
    pub robust: Vec<Run>,
    /// Variant (b, coarse), see [`COARSE_WORKERS`].
    pub coarse: Vec<Run>,
    pub driver_threaded: Vec<Run>,
    pub glcmd_threaded: Vec<Vec<(usize, Run)>>,
    pub threading: Option<(&'static str, &'static str, &'static str)>,
}

/// Runs every variant `reps` times, interleaved, each in a child process.
pub fn run(
    cfg: &FrameCfg,
    reps: usize,
    segments: usize,
    threading: Option<(&'static str, &'static str, &'static str)>,
    progress: &dyn Fn(&str),
) -> GlBound {
    let mut r = GlBound {
        cfg: *cfg,
        reps,
        segments,
        direct: Vec::new(),
        glcmd: Vec::new(),
        robust: Vec::new(),
        coarse: Vec::new(),
        driver_threaded: Vec::new(),
        glcmd_threaded: Vec::new(),
        threading,
    };
    for rep in 0..reps {
        progress(&format!("GL-bound frame, run {} of {reps} (every variant a process of its own)", rep + 1));
        let (n, glcmd) = (segments, |env, w, robust| child::run_glcmd_with(env, cfg, w, robust, segments));
        r.direct.push(child::run_direct_segments(None, cfg, 3, n));
        r.glcmd.push(WORKERS.iter().map(|&w| (w, glcmd(None, w, false))).collect());
        r.robust.push(glcmd(None, 1, true));
        let coarse = FrameCfg { lists_per_worker: 1, ..*cfg };
        r.coarse.push(child::run_glcmd_with(None, &coarse, COARSE_WORKERS, false, segments));
        if let Some((var, val, _)) = threading {
            r.driver_threaded.push(child::run_direct_segments(Some((var, val)), cfg, 3, n));
            r.glcmd_threaded.push(F_WORKERS.iter().map(|&w| (w, glcmd(Some((var, val)), w, false))).collect());
        }
    }
    r
}

fn spread(v: &[f64]) -> Option<(f64, f64, f64)> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    let m = median(&mut s);
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some((m, lo, hi))
}

fn med(v: Vec<f64>) -> f64 {
    let mut v = v;
    if v.is_empty() {
        return f64::NAN;
    }
    median(&mut v)
}

/// Every segment of the runs that succeeded.
fn segs<'a>(runs: impl Iterator<Item = &'a Run>) -> Vec<f64> {
    runs.filter_map(|r| r.as_ref().ok()).flat_map(|c| c.segments.iter().copied()).collect()
}

impl GlBound {
    /// Every variant as (label, workers, all its segments), direct GL first.
    fn variant_segments(&self) -> Vec<(String, String, Vec<f64>)> {
        let mut v = vec![("(a′) direct GL".to_string(), "1".to_string(), segs(self.direct.iter()))];
        for &w in WORKERS.iter() {
            let runs = self.glcmd.iter().filter_map(|r| r.iter().find(|(x, _)| *x == w).map(|(_, r)| r));
            v.push(("(b) glcmd".into(), w.to_string(), segs(runs)));
        }
        v.push(("(b) glcmd, robust access".into(), "1".into(), segs(self.robust.iter())));
        v.push((COARSE_LABEL.into(), COARSE_WORKERS.to_string(), segs(self.coarse.iter())));
        if let Some((_, _, label)) = self.threading {
            v.push((label.to_string(), "1 + driver thread".into(), segs(self.driver_threaded.iter())));
            for &w in F_WORKERS.iter() {
                let runs = self.glcmd_threaded.iter().filter_map(|r| r.iter().find(|(x, _)| *x == w).map(|(_, r)| r));
                v.push(("(f) glcmd + driver threading".into(), w.to_string(), segs(runs)));
            }
        }
        v
    }

    /// Every segment's throughput (ns per frame), one line per variant in run order, for
    /// re-analysis: `segments <label> | <workers> | t1,t2,...`.
    pub fn raw_segments(&self) -> String {
        let mut out = String::new();
        for (label, workers, v) in self.variant_segments() {
            let list: Vec<String> = v.iter().map(|x| format!("{x:.0}")).collect();
            let _ = writeln!(out, "segments {label} | {workers} | {}", list.join(","));
        }
        out
    }

    /// The table by speed of this round (see [`speed_table`]).
    pub fn speed_table(&self, out: &mut String) {
        let how = format!("{} runs × {} segments per variant", self.reps, self.segments);
        speed_table(&self.variant_segments(), &how, self.cfg.frames, out);
    }

    /// Where the glcmd variants' frames went (`breakdown.rs`): per variant, the median over the
    /// runs of each figure (first segment of each run), µs per frame; `take` and `submit` per
    /// list, and the render thread's `other` per list in ns. `clock / frame` is the render thread's time between frame ends over the harness's
    /// throughput (≈ 1 in steady state); `Σ / clock` checks the phases cover the clock.
    pub fn breakdown_table(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "\nWhere the frame goes (µs per frame, median over {} runs; render thread: its clock between frame ends and \
             its phases; recording side: from the harness's start signal to the first / last worker running, to slot 0 \
             submitted, to every worker done; time in `command_list` and `Frame::submit` per list; the coordinating \
             thread's wait for frame i−2 and, when it blocked, its lateness after that frame ended). `clock / frame` \
             falls short of 1 by the throughput window's ends, which the render clock's window leaves out (the \
             pipeline's drain before the measured frames and the final `glFinish`): about 1 to 2 frames in {}.\n",
            self.reps,
            self.cfg.frames
        );
        let _ = writeln!(
            out,
            "| variant | workers | frame (throughput) | render clock | clock / frame | Σ phases / clock | replay | wait first | \
             wait later | idle | frame end | round trips | other | other / list | wake first | wake last | slot 0 | span | lists | take / list | \
             submit / list | main wait | main late |"
        );
        let _ = writeln!(out, "|{}", " --- |".repeat(23));
        let mut rows: Vec<(String, String, Vec<&ChildResult>)> = WORKERS
            .iter()
            .map(|&w| {
                let runs = (0..self.glcmd.len()).filter_map(|i| self.glcmd_run(i, w)).collect();
                ("(b) glcmd".to_string(), w.to_string(), runs)
            })
            .collect();
        rows.push((
            "(b) glcmd, robust access".into(),
            "1".into(),
            self.robust.iter().filter_map(|r| r.as_ref().ok()).collect(),
        ));
        rows.push((
            COARSE_LABEL.into(),
            COARSE_WORKERS.to_string(),
            self.coarse.iter().filter_map(|r| r.as_ref().ok()).collect(),
        ));
        if self.threading.is_some() {
            for &w in F_WORKERS.iter() {
                let runs = (0..self.glcmd_threaded.len()).filter_map(|i| self.f_run(i, w)).collect();
                rows.push(("(f) glcmd + driver threading".into(), w.to_string(), runs));
            }
        }
        let us = |x: f64| if x.is_finite() { format!("{:.1}", x / 1000.0) } else { "–".into() };
        for (label, workers, runs) in rows {
            let bds: Vec<(&ChildResult, &Breakdown)> =
                runs.iter().filter_map(|c| Some((*c, c.breakdown.as_ref()?))).collect();
            if bds.is_empty() {
                let _ = writeln!(out, "| {label} | {workers} | no breakdown |{}", " |".repeat(21));
                continue;
            }
            let m = |f: &dyn Fn(&ChildResult, &Breakdown) -> f64| med(bds.iter().map(|(c, b)| f(c, b)).collect());
            let g = |name: &'static str| m(&|_, b| b.get(name));
            let per_list = |name: &'static str| m(&|_, b| b.get(name) / b.get("lists"));
            let mut cells = vec![
                us(m(&|c, _| c.mean_ns)),
                us(g("clock")),
                format!("{:.3}", m(&|c, b| b.get("clock") / c.mean_ns)),
                format!("{:.4}", m(&|_, b| b.phases_over_clock())),
            ];
            cells.extend(
                ["replay", "wait_first", "wait_later", "idle", "frame_end", "round_trips", "other"]
                    .iter()
                    .map(|n| us(g(n))),
            );
            // The render thread's own time per list outside replay: taking the list off the
            // channel, filing it, scheduling it (ns).
            cells.push(format!("{:.0}", per_list("other")));
            cells.extend(["wake_first", "wake_last", "slot0", "span"].iter().map(|n| us(g(n))));
            cells.push(format!("{:.0}", g("lists")));
            cells.push(us(per_list("take")));
            cells.push(us(per_list("submit")));
            cells.push(us(g("main_wait")));
            cells.push(us(g("main_late")));
            let _ = writeln!(out, "| {label} | {workers} | {} |", cells.join(" | "));
        }
    }

    /// Per-run throughput ratio of a variant to direct GL of the same run.
    fn ratio(&self, pick: impl Fn(usize) -> Option<f64>) -> Option<(f64, f64, f64)> {
        let per_run: Vec<f64> =
            (0..self.direct.len()).filter_map(|i| Some(pick(i)? / self.direct[i].as_ref().ok()?.mean_ns)).collect();
        spread(&per_run)
    }

    fn glcmd_run(&self, i: usize, workers: usize) -> Option<&ChildResult> {
        self.glcmd.get(i)?.iter().find(|(w, _)| *w == workers)?.1.as_ref().ok()
    }

    fn f_run(&self, i: usize, workers: usize) -> Option<&ChildResult> {
        self.glcmd_threaded.get(i)?.iter().find(|(w, _)| *w == workers)?.1.as_ref().ok()
    }

    pub fn glcmd_ratio(&self, workers: usize) -> Option<(f64, f64, f64)> {
        self.ratio(|i| Some(self.glcmd_run(i, workers)?.mean_ns))
    }

    /// The worst glcmd/direct throughput ratio over the worker counts (median over runs).
    pub fn worst(&self) -> f64 {
        WORKERS.iter().filter_map(|&w| self.glcmd_ratio(w)).map(|r| r.0).fold(f64::NAN, f64::max)
    }

    /// The best glcmd variant (with or without the driver's threading) / direct.
    pub fn best(&self) -> f64 {
        let b = WORKERS.iter().filter_map(|&w| self.glcmd_ratio(w)).map(|r| r.0).fold(f64::NAN, f64::min);
        F_WORKERS.iter().filter_map(|&w| self.ratio(|i| Some(self.f_run(i, w)?.mean_ns))).map(|r| r.0).fold(b, f64::min)
    }

    /// Render-thread parks per frame, the most over the worker counts (median over runs).
    pub fn parks_per_frame(&self) -> f64 {
        WORKERS
            .iter()
            .map(|&w| med((0..self.glcmd.len()).filter_map(|i| Some(self.glcmd_run(i, w)?.parks)).collect()))
            .filter(|x| x.is_finite())
            .fold(f64::NAN, f64::max)
    }

    pub fn table(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "{} objects, 3 GL calls each, no CPU work; every variant alone in a process of its own; {} runs, variants \
             interleaved within each run; throughput = frames over a run ended by `glFinish` (ms per frame); ratios to \
             direct GL are per run, given as median (min–max).\n",
            self.cfg.objects, self.reps
        );
        let _ = writeln!(
            out,
            "| variant | workers | throughput (ms/frame) | median frame (ms) | / direct, throughput | parks / frame | parked / frame (ms) | replay / frame (ms) |"
        );
        let _ = writeln!(out, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        let fmt_ratio = |r: Option<(f64, f64, f64)>| match r {
            Some((m, lo, hi)) => format!("**{m:.2}** ({lo:.2}–{hi:.2})"),
            None => "–".into(),
        };
        let row = |out: &mut String,
                   label: &str,
                   workers: &str,
                   runs: Vec<&ChildResult>,
                   ratio: Option<(f64, f64, f64)>,
                   glcmd: bool| {
            if runs.is_empty() {
                let _ = writeln!(out, "| {label} | {workers} | failed | | | | | |");
                return;
            }
            let extra = |f: &dyn Fn(&ChildResult) -> f64| {
                if glcmd {
                    let v = med(runs.iter().map(|c| f(c)).filter(|x| x.is_finite()).collect());
                    if v.is_finite() {
                        return v;
                    }
                }
                f64::NAN
            };
            let parks = extra(&|c| c.parks);
            let _ = writeln!(
                out,
                "| {label} | {workers} | {} | {} | {} | {} | {} | {} |",
                ms(med(runs.iter().map(|c| c.mean_ns).collect())),
                ms(med(runs.iter().map(|c| c.frame_ns).collect())),
                fmt_ratio(ratio),
                if parks.is_finite() { format!("{parks:.2}") } else { "–".into() },
                if glcmd { ms(extra(&|c| c.parked_ns)) } else { "–".into() },
                if glcmd { ms(extra(&|c| c.replay_ns)) } else { "–".into() },
            );
        };
        fn ok(v: &[Run]) -> Vec<&ChildResult> {
            v.iter().filter_map(|r| r.as_ref().ok()).collect()
        }
        row(out, "(a′) direct GL", "1", ok(&self.direct), Some((1.0, 1.0, 1.0)), false);
        for &w in WORKERS.iter() {
            let runs: Vec<&ChildResult> = (0..self.glcmd.len()).filter_map(|i| self.glcmd_run(i, w)).collect();
            row(out, "(b) glcmd", &w.to_string(), runs, self.glcmd_ratio(w), true);
        }
        let robust = ok(&self.robust);
        if robust.is_empty() {
            let why = self.robust.iter().find_map(|r| r.as_ref().err()).cloned().unwrap_or_default();
            let _ = writeln!(out, "| (b) glcmd, robust access | 1 | not measured: {why} | | | | | |");
        } else {
            let ratio = self.ratio(|i| Some(self.robust.get(i)?.as_ref().ok()?.mean_ns));
            row(out, "(b) glcmd, robust access", "1", robust, ratio, true);
        }
        let coarse = ok(&self.coarse);
        let ratio = self.ratio(|i| Some(self.coarse.get(i)?.as_ref().ok()?.mean_ns));
        row(out, COARSE_LABEL, &COARSE_WORKERS.to_string(), coarse, ratio, true);
        if let Some((_, _, label)) = self.threading {
            let e = ok(&self.driver_threaded);
            let ratio = self.ratio(|i| Some(self.driver_threaded.get(i)?.as_ref().ok()?.mean_ns));
            row(out, label, "1 + driver thread", e, ratio, false);
            for &w in F_WORKERS.iter() {
                let runs: Vec<&ChildResult> = (0..self.glcmd_threaded.len()).filter_map(|i| self.f_run(i, w)).collect();
                let ratio = self.ratio(|i| Some(self.f_run(i, w)?.mean_ns));
                row(out, "(f) glcmd + driver threading", &w.to_string(), runs, ratio, true);
            }
            if let Some(c) = self.f_run(0, 1) {
                let _ = writeln!(
                    out,
                    "\nThreads in an (f) process: {}.",
                    if c.threads.is_empty() { "?" } else { &c.threads }
                );
            }
            if let Some(Ok(c)) = self.driver_threaded.first() {
                let _ = writeln!(
                    out,
                    "Threads in an (e) process: {}.",
                    if c.threads.is_empty() { "?" } else { &c.threads }
                );
            }
        }
        let _ = writeln!(
            out,
            "\nWorst glcmd / direct (throughput, median over runs): **{:.2}**; best glcmd variant / direct: **{:.2}**; \
             render-thread parks per frame (most over worker counts): {:.2}.",
            self.worst(),
            self.best(),
            self.parks_per_frame()
        );
    }
}

/// The table by speed: every variant's segments classified (see `speeds`), its ratio to direct
/// GL (the first variant) within each speed with a bootstrap 95 % interval. `how` says how many
/// runs and segments the data are; `frames` is the frames per segment.
pub fn speed_table(vars: &[(String, String, Vec<f64>)], how: &str, frames: usize, out: &mut String) {
    let classified: Vec<Speeds> = vars.iter().map(|(_, _, s)| speeds::classify(s)).collect();
    let _ = writeln!(
        out,
        "\nBy speed: {how} (a segment: {frames} frames ended by `glFinish`, ms per frame). Each variant's segments \
         are split in two where the parts are tightest (least variance of the log times within the parts); parts \
         whose medians are ≥ {:.2}× apart are the fast and the slow speed; a segment more than {:.0} % from its \
         speed's median is left out as mixed; ratio = median of the variant's segments / median of direct GL's, \
         within one speed, with a 95 % bootstrap interval ({} resamples, fixed seed); fewer than {} segments a side: \
         too few to judge.\n",
        speeds::SEPARATION,
        (speeds::BAND - 1.0) * 100.0,
        speeds::RESAMPLES,
        speeds::MIN_SIDE
    );
    let _ = writeln!(
        out,
        "| variant | workers | fast: n | fast (ms) | / direct, fast | slow: n | slow (ms) | / direct, slow | slow / fast | spread fast, slow | mixed |"
    );
    let _ = writeln!(out, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let Some(direct) = classified.first() else { return };
    for ((label, workers, all), c) in vars.iter().zip(&classified) {
        if all.is_empty() {
            let _ = writeln!(out, "| {label} | {workers} | failed | | | | | | | | |");
            continue;
        }
        let pct = |x: f64| if x.is_finite() { format!("{:.1} %", x * 100.0) } else { "–".into() };
        let _ = writeln!(
            out,
            "| {label} | {workers} | {} | {} | {} | {} | {} | {} | {} | {}, {} | {} |",
            c.fast.len(),
            ms(speeds::median(&c.fast)),
            speeds::cell(&speeds::judge(c, direct, true)),
            c.slow.len(),
            ms(speeds::median(&c.slow)),
            speeds::cell(&speeds::judge(c, direct, false)),
            c.distance().map_or("–".into(), |d| format!("{d:.2}")),
            pct(c.spread(true)),
            pct(c.spread(false)),
            c.mixed.len()
        );
    }
    driver_threading_table(vars, &classified, out);
}

/// Variant (f) against (e) within each speed: whether glcmd on the driver's threading beats the
/// driver's threading alone (issue 20, item 3: ≤ 0.95). Nothing when the round had no (e).
fn driver_threading_table(vars: &[(String, String, Vec<f64>)], classified: &[Speeds], out: &mut String) {
    let Some(e) = vars.iter().position(|(label, _, _)| label.starts_with("(e)")) else { return };
    let _ = writeln!(out, "\n| (f) against (e), within a speed | workers | / (e), fast | / (e), slow |");
    let _ = writeln!(out, "| --- | ---: | ---: | ---: |");
    for (i, (label, workers, _)) in vars.iter().enumerate().filter(|(_, v)| v.0.starts_with("(f)")) {
        let (f, e) = (&classified[i], &classified[e]);
        let cells = [true, false].map(|fast| speeds::cell(&speeds::judge(f, e, fast)));
        let _ = writeln!(out, "| {label} | {workers} | {} | {} |", cells[0], cells[1]);
    }
}
