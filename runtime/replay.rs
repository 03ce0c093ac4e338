//! The replay loop: one pass over a list's packets, dispatching each by its opcode.
//!
//! Every packet starts with a `u16` opcode. The plain loop hands it to the generated
//! `dispatch`, a `match` over every opcode that the compiler turns into one jump table with the
//! execute functions inlined into its arms: one indexed load and one indirect jump per command,
//! the jump-table idea of seed 004 (measured at about 1 ns over a direct call, against about
//! 2.5 ns for an indirect call through a table of function pointers). The loop allocates nothing,
//! takes no lock and branches on nothing else. The tables `EXECUTE` (execute function per
//! opcode) and `SLOTS` (size per opcode) serve the diagnostic loop and deferred deletes.
//!
//! Deletes are the exception the design asks for: their execute functions do not call the GL at
//! once but note the packet in `ReplayState::deferred`. When every list of the frame has run,
//! [`run_deferred`] executes them in recording order, so a name is never deleted while a list of
//! the same frame may still use it (seed 000).

use std::collections::HashMap;
use std::ffi::c_char;

use crate::generated::{types::GLsync, Gl, EXECUTE, SLOTS};
use crate::list::CommandList;

/// The signature of every generated execute function.
///
/// # Safety
/// `packet` points at a packet whose opcode selects this function, inside a list whose
/// parameter buffer is the replayer's.
pub type ExecuteFn = unsafe fn(&mut Replayer<'_>, *const u64);

/// State the render thread keeps across lists and frames.
#[derive(Default)]
pub struct ReplayState {
    /// glcmd sync handle -> GL sync object, filled in when a recorded fence runs.
    pub(crate) syncs: HashMap<u32, GLsync>,
    /// Deletes noted during the frame: (list index in the frame, slot of the packet).
    pub(crate) deferred: Vec<(u32, u32)>,
    /// Reused for `const GLchar *const*` arguments.
    scratch: Vec<*const c_char>,
    /// Set while deferred deletes run, so their execute functions call the GL.
    pub(crate) running_deferred: bool,
    /// Commands executed since the device started.
    pub(crate) executed: u64,
}

// SAFETY: the raw pointers are GL sync handles and scratch pointers into lists; they are only
// dereferenced by the GL on the render thread, and ReplayState lives on that thread.
unsafe impl Send for ReplayState {}

/// What an execute function sees: the GL, the current list's parameters, and the replay state.
pub struct Replayer<'a> {
    pub gl: &'a Gl,
    params: *const u8,
    state: &'a mut ReplayState,
    list_index: u32,
    base: *const u64,
}

impl<'a> Replayer<'a> {
    /// A pointer into the current list's parameter buffer.
    #[inline(always)]
    pub fn param<T>(&self, offset: u32) -> *const T {
        // SAFETY: offsets come from the recording methods of this list and lie inside it.
        unsafe { self.params.add(offset as usize).cast() }
    }

    /// A mutable pointer for arguments the GL declares non-const but only reads.
    #[inline(always)]
    pub fn param_mut<T>(&self, offset: u32) -> *mut T {
        self.param::<T>(offset) as *mut T
    }

    /// Builds the `const GLchar *const*` array for strings stored by `CommandList::push_strs`.
    ///
    /// # Safety
    /// `table` is the offset of a `push_strs` table of `count` strings in the current list.
    pub unsafe fn strings(&mut self, table: u32, count: i32) -> *const *const c_char {
        self.state.scratch.clear();
        for i in 0..count.max(0) as usize {
            // SAFETY: the table holds `count` u32 offsets written by push_strs.
            let off = unsafe { self.param::<u32>(table).add(i).read_unaligned() };
            self.state.scratch.push(self.param::<c_char>(off));
        }
        self.state.scratch.as_ptr()
    }

    /// The GL sync object of a glcmd sync handle (null if its fence has not run).
    #[inline]
    pub fn sync(&self, id: u32) -> GLsync {
        self.state.syncs.get(&id).copied().unwrap_or(std::ptr::null())
    }

    /// Remembers the GL sync object a recorded fence created.
    pub fn set_sync(&mut self, id: u32, sync: GLsync) {
        self.state.syncs.insert(id, sync);
    }

    /// Forgets a sync handle (after its delete ran).
    pub fn forget_sync(&mut self, id: u32) {
        self.state.syncs.remove(&id);
    }

    /// For delete packets: true when the GL call must wait for the end of the frame, in which
    /// case the packet has been noted and the caller returns.
    ///
    /// # Safety
    /// `packet` is the packet being executed, inside the current list.
    #[inline]
    pub unsafe fn defer(&mut self, packet: *const u64) -> bool {
        if self.state.running_deferred {
            return false;
        }
        // SAFETY: `packet` lies inside the list whose first slot is `base`.
        let slot = unsafe { packet.offset_from(self.base) } as u32;
        self.state.deferred.push((self.list_index, slot));
        true
    }
}

/// Replays one list. `list_index` is the list's index among the lists of its frame, which
/// [`run_deferred`] receives in the same order.
pub fn replay(gl: &Gl, state: &mut ReplayState, list: &CommandList, list_index: u32) {
    let base = list.packets.as_ptr();
    let mut r = Replayer { gl, params: list.params.as_ptr().cast(), state, list_index, base };
    let end = list.packets.len();
    let mut at = 0;
    while at < end {
        // SAFETY: packets are written only by generated recording methods: each starts with a
        // valid opcode (< OPCODE_COUNT) and occupies SLOTS[opcode] slots inside the buffer.
        unsafe {
            at += crate::generated::commands::dispatch(&mut r, base.add(at));
        }
    }
    r.state.executed += list.commands as u64;
}

/// Replays one list like [`replay`], handing each command to `observe(index, slot, opcode,
/// run)`, which must call `run` once to execute it. Diagnostics use this; the plain loop above
/// stays free of per-command work.
pub(crate) fn replay_each(
    gl: &Gl,
    state: &mut ReplayState,
    list: &CommandList,
    list_index: u32,
    mut observe: impl FnMut(usize, usize, usize, &mut dyn FnMut()),
) {
    let base = list.packets.as_ptr();
    let mut r = Replayer { gl, params: list.params.as_ptr().cast(), state, list_index, base };
    let end = list.packets.len();
    let (mut at, mut index) = (0, 0);
    while at < end {
        // SAFETY: as in `replay`.
        unsafe {
            let packet = base.add(at);
            let op = packet.cast::<u16>().read() as usize;
            observe(index, at, op, &mut || (EXECUTE.get_unchecked(op))(&mut r, packet));
            at += *SLOTS.get_unchecked(op) as usize;
        }
        index += 1;
    }
    r.state.executed += list.commands as u64;
}

/// Runs the deletes noted while the frame's lists replayed, in recording order.
pub fn run_deferred(gl: &Gl, state: &mut ReplayState, lists: &[CommandList]) {
    if state.deferred.is_empty() {
        return;
    }
    let deferred = std::mem::take(&mut state.deferred);
    state.running_deferred = true;
    for &(list_index, slot) in &deferred {
        let list = &lists[list_index as usize];
        let base = list.packets.as_ptr();
        let mut r = Replayer { gl, params: list.params.as_ptr().cast(), state, list_index, base };
        // SAFETY: (list_index, slot) was noted by `defer` for a packet of this list.
        unsafe {
            let packet = base.add(slot as usize);
            let op = packet.cast::<u16>().read() as usize;
            (EXECUTE.get_unchecked(op))(&mut r, packet);
        }
    }
    state.running_deferred = false;
    state.deferred = deferred;
    state.deferred.clear();
}
