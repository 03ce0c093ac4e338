//! Pixel data from client memory: how many bytes the GL reads, computed at the C boundary.
//!
//! `glTexSubImage2D(..., format, type, pixels)` gives no length: the GL derives it from format,
//! type, dimensions and the unpack pixel-store state. glcmd computes it in one place, the
//! runtime's `pixels.rs` (read its essay: the size comes from **the list's own pixel-store
//! state**, which the list records before its first upload, so the GL uses exactly that state;
//! unpack state does not carry from one list into the uploads of another). The list tracks that
//! state itself, from the `glPixelStorei` / `glPixelStoref` / `glBindBuffer` calls recorded into
//! it. This module only turns the C pointer into a slice of the size the list computes
//! (`CommandList::unpack_bytes`); the recording method then checks and records it exactly as it
//! does for a Rust caller.
//!
//! The pointer is an offset into `GL_PIXEL_UNPACK_BUFFER` when this list has bound a non-zero
//! buffer there (`glBindBuffer` recorded before the call), and client memory otherwise (a buffer
//! an earlier list left bound is then unbound for the call by the runtime, so the GL reads the
//! bytes glcmd copied). An offset is checked at replay against the bound buffer's storage; client
//! memory is copied now. Likewise a pixel read (`glReadPixels`, `glGetTexImage`) is recorded into
//! the list (writing into the pack buffer) when this list has bound one to
//! `GL_PIXEL_PACK_BUFFER`, and is a round trip into client memory otherwise (`sizes.rs` sizes
//! those on the render thread from its real pack state). The round trip hands the query the C
//! pointer (`glcmd::client_out`): its vector starts from the caller's bytes, so the bytes the GL
//! does not write (row gaps, pixels outside the framebuffer, the rest of `bufSize`) keep their
//! values when it is copied back.

use std::borrow::Cow;

use glcmd::dump::EnumName;
use glcmd::generated::types::{GLenum, GLint, GLsizei, GLuint};
use glcmd::pixels::{format_type_error, group_bytes, Image, SizeError};
use glcmd::Bytes;

use crate::error::CallError;
use crate::recording::Recording;
use crate::types::{GLCMD_ERROR_INVALID_ARGUMENT, GLCMD_ERROR_UNSUPPORTED};

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
    if cur.list.pixel_state().unpack_buffer {
        return Ok(Bytes::BufferOffset(p as usize));
    }
    if p.is_null() && nullable {
        return Ok(Bytes::None);
    }
    if nullable && group_bytes(image.format, image.type_).is_none() {
        // A pair glcmd cannot size: the GL allocates the image with no data, or refuses the
        // pair (with its own error, or an earlier one); glcmd reads nothing.
        unsized_noted(f, &image);
        return Ok(Bytes::None);
    }
    let len = cur.list.unpack_bytes(&image).map_err(|e| size_error(f, argument, &image, e))?;
    // SAFETY: the caller's contract, with `len` the GL's own count.
    let bytes = match unsafe { crate::conv::slice(f, argument, p, len)? } {
        Cow::Borrowed(b) => b,
        Cow::Owned(_) => unreachable!("bytes are always aligned"),
    };
    Ok(Bytes::Slice(bytes))
}

/// Whether a sub-image upload reaches the GL as an empty region: `null` (NULL pixels with no
/// unpack buffer), or a `format`/`type_` pair glcmd cannot size (noted: `GLCMD_ERROR_UNSUPPORTED`
/// with no GL error; the GL refuses the pair with its own error).
pub fn upload_nothing(f: &str, null: bool, format: GLenum, type_: GLenum) -> bool {
    if group_bytes(format, type_).is_some() {
        return null;
    }
    unsized_noted(f, &Image { dims: 2, width: 1, height: 1, depth: 1, format, type_ });
    true
}

/// Notes a transfer of a pair glcmd cannot size that goes to the GL reading nothing.
fn unsized_noted(f: &str, image: &Image) {
    let message = format!(
        "{f}: format {} with type {}: glcmd does not know how many bytes a pixel of it has; the call went to the          GL transferring nothing, for the GL to answer",
        EnumName(image.format),
        EnumName(image.type_)
    );
    crate::error::fail(f, CallError::new(GLCMD_ERROR_UNSUPPORTED, message));
}

/// A sub-image upload (`glTexSubImage*D`, `glTextureSubImage*D`), for [`null_sub_image`].
#[derive(Clone, Copy, Debug)]
pub struct SubImage {
    /// 1, 2 or 3.
    pub dims: u8,
    /// `glTextureSubImage*D`: `object` is the texture; else the target.
    pub dsa: bool,
    pub object: GLuint,
    pub level: GLint,
    pub offset: [GLint; 3],
    pub size: [GLsizei; 3],
    pub format: GLenum,
    pub type_: GLenum,
}

/// A sub-image upload of NULL pixels on an immediate thread with no unpack buffer bound: the
/// GL checks every argument and reads nothing (Mesa), but glcmd hands a driver no NULL pixels,
/// and the empty region it hands it instead (`emit/capi.rs`) would pass the GL's check that
/// the region lies in the level (piglit's `teximage-errors`). So, in one round trip, the GL is
/// given the empty region, and where it raises nothing the region is checked against the
/// level's size as the GL checks it (`GL_INVALID_VALUE`). True: the call was answered so (not
/// recorded); false: record it as before (a deferred list, an unpack buffer, pixels not NULL).
pub fn null_sub_image(f: &'static str, s: SubImage, null: bool) -> bool {
    if !null || !crate::immediate::is_immediate() {
        return false;
    }
    crate::call::round_trip(f, false, move |device| {
        // SAFETY: `with_gl` runs this on the render thread, with `g` its current context's table.
        let (handled, error) = crate::conv::checked(f, device.with_gl(move |g| unsafe { null_sub_image_on(g, &s) }))?;
        if error != glcmd::gl::NO_ERROR {
            crate::error::raise_gl(error);
        }
        Ok(handled)
    })
}

/// [`null_sub_image`] on the render thread: (answered, the GL error of the call).
///
/// # Safety
/// On the render thread, `g` the table of its current context.
unsafe fn null_sub_image_on(g: &glcmd::Gl, s: &SubImage) -> (bool, GLenum) {
    use glcmd::gl;
    let mut unpack = 0;
    // SAFETY: the caller's contract; one value into a local.
    unsafe { (g.GetIntegerv)(gl::PIXEL_UNPACK_BUFFER_BINDING, &mut unpack) };
    if unpack != 0 {
        return (false, gl::NO_ERROR);
    }
    // An error an earlier call left is the program's first (the GL keeps the first).
    // SAFETY: the caller's contract.
    let earlier = unsafe { (g.GetError)() };
    let ([x, y, z], [w, h, d]) = (s.offset, s.size.map(|v| v.min(0)));
    let (o, l, f, t) = (s.object, s.level, s.format, s.type_);
    let none = [0u8; 16];
    let p = none.as_ptr().cast();
    // SAFETY: an empty region (no size above 0): the GL reads nothing at `p`.
    unsafe {
        match (s.dsa, s.dims) {
            (false, 1) => (g.TexSubImage1D)(o, l, x, w, f, t, p),
            (false, 2) => (g.TexSubImage2D)(o, l, x, y, w, h, f, t, p),
            (false, _) => (g.TexSubImage3D)(o, l, x, y, z, w, h, d, f, t, p),
            (true, 1) => (g.TextureSubImage1D)(o, l, x, w, f, t, p),
            (true, 2) => (g.TextureSubImage2D)(o, l, x, y, w, h, f, t, p),
            (true, _) => (g.TextureSubImage3D)(o, l, x, y, z, w, h, d, f, t, p),
        }
    }
    // SAFETY: the caller's contract.
    let error = unsafe { (g.GetError)() };
    if earlier != gl::NO_ERROR || error != gl::NO_ERROR {
        return (true, if earlier != gl::NO_ERROR { earlier } else { error });
    }
    // The GL took every other argument: the region must lie in the level (core: no border).
    let level_size = |pname: GLenum| {
        let mut v = 0;
        // SAFETY: the caller's contract; the GL took the target (or texture) and the level.
        unsafe {
            if s.dsa {
                (g.GetTextureLevelParameteriv)(o, l, pname, &mut v)
            } else {
                (g.GetTexLevelParameteriv)(o, l, pname, &mut v)
            }
        };
        v as i64
    };
    let sizes = [gl::TEXTURE_WIDTH, gl::TEXTURE_HEIGHT, gl::TEXTURE_DEPTH];
    let outside = (0..s.dims as usize).any(|i| {
        let (offset, size) = (s.offset[i] as i64, s.size[i] as i64);
        offset < 0 || offset + size > level_size(sizes[i])
    });
    (true, if outside { gl::INVALID_VALUE } else { gl::NO_ERROR })
}

/// Compressed data sized by its `imageSize` argument: an offset when this list bound an unpack
/// buffer, else `len` bytes; for an image upload (`allocates`), NULL is no data: the GL
/// allocates the level with undefined contents, as `glTexImage2D` with NULL does.
///
/// # Safety
/// `p` is an offset (with an unpack buffer bound in this list), NULL, or points to `len` bytes.
pub unsafe fn compressed<'a>(
    cur: &mut Recording,
    f: &str,
    argument: &str,
    p: *const u8,
    len: usize,
    allocates: bool,
) -> Result<Bytes<'a>, CallError> {
    if cur.list.pixel_state().unpack_buffer {
        return Ok(Bytes::BufferOffset(p as usize));
    }
    if p.is_null() && allocates {
        return Ok(Bytes::None);
    }
    if p.is_null() && len > 0 {
        // Not the stand-in of zeros: where the GL takes the call it ignores NULL data (Mesa), and
        // zeros would be written. The GL's error for the common mistake (`SPEC_ERRORS`).
        return Err(CallError::null(f, argument));
    }
    // SAFETY: the caller's contract.
    let bytes = match unsafe { crate::conv::slice(f, argument, p, len)? } {
        Cow::Borrowed(b) => b,
        Cow::Owned(_) => unreachable!("bytes are always aligned"),
    };
    Ok(Bytes::Slice(bytes))
}

/// Checks a `glPixelStoref` value before the list records (and tracks) it: a float the GL could
/// not round to an `int` reliably (NaN, infinite, out of range) is refused and not recorded.
pub fn store_float(pname: GLenum, value: f32) -> Result<(), CallError> {
    if glcmd::pixels::PixelState::new().store(pname, value as f64).is_err() {
        return Err(CallError::new(
            GLCMD_ERROR_INVALID_ARGUMENT,
            format!("glPixelStoref: {value} for pname {} is not a value the GL can round to an int", EnumName(pname)),
        ));
    }
    Ok(())
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
    let Some(len) = group_bytes(format, type_) else {
        // A pair glcmd cannot size: the GL gets NULL (a clear to zero, its meaning of NULL),
        // and refuses the pair with its own error or an earlier one.
        let _ = argument;
        unsized_noted(f, &image);
        return Ok(Bytes::None);
    };
    if p.is_null() {
        return Ok(Bytes::Slice(&ZEROS[..len]));
    }
    // SAFETY: the caller's contract.
    match unsafe { crate::conv::slice(f, argument, p, len)? } {
        Cow::Borrowed(b) => Ok(Bytes::Slice(b)),
        Cow::Owned(_) => unreachable!("bytes are always aligned"),
    }
}
