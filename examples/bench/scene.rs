//! The GL scene every variant of the frame benchmark draws, set up with raw GL calls on whatever
//! thread owns the context, and the per-object CPU work that stands in for culling and matrix
//! updates.

use std::ffi::{c_void, CStr};
use std::hint::black_box;

use glcmd::types::*;
use glcmd::{gl, Gl};

/// Side of the square framebuffer the objects are drawn into. Small, so that rasterisation
/// (which llvmpipe does on CPU threads of its own) stays a small part of the GL time.
pub const FB_SIZE: i32 = 64;

/// GL names of one context's scene. Every context builds its own (names are per context).
#[derive(Clone, Copy, Debug)]
pub struct Scene {
    pub program: GLuint,
    pub vao: GLuint,
    pub fbo: GLuint,
    pub loc_mvp: GLint,
    pub loc_color: GLint,
    /// Two textures for the bind_texture micro-benchmark.
    pub textures: [GLuint; 2],
    /// A 64 KiB buffer for the named_buffer_sub_data micro-benchmark.
    pub upload_buffer: GLuint,
}

const VS: &str = "#version 450 core
layout(location = 0) in vec2 pos;
uniform mat4 mvp;
void main() { gl_Position = mvp * vec4(pos, 0.0, 1.0); }
";
const FS: &str = "#version 450 core
uniform vec4 color;
out vec4 frag;
void main() { frag = color; }
";

unsafe fn shader(g: &Gl, kind: GLenum, src: &str) -> GLuint {
    unsafe {
        let s = (g.CreateShader)(kind);
        let ptr = src.as_ptr().cast::<GLchar>();
        let len = src.len() as GLint;
        (g.ShaderSource)(s, 1, &ptr, &len);
        (g.CompileShader)(s);
        let mut ok = 0;
        (g.GetShaderiv)(s, gl::COMPILE_STATUS, &mut ok);
        if ok == 0 {
            let mut log = vec![0u8; 4096];
            let mut n = 0;
            (g.GetShaderInfoLog)(s, log.len() as GLsizei, &mut n, log.as_mut_ptr().cast());
            panic!("shader does not compile: {}", String::from_utf8_lossy(&log[..n.max(0) as usize]));
        }
        s
    }
}

/// Builds the scene on the calling thread's current context.
///
/// # Safety
/// `g` belongs to the context current on this thread.
pub unsafe fn setup(g: &Gl) -> Scene {
    unsafe {
        let vs = shader(g, gl::VERTEX_SHADER, VS);
        let fs = shader(g, gl::FRAGMENT_SHADER, FS);
        let program = (g.CreateProgram)();
        (g.AttachShader)(program, vs);
        (g.AttachShader)(program, fs);
        (g.LinkProgram)(program);
        let mut ok = 0;
        (g.GetProgramiv)(program, gl::LINK_STATUS, &mut ok);
        assert!(ok != 0, "program does not link");
        let loc_mvp = (g.GetUniformLocation)(program, c"mvp".as_ptr());
        let loc_color = (g.GetUniformLocation)(program, c"color".as_ptr());
        assert!(loc_mvp >= 0 && loc_color >= 0, "uniforms not found");

        let quad: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0];
        let indices: [u16; 6] = [0, 1, 2, 0, 2, 3];
        let mut bufs = [0u32; 3];
        (g.CreateBuffers)(3, bufs.as_mut_ptr());
        (g.NamedBufferStorage)(bufs[0], 32, quad.as_ptr().cast(), 0);
        (g.NamedBufferStorage)(bufs[1], 12, indices.as_ptr().cast(), 0);
        (g.NamedBufferStorage)(bufs[2], 64 * 1024, std::ptr::null(), gl::DYNAMIC_STORAGE_BIT);
        let mut vao = 0;
        (g.CreateVertexArrays)(1, &mut vao);
        (g.VertexArrayVertexBuffer)(vao, 0, bufs[0], 0, 8);
        (g.EnableVertexArrayAttrib)(vao, 0);
        (g.VertexArrayAttribFormat)(vao, 0, 2, gl::FLOAT, gl::FALSE as GLboolean, 0);
        (g.VertexArrayAttribBinding)(vao, 0, 0);
        (g.VertexArrayElementBuffer)(vao, bufs[1]);

        let mut rb = 0;
        (g.CreateRenderbuffers)(1, &mut rb);
        (g.NamedRenderbufferStorage)(rb, gl::RGBA8, FB_SIZE, FB_SIZE);
        let mut fbo = 0;
        (g.CreateFramebuffers)(1, &mut fbo);
        (g.NamedFramebufferRenderbuffer)(fbo, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
        let status = (g.CheckNamedFramebufferStatus)(fbo, gl::FRAMEBUFFER);
        assert_eq!(status, gl::FRAMEBUFFER_COMPLETE, "framebuffer incomplete");

        let mut textures = [0u32; 2];
        (g.CreateTextures)(gl::TEXTURE_2D, 2, textures.as_mut_ptr());
        for t in textures {
            (g.TextureStorage2D)(t, 1, gl::RGBA8, 4, 4);
        }
        let err = (g.GetError)();
        assert_eq!(err, gl::NO_ERROR, "GL error 0x{err:04X} while setting up the scene");
        Scene { program, vao, fbo, loc_mvp, loc_color, textures, upload_buffer: bufs[2] }
    }
}

/// The frame prologue, as direct calls.
///
/// # Safety
/// `g` belongs to the context current on this thread, on which `s` was built.
#[inline]
pub unsafe fn prologue_direct(g: &Gl, s: &Scene) {
    unsafe {
        (g.BindFramebuffer)(gl::FRAMEBUFFER, s.fbo);
        (g.Viewport)(0, 0, FB_SIZE, FB_SIZE);
        (g.UseProgram)(s.program);
        (g.BindVertexArray)(s.vao);
        (g.ClearColor)(0.0, 0.0, 0.0, 1.0);
        (g.Clear)(gl::COLOR_BUFFER_BIT);
    }
}

/// The frame prologue, recorded.
pub fn prologue_record(list: &mut glcmd::CommandList, s: &Scene) {
    list.bind_framebuffer(gl::FRAMEBUFFER, s.fbo);
    list.viewport(0, 0, FB_SIZE, FB_SIZE);
    list.use_program(s.program);
    list.bind_vertex_array(s.vao);
    list.clear_color(0.0, 0.0, 0.0, 1.0);
    list.clear(gl::COLOR_BUFFER_BIT);
}

/// One object's GL calls, direct.
///
/// # Safety
/// As `prologue_direct`.
#[inline(always)]
pub unsafe fn object_direct(g: &Gl, s: &Scene, mvp: &[f32; 16], c: [f32; 4]) {
    unsafe {
        (g.UniformMatrix4fv)(s.loc_mvp, 1, gl::FALSE as GLboolean, mvp.as_ptr());
        (g.Uniform4f)(s.loc_color, c[0], c[1], c[2], c[3]);
        (g.DrawElementsInstanced)(gl::TRIANGLES, 6, gl::UNSIGNED_SHORT, std::ptr::null(), 1);
    }
}

/// One object's GL calls, recorded.
#[inline(always)]
pub fn object_record(list: &mut glcmd::CommandList, s: &Scene, mvp: &[f32; 16], c: [f32; 4]) {
    list.uniform_matrix4fv(s.loc_mvp, false, std::slice::from_ref(mvp));
    list.uniform4f(s.loc_color, c[0], c[1], c[2], c[3]);
    list.draw_elements_instanced(gl::TRIANGLES, 6, gl::UNSIGNED_SHORT, 0, 1);
}

/// The colour of object `o`.
#[inline]
pub fn color(o: u32) -> [f32; 4] {
    let h = o.wrapping_mul(2654435761);
    [(h & 0xff) as f32 / 255.0, ((h >> 8) & 0xff) as f32 / 255.0, ((h >> 16) & 0xff) as f32 / 255.0, 1.0]
}

/// A small rotation about an oblique axis, applied `iters` times to a vector: a dependent chain
/// of 4x4 matrix-vector products (16 multiply-adds each) that the compiler can neither skip nor
/// vectorise across iterations. Stands for culling and matrix updates.
const ROT: [[f32; 4]; 4] = {
    // cos/sin of 0.01 rad, about the z axis, then mixed with the x axis.
    let c = 0.999_95_f32;
    let s = 0.009_999_833_f32;
    [[c, -s, 0.0, 0.0], [s, c, 0.0, 0.0], [0.0, 0.0, c, -s], [0.0, 0.0, s, c]]
};

/// The per-object CPU work: deterministic, so every variant draws the same picture. Returns the
/// object's model-view-projection matrix.
#[inline(never)]
pub fn cpu_work(o: u32, iters: u32) -> [f32; 16] {
    let r = black_box(ROT);
    let a = o as f32 * 0.618_034;
    let mut v = [a.sin(), a.cos(), (a * 0.5).sin(), (a * 0.5).cos()];
    for _ in 0..iters {
        v = [
            r[0][0] * v[0] + r[0][1] * v[1] + r[0][2] * v[2] + r[0][3] * v[3],
            r[1][0] * v[0] + r[1][1] * v[1] + r[1][2] * v[2] + r[1][3] * v[3],
            r[2][0] * v[0] + r[2][1] * v[1] + r[2][2] * v[2] + r[2][3] * v[3],
            r[3][0] * v[0] + r[3][1] * v[1] + r[3][2] * v[2] + r[3][3] * v[3],
        ];
    }
    // A small quad somewhere in the framebuffer, nudged by the result of the work.
    let tx = ((o % 16) as f32 + 0.5) / 8.0 - 1.0 + 0.02 * v[0];
    let ty = (((o / 16) % 16) as f32 + 0.5) / 8.0 - 1.0 + 0.02 * v[1];
    let sc = 0.05 + 0.01 * v[2].abs();
    [sc, 0.0, 0.0, 0.0, 0.0, sc, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, tx, ty, 0.0, 1.0]
}

/// FNV-1a of the framebuffer's pixels.
///
/// # Safety
/// As `prologue_direct`.
pub unsafe fn checksum(g: &Gl, s: &Scene) -> u64 {
    let mut px = vec![0u8; (FB_SIZE * FB_SIZE * 4) as usize];
    unsafe {
        (g.Finish)();
        (g.BindFramebuffer)(gl::FRAMEBUFFER, s.fbo);
        (g.ReadPixels)(0, 0, FB_SIZE, FB_SIZE, gl::RGBA, gl::UNSIGNED_BYTE, px.as_mut_ptr().cast());
    }
    px.iter().fold(0xcbf29ce484222325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100000001b3))
}

/// GL_VENDOR, GL_RENDERER, GL_VERSION.
///
/// # Safety
/// As `prologue_direct`.
pub unsafe fn strings(g: &Gl) -> (String, String, String) {
    let get = |e| unsafe {
        let p = (g.GetString)(e);
        if p.is_null() {
            String::from("?")
        } else {
            CStr::from_ptr(p.cast()).to_string_lossy().into_owned()
        }
    };
    (get(gl::VENDOR), get(gl::RENDERER), get(gl::VERSION))
}

// ---------------------------------------------------------------------------------------------
// A function table of no-ops, to measure pure dispatch.

unsafe extern "system" fn nop_bind_texture(_: GLenum, _: GLuint) {}
unsafe extern "system" fn nop_uniform_matrix4fv(_: GLint, _: GLsizei, _: GLboolean, _: *const GLfloat) {}
unsafe extern "system" fn nop_uniform4f(_: GLint, _: GLfloat, _: GLfloat, _: GLfloat, _: GLfloat) {}
unsafe extern "system" fn nop_draw_elements_instanced(_: GLenum, _: GLsizei, _: GLenum, _: *const c_void, _: GLsizei) {}
unsafe extern "system" fn nop_named_buffer_sub_data(_: GLuint, _: GLintptr, _: GLsizeiptr, _: *const c_void) {}

unsafe extern "system" fn nop_get_integerv(_: GLenum, _: *mut GLint) {}
unsafe extern "system" fn nop_get_vertex_attribiv(_: GLuint, _: GLenum, _: *mut GLint) {}

/// A `Gl` whose replayed functions are no-ops (every other entry is glcmd's "missing" stub).
/// The integer getters are no-ops too, so a replay state built on it reads "nothing bound".
/// Every buffer has 1 GiB of storage (the element-range checks of draws ask once per change).
unsafe extern "system" fn nop_get_buffer_parameteri64v(_target: GLenum, _pname: GLenum, params: *mut GLint64) {
    // SAFETY: the shadow passes one GLint64.
    unsafe { *params = 1 << 30 };
}

pub fn noop_gl() -> Box<Gl> {
    // SAFETY: every non-null address is a function with the GL signature of its name.
    unsafe {
        Gl::load_with(|name| match name.to_bytes() {
            b"glGetIntegerv" => nop_get_integerv as *const c_void,
            b"glGetVertexAttribiv" => nop_get_vertex_attribiv as *const c_void,
            b"glGetBufferParameteri64v" => nop_get_buffer_parameteri64v as *const c_void,
            b"glBindTexture" => nop_bind_texture as *const c_void,
            b"glUniformMatrix4fv" => nop_uniform_matrix4fv as *const c_void,
            b"glUniform4f" => nop_uniform4f as *const c_void,
            b"glDrawElementsInstanced" => nop_draw_elements_instanced as *const c_void,
            b"glNamedBufferSubData" => nop_named_buffer_sub_data as *const c_void,
            _ => std::ptr::null(),
        })
    }
}
