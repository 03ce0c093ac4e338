//! Shared helpers of the real-GL integration tests: a seeded PRNG, a direct (single-thread,
//! no glcmd) GL context for differential tests, small shader programs, framebuffer helpers and
//! a command vocabulary (`Cmd`) that can be both recorded into a `CommandList` and called
//! directly on a `Gl`, so a test can run the same stream both ways and compare the outcome.
//!
//! Every test binary includes this module with `mod common;`; not every binary uses every
//! helper.
#![allow(dead_code)]

use std::ffi::CString;
use std::time::Duration;

use glcmd::context::GlContext;
use glcmd::types::{GLboolean, GLenum, GLint, GLuint};
use glcmd::{gl, CommandList, Device, Gl};

pub mod process;
pub mod tools;
pub mod xvfb;

// ---------------------------------------------------------------------------------------------
// PRNG
// ---------------------------------------------------------------------------------------------

/// xorshift64* seeded through splitmix64: small, deterministic, good enough for test cases.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng(if z == 0 { 0x2545_F491_4F6C_DD1D } else { z })
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0);
        (((self.next_u64() >> 11) as u128 * n as u128) >> 53) as u64
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }

    pub fn chance(&mut self, p: f64) -> bool {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u32 << 24) as f32
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Running with a deadline
// ---------------------------------------------------------------------------------------------

/// Runs `f` on its own thread and fails the test if it does not finish within `limit`. A hung
/// thread is left behind (the test process ends anyway); a panic inside `f` is re-raised.
pub fn with_timeout<T: Send + 'static>(what: &str, limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    let handle = std::thread::Builder::new()
        .name(format!("timed: {what}"))
        .spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
            let _ = tx.send(result);
        })
        .unwrap();
    match rx.recv_timeout(limit) {
        Ok(Ok(value)) => {
            let _ = handle.join();
            value
        }
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(_) => panic!("{what}: did not finish within {limit:?} (hung)"),
    }
}

/// Runs the calling test again in a child process of this test binary with extra environment
/// variables (for driver settings that must be set before any context exists and must not leak
/// into the tests running beside it). Returns true in the child, which then runs the test body;
/// in the parent it waits for the child, fails if the child failed, and returns false.
pub fn rerun_in_child(test_name: &str, envs: &[(&str, &str)]) -> bool {
    const MARK: &str = "GLCMD_TEST_CHILD";
    if std::env::var_os(MARK).is_some() {
        return true;
    }
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test_name, "--nocapture", "--test-threads=1", "--include-ignored"])
        .env(MARK, "1")
        .envs(envs.iter().copied())
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    eprintln!("--- child process of {test_name} ---\n{text}");
    assert!(output.status.success(), "{test_name} failed in its child process (see above)");
    assert!(text.contains("1 passed"), "the child process did not run {test_name}");
    false
}

// ---------------------------------------------------------------------------------------------
// Devices and the direct context
// ---------------------------------------------------------------------------------------------

pub fn device() -> Device {
    match Device::headless() {
        Ok(d) => d,
        Err(e) => panic!("Device::headless() failed: {e}"),
    }
}

/// A GL context current on the calling thread, with its function table: the reference side of
/// differential tests. It must stay on the thread that created it.
pub struct Direct {
    pub gl: Box<Gl>,
    // Dropped after `gl` (field order), so the table never outlives the context.
    pub ctx: GlContext,
}

impl Direct {
    pub fn new() -> Direct {
        let ctx = match GlContext::headless() {
            Ok(c) => c,
            Err(e) => panic!("GlContext::headless() failed: {e}"),
        };
        let gl = ctx.load_gl();
        Direct { gl, ctx }
    }

    pub fn error(&self) -> GLenum {
        unsafe { (self.gl.GetError)() }
    }

    pub fn integers(&self, pname: GLenum, n: usize) -> Vec<GLint> {
        let mut v = vec![0; n.max(16)];
        unsafe { (self.gl.GetIntegerv)(pname, v.as_mut_ptr()) };
        v.truncate(n);
        v
    }

    pub fn floats(&self, pname: GLenum, n: usize) -> Vec<f32> {
        let mut v = vec![0.0; n.max(16)];
        unsafe { (self.gl.GetFloatv)(pname, v.as_mut_ptr()) };
        v.truncate(n);
        v
    }

    pub fn program(&self, stages: &[(GLenum, &str)]) -> GLuint {
        gl_program(&self.gl, stages)
    }

    /// An FBO with one RGBA8 renderbuffer of `w`x`h`.
    pub fn fbo_rgba8(&self, w: i32, h: i32) -> GLuint {
        let gl = &self.gl;
        unsafe {
            let (mut fbo, mut rb) = (0, 0);
            (gl.CreateFramebuffers)(1, &mut fbo);
            (gl.CreateRenderbuffers)(1, &mut rb);
            (gl.NamedRenderbufferStorage)(rb, gl::RGBA8, w, h);
            (gl.NamedFramebufferRenderbuffer)(fbo, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
            assert_eq!((gl.CheckNamedFramebufferStatus)(fbo, gl::FRAMEBUFFER), gl::FRAMEBUFFER_COMPLETE);
            fbo
        }
    }

    pub fn vao(&self) -> GLuint {
        let mut vao = 0;
        unsafe { (self.gl.CreateVertexArrays)(1, &mut vao) };
        vao
    }

    /// Reads `w`x`h` RGBA8 pixels of colour attachment 0 of `fbo` (binds it for reading, like
    /// `device_read_rgba8` does on the device side).
    pub fn read_rgba8(&self, fbo: GLuint, w: i32, h: i32) -> Vec<u8> {
        let mut px = vec![0u8; (w * h * 4) as usize];
        unsafe {
            (self.gl.BindFramebuffer)(gl::READ_FRAMEBUFFER, fbo);
            (self.gl.NamedFramebufferReadBuffer)(fbo, gl::COLOR_ATTACHMENT0);
            (self.gl.ReadnPixels)(0, 0, w, h, gl::RGBA, gl::UNSIGNED_BYTE, px.len() as i32, px.as_mut_ptr().cast());
        }
        px
    }
}

/// Links a program of `stages` with the table of a context current on this thread (panics
/// with the log if it does not link).
pub fn gl_program(gl: &Gl, stages: &[(GLenum, &str)]) -> GLuint {
    unsafe {
        let program = (gl.CreateProgram)();
        let mut shaders = Vec::new();
        for &(ty, src) in stages {
            let sh = (gl.CreateShader)(ty);
            let c = CString::new(src).unwrap();
            let ptr = c.as_ptr();
            (gl.ShaderSource)(sh, 1, &ptr, std::ptr::null());
            (gl.CompileShader)(sh);
            (gl.AttachShader)(program, sh);
            shaders.push(sh);
        }
        (gl.LinkProgram)(program);
        let mut ok = 0;
        (gl.GetProgramiv)(program, gl::LINK_STATUS, &mut ok);
        if ok == 0 {
            let mut log = vec![0u8; 4096];
            let mut len = 0;
            (gl.GetProgramInfoLog)(program, 4096, &mut len, log.as_mut_ptr().cast());
            panic!("direct link failed: {}", String::from_utf8_lossy(&log[..len.max(0) as usize]));
        }
        for sh in shaders {
            (gl.DetachShader)(program, sh);
            (gl.DeleteShader)(sh);
        }
        program
    }
}

/// Builds a program on the device: shaders created immediately, sources/compile/attach/link
/// recorded and submitted; the link status is queried.
pub fn device_program(device: &Device, stages: &[(GLenum, &str)]) -> GLuint {
    let program = device.create_program().unwrap();
    let mut list = device.command_list();
    let mut shaders = Vec::new();
    for &(ty, src) in stages {
        let sh = device.create_shader(ty).unwrap();
        list.shader_source(sh, &[src]);
        list.compile_shader(sh);
        list.attach_shader(program, sh);
        shaders.push(sh);
    }
    list.link_program(program);
    device.submit(list).unwrap();
    let ok = device.get_programiv(program, gl::LINK_STATUS).unwrap()[0];
    if ok == 0 {
        let mut log = device.get_program_info_log(program, 4096).unwrap();
        for &sh in &shaders {
            log.push_str(&device.get_shader_info_log(sh, 4096).unwrap());
        }
        panic!("device link failed: {log}");
    }
    let mut list = device.command_list();
    for sh in shaders {
        list.detach_shader(program, sh);
        list.delete_shader(sh);
    }
    device.submit(list).unwrap();
    program
}

/// An FBO with one RGBA8 renderbuffer of `w`x`h`, on the device.
pub fn device_fbo_rgba8(device: &Device, w: i32, h: i32) -> GLuint {
    let fbo = device.create_framebuffers(1).unwrap()[0];
    let rb = device.create_renderbuffers(1).unwrap()[0];
    let mut list = device.command_list();
    list.named_renderbuffer_storage(rb, gl::RGBA8, w, h);
    list.named_framebuffer_renderbuffer(fbo, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
    device.submit(list).unwrap();
    assert_eq!(device.check_named_framebuffer_status(fbo, gl::FRAMEBUFFER).unwrap(), gl::FRAMEBUFFER_COMPLETE);
    fbo
}

/// Reads `w`x`h` RGBA8 pixels of colour attachment 0 of `fbo`: the read binding is set by a
/// recorded list, then `readn_pixels` (a query, so it runs after that list).
pub fn device_read_rgba8(device: &Device, fbo: GLuint, w: i32, h: i32) -> Vec<u8> {
    let mut list = device.command_list();
    list.bind_framebuffer(gl::READ_FRAMEBUFFER, fbo);
    list.named_framebuffer_read_buffer(fbo, gl::COLOR_ATTACHMENT0);
    device.submit(list).unwrap();
    device.readn_pixels(0, 0, w, h, gl::RGBA, gl::UNSIGNED_BYTE, w * h * 4).unwrap()
}

/// Compares two RGBA8 images; on a difference, names the first differing pixel and the count.
pub fn assert_same_image(what: &str, replayed: &[u8], direct: &[u8], w: usize) {
    assert_eq!(replayed.len(), direct.len(), "{what}: image sizes differ");
    let diffs: Vec<usize> =
        (0..replayed.len() / 4).filter(|&i| replayed[i * 4..i * 4 + 4] != direct[i * 4..i * 4 + 4]).collect();
    if let Some(&i) = diffs.first() {
        panic!(
            "{what}: {} of {} pixels differ; first at ({}, {}): replayed {:?}, direct {:?}",
            diffs.len(),
            replayed.len() / 4,
            i % w,
            i / w,
            &replayed[i * 4..i * 4 + 4],
            &direct[i * 4..i * 4 + 4]
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The quad program: rectangles in pixel coordinates, no vertex buffers (gl_VertexID)
// ---------------------------------------------------------------------------------------------

/// `rect` (location 0) is x0, y0, x1, y1 in pixels of a `size` (location 2) framebuffer;
/// a 4-vertex triangle strip covers it. Colour (location 1) is a uniform.
pub const QUAD_VS: &str = "#version 450 core
layout(location = 0) uniform vec4 rect;
layout(location = 2) uniform vec2 size;
void main() {
    vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 p = mix(rect.xy, rect.zw, c);
    gl_Position = vec4(p / size * 2.0 - 1.0, 0.0, 1.0);
}
";

pub const COLOR_FS: &str = "#version 450 core
layout(location = 1) uniform vec4 color;
layout(location = 0) out vec4 out_color;
void main() { out_color = color; }
";

pub const LOC_RECT: GLint = 0;
pub const LOC_COLOR: GLint = 1;
pub const LOC_SIZE: GLint = 2;

/// The objects a command stream refers to, by their names in one context.
#[derive(Clone, Copy, Debug)]
pub struct Scene {
    pub fbo: GLuint,
    pub program: GLuint,
    pub vao: GLuint,
    pub w: i32,
    pub h: i32,
}

impl Scene {
    pub fn on_device(device: &Device, w: i32, h: i32) -> Scene {
        let program = device_program(device, &[(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, COLOR_FS)]);
        let fbo = device_fbo_rgba8(device, w, h);
        let vao = device.create_vertex_arrays(1).unwrap()[0];
        Scene { fbo, program, vao, w, h }
    }

    pub fn direct(d: &Direct, w: i32, h: i32) -> Scene {
        let program = d.program(&[(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, COLOR_FS)]);
        Scene { fbo: d.fbo_rgba8(w, h), program, vao: d.vao(), w, h }
    }
}

/// One GL call of the differential vocabulary.
#[derive(Clone, Copy, Debug)]
pub enum Cmd {
    /// Binds the scene's framebuffer, program and vertex array and sets the size uniform.
    UseScene,
    Enable(GLenum),
    Disable(GLenum),
    BlendFunc(GLenum, GLenum),
    BlendEquation(GLenum),
    Scissor([i32; 4]),
    Viewport([i32; 4]),
    ClearColor([f32; 4]),
    Clear,
    ColorMask([bool; 4]),
    Rect([f32; 4]),
    Color([f32; 4]),
    Draw,
}

fn b(v: bool) -> GLboolean {
    v as GLboolean
}

impl Cmd {
    /// Records the command into a list.
    pub fn record(&self, l: &mut CommandList, s: &Scene) {
        match *self {
            Cmd::UseScene => {
                l.bind_framebuffer(gl::FRAMEBUFFER, s.fbo);
                l.use_program(s.program);
                l.bind_vertex_array(s.vao);
                l.uniform2f(LOC_SIZE, s.w as f32, s.h as f32);
            }
            Cmd::Enable(cap) => l.enable(cap),
            Cmd::Disable(cap) => l.disable(cap),
            Cmd::BlendFunc(sf, df) => l.blend_func(sf, df),
            Cmd::BlendEquation(m) => l.blend_equation(m),
            Cmd::Scissor([x, y, w, h]) => l.scissor(x, y, w, h),
            Cmd::Viewport([x, y, w, h]) => l.viewport(x, y, w, h),
            Cmd::ClearColor([r, g, b_, a]) => l.clear_color(r, g, b_, a),
            Cmd::Clear => l.clear(gl::COLOR_BUFFER_BIT),
            Cmd::ColorMask([r, g, b_, a]) => l.color_mask(r, g, b_, a),
            Cmd::Rect([x0, y0, x1, y1]) => l.uniform4f(LOC_RECT, x0, y0, x1, y1),
            Cmd::Color([r, g, b_, a]) => l.uniform4f(LOC_COLOR, r, g, b_, a),
            Cmd::Draw => l.draw_arrays(gl::TRIANGLE_STRIP, 0, 4),
        }
    }

    /// Calls the same GL function directly.
    pub fn call(&self, gl: &Gl, s: &Scene) {
        unsafe {
            match *self {
                Cmd::UseScene => {
                    (gl.BindFramebuffer)(gl::FRAMEBUFFER, s.fbo);
                    (gl.UseProgram)(s.program);
                    (gl.BindVertexArray)(s.vao);
                    (gl.Uniform2f)(LOC_SIZE, s.w as f32, s.h as f32);
                }
                Cmd::Enable(cap) => (gl.Enable)(cap),
                Cmd::Disable(cap) => (gl.Disable)(cap),
                Cmd::BlendFunc(sf, df) => (gl.BlendFunc)(sf, df),
                Cmd::BlendEquation(m) => (gl.BlendEquation)(m),
                Cmd::Scissor([x, y, w, h]) => (gl.Scissor)(x, y, w, h),
                Cmd::Viewport([x, y, w, h]) => (gl.Viewport)(x, y, w, h),
                Cmd::ClearColor([r, g, b_, a]) => (gl.ClearColor)(r, g, b_, a),
                Cmd::Clear => (gl.Clear)(gl::COLOR_BUFFER_BIT),
                Cmd::ColorMask([r, g, b_, a]) => (gl.ColorMask)(b(r), b(g), b(b_), b(a)),
                Cmd::Rect([x0, y0, x1, y1]) => (gl.Uniform4f)(LOC_RECT, x0, y0, x1, y1),
                Cmd::Color([r, g, b_, a]) => (gl.Uniform4f)(LOC_COLOR, r, g, b_, a),
                Cmd::Draw => (gl.DrawArrays)(gl::TRIANGLE_STRIP, 0, 4),
            }
        }
    }
}

/// The state every differential case starts from (so earlier cases cannot leak into it): the
/// scene bound, blending and scissor off with default functions, full viewport and scissor box,
/// all channels writable, cleared to transparent black.
pub fn preamble(s: &Scene) -> Vec<Cmd> {
    vec![
        Cmd::UseScene,
        Cmd::Disable(gl::BLEND),
        Cmd::Disable(gl::SCISSOR_TEST),
        Cmd::BlendFunc(gl::ONE, gl::ZERO),
        Cmd::BlendEquation(gl::FUNC_ADD),
        Cmd::ColorMask([true; 4]),
        Cmd::Viewport([0, 0, s.w, s.h]),
        Cmd::Scissor([0, 0, s.w, s.h]),
        Cmd::ClearColor([0.0; 4]),
        Cmd::Clear,
        Cmd::Rect([0.0, 0.0, 1.0, 1.0]),
        Cmd::Color([0.0, 0.0, 0.0, 1.0]),
    ]
}

/// Integer state compared between the two sides: (pname, value count).
pub const COMPARED_INTEGER_STATE: &[(GLenum, usize, &str)] = &[
    (gl::BLEND, 1, "GL_BLEND"),
    (gl::SCISSOR_TEST, 1, "GL_SCISSOR_TEST"),
    (gl::SCISSOR_BOX, 4, "GL_SCISSOR_BOX"),
    (gl::VIEWPORT, 4, "GL_VIEWPORT"),
    (gl::COLOR_WRITEMASK, 4, "GL_COLOR_WRITEMASK"),
    (gl::BLEND_SRC_RGB, 1, "GL_BLEND_SRC_RGB"),
    (gl::BLEND_DST_RGB, 1, "GL_BLEND_DST_RGB"),
    (gl::BLEND_EQUATION_RGB, 1, "GL_BLEND_EQUATION_RGB"),
];

/// Queries `COMPARED_INTEGER_STATE` (and the clear colour) on the device.
pub fn device_state(device: &Device) -> Vec<(&'static str, Vec<i64>)> {
    let mut out = Vec::new();
    for &(pname, n, name) in COMPARED_INTEGER_STATE {
        let v = device.get_integerv(pname).unwrap_or_else(|e| panic!("get_integerv({name}): {e}"));
        assert_eq!(v.len(), n, "{name}: value count");
        out.push((name, v.into_iter().map(i64::from).collect()));
    }
    let c = device.get_floatv(gl::COLOR_CLEAR_VALUE).unwrap();
    out.push(("GL_COLOR_CLEAR_VALUE", c.iter().map(|f| f.to_bits() as i64).collect()));
    out
}

/// The same state, queried directly.
pub fn direct_state(d: &Direct) -> Vec<(&'static str, Vec<i64>)> {
    let mut out = Vec::new();
    for &(pname, n, name) in COMPARED_INTEGER_STATE {
        out.push((name, d.integers(pname, n).into_iter().map(i64::from).collect()));
    }
    let c = d.floats(gl::COLOR_CLEAR_VALUE, 4);
    out.push(("GL_COLOR_CLEAR_VALUE", c.iter().map(|f| f.to_bits() as i64).collect()));
    out
}

// ---------------------------------------------------------------------------------------------
// Examples run by tests
// ---------------------------------------------------------------------------------------------

/// Builds `examples/<name>.rs` with the profile and target directory of this test, and returns
/// the binary's path. A no-op when `cargo test` has already built it.
pub fn build_example(name: &str) -> std::path::PathBuf {
    // A test runs as <target>/<profile dir>/deps/<test>-<hash>.
    let exe = std::env::current_exe().expect("the test's own path");
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("<target>/<profile>/deps/<test>");
    let profile_dir = profile_dir.to_path_buf();
    let target_dir = profile_dir.parent().expect("<target>/<profile>").to_path_buf();
    let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") | None => "dev".to_string(),
        Some(name) => name.to_string(),
    };
    let output = std::process::Command::new(env!("CARGO"))
        // `--workspace --tests`: the features of the README's `cargo test --workspace` (every
        // member's dev-dependencies included), so the example is the one that run has already
        // built, not a further copy of glcmd (time, and disk CI does not have).
        .args(["build", "--workspace", "--tests", "--example", name, "--profile", &profile, "--target-dir"])
        .arg(&target_dir)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("cannot run cargo");
    assert!(
        output.status.success(),
        "cargo build --example {name} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let binary = profile_dir.join("examples").join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(binary.exists(), "cargo built the example, but {} does not exist", binary.display());
    binary
}
