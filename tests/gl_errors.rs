//! One test per row of `docs/errors.md`: each check glcmd makes raises the error the GL raises
//! for the same call. Where the call is safe to make directly, the test makes it on a direct
//! EGL context of the same driver (llvmpipe) and compares `glGetError`; where it is not (the
//! driver would write past its arrays: the reason for the check), it compares with the error
//! the driver raises for the nearest safe call the specification treats the same way, and says
//! so. Each test also checks that glcmd's own check refused the call (a `Skipped` report), so a
//! row cannot pass because the driver happened to see the call instead.
//!
//! Test names: `<check>_<function or case>`, as in the table's first two columns.

mod common;

use common::*;
use glcmd::{gl, CommandList, Device, ReportKind};

/// A named call to record.
type Case<'a> = (&'a str, &'a dyn Fn(&mut CommandList));

/// Records `call` alone, submits it, and returns the error it raised and whether glcmd's check
/// skipped it.
fn through_glcmd(device: &Device, call: impl FnOnce(&mut CommandList)) -> (u32, bool) {
    let reports = device.reports();
    while reports.try_recv().is_some() {}
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR, "no error is pending before the call");
    let mut list = device.command_list();
    call(&mut list);
    device.submit(list).unwrap();
    let error = device.get_error().unwrap();
    let skipped = reports.try_iter().any(|r| r.kind == ReportKind::Skipped);
    (error, skipped)
}

/// The error of `call` made directly (after clearing earlier errors).
fn direct_error(d: &Direct, call: impl FnOnce(&glcmd::Gl)) -> u32 {
    while d.error() != gl::NO_ERROR {}
    call(&d.gl);
    d.error()
}

/// glcmd skipped the call and raised what direct GL raised, which is an error.
fn assert_same(what: &str, glcmd: (u32, bool), direct: u32) {
    assert!(glcmd.1, "{what}: glcmd's check did not refuse the call");
    assert_ne!(direct, gl::NO_ERROR, "{what}: direct GL refuses the call");
    assert_eq!(glcmd.0, direct, "{what}: glcmd's error {:#x} against direct GL's {direct:#x}", glcmd.0);
}

const VS: &str =
    "#version 450 core\nout gl_PerVertex { vec4 gl_Position; };\nvoid main() { gl_Position = vec4(0.0); }\n";

// ---- per-function rows ------------------------------------------------------------------------

#[test]
fn no_such_object_transform_feedback_buffer_base_and_range_buffer_is_invalid_value() {
    let d = Direct::new();
    let mut xfb = 0;
    unsafe { (d.gl.CreateTransformFeedbacks)(1, &mut xfb) };
    let base = direct_error(&d, |g| unsafe { (g.TransformFeedbackBufferBase)(xfb, 0, 999_999) });
    let range = direct_error(&d, |g| unsafe { (g.TransformFeedbackBufferRange)(xfb, 0, 999_999, 0, 16) });
    let device = device();
    let xfb = device.create_transform_feedbacks(1).unwrap()[0];
    assert_same(
        "glTransformFeedbackBufferBase",
        through_glcmd(&device, |l| l.transform_feedback_buffer_base(xfb, 0, 999_999)),
        base,
    );
    assert_same(
        "glTransformFeedbackBufferRange",
        through_glcmd(&device, |l| l.transform_feedback_buffer_range(xfb, 0, 999_999, 0, 16)),
        range,
    );
    assert_eq!(base, gl::INVALID_VALUE);
    // The same call with a transform feedback object that does not exist: the usual error.
    let buffer = device.create_buffer().unwrap();
    let direct_buffer = unsafe {
        let mut b = 0;
        (d.gl.CreateBuffers)(1, &mut b);
        b
    };
    let xfb_error = direct_error(&d, |g| unsafe { (g.TransformFeedbackBufferBase)(999_999, 0, direct_buffer) });
    assert_same(
        "glTransformFeedbackBufferBase(xfb)",
        through_glcmd(&device, |l| l.transform_feedback_buffer_base(999_999, 0, buffer)),
        xfb_error,
    );
    assert_eq!(xfb_error, gl::INVALID_OPERATION);
}

#[test]
fn no_such_object_draw_transform_feedback_id_is_invalid_value() {
    let d = Direct::new();
    let vao = d.vao();
    unsafe { (d.gl.BindVertexArray)(vao) };
    let direct = direct_error(&d, |g| unsafe { (g.DrawTransformFeedback)(gl::POINTS, 999_999) });
    let device = device();
    let vao = device.create_vertex_arrays(1).unwrap()[0];
    let mut list = device.command_list();
    list.bind_vertex_array(vao);
    device.submit(list).unwrap();
    assert_same(
        "glDrawTransformFeedback",
        through_glcmd(&device, |l| l.draw_transform_feedback(gl::POINTS, 999_999)),
        direct,
    );
    assert_eq!(direct, gl::INVALID_VALUE);
}

#[test]
fn no_such_object_texture_view_origtexture_is_invalid_value() {
    let d = Direct::new();
    let mut view = 0;
    unsafe { (d.gl.GenTextures)(1, &mut view) };
    let direct = direct_error(&d, |g| unsafe { (g.TextureView)(view, gl::TEXTURE_2D, 999_999, gl::RGBA8, 0, 1, 0, 1) });
    let device = device();
    let view = device.gen_textures(1).unwrap()[0];
    assert_same(
        "glTextureView",
        through_glcmd(&device, |l| l.texture_view(view, gl::TEXTURE_2D, 999_999, gl::RGBA8, 0, 1, 0, 1)),
        direct,
    );
    assert_eq!(direct, gl::INVALID_VALUE);
}

/// `first + count` past 2^32 cannot be called directly (Mesa's 32-bit sum wraps and it writes
/// past its array of viewports: why glcmd checks); the GL's error for `first + count` past
/// `GL_MAX_VIEWPORTS`, which the specification gives for both, is read from the driver.
#[test]
fn wraps_viewport_arrayv_is_invalid_value() {
    let d = Direct::new();
    let max = d.integers(gl::MAX_VIEWPORTS, 1)[0] as u32;
    let v = [[0.0f32, 0.0, 1.0, 1.0]; 2];
    let direct = direct_error(&d, |g| unsafe { (g.ViewportArrayv)(max, 2, v.as_ptr().cast()) });
    let device = device();
    assert_same("glViewportArrayv", through_glcmd(&device, |l| l.viewport_arrayv(u32::MAX, &v)), direct);
    assert_eq!(direct, gl::INVALID_VALUE);
}

// ---- usual errors of each check ---------------------------------------------------------------

#[test]
fn no_such_object_texture_parameteri_is_invalid_operation() {
    let d = Direct::new();
    let direct =
        direct_error(&d, |g| unsafe { (g.TextureParameteri)(999_999, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32) });
    let device = device();
    let got = through_glcmd(&device, |l| l.texture_parameteri(999_999, gl::TEXTURE_MIN_FILTER, gl::NEAREST as i32));
    assert_same("glTextureParameteri", got, direct);
    assert_eq!(direct, gl::INVALID_OPERATION);
}

#[test]
fn no_such_object_program_uniform_program_is_invalid_value() {
    let d = Direct::new();
    let direct = direct_error(&d, |g| unsafe { (g.ProgramUniform1i)(999_999, 0, 1) });
    let device = device();
    assert_same("glProgramUniform1i", through_glcmd(&device, |l| l.program_uniform1i(999_999, 0, 1)), direct);
    assert_eq!(direct, gl::INVALID_VALUE);
}

/// Programs and shaders share a namespace: a shader's name where a program is wanted (and the
/// other way round) is `GL_INVALID_OPERATION`, a name of neither `GL_INVALID_VALUE` (GL 4.6 §7.1).
#[test]
fn other_class_attach_compile_and_active_shader_program_are_invalid_operation() {
    let d = Direct::new();
    let (program, shader, mut pipeline) =
        unsafe { ((d.gl.CreateProgram)(), (d.gl.CreateShader)(gl::VERTEX_SHADER), 0) };
    unsafe { (d.gl.CreateProgramPipelines)(1, &mut pipeline) };
    let expected = [
        direct_error(&d, |g| unsafe { (g.AttachShader)(program, program) }),
        direct_error(&d, |g| unsafe { (g.CompileShader)(program) }),
        direct_error(&d, |g| unsafe { (g.ActiveShaderProgram)(pipeline, shader) }),
        direct_error(&d, |g| unsafe { (g.ProgramUniform1i)(shader, 0, 1) }),
    ];
    let device = device();
    let program = device.create_program().unwrap();
    let shader = device.create_shader(gl::VERTEX_SHADER).unwrap();
    let pipeline = device.create_program_pipelines(1).unwrap()[0];
    let calls: [Case; 4] = [
        ("glAttachShader", &|l| l.attach_shader(program, program)),
        ("glCompileShader", &|l| l.compile_shader(program)),
        ("glActiveShaderProgram", &|l| l.active_shader_program(pipeline, shader)),
        ("glProgramUniform1i", &|l| l.program_uniform1i(shader, 0, 1)),
    ];
    for ((what, call), direct) in calls.into_iter().zip(expected) {
        assert_same(what, through_glcmd(&device, call), direct);
        assert_eq!(direct, gl::INVALID_OPERATION, "{what}");
    }
    // A query: the Err says the GL's error.
    let e = device.get_programiv(shader, gl::LINK_STATUS).unwrap_err();
    let direct = direct_error(&d, |g| unsafe {
        let mut v = 0;
        (g.GetProgramiv)(shader, gl::LINK_STATUS, &mut v);
    });
    assert_eq!(e.gl_error(), Some(direct), "{e}");
    let _ = VS;
}

#[test]
fn range_named_buffer_sub_data_negative_offset_is_invalid_value() {
    let d = Direct::new();
    let mut buffer = 0;
    unsafe {
        (d.gl.CreateBuffers)(1, &mut buffer);
        (d.gl.NamedBufferStorage)(buffer, 64, std::ptr::null(), gl::DYNAMIC_STORAGE_BIT);
    }
    let data = [0u8; 8];
    let direct = direct_error(&d, |g| unsafe { (g.NamedBufferSubData)(buffer, -8, 8, data.as_ptr().cast()) });
    let device = device();
    let buffer = device.create_buffer().unwrap();
    let mut list = device.command_list();
    list.named_buffer_storage(buffer, 64, None, gl::DYNAMIC_STORAGE_BIT);
    device.submit(list).unwrap();
    assert_same(
        "glNamedBufferSubData",
        through_glcmd(&device, |l| l.named_buffer_sub_data(buffer, -8, &data[..])),
        direct,
    );
    assert_eq!(direct, gl::INVALID_VALUE);
}

/// Mesa checks a draw's count before its vertex array: a negative count with no vertex array is
/// `GL_INVALID_VALUE`, and a mode that is no core primitive `GL_INVALID_ENUM`; then the draw
/// framebuffer (`GL_INVALID_FRAMEBUFFER_OPERATION` if incomplete, as the surfaceless default
/// framebuffer is); only then is the missing vertex array `GL_INVALID_OPERATION`.
#[test]
fn draw_argument_framebuffer_and_no_vertex_array_draw_arrays_follow_the_gls_order() {
    let d = Direct::new();
    let device = device();
    let incomplete = direct_error(&d, |g| unsafe { (g.DrawArrays)(gl::TRIANGLES, 0, 3) });
    assert_same("incomplete framebuffer", through_glcmd(&device, |l| l.draw_arrays(gl::TRIANGLES, 0, 3)), incomplete);
    assert_eq!(incomplete, gl::INVALID_FRAMEBUFFER_OPERATION);
    let fbo = d.fbo_rgba8(4, 4);
    unsafe { (d.gl.BindFramebuffer)(gl::FRAMEBUFFER, fbo) };
    let expected = [
        direct_error(&d, |g| unsafe { (g.DrawArrays)(gl::TRIANGLES, 0, -1) }),
        direct_error(&d, |g| unsafe { (g.DrawArrays)(gl::QUADS, 0, 3) }),
        direct_error(&d, |g| unsafe { (g.DrawArrays)(gl::TRIANGLES, 0, 3) }),
        direct_error(&d, |g| unsafe { (g.DrawArraysInstanced)(gl::TRIANGLES, 0, 3, -2) }),
    ];
    assert_eq!(expected, [gl::INVALID_VALUE, gl::INVALID_ENUM, gl::INVALID_OPERATION, gl::INVALID_VALUE]);
    let fbo = device_fbo_rgba8(&device, 4, 4);
    let mut list = device.command_list();
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    device.submit(list).unwrap();
    let calls: [Case; 4] = [
        ("negative count", &|l| l.draw_arrays(gl::TRIANGLES, 0, -1)),
        ("GL_QUADS", &|l| l.draw_arrays(gl::QUADS, 0, 3)),
        ("no vertex array", &|l| l.draw_arrays(gl::TRIANGLES, 0, 3)),
        ("negative instance count", &|l| l.draw_arrays_instanced(gl::TRIANGLES, 0, 3, -2)),
    ];
    for ((what, call), direct) in calls.into_iter().zip(expected) {
        assert_same(what, through_glcmd(&device, call), direct);
    }
}

#[test]
fn no_buffer_and_overrun_draw_arrays_indirect_are_invalid_operation() {
    let d = Direct::new();
    let vao = d.vao();
    let fbo = d.fbo_rgba8(4, 4);
    let mut buffer = 0;
    unsafe {
        (d.gl.BindFramebuffer)(gl::FRAMEBUFFER, fbo);
        (d.gl.BindVertexArray)(vao);
        (d.gl.CreateBuffers)(1, &mut buffer);
        (d.gl.NamedBufferStorage)(buffer, 16, std::ptr::null(), 0);
    }
    let no_buffer = direct_error(&d, |g| unsafe { (g.DrawArraysIndirect)(gl::TRIANGLES, std::ptr::null()) });
    let overrun = direct_error(&d, |g| unsafe {
        (g.BindBuffer)(gl::DRAW_INDIRECT_BUFFER, buffer);
        (g.DrawArraysIndirect)(gl::TRIANGLES, 8 as *const _);
    });
    let device = device();
    let fbo = device_fbo_rgba8(&device, 4, 4);
    let vao = device.create_vertex_arrays(1).unwrap()[0];
    let buffer = device.create_buffer().unwrap();
    let mut list = device.command_list();
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.bind_vertex_array(vao);
    list.named_buffer_storage(buffer, 16, None, 0);
    device.submit(list).unwrap();
    assert_same("no indirect buffer", through_glcmd(&device, |l| l.draw_arrays_indirect(gl::TRIANGLES, 0)), no_buffer);
    let got = through_glcmd(&device, |l| {
        l.bind_buffer(gl::DRAW_INDIRECT_BUFFER, buffer);
        l.draw_arrays_indirect(gl::TRIANGLES, 8);
    });
    assert_same("past the indirect buffer's end", got, overrun);
    assert_eq!([no_buffer, overrun], [gl::INVALID_OPERATION; 2]);
}

/// `first + count` past 2^32 of a multi-bind (Mesa's 32-bit sum wraps): compared with the
/// driver's error for `first + count` past the number of binding points, which the
/// specification gives for both.
#[test]
fn wraps_bind_buffers_base_is_invalid_operation() {
    let d = Direct::new();
    let max = d.integers(gl::MAX_UNIFORM_BUFFER_BINDINGS, 1)[0] as u32;
    let buffers = [0u32; 2];
    let direct = direct_error(&d, |g| unsafe { (g.BindBuffersBase)(gl::UNIFORM_BUFFER, max, 2, buffers.as_ptr()) });
    let device = device();
    let got = through_glcmd(&device, |l| l.bind_buffers_base(gl::UNIFORM_BUFFER, u32::MAX, 2, Some(&buffers[..])));
    assert_same("glBindBuffersBase", got, direct);
    assert_eq!(direct, gl::INVALID_OPERATION);
}

/// The sync checks: a handle that names no sync object is `GL_INVALID_VALUE` for a wait (the
/// specification's error for a value that is no sync object, GL 4.6 §4.1.1); direct GL is
/// not asked with a bogus pointer (it would dereference it).
#[test]
fn unknown_sync_client_wait_sync_is_invalid_value() {
    let device = device();
    let bogus = glcmd::SyncHandle::from_id(0xDEAD_BEEF);
    let e = device.client_wait_sync(bogus, 0, 0).unwrap_err();
    assert_eq!(e.gl_error(), Some(gl::INVALID_VALUE), "{e}");
    let mut list = device.command_list();
    list.wait_sync(bogus, 0, gl::TIMEOUT_IGNORED);
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::INVALID_VALUE);
}

#[test]
fn invalid_argument_create_queries_negative_n_is_invalid_value() {
    let d = Direct::new();
    let mut names = [7u32; 2];
    let direct = direct_error(&d, |g| unsafe { (g.CreateQueries)(gl::SAMPLES_PASSED, -1, names.as_mut_ptr()) });
    assert_eq!(names, [7, 7], "direct GL writes no name");
    let device = device();
    let e = device.create_queries(gl::SAMPLES_PASSED, -1).unwrap_err();
    assert_eq!(e.gl_error(), Some(direct), "{e}");
    assert_eq!(direct, gl::INVALID_VALUE);
}

#[test]
fn unknown_pname_get_integerv_is_invalid_enum() {
    let d = Direct::new();
    let direct = direct_error(&d, |g| unsafe {
        let mut v = [0; 16];
        (g.GetIntegerv)(0x1234, v.as_mut_ptr());
    });
    let device = device();
    let e = device.get_integerv(0x1234).unwrap_err();
    assert_eq!(e.gl_error(), Some(direct), "{e}");
    assert_eq!(direct, gl::INVALID_ENUM);
}

/// AMD_pinned_memory's target: glcmd serves no such target (the driver would keep a pointer into
/// the list), so it raises what the GL raises for the target with no buffer bound to it.
#[test]
fn pinned_memory_buffer_data_target_is_invalid_operation() {
    let d = Direct::new();
    let direct = direct_error(&d, |g| unsafe { (g.BufferData)(0x9160, 16, std::ptr::null(), gl::STATIC_DRAW) });
    let device = device();
    assert_same("glBufferData", through_glcmd(&device, |l| l.buffer_data(0x9160, 16, None, gl::STATIC_DRAW)), direct);
    assert_eq!(direct, gl::INVALID_OPERATION);
}

/// NaN in range-checked float state passes the driver's comparisons (it raises nothing and keeps
/// the NaN): where the GL would keep it (a LOD; `runtime/float_params.rs`), glcmd raises the
/// specification's `GL_INVALID_VALUE` for a value out of range (GL 4.6 §8.10: MAX_ANISOTROPY
/// below 1.0), compared with the driver's error for 0.5. (Every other NaN of a texture or
/// sampler parameter answers as the GL does: `tests/nan_parameters.rs`.)
#[test]
fn not_a_number_sampler_parameterf_lod_is_invalid_value() {
    let d = Direct::new();
    let mut sampler = 0;
    unsafe { (d.gl.CreateSamplers)(1, &mut sampler) };
    let direct = direct_error(&d, |g| unsafe { (g.SamplerParameterf)(sampler, gl::TEXTURE_MAX_ANISOTROPY, 0.5) });
    let device = device();
    let sampler = device.create_samplers(1).unwrap()[0];
    let got = through_glcmd(&device, |l| l.sampler_parameterf(sampler, gl::TEXTURE_MIN_LOD, f32::NAN));
    assert_same("glSamplerParameterf", got, direct);
    assert_eq!(direct, gl::INVALID_VALUE);
}

/// A generated, never bound buffer is valid for `glVertexArrayVertexBuffer` (it binds it, as
/// `glBindVertexBuffer` does), also after arbitrary GL code made glcmd forget what it knew.
#[test]
fn created_on_first_use_vertex_array_vertex_buffer_takes_a_generated_name() {
    let d = Direct::new();
    let (mut vao, mut buffer) = (0, 0);
    unsafe {
        (d.gl.CreateVertexArrays)(1, &mut vao);
        (d.gl.GenBuffers)(1, &mut buffer);
    }
    let direct = direct_error(&d, |g| unsafe { (g.VertexArrayVertexBuffer)(vao, 0, buffer, 0, 16) });
    let device = device();
    let vao = device.create_vertex_arrays(1).unwrap()[0];
    let buffer = device.gen_buffers(1).unwrap()[0];
    device.with_gl(|_| {}).unwrap();
    let got = through_glcmd(&device, |l| l.vertex_array_vertex_buffer(vao, 0, buffer, 0, 16));
    assert_eq!(got, (direct, false), "glcmd lets the GL bind the generated name");
}

/// A result past 1 GiB is refused before anything is allocated, with the GL's error for an
/// allocation that fails.
#[test]
fn out_of_memory_create_queries_is_out_of_memory() {
    let device = device();
    let e = device.create_queries(gl::SAMPLES_PASSED, glcmd::MAX_CREATE as i32 + 1).unwrap_err();
    assert_eq!(e.gl_error(), Some(gl::OUT_OF_MEMORY), "{e}");
    assert!(e.to_string().contains("glCreateQueries"), "{e}");
}

/// An enabled attribute that reads no buffer would make the driver read process memory: glcmd
/// skips the draw with `GL_INVALID_OPERATION` (the GL leaves it undefined, so it is not called
/// directly).
#[test]
fn client_array_draw_arrays_is_invalid_operation() {
    let device = device();
    let fbo = device_fbo_rgba8(&device, 4, 4);
    let vao = device.create_vertex_arrays(1).unwrap()[0];
    let mut list = device.command_list();
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.bind_vertex_array(vao);
    list.enable_vertex_array_attrib(vao, 0);
    device.submit(list).unwrap();
    assert_eq!(through_glcmd(&device, |l| l.draw_arrays(gl::POINTS, 0, 1)), (gl::INVALID_OPERATION, true));
}

/// Buffer 0 at a non-zero offset would make the offset a client address at the next draw: glcmd
/// skips the binding with `GL_INVALID_OPERATION`, where the GL raises nothing (a deviation kept
/// for safety, and the one row whose error is not the GL's).
#[test]
fn offset_without_buffer_bind_vertex_buffer_is_invalid_operation() {
    let d = Direct::new();
    let vao = d.vao();
    unsafe { (d.gl.BindVertexArray)(vao) };
    let direct = direct_error(&d, |g| unsafe { (g.BindVertexBuffer)(0, 0, 16, 16) });
    assert_eq!(direct, gl::NO_ERROR, "the GL takes buffer 0 at any offset");
    let device = device();
    let vao = device.create_vertex_arrays(1).unwrap()[0];
    let mut list = device.command_list();
    list.bind_vertex_array(vao);
    device.submit(list).unwrap();
    assert_eq!(through_glcmd(&device, |l| l.bind_vertex_buffer(0, 0, 16, 16)), (gl::INVALID_OPERATION, true));
}

/// Pooled creates validate as the GL does, also for a count of 0 (piglit's
/// `arb_direct_state_access@create-queries` creates 0 queries of `GL_RGBA`): the GL's
/// `GL_INVALID_ENUM`, and no name.
#[test]
fn pooled_create_of_no_names_validates_the_target() {
    let d = Direct::new();
    let mut names = [7u32; 1];
    let expected = [
        direct_error(&d, |g| unsafe { (g.CreateQueries)(gl::RGBA, 0, names.as_mut_ptr()) }),
        direct_error(&d, |g| unsafe { (g.CreateTextures)(gl::RGBA, 0, names.as_mut_ptr()) }),
        direct_error(&d, |g| unsafe { (g.CreateQueries)(gl::SAMPLES_PASSED, 0, names.as_mut_ptr()) }),
    ];
    assert_eq!(expected, [gl::INVALID_ENUM, gl::INVALID_ENUM, gl::NO_ERROR]);
    let device = device();
    // One at a time: each call's own error.
    for (i, (target, create_texture)) in
        [(gl::RGBA, false), (gl::RGBA, true), (gl::SAMPLES_PASSED, false)].into_iter().enumerate()
    {
        let names = if create_texture { device.create_textures(target, 0) } else { device.create_queries(target, 0) };
        assert!(names.unwrap().is_empty());
        assert_eq!(device.get_error().unwrap(), expected[i], "create {i}");
    }
}

/// A query the GL itself refuses (piglit's `arb_compute_shader@api_errors`: the work-group size
/// of a program that is not linked) writes no output: the `Err` is `Error::Refused`, whose
/// `gl_error()` is the GL's error, and `get_error` returns it too, as the GL's flag would.
#[test]
fn refused_query_get_programiv_returns_the_gls_error_and_no_answer() {
    let d = Direct::new();
    let program = unsafe { (d.gl.CreateProgram)() };
    let mut v = [-7; 3];
    let direct =
        direct_error(&d, |g| unsafe { (g.GetProgramiv)(program, gl::COMPUTE_WORK_GROUP_SIZE, v.as_mut_ptr()) });
    assert_eq!(v, [-7; 3], "direct GL writes nothing");
    assert_eq!(direct, gl::INVALID_OPERATION);
    let device = device();
    let program = device.create_program().unwrap();
    let e = device.get_programiv(program, gl::COMPUTE_WORK_GROUP_SIZE).unwrap_err();
    assert!(matches!(e, glcmd::Error::Refused { function: "glGetProgramiv", .. }), "{e}");
    assert_eq!(e.gl_error(), Some(direct), "{e}");
    assert_eq!(device.get_error().unwrap(), direct);
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
}

/// A pname glcmd does not list, for a function that writes one value whatever the pname
/// (glGetProgramInterfaceiv): the GL judges it, and its error (here `GL_INVALID_OPERATION`, as
/// for piglit's `getprograminterfaceiv` with pname `GL_TRUE`) is the answer, not glcmd's
/// `GL_INVALID_ENUM`.
#[test]
fn unknown_pname_of_a_one_value_query_is_the_gls_to_judge() {
    let d = Direct::new();
    let program = unsafe { (d.gl.CreateProgram)() };
    let mut v = -7;
    let direct = direct_error(&d, |g| unsafe { (g.GetProgramInterfaceiv)(program, gl::UNIFORM, gl::TRUE, &mut v) });
    assert_eq!(v, -7, "direct GL writes nothing");
    assert_ne!(direct, gl::NO_ERROR);
    let device = device();
    let program = device.create_program().unwrap();
    let e = device.get_program_interfaceiv(program, gl::UNIFORM, gl::TRUE).unwrap_err();
    assert!(matches!(e, glcmd::Error::Refused { function: "glGetProgramInterfaceiv", .. }), "{e}");
    assert_eq!(e.gl_error(), Some(direct), "{e}");
    assert_eq!(device.get_error().unwrap(), direct);
    // A pname the table lists is answered as before.
    assert_eq!(device.get_program_interfaceiv(program, gl::UNIFORM, gl::ACTIVE_RESOURCES).unwrap(), vec![0]);
}

#[test]
fn no_such_object_invalidate_buffer_data_and_sub_data_is_invalid_value() {
    let d = Direct::new();
    let data = direct_error(&d, |g| unsafe { (g.InvalidateBufferData)(999_999) });
    let sub = direct_error(&d, |g| unsafe { (g.InvalidateBufferSubData)(999_999, 0, 4) });
    let device = device();
    assert_same("glInvalidateBufferData", through_glcmd(&device, |l| l.invalidate_buffer_data(999_999)), data);
    assert_same(
        "glInvalidateBufferSubData",
        through_glcmd(&device, |l| l.invalidate_buffer_sub_data(999_999, 0, 4)),
        sub,
    );
    assert_eq!((data, sub), (gl::INVALID_VALUE, gl::INVALID_VALUE));
}

/// `glInvalidateTexSubImage` of a name that is no texture cannot be called directly (Mesa 22
/// dereferences the texture its check did not find: SIGSEGV); the specification gives it the
/// error of `glInvalidateTexImage`, which is read from the driver.
#[test]
fn no_such_object_invalidate_tex_image_and_sub_image_is_invalid_value() {
    let d = Direct::new();
    let image = [0, 999_999].map(|t| direct_error(&d, |g| unsafe { (g.InvalidateTexImage)(t, 0) }));
    let device = device();
    for (i, texture) in [0, 999_999].into_iter().enumerate() {
        let what = format!("glInvalidateTexImage({texture})");
        assert_same(&what, through_glcmd(&device, |l| l.invalidate_tex_image(texture, 0)), image[i]);
        let what = format!("glInvalidateTexSubImage({texture})");
        assert_same(
            &what,
            through_glcmd(&device, |l| l.invalidate_tex_sub_image(texture, 0, 0, 0, 0, 1, 1, 1)),
            image[i],
        );
    }
    assert_eq!(image, [gl::INVALID_VALUE; 2]);
}

/// The attach commands without a dimension raise `GL_INVALID_VALUE` for a name that is no
/// texture; `glFramebufferTexture2D` and the layer forms keep `GL_INVALID_OPERATION`.
#[test]
fn no_such_object_framebuffer_texture_without_dimension_is_invalid_value() {
    let d = Direct::new();
    let mut fb = 0;
    unsafe { (d.gl.CreateFramebuffers)(1, &mut fb) };
    unsafe { (d.gl.BindFramebuffer)(gl::FRAMEBUFFER, fb) };
    let plain =
        direct_error(&d, |g| unsafe { (g.FramebufferTexture)(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, 999_999, 0) });
    let named = direct_error(&d, |g| unsafe { (g.NamedFramebufferTexture)(fb, gl::COLOR_ATTACHMENT0, 999_999, 0) });
    let two_d = direct_error(&d, |g| unsafe {
        (g.FramebufferTexture2D)(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, 999_999, 0)
    });
    let device = device();
    let fb = device.create_framebuffers(1).unwrap()[0];
    let mut bind = device.command_list();
    bind.bind_framebuffer(gl::FRAMEBUFFER, fb);
    device.submit(bind).unwrap();
    assert_same(
        "glFramebufferTexture",
        through_glcmd(&device, |l| l.framebuffer_texture(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, 999_999, 0)),
        plain,
    );
    assert_same(
        "glNamedFramebufferTexture",
        through_glcmd(&device, |l| l.named_framebuffer_texture(fb, gl::COLOR_ATTACHMENT0, 999_999, 0)),
        named,
    );
    assert_same(
        "glFramebufferTexture2D",
        through_glcmd(&device, |l| {
            l.framebuffer_texture_2d(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, 999_999, 0)
        }),
        two_d,
    );
    assert_eq!((plain, named, two_d), (gl::INVALID_VALUE, gl::INVALID_VALUE, gl::INVALID_OPERATION));
}

#[test]
fn no_such_object_get_program_pipeline_info_log_is_invalid_value() {
    let d = Direct::new();
    let mut length = 0;
    let mut log = [0u8; 16];
    let direct = [0, 999_999].map(|p| {
        direct_error(&d, |g| unsafe { (g.GetProgramPipelineInfoLog)(p, 16, &mut length, log.as_mut_ptr().cast()) })
    });
    let device = device();
    for (i, pipeline) in [0, 999_999].into_iter().enumerate() {
        let e = device.get_program_pipeline_info_log(pipeline, 16).expect_err("no such pipeline");
        assert!(matches!(e, glcmd::Error::NoSuchObject { .. }), "{e}");
        assert_eq!(e.gl_error(), Some(direct[i]), "pipeline {pipeline}: {e}");
    }
    assert_eq!(direct, [gl::INVALID_VALUE; 2]);
}

/// `Earlier`: where glcmd refuses a call for its own safety and the GL refuses it for an earlier
/// reason (a target, a stream, an attribute index, an object name), the error is the GL's.
/// A case of a differential error test: its name, the call made directly, the call recorded.
type ErrorCase<'a> = (&'a str, &'a dyn Fn(&glcmd::Gl), &'a dyn Fn(&mut CommandList));

#[test]
fn earlier_arguments_raise_the_gls_error_before_glcmds_checks() {
    let d = Direct::new();
    let device = device();
    // No vertex array is bound on either side: the GL checks the stream first.
    let cases: [ErrorCase; 6] = [
        (
            "glDrawTransformFeedbackStream(stream 1000)",
            &|g| unsafe { (g.DrawTransformFeedbackStream)(gl::POINTS, 0, 1000) },
            &|l| l.draw_transform_feedback_stream(gl::POINTS, 0, 1000),
        ),
        (
            "glTexBufferRange(GL_TEXTURE_2D, no buffer, offset -1)",
            &|g| unsafe { (g.TexBufferRange)(gl::TEXTURE_2D, gl::R8, 999_999, -1, 4) },
            &|l| l.tex_buffer_range(gl::TEXTURE_2D, gl::R8, 999_999, -1, 4),
        ),
        (
            "glTexBufferRange(no buffer, offset -1)",
            &|g| unsafe { (g.TexBufferRange)(gl::TEXTURE_BUFFER, gl::R8, 999_999, -1, 4) },
            &|l| l.tex_buffer_range(gl::TEXTURE_BUFFER, gl::R8, 999_999, -1, 4),
        ),
        (
            "glVertexAttribLPointer(index 100000, client address)",
            &|g| unsafe { (g.VertexAttribLPointer)(100_000, 1, gl::DOUBLE, 0, 16 as *const _) },
            &|l| l.vertex_attrib_l_pointer(100_000, 1, gl::DOUBLE, 0, 16),
        ),
        (
            "glBufferSubData(GL_TEXTURE_2D, offset -1)",
            &|g| unsafe { (g.BufferSubData)(gl::TEXTURE_2D, -1, 4, [0u8; 4].as_ptr().cast()) },
            &|l| l.buffer_sub_data(gl::TEXTURE_2D, -1, &[0u8; 4]),
        ),
        (
            "glCopyBufferSubData(GL_TEXTURE_2D, offset -1)",
            &|g| unsafe { (g.CopyBufferSubData)(gl::TEXTURE_2D, gl::ARRAY_BUFFER, -1, 0, 4) },
            &|l| l.copy_buffer_sub_data(gl::TEXTURE_2D, gl::ARRAY_BUFFER, -1, 0, 4),
        ),
    ];
    let mut errors = Vec::new();
    for (what, direct_call, record) in cases {
        let direct = direct_error(&d, direct_call);
        assert_same(what, through_glcmd(&device, record), direct);
        errors.push(direct);
    }
    let (enum_, value) = (gl::INVALID_ENUM, gl::INVALID_VALUE);
    assert_eq!(errors, [value, enum_, gl::INVALID_OPERATION, value, enum_, enum_]);
}

/// `glBindBufferRange` with a range glcmd refuses (a negative offset or size, or a sum that
/// overflows) raises the error of the GL's earlier checks, in Mesa 22's order: the buffer's name
/// (one never generated: `GL_INVALID_OPERATION`), a size of 0 or less, the target, the index and
/// the alignment of the offset (`runtime/shadow/bind_ranges.rs`).
#[test]
fn earlier_bind_buffer_range_checks_come_before_glcmds_range_check() {
    let d = Direct::new();
    let device = device();
    let mut direct_buffer = 0;
    unsafe { (d.gl.CreateBuffers)(1, &mut direct_buffer) };
    let buffer = device.create_buffer().unwrap();
    let (b, db) = (buffer, direct_buffer);
    let (ubo, array) = (gl::UNIFORM_BUFFER, gl::ARRAY_BUFFER);
    let cases: [ErrorCase; 7] = [
        (
            "glBindBufferRange(never generated, offset -256)",
            &|g| unsafe { (g.BindBufferRange)(ubo, 0, 999_999, -256, 16) },
            &|l| l.bind_buffer_range(ubo, 0, 999_999, -256, 16),
        ),
        (
            "glBindBufferRange(never generated, size -1, GL_ARRAY_BUFFER)",
            &|g| unsafe { (g.BindBufferRange)(array, 0, 999_999, 0, -1) },
            &|l| l.bind_buffer_range(array, 0, 999_999, 0, -1),
        ),
        (
            "glBindBufferRange(GL_ARRAY_BUFFER, offset -256)",
            &|g| unsafe { (g.BindBufferRange)(array, 0, db, -256, 16) },
            &|l| l.bind_buffer_range(array, 0, b, -256, 16),
        ),
        (
            "glBindBufferRange(GL_ARRAY_BUFFER, size -16)",
            &|g| unsafe { (g.BindBufferRange)(array, 0, db, 0, -16) },
            &|l| l.bind_buffer_range(array, 0, b, 0, -16),
        ),
        (
            "glBindBufferRange(GL_ATOMIC_COUNTER_BUFFER, index 1000000, offset -4)",
            &|g| unsafe { (g.BindBufferRange)(gl::ATOMIC_COUNTER_BUFFER, 1_000_000, db, -4, 4) },
            &|l| l.bind_buffer_range(gl::ATOMIC_COUNTER_BUFFER, 1_000_000, b, -4, 4),
        ),
        (
            "glBindBufferRange(GL_UNIFORM_BUFFER, offset -1)",
            &|g| unsafe { (g.BindBufferRange)(ubo, 0, db, -1, 16) },
            &|l| l.bind_buffer_range(ubo, 0, b, -1, 16),
        ),
        (
            "glBindBufferRange(GL_SHADER_STORAGE_BUFFER, offset 2^63 - 1)",
            &|g| unsafe { (g.BindBufferRange)(gl::SHADER_STORAGE_BUFFER, 0, db, i64::MAX as isize, 16) },
            &|l| l.bind_buffer_range(gl::SHADER_STORAGE_BUFFER, 0, b, i64::MAX as isize, 16),
        ),
    ];
    let mut errors = Vec::new();
    for (what, direct_call, record) in cases {
        let direct = direct_error(&d, direct_call);
        assert_same(what, through_glcmd(&device, record), direct);
        errors.push(direct);
    }
    let (op, enum_, value) = (gl::INVALID_OPERATION, gl::INVALID_ENUM, gl::INVALID_VALUE);
    assert_eq!(errors, [op, op, enum_, value, value, value, value]);
    // Buffer 0 unbinds: the offset and size are ignored, so glcmd leaves the call to the GL,
    // which refuses a misaligned offset even there and takes an aligned negative one.
    for offset in [-1isize, -256] {
        let direct = direct_error(&d, |g| unsafe { (g.BindBufferRange)(ubo, 0, 0, offset, -8) });
        let got = through_glcmd(&device, |l| l.bind_buffer_range(ubo, 0, 0, offset, -8));
        assert_eq!(got, (direct, false), "glBindBufferRange(buffer 0, offset {offset})");
    }
}

/// Transform feedback active on the bound (or named) object: the GL refuses a change of its
/// buffer ranges with `GL_INVALID_OPERATION` before it looks at the range, so a range glcmd
/// refuses raises that error too (`glBindBufferRange` and `glTransformFeedbackBufferRange`).
#[test]
fn earlier_active_transform_feedback_comes_before_glcmds_range_check() {
    const VS: &str = "#version 450 core\nout float x;\nvoid main() { x = 1.0; gl_Position = vec4(0.0); }\n";
    /// Binds transform feedback object `xfb`, makes it active with a program writing `x` into
    /// a buffer of its own, and returns the object.
    fn begin(g: &glcmd::Gl) -> u32 {
        let src = std::ffi::CString::new(VS).unwrap();
        let varying = c"x";
        unsafe {
            let (program, shader) = ((g.CreateProgram)(), (g.CreateShader)(gl::VERTEX_SHADER));
            (g.ShaderSource)(shader, 1, &src.as_ptr(), std::ptr::null());
            (g.CompileShader)(shader);
            (g.AttachShader)(program, shader);
            (g.TransformFeedbackVaryings)(program, 1, &varying.as_ptr(), gl::INTERLEAVED_ATTRIBS);
            (g.LinkProgram)(program);
            (g.UseProgram)(program);
            let (mut xfb, mut buffer) = (0, 0);
            (g.CreateTransformFeedbacks)(1, &mut xfb);
            (g.CreateBuffers)(1, &mut buffer);
            (g.NamedBufferStorage)(buffer, 64, std::ptr::null(), 0);
            (g.BindTransformFeedback)(gl::TRANSFORM_FEEDBACK, xfb);
            (g.BindBufferBase)(gl::TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
            (g.BeginTransformFeedback)(gl::POINTS);
            xfb
        }
    }
    let d = Direct::new();
    let direct_xfb = begin(&d.gl);
    let mut direct_buffer = 0;
    unsafe { (d.gl.CreateBuffers)(1, &mut direct_buffer) };
    assert_eq!(d.error(), gl::NO_ERROR, "transform feedback began directly");
    let device = device();
    let xfb = device.with_gl(begin).unwrap();
    let buffer = device.create_buffer().unwrap();
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR, "transform feedback began through glcmd");
    let (b, db, tf) = (buffer, direct_buffer, gl::TRANSFORM_FEEDBACK_BUFFER);
    let cases: [ErrorCase; 3] = [
        (
            "glBindBufferRange(GL_TRANSFORM_FEEDBACK_BUFFER, active, offset -4)",
            &|g| unsafe { (g.BindBufferRange)(tf, 1, db, -4, 16) },
            &|l| l.bind_buffer_range(tf, 1, b, -4, 16),
        ),
        (
            "glTransformFeedbackBufferRange(active, offset -4)",
            &|g| unsafe { (g.TransformFeedbackBufferRange)(direct_xfb, 1, db, -4, 16) },
            &|l| l.transform_feedback_buffer_range(xfb, 1, b, -4, 16),
        ),
        (
            "glTransformFeedbackBufferRange(active, offset 4, size 2^63 - 4)",
            &|g| unsafe { (g.TransformFeedbackBufferRange)(direct_xfb, 1, db, 4, i64::MAX as isize - 3) },
            &|l| l.transform_feedback_buffer_range(xfb, 1, b, 4, i64::MAX as isize - 3),
        ),
    ];
    for (what, direct_call, record) in cases {
        let direct = direct_error(&d, direct_call);
        assert_same(what, through_glcmd(&device, record), direct);
        assert_eq!(direct, gl::INVALID_OPERATION, "{what}");
    }
}

/// `glBindBuffersRange` refuses a bad entry alone (GL 4.6 §7.9): an entry whose offset or size
/// glcmd must not pass (negative) reaches the GL as one it refuses in the same place with the
/// same `GL_INVALID_VALUE`, and the other entries are bound, as directly (bindings, starts and
/// sizes compared). An entry whose offset + size overflows, which the GL would bind, is refused
/// the same way, as `glBindBufferRange` refuses that range.
#[test]
fn range_bind_buffers_range_refuses_a_bad_entry_alone() {
    let d = Direct::new();
    let device = device();
    let (mut db, b) = (0, device.create_buffer().unwrap());
    unsafe {
        (d.gl.CreateBuffers)(1, &mut db);
        (d.gl.NamedBufferStorage)(db, 1024, std::ptr::null(), 0);
    }
    let mut list = device.command_list();
    list.named_buffer_storage(b, 1024, None, 0);
    device.submit(list).unwrap();
    let (ubo, ssbo) = (gl::UNIFORM_BUFFER, gl::SHADER_STORAGE_BUFFER);
    let (offsets, sizes) = ([0isize, -256, 256, 0], [16isize, 16, 16, -16]);
    let direct = direct_error(&d, |g| unsafe {
        (g.BindBuffersRange)(ubo, 0, 4, [db; 4].as_ptr(), offsets.as_ptr(), sizes.as_ptr())
    });
    let got = through_glcmd(&device, |l| l.bind_buffers_range(ubo, 0, 4, Some(&[b; 4]), &offsets, &sizes));
    assert_eq!(got, (direct, false), "glBindBuffersRange: the GL's error, the call made");
    assert_eq!(direct, gl::INVALID_VALUE);
    let role = |v: i64, buffer: u32| if v == buffer as i64 && v != 0 { "b".to_string() } else { v.to_string() };
    let read = |get: &dyn Fn(u32, u32) -> i64, buffer: u32| -> Vec<String> {
        (0..4)
            .flat_map(|i| {
                [
                    role(get(gl::UNIFORM_BUFFER_BINDING, i), buffer),
                    get(gl::UNIFORM_BUFFER_START, i).to_string(),
                    get(gl::UNIFORM_BUFFER_SIZE, i).to_string(),
                ]
            })
            .collect()
    };
    let direct_get = |pname: u32, i: u32| {
        let mut v = -1i64;
        unsafe { (d.gl.GetInteger64i_v)(pname, i, &mut v) };
        v
    };
    let glcmd_get = |pname: u32, i: u32| device.get_integer64i_v(pname, i).unwrap()[0];
    let direct_bindings = read(&direct_get, db);
    assert_eq!(read(&glcmd_get, b), direct_bindings);
    assert_eq!(direct_bindings[..6], ["b", "0", "16", "0", "0", "0"], "{direct_bindings:?}");
    assert_eq!(direct_bindings[6..9], ["b", "256", "16"], "{direct_bindings:?}");
    // An overflowing entry: glcmd's refusal of that range (as glBindBufferRange's), the other
    // entry bound.
    let huge = isize::MAX - 8;
    let single = through_glcmd(&device, |l| l.bind_buffer_range(ssbo, 1, b, 256, huge));
    assert_eq!(single, (gl::INVALID_VALUE, true), "glBindBufferRange's refusal of the range");
    let got = through_glcmd(&device, |l| l.bind_buffers_range(ssbo, 0, 2, Some(&[b; 2]), &[0, 256], &[16, huge]));
    assert_eq!(got, (gl::INVALID_VALUE, false), "glBindBuffersRange: the entry refused alone");
    let bound: Vec<i64> =
        (0..2).map(|i| device.get_integer64i_v(gl::SHADER_STORAGE_BUFFER_BINDING, i).unwrap()[0]).collect();
    assert_eq!(bound, [b as i64, 0]);
}
