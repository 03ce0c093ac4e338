//! Stateless checks of arguments that drivers mishandle: buffer ranges whose sum wraps, NaN in
//! range-checked float state, `first + count` past 2^32, texture levels a texture cannot have,
//! AMD's pinned-memory target. The generated execute functions call them before the GL call.

use crate::generated::{enums as gl, types::*, Gl};

use super::refusal::Refusal;
use crate::vocab::params::first_bad_range;

/// Before a call with buffer offsets and sizes: the rule of
/// [`first_bad_range`](crate::vocab::params::first_bad_range).
pub fn check_ranges(values: &[i64]) -> Result<(), Refusal> {
    match first_bad_range(values.iter().copied()) {
        Some(i) => Err(Refusal::Range { value: values[i] }),
        None => Ok(()),
    }
}

/// Before `glInvalidateTexSubImage`: `level` is one the texture can have. Mesa 22 reports a
/// failed check of its own (a level past `GL_TEXTURE_MAX_LEVEL`, a non-zero level of a
/// rectangle, buffer or multisample texture) and then reads `t->Image[0][level]` from the null
/// object it rejected; and a level that passes its check but not the spec's (at most the base 2
/// logarithm of `GL_MAX_TEXTURE_SIZE`) indexes past its array of levels. So the level must be
/// within all three.
pub fn check_texture_level(gl_fns: &Gl, texture: GLuint, level: GLint) -> Result<(), Refusal> {
    let (mut max, mut target, mut size) = (-1, 0, 0);
    // SAFETY: glIsTexture takes any name; the single-integer queries run only on a texture that
    // exists and has a target (so they raise no error of their own).
    unsafe {
        if (gl_fns.IsTexture)(texture) != 0 {
            (gl_fns.GetTextureParameteriv)(texture, gl::TEXTURE_MAX_LEVEL, &mut max);
            (gl_fns.GetTextureParameteriv)(texture, gl::TEXTURE_TARGET, &mut target);
            (gl_fns.GetIntegerv)(gl::MAX_TEXTURE_SIZE, &mut size);
        }
    }
    let single = matches!(
        target as GLenum,
        gl::TEXTURE_RECTANGLE | gl::TEXTURE_BUFFER | gl::TEXTURE_2D_MULTISAMPLE | gl::TEXTURE_2D_MULTISAMPLE_ARRAY
    );
    let spec = if size > 0 { (size as u32).ilog2() as GLint } else { 0 };
    let max = if single { max.min(0) } else { max.min(spec) };
    if (0..=max).contains(&level) {
        Ok(())
    } else {
        Err(Refusal::Level { texture, level, max })
    }
}

/// Before a call that sets range-checked float state: no NaN among `values`.
pub fn check_not_nan(values: &[f64], argument: &'static str) -> Result<(), Refusal> {
    if values.iter().any(|v| v.is_nan()) {
        Err(Refusal::NotANumber { argument })
    } else {
        Ok(())
    }
}

/// [`check_not_nan`] over an array argument (`f32` or `f64`).
pub fn check_not_nan_slice<T: Copy + Into<f64>>(values: &[T], argument: &'static str) -> Result<(), Refusal> {
    if values.iter().any(|&v| v.into().is_nan()) {
        Err(Refusal::NotANumber { argument })
    } else {
        Ok(())
    }
}

/// Before a call on bindings `first..first + count` (multi-binds, viewport and scissor arrays):
/// the range must not run past 2^32. Mesa checks `first + count > limit` in unsigned 32-bit
/// arithmetic, so a sum that wraps passes its check and it indexes past its arrays.
pub fn check_first_count(first: u32, count: i64) -> Result<(), Refusal> {
    if count > 0 && first as i64 + count > u32::MAX as i64 {
        Err(Refusal::Wraps { first, count })
    } else {
        Ok(())
    }
}

/// Before glcmd's own checks of a call whose `argument` must be one of `accepted` (`names`
/// spells them): a value the GL refuses with `GL_INVALID_ENUM` before anything glcmd checks
/// (Mesa's `glTexBufferRange` checks its target first of all) is refused with that error, so a
/// later check of glcmd's cannot raise another one.
pub fn check_enum(
    argument: &'static str,
    value: GLenum,
    accepted: &[GLenum],
    names: &'static str,
) -> Result<(), Refusal> {
    if accepted.contains(&value) {
        Ok(())
    } else {
        Err(Refusal::Earlier { argument, value: value as i64, accepted: names, error: gl::INVALID_ENUM })
    }
}

/// A draw refused for its vertex array or buffers (`why`): the GL checks the draw framebuffer's
/// completeness first, so an incomplete one is the refusal instead (its
/// `GL_INVALID_FRAMEBUFFER_OPERATION`). Asked of the GL only on the way to a refusal.
#[cold]
pub fn framebuffer_first(gl_fns: &Gl, why: Refusal) -> Refusal {
    // SAFETY: a status query of the current draw framebuffer.
    let status = unsafe { (gl_fns.CheckFramebufferStatus)(gl::DRAW_FRAMEBUFFER) };
    if status == gl::FRAMEBUFFER_COMPLETE {
        why
    } else {
        Refusal::Framebuffer { status, then: Box::new(why) }
    }
}

/// `GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD` (AMD_pinned_memory, not in glcorearb.h).
pub(super) const EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD: GLenum = 0x9160;

/// Refuses `glBufferData`/`glBufferStorage` on AMD_pinned_memory's target: the driver would keep
/// the data pointer (the list's parameter buffer, reused after replay) as the buffer's storage.
pub fn check_not_pinned(target: GLenum) -> Result<(), Refusal> {
    if target == EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD {
        Err(Refusal::PinnedMemory)
    } else {
        Ok(())
    }
}
