//! # glcmd-sweep: the soundness sweep
//!
//! Every safe recording method and every safe generated query of glcmd, called with
//! adversarial arguments on a real context, through the checking function table
//! (`glcmd::checked`, cargo feature `checking`): the table checks, call by call, that every
//! pointer glcmd hands the driver lies inside memory the call may touch for the length the GL
//! will use, that every offset has a buffer bound, and that sync objects are real.
//!
//! The calls are generated from glcmd-codegen's model (`build.rs`, `emit/sweep.rs`), so a
//! function nobody thought of is swept too; the arguments come from [`fixture::Fixture`]. The
//! driver is [`run`]; `tests/sweep.rs` runs it in a child process (so a crash or a hang is a
//! reported failure, not a lost test binary) and prints the summary.
//!
//! The sweep runs at a diagnostics [`Level`] (`GLCMD_SWEEP_DIAGNOSTICS`): every reader of
//! packets outside replay (dumps in reports, attribution, strict mode, use-after-delete's
//! object walk, the capture writer) then sees every argument form the adversarial calls make.

pub mod audit;
pub mod fixture;

#[allow(clippy::all, unused_variables, unused_mut, unused_braces)]
pub mod calls {
    include!(concat!(env!("OUT_DIR"), "/sweep_calls.rs"));
}

use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::time::Instant;

use glcmd::{gl, CommandList, Device, Options};

use fixture::Fixture;

/// The device's diagnostics while sweeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// No diagnostics.
    Off,
    /// Recording sites and KHR_debug attribution.
    Attribution,
    /// Attribution, breadcrumbs, a watchdog and use-after-delete tracking.
    All,
    /// `glGetError` after every command, with everything of `All`.
    Strict,
    /// Everything of `All`, a capture's set-up log, and a capture written at the end.
    Capture,
}

impl Level {
    pub const ALL: [Level; 5] = [Level::Off, Level::Attribution, Level::All, Level::Strict, Level::Capture];

    pub fn name(self) -> &'static str {
        match self {
            Level::Off => "off",
            Level::Attribution => "attribution",
            Level::All => "all",
            Level::Strict => "strict",
            Level::Capture => "capture",
        }
    }

    pub fn parse(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }

    fn options(self) -> Options {
        // The watchdog runs; no report is checked against it, so a slow step (memcheck) is harmless.
        // Short, because the device's drop waits for the watchdog's sleep (an eighth of it).
        let all = glcmd::DiagnosticOptions::all().watchdog(Some(std::time::Duration::from_secs(8)));
        let (diagnostics, capture) = match self {
            Level::Off => (glcmd::DiagnosticOptions::default(), None),
            Level::Attribution => (glcmd::DiagnosticOptions::default().debug_output(true), None),
            Level::All => (all, None),
            Level::Strict => (all.strict(true), None),
            Level::Capture => (all, Some(glcmd::capture::CaptureOptions::default().setup_limit(64 << 20))),
        };
        Options::default().checked_gl(true).track_sites(self != Level::Off).diagnostics(diagnostics).capture(capture)
    }
}

/// What a sweep did. `#[non_exhaustive]`: read only, as every counters type of glcmd (glcmd's
/// `runtime/builders.rs` gives the rule).
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct Summary {
    /// GL functions swept (each through every safe method form it has).
    pub functions: usize,
    /// Methods swept: recording and query methods, with the `_from_slice`, singular and scalar
    /// forms.
    pub methods: usize,
    /// Calls made.
    pub calls: usize,
    /// Calls refused at the caller's line (a panic naming the function and argument: impossible
    /// input such as a slice of the wrong length).
    pub rejected: usize,
    /// Query calls that returned an error.
    pub errors: usize,
    /// Recorded commands glcmd skipped at replay because an argument was unsafe.
    pub skipped: u64,
    /// GL calls the checking table saw, and what it found.
    pub checked_calls: u64,
    pub violations: Vec<glcmd::checked::Violation>,
    /// Diagnostic reports the device produced (queued or dropped when the queue was full).
    pub reports: u64,
    /// At `Level::Capture`: the capture written at the end, and what loading it back said.
    pub capture: Option<String>,
    pub seconds: f64,
}

/// The binding state the calls are made in: with nothing bound, and with a buffer bound to
/// every target whose offsets glcmd checks (and a vertex array with an element buffer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Bare,
    Bound,
}

fn progress(line: &str) {
    let mut e = std::io::stderr().lock();
    let _ = writeln!(e, "{line}");
}

/// Runs the sweep: `variants` argument variants per method, in both binding states, with the
/// diagnostics of `level`.
pub fn run(variants: usize, level: Level) -> Result<Summary, glcmd::Error> {
    let start = Instant::now();
    let device = Device::with_options(level.options())?;
    let reports = device.reports();
    let fx = Fixture::new(&device)?;
    let mut summary = Summary {
        functions: calls::RECORD
            .iter()
            .map(|r| r.0)
            .chain(calls::QUERY.iter().map(|q| q.0))
            .collect::<std::collections::HashSet<&str>>()
            .len(),
        methods: calls::RECORD.len() + calls::QUERY.len(),
        ..Default::default()
    };
    // A panic in a recording method is the expected answer to impossible input: silence the
    // default hook so the sweep's output stays readable (each is counted).
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    // For exploring: GL functions to leave out (comma-separated), and per-call progress.
    let skip: Vec<String> =
        std::env::var("GLCMD_SWEEP_SKIP").unwrap_or_default().split(',').map(str::to_string).collect();
    let verbose = std::env::var_os("GLCMD_SWEEP_VERBOSE").is_some();
    for state in [State::Bare, State::Bound] {
        for v in 0..variants {
            for (i, &(gl_name, _method, record)) in calls::RECORD.iter().enumerate() {
                if skip.iter().any(|s| s == gl_name) {
                    continue;
                }
                if verbose {
                    progress(&format!("sweep: {state:?} {v} {gl_name}"));
                }
                if i % 200 == 0 {
                    progress(&format!("sweep: {state:?} variant {v}: recording, at {gl_name}"));
                }
                let mut list = device.command_list();
                fx.prelude(&mut list, state);
                let before = list.len();
                let r = std::panic::catch_unwind(AssertUnwindSafe(|| record(&mut list, &fx, v)));
                summary.calls += 1;
                if r.is_err() {
                    summary.rejected += 1;
                    // The list may hold what the method recorded before it refused: start over.
                    list = device.command_list();
                    fx.prelude(&mut list, state);
                }
                let _ = before;
                fx.epilogue(&mut list);
                device.submit(list)?;
                if i % 64 == 63 {
                    // A sync point: replay has caught up, and the device is alive.
                    device.get_error()?;
                    summary.reports += reports.try_iter().count() as u64;
                }
            }
            device.get_error()?;
            for (i, &(gl_name, _method, query)) in calls::QUERY.iter().enumerate() {
                if skip.iter().any(|s| s == gl_name) {
                    continue;
                }
                if verbose {
                    progress(&format!("sweep: {state:?} {v} {gl_name}"));
                }
                if i % 50 == 0 {
                    progress(&format!("sweep: {state:?} variant {v}: queries, at {gl_name}"));
                }
                let r = std::panic::catch_unwind(AssertUnwindSafe(|| query(&device, &fx, v)));
                summary.calls += 1;
                match r {
                    Err(_) => summary.rejected += 1,
                    Ok(Err(glcmd::Error::DeviceLost { reason })) => {
                        std::panic::set_hook(hook);
                        return Err(glcmd::Error::DeviceLost { reason: format!("after {gl_name}: {reason}") });
                    }
                    Ok(Err(_)) => summary.errors += 1,
                    Ok(Ok(())) => {}
                }
            }
            summary.calls += fx.hand_written(&device, v)?;
        }
    }
    std::panic::set_hook(hook);
    device.finish()?;
    if level == Level::Capture {
        summary.capture = Some(write_capture(&device)?);
    }
    let stats = device.stats();
    summary.reports += reports.try_iter().count() as u64 + stats.reports_dropped;
    summary.skipped = stats.refused;
    let (checked_calls, violations) = glcmd::checked::summary();
    summary.checked_calls = checked_calls;
    summary.violations = violations;
    summary.seconds = start.elapsed().as_secs_f64();
    drop(device);
    Ok(summary)
}

/// Writes a capture of one (empty) frame after the sweep, so the writer sends the set-up log
/// of every swept list, and loads it back. Loading may refuse it (adversarial names are not
/// names the capture created): what matters is that writing and loading end with a value.
fn write_capture(device: &Device) -> Result<String, glcmd::Error> {
    let path = std::env::temp_dir().join(format!("glcmd-sweep-{}.glcap", std::process::id()));
    let handle = device.capture(&path, 1)?;
    device.submit(device.command_list())?;
    let written = match handle.wait(std::time::Duration::from_secs(300)) {
        Ok(s) => format!(
            "{} records, {} bytes written{}",
            s.records,
            s.bytes,
            if s.setup_incomplete { " (set-up log full)" } else { "" }
        ),
        Err(e) => panic!("the sweep's capture was not written: {e}"),
    };
    let loaded = match glcmd::capture::Capture::open(&path) {
        Ok(c) => format!("loaded, {} lists", c.lists().count()),
        Err(e) => format!("load refused it: {e}"),
    };
    let _ = std::fs::remove_file(&path);
    Ok(format!("{written}; {loaded}"))
}

impl Fixture {
    /// The binding state the calls of a list start from.
    fn prelude(&self, list: &mut CommandList, state: State) {
        list.use_program(0);
        list.bind_program_pipeline(0);
        match state {
            State::Bare => {
                list.bind_vertex_array(0);
                for target in Self::TARGETS {
                    list.bind_buffer(target, 0);
                }
            }
            State::Bound => {
                list.bind_vertex_array(self.bound_vao);
                for (i, target) in Self::TARGETS.into_iter().enumerate() {
                    list.bind_buffer(target, self.target_buffers[i]);
                }
            }
        }
    }

    /// After each call: no program stays bound, so no later draw in the sweep does real work
    /// (adversarial counts would otherwise rasterise for minutes).
    fn epilogue(&self, list: &mut CommandList) {
        list.use_program(0);
        list.bind_program_pipeline(0);
        list.end_transform_feedback();
        list.bind_framebuffer(gl::FRAMEBUFFER, 0);
    }
}
