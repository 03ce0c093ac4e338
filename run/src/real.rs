//! The functions this library stands in front of: the real ones, found with
//! `dlsym(RTLD_NEXT, …)`.
//!
//! Preloaded, this library's `eglMakeCurrent`, `glXSwapBuffers`, `dlopen`, … come before the
//! system's in every lookup of the process, glcmd's own included. So nothing here, and nothing
//! glcmd does for an adopted context, may look one up by name in the global scope: the real
//! function is the *next* definition after this library (`RTLD_NEXT`), and glcmd's render
//! thread gets every EGL/GLX function it needs through the get-proc-address function handed to
//! it, which is the real one ([`egl_get_proc_address`], [`glx_get_proc_address`]).

use std::ffi::{c_char, c_void, CStr};

/// The next definition of `name` after this library, or NULL.
pub fn next(name: &CStr) -> *const c_void {
    // SAFETY: dlsym with a NUL-terminated name; RTLD_NEXT is valid in a shared object.
    unsafe { libc::dlsym(libc::RTLD_NEXT, name.as_ptr()) as *const c_void }
}

/// Looks `name` up once and keeps it; `$ty` is its C signature.
macro_rules! real_fn {
    ($fn_name:ident, $c_name:literal, $ty:ty) => {
        pub fn $fn_name() -> Option<$ty> {
            static CELL: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
            let p = *CELL.get_or_init(|| next($c_name) as usize);
            // SAFETY: the system's definition of this name has this C signature.
            (p != 0).then(|| unsafe { std::mem::transmute::<usize, $ty>(p) })
        }
    };
}

pub type GetProcAddress = unsafe extern "C" fn(*const c_char) -> *const c_void;

real_fn!(egl_get_proc_address, c"eglGetProcAddress", GetProcAddress);
real_fn!(glx_get_proc_address, c"glXGetProcAddressARB", GetProcAddress);
real_fn!(
    egl_make_current,
    c"eglMakeCurrent",
    unsafe extern "C" fn(*mut c_void, *mut c_void, *mut c_void, *mut c_void) -> u32
);
real_fn!(egl_swap_buffers, c"eglSwapBuffers", unsafe extern "C" fn(*mut c_void, *mut c_void) -> u32);
real_fn!(egl_destroy_context, c"eglDestroyContext", unsafe extern "C" fn(*mut c_void, *mut c_void) -> u32);
real_fn!(egl_destroy_surface, c"eglDestroySurface", unsafe extern "C" fn(*mut c_void, *mut c_void) -> u32);
real_fn!(egl_get_current_context, c"eglGetCurrentContext", unsafe extern "C" fn() -> *mut c_void);
real_fn!(egl_get_current_surface, c"eglGetCurrentSurface", unsafe extern "C" fn(i32) -> *mut c_void);
real_fn!(egl_get_current_display, c"eglGetCurrentDisplay", unsafe extern "C" fn() -> *mut c_void);
real_fn!(egl_get_error, c"eglGetError", unsafe extern "C" fn() -> i32);
real_fn!(egl_release_thread, c"eglReleaseThread", unsafe extern "C" fn() -> u32);
real_fn!(egl_swap_interval, c"eglSwapInterval", unsafe extern "C" fn(*mut c_void, i32) -> u32);
real_fn!(egl_query_api, c"eglQueryAPI", unsafe extern "C" fn() -> u32);
real_fn!(egl_bind_api, c"eglBindAPI", unsafe extern "C" fn(u32) -> u32);
real_fn!(glx_make_current, c"glXMakeCurrent", unsafe extern "C" fn(*mut c_void, std::ffi::c_ulong, *mut c_void) -> i32);
real_fn!(
    glx_make_context_current,
    c"glXMakeContextCurrent",
    unsafe extern "C" fn(*mut c_void, std::ffi::c_ulong, std::ffi::c_ulong, *mut c_void) -> i32
);
real_fn!(glx_swap_buffers, c"glXSwapBuffers", unsafe extern "C" fn(*mut c_void, std::ffi::c_ulong));
real_fn!(glx_destroy_context, c"glXDestroyContext", unsafe extern "C" fn(*mut c_void, *mut c_void));
real_fn!(glx_get_current_context, c"glXGetCurrentContext", unsafe extern "C" fn() -> *mut c_void);
real_fn!(glx_get_current_drawable, c"glXGetCurrentDrawable", unsafe extern "C" fn() -> std::ffi::c_ulong);
real_fn!(glx_get_current_read_drawable, c"glXGetCurrentReadDrawable", unsafe extern "C" fn() -> std::ffi::c_ulong);
real_fn!(glx_get_current_display, c"glXGetCurrentDisplay", unsafe extern "C" fn() -> *mut c_void);
real_fn!(dlopen, c"dlopen", unsafe extern "C" fn(*const c_char, i32) -> *mut c_void);

/// The driver's `name` (a `gl*` function): from the real `glXGetProcAddressARB`, which with
/// libglvnd serves EGL contexts as well, else from the real `eglGetProcAddress`. NULL if neither
/// loader library is loaded.
pub fn gl_function(name: &CStr) -> *const c_void {
    // SAFETY: a NUL-terminated name.
    unsafe {
        if let Some(f) = glx_get_proc_address() {
            return f(name.as_ptr());
        }
        if let Some(f) = egl_get_proc_address() {
            return f(name.as_ptr());
        }
    }
    std::ptr::null()
}
