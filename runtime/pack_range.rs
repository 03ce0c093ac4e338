//! The range a pixel read writes into the buffer bound to `GL_PIXEL_PACK_BUFFER`, checked at
//! replay before the GL writes anything.
//!
//! With a pack buffer bound, the pointer of `glReadPixels`, `glGetTexImage` and their kin is an
//! offset into it (the recording methods `*_to_buffer`), and the GL writes the image from that
//! offset on. How many bytes depends on the call's arguments, the GL's pack state at that moment
//! (`GL_PACK_ROW_LENGTH`, `_ALIGNMENT`, `_SKIP_*`, `_IMAGE_HEIGHT`) and, for texture reads, the
//! size of the texture level. [`Replayer::pack_fits`] measures all three on the render thread,
//! just before the call, and refuses a write that would pass the end of the buffer's storage
//! with the GL's error for it, `GL_INVALID_OPERATION` (GL 4.6 §8.4.4.1 for reads of the
//! framebuffer, §8.11.4 for texture images). The GL must check this itself; glcmd does not rely
//! on it, as for every offset (`shadow/checks.rs`).
//!
//! **What is measured.** [`PackExtent`] names the image:
//!
//! * an image of given dimensions (`glReadPixels`, `glGetTextureSubImage`): sized from the pack
//!   state, as `pixels.rs` sizes uploads;
//! * a level of a texture (`glGetTexImage` and its DSA and extension forms): its width, height and
//!   depth read with `glGet*TexLevelParameteriv`, six faces for a whole cube map, packed "as if
//!   three-dimensional" for array, cube-map and 3D textures (§8.11.4);
//! * a compressed level: its `GL_TEXTURE_COMPRESSED_IMAGE_SIZE`; a compressed sub-image
//!   (`glGetCompressedTextureSubImage`): whole blocks of the texture's format (glcmd's table of
//!   S3TC, RGTC, BPTC, ETC2/EAC and ASTC blocks; another format is refused). Both under the default
//!   compressed-block pack state (all zero), which packs images whole; with
//!   `GL_PACK_COMPRESSED_BLOCK_*` set the bytes depend on the block layout in ways glcmd does not
//!   model, so such a read into a pack buffer is refused (`GL_INVALID_OPERATION`) with a message
//!   saying so.
//!
//! **`bufSize`** (`glReadnPixels`, `glGetTextureImage`, ...) bounds writes into client memory.
//! With a pack buffer bound Mesa ignores it and checks the buffer's storage instead (an image
//! larger than `bufSize` is read whole), so glcmd does the same: the exact image is what must fit.
//!
//! **Queries that fail.** A level query of a texture or level that does not exist answers 0 (and
//! raises the error the read itself raises for it): the image is then empty, the check passes,
//! and the GL refuses the read, writing nothing.

use crate::generated::{enums as gl, types::*, Gl};
use crate::pixels::{image_bytes, Image, SizeError};
use crate::replay::Replayer;
use crate::shadow::Target;

/// Whose level a texture read reads.
#[derive(Clone, Copy, Debug)]
pub enum LevelOf {
    /// The texture bound to `target` of the active unit (`target` a face for a cube map).
    Bound(GLenum),
    /// Texture `texture`; `Some(target)` where the call names one (`glGetTextureImageEXT`: a face
    /// for a cube map), `None` for the core DSA forms (a cube map is read whole).
    Texture(GLuint, Option<GLenum>),
    /// The texture bound to `target` of texture unit `unit` (`GL_TEXTURE0 + i`).
    Unit(GLenum, GLenum),
}

/// What a pixel read into the pack buffer writes (see the module's essay).
#[derive(Clone, Copy, Debug)]
pub enum PackExtent {
    /// An image of these dimensions, format and type.
    Image(Image),
    /// A whole level, as `format`/`type_`.
    Level { of: LevelOf, level: GLint, format: GLenum, type_: GLenum },
    /// A whole compressed level.
    Compressed { of: LevelOf, level: GLint },
    /// A sub-image of a texture of the texture's target.
    SubImage { texture: GLuint, width: GLsizei, height: GLsizei, depth: GLsizei, format: GLenum, type_: GLenum },
    /// A compressed sub-image of a texture: whole blocks of its format.
    CompressedSubImage { texture: GLuint, level: GLint, width: GLsizei, height: GLsizei, depth: GLsizei },
}

/// Why a read's size is unknown.
enum Unknown {
    /// A format/type pair glcmd cannot size: refused with the GL's error for it.
    Format(GLenum, GLenum),
    /// Compressed-block pack state set.
    Blocks,
    /// A compressed format whose blocks glcmd does not know.
    Compressed(GLenum),
}

impl Replayer<'_> {
    /// Before a pixel read into the pack buffer at `offset`: a buffer is bound and the bytes the
    /// GL writes (`extent`) lie inside its storage. False: refused and reported.
    pub fn pack_fits(&mut self, p: *const u64, offset: usize, extent: PackExtent) -> bool {
        if let Err(why) = self.shadow().require(Target::PixelPack) {
            self.refuse(p, why);
            return false;
        }
        // SAFETY: replay runs on the render thread, with `raw` its current context's table.
        let bytes = match unsafe { measure(self.raw, extent) } {
            Ok(n) => n,
            Err(Unknown::Format(format, type_)) => {
                let message = format!(
                    "format {} with type {} is no pixel format/type pair glcmd knows, so it cannot check the \
                     bytes the GL would write into the pixel-pack buffer; glcmd skipped the call",
                    crate::vocab::EnumName(format),
                    crate::vocab::EnumName(type_)
                );
                self.refuse_with(p, message, crate::pixels::format_type_error(format, type_));
                return false;
            }
            Err(Unknown::Blocks) => {
                let message = "with GL_PACK_COMPRESSED_BLOCK_* set, the bytes written depend on the format's block \
                               layout, which glcmd cannot check against the pixel-pack buffer; glcmd skipped the \
                               call (reset the compressed-block pack state to 0 to read whole images)";
                self.refuse_with(p, message.to_string(), gl::INVALID_OPERATION);
                return false;
            }
            Err(Unknown::Compressed(format)) => {
                let message = format!(
                    "the texture's compressed format {} is one whose blocks glcmd does not know, so it cannot \
                     check the bytes the GL would write into the pixel-pack buffer; glcmd skipped the call",
                    crate::vocab::EnumName(format)
                );
                self.refuse_with(p, message, gl::INVALID_OPERATION);
                return false;
            }
        };
        let raw = self.raw;
        match self.shadow().check_range(raw, Target::PixelPack, offset as u64, bytes) {
            Ok(()) => true,
            Err(why) => {
                self.refuse(p, why);
                false
            }
        }
    }
}

/// The bytes `extent` writes under the GL's pack state now.
///
/// # Safety
/// On the render thread, `g` the table of its current context.
unsafe fn measure(g: &Gl, extent: PackExtent) -> Result<u64, Unknown> {
    // SAFETY: the caller's contract.
    let store = unsafe { crate::pixels::read_pack_store(g) };
    let sized = |image: Image| match image_bytes(&image, &store) {
        Ok(n) => Ok(n as u64),
        Err(SizeError::Overflow) => Ok(u64::MAX),
        Err(SizeError::Format) => Err(Unknown::Format(image.format, image.type_)),
    };
    match extent {
        PackExtent::Image(image) => sized(image),
        PackExtent::Level { of, level, format, type_ } => {
            // SAFETY: the caller's contract.
            let (dims, [width, height, depth]) = unsafe { level_size(g, of, level) };
            sized(Image { dims, width, height, depth, format, type_ })
        }
        PackExtent::SubImage { texture, width, height, depth, format, type_ } => {
            // SAFETY: the caller's contract.
            let target = unsafe { texture_target(g, texture) };
            let (width, height, depth) = (width as i64, height as i64, depth as i64);
            sized(Image { dims: target_dims(target), width, height, depth, format, type_ })
        }
        // SAFETY: the caller's contract.
        PackExtent::Compressed { of, level } => unsafe { compressed_size(g, of, level) },
        // SAFETY: the caller's contract.
        PackExtent::CompressedSubImage { texture, level, width, height, depth } => unsafe {
            compressed_sub_size(g, texture, level, [width, height, depth])
        },
    }
}

/// How many dimensions the GL packs a texture of `target` in: array, cube-map and 3D textures
/// as three-dimensional images (GL 4.6 §8.11.4), 1D as one row.
fn target_dims(target: GLenum) -> u8 {
    match target {
        gl::TEXTURE_1D => 1,
        gl::TEXTURE_3D | gl::TEXTURE_2D_ARRAY | gl::TEXTURE_CUBE_MAP_ARRAY | gl::TEXTURE_CUBE_MAP => 3,
        _ => 2,
    }
}

/// The target a texture was created with (0 for a name that is no texture: the query's error is
/// the one the read raises for it).
///
/// # Safety
/// As for [`measure`].
unsafe fn texture_target(g: &Gl, texture: GLuint) -> GLenum {
    let mut target: GLint = 0;
    // SAFETY: the caller's contract; one value into a local.
    unsafe { (g.GetTextureParameteriv)(texture, gl::TEXTURE_TARGET, &mut target) };
    target as GLenum
}

/// Reads level parameters of `of`'s level `level`: `query(pname)`.
///
/// # Safety
/// As for [`measure`].
unsafe fn level_parameter(g: &Gl, of: LevelOf, level: GLint, pname: GLenum) -> i64 {
    let mut v: GLint = 0;
    // SAFETY: the caller's contract; each query writes one value into a local.
    unsafe {
        match of {
            LevelOf::Bound(target) => (g.GetTexLevelParameteriv)(target, level, pname, &mut v),
            LevelOf::Texture(texture, _) => (g.GetTextureLevelParameteriv)(texture, level, pname, &mut v),
            LevelOf::Unit(unit, target) => {
                let mut active: GLint = 0;
                (g.GetIntegerv)(gl::ACTIVE_TEXTURE, &mut active);
                (g.ActiveTexture)(unit);
                (g.GetTexLevelParameteriv)(target, level, pname, &mut v);
                (g.ActiveTexture)(active as GLenum);
            }
        }
    }
    v as i64
}

/// The target `of` reads as, and whether it is a whole cube map (six faces).
///
/// # Safety
/// As for [`measure`].
unsafe fn level_target(g: &Gl, of: LevelOf) -> (GLenum, bool) {
    match of {
        LevelOf::Bound(target) | LevelOf::Unit(_, target) | LevelOf::Texture(_, Some(target)) => {
            (target, target == gl::TEXTURE_CUBE_MAP)
        }
        LevelOf::Texture(texture, None) => {
            // SAFETY: the caller's contract.
            let target = unsafe { texture_target(g, texture) };
            (target, target == gl::TEXTURE_CUBE_MAP)
        }
    }
}

/// (dimensions, [width, height, depth]) of a level, six deep for a whole cube map.
///
/// # Safety
/// As for [`measure`].
unsafe fn level_size(g: &Gl, of: LevelOf, level: GLint) -> (u8, [i64; 3]) {
    // SAFETY: the caller's contract.
    let (target, whole_cube) = unsafe { level_target(g, of) };
    // SAFETY: the caller's contract.
    let size = [gl::TEXTURE_WIDTH, gl::TEXTURE_HEIGHT, gl::TEXTURE_DEPTH]
        .map(|pname| unsafe { level_parameter(g, of, level, pname) });
    let [width, height, depth] = size;
    (target_dims(target), [width, height, if whole_cube { 6 } else { depth }])
}

/// The bytes of a compressed level under the default compressed-block pack state; an error if
/// that state is set. A level that is not compressed reads as 0 bytes (the read raises the GL's
/// `GL_INVALID_OPERATION` for it).
///
/// # Safety
/// As for [`measure`].
unsafe fn compressed_size(g: &Gl, of: LevelOf, level: GLint) -> Result<u64, Unknown> {
    let blocks = [
        gl::PACK_COMPRESSED_BLOCK_WIDTH,
        gl::PACK_COMPRESSED_BLOCK_HEIGHT,
        gl::PACK_COMPRESSED_BLOCK_DEPTH,
        gl::PACK_COMPRESSED_BLOCK_SIZE,
    ];
    let integer = |pname| {
        let mut v: GLint = 0;
        // SAFETY: the caller's contract; one value into a local.
        unsafe { (g.GetIntegerv)(pname, &mut v) };
        v
    };
    if blocks.into_iter().any(|pname| integer(pname) != 0) {
        return Err(Unknown::Blocks);
    }
    // SAFETY: the caller's contract.
    let (_, whole_cube) = unsafe { level_target(g, of) };
    // SAFETY: the caller's contract. Asking the compressed size of an uncompressed level would
    // raise an error of the query's own, so it is asked only of a compressed one.
    let compressed = unsafe { level_parameter(g, of, level, gl::TEXTURE_COMPRESSED) } != 0;
    if !compressed {
        return Ok(0);
    }
    // SAFETY: the caller's contract.
    let size = unsafe { level_parameter(g, of, level, gl::TEXTURE_COMPRESSED_IMAGE_SIZE) }.max(0) as u64;
    Ok(if whole_cube { size * 6 } else { size })
}

/// The block of a compressed format of the core profile and its common extensions (S3TC, RGTC,
/// BPTC, ETC2/EAC, ASTC): (width, height, bytes). `glGetInternalformativ`'s
/// `GL_TEXTURE_COMPRESSED_BLOCK_*` would say the same, but Mesa 22's llvmpipe answers 2 x 2 for
/// RGTC's 4 x 4 blocks, so the table is glcmd's.
fn block(format: GLenum) -> Option<(u64, u64, u64)> {
    const ASTC: [(u64, u64); 14] = [
        (4, 4),
        (5, 4),
        (5, 5),
        (6, 5),
        (6, 6),
        (8, 5),
        (8, 6),
        (8, 8),
        (10, 5),
        (10, 6),
        (10, 8),
        (10, 10),
        (12, 10),
        (12, 12),
    ];
    Some(match format {
        // S3TC DXT1 (RGB, RGBA, sRGB, sRGB alpha), RGTC1, ETC2 RGB and punch-through, EAC R11.
        0x83F0 | 0x83F1 | 0x8C4C | 0x8C4D | 0x8DBB | 0x8DBC | 0x9270 | 0x9271 | 0x9274..=0x9277 => (4, 4, 8),
        // S3TC DXT3/5 (and sRGB), RGTC2, BPTC, EAC RG11, ETC2 RGBA.
        0x83F2 | 0x83F3 | 0x8C4E | 0x8C4F | 0x8DBD | 0x8DBE | 0x8E8C..=0x8E8F | 0x9272 | 0x9273 | 0x9278 | 0x9279 => {
            (4, 4, 16)
        }
        0x93B0..=0x93BD => {
            let (w, h) = ASTC[(format - 0x93B0) as usize];
            (w, h, 16)
        }
        0x93D0..=0x93DD => {
            let (w, h) = ASTC[(format - 0x93D0) as usize];
            (w, h, 16)
        }
        _ => return None,
    })
}

/// The bytes of a `width` x `height` x `depth` compressed sub-image of `texture`'s `level`: whole
/// blocks of its format ([`block`]), under the default compressed-block pack state (an error if
/// that state is set). An uncompressed level reads as 0 bytes (the read raises the GL's error for
/// it); a compressed format glcmd does not know is an error.
///
/// # Safety
/// As for [`measure`].
unsafe fn compressed_sub_size(g: &Gl, texture: GLuint, level: GLint, size: [GLsizei; 3]) -> Result<u64, Unknown> {
    let of = LevelOf::Texture(texture, None);
    // SAFETY: the caller's contract.
    if unsafe { compressed_size(g, of, level) }? == 0 {
        return Ok(0);
    }
    // SAFETY: the caller's contract.
    let format = unsafe { level_parameter(g, of, level, gl::TEXTURE_INTERNAL_FORMAT) } as GLenum;
    let (bw, bh, bytes) = block(format).ok_or(Unknown::Compressed(format))?;
    let [w, h, d] = size.map(|n| n.max(0) as u64);
    Ok(w.div_ceil(bw) * h.div_ceil(bh) * d * bytes)
}
