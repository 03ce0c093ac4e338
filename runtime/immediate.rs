//! The immediate context: single-threaded GL semantics on any thread.
//!
//! A [`CommandList`] submitted to a frame slot is *deferred*: a query answers from the
//! submitted stream (ordering rule 6, `frame.rs`), so it cannot see calls still in an
//! unsubmitted list. Code written for one GL context (compile, then ask for the compile status;
//! draw, then read the pixels) needs the opposite: every query sees every call this thread made
//! before it. [`Immediate`] gives that. It is a command list (it derefs to one, so every
//! recording method is there) with every query, create and special method of [`Device`]
//! beside it:
//!
//! * a **query or special** (`get_integerv`, `get_error`, `finish`, `with_gl`, ...) first
//!   submits the context's pending list, as [`Device::submit`] would (a frame of one list; an
//!   empty list is not submitted), then asks the device. The answer therefore comes after every
//!   call this context made, and after every frame begun before the submit (rule 1);
//! * `get_integerv`, `get_integer` and `is_enabled` of state this context's own calls set
//!   (viewport, scissor, enables, blending, bindings, ...) are answered from what it recorded,
//!   without a round trip (`recorded_state.rs`, audited against the GL);
//! * a **create** asks at once, with nothing submitted: a new name cannot depend on earlier
//!   calls (names come from pools or from a create that runs before anything else, rule 5);
//! * the pending list is also submitted by [`Immediate::flush`] and [`Immediate::finish`], when
//!   it is dropped (nothing recorded is lost), by [`Immediate::submit_pending`], and when a
//!   recording call finds it larger than `Options::immediate_flush_bytes` (default 16 KiB), so a
//!   thread that never asks anything still streams its work to the render thread. Right after
//!   the context synchronised with the render thread (a query, a flush), the first hand-overs
//!   come sooner ([`HandOvers`]: an eighth of that, then doubling), since the render thread has
//!   nothing else to replay then.
//!
//! The twins of the generated creates and queries are generated too (`generated/immediate.rs`);
//! the twins of the hand-written specials live beside their originals in `special.rs`.
//! [`Immediate::implicit_submits`] and [`Immediate::round_trips`] count what the semantics cost,
//! for examples that print them per frame.
//!
//! Each implicit submit is a frame (rule 1 is what orders it against other threads' frames).
//! A window device presents at the end of every frame, but not of a frame of implicit lists
//! only (`CommandList::mark_implicit`): those are hand-overs, not the program's frames, so an
//! immediate context on a window presents when it asks ([`Immediate::present`],
//! [`Immediate::queue_present`]), once per frame (`tests/window.rs`, `--immediate`).
//!
//! An `Immediate` is a value owned by one thread at a time (recording and asking take
//! `&mut self`); it is `Send`, and moving it to another thread moves its pending calls with it.
//! Its lists are never claimed for a slot and never count as held by a thread (`open_frames.rs`):
//! a query of an immediate context waits for another thread's slot, not its own.

use std::ops::{Deref, DerefMut};

use crate::device::Device;
use crate::list::CommandList;
use crate::Error;

/// A recording context with single-threaded GL semantics; see [`Device::immediate`].
pub struct Immediate {
    pub(crate) device: Device,
    list: CommandList,
    flush_bytes: usize,
    hand_overs: HandOvers,
    implicit_submits: u64,
    round_trips: u64,
    /// What this context knows of its errors (`known_errors.rs`), and the `get_error` calls
    /// it answered from that.
    known: crate::known_errors::KnownErrors,
    errors_known: u64,
}

/// When an immediate thread hands its pending calls to the render thread for size: right after
/// the thread synchronised with the render thread (a query that asked it, a flush, a present:
/// anything but a hand-over for size) past an eighth of its batch size, then a quarter, a half,
/// and from then on the batch size (the C ABI's `SUBMIT_BYTES`, `GLCMD_BATCH_BYTES`;
/// `Options::immediate_flush_bytes`): 2, 4, 8, then 16 KiB by default.
///
/// Why: after a sync the render thread has replayed everything and waits, so the first batch of
/// the next stretch of calls decides how long it idles. A program whose frame is GL calls and
/// one `glGetError` (issue 31's *lean* frame) had the render thread idle for the whole first
/// 16 KiB, a fifth of its frame, on every frame. Small batches all the way would cost a hand-over
/// (a pooled list and three messages) per 2 KiB where the render thread is busy anyway: hence the
/// doubling. A batch size of `usize::MAX` (never for size) stays that.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandOvers {
    /// Hand-overs for size since the last sync, up to [`HandOvers::STEPS`].
    doublings: u32,
}

impl HandOvers {
    /// Hand-overs for size after a sync before the batch size applies whole: the first is past
    /// `batch >> STEPS` bytes.
    pub const STEPS: u32 = 3;

    /// As right after a sync.
    pub const fn new() -> HandOvers {
        HandOvers { doublings: 0 }
    }

    /// The size (bytes of packets and parameters) past which the pending calls are handed over
    /// now, for a batch size of `batch`.
    #[inline]
    pub fn limit(&self, batch: usize) -> usize {
        batch >> (Self::STEPS - self.doublings)
    }

    /// The pending calls were handed over: for size (`for_size`), or because the thread
    /// synchronised with the render thread.
    #[inline]
    pub fn handed_over(&mut self, for_size: bool) {
        self.doublings = if for_size { (self.doublings + 1).min(Self::STEPS) } else { 0 };
    }
}

impl Device {
    /// An immediate context on this device: a command list whose queries, creates and specials
    /// see every call it recorded before them (it submits its pending calls first). Use it to
    /// read one's own writes, or to run code written for a single GL context unchanged. Lists
    /// submitted to frame slots (`Frame::submit`) stay deferred: a `Device` query answers from
    /// the submitted stream only.
    pub fn immediate(&self) -> Immediate {
        let mut list = self.command_list();
        list.release_hold();
        list.mark_immediate_recording();
        Immediate {
            device: self.clone(),
            list,
            flush_bytes: self.inner.shared.options.immediate_flush_bytes,
            hand_overs: HandOvers::default(),
            implicit_submits: 0,
            round_trips: 0,
            known: crate::known_errors::KnownErrors::new(),
            errors_known: 0,
        }
    }
}

impl Immediate {
    /// The device this context submits to.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// How many lists this context has submitted (queries, specials, flushes, the size limit;
    /// never an empty one).
    pub fn implicit_submits(&self) -> u64 {
        self.implicit_submits
    }

    /// How many round trips to the render thread this context's queries, creates and specials
    /// made (answers from caches and name pools make none).
    pub fn round_trips(&self) -> u64 {
        self.round_trips
    }

    /// How many `get_error` calls this context answered `GL_NO_ERROR` without a round trip
    /// (`known_errors.rs`).
    pub fn errors_known(&self) -> u64 {
        self.errors_known
    }

    /// For `get_error`: whether `GL_NO_ERROR` is known for every call since the last one.
    pub(crate) fn no_error_known(&mut self) -> bool {
        let known = self.known.no_error_known(&self.device, &self.list);
        self.errors_known += known as u64;
        known
    }

    /// For `get_error`: what a round trip answered (`senders`: the device's sender count
    /// before it); a failed one forgets.
    pub(crate) fn error_answered(&mut self, answer: &Result<u32, Error>, senders: u64) {
        match answer {
            Ok(error) => self.known.answered(&self.device, *error, senders),
            Err(_) => self.known.flag_returned(),
        }
    }

    /// Sets the size (packet and array bytes) past which a recording call submits the pending
    /// list first. `usize::MAX` turns that off; 0 submits at every call.
    pub fn set_flush_bytes(&mut self, bytes: usize) {
        self.flush_bytes = bytes;
    }

    /// Submits the pending calls, if any, as a frame of one list: they replay after every frame
    /// begun before (ordering rule 1). A refused submit (a lost device) keeps them pending.
    pub fn submit_pending(&mut self) -> Result<(), Error> {
        self.hand_over(false)
    }

    /// [`Immediate::submit_pending`], for size (`for_size`) or not ([`HandOvers`]).
    fn hand_over(&mut self, for_size: bool) -> Result<(), Error> {
        self.hand_overs.handed_over(for_size);
        if self.list.is_empty() {
            return Ok(());
        }
        let mut fresh = self.device.command_list();
        fresh.release_hold();
        // Recorded in this context's order, which is the GL's (`recorded_state.rs`).
        fresh.mark_immediate_recording();
        // The GL's pixel-store state carries over, as the tracked one does (`pixels.rs`).
        fresh.carry_pixel_state(&self.list);
        self.known.scan(&self.list);
        let mut list = std::mem::replace(&mut self.list, fresh);
        list.mark_implicit();
        // A frame of one slot, not `Device::submit`: replaying after an open frame is this
        // context's documented order, not a porting mistake worth a report.
        let result = match self.device.begin_frame(1) {
            Ok(frame) => frame.submit(0, list),
            Err(error) => Err(crate::SubmitError::new(error, list)),
        };
        match result {
            Ok(()) => {
                self.implicit_submits += 1;
                self.known.list_replaced();
                Ok(())
            }
            Err(refused) => {
                let (error, list) = refused.into_parts();
                self.list = list;
                Err(error)
            }
        }
    }

    /// Submits the pending calls, then presents ([`Device::present`]): a window device's
    /// frames are the ones its immediate context presents, not each implicit hand-over.
    pub fn present(&mut self) -> Result<(), Error> {
        self.submit_pending()?;
        self.device.present()
    }

    /// Submits the pending calls, then queues a present ([`Device::queue_present`]).
    pub fn queue_present(&mut self) -> Result<(), Error> {
        self.submit_pending()?;
        self.device.queue_present()
    }

    /// Before a query or special: submits the pending calls; returns the thread's round-trip
    /// count, for [`Immediate::count_round_trips`].
    pub(crate) fn before_query(&mut self) -> Result<u64, Error> {
        self.submit_pending()?;
        Ok(Device::thread_round_trips())
    }

    /// Before a create: nothing to submit (a name cannot depend on earlier calls).
    pub(crate) fn before_create(&mut self) -> Result<u64, Error> {
        Ok(Device::thread_round_trips())
    }

    /// Adds the round trips this thread made since `mark`.
    pub(crate) fn count_round_trips(&mut self, mark: u64) {
        self.round_trips += Device::thread_round_trips().wrapping_sub(mark);
    }
}

/// The device's hand-written escape hatches, after this context's pending calls.
impl Immediate {
    /// [`Device::with_gl`] after this context's pending calls: `f` sees their effects (a buffer
    /// they bound is bound, so `glMapBufferRange` maps it).
    pub fn with_gl<R: Send + 'static>(&mut self, f: impl FnOnce(&crate::Gl) -> R + Send + 'static) -> Result<R, Error> {
        let mark = self.before_query()?;
        let answer = self.device.with_gl(f);
        self.count_round_trips(mark);
        answer
    }

    /// [`Device::post`] after this context's pending calls (submitted first); returns at once.
    pub fn post(&mut self, f: impl FnOnce(&crate::Gl) + Send + 'static) -> Result<(), Error> {
        self.submit_pending()?;
        self.device.post(f)
    }

    /// [`Device::audit_binding_shadow`] after this context's pending calls.
    pub fn audit_binding_shadow(&mut self) -> Result<Vec<String>, Error> {
        let mark = self.before_query()?;
        let answer = self.device.audit_binding_shadow();
        self.count_round_trips(mark);
        answer
    }
}

/// Runs a query of an immediate context with the device's recorded state allowed to answer it
/// (`recorded_state.rs`): the generated twins of `get_integerv` and `is_enabled` call this.
pub(crate) fn answering_recorded<R>(f: impl FnOnce() -> R) -> R {
    crate::recorded_state::answering(f)
}

impl Deref for Immediate {
    type Target = CommandList;

    fn deref(&self) -> &CommandList {
        &self.list
    }
}

impl DerefMut for Immediate {
    /// Every recording call passes here: past the size limit the pending list is submitted
    /// first. A refused submit (a lost device) keeps the list; the next query reports it.
    fn deref_mut(&mut self) -> &mut CommandList {
        let (packets, params) = self.list.byte_sizes();
        if packets + params > self.hand_overs.limit(self.flush_bytes) {
            let _ = self.hand_over(true);
        }
        &mut self.list
    }
}

impl Drop for Immediate {
    /// Submits the pending calls: nothing recorded is lost.
    fn drop(&mut self) {
        let _ = self.submit_pending();
    }
}
