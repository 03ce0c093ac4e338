//! Immediate threads, and the rule that keeps deferred lists from answering stale.
//!
//! A GL context current on a thread gives that thread single-threaded semantics: a query sees
//! every call the thread made before it. A glcmd list does not: a query is a round trip that
//! runs after the lists *submitted* before it, so a thread that asks while its own list is
//! still being recorded would get an answer from before its own calls. This module makes both
//! styles honest.
//!
//! ## Immediate threads (`glcmdThreadMakeImmediate`)
//!
//! An immediate thread always has an **implicit list** current (begun by
//! `glcmdThreadMakeImmediate`, and again after each implicit submit): its recording entry
//! points record into it, deletes included, with no `glcmdListBegin`. It is submitted, as
//! `glcmdSubmit` submits a list (a frame of one list, after any frame still open), **never
//! empty**:
//!
//! * before an entry point that must ask the render thread: a query, a read into client
//!   memory, a map, `glClientWaitSync`, `glFinish`, `glGetError`, a program lookup the cache
//!   cannot answer. Such an entry point first runs with round trips refused
//!   (`Device::refusing_round_trips`): an answer glcmd gives from its own knowledge (the limits
//!   cache, `glGetString`, the program cache for links already submitted) is given then, with
//!   no submit; only if it would ask the render thread (or fails) are the pending calls
//!   submitted and the entry point run again, so it sees every call the thread made before it.
//!   Creates never submit: a name from a pool, or a create round trip, depends on no list;
//! * on `glFlush` (which then waits for nothing);
//! * when the list's buffers pass [`SUBMIT_BYTES`];
//! * by `glcmdThreadMakeImmediate(NULL)` (leaving immediate mode) or with another device.
//!
//! The pixel-store state and pixel-buffer bindings tracked for the list (`recording.rs`) carry
//! from one implicit list to the next: the next list records the tracked unpack state again
//! before its first upload, so a `glPixelStorei` before a submit applies to an upload after it,
//! and a pointer after a `glBindBuffer(GL_PIXEL_UNPACK_BUFFER, b)` stays an offset. They follow
//! what the GL accepts (issue 30, item 1): a thread that becomes immediate on a device starts
//! from the GL's own state (asked once, `Device::pixel_state_now`), and a bind of a buffer name
//! glcmd cannot prove exists is resolved by asking the GL right after it ([`after_record`]).
//!
//! Immediate threads of one device share its one GL context, as threads sharing a context
//! would: their implicit lists interleave at submit boundaries, so state one thread binds can be
//! seen by another between two of its submits. A thread that needs state of its own re-binds it
//! after a query (or uses direct state access); one immediate thread per device is the plain
//! single-threaded program.
//!
//! The explicit list functions on an immediate thread: `glcmdListBegin` and `glcmdListBeginSlot`
//! fail with `GLCMD_ERROR_LIST_ACTIVE` naming this rule, and so do `glcmdSubmit` and
//! `glcmdListSubmit` (the thread's calls are submitted for it; `glFlush` submits now);
//! `glcmdListDiscard` drops the pending calls; `glcmdDeviceMakeCurrent` of another device fails.
//! Leave with `glcmdThreadMakeImmediate(NULL)` first. Calls still pending when the thread exits
//! are submitted then (`current.rs`, `Drop for Thread`), as a GL context runs every call it was
//! given; the thread does not wait for them.
//!
//! **`glGetError`** returns the errors of the thread's own earlier calls, in the GL's order:
//! those the render thread raised replaying them and those glcmd raised at the entry point.
//! When an entry point fails on an immediate thread, the pending calls are submitted and the
//! device's errors collected first (a round trip, on failures only), so an error of an earlier
//! call comes before the entry point's own. The thread keeps one flag, as Mesa does: the first
//! error is returned, and errors raised while it is set are dropped (`glGetError` with the flag
//! set also submits the pending calls and drops the device's errors, which came after it).
//! Where glcmd knows the answer is `GL_NO_ERROR` (every call since the last `glGetError` was
//! seen clean before on the same state: glcmd's `known_errors.rs`), `glGetError` answers at once
//! and the calls stay pending; `Options::known_errors(false)` (glcmd-run's
//! `--ask-every-error`) always asks.
//!
//! ## Deferred lists (`glcmdListBegin`, `glcmdListBeginSlot`)
//!
//! A query from a thread whose current list is an explicit one holding unsubmitted calls runs
//! with round trips refused: answers glcmd gives from its own knowledge (limits, strings,
//! creates, the program cache) are given; one that would ask the render thread, and so could
//! depend on the list, fails at once with `GLCMD_ERROR_LIST_ACTIVE`, naming the two ways out:
//! submit first (`glcmdSubmit`, `glcmdListSubmit`), or use an immediate thread. `glFinish`,
//! `glFlush` and `glDebugMessageCallback` answer nothing and run as before. A list with no calls
//! yet changes no answer: queries then run as before.
//!
//! ## Counters
//!
//! [`thread_stats`] (the calling thread) and [`total_stats`] (the process) count the implicit
//! submits and the round trips, for `glcmd-run` to print; `glcmd::Device::stats` counts a
//! device's round trips from all threads.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use glcmd::{gl, Device};

use crate::current::{self, Thread};
use crate::error::{self, CallError};
use crate::handles::DeviceEntry;
use crate::recording::Recording;
use crate::types::GLCMD_ERROR_LIST_ACTIVE;

/// An implicit list is submitted once its packets and parameters pass this many bytes, by
/// default ([`set_submit_bytes`] changes it for the process): the streaming hand-over of issue
/// 31. The render thread replays a batch while the thread records the next, as Mesa's glthread
/// does with its batches. 16 KiB measured best: against 1 MiB (a hand-over only at queries,
/// flushes and swaps), the tutorial frames that are GL calls and nothing else run faster with it
/// on NVIDIA (H100 and H200) and on llvmpipe, and 8 and 4 KiB gained nothing more
/// (BENCHMARKS.md, "Answers without round trips and 16 KiB hand-overs"). After a sync the first
/// three hand-overs come at an eighth, a quarter and a half of it (`glcmd::HandOvers`).
pub const SUBMIT_BYTES: usize = 16 << 10;

/// The size past which an implicit list is submitted now ([`SUBMIT_BYTES`] unless set).
static SUBMIT_BYTES_NOW: AtomicUsize = AtomicUsize::new(SUBMIT_BYTES);

/// Sets the size past which every immediate thread of the process submits its implicit list
/// (at least 1 KiB): smaller batches let the render thread replay while the thread records
/// (issue 31's streaming hand-over), at a cost per list. glcmd-run sets it from
/// `GLCMD_BATCH_BYTES`; the default is [`SUBMIT_BYTES`].
pub fn set_submit_bytes(bytes: usize) {
    SUBMIT_BYTES_NOW.store(bytes.max(1024), Ordering::Relaxed);
}

/// Counters of immediate threads. `#[non_exhaustive]`, as glcmd's counters types (glcmd's
/// `options.rs`): read the fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ImmediateStats {
    /// Implicit lists submitted (each a frame of one list): before a query, on `glFlush`, past
    /// [`SUBMIT_BYTES`], on leaving immediate mode.
    pub implicit_submits: u64,
    /// Of those, the ones submitted because the list passed [`SUBMIT_BYTES`].
    pub size_submits: u64,
    /// Round trips to the render thread (creates and queries that asked it, every style).
    pub round_trips: u64,
    /// `glGetError` calls answered `GL_NO_ERROR` without a round trip (glcmd's
    /// `known_errors.rs`).
    pub errors_known: u64,
}

thread_local! {
    static STATS: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
    static KNOWN: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}
static TOTAL_KNOWN: AtomicU64 = AtomicU64::new(0);
static TOTAL_SUBMITS: AtomicU64 = AtomicU64::new(0);
static TOTAL_SIZE_SUBMITS: AtomicU64 = AtomicU64::new(0);
static TOTAL_ROUND_TRIPS: AtomicU64 = AtomicU64::new(0);

/// The calling thread's counters (`round_trips` counts its round trips on every device).
pub fn thread_stats() -> ImmediateStats {
    let (implicit_submits, size_submits) = STATS.try_with(|s| s.get()).unwrap_or_default();
    let errors_known = KNOWN.try_with(|k| k.get()).unwrap_or_default();
    ImmediateStats { implicit_submits, size_submits, round_trips: Device::thread_round_trips(), errors_known }
}

/// The counters of every thread of the process (round trips: those made by C entry points).
pub fn total_stats() -> ImmediateStats {
    ImmediateStats {
        implicit_submits: TOTAL_SUBMITS.load(Ordering::Relaxed),
        size_submits: TOTAL_SIZE_SUBMITS.load(Ordering::Relaxed),
        round_trips: TOTAL_ROUND_TRIPS.load(Ordering::Relaxed),
        errors_known: TOTAL_KNOWN.load(Ordering::Relaxed),
    }
}

fn count_known_error() {
    let _ = KNOWN.try_with(|k| k.set(k.get() + 1));
    TOTAL_KNOWN.fetch_add(1, Ordering::Relaxed);
}

fn count_submit(size: bool) {
    let _ = STATS.try_with(|s| {
        let (a, b) = s.get();
        s.set((a + 1, b + size as u64));
    });
    TOTAL_SUBMITS.fetch_add(1, Ordering::Relaxed);
    if size {
        TOTAL_SIZE_SUBMITS.fetch_add(1, Ordering::Relaxed);
    }
}

/// The deferred-list rule: a query that could depend on the thread's unsubmitted list.
fn stale(function: &str, pending: usize) -> CallError {
    CallError::new(
        GLCMD_ERROR_LIST_ACTIVE,
        format!(
            "{function}: this thread's current list holds {pending} unsubmitted call(s), and the answer could depend \
             on them, but a query sees only the calls submitted before it: submit the list first (glcmdSubmit, \
             glcmdListSubmit), or make the thread immediate (glcmdThreadMakeImmediate), whose queries see its own \
             earlier calls"
        ),
    )
}

/// Submits the implicit list of `t` if it holds calls (`size`: because it passed
/// [`SUBMIT_BYTES`]); a fresh implicit list, with the same pixel state, takes its place. A
/// refused submit leaves the list as it was. Nothing happens on a thread that is not immediate.
pub fn submit_pending(t: &mut Thread, function: &str, size: bool) -> Result<(), CallError> {
    if !t.immediate {
        return Ok(());
    }
    t.hand_overs.handed_over(size);
    let (Some(entry), Some(recording)) = (t.device.as_ref(), t.recording.as_mut()) else { return Ok(()) };
    if recording.list.is_empty() {
        return Ok(());
    }
    let device = entry.device(function)?;
    if let Some(known) = t.known_errors.as_mut() {
        known.scan(&recording.list);
    }
    let mut next = fresh(&device);
    next.carry_pixel_state(&recording.list);
    let mut list = std::mem::replace(&mut recording.list, next);
    list.mark_implicit();
    if let Err(refused) = device.submit(list) {
        let (error, list) = refused.into_parts();
        recording.list = list;
        return Err(CallError::from_glcmd(function, error));
    }
    if let Some(known) = t.known_errors.as_mut() {
        known.list_replaced();
    }
    count_submit(size);
    Ok(())
}

/// `glGetError` of an immediate thread with no flag of its own set: `GL_NO_ERROR` if glcmd
/// knows every call since the last answer raised nothing (glcmd's `known_errors.rs`), with no
/// submit and no round trip; else the pending calls are submitted and the GL asked, and what
/// the answer proves is kept.
pub fn get_error(function: &'static str, device: &Device) -> Result<u32, CallError> {
    let known = current::with_thread(function, |t| {
        let Thread { recording: Some(r), known_errors, .. } = t else { return Ok(false) };
        let known = known_errors.get_or_insert_with(|| Box::new(glcmd::known_errors::KnownErrors::new()));
        Ok(known.no_error_known(device, &r.list))
    })?;
    if known {
        count_known_error();
        return Ok(gl::NO_ERROR);
    }
    let senders = device.sender_changes();
    flush(function)?;
    let first = crate::conv::checked(function, device.get_error())?;
    current::with_thread(function, |t| {
        if let Some(known) = t.known_errors.as_mut() {
            known.answered(device, first, senders);
        }
        Ok(())
    })?;
    Ok(first)
}

/// The thread returned a flag it raised itself (`glGetError`): what its calls did is not known.
pub fn own_flag_returned() {
    let _ = current::with_thread("glGetError", |t| {
        if let Some(known) = t.known_errors.as_mut() {
            known.flag_returned();
        }
        Ok(())
    });
}

/// A new implicit list of an immediate thread: its setters reach the GL in the order it
/// records them (glcmd's `recorded_state.rs`).
fn fresh(device: &Device) -> glcmd::CommandList {
    let mut list = device.command_list();
    list.track_sites(false);
    list.mark_immediate_recording();
    list
}

/// Submits the calling thread's implicit list if it holds calls.
pub fn flush(function: &str) -> Result<(), CallError> {
    current::with_thread(function, |t| submit_pending(t, function, false))
}

/// After recording on `t`: submits the implicit list if it passed its size (after a sync an
/// eighth of [`SUBMIT_BYTES`], doubling up to it: `glcmd::HandOvers`), and asks
/// the GL for a pixel-buffer binding the list could not be sure of.
#[inline]
pub fn after_record(t: &mut Thread, function: &str) -> Result<(), CallError> {
    if !t.immediate {
        return Ok(());
    }
    let (over, unsure) = t.recording.as_ref().map_or((false, false), |r| {
        let (packets, params) = r.list.byte_sizes();
        let limit = t.hand_overs.limit(SUBMIT_BYTES_NOW.load(Ordering::Relaxed));
        (packets + params > limit, r.list.pixel_state().unsure != 0)
    });
    if over {
        submit_pending(t, function, true)?;
    }
    if unsure {
        resolve_pixel_bindings(t, function)?;
    }
    Ok(())
}

/// A `glBindBuffer` to a pixel target of a name glcmd cannot prove exists (never made through
/// glcmd, or deleted): whether the GL accepted it decides what the next transfer's pointer
/// means, so the thread asks (its calls submitted first, then the bindings read back; the
/// runtime's `pixels.rs`, "Bindings"). Costs a round trip only for such a name.
#[cold]
fn resolve_pixel_bindings(t: &mut Thread, function: &str) -> Result<(), CallError> {
    submit_pending(t, function, false)?;
    let Some(entry) = t.device.as_ref() else { return Ok(()) };
    let state = entry.device(function)?.pixel_state_now().map_err(|e| CallError::from_glcmd(function, e))?;
    if let Some(r) = t.recording.as_mut() {
        r.list.resolve_pixel_bindings(state.unpack_name, state.pack_name);
    }
    Ok(())
}

/// How a create or query of the calling thread runs.
enum Mode {
    /// No unsubmitted calls of this thread: ask.
    Ask,
    /// An explicit list with `n` unsubmitted calls: answer only from glcmd's own knowledge.
    Deferred(usize),
    /// An immediate thread with unsubmitted calls: submit them first where the GL must answer.
    Immediate,
}

/// Runs `body` (a create, query or special of `function`) with the calling thread's device,
/// as the thread's style requires (the module's doc).
pub fn ask<R>(function: &'static str, body: impl Fn(&Device) -> Result<R, CallError>) -> Result<R, CallError> {
    let (entry, mode, immediate) = current::with_thread(function, |t| {
        let entry = t.device.clone().ok_or_else(|| CallError::no_device(function))?;
        if t.immediate && t.recording.as_ref().is_some_and(|r| r.list.deletes_programs()) {
            // A program this thread deleted must not be answered for from the interface cache:
            // submitted, the delete is waited for (glcmd's `programs.rs`).
            submit_pending(t, function, false)?;
        }
        let mode = match &t.recording {
            Some(r) if !r.list.is_empty() && t.immediate => Mode::Immediate,
            Some(r) if !r.list.is_empty() => Mode::Deferred(r.list.len()),
            _ => Mode::Ask,
        };
        Ok((entry, mode, t.immediate))
    })?;
    if immediate {
        // The answer must see every call the thread recorded: what it set itself can be
        // answered from the recorded state (glcmd's `recorded_state.rs`).
        return glcmd::recorded_state::answering(|| ask_as(function, &entry, mode, body));
    }
    ask_as(function, &entry, mode, body)
}

/// [`ask`] with the thread's device and mode.
fn ask_as<R>(
    function: &'static str,
    entry: &DeviceEntry,
    mode: Mode,
    body: impl Fn(&Device) -> Result<R, CallError>,
) -> Result<R, CallError> {
    let device = entry.device(function)?;
    let before = Device::thread_round_trips();
    let result = match mode {
        Mode::Ask => body(&device),
        _ if is_create(function) => body(&device),
        Mode::Deferred(_) if answers_nothing(function) => body(&device),
        Mode::Deferred(pending) => match Device::refusing_round_trips(|| body(&device)) {
            (_, true) => Err(stale(function, pending)),
            (r, false) => r,
        },
        Mode::Immediate => match Device::refusing_round_trips(|| body(&device)) {
            (Ok(v), false) => Ok(v),
            _ => {
                flush(function)?;
                body(&device)
            }
        },
    };
    let round_trips = Device::thread_round_trips().saturating_sub(before);
    if round_trips > 0 {
        TOTAL_ROUND_TRIPS.fetch_add(round_trips, Ordering::Relaxed);
        // The render thread has replayed everything and waits: the next batch starts small
        // (`glcmd::HandOvers`), as after a submit that was not for size.
        let _ = current::with_thread(function, |t| {
            t.hand_overs.handed_over(false);
            Ok(())
        });
    }
    result
}

/// `glGen*` and `glCreate*`: their names depend on no list (`glGenerateMipmap` records, so
/// never comes here).
fn is_create(function: &str) -> bool {
    function.starts_with("glGen") || function.starts_with("glCreate")
}

/// Entry points that ask the render thread but answer nothing the list could change: a
/// deferred list does not refuse them (`glFinish` waits for the submitted lists, as before).
fn answers_nothing(function: &str) -> bool {
    matches!(function, "glFinish" | "glFlush" | "glDebugMessageCallback" | "glDebugMessageCallbackARB")
}

/// Whether the calling thread is immediate.
pub fn is_immediate() -> bool {
    current::THREAD.try_with(|t| t.try_borrow().map(|t| t.immediate).unwrap_or(false)).unwrap_or(false)
}

/// Before an entry point of an immediate thread raises its GL error: submits the pending calls
/// and collects the errors the device holds for them (and earlier calls), so they come first
/// (the first is kept, `error::raise_gl`). Also what `glGetError` does while the thread's flag
/// is set: the device's errors then came after it, and are dropped. Failures here are ignored:
/// the entry point's own error is raised whatever happens.
pub fn collect_errors(function: &'static str) {
    if !is_immediate() {
        return;
    }
    let Ok(entry) = current::device_entry(function) else { return };
    let Ok(device) = entry.device(function) else { return };
    if flush(function).is_err() {
        return;
    }
    // The runtime holds at most a few errors (the GL's flags, and glcmd's own refusals).
    for _ in 0..16 {
        match device.get_error() {
            Ok(e) if e != gl::NO_ERROR => error::raise_gl(e),
            _ => break,
        }
    }
}

/// `glcmdThreadMakeImmediate`: makes the calling thread immediate on `device` (and `device`
/// current), or with `None` submits its pending calls and leaves immediate mode (the device
/// stays current).
pub fn make_immediate(function: &'static str, device: Option<Arc<DeviceEntry>>) -> Result<(), CallError> {
    current::with_thread(function, |t| {
        if t.recording.is_some() && !t.immediate {
            return Err(CallError::new(
                GLCMD_ERROR_LIST_ACTIVE,
                format!(
                    "{function}: an explicit list is current on this thread; submit it (glcmdListSubmit, glcmdSubmit) \
                     or discard it (glcmdListDiscard) first"
                ),
            ));
        }
        let same = matches!((&t.device, &device), (Some(a), Some(b)) if a.id == b.id);
        if t.immediate && same {
            return Ok(());
        }
        submit_pending(t, function, false)?;
        // Another context's state, or this one's after other threads had it (`elements.rs`).
        t.epoch += 1;
        t.known_errors = None;
        match device {
            Some(entry) => {
                let device = entry.device(function)?;
                let mut list = fresh(&device);
                // The context's pixel state as the GL has it: another thread, another device on
                // the same context (a re-adoption) or this thread before a switch may have left
                // a pixel buffer bound, and the pointers of this thread's transfers mean what
                // that state says (a round trip per switch; none while the thread stays).
                if let Ok(state) = device.pixel_state_now() {
                    list.set_pixel_state(state);
                }
                t.device = Some(entry);
                t.recording = Some(Recording::new(list));
                t.immediate = true;
            }
            None => {
                if t.immediate {
                    t.recording = None;
                }
                t.immediate = false;
            }
        }
        Ok(())
    })
}
