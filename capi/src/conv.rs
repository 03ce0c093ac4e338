//! C values to Rust values and back, for the generated entry points.
//!
//! The length of every C array comes from the same rule the Rust method uses (gl.xml's `len`,
//! the pname tables, the GL's pixel rules); this module turns pointer + length into a slice:
//!
//! * NULL with a length of 0 is an empty slice (the GL accepts it). NULL with a length above 0
//!   is a *stand-in*: that many zeros (an empty string for a string), so that the call reaches
//!   the GL and the GL makes every check it makes on the call, raising its own error first (a
//!   uniform location of no uniform, a target, a source enum: issue 30 item 4). Where the GL
//!   does not read the array (Mesa returns early for a NULL name or array in many functions)
//!   that is what the GL does; where it would read through NULL, the driver crashes directly
//!   and glcmd hands it zeros instead. A stand-in larger than [`NULL_STAND_IN_BYTES`] is not
//!   made: `GLCMD_ERROR_NULL_POINTER`. A negative count is `GLCMD_ERROR_INVALID_ARGUMENT`. Where
//!   the GL gives NULL a meaning of its own, the generator says what glcmd does (`emit/capi.rs`,
//!   `NullRule`): NULL reaches the GL as NULL (`option_slice`, the multi-binds), is refused with
//!   the GL's error (`glShaderSource`), or is recorded as what the GL makes of it (an empty
//!   label; zeros for arrays the GL ignores).
//! * A NULL output is no reason to skip the call: the query runs (the GL's checks and errors
//!   hold) and nothing is written (`write_*` skip NULL); a create into NULL creates nothing, as
//!   Mesa's `glGen*`/`glCreate*` do.
//! * A slice borrows the caller's memory for the call (the recording method copies it); one at an
//!   address not aligned for its type (legal to hand a C driver, undefined for a Rust slice) is
//!   copied first.
//! * Strings must be UTF-8 (the Rust API takes `&str`).
//!
//! Results go back through `write_*`, which accept the Rust API's types (a `bool` for a
//! `GLboolean`, say) through [`ToC`], so the generated code does not depend on them.

use std::borrow::Cow;
use std::ffi::CStr;
use std::sync::Mutex;

use glcmd::generated::pname::Count;
use glcmd::generated::types::{GLsizei, GLsync, GLubyte};

use crate::error::CallError;
use crate::types::{GLCMD_ERROR_INVALID_ARGUMENT, GLCMD_ERROR_UNKNOWN_PNAME};

/// A `glcmd::Error` as a `CallError` of function `f`.
#[inline]
pub fn checked<T>(f: &str, r: Result<T, glcmd::Error>) -> Result<T, CallError> {
    r.map_err(|e| CallError::from_glcmd(f, e))
}

fn invalid(f: &str, message: String) -> CallError {
    CallError::new(GLCMD_ERROR_INVALID_ARGUMENT, format!("{f}: {message}"))
}

/// A count or size argument as a length: negative is an error (the GL raises GL_INVALID_VALUE
/// and reads nothing; glcmd records nothing).
#[inline]
pub fn count(f: &str, argument: &str, value: i64) -> Result<usize, CallError> {
    usize::try_from(value).map_err(|_| invalid(f, format!("`{argument}` is {value}; it must be 0 or more")))
}

/// `len` values of `T` at `p`: borrowed, or copied when `p` is not aligned for `T`.
///
/// # Safety
/// `p` is NULL or points to `len` readable values of `T` that stay unchanged for `'a`.
#[inline]
pub unsafe fn slice<'a, T: Copy>(f: &str, argument: &str, p: *const T, len: usize) -> Result<Cow<'a, [T]>, CallError> {
    if len == 0 {
        return Ok(Cow::Borrowed(&[]));
    }
    if p.is_null() {
        return stand_in(f, argument, len).map(Cow::Borrowed);
    }
    if len.checked_mul(std::mem::size_of::<T>()).is_none_or(|b| b > isize::MAX as usize) {
        return Err(invalid(f, format!("`{argument}` would hold {len} values, more than memory can")));
    }
    if p.is_aligned() {
        // SAFETY: non-NULL, aligned, `len` values (the caller's contract), size checked above.
        Ok(Cow::Borrowed(unsafe { std::slice::from_raw_parts(p, len) }))
    } else {
        // SAFETY: as above; each value is read unaligned.
        Ok(Cow::Owned((0..len).map(|i| unsafe { p.add(i).read_unaligned() }).collect()))
    }
}

/// The most bytes of zeros glcmd hands the GL for a NULL array (a larger count with NULL is
/// refused: the GL would crash reading it).
pub const NULL_STAND_IN_BYTES: usize = 64 << 10;

/// The zeros of every stand-in: aligned for every GL element type, never written.
#[repr(C, align(16))]
struct Zeros([u8; NULL_STAND_IN_BYTES]);
static ZEROS: Zeros = Zeros([0; NULL_STAND_IN_BYTES]);

/// `len` zeros for a NULL array: the GL checks the call as it would with NULL. Reported as a
/// failure of the call (`glcmdLastError`, the error callback) with no GL error: the GL's answer
/// is the call's.
fn stand_in<'a, T: Copy>(f: &str, argument: &str, len: usize) -> Result<&'a [T], CallError> {
    if len.checked_mul(std::mem::size_of::<T>()).is_none_or(|b| b > NULL_STAND_IN_BYTES) {
        return Err(CallError::null(f, argument));
    }
    null_noted(f, argument, &format!("the GL was given {len} zeros in its place, as it would read {len} values there"));
    // SAFETY: `ZEROS` is static, never written, aligned to 16 (a multiple of the alignment of
    // every GL element type: C scalars, raw pointers and arrays of them) and holds at least
    // `len * size_of::<T>()` bytes (checked above), all zero, which is a value of each of them.
    Ok(unsafe { std::slice::from_raw_parts(ZEROS.0.as_ptr().cast::<T>(), len) })
}

/// Notes a NULL argument the call went ahead with (`what` glcmd did instead of reading or
/// writing through it): `GLCMD_ERROR_NULL_POINTER` for `glcmdLastError` and the error callback,
/// no GL error.
pub fn null_noted(f: &str, argument: &str, what: &str) {
    let message = format!("{f}: `{argument}` is NULL; {what} (directly the driver may crash there)");
    crate::error::fail(f, CallError::new(crate::types::GLCMD_ERROR_NULL_POINTER, message));
}

/// Notes a NULL output (`null`) the query goes ahead with, writing nothing there.
#[inline]
pub fn output_noted(f: &str, argument: &str, null: bool) {
    if null {
        null_noted(f, argument, "the call was made and nothing written there");
    }
}

/// Whether a create of `n` names into a NULL array is to be skipped (noted): the GL creates
/// nothing there after checking `n` (Mesa's `glGen*`/`glCreate*`), so a negative `n` goes on
/// to the create's own error.
#[inline]
pub fn created_into_null(f: &str, argument: &str, null: bool, n: i64) -> bool {
    if null && n > 0 {
        null_noted(f, argument, "nothing was created, as the GL creates nothing");
    }
    null && n >= 0
}

/// Like [`slice()`], where the GL accepts NULL for "no array": NULL is `None`.
///
/// # Safety
/// As for [`slice()`].
#[inline]
pub unsafe fn option_slice<'a, T: Copy>(
    f: &str,
    argument: &str,
    p: *const T,
    len: usize,
) -> Result<Option<Cow<'a, [T]>>, CallError> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: the caller's contract.
    unsafe { slice(f, argument, p, len) }.map(Some)
}

/// `N` values of `T` at `p`, copied.
///
/// # Safety
/// `p` is NULL or points to `N` readable values of `T`.
#[inline]
pub unsafe fn array<T: Copy, const N: usize>(f: &str, argument: &str, p: *const T) -> Result<[T; N], CallError> {
    if p.is_null() {
        // The stand-in of `slice`: zeros, so that the GL checks the call.
        let zeros = stand_in::<T>(f, argument, N)?;
        return Ok(std::array::from_fn(|i| zeros[i]));
    }
    // SAFETY: the caller's contract; read unaligned, so any address works.
    Ok(unsafe { p.cast::<[T; N]>().read_unaligned() })
}

/// `n` chunks of `K` values of `T` at `p` (`len="count*K"`).
///
/// # Safety
/// `p` is NULL or points to `n * K` readable values of `T`, unchanged for `'a`.
#[inline]
pub unsafe fn chunks<'a, T: Copy, const K: usize>(
    f: &str,
    argument: &str,
    p: *const T,
    n: usize,
) -> Result<Cow<'a, [[T; K]]>, CallError> {
    // SAFETY: `[T; K]` has the alignment of `T`, and `n` of them are `n * K` values of `T`.
    unsafe { slice(f, argument, p.cast::<[T; K]>(), n) }
}

/// The most values a pname's array holds (a matrix).
const PNAME_MOST: usize = 16;

/// A pname-sized input array: the pname tables' count of values at `p`. For a pname the tables
/// do not know glcmd cannot tell how long the caller's array is, so it reads nothing: the call
/// goes to the GL with 16 zeros in its place (noted: `GLCMD_ERROR_UNKNOWN_PNAME`, no GL error),
/// and the GL refuses the pname itself, with its own error or an earlier one (a name that is no
/// texture comes first: issue 34 item 4).
///
/// # Safety
/// As for [`slice()`], with the pname's count of values.
pub unsafe fn pname_slice<'a, T: Copy>(
    f: &str,
    argument: &str,
    p: *const T,
    pname: u32,
    count: Option<Count>,
) -> Result<Cow<'a, [T]>, CallError> {
    if let Some(Count::Fixed(n)) = count {
        // SAFETY: the caller's contract.
        return unsafe { slice(f, argument, p, n as usize) };
    }
    let message = format!(
        "{f}: pname {} is not in glcmd's pname tables, so the length of `{argument}` is unknown; the call went to \
         the GL with {PNAME_MOST} zeros in its place (add the pname to codegen/src/pname_tables.rs)",
        glcmd::dump::EnumName(pname)
    );
    crate::error::fail(f, CallError::new(GLCMD_ERROR_UNKNOWN_PNAME, message));
    // 16 values of at most 8 bytes fit the stand-in's zeros.
    let zeros = ZEROS.0.len() / std::mem::size_of::<T>().max(1);
    // SAFETY: as in `stand_in`: static zeros, aligned for `T`, at least `PNAME_MOST` values of it.
    Ok(Cow::Borrowed(unsafe { std::slice::from_raw_parts(ZEROS.0.as_ptr().cast::<T>(), PNAME_MOST.min(zeros)) }))
}

/// A string argument: `length` bytes when `length` is given and not negative, else up to the
/// first NUL (the GL's rule for every string with a length argument).
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string, or to `length` readable bytes.
pub unsafe fn string<'a>(f: &str, argument: &str, p: *const u8, length: Option<i64>) -> Result<&'a str, CallError> {
    if p.is_null() {
        // The stand-in of `slice` for a string: empty, so that the GL checks the call.
        null_noted(f, argument, "the GL was given an empty string in its place");
        return Ok("");
    }
    let bytes: &[u8] = match length {
        Some(n) if n >= 0 => {
            // SAFETY: the caller's contract.
            match unsafe { slice(f, argument, p, n as usize)? } {
                Cow::Borrowed(b) => b,
                Cow::Owned(_) => unreachable!("bytes are always aligned"),
            }
        }
        // SAFETY: NUL-terminated, the caller's contract.
        _ => unsafe { CStr::from_ptr(p.cast()) }.to_bytes(),
    };
    std::str::from_utf8(bytes)
        .map_err(|e| invalid(f, format!("`{argument}` is not UTF-8 ({e}); glcmd's string arguments are UTF-8")))
}

/// `n` strings (`glShaderSource`): each NUL-terminated, or as long as its entry of `lengths`
/// when `lengths` is not NULL and the entry is not negative. `null_refused`: the GL refuses a
/// NULL array whatever `n` (`glShaderSource`), so NULL is an error even for `n` = 0.
///
/// # Safety
/// `p` points to `n` string pointers, each valid as for [`string`]; `lengths` is NULL or points
/// to `n` values.
pub unsafe fn strings<'a>(
    f: &str,
    argument: &str,
    p: *const *const u8,
    n: usize,
    lengths: *const i32,
    null_refused: bool,
) -> Result<Vec<&'a str>, CallError> {
    if null_refused && p.is_null() {
        return Err(CallError::null(f, argument));
    }
    // SAFETY: the caller's contract.
    let pointers = unsafe { slice(f, argument, p, n)? };
    // SAFETY: the caller's contract; NULL is "every string NUL-terminated".
    let lengths = unsafe { option_slice(f, "length", lengths, n)? };
    let mut out = Vec::with_capacity(n);
    for (i, &s) in pointers.iter().enumerate() {
        let length = lengths.as_ref().map(|l| l[i] as i64);
        // SAFETY: the caller's contract, string by string.
        out.push(unsafe { string(f, argument, s, length)? });
    }
    Ok(out)
}

/// A `GLboolean` argument, as the Rust method takes it.
pub trait FromGLboolean {
    fn from_gl(v: u8) -> Self;
}
impl FromGLboolean for u8 {
    #[inline(always)]
    fn from_gl(v: u8) -> u8 {
        v
    }
}
impl FromGLboolean for bool {
    #[inline(always)]
    fn from_gl(v: u8) -> bool {
        v != 0
    }
}

#[inline(always)]
pub fn boolean<B: FromGLboolean>(v: u8) -> B {
    B::from_gl(v)
}

/// A `GLsync` from C: glcmd hands out sync ids as `GLsync` values (`special.rs`). A value that is
/// no id names no sync object: the call fails or is skipped, as for a deleted one.
#[inline]
pub fn sync(v: GLsync) -> glcmd::SyncHandle {
    glcmd::SyncHandle::from_id(u32::try_from(v as usize).unwrap_or(0))
}

/// A `glcmd::SyncHandle` as the `GLsync` C gets.
#[inline]
pub fn sync_to_c(s: glcmd::SyncHandle) -> GLsync {
    s.id() as usize as GLsync
}

/// A Rust result value as the C type of its output.
pub trait ToC<C> {
    fn to_c(self) -> C;
}
impl<T> ToC<T> for T {
    #[inline(always)]
    fn to_c(self) -> T {
        self
    }
}
impl ToC<u8> for bool {
    #[inline(always)]
    fn to_c(self) -> u8 {
        self as u8
    }
}

/// A return value, as the C function returns it.
#[inline(always)]
pub fn ret<C, R: ToC<C>>(v: R) -> C {
    v.to_c()
}

/// Writes one value (an optional output that is NULL is skipped).
///
/// # Safety
/// `p` is NULL or points to room for one `C`.
#[inline]
pub unsafe fn write_one<C, R: ToC<C>>(p: *mut C, v: R) {
    if !p.is_null() {
        // SAFETY: the caller's contract; unaligned, so any address works.
        unsafe { p.write_unaligned(v.to_c()) };
    }
}

/// Writes values (the length rule sized them; the GL would write as many).
///
/// # Safety
/// `p` is NULL (with nothing to write) or points to room for `v.len()` values of `C`.
#[inline]
pub unsafe fn write_slice<C, R: ToC<C> + Copy>(p: *mut C, v: &[R]) {
    if p.is_null() {
        return;
    }
    for (i, &x) in v.iter().enumerate() {
        // SAFETY: the caller's contract.
        unsafe { p.add(i).write_unaligned(x.to_c()) };
    }
}

/// Writes the values of an output whose size the caller gives in bytes (`bufSize` of
/// `glGetnUniformfv`): no byte past `bytes`, though the last value may be cut (its bytes past
/// `bytes` are not the caller's). Nothing for a negative `bytes` or NULL.
///
/// # Safety
/// `p` is NULL or points to `bytes` writable bytes.
pub unsafe fn write_slice_bytes<T: Copy>(p: *mut T, v: &[T], bytes: i64) {
    if p.is_null() || bytes <= 0 {
        return;
    }
    let n = std::mem::size_of_val(v).min(bytes as usize);
    // SAFETY: the caller's contract: `n <= bytes` bytes; the values are plain data.
    unsafe { std::ptr::copy_nonoverlapping(v.as_ptr().cast::<u8>(), p.cast::<u8>(), n) };
}

/// Writes a string output as the GL does: at most `buf_size - 1` bytes and a NUL (nothing when
/// `buf_size` is 0), and the bytes written, NUL excluded, to `length` unless it is NULL.
///
/// # Safety
/// `p` points to `buf_size` writable bytes (or `buf_size` is 0); `length` is NULL or writable.
pub unsafe fn write_string(p: *mut u8, buf_size: i64, length: *mut GLsizei, s: &str) {
    let mut written = 0;
    if buf_size > 0 && !p.is_null() {
        let n = s.len().min(buf_size as usize - 1);
        // SAFETY: the caller's contract: `n + 1 <= buf_size` bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(s.as_ptr(), p, n);
            p.add(n).write(0);
        }
        written = n;
    }
    if !length.is_null() {
        // SAFETY: the caller's contract.
        unsafe { length.write_unaligned(written as GLsizei) };
    }
}

/// Strings glGetString and glGetStringi returned, each kept for the life of the process (the GL
/// keeps its own as long as the context): there are a few hundred at most (the extensions).
static INTERNED: Mutex<Vec<&'static CStr>> = Mutex::new(Vec::new());

/// A returned string as a pointer that stays valid (NULL for none).
pub fn intern(s: Option<String>) -> *const GLubyte {
    let Some(s) = s else { return std::ptr::null() };
    let Ok(c) = std::ffi::CString::new(s) else { return std::ptr::null() };
    let mut all = INTERNED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(found) = all.iter().find(|k| **k == c.as_c_str()) {
        return found.as_ptr().cast();
    }
    let leaked: &'static CStr = Box::leak(c.into_boxed_c_str());
    all.push(leaked);
    leaked.as_ptr().cast()
}
