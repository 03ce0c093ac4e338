//! The frame benchmark: N objects, each with CPU work (a dependent chain of matrix-vector
//! products standing for culling and matrix updates) and three GL calls (`glUniformMatrix4fv`,
//! `glUniform4f`, `glDrawElementsInstanced`), drawn into a small framebuffer object.
//!
//! Every variant draws the same objects in the same order, so the framebuffers they leave
//! behind must be identical; each run ends with a checksum of the pixels.
//!
//! Frame time is the median interval between the ends of consecutive frames' submission, in
//! steady state, with at most two frames in flight (the render thread replays frame i while the
//! workers record frame i+1, as a double-buffered engine does). Direct GL has no frame in
//! flight: its interval is simply the time it takes to run a frame.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Barrier, Mutex, RwLock};
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender};
use glcmd::context::GlContext;
use glcmd::types::*;
use glcmd::{gl, Device, Frame, Gl};

use crate::alloc;
use crate::breakdown::{Breakdown, HandOff, Sum};
use crate::harness::median;
use crate::micro::wait_frames;
use crate::scene::{self, Scene};

#[derive(Clone, Copy, Debug)]
pub struct FrameCfg {
    pub objects: u32,
    /// Iterations of the CPU work per object.
    pub iters: u32,
    pub warmup: usize,
    pub frames: usize,
    /// Objects per command list (glcmd) or per channel (closures).
    pub chunk: u32,
    /// Object lists per worker and frame ([`LISTS_PER_WORKER`] unless a variant asks for
    /// another split).
    pub lists_per_worker: u32,
}

/// Object lists per worker and frame: enough that the last lists of a frame are short beside
/// the frame (a worker that draws a long last list leaves the others idle), as a job system
/// splits work into several jobs per thread.
pub const LISTS_PER_WORKER: u32 = 8;

impl FrameCfg {
    /// `objects` objects of `iters` iterations of CPU work each, over `warmup` then `frames`
    /// frames, split as [`Self::for_workers`] says ([`LISTS_PER_WORKER`] lists per worker).
    pub fn new(objects: u32, iters: u32, warmup: usize, frames: usize) -> FrameCfg {
        FrameCfg { objects, iters, warmup, frames, chunk: objects, lists_per_worker: LISTS_PER_WORKER }
    }

    /// The configuration for `workers` recording threads: `lists_per_worker` object lists per
    /// worker (0 workers: the calling thread records, with the lists of one worker).
    pub fn for_workers(&self, workers: usize) -> FrameCfg {
        let workers = workers.max(1) as u32;
        let lists = self.lists_per_worker.max(1) * workers;
        FrameCfg { chunk: self.objects.div_ceil(lists).max(1), ..*self }
    }

    /// Lists (glcmd) or channels (closures) per frame: slot 0 holds the frame prologue (bind
    /// the framebuffer, program and vertex array, clear), slots 1.. hold `chunk` objects each,
    /// so that every object list has the same size.
    pub fn chunks(&self) -> u32 {
        1 + self.objects.div_ceil(self.chunk)
    }
    /// The objects of slot `k` (none for slot 0).
    fn range(&self, k: u32) -> std::ops::Range<u32> {
        if k == 0 {
            0..0
        } else {
            (k - 1) * self.chunk..(k * self.chunk).min(self.objects)
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct FrameResult {
    /// Median frame interval, ns.
    pub median_ns: f64,
    /// Mean frame time over the measured frames including the drain at the end (until the GL
    /// has finished everything: `glFinish`), ns. Differs from the median when a queue somewhere
    /// (the driver's, the GPU's) absorbs frames and stalls only now and then.
    pub mean_ns: f64,
    /// Heap allocations per measured frame (counted runs only).
    pub allocs: Option<f64>,
    /// Heap allocations during the warm-up frames (counted runs only).
    pub warmup_allocs: Option<u64>,
    pub checksum: u64,
    /// glcmd only, per measured frame: render-thread parks, time parked and time replaying.
    pub parks_per_frame: Option<f64>,
    pub parked_ns_per_frame: Option<f64>,
    pub replay_ns_per_frame: Option<f64>,
    /// The recording threads, per frame of the run (warm-up included): time on a CPU and time
    /// ready but waiting for one, from `/proc/thread-self/schedstat` (None where absent).
    pub worker_sched: Option<Sched>,
    /// glcmd only: wall time the recording threads spent in `Frame::submit`, per frame of the
    /// run (warm-up included). Large when a submit that wakes the render thread gets the
    /// recording thread's CPU taken by it (no idle core for it to wake on).
    pub submit_ns_per_frame: Option<f64>,
    /// glcmd only: where the measured frames' time went (`breakdown.rs`).
    pub breakdown: Option<Breakdown>,
}

/// A thread's time on a CPU and its time runnable but waiting for a CPU (the kernel's
/// `schedstat`), ns.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sched {
    pub run_ns: f64,
    pub wait_ns: f64,
}

impl Sched {
    /// The calling thread's figures so far.
    pub fn now() -> Option<Sched> {
        let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        let mut f = text.split_whitespace().map(|x| x.parse::<f64>().ok());
        Some(Sched { run_ns: f.next()??, wait_ns: f.next()?? })
    }

    fn since(self, before: Sched) -> Sched {
        Sched { run_ns: self.run_ns - before.run_ns, wait_ns: self.wait_ns - before.wait_ns }
    }

    fn per(self, n: f64) -> Sched {
        Sched { run_ns: self.run_ns / n, wait_ns: self.wait_ns / n }
    }
}

/// Sums the recording threads' [`Sched`] over one run; `None` once any thread could not read it.
#[derive(Default)]
struct SchedSum(Mutex<Option<Option<Sched>>>);

impl SchedSum {
    /// Runs `f` on this thread and adds the thread's figures over it.
    fn over(&self, f: impl FnOnce()) {
        let before = Sched::now();
        f();
        let d = before.zip(Sched::now()).map(|(b, a)| a.since(b));
        let mut sum = self.0.lock().unwrap();
        *sum = Some(match (sum.take(), d) {
            (None, d) => d,
            (Some(Some(s)), Some(d)) => Some(Sched { run_ns: s.run_ns + d.run_ns, wait_ns: s.wait_ns + d.wait_ns }),
            _ => None,
        });
    }

    fn per_frame(self, frames: usize) -> Option<Sched> {
        self.0.into_inner().unwrap().flatten().map(|s| s.per(frames as f64))
    }
}

/// `stamps[0]` is the start, `stamps[k]` the end of frame k-1: the median duration of the
/// frames after the warm-up.
fn intervals(stamps: &[Instant], warmup: usize) -> f64 {
    let mut d: Vec<f64> = stamps.windows(2).skip(warmup).map(|w| (w[1] - w[0]).as_nanos() as f64).collect();
    median(&mut d)
}

/// Mean frame time from the end of the warm-up to `end` (after the drain).
fn mean(stamps: &[Instant], warmup: usize, end: Instant) -> f64 {
    let frames = stamps.len() - 1 - warmup;
    (end - stamps[warmup]).as_nanos() as f64 / frames as f64
}

/// CPU work alone (no GL), single-threaded: median ns per frame.
pub fn cpu_only(cfg: &FrameCfg) -> f64 {
    let mut stamps = vec![Instant::now()];
    for _ in 0..cfg.warmup + cfg.frames {
        for o in 0..cfg.objects {
            std::hint::black_box(scene::cpu_work(o, cfg.iters));
        }
        stamps.push(Instant::now());
    }
    intervals(&stamps, cfg.warmup)
}

/// (a): direct single-threaded GL on the calling thread's context.
///
/// # Safety
/// `g` and `s` belong to the context current on this thread.
pub unsafe fn direct(g: &Gl, s: &Scene, cfg: &FrameCfg) -> FrameResult {
    let mut stamps = vec![Instant::now()];
    for _ in 0..cfg.warmup + cfg.frames {
        unsafe {
            scene::prologue_direct(g, s);
            for o in 0..cfg.objects {
                let m = scene::cpu_work(o, cfg.iters);
                scene::object_direct(g, s, &m, scene::color(o));
            }
        }
        stamps.push(Instant::now());
    }
    unsafe { (g.Finish)() };
    let mean_ns = mean(&stamps, cfg.warmup, Instant::now());
    let median_ns = intervals(&stamps, cfg.warmup);
    FrameResult {
        median_ns,
        mean_ns,
        allocs: None,
        warmup_allocs: None,
        checksum: unsafe { scene::checksum(g, s) },
        parks_per_frame: None,
        parked_ns_per_frame: None,
        replay_ns_per_frame: None,
        worker_sched: None,
        submit_ns_per_frame: None,
        breakdown: None,
    }
}

/// (w): the CPU work alone, no GL, on `workers` threads fed by the same pool and barriers as
/// (b) and (c): median ns per frame, and the threads' [`Sched`] per frame. Beside
/// [`cpu_only`] (the same work on the calling thread) it shows what running the work on a
/// thread of a pool costs by itself, before any GL: the baseline against which (b)'s and (c)'s
/// own costs are read (`cpuframe.rs`).
pub fn cpu_pool(cfg: &FrameCfg, workers: usize) -> (f64, Option<Sched>) {
    let cfg = &cfg.for_workers(workers);
    let pool = Pool::<()>::new(workers);
    let sched = SchedSum::default();
    let mut stamps = Vec::with_capacity(cfg.warmup + cfg.frames + 1);
    std::thread::scope(|sc| {
        for _ in 0..workers {
            sc.spawn(|| {
                sched.over(|| {
                    pool.work(cfg, |_, k| {
                        for o in cfg.range(k) {
                            std::hint::black_box(scene::cpu_work(o, cfg.iters));
                        }
                    })
                })
            });
        }
        stamps.push(Instant::now());
        for _ in 0..cfg.warmup + cfg.frames {
            pool.frame(());
            stamps.push(Instant::now());
        }
        pool.stop();
    });
    (intervals(&stamps, cfg.warmup), sched.per_frame(cfg.warmup + cfg.frames))
}

struct Pool<T> {
    /// The frame being recorded (glcmd) or the senders of its chunks (closures).
    current: RwLock<Option<T>>,
    next: AtomicU32,
    start: Barrier,
    done: Barrier,
    quit: AtomicBool,
    /// Clock readings of the hand-off (`breakdown.rs`).
    hand: HandOff,
}

impl<T> Pool<T> {
    fn new(workers: usize) -> Self {
        Pool {
            current: RwLock::new(None),
            next: AtomicU32::new(0),
            start: Barrier::new(workers + 1),
            done: Barrier::new(workers + 1),
            quit: AtomicBool::new(false),
            hand: HandOff::default(),
        }
    }

    /// A worker: waits for a frame, takes chunks until none is left, reports done.
    fn work(&self, cfg: &FrameCfg, mut chunk: impl FnMut(&T, u32)) {
        loop {
            self.start.wait();
            if self.quit.load(Ordering::Acquire) {
                return;
            }
            self.hand.woke();
            {
                let guard = self.current.read().unwrap();
                let current = guard.as_ref().expect("a frame");
                loop {
                    let k = self.next.fetch_add(1, Ordering::Relaxed);
                    if k >= cfg.chunks() {
                        break;
                    }
                    chunk(current, k);
                }
            }
            self.done.wait();
        }
    }

    /// The coordinating thread's part of one frame.
    fn frame(&self, current: T) -> T {
        *self.current.write().unwrap() = Some(current);
        self.next.store(0, Ordering::Relaxed);
        self.hand.signal();
        self.start.wait();
        self.done.wait();
        self.hand.done();
        self.current.write().unwrap().take().expect("the frame")
    }

    fn stop(&self) {
        self.quit.store(true, Ordering::Release);
        self.start.wait();
    }
}

/// Warm-up frames of a glcmd run (after the pool is filled, see `prewarm`).
pub const GLCMD_WARMUP: usize = 10;

/// Fills glcmd's pools the way an engine would at load time: three frames of the benchmark's
/// shape, begun before any of their lists is submitted, so that all three are in flight at once
/// (the render thread's per-frame bookkeeping is sized for three frames) and 3 × slots lists
/// exist, each grown to the size of one slot's recording. The harness keeps at most two frames
/// in flight, and a frame's lists return to the pool just after the frame is reported ended, so
/// three frames' worth covers every schedule. Without this, the pools grow on demand and
/// allocate again whenever the workers happen to get further ahead of the render thread than
/// ever before.
fn prewarm(device: &Device, s: &Scene, cfg: &FrameCfg) {
    let m = scene::cpu_work(0, 0);
    prewarm_with(device, cfg.chunks() as usize, |list| {
        scene::prologue_record(list, s);
        for o in cfg.range(1) {
            scene::object_record(list, s, &m, scene::color(o));
        }
    });
}

/// Three frames of `slots` lists each, all begun before any list is submitted, every list
/// recorded by `record`; returns when they have ended.
pub fn prewarm_with(device: &Device, slots: usize, record: impl Fn(&mut glcmd::CommandList)) {
    let base = device.stats().frames;
    let frames: Vec<Frame> = (0..3).map(|_| device.begin_frame(slots).unwrap()).collect();
    let mut lists: Vec<_> = (0..3 * slots).map(|_| device.command_list()).collect();
    for list in lists.iter_mut() {
        record(list);
    }
    for (i, list) in lists.into_iter().enumerate() {
        frames[i / slots].submit(i % slots, list).unwrap();
    }
    drop(frames);
    wait_frames(device, base + 3);
}

/// (b): glcmd with `workers` recording threads. Allocations are counted over the warm-up and
/// over the measured frames, including the harness's own (it makes none).
///
/// `workers == 0` is (b0): the calling thread records every list itself, in slot order,
/// submitting each as soon as it is full, with no pool and no hand-off to another thread: what
/// an application with one recording thread (its main thread) writes, and the same thread as
/// direct GL's, so that a comparison of the two leaves out where the scheduler puts a thread.
pub fn glcmd(device: &Device, s: Scene, cfg: &FrameCfg, workers: usize) -> FrameResult {
    let cfg = &FrameCfg { warmup: cfg.warmup.max(GLCMD_WARMUP), ..cfg.for_workers(workers) };
    let pool = Pool::<Frame>::new(workers);
    let sched = SchedSum::default();
    let mut stamps = Vec::with_capacity(cfg.warmup + cfg.frames + 1);
    let mut counted = (0, 0, 0);
    let (mut stats_before, mut stats_after) = (None, None);
    alloc::counting(true);
    counted.0 = alloc::snapshot().0;
    prewarm(device, &s, cfg);
    let base = device.stats().frames;
    let total = (cfg.warmup + cfg.frames) as u64;
    let mut hand_before = [0; 9];
    let hand = &pool.hand;
    let record = |frame: &Frame, k: u32| {
        let t = Instant::now();
        let mut list = device.command_list();
        hand.add(Sum::Take, t.elapsed().as_nanos() as u64);
        if k == 0 {
            scene::prologue_record(&mut list, &s);
        }
        for o in cfg.range(k) {
            let m = scene::cpu_work(o, cfg.iters);
            scene::object_record(&mut list, &s, &m, scene::color(o));
        }
        let t = Instant::now();
        frame.submit(k as usize, list).unwrap();
        hand.add(Sum::Submit, t.elapsed().as_nanos() as u64);
        hand.add(Sum::Lists, 1);
        if k == 0 {
            hand.slot0();
        }
    };
    std::thread::scope(|sc| {
        for _ in 0..workers {
            sc.spawn(|| sched.over(|| pool.work(cfg, record)));
        }
        let mut frames = || {
            stamps.push(Instant::now());
            for i in 0..total {
                if i == cfg.warmup as u64 {
                    // The frames before have ended too: their lists are back in the pool.
                    wait_frames(device, base + i);
                    counted.1 = alloc::snapshot().0;
                    alloc::steady(true);
                    stats_before = Some(device.stats());
                    hand_before = hand.sums();
                }
                if i >= 2 {
                    let t = Instant::now();
                    let (s, blocked) = wait_frames(device, base + i - 1);
                    hand.add(Sum::MainWait, t.elapsed().as_nanos() as u64);
                    if let Some(end) = s.render.at.filter(|_| blocked) {
                        hand.add(Sum::MainLate, end.elapsed().as_nanos() as u64);
                    }
                }
                let frame = device.begin_frame(cfg.chunks() as usize).unwrap();
                if workers == 0 {
                    hand.signal();
                    (0..cfg.chunks()).for_each(|k| record(&frame, k));
                    hand.done();
                    drop(frame);
                } else {
                    drop(pool.frame(frame));
                }
                stamps.push(Instant::now());
            }
            wait_frames(device, base + total);
            counted.2 = alloc::snapshot().0;
            alloc::steady(false);
            alloc::counting(false);
            stats_after = Some(device.stats());
        };
        if workers == 0 {
            sched.over(frames);
        } else {
            frames();
        }
        pool.stop();
    });
    device.finish().unwrap();
    let mean_ns = mean(&stamps, cfg.warmup, Instant::now());
    let median_ns = intervals(&stamps, cfg.warmup);
    let checksum = device.with_gl(move |g| unsafe { scene::checksum(g, &s) }).unwrap();
    let hand_all = pool.hand.sums();
    let per_frame = |f: &dyn Fn(&glcmd::Stats) -> f64| match (&stats_before, &stats_after) {
        (Some(b), Some(a)) => Some((f(a) - f(b)) / cfg.frames as f64),
        _ => None,
    };
    FrameResult {
        median_ns,
        mean_ns,
        allocs: Some((counted.2 - counted.1) as f64 / cfg.frames as f64),
        warmup_allocs: Some(counted.1 - counted.0),
        checksum,
        parks_per_frame: per_frame(&|s| s.parks as f64),
        parked_ns_per_frame: per_frame(&|s| s.parked.as_nanos() as f64),
        replay_ns_per_frame: per_frame(&|s| s.replay.as_nanos() as f64),
        worker_sched: sched.per_frame(total as usize),
        submit_ns_per_frame: Some(hand_all[Sum::Submit as usize] as f64 / total as f64),
        breakdown: stats_before
            .as_ref()
            .zip(stats_after.as_ref())
            .map(|(b, a)| Breakdown::new(b, a, hand_before, hand_all, cfg.frames)),
    }
}

type Call = Box<dyn FnOnce(&Gl) + Send>;

enum Ctl {
    Frame(Vec<Receiver<Call>>),
    Finish(Sender<()>),
    Checksum(Sender<u64>),
    Quit,
}

/// (c): one `Box<dyn FnOnce(&Gl) + Send>` per GL call, sent over crossbeam channels to a render
/// thread that owns its own context. To keep the calls of one object together and the frame
/// deterministic, each chunk of objects has its own channel and the render thread drains the
/// chunks' channels in order (the closure analogue of glcmd's ordered slots), starting on chunk
/// 0 while later chunks are still being produced.
pub fn closures(cfg: &FrameCfg, workers: usize) -> FrameResult {
    let cfg = &cfg.for_workers(workers);
    let (ctl_tx, ctl_rx) = crossbeam_channel::unbounded::<Ctl>();
    let (scene_tx, scene_rx) = crossbeam_channel::bounded::<Scene>(1);
    let completed = AtomicU64::new(0);
    let pool = Pool::<Mutex<Vec<Option<Sender<Call>>>>>::new(workers);
    let sched = SchedSum::default();
    let mut stamps = Vec::with_capacity(cfg.warmup + cfg.frames + 1);
    let total = (cfg.warmup + cfg.frames) as u64;
    let mut checksum = 0;
    let mut end = Instant::now();
    std::thread::scope(|sc| {
        let completed = &completed;
        sc.spawn(move || {
            let ctx = GlContext::headless().expect("a GL context for the closure render thread");
            let g = ctx.load_gl();
            let s = unsafe { scene::setup(&g) };
            scene_tx.send(s).unwrap();
            for msg in ctl_rx {
                match msg {
                    Ctl::Frame(chunks) => {
                        for rx in chunks {
                            for call in rx {
                                call(&g);
                            }
                        }
                        completed.fetch_add(1, Ordering::Release);
                    }
                    Ctl::Checksum(reply) => reply.send(unsafe { scene::checksum(&g, &s) }).unwrap(),
                    Ctl::Finish(reply) => {
                        unsafe { (g.Finish)() };
                        reply.send(()).unwrap();
                    }
                    Ctl::Quit => break,
                }
            }
        });
        let s = scene_rx.recv().unwrap();
        let (pool, sched) = (&pool, &sched);
        for _ in 0..workers {
            sc.spawn(move || {
                sched.over(|| {
                    pool.work(cfg, |senders, k| {
                        let tx = senders.lock().unwrap()[k as usize].take().expect("chunk sender");
                        if k == 0 {
                            tx.send(Box::new(move |g: &Gl| unsafe { scene::prologue_direct(g, &s) })).unwrap();
                        }
                        for o in cfg.range(k) {
                            let m = scene::cpu_work(o, cfg.iters);
                            let c = scene::color(o);
                            let (lm, lc) = (s.loc_mvp, s.loc_color);
                            tx.send(Box::new(move |g: &Gl| unsafe {
                                (g.UniformMatrix4fv)(lm, 1, gl::FALSE as GLboolean, m.as_ptr())
                            }))
                            .unwrap();
                            tx.send(Box::new(move |g: &Gl| unsafe { (g.Uniform4f)(lc, c[0], c[1], c[2], c[3]) }))
                                .unwrap();
                            tx.send(Box::new(move |g: &Gl| unsafe {
                                (g.DrawElementsInstanced)(gl::TRIANGLES, 6, gl::UNSIGNED_SHORT, std::ptr::null(), 1)
                            }))
                            .unwrap();
                        }
                    })
                })
            });
        }
        stamps.push(Instant::now());
        for i in 0..total {
            if i >= 2 {
                wait_counter(completed, i - 1);
            }
            let (txs, rxs): (Vec<_>, Vec<_>) =
                (0..cfg.chunks()).map(|_| crossbeam_channel::unbounded::<Call>()).map(|(t, r)| (Some(t), r)).unzip();
            ctl_tx.send(Ctl::Frame(rxs)).unwrap();
            drop(pool.frame(Mutex::new(txs)));
            stamps.push(Instant::now());
        }
        wait_counter(completed, total);
        let (tx, rx) = crossbeam_channel::bounded(1);
        ctl_tx.send(Ctl::Finish(tx)).unwrap();
        rx.recv().unwrap();
        end = Instant::now();
        pool.stop();
        let (tx, rx) = crossbeam_channel::bounded(1);
        ctl_tx.send(Ctl::Checksum(tx)).unwrap();
        checksum = rx.recv().unwrap();
        ctl_tx.send(Ctl::Quit).unwrap();
    });
    FrameResult {
        median_ns: intervals(&stamps, cfg.warmup),
        mean_ns: mean(&stamps, cfg.warmup, end),
        allocs: None,
        warmup_allocs: None,
        checksum,
        parks_per_frame: None,
        parked_ns_per_frame: None,
        replay_ns_per_frame: None,
        worker_sched: sched.per_frame(total as usize),
        submit_ns_per_frame: None,
        breakdown: None,
    }
}

fn wait_counter(c: &AtomicU64, n: u64) {
    let t = Instant::now();
    let mut polls = 0;
    while c.load(Ordering::Acquire) < n {
        crate::micro::pause(&mut polls);
        if t.elapsed().as_secs() > 120 {
            eprintln!("the closure render thread made no progress for 2 minutes");
            std::process::exit(2);
        }
    }
}

/// Iterations of the CPU work that take about `us` microseconds on this machine, after half a
/// second of the same work (so that the clock has ramped up).
pub fn calibrate(us: f64) -> (u32, f64) {
    const PROBE: u32 = 20_000;
    let t = Instant::now();
    while t.elapsed().as_millis() < 500 {
        std::hint::black_box(scene::cpu_work(1, PROBE));
    }
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        for o in 0..20 {
            std::hint::black_box(scene::cpu_work(o, PROBE));
        }
        best = best.min(t.elapsed().as_nanos() as f64 / (20.0 * PROBE as f64));
    }
    (((us * 1000.0) / best).round().max(0.0) as u32, best)
}
