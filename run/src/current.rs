//! The vocabulary of the library: which API made a context, what a thread made current, and
//! whether the calling thread is one of glcmd's own render threads (which this library leaves
//! alone: a program that uses glcmd itself, or glcmd's render thread making an adopted context
//! current, reaches the system's functions).

use std::ffi::{c_char, CStr};

/// Which window-system API made a context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    Egl,
    Glx,
}

/// The handles a thread made current: the display, the draw and read surfaces (EGL surfaces
/// or GLX drawables, as integers) and the context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Current {
    pub api: Api,
    pub display: usize,
    pub draw: usize,
    pub read: usize,
    pub context: usize,
}

/// Whether the calling thread is one of glcmd's render threads, or the driver thread
/// (`driver.rs`), or a thread the driver started from one of them (which inherits its name).
pub fn on_render_thread() -> bool {
    let mut name = [0 as c_char; 32];
    // SAFETY: a buffer of the given length for the calling thread's name.
    let ok = unsafe { libc::pthread_getname_np(libc::pthread_self(), name.as_mut_ptr(), name.len()) } == 0;
    // SAFETY: pthread_getname_np NUL-terminates what it writes.
    ok && matches!(unsafe { CStr::from_ptr(name.as_ptr()) }.to_bytes(), b"glcmd-render" | b"glcmd-driver")
}
