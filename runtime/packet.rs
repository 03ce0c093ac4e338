//! The packet format shared by recording and replay.
//!
//! A command list stores packets in 8-byte slots. A packet is a `#[repr(C, packed)]` struct
//! generated per GL function: a `u16` opcode first, then the arguments, enums packed to 16 bits
//! where their enum group allows it, array arguments as `u32` byte offsets into the list's
//! parameter buffer. A packet's size is fixed by its opcode, so the header needs no size field
//! and `glBindTexture` fits one slot, as in Mesa's glthread.

/// A packet struct the generated code defines.
///
/// # Safety
/// Implementors are `#[repr(C, packed)]`, start with the `u16` opcode `OPCODE`, contain only
/// plain integers and floats (every bit pattern valid, no padding), and `SLOTS` is
/// `size_of::<Self>()` rounded up to 8-byte slots.
pub unsafe trait Packet: Copy {
    const OPCODE: u16;
    const SLOTS: usize = std::mem::size_of::<Self>().div_ceil(8);
}

/// Element types that may be copied byte for byte into the parameter buffer.
///
/// # Safety
/// No padding, no pointers, every bit pattern valid.
pub unsafe trait Plain: Copy + 'static {}

macro_rules! plain {
    ($($t:ty),*) => { $(unsafe impl Plain for $t {})* };
}
plain!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64, usize, isize);
// SAFETY: an array of plain values is plain (arrays have no padding between elements).
unsafe impl<T: Plain, const N: usize> Plain for [T; N] {}
