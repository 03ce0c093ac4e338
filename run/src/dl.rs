//! `dlopen` of the GL loader libraries, redirected to this library.
//!
//! Many programs do not link libEGL or libGL: they open it with `dlopen` and look functions up
//! with `dlsym` on that handle (waffle, and so piglit; SDL; GLFW; glad's loader). Such a lookup
//! searches the opened library and its dependencies, not the preloaded one, so it would find
//! the system's `eglMakeCurrent` and the driver's `glDrawArrays`. So `dlopen` of any of
//! libglvnd's loader libraries (`libEGL.so*`, `libGL.so*`, `libGLX.so*`, `libOpenGL.so*`,
//! `libGLESv2.so*`, `libGLESv1_CM.so*`) loads the library as asked and then returns a handle of
//! *this* library: its own symbols come first, and the rest are found in its dependencies,
//! libEGL and libGL (`build.rs` links them), as apitrace's tracers do. libGL exports every name
//! libGLESv2, libGLESv1_CM and libOpenGL export, so each name the opened library has is found.
//!
//! Why every one of them: a function taken from a library left out reaches the driver's
//! dispatch, and on a thread whose context glcmd adopted the driver has no context current
//! there (glcmd's render thread has it): `glGetString` returned NULL and draws did nothing for
//! a program that took its functions from `dlopen("libGLESv2.so.2")` (piglit's dispatch, which
//! then crashed). The one difference left: such a handle also finds names the opened library
//! lacks (a desktop function in libGLESv2's handle).
//!
//! glcmd's render thread is left alone (the driver and glcmd's own loader open what they ask
//! for), and so is every other library name.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::OnceLock;

use crate::real;

/// Whether `path` names one of the GL loader libraries.
fn is_gl_loader(path: &CStr) -> bool {
    let bytes = path.to_bytes();
    let base = bytes.rsplit(|&b| b == b'/').next().unwrap_or(bytes);
    [&b"libEGL.so"[..], b"libGL.so", b"libGLX.so", b"libOpenGL.so", b"libGLESv2.so", b"libGLESv1_CM.so"]
        .iter()
        .any(|p| base.starts_with(p))
}

/// This library's own path (from `dladdr` of one of its functions).
fn own_path() -> Option<&'static CStr> {
    static PATH: OnceLock<Option<std::ffi::CString>> = OnceLock::new();
    PATH.get_or_init(|| {
        let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
        // SAFETY: dladdr of a function of this library writes `info`.
        let found = unsafe { libc::dladdr(own_path as *const c_void, &mut info) } != 0;
        (found && !info.dli_fname.is_null())
            // SAFETY: dladdr's file name is NUL-terminated and lives as long as the library.
            .then(|| unsafe { CStr::from_ptr(info.dli_fname) }.to_owned())
    })
    .as_deref()
}

#[no_mangle]
pub unsafe extern "C" fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void {
    let Some(real_dlopen) = real::dlopen() else { return std::ptr::null_mut() };
    // SAFETY: the program's call, passed on unchanged.
    let handle = unsafe { real_dlopen(filename, flags) };
    if handle.is_null() || filename.is_null() {
        return handle;
    }
    // SAFETY: a non-NULL file name is NUL-terminated.
    let name = unsafe { CStr::from_ptr(filename) };
    if !is_gl_loader(name) || crate::current::on_render_thread() {
        return handle;
    }
    match own_path() {
        // SAFETY: this library is loaded (it is running), so opening it again only counts a
        // reference. The system library stays open too (its handle is not closed).
        Some(own) => {
            let mine = unsafe { real_dlopen(own.as_ptr(), flags) };
            if mine.is_null() {
                handle
            } else {
                mine
            }
        }
        None => handle,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn gl_loaders_are_recognised_by_base_name() {
        for yes in [
            c"libEGL.so.1",
            c"/usr/lib/x86_64-linux-gnu/libGL.so.1",
            c"libOpenGL.so.0",
            c"libGLX.so.0",
            c"libGL.so",
            c"libGLESv2.so.2",
            c"/usr/lib/x86_64-linux-gnu/libGLESv1_CM.so.1",
        ] {
            assert!(super::is_gl_loader(yes), "{yes:?}");
        }
        for no in
            [c"libGLX_mesa.so.0", c"libEGL_nvidia.so.0", c"libGLESv2_nvidia.so.2", c"libc.so.6", c"/opt/libGL.so/x.so"]
        {
            assert!(!super::is_gl_loader(no), "{no:?}");
        }
    }
}
