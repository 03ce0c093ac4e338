//! The recording side of pixel transfers: how a [`CommandList`] tracks its pixel-store state and
//! sizes the pixel arguments of its generated methods (`tex_image_2d`, `tex_sub_image_3d`,
//! `texture_sub_image_2d`, `clear_tex_image`, ...), which is what makes those methods safe.
//!
//! `pixels.rs` says whose state sizes an upload and why (the list's own, recorded into the list
//! before its first transfer). This module applies it:
//!
//! * the generated `pixel_storei` / `pixel_storef`, `bind_buffer` and
//!   `client_attrib_default_ext` methods call the `track_*` functions here, so the list's
//!   [`PixelState`] follows what the GL will do;
//! * the generated upload methods call [`CommandList::push_pixels_arg`] with the image's
//!   dimensions, format and type. Their pixel argument is a [`crate::Bytes`]:
//!   - `Bytes::Slice` (any `&[T]` of plain data converts into it): must hold at least the bytes
//!     the GL reads under the list's unpack state, or the method panics at the caller's line,
//!     naming the GL function and the argument (a too-short slice is a bug of the caller, as an
//!     out-of-bounds index is). Only those bytes are copied.
//!   - `Bytes::BufferOffset(offset)`: an offset into the buffer bound to
//!     `GL_PIXEL_UNPACK_BUFFER` at replay. The range is checked at replay against that buffer's
//!     storage (`Replayer::unpack_fits`); an upload that would read past its end, or with no
//!     buffer bound, is refused with the GL's error (`GL_INVALID_OPERATION`) and reported.
//!   - `Bytes::None` (also `None::<&[u8]>`): no data, where the GL accepts a null pointer
//!     (`tex_image_*` allocating storage only); elsewhere the method panics.
//! * one-texel arguments (`clear_tex_image`, `clear_buffer_data`) go through
//!   [`CommandList::push_texel_arg`]: one element of format/type, or zeros for `None` (the GL's
//!   meaning of a null pointer there).
//!
//! A format/type pair glcmd cannot size (not a pixel format or type of the core profile) makes
//! the method panic too: glcmd cannot know how many bytes the GL would read, and the GL itself
//! refuses every such pair of the core profile (the message names the error it raises).
//!
//! The C ABI (`capi/src/pixels.rs`) calls the same methods: it asks the list for the size
//! ([`CommandList::unpack_bytes`]) to turn the C pointer into a slice, then records through them.

use crate::list::CommandList;
use crate::pixels::{format_type_error, group_bytes, image_bytes, Image, PixelState, SizeError, UNPACK_PNAMES};
use crate::vocab::EnumName;

/// Zeros for a texel argument given as `None`.
static ZEROS: [u8; 16] = [0; 16];

impl CommandList {
    /// The pixel-store state and pixel-buffer bindings this list tracks.
    #[doc(hidden)]
    pub fn pixel_state(&self) -> PixelState {
        *self.pixels
    }

    /// Starts this list from the state another list left (an immediate context's hand-over:
    /// the GL's state carries over once that list has replayed).
    #[doc(hidden)]
    pub fn carry_pixel_state(&mut self, from: &CommandList) {
        *self.pixels = from.pixels.carried();
    }

    /// Tracks a recorded `glPixelStore{i,f}`. Panics (the call is impossible input) for a float
    /// the GL cannot round to an `int` reliably.
    #[track_caller]
    pub(crate) fn track_pixel_store(&mut self, function: &str, pname: u32, value: f64) {
        if self.pixels.store(pname, value).is_err() {
            panic!(
                "{function}: `param` {value} for pname {} is not a value the GL can round to an int",
                EnumName(pname)
            );
        }
    }

    /// Tracks a recorded `glBindBuffer`: believed where the GL is sure to accept it (the
    /// device's `buffer_names.rs`), unsure otherwise.
    pub(crate) fn track_bind_buffer(&mut self, target: u32, buffer: u32) {
        if target == crate::gl::QUERY_BUFFER {
            if let Some(k) = &self.known {
                k.query_buffer_bound(buffer);
            }
        }
        if target != crate::gl::PIXEL_UNPACK_BUFFER && target != crate::gl::PIXEL_PACK_BUFFER {
            return;
        }
        let exists = buffer == 0 || self.buffer_names.as_ref().is_some_and(|n| n.exists(buffer));
        self.pixels.bind_buffer(target, buffer, exists);
    }

    /// Tracks a recorded `glDeleteBuffers`: the pixel bindings of deleted buffers go, and a bind
    /// of the names is refused from here on (`buffer_names.rs`).
    pub(crate) fn track_delete_buffers(&mut self, names: &[u32]) {
        self.pixels.delete_buffers(names);
        if let Some(n) = &self.buffer_names {
            n.deleted(names);
        }
    }

    /// Sets the pixel-buffer bindings to what the GL has (asked on the render thread).
    #[doc(hidden)]
    pub fn resolve_pixel_bindings(&mut self, unpack: u32, pack: u32) {
        self.pixels.resolve(unpack, pack);
    }

    /// Starts this list from the pixel state the GL has (read on the render thread, e.g. when a
    /// thread becomes immediate on a context another thread or device used before).
    #[doc(hidden)]
    pub fn set_pixel_state(&mut self, state: PixelState) {
        *self.pixels = PixelState { synced: false, ..state };
    }

    /// Tracks a recorded `glClientAttribDefaultEXT` / `glPushClientAttribDefaultEXT` (functions
    /// of the `ext` feature).
    #[cfg_attr(not(feature = "ext"), allow(dead_code))]
    pub(crate) fn track_client_defaults(&mut self, mask: u32) {
        self.pixels.client_defaults(mask);
    }

    /// Records the tracked unpack state into the list, once: before its first pixel upload.
    #[track_caller]
    pub(crate) fn sync_unpack(&mut self) {
        if self.pixels.synced {
            return;
        }
        self.pixels.synced = true;
        for (pname, v) in UNPACK_PNAMES.into_iter().zip(self.pixels.unpack_values()) {
            self.pixel_storei(pname, v);
        }
    }

    /// The bytes the GL reads for `image` under this list's unpack state.
    #[doc(hidden)]
    pub fn unpack_bytes(&self, image: &Image) -> Result<usize, SizeError> {
        image_bytes(image, &self.pixels.unpack)
    }

    /// Stores the pixel argument of an upload of `image` (see the module doc): a slice checked
    /// against the size the list's unpack state gives, an offset, or nothing where `nullable`.
    /// Returns the packet fields (offset, length or marker).
    #[track_caller]
    pub(crate) fn push_pixels_arg(
        &mut self,
        bytes: crate::Bytes<'_>,
        function: &str,
        argument: &str,
        image: Image,
        nullable: bool,
    ) -> (u64, u32) {
        if let crate::Bytes::None = bytes {
            return self.push_bytes_arg(bytes, function, argument, true, nullable);
        }
        let need = match self.unpack_bytes(&image) {
            Ok(n) => n,
            Err(e) => size_panic(function, argument, image.format, image.type_, e),
        };
        let bytes = match bytes {
            crate::Bytes::Slice(s) if s.len() < need => panic!(
                "{function}: `{argument}` holds {} bytes, but the GL reads {need} for {}x{}x{} pixels of {} / {} \
                 under the list's unpack state (row length {}, image height {}, skip pixels {}, rows {}, images {}, \
                 alignment {})",
                s.len(),
                image.width,
                image.height,
                image.depth,
                EnumName(image.format),
                EnumName(image.type_),
                self.pixels.unpack.row_length,
                self.pixels.unpack.image_height,
                self.pixels.unpack.skip_pixels,
                self.pixels.unpack.skip_rows,
                self.pixels.unpack.skip_images,
                self.pixels.unpack.alignment,
            ),
            crate::Bytes::Slice(s) => crate::Bytes::Slice(&s[..need]),
            other => other,
        };
        self.sync_unpack();
        self.push_bytes_arg(bytes, function, argument, true, nullable)
    }

    /// Stores a one-texel argument of `format`/`type_` (`glClearTexImage`, `glClearBufferData`):
    /// a slice of at least one element, or zeros for `Bytes::None` (NULL, for a pair glcmd cannot size).
    #[track_caller]
    pub(crate) fn push_texel_arg(
        &mut self,
        bytes: crate::Bytes<'_>,
        function: &str,
        argument: &str,
        format: u32,
        type_: u32,
    ) -> (u64, u32) {
        let Some(need) = group_bytes(format, type_) else {
            // NULL (the GL's clear to zero) reads nothing: the GL refuses the pair itself.
            if let crate::Bytes::None = bytes {
                return self.push_bytes_arg(bytes, function, argument, false, true);
            }
            size_panic(function, argument, format, type_, SizeError::Format)
        };
        let bytes = match bytes {
            crate::Bytes::Slice(s) if s.len() < need => panic!(
                "{function}: `{argument}` holds {} bytes, but one element of {} / {} has {need}",
                s.len(),
                EnumName(format),
                EnumName(type_)
            ),
            crate::Bytes::Slice(s) => crate::Bytes::Slice(&s[..need]),
            crate::Bytes::None => crate::Bytes::Slice(&ZEROS[..need]),
            other => other,
        };
        self.push_bytes_arg(bytes, function, argument, false, false)
    }
}

/// The panic of an upload glcmd cannot size.
#[track_caller]
fn size_panic(function: &str, argument: &str, format: u32, type_: u32, e: SizeError) -> ! {
    match e {
        SizeError::Format => panic!(
            "{function}: `format` {} with `type` {} is no pixel format/type pair glcmd knows (the GL raises {}), so \
             it cannot size `{argument}`",
            EnumName(format),
            EnumName(type_),
            EnumName(format_type_error(format, type_))
        ),
        SizeError::Overflow => panic!("{function}: `{argument}` would span more bytes than memory holds"),
    }
}
