//! The checking function table (cargo feature `checking`): a `Gl` whose every entry, before
//! it calls the driver, checks what the call is about to let the driver touch.
//!
//! glcmd's promise is that every pointer it hands the driver points at memory of at least the
//! size the GL will use, and that an offset reaches the GL only while a buffer is bound to its
//! target. This module checks that promise call by call, independently of the code that keeps
//! it:
//!
//! * **Regions.** The memory a call may touch is registered per thread: the parameter buffer of
//!   the list being replayed (and the string-pointer scratch), or the output and input buffers a
//!   query allocated (`arguments::region`). A pointer argument must lie, with the whole length the
//!   GL will read or write, inside one region.
//! * **Lengths** are computed here from the call's own arguments with the registry's rules
//!   (`n`, `count*16`, the pname tables, `bufSize`), by generated wrappers
//!   (`generated/checked.rs`), not taken from what the recording side stored.
//! * **Bindings** are read from the GL itself, not from glcmd's binding shadow: an element draw
//!   needs an element buffer, every enabled attribute of a draw needs a buffer, an indirect
//!   draw needs `GL_DRAW_INDIRECT_BUFFER`, and a pointer of a pixel transfer or a query-object
//!   result is an offset only while the matching buffer is bound (otherwise it must lie in a
//!   region).
//! * **Sync objects** must be real (`glIsSync`).
//!
//! A failed check is recorded as a [`Violation`] and the call is not made (so a bug found here
//! cannot also crash the test that found it). `tests/` of the `glcmd-sweep` crate run every
//! safe method through this table with adversarial arguments and require zero violations.
//! Internal GL calls of the runtime (the shadow's read-backs, the loader) use the real table.

use std::cell::{Cell, RefCell};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::generated::{enums as gl, types::*, Gl};

/// One failed check.
#[derive(Clone, Debug)]
pub struct Violation {
    pub function: &'static str,
    pub argument: &'static str,
    pub message: String,
}

static CALLS: AtomicU64 = AtomicU64::new(0);
static VIOLATIONS: Mutex<Vec<Violation>> = Mutex::new(Vec::new());

thread_local! {
    static REAL: Cell<*const Gl> = const { Cell::new(std::ptr::null()) };
    static REGIONS: RefCell<Vec<(usize, usize)>> = const { RefCell::new(Vec::new()) };
}

/// Calls made through checking tables, and the violations found, since the process started.
pub fn summary() -> (u64, Vec<Violation>) {
    (CALLS.load(Ordering::Relaxed), VIOLATIONS.lock().unwrap_or_else(|e| e.into_inner()).clone())
}

/// Makes `real` the table the checking wrappers call on this thread, and returns the checking
/// table. `real` must stay alive as long as the checking table is used on this thread.
pub(crate) fn install(real: &Gl) -> Box<Gl> {
    REAL.with(|r| r.set(real));
    crate::generated::checked::table()
}

/// Forgets this thread's real table (before it is dropped).
pub(crate) fn uninstall() {
    REAL.with(|r| r.set(std::ptr::null()));
}

/// The real table of this thread.
pub fn real() -> &'static Gl {
    let p = REAL.with(|r| r.get());
    assert!(!p.is_null(), "a checking GL table was called on a thread without a real table");
    // SAFETY: set by `install` from a table the render thread keeps alive until `uninstall`.
    unsafe { &*p }
}

/// Counts a call.
pub fn call() {
    CALLS.fetch_add(1, Ordering::Relaxed);
}

/// Records a violation; returns false so wrappers can write `ok &= violation(...)`.
pub fn violation(function: &'static str, argument: &'static str, message: String) -> bool {
    VIOLATIONS.lock().unwrap_or_else(|e| e.into_inner()).push(Violation { function, argument, message });
    false
}

/// Memory a call may touch, registered while the guard lives.
pub struct Region {
    start: usize,
}

impl Region {
    pub fn new(ptr: *const c_void, bytes: usize) -> Region {
        let start = ptr as usize;
        REGIONS.with(|r| r.borrow_mut().push((start, start.saturating_add(bytes))));
        Region { start }
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        REGIONS.with(|r| {
            let mut r = r.borrow_mut();
            if let Some(i) = r.iter().rposition(|&(s, _)| s == self.start) {
                r.remove(i);
            }
        });
    }
}

fn inside(start: usize, bytes: usize) -> bool {
    let end = match start.checked_add(bytes) {
        Some(e) => e,
        None => return false,
    };
    REGIONS.with(|r| r.borrow().iter().any(|&(s, e)| start >= s && end <= e))
}

/// The bytes a pixel upload of a `width` x `height` x `depth` image of `format`/`type_` reads
/// under the GL's unpack state now (read from the GL, not from the list). A pair glcmd cannot
/// size never reaches the GL (the recording method refuses it): only the first byte is checked.
pub fn unpack_bytes(dims: u8, (width, height, depth): (i64, i64, i64), format: u32, type_: u32) -> usize {
    let image = crate::pixels::Image { dims, width, height, depth, format, type_ };
    // SAFETY: the checking table runs on the render thread, where `real()` is the current table.
    let store = unsafe { crate::pixels::read_unpack_store(real()) };
    match crate::pixels::image_bytes(&image, &store) {
        Ok(n) => n,
        Err(crate::pixels::SizeError::Format) => 1,
        Err(crate::pixels::SizeError::Overflow) => usize::MAX,
    }
}

/// The bytes of one texel of `format`/`type_` (a clear value).
pub fn texel_bytes(format: u32, type_: u32) -> usize {
    crate::pixels::group_bytes(format, type_).unwrap_or(1)
}

/// A count argument as an element count (a negative count makes the GL fail, reading nothing).
pub fn n(value: i64) -> usize {
    value.max(0) as usize
}

/// `ptr` may be null; otherwise `[ptr, ptr + bytes)` must lie inside a registered region.
pub fn pointer(function: &'static str, argument: &'static str, ptr: *const c_void, bytes: usize) -> bool {
    if ptr.is_null() || inside(ptr as usize, bytes) {
        return true;
    }
    violation(
        function,
        argument,
        format!("{bytes} bytes at {ptr:p} are not inside the memory this call may touch (the list's parameter buffer or the query's buffers)"),
    )
}

/// A string the GL reads: `length` bytes if given and not negative, else up to its NUL, inside
/// a region.
pub fn string(function: &'static str, argument: &'static str, ptr: *const c_void, length: Option<i64>) -> bool {
    if ptr.is_null() {
        return true;
    }
    if let Some(l) = length.filter(|&l| l >= 0) {
        return pointer(function, argument, ptr, l as usize);
    }
    let start = ptr as usize;
    let end = REGIONS.with(|r| r.borrow().iter().find(|&&(s, e)| start >= s && start < e).map(|&(_, e)| e));
    let Some(end) = end else {
        return violation(function, argument, format!("the string at {ptr:p} is not inside a region"));
    };
    // SAFETY: [start, end) is a registered region, readable memory of this thread's call.
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), end - start) };
    if bytes.contains(&0) {
        true
    } else {
        violation(function, argument, format!("the string at {ptr:p} has no NUL before the end of its region"))
    }
}

/// `count` string pointers at `ptr`, each a string (with `lengths[i]` bytes when `lengths` is
/// not null).
///
/// # Safety
/// Only reads memory that `pointer` checked first.
pub unsafe fn strings(
    function: &'static str,
    argument: &'static str,
    ptr: *const *const GLchar,
    count: i64,
    lengths: *const GLint,
) -> bool {
    let count = n(count);
    if !pointer(function, argument, ptr.cast(), count * std::mem::size_of::<*const GLchar>()) {
        return false;
    }
    if !lengths.is_null() && !pointer(function, "length", lengths.cast(), count * 4) {
        return false;
    }
    let mut ok = true;
    for i in 0..count {
        // SAFETY: checked above to lie in a region.
        let (s, l) =
            unsafe { (ptr.add(i).read_unaligned(), (!lengths.is_null()).then(|| lengths.add(i).read_unaligned())) };
        ok &= string(function, argument, s.cast(), l.map(i64::from));
    }
    ok
}

/// Reads an integer state of the real GL.
fn integer(pname: GLenum) -> GLint {
    let mut v = 0;
    // SAFETY: a single-integer query on the render thread's context.
    unsafe { (real().GetIntegerv)(pname, &mut v) };
    v
}

/// An offset argument: a buffer must be bound (`binding` is the binding's pname).
pub fn bound(function: &'static str, argument: &'static str, binding: GLenum, value: usize) -> bool {
    if integer(binding) != 0 {
        return true;
    }
    violation(
        function,
        argument,
        format!(
            "offset {value:#x} reached the GL with nothing bound ({}): it is a client pointer",
            crate::vocab::EnumName(binding)
        ),
    )
}

/// A read of `len` bytes at `offset` of the buffer bound to `target` (whose binding pname is
/// `binding`): a buffer is bound and the range lies inside its storage (computed here in 128
/// bits, independently of the runtime's 64-bit checks).
pub fn range(
    function: &'static str,
    argument: &'static str,
    target: GLenum,
    binding: GLenum,
    offset: u128,
    len: u128,
) -> bool {
    if !bound(function, argument, binding, offset as usize) {
        return false;
    }
    let mut size: GLint64 = 0;
    // SAFETY: a single-integer query of a bound target.
    unsafe { (real().GetBufferParameteri64v)(target, gl::BUFFER_SIZE, &mut size) };
    if offset + len <= size.max(0) as u128 {
        return true;
    }
    violation(
        function,
        argument,
        format!("{len} bytes at offset {offset:#x} reached the GL, past the end of a buffer of {size} bytes"),
    )
}

/// The commands an indirect draw or dispatch reads: `drawcount` of `command` bytes, `stride`
/// apart (0: packed), from `offset`. Counts the GL refuses (negative) read nothing.
pub fn indirect(
    function: &'static str,
    target: GLenum,
    binding: GLenum,
    offset: usize,
    drawcount: i64,
    stride: i64,
    command: u128,
) -> bool {
    if drawcount <= 0 {
        return bound(function, "indirect", binding, offset);
    }
    let stride = if stride == 0 { command as i128 } else { stride as i128 };
    let last = (drawcount as i128 - 1) * stride;
    if last < 0 {
        return violation(function, "stride", format!("a negative stride {stride} reached the GL"));
    }
    range(function, "indirect", target, binding, offset as u128, last as u128 + command)
}

/// The indices an element draw reads: `count` of `type_` at `offset` of the element buffer.
pub fn indices(function: &'static str, count: i64, type_: GLenum, offset: usize) -> bool {
    let size: u128 = match type_ {
        gl::UNSIGNED_BYTE => 1,
        gl::UNSIGNED_SHORT => 2,
        gl::UNSIGNED_INT => 4,
        _ => return true,
    };
    if count <= 0 {
        return true;
    }
    range(
        function,
        "indices",
        gl::ELEMENT_ARRAY_BUFFER,
        gl::ELEMENT_ARRAY_BUFFER_BINDING,
        offset as u128,
        count as u128 * size,
    )
}

/// A pointer that a bound buffer turns into an offset (pixel transfers, query results): with a
/// buffer bound it is an offset (the GL checks its range); otherwise it must be client memory
/// of at least `bytes` (`None`: the GL derives the size from state; only the start is checked).
pub fn redirected(
    function: &'static str,
    argument: &'static str,
    binding: GLenum,
    ptr: *const c_void,
    bytes: Option<usize>,
) -> bool {
    if integer(binding) != 0 {
        return true;
    }
    pointer(function, argument, ptr, bytes.unwrap_or(1))
}

/// A draw: the current vertex array reads no client memory.
pub fn draw(function: &'static str, elements: bool) -> bool {
    let g = real();
    let mut ok = true;
    if integer(gl::VERTEX_ARRAY_BINDING) == 0
        && integer(gl::CONTEXT_PROFILE_MASK) as u32 & gl::CONTEXT_CORE_PROFILE_BIT != 0
    {
        // The GL refuses a core-profile draw with no vertex array; glcmd skips it before that.
        ok &= violation(function, "vertex array", "a draw reached the GL with no vertex array bound".into());
    }
    if elements && integer(gl::ELEMENT_ARRAY_BUFFER_BINDING) == 0 {
        ok &= violation(function, "indices", "an element draw reached the GL with no element buffer".into());
    }
    let attribs = integer(gl::MAX_VERTEX_ATTRIBS).clamp(0, 64) as u32;
    for i in 0..attribs {
        let (mut enabled, mut buffer) = (0, 0);
        // SAFETY: single-integer queries of a valid attribute index.
        unsafe {
            (g.GetVertexAttribiv)(i, gl::VERTEX_ATTRIB_ARRAY_ENABLED, &mut enabled);
            (g.GetVertexAttribiv)(i, gl::VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &mut buffer);
        }
        if enabled != 0 && buffer == 0 {
            ok &=
                violation(function, "vertex array", format!("attribute {i} is enabled with no buffer: a client array"));
        }
    }
    ok
}

/// A sync object argument: null or a real sync object.
// The pointer is never dereferenced: glIsSync compares it with the context's sync objects.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
pub fn sync(function: &'static str, argument: &'static str, s: GLsync) -> bool {
    // SAFETY: glIsSync takes any value and only compares it with the context's sync objects.
    if s.is_null() || unsafe { (real().IsSync)(s) } != 0 {
        return true;
    }
    violation(function, argument, format!("{s:p} is not a sync object of this context"))
}
