//! `glcmd_capi::adopt::egl`, the way a Rust caller of the C ABI (the preload library) adopts an
//! application's EGL context with a whole `glcmd::Options`, which `GlcmdDeviceOptions` does not
//! carry: here a capture to a file. The handle it returns is an ordinary C handle
//! (`glcmdDevicePresent`, `glcmdDeviceDestroy`); the capture it asked for holds the frame drawn
//! into framebuffer 0; refusals come back as messages. The context is made with raw EGL calls
//! (Mesa's surfaceless platform, a pbuffer).

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::time::Duration;

use glcmd::capture::{Capture, CaptureOptions};
use glcmd::{gl, Options};
use glcmd_capi::{glcmdDeviceDestroy, glcmdDevicePresent, GlcmdAdoptEGL, GLCMD_OK};

#[link(name = "EGL")]
extern "C" {
    fn eglGetProcAddress(name: *const c_char) -> *mut c_void;
}

type P = *mut c_void;

fn egl<F: Copy>(name: &CStr) -> F {
    let f = unsafe { eglGetProcAddress(name.as_ptr()) };
    assert!(!f.is_null(), "eglGetProcAddress({name:?}) is NULL");
    // SAFETY: `F` is the EGL signature of the function named.
    unsafe { std::mem::transmute_copy(&f) }
}

unsafe extern "C" fn lookup(name: *const c_char) -> *mut c_void {
    unsafe { eglGetProcAddress(name) }
}

/// Display, context and 32x24 pbuffer: desktop OpenGL 4.5 core, or OpenGL ES 3 with `gles`.
fn raw_context(gles: bool) -> (P, P, P) {
    let get_display: unsafe extern "C" fn(c_uint, P, *const c_int) -> P = egl(c"eglGetPlatformDisplayEXT");
    let initialize: unsafe extern "C" fn(P, *mut c_int, *mut c_int) -> c_uint = egl(c"eglInitialize");
    let choose: unsafe extern "C" fn(P, *const c_int, *mut P, c_int, *mut c_int) -> c_uint = egl(c"eglChooseConfig");
    let pbuffer: unsafe extern "C" fn(P, P, *const c_int) -> P = egl(c"eglCreatePbufferSurface");
    let bind_api: unsafe extern "C" fn(c_uint) -> c_uint = egl(c"eglBindAPI");
    let create: unsafe extern "C" fn(P, P, P, *const c_int) -> P = egl(c"eglCreateContext");
    unsafe {
        let display = get_display(0x31DD, std::ptr::null_mut(), std::ptr::null());
        let (mut major, mut minor, mut n) = (0, 0, 0);
        assert_ne!(initialize(display, &mut major, &mut minor), 0, "eglInitialize");
        let renderable = if gles { 0x0040 } else { 0x0008 };
        let attribs = [0x3033, 1, 0x3040, renderable, 0x3024, 8, 0x3023, 8, 0x3022, 8, 0x3021, 8, 0x3038];
        let mut config = std::ptr::null_mut();
        assert_ne!(choose(display, attribs.as_ptr(), &mut config, 1, &mut n), 0);
        assert_eq!(n, 1, "an RGBA8 pbuffer config");
        let surface = pbuffer(display, config, [0x3057, 32, 0x3056, 24, 0x3038].as_ptr());
        let (api, version) =
            if gles { (0x30A0, vec![0x3098, 3, 0x3038]) } else { (0x30A2, vec![0x3098, 4, 0x30FB, 5, 0x3038]) };
        bind_api(api);
        let context = create(display, config, std::ptr::null_mut(), version.as_ptr());
        assert!(!surface.is_null() && !context.is_null(), "pbuffer and context");
        (display, context, surface)
    }
}

fn adopt_struct(display: P, context: P, surface: P) -> GlcmdAdoptEGL {
    GlcmdAdoptEGL { display, context, draw: surface, read: surface, getProcAddress: Some(lookup) }
}

#[test]
fn a_rust_caller_adopts_with_whole_options_and_gets_a_c_handle() {
    let (display, context, surface) = raw_context(false);
    let path = std::env::temp_dir().join(format!("glcmd-capi-adopt-{}.glcap", std::process::id()));
    let options = Options::default().capture(Some(CaptureOptions::default()));
    let handle = unsafe { glcmd_capi::adopt::egl(&adopt_struct(display, context, surface), options) }.unwrap();
    let device = glcmd_capi::handles::device("test", handle as usize).unwrap().device("test").unwrap();

    let capture = device.capture(&path, 1).unwrap();
    let frame = device.begin_frame(1).unwrap();
    let mut list = device.command_list();
    list.set_label("adopted frame");
    list.clear_color(0.0, 1.0, 0.0, 1.0);
    list.clear(gl::COLOR_BUFFER_BIT);
    frame.submit(0, list).unwrap();
    drop(frame);
    assert_eq!(glcmdDevicePresent(handle), GLCMD_OK, "glcmdDevicePresent on the Rust-made handle");
    let summary = capture.wait(Duration::from_secs(60)).unwrap();
    assert_eq!(summary.frames, 1, "{summary:?}");
    let pixel = device.readn_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, 4).unwrap();
    assert_eq!(pixel, [0, 255, 0, 255], "framebuffer 0 of the pbuffer");
    drop(device);
    assert_eq!(glcmdDeviceDestroy(handle), GLCMD_OK);

    let captured = Capture::open(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(captured.frames(), 1);
    assert!(captured.lists().any(|l| l.label == "adopted frame"), "the frame's list is in the capture");
}

#[test]
fn refusals_come_back_as_messages() {
    let (display, context, surface) = raw_context(false);
    let mut adopt = adopt_struct(display, context, surface);
    adopt.getProcAddress = None;
    let message = unsafe { glcmd_capi::adopt::egl(&adopt, Options::default()) }.unwrap_err();
    assert!(message.contains("getProcAddress") && message.contains("NULL"), "{message}");

    let (display, context, surface) = raw_context(true);
    let message =
        unsafe { glcmd_capi::adopt::egl(&adopt_struct(display, context, surface), Options::default()) }.unwrap_err();
    assert!(message.contains("not desktop OpenGL"), "{message}");
}
