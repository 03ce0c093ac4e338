//! The range of an indexed buffer binding (`glBindBufferRange`, `glTransformFeedbackBufferRange`),
//! refused in the GL's order of checks (issue 34, item 4).
//!
//! glcmd refuses a negative offset or size and an offset + size that overflows
//! (`guards::check_ranges`): a driver computes the end without checking and reads past the
//! buffer when the binding is used. Such a call is refused for glcmd's safety, so the program
//! must see the error the GL raises for it, and the GL checks other things first. Mesa 22's
//! `bind_buffer_range` looks the buffer up before anything else (a name never generated is
//! `GL_INVALID_OPERATION` in a core profile; a compatibility profile creates the object), then
//! refuses a size of 0 or less (`GL_INVALID_VALUE`), then the target (`GL_INVALID_ENUM`), then,
//! for `GL_TRANSFORM_FEEDBACK_BUFFER`, a binding changed while transform feedback is active
//! (`GL_INVALID_OPERATION`), and only then the index, the alignment and the sign of the offset
//! (all `GL_INVALID_VALUE`, glcmd's error too). `_mesa_TransformFeedbackBufferRange` looks up the
//! object and the buffer (the generated name checks, which come first) and then refuses an
//! active object before the range. So on the way to a refusal these checks are made first, each
//! with the GL's error; the state they need (an active transform feedback) is asked of the GL
//! only then.
//!
//! `glBindBuffersRange` refuses a bad entry alone, after the call's target and `first + count`
//! (the generated checks) and before the entry's alignment and buffer: such an entry reaches
//! the GL as one it refuses in the same place ([`multi_bind_ranges`]).
//!
//! A `glBindBufferRange` of buffer 0 is not refused at all: the GL ignores the offset and size
//! when it unbinds (GL 4.6 §6.1.1; Mesa stores -1 for both), so nothing of them can be read,
//! and the GL makes its own checks of the call (Mesa refuses an offset that is not a multiple of
//! the target's alignment, even there).

use crate::generated::{enums as gl, types::*, Gl};
use crate::vocab::Class;

use super::guards::{check_enum, check_ranges};
use super::refusal::Refusal;
use super::state::Shadow;

/// The targets `glBindBufferRange` accepts.
const INDEXED_TARGETS: [GLenum; 4] =
    [gl::ATOMIC_COUNTER_BUFFER, gl::SHADER_STORAGE_BUFFER, gl::TRANSFORM_FEEDBACK_BUFFER, gl::UNIFORM_BUFFER];

impl Shadow {
    /// Before `glBindBufferRange(target, index, buffer, offset, size)`: the range check, after
    /// the GL's earlier checks (the module doc).
    pub fn check_bind_buffer_range(
        &mut self,
        gl_fns: &Gl,
        target: GLenum,
        buffer: GLuint,
        offset: i64,
        size: i64,
    ) -> Result<(), Refusal> {
        if buffer == 0 {
            return Ok(());
        }
        let Err(range) = check_ranges(&[offset, size]) else { return Ok(()) };
        if self.core {
            self.check_name(gl_fns, Class::Buffer, buffer, false)?;
        }
        if size <= 0 {
            return Err(Refusal::Range { value: size });
        }
        let names =
            "GL_ATOMIC_COUNTER_BUFFER, GL_SHADER_STORAGE_BUFFER, GL_TRANSFORM_FEEDBACK_BUFFER, GL_UNIFORM_BUFFER";
        check_enum("target", target, &INDEXED_TARGETS, names)?;
        if target == gl::TRANSFORM_FEEDBACK_BUFFER {
            feedback_inactive(gl_fns, None)?;
        }
        Err(range)
    }

    /// Before `glTransformFeedbackBufferRange(xfb, index, buffer, offset, size)`, after the
    /// checks of its names: the range check, after the GL's check that `xfb` is not active.
    pub fn check_feedback_buffer_range(
        &mut self,
        gl_fns: &Gl,
        xfb: GLuint,
        offset: i64,
        size: i64,
    ) -> Result<(), Refusal> {
        let Err(range) = check_ranges(&[offset, size]) else { return Ok(()) };
        feedback_inactive(gl_fns, Some(xfb))?;
        Err(range)
    }
}

/// The GL's `GL_INVALID_OPERATION` for a transform feedback buffer range changed while the
/// object (`None`: the bound one; `Some`: an object the name checks found) is active.
#[cold]
fn feedback_inactive(gl_fns: &Gl, xfb: Option<GLuint>) -> Result<(), Refusal> {
    let mut active: GLint = 0;
    // SAFETY: one value into a local; the bound object, or an object that exists.
    unsafe {
        match xfb {
            None => (gl_fns.GetIntegerv)(gl::TRANSFORM_FEEDBACK_ACTIVE, &mut active),
            Some(xfb) => (gl_fns.GetTransformFeedbackiv)(xfb, gl::TRANSFORM_FEEDBACK_ACTIVE, &mut active),
        }
    }
    if active == 0 {
        return Ok(());
    }
    Err(Refusal::Earlier {
        argument: "GL_TRANSFORM_FEEDBACK_ACTIVE",
        value: active as i64,
        accepted: "GL_FALSE (a binding of a transform feedback object cannot change while it is active)",
        error: gl::INVALID_OPERATION,
    })
}

/// Before `glBindBuffersRange(target, first, count, buffers, offsets, sizes)`: the entries glcmd
/// refuses in `glBindBufferRange` (a negative offset or size, a buffer's offset + size that
/// overflows) must not reach the driver either. The GL refuses a bad entry alone (GL 4.6 §7.9:
/// the other bindings are made) with `GL_INVALID_VALUE`, checking its offset and size (offset
/// < 0, size <= 0: Mesa's `bind_buffers_check_offset_and_size`, for every target) before its
/// alignment and its buffer. So such an entry reaches the GL as offset 0 and size 0, which the
/// GL refuses in the same place with the same error, and the other entries as they are. With
/// no `buffers` the GL ignores offsets and sizes; with nothing to change the recorded arrays
/// are used (`None`). Returns the offsets followed by the sizes.
///
/// # Safety
/// `buffers` is null or points to `count` values; `offsets` and `sizes` point to `count` values.
pub unsafe fn multi_bind_ranges(
    count: GLsizei,
    buffers: *const GLuint,
    offsets: *const GLintptr,
    sizes: *const GLsizeiptr,
) -> Option<Vec<GLintptr>> {
    if buffers.is_null() || count <= 0 {
        return None;
    }
    let n = count as usize;
    // SAFETY: the caller's guarantee.
    let (buffers, offsets, sizes) = unsafe {
        (
            std::slice::from_raw_parts(buffers, n),
            std::slice::from_raw_parts(offsets, n),
            std::slice::from_raw_parts(sizes, n),
        )
    };
    let bad = |i: usize| {
        let (o, s) = (offsets[i] as i64, sizes[i] as i64);
        o < 0 || s < 0 || (buffers[i] != 0 && o.checked_add(s).is_none())
    };
    if !(0..n).any(bad) {
        return None;
    }
    let mut out: Vec<GLintptr> = offsets.iter().copied().chain(sizes.iter().copied()).collect();
    for i in (0..n).filter(|&i| bad(i)) {
        out[i] = 0;
        out[n + i] = 0;
    }
    Some(out)
}
