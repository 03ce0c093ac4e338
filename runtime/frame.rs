//! Frames, slots, and the ordering rules of glcmd (the one place they are stated).
//!
//! ## The ordering rules
//!
//! 1. **Frames replay in the order they were begun** ([`Device::begin_frame`]), whatever order
//!    their lists arrive in. [`Device::submit`] begins a frame of one slot and submits to it.
//! 2. **Within a frame, slot `i + 1` replays after slot `i`.** A slot's list starts as soon as
//!    every lower slot has run, so the result never depends on which worker finished first.
//! 3. **GL state carries over** from one list to the next in that order: whatever a list leaves
//!    bound or enabled is what the next one starts with (`CommandList::reset_state` records a
//!    reset to known state).
//! 4. **A frame ends** when each of its slots has either replayed or been given up: a slot is
//!    given up when the `Frame` is dropped without it (a warning report), or when the frame has
//!    held later work back for longer than [`Options::wait_limit`](crate::Options) (a leaked
//!    `Frame`, a stuck worker: an `AbandonedFrame` report names the slots; a late submission to
//!    such a frame fails with [`Error::FrameEnded`]). At its end the frame's deferred deletes
//!    run, its lists return to the pool, and a window context presents.
//! 5. **Creates run at once.** Names come from pools the render thread refills ahead of demand,
//!    or, when a pool is empty, from a create that the render thread runs before anything that
//!    waits; new names cannot affect lists recorded before them.
//! 6. **A query runs after every list submitted before it** (its *barrier*: the latest list the
//!    render thread has received when the query arrives, with every lower slot of every earlier
//!    frame) and before any list submitted after it. Answers the render thread already knows are
//!    given without joining the stream: implementation limits (read once at start-up), and
//!    program interface lookups (`get_uniform_location`, ...), which wait only for the latest
//!    submitted link of that program.
//! 7. **Nothing waits for ever.** A wait that only the caller could end fails at once with
//!    [`Error::WouldDeadlock`], naming the frame and slot: a query whose barrier lies behind a
//!    slot the calling thread owes (see *Who owes a slot* below) and has not submitted;
//!    `wait_frames` on such a frame; any wait on the render thread itself
//!    ([`Error::OnRenderThread`]). A wait that depends on another thread is reported by the
//!    watchdog and, past `wait_limit`, fails with [`Error::Blocked`] (round trips,
//!    `wait_frames`) or gives the stalled frame up (rule 4).
//! 8. **`Device::submit` while an earlier frame is open** replays after that frame (rule 1), as
//!    it must for the order to be deterministic; since an engine port usually means "before",
//!    glcmd says so once per open frame with a `Submission` report. To run a list first, give it
//!    slot 0 of the frame; to say that "after" is intended, begin a frame of one slot.
//! 9. **Immediate contexts** ([`Device::immediate`]) submit their pending calls as a frame of
//!    one list of their own, at each query, special, flush, finish, drop and size limit (not at
//!    creates). So an immediate context's calls replay in its own order; after every frame
//!    begun before they were submitted (rule 1: an immediate query behind a frame whose slots
//!    other threads fill waits for those slots); before every frame begun after. Between two
//!    immediate contexts on different threads the order is that of their submits, which the
//!    threads decide, as two GL contexts sharing objects would; each context's query sees its
//!    own calls and everything submitted before them, not the other context's unsubmitted ones.
//!
//! ## Who owes a slot
//!
//! Rule 7 needs to know which thread owes an unsubmitted slot. glcmd knows it in every style:
//!
//! * [`Frame::list`] (C: `glcmdListBeginSlot`) hands out a pooled list *claimed* for a slot by
//!   the calling thread: that thread owes the slot until it submits;
//! * an unclaimed slot of a frame that no other thread has touched is owed by the thread that
//!   began the frame (it holds the `Frame`: the frame can only end when it is dropped). Once
//!   another thread claims or submits a slot of it (an `Arc<Frame>`, scoped threads), the frame
//!   has been handed out and its beginning thread owes nothing by beginning it;
//! * otherwise an unclaimed slot may be owed by any thread that holds an unsubmitted, unclaimed
//!   list ([`Device::command_list`], C's `glcmdListBegin`): glcmd cannot tell which slot that list
//!   will go to, and if it is this one, waiting would last until `wait_limit`. Such a thread's
//!   query fails at once too. A worker that asks queries while it holds a list for another
//!   thread's frame should claim its slot when it makes the list (`Frame::list`), so that other
//!   threads' slots are waited for. An immediate context's list is never claimed nor held: its
//!   queries wait for other threads' slots.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::device::{Device, Msg};
use crate::list::CommandList;
use crate::vocab::{Report, ReportKind};
use crate::Error;

/// The most slots one frame may have. Per-frame bookkeeping is proportional to it.
pub const MAX_SLOTS: usize = 1 << 16;

/// One frame's submission handle. `Send + Sync`: share it by reference with scoped worker
/// threads. Dropping it closes the frame; slots never submitted stay empty (and are reported).
///
/// Until another thread claims or submits one of its slots, the thread that begins a frame is
/// taken to hold it: a query from that thread that would wait for one of its unsubmitted,
/// unclaimed slots fails at once (the frame can only end when it is dropped). See *Who owes a
/// slot* in `frame.rs`.
pub struct Frame {
    pub(crate) device: Device,
    pub(crate) frame: u64,
    pub(crate) slots: usize,
    pub(crate) submitted: SlotBits,
}

/// A submit that was refused, with the list it was given: nothing recorded is lost. Take the
/// list back with [`SubmitError::into_list`] (and submit it elsewhere, or drop it); `?` converts
/// the error into [`Error`] (dropping the list) where the caller has no use for it.
#[derive(Debug)]
pub struct SubmitError {
    /// Why the submit was refused.
    pub error: Error,
    list: Box<CommandList>,
}

impl SubmitError {
    pub(crate) fn new(error: Error, list: CommandList) -> SubmitError {
        SubmitError { error, list: Box::new(list) }
    }

    /// The list, as it was handed to the submit: the same commands, deletes and label.
    pub fn list(&self) -> &CommandList {
        &self.list
    }

    /// The list back, to submit again or drop.
    pub fn into_list(self) -> CommandList {
        *self.list
    }

    /// The error and the list.
    pub fn into_parts(self) -> (Error, CommandList) {
        (self.error, *self.list)
    }
}

impl std::fmt::Display for SubmitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (the list was not submitted; SubmitError::into_list gives it back)", self.error)
    }
}

/// No source: the refusal's error is part of the message.
impl std::error::Error for SubmitError {}

/// The program interface cache's side of a submit (`programs.rs`).
impl Device {
    /// Begins a frame of `slots` lists (at most [`MAX_SLOTS`]). Submit one list per slot (an
    /// empty list is fine); the render thread replays them in slot order. Frames replay in the
    /// order they were begun; see the ordering rules in `frame.rs`.
    pub fn begin_frame(&self, slots: usize) -> Result<Frame, Error> {
        // Checked before a frame number is taken: a refused frame must not leave a gap that
        // every later frame would wait for.
        if slots > MAX_SLOTS {
            return Err(Error::TooManySlots { slots, max: MAX_SLOTS });
        }
        let common = &self.inner.shared;
        let frame = {
            // Numbered and registered together, so the render thread never sees a frame begun
            // that `open` does not know.
            let mut open = common.open.lock().unwrap_or_else(|e| e.into_inner());
            let frame = common.next_frame.fetch_add(1, Ordering::Relaxed);
            open.begin(frame);
            frame
        };
        let f = Frame { device: self.clone(), frame, slots, submitted: SlotBits::new(slots) };
        self.send(Msg::Begin { frame, slots: slots as u32 })?;
        Ok(f)
    }

    /// Submits one list as a frame of its own. While an earlier frame is still open, the list
    /// replays after it (rule 8 of the ordering rules, `frame.rs`), and a `Submission` report
    /// says so once per open frame.
    ///
    /// A refused submit (a lost device) gives the list back in the [`SubmitError`], as
    /// [`Frame::submit`] does.
    pub fn submit(&self, mut list: CommandList) -> Result<(), SubmitError> {
        let common = &self.inner.shared;
        if list.claim.is_some() {
            // Claimed for a slot of another frame: `Frame::submit` refuses it.
            self.warn_open_frame(common.open.lock().unwrap_or_else(|e| e.into_inner()).oldest());
            let frame = match self.begin_frame(1) {
                Ok(frame) => frame,
                Err(error) => return Err(SubmitError::new(error, list)),
            };
            return frame.submit(0, list);
        }
        // A frame of one slot begun, submitted and closed at once: one lock and one message
        // ([`Msg::Whole`]) where `begin_frame(1)`, its `submit` and its drop take three of each.
        // The open-frame registry would end as it was, so it is only held while the frame is
        // numbered, as `begin_frame` numbers frames.
        let (oldest_open, frame) = {
            let open = common.open.lock().unwrap_or_else(|e| e.into_inner());
            (open.oldest(), common.next_frame.fetch_add(1, Ordering::Relaxed))
        };
        self.warn_open_frame(oldest_open);
        list.release_hold();
        self.links_submitted(&mut list);
        send_list(self, frame, None, list)
    }

    /// While an earlier frame is open (`oldest_open`), says once per open frame that
    /// `Device::submit` replays after it (rule 8).
    fn warn_open_frame(&self, oldest_open: Option<u64>) {
        let common = &self.inner.shared;
        if let Some(open) = oldest_open {
            if common.warned.fetch_max(open + 1, Ordering::Relaxed) < open + 1 {
                common.sink.send(Report::lifecycle(
                    ReportKind::Submission,
                    format!(
                        "Device::submit while frame {open} is open: the list replays after frame {open} ends (frames \
                         replay in the order they were begun). To run it before that frame's lists, submit it to \
                         slot 0 of the frame; to say that after is intended, use begin_frame(1)"
                    ),
                ));
            }
        }
    }

    /// Counts the links a list records as submitted, and the program deletes of an implicit
    /// list (an immediate context's, whose deletes run in place), before the list is sent, so a
    /// lookup made after the submit waits for them.
    pub(crate) fn links_submitted(&self, list: &mut CommandList) {
        if !list.implicit {
            // Its deletes wait for the frame's end: until then the program is alive in the
            // stream, and a lookup after the list answers for it, as the GL would there.
            list.program_deletes.clear();
        }
        if list.links.is_empty() && list.program_deletes.is_empty() {
            return;
        }
        let ours = &self.inner.shared.programs;
        let own = list.programs.as_ref().is_some_and(|p| std::sync::Arc::ptr_eq(p, ours));
        ours.submitted(&list.links, own);
        ours.deletes_submitted(&list.program_deletes);
        if !own {
            if let Some(p) = &list.programs {
                p.unrecorded(&list.links);
            }
        }
        list.links_submitted = true;
    }

    /// Undoes [`Device::links_submitted`] for a list that was not sent after all: its links are
    /// recorded, not submitted, again, and its deletes no longer pending (a submit that did not
    /// happen must not leave lookups waiting for a link or a delete that will never run).
    pub(crate) fn links_unsubmitted(&self, list: &mut CommandList) {
        if !list.links_submitted {
            return;
        }
        self.inner.shared.programs.skipped(&list.links);
        self.inner.shared.programs.deletes_dropped(&list.program_deletes);
        if let Some(p) = &list.programs {
            for &program in &list.links {
                p.recorded(program);
            }
        }
        list.links_submitted = false;
    }
}

/// Sends a submitted list to the render thread, for `slot` of `frame` (`None`: the whole frame,
/// [`Msg::Whole`]); a list the channel refuses (the render thread is gone) comes back, its links
/// counted as recorded again, as before the submit.
fn send_list(device: &Device, frame: u64, slot: Option<u32>, list: CommandList) -> Result<(), SubmitError> {
    let known = &device.inner.shared.known;
    if !list.known.as_ref().is_some_and(|k| std::sync::Arc::ptr_eq(k, known)) {
        // Touches and setters nobody counted (`known_answers.rs`, `recorded_state.rs`).
        known.foreign_list();
        device.inner.shared.recorded.off();
    }
    let msg = match slot {
        Some(slot) => Msg::List { frame, slot, list },
        None => Msg::Whole { frame, list },
    };
    device.inner.shared.senders.note();
    let back = if device.is_render_thread() {
        crate::render::send_local(msg).err()
    } else {
        device.inner.tx.send(msg).err().map(|e| e.0)
    };
    match back {
        None => Ok(()),
        Some(Msg::List { mut list, .. } | Msg::Whole { mut list, .. }) => {
            device.links_unsubmitted(&mut list);
            Err(SubmitError::new(device.lost(), list))
        }
        Some(_) => unreachable!("the message sent was a list"),
    }
}

impl From<SubmitError> for Error {
    fn from(e: SubmitError) -> Error {
        e.error
    }
}

/// Which slots were submitted (or claimed): one bit per slot. Inline for up to 256 slots, so a
/// typical frame allocates nothing.
pub(crate) enum SlotBits {
    Inline([AtomicU64; 4]),
    Heap(Box<[AtomicU64]>),
}

impl SlotBits {
    pub(crate) fn new(slots: usize) -> SlotBits {
        if slots <= 256 {
            SlotBits::Inline(Default::default())
        } else {
            SlotBits::Heap((0..slots.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
        }
    }

    fn words(&self) -> &[AtomicU64] {
        match self {
            SlotBits::Inline(w) => w,
            SlotBits::Heap(w) => w,
        }
    }

    /// Sets the bit of `slot`; false if it was set already.
    fn take(&self, slot: usize) -> bool {
        let bit = 1u64 << (slot % 64);
        self.words()[slot / 64].fetch_or(bit, Ordering::AcqRel) & bit == 0
    }
}

impl Frame {
    /// Submits the list of `slot`. A list claimed with [`Frame::list`] must go to its own slot.
    ///
    /// A refused submit gives the list back, unchanged, in the [`SubmitError`]: a slot out of
    /// range, taken or claimed by another list, a frame that has ended, a lost device. Nothing
    /// recorded in it is lost (its deletes run when it is submitted again); `?` turns the error
    /// into [`Error`] where the list is not wanted.
    pub fn submit(&self, slot: usize, mut list: CommandList) -> Result<(), SubmitError> {
        if slot >= self.slots {
            return Err(SubmitError::new(Error::SlotOutOfRange { slot, slots: self.slots }, list));
        }
        let common = &self.device.inner.shared;
        match list.claim {
            Some((device, frame, claimed))
                if device == common.id && frame == self.frame && claimed as usize == slot => {}
            Some((_, frame, claimed)) => {
                let error = Error::ClaimMismatch { frame, claimed, target_frame: self.frame, slot };
                return Err(SubmitError::new(error, list));
            }
            None => {
                if !self.submitted.take(slot) {
                    return Err(SubmitError::new(Error::SlotTaken { slot }, list));
                }
            }
        }
        {
            // Under the lock the render thread gives frames up with (rule 4): either the frame
            // was given up before, and the list comes back, or the slot is marked on its way,
            // and the render thread waits for it instead of giving the frame up.
            let mut open = common.open.lock().unwrap_or_else(|e| e.into_inner());
            if self.frame < common.ended.load(Ordering::Acquire) || !open.is_open(self.frame) {
                drop(open);
                // The claim was for a slot that no longer exists: the list is free again.
                list.claim = None;
                return Err(SubmitError::new(Error::FrameEnded { frame: self.frame, slot }, list));
            }
            open.submitted(self.frame, slot as u32);
        }
        list.release_hold();
        self.device.links_submitted(&mut list);
        send_list(&self.device, self.frame, Some(slot as u32), list)
    }

    /// A list from the pool, claimed for `slot` by the calling thread: record into it and
    /// submit it to that slot. While it is unsubmitted, a query from this thread that would
    /// wait for this slot fails at once with [`Error::WouldDeadlock`] instead of waiting, and a
    /// query that waits for another thread's slot waits for it (a list from
    /// `Device::command_list` makes such a query fail at once: glcmd cannot tell which slot it
    /// is for).
    pub fn list(&self, slot: usize) -> Result<CommandList, Error> {
        if slot >= self.slots {
            return Err(Error::SlotOutOfRange { slot, slots: self.slots });
        }
        if !self.submitted.take(slot) {
            return Err(Error::SlotClaimed { slot });
        }
        let common = &self.device.inner.shared;
        common.open.lock().unwrap_or_else(|e| e.into_inner()).claim(self.frame, slot as u32);
        let mut list = self.device.command_list();
        list.release_hold();
        list.claim = Some((common.id, self.frame, slot as u32));
        Ok(list)
    }

    /// The number of slots.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// The frame's number (frames are numbered from 0 in the order they were begun).
    pub fn number(&self) -> u64 {
        self.frame
    }

    /// The device this frame belongs to.
    pub fn device(&self) -> &Device {
        &self.device
    }
}

impl Drop for Frame {
    fn drop(&mut self) {
        self.device.inner.shared.open.lock().unwrap_or_else(|e| e.into_inner()).close(self.frame);
        let _ = self.device.send(Msg::Close { frame: self.frame });
    }
}
