//! The replay loop: one pass over a list's packets, dispatching each by its opcode.
//!
//! Every packet starts with a `u16` opcode. The plain loop hands it to the generated
//! `dispatch`, a `match` over every opcode that the compiler turns into one jump table with the
//! execute functions inlined into its arms: one indexed load and one indirect jump per command,
//! a jump table (measured at about 1 ns over a direct call, against about
//! 2.5 ns for an indirect call through a table of function pointers). The loop allocates nothing,
//! takes no lock and branches on nothing else. The tables `EXECUTE` (execute function per
//! opcode) and `SLOTS` (size per opcode) serve the diagnostic loop and deferred deletes.
//!
//! Execute functions of the few commands whose pointer arguments could be offsets (draws,
//! attribute pointers, pixel transfers) or that change buffer bindings check and update the
//! binding shadow (`shadow.rs`) through [`Replayer`]; a command that fails a check is not
//! passed to the GL ([`Replayer::refuse`]) and is reported.
//!
//! Deletes are the exception the design asks for: their execute functions do not call the GL at
//! once but note the packet in `ReplayState::deferred`. When every list of the frame has run,
//! `run_deferred` executes them in recording order, so a name is never deleted while a list of
//! the same frame may still use it (GL reuses names: a delete that ran early would let a create
//! hand the name out again while an earlier-recorded list still means the old object). Only the
//! release waits: a deferred delete makes its unbinds on the context at its place
//! (`delete_effects.rs`), so the program's later binds are not undone at the frame's end.
//!
//! **An immediate context's deletes run in place** (issue 34, item 5). Deferral exists for the
//! other lists of the frame; an implicit list (`CommandList::mark_implicit`, the hand-over of an
//! immediate context, Rust or C, and so every call of a program under glcmd-run) is a frame of
//! one list, so there is no other list of its frame a late delete could protect. A name can come
//! back from the GL only through a create, and creates run on the render thread between lists
//! (a pool refill, a create's round trip), never inside one: no create can hand the name out
//! while the list still replays. Deferring would only move the delete's effects on the context
//! past the program's later calls: `glDeleteBuffers(1, &a)` then `glBindBufferBase(
//! GL_ATOMIC_COUNTER_BUFFER, 0, b)` left the late delete to clear the generic binding again (Mesa
//! unbinds `a` from each indexed binding with `glBindBufferBase(..., 0)`, which also sets the
//! generic one), and the next `glBufferData` failed. So the GL delete runs where the program made
//! it, with every effect the GL gives it there; the frame's end only tells diagnostics.

use std::collections::HashMap;

use crate::vocab::hash::FastHash;
use std::ffi::c_char;

pub use crate::float_params::{FloatParameter, ParamOf};
use crate::generated::{enums as gl, types::*, Gl, EXECUTE, SLOTS};
use crate::list::CommandList;
use crate::shadow::{Refusal, Shadow, Target};
use crate::vocab::check::record_error;
use crate::vocab::{Report, ReportKind, Sink};

/// The signature of every generated execute function.
///
/// # Safety
/// `packet` points at a packet whose opcode selects this function, inside the list being
/// replayed (whose parameter buffer is the replayer's).
pub type ExecuteFn = unsafe fn(&mut Replayer<'_>, *const u64);

pub use crate::vocab::params::{BYTES_NULL, BYTES_OFFSET};

/// What an upload from the pixel-unpack buffer reads (see [`Replayer::unpack_fits`]).
#[derive(Clone, Copy, Debug)]
pub enum UnpackExtent {
    /// An image, sized under the GL's unpack state.
    Image(crate::pixels::Image),
    /// A byte count (compressed data: `imageSize`).
    Bytes(i64),
}

/// State the render thread keeps across lists and frames.
pub struct ReplayState {
    /// glcmd sync handle -> GL sync object, filled in when a recorded fence runs.
    pub(crate) syncs: HashMap<u32, GLsync, FastHash>,
    /// Deletes noted during the frame: (list index in the frame, slot of the packet, whether it
    /// ran in place already: an implicit list's, see the module doc).
    pub(crate) deferred: Vec<(u32, usize, bool)>,
    /// Reused for `const GLchar *const*` arguments.
    scratch: Vec<*const c_char>,
    scratch_region: Option<crate::arguments::Region>,
    /// Set while deferred deletes run, so their execute functions call the GL.
    pub(crate) running_deferred: bool,
    /// Commands executed since the device started.
    pub(crate) executed: u64,
    /// Commands not passed to the GL because an argument was unsafe.
    pub(crate) refused: u64,
    /// Binding and uniform calls skipped as repeats (`repeats.rs`), for `Stats::repeats_skipped`.
    pub(crate) repeats_skipped: u64,
    /// The binding calls known at the end of the last list replayed, kept for the next list
    /// only while nothing but a pure query has run on the context since (`repeats.rs`, *Across
    /// lists*); `None`: the next list starts with nothing known.
    pub(crate) carried: Option<crate::repeats::Repeats>,
    /// `Options::skip_repeats`: when false, every repeat check answers "run it".
    pub(crate) skip_repeats: bool,
    /// The binding shadow.
    pub(crate) shadow: Shadow,
    /// GL errors glcmd raised itself (for skipped commands), returned by `Device::get_error`
    /// before the GL's own.
    pub(crate) raised: Vec<GLenum>,
    pub(crate) sink: Sink,
    /// The program interface cache, told of links and program deletes as they run.
    pub(crate) programs: std::sync::Arc<crate::programs::Programs>,
    /// The device's known answers, told of query ends and touches and of fences as they run
    /// (`known_answers.rs`, `known_replay.rs`); `None` outside a device.
    pub(crate) known: Option<crate::known_answers::KnownAtReplay>,
}

// SAFETY: the raw pointers are GL sync handles and scratch pointers into lists; they are only
// dereferenced by the GL on the render thread, and ReplayState lives on that thread.
unsafe impl Send for ReplayState {}

impl ReplayState {
    pub(crate) fn new(gl_fns: &Gl, sink: Sink, programs: std::sync::Arc<crate::programs::Programs>) -> ReplayState {
        ReplayState {
            syncs: HashMap::default(),
            deferred: Vec::new(),
            scratch: Vec::new(),
            scratch_region: None,
            running_deferred: false,
            executed: 0,
            refused: 0,
            repeats_skipped: 0,
            carried: None,
            skip_repeats: true,
            shadow: Shadow::new(gl_fns),
            raised: Vec::new(),
            sink,
            programs,
            known: None,
        }
    }

    /// Raises a GL error the way the GL would ([`record_error`]).
    pub(crate) fn raise(&mut self, error: GLenum) {
        record_error(self.raised(), error);
    }

    /// glcmd's error flags, with what a stub of an unavailable function raised taken in first
    /// (`loader::raise_in_stub`): everything that raises or reads them goes through here, so
    /// the first error raised stays the one returned.
    pub(crate) fn raised(&mut self) -> &mut Vec<GLenum> {
        let stub = crate::loader::take_stub_error();
        if stub != crate::generated::enums::NO_ERROR {
            record_error(&mut self.raised, stub);
        }
        &mut self.raised
    }

    /// Moves the GL's pending error flags to glcmd's (`raised`), in their order: they are the
    /// program's, and what glcmd asks or raises next comes after them.
    pub(crate) fn keep_pending_errors(&mut self, raw: &Gl) {
        self.raised();
        // At most a few flags (a lost context keeps answering GL_CONTEXT_LOST).
        for _ in 0..8 {
            // SAFETY: no arguments.
            let e = unsafe { (raw.GetError)() };
            if e == crate::generated::enums::NO_ERROR {
                break;
            }
            self.raise(e);
        }
    }
}

/// What an execute function sees: the GL, the current list, and the replay state.
pub struct Replayer<'a> {
    /// The table commands go through (the checking table, with `Options::checked_gl`).
    pub gl: &'a Gl,
    /// The driver's own table, for glcmd's internal calls (binding-shadow read-backs).
    pub raw: &'a Gl,
    params: *const u8,
    state: &'a mut ReplayState,
    list: &'a CommandList,
    list_index: u32,
    base: *const u64,
    /// The binding calls this list executed last (`repeats.rs`): a repeat is skipped.
    pub(crate) repeats: crate::repeats::Repeats,
}

impl Replayer<'_> {
    /// A binding call was skipped as a repeat (`repeats.rs`): counted for `Stats`.
    #[inline]
    pub(crate) fn repeat_skipped(&mut self) {
        self.state.repeats_skipped += 1;
    }
}

impl<'a> Replayer<'a> {
    fn new(gl: &'a Gl, raw: &'a Gl, state: &'a mut ReplayState, list: &'a CommandList, list_index: u32) -> Self {
        let (params, base) = (list.params.as_ptr().cast(), list.packets.as_ptr());
        // Whatever else runs with a replayer (a deferred delete) takes the carried knowledge
        // too, so it is gone unless a list's replay puts it back (`finish`).
        let mut repeats = state.carried.take().unwrap_or_default();
        repeats.off = !state.skip_repeats;
        Replayer { gl, raw, params, state, list, list_index, base, repeats }
    }

    /// The list has replayed: what its binding calls set is kept for the next list, and its
    /// commands are counted.
    fn finish(self) {
        self.state.carried = Some(self.repeats);
        self.state.executed += self.list.commands;
    }

    /// A pointer into the current list's parameter buffer.
    #[inline(always)]
    pub fn param<T>(&self, offset: u32) -> *const T {
        // Offsets come from the recording methods of this list and lie inside it; computing the
        // pointer is safe, reading through it is the GL's (bounded by the length rule).
        self.params.wrapping_add(offset as usize).cast()
    }

    /// A mutable pointer for arguments the GL declares non-const but only reads.
    #[inline(always)]
    pub fn param_mut<T>(&self, offset: u32) -> *mut T {
        self.param::<T>(offset) as *mut T
    }

    /// The binding shadow.
    #[inline(always)]
    pub fn shadow(&mut self) -> &mut Shadow {
        &mut self.state.shadow
    }

    /// Builds the `const GLchar *const*` array for strings stored by `CommandList::push_strs`.
    ///
    /// # Safety
    /// `table` is the offset of a `push_strs` table of `count` strings in the current list.
    pub unsafe fn strings(&mut self, table: u32, count: i32) -> *const *const c_char {
        // The old region goes first: its guard removes the region that starts at this address.
        self.state.scratch_region = None;
        self.state.scratch.clear();
        for i in 0..count.max(0) as usize {
            // SAFETY: the table holds `count` u32 offsets written by push_strs.
            let off = unsafe { self.param::<u32>(table).add(i).read_unaligned() };
            self.state.scratch.push(self.param::<c_char>(off));
        }
        // The pointer array lives until the next call of `strings`.
        self.state.scratch_region = Some(crate::arguments::region(
            self.state.scratch.as_ptr(),
            self.state.scratch.len() * std::mem::size_of::<*const c_char>(),
        ));
        self.state.scratch.as_ptr()
    }

    /// The pointer of a `glcmd::Bytes` argument: `(pointer, unbind)`, where `unbind` says the
    /// pixel-unpack buffer must be lifted for the call (client memory while one is bound).
    /// `None`: refused (an offset with no buffer bound, or an offset where the GL takes client
    /// memory only), and reported.
    ///
    /// # Safety
    /// `offset` and `len` are the fields of a `Bytes` argument of the packet at `p`.
    #[inline]
    pub unsafe fn bytes_arg<T>(
        &mut self,
        p: *const u64,
        offset: u64,
        len: u32,
        redirect: bool,
    ) -> Option<(*const T, bool)> {
        match len {
            BYTES_OFFSET => {
                let bound = redirect && self.state.shadow.bound(Target::PixelUnpack) != 0;
                if bound {
                    Some((offset as usize as *const T, false))
                } else {
                    self.refuse(p, Refusal::NoBuffer { target: Target::PixelUnpack, vertex_array: None });
                    None
                }
            }
            BYTES_NULL => Some((std::ptr::null(), redirect && self.state.shadow.bound(Target::PixelUnpack) != 0)),
            _ => Some((self.param::<T>(offset as u32), redirect && self.state.shadow.bound(Target::PixelUnpack) != 0)),
        }
    }

    /// Before a pixel upload: the bytes the GL reads, `extent` (an image sized under the GL's
    /// unpack state now, which the list recorded: `pixels.rs`; or a byte count), lie inside what
    /// the pointer points at. For an offset (`len` is [`BYTES_OFFSET`]) that is the storage of
    /// the buffer bound to `GL_PIXEL_UNPACK_BUFFER` (an overrun raises `GL_INVALID_OPERATION`,
    /// the GL's error for it); for bytes in the list, their length (the recording method checked
    /// it against the same state, so only a capture file edited by hand can fail it). False:
    /// refused and reported. A null pointer reads nothing and passes.
    pub fn unpack_fits(&mut self, p: *const u64, offset: u64, len: u32, extent: UnpackExtent) -> bool {
        if len == BYTES_NULL {
            return true;
        }
        let bytes = match extent {
            // A negative count reads nothing: the GL raises GL_INVALID_VALUE.
            UnpackExtent::Bytes(n) => n.max(0) as u64,
            UnpackExtent::Image(image) => {
                // SAFETY: replay runs on the render thread, with `gl` its current context's table.
                let store = unsafe { crate::pixels::read_unpack_store(self.raw) };
                match crate::pixels::image_bytes(&image, &store) {
                    Ok(n) => n as u64,
                    Err(crate::pixels::SizeError::Overflow) => u64::MAX,
                    Err(crate::pixels::SizeError::Format) => {
                        let error = crate::pixels::format_type_error(image.format, image.type_);
                        let message = format!(
                            "format {} with type {} is no pixel format/type pair glcmd knows, so it cannot check \
                             the bytes the GL would read; glcmd skipped the call",
                            crate::vocab::EnumName(image.format),
                            crate::vocab::EnumName(image.type_)
                        );
                        self.refuse_with(p, message, error);
                        return false;
                    }
                }
            }
        };
        if len != BYTES_OFFSET {
            if bytes <= len as u64 {
                return true;
            }
            let message = format!(
                "the pixel data holds {len} bytes, but the GL reads {bytes} under its unpack state; glcmd skipped \
                 the call"
            );
            self.refuse_with(p, message, gl::INVALID_OPERATION);
            return false;
        }
        match self.state.shadow.check_range(self.raw, Target::PixelUnpack, offset, bytes) {
            Ok(()) => true,
            Err(why) => {
                self.refuse(p, why);
                false
            }
        }
    }

    /// Runs `call` with `GL_PIXEL_UNPACK_BUFFER` unbound if `unbind`, then binds it again.
    #[inline]
    pub fn without_unpack_buffer<R>(&mut self, unbind: bool, call: impl FnOnce(&Gl) -> R) -> R {
        if !unbind {
            return call(self.gl);
        }
        without_buffer(self.raw, &self.state.shadow, Target::PixelUnpack, || call(self.gl))
    }

    /// The GL sync object of a glcmd sync handle; `None` (refused and reported) if its fence
    /// has not run or it was deleted: the GL is never handed a sync object it did not make.
    #[inline]
    pub fn sync_arg(&mut self, p: *const u64, id: u32) -> Option<GLsync> {
        match self.state.syncs.get(&id) {
            Some(&s) => Some(s),
            None if id == 0 => Some(std::ptr::null()),
            None => {
                self.refuse_with(
                    p,
                    format!(
                        "sync handle {id} names no GL sync object: its fence has not been replayed yet, or it was \
                         deleted; glcmd skipped the call"
                    ),
                    // What the GL raises for a sync that is no sync object (glWaitSync, ...).
                    gl::INVALID_VALUE,
                );
                None
            }
        }
    }

    /// The GL sync object of a glcmd sync handle (null if its fence has not run).
    #[inline]
    pub fn sync(&self, id: u32) -> GLsync {
        self.state.syncs.get(&id).copied().unwrap_or(std::ptr::null())
    }

    /// Remembers the GL sync object a recorded fence created.
    pub fn set_sync(&mut self, id: u32, sync: GLsync) {
        self.state.syncs.insert(id, sync);
        if let Some(k) = self.state.known.as_ref().filter(|_| !sync.is_null()) {
            k.answers.fence_created(id);
        }
    }

    /// Forgets a sync handle (after its delete ran).
    pub fn forget_sync(&mut self, id: u32) {
        self.state.syncs.remove(&id);
        if let Some(k) = &self.state.known {
            k.answers.fence_forgotten(id);
        }
    }

    /// The replay state and the list being replayed, for the hooks of `known_replay.rs`.
    pub(crate) fn state_and_list(&mut self) -> (&mut ReplayState, &CommandList) {
        (self.state, self.list)
    }

    /// A link of `program` (or its binary) replayed: the interface cache reads it.
    pub fn program_linked(&mut self, program: GLuint) {
        let state = &mut *self.state;
        state.raised();
        state.programs.linked(self.raw, program, true, &mut state.raised);
    }

    /// A link of `program` was skipped (an argument failed a check): lookups stop waiting.
    pub fn program_link_skipped(&mut self, program: GLuint) {
        self.state.programs.skipped(&[program]);
    }

    /// A delete of `program` ran: in place in an implicit list (counted as pending when the
    /// list was submitted), or at its frame's end.
    pub fn program_deleted(&mut self, program: GLuint) {
        let counted = self.list.implicit && !self.state.running_deferred;
        self.state.programs.deleted(program, counted);
    }

    /// A check failed: the command at `p` is not passed to the GL. It is reported (with the
    /// call, its list and its recording site) and raises the error the GL specification gives
    /// for the same call (`Refusal::gl_error`, for the packet's function), as the GL does for a
    /// command it refuses.
    #[cold]
    pub fn refuse(&mut self, p: *const u64, why: Refusal) {
        // SAFETY: `p` is the packet being executed; every packet starts with its opcode.
        let opcode = unsafe { p.cast::<u16>().read() } as usize;
        let function = crate::generated::commands::NAMES.get(opcode).copied().unwrap_or("");
        self.refuse_with(p, why.to_string(), why.gl_error(function));
    }

    #[cold]
    pub(crate) fn refuse_with(&mut self, p: *const u64, message: String, error: GLenum) {
        // SAFETY: `p` is the packet being executed, inside the current list.
        let slot = unsafe { p.offset_from(self.base) } as usize;
        self.state.refused += 1;
        // The GL's pending flags came first: they go before glcmd's, so the program reads its
        // errors in the order they arose (a refusal after an error the GL holds is not read
        // first).
        self.state.keep_pending_errors(self.raw);
        self.state.raise(error);
        let list = self.list;
        let index = list.index_of_slot(slot);
        self.state.sink.send(Report {
            kind: ReportKind::Skipped,
            call: list.describe(slot),
            list: list.label().map(str::to_string),
            index,
            site: list.site_of_slot(slot),
            message,
            deleted_by: None,
            breadcrumbs: Vec::new(),
        });
    }

    /// Before a float texture or sampler parameter call (`glTexParameterf{,v}`,
    /// `glTextureParameterf{,v}`, `glSamplerParameterf{,v}`) with `values`: what to call the GL
    /// with, when a value is NaN (`float_params.rs`); a refusal is reported here.
    #[inline]
    pub fn float_parameter(&mut self, p: *const u64, of: ParamOf, pname: GLenum, values: &[f32]) -> FloatParameter {
        if !values.iter().any(|v| v.is_nan()) {
            return FloatParameter::Call;
        }
        self.float_parameter_nan(p, of, pname, values)
    }

    #[cold]
    fn float_parameter_nan(&mut self, p: *const u64, of: ParamOf, pname: GLenum, values: &[f32]) -> FloatParameter {
        let raised = self.state.raised();
        match crate::float_params::with_nan(self.raw, self.gl, raised, of, pname, values) {
            Ok(answer) => answer,
            Err(why) => {
                self.refuse(p, why);
                FloatParameter::Done
            }
        }
    }

    /// For delete packets: true when the GL call must wait for the end of the frame, in which
    /// case the packet has been noted and the caller returns. An implicit list's delete runs in
    /// place (the module doc says why); it is noted too, so the frame's end tells diagnostics.
    ///
    /// # Safety
    /// `packet` is the packet being executed, inside the current list.
    #[inline]
    pub unsafe fn defer(&mut self, packet: *const u64) -> bool {
        if self.state.running_deferred {
            return false;
        }
        // SAFETY: `packet` lies inside the list whose first slot is `base`.
        let slot = unsafe { packet.offset_from(self.base) } as usize;
        let in_place = self.list.implicit;
        if !in_place {
            self.delete_effects(packet);
        }
        self.state.deferred.push((self.list_index, slot, in_place));
        !in_place
    }
}

impl Replayer<'_> {
    /// The effects a deferred delete has on the context at its place (`delete_effects.rs`).
    #[cold]
    fn delete_effects(&mut self, packet: *const u64) {
        // SAFETY: `packet` is a packet of the current list, starting with its opcode.
        let op = unsafe { packet.cast::<u16>().read() } as usize;
        let Some(objects) = crate::generated::inspect::OBJECTS.get(op).copied().flatten() else { return };
        let (mut class, mut names) = ("", Vec::new());
        // SAFETY: `packet` is a packet of `op` inside the current list, whose parameters these are.
        unsafe {
            objects(packet, self.list.param_bytes(), &mut |c, name| {
                class = c;
                names.push(name)
            })
        };
        self.state.raised();
        let ReplayState { shadow, raised, .. } = &mut *self.state;
        crate::delete_effects::unbound_in_place(self.raw, shadow, raised, class, &names);
    }
}

/// Runs `call` with `target` unbound (if the shadow says something is bound to it), then binds
/// the buffer again. The shadow itself is unchanged: the binding is back when this returns.
pub(crate) fn without_buffer<R>(gl_fns: &Gl, shadow: &Shadow, target: Target, call: impl FnOnce() -> R) -> R {
    with_unbound(gl_fns, target, shadow.bound(target), call)
}

/// Runs `call` with `target` unbound if `bound`, the buffer bound to it, is not 0, then binds
/// `bound` again: a client pointer handed to the GL meanwhile stays a pointer.
pub(crate) fn with_unbound<R>(gl_fns: &Gl, target: Target, bound: u32, call: impl FnOnce() -> R) -> R {
    if bound == 0 {
        return call();
    }
    // SAFETY: binding 0 and then the buffer that was bound are valid binds of a valid target.
    unsafe { (gl_fns.BindBuffer)(target.gl_enum(), 0) };
    let r = call();
    unsafe { (gl_fns.BindBuffer)(target.gl_enum(), bound) };
    r
}

/// The list's parameter buffer: the memory its commands may hand the GL (for the checking
/// function table; nothing without it).
fn list_region(list: &CommandList) -> crate::arguments::Region {
    crate::arguments::region(list.params.as_ptr(), list.params.len() * 8)
}

/// The names of a delete packet's array, for the shadow.
///
/// # Safety
/// `ptr` points to `n` names (the packet's array in the parameter buffer).
pub unsafe fn names<'a>(ptr: *const GLuint, n: GLsizei) -> &'a [GLuint] {
    if ptr.is_null() || n <= 0 {
        return &[];
    }
    // SAFETY: forwarded from the caller; the parameter buffer is 8-byte aligned and u32 arrays
    // are stored at 8-byte aligned offsets.
    unsafe { std::slice::from_raw_parts(ptr, n as usize) }
}

/// Replays one list. `list_index` is the list's index among the lists of its frame, which
/// [`run_deferred`] receives in the same order.
///
/// # Safety
/// The list's packets were written by glcmd's generated recording methods (or validated as
/// such): each starts with a valid opcode, lies inside the packet buffer, and its offsets lie
/// inside the parameter buffer. `gl` is the table of the context current on this thread.
pub(crate) unsafe fn replay(gl: &Gl, raw: &Gl, state: &mut ReplayState, list: &CommandList, list_index: u32) {
    let _params = list_region(list);
    let _replaying = crate::loader::Replaying::start();
    let mut r = Replayer::new(gl, raw, state, list, list_index);
    let base = list.packets.as_ptr();
    let end = list.packets.len();
    let mut at = 0;
    while at < end {
        // SAFETY: the caller's guarantee: every packet starts with a valid opcode
        // (< OPCODE_COUNT) and occupies SLOTS[opcode] slots inside the buffer.
        unsafe {
            at += crate::generated::commands::dispatch(&mut r, base.add(at));
        }
    }
    r.finish();
}

/// Replays one list like [`replay`], calling `before(index, slot, opcode)` before each command
/// and `after(index, slot)` once it has run. Diagnostics use this; the plain loop above stays
/// free of per-command work. Two hooks rather than one that runs the command: both are inlined
/// here, where a command passed to a hook as a closure cost an indirect call per command.
///
/// # Safety
/// As for [`replay`].
pub(crate) unsafe fn replay_each(
    gl: &Gl,
    raw: &Gl,
    state: &mut ReplayState,
    list: &CommandList,
    list_index: u32,
    mut before: impl FnMut(usize, usize, usize),
    mut after: impl FnMut(usize, usize),
) {
    let _params = list_region(list);
    let _replaying = crate::loader::Replaying::start();
    let mut r = Replayer::new(gl, raw, state, list, list_index);
    let base = list.packets.as_ptr();
    let end = list.packets.len();
    let (mut at, mut index) = (0, 0);
    while at < end {
        // SAFETY: as in `replay`.
        unsafe {
            let packet = base.add(at);
            let op = packet.cast::<u16>().read() as usize;
            before(index, at, op);
            (EXECUTE.get_unchecked(op))(&mut r, packet);
            after(index, at);
            at += *SLOTS.get_unchecked(op) as usize;
        }
        index += 1;
    }
    r.finish();
}

/// Runs the deletes noted while the frame's lists replayed, in recording order.
///
/// # Safety
/// `lists` are the frame's replayed lists, in the order their indices were given to [`replay`].
pub(crate) unsafe fn run_deferred(
    gl: &Gl,
    raw: &Gl,
    state: &mut ReplayState,
    lists: &[CommandList],
    mut ran: impl FnMut(&CommandList, usize, usize),
) {
    if state.deferred.is_empty() {
        return;
    }
    let deferred = std::mem::take(&mut state.deferred);
    state.running_deferred = true;
    for &(list_index, slot, in_place) in &deferred {
        let list = &lists[list_index as usize];
        let _params = list_region(list);
        let mut r = Replayer::new(gl, raw, state, list, list_index);
        // SAFETY: (list_index, slot) was noted by `defer` for a packet of this list.
        unsafe {
            let packet = list.packets.as_ptr().add(slot);
            let op = packet.cast::<u16>().read() as usize;
            if !in_place {
                (EXECUTE.get_unchecked(op))(&mut r, packet);
            }
            ran(list, slot, op);
        }
    }
    state.running_deferred = false;
    state.deferred = deferred;
    state.deferred.clear();
}

/// A replayer outside a device, for benchmarks that measure pure dispatch through a table of
/// no-op functions. Not part of the stable API.
#[doc(hidden)]
pub struct Standalone {
    state: ReplayState,
}

impl Standalone {
    /// A replay state whose binding shadow is read from `gl` (with a no-op table: nothing
    /// bound).
    ///
    /// # Safety
    /// Every entry of `gl` that replay may call is safe to call with any arguments (no-ops),
    /// or `gl` is the table of the context current on this thread.
    pub unsafe fn new(gl: &Gl) -> Standalone {
        let (tx, _) = crossbeam_channel::bounded(1);
        Standalone { state: ReplayState::new(gl, Sink::new(tx), Default::default()) }
    }

    /// The binding shadow, to set up the bindings a benchmark's draws assume.
    pub fn shadow(&mut self) -> &mut Shadow {
        &mut self.state.shadow
    }

    /// Replays `list` through `gl`.
    ///
    /// # Safety
    /// As for [`Standalone::new`]; `list` was recorded by glcmd's recording methods.
    pub unsafe fn replay(&mut self, gl: &Gl, list: &CommandList) {
        // Nothing is known about what ran between two replays here: each starts afresh.
        self.state.carried = None;
        // SAFETY: forwarded from the caller.
        unsafe { replay(gl, gl, &mut self.state, list, 0) }
    }
}
