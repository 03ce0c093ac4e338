//! glcmd's benchmarks, side by side in one run: `cargo run --release --example bench`
//! (`-- --quick` for the quick mode that CI runs; it asserts nothing).
//!
//! What it measures (see BENCHMARKS.md for results and how to read them):
//!
//! 1. ns to record one command into a warm list, for four commands, through the Rust method and
//!    through the C ABI's entry point (crate glcmd-capi, called by function pointer as a C
//!    program calls it), beside the cost of the alternatives on the calling thread: a direct GL
//!    call, a direct GL call with the driver's own threading on, and a
//!    `Box<dyn FnOnce(&Gl) + Send>` sent over a channel;
//! 2. bytes per packet beside Mesa glthread's layout for the same call;
//! 3. replay dispatch: ns per command over calling the same no-op functions directly through the
//!    same table;
//! 4. round-trip latency of a query and of an immediate create;
//! 5. heap allocations per steady-state frame through a real headless device (a counting
//!    `#[global_allocator]`);
//! 6. the frame benchmark: N objects with per-object CPU work and three GL calls each, (a)
//!    direct single-threaded GL, (b) glcmd with 1, 2, 4, 8, 15 workers, (c) a boxed closure per
//!    call over channels, (d) Mesa glthread (llvmpipe only), (e) NVIDIA threaded optimisations
//!    (NVIDIA only), and (a′) direct GL alone in a process of its own, against the floor
//!    max(GL time alone, CPU work / min(workers, cores)); a second scenario (full mode) with
//!    little CPU work shows the GL-bound case.
//!
//! Options: `--quick`; `--work-us X` (CPU work per object, default 50), `--objects N`,
//! `--frames N`, `--warmup N`; `--only record|dispatch` runs that micro-benchmark alone, without
//! a GL context (for `valgrind --tool=callgrind` or `perf`); `--icount WORKLOAD REPS` runs one
//! workload for the instruction counts of `.ci/icount.sh` (see `bench/icount.rs`);
//! `--only glbound [--reps R] [--segments S]` runs the GL-bound frame alone, R interleaved runs
//! of every variant, each child timing S segments, with the table by speed (`bench/speeds.rs`).
//! `--only cpuframe [--rounds R] [--workers W]` runs the CPU-bound frame with W workers (1 by
//! default) against direct GL, the bare CPU work and the closures, R interleaved rounds, ratios
//! within a round with intervals (`bench/cpuframe.rs`).
//! `BENCH_TRACE_ALLOCS=1` prints the backtrace of any allocation made in a steady-state window.
//!
//! The harness is this file's own (median of timed batches), not criterion: every figure is a
//! ratio measured side by side in one process, some variants need a real GL context on a given
//! thread or a child process with a different environment, and the output is a set of markdown
//! tables plus one JSON line; criterion's statistics (outlier classification, regression
//! against a saved baseline) would add a dependency tree and time without changing those
//! ratios.
//!
//! The last line printed is one JSON object with the headline figures.

#[path = "bench/alloc.rs"]
mod alloc;
#[path = "bench/breakdown.rs"]
mod breakdown;
#[path = "bench/child.rs"]
mod child;
#[path = "bench/cpuframe.rs"]
mod cpuframe;
#[path = "bench/diag.rs"]
mod diag;
#[path = "bench/frame.rs"]
mod frame;
#[path = "bench/glbound.rs"]
mod glbound;
#[path = "bench/harness.rs"]
mod harness;
#[path = "bench/icount.rs"]
mod icount;
#[path = "bench/micro.rs"]
mod micro;
#[path = "bench/scene.rs"]
mod scene;
#[path = "bench/speeds.rs"]
mod speeds;
#[path = "bench/worker.rs"]
mod worker;

use std::fmt::Write as _;
use std::time::Instant;

use glcmd::context::GlContext;
use glcmd::{Device, Gl};

use frame::{FrameCfg, FrameResult};
use harness::{ms, ns};
use micro::{Cmd, CMDS};

#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

pub const WORKERS: [usize; 5] = [1, 2, 4, 8, 15];

struct Opts {
    quick: bool,
    /// CPU work per object in the main scenario, µs.
    work_us: f64,
    objects: u32,
    frames: usize,
    warmup: usize,
    reps: usize,
    round_trips: usize,
}

fn opts(args: &[String]) -> Opts {
    let quick = args.iter().any(|a| a == "--quick");
    let value = |name: &str| {
        args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse::<f64>().ok())
    };
    let mut o = if quick {
        Opts { quick, work_us: 50.0, objects: 400, frames: 15, warmup: 3, reps: 21, round_trips: 300 }
    } else {
        Opts { quick, work_us: 50.0, objects: 2000, frames: 60, warmup: 5, reps: 101, round_trips: 3000 }
    };
    if let Some(v) = value("--work-us") {
        o.work_us = v;
    }
    if let Some(v) = value("--objects") {
        o.objects = v as u32;
    }
    if let Some(v) = value("--frames") {
        o.frames = v as usize;
    }
    if let Some(v) = value("--warmup") {
        o.warmup = v as usize;
    }
    o
}

fn progress(what: &str, t0: Instant) {
    eprintln!("[{:6.1} s] {what}", t0.elapsed().as_secs_f64());
}

/// One scenario of the frame benchmark.
struct Scenario {
    cfg: FrameCfg,
    work_us: f64,
    /// CPU work alone and GL calls alone per frame: the smaller of two measurements, one before
    /// and one after the variants (a machine's speed can drift during a run: clock ramps, noisy
    /// neighbours), so the floor is the fastest the machine was seen to do each part.
    cpu: f64,
    gl_only: f64,
    cpu_runs: [f64; 2],
    gl_runs: [f64; 2],
    direct: FrameResult,
    glcmd: Vec<(usize, FrameResult)>,
    /// (b0): glcmd recorded by the calling thread, no pool (`frame::glcmd` with 0 workers).
    inline: FrameResult,
    closures: Vec<(usize, FrameResult)>,
    /// Direct GL in a child process of its own, without and with the driver's threading.
    direct_alone: Option<Result<child::ChildResult, String>>,
    driver_threaded: Option<(String, Result<child::ChildResult, String>)>,
}

#[derive(Clone, Copy, PartialEq)]
enum Driver {
    Mesa,
    Nvidia,
    Other,
}

fn driver_threading(driver: Driver) -> Option<(&'static str, &'static str, &'static str)> {
    match driver {
        Driver::Mesa => Some(("mesa_glthread", "true", "(d) Mesa glthread")),
        Driver::Nvidia => Some(("__GL_THREADED_OPTIMIZATIONS", "1", "(e) NVIDIA threaded optimisations")),
        Driver::Other => None,
    }
}

#[allow(clippy::too_many_arguments)]
fn scenario(
    g: &Gl,
    s: &scene::Scene,
    device: &Device,
    ds: scene::Scene,
    o: &Opts,
    work_us: f64,
    iters: u32,
    driver: Driver,
    t0: Instant,
) -> Scenario {
    // `chunk` is set per worker count (`FrameCfg::for_workers`); direct GL does not use it.
    let cfg = FrameCfg::new(o.objects, iters, o.warmup, o.frames);
    progress(&format!("frame benchmark, {work_us} µs of CPU work per object: CPU alone, GL alone, direct"), t0);
    let cpu0 = frame::cpu_only(&cfg);
    let gl0 = unsafe { frame::direct(g, s, &FrameCfg { iters: 0, ..cfg }) }.median_ns;
    let direct = unsafe { frame::direct(g, s, &cfg) };
    // Right after direct GL, on the same thread: glcmd recorded by the calling thread (b0).
    progress("  glcmd, recorded by the calling thread", t0);
    let inline = frame::glcmd(device, ds, &cfg, 0);
    let mut glcmd = Vec::new();
    let mut closures = Vec::new();
    // glcmd and the closures alternate, worker count by worker count, so that a drift of the
    // machine's speed during the run does not favour one of them.
    for w in WORKERS {
        progress(&format!("  glcmd, {w} workers"), t0);
        glcmd.push((w, frame::glcmd(device, ds, &cfg, w)));
        progress(&format!("  Box<dyn FnOnce> per call, {w} workers"), t0);
        closures.push((w, frame::closures(&cfg, w)));
    }
    progress("  direct GL alone in a child process", t0);
    let direct_alone = Some(child::run(None, &cfg, o.reps.min(31)));
    let driver_threaded = driver_threading(driver).map(|(var, val, label)| {
        progress(&format!("  {label} (child process, {var}={val})"), t0);
        (label.to_string(), child::run(Some((var, val)), &cfg, o.reps.min(31)))
    });
    progress("  CPU alone and GL alone again", t0);
    let cpu1 = frame::cpu_only(&cfg);
    let gl1 = unsafe { frame::direct(g, s, &FrameCfg { iters: 0, ..cfg }) }.median_ns;
    Scenario {
        cfg,
        work_us,
        cpu: cpu0.min(cpu1),
        gl_only: gl0.min(gl1),
        cpu_runs: [cpu0, cpu1],
        gl_runs: [gl0, gl1],
        direct,
        glcmd,
        inline,
        closures,
        direct_alone,
        driver_threaded,
    }
}

impl Scenario {
    fn floor(&self, workers: usize) -> f64 {
        self.gl_only.max(self.cpu / workers as f64)
    }
    /// The floor with the workers capped at the machine's cores: more workers than cores
    /// cannot divide the CPU work further.
    fn core_floor(&self, workers: usize, cores: usize) -> f64 {
        self.gl_only.max(self.cpu / workers.min(cores) as f64)
    }
    fn best_glcmd(&self) -> (usize, f64) {
        self.glcmd.iter().map(|(w, r)| (*w, r.median_ns)).fold((0, f64::INFINITY), |a, b| if b.1 < a.1 { b } else { a })
    }

    fn table(&self, out: &mut String, cores: usize) {
        let a = self.direct.median_ns;
        let image = |c: u64| if c == self.direct.checksum { "same" } else { "DIFFERENT" };
        let _ = writeln!(
            out,
            "{} objects per frame; CPU work {:.1} µs per object ({} iterations), so CPU work alone = {} ms per frame; \
             the GL calls alone (direct, no CPU work) = {} ms per frame (each the smaller of a measurement before the variants and one after: {} / {} and {} / {} ms); a list (channel) for the frame prologue, then the objects split evenly into {} lists (channels) per worker; \
             median of {} frames after {} warm-up frames ({} for glcmd, after filling its list pool); mean = the measured frames and the final `glFinish`, divided by the frames; {} cores.\n",
            self.cfg.objects,
            self.work_us,
            self.cfg.iters,
            ms(self.cpu),
            ms(self.gl_only),
            ms(self.cpu_runs[0]),
            ms(self.cpu_runs[1]),
            ms(self.gl_runs[0]),
            ms(self.gl_runs[1]),
            frame::LISTS_PER_WORKER,
            self.cfg.frames,
            self.cfg.warmup,
            self.cfg.warmup.max(frame::GLCMD_WARMUP),
            cores
        );
        let _ = writeln!(
            out,
            "| variant | workers | frame, median (ms) | speed-up vs (a) | floor (ms) | frame / floor | floor, workers ≤ {cores} cores (ms) | frame, mean (ms) | allocs/frame | image |"
        );
        let _ = writeln!(out, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
        let _ = writeln!(
            out,
            "| (a) direct GL, one thread | 1 | {} | 1.00 | {} | {:.2} | {} | {} | – | reference |",
            ms(a),
            ms(self.floor(1)),
            a / self.floor(1),
            ms(self.core_floor(1, cores)),
            ms(self.direct.mean_ns)
        );
        // One table row per variant: median, speed-up over (a), floor and mean for its worker count.
        let row = |out: &mut String,
                   label: &str,
                   workers: &str,
                   w: usize,
                   median: f64,
                   mean: f64,
                   allocs: String,
                   checksum: u64| {
            let _ = writeln!(
                out,
                "| {label} | {workers} | {} | {:.2} | {} | {:.2} | {} | {} | {allocs} | {} |",
                ms(median),
                a / median,
                ms(self.floor(w)),
                median / self.floor(w),
                ms(self.core_floor(w, cores)),
                ms(mean),
                image(checksum)
            );
        };
        let failed = |out: &mut String, label: &str, e: &dyn std::fmt::Display| {
            let _ = writeln!(out, "| {label} | – | failed: {e} | | | | | | | |");
        };
        const ALONE: &str = "(a′) direct GL, alone in a process of its own";
        match &self.direct_alone {
            Some(Ok(c)) => row(out, ALONE, "1", 1, c.frame_ns, c.mean_ns, "–".into(), c.checksum),
            Some(Err(e)) => failed(out, ALONE, e),
            None => {}
        }
        for (w, r) in &self.glcmd {
            let allocs = r.allocs.map(|x| format!("{x:.1}")).unwrap_or_default();
            row(out, "(b) glcmd", &w.to_string(), *w, r.median_ns, r.mean_ns, allocs, r.checksum);
        }
        let r = &self.inline;
        let allocs = r.allocs.map(|x| format!("{x:.1}")).unwrap_or_default();
        row(
            out,
            "(b0) glcmd, recorded by the calling thread",
            "0 + caller",
            1,
            r.median_ns,
            r.mean_ns,
            allocs,
            r.checksum,
        );
        for (w, r) in &self.closures {
            let allocs = format!("≥ {}", 3 * self.cfg.objects);
            row(out, "(c) `Box<dyn FnOnce>` per call", &w.to_string(), *w, r.median_ns, r.mean_ns, allocs, r.checksum);
        }
        match &self.driver_threaded {
            Some((label, Ok(c))) => {
                row(out, label, "1 + driver thread", 1, c.frame_ns, c.mean_ns, "–".into(), c.checksum)
            }
            Some((label, Err(e))) => failed(out, label, e),
            None => {}
        }
        let (bw, bt) = self.best_glcmd();
        let _ = writeln!(
            out,
            "\nBest glcmd: {bw} workers, {} ms = {:.2}× faster than direct GL; {:.2}× the floor max(GL alone, CPU / min(workers, cores)) = {} ms \
             ({:.2}× max(GL alone, CPU / workers) = {} ms).",
            ms(bt),
            a / bt,
            bt / self.core_floor(bw, cores),
            ms(self.core_floor(bw, cores)),
            bt / self.floor(bw),
            ms(self.floor(bw)),
        );
        let slower: Vec<String> = self
            .glcmd
            .iter()
            .zip(&self.closures)
            .filter(|((_, b), (_, c))| b.median_ns >= c.median_ns)
            .map(|((w, _), _)| w.to_string())
            .collect();
        let ratios: Vec<String> = self
            .glcmd
            .iter()
            .zip(&self.closures)
            .map(|((w, b), (_, c))| format!("{w}: {:.2}", c.median_ns / b.median_ns))
            .collect();
        let _ = writeln!(
            out,
            "glcmd vs (c) at equal worker counts: {} (frame time of (c) / glcmd, by workers: {}).",
            if slower.is_empty() {
                "glcmd faster at every count".to_string()
            } else {
                format!("glcmd NOT faster at {} workers", slower.join(", "))
            },
            ratios.join(", ")
        );
        if let Some((_, b1)) = self.glcmd.iter().find(|(w, _)| *w == 1) {
            let _ = writeln!(
                out,
                "One recording thread: (b) 1 worker / (a) = {:.3}, (b0) on the calling thread / (a) = {:.3}: single \
                 measurements a minute apart, which the machine's drift moves by several per cent; `bench --only \
                 cpuframe` judges them over interleaved rounds.",
                b1.median_ns / a,
                self.inline.median_ns / a
            );
        }
        if let Some((label, Ok(c))) = &self.driver_threaded {
            let _ = writeln!(
                out,
                "glcmd best vs {label}: {:.2}× faster. Threads in that process ({}): {}.",
                c.frame_ns / bt,
                c.renderer,
                if c.threads.is_empty() { "?" } else { &c.threads }
            );
        }
    }
}

/// `--only cpuframe [--rounds R] [--workers W]`: the CPU-bound frame with few workers, the
/// variants interleaved over R rounds (`bench/cpuframe.rs`).
fn cpuframe_only(args: &[String], o: &Opts, t0: Instant) {
    let arg = |name: &str, default: usize| {
        args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(default)
    };
    let (rounds, workers) = (arg("--rounds", 8), arg("--workers", 1));
    let ctx = GlContext::headless().expect("a headless GL context");
    let g = ctx.load_gl();
    let s = unsafe { scene::setup(&g) };
    let (_, renderer, _) = unsafe { scene::strings(&g) };
    let device = Device::headless().expect("a headless glcmd device");
    let ds = device.with_gl(|g| unsafe { scene::setup(g) }).unwrap();
    let (iters, _) = frame::calibrate(o.work_us);
    let cfg = FrameCfg::new(o.objects, iters, o.warmup, o.frames);
    progress(&format!("GL: {renderer}; {} µs of CPU work per object = {iters} iterations", o.work_us), t0);
    // SAFETY: `g` and `s` belong to `ctx`, current on this thread.
    let r = unsafe { cpuframe::run(&g, &s, &device, ds, &cfg, workers, rounds, &|m| progress(m, t0)) };
    let mut out = String::new();
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let _ = writeln!(
        out,
        "CPU-bound frame, {renderer}, {cores} cores, {} (load before: {load})\n",
        harness::cpu_model(),
        load = harness::loadavg()
    );
    r.table(&mut out);
    println!("{out}");
    let i = r.glcmd_vs_direct();
    println!(
        "{{\"cpuframe_workers\":{workers},\"cpuframe_rounds\":{rounds},\"cpuframe_glcmd_over_direct\":{},\"cpuframe_glcmd_over_direct_hi\":{}}}",
        i.map_or("null".into(), |i| format!("{:.4}", i.ratio)),
        i.map_or("null".into(), |i| format!("{:.4}", i.hi))
    );
}

/// `bench --speeds-from FILE [FRAMES]`: the GL-bound table by speed again, from the `segments`
/// lines an earlier round wrote (its `.err` file under `docs/gpu-runs/data/`), so that a round's
/// figures can be re-judged without the GPU machine. `FRAMES` (frames per segment) only labels
/// the table. Exits with status 2 on a missing or unreadable file.
fn speeds_from(args: &[String]) {
    let fail = |why: String| -> ! {
        eprintln!("bench --speeds-from FILE [FRAMES]: {why}");
        std::process::exit(2)
    };
    let Some(path) = args.first() else { fail("no file given".into()) };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| fail(format!("{path}: {e}")));
    let vars = speeds::parse_segments(&text).unwrap_or_else(|e| fail(format!("{path}: {e}")));
    let frames = args.get(1).and_then(|f| f.parse().ok()).unwrap_or(0);
    let n = vars.first().map_or(0, |v| v.2.len());
    let mut out = String::new();
    glbound::speed_table(&vars, &format!("{n} segments of direct GL, re-read from {path}"), frames, &mut out);
    println!("{out}");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(child::FLAG) {
        child::child_main(&args[2..]);
        return;
    }
    if args.get(1).map(String::as_str) == Some("--icount") {
        icount::main(&args[2..]); // instruction counts under callgrind: see the module
        return;
    }
    if args.get(1).map(String::as_str) == Some("--speeds-from") {
        speeds_from(&args[2..]);
        return;
    }
    if args.get(1).map(String::as_str) == Some(child::FLAG_GLCMD) {
        alloc::init();
        child::child_glcmd_main(&args[2..]);
        return;
    }
    alloc::init();
    let o = opts(&args);
    let t0 = Instant::now();
    let load_before = harness::loadavg();
    // `--only record|dispatch`: that micro-benchmark alone, no GL context (for profilers such as
    // `valgrind --tool=callgrind`).
    if let Some(only) = args.iter().position(|a| a == "--only").and_then(|i| args.get(i + 1)) {
        match only.as_str() {
            "record" => {
                for c in CMDS {
                    println!("record {:?}: {} ns", c, ns(micro::record_ns(c, o.reps, false).0));
                    println!("record {:?} through the C ABI: {} ns", c, ns(micro::capi_record_ns(c, o.reps).0));
                }
            }
            "dispatch" => {
                let d = micro::dispatch(o.reps);
                println!("replay {} ns, direct {} ns per glBindTexture", ns(d.bind_replay.0), ns(d.bind_direct.0));
                println!(
                    "replay {} ns, direct {} ns per command of the object stream",
                    ns(d.mix_replay.0),
                    ns(d.mix_direct.0)
                );
            }
            "glbound" => {
                // The GL-bound frame alone (every variant a child process): for quick looks.
                let (driver, threading) = match std::env::var("BENCH_DRIVER").as_deref() {
                    Ok("nvidia") => (Driver::Nvidia, driver_threading(Driver::Nvidia)),
                    Ok("mesa") => (Driver::Mesa, driver_threading(Driver::Mesa)),
                    _ => (Driver::Other, None),
                };
                let _ = driver;
                let reps =
                    args.iter().position(|a| a == "--reps").and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(3);
                let cfg = FrameCfg::new(o.objects, 0, o.warmup, o.frames);
                let segments = args
                    .iter()
                    .position(|a| a == "--segments")
                    .and_then(|i| args.get(i + 1)?.parse().ok())
                    .unwrap_or(1);
                let gb = glbound::run(&cfg, reps, segments, threading, &|m| progress(m, t0));
                let mut out = String::new();
                gb.table(&mut out);
                gb.speed_table(&mut out);
                gb.breakdown_table(&mut out);
                println!("{out}");
                eprint!("{}", gb.raw_segments());
            }
            "cpuframe" => cpuframe_only(&args, &o, t0),
            other => eprintln!("--only: unknown section {other} (record, dispatch, glbound, cpuframe)"),
        }
        return;
    }
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);

    // A direct context on this thread for the direct-GL baselines, and a glcmd device.
    let ctx = GlContext::headless().expect("a headless GL context");
    let g = ctx.load_gl();
    let s = unsafe { scene::setup(&g) };
    let (vendor, renderer, version) = unsafe { scene::strings(&g) };
    let driver = if vendor.contains("NVIDIA") || renderer.contains("NVIDIA") {
        Driver::Nvidia
    } else if renderer.contains("llvmpipe") || vendor.contains("Mesa") {
        Driver::Mesa
    } else {
        Driver::Other
    };
    let device = Device::headless().expect("a headless glcmd device");
    let ds = device.with_gl(|g| unsafe { scene::setup(g) }).unwrap();
    progress(&format!("GL: {renderer} ({version}), {vendor}"), t0);

    // 1. Recording and the per-call cost of the alternatives.
    progress("recording", t0);
    let rec: Vec<(f64, f64)> = CMDS.iter().map(|&c| micro::record_ns(c, o.reps, false)).collect();
    let rec_sites: Vec<(f64, f64)> = CMDS.iter().map(|&c| micro::record_ns(c, o.reps, true)).collect();
    progress("recording through the C ABI's entry points", t0);
    let rec_c: Vec<(f64, f64)> = CMDS.iter().map(|&c| micro::capi_record_ns(c, o.reps)).collect();
    progress("direct GL calls", t0);
    let direct = unsafe { micro::direct_gl(&g, &s, o.reps.min(31)) };
    progress("Box<dyn FnOnce> over a channel", t0);
    let boxed = micro::boxed_channel(o.reps.min(31));

    // 2. Replay dispatch.
    progress("replay dispatch", t0);
    let d = micro::dispatch(o.reps);

    // 3. Round trips and allocations.
    progress("round trips", t0);
    let (rt_query, rt_create) = micro::round_trips(&device, o.round_trips);
    let idle_cpu = micro::idle_render_cpu_percent(&device, if o.quick { 0.5 } else { 2.0 });
    progress("steady-state allocations", t0);
    let (allocs_simple, alloc_bytes, alloc_frames) =
        micro::allocs_simple(&device, ds, if o.quick { 50 } else { 200 }, if o.quick { 300 } else { 3000 });

    // What a worker asks for: pooled creates, cached lookups, limits, the streaming frame.
    progress("worker queries: pooled creates, cached lookups, the streaming frame", t0);
    let wf = worker::run(&device, o.reps.min(51), if o.quick { 20 } else { 100 });

    // What diagnostics cost per replayed command, on / off (issue 20, item 1).
    progress("diagnostics cost", t0);
    let diag_levels = diag::levels(false);
    let diag_ns = diag::replay_ns(&diag_levels, if o.quick { 7 } else { 21 }, 20_000);

    // The GL-bound frame: no CPU work, throughput, interleaved, several runs.
    let gb_cfg = FrameCfg::new(o.objects, 0, o.warmup, o.frames);
    let gl_bound = glbound::run(&gb_cfg, 3, 1, driver_threading(driver), &|m| progress(m, t0));

    // 4. Frames.
    let (iters, ns_per_iter) = frame::calibrate(o.work_us);
    let main = scenario(&g, &s, &device, ds, &o, o.work_us, iters, driver, t0);
    let light = if o.quick {
        None
    } else {
        let us = 1.0;
        let (iters, _) = frame::calibrate(us);
        Some(scenario(&g, &s, &device, ds, &o, us, iters, driver, t0))
    };

    // ------------------------------------------------------------------------------------
    // Report.
    let mut out = String::new();
    let threading_label = match driver {
        Driver::Mesa => "direct GL, `mesa_glthread=true`",
        Driver::Nvidia => "direct GL, `__GL_THREADED_OPTIMIZATIONS=1`",
        Driver::Other => "direct GL, driver threading",
    };
    let child_micro = main.driver_threaded.as_ref().and_then(|(_, r)| r.as_ref().ok()).map(|c| (c.bind_ns, c.umat_ns));
    let alone_micro = main.direct_alone.as_ref().and_then(|r| r.as_ref().ok()).map(|c| (c.bind_ns, c.umat_ns));
    let _ = writeln!(
        out,
        "## {} — {} ({} cores), {} ({})\n\nDate {}; `cargo run --release --example bench{}`; median of {} batches unless noted; \
         load average before the run {}, after {}.\n",
        if o.quick { "Quick run" } else { "Full run" },
        harness::cpu_model(),
        cores,
        renderer,
        version,
        harness::today(),
        if o.quick { " -- --quick" } else { "" },
        o.reps,
        load_before,
        harness::loadavg()
    );
    let _ = writeln!(out, "### Cost per call on the calling thread (ns)\n");
    let _ = writeln!(
        out,
        "| command | glcmd: record into a warm list | glcmd, diagnostics on (call sites kept) | glcmd through the C ABI (entry point by function pointer) | direct GL call (the driver does the work) | direct GL, alone in its process | {threading_label} | `Box<dyn FnOnce>` + channel send |"
    );
    let _ = writeln!(out, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (i, c) in CMDS.iter().enumerate() {
        let pick = |m: Option<(f64, f64)>| match (c, m) {
            (Cmd::BindTexture, Some((b, _))) => ns(b),
            (Cmd::UniformMatrix4fv, Some((_, u))) => ns(u),
            _ => "–".into(),
        };
        let _ = writeln!(
            out,
            "| {} | **{}** (min {}) | {} | {} (min {}) | {} | {} | {} | {} |",
            c.label(),
            ns(rec[i].0),
            ns(rec[i].1),
            ns(rec_sites[i].0),
            ns(rec_c[i].0),
            ns(rec_c[i].1),
            ns(direct[i].0),
            pick(alone_micro),
            pick(child_micro),
            ns(boxed[i].0)
        );
    }
    let _ = writeln!(out, "\n### Bytes per command\n");
    let _ =
        writeln!(out, "| GL call | glcmd packet | glcmd parameters | glcmd total | Mesa glthread | Mesa's layout |");
    let _ = writeln!(out, "| --- | ---: | ---: | ---: | ---: | --- |");
    let mut bytes = Vec::new();
    for c in CMDS {
        let (p, a) = micro::packet_bytes(c);
        let (m, why) = micro::mesa_bytes(c);
        bytes.push((p, a, m));
        let _ = writeln!(out, "| {} | {p} | {a} | **{}** | {m} | {why} |", c.gl_name(), p + a);
    }
    let _ = writeln!(out, "\n### Replay dispatch over direct calls (no-op GL functions, ns per command)\n");
    let _ = writeln!(out, "| stream | replay | direct calls, same table | overhead |");
    let _ = writeln!(out, "| --- | ---: | ---: | ---: |");
    let bind_over = d.bind_replay.0 - d.bind_direct.0;
    let mix_over = d.mix_replay.0 - d.mix_direct.0;
    let _ = writeln!(
        out,
        "| `glBindTexture` × 4096 | {} | {} | **{}** |",
        ns(d.bind_replay.0),
        ns(d.bind_direct.0),
        ns(bind_over)
    );
    let _ = writeln!(
        out,
        "| per object: `glUniformMatrix4fv` + `glUniform4f` + `glDrawElementsInstanced`, × 1024 | {} | {} | **{}** |",
        ns(d.mix_replay.0),
        ns(d.mix_direct.0),
        ns(mix_over)
    );
    let _ = writeln!(out, "\n### Round trips (idle device, µs)\n");
    let _ = writeln!(out, "| call | median | min |");
    let _ = writeln!(out, "| --- | ---: | ---: |");
    let _ = writeln!(out, "| query: `device.get_error()` | {:.1} | {:.1} |", rt_query.0, rt_query.1);
    let _ = writeln!(
        out,
        "| create that is still a round trip: `device.create_shader(GL_VERTEX_SHADER)` | {:.1} | {:.1} |",
        rt_create.0, rt_create.1
    );
    if let Some(p) = idle_cpu {
        let _ = writeln!(
            out,
            "\nAn idle device's render thread (parked after spinning `Options::spin`) uses {p:.1} % of a core \
             (CPU time of the `glcmd-render` threads while this thread sleeps)."
        );
    }
    let _ = writeln!(out, "\n### What a worker asks for (on a worker thread; ns)\n");
    let _ = writeln!(out, "| call | answered by | median | min |");
    let _ = writeln!(out, "| --- | --- | ---: | ---: |");
    for (call, answered_by, (median, min)) in [
        ("`create_buffers(1)`", "the name pool", wf.create_pooled),
        ("`get_uniform_location(program, \"mvp\")`", "the program interface cache", wf.cached_query),
        ("`get_integerv(GL_MAX_TEXTURE_SIZE)`", "the limits cache", wf.limit),
    ] {
        let _ = writeln!(out, "| {call} | {answered_by} | **{}** | {} |", ns(median), ns(min));
    }
    let _ = writeln!(
        out,
        "\nStreaming frame ({} workers, each frame: 3 uniform lookups, a limit, a created, filled, drawn and deleted buffer; {} frames): **{:.2}** round trips per frame.",
        wf.streaming_workers, wf.streaming_frames, wf.streaming_round_trips
    );
    let _ = writeln!(out, "\n### Heap allocations per steady-state frame (counting global allocator)\n");
    let _ = writeln!(out, "| workload | allocations / frame | bytes / frame |");
    let _ = writeln!(out, "| --- | ---: | ---: |");
    let _ = writeln!(
        out,
        "| 1 list per frame from this thread (prologue, bind, 1 KiB upload, 8 objects), {alloc_frames} frames | **{allocs_simple:.2}** | {alloc_bytes:.0} |"
    );
    for (w, r) in &main.glcmd {
        let _ = writeln!(
            out,
            "| frame benchmark, {} lists per frame from {w} worker(s), {} frames, after filling the list pool and {} warm-up frames (together {} allocations) | **{:.2}** | |",
            main.cfg.for_workers(*w).chunks(),
            main.cfg.frames,
            main.cfg.warmup.max(frame::GLCMD_WARMUP),
            r.warmup_allocs.unwrap_or(0),
            r.allocs.unwrap_or(f64::NAN)
        );
    }
    let _ = writeln!(out, "\n### Frame benchmark: GL work dominates (throughput)\n");
    gl_bound.table(&mut out);
    gl_bound.speed_table(&mut out);
    gl_bound.breakdown_table(&mut out);
    let _ = writeln!(out, "\n### Frame benchmark: CPU work dominates\n");
    main.table(&mut out, cores);
    if let Some(l) = &light {
        let _ = writeln!(out, "\n### Frame benchmark: little CPU work (GL calls dominate)\n");
        l.table(&mut out, cores);
    }
    let _ = writeln!(
        out,
        "\n### Diagnostics cost (ns per replayed command, 20 000 cheap state commands, levels interleaved)\n\n\
         | diagnostics | ns/command | on / off |\n| --- | ---: | ---: |"
    );
    for (level, ns) in diag_levels.iter().zip(&diag_ns) {
        let _ = writeln!(out, "| {} | {ns:.1} | {:.2} |", level.name, ns / diag_ns[0]);
    }
    let _ = writeln!(
        out,
        "\n(CPU work calibrated at {ns_per_iter:.2} ns per iteration; run took {:.0} s.)",
        t0.elapsed().as_secs_f64()
    );
    println!("{out}");

    // The JSON line.
    let (bw, bt) = main.best_glcmd();
    let allocs_per_frame = main.glcmd.iter().filter_map(|(_, r)| r.allocs).fold(allocs_simple, f64::max);
    let mut fields: Vec<(&str, String)> = Vec::new();
    let mut kv = |k: &'static str, v: String| fields.push((k, v));
    let f = |x: f64| if x.is_finite() { format!("{x:.3}") } else { "null".into() };
    kv("record_ns_bind_texture", f(rec[0].0));
    kv("record_ns_uniform_matrix4fv", f(rec[1].0));
    kv("record_ns_draw_elements_instanced", f(rec[2].0));
    kv("record_ns_named_buffer_sub_data_1k", f(rec[3].0));
    kv("capi_record_ns_bind_texture", f(rec_c[0].0));
    kv("capi_record_ns_uniform_matrix4fv", f(rec_c[1].0));
    kv("capi_record_ns_draw_elements_instanced", f(rec_c[2].0));
    kv("capi_record_ns_named_buffer_sub_data_1k", f(rec_c[3].0));
    kv("replay_overhead_ns", f(bind_over));
    kv("replay_overhead_ns_mixed", f(mix_over));
    kv("allocs_per_frame", f(allocs_per_frame));
    kv("bytes_bind_texture", bytes[0].0.to_string());
    kv("bytes_uniform_matrix4fv", (bytes[1].0 + bytes[1].1).to_string());
    kv("bytes_draw_elements_instanced", bytes[2].0.to_string());
    kv("bytes_named_buffer_sub_data_1k", (bytes[3].0 + bytes[3].1).to_string());
    kv("packets_le_mesa", (bytes.iter().all(|(p, a, m)| p + a <= *m)).to_string());
    kv("query_round_trip_us", f(rt_query.0));
    kv("create_round_trip_us", f(rt_create.0));
    kv("idle_render_cpu_percent", idle_cpu.map_or("null".to_string(), f));
    kv("create_ns_pooled", f(wf.create_pooled.0));
    kv("cached_query_ns", f(wf.cached_query.0));
    kv("limit_query_ns", f(wf.limit.0));
    kv("round_trips_per_frame_streaming", f(wf.streaming_round_trips));
    kv("gl_bound_vs_direct_worst", f(gl_bound.worst()));
    kv("gl_bound_best_vs_direct", f(gl_bound.best()));
    kv("parks_per_frame", f(gl_bound.parks_per_frame()));
    kv("frame_ms_direct", f(main.direct.median_ns / 1e6));
    kv("frame_ms_glcmd_best", f(bt / 1e6));
    kv("frame_best_workers", bw.to_string());
    kv("frame_speedup_best", f(main.direct.median_ns / bt));
    // The floor no schedule can beat: max(GL alone, CPU work / min(workers, cores)). With no
    // more workers than cores it is the max(GL alone, CPU work / workers), also given.
    kv("frame_vs_floor", f(bt / main.core_floor(bw, cores)));
    kv("frame_vs_floor_per_worker", f(bt / main.floor(bw)));
    let best_mean = main.glcmd.iter().map(|(_, r)| r.mean_ns).fold(f64::INFINITY, f64::min);
    kv("frame_ms_glcmd_best_mean", f(best_mean / 1e6));
    if let Some(Ok(c)) = &main.direct_alone {
        kv("frame_ms_direct_alone", f(c.frame_ns / 1e6));
    }
    kv("frame_ms_glcmd_calling_thread", f(main.inline.median_ns / 1e6));
    kv(
        "frame_glcmd_faster_than_closures_all",
        main.glcmd.iter().zip(&main.closures).all(|((_, b), (_, c))| b.median_ns < c.median_ns).to_string(),
    );
    if let Some((_, Ok(c))) = &main.driver_threaded {
        kv("frame_ms_driver_threaded", f(c.frame_ns / 1e6));
    }
    kv("images_match", {
        let c = main.direct.checksum;
        let all = main.glcmd.iter().chain(&main.closures).all(|(_, r)| r.checksum == c)
            && main.inline.checksum == c
            && main.driver_threaded.as_ref().is_none_or(|(_, r)| r.as_ref().is_ok_and(|x| x.checksum == c))
            && main.direct_alone.as_ref().is_none_or(|r| r.as_ref().is_ok_and(|x| x.checksum == c));
        all.to_string()
    });
    kv("diag_ratio_attribution", f(diag_ns[1] / diag_ns[0]));
    kv("diag_ratio_all", f(diag_ns[2] / diag_ns[0]));
    kv("diag_ratio_strict", f(diag_ns[3] / diag_ns[0]));
    kv("cores", cores.to_string());
    kv("renderer", format!("\"{}\"", renderer.replace('"', "'")));
    kv("quick", o.quick.to_string());
    let body: Vec<String> = fields.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
    println!("{{{}}}", body.join(", "));
    drop(device);
    drop(ctx);
}
