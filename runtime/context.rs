//! The render thread's OpenGL context.
//!
//! glcmd records GL calls on any number of worker threads into command lists
//! and replays them on exactly one render thread. That thread is the only one
//! that ever talks to the driver, so it is the only one that needs a GL
//! context, and this module is where that context comes from. There are two
//! ways to get one through glutin: [`GlContext::headless`] for tests, CI,
//! servers and off-screen rendering, and [`GlContext::from_window`] for an
//! application that shows its frames in a window. A third way takes a context
//! the application made without glutin (SDL, GLFW, a preload library), as raw
//! EGL or GLX handles: `adopt.rs` holds it, and [`GlContext`] wraps it like the
//! other two (see "The adopted path" below).
//!
//! # Why the headless path uses the EGL *device* platform
//!
//! Most ways of getting a GL context need a window system: GLX needs an X
//! server, EGL's X11, Wayland and GBM platforms need a display connection or a
//! DRM node that a user session owns. A CI machine, a container or a GPU
//! server has none of these, and starting Xvfb only to get a context is both
//! slow and a source of flaky failures. The EGL device platform
//! (`EGL_EXT_device_enumeration` + `EGL_EXT_platform_device`) asks the driver
//! for its devices directly and opens an `EGLDisplay` on one of them, with no
//! window system at all. Both implementations we care about have it:
//!
//! * **Mesa** (Debian: `libegl-mesa0` + `libgl1-mesa-dri`) always lists one
//!   software device, marked by the device extension
//!   `EGL_MESA_device_software`, which renders with llvmpipe (OpenGL 4.5 core
//!   since Mesa 20.3), and one device per DRM render node it has a driver for.
//! * **NVIDIA**'s EGL vendor library lists one device per GPU, no X server
//!   needed.
//!
//! With libglvnd, `eglQueryDevicesEXT` returns the devices of *every*
//! installed vendor library, so a GPU machine usually sees NVIDIA's devices
//! and Mesa's software device, and sometimes a Mesa DRM device for a card Mesa
//! has no driver for. [`GlContext::headless`] therefore tries the devices in
//! order of preference (hardware before software, otherwise in the order EGL
//! gives them) and keeps the first one that really yields an OpenGL 4.5 core
//! context; the environment variable `GLCMD_EGL_DEVICE=<index>` pins one
//! device by its index in EGL's own order (the log and
//! [`GlContext::describe`] print it).
//!
//! # Why surfaceless, and why FBOs
//!
//! A device display has no windows, and pbuffers are a poor substitute: their
//! size is fixed at creation, their formats depend on the EGL config, and the
//! engine would have to recreate one for every change of resolution. Instead
//! the context is made current with no surface at all
//! (`EGL_KHR_surfaceless_context`, glutin's `make_current_surfaceless`).
//! Such a context has **no default framebuffer**: binding framebuffer 0 and
//! drawing is an error (`GL_INVALID_FRAMEBUFFER_OPERATION`), and
//! `glReadPixels` from it reads nothing; its initial viewport and scissor box
//! are 0×0. Everything is rendered into framebuffer objects the engine creates
//! (renderbuffers or textures of any size and format), which is what an
//! off-screen renderer wants anyway. A device that needs framebuffer 0 is made
//! on a window or adopts a context with a surface.
//!
//! # Why the context never leaves the render thread
//!
//! A GL context can be current on at most one thread at a time, and every GL
//! call goes to the context current on the *calling* thread. glcmd's whole
//! design rests on that: the render thread makes the context current once and
//! keeps it current for as long as it lives, and every other thread only
//! records commands. [`GlContext`] wraps glutin's `PossiblyCurrentContext`,
//! which is neither `Send` nor `Sync`, so `GlContext` is not either: it is
//! created on the render thread (both constructors make the context current
//! on the *calling* thread) and the compiler refuses to move it or share it
//! with any other thread (a compile-time check in this module keeps it so).
//! Function pointers from
//! [`GlContext::get_proc_address`] are likewise only meaningful on that
//! thread. Dropping a `GlContext` releases the context from the thread before
//! destroying it.
//!
//! # The windowed path
//!
//! Window systems want their windows created on the main thread (winit
//! insists on it), while glcmd renders on its own thread. So the application
//! creates everything on the main thread with glutin as usual: a
//! `glutin::display::Display` for its window system, a config, a window
//! surface (`Surface<WindowSurface>`) and a context, which it leaves **not
//! current** (`NotCurrentContext`). Both of these glutin types are `Send`
//! (though not `Sync`), so the two can be moved into the render thread, and
//! [`GlContext::from_window`] called *there* makes the context current with
//! the surface on that thread. Presenting a frame is
//! [`GlContext::present`], i.e. `eglSwapBuffers`/`glXSwapBuffers` on that
//! surface; the window's default framebuffer (0) is the surface's back
//! buffer.
//!
//! The caller must keep the window itself (and glutin's display, if it holds
//! the native display connection) alive until the `GlContext` is dropped. On
//! X11, Xlib is used from two threads; winit calls `XInitThreads` for this, an
//! application that opens the X display by other means must call it first.
//!
//! # The adopted path
//!
//! [`GlContext`]'s third constructor (crate-internal, reached through the
//! `unsafe` `Device::adopt_egl` and `Device::adopt_glx`) makes a context the
//! application owns current on the render thread, with the draw and read
//! surfaces it was given, and resolves every EGL or GLX function it calls
//! through the get-proc-address function it was given (`adopt.rs` says why).
//! Framebuffer 0 is then the real default framebuffer of the draw surface,
//! and the viewport and scissor box start at the surface's size, as the GL
//! sets them when a context is first made current with a surface; nothing in
//! glcmd overrides them. An adopted context presents only when asked
//! (`Device::present`), not at the end of every frame. Dropping it makes no
//! context current on the render thread and destroys nothing.
//!
//! # Useful knobs when something fails
//!
//! * `EGL_LOG_LEVEL=debug` (Mesa) prints why a device or a config was refused.
//! * `__EGL_VENDOR_LIBRARY_FILENAMES=/usr/share/glvnd/egl_vendor.d/50_mesa.json`
//!   limits libglvnd to one vendor library (here Mesa).
//! * `LIBGL_ALWAYS_SOFTWARE=1` makes Mesa refuse its hardware devices, so
//!   the software device (llvmpipe) is the one that works.
//! * `GLCMD_EGL_DEVICE=<index>` picks the device by hand.

use std::ffi::{c_void, CStr};
use std::fmt::Write as _;

use glutin::api::egl::device::Device;
use glutin::api::egl::display::Display as EglDisplay;
use glutin::config::{Api, ConfigSurfaceTypes, ConfigTemplateBuilder};
use glutin::context::{
    ContextApi, ContextAttributesBuilder, GlProfile, NotCurrentContext, PossiblyCurrentContext, Version,
};
use glutin::display::{AsRawDisplay, Display, GetDisplayExtensions, GetGlDisplay, RawDisplay};
use glutin::error::ErrorKind;
use glutin::prelude::*;
use glutin::surface::{Surface, WindowSurface};

use crate::adopt::{Adopted, Handles};
pub use crate::error::ContextError;

thread_local! {
    /// Whether this thread is a device's render thread (set by the render thread for its life).
    static RENDER_THREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Marks this thread as a render thread (or not). Contexts cannot be made on one: making a
/// context current there would replace the device's own behind its back.
pub(crate) fn mark_render_thread(on: bool) {
    RENDER_THREAD.with(|r| r.set(on));
}

/// Whether this thread is a render thread.
pub(crate) fn on_render_thread() -> bool {
    RENDER_THREAD.with(|r| r.get())
}

/// Environment variable that picks the EGL device by its index.
pub const DEVICE_ENV: &str = "GLCMD_EGL_DEVICE";

/// The device extension with which Mesa marks its software (llvmpipe) device.
const SOFTWARE_DEVICE_EXT: &str = "EGL_MESA_device_software";

// Compile-time proof that `GlContext` is not `Send`: if it were, both impls
// would apply and the call below would be ambiguous (static_assertions'
// `assert_not_impl_any!` trick).
const _: () = {
    trait AmbiguousIfSend<A> {
        fn check() {}
    }
    impl<T: ?Sized> AmbiguousIfSend<()> for T {}
    impl<T: ?Sized + Send> AmbiguousIfSend<u8> for T {}
    let _ = <GlContext as AmbiguousIfSend<_>>::check;
};

/// The GL context of the render thread. Created on that thread and never moved off it (!Send).
pub struct GlContext {
    backend: Backend,
    description: String,
    robust: bool,
}

/// Where the context came from.
enum Backend {
    /// Made by glutin (headless) or handed over as glutin types (window).
    Glutin {
        // Field order is drop order: the context is destroyed before the surface
        // it draws to.
        context: PossiblyCurrentContext,
        surface: Option<Surface<WindowSurface>>,
        display: Display,
    },
    /// The application's own context, as raw handles; released, never destroyed.
    Adopted(Adopted),
}

impl GlContext {
    /// Headless: glutin EGL *device* platform, OpenGL 4.5 core, surfaceless,
    /// made current on the calling thread.
    ///
    /// Devices are tried hardware first, then Mesa's software device
    /// (`EGL_MESA_device_software`); the first that yields a context is kept.
    /// `GLCMD_EGL_DEVICE=<index>` (an index in EGL's enumeration order) tries
    /// that device only. Render into framebuffer objects: a surfaceless
    /// context has no default framebuffer.
    pub fn headless() -> Result<GlContext, ContextError> {
        Self::headless_with(false)
    }

    /// Like [`GlContext::headless`]; with `robust`, asks for robust buffer access
    /// (`EGL_EXT_create_context_robustness`) where the device offers it, and falls back to a
    /// plain context where it does not ([`GlContext::is_robust`] tells which it got).
    ///
    /// Refused on a glcmd render thread: making a new context current there would take the
    /// render thread's own context away from it.
    pub fn headless_with(robust: bool) -> Result<GlContext, ContextError> {
        if on_render_thread() {
            return Err(ContextError::OnRenderThread);
        }
        let devices: Vec<Device> = match Device::query_devices() {
            Ok(devices) => devices.collect(),
            Err(source) if source.error_kind() == ErrorKind::NotFound => {
                return Err(ContextError::EglNotFound { source: source.into() })
            }
            Err(source) => return Err(ContextError::NoDeviceSupport { source: source.into() }),
        };
        if devices.is_empty() {
            return Err(ContextError::NoDevice);
        }
        for (index, device) in devices.iter().enumerate() {
            log::debug!("EGL device {index}: {}", device_summary(device));
        }

        let order = match std::env::var(DEVICE_ENV) {
            Ok(value) if !value.trim().is_empty() => match value.trim().parse::<usize>() {
                Ok(index) if index < devices.len() => vec![index],
                _ => return Err(ContextError::BadDeviceIndex { value, count: devices.len() }),
            },
            _ => preference_order(&devices),
        };

        let mut tried = String::new();
        let mut last_error = None;
        for index in order {
            let device = &devices[index];
            let attempt = match headless_on(device, robust) {
                Err(_) if robust => headless_on(device, false).map(|(c, d)| (c, d, false)),
                other => other.map(|(c, d)| (c, d, robust)),
            };
            match attempt {
                Ok((context, display, robust)) => {
                    let egl_vendor = egl_vendor(&display);
                    let display = Display::Egl(display);
                    let description = format!(
                        "EGL device {index} of {} ({}), {} by {egl_vendor}, surfaceless; {}",
                        devices.len(),
                        device_summary(device),
                        display.version_string(),
                        gl_strings(&display),
                    );
                    log::info!("GL context: {description}");
                    return Ok(GlContext {
                        backend: Backend::Glutin {
                            context: PossiblyCurrentContext::Egl(context),
                            surface: None,
                            display,
                        },
                        description,
                        robust,
                    });
                }
                Err(error) => {
                    log::debug!("EGL device {index} gave no GL 4.5 core context: {error}");
                    if !tried.is_empty() {
                        tried.push_str("; ");
                    }
                    let _ = write!(tried, "device {index} ({}): {error}", device_summary(device));
                    last_error = Some(error);
                }
            }
        }
        Err(ContextError::NoUsableDevice { tried, source: last_error.expect("at least one device was tried").into() })
    }

    /// An application's own context and window surface (glutin), handed over not current; made current on the calling (render) thread. Presenting = swap_buffers.
    ///
    /// Both arguments are `Send`: build them on the main thread (with the
    /// window), leave the context not current, move both to the render thread
    /// and call this there. The window must outlive the returned `GlContext`.
    pub fn from_window(context: NotCurrentContext, surface: Surface<WindowSurface>) -> Result<GlContext, ContextError> {
        if on_render_thread() {
            return Err(ContextError::OnRenderThread);
        }
        let (context_api, surface_api) = (context_api_name(&context), surface_api_name(&surface));
        if context_api != surface_api {
            // glutin panics on a mixed pair; say what is wrong instead.
            return Err(ContextError::ApiMismatch { context: context_api, surface: surface_api });
        }
        let display = context.display();
        let context =
            context.make_current(&surface).map_err(|source| ContextError::MakeCurrent { source: source.into() })?;
        #[allow(unreachable_patterns)]
        let by = match &display {
            Display::Egl(egl) => format!(" by {}", egl_vendor(egl)),
            _ => String::new(),
        };
        let description = format!("window surface, {}{by}; {}", display.version_string(), gl_strings(&display));
        log::info!("GL context: {description}");
        Ok(GlContext {
            backend: Backend::Glutin { context, surface: Some(surface), display },
            description,
            robust: false,
        })
    }

    /// An application's own context, as raw EGL or GLX handles, made current on the calling
    /// (render) thread with the surfaces given (`adopt.rs`).
    ///
    /// # Safety
    /// The contract of `Device::adopt_egl` / `Device::adopt_glx`: valid handles, a context
    /// current on no thread, all outliving the returned `GlContext`.
    pub(crate) unsafe fn adopt(handles: Handles) -> Result<GlContext, ContextError> {
        if on_render_thread() {
            return Err(ContextError::OnRenderThread);
        }
        // SAFETY: forwarded contract.
        let adopted = unsafe { Adopted::make_current(handles) }?;
        let strings = gl_strings_with(|name| adopted.get_proc_address(name));
        let description = format!("{}; {strings}", adopted.describe());
        log::info!("GL context: {description}");
        Ok(GlContext { backend: Backend::Adopted(adopted), description, robust: false })
    }

    /// Address of a GL function (for the generated loader), null if absent.
    ///
    /// Only valid on the render thread, with this context current. Note that
    /// libglvnd's `eglGetProcAddress` returns a dispatch stub for *any* name
    /// starting with `gl`, so non-null does not prove that the driver
    /// implements the function: check the GL version or extension first.
    pub fn get_proc_address(&self, name: &CStr) -> *const c_void {
        match &self.backend {
            Backend::Glutin { display, .. } => display.get_proc_address(name),
            Backend::Adopted(adopted) => adopted.get_proc_address(name),
        }
    }

    /// The function table of this context, with every function the context does not provide
    /// replaced by a stub that reports the call (see `loader.rs`). Safe: the addresses come from
    /// this context's own loader, and calling them is `unsafe` anyway.
    pub fn load_gl(&self) -> Box<crate::Gl> {
        self.load_gl_with_info().0
    }

    /// [`GlContext::load_gl`], and what the context is (version, vendor, extensions).
    pub fn load_gl_with_info(&self) -> (Box<crate::Gl>, crate::loader::ContextInfo) {
        // SAFETY: this context is current on this thread (it is !Send and its constructors make
        // it current), and `get_proc_address` returns its own functions.
        unsafe { crate::loader::load(|name| self.get_proc_address(name)) }
    }

    /// Whether the context has robust buffer access (asked for with `headless_with(true)`).
    pub fn is_robust(&self) -> bool {
        self.robust
    }

    /// What the render thread does at the end of every frame: presents a window context
    /// (glutin's); does nothing for headless and adopted contexts (an adopted one presents only
    /// when asked, [`GlContext::present_now`]).
    pub fn present(&self) -> Result<(), ContextError> {
        match &self.backend {
            Backend::Glutin { surface: Some(_), .. } => self.present_now(),
            _ => Ok(()),
        }
    }

    /// Whether [`GlContext::present`] swaps: a window's context (glutin's, with a surface).
    pub fn presents_at_frame_end(&self) -> bool {
        matches!(&self.backend, Backend::Glutin { surface: Some(_), .. })
    }

    /// Presents now (swaps the window's or the adopted draw surface's buffers); an error for a
    /// context with no surface (headless, or adopted with none).
    pub fn present_now(&self) -> Result<(), ContextError> {
        match &self.backend {
            Backend::Glutin { context, surface: Some(surface), .. } => {
                surface.swap_buffers(context).map_err(|source| ContextError::Present { source: source.into() })
            }
            Backend::Glutin { surface: None, .. } => {
                Err(ContextError::NothingToPresent { what: "a headless (surfaceless) device" })
            }
            Backend::Adopted(adopted) => adopted.present(),
        }
    }

    /// true for the windowed path, and for an adopted context with a draw surface: framebuffer
    /// 0 is then a real default framebuffer.
    pub fn has_window(&self) -> bool {
        match &self.backend {
            Backend::Glutin { surface, .. } => surface.is_some(),
            Backend::Adopted(adopted) => adopted.has_surface(),
        }
    }

    /// Human-readable description: EGL device / vendor, for logs.
    pub fn describe(&self) -> String {
        self.description.clone()
    }
}

impl std::fmt::Debug for GlContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GlContext")
            .field("description", &self.description)
            .field("has_window", &self.has_window())
            .finish_non_exhaustive()
    }
}

impl Drop for GlContext {
    fn drop(&mut self) {
        // Release the context from this thread first: EGL only defers the
        // destruction of a context that is still current. (An adopted context
        // releases itself when dropped, and is never destroyed.)
        if let Backend::Glutin { context, .. } = &mut self.backend {
            if let Err(error) = context.make_not_current_in_place() {
                log::warn!("could not release the GL context: {error}");
            }
        }
    }
}

/// Device indices, hardware devices first, each group in EGL's order.
fn preference_order(devices: &[Device]) -> Vec<usize> {
    let (software, mut hardware): (Vec<usize>, Vec<usize>) =
        (0..devices.len()).partition(|&i| is_software(&devices[i]));
    hardware.extend(software);
    hardware
}

fn is_software(device: &Device) -> bool {
    device.extensions().contains(SOFTWARE_DEVICE_EXT)
}

/// "software" or "hardware", with the vendor, name and DRM node when EGL knows them.
fn device_summary(device: &Device) -> String {
    let mut summary = String::from(if is_software(device) { SOFTWARE_DEVICE_EXT } else { "hardware" });
    for part in [device.vendor(), device.name()].into_iter().flatten() {
        let _ = write!(summary, ", {part}");
    }
    if let Some(path) = device.drm_render_device_node_path().or(device.drm_device_node_path()) {
        let _ = write!(summary, ", {}", path.display());
    }
    summary
}

/// An OpenGL 4.5 core context on `device`, current on this thread with no surface.
fn headless_on(
    device: &Device,
    robust: bool,
) -> Result<(glutin::api::egl::context::PossiblyCurrentContext, EglDisplay), glutin::error::Error> {
    // SAFETY: `None` asks for no native display, the only argument
    // `with_device` accepts without a DRM handle; there is nothing to keep alive.
    let display = unsafe { EglDisplay::with_device(device, None) }?;
    if !display.extensions().contains("EGL_KHR_surfaceless_context") {
        return Err(ErrorKind::NotSupported("EGL_KHR_surfaceless_context is missing").into());
    }
    // No surface will be made from this config: ask only for OpenGL, with no
    // surface type, depth or stencil requirements.
    let template = ConfigTemplateBuilder::new()
        .with_api(Api::OPENGL)
        .with_surface_type(ConfigSurfaceTypes::empty())
        .with_alpha_size(0)
        .with_depth_size(0)
        .with_stencil_size(0)
        .build();
    // SAFETY: the template carries no native window handle.
    let config =
        unsafe { display.find_configs(template) }?.next().ok_or(glutin::error::Error::from(ErrorKind::BadConfig))?;
    let mut builder = ContextAttributesBuilder::new()
        .with_context_api(ContextApi::OpenGl(Some(Version::new(4, 5))))
        .with_profile(GlProfile::Core);
    if robust {
        if !display.extensions().contains("EGL_EXT_create_context_robustness") {
            return Err(ErrorKind::NotSupported("EGL_EXT_create_context_robustness is missing").into());
        }
        builder = builder.with_robustness(glutin::context::Robustness::RobustNoResetNotification);
    }
    let attributes = builder.build(None);
    // SAFETY: no window handle is passed, and `config` belongs to `display`.
    let context = unsafe { display.create_context(&config, &attributes) }?;
    let context = context.make_current_surfaceless()?;
    Ok((context, display))
}

/// The EGL implementation's `EGL_VENDOR` string, e.g. "Mesa Project" or "NVIDIA".
fn egl_vendor(display: &EglDisplay) -> String {
    const EGL_VENDOR: i32 = 0x3053;
    // Irrefutable when glutin is built without GLX and WGL.
    #[allow(irrefutable_let_patterns)]
    let RawDisplay::Egl(raw) = display.raw_display() else {
        return "?".to_owned();
    };
    // SAFETY: `raw` is the initialized EGLDisplay that `display` owns, and
    // EGL_VENDOR is a valid eglQueryString name for it.
    let ptr = unsafe { display.egl().QueryString(raw, EGL_VENDOR) };
    if ptr.is_null() {
        return "?".to_owned();
    }
    // SAFETY: EGL returns a static, NUL-terminated string.
    unsafe { CStr::from_ptr(ptr) }.to_string_lossy().into_owned()
}

#[allow(unreachable_patterns)]
fn context_api_name(context: &NotCurrentContext) -> &'static str {
    match context {
        NotCurrentContext::Egl(_) => "EGL",
        // The arm is there when glcmd's `glx` feature is; with glutin's GLX turned on by another
        // crate alone, a GLX context reads as "another API".
        #[cfg(feature = "glx")]
        NotCurrentContext::Glx(_) => "GLX",
        _ => "another API",
    }
}

#[allow(unreachable_patterns)]
fn surface_api_name(surface: &Surface<WindowSurface>) -> &'static str {
    match surface {
        Surface::Egl(_) => "EGL",
        #[cfg(feature = "glx")]
        Surface::Glx(_) => "GLX",
        _ => "another API",
    }
}

/// "GL_VENDOR / GL_RENDERER / GL_VERSION" of the context current on this thread.
fn gl_strings(display: &Display) -> String {
    gl_strings_with(|name| display.get_proc_address(name))
}

/// [`gl_strings`] through any loader of the context current on this thread.
fn gl_strings_with(get_proc_address: impl Fn(&CStr) -> *const c_void) -> String {
    const GL_VENDOR: u32 = 0x1F00;
    const GL_RENDERER: u32 = 0x1F01;
    const GL_VERSION: u32 = 0x1F02;
    type GetString = unsafe extern "system" fn(u32) -> *const u8;

    let address = get_proc_address(c"glGetString");
    if address.is_null() {
        return "GL strings unavailable".to_owned();
    }
    // SAFETY: `glGetString` has this signature in every GL version, and a
    // non-null address from the display's loader is that function.
    let get_string = unsafe { std::mem::transmute::<*const c_void, GetString>(address) };
    let get = |name| {
        // SAFETY: the context is current on this thread (both callers have
        // just made it so), and `name` is a valid glGetString enum.
        let ptr = unsafe { get_string(name) };
        if ptr.is_null() {
            "?".to_owned()
        } else {
            // SAFETY: GL returns a static, NUL-terminated string.
            unsafe { CStr::from_ptr(ptr.cast()) }.to_string_lossy().into_owned()
        }
    };
    format!("GL {} / {} / {}", get(GL_VENDOR), get(GL_RENDERER), get(GL_VERSION))
}
