//! Element draws whose indices are in client memory: a special of the C ABI (like
//! `special.rs`, this module names GL functions).
//!
//! In the core profile `glDrawElements`' `indices` is an offset into the vertex array's element
//! buffer, and glcmd's packets keep it as one: with no element buffer bound the render thread
//! refuses the draw (the offset would be read as a process address). Mesa's core profile,
//! though, draws such a call from client memory, as the compatibility profile does, and
//! programs rely on it (piglit's `arb_shader_draw_parameters-drawid`). The byte count is known
//! from `count` and `type`, so the C ABI copies the indices (as Mesa's glthread uploads them)
//! where the program's own calls left the current vertex array without an element buffer
//! (`capi/src/elements.rs` tracks that), and hands the draw to the render thread here, after
//! the thread's earlier calls:
//!
//! * the draw's counts and mode are checked first, then its vertex array (client arrays,
//!   framebuffer first), as for a recorded draw, with the GL's errors;
//! * if the vertex array has an element buffer after all (the recording thread cannot see
//!   everything: a bind it could not judge), the pointers are offsets into it, checked as a
//!   recorded draw's are, exactly as the GL would take them;
//! * else the GL reads the copied indices: the same bytes it would have read directly.
//!
//! The copy lives in the round trip's closure, which outlives the GL call.

use crate::device::Device;
use crate::generated::types::*;
use crate::render::RenderContext;
use crate::shadow::{framebuffer_first, Refusal};
use crate::Error;

/// Which element draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementDraw {
    Elements,
    ElementsBaseVertex,
    ElementsInstanced,
    ElementsInstancedBaseVertex,
    ElementsInstancedBaseInstance,
    ElementsInstancedBaseVertexBaseInstance,
    RangeElements,
    RangeElementsBaseVertex,
    MultiElements,
    MultiElementsBaseVertex,
}

/// An element draw with client-memory indices, as the C ABI received it.
#[derive(Clone, Debug)]
pub struct ClientIndexDraw {
    pub function: &'static str,
    pub kind: ElementDraw,
    pub mode: GLenum,
    pub type_: GLenum,
    /// Each draw's count, pointer value (an address, or an offset if an element buffer turns out
    /// to be bound) and base vertex; one for the single forms.
    pub draws: Vec<(GLsizei, usize, GLint)>,
    /// Each draw's indices, `count * size of type` bytes, one after the other.
    pub bytes: Vec<u8>,
    pub instances: GLsizei,
    pub base_instance: GLuint,
    /// `start` and `end` of the range forms.
    pub range: (GLuint, GLuint),
}

impl Device {
    /// Draws `draw` on the render thread after every earlier submission (see the module's
    /// essay). A refusal raises the GL's error for it (`Error::Skipped`).
    pub fn draw_client_indices(&self, draw: ClientIndexDraw) -> Result<(), Error> {
        let function = draw.function;
        self.call(function, move |rc| draw_on_render_thread(rc, &draw))
    }
}

fn skipped(function: &'static str, why: Refusal) -> Error {
    Error::Skipped { function, reason: why.to_string(), error: why.gl_error(function) }
}

fn draw_on_render_thread(rc: &RenderContext, draw: &ClientIndexDraw) -> Result<(), Error> {
    let function = draw.function;
    let gl = rc.raw_gl();
    let element = {
        let Ok(mut state) = rc.state.try_borrow_mut() else {
            // Inside a replay (a debug callback): the shadow is in use.
            let reason = "a draw with client-memory indices cannot run inside a debug callback".to_string();
            return Err(Error::Skipped { function, reason, error: crate::gl::INVALID_OPERATION });
        };
        let shadow = &mut state.shadow;
        let mut counts: Vec<(&'static str, i64)> = draw.draws.iter().map(|d| ("count", d.0 as i64)).collect();
        counts.push(("instancecount", draw.instances as i64));
        shadow.check_draw_arguments(draw.mode, &counts).map_err(|why| skipped(function, why))?;
        let element =
            shadow.element_buffer_for_draw(gl).map_err(|why| skipped(function, framebuffer_first(gl, why)))?;
        if element != 0 {
            for &(count, offset, _) in &draw.draws {
                shadow
                    .check_indices(gl, count, draw.type_, offset)
                    .map_err(|why| skipped(function, framebuffer_first(gl, why)))?;
            }
        }
        element
    };
    // The indices: the pointer values as offsets into the element buffer, or the copies.
    let mut at = 0;
    let size = index_size(draw.type_);
    let pointers: Vec<*const std::ffi::c_void> = draw
        .draws
        .iter()
        .map(|&(count, offset, _)| {
            if element != 0 {
                return offset as *const std::ffi::c_void;
            }
            let p = draw.bytes[at..].as_ptr().cast();
            at += count.max(0) as usize * size;
            p
        })
        .collect();
    let counts: Vec<GLsizei> = draw.draws.iter().map(|d| d.0).collect();
    let base_vertices: Vec<GLint> = draw.draws.iter().map(|d| d.2).collect();
    let (mode, type_, n) = (draw.mode, draw.type_, counts[0]);
    let (p, bv, inst, bi) = (pointers[0], base_vertices[0], draw.instances, draw.base_instance);
    let (start, end) = draw.range;
    // SAFETY: each pointer is an offset checked against the bound element buffer, or points to
    // `count` indices of `type_` in `draw.bytes` (the C ABI copied that many); the arrays of the
    // multi forms hold `draws.len()` entries.
    unsafe {
        match draw.kind {
            ElementDraw::Elements => (gl.DrawElements)(mode, n, type_, p),
            ElementDraw::ElementsBaseVertex => (gl.DrawElementsBaseVertex)(mode, n, type_, p, bv),
            ElementDraw::ElementsInstanced => (gl.DrawElementsInstanced)(mode, n, type_, p, inst),
            ElementDraw::ElementsInstancedBaseVertex => {
                (gl.DrawElementsInstancedBaseVertex)(mode, n, type_, p, inst, bv)
            }
            ElementDraw::ElementsInstancedBaseInstance => {
                (gl.DrawElementsInstancedBaseInstance)(mode, n, type_, p, inst, bi)
            }
            ElementDraw::ElementsInstancedBaseVertexBaseInstance => {
                (gl.DrawElementsInstancedBaseVertexBaseInstance)(mode, n, type_, p, inst, bv, bi)
            }
            ElementDraw::RangeElements => (gl.DrawRangeElements)(mode, start, end, n, type_, p),
            ElementDraw::RangeElementsBaseVertex => (gl.DrawRangeElementsBaseVertex)(mode, start, end, n, type_, p, bv),
            ElementDraw::MultiElements => {
                (gl.MultiDrawElements)(mode, counts.as_ptr(), type_, pointers.as_ptr(), counts.len() as GLsizei)
            }
            ElementDraw::MultiElementsBaseVertex => (gl.MultiDrawElementsBaseVertex)(
                mode,
                counts.as_ptr(),
                type_,
                pointers.as_ptr(),
                counts.len() as GLsizei,
                base_vertices.as_ptr(),
            ),
        }
    }
    Ok(())
}

/// Bytes per index of `type_` (0 for a type the GL refuses: the C ABI copies none and does not
/// take this path for it).
pub fn index_size(type_: GLenum) -> usize {
    match type_ {
        crate::gl::UNSIGNED_BYTE => 1,
        crate::gl::UNSIGNED_SHORT => 2,
        crate::gl::UNSIGNED_INT => 4,
        _ => 0,
    }
}
