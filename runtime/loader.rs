//! Loading the function table, and knowing which GL functions the context really provides.
//!
//! A non-null address from `eglGetProcAddress` proves nothing: with libglvnd (every Linux
//! distribution), the EGL and GLX loaders return a dispatch stub for *any* name that starts
//! with `gl`, and a stub whose vendor library lacks the function silently does nothing. A query
//! through such a stub returns whatever was in the output buffer (zeros), with no GL error: Mesa
//! 22.3 lacks `glGetnUniformdv`, for example, although it reports OpenGL 4.5, whose feature
//! lists it. So glcmd decides availability itself, once, when the render thread loads its table:
//!
//! 1. **gl.xml's providers.** Each function lists the core versions and extensions that provide
//!    it (generated `FUNCTIONS` table). It is available if the context's version reaches one of
//!    those versions or the context lists one of those extensions.
//! 2. **Mesa's own dispatch table.** Mesa's shared glapi (`libglapi.so.0`) exports
//!    `_glapi_get_proc_offset`, which answers -1 for a name Mesa has no dispatch slot for. When
//!    the context is Mesa's, a function Mesa does not know is unavailable whatever its version
//!    says. (The check is skipped for other vendors: a process can have Mesa's library loaded
//!    beside NVIDIA's, since libglvnd loads every vendor library to list EGL devices.)
//!
//! An unavailable function gets the generated stub, which reports the call on
//! [`Device::reports`](crate::Device::reports) (and the log), raises `GL_INVALID_OPERATION` on
//! the render thread (as Mesa's dispatch does for a function it knows but the context lacks) and
//! returns zero; generated queries check [`Gl::is_available`] first and return
//! [`Error::Unavailable`](crate::Error), whose GL error in C is `GL_INVALID_OPERATION` too.

use std::cell::RefCell;
use std::collections::HashSet;
use std::ffi::{c_char, c_void, CStr};

use crate::generated::loader::FUNCTIONS;
use crate::generated::{enums as gl, Gl};

/// What the context is: version, vendor strings and extensions.
#[derive(Clone, Debug, Default)]
pub struct ContextInfo {
    /// `GL_MAJOR_VERSION`, `GL_MINOR_VERSION`.
    pub version: (u32, u32),
    pub vendor: String,
    pub renderer: String,
    pub version_string: String,
    /// `GL_EXTENSIONS`, one entry per `glGetStringi` index.
    pub extensions: HashSet<String>,
    /// The context is Mesa's and its dispatch table could be consulted.
    pub mesa_dispatch_checked: bool,
    /// `GL_MAX_LABEL_LENGTH` (list labels are cut to fit it) and
    /// `GL_MAX_DEBUG_MESSAGE_LENGTH`.
    pub max_label_length: u32,
    pub max_debug_message_length: u32,
}

impl ContextInfo {
    /// Whether a gl.xml provider (`GL_VERSION_4_5` or an extension name) is present.
    pub fn provides(&self, provider: &str) -> bool {
        match provider.strip_prefix("GL_VERSION_") {
            Some(v) => {
                let mut parts = v.split('_').map(|p| p.parse::<u32>().unwrap_or(u32::MAX));
                let wanted = (parts.next().unwrap_or(u32::MAX), parts.next().unwrap_or(0));
                wanted <= self.version
            }
            None => self.extensions.contains(provider),
        }
    }
}

type GetString = unsafe extern "system" fn(u32) -> *const u8;
type GetStringi = unsafe extern "system" fn(u32, u32) -> *const u8;
type GetIntegerv = unsafe extern "system" fn(u32, *mut i32);
type GlapiOffset = unsafe extern "C" fn(*const c_char) -> i32;

/// Loads the table from `get` (the context's `get_proc_address`, with the context current on
/// this thread), with every function the context does not provide replaced by its stub.
///
/// # Safety
/// `get` returns, for every name, null or the address of that GL function of the context
/// current on this thread.
pub(crate) unsafe fn load(get: impl Fn(&CStr) -> *const c_void) -> (Box<Gl>, ContextInfo) {
    // SAFETY: forwarded from the caller.
    let info = unsafe { context_info(&get) };
    let glapi = if info.mesa_dispatch_checked { mesa_glapi_offset() } else { None };
    let mut index = 0;
    let load = |name: &CStr| {
        let i = index;
        index += 1;
        let providers = FUNCTIONS[i].1;
        let by_version = providers.is_empty() || providers.iter().any(|p| info.provides(p));
        // SAFETY: `_glapi_get_proc_offset` takes a NUL-terminated name and only reads it.
        let by_mesa = glapi.is_none_or(|f| unsafe { f(name.as_ptr()) } >= 0);
        if by_version && by_mesa {
            get(name)
        } else {
            std::ptr::null()
        }
    };
    // SAFETY: `load` returns null or what the caller's `get` returned for the same name, which
    // the caller guarantees. The generated loader calls `load` once per entry, in table order,
    // so `index` is the entry's index.
    let table = unsafe { Gl::load_with(load) };
    (table, info)
}

/// # Safety
/// As for [`load`].
unsafe fn context_info(get: &impl Fn(&CStr) -> *const c_void) -> ContextInfo {
    let mut info = ContextInfo::default();
    let (s, si, iv) = (get(c"glGetString"), get(c"glGetStringi"), get(c"glGetIntegerv"));
    if s.is_null() || iv.is_null() {
        return info;
    }
    // SAFETY: non-null addresses of these GL 1.0/3.0 functions (the caller's guarantee).
    let (get_string, get_integerv) = unsafe {
        (std::mem::transmute::<*const c_void, GetString>(s), std::mem::transmute::<*const c_void, GetIntegerv>(iv))
    };
    let text = |p: *const u8| {
        // SAFETY: the GL returns null or a static NUL-terminated string.
        if p.is_null() {
            String::new()
        } else {
            unsafe { CStr::from_ptr(p.cast()) }.to_string_lossy().into_owned()
        }
    };
    // SAFETY: valid enums; each integer query writes one value.
    unsafe {
        info.vendor = text(get_string(gl::VENDOR));
        info.renderer = text(get_string(gl::RENDERER));
        info.version_string = text(get_string(gl::VERSION));
        let (mut major, mut minor, mut count) = (0, 0, 0);
        get_integerv(gl::MAJOR_VERSION, &mut major);
        get_integerv(gl::MINOR_VERSION, &mut minor);
        info.version = (major.max(0) as u32, minor.max(0) as u32);
        let (mut label, mut message) = (0, 0);
        get_integerv(gl::MAX_LABEL_LENGTH, &mut label);
        get_integerv(gl::MAX_DEBUG_MESSAGE_LENGTH, &mut message);
        // The GL guarantees at least 256 for both where KHR_debug exists.
        info.max_label_length = if label > 0 { label as u32 } else { 256 };
        info.max_debug_message_length = if message > 0 { message as u32 } else { 256 };
        if !si.is_null() {
            let get_stringi = std::mem::transmute::<*const c_void, GetStringi>(si);
            get_integerv(gl::NUM_EXTENSIONS, &mut count);
            for i in 0..count.max(0) as u32 {
                info.extensions.insert(text(get_stringi(gl::EXTENSIONS, i)));
            }
        }
    }
    let mesa = info.vendor.contains("Mesa") || info.version_string.contains("Mesa");
    info.mesa_dispatch_checked = mesa && mesa_glapi_offset().is_some();
    info
}

/// Mesa's `_glapi_get_proc_offset`, if Mesa's shared glapi is loaded in this process.
fn mesa_glapi_offset() -> Option<GlapiOffset> {
    #[cfg(unix)]
    {
        extern "C" {
            fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
        }
        // SAFETY: RTLD_DEFAULT (null) searches the global scope; the symbol name is a valid C
        // string. A found symbol is Mesa's function with this signature.
        let p = unsafe { dlsym(std::ptr::null_mut(), c"_glapi_get_proc_offset".as_ptr()) };
        (!p.is_null()).then(|| unsafe { std::mem::transmute::<*mut c_void, GlapiOffset>(p) })
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// What a stub does when called: it is given the function's name.
pub(crate) type MissingHook = Box<dyn Fn(&'static str)>;

thread_local! {
    /// What a stub does on this thread when called: the render thread reports it.
    static ON_MISSING: RefCell<Option<MissingHook>> = const { RefCell::new(None) };
    /// The error flag the stubs set on this thread (0: none), until the replay state takes it
    /// (`ReplayState::take_stub_error`): one flag, as the GL keeps it.
    static STUB_ERROR: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// A list is being replayed on this thread ([`Replaying`]).
    static REPLAYING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Marks the replay of a list on this thread while it lives: only a recorded call's stub raises
/// an error (a `with_gl` closure calls the table itself and reads the GL's own flag, which a stub
/// cannot set).
pub(crate) struct Replaying(bool);

impl Replaying {
    pub(crate) fn start() -> Replaying {
        Replaying(REPLAYING.with(|r| r.replace(true)))
    }
}

impl Drop for Replaying {
    fn drop(&mut self) {
        REPLAYING.with(|r| r.set(self.0));
    }
}

/// A stub's call in a replayed list raises `GL_INVALID_OPERATION`, as Mesa's dispatch does for a function the
/// context does not provide (`_mesa_generic_nop`): a program learns of the dropped call from
/// `glGetError` too, as it does for an unavailable query. The GL's own pending flag (`get_error`,
/// the raw table's `glGetError`) is taken first, so the first error stays the one returned.
pub(crate) fn raise_in_stub(get_error: unsafe extern "system" fn() -> u32) {
    if STUB_ERROR.with(|e| e.get()) != 0 || !REPLAYING.with(|r| r.get()) {
        return;
    }
    // SAFETY: no arguments; called on the render thread, whose context is current.
    let pending = unsafe { get_error() };
    let error = if pending != gl::NO_ERROR { pending } else { gl::INVALID_OPERATION };
    STUB_ERROR.with(|e| e.set(error));
}

/// Takes the flag the stubs set on this thread (0: none).
pub(crate) fn take_stub_error() -> u32 {
    STUB_ERROR.with(|e| e.replace(0))
}

/// Installs what stubs do on this thread (the render thread reports through its sink).
pub(crate) fn set_missing_hook(hook: Option<MissingHook>) {
    ON_MISSING.with(|h| *h.borrow_mut() = hook);
}

/// The GL name of table entry `index`.
pub fn function_name(index: usize) -> &'static str {
    FUNCTIONS.get(index).and_then(|(n, _)| n.to_str().ok()).unwrap_or("<unknown GL function>")
}

/// Called by the stub of a function the context does not provide.
pub(crate) fn missing(index: usize) {
    let name = function_name(index);
    let reported = ON_MISSING.with(|h| match h.try_borrow() {
        Ok(h) => match h.as_ref() {
            Some(f) => {
                f(name);
                true
            }
            None => false,
        },
        Err(_) => false,
    });
    if !reported {
        log::error!("{name} was called, but the GL context does not provide it; the call did nothing");
    }
}
