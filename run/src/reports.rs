//! What glcmd says about a launched program's calls: its devices' reports, on stderr.
//!
//! A device queues a report for each command it refused for safety (an offset with no buffer
//! bound, a sync handle that is no sync object: the command is skipped and raises the error the
//! GL gives), each function the context lacks, a present that failed, and, with the
//! diagnostics options (`--diagnostics`, `--watchdog-ms`), each GL error attributed to the call
//! that raised it, use after delete, draw without a program, driver debug message and stall.
//! A program linked against glcmd reads them with `glcmdGetReport`; an unmodified program does
//! not know they exist, so under the launcher nobody would, and a draw glcmd refused would be
//! lost without a word. So every adopted device gets a thread that waits for its reports and
//! prints each on stderr, one line, prefixed `glcmd-run:`. Which reports exist is the options'
//! business: refusals always, the rest only when asked for.
//!
//! * **One line per distinct report.** A refusal in a loop is one defect, not a thousand: a
//!   report whose kind, function and message (numbers aside) were printed before is not printed
//!   again.
//! * **Rate-limited.** At most [`BURST`] lines at once, then [`PER_SECOND`] a second; what is
//!   held back is counted and the count printed with the next line or when the device ends.
//! * **With the call.** The GL call with its arguments, in C terms, and the program's call
//!   site when glcmd knows it (it does not for C callers: their calls reach glcmd through the
//!   exported symbols, with no source location).
//! * **Complete at the end.** When a device is destroyed (by the program, or at exit) its
//!   reports thread is stopped after the render thread has replayed everything, and what is
//!   still queued is printed before the process goes on.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use glcmd::{Report, ReportKind, ReportWait, Reports};

/// Lines printed at once before the rate limit holds them back.
const BURST: f64 = 20.0;
/// Lines a second once the burst is spent.
const PER_SECOND: f64 = 5.0;
/// How long the reports thread waits for a report before it looks whether to stop.
const POLL: Duration = Duration::from_millis(200);

/// A device's reports thread.
struct Drain {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
    /// The process that started it: a forked child has the record but not the thread.
    pid: i32,
}

static DRAINS: Mutex<Option<HashMap<usize, Drain>>> = Mutex::new(None);

/// Starts printing the reports of the device `handle`.
pub fn start(handle: usize) {
    let Some(reports) = glcmd_capi::handles::device("glcmd-run", handle)
        .ok()
        .and_then(|e| e.device("glcmd-run").ok())
        .map(|d| d.reports())
    else {
        return;
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let spawned = std::thread::Builder::new().name("glcmd-reports".into()).spawn(move || drain(reports, flag));
    match spawned {
        Ok(thread) => {
            // SAFETY: getpid has no preconditions.
            let pid = unsafe { libc::getpid() };
            DRAINS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert_with(HashMap::new)
                .insert(handle, Drain { stop, thread, pid });
        }
        Err(e) => eprintln!("glcmd-run: cannot start a thread for glcmd's reports ({e}); they are not printed"),
    }
}

/// The device `handle` has been destroyed: prints what it still reported, and stops its thread.
pub fn finish(handle: usize) {
    let drain = DRAINS.lock().unwrap_or_else(|e| e.into_inner()).as_mut().and_then(|m| m.remove(&handle));
    // SAFETY: getpid has no preconditions.
    if let Some(d) = drain.filter(|d| d.pid == unsafe { libc::getpid() }) {
        d.stop.store(true, Ordering::Release);
        let _ = d.thread.join();
    }
    printer(Printer::held_back);
}

/// The reports thread: prints each report as it comes, until told to stop; then what is left.
fn drain(reports: Reports, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::Acquire) {
        match reports.recv_timeout(POLL) {
            Ok(r) => print(&r),
            Err(ReportWait::Timeout) => {}
            Err(ReportWait::Closed) => return,
        }
    }
    for r in reports.try_iter() {
        print(&r);
    }
}

/// What was printed, and the rate limit.
struct Printer {
    seen: HashSet<String>,
    tokens: f64,
    last: Option<Instant>,
    held: u64,
}

static PRINTER: Mutex<Option<Printer>> = Mutex::new(None);

fn printer<R>(f: impl FnOnce(&mut Printer) -> R) -> R {
    let mut guard = PRINTER.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(|| Printer { seen: HashSet::new(), tokens: BURST, last: None, held: 0 }))
}

impl Printer {
    /// Whether a line may be printed now (takes a token).
    fn allow(&mut self) -> bool {
        let now = Instant::now();
        if let Some(last) = self.last {
            self.tokens = (self.tokens + now.duration_since(last).as_secs_f64() * PER_SECOND).min(BURST);
        }
        self.last = Some(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            self.held += 1;
            false
        }
    }

    /// Prints how many lines the rate limit held back, if any.
    fn held_back(&mut self) {
        if self.held > 0 {
            eprintln!("glcmd-run: {} more reports not shown (at most {PER_SECOND} a second)", self.held);
            self.held = 0;
        }
    }
}

/// Prints `r` unless a report like it was printed before or the rate limit holds it back.
fn print(r: &Report) {
    printer(|p| {
        if p.seen.insert(key(r)) && p.allow() {
            p.held_back();
            eprintln!("glcmd-run: {}", line(r));
        }
    })
}

/// What makes two reports the same: kind, function and message, with numbers left out (a
/// refused offset differs from call to call).
fn key(r: &Report) -> String {
    let function = r.call.split('(').next().unwrap_or("");
    let message: String = r.message.chars().filter(|c| !c.is_ascii_digit()).collect();
    format!("{:?}\u{1f}{function}\u{1f}{message}", r.kind)
}

/// The line for `r`, in C terms.
fn line(r: &Report) -> String {
    let kind = match r.kind {
        ReportKind::DebugMessage => "GL debug message",
        ReportKind::GlError => "GL error",
        ReportKind::UseAfterDelete => "use after delete",
        ReportKind::Stall => "stall",
        ReportKind::Validation => "validation",
        ReportKind::Skipped => "refused",
        ReportKind::Unavailable => "unavailable function",
        ReportKind::Submission => "submission",
        ReportKind::AbandonedFrame => "abandoned frame",
        ReportKind::Present => "present failed",
    };
    let mut text =
        if r.call.is_empty() { format!("{kind}: {}", r.message) } else { format!("{kind} {}: {}", r.call, r.message) };
    if let Some(site) = r.site {
        text = format!("{}:{}: {text}", site.file(), site.line());
    }
    if let Some((call, _)) = &r.deleted_by {
        text.push_str(&format!(" (deleted by {call})"));
    }
    if !r.breadcrumbs.is_empty() {
        text.push_str(&format!("; last completed: {}", r.breadcrumbs.join(" <- ")));
    }
    glcmd_capi::c_terms::translate(&text).replace('\n', " ")
}
