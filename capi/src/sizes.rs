//! Outputs whose length the GL derives from state: measured on the render thread, in the same
//! round trip as the query, so nothing can change the state in between.
//!
//! | query | length | from |
//! | --- | --- | --- |
//! | `glGetCompressedTexImage` | the level's compressed size | `glGetTexLevelParameteriv` (a pack state with compressed-block parameters set is refused) |
//! | `glGetUniform*v` | the uniform's components | its type at that location (program interface query) |
//!
//! The sizes are exact (read from the GL in the same round trip); the Rust query then reads into
//! a buffer of that size (it unbinds a pixel-pack buffer for the call, so the pointer is client
//! memory, as the C caller meant: a read into a pack buffer is recorded instead, see
//! `pixels.rs`). A uniform is read into room for 16 values, the most any uniform type has, and
//! its own count of them is returned; where glcmd finds no uniform (no program, no active
//! uniform at the location), the GL is asked all the same, so that its error answers the call
//! in its order of checks (issue 30 item 4), and nothing is copied out. `glReadPixels` and `glGetTexImage` need nothing from here:
//! their Rust queries size themselves from the GL's pack state (the runtime's `pixels.rs`, one
//! implementation for both).

use glcmd::generated::types::{GLenum, GLint, GLsizei, GLuint};
use glcmd::{gl, Device, Gl};

use crate::error::CallError;

/// What to measure.
#[derive(Clone, Copy, Debug)]
pub enum Size {
    CompressedLevel { target: GLenum, level: GLint },
    Uniform { program: GLuint, location: GLint },
}

/// The most values a uniform has (a `dmat4`).
const UNIFORM_MAX: usize = 16;

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

/// # Safety
/// As for [`integer`].
unsafe fn level_parameter(g: &Gl, target: GLenum, level: GLint, pname: GLenum) -> i64 {
    let mut v: GLint = 0;
    // SAFETY: one value into a local.
    unsafe { (g.GetTexLevelParameteriv)(target, level, pname, &mut v) };
    v as i64
}

/// Components of a uniform of GL type `t`: vectors and matrices by their shape, everything else
/// (samplers, images, atomic counters: all scalars) one.
fn components(t: GLenum) -> usize {
    const INT64_ARB: GLenum = 0x140E;
    const UNSIGNED_INT64_ARB: GLenum = 0x140F;
    const INT64_VEC2_ARB: GLenum = 0x8FE9;
    const INT64_VEC3_ARB: GLenum = 0x8FEA;
    const INT64_VEC4_ARB: GLenum = 0x8FEB;
    const UNSIGNED_INT64_VEC2_ARB: GLenum = 0x8FF5;
    const UNSIGNED_INT64_VEC3_ARB: GLenum = 0x8FF6;
    const UNSIGNED_INT64_VEC4_ARB: GLenum = 0x8FF7;
    match t {
        gl::FLOAT_VEC2 | gl::DOUBLE_VEC2 | gl::INT_VEC2 | gl::UNSIGNED_INT_VEC2 | gl::BOOL_VEC2 => 2,
        INT64_VEC2_ARB | UNSIGNED_INT64_VEC2_ARB => 2,
        gl::FLOAT_VEC3 | gl::DOUBLE_VEC3 | gl::INT_VEC3 | gl::UNSIGNED_INT_VEC3 | gl::BOOL_VEC3 => 3,
        INT64_VEC3_ARB | UNSIGNED_INT64_VEC3_ARB => 3,
        gl::FLOAT_VEC4 | gl::DOUBLE_VEC4 | gl::INT_VEC4 | gl::UNSIGNED_INT_VEC4 | gl::BOOL_VEC4 => 4,
        INT64_VEC4_ARB | UNSIGNED_INT64_VEC4_ARB => 4,
        gl::FLOAT_MAT2 | gl::DOUBLE_MAT2 => 4,
        gl::FLOAT_MAT2x3 | gl::FLOAT_MAT3x2 | gl::DOUBLE_MAT2x3 | gl::DOUBLE_MAT3x2 => 6,
        gl::FLOAT_MAT2x4 | gl::FLOAT_MAT4x2 | gl::DOUBLE_MAT2x4 | gl::DOUBLE_MAT4x2 => 8,
        gl::FLOAT_MAT3 | gl::DOUBLE_MAT3 => 9,
        gl::FLOAT_MAT3x4 | gl::FLOAT_MAT4x3 | gl::DOUBLE_MAT3x4 | gl::DOUBLE_MAT4x3 => 12,
        gl::FLOAT_MAT4 | gl::DOUBLE_MAT4 => 16,
        INT64_ARB | UNSIGNED_INT64_ARB => 1,
        _ => 1,
    }
}

impl Size {
    /// (values to allocate, values the GL writes).
    ///
    /// # Safety
    /// On the render thread, `g` the table of its current context.
    unsafe fn measure(self, f: &str, g: &Gl) -> Result<(usize, usize), CallError> {
        let exact = |n: usize| Ok((n, n));
        match self {
            Size::CompressedLevel { target, level } => {
                // SAFETY: the caller's contract.
                let blocks = unsafe {
                    [
                        gl::PACK_COMPRESSED_BLOCK_WIDTH,
                        gl::PACK_COMPRESSED_BLOCK_HEIGHT,
                        gl::PACK_COMPRESSED_BLOCK_DEPTH,
                        gl::PACK_COMPRESSED_BLOCK_SIZE,
                    ]
                    .map(|p| integer(g, p))
                };
                if blocks.iter().any(|&b| b != 0) {
                    return Err(CallError::unsupported(
                        f,
                        "with GL_PACK_COMPRESSED_BLOCK_* set, the bytes written depend on the block layout; use \
                         glGetCompressedTextureImage, which takes the buffer size",
                    ));
                }
                // SAFETY: the caller's contract.
                let size = unsafe { level_parameter(g, target, level, gl::TEXTURE_COMPRESSED_IMAGE_SIZE) };
                exact(size.max(0) as usize)
            }
            Size::Uniform { program, location } => {
                // A name that is no program, or a location of no uniform: the GL answers (its
                // error, in its order of checks; it writes nothing then) into room for the
                // largest uniform, and nothing is copied out. Measured only on a program, so
                // the measuring raises no error of its own.
                // SAFETY: the caller's contract; glIsProgram takes any name.
                if unsafe { (g.IsProgram)(program) } == 0 {
                    return Ok((UNIFORM_MAX, 0));
                }
                let mut count: GLint = 0;
                // SAFETY: the caller's contract; one value into a local.
                unsafe { (g.GetProgramInterfaceiv)(program, gl::UNIFORM, gl::ACTIVE_RESOURCES, &mut count) };
                let props = [gl::LOCATION, gl::ARRAY_SIZE, gl::TYPE];
                for index in 0..count.max(0) as GLuint {
                    let mut values: [GLint; 3] = [-1, 0, 0];
                    let mut length: GLsizei = 0;
                    // SAFETY: three single-value properties into a local of three.
                    unsafe {
                        (g.GetProgramResourceiv)(
                            program,
                            gl::UNIFORM,
                            index,
                            3,
                            props.as_ptr(),
                            3,
                            &mut length,
                            values.as_mut_ptr(),
                        )
                    };
                    let [first, size, t] = values;
                    if length == 3
                        && first >= 0
                        && location >= first
                        && (location as i64) < first as i64 + size.max(1) as i64
                    {
                        return Ok((UNIFORM_MAX, components(t as GLenum)));
                    }
                }
                Ok((UNIFORM_MAX, 0))
            }
        }
    }
}

/// Measures `size` and calls `call` with the length, on the render thread, in one round trip;
/// returns as many values as the GL wrote.
pub fn sized<E: Send + 'static>(
    f: &'static str,
    device: &Device,
    size: Size,
    call: impl FnOnce(&Device, usize) -> Result<Vec<E>, glcmd::Error> + Send + 'static,
) -> Result<Vec<E>, CallError> {
    let d = device.clone();
    let result = device.with_gl(move |g| -> Result<Vec<E>, CallError> {
        // SAFETY: `with_gl` runs this on the render thread, with `g` its current context's table.
        let (alloc, written) = unsafe { size.measure(f, g)? };
        // On the render thread the query runs at once, in this round trip.
        let mut v = call(&d, alloc).map_err(|e| CallError::from_glcmd(f, e))?;
        v.truncate(written);
        Ok(v)
    });
    match result {
        Ok(r) => r,
        Err(e) => Err(CallError::from_glcmd(f, e)),
    }
}
