//! What a deferred `glDeleteBuffers` does to the context at its place in the stream (issue 34,
//! item 5).
//!
//! A delete in a list of a frame slot runs at the end of its frame (`replay.rs`: seed 000, so
//! that no create hands the name out again while another list of the frame still means the old
//! object). The GL's delete does more than release the name: it unbinds the buffer from every
//! binding of the current context, and the program's next calls count on that. A late unbind is
//! wrong twice: it misses the calls between, and it can undo the program's later binds (Mesa
//! clears an indexed binding with `glBindBufferBase(target, i, 0)`, which clears the generic
//! binding too: `glDeleteBuffers(1, &a)` then `glBindBufferBase(GL_ATOMIC_COUNTER_BUFFER, 0, b)`
//! lost `b` at the frame's end, piglit's `arb_shader_atomic_counters@semantics`).
//!
//! So at the delete's place glcmd makes the unbinds the GL's delete makes, on the GL and in the
//! binding shadow: every generic buffer target, every indexed binding of the uniform, shader
//! storage, atomic counter and transform feedback targets (with `glBindBufferBase(target, i,
//! 0)`, as Mesa's delete does, generic binding included) and every vertex-buffer binding of the
//! current vertex array (offset and stride kept, as Mesa keeps them). Only the name's release,
//! the GL delete itself, waits for the frame's end. The bindings are read back with `glGet*`
//! (deletes are rare; the shadow does not follow indexed bindings); the GL errors pending
//! before are kept for the program (`ReplayState::raise`, in their order), and any error these
//! calls raise (an unbind the GL refuses while transform feedback is active) is dropped, so the
//! program sees none of it. Every pname asked is core in the GL 4.5 contexts glcmd serves;
//! `GL_PARAMETER_BUFFER` is asked only where the context has it.
//!
//! An immediate context's deletes run in place anyway (`replay.rs`); this is for the others.
//! Not done here: the other classes (textures on units and image units, framebuffer
//! attachments, samplers, vertex arrays, transform feedback objects) still leave their
//! bindings at the frame's end, and a bind of a deleted name between the delete and the
//! frame's end still succeeds.

use crate::generated::{enums as gl, types::*, Gl};
use crate::replay::ReplayState;
use crate::shadow::Target;

/// Generic buffer targets and their binding pnames.
const GENERIC: [(GLenum, GLenum); 14] = [
    (gl::ARRAY_BUFFER, gl::ARRAY_BUFFER_BINDING),
    (gl::ELEMENT_ARRAY_BUFFER, gl::ELEMENT_ARRAY_BUFFER_BINDING),
    (gl::COPY_READ_BUFFER, gl::COPY_READ_BUFFER_BINDING),
    (gl::COPY_WRITE_BUFFER, gl::COPY_WRITE_BUFFER_BINDING),
    (gl::PIXEL_PACK_BUFFER, gl::PIXEL_PACK_BUFFER_BINDING),
    (gl::PIXEL_UNPACK_BUFFER, gl::PIXEL_UNPACK_BUFFER_BINDING),
    (gl::DRAW_INDIRECT_BUFFER, gl::DRAW_INDIRECT_BUFFER_BINDING),
    (gl::DISPATCH_INDIRECT_BUFFER, gl::DISPATCH_INDIRECT_BUFFER_BINDING),
    (gl::QUERY_BUFFER, gl::QUERY_BUFFER_BINDING),
    (gl::TEXTURE_BUFFER, gl::TEXTURE_BUFFER_BINDING),
    (gl::UNIFORM_BUFFER, gl::UNIFORM_BUFFER_BINDING),
    (gl::SHADER_STORAGE_BUFFER, gl::SHADER_STORAGE_BUFFER_BINDING),
    (gl::ATOMIC_COUNTER_BUFFER, gl::ATOMIC_COUNTER_BUFFER_BINDING),
    (gl::TRANSFORM_FEEDBACK_BUFFER, gl::TRANSFORM_FEEDBACK_BUFFER_BINDING),
];

/// Indexed targets: (target, binding pname, limit pname).
const INDEXED: [(GLenum, GLenum, GLenum); 4] = [
    (gl::UNIFORM_BUFFER, gl::UNIFORM_BUFFER_BINDING, gl::MAX_UNIFORM_BUFFER_BINDINGS),
    (gl::SHADER_STORAGE_BUFFER, gl::SHADER_STORAGE_BUFFER_BINDING, gl::MAX_SHADER_STORAGE_BUFFER_BINDINGS),
    (gl::ATOMIC_COUNTER_BUFFER, gl::ATOMIC_COUNTER_BUFFER_BINDING, gl::MAX_ATOMIC_COUNTER_BUFFER_BINDINGS),
    (gl::TRANSFORM_FEEDBACK_BUFFER, gl::TRANSFORM_FEEDBACK_BUFFER_BINDING, gl::MAX_TRANSFORM_FEEDBACK_BUFFERS),
];

/// Unbinds `names` from every binding of the current context, as the GL's `glDeleteBuffers`
/// does, and tells the shadow (the module doc).
pub(crate) fn buffers_unbound(g: &Gl, state: &mut ReplayState, names: &[GLuint]) {
    let names: Vec<GLuint> = names.iter().copied().filter(|&n| n != 0).collect();
    if names.is_empty() {
        return;
    }
    // The program's pending errors stay the program's, in their order.
    loop {
        // SAFETY: no arguments.
        let e = unsafe { (g.GetError)() };
        if e == gl::NO_ERROR {
            break;
        }
        state.raise(e);
    }
    let int = |pname: GLenum| {
        let mut v: GLint = 0;
        // SAFETY: one value into a local.
        unsafe { (g.GetIntegerv)(pname, &mut v) };
        v
    };
    let int_i = |pname: GLenum, i: GLuint| {
        let mut v: GLint = 0;
        // SAFETY: one value into a local.
        unsafe { (g.GetIntegeri_v)(pname, i, &mut v) };
        v
    };
    for &(target, pname, limit) in &INDEXED {
        for i in 0..int(limit).clamp(0, 1024) as GLuint {
            if names.contains(&(int_i(pname, i) as GLuint)) {
                // SAFETY: unbinding an indexed binding below the context's limit.
                unsafe { (g.BindBufferBase)(target, i, 0) };
            }
        }
    }
    // GL_PARAMETER_BUFFER where the context has it (asking one that lacks it would raise an
    // error the diagnostics would pin on the program's delete).
    let parameter =
        state.shadow.supports(Target::Parameter).then_some((gl::PARAMETER_BUFFER, gl::PARAMETER_BUFFER_BINDING));
    for &(target, pname) in GENERIC.iter().chain(parameter.iter()) {
        if names.contains(&(int(pname) as GLuint)) {
            // SAFETY: unbinding a buffer target.
            unsafe { (g.BindBuffer)(target, 0) };
        }
    }
    if int(gl::VERTEX_ARRAY_BINDING) != 0 {
        for i in 0..int(gl::MAX_VERTEX_ATTRIB_BINDINGS).clamp(0, 64) as GLuint {
            if names.contains(&(int_i(gl::VERTEX_BINDING_BUFFER, i) as GLuint)) {
                let mut offset: GLint64 = 0;
                // SAFETY: one value into a local.
                unsafe { (g.GetInteger64i_v)(gl::VERTEX_BINDING_OFFSET, i, &mut offset) };
                let stride = int_i(gl::VERTEX_BINDING_STRIDE, i);
                // SAFETY: a binding below the limit of the bound vertex array, to no buffer.
                unsafe { (g.BindVertexBuffer)(i, 0, offset as GLintptr, stride) };
            }
        }
    }
    // Errors of the reads above (a pname this context lacks) are glcmd's, not the program's.
    // SAFETY: no arguments.
    while unsafe { (g.GetError)() } != gl::NO_ERROR {}
    state.shadow.buffers_unbound(&names);
}
