//! Window-system teardown: glcmd's deferral never moves GL work, a present or a context
//! release past a window-system call that ends what it uses.
//!
//! An adopted context's calls replay later, on glcmd's render thread, which keeps the context
//! current on the program's surfaces and releases it when its device is destroyed. Whatever
//! the program ends while that is pending would be used after its end: presents and draws
//! queued for a window the program has destroyed raise `BadDrawable` (Godot: `XDestroyWindow`,
//! then `glXMakeCurrent(None)`); a context released at exit on a display the program closed
//! makes Mesa free an X GC on a closed connection (mpv: `eglTerminate`, `XCloseDisplay`, `exit`;
//! Blender: `XCloseDisplay` with its GLX context never destroyed); presents still queued when
//! the program calls `_exit` never reach the window. So every call that ends a window-system
//! object first **hands back** the adopted contexts that use it (`contexts::hand_back`): their
//! devices replay everything submitted, present what was queued and release the context on the
//! render thread while the object is still alive; the thread that had one current gets it
//! current again directly, as it would be without glcmd (on a window being destroyed, with no
//! surface: rebound on the window, Mesa's next release would present to it after its end); the
//! next make-current adopts it again.
//!
//! | call | hands back the adopted contexts |
//! | --- | --- |
//! | `XDestroyWindow(dpy, w)` (`x11.rs`) | drawing to `w` or to a window inside it |
//! | `XDestroySubwindows(dpy, w)` | drawing to a window inside `w` |
//! | `XCloseDisplay(dpy)` | of GLX on `dpy`, of EGL displays made from `dpy` |
//! | `eglTerminate(dpy)` | of `dpy` |
//! | `eglDestroySurface`, `glXDestroyWindow`, `glXDestroyPbuffer` | drawing to or reading from it (`contexts::surface_destroyed`) |
//! | `eglDestroyContext`, `glXDestroyContext` | that context (`contexts::destroy`) |
//! | `exit`, a return from `main` | all, the exiting thread's current to it directly (`contexts/hand_back.rs`) |
//! | `exit` on another thread | all (`contexts::destroy_all`, an `atexit` handler) |
//! | `_exit`, `_Exit`, `quick_exit` (here) | as `exit`, before the process ends or its quick-exit handlers run |
//!
//! `eglReleaseThread` submits the thread's calls and waits until they have replayed and been
//! flushed (`egl.rs`). After `eglTerminate` or `XCloseDisplay`, the contexts of that display
//! are forgotten (their handles may come back for new contexts), so at exit glcmd releases
//! nothing the program has already torn down. At exit, after the last presents have replayed,
//! the X connections they went through are flushed (`native::flush`): the program's own last
//! X call may have come before them, and nothing flushes a connection at exit.
//!
//! To know which window a surface draws to, the functions that make surfaces and displays are
//! interposed here and what they make is noted (`native.rs`): `eglGetDisplay`, `eglGetPlatformDisplay(EXT)` (the native X display of an X11
//! EGL display), `eglCreateWindowSurface`, `eglCreatePlatformWindowSurface(EXT)` (the X window
//! of a surface) and `glXCreateWindow` (the X window of a GLX window). A GLX 1.2 context made
//! current on an X window draws to that window itself.
//!
//! Not covered: Wayland (`wl_egl_window_destroy`; no compositor to test with here), XCB
//! displays (`xcb_disconnect`, `EGL_PLATFORM_XCB_EXT`), and a window destroyed by an X
//! connection other than the one that made it current while the EGL display was made with
//! `EGL_DEFAULT_DISPLAY` (its windows are still matched by id; its connection is not closed by
//! the program).

#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::ffi::{c_int, c_ulong, c_void, CStr};

use crate::contexts::{self, Api, Rebind};
use crate::native::{self, known, EGL_PLATFORM_X11_KHR};
use crate::{driver, egl, glx, real};

/// `XCloseDisplay(dpy)` is about to run: what glcmd knows of `dpy` goes.
pub fn connection_closed(dpy: usize) {
    contexts::forget_display(dpy);
    known(|k| {
        k.windows.retain(|(d, _), _| *d != dpy);
        for (_, native) in k.egl_displays.values_mut() {
            if *native == dpy {
                // The EGL display lives on (it may still be terminated), but its connection is
                // gone: a new connection at the same address is another one.
                *native = 0;
            }
        }
    });
}

fn note_display(display: *mut c_void, platform: u32, native: *mut c_void) {
    if !display.is_null() {
        known(|k| k.egl_displays.insert(display as usize, (platform, native as usize)));
    }
}

fn note_window(display: usize, surface: usize, window: c_ulong) {
    if surface != 0 {
        known(|k| k.windows.insert((display, surface), window));
    }
}

/// The native X window behind `eglCreatePlatformWindowSurface`'s argument, on an X11 display.
fn platform_window(dpy: *mut c_void, native: *mut c_void) -> Option<c_ulong> {
    let x11 = known(|k| k.egl_displays.get(&(dpy as usize)).is_some_and(|&(p, _)| p == EGL_PLATFORM_X11_KHR));
    // SAFETY: on the X11 platform the argument points to a `Window` (EGL_KHR_platform_x11); the
    // real call, made first, has read it too.
    (x11 && !native.is_null()).then(|| unsafe { *(native as *const c_ulong) })
}

type GetPlatformDisplay = unsafe extern "C" fn(u32, *mut c_void, *const c_void) -> *mut c_void;

/// `eglGetPlatformDisplay` (attributes `EGLAttrib`) and `eglGetPlatformDisplayEXT` (`EGLint`):
/// the same for what is noted.
fn get_platform_display(name: &CStr, platform: u32, native: *mut c_void, attribs: *const c_void) -> *mut c_void {
    let f = egl::real_egl(name);
    if f.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the system's function of this name; the program's arguments.
    let display = unsafe {
        driver::egl(|| std::mem::transmute::<*const c_void, GetPlatformDisplay>(f)(platform, native, attribs))
    };
    note_display(display, platform, native);
    display
}

#[no_mangle]
pub unsafe extern "C" fn eglGetPlatformDisplay(
    platform: u32,
    native: *mut c_void,
    attribs: *const isize,
) -> *mut c_void {
    get_platform_display(c"eglGetPlatformDisplay", platform, native, attribs.cast())
}

unsafe extern "C" fn get_platform_display_ext(platform: u32, native: *mut c_void, attribs: *const i32) -> *mut c_void {
    get_platform_display(c"eglGetPlatformDisplayEXT", platform, native, attribs.cast())
}

#[no_mangle]
pub unsafe extern "C" fn eglGetDisplay(native: *mut c_void) -> *mut c_void {
    type F = unsafe extern "C" fn(*mut c_void) -> *mut c_void;
    let f = egl::real_egl(c"eglGetDisplay");
    if f.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the system's function of this name; the program's argument.
    let display = unsafe { driver::egl(|| std::mem::transmute::<*const c_void, F>(f)(native)) };
    note_display(display, 0, native);
    display
}

#[no_mangle]
pub unsafe extern "C" fn eglCreateWindowSurface(
    dpy: *mut c_void,
    config: *mut c_void,
    window: c_ulong,
    attribs: *const i32,
) -> *mut c_void {
    type F = unsafe extern "C" fn(*mut c_void, *mut c_void, c_ulong, *const i32) -> *mut c_void;
    let f = egl::real_egl(c"eglCreateWindowSurface");
    if f.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the system's function of this name; the program's arguments.
    let surface = unsafe { driver::egl(|| std::mem::transmute::<*const c_void, F>(f)(dpy, config, window, attribs)) };
    note_window(dpy as usize, surface as usize, window);
    surface
}

type CreatePlatformWindowSurface =
    unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_void, *const c_void) -> *mut c_void;

fn create_platform_window_surface(
    name: &CStr,
    dpy: *mut c_void,
    config: *mut c_void,
    native: *mut c_void,
    attribs: *const c_void,
) -> *mut c_void {
    let f = egl::real_egl(name);
    if f.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: the system's function of this name; the program's arguments.
    let surface = unsafe {
        driver::egl(|| {
            std::mem::transmute::<*const c_void, CreatePlatformWindowSurface>(f)(dpy, config, native, attribs)
        })
    };
    if !surface.is_null() {
        if let Some(window) = platform_window(dpy, native) {
            note_window(dpy as usize, surface as usize, window);
        }
    }
    surface
}

#[no_mangle]
pub unsafe extern "C" fn eglCreatePlatformWindowSurface(
    dpy: *mut c_void,
    config: *mut c_void,
    native: *mut c_void,
    attribs: *const isize,
) -> *mut c_void {
    create_platform_window_surface(c"eglCreatePlatformWindowSurface", dpy, config, native, attribs.cast())
}

unsafe extern "C" fn create_platform_window_surface_ext(
    dpy: *mut c_void,
    config: *mut c_void,
    native: *mut c_void,
    attribs: *const i32,
) -> *mut c_void {
    create_platform_window_surface(c"eglCreatePlatformWindowSurfaceEXT", dpy, config, native, attribs.cast())
}

#[no_mangle]
pub unsafe extern "C" fn eglTerminate(dpy: *mut c_void) -> u32 {
    if !crate::current::on_render_thread() {
        let display = dpy as usize;
        contexts::hand_back(|c| c.api == Api::Egl && c.display == display, Rebind::Same);
        contexts::forget_display(display);
        known(|k| k.windows.retain(|(d, _), _| *d != display));
    }
    type F = unsafe extern "C" fn(*mut c_void) -> u32;
    let f = egl::real_egl(c"eglTerminate");
    if f.is_null() {
        return 0;
    }
    // SAFETY: the system's function of this name; the program's argument.
    unsafe { driver::egl(|| std::mem::transmute::<*const c_void, F>(f)(dpy)) }
}

#[no_mangle]
pub unsafe extern "C" fn glXCreateWindow(
    dpy: *mut c_void,
    config: *mut c_void,
    window: c_ulong,
    attribs: *const c_int,
) -> c_ulong {
    type F = unsafe extern "C" fn(*mut c_void, *mut c_void, c_ulong, *const c_int) -> c_ulong;
    let f = glx::real_glx(c"glXCreateWindow");
    if f.is_null() {
        return 0;
    }
    // SAFETY: the system's function of this name; the program's arguments.
    let glx_window =
        unsafe { driver::run(|| std::mem::transmute::<*const c_void, F>(f)(dpy, config, window, attribs)) };
    note_window(dpy as usize, glx_window as usize, window);
    glx_window
}

/// The process is about to end without its exit handlers: every device finishes first.
fn before_quick_end() {
    if native::owns_devices() && !crate::current::on_render_thread() {
        // A panic must not unwind into the C library.
        let _ = std::panic::catch_unwind(contexts::finish_for_exit);
    }
}

/// The real function `name` of type `fn(c_int) -> !`, or the exit_group system call.
fn end_with(name: &CStr, status: c_int) -> ! {
    type F = unsafe extern "C" fn(c_int) -> !;
    let f = real::next(name);
    if !f.is_null() {
        // SAFETY: the C library's function of this name and signature.
        unsafe { std::mem::transmute::<*const c_void, F>(f)(status) }
    }
    // SAFETY: ends the process.
    unsafe { libc::syscall(libc::SYS_exit_group, status as libc::c_long) };
    unreachable!("exit_group returned")
}

#[no_mangle]
pub unsafe extern "C" fn _exit(status: c_int) -> ! {
    before_quick_end();
    end_with(c"_exit", status)
}

#[no_mangle]
pub unsafe extern "C" fn _Exit(status: c_int) -> ! {
    before_quick_end();
    end_with(c"_Exit", status)
}

#[no_mangle]
pub unsafe extern "C" fn quick_exit(status: c_int) -> ! {
    before_quick_end();
    end_with(c"quick_exit", status)
}

/// This module's stand-in for an EGL or GLX function, if it has one (for `proc_address.rs`).
pub fn interposed(name: &CStr) -> Option<*const c_void> {
    Some(match name.to_bytes() {
        b"eglGetDisplay" => eglGetDisplay as *const c_void,
        b"eglGetPlatformDisplay" => eglGetPlatformDisplay as *const c_void,
        b"eglGetPlatformDisplayEXT" => get_platform_display_ext as *const c_void,
        b"eglCreateWindowSurface" => eglCreateWindowSurface as *const c_void,
        b"eglCreatePlatformWindowSurface" => eglCreatePlatformWindowSurface as *const c_void,
        b"eglCreatePlatformWindowSurfaceEXT" => create_platform_window_surface_ext as *const c_void,
        b"eglTerminate" => eglTerminate as *const c_void,
        b"glXCreateWindow" => glXCreateWindow as *const c_void,
        _ => return None,
    })
}
