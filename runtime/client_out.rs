//! Reads into a caller's memory: the bytes the GL writes, and no others.
//!
//! A query's Rust method answers with an owned vector made on the render thread. A C caller
//! (the C ABI, and so `glcmd-run`) gives a pointer instead, and the vector is copied through it.
//! The GL, though, writes only some of the bytes of the span a read covers: a `glReadPixels`
//! with `GL_PACK_ROW_LENGTH` larger than the width, or rows padded by `GL_PACK_ALIGNMENT`,
//! leaves the gap after each row as it was; a read of a rectangle partly outside the
//! framebuffer writes only the pixels inside; a `glReadnPixels`, `glGetTextureImage` or
//! `glGetInternalformativ` given a larger `bufSize` than it needs writes what it needs. Copying
//! the whole vector would wipe the rest (a rectangle read into a larger image would zero the
//! rest of its rows).
//!
//! So the C ABI hands the method the caller's pointers ([`with_client_outputs`], by parameter
//! index), the method takes them on the calling thread ([`take`]) and moves them to the render
//! thread, and there each output vector is filled from the caller's memory before the GL call
//! ([`ClientOutputs::prefill`]): copied back whole afterwards, every byte the GL did not write
//! keeps its value, without glcmd modelling which bytes those are (clipping, padding and
//! `bufSize` are the GL's business). The caller is blocked in the round trip meanwhile, as the
//! C function it called is.
//!
//! **Offsets.** With a buffer bound to `GL_QUERY_BUFFER`, the pointer of
//! `glGetQueryObject*v` is an offset into it, and the GL writes there. Whether one is bound is
//! known only at that point of the stream, on the render thread (the round trip follows every
//! call the thread made before it: an immediate thread submits them first, and a deferred list
//! holding calls refuses round trips). [`ClientOutputs::address`] gives the method the value the
//! C caller passed; `RenderContext::buffer_output` decides, from the binding shadow, whether it is
//! an offset (checked against the bound buffer's storage, as every offset) or memory (NULL then
//! refused with the GL's error for a NULL output).
//!
//! Without [`with_client_outputs`] (the Rust API) nothing changes: the vector starts zeroed and
//! is the answer.

use std::cell::Cell;

/// The most parameters a GL function has, plus room.
const MAX_PARAMS: usize = 16;

/// The caller's output pointers of one call, by parameter index (0: none given).
#[derive(Clone, Copy, Debug, Default)]
#[doc(hidden)]
pub struct ClientOutputs {
    addresses: [usize; MAX_PARAMS],
    given: u16,
}

thread_local! {
    static PENDING: Cell<Option<ClientOutputs>> = const { Cell::new(None) };
}

/// Clears the pending outputs when dropped, also on unwinding: a method that returned before
/// taking them must not leave them to the next call.
struct Clear;

impl Drop for Clear {
    fn drop(&mut self) {
        PENDING.with(|p| p.set(None));
    }
}

/// Runs `call` (one query method of a [`crate::Device`]) with `outputs`, (parameter index,
/// pointer) pairs, as the caller's memory its outputs are read into.
///
/// # Safety
/// Each pointer is NULL, or what the GL would take for that parameter: memory readable and
/// writable for every element the method's vector for it holds (the span the GL's rules give,
/// `bufSize` elements, ...) until `call` returns, or, for an output the GL takes as an offset
/// when a buffer is bound, any value. `call` makes one query method call, before any other
/// query of this thread.
pub unsafe fn with_client_outputs<R>(outputs: &[(usize, *mut std::ffi::c_void)], call: impl FnOnce() -> R) -> R {
    let mut o = ClientOutputs::default();
    for &(index, pointer) in outputs {
        assert!(index < MAX_PARAMS, "parameter index {index} past {MAX_PARAMS}");
        o.addresses[index] = pointer as usize;
        o.given |= 1 << index;
    }
    let _clear = Clear;
    PENDING.with(|p| p.set(Some(o)));
    call()
}

/// The outputs [`with_client_outputs`] gave this thread's current call (none otherwise); the
/// generated query methods take them first thing, on the calling thread.
#[doc(hidden)]
pub fn take() -> ClientOutputs {
    PENDING.with(|p| p.take()).unwrap_or_default()
}

/// Whether the caller of this thread's current call passed NULL for parameter `index` (answers
/// glcmd gives without asking the GL leave such a call to the GL's own checks).
#[doc(hidden)]
pub fn null_given(index: usize) -> bool {
    PENDING.with(|p| p.get()).and_then(|o| o.address(index)) == Some(0)
}

/// Element types an output vector may have: every bit pattern is a value.
#[doc(hidden)]
pub trait Plain: Copy {}
impl Plain for u8 {}
impl Plain for i8 {}
impl Plain for u16 {}
impl Plain for i16 {}
impl Plain for u32 {}
impl Plain for i32 {}
impl Plain for u64 {}
impl Plain for i64 {}
impl Plain for f32 {}
impl Plain for f64 {}
impl<T: Plain, const N: usize> Plain for [T; N] {}

impl ClientOutputs {
    /// Fills `v`, the output vector of parameter `index`, from the caller's memory: its first
    /// `max_bytes` bytes at most (a `bufSize` in bytes that does not fill the last element).
    /// Nothing when the caller gave no pointer for it or NULL.
    pub fn prefill<T: Plain>(&self, index: usize, v: &mut [T], max_bytes: usize) {
        let Some(address) = self.address(index).filter(|&a| a != 0) else { return };
        let n = std::mem::size_of_val(v).min(max_bytes);
        // SAFETY: `with_client_outputs`'s contract: the pointer covers the vector the method
        // made for this output, of which `n` bytes are copied; plain elements take any bytes.
        unsafe { std::ptr::copy_nonoverlapping(address as *const u8, v.as_mut_ptr().cast::<u8>(), n) };
    }

    /// The value the caller passed for parameter `index` (a pointer, or an offset when a buffer
    /// is bound), if it passed one.
    pub fn address(&self, index: usize) -> Option<usize> {
        (index < MAX_PARAMS && self.given & (1 << index) != 0).then(|| self.addresses[index])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_reach_one_call_and_fill_from_the_callers_memory() {
        let mut caller = [7u8, 8, 9, 10];
        let taken = unsafe { with_client_outputs(&[(2, caller.as_mut_ptr().cast())], take) };
        assert_eq!(taken.address(2), Some(caller.as_ptr() as usize));
        assert_eq!(taken.address(1), None);
        // Taken once: a second query of the same call sees none, nor does the next call.
        let again = unsafe { with_client_outputs(&[(2, caller.as_mut_ptr().cast())], || (take(), take())) };
        assert_eq!(again.1.address(2), None);
        assert_eq!(take().address(2), None);
        let mut v = vec![0u8; 3];
        taken.prefill(2, &mut v, usize::MAX);
        assert_eq!(v, [7, 8, 9]);
        let mut untouched = vec![0u8; 3];
        taken.prefill(1, &mut untouched, usize::MAX);
        let mut capped = vec![0u8; 3];
        taken.prefill(2, &mut capped, 2);
        assert_eq!(capped, [7, 8, 0]);
        assert_eq!(untouched, [0, 0, 0]);
        // NULL fills nothing.
        let null = unsafe { with_client_outputs(&[(0, std::ptr::null_mut())], take) };
        null.prefill(0, &mut untouched, usize::MAX);
        assert_eq!((null.address(0), untouched), (Some(0), vec![0, 0, 0]));
    }
}
