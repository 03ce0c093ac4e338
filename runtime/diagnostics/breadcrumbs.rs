//! Breadcrumbs and the watchdog: what the render thread is doing, readable from any thread.
//! The render thread pays one relaxed store per command and a lock per list; a watchdog thread
//! reports a replay step that runs longer than its limit, with the command in flight and the
//! last ones completed (DRED's breadcrumbs, for a GL driver that hangs). Dropping the watchdog
//! wakes it, so a device drops at once.

use std::collections::VecDeque;
use std::panic::Location;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::generated::NAMES;
use crate::list::CommandList;
use crate::vocab::report::{site_text, Report, ReportKind, Sink};

/// Completed commands the breadcrumbs keep.
pub const BREADCRUMBS: usize = 16;

/// A command as the breadcrumbs name it: opcode and recording site.
type Crumb = (usize, Option<&'static Location<'static>>);

/// The command in flight and the last completed ones, readable from any thread.
///
/// The render thread pays one relaxed store per command (`slot`: where in the list being
/// replayed it is) and a lock per list (`view`: which list that is). Everything else is worked
/// out by the reader, from the list itself: the watchdog holds the lock while it reads the
/// list, and the render thread clears the view under the same lock before the list's replay
/// ends, so the list outlives every read. The commands completed in earlier lists are kept per
/// list (the last [`BREADCRUMBS`] of each, from a ring of slots the replay loop keeps on its
/// stack).
pub(crate) struct Breadcrumbs {
    /// Slot of the command in flight plus one, in the list of `view`; 0 when none.
    slot: AtomicUsize,
    view: Mutex<View>,
    /// Wakes the watchdog at shutdown (`View::stopped`).
    wake: Condvar,
}

/// What the breadcrumbs know beyond the slot; behind `Breadcrumbs::view`.
struct View {
    /// The list being replayed (null when none): its packets and sites are read through it.
    list: *const CommandList,
    /// Counts lists, so the watchdog tells a step of one list from the same slot of the next.
    seq: u64,
    label: String,
    /// Completed commands of earlier lists, oldest first, at most `BREADCRUMBS`.
    earlier: VecDeque<Crumb>,
    /// The command in flight when the render thread panicked inside a list (for `summary`).
    panicked_in: Option<(Crumb, usize, String)>,
    /// Set when the device shuts down: the watchdog returns.
    stopped: bool,
}

// SAFETY: `list` is only dereferenced under the lock, while the render thread is replaying
// that list (it clears the pointer under the lock before the replay ends); a `CommandList` is
// only read there (packets and sites), and reading plain vectors from two threads is sound.
unsafe impl Send for View {}

/// What a reader sees of the command in flight: the command, its index in the list, the
/// list's label, the step's identity (list, slot) and the commands completed before it.
struct InFlight {
    crumb: Crumb,
    index: usize,
    label: String,
    step: (u64, usize),
    completed: Vec<Crumb>,
}

impl Breadcrumbs {
    pub(crate) fn new() -> Self {
        Breadcrumbs {
            slot: AtomicUsize::new(0),
            view: Mutex::new(View {
                list: std::ptr::null(),
                seq: 0,
                label: String::new(),
                earlier: VecDeque::new(),
                panicked_in: None,
                stopped: false,
            }),
            wake: Condvar::new(),
        }
    }

    fn view(&self) -> std::sync::MutexGuard<'_, View> {
        self.view.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The render thread starts replaying `list`.
    pub(super) fn begin_list(&self, list: &CommandList) {
        let mut v = self.view();
        v.list = list;
        v.seq += 1;
        v.label.clear();
        v.label.push_str(&list.label);
        v.panicked_in = None;
        self.slot.store(0, Ordering::Relaxed);
    }

    /// Called before each command: the only per-command cost of the breadcrumbs.
    #[inline(always)]
    pub(super) fn start(&self, slot: usize) {
        self.slot.store(slot + 1, Ordering::Relaxed);
    }

    /// The render thread leaves `list` (done, or unwinding from a panic): the breadcrumbs keep
    /// its last completed commands, `tail` (slots, a ring indexed by command index mod
    /// `BREADCRUMBS`; `done` commands completed).
    pub(super) fn end_list(&self, list: &CommandList, tail: &[usize; BREADCRUMBS], done: usize, panicking: bool) {
        let mut v = self.view();
        if panicking {
            v.panicked_in = self.read(&v).map(|f| (f.crumb, f.index, f.label));
        }
        let mut sites = list.site_cursor();
        for i in done.saturating_sub(BREADCRUMBS)..done {
            let slot = tail[i % BREADCRUMBS];
            let op = (list.packets[slot] & 0xFFFF) as usize;
            v.earlier.push_back((op, sites.at(slot)));
        }
        while v.earlier.len() > BREADCRUMBS {
            v.earlier.pop_front();
        }
        v.list = std::ptr::null();
        self.slot.store(0, Ordering::Relaxed);
    }

    /// The command in flight, read from the list under the lock.
    fn read(&self, v: &View) -> Option<InFlight> {
        let slot = self.slot.load(Ordering::Relaxed).checked_sub(1)?;
        // SAFETY: see `View`: under the lock, a non-null `list` is being replayed.
        let list = unsafe { v.list.as_ref()? };
        let mut sites = list.site_cursor();
        let mut completed: VecDeque<Crumb> = v.earlier.clone();
        let mut found = None;
        list.walk_until(slot, |index, at, op| {
            let crumb = (op, sites.at(at));
            if at == slot {
                found = Some((crumb, index));
            } else {
                completed.push_back(crumb);
                if completed.len() > BREADCRUMBS {
                    completed.pop_front();
                }
            }
        });
        let (crumb, index) = found?;
        Some(InFlight { crumb, index, label: v.label.clone(), step: (v.seq, slot), completed: completed.into() })
    }

    /// The last completed commands, oldest first, as `glName (file:line:col)`.
    fn completed_text(crumbs: &[Crumb]) -> Vec<String> {
        crumbs.iter().map(|&(op, site)| format!("{} ({})", NAMES[op], site_text(site))).collect()
    }

    /// For a device-lost error: what was in flight and what completed.
    pub(crate) fn summary(&self) -> String {
        let v = self.view();
        let (in_flight, completed) = match self.read(&v) {
            Some(f) => (Some((f.crumb, f.index, f.label)), f.completed),
            None => (v.panicked_in.clone(), v.earlier.iter().copied().collect()),
        };
        let mut s = String::new();
        if let Some(((op, site), index, label)) = in_flight {
            s.push_str(&format!(
                "in flight: {} (command {index} of list \"{label}\", recorded at {})",
                NAMES[op],
                site_text(site)
            ));
        }
        let done = Self::completed_text(&completed);
        if !done.is_empty() {
            if !s.is_empty() {
                s.push_str("; ");
            }
            s.push_str(&format!("last completed: {}", done.join(" <- ")));
        }
        s
    }
}

/// The watchdog thread; [`Watchdog::join`] (or a drop) wakes it and it returns at once.
pub(crate) struct Watchdog {
    crumbs: Arc<Breadcrumbs>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    fn stop(&self) {
        self.crumbs.view().stopped = true;
        self.crumbs.wake.notify_all();
    }

    /// Stops the watchdog and waits for its thread, which is woken rather than left to finish
    /// its tick (an eighth of the limit: minutes with a long one).
    pub(crate) fn join(mut self) -> std::thread::Result<()> {
        self.stop();
        self.thread.take().map_or(Ok(()), |t| t.join())
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The watchdog: a thread that reports a replay step running longer than `limit`.
/// `post_mortem` is told of each stall and returns text for the report (the path of a
/// post-mortem capture, when one is kept).
pub(crate) fn start_watchdog(
    crumbs: Arc<Breadcrumbs>,
    limit: Duration,
    sink: Sink,
    post_mortem: Box<dyn Fn(&str) -> String + Send>,
) -> Watchdog {
    let watched = crumbs.clone();
    let thread = std::thread::Builder::new()
        .name("glcmd-watchdog".into())
        .spawn(move || watch(&watched, limit, &sink, &*post_mortem))
        .expect("spawn the watchdog thread");
    Watchdog { crumbs, thread: Some(thread) }
}

/// The watchdog's loop: looks every eighth of `limit` (waiting on a condvar, so a stop wakes it)
/// and reports a step seen in flight for `limit` or more, once.
fn watch(crumbs: &Breadcrumbs, limit: Duration, sink: &Sink, post_mortem: &dyn Fn(&str) -> String) {
    let mut reported = None;
    // The step the watchdog saw in flight, and since when (its own clock: the render thread
    // reads none).
    let mut seen: Option<((u64, usize), Instant)> = None;
    let tick = (limit / 8).max(Duration::from_millis(1));
    loop {
        let v = crumbs.view();
        let (v, _) = crumbs.wake.wait_timeout_while(v, tick, |v| !v.stopped).unwrap_or_else(|e| e.into_inner());
        if v.stopped {
            return;
        }
        let Some(f) = crumbs.read(&v) else {
            seen = None;
            continue;
        };
        drop(v);
        let since = match seen {
            Some((step, t)) if step == f.step => t,
            _ => {
                seen = Some((f.step, Instant::now()));
                continue;
            }
        };
        let running = since.elapsed();
        if running < limit || reported == Some(f.step) {
            continue;
        }
        reported = Some(f.step);
        let name = NAMES[f.crumb.0];
        let message = format!("replay step running for {} ms (limit {} ms)", running.as_millis(), limit.as_millis());
        let post_mortem = post_mortem(&format!("{name}: {message}"));
        sink.send(Report {
            kind: ReportKind::Stall,
            call: name.to_string(),
            list: (!f.label.is_empty()).then_some(f.label),
            index: Some(f.index),
            site: f.crumb.1,
            message: format!("{message}{post_mortem}"),
            deleted_by: None,
            breadcrumbs: Breadcrumbs::completed_text(&f.completed),
        });
    }
}
