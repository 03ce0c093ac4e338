//! What is known of the program's displays and window surfaces, noted by the interposed
//! functions that make them (`teardown.rs`): the native X display of an EGL display, the X
//! window of an EGL window surface or a GLX window. `teardown.rs` and `x11.rs` ask which
//! window a context draws to and which X connection it uses; `contexts.rs` flushes those
//! connections when it finishes every device at exit (a present replayed after the program's
//! last X call would otherwise stay in the connection's buffer, which nothing flushes at exit).
//! And which process adopted a context: a forked child has the records but not the render
//! threads, and must not wait for them (`teardown.rs`'s `_exit`).

use std::collections::HashMap;
use std::ffi::{c_ulong, c_void};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Mutex;

use crate::current::{Api, Current};

pub const EGL_PLATFORM_X11_KHR: u32 = 0x31D5;

/// What is known of the program's displays and window surfaces.
#[derive(Default)]
pub struct Known {
    /// EGL display -> (its platform, 0 when made by `eglGetDisplay`; its native display).
    pub egl_displays: HashMap<usize, (u32, usize)>,
    /// (EGL display or X display, EGL surface or GLX window) -> the X window it draws to.
    pub windows: HashMap<(usize, usize), c_ulong>,
}

static KNOWN: Mutex<Option<Known>> = Mutex::new(None);

pub fn known<R>(f: impl FnOnce(&mut Known) -> R) -> R {
    f(KNOWN.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(Known::default))
}

/// The X windows a context's surfaces draw to or read from.
pub fn windows_of(c: &Current) -> Vec<c_ulong> {
    known(|k| {
        let mut out = Vec::new();
        for surface in [c.draw, c.read] {
            if surface == 0 {
                continue;
            }
            match (k.windows.get(&(c.display, surface)), c.api) {
                (Some(&w), _) => out.push(w),
                // GLX 1.2: the drawable is the X window (or a pixmap, which no window call ends).
                (None, Api::Glx) => out.push(surface as c_ulong),
                (None, Api::Egl) => {}
            }
        }
        out
    })
}

/// Whether `c` uses the X connection `dpy`: GLX on it, or an EGL display made from it.
pub fn uses_connection(c: &Current, dpy: usize) -> bool {
    match c.api {
        Api::Glx => c.display == dpy,
        Api::Egl => known(|k| k.egl_displays.get(&c.display).is_some_and(|&(_, native)| native == dpy)),
    }
}

/// The X connection (`Display *`) `c` uses, if known: GLX's display, or the native display
/// of an X11 EGL display.
pub fn connection_of(c: &Current) -> Option<usize> {
    match c.api {
        Api::Glx => Some(c.display),
        Api::Egl => known(|k| k.egl_displays.get(&c.display).map(|&(_, native)| native)).filter(|&n| n != 0),
    }
}

/// `XFlush` of each connection (open: a closed one's contexts were handed back and forgotten).
pub fn flush(connections: &[usize]) {
    // SAFETY: dlsym with a NUL-terminated name.
    let f = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"XFlush".as_ptr()) };
    if f.is_null() {
        return;
    }
    type F = unsafe extern "C" fn(*mut c_void) -> i32;
    for &c in connections {
        // SAFETY: libX11's XFlush, on a display the program still has open.
        unsafe { std::mem::transmute::<*mut c_void, F>(f)(c as *mut c_void) };
    }
}

/// The process that adopted a context last (0: none). A forked child inherits the parent's
/// records but not its render threads, so it must not wait for them.
static ADOPTED_BY: AtomicI32 = AtomicI32::new(0);

/// A context was adopted in this process.
pub fn note_adoption() {
    // SAFETY: getpid has no preconditions.
    ADOPTED_BY.store(unsafe { libc::getpid() }, Ordering::Relaxed);
}

/// Whether this process has render threads of its own: it adopted a context (a forked child,
/// or a vfork child about to `_exit`, has not).
pub fn owns_devices() -> bool {
    let by = ADOPTED_BY.load(Ordering::Relaxed);
    // SAFETY: getpid has no preconditions.
    by != 0 && by == unsafe { libc::getpid() }
}
