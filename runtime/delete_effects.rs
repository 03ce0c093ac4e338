//! What a deferred delete does to the context at its place in the stream (issue 34, item 5).
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
//! binding shadow. For buffers: every generic buffer target, every indexed binding of the uniform, shader
//! storage, atomic counter and transform feedback targets (with `glBindBufferBase(target, i,
//! 0)`, as Mesa's delete does, generic binding included) and every vertex-buffer binding of the
//! current vertex array (offset and stride kept, as Mesa keeps them). Only the name's release,
//! the GL delete itself, waits for the frame's end. The bindings are read back with `glGet*`
//! (deletes are rare; the shadow does not follow indexed bindings); the GL errors pending
//! before are kept for the program (in `raised`, in their order, as `ReplayState::raise` keeps them), and any error these
//! calls raise (an unbind the GL refuses while transform feedback is active) is dropped, so the
//! program sees none of it. Every pname asked is core in the GL 4.5 contexts glcmd serves;
//! `GL_PARAMETER_BUFFER` is asked only where the context has it.
//!
//! The other classes, as the GL's deletes (Mesa's `texobj.c`, `fbobject.c`, `arrayobj.c`,
//! `samplerobj.c`, `transformfeedback.c`, `pipelineobj.c`) unbind them from the current context:
//!
//! * a texture from every image unit (which returns to its initial state: level 0, not
//!   layered, layer 0, `GL_READ_ONLY`, `GL_R8`);
//! * a renderbuffer from `GL_RENDERBUFFER`;
//! * a framebuffer from the draw and read bindings, a vertex array, a transform feedback object
//!   and a program pipeline from their bindings (the shadow follows the vertex array).
//!
//! Every binding is read back first and changed only where it holds a deleted name. Programs and shaders need nothing at the place: the GL only flags one
//! in use, and its deletion at the frame's end does the same. An immediate context's deletes
//! run in place anyway (`replay.rs`); this is for the others.
//!
//! Not done: a texture's and a sampler's bindings on texture units (reading them needs a
//! `glActiveTexture` per unit, a call of glcmd's own in the driver's stream for every delete;
//! the render thread does not follow unit bindings yet), the attachments of the bound
//! framebuffers a deleted texture or renderbuffer leaves (detaching them puts
//! `glFramebufferTexture(..., 0, 0)` calls the program never made into the driver's stream,
//! which `tests/apitrace.rs` holds to the program's own; the GL's delete at the frame's end
//! detaches them), a bind of a deleted name between the
//! delete and the frame's end (it still succeeds: the object lives until then), and an active
//! query deleted (not ended at its place).

use crate::generated::{enums as gl, types::*, Gl};
use crate::shadow::{Shadow, Target};

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

/// Makes the unbinds a delete of `names` of `class` (gl.xml's class name) makes on the current
/// context, on the GL and in the shadow (the module doc). Classes without such effects (queries,
/// programs and shaders, syncs) are left alone.
pub(crate) fn unbound_in_place(g: &Gl, shadow: &mut Shadow, raised: &mut Vec<GLenum>, class: &str, names: &[GLuint]) {
    let names: Vec<GLuint> = names.iter().copied().filter(|&n| n != 0).collect();
    if names.is_empty() || !(class == "buffer" || follows(class)) {
        return;
    }
    // The program's pending errors stay the program's, in their order.
    loop {
        // SAFETY: no arguments.
        let e = unsafe { (g.GetError)() };
        if e == gl::NO_ERROR {
            break;
        }
        if !raised.contains(&e) {
            raised.push(e);
        }
    }
    if class == "buffer" {
        buffers_unbound(g, shadow, &names);
    } else {
        objects_unbound(g, shadow, class, &names);
    }
    // Errors of the calls made here (an unbind the GL refuses while transform feedback is
    // active) are glcmd's, not the program's.
    // SAFETY: no arguments.
    while unsafe { (g.GetError)() } != gl::NO_ERROR {}
}

fn int(g: &Gl, pname: GLenum) -> GLint {
    let mut v: GLint = 0;
    // SAFETY: one value into a local.
    unsafe { (g.GetIntegerv)(pname, &mut v) };
    v
}

/// Unbinds buffer `names` from every binding of the current context, as the GL's
/// `glDeleteBuffers` does, and tells the shadow.
fn buffers_unbound(g: &Gl, shadow: &mut Shadow, names: &[GLuint]) {
    let int = |pname: GLenum| int(g, pname);
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
    let parameter = shadow.supports(Target::Parameter).then_some((gl::PARAMETER_BUFFER, gl::PARAMETER_BUFFER_BINDING));
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
    shadow.buffers_unbound(names);
}

/// The classes whose deletes this module follows.
fn follows(class: &str) -> bool {
    matches!(
        class,
        "texture" | "framebuffer" | "renderbuffer" | "vertex array" | "transform feedback" | "program pipeline"
    )
}

/// Unbinds the `names` of `class` (one [`follows`]) from the current context, as the GL's
/// delete does.
fn objects_unbound(g: &Gl, shadow: &mut Shadow, class: &str, names: &[GLuint]) {
    let has = |n: GLint| n != 0 && names.contains(&(n as GLuint));
    if class == "texture" {
        for i in 0..int(g, gl::MAX_IMAGE_UNITS).clamp(0, 256) as GLuint {
            let mut v: GLint = 0;
            // SAFETY: one value into a local; an image unit below the limit.
            unsafe { (g.GetIntegeri_v)(gl::IMAGE_BINDING_NAME, i, &mut v) };
            if has(v) {
                // SAFETY: the initial state of an image unit below the limit.
                unsafe { (g.BindImageTexture)(i, 0, 0, 0, 0, gl::READ_ONLY, gl::R8) };
            }
        }
    }
    let binding = match class {
        "renderbuffer" => Some((gl::RENDERBUFFER_BINDING, 0)),
        "vertex array" => Some((gl::VERTEX_ARRAY_BINDING, 1)),
        "transform feedback" => Some((gl::TRANSFORM_FEEDBACK_BINDING, 2)),
        "program pipeline" => Some((gl::PROGRAM_PIPELINE_BINDING, 3)),
        _ => None,
    };
    if let Some((pname, which)) = binding {
        if has(int(g, pname)) {
            // SAFETY: binds of 0 to valid targets.
            unsafe {
                match which {
                    0 => (g.BindRenderbuffer)(gl::RENDERBUFFER, 0),
                    1 => (g.BindVertexArray)(0),
                    2 => (g.BindTransformFeedback)(gl::TRANSFORM_FEEDBACK, 0),
                    _ => (g.BindProgramPipeline)(0),
                }
            }
            if which == 1 {
                shadow.bind_vertex_array(g, 0);
            }
        }
    }
    if class == "framebuffer" {
        for (target, pname) in
            [(gl::DRAW_FRAMEBUFFER, gl::DRAW_FRAMEBUFFER_BINDING), (gl::READ_FRAMEBUFFER, gl::READ_FRAMEBUFFER_BINDING)]
        {
            if has(int(g, pname)) {
                // SAFETY: binding the default framebuffer.
                unsafe { (g.BindFramebuffer)(target, 0) };
            }
        }
    }
}
