//! Adopting a context the application already made: raw EGL and GLX handles.
//!
//! [`GlContext::headless`](crate::context::GlContext::headless) and
//! [`GlContext::from_window`](crate::context::GlContext::from_window) build or take a context
//! through glutin. Applications that made their context with something else (SDL, GLFW, winit
//! without glutin, a toolkit) or a preload library that intercepts an unmodified program's
//! `eglMakeCurrent`/`glXMakeCurrent` have only raw handles. This module takes those handles
//! ([`AdoptEgl`], [`AdoptGlx`]) and a get-proc-address function, and on the render thread makes
//! the context current, presents (`eglSwapBuffers`/`glXSwapBuffers`) when asked, and on drop
//! makes nothing current again. It never creates or destroys anything: the application owns
//! the display, the context and the surfaces.
//!
//! # Every function through the given get-proc-address
//!
//! The EGL or GLX functions the render thread calls (make-current, swap, get-error, query
//! surface, query context, bind API) are looked up **only** through the get-proc-address
//! function the caller gives, never by name in the process's global symbol scope. A preload
//! library interposes `eglMakeCurrent`, `glXMakeCurrent` and the swap functions there (so that
//! an unmodified program's calls reach it instead of the driver); calling those from the render
//! thread would call the preload back. With libglvnd, `eglGetProcAddress` and
//! `glXGetProcAddressARB` return the core EGL and GLX functions too, from the library's own
//! table. A function the lookup does not give is a clear error
//! ([`ContextError::MissingFunction`]), not a fallback to `dlsym`.
//!
//! # The default framebuffer
//!
//! With a draw surface, framebuffer 0 is that surface's default framebuffer and the GL sets the
//! initial viewport and scissor box to its size when the context is first made current (on the
//! render thread: the application must not have made it current before, or the GL keeps what it
//! had then). Adopted with `EGL_NO_SURFACE` (`EGL_KHR_surfaceless_context`), the context has no
//! default framebuffer, as a headless one.
//!
//! # EGL: the bound API
//!
//! `eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT)` releases the context of
//! the thread's *bound API*, and a new thread's bound API is OpenGL ES. The render thread
//! therefore binds `EGL_OPENGL_API` before making the context current and before releasing it.
//! An OpenGL ES context is refused: glcmd replays desktop OpenGL.

use std::ffi::{c_char, c_int, c_uint, c_ulong, c_void, CStr};

use crate::error::ContextError;

/// An `eglGetProcAddress`- or `glXGetProcAddressARB`-like function: the address of the named
/// function, or null.
pub type GetProcAddress = unsafe extern "C" fn(name: *const c_char) -> *const c_void;

/// An EGL context the application made, as raw handles (see [`Device::adopt_egl`](crate::Device::adopt_egl)).
#[derive(Clone, Copy, Debug)]
pub struct AdoptEgl {
    /// The initialized `EGLDisplay`.
    pub display: *mut c_void,
    /// The `EGLContext`: desktop OpenGL, not current on any thread.
    pub context: *mut c_void,
    /// The `EGLSurface` drawn to, or null (`EGL_NO_SURFACE`) for a surfaceless context.
    pub draw: *mut c_void,
    /// The `EGLSurface` read from, or null (`EGL_NO_SURFACE`).
    pub read: *mut c_void,
    /// `eglGetProcAddress` (or a function that answers as it does, EGL functions included).
    pub get_proc_address: GetProcAddress,
}

/// A GLX context the application made, as raw handles (see [`Device::adopt_glx`](crate::Device::adopt_glx)).
#[derive(Clone, Copy, Debug)]
pub struct AdoptGlx {
    /// The Xlib `Display*`; Xlib must be thread-safe (`XInitThreads` called before it was opened).
    pub display: *mut c_void,
    /// The `GLXContext`, not current on any thread.
    pub context: *mut c_void,
    /// The `GLXDrawable` drawn to (a window, pixmap or pbuffer), or 0 for none.
    pub drawable: c_ulong,
    /// The `GLXDrawable` read from; 0 means the same as `drawable`.
    pub read_drawable: c_ulong,
    /// `glXGetProcAddressARB` (or a function that answers as it does, GLX functions included).
    pub get_proc_address: GetProcAddress,
}

/// Handles on their way to the render thread.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Handles {
    Egl(AdoptEgl),
    Glx(AdoptGlx),
}

// SAFETY: the handles are plain values; the unsafe constructors that take them require that they
// stay valid and that the context is current on no thread, so using them on the render thread is
// what the caller promised.
unsafe impl Send for Handles {}

const EGL_SUCCESS: c_int = 0x3000;
const EGL_CONTEXT_CLIENT_TYPE: c_int = 0x3097;
const EGL_OPENGL_API: c_uint = 0x30A2;
const EGL_WIDTH: c_int = 0x3057;
const EGL_HEIGHT: c_int = 0x3056;
const EGL_VENDOR: c_int = 0x3053;
const EGL_VERSION: c_int = 0x3054;
const GLX_WIDTH: c_int = 0x801D;
const GLX_HEIGHT: c_int = 0x801E;

type EglBool = c_uint;
type Ptr = *mut c_void;

struct EglFns {
    make_current: unsafe extern "C" fn(Ptr, Ptr, Ptr, Ptr) -> EglBool,
    swap_buffers: unsafe extern "C" fn(Ptr, Ptr) -> EglBool,
    get_error: unsafe extern "C" fn() -> c_int,
    query_surface: unsafe extern "C" fn(Ptr, Ptr, c_int, *mut c_int) -> EglBool,
    query_context: unsafe extern "C" fn(Ptr, Ptr, c_int, *mut c_int) -> EglBool,
    bind_api: unsafe extern "C" fn(c_uint) -> EglBool,
    query_string: Option<unsafe extern "C" fn(Ptr, c_int) -> *const c_char>,
}

struct GlxFns {
    make_context_current: Option<unsafe extern "C" fn(Ptr, c_ulong, c_ulong, Ptr) -> c_int>,
    make_current: unsafe extern "C" fn(Ptr, c_ulong, Ptr) -> c_int,
    swap_buffers: unsafe extern "C" fn(Ptr, c_ulong),
    query_drawable: Option<unsafe extern "C" fn(Ptr, c_ulong, c_int, *mut c_uint)>,
}

enum Api {
    Egl(EglFns, AdoptEgl),
    Glx(GlxFns, AdoptGlx),
}

/// An adopted context, current on the render thread until dropped (then released, not
/// destroyed). Not `Send`: it holds raw pointers, and it lives and dies on the render thread.
pub(crate) struct Adopted {
    api: Api,
    get_proc_address: GetProcAddress,
}

/// Looks `name` up through `gpa` and casts it to `F` (a function pointer type), or None.
///
/// # Safety
/// `F` must be the function pointer type of the function called `name`.
unsafe fn lookup<F: Copy>(gpa: GetProcAddress, name: &CStr) -> Option<F> {
    debug_assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*const c_void>());
    // SAFETY: `gpa` is a get-proc-address function (the constructors' contract) and `name` is
    // NUL-terminated.
    let address = unsafe { gpa(name.as_ptr()) };
    if address.is_null() {
        return None;
    }
    // SAFETY: a non-null address of the function called `name`, whose type the caller gives.
    Some(unsafe { std::mem::transmute_copy::<*const c_void, F>(&address) })
}

/// [`lookup`], or the error that names the missing function.
///
/// # Safety
/// As [`lookup`].
unsafe fn require<F: Copy>(
    gpa: GetProcAddress,
    platform: &'static str,
    name: &'static CStr,
) -> Result<F, ContextError> {
    // SAFETY: forwarded contract.
    unsafe { lookup(gpa, name) }
        .ok_or(ContextError::MissingFunction { platform, name: name.to_str().unwrap_or("?").to_owned() })
}

/// The name of an EGL error code.
pub(crate) fn egl_error_name(code: c_int) -> String {
    let name = match code {
        0x3000 => "EGL_SUCCESS",
        0x3001 => "EGL_NOT_INITIALIZED",
        0x3002 => "EGL_BAD_ACCESS",
        0x3003 => "EGL_BAD_ALLOC",
        0x3004 => "EGL_BAD_ATTRIBUTE",
        0x3005 => "EGL_BAD_CONFIG",
        0x3006 => "EGL_BAD_CONTEXT",
        0x3007 => "EGL_BAD_CURRENT_SURFACE",
        0x3008 => "EGL_BAD_DISPLAY",
        0x3009 => "EGL_BAD_MATCH",
        0x300A => "EGL_BAD_NATIVE_PIXMAP",
        0x300B => "EGL_BAD_NATIVE_WINDOW",
        0x300C => "EGL_BAD_PARAMETER",
        0x300D => "EGL_BAD_SURFACE",
        0x300E => "EGL_CONTEXT_LOST",
        _ => return format!("EGL error 0x{code:04X}"),
    };
    format!("{name} (0x{code:04X})")
}

impl Adopted {
    /// Makes the adopted context current on the calling (render) thread.
    ///
    /// # Safety
    /// The handles are valid, the context is current on no thread, and they outlive the result
    /// (the contract of `Device::adopt_egl` / `Device::adopt_glx`).
    pub(crate) unsafe fn make_current(handles: Handles) -> Result<Adopted, ContextError> {
        match handles {
            // SAFETY: forwarded contract.
            Handles::Egl(h) => unsafe { Self::egl(h) },
            // SAFETY: forwarded contract.
            Handles::Glx(h) => unsafe { Self::glx(h) },
        }
    }

    /// # Safety
    /// As [`Adopted::make_current`].
    unsafe fn egl(h: AdoptEgl) -> Result<Adopted, ContextError> {
        let gpa = h.get_proc_address;
        // SAFETY: each type is the EGL 1.4 signature of the function named.
        let fns = unsafe {
            EglFns {
                make_current: require(gpa, "EGL", c"eglMakeCurrent")?,
                swap_buffers: require(gpa, "EGL", c"eglSwapBuffers")?,
                get_error: require(gpa, "EGL", c"eglGetError")?,
                query_surface: require(gpa, "EGL", c"eglQuerySurface")?,
                query_context: require(gpa, "EGL", c"eglQueryContext")?,
                bind_api: require(gpa, "EGL", c"eglBindAPI")?,
                query_string: lookup(gpa, c"eglQueryString"),
            }
        };
        let fail =
            |step: &'static str, code: c_int| ContextError::Adopt { platform: "EGL", step, detail: egl_advice(code) };
        let mut client = 0;
        // SAFETY: valid display and context (the contract); `client` is one EGLint.
        if unsafe { (fns.query_context)(h.display, h.context, EGL_CONTEXT_CLIENT_TYPE, &mut client) } == 0 {
            return Err(fail("eglQueryContext", unsafe { (fns.get_error)() }));
        }
        if client as c_uint != EGL_OPENGL_API {
            return Err(ContextError::Adopt {
                platform: "EGL",
                step: "eglQueryContext(EGL_CONTEXT_CLIENT_TYPE)",
                detail: format!(
                    "the context is not desktop OpenGL (client type 0x{client:04X}; OpenGL ES is \
                     0x30A0): glcmd replays desktop OpenGL; run an OpenGL ES program directly"
                ),
            });
        }
        // SAFETY: EGL_OPENGL_API is a valid API; the handles are valid (the contract).
        unsafe {
            if (fns.bind_api)(EGL_OPENGL_API) == 0 {
                return Err(fail("eglBindAPI(EGL_OPENGL_API)", (fns.get_error)()));
            }
            if (fns.make_current)(h.display, h.draw, h.read, h.context) == 0 {
                return Err(fail("eglMakeCurrent", (fns.get_error)()));
            }
        }
        Ok(Adopted { api: Api::Egl(fns, h), get_proc_address: gpa })
    }

    /// # Safety
    /// As [`Adopted::make_current`].
    unsafe fn glx(h: AdoptGlx) -> Result<Adopted, ContextError> {
        let gpa = h.get_proc_address;
        // SAFETY: each type is the GLX 1.3 signature of the function named.
        let fns = unsafe {
            GlxFns {
                make_context_current: lookup(gpa, c"glXMakeContextCurrent"),
                make_current: require(gpa, "GLX", c"glXMakeCurrent")?,
                swap_buffers: require(gpa, "GLX", c"glXSwapBuffers")?,
                query_drawable: lookup(gpa, c"glXQueryDrawable"),
            }
        };
        let read = if h.read_drawable == 0 { h.drawable } else { h.read_drawable };
        // SAFETY: valid display, drawables and context (the contract).
        let ok = unsafe {
            match fns.make_context_current {
                Some(f) => f(h.display, h.drawable, read, h.context),
                None if read == h.drawable => (fns.make_current)(h.display, h.drawable, h.context),
                None => {
                    return Err(ContextError::MissingFunction { platform: "GLX", name: "glXMakeContextCurrent".into() })
                }
            }
        };
        if ok == 0 {
            return Err(ContextError::Adopt {
                platform: "GLX",
                step: "glXMakeContextCurrent",
                detail: "GLX refused to make the context current: it may be current on another thread (release \
                         it there with glXMakeCurrent(display, None, NULL)), or the drawable does not match its \
                         config"
                    .into(),
            });
        }
        Ok(Adopted { api: Api::Glx(fns, h), get_proc_address: gpa })
    }

    /// The address of a GL function, through the given get-proc-address (null if absent).
    pub(crate) fn get_proc_address(&self, name: &CStr) -> *const c_void {
        // SAFETY: a get-proc-address function (the contract) with a NUL-terminated name.
        unsafe { (self.get_proc_address)(name.as_ptr()) }
    }

    /// Whether there is a surface to draw to and present.
    pub(crate) fn has_surface(&self) -> bool {
        match &self.api {
            Api::Egl(_, h) => !h.draw.is_null(),
            Api::Glx(_, h) => h.drawable != 0,
        }
    }

    /// The draw surface's size, if there is one and the platform says.
    pub(crate) fn surface_size(&self) -> Option<(i32, i32)> {
        match &self.api {
            Api::Egl(fns, h) if !h.draw.is_null() => {
                let (mut w, mut hh) = (0, 0);
                // SAFETY: valid display and surface; one EGLint each.
                let ok = unsafe {
                    (fns.query_surface)(h.display, h.draw, EGL_WIDTH, &mut w) != 0
                        && (fns.query_surface)(h.display, h.draw, EGL_HEIGHT, &mut hh) != 0
                };
                ok.then_some((w, hh))
            }
            Api::Glx(fns, h) if h.drawable != 0 => {
                let query = fns.query_drawable?;
                let (mut w, mut hh) = (0, 0);
                // SAFETY: valid display and drawable; one unsigned int each.
                unsafe {
                    query(h.display, h.drawable, GLX_WIDTH, &mut w);
                    query(h.display, h.drawable, GLX_HEIGHT, &mut hh);
                }
                Some((w as i32, hh as i32))
            }
            _ => None,
        }
    }

    /// Swaps the draw surface's buffers.
    pub(crate) fn present(&self) -> Result<(), ContextError> {
        if !self.has_surface() {
            return Err(ContextError::NothingToPresent {
                what: "an adopted context made current with no draw surface (EGL_NO_SURFACE / no drawable)",
            });
        }
        match &self.api {
            Api::Egl(fns, h) => {
                // SAFETY: valid display and surface, current on this thread.
                if unsafe { (fns.swap_buffers)(h.display, h.draw) } == 0 {
                    let code = unsafe { (fns.get_error)() };
                    return Err(ContextError::Adopt {
                        platform: "EGL",
                        step: "eglSwapBuffers",
                        detail: egl_advice(code),
                    });
                }
                Ok(())
            }
            Api::Glx(fns, h) => {
                // SAFETY: valid display and drawable, current on this thread.
                unsafe { (fns.swap_buffers)(h.display, h.drawable) };
                Ok(())
            }
        }
    }

    /// "adopted EGL context, 64x48 surface, EGL 1.5 by Mesa Project" (for logs).
    pub(crate) fn describe(&self) -> String {
        let surface = match self.surface_size() {
            Some((w, h)) => format!("{w}x{h} surface"),
            None if self.has_surface() => "a surface of unknown size".to_owned(),
            None => "no surface".to_owned(),
        };
        match &self.api {
            Api::Egl(fns, h) => {
                let string = |name| match fns.query_string {
                    // SAFETY: valid display, a valid eglQueryString name.
                    Some(q) => match unsafe { q(h.display, name) } {
                        p if p.is_null() => "?".to_owned(),
                        // SAFETY: EGL returns a static, NUL-terminated string.
                        p => unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned(),
                    },
                    None => "?".to_owned(),
                };
                format!("adopted EGL context, {surface}, EGL {} by {}", string(EGL_VERSION), string(EGL_VENDOR))
            }
            Api::Glx(..) => format!("adopted GLX context, {surface}"),
        }
    }
}

/// What an EGL error means for an adopted context, with what to do.
fn egl_advice(code: c_int) -> String {
    let advice = match code {
        0x3002 => "the context (or a surface) is current on another thread: release it there first with eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT)",
        0x3001 | 0x3008 => "the display is not an initialized EGLDisplay: call eglInitialize first, and do not eglTerminate it while the device lives",
        0x3006 => "the context is not an EGLContext of this display",
        0x3009 => "the surfaces do not match the context's config, or EGL_NO_SURFACE was given without EGL_KHR_surfaceless_context",
        0x300D | 0x3007 => "a surface is not a live EGLSurface of this display",
        0x300E => "the context was lost (power management or a GPU reset): create a new one",
        EGL_SUCCESS => "EGL reported no error",
        _ => "see the EGL specification for this error",
    };
    format!("{}: {advice}", egl_error_name(code))
}

impl Drop for Adopted {
    fn drop(&mut self) {
        // Release, never destroy: the application owns the context and its surfaces.
        match &self.api {
            Api::Egl(fns, h) => {
                // SAFETY: valid display (the contract); releasing takes no other handle. The
                // bound API decides which context EGL_NO_CONTEXT releases.
                unsafe {
                    (fns.bind_api)(EGL_OPENGL_API);
                    if (fns.make_current)(h.display, std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut())
                        == 0
                    {
                        log::warn!("could not release the adopted EGL context: {}", egl_error_name((fns.get_error)()));
                    }
                }
            }
            Api::Glx(fns, h) => {
                // SAFETY: valid display (the contract); None/NULL releases.
                let ok = unsafe { (fns.make_current)(h.display, 0, std::ptr::null_mut()) };
                if ok == 0 {
                    log::warn!("could not release the adopted GLX context");
                }
            }
        }
    }
}
