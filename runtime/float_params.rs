//! NaN in a float texture, sampler or point parameter (`glTexParameterf{,v}`,
//! `glTextureParameterf{,v}`, `glSamplerParameterf{,v}`, `glPointParameterf{,v}`), answered as
//! the GL answers it (issue 34, item 4).
//!
//! glcmd must not hand a driver NaN for state it range-checks: the comparisons pass (`NaN < 1.0`
//! is false) and the NaN stays in the state (NVIDIA's driver crashed at the next draw after a NaN
//! `GL_TEXTURE_MAX_ANISOTROPY`, `tests/capture.rs`). Refusing every such call with glcmd's
//! `GL_INVALID_VALUE` gave the program another error than the GL's, and one before the GL's own
//! checks (a target, a texture the call cannot change, a pname). What Mesa 22 does with NaN
//! decides, per pname (`texparam.c`, `samplerobj.c`):
//!
//! * an integer-valued pname (filters, wraps, levels, compare mode, swizzles, ...) is converted
//!   to an integer first, and NaN converts to `INT_MIN` (x86's conversion of a value with no
//!   integer): the value is replaced by -2^31, which converts to the same integer, so the GL
//!   makes every check of the call and raises what it raises for NaN (`GL_INVALID_ENUM` for an
//!   enum, `GL_INVALID_VALUE` for a level), with no NaN reaching it;
//! * `GL_TEXTURE_MAX_ANISOTROPY`: NaN passes the `< 1.0` check and is clamped to the maximum
//!   (`MIN2(NaN, max)` is `max`), with no error: the value is replaced by
//!   `GL_MAX_TEXTURE_MAX_ANISOTROPY`, which the GL treats the same way;
//! * `GL_TEXTURE_BORDER_COLOR` is a colour, data like a clear colour, where NaN is legal: it
//!   reaches the GL as it is;
//! * every other pname (`GL_TEXTURE_MIN_LOD`, `GL_TEXTURE_MAX_LOD`, `GL_TEXTURE_LOD_BIAS`, which
//!   Mesa stores as NaN and drivers convert to fixed point; a pname the GL refuses) is refused
//!   by glcmd, after the GL's own checks: the GL's current value of the pname is asked, and the
//!   call is made with it (a call the GL accepts then changes nothing). If the GL refuses the
//!   question or that call, its error is the program's and the call is done; if it accepts both,
//!   glcmd refuses the call with its `GL_INVALID_VALUE` (GL 4.6 §2.3.4.1 leaves NaN unspecified;
//!   Mesa would store it).
//!
//! A point parameter has no object and one check before its value: the pname. One the GL does
//! not know is its `GL_INVALID_ENUM`; for every other, glcmd refuses the NaN (the GL's checks
//! of the value raise `GL_INVALID_VALUE` or nothing, and Mesa would keep a NaN size).
//!
//! The errors pending before are kept for the program, in their order (moved to `raised`, as
//! `delete_effects.rs` does), and the question's own errors are glcmd's and dropped. Only a
//! call with NaN takes this path; any other reaches the GL untouched.

use crate::generated::{enums as gl, types::*, Gl};
use crate::shadow::Refusal;

/// The object whose parameter a call sets.
#[derive(Clone, Copy, Debug)]
pub enum ParamOf {
    /// The texture bound to `target` of the active unit (`glTexParameterf{,v}`).
    Bound(GLenum),
    /// A texture by name (`glTextureParameterf{,v}`).
    Texture(GLuint),
    /// A sampler by name (`glSamplerParameterf{,v}`).
    Sampler(GLuint),
    /// The context's point parameters (`glPointParameterf{,v}`).
    Point,
}

/// What the execute function does with a float parameter call.
#[derive(Clone, Copy, Debug)]
pub enum FloatParameter {
    /// Call the GL with the recorded values (no NaN, or a colour).
    Call,
    /// Call the GL with these values instead (as many as the recorded call has, at most 4).
    Substitute([f32; 4]),
    /// Nothing more: the GL refused the call (its error is the program's), or glcmd did.
    Done,
}

/// `GL_GENERATE_MIPMAP` and `GL_DEPTH_TEXTURE_MODE` (compatibility profile, not in glcorearb.h).
const GENERATE_MIPMAP: GLenum = 0x8191;
const DEPTH_TEXTURE_MODE: GLenum = 0x884B;

/// The pnames the GL converts to integers before it checks them.
const INTEGER_PNAMES: [GLenum; 20] = [
    gl::TEXTURE_MIN_FILTER,
    gl::TEXTURE_MAG_FILTER,
    gl::TEXTURE_WRAP_S,
    gl::TEXTURE_WRAP_T,
    gl::TEXTURE_WRAP_R,
    gl::TEXTURE_BASE_LEVEL,
    gl::TEXTURE_MAX_LEVEL,
    gl::TEXTURE_COMPARE_MODE,
    gl::TEXTURE_COMPARE_FUNC,
    gl::DEPTH_STENCIL_TEXTURE_MODE,
    gl::TEXTURE_SRGB_DECODE_EXT,
    gl::TEXTURE_REDUCTION_MODE_ARB,
    gl::TEXTURE_CUBE_MAP_SEAMLESS,
    gl::TEXTURE_SWIZZLE_R,
    gl::TEXTURE_SWIZZLE_G,
    gl::TEXTURE_SWIZZLE_B,
    gl::TEXTURE_SWIZZLE_A,
    gl::TEXTURE_SWIZZLE_RGBA,
    gl::TEXTURE_SPARSE_ARB,
    gl::VIRTUAL_PAGE_SIZE_INDEX_ARB,
];

/// A call of `of`'s parameter `pname` with `values`, at least one of them NaN (the module doc).
/// `raw` asks the GL's own state; `gl` makes the program's call with the GL's current value.
pub(crate) fn with_nan(
    raw: &Gl,
    gl_fns: &Gl,
    raised: &mut Vec<GLenum>,
    of: ParamOf,
    pname: GLenum,
    values: &[f32],
) -> Result<FloatParameter, Refusal> {
    let substitute = |by: f32| {
        let mut v = [0.0f32; 4];
        for (out, &x) in v.iter_mut().zip(values) {
            *out = if x.is_nan() { by } else { x };
        }
        v
    };
    if let ParamOf::Point = of {
        return point_parameter(pname);
    }
    if pname == gl::TEXTURE_BORDER_COLOR {
        return Ok(FloatParameter::Call);
    }
    if values.len() <= 4 && (INTEGER_PNAMES.contains(&pname) || matches!(pname, GENERATE_MIPMAP | DEPTH_TEXTURE_MODE)) {
        return Ok(FloatParameter::Substitute(substitute(i32::MIN as f32)));
    }
    keep_pending(raw, raised);
    if pname == gl::TEXTURE_MAX_ANISOTROPY && values.len() == 1 {
        let mut max: GLfloat = 1.0;
        // SAFETY: one value into a local (a context without the limit raises an error, dropped
        // below, and its GL refuses the pname too).
        unsafe { (raw.GetFloatv)(gl::MAX_TEXTURE_MAX_ANISOTROPY, &mut max) };
        drop_errors(raw);
        return Ok(FloatParameter::Substitute(substitute(max)));
    }
    // The GL's current value: a question the GL refuses for the same reasons as the call.
    let mut current = [0.0f32; 16];
    // SAFETY: the GL writes at most 4 values of a texture or sampler parameter; 16 are there.
    unsafe {
        match of {
            ParamOf::Bound(target) => (raw.GetTexParameterfv)(target, pname, current.as_mut_ptr()),
            ParamOf::Texture(texture) => (raw.GetTextureParameterfv)(texture, pname, current.as_mut_ptr()),
            ParamOf::Sampler(sampler) => (raw.GetSamplerParameterfv)(sampler, pname, current.as_mut_ptr()),
            ParamOf::Point => unreachable!("point parameters are answered above"),
        }
    }
    // SAFETY: no arguments.
    let asked = unsafe { (raw.GetError)() };
    if asked != gl::NO_ERROR {
        drop_errors(raw);
        raise(raised, asked);
        return Ok(FloatParameter::Done);
    }
    // The program's call with the current value: the GL's checks, and no change if it accepts.
    let _region = crate::arguments::region(current.as_ptr(), std::mem::size_of_val(&current));
    // SAFETY: `current` holds 16 values, more than any parameter takes.
    unsafe {
        match (of, values.len()) {
            (ParamOf::Bound(target), 1) => (gl_fns.TexParameterf)(target, pname, current[0]),
            (ParamOf::Bound(target), _) => (gl_fns.TexParameterfv)(target, pname, current.as_ptr()),
            (ParamOf::Texture(texture), 1) => (gl_fns.TextureParameterf)(texture, pname, current[0]),
            (ParamOf::Texture(texture), _) => (gl_fns.TextureParameterfv)(texture, pname, current.as_ptr()),
            (ParamOf::Sampler(sampler), 1) => (gl_fns.SamplerParameterf)(sampler, pname, current[0]),
            (ParamOf::Sampler(sampler), _) => (gl_fns.SamplerParameterfv)(sampler, pname, current.as_ptr()),
            (ParamOf::Point, _) => unreachable!("point parameters are answered above"),
        }
    }
    // SAFETY: no arguments.
    let refused = unsafe { (raw.GetError)() };
    drop_errors(raw);
    if refused != gl::NO_ERROR {
        raise(raised, refused);
        return Ok(FloatParameter::Done);
    }
    let argument = if values.len() == 1 { "param" } else { "params" };
    Err(Refusal::NotANumber { argument })
}

/// `GL_POINT_SIZE_MIN`, `GL_POINT_SIZE_MAX` and `GL_POINT_DISTANCE_ATTENUATION` (Mesa takes
/// them in a core profile too; not in glcorearb.h).
const POINT_PNAMES: [GLenum; 5] =
    [0x8126, 0x8127, 0x8129, gl::POINT_FADE_THRESHOLD_SIZE, gl::POINT_SPRITE_COORD_ORIGIN];

/// NaN in a point parameter: the GL checks the pname first (`GL_INVALID_ENUM`), then the value,
/// which for every pname it takes is the refusal's `GL_INVALID_VALUE` or none (Mesa keeps a NaN
/// size or threshold): so glcmd refuses with the error of the first check that fails, and the
/// GL is not asked.
fn point_parameter(pname: GLenum) -> Result<FloatParameter, Refusal> {
    if POINT_PNAMES.contains(&pname) {
        return Err(Refusal::NotANumber { argument: "params" });
    }
    let accepted = "GL_POINT_SIZE_MIN, GL_POINT_SIZE_MAX, GL_POINT_DISTANCE_ATTENUATION, \
                    GL_POINT_FADE_THRESHOLD_SIZE, GL_POINT_SPRITE_COORD_ORIGIN";
    Err(Refusal::Earlier { argument: "pname", value: pname as i64, accepted, error: gl::INVALID_ENUM })
}

/// Moves the GL's pending errors to `raised`, in their order: they are the program's.
fn keep_pending(raw: &Gl, raised: &mut Vec<GLenum>) {
    for _ in 0..8 {
        // SAFETY: no arguments.
        let e = unsafe { (raw.GetError)() };
        if e == gl::NO_ERROR {
            break;
        }
        raise(raised, e);
    }
}

/// Drops the errors glcmd's own calls raised.
fn drop_errors(raw: &Gl) {
    // SAFETY: no arguments.
    for _ in 0..8 {
        if unsafe { (raw.GetError)() } == gl::NO_ERROR {
            break;
        }
    }
}

fn raise(raised: &mut Vec<GLenum>, e: GLenum) {
    crate::vocab::check::record_error(raised, e);
}
