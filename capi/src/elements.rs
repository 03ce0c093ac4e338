//! Element draws with indices in client memory (issue 34, item 6).
//!
//! In the core profile an element draw's `indices` is an offset into the current vertex
//! array's element buffer; glcmd records it as one, and the render thread refuses the draw when
//! there is no element buffer (the offset would be read as a process address). Mesa's core
//! profile draws such a call from client memory, though, and programs rely on it. The entry
//! point cannot tell an address from an offset by its value, so it follows what the thread's
//! own calls did to the element buffer of the current vertex array, as Mesa's glthread does
//! (`CurrentElementBufferName` of its vertex arrays):
//!
//! * a vertex array created on this thread (`glGenVertexArrays`, `glCreateVertexArrays`) has no
//!   element buffer; `glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0)` and
//!   `glVertexArrayElementBuffer(v, 0)` leave none; a bind of another name, a deletion of the
//!   vertex array, and anything this module did not see leave the question open;
//! * only where the thread *knows* the current vertex array has no element buffer, on an
//!   immediate thread, is a non-NULL `indices` read as an address: its `count * size of type`
//!   bytes are copied (Mesa's glthread uploads them the same way) and the draw goes to the
//!   render thread, after the thread's earlier calls (`glcmd::client_indices`), which checks it
//!   as a recorded draw and, should the vertex array have an element buffer after all, takes the
//!   pointers as offsets into it, as the GL would;
//! * everywhere else the draw is recorded as before, its `indices` an offset.
//!
//! Being wrong in the open direction costs only the old refusal; the thread never reads memory
//! at an offset it took for an address, because it reads only where its own calls left the
//! vertex array without an element buffer. A value below the lowest address a process may map
//! (`vm.mmap_min_addr`, 64 KiB on Linux by default) is no address of the program's memory
//! whatever the thread knows: it stays an offset, and the draw is refused and reported as
//! before, where the driver would read that address and crash the program. Vertex arrays are not shared between contexts, and
//! the beliefs start empty whenever the thread becomes immediate or leaves it
//! (`current::Thread::epoch`): on another device, or on its own after other threads had it.

use std::cell::RefCell;
use std::collections::HashSet;
use std::ffi::c_void;

use glcmd::client_indices::{index_size, ClientIndexDraw, ElementDraw};
use glcmd::generated::types::*;
use glcmd::gl;

use crate::conv::checked;

/// What this thread knows of element buffers: the current vertex array (as its own binds
/// left it), and the vertex arrays known to have none; within one immediate epoch of the thread
/// (`current::Thread::epoch`: its device, and no other thread's calls on its context, since).
#[derive(Default)]
struct Beliefs {
    epoch: Option<u64>,
    immediate: bool,
    current: u32,
    without: HashSet<u32>,
}

thread_local! {
    static BELIEFS: RefCell<Beliefs> = RefCell::new(Beliefs::default());
}

/// Runs `f` on the beliefs of the thread's current epoch (forgotten when the epoch changed).
fn with(f: impl FnOnce(&mut Beliefs)) {
    let now = crate::current::THREAD.try_with(|t| t.try_borrow().map(|t| (t.epoch, t.immediate)).ok()).ok().flatten();
    let _ = BELIEFS.try_with(|b| {
        if let Ok(mut b) = b.try_borrow_mut() {
            let (epoch, immediate) = now.map_or((None, false), |(e, i)| (Some(e), i));
            if b.epoch != epoch || epoch.is_none() {
                *b = Beliefs { epoch, immediate, ..Beliefs::default() };
            }
            f(&mut b)
        }
    });
}

/// Vertex arrays this thread created (`glGenVertexArrays`, `glCreateVertexArrays`): none has an
/// element buffer.
///
/// # Safety
/// `names` is NULL or points to `n` names.
pub unsafe fn created(n: GLsizei, names: *const GLuint) {
    if names.is_null() || n <= 0 {
        return;
    }
    // SAFETY: the caller's contract.
    let names = unsafe { std::slice::from_raw_parts(names, n as usize) };
    with(|b| b.without.extend(names.iter().copied().filter(|&v| v != 0)));
}

/// `glBindVertexArray(array)`, recorded.
pub fn bound_vertex_array(array: GLuint) {
    with(|b| b.current = array);
}

/// `glBindBuffer(target, buffer)`, recorded.
pub fn bound_buffer(target: GLenum, buffer: GLuint) {
    if target == gl::ELEMENT_ARRAY_BUFFER {
        with(|b| {
            let current = b.current;
            element_buffer(b, current, buffer)
        });
    }
}

/// `glVertexArrayElementBuffer(vaobj, buffer)`, recorded.
pub fn vertex_array_element_buffer(vaobj: GLuint, buffer: GLuint) {
    with(|b| element_buffer(b, vaobj, buffer));
}

fn element_buffer(b: &mut Beliefs, vao: u32, buffer: u32) {
    if buffer == 0 && vao != 0 {
        b.without.insert(vao);
    } else {
        b.without.remove(&vao);
    }
}

/// `glDeleteVertexArrays(n, arrays)`, recorded: the names are no longer known; deleting the
/// current one binds 0.
///
/// # Safety
/// `arrays` is NULL or points to `n` names.
pub unsafe fn deleted_vertex_arrays(n: GLsizei, arrays: *const GLuint) {
    if arrays.is_null() || n <= 0 {
        return;
    }
    // SAFETY: the caller's contract.
    let arrays = unsafe { std::slice::from_raw_parts(arrays, n as usize) };
    with(|b| {
        for v in arrays {
            b.without.remove(v);
            if *v == b.current {
                b.current = 0;
            }
        }
    });
}

/// Whether the thread knows its current vertex array has no element buffer, on an immediate
/// thread (where the draw may wait for the thread's earlier calls).
fn known_without() -> bool {
    let mut known = false;
    with(|b| known = b.immediate && b.current != 0 && b.without.contains(&b.current));
    known
}

/// Whether `p` can be no address of the program's memory: below the lowest address a process
/// may map (`/proc/sys/vm/mmap_min_addr`; one page where it cannot be read), or so high that
/// `bytes` from it wrap. Such an `indices` is an offset, whatever the thread knows.
fn no_address(p: usize, bytes: usize) -> bool {
    static LOWEST: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let lowest = *LOWEST.get_or_init(|| {
        std::fs::read_to_string("/proc/sys/vm/mmap_min_addr")
            .ok()
            .and_then(|s| s.trim().parse::<usize>().ok())
            .map_or(4096, |v| v.max(4096))
    });
    p < lowest || p.checked_add(bytes).is_none()
}

/// The extra arguments of the single element draws.
#[derive(Clone, Copy, Default)]
pub struct Extras {
    pub instances: GLsizei,
    pub base_vertex: GLint,
    pub base_instance: GLuint,
    pub range: (GLuint, GLuint),
}

/// A single element draw: drawn from client memory and `true` where the module's rule reads
/// `indices` as an address; `false`: record it as an offset.
///
/// # Safety
/// Where the current vertex array has no element buffer, `indices` points to `count` indices
/// of `type_` (the GL's own contract).
pub unsafe fn single(
    function: &'static str,
    kind: ElementDraw,
    mode: GLenum,
    count: GLsizei,
    type_: GLenum,
    indices: *const c_void,
    extras: Extras,
) -> bool {
    let size = index_size(type_);
    if indices.is_null() || count <= 0 || size == 0 || !known_without() {
        return false;
    }
    if no_address(indices as usize, count as usize * size) {
        return false;
    }
    // SAFETY: the caller's contract: `count` indices of `type_`.
    let bytes = unsafe { std::slice::from_raw_parts(indices.cast::<u8>(), count as usize * size) }.to_vec();
    let draw = ClientIndexDraw {
        function,
        kind,
        mode,
        type_,
        draws: vec![(count, indices as usize, extras.base_vertex)],
        bytes,
        instances: extras.instances,
        base_instance: extras.base_instance,
        range: extras.range,
    };
    send(draw);
    true
}

/// A multi element draw (`glMultiDrawElements*`), as [`single`].
///
/// # Safety
/// `counts`, `indices` and `base_vertex` (if not NULL) point to `drawcount` values; where the
/// current vertex array has no element buffer, each non-NULL `indices[i]` points to
/// `counts[i]` indices of `type_`.
// The GL function's own parameters, with its name and kind: a struct would only rename them.
#[allow(clippy::too_many_arguments)]
pub unsafe fn multi(
    function: &'static str,
    kind: ElementDraw,
    mode: GLenum,
    counts: *const GLsizei,
    type_: GLenum,
    indices: *const *const c_void,
    drawcount: GLsizei,
    base_vertex: *const GLint,
) -> bool {
    let size = index_size(type_);
    if counts.is_null() || indices.is_null() || drawcount <= 0 || size == 0 || !known_without() {
        return false;
    }
    let n = drawcount as usize;
    // SAFETY: the caller's contract: `drawcount` values each.
    let (counts, pointers) = unsafe { (std::slice::from_raw_parts(counts, n), std::slice::from_raw_parts(indices, n)) };
    // A negative count (the GL's error), or a NULL or impossible address with indices to read:
    // the recorded path refuses it as before.
    if counts
        .iter()
        .zip(pointers)
        .any(|(&c, p)| c < 0 || (c > 0 && (p.is_null() || no_address(*p as usize, c as usize * size))))
    {
        return false;
    }
    let mut bytes = Vec::new();
    let mut draws = Vec::with_capacity(n);
    for i in 0..n {
        // SAFETY: the caller's contract.
        let bv = if base_vertex.is_null() { 0 } else { unsafe { base_vertex.add(i).read_unaligned() } };
        if counts[i] > 0 {
            // SAFETY: the caller's contract: `counts[i]` indices of `type_`.
            bytes.extend_from_slice(unsafe {
                std::slice::from_raw_parts(pointers[i].cast::<u8>(), counts[i] as usize * size)
            });
        }
        draws.push((counts[i], pointers[i] as usize, bv));
    }
    let draw =
        ClientIndexDraw { function, kind, mode, type_, draws, bytes, instances: 1, base_instance: 0, range: (0, 0) };
    send(draw);
    true
}

/// Hands the draw to the render thread after the thread's earlier calls.
fn send(draw: ClientIndexDraw) {
    let function = draw.function;
    crate::call::round_trip(function, (), |device| checked(function, device.draw_client_indices(draw.clone())));
}
