//! A list being recorded, with what glcmd tracks of it: the pixel-store state and pixel-buffer
//! bindings the list set, from which `pixels.rs` sizes its uploads.
//!
//! The C entry points size pixel uploads from **the list's own pixel-store state** (`pixels.rs`
//! says why): each list tracks the unpack state from the GL defaults, changed by the
//! `glPixelStorei` / `glPixelStoref` calls recorded into it (validated as the GL validates them),
//! and before its first upload records the whole tracked state ([`Recording::sync_unpack`]), so
//! the GL's state is the tracked one from there on. The bindings of `GL_PIXEL_UNPACK_BUFFER` and
//! `GL_PIXEL_PACK_BUFFER` the list made decide whether a pixel pointer is an offset.
//!
//! On an immediate thread (`immediate.rs`) the state carries from one implicit list to the next
//! ([`PixelState::carry_over`]): a `glPixelStorei` before an implicit submit applies to an
//! upload after it, and a pixel-buffer binding stays one.
//!
//! This module sits below both the thread's current list (`current.rs`, which holds a
//! `Recording`) and the pixel sizing (`pixels.rs`, which reads one), so neither imports the
//! other's floor.

use glcmd::dump::EnumName;
use glcmd::generated::types::{GLbitfield, GLenum, GLuint};
use glcmd::{gl, CommandList};

use crate::error::CallError;
use crate::types::GLCMD_ERROR_INVALID_ARGUMENT;

/// A list being recorded on this thread, with what glcmd tracks of it.
pub struct Recording {
    pub list: CommandList,
    /// The pixel-store state and pixel-buffer bindings the list set.
    pub pixels: PixelState,
}

impl Recording {
    pub fn new(mut list: CommandList) -> Recording {
        // A recording site would be glcmd's entry point, not the C caller: reports of C lists
        // name the list label and the command index instead.
        list.track_sites(false);
        Recording { list, pixels: PixelState::new() }
    }

    /// Records the tracked unpack state into the list, once: before its first pixel upload.
    pub fn sync_unpack(&mut self) {
        if self.pixels.synced {
            return;
        }
        self.pixels.synced = true;
        let s = self.pixels.unpack;
        for (pname, v) in [
            (gl::UNPACK_SWAP_BYTES, s.swap_bytes as i64),
            (gl::UNPACK_LSB_FIRST, s.lsb_first as i64),
            (gl::UNPACK_ROW_LENGTH, s.row_length),
            (gl::UNPACK_IMAGE_HEIGHT, s.image_height),
            (gl::UNPACK_SKIP_ROWS, s.skip_rows),
            (gl::UNPACK_SKIP_PIXELS, s.skip_pixels),
            (gl::UNPACK_SKIP_IMAGES, s.skip_images),
            (gl::UNPACK_ALIGNMENT, s.alignment),
        ] {
            // Every tracked value came through `store`: an int.
            self.list.pixel_storei(pname, v as i32);
        }
    }
}

/// The pixel-store parameters that decide how many bytes an image spans, as the GL keeps them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Store {
    pub alignment: i64,
    pub row_length: i64,
    pub image_height: i64,
    pub skip_pixels: i64,
    pub skip_rows: i64,
    pub skip_images: i64,
    /// Not sizes, but part of the unpack state a list starts from.
    pub swap_bytes: bool,
    pub lsb_first: bool,
}

impl Store {
    /// The GL's initial state.
    pub const DEFAULT: Store = Store {
        alignment: 4,
        row_length: 0,
        image_height: 0,
        skip_pixels: 0,
        skip_rows: 0,
        skip_images: 0,
        swap_bytes: false,
        lsb_first: false,
    };
}

/// What glcmd tracks of a list's pixel state.
#[derive(Clone, Debug)]
pub struct PixelState {
    pub unpack: Store,
    /// The list bound a non-zero buffer to `GL_PIXEL_UNPACK_BUFFER` (and it is still bound).
    pub unpack_buffer: bool,
    /// The list bound a non-zero buffer to `GL_PIXEL_PACK_BUFFER`.
    pub pack_buffer: bool,
    /// The tracked unpack state has been recorded into the list.
    synced: bool,
}

impl Default for PixelState {
    fn default() -> Self {
        Self::new()
    }
}

impl PixelState {
    pub const fn new() -> PixelState {
        PixelState { unpack: Store::DEFAULT, unpack_buffer: false, pack_buffer: false, synced: false }
    }

    /// The state for the next implicit list of an immediate thread (`immediate.rs`): the
    /// tracked values and bindings carry over (they are the GL's state once this list has
    /// replayed); the next list records the unpack state again before its first upload.
    pub fn carry_over(&mut self) {
        self.synced = false;
    }

    /// Tracks `glPixelStore{i,f}(pname, value)`: changes what the GL changes. An error (the call
    /// is then not recorded) for a float the GL could not round to an `int` reliably.
    pub fn store(&mut self, pname: GLenum, value: f64) -> Result<(), CallError> {
        let s = &mut self.unpack;
        let tracked = matches!(
            pname,
            gl::UNPACK_ALIGNMENT
                | gl::UNPACK_ROW_LENGTH
                | gl::UNPACK_IMAGE_HEIGHT
                | gl::UNPACK_SKIP_PIXELS
                | gl::UNPACK_SKIP_ROWS
                | gl::UNPACK_SKIP_IMAGES
                | gl::UNPACK_SWAP_BYTES
                | gl::UNPACK_LSB_FIRST
        );
        if !tracked {
            return Ok(());
        }
        if !value.is_finite() || value.abs() > i32::MAX as f64 {
            return Err(CallError::new(
                GLCMD_ERROR_INVALID_ARGUMENT,
                format!(
                    "glPixelStore: {value} for pname {} is not a value the GL can round to an int",
                    EnumName(pname)
                ),
            ));
        }
        // Mesa's glPixelStoref rounds half away from zero (IROUND); glPixelStorei passes ints.
        let v = if value >= 0.0 { (value + 0.5).floor() } else { (value - 0.5).ceil() } as i64;
        match pname {
            gl::UNPACK_ALIGNMENT if matches!(v, 1 | 2 | 4 | 8) => s.alignment = v,
            gl::UNPACK_ROW_LENGTH if v >= 0 => s.row_length = v,
            gl::UNPACK_IMAGE_HEIGHT if v >= 0 => s.image_height = v,
            gl::UNPACK_SKIP_PIXELS if v >= 0 => s.skip_pixels = v,
            gl::UNPACK_SKIP_ROWS if v >= 0 => s.skip_rows = v,
            gl::UNPACK_SKIP_IMAGES if v >= 0 => s.skip_images = v,
            gl::UNPACK_SWAP_BYTES => s.swap_bytes = v != 0,
            gl::UNPACK_LSB_FIRST => s.lsb_first = v != 0,
            // GL_INVALID_VALUE: the state is unchanged.
            _ => {}
        }
        Ok(())
    }

    /// Tracks `glBindBuffer(target, buffer)`.
    pub fn bind_buffer(&mut self, target: GLenum, buffer: GLuint) {
        match target {
            gl::PIXEL_UNPACK_BUFFER => self.unpack_buffer = buffer != 0,
            gl::PIXEL_PACK_BUFFER => self.pack_buffer = buffer != 0,
            _ => {}
        }
    }

    /// Tracks `glClientAttribDefaultEXT(mask)` and `glPushClientAttribDefaultEXT(mask)`: the
    /// pixel-store bit resets the pixel-store state (the GL state then equals the tracked one).
    pub fn client_defaults(&mut self, mask: GLbitfield) {
        const CLIENT_PIXEL_STORE_BIT: GLbitfield = 0x1;
        if mask & CLIENT_PIXEL_STORE_BIT != 0 {
            self.unpack = Store::DEFAULT;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixel_store_mirrors_the_gl() {
        let mut p = PixelState::new();
        p.store(gl::UNPACK_ALIGNMENT, 3.0).unwrap(); // refused by the GL: unchanged
        assert_eq!(p.unpack.alignment, 4);
        p.store(gl::UNPACK_ALIGNMENT, 1.0).unwrap();
        p.store(gl::UNPACK_ROW_LENGTH, -2.0).unwrap(); // refused
        p.store(gl::UNPACK_ROW_LENGTH, 7.5).unwrap(); // rounds half away from zero
        assert_eq!((p.unpack.alignment, p.unpack.row_length), (1, 8));
        assert!(p.store(gl::UNPACK_SKIP_ROWS, f64::NAN).is_err());
        p.store(gl::PACK_ROW_LENGTH, 99.0).unwrap(); // not unpack state
        assert_eq!(p.unpack.row_length, 8);
        p.client_defaults(0x1);
        assert_eq!(p.unpack, Store::DEFAULT);
    }
}
