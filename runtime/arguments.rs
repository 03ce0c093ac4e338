//! Argument checks and conversions the generated methods call: packing enums into 16 bits,
//! turning slice lengths into GL counts, checking sizes and buffer ranges of queries, the
//! panics for impossible input. (Not a codec: nothing here encodes a packet; the module was
//! once called that.)
//!
//! Every function that can panic is `#[track_caller]`, so the panic points at the line of the
//! application that called the recording method, and its message names the GL function and the
//! argument.

/// Packs a `GLenum` into 16 bits. Every enumerant the GL accepts in the packed positions is
/// below 0xFFFF (the generator checks the enum groups); a larger value is invalid anyway and
/// saturates to 0xFFFF, which is also invalid, so the GL still reports `GL_INVALID_ENUM`.
#[inline(always)]
pub fn pack_enum(value: u32) -> u16 {
    if value > 0xFFFF {
        0xFFFF
    } else {
        value as u16
    }
}

/// A slice length as a GL count.
#[inline(always)]
#[track_caller]
pub fn count_i32(len: usize, function: &str, argument: &str) -> i32 {
    match i32::try_from(len) {
        Ok(n) => n,
        Err(_) => panic!("{function}: `{argument}` has {len} elements, more than a GLsizei can count"),
    }
}

/// A byte length as a `GLsizeiptr`. Slices never hold more than `isize::MAX` bytes, so this is
/// lossless.
#[inline(always)]
pub fn count_isize(len: usize) -> isize {
    len as isize
}

/// A size argument of a query: negative sizes are an error (the GL would read them as huge).
#[inline]
pub fn size_arg(function: &'static str, argument: &'static str, value: i64) -> Result<usize, crate::Error> {
    usize::try_from(value).map_err(|_| crate::Error::InvalidArgument { function, argument, value })
}

/// The largest buffer a query allocates for its result (1 GiB): a larger size is refused with
/// `Error::OutOfMemory` before anything is allocated, instead of committing gigabytes of zeros
/// (or being killed for it). Read more through a pixel-pack buffer, or with `Device::with_gl`.
pub const MAX_QUERY_BYTES: usize = 1 << 30;

/// The output buffer of a query: `n` elements (at least one, so the pointer handed to the GL is
/// always real memory even when it is told 0), allocated fallibly so a huge size is an error,
/// not an abort. The caller truncates it to `n` after the call.
pub fn out_vec<T: Default + Clone>(function: &'static str, n: usize) -> Result<Vec<T>, crate::Error> {
    let len = n.max(1);
    let bytes = len as u128 * std::mem::size_of::<T>() as u128;
    if bytes > MAX_QUERY_BYTES as u128 {
        return Err(crate::Error::OutOfMemory { function, bytes });
    }
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| crate::Error::OutOfMemory { function, bytes })?;
    v.resize(len, T::default());
    Ok(v)
}

/// Checks that slices sized by the same GL count agree.
#[inline(always)]
#[track_caller]
pub fn same_len(function: &str, count: &str, lens: &[(&str, usize)]) -> usize {
    let (first, n) = lens[0];
    for &(name, len) in &lens[1..] {
        if len != n {
            panic!("{function}: `{name}` has {len} elements but `{first}` has {n}; both are sized by `{count}`");
        }
    }
    n
}

/// Checks that a slice holds exactly the elements a count argument says.
#[inline(always)]
#[track_caller]
pub fn check_len(function: &str, argument: &str, len: usize, expected: i64, rule: &str) {
    if expected < 0 || len as i64 != expected {
        panic!("{function}: `{argument}` has {len} elements, but `{rule}` needs {expected}");
    }
}

/// Checks a pname-sized array: at least as many elements as the pname needs.
#[inline(always)]
#[track_caller]
pub fn check_pname_len(function: &str, argument: &str, len: usize, needed: Option<u32>, pname: u32) {
    if let Some(n) = needed {
        if len < n as usize {
            panic!(
                "{function}: `{argument}` has {len} elements, but pname {} needs {n}",
                crate::vocab::EnumName(pname)
            );
        }
    }
}

/// Checks the pname of a scalar query form (`get_integer`): one that yields several values is
/// the caller's mistake, known before any GL call.
#[track_caller]
pub fn check_scalar_pname(function: &str, pname: u32, count: Option<crate::generated::pname::Count>) {
    if let Some(crate::generated::pname::Count::Fixed(n)) = count {
        if n != 1 {
            let scalar = crate::vocab::EnumName(pname);
            panic!(
                "{function}: pname {scalar} yields {n} values, so the scalar form cannot return it; call the `v` form"
            );
        }
    }
}

/// A string as a NUL-terminated C string for a query or create call.
#[track_caller]
pub fn c_string(function: &str, argument: &str, s: &str) -> std::ffi::CString {
    match std::ffi::CString::new(s) {
        Ok(c) => c,
        Err(_) => panic!("{function}: `{argument}` contains a NUL byte"),
    }
}

/// Bytes written by the GL into a string buffer, up to `length` (or the first NUL).
pub fn string_from(buf: &[u8], length: Option<i32>) -> String {
    let end = match length {
        Some(n) if n >= 0 => (n as usize).min(buf.len()),
        _ => buf.iter().position(|&b| b == 0).unwrap_or(buf.len()),
    };
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// A `const GLubyte *` returned by the GL (glGetString) as an owned string.
///
/// # Safety
/// `p` is null or points to a NUL-terminated string.
pub unsafe fn string_from_ptr(p: *const u8) -> Option<String> {
    if p.is_null() {
        None
    } else {
        // SAFETY: the caller guarantees a NUL-terminated string.
        Some(unsafe { std::ffi::CStr::from_ptr(p.cast()) }.to_string_lossy().into_owned())
    }
}

/// Registers memory a GL call may touch, for the checking function table (feature `checking`);
/// without it, nothing. Keep the guard alive across the call.
#[inline(always)]
pub fn region<T>(ptr: *const T, bytes: usize) -> Region {
    #[cfg(feature = "checking")]
    {
        Region(crate::checked::Region::new(ptr.cast(), bytes))
    }
    #[cfg(not(feature = "checking"))]
    {
        let _ = (ptr, bytes);
        Region(())
    }
}

/// The guard of [`region`].
#[must_use]
pub struct Region(
    #[cfg(feature = "checking")]
    #[allow(dead_code)]
    crate::checked::Region,
    #[cfg(not(feature = "checking"))] (),
);

/// Buffer offsets and sizes of a query: the rule of
/// `vocab::params::first_bad_range`, as an error naming the argument.
pub fn check_ranges(function: &'static str, values: &[(&'static str, i64)]) -> Result<(), crate::Error> {
    match crate::vocab::params::first_bad_range(values.iter().map(|v| v.1)) {
        Some(i) => Err(crate::Error::InvalidArgument { function, argument: values[i].0, value: values[i].1 }),
        None => Ok(()),
    }
}
