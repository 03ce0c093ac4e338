//! The output array of a query whose length depends on its pname: how many values the driver
//! wrote, so that exactly those reach the caller.
//!
//! `glGetIntegerv(pname, data)` and the other `glGet*`/`glGet*Parameter*` functions write as
//! many values as `pname` names, into memory the program sized for that. glcmd asks on the render
//! thread, into a buffer of its own, and copies the answer out afterwards, so it must know how
//! many values the driver wrote. Its pname tables (`codegen/src/pname_tables.rs`) say how many the
//! GL specifies, but they cannot be complete: drivers answer extension, vendor and alias pnames
//! the tables lack (Mesa answers `GL_TEXTURE_BUFFER_FORMAT_ARB` in a core context, and the whole
//! compatibility state), and a driver may write fewer values than the specification's state table
//! says (Mesa's `glGetBooleanv(GL_DEPTH_RANGE)` writes none). Refusing a pname the tables lack
//! raised `GL_INVALID_ENUM` where the driver answers; copying the table's count copied glcmd's own
//! zeros where the driver wrote nothing.
//!
//! So the count is *measured*, with sentinels:
//!
//! * The buffer holds `max(count, MIN_VALUES)` values (`count` from the table, 0 for a pname it
//!   lacks), every one set to the element type's first sentinel ([`Sentinel`]: bit patterns no
//!   driver writes in practice: a signalling NaN for floats, `0xA5`-style integers, a boolean that
//!   is neither 0 nor 1). `MIN_VALUES` (64) is four times the largest fixed-size answer of any GL
//!   query (a 4x4 matrix, 16 values); lists of any length (`GL_COMPRESSED_TEXTURE_FORMATS`) are
//!   in the tables as counts the GL is asked for first, and get a buffer of that length.
//! * After the call (a refused one writes nothing and never gets here: `refused_by`), the values
//!   up to the last one that is not the sentinel were written. When that covers the table's
//!   count, that is the answer (the common case: one GL call, as before). When it falls short (the
//!   driver wrote fewer, or its last value happens to equal the sentinel, or the pname is not in
//!   the tables), the query is asked again into a buffer filled with the *second* sentinel, and
//!   the count is the larger of the two: a written value cannot equal both sentinels, and a query
//!   answers the same twice in a row (the GL state does not change between the two calls, which
//!   run back to back on the render thread). The second call is made only when the first one was
//!   accepted, so it raises no error and no debug message of its own.
//!
//! What this cannot see: a driver that writes more than `MIN_VALUES` values for a pname glcmd's
//! tables lack would write past glcmd's buffer as it would past any program's; no GL query of
//! fixed size comes near (16), and the variable-size ones are in the tables.
//!
//! Pnames known to crash a driver ([`REFUSED`]) are not passed on at all: they raise
//! `GL_INVALID_ENUM`, which is what a GL without their extension answers, and glcmd does not list
//! that extension (docs/extensions.md).

use crate::generated::types::{GLboolean, GLdouble, GLfloat, GLint, GLint64, GLuint, GLuint64};

/// The smallest output buffer of a pname query, in values (see the module's doc).
pub const MIN_VALUES: usize = 64;

/// Pnames glcmd never passes to the driver, with the reason. `GL_DEVICE_LUID_EXT` and
/// `GL_DEVICE_NODE_MASK_EXT` (`GL_EXT_memory_object_win32`/`GL_EXT_semaphore_win32`, queried
/// with every `glGet*v`): Mesa's llvmpipe calls a screen function it does not have (a crash
/// directly, Mesa 22.3). glcmd lists neither extension nor `GL_EXT_memory_object`.
pub const REFUSED: &[(u32, &str)] = &[
    (0x9599, "GL_DEVICE_LUID_EXT crashes Mesa's llvmpipe; glcmd does not list GL_EXT_memory_object_win32"),
    (0x959A, "GL_DEVICE_NODE_MASK_EXT crashes Mesa's llvmpipe; glcmd does not list GL_EXT_memory_object_win32"),
];

/// Whether `pname` is one of [`REFUSED`].
#[inline]
pub fn refused(pname: u32) -> bool {
    REFUSED.iter().any(|&(p, _)| p == pname)
}

/// An element type of a query's output, with two bit patterns a driver does not write.
pub trait Sentinel: Copy {
    /// Sentinel `which` (0 or 1).
    fn sentinel(which: usize) -> Self;
    /// Whether `self` is sentinel `which`, bit for bit (a NaN compares unequal to itself).
    fn is_sentinel(self, which: usize) -> bool;
}

macro_rules! integer_sentinel {
    ($($t:ty => $a:expr, $b:expr;)*) => {$(
        impl Sentinel for $t {
            #[inline]
            fn sentinel(which: usize) -> Self {
                [$a as $t, $b as $t][which]
            }
            #[inline]
            fn is_sentinel(self, which: usize) -> bool {
                self == Self::sentinel(which)
            }
        }
    )*};
}

integer_sentinel! {
    GLint => 0x7A5A_5AA7u32, 0x85A5_A55Au32;
    GLuint => 0x7A5A_5AA7u32, 0x85A5_A55Au32;
    GLint64 => 0x7A5A_5AA7_A55A_5AA7u64, 0x85A5_A55A_5AA5_A55Au64;
    GLuint64 => 0x7A5A_5AA7_A55A_5AA7u64, 0x85A5_A55A_5AA5_A55Au64;
    // A GLboolean the GL writes is GL_FALSE or GL_TRUE.
    GLboolean => 0xA5u8, 0x5Au8;
}

// Signalling NaNs with payloads: a driver's float answers are numbers or a quiet NaN.
impl Sentinel for GLfloat {
    #[inline]
    fn sentinel(which: usize) -> Self {
        f32::from_bits([0x7FA5_A5A5, 0xFF9A_5A5A][which])
    }
    #[inline]
    fn is_sentinel(self, which: usize) -> bool {
        self.to_bits() == Self::sentinel(which).to_bits()
    }
}

impl Sentinel for GLdouble {
    #[inline]
    fn sentinel(which: usize) -> Self {
        f64::from_bits([0x7FF5_A5A5_A5A5_A5A5, 0xFFF5_5A5A_5A5A_5A5A][which])
    }
    #[inline]
    fn is_sentinel(self, which: usize) -> bool {
        self.to_bits() == Self::sentinel(which).to_bits()
    }
}

/// The output buffer of a query the tables say writes `count` values: `max(count, MIN_VALUES)`
/// values, each sentinel `which`; allocated fallibly (`arguments::out_vec`'s limit).
pub fn buffer<T: Sentinel + Default>(
    function: &'static str,
    count: usize,
    which: usize,
) -> Result<Vec<T>, crate::Error> {
    let mut v: Vec<T> = crate::arguments::out_vec(function, count.max(MIN_VALUES))?;
    v.fill(T::sentinel(which));
    Ok(v)
}

/// The number of values before the last one in `v` that is not sentinel `which`.
fn last_written<T: Sentinel>(v: &[T], which: usize) -> usize {
    v.iter().rposition(|x| !x.is_sentinel(which)).map_or(0, |i| i + 1)
}

/// How many values the driver wrote into `first` (a [`buffer`] with sentinel 0, after an
/// accepted call) when the tables say `count`: `again` asks the same query into a second
/// buffer, of the same length and sentinel 1, where the first cannot tell (the module's doc).
pub fn written<T: Sentinel + Default>(first: &[T], count: usize, again: impl FnOnce(&mut [T])) -> usize {
    let n = last_written(first, 0);
    if n >= count && count > 0 {
        return n;
    }
    let mut second = vec![T::sentinel(1); first.len()];
    let _region = crate::arguments::region(second.as_ptr(), std::mem::size_of_val(&second[..]));
    again(&mut second);
    n.max(last_written(&second, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A driver that writes `values` into what it is given.
    fn driver<T: Copy>(values: &[T]) -> impl Fn(&mut [T]) + '_ {
        move |out: &mut [T]| out[..values.len()].copy_from_slice(values)
    }

    #[test]
    fn a_full_answer_takes_one_call() {
        let mut a: Vec<GLint> = buffer("t", 4, 0).unwrap();
        driver(&[1, 2, 3, 4])(&mut a);
        assert_eq!(written(&a, 4, |_| panic!("asked twice")), 4);
    }

    #[test]
    fn fewer_values_than_the_table_says_are_counted_as_written() {
        let mut a: Vec<GLboolean> = buffer("t", 2, 0).unwrap();
        driver::<GLboolean>(&[])(&mut a);
        assert_eq!(written(&a, 2, driver(&[])), 0);
        driver(&[1u8])(&mut a);
        assert_eq!(written(&a, 2, driver(&[1u8])), 1);
    }

    #[test]
    fn a_value_equal_to_the_first_sentinel_is_seen_by_the_second_call() {
        let s = GLint::sentinel(0);
        let mut a: Vec<GLint> = buffer("t", 0, 0).unwrap();
        driver(&[7, s])(&mut a);
        assert_eq!(written(&a, 0, driver(&[7, s])), 2);
        let f = GLfloat::sentinel(0);
        let mut a: Vec<GLfloat> = buffer("t", 1, 0).unwrap();
        driver(&[f])(&mut a);
        assert_eq!(written(&a, 1, driver(&[f])), 1);
    }

    #[test]
    fn more_values_than_the_table_says_are_all_copied() {
        let mut a: Vec<GLdouble> = buffer("t", 1, 0).unwrap();
        driver(&[1.0, 2.0, 3.0])(&mut a);
        assert_eq!(written(&a, 1, |_| panic!("asked twice")), 3);
        assert_eq!(a.len(), MIN_VALUES);
    }
}
