//! A deferred `glDeleteBuffers` has its effects on the context at its place (issue 34, item 5;
//! `runtime/delete_effects.rs`): the same calls made directly on the GL (in a `with_gl` closure)
//! and recorded into a list of a frame slot, then every buffer binding of the context read back
//! and compared, with the errors. Names differ between the two runs, so bindings are compared by
//! role (`a`, the deleted buffer; `b`, the one bound after it).

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

/// The state after: the texture of unit 3 (texture units are not followed yet: the texture is
/// not unbound there before the frame's end, `delete_effects.rs`), the bindings, the default transform feedback
/// object's buffer, and every error raised (in order, one per code).
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
