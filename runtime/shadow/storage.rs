//! Ranges of a buffer's storage that a call reads or writes: `glBufferSubData`,
//! `glCopyBufferSubData`, `glClearBufferSubData`, `glInvalidateBufferSubData`, `glTexBufferRange`,
//! `glGetQueryBufferObject*`, page commitment and `glFlushMappedBufferRange` (against the mapped
//! range), in their target and named forms. The generator's table
//! (`codegen/src/shadow_hooks.rs`, `storage_ranges`) says which argument is which.
//!
//! The GL must refuse a range past the end (`GL_INVALID_VALUE`; `GL_INVALID_OPERATION` for query
//! results, GL 4.6 §4.2.3), and a driver that computes the end in wrapping arithmetic would write
//! outside its own allocation; glcmd checks the range itself, before the GL sees it, and raises the
//! GL's error (`Check::Storage`, with the query rows in `SPEC_ERRORS`). Negative offsets and sizes
//! were refused before (`check_ranges`).
//!
//! **Which buffer.** A named form checks the buffer it names; a target form the buffer bound to
//! the target: from the shadow for the targets it tracks, otherwise read with `glGetIntegerv`.
//! Where there is no buffer (nothing bound, buffer 0, a name that is no buffer object) the call
//! is left to the GL, which refuses it with its own error and touches no storage. Sizes come
//! from the shadow's cache (`GL_BUFFER_SIZE`, asked once per storage); a mapping's length is asked
//! each time (`GL_BUFFER_MAP_LENGTH`: maps come and go), and an unmapped buffer is left to the GL
//! (`GL_INVALID_OPERATION`, flushing nothing).

use crate::generated::{enums as gl, types::*, Gl};

use super::refusal::Refusal;
use super::state::Shadow;
use super::target::Target;

/// The buffer whose storage a range is in.
#[derive(Clone, Copy, Debug)]
pub enum StorageOf {
    /// The buffer bound to this target.
    Bound(GLenum),
    /// This buffer.
    Named(GLuint),
}

/// The binding pname of every buffer target of the core profile (GL 4.6 table 6.1).
fn binding_pname(target: GLenum) -> Option<GLenum> {
    Some(match target {
        gl::ARRAY_BUFFER => gl::ARRAY_BUFFER_BINDING,
        gl::ATOMIC_COUNTER_BUFFER => gl::ATOMIC_COUNTER_BUFFER_BINDING,
        gl::COPY_READ_BUFFER => gl::COPY_READ_BUFFER_BINDING,
        gl::COPY_WRITE_BUFFER => gl::COPY_WRITE_BUFFER_BINDING,
        gl::DISPATCH_INDIRECT_BUFFER => gl::DISPATCH_INDIRECT_BUFFER_BINDING,
        gl::DRAW_INDIRECT_BUFFER => gl::DRAW_INDIRECT_BUFFER_BINDING,
        gl::ELEMENT_ARRAY_BUFFER => gl::ELEMENT_ARRAY_BUFFER_BINDING,
        gl::PARAMETER_BUFFER => gl::PARAMETER_BUFFER_BINDING,
        gl::PIXEL_PACK_BUFFER => gl::PIXEL_PACK_BUFFER_BINDING,
        gl::PIXEL_UNPACK_BUFFER => gl::PIXEL_UNPACK_BUFFER_BINDING,
        gl::QUERY_BUFFER => gl::QUERY_BUFFER_BINDING,
        gl::SHADER_STORAGE_BUFFER => gl::SHADER_STORAGE_BUFFER_BINDING,
        gl::TEXTURE_BUFFER => gl::TEXTURE_BUFFER_BINDING,
        gl::TRANSFORM_FEEDBACK_BUFFER => gl::TRANSFORM_FEEDBACK_BUFFER_BINDING,
        gl::UNIFORM_BUFFER => gl::UNIFORM_BUFFER_BINDING,
        _ => return None,
    })
}

impl Shadow {
    /// Before a call that reads or writes `len` bytes at `offset` of `of`'s storage (of its
    /// mapping if `mapped`): the range lies inside it. Offset and length are not negative
    /// (`check_ranges` ran first).
    pub fn check_storage(
        &mut self,
        gl_fns: &Gl,
        of: StorageOf,
        offset: i64,
        len: i64,
        mapped: bool,
    ) -> Result<(), Refusal> {
        let buffer = match of {
            StorageOf::Named(buffer) => buffer,
            StorageOf::Bound(target) => self.bound_to(gl_fns, target),
        };
        if buffer == 0 {
            return Ok(());
        }
        let size = if mapped {
            match map_length(gl_fns, buffer) {
                Some(size) => size,
                None => return Ok(()),
            }
        } else {
            match self.named_size(gl_fns, buffer) {
                Some(size) => size,
                None => return Ok(()),
            }
        };
        let (offset, len) = (offset.max(0) as u64, len.max(0) as u64);
        match offset.checked_add(len) {
            Some(end) if end <= size => Ok(()),
            _ => Err(Refusal::Storage { buffer, offset, len, size, mapped }),
        }
    }

    /// The buffer bound to `target` (0 for none, or a target that is none).
    fn bound_to(&self, gl_fns: &Gl, target: GLenum) -> GLuint {
        if let Some(t) = Target::from_gl(target).filter(|&t| t != Target::ElementArray) {
            if self.unsupported & 1 << t.slot() == 0 {
                return self.bound(t);
            }
        }
        let Some(pname) = binding_pname(target) else { return 0 };
        let mut v: GLint = 0;
        // SAFETY: a single-integer query of a binding the core profile has.
        unsafe { (gl_fns.GetIntegerv)(pname, &mut v) };
        v as GLuint
    }

    /// The storage size of buffer object `buffer`, or `None` for a name that is no buffer object.
    fn named_size(&mut self, gl_fns: &Gl, buffer: GLuint) -> Option<u64> {
        if let Some(&size) = self.sizes.get(&buffer) {
            return Some(size);
        }
        // SAFETY: glIsBuffer takes any name; the size is asked only of a buffer object, so the
        // query raises no error of its own.
        if unsafe { (gl_fns.IsBuffer)(buffer) } == 0 {
            return None;
        }
        let mut size: GLint64 = 0;
        // SAFETY: as above; one value into a local.
        unsafe { (gl_fns.GetNamedBufferParameteri64v)(buffer, gl::BUFFER_SIZE, &mut size) };
        let size = size.max(0) as u64;
        self.sizes.insert(buffer, size);
        Some(size)
    }
}

/// The length of `buffer`'s mapping, or `None` when it is no buffer object or not mapped.
fn map_length(gl_fns: &Gl, buffer: GLuint) -> Option<u64> {
    let (mut mapped, mut length): (GLint, GLint64) = (0, 0);
    // SAFETY: glIsBuffer takes any name; the queries run only on a buffer object, one value each
    // into a local.
    unsafe {
        if (gl_fns.IsBuffer)(buffer) == 0 {
            return None;
        }
        (gl_fns.GetNamedBufferParameteriv)(buffer, gl::BUFFER_MAPPED, &mut mapped);
        if mapped == 0 {
            return None;
        }
        (gl_fns.GetNamedBufferParameteri64v)(buffer, gl::BUFFER_MAP_LENGTH, &mut length);
    }
    Some(length.max(0) as u64)
}
