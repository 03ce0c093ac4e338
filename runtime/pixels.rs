//! How many bytes a pixel transfer reads or writes, and the pixel-store state that decides it:
//! the one implementation behind the Rust recording methods, the C ABI and replay.
//!
//! `glTexSubImage2D(..., format, type, pixels)` gives no length: the GL derives it from format,
//! type, dimensions and the pixel-store state (`GL_UNPACK_ROW_LENGTH`, `_ALIGNMENT`, `_SKIP_*`,
//! `_IMAGE_HEIGHT`). glcmd computes it the way Mesa's `_mesa_image_offset` does ([`image_bytes`]:
//! from the first byte of the pointer to the last byte of the last pixel), so an upload from a
//! slice can be checked, and one from a pixel-unpack buffer can be checked against the buffer's
//! storage, before the GL reads anything.
//!
//! **Whose state.** A recorded upload is sized from **the list's own pixel-store state**
//! ([`PixelState`]), not from whatever the GL's state will be at replay (an earlier list, another
//! thread's list or a `with_gl` closure could change that):
//!
//! * Each list tracks the unpack and pack state from the GL defaults, changed by the
//!   `pixel_storei` / `pixel_storef` calls recorded into it, validated as the GL validates them (a
//!   value the GL would refuse leaves the state as it is; a float the GL could round
//!   unpredictably, NaN or out of `int` range, is refused).
//! * Before the list's first pixel transfer, the list records the whole tracked unpack state
//!   (eight `glPixelStorei` calls, [`UNPACK_PNAMES`]). From there on the GL's unpack state is the
//!   tracked one: a list replays without interruption.
//!
//! The rule this implies: **unpack state does not carry from one list into the uploads of
//! another**; a list that uploads with a non-default row length sets it itself. (State still
//! carries over for everything else.) An immediate context carries the tracked state from one
//! implicit list to the next ([`PixelState::carried`]), as the GL's state carries.
//!
//! **Buffer offsets.** With a buffer bound to `GL_PIXEL_UNPACK_BUFFER` the pointer is an offset
//! into it. The range `offset .. offset + size` is checked at replay against the bound buffer's
//! storage, with the size computed here from the GL's unpack state at that moment
//! ([`read_unpack_store`]: the list recorded it, so it is the tracked one; a capture replays the
//! same way), and an upload that would read past the end is refused with the GL's error,
//! `GL_INVALID_OPERATION`. Bytes copied into the list are checked the same way at replay (the
//! recording method already checked them against the same state, so only a capture file edited
//! by hand can fail that check; it costs six `glGetIntegerv` per upload).
//!
//! **Bindings follow what the GL accepts** (issue 30, item 1). Whether a C pointer is an offset
//! or client memory depends on the pixel-buffer binding the GL has at that point of the stream,
//! so the list tracks the binding the GL will have, not the one asked for: a bind of a name the
//! GL refuses (never generated, or deleted) changes nothing, a recorded `glDeleteBuffers` unbinds
//! the deleted buffer as the GL does, an immediate context's hand-overs and context switches
//! keep it. Whether a bind will be accepted is known where the name was made, on the render
//! thread, which enters every buffer name in the device's `buffer_names.rs` before handing it
//! out. A name glcmd cannot prove exists makes the binding *unsure*: the pointer is then read as
//! an offset (never as client memory, which an offset is not), and an immediate C thread asks the
//! GL at once (`PixelState::resolve`). `tests/pixel_bindings.rs` audits the tracking against the
//! GL over every call that can change it.
//!
//! **Reads.** Queries that write into client memory (`glReadPixels`, `glGetTexImage`) run on the
//! render thread, which sizes them from the GL's real pack state ([`read_pack_store`]). The
//! size is the span from the pointer to the last byte of the last pixel; the GL writes only the
//! pixels in it (not the gaps a row length or alignment leaves, nor pixels outside the
//! framebuffer), so a read into a C caller's memory starts from that memory's bytes
//! (`client_out.rs`) and every other byte keeps its value.

use crate::generated::{enums as gl, types::GLenum, types::GLint, Gl};

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

/// The GL error for a format/type pair glcmd cannot size: `GL_INVALID_ENUM` when either is no
/// pixel format or type of the core profile, `GL_INVALID_OPERATION` when both are but do not go
/// together (what the GL raises for the same call).
pub fn format_type_error(format: GLenum, type_: GLenum) -> GLenum {
    let known_type = group_bytes(gl::RGBA, type_).is_some();
    let known_format = group_bytes(format, gl::UNSIGNED_BYTE).is_some() || format == gl::DEPTH_STENCIL;
    if known_type && known_format {
        gl::INVALID_OPERATION
    } else {
        gl::INVALID_ENUM
    }
}

/// The dimensions, format and type of an image transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizeError {
    /// A format/type pair glcmd does not know.
    Format,
    /// Larger than memory.
    Overflow,
}

/// The pixel-store parameters of one direction (unpack or pack), as the GL keeps them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Store {
    pub alignment: i64,
    pub row_length: i64,
    pub image_height: i64,
    pub skip_pixels: i64,
    pub skip_rows: i64,
    pub skip_images: i64,
    /// Not sizes, but part of the state a list starts from.
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
    let alignment = store.alignment.max(1) as i128;
    let row_bytes = (pixels_per_row * bpp + alignment - 1) / alignment * alignment;
    let image_bytes = row_bytes * rows_per_image;
    let skip_images = if image.dims == 3 { store.skip_images as i128 } else { 0 };
    let end = (skip_images + d - 1) * image_bytes
        + (store.skip_rows as i128 + h - 1) * row_bytes
        + (store.skip_pixels as i128 + w) * bpp;
    usize::try_from(end).ok().filter(|&n| n <= isize::MAX as usize).ok_or(SizeError::Overflow)
}

/// The unpack pnames, in the order a list records its tracked state.
pub const UNPACK_PNAMES: [GLenum; 8] = [
    gl::UNPACK_SWAP_BYTES,
    gl::UNPACK_LSB_FIRST,
    gl::UNPACK_ROW_LENGTH,
    gl::UNPACK_IMAGE_HEIGHT,
    gl::UNPACK_SKIP_ROWS,
    gl::UNPACK_SKIP_PIXELS,
    gl::UNPACK_SKIP_IMAGES,
    gl::UNPACK_ALIGNMENT,
];

/// A `pixel_storef` value the GL cannot round to an `int` reliably (NaN, infinite, out of range).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NotAnInt(pub f64);

/// What a list tracks of its pixel state: the pixel-store parameters and the pixel-buffer
/// bindings it made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelState {
    pub unpack: Store,
    pub pack: Store,
    /// A pointer of an upload is an offset into `GL_PIXEL_UNPACK_BUFFER`: a non-zero buffer is
    /// bound there, or may be ([`PixelState::unsure`]).
    pub unpack_buffer: bool,
    /// Likewise for `GL_PIXEL_PACK_BUFFER` and reads.
    pub pack_buffer: bool,
    /// The buffer bound to `GL_PIXEL_UNPACK_BUFFER` (0: none); where unsure, the name of the
    /// bind that may have been refused.
    pub unpack_name: u32,
    /// Likewise for `GL_PIXEL_PACK_BUFFER`.
    pub pack_name: u32,
    /// Bits [`UNSURE_UNPACK`], [`UNSURE_PACK`]: a bind of a name glcmd could not prove exists
    /// (`buffer_names.rs`) left the binding unknown. The pointer is then taken as an offset
    /// (the safe reading: the render thread checks an offset against the real binding; client
    /// memory at an offset's address is never read) until the GL is asked ([`PixelState::resolve`]).
    pub unsure: u8,
    /// The tracked unpack state has been recorded into the list.
    pub synced: bool,
}

/// [`PixelState::unsure`]: the unpack binding is not known.
pub const UNSURE_UNPACK: u8 = 1;
/// [`PixelState::unsure`]: the pack binding is not known.
pub const UNSURE_PACK: u8 = 2;

impl Default for PixelState {
    fn default() -> Self {
        Self::new()
    }
}

impl PixelState {
    /// The GL's initial state, nothing recorded yet.
    pub const fn new() -> PixelState {
        PixelState {
            unpack: Store::DEFAULT,
            pack: Store::DEFAULT,
            unpack_buffer: false,
            pack_buffer: false,
            unpack_name: 0,
            pack_name: 0,
            unsure: 0,
            synced: false,
        }
    }

    /// The state for the next implicit list of an immediate context: the tracked values and
    /// bindings carry over (they are the GL's state once this list has replayed); the next list
    /// records the unpack state again before its first upload.
    pub fn carried(&self) -> PixelState {
        PixelState { synced: false, ..*self }
    }

    /// The values of [`UNPACK_PNAMES`] in this state.
    pub fn unpack_values(&self) -> [i32; 8] {
        let s = &self.unpack;
        [
            s.swap_bytes as i32,
            s.lsb_first as i32,
            s.row_length as i32,
            s.image_height as i32,
            s.skip_rows as i32,
            s.skip_pixels as i32,
            s.skip_images as i32,
            s.alignment as i32,
        ]
    }

    /// Tracks `glPixelStore{i,f}(pname, value)`: changes what the GL changes. `Err` (the call
    /// must then not be recorded) for a float the GL could not round to an `int` reliably.
    pub fn store(&mut self, pname: GLenum, value: f64) -> Result<(), NotAnInt> {
        let (s, name) = match pname {
            gl::UNPACK_ALIGNMENT
            | gl::UNPACK_ROW_LENGTH
            | gl::UNPACK_IMAGE_HEIGHT
            | gl::UNPACK_SKIP_PIXELS
            | gl::UNPACK_SKIP_ROWS
            | gl::UNPACK_SKIP_IMAGES
            | gl::UNPACK_SWAP_BYTES
            | gl::UNPACK_LSB_FIRST => (&mut self.unpack, pname),
            _ => match unpack_twin(pname) {
                Some(twin) => (&mut self.pack, twin),
                None => return Ok(()),
            },
        };
        if !value.is_finite() {
            return Err(NotAnInt(value));
        }
        // Mesa's glPixelStoref rounds half away from zero (IROUND); glPixelStorei passes ints.
        // Every `int` is one (`i32::MIN` included: the GL refuses it as negative, it is no reason
        // to refuse the call); a float that rounds outside them is not.
        let rounded = if value >= 0.0 { (value + 0.5).floor() } else { (value - 0.5).ceil() };
        if rounded < i32::MIN as f64 || rounded > i32::MAX as f64 {
            return Err(NotAnInt(value));
        }
        let v = rounded as i64;
        match name {
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

    /// Tracks `glBindBuffer(target, buffer)`; `exists`: the GL is sure to accept the bind (0, or
    /// a name that exists, `buffer_names.rs`). A bind that may be refused (the GL would keep the
    /// old binding) leaves the binding unsure, and the pointer an offset (see [`Self::unsure`]).
    pub fn bind_buffer(&mut self, target: GLenum, buffer: u32, exists: bool) {
        let (bound, name, bit) = match target {
            gl::PIXEL_UNPACK_BUFFER => (&mut self.unpack_buffer, &mut self.unpack_name, UNSURE_UNPACK),
            gl::PIXEL_PACK_BUFFER => (&mut self.pack_buffer, &mut self.pack_name, UNSURE_PACK),
            _ => return,
        };
        if exists {
            (*bound, *name) = (buffer != 0, buffer);
            self.unsure &= !bit;
        } else if *name != buffer || self.unsure & bit != 0 || !*bound {
            // Refused: the old binding stays; accepted: `buffer`. Either way a pointer is an
            // offset unless nothing was bound before, and then it may be one.
            *bound = true;
            *name = buffer;
            self.unsure |= bit;
        }
    }

    /// Tracks a recorded `glDeleteBuffers(names)`: the GL unbinds a deleted buffer from the
    /// pixel targets that hold it. An unsure binding stays unsure (the delete may have found the
    /// old buffer or the new one).
    pub fn delete_buffers(&mut self, names: &[u32]) {
        for (bound, name, bit) in [
            (&mut self.unpack_buffer, &mut self.unpack_name, UNSURE_UNPACK),
            (&mut self.pack_buffer, &mut self.pack_name, UNSURE_PACK),
        ] {
            if self.unsure & bit == 0 && *name != 0 && names.contains(name) {
                (*bound, *name) = (false, 0);
            }
        }
    }

    /// The bindings as the GL has them (asked on the render thread): nothing is unsure after.
    pub fn resolve(&mut self, unpack: u32, pack: u32) {
        (self.unpack_buffer, self.unpack_name) = (unpack != 0, unpack);
        (self.pack_buffer, self.pack_name) = (pack != 0, pack);
        self.unsure = 0;
    }

    /// Tracks `glClientAttribDefaultEXT(mask)` and `glPushClientAttribDefaultEXT(mask)`: the
    /// pixel-store bit resets the pixel-store state (the GL state then equals the tracked one).
    pub fn client_defaults(&mut self, mask: u32) {
        const CLIENT_PIXEL_STORE_BIT: u32 = 0x1;
        if mask & CLIENT_PIXEL_STORE_BIT != 0 {
            self.unpack = Store::DEFAULT;
            self.pack = Store::DEFAULT;
        }
    }
}

/// The unpack pname of a pack pname (`GL_PACK_ALIGNMENT` → `GL_UNPACK_ALIGNMENT`).
fn unpack_twin(pack: GLenum) -> Option<GLenum> {
    Some(match pack {
        gl::PACK_ALIGNMENT => gl::UNPACK_ALIGNMENT,
        gl::PACK_ROW_LENGTH => gl::UNPACK_ROW_LENGTH,
        gl::PACK_IMAGE_HEIGHT => gl::UNPACK_IMAGE_HEIGHT,
        gl::PACK_SKIP_PIXELS => gl::UNPACK_SKIP_PIXELS,
        gl::PACK_SKIP_ROWS => gl::UNPACK_SKIP_ROWS,
        gl::PACK_SKIP_IMAGES => gl::UNPACK_SKIP_IMAGES,
        gl::PACK_SWAP_BYTES => gl::UNPACK_SWAP_BYTES,
        gl::PACK_LSB_FIRST => gl::UNPACK_LSB_FIRST,
        _ => return None,
    })
}

/// Reads one integer state.
///
/// # Safety
/// On the render thread, `g` the table of its current context.
unsafe fn integer(g: &Gl, pname: GLenum) -> i64 {
    let mut v: GLint = 0;
    // SAFETY: one value into a local (every pname read here has one).
    unsafe { (g.GetIntegerv)(pname, &mut v) };
    v as i64
}

/// The GL's current unpack (`pack == false`) or pack state.
///
/// # Safety
/// On the render thread, `g` the table of its current context.
unsafe fn read_store(g: &Gl, pack: bool) -> Store {
    let pname = |unpack: GLenum, pack_pname: GLenum| if pack { pack_pname } else { unpack };
    // SAFETY: the caller's contract.
    let get = |unpack: GLenum, pack: GLenum| unsafe { integer(g, pname(unpack, pack)) };
    Store {
        alignment: get(gl::UNPACK_ALIGNMENT, gl::PACK_ALIGNMENT).max(1),
        row_length: get(gl::UNPACK_ROW_LENGTH, gl::PACK_ROW_LENGTH),
        image_height: get(gl::UNPACK_IMAGE_HEIGHT, gl::PACK_IMAGE_HEIGHT),
        skip_pixels: get(gl::UNPACK_SKIP_PIXELS, gl::PACK_SKIP_PIXELS),
        skip_rows: get(gl::UNPACK_SKIP_ROWS, gl::PACK_SKIP_ROWS),
        skip_images: get(gl::UNPACK_SKIP_IMAGES, gl::PACK_SKIP_IMAGES),
        swap_bytes: false,
        lsb_first: false,
    }
}

/// The GL's whole pixel state now: both directions' stores and the pixel-buffer bindings (what
/// a list starts from on a context whose state glcmd did not track, `PixelState::resolve`).
///
/// # Safety
/// On the render thread, `g` the table of its current context.
pub unsafe fn read_state(g: &Gl) -> PixelState {
    // SAFETY: the caller's contract.
    let get = |pname: GLenum| unsafe { integer(g, pname) };
    let (mut unpack, mut pack) = unsafe { (read_store(g, false), read_store(g, true)) };
    unpack.swap_bytes = get(gl::UNPACK_SWAP_BYTES) != 0;
    unpack.lsb_first = get(gl::UNPACK_LSB_FIRST) != 0;
    pack.swap_bytes = get(gl::PACK_SWAP_BYTES) != 0;
    pack.lsb_first = get(gl::PACK_LSB_FIRST) != 0;
    let mut state = PixelState { unpack, pack, ..PixelState::new() };
    state.resolve(get(gl::PIXEL_UNPACK_BUFFER_BINDING) as u32, get(gl::PIXEL_PACK_BUFFER_BINDING) as u32);
    state
}

/// The GL's current unpack state (the sizes only).
///
/// # Safety
/// On the render thread, `g` the table of its current context.
pub unsafe fn read_unpack_store(g: &Gl) -> Store {
    // SAFETY: the caller's contract.
    unsafe { read_store(g, false) }
}

/// The GL's current pack state (the sizes only).
///
/// # Safety
/// On the render thread, `g` the table of its current context.
pub unsafe fn read_pack_store(g: &Gl) -> Store {
    // SAFETY: the caller's contract.
    unsafe { read_store(g, true) }
}

/// The bytes `glReadPixels` writes for a `width` x `height` image of `format`/`type_` under the
/// GL's pack state now: what a query into client memory allocates. An error (the query is not
/// made) for a pair glcmd cannot size or an image larger than memory.
///
/// # Safety
/// On the render thread, `g` the table of its current context.
pub unsafe fn pack_len(g: &Gl, function: &'static str, image: Image) -> Result<usize, crate::Error> {
    // SAFETY: the caller's contract.
    let store = unsafe { read_pack_store(g) };
    sized(function, image, &store)
}

/// The bytes `glGetTexImage` writes for `level` of the texture bound to `target`, as
/// `format`/`type_`, under the GL's pack state now (the level's size read from the GL).
///
/// # Safety
/// On the render thread, `g` the table of its current context.
pub unsafe fn tex_level_len(
    g: &Gl,
    function: &'static str,
    (target, level): (GLenum, GLint),
    format: GLenum,
    type_: GLenum,
) -> Result<usize, crate::Error> {
    let dims = match target {
        gl::TEXTURE_1D => 1,
        gl::TEXTURE_3D | gl::TEXTURE_2D_ARRAY | gl::TEXTURE_CUBE_MAP_ARRAY => 3,
        _ => 2,
    };
    let parameter = |pname: GLenum| {
        let mut v: GLint = 0;
        // SAFETY: the caller's contract; one value into a local.
        unsafe { (g.GetTexLevelParameteriv)(target, level, pname, &mut v) };
        v as i64
    };
    let (width, height, depth) =
        (parameter(gl::TEXTURE_WIDTH), parameter(gl::TEXTURE_HEIGHT), parameter(gl::TEXTURE_DEPTH));
    // SAFETY: the caller's contract.
    let store = unsafe { read_pack_store(g) };
    sized(function, Image { dims, width, height, depth, format, type_ }, &store)
}

/// The error of a pixel read into client memory whose format/type pair glcmd cannot size (`e`,
/// from [`pack_len`] or [`tex_level_len`]): the GL's own where it raises one. `probe` makes the
/// read's robust form with a `bufSize` of 0 (`glReadnPixels`, `glGetnTexImage`, ...), which
/// writes nothing: the GL makes the read's checks in its order (a target, a level, a framebuffer
/// before the pair) and refuses the pair, so the read raises what it raises directly (issue 34
/// item 4). glcmd's own error stands where the GL raised none (a pair the GL takes and glcmd's
/// table lacks).
///
/// # Safety
/// On the render thread, `g` the table of its current context; `probe` writes nothing.
pub unsafe fn read_error_first(g: &Gl, e: crate::Error, probe: impl FnOnce()) -> crate::Error {
    let crate::Error::PixelFormat { function, format, type_, .. } = e else { return e };
    // With a pack buffer bound the probe's pointer would be an offset into it: no probe, so the
    // GL is never handed an address as an offset (glcmd's own error stands).
    let mut pack: GLint = 0;
    // SAFETY: the caller's contract; one value into a local.
    unsafe { (g.GetIntegerv)(gl::PIXEL_PACK_BUFFER_BINDING, &mut pack) };
    if pack != 0 {
        return e;
    }
    probe();
    // SAFETY: the caller's contract.
    match unsafe { (g.GetError)() } {
        gl::NO_ERROR => e,
        gl_error => crate::Error::PixelFormat { function, format, type_, gl_error },
    }
}

fn sized(function: &'static str, image: Image, store: &Store) -> Result<usize, crate::Error> {
    match image_bytes(&image, store) {
        Ok(n) => Ok(n),
        Err(SizeError::Format) => Err(crate::Error::PixelFormat {
            function,
            format: image.format,
            type_: image.type_,
            gl_error: format_type_error(image.format, image.type_),
        }),
        Err(SizeError::Overflow) => Err(crate::Error::OutOfMemory { function, bytes: u128::MAX }),
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
        // Every int is a value (the GL refuses a negative one); a float past them is not.
        p.store(gl::UNPACK_SKIP_ROWS, i32::MIN as f64).unwrap();
        assert_eq!(p.unpack.skip_rows, 0);
        p.store(gl::UNPACK_SKIP_ROWS, i32::MAX as f64).unwrap();
        assert_eq!(p.unpack.skip_rows, i32::MAX as i64);
        assert!(p.store(gl::UNPACK_SKIP_ROWS, i32::MIN as f64 - 0.5).is_err());
        assert!(p.store(gl::UNPACK_SKIP_ROWS, i32::MAX as f64 + 0.5).is_err());
        p.store(gl::PACK_ROW_LENGTH, 99.0).unwrap(); // pack state, not unpack
        p.store(gl::PACK_ALIGNMENT, 2.0).unwrap();
        assert_eq!(p.unpack.row_length, 8);
        assert_eq!((p.pack.row_length, p.pack.alignment), (99, 2));
        p.client_defaults(0x1);
        assert_eq!((p.unpack, p.pack), (Store::DEFAULT, Store::DEFAULT));
    }
}

#[cfg(test)]
mod binding_tests {
    use super::*;

    #[test]
    fn refused_and_deleted_bindings_follow_the_gl() {
        let mut p = PixelState::new();
        // A name that may not exist: unsure, taken as an offset.
        p.bind_buffer(gl::PIXEL_UNPACK_BUFFER, 77, false);
        assert!(p.unpack_buffer && p.unsure == UNSURE_UNPACK);
        p.resolve(0, 0);
        assert!(!p.unpack_buffer && p.unsure == 0);
        // A name that exists, then a refused rebind: a pointer stays an offset, unsure.
        p.bind_buffer(gl::PIXEL_UNPACK_BUFFER, 5, true);
        p.bind_buffer(gl::PIXEL_UNPACK_BUFFER, 77, false);
        assert!(p.unpack_buffer && p.unsure == UNSURE_UNPACK);
        p.resolve(5, 0);
        // Deleting another buffer keeps it; deleting it unbinds it.
        p.delete_buffers(&[6, 0]);
        assert_eq!((p.unpack_buffer, p.unpack_name), (true, 5));
        p.delete_buffers(&[5]);
        assert_eq!((p.unpack_buffer, p.unpack_name), (false, 0));
        p.bind_buffer(gl::PIXEL_PACK_BUFFER, 9, true);
        assert_eq!((p.pack_buffer, p.unpack_buffer), (true, false));
        p.bind_buffer(gl::PIXEL_PACK_BUFFER, 0, true);
        assert!(!p.pack_buffer);
        // Other targets change nothing.
        p.bind_buffer(gl::ARRAY_BUFFER, 3, false);
        assert_eq!(p, PixelState { synced: p.synced, ..PixelState::new() });
    }
}
