//! Real GL through `GlContext::headless()`: version and profile, a clear into
//! an FBO read back by content, and contexts made on different threads.

use std::ffi::{c_void, CStr};

use glcmd::context::GlContext;

type GLenum = u32;
type GLuint = u32;
type GLint = i32;
type GLsizei = i32;
type GLfloat = f32;
type GLbitfield = u32;

const GL_NO_ERROR: GLenum = 0;
const GL_VENDOR: GLenum = 0x1F00;
const GL_RENDERER: GLenum = 0x1F01;
const GL_VERSION: GLenum = 0x1F02;
const GL_MAJOR_VERSION: GLenum = 0x821B;
const GL_MINOR_VERSION: GLenum = 0x821C;
const GL_CONTEXT_PROFILE_MASK: GLenum = 0x9126;
const GL_CONTEXT_CORE_PROFILE_BIT: GLint = 0x1;
const GL_FRAMEBUFFER: GLenum = 0x8D40;
const GL_RENDERBUFFER: GLenum = 0x8D41;
const GL_COLOR_ATTACHMENT0: GLenum = 0x8CE0;
const GL_FRAMEBUFFER_COMPLETE: GLenum = 0x8CD5;
const GL_RGBA8: GLenum = 0x8058;
const GL_RGBA: GLenum = 0x1908;
const GL_UNSIGNED_BYTE: GLenum = 0x1401;
const GL_COLOR_BUFFER_BIT: GLbitfield = 0x4000;
const GL_PACK_ALIGNMENT: GLenum = 0x0D05;

/// The few GL entry points the tests use, loaded through `get_proc_address`.
struct Gl {
    get_error: extern "system" fn() -> GLenum,
    get_string: extern "system" fn(GLenum) -> *const u8,
    get_integerv: extern "system" fn(GLenum, *mut GLint),
    create_framebuffers: extern "system" fn(GLsizei, *mut GLuint),
    create_renderbuffers: extern "system" fn(GLsizei, *mut GLuint),
    named_renderbuffer_storage: extern "system" fn(GLuint, GLenum, GLsizei, GLsizei),
    named_framebuffer_renderbuffer: extern "system" fn(GLuint, GLenum, GLenum, GLuint),
    check_named_framebuffer_status: extern "system" fn(GLuint, GLenum) -> GLenum,
    bind_framebuffer: extern "system" fn(GLenum, GLuint),
    viewport: extern "system" fn(GLint, GLint, GLsizei, GLsizei),
    clear_color: extern "system" fn(GLfloat, GLfloat, GLfloat, GLfloat),
    clear: extern "system" fn(GLbitfield),
    pixel_storei: extern "system" fn(GLenum, GLint),
    read_pixels: extern "system" fn(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, *mut c_void),
    finish: extern "system" fn(),
    delete_framebuffers: extern "system" fn(GLsizei, *const GLuint),
    delete_renderbuffers: extern "system" fn(GLsizei, *const GLuint),
}

impl Gl {
    // Each transmute's target is the type of the field it initializes.
    #[allow(clippy::missing_transmute_annotations)]
    fn load(ctx: &GlContext) -> Gl {
        macro_rules! load {
            ($name:literal) => {{
                let address = ctx.get_proc_address($name);
                assert!(!address.is_null(), "{:?} not found", $name);
                // SAFETY: the address is the named GL 4.5 function, and the
                // field's type is that function's C signature. The tests only
                // call it on the thread whose context is current.
                unsafe { std::mem::transmute::<*const c_void, _>(address) }
            }};
        }
        Gl {
            get_error: load!(c"glGetError"),
            get_string: load!(c"glGetString"),
            get_integerv: load!(c"glGetIntegerv"),
            create_framebuffers: load!(c"glCreateFramebuffers"),
            create_renderbuffers: load!(c"glCreateRenderbuffers"),
            named_renderbuffer_storage: load!(c"glNamedRenderbufferStorage"),
            named_framebuffer_renderbuffer: load!(c"glNamedFramebufferRenderbuffer"),
            check_named_framebuffer_status: load!(c"glCheckNamedFramebufferStatus"),
            bind_framebuffer: load!(c"glBindFramebuffer"),
            viewport: load!(c"glViewport"),
            clear_color: load!(c"glClearColor"),
            clear: load!(c"glClear"),
            pixel_storei: load!(c"glPixelStorei"),
            read_pixels: load!(c"glReadPixels"),
            finish: load!(c"glFinish"),
            delete_framebuffers: load!(c"glDeleteFramebuffers"),
            delete_renderbuffers: load!(c"glDeleteRenderbuffers"),
        }
    }

    fn string(&self, name: GLenum) -> String {
        let ptr = (self.get_string)(name);
        assert!(!ptr.is_null(), "glGetString({name:#x}) returned null");
        // SAFETY: GL returns a static NUL-terminated string.
        unsafe { CStr::from_ptr(ptr.cast()) }.to_string_lossy().into_owned()
    }

    fn integer(&self, name: GLenum) -> GLint {
        let mut value = -1;
        (self.get_integerv)(name, &mut value);
        value
    }

    fn assert_no_error(&self, what: &str) {
        let error = (self.get_error)();
        assert_eq!(error, GL_NO_ERROR, "GL error {error:#x} after {what}");
    }
}

fn headless() -> GlContext {
    match GlContext::headless() {
        Ok(ctx) => ctx,
        Err(error) => {
            let mut message = error.to_string();
            let mut source = std::error::Error::source(&error);
            while let Some(cause) = source {
                message.push_str(&format!("\n  caused by: {cause}"));
                source = cause.source();
            }
            panic!("GlContext::headless() failed: {message}");
        }
    }
}

/// Clears a `size`x`size` RGBA8 renderbuffer in an FBO to `rgba` and reads
/// back every pixel.
fn clear_and_read(gl: &Gl, size: GLsizei, rgba: [f32; 4]) -> Vec<u8> {
    let (mut fbo, mut rbo) = (0, 0);
    (gl.create_framebuffers)(1, &mut fbo);
    (gl.create_renderbuffers)(1, &mut rbo);
    assert_ne!(fbo, 0);
    assert_ne!(rbo, 0);
    (gl.named_renderbuffer_storage)(rbo, GL_RGBA8, size, size);
    (gl.named_framebuffer_renderbuffer)(fbo, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rbo);
    assert_eq!((gl.check_named_framebuffer_status)(fbo, GL_FRAMEBUFFER), GL_FRAMEBUFFER_COMPLETE);
    gl.assert_no_error("creating the FBO");

    (gl.bind_framebuffer)(GL_FRAMEBUFFER, fbo);
    (gl.viewport)(0, 0, size, size);
    (gl.clear_color)(rgba[0], rgba[1], rgba[2], rgba[3]);
    (gl.clear)(GL_COLOR_BUFFER_BIT);
    gl.assert_no_error("glClear");

    let mut pixels = vec![0xAAu8; (size * size * 4) as usize];
    (gl.pixel_storei)(GL_PACK_ALIGNMENT, 1);
    (gl.read_pixels)(0, 0, size, size, GL_RGBA, GL_UNSIGNED_BYTE, pixels.as_mut_ptr().cast());
    (gl.finish)();
    gl.assert_no_error("glReadPixels");

    (gl.bind_framebuffer)(GL_FRAMEBUFFER, 0);
    (gl.delete_framebuffers)(1, &fbo);
    (gl.delete_renderbuffers)(1, &rbo);
    gl.assert_no_error("deleting the FBO");
    pixels
}

#[test]
fn headless_context_is_gl45_core() {
    let ctx = headless();
    assert!(!ctx.has_window());
    ctx.present().expect("present is a no-op without a window");
    let gl = Gl::load(&ctx);

    let (vendor, renderer, version) = (gl.string(GL_VENDOR), gl.string(GL_RENDERER), gl.string(GL_VERSION));
    eprintln!("{}\nGL_VENDOR={vendor} GL_RENDERER={renderer} GL_VERSION={version}", ctx.describe());
    assert!(!renderer.is_empty());
    assert!(ctx.describe().contains(&renderer), "describe() names the renderer");

    let (major, minor) = (gl.integer(GL_MAJOR_VERSION), gl.integer(GL_MINOR_VERSION));
    assert!(major * 10 + minor >= 45, "GL {major}.{minor} is older than 4.5 ({version})");
    let profile = gl.integer(GL_CONTEXT_PROFILE_MASK);
    assert_ne!(profile & GL_CONTEXT_CORE_PROFILE_BIT, 0, "not a core profile: mask {profile:#x}");
    gl.assert_no_error("queries");
}

#[test]
fn clear_into_fbo_reads_back() {
    let ctx = headless();
    let gl = Gl::load(&ctx);

    // 1.0 -> 255, 0.0 -> 0, 0.5 -> 127 or 128 (rounding is implementation-defined).
    let pixels = clear_and_read(&gl, 4, [1.0, 0.0, 0.5, 1.0]);
    for pixel in pixels.chunks_exact(4) {
        assert_eq!(pixel[0], 255, "red of {pixel:?}");
        assert_eq!(pixel[1], 0, "green of {pixel:?}");
        assert!(pixel[2] == 127 || pixel[2] == 128, "blue of {pixel:?}");
        assert_eq!(pixel[3], 255, "alpha of {pixel:?}");
    }

    let pixels = clear_and_read(&gl, 2, [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(pixels, [0, 255, 0, 0].repeat(4));
}

#[test]
fn contexts_on_two_threads_one_after_the_other() {
    for (round, rgba) in [[0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0, 1.0]].into_iter().enumerate() {
        let pixels = std::thread::Builder::new()
            .name(format!("render-{round}"))
            .spawn(move || {
                let ctx = headless();
                let gl = Gl::load(&ctx);
                let pixels = clear_and_read(&gl, 8, rgba);
                drop(ctx);
                pixels
            })
            .unwrap()
            .join()
            .expect("render thread panicked");
        let expected: Vec<u8> = rgba.iter().map(|&c| (c * 255.0) as u8).collect();
        assert_eq!(pixels, expected.repeat(64), "round {round}");
    }
}

#[test]
fn two_contexts_alive_on_two_threads_at_once() {
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let threads: Vec<_> = [[1.0f32, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]]
        .into_iter()
        .map(|rgba| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let ctx = GlContext::headless();
                // Both threads reach this point before either unwraps, so a
                // failure cannot leave the other waiting forever.
                barrier.wait();
                let ctx = ctx.expect("GlContext::headless() on a second thread");
                let gl = Gl::load(&ctx);
                let pixels = clear_and_read(&gl, 2, rgba);
                let expected: Vec<u8> = rgba.iter().map(|&c| (c * 255.0) as u8).collect();
                assert_eq!(pixels, expected.repeat(4));
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("render thread panicked");
    }
}

#[test]
fn bad_device_index_is_reported() {
    // Runs in a child process of this test binary, so that the variable
    // cannot leak into the tests running beside it.
    if std::env::var_os("GLCMD_CONTEXT_TEST_CHILD").is_none() {
        let output = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "bad_device_index_is_reported", "--nocapture", "--test-threads=1"])
            .env("GLCMD_CONTEXT_TEST_CHILD", "1")
            .env("GLCMD_EGL_DEVICE", "999")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "child failed:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        return;
    }
    let error = GlContext::headless().expect_err("there is no EGL device 999");
    let message = error.to_string();
    assert!(message.contains("GLCMD_EGL_DEVICE=\"999\""), "{message}");
}
