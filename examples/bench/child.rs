//! Variants (d) and (e): direct GL again, but in a child process (the same binary, re-executed
//! with a hidden flag) whose environment turns on the driver's own threading before the driver
//! is loaded: `mesa_glthread=true` for Mesa, `__GL_THREADED_OPTIMIZATIONS=1` for NVIDIA. The
//! same child without the variable gives direct GL alone in its process (one context, one
//! thread), the baseline for the child's figures.

use std::collections::HashMap;
use std::process::Command;

use glcmd::context::GlContext;

use crate::breakdown::Breakdown;
use crate::frame::{self, FrameCfg};
use crate::harness::thread_names;
use crate::micro;
use crate::scene;

pub const FLAG: &str = "--child-direct";

/// What the child reports.
#[derive(Clone, Debug)]
pub struct ChildResult {
    pub frame_ns: f64,
    pub mean_ns: f64,
    pub checksum: u64,
    /// ns per direct call on the application thread: glBindTexture, glUniformMatrix4fv.
    pub bind_ns: f64,
    pub umat_ns: f64,
    /// Threads the driver started (names), for evidence that its threading is on.
    pub threads: String,
    pub renderer: String,
    /// glcmd children: render-thread parks, time parked and time replaying, per frame.
    pub parks: f64,
    pub parked_ns: f64,
    pub replay_ns: f64,
    /// Throughput (ns per frame) of each segment (see [`SEGMENTS`]); the first is `mean_ns`.
    pub segments: Vec<f64>,
    /// glcmd children: where the first segment's frames' time went (`breakdown.rs`).
    pub breakdown: Option<Breakdown>,
}

/// The child's main: `FLAG objects iters warmup frames chunk reps`.
pub fn child_main(args: &[String]) {
    let n: Vec<u64> = args.iter().map(|a| a.parse().expect("numeric child argument")).collect();
    let cfg = FrameCfg {
        objects: n[0] as u32,
        iters: n[1] as u32,
        warmup: n[2] as usize,
        frames: n[3] as usize,
        chunk: n[4] as u32,
        lists_per_worker: frame::LISTS_PER_WORKER,
    };
    let reps = n[5] as usize;
    let ctx = GlContext::headless().expect("GL context");
    let g = ctx.load_gl();
    let s = unsafe { scene::setup(&g) };
    let (_, renderer, _) = unsafe { scene::strings(&g) };
    let direct = unsafe { micro::direct_gl(&g, &s, reps) };
    let r = unsafe { frame::direct(&g, &s, &cfg) };
    let more: Vec<f64> = (1..segments()).map(|_| unsafe { frame::direct(&g, &s, &cfg) }.mean_ns).collect();
    let threads = thread_names().join(",");
    println!(
        "@@child frame_ns={} mean_ns={} checksum={} bind_ns={} umat_ns={} segs={} threads={} renderer={}",
        r.median_ns,
        r.mean_ns,
        r.checksum,
        direct[0].0,
        direct[1].0,
        segs(r.mean_ns, &more),
        threads,
        renderer
    );
}

/// Runs the child, with `var=value` in its environment if given, and parses its report.
pub fn run(env: Option<(&str, &str)>, cfg: &FrameCfg, reps: usize) -> Result<ChildResult, String> {
    run_direct_segments(env, cfg, reps, 1)
}

/// [`run`], timing `segments` segments.
pub fn run_direct_segments(
    env: Option<(&str, &str)>,
    cfg: &FrameCfg,
    reps: usize,
    segments: usize,
) -> Result<ChildResult, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut cmd = Command::new(exe);
    cmd.arg(FLAG).args(
        [cfg.objects as u64, cfg.iters as u64, cfg.warmup as u64, cfg.frames as u64, cfg.chunk as u64, reps as u64]
            .map(|x| x.to_string()),
    );
    if let Some((var, value)) = env {
        cmd.env(var, value);
    }
    cmd.env(SEGMENTS, segments.to_string());
    let out = cmd.output().map_err(|e| e.to_string())?;
    parse(&String::from_utf8_lossy(&out.stdout), &out.status.to_string(), &String::from_utf8_lossy(&out.stderr))
}

/// The flag of variant (f): glcmd in a child process whose environment turns the driver's
/// threading on, so the render thread only marshals and the driver's thread does the work.
pub const FLAG_GLCMD: &str = "--child-glcmd";

/// The (f) child's main: `FLAG_GLCMD objects iters warmup frames chunk workers [lists_per_worker]`.
pub fn child_glcmd_main(args: &[String]) {
    let n: Vec<u64> = args.iter().map(|a| a.parse().expect("numeric child argument")).collect();
    let cfg = FrameCfg {
        objects: n[0] as u32,
        iters: n[1] as u32,
        warmup: n[2] as usize,
        frames: n[3] as usize,
        chunk: n[4] as u32,
        lists_per_worker: n.get(6).map_or(frame::LISTS_PER_WORKER, |&l| l as u32),
    };
    let workers = n[5] as usize;
    let robust = std::env::var_os(ROBUST).is_some();
    let device =
        glcmd::Device::with_options(glcmd::Options::default().robust_access(robust)).expect("a headless glcmd device");
    if robust && !device.robust_access() {
        println!("@@child unsupported: the driver grants no robust access");
        return;
    }
    let s = device.with_gl(|g| unsafe { scene::setup(g) }).expect("scene set-up");
    let renderer = device.get_string(glcmd::gl::RENDERER).ok().flatten().unwrap_or_default();
    let r = frame::glcmd(&device, s, &cfg, workers);
    let more: Vec<f64> = (1..segments()).map(|_| frame::glcmd(&device, s, &cfg, workers).mean_ns).collect();
    let threads = thread_names().join(",");
    println!(
        "@@child frame_ns={} mean_ns={} checksum={} bind_ns=0 umat_ns=0 parks={} parked_ns={} replay_ns={} segs={} bd={} threads={} renderer={}",
        r.median_ns,
        r.mean_ns,
        r.checksum,
        r.parks_per_frame.unwrap_or(f64::NAN),
        r.parked_ns_per_frame.unwrap_or(f64::NAN),
        r.replay_ns_per_frame.unwrap_or(f64::NAN),
        segs(r.mean_ns, &more),
        r.breakdown.as_ref().map_or("-".into(), Breakdown::encode),
        threads,
        renderer
    );
}

/// Environment variable giving a child's number of segments: stretches of frames, each ended by
/// `glFinish` and timed on its own (throughput), so that a change of the GPU's speed inside a
/// process spoils one segment, not the process's figure (see `speeds`). One if unset.
pub const SEGMENTS: &str = "GLCMD_BENCH_SEGMENTS";

fn segments() -> usize {
    std::env::var(SEGMENTS).ok().and_then(|v| v.parse().ok()).unwrap_or(1).max(1)
}

/// The `segs=` field: the first segment's throughput and the others', comma-separated.
fn segs(first: f64, more: &[f64]) -> String {
    std::iter::once(first).chain(more.iter().copied()).map(|x| format!("{x}")).collect::<Vec<_>>().join(",")
}

/// Environment variable that makes an (f)/(b) child ask for a robust-access device.
pub const ROBUST: &str = "GLCMD_BENCH_ROBUST";

/// Runs an (f)/(b) child with `workers`, `var=value` in its environment if given, on a
/// robust-access device if `robust`, timing `segments` segments.
pub fn run_glcmd_with(
    env: Option<(&str, &str)>,
    cfg: &FrameCfg,
    workers: usize,
    robust: bool,
    segments: usize,
) -> Result<ChildResult, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut cmd = Command::new(exe);
    cmd.arg(FLAG_GLCMD).args(
        [
            cfg.objects as u64,
            cfg.iters as u64,
            cfg.warmup as u64,
            cfg.frames as u64,
            cfg.chunk as u64,
            workers as u64,
            cfg.lists_per_worker as u64,
        ]
        .map(|x| x.to_string()),
    );
    if let Some((var, value)) = env {
        cmd.env(var, value);
    }
    if robust {
        cmd.env(ROBUST, "1");
    }
    cmd.env(SEGMENTS, segments.to_string());
    let out = cmd.output().map_err(|e| e.to_string())?;
    parse(&String::from_utf8_lossy(&out.stdout), &out.status.to_string(), &String::from_utf8_lossy(&out.stderr))
}

fn parse(stdout: &str, status: &str, stderr: &str) -> Result<ChildResult, String> {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("@@child "))
        .ok_or_else(|| format!("child failed ({status}): {}", stderr.lines().last().unwrap_or("")))?;
    let (head, renderer) = line.split_once(" renderer=").unwrap_or((line, "?"));
    let kv: HashMap<&str, &str> = head.split(' ').skip(1).filter_map(|p| p.split_once('=')).collect();
    let f = |k: &str| kv.get(k).and_then(|v| v.parse::<f64>().ok()).unwrap_or(f64::NAN);
    Ok(ChildResult {
        frame_ns: f("frame_ns"),
        mean_ns: f("mean_ns"),
        checksum: kv.get("checksum").and_then(|v| v.parse().ok()).unwrap_or(0),
        bind_ns: f("bind_ns"),
        umat_ns: f("umat_ns"),
        threads: kv.get("threads").unwrap_or(&"").to_string(),
        renderer: renderer.to_string(),
        parks: f("parks"),
        parked_ns: f("parked_ns"),
        replay_ns: f("replay_ns"),
        segments: kv
            .get("segs")
            .map(|v| v.split(',').filter_map(|x| x.parse::<f64>().ok()).collect())
            .unwrap_or_default(),
        breakdown: kv.get("bd").and_then(|v| Breakdown::decode(v)),
    })
}
