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
//! `samplerobj.c`, `queryobj.c`, `transformfeedback.c`, `pipelineobj.c`) unbind them from the
//! current context:
//!
//! * a texture from the attachment points of the bound draw and read framebuffers (as if
//!   `glFramebufferTexture(target, point, 0, 0)` had been called there, GL 4.6 §9.2.8), from
//!   every target of every texture unit (the unit's default texture is bound again; the bindings
//!   are read with `glGetIntegeri_v`, and the unbind makes the unit active with
//!   `glActiveTexture` and the program's active unit active again), and from every image unit
//!   (which returns to its initial state: level 0, not layered, layer 0, `GL_READ_ONLY`,
//!   `GL_R8`);
//! * a renderbuffer from the attachment points of the bound framebuffers (as if
//!   `glFramebufferRenderbuffer(target, point, GL_RENDERBUFFER, 0)` had been called) and from
//!   `GL_RENDERBUFFER`;
//! * a sampler from every texture unit;
//! * an active query is ended (GL 4.6 §4.2.3), on whichever target and index it is active, so
//!   the program's next `glBeginQuery` on that target succeeds as it does directly;
//! * a framebuffer from the draw and read bindings, a vertex array, a transform feedback object
//!   and a program pipeline from their bindings (the shadow follows the vertex array).
//!
//! Every binding is read back first and changed only where it holds a deleted name, so a delete
//! of names bound nowhere adds no call to the driver's stream but queries. The widest read is a
//! texture delete's: 11 targets of every unit (`GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS`, 192 on
//! llvmpipe), about 40 µs there in a debug build, once per delete call whatever its names. Where one is bound,
//! the unbinds are calls the program did not make: `tests/apitrace.rs` names them beside the
//! program's own calls (its texture delete detaches from the bound framebuffer). Programs and
//! shaders need nothing at the place: the GL only flags one in use, and its deletion at the
//! frame's end does the same. An immediate context's deletes run in place anyway
//! (`replay.rs`); this is for the others.
//!
//! Not done: a bind of a deleted name between the delete and the frame's end still succeeds
//! (the object lives until then), where the GL refuses it.

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
/// context, on the GL and in the shadow (the module doc). Classes without such effects (programs
/// and shaders, syncs) are left alone.
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
        crate::vocab::check::record_error(raised, e);
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
        "texture"
            | "framebuffer"
            | "renderbuffer"
            | "vertex array"
            | "transform feedback"
            | "program pipeline"
            | "sampler"
            | "query"
    )
}

/// Unbinds the `names` of `class` (one [`follows`]) from the current context, as the GL's
/// delete does.
fn objects_unbound(g: &Gl, shadow: &mut Shadow, class: &str, names: &[GLuint]) {
    let has = |n: GLint| n != 0 && names.contains(&(n as GLuint));
    match class {
        "texture" => {
            attachments_detached(g, gl::TEXTURE, names);
            texture_units_unbound(g, names);
            for i in 0..int(g, gl::MAX_IMAGE_UNITS).clamp(0, 256) as GLuint {
                if has(int_i(g, gl::IMAGE_BINDING_NAME, i)) {
                    // SAFETY: the initial state of an image unit below the limit.
                    unsafe { (g.BindImageTexture)(i, 0, 0, 0, 0, gl::READ_ONLY, gl::R8) };
                }
            }
        }
        "renderbuffer" => {
            attachments_detached(g, gl::RENDERBUFFER, names);
            if has(int(g, gl::RENDERBUFFER_BINDING)) {
                // SAFETY: a bind of 0 to a valid target.
                unsafe { (g.BindRenderbuffer)(gl::RENDERBUFFER, 0) };
            }
        }
        "sampler" => {
            for unit in 0..int(g, gl::MAX_COMBINED_TEXTURE_IMAGE_UNITS).clamp(0, 1024) as GLuint {
                if has(int_i(g, gl::SAMPLER_BINDING, unit)) {
                    // SAFETY: no sampler on a unit below the limit.
                    unsafe { (g.BindSampler)(unit, 0) };
                }
            }
        }
        "query" => queries_ended(g, shadow, names),
        "vertex array" if has(int(g, gl::VERTEX_ARRAY_BINDING)) => {
            // SAFETY: a bind of 0.
            unsafe { (g.BindVertexArray)(0) };
            shadow.bind_vertex_array(g, 0);
        }
        "transform feedback" if has(int(g, gl::TRANSFORM_FEEDBACK_BINDING)) => {
            // SAFETY: a bind of 0 to a valid target.
            unsafe { (g.BindTransformFeedback)(gl::TRANSFORM_FEEDBACK, 0) };
        }
        "program pipeline" if has(int(g, gl::PROGRAM_PIPELINE_BINDING)) => {
            // SAFETY: a bind of 0.
            unsafe { (g.BindProgramPipeline)(0) };
        }
        "framebuffer" => {
            for (target, pname) in BOUND_FRAMEBUFFERS {
                if has(int(g, pname)) {
                    // SAFETY: binding the default framebuffer.
                    unsafe { (g.BindFramebuffer)(target, 0) };
                }
            }
        }
        _ => {}
    }
}

fn int_i(g: &Gl, pname: GLenum, i: GLuint) -> GLint {
    let mut v: GLint = 0;
    // SAFETY: one value into a local.
    unsafe { (g.GetIntegeri_v)(pname, i, &mut v) };
    v
}

/// The framebuffer targets and their binding pnames.
const BOUND_FRAMEBUFFERS: [(GLenum, GLenum); 2] =
    [(gl::DRAW_FRAMEBUFFER, gl::DRAW_FRAMEBUFFER_BINDING), (gl::READ_FRAMEBUFFER, gl::READ_FRAMEBUFFER_BINDING)];

/// Detaches the textures or renderbuffers `names` (`kind`: `GL_TEXTURE` or `GL_RENDERBUFFER`)
/// from every attachment point of the bound draw framebuffer, and of the bound read framebuffer
/// where it is another one, as if `glFramebufferTexture` or `glFramebufferRenderbuffer` had
/// been called with 0 there (GL 4.6 §9.2.8; Mesa's `_mesa_detach_renderbuffer`). Other
/// framebuffers keep them (the GL keeps such an image alive); the default framebuffer has none.
fn attachments_detached(g: &Gl, kind: GLenum, names: &[GLuint]) {
    let draw = int(g, gl::DRAW_FRAMEBUFFER_BINDING);
    let read = int(g, gl::READ_FRAMEBUFFER_BINDING);
    let colors = int(g, gl::MAX_COLOR_ATTACHMENTS).clamp(0, 64) as GLenum;
    let points = (0..colors).map(|i| gl::COLOR_ATTACHMENT0 + i).chain([gl::DEPTH_ATTACHMENT, gl::STENCIL_ATTACHMENT]);
    let points: Vec<GLenum> = points.collect();
    for (target, bound) in [(gl::DRAW_FRAMEBUFFER, draw), (gl::READ_FRAMEBUFFER, read)] {
        if bound == 0 || (target == gl::READ_FRAMEBUFFER && read == draw) {
            continue;
        }
        for &point in &points {
            let attached = |pname: GLenum| {
                let mut v: GLint = 0;
                // SAFETY: one value into a local, of an attachment point of a framebuffer object
                // (the name only after its type says it has one: no error either way).
                unsafe { (g.GetFramebufferAttachmentParameteriv)(target, point, pname, &mut v) };
                v
            };
            if attached(gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) as GLenum != kind {
                continue;
            }
            let name = attached(gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME) as GLuint;
            if !names.contains(&name) {
                continue;
            }
            // SAFETY: detaching an attachment point of the bound framebuffer object.
            unsafe {
                if kind == gl::TEXTURE {
                    (g.FramebufferTexture)(target, point, 0, 0);
                } else {
                    (g.FramebufferRenderbuffer)(target, point, gl::RENDERBUFFER, 0);
                }
            }
        }
    }
}

/// The texture binding of each texture target (a texture has one target, and is bound on a
/// unit through it).
const TEXTURE_TARGETS: [(GLenum, GLenum); 11] = [
    (gl::TEXTURE_1D, gl::TEXTURE_BINDING_1D),
    (gl::TEXTURE_2D, gl::TEXTURE_BINDING_2D),
    (gl::TEXTURE_3D, gl::TEXTURE_BINDING_3D),
    (gl::TEXTURE_1D_ARRAY, gl::TEXTURE_BINDING_1D_ARRAY),
    (gl::TEXTURE_2D_ARRAY, gl::TEXTURE_BINDING_2D_ARRAY),
    (gl::TEXTURE_RECTANGLE, gl::TEXTURE_BINDING_RECTANGLE),
    (gl::TEXTURE_CUBE_MAP, gl::TEXTURE_BINDING_CUBE_MAP),
    (gl::TEXTURE_CUBE_MAP_ARRAY, gl::TEXTURE_BINDING_CUBE_MAP_ARRAY),
    (gl::TEXTURE_BUFFER, gl::TEXTURE_BINDING_BUFFER),
    (gl::TEXTURE_2D_MULTISAMPLE, gl::TEXTURE_BINDING_2D_MULTISAMPLE),
    (gl::TEXTURE_2D_MULTISAMPLE_ARRAY, gl::TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY),
];

/// Unbinds the textures `names` from every target of every texture unit: the unit's default
/// texture of that target is bound again (Mesa's `unbind_texobj_from_texunits`). The bindings
/// are read with `glGetIntegeri_v` (GL 4.5, ARB_direct_state_access); an unbind needs the unit
/// active, and the active unit is the program's again afterwards.
fn texture_units_unbound(g: &Gl, names: &[GLuint]) {
    let units = int(g, gl::MAX_COMBINED_TEXTURE_IMAGE_UNITS).clamp(0, 1024) as GLuint;
    let mut unbinds = Vec::new();
    for unit in 0..units {
        for (target, pname) in TEXTURE_TARGETS {
            let bound = int_i(g, pname, unit) as GLuint;
            if bound != 0 && names.contains(&bound) {
                unbinds.push((unit, target));
            }
        }
    }
    if unbinds.is_empty() {
        return;
    }
    let active = int(g, gl::ACTIVE_TEXTURE) as GLenum;
    for (unit, target) in unbinds {
        // SAFETY: a unit below the limit made active; its default texture bound to a target.
        unsafe {
            (g.ActiveTexture)(gl::TEXTURE0 + unit);
            (g.BindTexture)(target, 0);
        }
    }
    // SAFETY: the unit the program had active.
    unsafe { (g.ActiveTexture)(active) };
}

/// Ends every active query among `names`, on whichever target and index it is active (GL 4.6
/// §4.2.3: a deleted active query is ended first; Mesa's `_mesa_DeleteQueries`), so the target
/// is free for the program's next `glBeginQuery` at once. Only the targets the context has are
/// asked (`Shadow::statistics_queries`, `overflow_queries`).
fn queries_ended(g: &Gl, shadow: &Shadow, names: &[GLuint]) {
    let streams = int(g, gl::MAX_VERTEX_STREAMS).clamp(1, 64) as GLuint;
    let mut targets: Vec<(GLenum, GLuint)> = Vec::new();
    let plain = [gl::SAMPLES_PASSED, gl::ANY_SAMPLES_PASSED, gl::ANY_SAMPLES_PASSED_CONSERVATIVE, gl::TIME_ELAPSED];
    targets.extend(plain.map(|t| (t, 1)));
    targets.extend([(gl::PRIMITIVES_GENERATED, streams), (gl::TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, streams)]);
    if shadow.statistics_queries {
        targets.extend(STATISTICS_QUERIES.map(|t| (t, 1)));
    }
    if shadow.overflow_queries {
        targets.extend([(gl::TRANSFORM_FEEDBACK_OVERFLOW, 1), (gl::TRANSFORM_FEEDBACK_STREAM_OVERFLOW, streams)]);
    }
    for (target, indices) in targets {
        for index in 0..indices {
            let mut current: GLint = 0;
            // SAFETY: one value into a local; a target the context has, at an index below its
            // limit.
            unsafe { (g.GetQueryIndexediv)(target, index, gl::CURRENT_QUERY, &mut current) };
            if current != 0 && names.contains(&(current as GLuint)) {
                // SAFETY: ends the query active on that target and index.
                unsafe { (g.EndQueryIndexed)(target, index) };
            }
        }
    }
}

/// ARB_pipeline_statistics_query's targets.
const STATISTICS_QUERIES: [GLenum; 11] = [
    gl::VERTICES_SUBMITTED,
    gl::PRIMITIVES_SUBMITTED,
    gl::VERTEX_SHADER_INVOCATIONS,
    gl::TESS_CONTROL_SHADER_PATCHES,
    gl::TESS_EVALUATION_SHADER_INVOCATIONS,
    gl::GEOMETRY_SHADER_INVOCATIONS,
    gl::GEOMETRY_SHADER_PRIMITIVES_EMITTED,
    gl::FRAGMENT_SHADER_INVOCATIONS,
    gl::COMPUTE_SHADER_INVOCATIONS,
    gl::CLIPPING_INPUT_PRIMITIVES,
    gl::CLIPPING_OUTPUT_PRIMITIVES,
];
