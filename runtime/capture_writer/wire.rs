//! The encoding of a create's or query's arguments and answer in a capture.
//!
//! Values are written in the machine's byte order (the capture header records it): scalars as
//! their bytes, strings and slices as a `u32` length and then the elements, fixed-size arrays
//! and tuples as their elements. `&str`, `String` and `CString` encode alike, as do `&[T]` and
//! `Vec<T>`, so the borrowed arguments of a `Device` method and the owned copies inside its
//! round trip encode to the same bytes, and decode to the owned types the replay passes back.
//!
//! Decoding reads input nobody vouches for: every length is checked against the bytes left
//! (times the smallest encoding of one element) before anything is allocated, so a capture
//! cannot make the loader allocate more than a small multiple of its own size.

use std::ffi::CString;

/// Encoded bytes of one call's arguments or answer.
#[derive(Default)]
pub struct Writer {
    pub(crate) bytes: Vec<u8>,
}

impl Writer {
    pub fn put<T: Put + ?Sized>(&mut self, value: &T) {
        value.put(self);
    }

    fn raw(&mut self, b: &[u8]) {
        self.bytes.extend_from_slice(b);
    }

    fn len(&mut self, n: usize) {
        // A slice longer than u32::MAX elements cannot come from a GL query; saturate (the
        // decoder then finds too few bytes and refuses the record).
        self.raw(&(u32::try_from(n).unwrap_or(u32::MAX)).to_ne_bytes());
    }
}

/// Why encoded bytes do not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError {
    /// Byte offset in the encoded value.
    pub at: usize,
    pub what: String,
}

/// Reads encoded values.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    pub fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    pub fn at(&self) -> usize {
        self.at
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], WireError> {
        if n > self.left() {
            return Err(WireError { at: self.at, what: format!("{n} bytes needed, {} left", self.left()) });
        }
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    /// A length prefix for `n` elements of at least `min` bytes each: refused when the bytes
    /// left cannot hold them.
    fn len(&mut self, min: usize) -> Result<usize, WireError> {
        let at = self.at;
        let n = u32::from_ne_bytes(self.take(4)?.try_into().expect("4 bytes")) as usize;
        if n.saturating_mul(min) > self.left() {
            return Err(WireError {
                at,
                what: format!("a length of {n} elements, but only {} bytes follow", self.left()),
            });
        }
        Ok(n)
    }

    pub fn get<T: Get>(&mut self) -> Result<T, WireError> {
        T::get(self)
    }

    /// Fails unless every byte was read.
    pub fn finish(&self) -> Result<(), WireError> {
        if self.left() != 0 {
            return Err(WireError { at: self.at, what: format!("{} bytes left over", self.left()) });
        }
        Ok(())
    }
}

/// Encodes a value.
pub trait Put {
    fn put(&self, w: &mut Writer);
}

/// Decodes a value.
pub trait Get: Sized {
    /// The fewest bytes one value encodes to.
    const MIN: usize;
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError>;
}

macro_rules! scalar {
    ($($t:ty),*) => {$(
        impl Put for $t {
            fn put(&self, w: &mut Writer) { w.raw(&self.to_ne_bytes()); }
        }
        impl Get for $t {
            const MIN: usize = std::mem::size_of::<$t>();
            fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
                Ok(<$t>::from_ne_bytes(r.take(std::mem::size_of::<$t>())?.try_into().expect("sized")))
            }
        }
    )*};
}
scalar!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

// GLboolean arguments and answers are `bool` in the API; one byte on the wire, and only 0 or 1
// decodes (a file from elsewhere gets no other value into a `bool`).
impl Put for bool {
    fn put(&self, w: &mut Writer) {
        (*self as u8).put(w)
    }
}
impl Get for bool {
    const MIN: usize = 1;
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let at = r.at();
        match u8::get(r)? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(WireError { at, what: format!("a boolean of {v}, not 0 or 1") }),
        }
    }
}

// Pointer-sized values travel as 64 bits, whatever the machine.
impl Put for usize {
    fn put(&self, w: &mut Writer) {
        (*self as u64).put(w)
    }
}
impl Get for usize {
    const MIN: usize = 8;
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let at = r.at();
        usize::try_from(u64::get(r)?).map_err(|_| WireError { at, what: "a size this machine cannot hold".into() })
    }
}
impl Put for isize {
    fn put(&self, w: &mut Writer) {
        (*self as i64).put(w)
    }
}
impl Get for isize {
    const MIN: usize = 8;
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let at = r.at();
        isize::try_from(i64::get(r)?).map_err(|_| WireError { at, what: "a size this machine cannot hold".into() })
    }
}

impl Put for () {
    fn put(&self, _: &mut Writer) {}
}
impl Get for () {
    const MIN: usize = 0;
    fn get(_: &mut Reader<'_>) -> Result<Self, WireError> {
        Ok(())
    }
}

impl<T: Put + ?Sized> Put for &T {
    fn put(&self, w: &mut Writer) {
        (**self).put(w)
    }
}

impl Put for str {
    fn put(&self, w: &mut Writer) {
        w.len(self.len());
        w.raw(self.as_bytes());
    }
}
impl Put for String {
    fn put(&self, w: &mut Writer) {
        self.as_str().put(w)
    }
}
impl Put for CString {
    fn put(&self, w: &mut Writer) {
        let b = self.as_bytes();
        w.len(b.len());
        w.raw(b);
    }
}
impl Get for String {
    const MIN: usize = 4;
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let n = r.len(1)?;
        let at = r.at();
        let b = r.take(n)?;
        String::from_utf8(b.to_vec()).map_err(|_| WireError { at, what: "a string that is not UTF-8".into() })
    }
}

impl<T: Put> Put for [T] {
    fn put(&self, w: &mut Writer) {
        w.len(self.len());
        for v in self {
            v.put(w);
        }
    }
}
impl<T: Put> Put for Vec<T> {
    fn put(&self, w: &mut Writer) {
        self.as_slice().put(w)
    }
}
impl<T: Get> Get for Vec<T> {
    const MIN: usize = 4;
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let n = r.len(T::MIN.max(1))?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(T::get(r)?);
        }
        Ok(v)
    }
}

impl<T: Put, const N: usize> Put for [T; N] {
    fn put(&self, w: &mut Writer) {
        for v in self {
            v.put(w);
        }
    }
}
impl<T: Get + Copy + Default, const N: usize> Get for [T; N] {
    const MIN: usize = T::MIN * N;
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let mut a = [T::default(); N];
        for v in a.iter_mut() {
            *v = T::get(r)?;
        }
        Ok(a)
    }
}

impl<T: Put> Put for Option<T> {
    fn put(&self, w: &mut Writer) {
        match self {
            None => 0u8.put(w),
            Some(v) => {
                1u8.put(w);
                v.put(w)
            }
        }
    }
}
impl<T: Get> Get for Option<T> {
    const MIN: usize = 1;
    fn get(r: &mut Reader<'_>) -> Result<Self, WireError> {
        let at = r.at();
        match u8::get(r)? {
            0 => Ok(None),
            1 => Ok(Some(T::get(r)?)),
            b => Err(WireError { at, what: format!("option tag {b}") }),
        }
    }
}

macro_rules! tuple {
    ($($name:ident),*) => {
        impl<$($name: Put),*> Put for ($($name,)*) {
            #[allow(non_snake_case)]
            fn put(&self, w: &mut Writer) { let ($($name,)*) = self; $($name.put(w);)* }
        }
        impl<$($name: Get),*> Get for ($($name,)*) {
            const MIN: usize = 0 $(+ $name::MIN)*;
            fn get(r: &mut Reader<'_>) -> Result<Self, WireError> { Ok(($($name::get(r)?,)*)) }
        }
    };
}
tuple!(A, B);
tuple!(A, B, C);
tuple!(A, B, C, D);
tuple!(A, B, C, D, E);
tuple!(A, B, C, D, E, F);
tuple!(A, B, C, D, E, F, G);
tuple!(A, B, C, D, E, F, G, H);

/// Encodes one value into fresh bytes.
pub fn encode<T: Put + ?Sized>(value: &T) -> Vec<u8> {
    let mut w = Writer::default();
    value.put(&mut w);
    w.bytes
}

/// Decodes one value that fills `bytes` exactly.
pub fn decode<T: Get>(bytes: &[u8]) -> Result<T, WireError> {
    let mut r = Reader::new(bytes);
    let v = T::get(&mut r)?;
    r.finish()?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn borrowed_and_owned_forms_encode_alike() {
        assert_eq!(encode("abc"), encode(&String::from("abc")));
        assert_eq!(encode("abc"), encode(&CString::new("abc").unwrap()));
        assert_eq!(encode(&[1u32, 2][..]), encode(&vec![1u32, 2]));
        let v: (u32, String, Vec<[f32; 2]>) = (7, "x".into(), vec![[1.0, 2.0]]);
        assert_eq!(decode::<(u32, String, Vec<[f32; 2]>)>(&encode(&v)).unwrap(), v);
    }

    #[test]
    fn lengths_are_checked_before_allocating() {
        let mut b = u32::MAX.to_ne_bytes().to_vec();
        b.extend_from_slice(&[0; 16]);
        assert!(decode::<Vec<u64>>(&b).is_err());
        assert!(decode::<String>(&b).is_err());
        assert!(decode::<Vec<Vec<u8>>>(&b).is_err());
        assert!(decode::<u32>(&[1, 2, 3]).is_err());
        assert!(decode::<u8>(&[1, 2]).is_err(), "bytes left over");
    }
}
