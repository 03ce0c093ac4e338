//! glcmd's options for a launched program, from environment variables (the launcher sets them
//! from its own flags; `glcmd-run --help` lists them), and what is printed about a run.
//!
//! | variable | effect |
//! | --- | --- |
//! | `GLCMD_RUN=direct` | every context runs directly (for comparing a program with itself) |
//! | `GLCMD_DIAGNOSTICS=all` or a comma list of `debug_output`, `strict`, `track_deletes` | diagnostics levels (their reports print on stderr: `reports.rs`) |
//! | `GLCMD_WATCHDOG_MS=N` | report replay steps and waits longer than N ms |
//! | `GLCMD_WAIT_LIMIT_MS=N` | how long work waits for a list nobody submitted |
//! | `GLCMD_CAPTURE=FILE` | capture the whole run to FILE (replay it with `glcmd-replay`) |
//! | `GLCMD_POST_MORTEM=FILE` | keep the last frames in memory; write them to FILE if the device is lost or stalls |
//! | `GLCMD_POST_MORTEM_FRAMES=N` | frames the post-mortem ring keeps (default 3) |
//! | `GLCMD_SPIN_US=N` | how long the render thread and a waiting query spin before sleeping (default 20) |
//! | `GLCMD_RUN_DRIVER_THREAD=0` | the program's EGL calls stay on its own threads, and each adopted context gets a render thread of its own (`driver.rs`: by default one driver thread makes every EGL call and hosts the first adopted context's render loop) |
//! | `GLCMD_BATCH_BYTES=N` | the size past which a thread's recorded calls are handed to the render thread (default 16 KiB, at least 1 KiB: the render thread replays one batch while the program records the next; after a query, a flush or a swap the first three are an eighth, a quarter and a half of it, since the render thread waits then) |
//! | `GLCMD_KNOWN_ERRORS=0` | every `glGetError` asks the GL (by default one glcmd knows is `GL_NO_ERROR` answers without a round trip: glcmd's `known_errors.rs`) |
//! | `GLCMD_RUN_STATS=1` | at the end, print per device: presents, lists, commands, implicit submits (of every thread of the process) and round trips, and both per present; and the render thread's time per present by phase (replay, waits, round trips, frame end) |
//!
//! A variable with a value glcmd cannot read stops the adoption with a message naming it (the
//! context then runs directly), rather than running with options the user did not ask for.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use glcmd::{DiagnosticOptions, Options};

/// The options of a launched program.
#[derive(Clone)]
pub struct RunOptions {
    pub device: Options,
    pub capture: Option<String>,
    pub stats: bool,
}

/// Whether `GLCMD_RUN=direct` asks every context to run directly.
pub fn direct_requested() -> bool {
    std::env::var("GLCMD_RUN").is_ok_and(|v| v == "direct")
}

fn number(name: &str) -> Result<Option<u64>, String> {
    match std::env::var(name) {
        Err(_) => Ok(None),
        Ok(v) => v.trim().parse().map(Some).map_err(|_| format!("{name}={v} is not a whole number")),
    }
}

/// The diagnostics levels of `GLCMD_DIAGNOSTICS`.
fn diagnostics(value: &str) -> Result<DiagnosticOptions, String> {
    if value == "all" {
        return Ok(DiagnosticOptions::all());
    }
    let mut d = DiagnosticOptions::default();
    for level in value.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match level {
            "none" => {}
            "debug_output" => d = d.debug_output(true),
            "strict" => d = d.strict(true),
            "track_deletes" => d = d.track_deletes(true),
            other => {
                return Err(format!(
                    "GLCMD_DIAGNOSTICS: unknown level {other:?} (all, none, debug_output, strict, track_deletes)"
                ))
            }
        }
    }
    Ok(d)
}

/// Reads the environment.
pub fn from_environment() -> Result<RunOptions, String> {
    let mut device = Options::default();
    if let Ok(v) = std::env::var("GLCMD_DIAGNOSTICS") {
        device = device.diagnostics(diagnostics(&v)?);
    }
    if let Some(bytes) = number("GLCMD_BATCH_BYTES")? {
        glcmd_capi::immediate::set_submit_bytes(bytes as usize);
    }
    if let Some(ms) = number("GLCMD_WATCHDOG_MS")? {
        device.diagnostics = device.diagnostics.watchdog(Some(Duration::from_millis(ms)));
    }
    if let Some(us) = number("GLCMD_SPIN_US")? {
        device = device.spin(Duration::from_micros(us));
    }
    if let Some(on) = number("GLCMD_KNOWN_ERRORS")? {
        device = device.known_errors(on != 0);
    }
    if let Some(ms) = number("GLCMD_WAIT_LIMIT_MS")? {
        device = device.wait_limit(Duration::from_millis(ms));
    }
    let capture = std::env::var("GLCMD_CAPTURE").ok().filter(|p| !p.is_empty());
    let post_mortem = std::env::var("GLCMD_POST_MORTEM").ok().filter(|p| !p.is_empty());
    if capture.is_some() || post_mortem.is_some() {
        // An unmodified program's frames are its implicit submits: keep every list, as apitrace
        // keeps every call.
        let mut c = glcmd::capture::CaptureOptions::default().setup(glcmd::capture::SetupLog::Everything);
        if let Some(path) = post_mortem {
            let frames = number("GLCMD_POST_MORTEM_FRAMES")?.unwrap_or(3) as usize;
            c = c.post_mortem(Some(glcmd::capture::PostMortem::new(frames, path)));
        }
        device = device.capture(Some(c));
    }
    let stats = std::env::var("GLCMD_RUN_STATS").is_ok_and(|v| v != "0" && !v.is_empty());
    Ok(RunOptions { device, capture, stats })
}

/// What is kept of a running device: its capture and its counters at the last present.
#[derive(Default)]
struct Running {
    capture: Option<glcmd::capture::CaptureHandle>,
    stats: bool,
    presents: u64,
}

static RUNNING: Mutex<Option<HashMap<usize, Running>>> = Mutex::new(None);

fn running<R>(f: impl FnOnce(&mut HashMap<usize, Running>) -> R) -> R {
    f(RUNNING.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashMap::new))
}

fn device(handle: usize) -> Option<glcmd::Device> {
    glcmd_capi::handles::device("glcmd-run", handle).ok()?.device("glcmd-run").ok()
}

/// A device started: begins its capture.
pub fn started(handle: usize, opts: &RunOptions) {
    let mut r = Running { stats: opts.stats, ..Default::default() };
    if let (Some(path), Some(d)) = (&opts.capture, device(handle)) {
        match d.capture(path.clone(), u64::MAX) {
            Ok(h) => r.capture = Some(h),
            Err(e) => eprintln!("glcmd-run: GLCMD_CAPTURE={path}: {e}"),
        }
    }
    running(|m| m.insert(handle, r));
}

/// A device presented.
pub fn presented(handle: usize) {
    running(|m| {
        if let Some(r) = m.get_mut(&handle) {
            r.presents += 1;
        }
    });
}

/// A device is about to be destroyed: prints its counters, if asked, and returns its capture,
/// to be waited for once the device is gone.
pub fn finished(handle: usize) -> Option<glcmd::capture::CaptureHandle> {
    let r = running(|m| m.remove(&handle))?;
    if r.stats {
        if let Some(d) = device(handle) {
            let s = d.stats();
            let t = glcmd_capi::immediate::total_stats();
            let per = |n: u64| n as f64 / r.presents.max(1) as f64;
            eprintln!(
                "glcmd-run: device {handle}: {} presents, {} lists, {} commands ({} repeated calls skipped), round trips {} ({:.1} per present); implicit submits of the process so far {} ({:.1} per present, {} for size); glGetError answered without a round trip {}",
                r.presents,
                s.lists,
                s.commands,
                s.repeats_skipped,
                s.round_trips,
                per(s.round_trips),
                t.implicit_submits,
                per(t.implicit_submits),
                t.size_submits,
                t.errors_known
            );
            // Where the render thread's time went, per present (the breakdown of a frame through
            // glcmd-run: replay is the driver's work, to set beside the same frame made directly).
            let phases = s
                .render
                .phases()
                .map(|(name, d)| format!("{name} {:.1}", d.as_secs_f64() * 1e6 / r.presents.max(1) as f64));
            eprintln!("glcmd-run: render thread of device {handle}, per present (us): {}", phases.join(", "));
        }
    }
    r.capture
}

/// Waits for a capture whose device is gone to be written.
pub fn wait_capture(capture: glcmd::capture::CaptureHandle) {
    if let Err(e) = capture.wait(Duration::from_secs(60)) {
        eprintln!("glcmd-run: capture: {e}");
    }
}
