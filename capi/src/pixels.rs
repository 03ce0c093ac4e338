//! Pixel data from client memory: how many bytes the GL reads, computed at the C boundary.
//!
//! `glTexSubImage2D(..., format, type, pixels)` gives no length: the GL derives it from format,
//! type, dimensions and the unpack pixel-store state (`GL_UNPACK_ROW_LENGTH`, `_ALIGNMENT`,
//! `_SKIP_*`, `_IMAGE_HEIGHT`). The Rust method is `unsafe` for that reason and takes a slice the
//! caller sized. The C entry point sizes it itself, the way Mesa's `_mesa_image_offset` does, from
//! **the list's own pixel-store state**, and makes that state the one the GL uses:
//!
//! * Each list tracks the unpack state from the GL defaults, changed by the `glPixelStorei` /
//!   `glPixelStoref` calls recorded into it (validated as the GL validates them: a value the GL
//!   would refuse leaves the state as it is; a float the GL could round unpredictably, NaN or out
//!   of `int` range, is refused and not recorded).
//! * Before the list's first pixel upload, the entry point records the whole tracked unpack state
//!   (eight `glPixelStorei` calls). From there on the GL's unpack state is the tracked one,
//!   whatever earlier lists, other threads' lists or `glcmdRunOnRenderThread` left: a list
//!   replays without interruption.
//!
//! (The tracked state and the recording of it live with the list, in `recording.rs`; this
//! module computes sizes from it.)
//!
//! So the size is always right, and the cost is the rule it implies: **unpack state does not
//! carry from one list into the uploads of another**; a list that uploads with a non-default row
//! length sets it itself. (State still carries over for everything else, and the unpack state a
//! list leaves is visible to later lists' other uses.)
//!
//! The same goes for buffer bindings: the pointer is an offset into `GL_PIXEL_UNPACK_BUFFER` when
//! this list has bound a non-zero buffer there (`glBindBuffer` recorded before the call), and
//! client memory otherwise (a buffer an earlier list left bound is then unbound for the call by
//! the runtime, so the GL reads the bytes glcmd copied). A pointer read as an offset is checked
//! against the binding at replay; client memory is copied now. Likewise a pixel read
//! (`glReadPixels`, `glGetTexImage`) is recorded into the list (writing into the pack buffer)
//! when this list has bound one to `GL_PIXEL_PACK_BUFFER`, and is a round trip into client memory
//! otherwise (`sizes.rs` sizes those on the render thread from its real pack state).

use std::borrow::Cow;

use glcmd::dump::EnumName;
use glcmd::generated::types::GLenum;
use glcmd::{gl, Bytes};

use crate::error::CallError;
use crate::recording::{Recording, Store};
use crate::types::{GLCMD_ERROR_INVALID_ARGUMENT, GLCMD_ERROR_UNSUPPORTED};

/// Bytes per pixel (a "group") of `format` and `type`, for every combination of the core
/// profile; `None` for one glcmd does not know (or the GL refuses).
pub fn group_bytes(format: GLenum, type_: GLenum) -> Option<usize> {
    // Packed types: one element per pixel, whatever the format.
    let packed = match type_ {
        gl::UNSIGNED_BYTE_3_3_2 | gl::UNSIGNED_BYTE_2_3_3_REV => Some(1),
        gl::UNSIGNED_SHORT_5_6_5
        | gl::UNSIGNED_SHORT_5_6_5_REV
        | gl::UNSIGNED_SHORT_4_4_4_4
        | gl::UNSIGNED_SHORT_4_4_4_4_REV
        | gl::UNSIGNED_SHORT_5_5_5_1
        | gl::UNSIGNED_SHORT_1_5_5_5_REV => Some(2),
        gl::UNSIGNED_INT_8_8_8_8
        | gl::UNSIGNED_INT_8_8_8_8_REV
        | gl::UNSIGNED_INT_10_10_10_2
        | gl::UNSIGNED_INT_2_10_10_10_REV
        | gl::UNSIGNED_INT_24_8
        | gl::UNSIGNED_INT_10F_11F_11F_REV
        | gl::UNSIGNED_INT_5_9_9_9_REV => Some(4),
        gl::FLOAT_32_UNSIGNED_INT_24_8_REV => Some(8),
        _ => None,
    };
    if packed.is_some() {
        return packed;
    }
    let component = match type_ {
        gl::UNSIGNED_BYTE | gl::BYTE => 1,
        gl::UNSIGNED_SHORT | gl::SHORT | gl::HALF_FLOAT => 2,
        gl::UNSIGNED_INT | gl::INT | gl::FLOAT => 4,
        _ => return None,
    };
    // Legacy formats (GL_ALPHA, GL_LUMINANCE, ...) by value: glcorearb.h leaves them out.
    const ALPHA: GLenum = 0x1906;
    const LUMINANCE: GLenum = 0x1909;
    const LUMINANCE_ALPHA: GLenum = 0x190A;
    let components = match format {
        gl::RED
        | gl::GREEN
        | gl::BLUE
        | ALPHA
        | LUMINANCE
        | gl::RED_INTEGER
        | gl::GREEN_INTEGER
        | gl::BLUE_INTEGER
        | gl::DEPTH_COMPONENT
        | gl::STENCIL_INDEX => 1,
        gl::RG | gl::RG_INTEGER | LUMINANCE_ALPHA => 2,
        gl::RGB | gl::BGR | gl::RGB_INTEGER | gl::BGR_INTEGER => 3,
        gl::RGBA | gl::BGRA | gl::RGBA_INTEGER | gl::BGRA_INTEGER => 4,
        // Depth-stencil takes a packed type (above).
        _ => return None,
    };
    Some(component * components)
}

/// The dimensions, format and type of an image transfer.
#[derive(Clone, Copy, Debug)]
pub struct Image {
    /// 1, 2 or 3: `SKIP_IMAGES` and `IMAGE_HEIGHT` apply to 3, `SKIP_ROWS` to all (as Mesa).
    pub dims: u8,
    pub width: i64,
    pub height: i64,
    pub depth: i64,
    pub format: GLenum,
    pub type_: GLenum,
}

/// Why an image's size is unknown.
#[derive(Debug, PartialEq, Eq)]
pub enum SizeError {
    /// A format/type pair glcmd does not know.
    Format,
    /// Larger than memory.
    Overflow,
}

/// The bytes the GL reads (or writes) for `image` under `store`, from the first byte of the
/// pointer to the last byte of the last pixel: Mesa's `_mesa_image_offset` of the last pixel plus
/// one pixel. Zero when a dimension is 0 or negative (the GL transfers nothing: it raises
/// `GL_INVALID_VALUE` for a negative one).
pub fn image_bytes(image: &Image, store: &Store) -> Result<usize, SizeError> {
    let (w, h, d) = (image.width, image.height.max(1), image.depth.max(1));
    let (h, d) = match image.dims {
        1 => (1, 1),
        2 => (h, 1),
        _ => (h, d),
    };
    if image.width <= 0 || image.height <= 0 || image.depth <= 0 {
        return Ok(0);
    }
    let bpp = group_bytes(image.format, image.type_).ok_or(SizeError::Format)? as i128;
    let (w, h, d) = (w as i128, h as i128, d as i128);
    let pixels_per_row = if store.row_length > 0 { store.row_length as i128 } else { w };
    let rows_per_image = if store.image_height > 0 { store.image_height as i128 } else { h };
    let alignment = store.alignment as i128;
    let row_bytes = (pixels_per_row * bpp + alignment - 1) / alignment * alignment;
    let image_bytes = row_bytes * rows_per_image;
    let skip_images = if image.dims == 3 { store.skip_images as i128 } else { 0 };
    let end = (skip_images + d - 1) * image_bytes
        + (store.skip_rows as i128 + h - 1) * row_bytes
        + (store.skip_pixels as i128 + w) * bpp;
    usize::try_from(end).ok().filter(|&n| n <= isize::MAX as usize).ok_or(SizeError::Overflow)
}

/// The GL error for a format/type pair glcmd cannot size: `GL_INVALID_ENUM` when either is no
/// pixel format or type of the core profile, `GL_INVALID_OPERATION` when both are but do not go
/// together (what the GL raises for the same call).
pub(crate) fn format_type_error(format: GLenum, type_: GLenum) -> GLenum {
    let known_type = group_bytes(gl::RGBA, type_).is_some();
    let known_format = group_bytes(format, gl::UNSIGNED_BYTE).is_some() || format == gl::DEPTH_STENCIL;
    if known_type && known_format {
        gl::INVALID_OPERATION
    } else {
        gl::INVALID_ENUM
    }
}

fn size_error(f: &str, argument: &str, image: &Image, e: SizeError) -> CallError {
    match e {
        SizeError::Format => CallError::new(
            GLCMD_ERROR_UNSUPPORTED,
            format!(
                "{f}: format {} with type {}: glcmd does not know how many bytes a pixel of it has, so \
                 cannot size `{argument}`",
                EnumName(image.format),
                EnumName(image.type_)
            ),
        )
        .raising(format_type_error(image.format, image.type_)),
        SizeError::Overflow => CallError::new(
            GLCMD_ERROR_INVALID_ARGUMENT,
            format!("{f}: `{argument}` would span more bytes than memory holds"),
        ),
    }
}

/// The `pixels` argument of an upload: an offset (this list bound an unpack buffer), nothing
/// (NULL where the GL allocates without data), or the bytes the GL reads, computed from the
/// list's unpack state, which is recorded first.
///
/// # Safety
/// `p` is NULL, an offset (with an unpack buffer bound in this list), or points to the pixels
/// the GL reads for `image` under the unpack state of the calls recorded in this list.
pub unsafe fn unpack<'a>(
    cur: &mut Recording,
    f: &str,
    argument: &str,
    p: *const u8,
    image: Image,
    nullable: bool,
) -> Result<Bytes<'a>, CallError> {
    if cur.pixels.unpack_buffer {
        cur.sync_unpack();
        return Ok(Bytes::BufferOffset(p as usize));
    }
    if p.is_null() && nullable {
        return Ok(Bytes::None);
    }
    let len = image_bytes(&image, &cur.pixels.unpack).map_err(|e| size_error(f, argument, &image, e))?;
    // SAFETY: the caller's contract, with `len` the GL's own count.
    let bytes = match unsafe { crate::conv::slice(f, argument, p, len)? } {
        Cow::Borrowed(b) => b,
        Cow::Owned(_) => unreachable!("bytes are always aligned"),
    };
    // Only once the call is sure to be recorded.
    cur.sync_unpack();
    Ok(Bytes::Slice(bytes))
}

/// Compressed data sized by its `imageSize` argument: an offset when this list bound an unpack
/// buffer, else `len` bytes.
///
/// # Safety
/// `p` is an offset (with an unpack buffer bound in this list) or points to `len` bytes.
pub unsafe fn compressed<'a>(
    cur: &mut Recording,
    f: &str,
    argument: &str,
    p: *const u8,
    len: usize,
) -> Result<Bytes<'a>, CallError> {
    if cur.pixels.unpack_buffer {
        cur.sync_unpack();
        return Ok(Bytes::BufferOffset(p as usize));
    }
    // SAFETY: the caller's contract.
    let bytes = match unsafe { crate::conv::slice(f, argument, p, len)? } {
        Cow::Borrowed(b) => b,
        Cow::Owned(_) => unreachable!("bytes are always aligned"),
    };
    cur.sync_unpack();
    Ok(Bytes::Slice(bytes))
}

/// Zeros for a clear with NULL data (the GL clears to zero then).
static ZEROS: [u8; 16] = [0; 16];

/// The clear value of `glClearTexImage` / `glClearBufferData`: one element of `format`/`type`,
/// or zeros for NULL (the GL's meaning of NULL there).
///
/// # Safety
/// `p` is NULL or points to one element of `format`/`type`.
pub unsafe fn texel<'a>(
    f: &str,
    argument: &str,
    p: *const u8,
    format: GLenum,
    type_: GLenum,
) -> Result<Bytes<'a>, CallError> {
    let image = Image { dims: 1, width: 1, height: 1, depth: 1, format, type_ };
    let len = group_bytes(format, type_).ok_or_else(|| size_error(f, argument, &image, SizeError::Format))?;
    if p.is_null() {
        return Ok(Bytes::Slice(&ZEROS[..len]));
    }
    // SAFETY: the caller's contract.
    match unsafe { crate::conv::slice(f, argument, p, len)? } {
        Cow::Borrowed(b) => Ok(Bytes::Slice(b)),
        Cow::Owned(_) => unreachable!("bytes are always aligned"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn img(dims: u8, w: i64, h: i64, d: i64, format: GLenum, type_: GLenum) -> Image {
        Image { dims, width: w, height: h, depth: d, format, type_ }
    }

    #[test]
    fn tightly_packed_and_aligned_rows() {
        let s = Store::DEFAULT;
        assert_eq!(image_bytes(&img(2, 4, 4, 1, gl::RGBA, gl::UNSIGNED_BYTE), &s), Ok(64));
        // RGB bytes: rows of 9 bytes padded to 12, the last row unpadded.
        assert_eq!(image_bytes(&img(2, 3, 2, 1, gl::RGB, gl::UNSIGNED_BYTE), &s), Ok(12 + 9));
        let packed = Store { alignment: 1, ..s };
        assert_eq!(image_bytes(&img(2, 3, 2, 1, gl::RGB, gl::UNSIGNED_BYTE), &packed), Ok(18));
        assert_eq!(image_bytes(&img(1, 5, 9, 9, gl::RED, gl::FLOAT), &s), Ok(20));
        assert_eq!(image_bytes(&img(2, 2, 2, 1, gl::DEPTH_STENCIL, gl::FLOAT_32_UNSIGNED_INT_24_8_REV), &s), Ok(32));
    }

    #[test]
    fn row_length_and_skips() {
        let s = Store { row_length: 10, skip_pixels: 2, skip_rows: 3, ..Store::DEFAULT };
        // Rows of 10 RGBA pixels; 3 rows skipped, 2 pixels skipped, then 4 rows of 4 pixels.
        assert_eq!(image_bytes(&img(2, 4, 4, 1, gl::RGBA, gl::UNSIGNED_BYTE), &s), Ok((3 + 3) * 40 + (2 + 4) * 4));
        // SKIP_ROWS applies to 1D images too; SKIP_IMAGES only to 3D.
        let s1 = Store { skip_rows: 2, skip_images: 5, ..Store::DEFAULT };
        assert_eq!(image_bytes(&img(1, 4, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE), &s1), Ok(2 * 16 + 16));
        assert_eq!(image_bytes(&img(2, 4, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE), &s1), Ok(2 * 16 + 16));
        let s3 = Store { skip_images: 1, image_height: 3, ..Store::DEFAULT };
        assert_eq!(image_bytes(&img(3, 2, 2, 2, gl::RED, gl::UNSIGNED_BYTE), &s3), Ok((1 + 1) * 12 + 4 + 2));
    }

    #[test]
    fn empty_unknown_and_huge() {
        let s = Store::DEFAULT;
        assert_eq!(image_bytes(&img(2, 0, 4, 1, gl::RGBA, gl::UNSIGNED_BYTE), &s), Ok(0));
        assert_eq!(image_bytes(&img(2, -1, 4, 1, gl::RGBA, gl::UNSIGNED_BYTE), &s), Ok(0));
        assert_eq!(image_bytes(&img(2, 4, 4, 1, 0x1234, gl::UNSIGNED_BYTE), &s), Err(SizeError::Format));
        let huge = img(3, i32::MAX as i64, i32::MAX as i64, i32::MAX as i64, gl::RGBA, gl::FLOAT);
        assert_eq!(image_bytes(&huge, &s), Err(SizeError::Overflow));
    }
}
