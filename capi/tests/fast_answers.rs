//! The entry points' fast answers (`capi/src/fast_answers.rs`), against a direct context.
//!
//! Program interface lookups (`glGetUniformLocation`, `glGetAttribLocation`,
//! `glGetUniformBlockIndex`, and the cached `glGetProgramiv(GL_LINK_STATUS)`), whose answers a thread's copy of the interface cache gives before
//! the generic path runs: every
//! answer and every error is the GL's, asked twice (the second answer comes from the copy), across
//! relinks that move, add and drop names, a failed link, a deleted program, a program of the same
//! name on a second device, and a link recorded and not yet replayed. Differential: the same
//! calls on a direct context (llvmpipe gives the same locations for the same sources).
//!
//! `glGetIntegerv` of every pname the recorded state answers and `glIsEnabled` of its caps, after
//! setters the GL accepts, clamps and refuses: every byte of the output (a sentinel past what
//! the GL writes) and every error, on an immediate thread (answered here) and on a thread with
//! a deferred list (the generic path).

#[path = "../../tests/common/mod.rs"]
mod common;

use std::ffi::{c_char, CStr, CString};
use std::ptr::{null, null_mut};

use glcmd::gl;
use glcmd::types::*;
use glcmd_capi::generated::TABLE;
use glcmd_capi::*;

fn check(status: GlcmdStatus) {
    if status != GLCMD_OK {
        let mut message: *const c_char = null();
        unsafe { glcmdLastError(&mut message) };
        panic!("{}", unsafe { CStr::from_ptr(message) }.to_string_lossy());
    }
}

/// (call, answer, error) of each lookup asked after a step.
type Answers = Vec<(String, i64, GLenum)>;
/// Each step, with the answers after it.
type Steps = Vec<(String, Answers)>;

/// The functions the test calls, from glcmd's C table or a direct context's.
struct Fns {
    create_program: unsafe extern "system" fn() -> GLuint,
    create_shader: unsafe extern "system" fn(GLenum) -> GLuint,
    shader_source: unsafe extern "system" fn(GLuint, GLsizei, *const *const GLchar, *const GLint),
    compile_shader: unsafe extern "system" fn(GLuint),
    attach_shader: unsafe extern "system" fn(GLuint, GLuint),
    detach_shader: unsafe extern "system" fn(GLuint, GLuint),
    link_program: unsafe extern "system" fn(GLuint),
    delete_program: unsafe extern "system" fn(GLuint),
    uniform_location: unsafe extern "system" fn(GLuint, *const GLchar) -> GLint,
    attrib_location: unsafe extern "system" fn(GLuint, *const GLchar) -> GLint,
    block_index: unsafe extern "system" fn(GLuint, *const GLchar) -> GLuint,
    get_programiv: unsafe extern "system" fn(GLuint, GLenum, *mut GLint),
    get_error: unsafe extern "system" fn() -> GLenum,
}

macro_rules! fns {
    ($t:expr) => {
        Fns {
            create_program: $t.CreateProgram,
            create_shader: $t.CreateShader,
            shader_source: $t.ShaderSource,
            compile_shader: $t.CompileShader,
            attach_shader: $t.AttachShader,
            detach_shader: $t.DetachShader,
            link_program: $t.LinkProgram,
            delete_program: $t.DeleteProgram,
            uniform_location: $t.GetUniformLocation,
            attrib_location: $t.GetAttribLocation,
            block_index: $t.GetUniformBlockIndex,
            get_programiv: $t.GetProgramiv,
            get_error: $t.GetError,
        }
    };
}

const VS: &str = "#version 450 core
in vec4 pos;
in vec4 extra;
void main() { gl_Position = pos + extra; }";

/// A fragment shader that uses a `vec4` uniform per name and a uniform block `Block`.
fn fs(uniforms: &[&str]) -> String {
    let decls: String = uniforms.iter().map(|u| format!("uniform vec4 {u};\n")).collect();
    let sum: String = uniforms.iter().map(|u| format!(" + {u}")).collect();
    format!("#version 450 core\n{decls}layout(std140) uniform Block {{ vec4 k; }};\nout vec4 o;\nvoid main() {{ o = k{sum}; }}\n")
}

const BROKEN: &str = "#version 450 core\nvoid main() { not glsl; }\n";
const NAMES: [&str; 8] = ["a", "b", "c", "d", "missing", "pos", "extra", "Block"];

impl Fns {
    unsafe fn shader(&self, kind: GLenum, src: &str) -> GLuint {
        let s = (self.create_shader)(kind);
        let c = CString::new(src).unwrap();
        let ptr = c.as_ptr();
        (self.shader_source)(s, 1, &ptr, null());
        (self.compile_shader)(s);
        s
    }

    /// Links `program` from the vertex shader and a fragment shader of `fs`, replacing the
    /// shaders it had (`attached`).
    unsafe fn link(&self, program: GLuint, attached: &mut Vec<GLuint>, fs: &str) {
        for s in attached.drain(..) {
            (self.detach_shader)(program, s);
        }
        for (kind, src) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, fs)] {
            let s = self.shader(kind, src);
            (self.attach_shader)(program, s);
            attached.push(s);
        }
        (self.link_program)(program);
    }

    /// Every name's uniform location, attribute location and block index, asked twice, each
    /// with the error it raised: what the test compares.
    unsafe fn ask(&self, program: GLuint) -> Answers {
        let mut answers = Vec::new();
        // The cached link status too (a program deleted or relinked is not answered for).
        let mut status = -7777;
        (self.get_programiv)(program, gl::LINK_STATUS, &mut status);
        answers.push(("link status".to_string(), status as i64, (self.get_error)()));
        for round in 0..2 {
            for name in NAMES {
                let c = CString::new(name).unwrap();
                let asked: [(&str, i64); 3] = [
                    ("uniform", (self.uniform_location)(program, c.as_ptr()) as i64),
                    ("attrib", (self.attrib_location)(program, c.as_ptr()) as i64),
                    ("block", (self.block_index)(program, c.as_ptr()) as i64),
                ];
                for (what, v) in asked {
                    answers.push((format!("{what} {name} (round {round})"), v, (self.get_error)()));
                }
            }
        }
        answers
    }

    /// The steps, each with the answers after it, and the program asked last.
    unsafe fn run(&self, after_link: impl Fn()) -> (Steps, GLuint) {
        let mut steps = Vec::new();
        let (p, q) = ((self.create_program)(), (self.create_program)());
        let (mut p_shaders, mut q_shaders) = (Vec::new(), Vec::new());
        self.link(p, &mut p_shaders, &fs(&["a", "b"]));
        after_link();
        steps.push(("linked with a, b".to_string(), self.ask(p)));
        // Asked right after the relink is recorded: the copy must not answer for the old link.
        self.link(p, &mut p_shaders, &fs(&["c", "a"]));
        steps.push(("relinked with c, a".to_string(), self.ask(p)));
        self.link(q, &mut q_shaders, &fs(&["d"]));
        after_link();
        steps.push(("q linked with d".to_string(), self.ask(q)));
        steps.push(("p again".to_string(), self.ask(p)));
        self.link(p, &mut p_shaders, BROKEN);
        steps.push(("p's link failed".to_string(), self.ask(p)));
        // Asked (so the thread's copy holds q's answers), then deleted and asked at once.
        steps.push(("q again".to_string(), self.ask(q)));
        (self.delete_program)(q);
        steps.push(("q deleted".to_string(), self.ask(q)));
        self.link(p, &mut p_shaders, &fs(&["b"]));
        steps.push(("p relinked with b".to_string(), self.ask(p)));
        (steps, p)
    }
}

fn compare(direct: &Steps, through: &Steps) {
    assert_eq!(direct.len(), through.len());
    for ((step, d), (_, t)) in direct.iter().zip(through) {
        for (d, t) in d.iter().zip(t) {
            assert_eq!(d, t, "after {step}: (call, answer, error) directly, then through glcmd");
        }
    }
}

#[test]
fn lookups_through_the_entry_points_are_the_gls_across_relinks_deletes_and_devices() {
    let direct = common::Direct::new();
    let (expected, _) = unsafe { fns!(direct.gl).run(|| ()) };
    assert!(expected[0].1.iter().any(|(_, v, _)| *v > 0), "the direct run found names");
    drop(direct);

    let glcmd = fns!(TABLE);
    let (mut d1, mut d2) = (null_mut(), null_mut());
    check(unsafe { glcmdDeviceCreateHeadless(null(), &mut d1) });
    check(unsafe { glcmdDeviceCreateHeadless(null(), &mut d2) });
    // An immediate thread: lookups see the links recorded before them.
    check(glcmdThreadMakeImmediate(d1));
    let (through, p) = unsafe { glcmd.run(|| ()) };
    compare(&expected, &through);

    // A second device with programs of the same names, linked differently: the thread's copy
    // answers for the device it is current on.
    check(glcmdThreadMakeImmediate(null_mut()));
    check(glcmdThreadMakeImmediate(d2));
    let other = unsafe {
        let p = (glcmd.create_program)();
        glcmd.link(p, &mut Vec::new(), &fs(&["d", "c", "b", "a"]));
        glcmd.ask(p)
    };
    assert!(other.iter().any(|(_, v, _)| *v > 0));
    check(glcmdThreadMakeImmediate(null_mut()));
    check(glcmdThreadMakeImmediate(d1));
    let again = unsafe { glcmd.ask(p) };
    assert_eq!(again, expected.last().unwrap().1, "d1's program p, asked after d2's of the same name");

    // A deferred list (not immediate): the same answers once the links are submitted (a
    // lookup behind a link still in the thread's list fails at once instead: not compared).
    check(glcmdThreadMakeImmediate(null_mut()));
    check(glcmdDeviceDestroy(d2));
    check(glcmdListBegin(d1));
    let (deferred, _) = unsafe {
        glcmd.run(|| {
            check(glcmdSubmit(d1));
            check(glcmdListBegin(d1));
        })
    };
    check(glcmdSubmit(d1));
    for i in [0, 2, 3] {
        assert_eq!(expected[i], deferred[i], "with a deferred list");
    }
    check(glcmdDeviceDestroy(d1));
}

/// A NULL name and one that is not UTF-8 take the generic path: its errors, as before.
#[test]
fn a_null_or_non_utf8_name_is_answered_by_the_generic_path() {
    let glcmd = fns!(TABLE);
    let mut d = null_mut();
    check(unsafe { glcmdDeviceCreateHeadless(null(), &mut d) });
    check(glcmdThreadMakeImmediate(d));
    unsafe {
        let p = (glcmd.create_program)();
        glcmd.link(p, &mut Vec::new(), &fs(&["a"]));
        let a = CString::new("a").unwrap();
        assert!((glcmd.uniform_location)(p, a.as_ptr()) >= 0);
        assert_eq!((glcmd.get_error)(), gl::NO_ERROR);
        assert_eq!((glcmd.uniform_location)(p, null()), -1);
        let bad = [0xffu8, 0xfe, 0];
        assert_eq!((glcmd.uniform_location)(p, bad.as_ptr().cast()), -1);
        assert_ne!((glcmd.get_error)(), gl::NO_ERROR, "a name that is not UTF-8 is refused");
    }
    check(glcmdThreadMakeImmediate(null_mut()));
    check(glcmdDeviceDestroy(d));
}

/// The state functions the test calls.
struct StateFns {
    viewport: unsafe extern "system" fn(GLint, GLint, GLsizei, GLsizei),
    scissor: unsafe extern "system" fn(GLint, GLint, GLsizei, GLsizei),
    enable: unsafe extern "system" fn(GLenum),
    disable: unsafe extern "system" fn(GLenum),
    blend_func_separate: unsafe extern "system" fn(GLenum, GLenum, GLenum, GLenum),
    active_texture: unsafe extern "system" fn(GLenum),
    pixel_storei: unsafe extern "system" fn(GLenum, GLint),
    polygon_mode: unsafe extern "system" fn(GLenum, GLenum),
    get_integerv: unsafe extern "system" fn(GLenum, *mut GLint),
    is_enabled: unsafe extern "system" fn(GLenum) -> GLboolean,
    get_error: unsafe extern "system" fn() -> GLenum,
}

macro_rules! state_fns {
    ($t:expr) => {
        StateFns {
            viewport: $t.Viewport,
            scissor: $t.Scissor,
            enable: $t.Enable,
            disable: $t.Disable,
            blend_func_separate: $t.BlendFuncSeparate,
            active_texture: $t.ActiveTexture,
            pixel_storei: $t.PixelStorei,
            polygon_mode: $t.PolygonMode,
            get_integerv: $t.GetIntegerv,
            is_enabled: $t.IsEnabled,
            get_error: $t.GetError,
        }
    };
}

impl StateFns {
    /// Every shadowed pname's output (16 values, sentinel-filled) and every cap, each with its
    /// error.
    unsafe fn ask(&self) -> Vec<(GLenum, Vec<GLint>, GLenum)> {
        let mut answers = Vec::new();
        for pname in glcmd::recorded_state::SHADOWED {
            let mut v = vec![-7777; 16];
            (self.get_integerv)(pname, v.as_mut_ptr());
            answers.push((pname, v, (self.get_error)()));
        }
        for cap in glcmd::recorded_state::CAPS.into_iter().chain([gl::DITHER, 0xFFFF]) {
            let on = (self.is_enabled)(cap) as GLint;
            answers.push((cap, vec![on], (self.get_error)()));
        }
        answers
    }

    /// Setters accepted, clamped and refused, each followed by every answer.
    unsafe fn run(&self, after_step: impl Fn()) -> Vec<Vec<(GLenum, Vec<GLint>, GLenum)>> {
        let steps: [&dyn Fn(); 10] = [
            &|| (self.viewport)(1, 2, 3, 4),
            &|| (self.viewport)(0, 0, -1, 5),
            &|| (self.viewport)(-100_000, 3, 1 << 30, 7),
            &|| (self.enable)(gl::BLEND),
            &|| (self.disable)(gl::DEPTH_TEST),
            &|| (self.blend_func_separate)(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA, gl::ONE, 0x1234),
            &|| (self.blend_func_separate)(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA, gl::ONE, gl::ZERO),
            &|| (self.active_texture)(gl::TEXTURE3),
            &|| {
                (self.scissor)(5, 6, 7, 8);
                (self.pixel_storei)(gl::UNPACK_ALIGNMENT, 2);
                (self.pixel_storei)(gl::PACK_ALIGNMENT, 3);
            },
            &|| (self.polygon_mode)(gl::FRONT_AND_BACK, gl::LINE),
        ];
        let mut answers = vec![self.ask()];
        for step in steps {
            step();
            after_step();
            answers.push(self.ask());
        }
        answers
    }
}

#[test]
fn state_answers_through_the_entry_points_are_the_gls_byte_for_byte() {
    let direct = common::Direct::new();
    let expected = unsafe { state_fns!(direct.gl).run(|| ()) };
    drop(direct);
    let glcmd = state_fns!(TABLE);
    let mut d = null_mut();
    check(unsafe { glcmdDeviceCreateHeadless(null(), &mut d) });
    for immediate in [true, false] {
        let through = if immediate {
            check(glcmdThreadMakeImmediate(d));
            let through = unsafe { glcmd.run(|| ()) };
            check(glcmdThreadMakeImmediate(null_mut()));
            through
        } else {
            // A fresh device (its state starts where the direct context's did) and deferred
            // lists, submitted after each step (a query behind unsubmitted calls fails instead).
            check(glcmdDeviceDestroy(d));
            check(unsafe { glcmdDeviceCreateHeadless(null(), &mut d) });
            check(glcmdDeviceMakeCurrent(d));
            check(glcmdListBegin(d));
            let dev = d;
            let through = unsafe {
                glcmd.run(|| {
                    check(glcmdSubmit(dev));
                    check(glcmdListBegin(dev));
                })
            };
            check(glcmdSubmit(d));
            through
        };
        for (i, (e, t)) in expected.iter().zip(&through).enumerate() {
            for (e, t) in e.iter().zip(t) {
                assert_eq!(
                    e, t,
                    "step {i}, immediate {immediate}: (pname, output, error) directly, then through glcmd"
                );
            }
        }
    }
    check(glcmdDeviceMakeCurrent(null_mut()));
    check(glcmdDeviceDestroy(d));
}
