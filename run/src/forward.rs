//! What forwarding a window-system call to the driver thread (`driver.rs`) takes, for EGL
//! (`egl_forward.rs`) and GLX (`glx_forward.rs`) alike: the system's function found once, the
//! two kinds of forwarded function as macros, and the trampolines for the functions
//! get-proc-address hands out that nothing here names.
//!
//! * [`forwarded!`] defines functions on objects named by their handles: the same answer on any
//!   thread, so each runs on the driver thread as it is.
//! * [`on_current!`] defines functions that act on the calling thread's current context, through
//!   [`on_current_context`]: for a thread with an adopted context current, its recorded calls
//!   replay first and the call runs on that context's render thread, after them (a fence then
//!   follows the draws before it, as directly); for a thread with nothing current, on the
//!   driver thread with nothing current there (`driver::isolated`), so the driver answers as it
//!   answers a thread without a context. Their arguments and answer travel as integers (at
//!   most four arguments).
//! * The trampolines ([`trampoline_for`]): EGL's and GLX's functions take at most six
//!   arguments, all of integer class (handles, integers, pointers; `EGLTime` is 64-bit), and
//!   return one integer-class value or nothing, so a trampoline of six `usize` arguments passes
//!   any of them through unchanged under the C calling conventions of x86-64 and AArch64 (the
//!   callee ignores the registers it does not take; a narrower return value is the low bits).
//!
//! EGL keeps an error per thread, which a forwarded call must bring back (`driver::egl`); GLX
//! reports errors through Xlib's handler, which is process-wide, so its calls just run
//! (`driver::run`). That difference is the [`Api`] each takes.

use std::ffi::{c_void, CStr};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::contexts;
pub use crate::current::Api;
use crate::driver;

/// The system's `name` through `lookup`, looked up once (on the driver thread when forwarding:
/// the lookup of an extension asks the driver).
pub fn real(cell: &AtomicUsize, name: &CStr, lookup: fn(&CStr) -> *const c_void) -> usize {
    let known = cell.load(Ordering::Relaxed);
    if known != 0 {
        return known;
    }
    // SAFETY: the lookup touches no thread state of the caller's.
    let found = unsafe { driver::run(|| lookup(name) as usize) };
    cell.store(found, Ordering::Relaxed);
    found
}

/// Runs the real call `f` as a forwarded call of `api`: EGL's error kept for the caller.
///
/// # Safety
/// `f` is a real call of the system's function with the program's arguments.
pub unsafe fn call<R>(api: Api, f: impl FnOnce() -> R) -> R {
    // SAFETY: as the caller promised; window-system handles are valid on every thread.
    unsafe {
        match api {
            Api::Egl => driver::egl(f),
            Api::Glx => driver::run(f),
        }
    }
}

/// Defines each function as the system's (found with `lookup`), run on the driver thread as a
/// call of `api` ([`call`]), or here where this thread's calls are not forwarded. `fail` is the
/// answer when the system has no such function. `by_name` is defined too: the functions by
/// name, for get-proc-address.
macro_rules! forwarded {
    (api = $api:expr, lookup = $lookup:path, by_name = $by_name:ident;
     $(fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty = $fail:expr;)*) => {$(
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $ret {
            static REAL: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let name = std::ffi::CStr::from_bytes_with_nul(concat!(stringify!($name), "\0").as_bytes()).unwrap();
            let f = crate::forward::real(&REAL, name, $lookup);
            if f == 0 {
                return $fail;
            }
            // SAFETY: the system's function of this name has this C signature.
            let f = unsafe { std::mem::transmute::<usize, unsafe extern "C" fn($($ty),*) -> $ret>(f) };
            // SAFETY: the program's arguments, for the system's function.
            unsafe { crate::forward::call($api, move || f($($arg),*)) }
        }
    )*
        fn $by_name(name: &[u8]) -> Option<*const std::ffi::c_void> {
            match name {
                $(n if n == stringify!($name).as_bytes() => Some($name as *const std::ffi::c_void),)*
                _ => None,
            }
        }
    };
}
pub(crate) use forwarded;

/// Defines each function of the second kind (module essay) through [`on_current_context`], and
/// `by_name`, as [`forwarded!`].
macro_rules! on_current {
    (api = $api:expr, lookup = $lookup:path, by_name = $by_name:ident;
     $(fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {$(
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $ret {
            static REAL: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let name = std::ffi::CStr::from_bytes_with_nul(concat!(stringify!($name), "\0").as_bytes()).unwrap();
            #[allow(unused_mut)]
            let mut args = [0usize; 4];
            let mut _i = 0;
            $( args[_i] = $arg as usize; _i += 1; )*
            #[allow(unused_variables)]
            fn call(f: usize, args: [usize; 4]) -> usize {
                let mut _i = 0;
                $( let $arg = args[_i] as $ty; _i += 1; )*
                // SAFETY: the system's function of this name has this C signature; the
                // program's arguments, passed back as they came.
                #[allow(clippy::unit_arg)]
                unsafe { crate::forward::Answer::into_usize(std::mem::transmute::<usize, unsafe extern "C" fn($($ty),*) -> $ret>(f)($($arg),*)) }
            }
            let f = crate::forward::real(&REAL, name, $lookup);
            <$ret as crate::forward::Answer>::from_usize(crate::forward::on_current_context($api, name, f, call, args))
        }
    )*
        fn $by_name(name: &[u8]) -> Option<*const std::ffi::c_void> {
            match name {
                $(n if n == stringify!($name).as_bytes() => Some($name as *const std::ffi::c_void),)*
                _ => None,
            }
        }
    };
}
pub(crate) use on_current;

/// An answer of a window-system function as an integer and back (`()` for none).
pub trait Answer {
    fn into_usize(self) -> usize;
    fn from_usize(value: usize) -> Self;
}

macro_rules! answers {
    ($($t:ty),*) => {$(
        impl Answer for $t {
            fn into_usize(self) -> usize {
                self as usize
            }
            fn from_usize(value: usize) -> Self {
                value as $t
            }
        }
    )*};
}
answers!(u32, i32, u64, usize, *mut c_void, *const c_void);

impl Answer for () {
    fn into_usize(self) -> usize {
        0
    }
    fn from_usize(_: usize) -> Self {}
}

/// Runs the real function at `f` (0: the system has none) through `call` with `args`, where
/// the calling thread's current context is (module essay). Returns its answer as an integer.
pub fn on_current_context(
    api: Api,
    name: &'static CStr,
    f: usize,
    call: fn(usize, [usize; 4]) -> usize,
    args: [usize; 4],
) -> usize {
    if f == 0 {
        return 0;
    }
    let forwarding = driver::forwarding();
    match contexts::bound().filter(|c| c.api == api && !crate::current::on_render_thread()) {
        Some(c) => {
            glcmd_capi::call::wait_replayed(name.to_str().unwrap_or("a window-system call"));
            let answer = contexts::on_render_thread_with(c, move || {
                let answer = call(f, args);
                // SAFETY: the system's function; no arguments.
                (answer, crate::real::egl_get_error().map_or(driver::EGL_SUCCESS, |e| unsafe { e() }))
            });
            // EGL_CONTEXT_LOST: the device is gone.
            let (answer, error) = answer.unwrap_or((0, 0x300E));
            // Where this thread's calls are not forwarded, its EGL error is the driver's own,
            // which glcmd cannot set: the error of this call is then not kept.
            if forwarding && api == Api::Egl {
                driver::set_error(error);
            }
            answer
        }
        // SAFETY: a real call with the program's arguments.
        None if forwarding && api == Api::Egl => unsafe { driver::isolated(|| call(f, args)) },
        // SAFETY: as above.
        None if forwarding => unsafe { driver::isolated_glx(|| call(f, args)) },
        None => call(f, args),
    }
}

/// Trampolines for the functions get-proc-address hands out that nothing here names.
type Trampoline = unsafe extern "C" fn(usize, usize, usize, usize, usize, usize) -> usize;
const SLOTS: usize = 32;
static TARGETS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
/// Per slot: 0 EGL, 1 GLX.
static KINDS: [AtomicU8; SLOTS] = [const { AtomicU8::new(0) }; SLOTS];
static ASSIGNED: Mutex<Vec<(Vec<u8>, usize)>> = Mutex::new(Vec::new());

fn through_slot(slot: usize, a: [usize; 6]) -> usize {
    let f = TARGETS[slot].load(Ordering::Acquire);
    let api = if KINDS[slot].load(Ordering::Acquire) == 0 { Api::Egl } else { Api::Glx };
    // SAFETY: the system's function handed out for this slot; the caller's arguments, passed on
    // in the same registers (module essay).
    unsafe {
        let f = std::mem::transmute::<usize, Trampoline>(f);
        call(api, move || f(a[0], a[1], a[2], a[3], a[4], a[5]))
    }
}

macro_rules! trampolines {
    ($($i:literal)*) => {
        const TRAMPOLINES: [Trampoline; SLOTS] = [$({
            unsafe extern "C" fn t(a: usize, b: usize, c: usize, d: usize, e: usize, f: usize) -> usize {
                through_slot($i, [a, b, c, d, e, f])
            }
            t as Trampoline
        }),*];
    };
}
trampolines!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31);

/// A forwarding trampoline for the system's function `name` of `api` at `real` (the same one for
/// the same name), or `real` itself once every slot is taken (said once: that function's calls
/// then stay on the calling thread).
pub fn trampoline_for(api: Api, name: &CStr, real: usize) -> *const c_void {
    let mut assigned = ASSIGNED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, slot)) = assigned.iter().find(|(n, _)| n == name.to_bytes()) {
        return TRAMPOLINES[slot] as *const c_void;
    }
    let slot = assigned.len();
    if slot == SLOTS {
        static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        if !SAID.swap(true, Ordering::Relaxed) {
            eprintln!(
                "glcmd-run: more than {SLOTS} window-system extension functions looked up: {name:?} and later ones are \
                 called on the program's thread"
            );
        }
        return real as *const c_void;
    }
    TARGETS[slot].store(real, Ordering::Release);
    KINDS[slot].store(if api == Api::Egl { 0 } else { 1 }, Ordering::Release);
    assigned.push((name.to_bytes().to_vec(), slot));
    TRAMPOLINES[slot] as *const c_void
}
