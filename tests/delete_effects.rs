//! A deferred delete has its effects on the context at its place (issue 34, item 5;
//! `runtime/delete_effects.rs`): the same calls made directly on the GL (in a `with_gl` closure)
//! and recorded into a list of a frame slot, then the bindings the delete touches read back and
//! compared, with the errors: every buffer binding; every texture unit's targets and sampler,
//! the bound framebuffers' attachments and the renderbuffer binding; the active queries. The
//! unit, attachment and query tests read them twice: between two slots of the frame (the
//! delete's place, before the frame's end, where the GL delete itself runs), and after the
//! program's later calls. Names differ between the runs, so bindings are compared by role
//! (`a`, the deleted buffer; `b`, the one bound after it; ...).

use glcmd::types::{GLenum, GLint, GLuint};
use glcmd::{gl, Device, Gl};

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
const INDEXED: [(&str, GLenum); 5] = [
    ("uniform", gl::UNIFORM_BUFFER_BINDING),
    ("storage", gl::SHADER_STORAGE_BUFFER_BINDING),
    ("atomic", gl::ATOMIC_COUNTER_BUFFER_BINDING),
    ("xfb", gl::TRANSFORM_FEEDBACK_BUFFER_BINDING),
    ("vertex_buffer", gl::VERTEX_BINDING_BUFFER),
];

/// The program's calls, on a list or directly: `a` bound everywhere, deleted, then `b` bound to
/// an indexed target (which sets the generic one too) and allocated through it.
macro_rules! sequence {
    ($g:expr, $call:ident, $a:expr, $b:expr) => {{
        let (a, b) = ($a, $b);
        for (target, _) in GENERIC {
            $call!($g, bind_buffer, BindBuffer, target, a);
        }
        $call!($g, bind_buffer_base, BindBufferBase, gl::UNIFORM_BUFFER, 1, a);
        $call!($g, bind_buffer_base, BindBufferBase, gl::SHADER_STORAGE_BUFFER, 2, a);
        $call!($g, bind_buffer_base, BindBufferBase, gl::ATOMIC_COUNTER_BUFFER, 1, a);
        $call!($g, bind_buffer_base, BindBufferBase, gl::ATOMIC_COUNTER_BUFFER, 3, a);
        $call!($g, bind_buffer_base, BindBufferBase, gl::TRANSFORM_FEEDBACK_BUFFER, 0, a);
        $call!($g, bind_vertex_buffer, BindVertexBuffer, 1, a, 4, 16);
        $call!($g, bind_buffer, BindBuffer, gl::ARRAY_BUFFER, b);
    }};
}

fn bindings(g: &Gl, a: GLuint, b: GLuint) -> Vec<String> {
    let role = |v: GLint| match v as GLuint {
        0 => "0".to_string(),
        n if n == a => "a".to_string(),
        n if n == b => "b".to_string(),
        n => format!("other {n}"),
    };
    let mut out = Vec::new();
    for (target, pname) in GENERIC {
        let mut v = -1;
        // SAFETY: one value into a local.
        unsafe { (g.GetIntegerv)(pname, &mut v) };
        out.push(format!("{target:#x}={}", role(v)));
    }
    for (name, pname) in INDEXED {
        for i in 0..4 {
            let mut v = -1;
            // SAFETY: one value into a local.
            unsafe { (g.GetIntegeri_v)(pname, i, &mut v) };
            out.push(format!("{name}[{i}]={}", role(v)));
        }
    }
    // SAFETY: no arguments.
    out.push(format!("error={:#x}", unsafe { (g.GetError)() }));
    out
}

#[test]
fn a_deferred_buffer_delete_unbinds_at_its_place() {
    let device = Device::headless().unwrap();
    let vao = device.create_vertex_array().unwrap();
    // Through glcmd: a list of a frame slot (its delete waits for the frame's end).
    let (a, b) = (device.create_buffer().unwrap(), device.create_buffer().unwrap());
    let mut list = device.command_list();
    list.bind_vertex_array(vao);
    macro_rules! on_list {
        ($l:expr, $m:ident, $f:ident, $($x:expr),*) => { $l.$m($($x),*) };
    }
    sequence!(list, on_list, a, b);
    list.buffer_data(gl::ARRAY_BUFFER, 64, None, gl::STATIC_DRAW);
    list.delete_buffers(&[a]);
    list.bind_buffer_base(gl::ATOMIC_COUNTER_BUFFER, 0, b);
    list.buffer_data(gl::ATOMIC_COUNTER_BUFFER, 4, None, gl::STATIC_DRAW);
    list.bind_buffer_base(gl::UNIFORM_BUFFER, 0, b);
    let frame = device.begin_frame(1).unwrap();
    frame.submit(0, list).unwrap();
    device.finish().unwrap();
    let through = device.with_gl(move |g| bindings(g, a, b)).unwrap();

    // Directly, on the same context, with fresh names.
    let direct = device
        .with_gl(move |g| {
            macro_rules! on_gl {
                ($g:expr, $m:ident, $f:ident, $($x:expr),*) => {
                    // SAFETY: binds of names the GL made, to valid targets.
                    unsafe { ($g.$f)($($x),*) }
                };
            }
            let mut n = [0u32; 2];
            // SAFETY: two names into an array of two; the calls below take values only.
            unsafe {
                (g.GenBuffers)(2, n.as_mut_ptr());
                (g.BindVertexArray)(vao);
            }
            let (a, b) = (n[0], n[1]);
            sequence!(g, on_gl, a, b);
            // SAFETY: allocations with no data; a delete of one name from a local.
            unsafe {
                (g.BufferData)(gl::ARRAY_BUFFER, 64, std::ptr::null(), gl::STATIC_DRAW);
                (g.DeleteBuffers)(1, &a);
                (g.BindBufferBase)(gl::ATOMIC_COUNTER_BUFFER, 0, b);
                (g.BufferData)(gl::ATOMIC_COUNTER_BUFFER, 4, std::ptr::null(), gl::STATIC_DRAW);
                (g.BindBufferBase)(gl::UNIFORM_BUFFER, 0, b);
            }
            bindings(g, a, b)
        })
        .unwrap();
    assert_eq!(through, direct);
    for expected in ["atomic[0]=b", "atomic[1]=0", "uniform[1]=0", "storage[2]=0", "vertex_buffer[1]=0", "error=0x0"] {
        assert!(through.iter().any(|l| l == expected), "no `{expected}` in {through:?}");
    }
    let atomic_generic = format!("{:#x}=b", gl::ATOMIC_COUNTER_BUFFER);
    assert!(through.contains(&atomic_generic), "{through:?}");
    assert!(device.audit_binding_shadow().unwrap().is_empty());
}

/// The program's calls for the other classes: each object bound, deleted, then a call that acts
/// on whatever is bound now (directly: the default object, or nothing, so an error; with a late
/// unbind: the deleted object). The names: (texture, renderbuffer, framebuffer, vertex array,
/// transform feedback, buffer).
macro_rules! objects_sequence {
    ($g:expr, $call:ident, $n:expr) => {{
        let (t, rb, fb, vao, xfb, _) = $n;
        $call!($g, active_texture, ActiveTexture, gl::TEXTURE3);
        $call!($g, bind_texture, BindTexture, gl::TEXTURE_2D, t);
        $call!($g, tex_storage_2d, TexStorage2D, gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4);
        $call!($g, bind_renderbuffer, BindRenderbuffer, gl::RENDERBUFFER, rb);
        $call!($g, renderbuffer_storage, RenderbufferStorage, gl::RENDERBUFFER, gl::DEPTH_COMPONENT24, 4, 4);
        $call!($g, bind_framebuffer, BindFramebuffer, gl::FRAMEBUFFER, fb);
        $call!(
            $g,
            framebuffer_texture_2d,
            FramebufferTexture2D,
            gl::FRAMEBUFFER,
            gl::COLOR_ATTACHMENT0,
            gl::TEXTURE_2D,
            t,
            0
        );
        $call!(
            $g,
            framebuffer_renderbuffer,
            FramebufferRenderbuffer,
            gl::FRAMEBUFFER,
            gl::DEPTH_ATTACHMENT,
            gl::RENDERBUFFER,
            rb
        );
        $call!($g, bind_vertex_array, BindVertexArray, vao);
        $call!($g, bind_transform_feedback, BindTransformFeedback, gl::TRANSFORM_FEEDBACK, xfb);
    }};
}

/// After the deletes: calls whose object is whatever is bound now.
macro_rules! after_deletes {
    ($g:expr, $call:ident, $buf:expr) => {{
        // No renderbuffer bound: GL_INVALID_OPERATION directly.
        $call!($g, renderbuffer_storage, RenderbufferStorage, gl::RENDERBUFFER, gl::DEPTH_COMPONENT24, 8, 8);
        // The default transform feedback object's binding 0.
        $call!($g, bind_buffer_base, BindBufferBase, gl::TRANSFORM_FEEDBACK_BUFFER, 0, $buf);
        // Framebuffer 0 (the headless context has none: incomplete) and vertex array 0.
        $call!($g, bind_vertex_array, BindVertexArray, 0);
        $call!($g, active_texture, ActiveTexture, gl::TEXTURE0);
    }};
}

/// The state after: the texture of unit 3 and the filter of the texture bound there, the
/// bindings, the default transform feedback object's buffer, and every error raised (in order,
/// one per code).
fn object_state(g: &Gl, buf: GLuint, errors: Vec<GLenum>) -> Vec<String> {
    let int = |pname: GLenum| {
        let mut v = -1;
        // SAFETY: one value into a local.
        unsafe { (g.GetIntegerv)(pname, &mut v) };
        v
    };
    let mut out = vec![format!("errors={errors:x?}")];
    // SAFETY: value queries into locals; unit 3 made active and back.
    unsafe {
        (g.ActiveTexture)(gl::TEXTURE3);
        let mut filter = -1;
        (g.GetTexParameteriv)(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, &mut filter);
        out.push(format!("unit3_texture={} filter_of_texture_0={filter:#x}", int(gl::TEXTURE_BINDING_2D)));
        (g.ActiveTexture)(gl::TEXTURE0);
        let mut xfb_buffer = -1;
        (g.GetIntegeri_v)(gl::TRANSFORM_FEEDBACK_BUFFER_BINDING, 0, &mut xfb_buffer);
        out.push(format!("default_xfb_buffer_is_buf={}", xfb_buffer as GLuint == buf));
    }
    for (name, pname) in [
        ("renderbuffer", gl::RENDERBUFFER_BINDING),
        ("framebuffer", gl::DRAW_FRAMEBUFFER_BINDING),
        ("vertex_array", gl::VERTEX_ARRAY_BINDING),
        ("xfb", gl::TRANSFORM_FEEDBACK_BINDING),
    ] {
        out.push(format!("{name}={}", int(pname)));
    }
    out
}

fn drain(g: &Gl) -> Vec<GLenum> {
    // SAFETY: no arguments.
    std::iter::from_fn(|| Some(unsafe { (g.GetError)() }).filter(|&e| e != gl::NO_ERROR)).take(16).collect()
}

#[test]
fn deferred_deletes_of_every_class_unbind_at_their_place() {
    let device = Device::headless().unwrap();
    // Through glcmd: a list of a frame slot.
    let names = (
        device.gen_texture().unwrap(),
        device.gen_renderbuffer().unwrap(),
        device.gen_framebuffer().unwrap(),
        device.gen_vertex_array().unwrap(),
        device.gen_transform_feedback().unwrap(),
        device.create_buffer().unwrap(),
    );
    let buf = names.5;
    let mut list = device.command_list();
    macro_rules! on_list {
        ($l:expr, $m:ident, $f:ident, $($x:expr),*) => { $l.$m($($x),*) };
    }
    objects_sequence!(list, on_list, names);
    list.delete_textures(&[names.0]);
    list.delete_renderbuffers(&[names.1]);
    list.delete_framebuffers(&[names.2]);
    list.delete_vertex_arrays(&[names.3]);
    list.delete_transform_feedbacks(&[names.4]);
    after_deletes!(list, on_list, buf);
    let frame = device.begin_frame(1).unwrap();
    frame.submit(0, list).unwrap();
    let mut errors = Vec::new();
    loop {
        match device.get_error().unwrap() {
            gl::NO_ERROR => break,
            e => errors.push(e),
        }
    }
    let through = device.with_gl(move |g| object_state(g, buf, errors)).unwrap();
    // Directly, on a fresh context of its own.
    let direct_device = Device::headless().unwrap();
    let direct = direct_device
        .with_gl(|g| {
            macro_rules! on_gl {
                ($g:expr, $m:ident, $f:ident, $($x:expr),*) => {
                    // SAFETY: calls with values only, on names the GL made.
                    unsafe { ($g.$f)($($x),*) }
                };
            }
            let mut n = [0u32; 6];
            // SAFETY: one name each into the array.
            unsafe {
                (g.GenTextures)(1, &mut n[0]);
                (g.GenRenderbuffers)(1, &mut n[1]);
                (g.GenFramebuffers)(1, &mut n[2]);
                (g.GenVertexArrays)(1, &mut n[3]);
                (g.GenTransformFeedbacks)(1, &mut n[4]);
                (g.CreateBuffers)(1, &mut n[5]);
            }
            let names = (n[0], n[1], n[2], n[3], n[4], n[5]);
            objects_sequence!(g, on_gl, names);
            // SAFETY: deletes of one name each, from the array.
            unsafe {
                (g.DeleteTextures)(1, &n[0]);
                (g.DeleteRenderbuffers)(1, &n[1]);
                (g.DeleteFramebuffers)(1, &n[2]);
                (g.DeleteVertexArrays)(1, &n[3]);
                (g.DeleteTransformFeedbacks)(1, &n[4]);
            }
            after_deletes!(g, on_gl, n[5]);
            let errors = drain(g);
            object_state(g, n[5], errors)
        })
        .unwrap();
    assert_eq!(through, direct);
    assert!(through.contains(&"default_xfb_buffer_is_buf=true".to_string()), "{through:?}");
    assert_eq!(through[0], "errors=[502]", "{through:?}");
    assert!(device.audit_binding_shadow().unwrap().is_empty());
}

/// The texture bindings of a unit, by target.
const TEXTURE_BINDINGS: [(GLenum, &str); 11] = [
    (gl::TEXTURE_BINDING_1D, "1d"),
    (gl::TEXTURE_BINDING_2D, "2d"),
    (gl::TEXTURE_BINDING_3D, "3d"),
    (gl::TEXTURE_BINDING_1D_ARRAY, "1d_array"),
    (gl::TEXTURE_BINDING_2D_ARRAY, "2d_array"),
    (gl::TEXTURE_BINDING_RECTANGLE, "rectangle"),
    (gl::TEXTURE_BINDING_CUBE_MAP, "cube"),
    (gl::TEXTURE_BINDING_CUBE_MAP_ARRAY, "cube_array"),
    (gl::TEXTURE_BINDING_BUFFER, "buffer"),
    (gl::TEXTURE_BINDING_2D_MULTISAMPLE, "2d_ms"),
    (gl::TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY, "2d_ms_array"),
];

/// The names of the unit test, by role: (2D texture `t`, cube texture `c`, 2D texture `keep`
/// (never deleted), 2D texture `t2` (bound after), renderbuffer `rb`, draw framebuffer, read
/// framebuffer, sampler `s`, sampler `s2` (never deleted)).
type UnitNames = (GLuint, GLuint, GLuint, GLuint, GLuint, GLuint, GLuint, GLuint, GLuint);

/// The role of `v`, a name of `class` (names of different classes may be equal).
fn role_of(n: &UnitNames, class: GLenum, v: GLint) -> String {
    let roles = match class {
        gl::TEXTURE => vec![(n.0, "t"), (n.1, "c"), (n.2, "keep"), (n.3, "t2")],
        gl::RENDERBUFFER => vec![(n.4, "rb")],
        _ => vec![(n.7, "s"), (n.8, "s2")],
    };
    match roles.iter().find(|(name, _)| *name == v as GLuint && v != 0) {
        Some((_, role)) => role.to_string(),
        None if v == 0 => "0".to_string(),
        None => format!("other {v}"),
    }
}

/// The program's calls before the deletes: `t` on units 0, 5 and 31 and attached to both bound
/// framebuffers, `c` on units 5 and 1, `keep` beside them, `s` on units 0 and 9, `s2` on unit 4,
/// `rb` bound and attached to both framebuffers; unit 2 active at the deletes.
macro_rules! units_sequence {
    ($g:expr, $call:ident, $n:expr) => {{
        let (t, c, keep, _t2, rb, dfb, rfb, s, s2): UnitNames = $n;
        $call!($g, bind_framebuffer, BindFramebuffer, gl::DRAW_FRAMEBUFFER, dfb);
        $call!($g, bind_framebuffer, BindFramebuffer, gl::READ_FRAMEBUFFER, rfb);
        $call!($g, active_texture, ActiveTexture, gl::TEXTURE0);
        $call!($g, bind_texture, BindTexture, gl::TEXTURE_2D, t);
        $call!($g, tex_storage_2d, TexStorage2D, gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4);
        $call!($g, active_texture, ActiveTexture, gl::TEXTURE5);
        $call!($g, bind_texture, BindTexture, gl::TEXTURE_2D, t);
        $call!($g, bind_texture, BindTexture, gl::TEXTURE_CUBE_MAP, c);
        $call!($g, tex_storage_2d, TexStorage2D, gl::TEXTURE_CUBE_MAP, 1, gl::RGBA8, 4, 4);
        $call!($g, active_texture, ActiveTexture, gl::TEXTURE1);
        $call!($g, bind_texture, BindTexture, gl::TEXTURE_2D, keep);
        $call!($g, tex_storage_2d, TexStorage2D, gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4);
        $call!($g, bind_texture, BindTexture, gl::TEXTURE_CUBE_MAP, c);
        $call!($g, active_texture, ActiveTexture, gl::TEXTURE31);
        $call!($g, bind_texture, BindTexture, gl::TEXTURE_2D, t);
        $call!($g, bind_sampler, BindSampler, 0, s);
        $call!($g, bind_sampler, BindSampler, 9, s);
        $call!($g, bind_sampler, BindSampler, 4, s2);
        $call!($g, bind_renderbuffer, BindRenderbuffer, gl::RENDERBUFFER, rb);
        $call!($g, renderbuffer_storage, RenderbufferStorage, gl::RENDERBUFFER, gl::RGBA8, 4, 4);
        let (draw, read) = (gl::DRAW_FRAMEBUFFER, gl::READ_FRAMEBUFFER);
        $call!($g, framebuffer_texture_2d, FramebufferTexture2D, draw, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, t, 0);
        $call!($g, framebuffer_texture_2d, FramebufferTexture2D, draw, gl::COLOR_ATTACHMENT1, gl::TEXTURE_2D, keep, 0);
        $call!($g, framebuffer_texture_2d, FramebufferTexture2D, read, gl::COLOR_ATTACHMENT3, gl::TEXTURE_2D, t, 0);
        $call!(
            $g,
            framebuffer_renderbuffer,
            FramebufferRenderbuffer,
            draw,
            gl::COLOR_ATTACHMENT2,
            gl::RENDERBUFFER,
            rb
        );
        $call!(
            $g,
            framebuffer_renderbuffer,
            FramebufferRenderbuffer,
            read,
            gl::COLOR_ATTACHMENT0,
            gl::RENDERBUFFER,
            rb
        );
        $call!($g, active_texture, ActiveTexture, gl::TEXTURE2);
    }};
}

/// After the deletes: calls that act on whatever is bound now (directly: the default textures
/// of units 0 and 5; with a late unbind: the deleted textures), and new binds.
macro_rules! units_after {
    ($g:expr, $call:ident, $n:expr) => {{
        let (_, _, _, t2, ..): UnitNames = $n;
        $call!($g, active_texture, ActiveTexture, gl::TEXTURE0);
        $call!($g, tex_parameteri, TexParameteri, gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32);
        $call!($g, active_texture, ActiveTexture, gl::TEXTURE5);
        $call!($g, tex_parameteri, TexParameteri, gl::TEXTURE_CUBE_MAP, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32);
        $call!($g, bind_texture, BindTexture, gl::TEXTURE_2D, t2);
        $call!($g, tex_storage_2d, TexStorage2D, gl::TEXTURE_2D, 1, gl::RGBA8, 4, 4);
        let draw = gl::DRAW_FRAMEBUFFER;
        $call!($g, framebuffer_texture_2d, FramebufferTexture2D, draw, gl::COLOR_ATTACHMENT3, gl::TEXTURE_2D, t2, 0);
        $call!($g, active_texture, ActiveTexture, gl::TEXTURE2);
    }};
}

/// Every binding the deletes touch: the active unit, every target and the sampler of units
/// 0..=9 and 31, the attachments of both bound framebuffers, the renderbuffer binding, and the
/// filters of the default textures of units 0 and 5.
fn unit_state(g: &Gl, n: &UnitNames) -> Vec<String> {
    let int = |pname: GLenum| {
        let mut v = -1;
        // SAFETY: one value into a local.
        unsafe { (g.GetIntegerv)(pname, &mut v) };
        v
    };
    let int_i = |pname: GLenum, i: GLuint| {
        let mut v = -1;
        // SAFETY: one value into a local, of a unit below the limit.
        unsafe { (g.GetIntegeri_v)(pname, i, &mut v) };
        v
    };
    let mut out = vec![format!("active={:#x}", int(gl::ACTIVE_TEXTURE))];
    for unit in (0..=9).chain([31]) {
        for (pname, target) in TEXTURE_BINDINGS {
            let v = int_i(pname, unit);
            if v != 0 {
                out.push(format!("unit{unit}.{target}={}", role_of(n, gl::TEXTURE, v)));
            }
        }
        out.push(format!("unit{unit}.sampler={}", role_of(n, gl::SAMPLER, int_i(gl::SAMPLER_BINDING, unit))));
    }
    for (target, which) in [(gl::DRAW_FRAMEBUFFER, "draw"), (gl::READ_FRAMEBUFFER, "read")] {
        for i in 0..4 {
            let (mut kind, mut name) = (-1, -1);
            // SAFETY: values into locals, of an attachment point of a bound framebuffer object.
            unsafe {
                let point = gl::COLOR_ATTACHMENT0 + i;
                (g.GetFramebufferAttachmentParameteriv)(
                    target,
                    point,
                    gl::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
                    &mut kind,
                );
                if kind != gl::NONE as GLint {
                    (g.GetFramebufferAttachmentParameteriv)(
                        target,
                        point,
                        gl::FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
                        &mut name,
                    );
                }
            }
            out.push(format!("{which}.color{i}={kind:#x} {}", role_of(n, kind as GLenum, name.max(0))));
        }
    }
    out.push(format!("renderbuffer={}", role_of(n, gl::RENDERBUFFER, int(gl::RENDERBUFFER_BINDING))));
    let active = int(gl::ACTIVE_TEXTURE) as GLenum;
    // SAFETY: units below the limit made active, the program's made active again; value queries
    // into locals.
    unsafe {
        for (unit, target, pname) in
            [(0, gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER), (5, gl::TEXTURE_CUBE_MAP, gl::TEXTURE_MAG_FILTER)]
        {
            (g.ActiveTexture)(gl::TEXTURE0 + unit);
            let mut filter = -1;
            (g.GetTexParameteriv)(target, pname, &mut filter);
            out.push(format!("unit{unit}.{target:#x}.filter={filter:#x}"));
        }
        (g.ActiveTexture)(active);
    }
    out
}

/// Deletes of textures bound on texture units and attached to the bound framebuffers, of a
/// sampler bound on units and of a renderbuffer bound and attached, in a list of a frame slot:
/// right after the delete's place (before the frame's end, when the GL delete runs) and after
/// later calls, every binding equals the direct run's, and so do the errors.
#[test]
fn deferred_texture_sampler_and_renderbuffer_deletes_unbind_units_and_attachments_at_their_place() {
    let device = Device::headless().unwrap();
    let (draw, read) = (device.gen_framebuffer().unwrap(), device.gen_framebuffer().unwrap());
    let n: UnitNames = (
        device.gen_texture().unwrap(),
        device.gen_texture().unwrap(),
        device.gen_texture().unwrap(),
        device.gen_texture().unwrap(),
        device.gen_renderbuffer().unwrap(),
        draw,
        read,
        device.gen_sampler().unwrap(),
        device.gen_sampler().unwrap(),
    );
    macro_rules! on_list {
        ($l:expr, $m:ident, $f:ident, $($x:expr),*) => { $l.$m($($x),*) };
    }
    let frame = device.begin_frame(2).unwrap();
    let mut list = device.command_list();
    units_sequence!(list, on_list, n);
    list.delete_textures(&[n.0, n.1]);
    list.delete_samplers(&[n.7]);
    list.delete_renderbuffers(&[n.4]);
    frame.submit(0, list).unwrap();
    // Between the slots: the deletes' place, before the frame's end.
    let at_place = device.with_gl(move |g| unit_state(g, &n)).unwrap();
    let mut list = device.command_list();
    units_after!(list, on_list, n);
    frame.submit(1, list).unwrap();
    let mut errors = Vec::new();
    loop {
        match device.get_error().unwrap() {
            gl::NO_ERROR => break,
            e => errors.push(e),
        }
    }
    let mut through = device.with_gl(move |g| unit_state(g, &n)).unwrap();
    through.push(format!("errors={errors:x?}"));

    let direct_device = Device::headless().unwrap();
    let (direct_at_place, direct) = direct_device
        .with_gl(|g| {
            macro_rules! on_gl {
                ($g:expr, $m:ident, $f:ident, $($x:expr),*) => {
                    // SAFETY: calls with values only, on names the GL made.
                    unsafe { ($g.$f)($($x),*) }
                };
            }
            let mut x = [0u32; 9];
            // SAFETY: names into the array, each call within it.
            unsafe {
                (g.GenTextures)(4, x.as_mut_ptr());
                (g.GenRenderbuffers)(1, &mut x[4]);
                (g.GenFramebuffers)(2, x[5..].as_mut_ptr());
                (g.GenSamplers)(2, x[7..].as_mut_ptr());
            }
            let n: UnitNames = (x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8]);
            units_sequence!(g, on_gl, n);
            // SAFETY: deletes of names from the array.
            unsafe {
                (g.DeleteTextures)(2, x.as_ptr());
                (g.DeleteSamplers)(1, &x[7]);
                (g.DeleteRenderbuffers)(1, &x[4]);
            }
            let at_place = unit_state(g, &n);
            units_after!(g, on_gl, n);
            let errors = drain(g);
            let mut after = unit_state(g, &n);
            after.push(format!("errors={errors:x?}"));
            (at_place, after)
        })
        .unwrap();
    assert_eq!(at_place, direct_at_place);
    assert_eq!(through, direct);
    // Nothing holds `t` or `c` any more; what was beside them is kept.
    assert!(!at_place.iter().any(|l| l.ends_with("=t") || l.ends_with("=c")), "{at_place:?}");
    for expected in [
        "active=0x84c2",
        "unit0.sampler=0",
        "unit9.sampler=0",
        "unit4.sampler=s2",
        "unit1.2d=keep",
        "draw.color0=0x0 0",
        "draw.color1=0x1702 keep",
        "draw.color2=0x0 0",
        "read.color0=0x0 0",
        "read.color3=0x0 0",
        "renderbuffer=0",
    ] {
        assert!(at_place.iter().any(|l| l == expected), "no `{expected}` in {at_place:?}");
    }
    assert!(through.iter().any(|l| l == "unit5.2d=t2"), "{through:?}");
    assert!(through.iter().any(|l| l == "errors=[]"), "{through:?}");
    assert!(device.audit_binding_shadow().unwrap().is_empty());
}

/// Names of the query test: `q1` (samples passed) and `q2` (primitives generated, stream 1),
/// deleted while active; `q3` (time elapsed), active and kept; `q4` begun after the deletes.
macro_rules! queries_sequence {
    ($g:expr, $call:ident, $q:expr) => {{
        let (q1, q2, q3, _q4): (GLuint, GLuint, GLuint, GLuint) = $q;
        $call!($g, begin_query, BeginQuery, gl::SAMPLES_PASSED, q1);
        $call!($g, begin_query_indexed, BeginQueryIndexed, gl::PRIMITIVES_GENERATED, 1, q2);
        $call!($g, begin_query, BeginQuery, gl::TIME_ELAPSED, q3);
    }};
}

/// After the deletes: a new samples-passed query (directly the target is free: no error), and
/// the ends.
macro_rules! queries_after {
    ($g:expr, $call:ident, $q:expr) => {{
        let (_, _, _, q4): (GLuint, GLuint, GLuint, GLuint) = $q;
        $call!($g, begin_query, BeginQuery, gl::SAMPLES_PASSED, q4);
        $call!($g, end_query, EndQuery, gl::SAMPLES_PASSED);
        $call!($g, end_query, EndQuery, gl::TIME_ELAPSED);
    }};
}

/// The active query of each target the test uses, by role.
fn query_state(g: &Gl, q: (GLuint, GLuint, GLuint, GLuint)) -> Vec<String> {
    let role = |v: GLint| match v as GLuint {
        0 => "0".to_string(),
        n if n == q.0 => "q1".to_string(),
        n if n == q.1 => "q2".to_string(),
        n if n == q.2 => "q3".to_string(),
        n if n == q.3 => "q4".to_string(),
        n => format!("other {n}"),
    };
    let mut out = Vec::new();
    for (target, index) in [(gl::SAMPLES_PASSED, 0), (gl::PRIMITIVES_GENERATED, 0), (gl::PRIMITIVES_GENERATED, 1)]
        .into_iter()
        .chain([(gl::TIME_ELAPSED, 0)])
    {
        let mut v = -1;
        // SAFETY: one value into a local, of a target and index the context has.
        unsafe { (g.GetQueryIndexediv)(target, index, gl::CURRENT_QUERY, &mut v) };
        out.push(format!("{target:#x}[{index}]={}", role(v)));
    }
    out
}

/// `glDeleteQueries` of active queries in a list of a frame slot ends them at its place (GL 4.6
/// §4.2.3), so a query begun after on the same target (and stream) succeeds, as directly; an
/// active query not deleted stays active.
#[test]
fn a_deferred_delete_of_active_queries_ends_them_at_its_place() {
    let device = Device::headless().unwrap();
    let q = (
        device.gen_query().unwrap(),
        device.gen_query().unwrap(),
        device.gen_query().unwrap(),
        device.gen_query().unwrap(),
    );
    macro_rules! on_list {
        ($l:expr, $m:ident, $f:ident, $($x:expr),*) => { $l.$m($($x),*) };
    }
    let frame = device.begin_frame(2).unwrap();
    let mut list = device.command_list();
    queries_sequence!(list, on_list, q);
    list.delete_queries(&[q.0, q.1]);
    frame.submit(0, list).unwrap();
    let at_place = device.with_gl(move |g| query_state(g, q)).unwrap();
    let mut list = device.command_list();
    queries_after!(list, on_list, q);
    frame.submit(1, list).unwrap();
    let mut errors = Vec::new();
    loop {
        match device.get_error().unwrap() {
            gl::NO_ERROR => break,
            e => errors.push(e),
        }
    }
    let mut through = device.with_gl(move |g| query_state(g, q)).unwrap();
    through.push(format!("errors={errors:x?}"));

    let direct_device = Device::headless().unwrap();
    let (direct_at_place, direct) = direct_device
        .with_gl(|g| {
            macro_rules! on_gl {
                ($g:expr, $m:ident, $f:ident, $($x:expr),*) => {
                    // SAFETY: calls with values only, on names the GL made.
                    unsafe { ($g.$f)($($x),*) }
                };
            }
            let mut x = [0u32; 4];
            // SAFETY: four names into an array of four.
            unsafe { (g.GenQueries)(4, x.as_mut_ptr()) };
            let q = (x[0], x[1], x[2], x[3]);
            queries_sequence!(g, on_gl, q);
            // SAFETY: a delete of two names from the array.
            unsafe { (g.DeleteQueries)(2, x.as_ptr()) };
            let at_place = query_state(g, q);
            queries_after!(g, on_gl, q);
            let errors = drain(g);
            let mut after = query_state(g, q);
            after.push(format!("errors={errors:x?}"));
            (at_place, after)
        })
        .unwrap();
    assert_eq!(at_place, direct_at_place);
    assert_eq!(through, direct);
    let expected_at_place = [
        format!("{:#x}[0]=0", gl::SAMPLES_PASSED),
        format!("{:#x}[1]=0", gl::PRIMITIVES_GENERATED),
        format!("{:#x}[0]=q3", gl::TIME_ELAPSED),
    ];
    for e in &expected_at_place {
        assert!(at_place.contains(e), "no `{e}` in {at_place:?}");
    }
    assert_eq!(through.last().unwrap(), "errors=[]", "{through:?}");
}
