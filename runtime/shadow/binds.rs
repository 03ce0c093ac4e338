//! What binds, multi-binds, attribute calls and deletes change in the shadow. Each change is
//! applied only when every argument is one the GL accepts; otherwise the vertex array is marked
//! *stale* and read back from the GL before its next draw, so the shadow never believes more is
//! bound than the GL has.

use crate::generated::{enums as gl, types::*, Gl};

use super::names::Known;
use super::refusal::Refusal;
use super::state::Shadow;
use super::target::{read_binding, Target};
use super::vao::BindingBuffer;

impl Shadow {
    // ---- binds -------------------------------------------------------------------------

    /// After `glBindBuffer(target, buffer)` ran.
    pub fn bind_buffer(&mut self, gl_fns: &Gl, target: GLenum, buffer: GLuint) {
        self.draw_cache = None;
        let Some(t) = Target::from_gl(target) else { return };
        if t != Target::ElementArray && self.unsupported & 1 << t.slot() != 0 {
            return;
        }
        let bound = match self.buffer_known(buffer) {
            Some(_) => {
                if buffer != 0 {
                    self.set_buffer(buffer, Some(Known::Object));
                }
                buffer
            }
            // A name glcmd never saw: ask the GL whether the bind took.
            None => {
                let b = read_binding(gl_fns, t);
                if b == buffer {
                    self.set_buffer(buffer, Some(Known::Object));
                }
                b
            }
        };
        match t {
            Target::ElementArray => {
                let core_default = self.core && self.current_vao == 0;
                let vao = self.current_vao;
                let v = self.vao_mut(vao);
                if core_default {
                    v.stale = true;
                } else {
                    v.element = bound;
                }
            }
            _ => self.context[t.slot()] = bound,
        }
    }

    /// After `glBindVertexArray(array)` ran.
    pub fn bind_vertex_array(&mut self, gl_fns: &Gl, array: GLuint) {
        self.draw_cache = None;
        if array == 0 || self.array_known(array).is_some() {
            self.current_vao = array;
            if array != 0 {
                self.set_array(array, Some(Known::Object));
            }
        } else {
            let mut v = 0;
            // SAFETY: a single-integer query.
            unsafe { (gl_fns.GetIntegerv)(gl::VERTEX_ARRAY_BINDING, &mut v) };
            self.current_vao = v as u32;
            if v as u32 == array {
                self.set_array(array, Some(Known::Object));
            }
        }
        let current = self.current_vao;
        self.vao_mut(current);
    }

    /// `glVertexArrayElementBuffer(vaobj, buffer)`, after it ran.
    pub fn vertex_array_element_buffer(&mut self, vaobj: GLuint, buffer: GLuint) {
        self.draw_cache = None;
        let certain = self.array_known(vaobj) == Some(Known::Object)
            && (buffer == 0 || self.buffer_known(buffer) == Some(Known::Object));
        let v = self.vao_mut(vaobj);
        if certain {
            v.element = buffer;
        } else {
            v.stale = true;
        }
    }

    /// Before a vertex-buffer binding (`glBindVertexBuffer`, `glVertexArrayVertexBuffer` and the
    /// multi-bind forms, per entry): buffer 0 at a non-zero offset is a client address.
    pub fn check_vertex_buffer(&self, buffer: GLuint, offset: i64) -> Result<(), Refusal> {
        if buffer == 0 && offset != 0 {
            Err(Refusal::OffsetWithoutBuffer { offset: offset as u64 })
        } else {
            Ok(())
        }
    }

    /// Before a multi-bind of vertex buffers (`count` entries): as `check_vertex_buffer` for
    /// each. A null `buffers` unbinds every binding in the range (offsets are ignored).
    ///
    /// # Safety
    /// `buffers` and `offsets` are null or point to `count` values.
    pub unsafe fn check_vertex_buffers(
        &self,
        count: GLsizei,
        buffers: *const GLuint,
        offsets: *const GLintptr,
    ) -> Result<(), Refusal> {
        if buffers.is_null() || offsets.is_null() {
            return Ok(());
        }
        for i in 0..count.max(0) as usize {
            // SAFETY: the caller's guarantee.
            let (b, o) = unsafe { (buffers.add(i).read_unaligned(), offsets.add(i).read_unaligned()) };
            self.check_vertex_buffer(b, o as i64)?;
        }
        Ok(())
    }

    /// After a multi-bind of vertex buffers `first..first + count` of `vao` (None: current).
    ///
    /// The GL refuses the whole call (a negative count, `first + count` past
    /// `GL_MAX_VERTEX_ATTRIB_BINDINGS`, a vertex array that does not exist) or single entries
    /// (their binding is then unchanged, the others are made): each entry is applied as
    /// [`vertex_buffer`](Self::vertex_buffer) applies one, and a call the GL may have refused
    /// whole marks the vertex array for reading back.
    ///
    /// # Safety
    /// `buffers`, `offsets` and `strides` are null or point to `count` values.
    pub unsafe fn vertex_buffers(
        &mut self,
        vao: Option<GLuint>,
        first: GLuint,
        count: GLsizei,
        buffers: *const GLuint,
        offsets: *const GLintptr,
        strides: *const GLsizei,
    ) {
        self.draw_cache = None;
        let vao_id = vao.unwrap_or(self.current_vao);
        let whole = count >= 0 && first as i64 + count as i64 <= self.max_bindings as i64 && self.vao_certain(vao);
        if !whole {
            self.vao_mut(vao_id).stale = true;
            return;
        }
        // SAFETY: the caller's guarantee, for each array that is not null.
        let at = |p: *const GLuint, i: usize| if p.is_null() { 0 } else { unsafe { p.add(i).read_unaligned() } };
        for i in 0..count as usize {
            let (b, o, st) = if buffers.is_null() {
                // A null `buffers` unbinds every binding of the range; offsets and strides are
                // ignored (and set to 0 by the GL).
                (0, 0, 0)
            } else {
                // SAFETY: the caller's guarantee.
                let o = if offsets.is_null() { 0 } else { unsafe { offsets.add(i).read_unaligned() as i64 } };
                (at(buffers, i), o, at(strides.cast(), i) as GLsizei)
            };
            self.vertex_buffer(vao, first + i as u32, b, o, st);
        }
    }

    /// After binding `buffer` at `offset` to binding point `index` of `vao` (None: the current
    /// one). The GL refuses a negative offset, a stride out of range, an index past its limit and
    /// a name it never made, and then keeps the old binding: unless every argument is one the GL
    /// accepts, the vertex array is read back before its next draw.
    pub fn vertex_buffer(&mut self, vao: Option<GLuint>, index: GLuint, buffer: GLuint, offset: i64, stride: GLsizei) {
        self.draw_cache = None;
        let vao_id = vao.unwrap_or(self.current_vao);
        let certain = index < self.max_bindings
            && offset >= 0
            && (0..=self.max_stride).contains(&stride)
            && self.buffer_known(buffer) == Some(Known::Object)
            && match vao {
                Some(v) => self.array_known(v) == Some(Known::Object),
                None => !(self.core && vao_id == 0),
            };
        let v = self.vao_mut(vao_id);
        if certain {
            v.bindings[index as usize] = BindingBuffer::Buffer(buffer);
        } else {
            v.stale = true;
        }
    }

    /// Before `glVertexAttrib*Pointer`: a non-zero pointer with no `GL_ARRAY_BUFFER` is a client
    /// address.
    pub fn check_attrib_pointer(&self, pointer: usize) -> Result<(), Refusal> {
        if pointer != 0 && self.context[Target::Array.slot()] == 0 {
            Err(Refusal::NoBuffer { target: Target::Array, vertex_array: None })
        } else {
            Ok(())
        }
    }

    /// After `glVertexAttrib{,I,L}Pointer(index, size, type, .., stride, pointer)` ran:
    /// attribute `index` reads binding `index`, which now holds `GL_ARRAY_BUFFER`.
    pub fn attrib_pointer(&mut self, index: GLuint, size: GLint, type_: GLenum, stride: GLsizei, kind: AttribKind) {
        self.draw_cache = None;
        let vao_id = self.current_vao;
        let certain = index < self.max_attribs.min(self.max_bindings)
            && (0..=self.max_stride).contains(&stride)
            && !(self.core && vao_id == 0)
            && common_format(size, type_, kind);
        let array = self.context[Target::Array.slot()];
        let v = self.vao_mut(vao_id);
        if certain {
            v.attrib_binding[index as usize] = index as u8;
            v.bindings[index as usize] = BindingBuffer::Buffer(array);
        } else {
            v.stale = true;
        }
    }

    /// After `glVertexAttribBinding` / `glVertexArrayAttribBinding`.
    pub fn attrib_binding(&mut self, vao: Option<GLuint>, attrib: GLuint, binding: GLuint) {
        self.draw_cache = None;
        let vao_id = vao.unwrap_or(self.current_vao);
        let certain = attrib < self.max_attribs && binding < self.max_bindings && self.vao_certain(vao);
        let v = self.vao_mut(vao_id);
        if certain {
            v.attrib_binding[attrib as usize] = binding as u8;
        } else {
            v.stale = true;
        }
    }

    /// After `glEnableVertexAttribArray` / `glDisableVertexAttribArray` (and the DSA forms).
    pub fn enable_attrib(&mut self, vao: Option<GLuint>, index: GLuint, enable: bool) {
        self.draw_cache = None;
        let vao_id = vao.unwrap_or(self.current_vao);
        let certain = index < self.max_attribs && self.vao_certain(vao);
        let v = self.vao_mut(vao_id);
        if certain {
            if enable {
                v.enabled |= 1 << index;
            } else {
                v.enabled &= !(1 << index);
            }
        } else {
            v.stale = true;
        }
    }

    /// A call that changes `vao` in ways glcmd does not model (EXT_direct_state_access).
    pub fn vertex_array_changed(&mut self, vao: GLuint) {
        self.draw_cache = None;
        self.vao_mut(vao).stale = true;
    }

    pub(super) fn vao_certain(&self, vao: Option<GLuint>) -> bool {
        match vao {
            Some(v) => self.array_known(v) == Some(Known::Object),
            None => !(self.core && self.current_vao == 0),
        }
    }
    // ---- deletes -----------------------------------------------------------------------

    /// After `glDeleteBuffers` ran: the names are gone, and detached from the context's targets
    /// and from the *current* vertex array (other vertex arrays keep their attachments; the GL
    /// keeps those buffers alive).
    pub fn buffers_deleted(&mut self, names: &[GLuint]) {
        for &n in names {
            if n != 0 {
                self.set_buffer(n, None);
                self.sizes.remove(&n);
            }
        }
        self.buffers_unbound(names);
    }

    /// Whether the context has `t` (`GL_PARAMETER_BUFFER` needs an extension, for one).
    pub fn supports(&self, t: Target) -> bool {
        self.unsupported & 1 << t.slot() == 0
    }

    /// The context's unbinds of a `glDeleteBuffers` made at its place while the delete itself
    /// waits for the frame's end (`delete_effects.rs`): the names stay known objects.
    pub fn buffers_unbound(&mut self, names: &[GLuint]) {
        self.draw_cache = None;
        for &n in names {
            if n == 0 {
                continue;
            }
            for b in self.context.iter_mut() {
                if *b == n {
                    *b = 0;
                }
            }
            let current = self.current_vao;
            let v = self.vao_mut(current);
            if v.element == n {
                v.element = 0;
            }
            for b in v.bindings.iter_mut() {
                if *b == BindingBuffer::Buffer(n) {
                    *b = BindingBuffer::Buffer(0);
                }
            }
        }
    }

    /// After `glDeleteVertexArrays` ran.
    pub fn vertex_arrays_deleted(&mut self, names: &[GLuint]) {
        self.draw_cache = None;
        for &n in names {
            if n == 0 {
                continue;
            }
            self.set_array(n, None);
            self.vaos.remove(&n);
            if self.current_vao == n {
                self.current_vao = 0;
            }
        }
    }

    /// After a call that may have (re)allocated some buffer's storage (`glBufferData`,
    /// `glBufferStorage` and their DSA and extension forms): the sizes are asked again.
    pub fn storage_changed(&mut self) {
        self.draw_cache = None;
        self.sizes.clear();
    }
}

/// Which `glVertexAttrib*Pointer` a call is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttribKind {
    Float,
    Integer,
    Long,
}

/// The size/type combinations every implementation accepts; anything else is checked against
/// the GL (the vertex array is marked stale).
pub(super) fn common_format(size: GLint, type_: GLenum, kind: AttribKind) -> bool {
    if !(1..=4).contains(&size) {
        return false;
    }
    match kind {
        AttribKind::Float => matches!(
            type_,
            gl::FLOAT
                | gl::HALF_FLOAT
                | gl::BYTE
                | gl::UNSIGNED_BYTE
                | gl::SHORT
                | gl::UNSIGNED_SHORT
                | gl::INT
                | gl::UNSIGNED_INT
        ),
        AttribKind::Integer => {
            matches!(type_, gl::BYTE | gl::UNSIGNED_BYTE | gl::SHORT | gl::UNSIGNED_SHORT | gl::INT | gl::UNSIGNED_INT)
        }
        AttribKind::Long => type_ == gl::DOUBLE,
    }
}
