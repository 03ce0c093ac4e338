//! Adopting a context the application made (issue 18, part 2), with real parts: EGL contexts
//! made with raw EGL calls on Mesa's surfaceless platform with a pbuffer surface, and a GLX
//! context on an X window under Xvfb.
//!
//! Each adopted context is compared with a twin made the same way and used directly on the test
//! thread: the initial viewport and scissor box (the surface's size, not 0×0), and the pixels of
//! framebuffer 0 after the same clears and draws (`common::Cmd`, recorded on one side and called
//! on the other). After the device is dropped, the adopted context is made current on the test
//! thread, which proves the render thread released it, and its framebuffer still holds the
//! picture, which proves it was not destroyed. Other tests check that every EGL function the
//! render thread calls comes from the get-proc-address function it was given (a wrapper counts
//! the calls), and that the refusals (no such function, a GLES context, a context current
//! elsewhere, nothing to present) are errors that say what to do.

mod common;

use std::ffi::{c_char, c_int, c_uint, c_ulong, c_void, CStr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use common::{assert_same_image, device_program, gl_program, Cmd, Scene, COLOR_FS, QUAD_VS};
use glcmd::types::{GLenum, GLint};
use glcmd::{gl, AdoptEgl, AdoptGlx, ContextError, Device, Error, Gl, Options};

#[link(name = "EGL")]
extern "C" {
    fn eglGetProcAddress(name: *const c_char) -> *const c_void;
}

type P = *mut c_void;

const EGL_PLATFORM_SURFACELESS_MESA: c_uint = 0x31DD;
const EGL_OPENGL_API: c_uint = 0x30A2;
const EGL_OPENGL_ES_API: c_uint = 0x30A0;
const EGL_NONE: c_int = 0x3038;

/// The EGL functions the tests call themselves, from `eglGetProcAddress`.
struct Egl {
    get_platform_display: unsafe extern "C" fn(c_uint, P, *const c_int) -> P,
    initialize: unsafe extern "C" fn(P, *mut c_int, *mut c_int) -> c_uint,
    choose_config: unsafe extern "C" fn(P, *const c_int, *mut P, c_int, *mut c_int) -> c_uint,
    create_pbuffer_surface: unsafe extern "C" fn(P, P, *const c_int) -> P,
    bind_api: unsafe extern "C" fn(c_uint) -> c_uint,
    create_context: unsafe extern "C" fn(P, P, P, *const c_int) -> P,
    make_current: unsafe extern "C" fn(P, P, P, P) -> c_uint,
    destroy_surface: unsafe extern "C" fn(P, P) -> c_uint,
    destroy_context: unsafe extern "C" fn(P, P) -> c_uint,
    get_error: unsafe extern "C" fn() -> c_int,
}

fn egl_lookup(name: &CStr) -> *const c_void {
    // SAFETY: a NUL-terminated name.
    let f = unsafe { eglGetProcAddress(name.as_ptr()) };
    assert!(!f.is_null(), "eglGetProcAddress({name:?}) is NULL");
    f
}

/// An EGL function by name, as the function pointer type `F` (the field it is stored in).
fn load<F: Copy>(name: &CStr) -> F {
    let f = egl_lookup(name);
    // SAFETY: `F` is the EGL signature of the function named (the field's type).
    unsafe { std::mem::transmute_copy(&f) }
}

fn egl() -> &'static Egl {
    static EGL: OnceLock<Egl> = OnceLock::new();
    EGL.get_or_init(|| Egl {
        get_platform_display: load(c"eglGetPlatformDisplayEXT"),
        initialize: load(c"eglInitialize"),
        choose_config: load(c"eglChooseConfig"),
        create_pbuffer_surface: load(c"eglCreatePbufferSurface"),
        bind_api: load(c"eglBindAPI"),
        create_context: load(c"eglCreateContext"),
        make_current: load(c"eglMakeCurrent"),
        destroy_surface: load(c"eglDestroySurface"),
        destroy_context: load(c"eglDestroyContext"),
        get_error: load(c"eglGetError"),
    })
}

/// An EGL context (desktop OpenGL 4.5 core, or OpenGL ES) with a `w`x`h` pbuffer (or none),
/// made with raw EGL calls on Mesa's surfaceless platform, current on no thread.
struct RawEgl {
    display: P,
    context: P,
    surface: P,
}

impl RawEgl {
    fn new(w: i32, h: i32) -> RawEgl {
        Self::make(w, h, false)
    }

    fn make(w: i32, h: i32, gles: bool) -> RawEgl {
        let e = egl();
        unsafe {
            let display =
                (e.get_platform_display)(EGL_PLATFORM_SURFACELESS_MESA, std::ptr::null_mut(), std::ptr::null());
            assert!(!display.is_null(), "no surfaceless EGL display (Mesa's EGL_MESA_platform_surfaceless)");
            let (mut major, mut minor) = (0, 0);
            assert_ne!((e.initialize)(display, &mut major, &mut minor), 0, "eglInitialize: 0x{:X}", (e.get_error)());
            let renderable = if gles { 0x0040 } else { 0x0008 }; // ES3 / OPENGL bit
            #[rustfmt::skip]
            let attribs = [0x3033, 0x0001, 0x3040, renderable, 0x3024, 8, 0x3023, 8, 0x3022, 8, 0x3021, 8, EGL_NONE];
            let (mut config, mut n) = (std::ptr::null_mut(), 0);
            assert_ne!((e.choose_config)(display, attribs.as_ptr(), &mut config, 1, &mut n), 0);
            assert_eq!(n, 1, "no RGBA8 pbuffer config");
            let surface = if w > 0 {
                let size = [0x3057, w, 0x3056, h, EGL_NONE];
                let s = (e.create_pbuffer_surface)(display, config, size.as_ptr());
                assert!(!s.is_null(), "eglCreatePbufferSurface: 0x{:X}", (e.get_error)());
                s
            } else {
                std::ptr::null_mut()
            };
            let context = if gles {
                (e.bind_api)(EGL_OPENGL_ES_API);
                let version = [0x3098, 3, EGL_NONE];
                (e.create_context)(display, config, std::ptr::null_mut(), version.as_ptr())
            } else {
                (e.bind_api)(EGL_OPENGL_API);
                let version = [0x3098, 4, 0x30FB, 5, 0x30FD, 0x1, EGL_NONE];
                (e.create_context)(display, config, std::ptr::null_mut(), version.as_ptr())
            };
            assert!(!context.is_null(), "eglCreateContext: 0x{:X}", (e.get_error)());
            RawEgl { display, context, surface }
        }
    }

    fn handles(&self, get_proc_address: glcmd::GetProcAddress) -> AdoptEgl {
        AdoptEgl {
            display: self.display,
            context: self.context,
            draw: self.surface,
            read: self.surface,
            get_proc_address,
        }
    }

    /// Makes the context current on this thread (false: EGL refused).
    fn make_current(&self) -> bool {
        let e = egl();
        unsafe {
            (e.bind_api)(EGL_OPENGL_API);
            (e.make_current)(self.display, self.surface, self.surface, self.context) != 0
        }
    }

    fn release(&self) {
        let e = egl();
        let none = std::ptr::null_mut();
        unsafe { (e.make_current)(self.display, none, none, none) };
    }

    /// The GL function table of the context current on this thread.
    fn gl(&self) -> Box<Gl> {
        // SAFETY: eglGetProcAddress gives the current context's functions.
        unsafe { Gl::load_with(|name| eglGetProcAddress(name.as_ptr())) }
    }
}

impl Drop for RawEgl {
    fn drop(&mut self) {
        let e = egl();
        unsafe {
            (e.destroy_context)(self.display, self.context);
            if !self.surface.is_null() {
                (e.destroy_surface)(self.display, self.surface);
            }
        }
    }
}

/// The plain `eglGetProcAddress`, as glcmd takes it.
unsafe extern "C" fn plain_lookup(name: *const c_char) -> *const c_void {
    unsafe { eglGetProcAddress(name) }
}

/// Clears and draws into framebuffer 0 without setting the viewport (it must already be the
/// surface's): two clear colours (one scissored) and two quads.
fn stream(w: i32, h: i32) -> Vec<Cmd> {
    vec![
        Cmd::UseScene,
        Cmd::ClearColor([0.2, 0.4, 0.6, 1.0]),
        Cmd::Clear,
        Cmd::Color([1.0, 0.5, 0.0, 1.0]),
        Cmd::Rect([4.0, 4.0, 40.0, 30.0]),
        Cmd::Draw,
        Cmd::Enable(gl::SCISSOR_TEST),
        Cmd::Scissor([w / 2, h / 2, w / 3, h / 3]),
        Cmd::ClearColor([0.0, 1.0, 0.0, 1.0]),
        Cmd::Clear,
        Cmd::Disable(gl::SCISSOR_TEST),
        Cmd::Color([0.5, 0.0, 1.0, 1.0]),
        Cmd::Rect([w as f32 - 10.0, 0.0, w as f32, h as f32]),
        Cmd::Draw,
    ]
}

/// The picture and the initial viewport and scissor box, drawn through glcmd on `device`.
fn through_device(device: &Device, w: i32, h: i32) -> (Vec<GLint>, Vec<GLint>, Vec<u8>) {
    let viewport = device.get_integerv(gl::VIEWPORT).unwrap();
    let scissor = device.get_integerv(gl::SCISSOR_BOX).unwrap();
    let program = device_program(device, &[(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, COLOR_FS)]);
    let vao = device.create_vertex_arrays(1).unwrap()[0];
    let scene = Scene { fbo: 0, program, vao, w, h };
    let mut list = device.command_list();
    for cmd in stream(w, h) {
        cmd.record(&mut list, &scene);
    }
    list.bind_framebuffer(gl::READ_FRAMEBUFFER, 0);
    device.submit(list).unwrap();
    let pixels = device.readn_pixels(0, 0, w, h, gl::RGBA, gl::UNSIGNED_BYTE, w * h * 4).unwrap();
    (viewport, scissor, pixels)
}

/// The same, with the GL table of a context current on this thread.
fn direct(gl: &Gl, w: i32, h: i32) -> (Vec<GLint>, Vec<GLint>, Vec<u8>) {
    let get = |pname: GLenum| {
        let mut v = vec![0; 4];
        unsafe { (gl.GetIntegerv)(pname, v.as_mut_ptr()) };
        v
    };
    let (viewport, scissor) = (get(gl::VIEWPORT), get(gl::SCISSOR_BOX));
    let program = gl_program(gl, &[(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, COLOR_FS)]);
    let mut vao = 0;
    unsafe { (gl.CreateVertexArrays)(1, &mut vao) };
    let scene = Scene { fbo: 0, program, vao, w, h };
    for cmd in stream(w, h) {
        cmd.call(gl, &scene);
    }
    (viewport, scissor, read_fb0(gl, w, h))
}

fn read_fb0(gl: &Gl, w: i32, h: i32) -> Vec<u8> {
    let mut pixels = vec![0u8; (w * h * 4) as usize];
    unsafe {
        (gl.BindFramebuffer)(gl::READ_FRAMEBUFFER, 0);
        (gl.ReadnPixels)(0, 0, w, h, gl::RGBA, gl::UNSIGNED_BYTE, pixels.len() as i32, pixels.as_mut_ptr().cast());
    }
    pixels
}

/// How many different colours an RGBA8 picture has.
fn colours(pixels: &[u8]) -> usize {
    let mut seen: Vec<&[u8]> = pixels.chunks(4).collect();
    seen.sort();
    seen.dedup();
    seen.len()
}

#[test]
fn an_adopted_egl_pbuffer_is_framebuffer_zero_as_the_gl_gives_it() {
    let (w, h) = (64, 48);
    let adopted = RawEgl::new(w, h);
    let device = unsafe { Device::adopt_egl(adopted.handles(plain_lookup), Options::default()) }.unwrap();
    let (viewport, scissor, pixels) = through_device(&device, w, h);
    device.present().expect("present on an adopted pbuffer");
    assert_eq!(device.get_integerv(gl::DRAW_FRAMEBUFFER_BINDING).unwrap(), vec![0]);
    drop(device);

    let twin = RawEgl::new(w, h);
    assert!(twin.make_current(), "the twin context");
    let gl = twin.gl();
    let (direct_viewport, direct_scissor, direct_pixels) = direct(&gl, w, h);
    twin.release();

    assert_eq!(viewport, vec![0, 0, w, h], "the initial viewport is the surface's size");
    assert_eq!(scissor, vec![0, 0, w, h], "the initial scissor box is the surface's size");
    assert_eq!((viewport, scissor), (direct_viewport, direct_scissor), "as the GL gives it directly");
    assert!(colours(&direct_pixels) >= 4, "the picture has its clears and quads");
    assert_same_image("framebuffer 0 of the adopted pbuffer", &pixels, &direct_pixels, w as usize);

    // Released (current here now) and not destroyed (the picture is still there).
    assert!(adopted.make_current(), "the device released the context when it was dropped");
    let gl = adopted.gl();
    assert_same_image("framebuffer 0 after the device is gone", &read_fb0(&gl, w, h), &pixels, w as usize);
    adopted.release();
}

static LOOKED_UP: Mutex<Vec<String>> = Mutex::new(Vec::new());
static MAKE_CURRENT_CALLS: AtomicUsize = AtomicUsize::new(0);
static SWAP_CALLS: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn counting_make_current(d: P, draw: P, read: P, c: P) -> c_uint {
    MAKE_CURRENT_CALLS.fetch_add(1, Ordering::SeqCst);
    unsafe { (egl().make_current)(d, draw, read, c) }
}

/// The pixel (0, 0) of framebuffer 0 at each swap, read by the swap wrapper on the render thread.
static PRESENTED: Mutex<Vec<[u8; 4]>> = Mutex::new(Vec::new());

unsafe extern "C" fn counting_swap(d: P, s: P) -> c_uint {
    SWAP_CALLS.fetch_add(1, Ordering::SeqCst);
    type ReadPixels = unsafe extern "system" fn(GLint, GLint, i32, i32, GLenum, GLenum, *mut c_void);
    let read: ReadPixels = load(c"glReadPixels");
    let mut pixel = [0u8; 4];
    // SAFETY: called by the render thread with the adopted context current; one RGBA8 pixel.
    unsafe { read(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, pixel.as_mut_ptr().cast()) };
    PRESENTED.lock().unwrap().push(pixel);
    type Swap = unsafe extern "C" fn(P, P) -> c_uint;
    let swap: Swap = unsafe { std::mem::transmute(egl_lookup(c"eglSwapBuffers")) };
    unsafe { swap(d, s) }
}

/// Records every name and hands out counting wrappers for make-current and swap.
unsafe extern "C" fn counting_lookup(name: *const c_char) -> *const c_void {
    let text = unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned();
    let answer = match text.as_str() {
        "eglMakeCurrent" => counting_make_current as *const c_void,
        "eglSwapBuffers" => counting_swap as *const c_void,
        _ => unsafe { eglGetProcAddress(name) },
    };
    LOOKED_UP.lock().unwrap().push(text);
    answer
}

#[test]
fn every_egl_function_comes_from_the_given_lookup() {
    let adopted = RawEgl::new(16, 16);
    let device = unsafe { Device::adopt_egl(adopted.handles(counting_lookup), Options::default()) }.unwrap();
    assert_eq!(MAKE_CURRENT_CALLS.load(Ordering::SeqCst), 1, "made current through the lookup's function");
    let mut list = device.command_list();
    list.clear_color(1.0, 0.0, 0.0, 1.0);
    list.clear(gl::COLOR_BUFFER_BIT);
    device.submit(list).unwrap();
    device.wait_frames(1).unwrap();
    assert_eq!(SWAP_CALLS.load(Ordering::SeqCst), 0, "an adopted device presents only when asked, not at frame end");
    device.present().unwrap();
    // A present is ordered after the lists submitted before it: no wait between the two.
    let mut list = device.command_list();
    list.clear_color(0.0, 0.0, 1.0, 1.0);
    list.clear(gl::COLOR_BUFFER_BIT);
    device.submit(list).unwrap();
    device.present().unwrap();
    assert_eq!(SWAP_CALLS.load(Ordering::SeqCst), 2, "each present swapped through the lookup's function");
    let presented = PRESENTED.lock().unwrap().clone();
    assert_eq!(presented, vec![[255, 0, 0, 255], [0, 0, 255, 255]], "what each present showed");
    drop(device);
    assert_eq!(MAKE_CURRENT_CALLS.load(Ordering::SeqCst), 2, "released through the lookup's function");
    let names = LOOKED_UP.lock().unwrap().clone();
    for needed in ["eglMakeCurrent", "eglSwapBuffers", "eglBindAPI", "glClear"] {
        assert!(names.iter().any(|n| n == needed), "{needed} was not looked up: {names:?}");
    }
    assert!(adopted.make_current(), "released, so current here now");
    adopted.release();
}

/// A lookup that knows GL but no EGL function.
unsafe extern "C" fn gl_only_lookup(name: *const c_char) -> *const c_void {
    if unsafe { CStr::from_ptr(name) }.to_bytes().starts_with(b"egl") {
        return std::ptr::null();
    }
    unsafe { eglGetProcAddress(name) }
}

#[test]
fn refusals_say_what_to_do() {
    // A lookup without EGL functions: named, not a fallback to the global symbols.
    let adopted = RawEgl::new(16, 16);
    let error = unsafe { Device::adopt_egl(adopted.handles(gl_only_lookup), Options::default()) }.err().unwrap();
    let message = error.to_string();
    assert!(
        matches!(&error, Error::Context(ContextError::MissingFunction { name, .. }) if name == "eglMakeCurrent"),
        "{message}"
    );
    assert!(message.contains("eglGetProcAddress"), "{message}");

    // Current on this thread: EGL_BAD_ACCESS, with the way out; nothing waits.
    assert!(adopted.make_current());
    let error = unsafe { Device::adopt_egl(adopted.handles(plain_lookup), Options::default()) }.err().unwrap();
    let message = error.to_string();
    assert!(message.contains("EGL_BAD_ACCESS") && message.contains("release it there first"), "{message}");
    adopted.release();

    // OpenGL ES: glcmd replays desktop OpenGL.
    let gles = RawEgl::make(16, 16, true);
    let error = unsafe { Device::adopt_egl(gles.handles(plain_lookup), Options::default()) }.err().unwrap();
    assert!(error.to_string().contains("not desktop OpenGL"), "{error}");

    // Nothing to present: headless, and adopted with EGL_NO_SURFACE.
    let headless = common::device();
    let error = headless.present().unwrap_err();
    assert!(matches!(error, Error::Present(ContextError::NothingToPresent { .. })), "{error}");
    assert!(error.to_string().contains("no default framebuffer"), "{error}");
    let surfaceless = RawEgl::new(0, 0);
    let device = unsafe { Device::adopt_egl(surfaceless.handles(plain_lookup), Options::default()) }.unwrap();
    let error = device.present().unwrap_err();
    assert!(error.to_string().contains("no draw surface"), "{error}");
    let viewport = device.get_integerv(gl::VIEWPORT).unwrap();
    drop(device);
    assert!(surfaceless.make_current());
    let gl = surfaceless.gl();
    let mut direct = vec![0; 4];
    unsafe { (gl.GetIntegerv)(gl::VIEWPORT, direct.as_mut_ptr()) };
    surfaceless.release();
    assert_eq!(viewport, direct, "a surfaceless adopted context starts with the viewport the GL gives");
}

// ---------------------------------------------------------------------------------------------
// GLX on an X window (Xvfb)
// ---------------------------------------------------------------------------------------------

#[link(name = "X11")]
extern "C" {
    fn XInitThreads() -> c_int;
    fn XOpenDisplay(name: *const c_char) -> P;
    fn XDefaultScreen(display: P) -> c_int;
    fn XRootWindow(display: P, screen: c_int) -> c_ulong;
    fn XDefaultVisual(display: P, screen: c_int) -> P;
    fn XVisualIDFromVisual(visual: P) -> c_ulong;
    fn XCreateSimpleWindow(
        display: P,
        parent: c_ulong,
        x: c_int,
        y: c_int,
        w: c_uint,
        h: c_uint,
        border: c_uint,
        border_pixel: c_ulong,
        background: c_ulong,
    ) -> c_ulong;
    fn XMapWindow(display: P, window: c_ulong) -> c_int;
    fn XSync(display: P, discard: c_int) -> c_int;
    fn XFree(data: P) -> c_int;
}

#[link(name = "GLX")]
extern "C" {
    fn glXGetProcAddressARB(name: *const c_char) -> *const c_void;
}

unsafe extern "C" fn glx_lookup(name: *const c_char) -> *const c_void {
    unsafe { glXGetProcAddressARB(name) }
}

fn glx_fn<F: Copy>(name: &CStr) -> F {
    let f = unsafe { glXGetProcAddressARB(name.as_ptr()) };
    assert!(!f.is_null(), "glXGetProcAddressARB({name:?}) is NULL");
    unsafe { std::mem::transmute_copy(&f) }
}

/// A mapped `w`x`h` window with a GL 4.5 core GLX context on it (not current), on the
/// default visual.
fn glx_window(display: P, x: c_int, w: i32, h: i32) -> (c_ulong, P) {
    type ChooseConfig = unsafe extern "C" fn(P, c_int, *const c_int, *mut c_int) -> *mut P;
    type ConfigAttrib = unsafe extern "C" fn(P, P, c_int, *mut c_int) -> c_int;
    type CreateContext = unsafe extern "C" fn(P, P, P, c_int, *const c_int) -> P;
    let choose: ChooseConfig = glx_fn(c"glXChooseFBConfig");
    let attrib: ConfigAttrib = glx_fn(c"glXGetFBConfigAttrib");
    let create: CreateContext = glx_fn(c"glXCreateContextAttribsARB");
    unsafe {
        let screen = XDefaultScreen(display);
        let visual = XVisualIDFromVisual(XDefaultVisual(display, screen)) as c_int;
        #[rustfmt::skip]
        let wanted = [0x8012, 1, 0x8010, 1, 0x8011, 1, 8, 8, 9, 8, 10, 8, 5, 1, 0];
        let mut n = 0;
        let configs = choose(display, screen, wanted.as_ptr(), &mut n);
        assert!(!configs.is_null() && n > 0, "no GLX config for an RGB8 double-buffered window");
        let config = (0..n as usize)
            .map(|i| *configs.add(i))
            .find(|&c| {
                let mut id = 0;
                attrib(display, c, 0x800B, &mut id) == 0 && id == visual
            })
            .expect("a GLX config on the default visual");
        XFree(configs.cast());
        let window =
            XCreateSimpleWindow(display, XRootWindow(display, screen), x, 0, w as c_uint, h as c_uint, 0, 0, 0);
        XMapWindow(display, window);
        XSync(display, 0);
        let version = [0x2091, 4, 0x2092, 5, 0x9126, 1, 0];
        let context = create(display, config, std::ptr::null_mut(), 1, version.as_ptr());
        assert!(!context.is_null(), "glXCreateContextAttribsARB(4.5 core)");
        (window, context)
    }
}

#[test]
fn an_adopted_glx_window_is_framebuffer_zero_as_the_gl_gives_it() {
    if !common::tools::require(&[("Xvfb", "xvfb")]) {
        return;
    }
    let xvfb = common::xvfb::Xvfb::start();
    let (w, h) = (64, 48);
    let name = std::ffi::CString::new(xvfb.display.clone()).unwrap();
    let display = unsafe {
        XInitThreads();
        XOpenDisplay(name.as_ptr())
    };
    assert!(!display.is_null(), "XOpenDisplay({}): {}", xvfb.display, xvfb.stderr());
    let (window, context) = glx_window(display, 0, w, h);
    let handles = AdoptGlx { display, context, drawable: window, read_drawable: window, get_proc_address: glx_lookup };
    let device = unsafe { Device::adopt_glx(handles, Options::default()) }.unwrap();
    let (viewport, scissor, pixels) = through_device(&device, w, h);
    device.present().expect("glXSwapBuffers on the adopted window");
    drop(device);

    type MakeCurrent = unsafe extern "C" fn(P, c_ulong, P) -> c_int;
    let make_current: MakeCurrent = glx_fn(c"glXMakeCurrent");
    let (twin_window, twin) = glx_window(display, 100, w, h);
    assert_ne!(unsafe { make_current(display, twin_window, twin) }, 0, "the twin context");
    let gl = unsafe { Gl::load_with(|n| glXGetProcAddressARB(n.as_ptr())) };
    let (direct_viewport, direct_scissor, direct_pixels) = direct(&gl, w, h);
    unsafe { make_current(display, 0, std::ptr::null_mut()) };

    assert_eq!(viewport, vec![0, 0, w, h], "the initial viewport is the window's size");
    assert_eq!(scissor, vec![0, 0, w, h], "the initial scissor box is the window's size");
    assert_eq!((viewport, scissor), (direct_viewport, direct_scissor));
    assert!(colours(&direct_pixels) >= 4, "the picture has its clears and quads");
    assert_same_image("framebuffer 0 of the adopted GLX window", &pixels, &direct_pixels, w as usize);
    // Released by the device: it can be made current here.
    assert_ne!(unsafe { make_current(display, window, context) }, 0, "released when the device was dropped");
    unsafe { make_current(display, 0, std::ptr::null_mut()) };
}

/// The swap of `queued_presents_overlap_and_are_paced`: records the pixel it presents, then
/// waits until the test opens the gate, so the test holds presents "in flight" for as long as
/// it likes.
static GATE: (Mutex<bool>, std::sync::Condvar) = (Mutex::new(false), std::sync::Condvar::new());
static GATED_PRESENTED: Mutex<Vec<[u8; 4]>> = Mutex::new(Vec::new());

unsafe extern "C" fn gated_swap(d: P, s: P) -> c_uint {
    type ReadPixels = unsafe extern "system" fn(GLint, GLint, i32, i32, GLenum, GLenum, *mut c_void);
    let read: ReadPixels = load(c"glReadPixels");
    let mut pixel = [0u8; 4];
    // SAFETY: called by the render thread with the adopted context current; one RGBA8 pixel.
    unsafe { read(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, pixel.as_mut_ptr().cast()) };
    GATED_PRESENTED.lock().unwrap().push(pixel);
    let mut open = GATE.0.lock().unwrap();
    while !*open {
        open = GATE.1.wait(open).unwrap();
    }
    type Swap = unsafe extern "C" fn(P, P) -> c_uint;
    let swap: Swap = unsafe { std::mem::transmute(egl_lookup(c"eglSwapBuffers")) };
    unsafe { swap(d, s) }
}

unsafe extern "C" fn gated_lookup(name: *const c_char) -> *const c_void {
    match unsafe { CStr::from_ptr(name) }.to_bytes() {
        b"eglSwapBuffers" => gated_swap as *const c_void,
        _ => unsafe { eglGetProcAddress(name) },
    }
}

fn clear_to(device: &Device, rgba: [f32; 4]) {
    let mut list = device.command_list();
    list.clear_color(rgba[0], rgba[1], rgba[2], rgba[3]);
    list.clear(gl::COLOR_BUFFER_BIT);
    device.submit(list).unwrap();
}

/// `queue_present` returns before the swap, keeps the order of the lists around it, and holds a
/// caller back only while `FRAMES_IN_FLIGHT` presents are not done.
#[test]
fn queued_presents_overlap_and_are_paced() {
    assert_eq!(glcmd::FRAMES_IN_FLIGHT, 2);
    let adopted = RawEgl::new(16, 16);
    let device = unsafe { Device::adopt_egl(adopted.handles(gated_lookup), Options::default()) }.unwrap();
    // Two presents queue while the first swap is held: neither call waits for it.
    clear_to(&device, [1.0, 0.0, 0.0, 1.0]);
    device.queue_present().unwrap();
    clear_to(&device, [0.0, 1.0, 0.0, 1.0]);
    device.queue_present().unwrap();
    // A third must wait for the first to be done: it is still waiting however long we look.
    let returned = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let third = {
        let (device, returned) = (device.clone(), returned.clone());
        std::thread::spawn(move || {
            clear_to(&device, [0.0, 0.0, 1.0, 1.0]);
            let r = device.queue_present();
            returned.store(true, Ordering::SeqCst);
            r
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(!returned.load(Ordering::SeqCst), "a third present queued while two were not done");
    *GATE.0.lock().unwrap() = true;
    GATE.1.notify_all();
    third.join().unwrap().unwrap();
    device.present().unwrap(); // waits for everything queued
    let presented = GATED_PRESENTED.lock().unwrap().clone();
    assert_eq!(presented, vec![[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [0, 0, 255, 255]]);
    drop(device);
    adopted.release();
}

/// A queued present that fails is reported by the next call, and nothing waits for it.
#[test]
fn a_failed_queued_present_is_reported_by_the_next_call() {
    let device = Device::headless().unwrap();
    device.queue_present().unwrap(); // queued: the headless context has nothing to present
                                     // A query runs after the present queued before it, so the failure is known by now.
    device.get_error().unwrap();
    let err = device.queue_present().unwrap_err();
    assert!(matches!(err, glcmd::Error::Present(_)), "{err}");
    assert!(err.to_string().contains("default framebuffer") || err.to_string().contains("present"), "{err}");
}
