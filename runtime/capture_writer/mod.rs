//! # The capture writer: the floor below the device
//!
//! What the device and the render thread need to *write* a capture: the recorder (a writer
//! thread that encodes lists, creates and query answers, keeps the set-up log and the
//! post-mortem ring, and writes files: [`recorder`]), what a capture is asked to keep
//! ([`options`]), the file layout ([`format`]) and the encoding of call arguments and answers
//! ([`wire`]). Both sides of the device feed it, so it
//! must not import either: the capture module above (`crate::capture`) loads, checks and
//! replays files and adds the `Device` methods that start a capture; it re-exports this floor's
//! public types, so users see one `glcmd::capture`.

pub mod format;
pub mod options;
pub mod recorder;
pub mod wire;

/// A packet buffer's words as bytes (files store packets as bytes; the loader checks them).
pub(crate) fn words_as_bytes(words: &[u64]) -> &[u8] {
    // SAFETY: u8 has alignment 1 and no invalid values; the length is the words' size in bytes.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), words.len() * 8) }
}
