//! One vertex array object as the shadow knows it ([`Vao`]: element buffer, enabled
//! attributes, their binding points and the buffer of each), and reading one back from the GL.

use crate::generated::{enums as gl, Gl};

use super::target::MAX_ATTRIBS;

/// The buffer of a vertex-buffer binding point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BindingBuffer {
    Buffer(u32),
    /// Not known until the vertex array is read back from the GL.
    Unknown,
}

/// One vertex array object's state.
#[derive(Clone, Debug)]
pub(super) struct Vao {
    pub(super) element: u32,
    pub(super) enabled: u32,
    /// Binding index of each attribute.
    pub(super) attrib_binding: [u8; MAX_ATTRIBS],
    pub(super) bindings: [BindingBuffer; MAX_ATTRIBS],
    /// Read back from the GL before the next draw that uses it.
    pub(super) stale: bool,
}

impl Vao {
    /// The state of a new vertex array object: nothing enabled, attribute i on binding i, no
    /// buffers.
    pub(super) fn new() -> Vao {
        Vao {
            element: 0,
            enabled: 0,
            attrib_binding: std::array::from_fn(|i| i as u8),
            bindings: [BindingBuffer::Buffer(0); MAX_ATTRIBS],
            stale: false,
        }
    }

    pub(super) fn stale() -> Vao {
        Vao { stale: true, ..Vao::new() }
    }

    /// The first enabled attribute whose binding has no buffer, or whose buffer is unknown.
    pub(super) fn client_array(&self) -> Option<(usize, BindingBuffer)> {
        (0..MAX_ATTRIBS).filter(|i| self.enabled & (1 << i) != 0).find_map(|i| {
            match self.bindings[self.attrib_binding[i] as usize] {
                BindingBuffer::Buffer(0) => Some((i, BindingBuffer::Buffer(0))),
                BindingBuffer::Unknown => Some((i, BindingBuffer::Unknown)),
                BindingBuffer::Buffer(_) => None,
            }
        })
    }
}

/// The current vertex array, read back from the GL: element buffer, and per attribute its
/// enable bit, its binding index and the buffer of that binding.
pub(super) fn read_current_vao(gl_fns: &Gl, max_attribs: u32) -> Vao {
    let mut v = Vao::new();
    for b in v.bindings.iter_mut() {
        *b = BindingBuffer::Unknown;
    }
    let mut e = 0;
    // SAFETY: single-integer queries on valid attribute indices.
    unsafe {
        (gl_fns.GetIntegerv)(gl::ELEMENT_ARRAY_BUFFER_BINDING, &mut e);
        v.element = e as u32;
        for i in 0..max_attribs {
            let (mut enabled, mut binding, mut buffer) = (0, i as i32, 0);
            (gl_fns.GetVertexAttribiv)(i, gl::VERTEX_ATTRIB_ARRAY_ENABLED, &mut enabled);
            (gl_fns.GetVertexAttribiv)(i, gl::VERTEX_ATTRIB_BINDING, &mut binding);
            (gl_fns.GetVertexAttribiv)(i, gl::VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &mut buffer);
            if enabled != 0 {
                v.enabled |= 1 << i;
            }
            let binding = (binding.max(0) as usize).min(MAX_ATTRIBS - 1);
            v.attrib_binding[i as usize] = binding as u8;
            v.bindings[binding] = BindingBuffer::Buffer(buffer as u32);
        }
    }
    v.stale = false;
    v
}
