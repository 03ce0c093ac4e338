//! `CommandList`: the two buffers a worker thread records into.
//!
//! * `packets`: 8-byte slots. Each packet is a generated `#[repr(C, packed)]` struct that begins
//!   with its `u16` opcode. Packets never hold pointers, so a list is `Send` and could be written
//!   to a file.
//! * `params`: the parameter buffer. Every array argument is copied here at record time (the
//!   seed's dangling `GLenum bufs[]` cannot happen), 8-byte aligned, and the packet keeps its
//!   byte offset.
//!
//! Recording takes `&mut self`: a list belongs to one thread at a time and needs no lock.
//! After replay the render thread clears the buffers and returns the list to the device's pool,
//! so a steady-state frame reuses the capacity and allocates nothing.
//!
//! The recording methods themselves (`bind_texture`, `uniform_matrix4fv`, ...) are generated;
//! see `generated/commands.rs`. This file holds the hand-written primitives they call.

use std::panic::Location;

use crate::packet::{Packet, Plain};

/// A list of recorded GL commands. Create one with `Device::command_list`, record into it on any
/// thread, then submit it to a frame.
pub struct CommandList {
    pub(crate) packets: Vec<u64>,
    pub(crate) params: Vec<u64>,
    pub(crate) commands: u64,
    /// Empty when unlabelled; kept (not dropped) on `clear` so relabelling reuses the capacity.
    pub(crate) label: String,
    /// Recording site of packets (slot index, caller), in slot order, when sites are tracked.
    /// Looked up by slot, so turning tracking on in the middle of a list attributes every later
    /// command correctly.
    pub(crate) sites: Option<Vec<(usize, &'static Location<'static>)>>,
    /// Programs whose link (or binary) this list records, for the program interface cache.
    pub(crate) links: Vec<u32>,
    /// Programs whose delete this list records: lookups of them wait for the delete to run once
    /// the list is submitted (`programs.rs`, *An answer dies with its program*).
    pub(crate) program_deletes: Vec<u32>,
    /// The links and deletes were counted as submitted: from then on the render thread accounts
    /// for them (when they run, or when the list is dropped unreplayed).
    pub(crate) links_submitted: bool,
    /// The frame slot this list was claimed for (`Frame::list`): (device id, frame, slot).
    pub(crate) claim: Option<(u64, u64, u32)>,
    /// The program interface cache of the device this list came from, told of recorded links.
    pub(crate) programs: Option<std::sync::Arc<crate::programs::Programs>>,
    /// The buffer names of the device this list came from (`buffer_names.rs`): whether a
    /// recorded pixel-buffer bind will be accepted.
    pub(crate) buffer_names: Option<std::sync::Arc<crate::buffer_names::BufferNames>>,
    /// What the device this list came from knows without asking (`known_answers.rs`), told of
    /// recorded query touches, sync deletes and query-buffer binds.
    pub(crate) known: Option<std::sync::Arc<crate::known_answers::KnownAnswers>>,
    /// The recorded-state shadow of the device this list came from (`recorded_state.rs`).
    pub(crate) recorded_state: Option<std::sync::Arc<crate::recorded_state::RecordedState>>,
    /// Recorded by a C immediate thread, in the order the GL will see it
    /// ([`CommandList::mark_immediate_recording`]).
    pub(crate) immediate_recording: bool,
    /// The thread that holds this list unsubmitted and unclaimed (set by `Device::command_list`,
    /// cleared by a submit or a claim), shared with the device's registry of open frames, which
    /// keeps a weak reference: a dropped list holds nothing. Kept across the pool, so taking a
    /// list allocates nothing.
    pub(crate) hold: Option<Hold>,
    /// Submitted by an immediate context (Rust or C) on its own: the frame it ends does not
    /// present a window, whose frames are the program's, not each hand-over's.
    pub(crate) implicit: bool,
    /// The pixel-store state and pixel-buffer bindings this list set, which size its pixel
    /// transfers (`pixels.rs`, `pixel_args.rs`). Boxed: a list travels by value through the
    /// render thread's channel, and the box stays with the list across the pool.
    pub(crate) pixels: Box<crate::pixels::PixelState>,
}

/// Which thread holds a list (see [`CommandList::hold`]).
pub(crate) type Hold = std::sync::Arc<std::sync::Mutex<Option<std::thread::ThreadId>>>;

impl Default for CommandList {
    fn default() -> Self {
        Self::new()
    }
}

impl CommandList {
    /// An empty list. Lists from `Device::command_list` come from a pool and are preferred.
    pub fn new() -> Self {
        CommandList {
            packets: Vec::new(),
            params: Vec::new(),
            commands: 0,
            label: String::new(),
            sites: None,
            links: Vec::new(),
            program_deletes: Vec::new(),
            links_submitted: false,
            claim: None,
            programs: None,
            buffer_names: None,
            known: None,
            recorded_state: None,
            immediate_recording: false,
            hold: None,
            implicit: false,
            pixels: Box::new(crate::pixels::PixelState::new()),
        }
    }

    /// Marks the list as an immediate context's implicit hand-over: the frame it ends does not
    /// present a window device (the C ABI's immediate threads use this; the Rust immediate
    /// context does it itself).
    #[doc(hidden)]
    pub fn mark_implicit(&mut self) {
        self.implicit = true;
    }

    /// Marks the list as a C immediate thread's implicit list from its first call: its setters
    /// reach the GL in the order they are recorded, so the device's recorded-state shadow may
    /// follow them (`recorded_state.rs`). Setters in any other list turn the shadow off.
    #[doc(hidden)]
    pub fn mark_immediate_recording(&mut self) {
        self.immediate_recording = true;
    }

    /// Marks the list as held by no thread (submitted, claimed, or an immediate context's).
    pub(crate) fn release_hold(&mut self) {
        if let Some(hold) = &self.hold {
            *hold.lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
    }

    /// Names the list. The label appears in dumps, diagnostics, and as a
    /// `glPushDebugGroup`/`glPopDebugGroup` pair around the list at replay.
    pub fn set_label(&mut self, label: &str) {
        self.label.clear();
        self.label.push_str(label);
    }

    pub fn label(&self) -> Option<&str> {
        (!self.label.is_empty()).then_some(self.label.as_str())
    }

    /// Number of recorded commands.
    pub fn len(&self) -> usize {
        self.commands as usize
    }

    pub fn is_empty(&self) -> bool {
        self.commands == 0
    }

    /// Bytes of packets and of array parameters.
    pub fn byte_sizes(&self) -> (usize, usize) {
        (self.packets.len() * 8, self.params.len() * 8)
    }

    /// Records the source location of every later command (for diagnostics). Turning it off
    /// forgets the sites recorded so far; turning it on when it is on changes nothing.
    pub fn track_sites(&mut self, on: bool) {
        match (on, self.sites.is_some()) {
            (true, false) => self.sites = Some(Vec::new()),
            (false, true) => self.sites = None,
            _ => {}
        }
    }

    /// Where the packet at `slot` was recorded, if sites were tracked then. A binary search: for
    /// reports and other cold paths; replay walks the sites with a [`SiteCursor`].
    pub(crate) fn site_of_slot(&self, slot: usize) -> Option<&'static Location<'static>> {
        let sites = self.sites.as_deref()?;
        sites.binary_search_by_key(&slot, |&(s, _)| s).ok().map(|i| sites[i].1)
    }

    /// A cursor over the recording sites, for a pass that visits slots in increasing order.
    pub(crate) fn site_cursor(&self) -> SiteCursor<'_> {
        SiteCursor { sites: self.sites.as_deref().unwrap_or(&[]), next: 0 }
    }

    /// Calls `each(index, slot, opcode)` for the packets up to and including the one at `slot`
    /// (for readers of the breadcrumbs: a cold path).
    pub(crate) fn walk_until(&self, slot: usize, mut each: impl FnMut(usize, usize, usize)) {
        let (mut at, mut index) = (0, 0);
        while at <= slot && at < self.packets.len() {
            let op = (self.packets[at] & 0xFFFF) as usize;
            each(index, at, op);
            at += crate::generated::SLOTS[op] as usize;
            index += 1;
        }
    }

    /// The index (0-based command number) of the packet at `slot`.
    pub(crate) fn index_of_slot(&self, slot: usize) -> Option<usize> {
        let mut found = None;
        self.walk(|index, at, _| {
            if at == slot {
                found = Some(index);
            }
        });
        found
    }

    /// Empties the list, keeping its capacity.
    pub fn clear_commands(&mut self) {
        self.packets.clear();
        self.params.clear();
        self.commands = 0;
        self.label.clear();
        if let Some(s) = &mut self.sites {
            s.clear();
        }
        self.forget_links();
        self.claim = None;
        self.implicit = false;
        self.immediate_recording = false;
        *self.pixels = crate::pixels::PixelState::new();
    }

    /// A recorded link of `program` (generated `link_program` and `program_binary` call this):
    /// lookups of the program's interface fail at once until the list is submitted.
    pub(crate) fn note_link(&mut self, program: u32) {
        self.links.push(program);
        if let Some(p) = &self.programs {
            p.recorded(program);
        }
    }

    /// Whether the list records a delete of a program: a lookup that must see the list's calls
    /// (an immediate thread's) submits it first, then waits for the delete to run.
    #[inline]
    pub fn deletes_programs(&self) -> bool {
        !self.program_deletes.is_empty()
    }

    /// A recorded delete of `program` (the generated `delete_program` calls this): once the list
    /// is submitted, lookups of the program wait for the delete to run.
    pub(crate) fn note_program_delete(&mut self, program: u32) {
        if program != 0 {
            self.program_deletes.push(program);
        }
    }

    /// Links recorded and never submitted are no longer pending.
    fn forget_links(&mut self) {
        if !self.links.is_empty() && !self.links_submitted {
            if let Some(p) = &self.programs {
                p.unrecorded(&self.links);
            }
        }
        self.links.clear();
        self.program_deletes.clear();
        self.links_submitted = false;
    }

    /// Appends one packet.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn push_packet<P: Packet>(&mut self, packet: P) {
        let at = self.packets.len();
        if let Some(sites) = &mut self.sites {
            sites.push((at, Location::caller()));
        }
        self.packets.reserve(P::SLOTS);
        // SAFETY: `reserve` made room for SLOTS more slots. The last slot is zeroed first so
        // the bytes past the packet are initialised; then the packet (align 1, size at most
        // SLOTS * 8) is written at the start of the new slots.
        unsafe {
            let dst = self.packets.as_mut_ptr().add(at);
            dst.add(P::SLOTS - 1).write(0);
            dst.cast::<P>().write_unaligned(packet);
            self.packets.set_len(at + P::SLOTS);
        }
        self.commands += 1;
    }

    /// Copies an array into the parameter buffer and returns its byte offset.
    #[inline(always)]
    #[track_caller]
    pub(crate) fn push_slice<T: Plain>(&mut self, data: &[T]) -> u32 {
        // SAFETY: `T: Plain` has no padding, so its bytes are initialised.
        let bytes = unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<u8>(), std::mem::size_of_val(data)) };
        self.push_bytes(bytes, 0)
    }

    /// Stores a `glcmd::Bytes` argument: the bytes of a slice, an offset into the bound buffer
    /// (only where a buffer binding redirects the pointer: `offsets`), or a null pointer (only
    /// where the GL accepts one: `none`). Returns the packet fields (offset, length or marker).
    #[track_caller]
    pub(crate) fn push_bytes_arg(
        &mut self,
        bytes: crate::Bytes<'_>,
        function: &str,
        argument: &str,
        offsets: bool,
        none: bool,
    ) -> (u64, u32) {
        match bytes {
            crate::Bytes::Slice(s) => {
                let len = crate::arguments::count_i32(s.len(), function, argument) as u32;
                (self.push_slice(s) as u64, len)
            }
            crate::Bytes::BufferOffset(o) if offsets => (o as u64, crate::vocab::params::BYTES_OFFSET),
            crate::Bytes::BufferOffset(_) => panic!(
                "{function}: `{argument}` is always read from client memory; a buffer offset is not accepted (pass \
                 Bytes::Slice)"
            ),
            crate::Bytes::None if none => (0, crate::vocab::params::BYTES_NULL),
            crate::Bytes::None => panic!(
                "{function}: `{argument}` cannot be Bytes::None; the GL reads this data (pass Bytes::Slice, or \
                 Bytes::BufferOffset with a pixel-unpack buffer bound)"
            ),
        }
    }

    /// Copies an array and pads it with zeros to at least `min_len` elements, for arrays whose
    /// length the GL derives from an enum that glcmd's tables do not know.
    #[track_caller]
    pub(crate) fn push_slice_padded<T: Plain>(&mut self, data: &[T], min_len: usize) -> u32 {
        let offset = self.push_slice(data);
        let pad = min_len.saturating_sub(data.len()) * std::mem::size_of::<T>();
        if pad > 0 {
            // The zeros follow the data: extend the buffer without realigning.
            let used = offset as usize + std::mem::size_of_val(data);
            let need = (used + pad).div_ceil(8);
            self.params.resize(need.max(self.params.len()), 0);
        }
        offset
    }

    /// Copies a string with a terminating NUL and returns its byte offset. A string that the GL
    /// reads up to its NUL (`nul_terminated`) must not contain one.
    #[inline]
    #[track_caller]
    pub(crate) fn push_str(&mut self, function: &str, argument: &str, s: &str, nul_terminated: bool) -> u32 {
        if nul_terminated && s.as_bytes().contains(&0) {
            panic!("{function}: `{argument}` contains a NUL byte; the GL would stop reading there");
        }
        self.push_bytes(s.as_bytes(), 1)
    }

    /// Copies strings for a `const GLchar *const*` argument. Layout at the returned offset:
    /// `n` u32 offsets of the strings, then `n` i32 lengths, then the NUL-terminated bytes.
    /// Returns (offset of the offset table, offset of the length table).
    #[track_caller]
    pub(crate) fn push_strs(&mut self, function: &str, argument: &str, strs: &[&str]) -> (u32, u32) {
        let n = strs.len();
        let table = self.push_bytes(&vec_zero(n * 8), 0);
        let mut offsets = Vec::with_capacity(n);
        for s in strs {
            let len = crate::arguments::count_i32(s.len(), function, argument);
            offsets.push((self.push_bytes(s.as_bytes(), 1), len));
        }
        // SAFETY: the table was reserved above with 8 bytes per string; the buffer is u64-backed.
        let base = self.params.as_mut_ptr().cast::<u8>();
        for (i, (off, len)) in offsets.into_iter().enumerate() {
            unsafe {
                base.add(table as usize + i * 4).cast::<u32>().write_unaligned(off);
                base.add(table as usize + n * 4 + i * 4).cast::<i32>().write_unaligned(len);
            }
        }
        (table, table + (n * 4) as u32)
    }

    #[inline(always)]
    #[track_caller]
    fn push_bytes(&mut self, bytes: &[u8], extra_zeros: usize) -> u32 {
        let at = self.params.len();
        let total = bytes.len() + extra_zeros;
        // An empty array still gets one zeroed slot: the driver receives a pointer to 8 readable
        // bytes of this list, never a dangling one. Mesa 22's glUniformSubroutinesuiv reads the
        // first index even for a count of 0 (a do-while loop); an empty `Vec`'s pointer or the
        // end of the buffer crashed it on the render thread.
        let slots = total.div_ceil(8).max(1);
        let offset = at * 8;
        if offset + total > u32::MAX as usize {
            panic!("a command list's parameter buffer is limited to 4 GiB; split the uploads over several lists");
        }
        self.params.reserve(slots);
        // SAFETY: room for `slots` slots was reserved. The last one is zeroed (padding and the
        // NUL of strings), then the bytes are copied in front of it; all new slots are then
        // initialised.
        unsafe {
            let dst = self.params.as_mut_ptr().add(at);
            if slots > 0 {
                dst.add(slots - 1).write(0);
            }
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst.cast::<u8>(), bytes.len());
            self.params.set_len(at + slots);
        }
        offset as u32
    }
}

/// The recording sites of a list, visited in slot order: replay asks for the site of each
/// packet in turn, so the lookup is a compare and at most one step forward per command (a
/// binary search per command cost more than the command itself on llvmpipe, issue 20).
/// Sites are recorded in slot order, but possibly not for every packet (tracking turned on in
/// the middle of a list), so the cursor skips entries behind the asked slot and answers `None`
/// for a packet without one.
pub(crate) struct SiteCursor<'a> {
    sites: &'a [(usize, &'static Location<'static>)],
    next: usize,
}

impl SiteCursor<'_> {
    /// The site of the packet at `slot`; `slot` must not be below the previous call's.
    #[inline(always)]
    pub(crate) fn at(&mut self, slot: usize) -> Option<&'static Location<'static>> {
        while let Some(&(s, site)) = self.sites.get(self.next) {
            if s > slot {
                return None;
            }
            self.next += 1;
            if s == slot {
                return Some(site);
            }
        }
        None
    }
}

fn vec_zero(n: usize) -> Vec<u8> {
    vec![0; n]
}

impl Drop for CommandList {
    fn drop(&mut self) {
        self.forget_links();
    }
}

impl std::fmt::Debug for CommandList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandList")
            .field("label", &self.label)
            .field("commands", &self.commands)
            .field("packet_bytes", &(self.packets.len() * 8))
            .field("param_bytes", &(self.params.len() * 8))
            .finish()
    }
}
