//! A fast hash for glcmd's own small keys: GL names, class names, resource names.
//!
//! `std`'s SipHash resists hash flooding by untrusted keys; the keys here are GL object names
//! and the program's own identifiers, probed on hot paths (once per command that names an object
//! with use-after-delete tracking on, once per cached uniform lookup), where SipHash costs more
//! than the rest of the probe. This is FxHash's multiply-rotate, eight bytes a round.

use std::hash::{BuildHasherDefault, Hasher};

/// FxHash's multiply-rotate hasher, eight bytes a round.
#[derive(Default)]
pub struct FastHasher(u64);

/// A `HashMap`/`HashSet` hasher builder for [`FastHasher`].
pub type FastHash = BuildHasherDefault<FastHasher>;

impl Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Eight bytes a round: a class name ("texture") is one round, not seven.
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(n as u64);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}
