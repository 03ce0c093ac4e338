//! Functions gl.xml has and glcorearb.h lacks (codegen/src/aliases.rs), called the same way on
//! llvmpipe directly and through glcmd's C entry points, with the same pixels and errors:
//!
//! * `glClearColorIiEXT`/`glClearColorIuiEXT` (`GL_EXT_texture_integer`, generated from gl.xml):
//!   the clear colour of integer colour buffers, read back with `glReadPixels` in
//!   `GL_RGBA_INTEGER`; `glClearColor` on the same buffers afterwards; `GL_COLOR_CLEAR_VALUE`;
//!   `GL_RGBA_INTEGER_MODE_EXT` (gl.xml only; piglit's `gl-3.1-mixed-int-float-fbo` asks it).
//! * gl.xml aliases served with their canonical function's entry point:
//!   `glFramebufferTextureLayerEXT` (`GL_EXT_texture_array`) attaching one layer of an array
//!   texture, `glTexParameterIivEXT`/`glGetTexParameterIuivEXT` (`GL_EXT_texture_integer`) on a
//!   border colour, each also with arguments the GL refuses (the error must be the driver's).
//!
//! The direct side calls the driver's own functions of the same names (`eglGetProcAddress`) on
//! a second device's render thread (`Device::with_gl`); the glcmd side resolves every name with
//! `glcmdGetProcAddress` on an immediate thread (as `glcmd-run` does for an unmodified program).
//! What llvmpipe does with the functions is printed, not assumed.

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::{null, null_mut};

use glcmd::gl;
use glcmd::types::*;
use glcmd_capi::*;

#[link(name = "EGL")]
extern "C" {
    fn eglGetProcAddress(name: *const c_char) -> *mut c_void;
}

fn check(status: GlcmdStatus) {
    if status != GLCMD_OK {
        let mut message: *const c_char = null();
        unsafe { glcmdLastError(&mut message) };
        panic!("status {status}: {}", unsafe { CStr::from_ptr(message) }.to_string_lossy());
    }
}

/// The functions the scenario calls, resolved by name from one source.
struct Fns {
    clear_color_ii: unsafe extern "system" fn(GLint, GLint, GLint, GLint),
    clear_color_iui: unsafe extern "system" fn(GLuint, GLuint, GLuint, GLuint),
    framebuffer_texture_layer: unsafe extern "system" fn(GLenum, GLenum, GLuint, GLint, GLint),
    tex_parameter_iiv: unsafe extern "system" fn(GLenum, GLenum, *const GLint),
    get_tex_parameter_iuiv: unsafe extern "system" fn(GLenum, GLenum, *mut GLuint),
    gen_textures: unsafe extern "system" fn(GLsizei, *mut GLuint),
    bind_texture: unsafe extern "system" fn(GLenum, GLuint),
    tex_storage_3d: unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei, GLsizei),
    tex_storage_2d: unsafe extern "system" fn(GLenum, GLsizei, GLenum, GLsizei, GLsizei),
    gen_framebuffers: unsafe extern "system" fn(GLsizei, *mut GLuint),
    bind_framebuffer: unsafe extern "system" fn(GLenum, GLuint),
    framebuffer_texture_2d: unsafe extern "system" fn(GLenum, GLenum, GLenum, GLuint, GLint),
    check_framebuffer_status: unsafe extern "system" fn(GLenum) -> GLenum,
    clear: unsafe extern "system" fn(GLbitfield),
    clear_color: unsafe extern "system" fn(GLfloat, GLfloat, GLfloat, GLfloat),
    read_pixels: unsafe extern "system" fn(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, *mut c_void),
    get_integerv: unsafe extern "system" fn(GLenum, *mut GLint),
    get_booleanv: unsafe extern "system" fn(GLenum, *mut GLboolean),
    get_error: unsafe extern "system" fn() -> GLenum,
}

impl Fns {
    fn load(lookup: impl Fn(&CStr) -> *mut c_void) -> Fns {
        macro_rules! f {
            ($name:literal) => {{
                let p = lookup($name);
                assert!(!p.is_null(), "{:?} does not resolve", $name);
                // SAFETY: the GL signature of the function named.
                unsafe { std::mem::transmute_copy(&p) }
            }};
        }
        Fns {
            clear_color_ii: f!(c"glClearColorIiEXT"),
            clear_color_iui: f!(c"glClearColorIuiEXT"),
            framebuffer_texture_layer: f!(c"glFramebufferTextureLayerEXT"),
            tex_parameter_iiv: f!(c"glTexParameterIivEXT"),
            get_tex_parameter_iuiv: f!(c"glGetTexParameterIuivEXT"),
            gen_textures: f!(c"glGenTextures"),
            bind_texture: f!(c"glBindTexture"),
            tex_storage_3d: f!(c"glTexStorage3D"),
            tex_storage_2d: f!(c"glTexStorage2D"),
            gen_framebuffers: f!(c"glGenFramebuffers"),
            bind_framebuffer: f!(c"glBindFramebuffer"),
            framebuffer_texture_2d: f!(c"glFramebufferTexture2D"),
            check_framebuffer_status: f!(c"glCheckFramebufferStatus"),
            clear: f!(c"glClear"),
            clear_color: f!(c"glClearColor"),
            read_pixels: f!(c"glReadPixels"),
            get_integerv: f!(c"glGetIntegerv"),
            get_booleanv: f!(c"glGetBooleanv"),
            get_error: f!(c"glGetError"),
        }
    }
}

/// What the scenario observed, in order: a label and the values (pixels, state, errors).
type Outcome = Vec<(String, Vec<i64>)>;

const W: i32 = 4;
const H: i32 = 3;

/// An FBO with one 2D texture of `format` as colour attachment 0, bound to GL_FRAMEBUFFER.
unsafe fn integer_target(g: &Fns, format: GLenum) -> GLuint {
    unsafe {
        let (mut tex, mut fbo) = (0, 0);
        (g.gen_textures)(1, &mut tex);
        (g.bind_texture)(gl::TEXTURE_2D, tex);
        (g.tex_storage_2d)(gl::TEXTURE_2D, 1, format, W, H);
        (g.gen_framebuffers)(1, &mut fbo);
        (g.bind_framebuffer)(gl::FRAMEBUFFER, fbo);
        (g.framebuffer_texture_2d)(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, gl::TEXTURE_2D, tex, 0);
        tex
    }
}

/// Every pixel of the bound read framebuffer as `RGBA_INTEGER` of `ty` (32-bit components).
unsafe fn pixels(g: &Fns, ty: GLenum) -> Vec<i64> {
    let mut px = vec![0u32; (W * H * 4) as usize];
    unsafe { (g.read_pixels)(0, 0, W, H, gl::RGBA_INTEGER, ty, px.as_mut_ptr().cast()) };
    px.into_iter().map(|v| if ty == gl::INT { v as i32 as i64 } else { v as i64 }).collect()
}

/// The scenario, on whichever context `g`'s functions reach.
unsafe fn scenario(g: &Fns) -> Outcome {
    let mut out = Outcome::new();
    let error = |out: &mut Outcome, label: &str| {
        out.push((format!("error after {label}"), vec![unsafe { (g.get_error)() } as i64]))
    };
    unsafe {
        error(&mut out, "start");
        // Signed integer colour buffer.
        integer_target(g, gl::RGBA32I);
        out.push(("status RGBA32I".into(), vec![(g.check_framebuffer_status)(gl::FRAMEBUFFER) as i64]));
        (g.clear_color_ii)(7, -3, 1 << 20, -(1 << 30));
        error(&mut out, "glClearColorIiEXT");
        (g.clear)(gl::COLOR_BUFFER_BIT);
        error(&mut out, "glClear");
        out.push(("RGBA32I after glClearColorIiEXT".into(), pixels(g, gl::INT)));
        let mut clear_value = [0; 4];
        (g.get_integerv)(gl::COLOR_CLEAR_VALUE, clear_value.as_mut_ptr());
        out.push(("COLOR_CLEAR_VALUE".into(), clear_value.iter().map(|&v| v as i64).collect()));
        // GL_RGBA_INTEGER_MODE_EXT (gl.xml only): true with an integer draw buffer.
        let mut integer_mode = 7;
        (g.get_booleanv)(gl::RGBA_INTEGER_MODE_EXT, &mut integer_mode);
        out.push(("RGBA_INTEGER_MODE_EXT, integer buffer".into(), vec![integer_mode as i64]));
        error(&mut out, "reads");
        // Unsigned, with values only an unsigned clear colour can hold.
        integer_target(g, gl::RGBA32UI);
        (g.clear_color_iui)(1, 2, 0xFFFF_FFFF, 123_456);
        error(&mut out, "glClearColorIuiEXT");
        (g.clear)(gl::COLOR_BUFFER_BIT);
        out.push(("RGBA32UI after glClearColorIuiEXT".into(), pixels(g, gl::UNSIGNED_INT)));
        // glClearColor afterwards replaces the integer colour.
        (g.clear_color)(1.0, 0.0, 1.0, 0.0);
        (g.clear)(gl::COLOR_BUFFER_BIT);
        out.push(("RGBA32UI after glClearColor".into(), pixels(g, gl::UNSIGNED_INT)));
        error(&mut out, "glClearColor");

        integer_target(g, gl::RGBA8);
        let mut integer_mode = 7;
        (g.get_booleanv)(gl::RGBA_INTEGER_MODE_EXT, &mut integer_mode);
        out.push(("RGBA_INTEGER_MODE_EXT, RGBA8 buffer".into(), vec![integer_mode as i64]));
        error(&mut out, "glGetBooleanv(GL_RGBA_INTEGER_MODE_EXT)");

        // glFramebufferTextureLayerEXT: layer 2 of a 3-layer array, cleared, read back.
        let mut array = 0;
        (g.gen_textures)(1, &mut array);
        (g.bind_texture)(gl::TEXTURE_2D_ARRAY, array);
        (g.tex_storage_3d)(gl::TEXTURE_2D_ARRAY, 1, gl::RGBA32UI, W, H, 3);
        let mut fbo = 0;
        (g.gen_framebuffers)(1, &mut fbo);
        (g.bind_framebuffer)(gl::FRAMEBUFFER, fbo);
        (g.framebuffer_texture_layer)(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, array, 0, 2);
        error(&mut out, "glFramebufferTextureLayerEXT");
        out.push(("status array layer".into(), vec![(g.check_framebuffer_status)(gl::FRAMEBUFFER) as i64]));
        (g.clear_color_iui)(40, 41, 42, 43);
        (g.clear)(gl::COLOR_BUFFER_BIT);
        out.push(("layer 2 after clear".into(), pixels(g, gl::UNSIGNED_INT)));
        // Layer 0 was never cleared: what the GL leaves there.
        (g.framebuffer_texture_layer)(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, array, 0, 0);
        out.push(("layer 0".into(), pixels(g, gl::UNSIGNED_INT)));
        // A layer past the array and a negative one: the GL refuses them.
        (g.framebuffer_texture_layer)(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, array, 0, 3);
        error(&mut out, "glFramebufferTextureLayerEXT layer 3 of 3");
        (g.framebuffer_texture_layer)(gl::FRAMEBUFFER, gl::COLOR_ATTACHMENT0, array, 0, -1);
        error(&mut out, "glFramebufferTextureLayerEXT layer -1");

        // glTexParameterIivEXT / glGetTexParameterIuivEXT on the array's border colour.
        let border = [5, -6, 70_000, i32::MIN];
        (g.tex_parameter_iiv)(gl::TEXTURE_2D_ARRAY, gl::TEXTURE_BORDER_COLOR, border.as_ptr());
        error(&mut out, "glTexParameterIivEXT");
        let mut back = [0u32; 4];
        (g.get_tex_parameter_iuiv)(gl::TEXTURE_2D_ARRAY, gl::TEXTURE_BORDER_COLOR, back.as_mut_ptr());
        error(&mut out, "glGetTexParameterIuivEXT");
        out.push(("border colour as unsigned".into(), back.iter().map(|&v| v as i64).collect()));
        // Not a texture parameter: the GL's error, and the output left as it was.
        let mut untouched = [9u32; 4];
        (g.get_tex_parameter_iuiv)(gl::TEXTURE_2D_ARRAY, gl::COLOR_CLEAR_VALUE, untouched.as_mut_ptr());
        error(&mut out, "glGetTexParameterIuivEXT of a bad pname");
        out.push(("output of the refused query".into(), untouched.iter().map(|&v| v as i64).collect()));
        (g.tex_parameter_iiv)(gl::TEXTURE_2D_ARRAY, gl::COLOR_CLEAR_VALUE, border.as_ptr());
        error(&mut out, "glTexParameterIivEXT of a bad pname");
    }
    out
}

fn direct() -> Outcome {
    let device = glcmd::Device::headless().expect("a headless device");
    device
        .with_gl(|_| {
            // SAFETY: the driver's functions of these names, on the render thread, whose
            // context is current.
            let fns = Fns::load(|n| unsafe { eglGetProcAddress(n.as_ptr()) });
            unsafe { scenario(&fns) }
        })
        .unwrap()
}

fn through_glcmd() -> Outcome {
    let mut d = null_mut();
    check(unsafe { glcmdDeviceCreateHeadless(null(), &mut d) });
    check(glcmdThreadMakeImmediate(d));
    let fns = Fns::load(|n| unsafe { glcmdGetProcAddress(n.as_ptr()) });
    let out = unsafe { scenario(&fns) };
    check(glcmdThreadMakeImmediate(null_mut()));
    check(glcmdDeviceMakeCurrent(null_mut()));
    check(glcmdDeviceDestroy(d));
    out
}

#[test]
fn gl_xml_only_functions_and_aliases_answer_as_the_driver_does() {
    let direct = direct();
    for (label, values) in &direct {
        println!("llvmpipe, directly: {label}: {values:?}");
    }
    let glcmd = through_glcmd();
    assert_eq!(glcmd.len(), direct.len());
    for ((label, d), (_, c)) in direct.iter().zip(&glcmd) {
        assert_eq!(c, d, "{label}: through glcmd (left) and directly (right) differ");
    }
    // The scenario did something: the integer clear reached the buffer, on the driver too.
    let find = |label: &str| &direct.iter().find(|(l, _)| l == label).unwrap().1;
    assert_eq!(find("RGBA32I after glClearColorIiEXT")[..4], [7, -3, 1 << 20, -(1 << 30)]);
    assert_eq!(find("layer 2 after clear")[..4], [40, 41, 42, 43]);
    assert_eq!(find("RGBA_INTEGER_MODE_EXT, integer buffer"), &[1]);
    assert_eq!(find("RGBA_INTEGER_MODE_EXT, RGBA8 buffer"), &[0]);
}

#[test]
fn an_alias_resolves_to_its_canonical_entry_point_and_a_non_alias_to_null() {
    let resolve = |n: &str| {
        let c = CString::new(n).unwrap();
        unsafe { glcmdGetProcAddress(c.as_ptr()) }
    };
    for (alias, canonical, _) in glcmd::generated::extensions::ALIASES {
        assert_eq!(resolve(alias), resolve(canonical), "{alias} -> {canonical}");
        assert!(!resolve(alias).is_null(), "{alias}");
    }
    for generated in ["glClearColorIiEXT", "glClearColorIuiEXT"] {
        assert!(!resolve(generated).is_null());
    }
    // gl.xml-only functions glcmd leaves out (codegen/src/aliases.rs, LEFT_OUT).
    for left_out in
        ["glBindFramebufferEXT", "glBindRenderbufferEXT", "glBindBufferOffsetEXT", "glCreateProgramObjectARB"]
    {
        assert!(resolve(left_out).is_null(), "{left_out} must not resolve");
    }
}
