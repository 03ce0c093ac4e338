//! The shadow compared with the GL's own bindings ([`Shadow::audit`]), for the tests that prove
//! the shadow exact and for bug reports (`Device::audit_binding_shadow`).

use crate::generated::{enums as gl, types::*, Gl};

use super::state::Shadow;
use super::target::{read_binding, Target};
use super::vao::{read_current_vao, BindingBuffer, Vao};

impl Shadow {
    /// Compares what the shadow believes with the GL's own bindings, read back with `glGet*`,
    /// and describes every place where the shadow claims more than the GL has: a buffer bound
    /// to a context target or a vertex array's element binding that the GL lacks, an enabled
    /// attribute the shadow thinks reads a buffer while the GL's reads none, a storage size
    /// larger than the GL's. (Claiming less is safe: it only refuses or re-reads.) Vertex arrays
    /// marked stale are skipped: they are read back before their next draw. The GL's vertex
    /// array binding is restored before this returns.
    pub fn audit(&self, gl_fns: &Gl) -> Vec<String> {
        let mut found = Vec::new();
        for t in Target::CONTEXT {
            let claimed = self.context[t.slot()];
            if self.unsupported & 1 << t.slot() == 0 && claimed != 0 && read_binding(gl_fns, t) != claimed {
                found.push(format!(
                    "{}: shadow has buffer {claimed}, the GL has {}",
                    t.gl_name(),
                    read_binding(gl_fns, t)
                ));
            }
        }
        let mut current = 0;
        // SAFETY: a single-integer query.
        unsafe { (gl_fns.GetIntegerv)(gl::VERTEX_ARRAY_BINDING, &mut current) };
        if current as u32 != self.current_vao {
            found.push(format!("vertex array binding: shadow has {}, the GL has {current}", self.current_vao));
        }
        for (&id, shadow) in self.vaos.iter().filter(|(_, v)| !v.stale) {
            // SAFETY: binding a vertex array the GL has (checked first) and then the one that
            // was bound.
            if (id == 0 && self.core) || (id != 0 && unsafe { (gl_fns.IsVertexArray)(id) } == 0) {
                continue;
            }
            unsafe { (gl_fns.BindVertexArray)(id) };
            let gl_state = read_current_vao(gl_fns, self.max_attribs);
            vao_audit(id, shadow, &gl_state, self.max_attribs, &mut found);
        }
        // SAFETY: as above.
        unsafe { (gl_fns.BindVertexArray)(current as u32) };
        for (&buffer, &size) in &self.sizes {
            let mut real: GLint64 = -1;
            // SAFETY: a single-integer query of a buffer that exists (checked first).
            if unsafe { (gl_fns.IsBuffer)(buffer) } != 0 {
                unsafe { (gl_fns.GetNamedBufferParameteri64v)(buffer, gl::BUFFER_SIZE, &mut real) };
            }
            if size as i64 > real.max(0) {
                found.push(format!("buffer {buffer}: shadow has {size} bytes of storage, the GL has {real}"));
            }
        }
        found
    }
}

/// [`Shadow::audit`] of one vertex array: `shadow` against `gl`, its state read back.
pub(super) fn vao_audit(id: u32, shadow: &Vao, gl: &Vao, attribs: u32, found: &mut Vec<String>) {
    if shadow.element != 0 && shadow.element != gl.element {
        found.push(format!(
            "vertex array {id}: shadow has element buffer {}, the GL has {}",
            shadow.element, gl.element
        ));
    }
    let buffer_of = |v: &Vao, i: usize| v.bindings[v.attrib_binding[i] as usize];
    for i in 0..attribs as usize {
        let gl_reads_client = gl.enabled & (1 << i) != 0 && buffer_of(gl, i) == BindingBuffer::Buffer(0);
        if !gl_reads_client {
            continue;
        }
        let shadow_enabled = shadow.enabled & (1 << i) != 0;
        if !shadow_enabled || matches!(buffer_of(shadow, i), BindingBuffer::Buffer(b) if b != 0) {
            found.push(format!(
                "vertex array {id}, attribute {i}: the GL reads a client array (enabled, no buffer); the shadow has \
                 it {} with {:?}",
                if shadow_enabled { "enabled" } else { "disabled" },
                buffer_of(shadow, i)
            ));
        }
    }
}
