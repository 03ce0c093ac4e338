//! Which function an exported GL symbol calls, decided per thread.
//!
//! Every exported `gl*` symbol (`exports.rs`) calls entry `i` of the calling thread's table. There
//! are two tables, each filled once, by name, in the order of `exports::NAMES`:
//!
//! * **glcmd's**: the C entry points of glcmd-capi (`glcmdGetProcAddress`), used by a thread
//!   that made a context glcmd adopted current. The thread is an immediate glcmd thread
//!   (`glcmdThreadMakeImmediate`), so its calls are recorded and queries see them.
//! * **the driver's**: what the real `glXGetProcAddressARB` (or `eglGetProcAddress`) returns,
//!   used by every other thread: one whose context runs directly (a compatibility or GLES
//!   context), or one with no context at all, where libglvnd's functions do nothing, as they
//!   would without glcmd.
//!
//! The choice is a thread-local pointer, so a call costs a TLS read and an indirect jump over
//! the entry point it lands in. Why not one process-wide table: a program may run a glcmd
//! context on one thread and a direct one on another.
//!
//! A table entry is never NULL: the GL loader libraries return a dispatch stub for every `gl*`
//! name and glcmd has an entry point for every exported name (an alias's is the entry point of
//! the function it aliases); a NULL would mean the
//! loader library is missing, and the table is then not built (the thread stays on the other
//! one, or the call is answered with `fail_missing`).

use std::cell::Cell;
use std::ffi::c_void;
use std::sync::OnceLock;

use crate::exports::NAMES;
use crate::real;

/// One pointer per exported symbol.
pub type Table = Vec<*const c_void>;

struct Shared(Table);
// SAFETY: function pointers, written once before the `OnceLock` publishes them, read only.
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

static GLCMD: OnceLock<Shared> = OnceLock::new();
static DRIVER: OnceLock<Shared> = OnceLock::new();

thread_local! {
    /// The calling thread's table; NULL: the driver's.
    static CURRENT: Cell<*const c_void> = const { Cell::new(std::ptr::null()) };
}

/// glcmd's table.
fn glcmd_table() -> &'static Table {
    &GLCMD
        .get_or_init(|| {
            Shared(
                NAMES
                    .iter()
                    // SAFETY: a NUL-terminated name.
                    .map(|n| unsafe { glcmd_capi::api::glcmdGetProcAddress(n.as_ptr()) } as *const c_void)
                    .collect(),
            )
        })
        .0
}

/// The driver's table.
fn driver_table() -> &'static Table {
    // The lookups ask the GL loader, which may ask the driver: on the driver thread where this
    // thread's EGL calls go.
    // SAFETY: lookups by name touch no thread state of the caller's.
    let lookup = || NAMES.iter().map(|n| real::gl_function(n) as usize).collect::<Vec<_>>();
    &DRIVER
        .get_or_init(|| Shared(unsafe { crate::driver::run(lookup) }.into_iter().map(|p| p as *const c_void).collect()))
        .0
}

/// Entry `i` of the calling thread's table.
#[inline(always)]
pub fn entry(i: usize) -> *const c_void {
    let t = CURRENT.with(|c| c.get()) as *const Table;
    let table = if t.is_null() {
        driver_table()
    } else {
        // SAFETY: CURRENT only ever holds a pointer to a `'static` table (`use_glcmd`).
        unsafe { &*t }
    };
    let f = table[i];
    if f.is_null() {
        fail_missing as *const c_void
    } else {
        f
    }
}

/// A stand-in for a function no GL library provides (no loader library, or an entry the
/// driver does not know): says so once per name. It takes no arguments and returns zero; under
/// the C calling convention on x86-64 and AArch64 a caller's arguments are then ignored and a
/// scalar return value is 0, which is what libglvnd's own no-op stubs return.
extern "system" fn fail_missing() -> usize {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        eprintln!("glcmd-run: a GL function was called that no loaded GL library provides; the call does nothing");
    }
    0
}

/// The calling thread's GL calls go to glcmd from now on.
pub fn use_glcmd() {
    let t: *const Table = glcmd_table();
    CURRENT.with(|c| c.set(t as *const c_void));
}

/// The calling thread's GL calls do nothing from now on but say so once ([`fail_forked`]): the
/// thread of a child of `fork` whose context glcmd served in the parent.
pub fn use_forked() {
    static FORKED: OnceLock<Shared> = OnceLock::new();
    let t: *const Table = &FORKED.get_or_init(|| Shared(vec![fail_forked as *const c_void; NAMES.len()])).0;
    CURRENT.with(|c| c.set(t as *const c_void));
}

/// The stand-in for every GL function on the thread of a child of `fork` that had a context
/// glcmd served current in the parent: the context is current on glcmd's render thread there,
/// which `fork` did not copy, so no call can reach it. Says so once; returns zero (as
/// [`fail_missing`], whose calling-convention argument holds here too).
extern "system" fn fail_forked() -> usize {
    static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        eprintln!(
            "glcmd-run: a GL call in a child of fork() on the thread whose context glcmd served in the parent does nothing: \
             the context is current on glcmd's render thread, which the child does not have (fork copies only the \
             calling thread); a child that draws makes a context of its own"
        );
    }
    0
}

/// The calling thread's GL calls go to the driver from now on.
pub fn use_driver() {
    CURRENT.with(|c| c.set(std::ptr::null()));
}

/// The symbol of `name` this library exports, if it exports one (what `glXGetProcAddressARB`
/// and `eglGetProcAddress` return for a GL function, so that a pointer a program keeps follows
/// the calling thread's table like a directly linked call).
pub fn exported(name: &std::ffi::CStr) -> Option<*const c_void> {
    index_of(name).map(crate::exports::symbol)
}

/// The index of `name` in `NAMES`.
fn index_of(name: &std::ffi::CStr) -> Option<usize> {
    static INDEX: OnceLock<std::collections::HashMap<&'static [u8], usize>> = OnceLock::new();
    INDEX
        .get_or_init(|| NAMES.iter().enumerate().map(|(i, n)| (n.to_bytes(), i)).collect())
        .get(name.to_bytes())
        .copied()
}
