//! What a command needs from the bindings before it runs: a buffer bound where an argument is
//! an offset, a vertex array that reads no client memory, and every range it reads (indices,
//! indirect commands, draw counts) inside the bound buffer's storage, computed in 64 bits.

use crate::generated::{enums as gl, types::*, Gl};

use super::refusal::Refusal;
use super::state::{DrawCache, Shadow};
use super::target::Target;
use super::vao::{read_current_vao, BindingBuffer, Vao};

impl Shadow {
    // ---- checks ------------------------------------------------------------------------

    /// The buffer bound to a context target.
    pub fn bound(&self, target: Target) -> u32 {
        match target {
            Target::ElementArray => self.vaos.get(&self.current_vao).map_or(0, |v| v.element),
            t => self.context[t.slot()],
        }
    }

    /// Requires a buffer bound to `target` (an offset argument into it).
    pub fn require(&self, target: Target) -> Result<(), Refusal> {
        if self.bound(target) == 0 {
            Err(Refusal::NoBuffer { target, vertex_array: None })
        } else {
            Ok(())
        }
    }

    /// Before a draw's other checks, as the GL checks them before the vertex array: no count
    /// (`count`, `instancecount`, `drawcount`, ...) is negative (`GL_INVALID_VALUE`), and in a
    /// core profile `mode` is a primitive type of the core profile (`GL_INVALID_ENUM`). Without
    /// it, a draw with a negative count and no vertex array would raise glcmd's
    /// `GL_INVALID_OPERATION` where the GL raises `GL_INVALID_VALUE`.
    pub fn check_draw_arguments(&self, mode: GLenum, counts: &[(&'static str, i64)]) -> Result<(), Refusal> {
        self.check_draw_counts(counts)?;
        self.check_draw_mode(mode)
    }

    /// No count of a draw is negative (`GL_INVALID_VALUE`).
    pub fn check_draw_counts(&self, counts: &[(&'static str, i64)]) -> Result<(), Refusal> {
        match counts.iter().find(|(_, v)| *v < 0) {
            Some(&(argument, value)) => Err(Refusal::DrawArgument { argument, value }),
            None => Ok(()),
        }
    }

    /// In a core profile, `mode` is a primitive type of the core profile (`GL_INVALID_ENUM`).
    pub fn check_draw_mode(&self, mode: GLenum) -> Result<(), Refusal> {
        // POINTS ..= TRIANGLE_FAN, LINES_ADJACENCY ..= PATCHES: not QUADS, QUAD_STRIP, POLYGON.
        let core_mode = mode <= gl::TRIANGLE_FAN || (gl::LINES_ADJACENCY..=gl::PATCHES).contains(&mode);
        if self.core && !core_mode {
            return Err(Refusal::DrawArgument { argument: "mode", value: mode as i64 });
        }
        Ok(())
    }

    /// Before an indirect draw's buffer checks: `indirect` is a multiple of 4 (the GL refuses
    /// another with `GL_INVALID_VALUE` before it looks for the indirect buffer, GL 4.6 §10.4).
    pub fn check_indirect_alignment(&self, indirect: u64) -> Result<(), Refusal> {
        if indirect % 4 == 0 {
            return Ok(());
        }
        let accepted = "multiples of 4";
        Err(Refusal::Earlier { argument: "indirect", value: indirect as i64, accepted, error: gl::INVALID_VALUE })
    }

    /// Before a multi-draw's other checks but its counts: `stride` is a multiple of 4 (Mesa's
    /// `valid_draw_indirect_multi` refuses another with `GL_INVALID_VALUE` before it looks at
    /// the index type, the vertex array or the indirect buffer).
    pub fn check_indirect_stride(&self, stride: i64) -> Result<(), Refusal> {
        if stride % 4 == 0 {
            return Ok(());
        }
        let accepted = "0 or multiples of 4";
        Err(Refusal::Earlier { argument: "stride", value: stride, accepted, error: gl::INVALID_VALUE })
    }

    /// Before an indirect element draw, first of all: an index type the GL refuses
    /// (`GL_INVALID_ENUM`, Mesa's `_mesa_validate_DrawElementsIndirect` checks it first).
    pub fn check_indirect_index_type(&self, type_: GLenum) -> Result<(), Refusal> {
        if index_size(type_).is_some() {
            return Ok(());
        }
        let accepted = "GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT, GL_UNSIGNED_INT";
        Err(Refusal::Earlier { argument: "type", value: type_ as i64, accepted, error: gl::INVALID_ENUM })
    }

    /// Before a transform-feedback draw of vertex stream `stream`: the GL refuses a stream at or
    /// past `GL_MAX_VERTEX_STREAMS` with `GL_INVALID_VALUE` before it checks the mode and the
    /// vertex array (Mesa's `validate_draw_transform_feedback`), so glcmd checks it first too.
    pub fn check_stream(&self, stream: GLuint) -> Result<(), Refusal> {
        if stream < self.max_streams {
            return Ok(());
        }
        let accepted = "streams below GL_MAX_VERTEX_STREAMS";
        Err(Refusal::Earlier { argument: "stream", value: stream as i64, accepted, error: gl::INVALID_VALUE })
    }

    /// Before a draw: the current vertex array reads no client array, and (for element draws)
    /// has an element buffer. A stale vertex array is read back from the GL first.
    #[inline]
    pub fn check_draw(&mut self, gl_fns: &Gl, elements: bool) -> Result<(), Refusal> {
        self.draw_check(gl_fns, elements).map(|_| ())
    }

    /// The draw check of a non-indexed draw (the vertex array reads no client array), returning
    /// the vertex array's element buffer (0: none): a draw with client-memory indices
    /// (`client_indices.rs`) takes its pointers as offsets when there is one.
    pub fn element_buffer_for_draw(&mut self, gl_fns: &Gl) -> Result<u32, Refusal> {
        self.draw_check(gl_fns, false).map(|c| c.element)
    }

    /// [`check_draw`](Self::check_draw), returning the draw's view of the vertex array.
    #[inline]
    pub(super) fn draw_check(&mut self, gl_fns: &Gl, elements: bool) -> Result<DrawCache, Refusal> {
        if let Some(c) = self.draw_cache {
            if c.arrays_ok && (c.element != 0 || !elements) {
                return Ok(c);
            }
        }
        self.check_draw_slow(gl_fns, elements)
    }

    #[cold]
    pub(super) fn check_draw_slow(&mut self, gl_fns: &Gl, elements: bool) -> Result<DrawCache, Refusal> {
        let vao_id = self.current_vao;
        if self.core && vao_id == 0 {
            return Err(Refusal::NoVertexArray);
        }
        let unknown = |v: &Vao| v.stale || matches!(v.client_array(), Some((_, BindingBuffer::Unknown)));
        if self.vaos.get(&vao_id).is_none_or(unknown) {
            let fresh = read_current_vao(gl_fns, self.max_attribs);
            self.vaos.insert(vao_id, fresh);
        }
        let v = &self.vaos[&vao_id];
        let (client_array, element) = (v.client_array(), v.element);
        let element_size = if element != 0 { self.buffer_size(gl_fns, Target::ElementArray, element) } else { 0 };
        let cache = DrawCache { arrays_ok: client_array.is_none(), element, element_size };
        self.draw_cache = Some(cache);
        if let Some((attribute, _)) = client_array {
            return Err(Refusal::ClientArray { vertex_array: vao_id, attribute });
        }
        if elements && element == 0 {
            return Err(Refusal::NoBuffer { target: Target::ElementArray, vertex_array: Some(vao_id) });
        }
        Ok(cache)
    }

    /// The fast check of a plain draw, from the cache alone (no GL call, no refusal): the
    /// current vertex array reads no client array, and for an element draw (`Some((count, type,
    /// indices))`) it has an element buffer whose storage holds the indices. False means "not
    /// known from the cache": the checked path decides.
    #[inline]
    pub fn draw_fits(&self, indices: Option<(GLsizei, GLenum, usize)>) -> bool {
        match (self.draw_cache, indices) {
            (Some(c), None) => c.arrays_ok,
            (Some(c), Some((count, type_, offset))) => {
                c.arrays_ok && c.element != 0 && indices_fit(count, type_, offset, c.element_size)
            }
            (None, _) => false,
        }
    }

    /// Before an element draw of `count` indices of `type_` at offset `indices` into the
    /// element buffer: the draw check, and the indices must lie inside the buffer's storage.
    /// A count the GL refuses is left to the GL (it reads nothing); a type it refuses raises its
    /// `GL_INVALID_ENUM` first (`check_index_type`).
    #[inline]
    pub fn check_indices(&mut self, gl_fns: &Gl, count: GLsizei, type_: GLenum, indices: usize) -> Result<(), Refusal> {
        self.check_index_type(type_)?;
        if count <= 0 {
            // Nothing is read (a negative count was refused before): with no element buffer
            // either, as the GL draws nothing and raises nothing (Mesa's core profile).
            self.draw_check(gl_fns, false)?;
            return Ok(());
        }
        let c = self.draw_check(gl_fns, true)?;
        let Some(size) = index_size(type_) else { return Ok(()) };
        let len = count as u64 * size;
        match (indices as u64).checked_add(len) {
            Some(end) if end <= c.element_size => Ok(()),
            _ => Err(Refusal::Overrun {
                target: Target::ElementArray,
                offset: indices as u64,
                len: Some(len),
                size: c.element_size,
            }),
        }
    }

    /// Before an element draw's vertex-array checks, in Mesa's order: no vertex array (core
    /// profile, `GL_INVALID_OPERATION`), then an index type the GL refuses (`GL_INVALID_ENUM`):
    /// the GL raises those before anything glcmd checks of the element buffer.
    fn check_index_type(&self, type_: GLenum) -> Result<(), Refusal> {
        if self.core && self.current_vao == 0 {
            return Err(Refusal::NoVertexArray);
        }
        if index_size(type_).is_none() {
            let accepted = "GL_UNSIGNED_BYTE, GL_UNSIGNED_SHORT, GL_UNSIGNED_INT";
            return Err(Refusal::Earlier { argument: "type", value: type_ as i64, accepted, error: gl::INVALID_ENUM });
        }
        Ok(())
    }

    /// Before `glMultiDrawElements*`: [`check_indices`](Self::check_indices) for each of the
    /// `drawcount` draws.
    ///
    /// # Safety
    /// `counts` and `indices` are null or point to `drawcount` values.
    pub unsafe fn check_multi_indices(
        &mut self,
        gl_fns: &Gl,
        counts: *const GLsizei,
        type_: GLenum,
        indices: *const *const std::ffi::c_void,
        drawcount: GLsizei,
    ) -> Result<(), Refusal> {
        self.check_index_type(type_)?;
        self.draw_check(gl_fns, drawcount > 0)?;
        if counts.is_null() || indices.is_null() {
            return Ok(());
        }
        for i in 0..drawcount.max(0) as usize {
            // SAFETY: the caller's guarantee.
            let (count, offset) = unsafe { (counts.add(i).read_unaligned(), indices.add(i).read_unaligned()) };
            self.check_indices(gl_fns, count, type_, offset as usize)?;
        }
        Ok(())
    }

    /// Before an indirect draw or dispatch: `drawcount` commands of `command` bytes, `stride`
    /// apart (0: tightly packed), read from offset `indirect` of the buffer bound to `target`.
    /// The whole read, `indirect + (drawcount - 1) * stride + command`, is computed in 64 bits
    /// with overflow checks and must lie inside the buffer's storage. (Drivers compute it in
    /// narrower or wrapping arithmetic: Mesa's `indirect + size` wraps for an offset near
    /// 2^64, and its 32-bit `drawcount * stride` wraps for a count near 2^28.) A count of 0
    /// reads nothing, and a negative one is refused by the GL: both are left to it. A negative
    /// stride would read before the offset (Mesa's `stride % 4` check passes -4): refused.
    pub fn check_indirect(
        &mut self,
        gl_fns: &Gl,
        target: Target,
        indirect: u64,
        drawcount: i64,
        stride: i64,
        command: u64,
    ) -> Result<(), Refusal> {
        self.require(target)?;
        if drawcount <= 0 {
            return Ok(());
        }
        if stride < 0 {
            return Err(Refusal::Range { value: stride });
        }
        let stride = if stride == 0 { command } else { stride as u64 };
        let len = (drawcount as u64 - 1).checked_mul(stride).and_then(|l| l.checked_add(command));
        match len {
            Some(len) => self.check_range(gl_fns, target, indirect, len),
            None => {
                let size = self.buffer_size(gl_fns, target, self.bound(target));
                Err(Refusal::Overrun { target, offset: indirect, len: None, size })
            }
        }
    }

    /// Before a call that reads or writes `len` bytes at `offset` of the buffer bound to
    /// `target`: a buffer is bound, and `offset + len` is within its storage.
    pub fn check_range(&mut self, gl_fns: &Gl, target: Target, offset: u64, len: u64) -> Result<(), Refusal> {
        self.require(target)?;
        let size = self.buffer_size(gl_fns, target, self.bound(target));
        match offset.checked_add(len) {
            Some(end) if end <= size => Ok(()),
            _ => Err(Refusal::Overrun { target, offset, len: Some(len), size }),
        }
    }

    /// The storage size of `buffer`, bound to `target`: from the cache, or asked of the GL.
    pub(super) fn buffer_size(&mut self, gl_fns: &Gl, target: Target, buffer: u32) -> u64 {
        if let Some(&size) = self.sizes.get(&buffer) {
            return size;
        }
        let mut size: GLint64 = 0;
        // SAFETY: a single-integer query of the buffer bound to a target the context has.
        unsafe { (gl_fns.GetBufferParameteri64v)(target.gl_enum(), gl::BUFFER_SIZE, &mut size) };
        let size = size.max(0) as u64;
        self.sizes.insert(buffer, size);
        size
    }
}

/// Whether `count` indices of `type_` at offset `indices` lie inside `size` bytes (or the GL
/// refuses the draw by itself: a type it does not know, a count of 0 or less).
#[inline]
fn indices_fit(count: GLsizei, type_: GLenum, indices: usize, size: u64) -> bool {
    let Some(bytes) = index_size(type_) else { return true };
    count <= 0 || (indices as u64).checked_add(count as u64 * bytes).is_some_and(|end| end <= size)
}

/// Bytes per index of an element draw's `type`, or None for a type the GL refuses.
#[inline]
pub(super) fn index_size(type_: GLenum) -> Option<u64> {
    match type_ {
        gl::UNSIGNED_BYTE => Some(1),
        gl::UNSIGNED_SHORT => Some(2),
        gl::UNSIGNED_INT => Some(4),
        _ => None,
    }
}
