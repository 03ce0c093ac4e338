//! The buffer targets whose bindings the shadow tracks, and reading one back from the GL: the
//! ground floor of the shadow, which every other room of it names.

use crate::generated::{enums as gl, types::*, Gl};

/// Attributes and binding points tracked per vertex array (the GL's limits are at most this on
/// every implementation glcmd knows; indices at or past the context's own limit are refused by
/// the GL and change nothing).
pub const MAX_ATTRIBS: usize = 32;

/// A buffer target whose binding the shadow tracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Array,
    ElementArray,
    PixelPack,
    PixelUnpack,
    DrawIndirect,
    DispatchIndirect,
    Parameter,
    Query,
}

impl Target {
    pub fn from_gl(target: GLenum) -> Option<Target> {
        Some(match target {
            gl::ARRAY_BUFFER => Target::Array,
            gl::ELEMENT_ARRAY_BUFFER => Target::ElementArray,
            gl::PIXEL_PACK_BUFFER => Target::PixelPack,
            gl::PIXEL_UNPACK_BUFFER => Target::PixelUnpack,
            gl::DRAW_INDIRECT_BUFFER => Target::DrawIndirect,
            gl::DISPATCH_INDIRECT_BUFFER => Target::DispatchIndirect,
            gl::PARAMETER_BUFFER => Target::Parameter,
            gl::QUERY_BUFFER => Target::Query,
            _ => return None,
        })
    }

    pub fn gl_name(self) -> &'static str {
        match self {
            Target::Array => "GL_ARRAY_BUFFER",
            Target::ElementArray => "GL_ELEMENT_ARRAY_BUFFER",
            Target::PixelPack => "GL_PIXEL_PACK_BUFFER",
            Target::PixelUnpack => "GL_PIXEL_UNPACK_BUFFER",
            Target::DrawIndirect => "GL_DRAW_INDIRECT_BUFFER",
            Target::DispatchIndirect => "GL_DISPATCH_INDIRECT_BUFFER",
            Target::Parameter => "GL_PARAMETER_BUFFER",
            Target::Query => "GL_QUERY_BUFFER",
        }
    }

    pub fn gl_enum(self) -> GLenum {
        match self {
            Target::Array => gl::ARRAY_BUFFER,
            Target::ElementArray => gl::ELEMENT_ARRAY_BUFFER,
            Target::PixelPack => gl::PIXEL_PACK_BUFFER,
            Target::PixelUnpack => gl::PIXEL_UNPACK_BUFFER,
            Target::DrawIndirect => gl::DRAW_INDIRECT_BUFFER,
            Target::DispatchIndirect => gl::DISPATCH_INDIRECT_BUFFER,
            Target::Parameter => gl::PARAMETER_BUFFER,
            Target::Query => gl::QUERY_BUFFER,
        }
    }

    /// The `glGetIntegerv` pname of the binding.
    pub(crate) fn binding_pname(self) -> GLenum {
        match self {
            Target::Array => gl::ARRAY_BUFFER_BINDING,
            Target::ElementArray => gl::ELEMENT_ARRAY_BUFFER_BINDING,
            Target::PixelPack => gl::PIXEL_PACK_BUFFER_BINDING,
            Target::PixelUnpack => gl::PIXEL_UNPACK_BUFFER_BINDING,
            Target::DrawIndirect => gl::DRAW_INDIRECT_BUFFER_BINDING,
            Target::DispatchIndirect => gl::DISPATCH_INDIRECT_BUFFER_BINDING,
            Target::Parameter => gl::PARAMETER_BUFFER_BINDING,
            Target::Query => gl::QUERY_BUFFER_BINDING,
        }
    }

    pub(super) const CONTEXT: [Target; 7] = [
        Target::Array,
        Target::PixelPack,
        Target::PixelUnpack,
        Target::DrawIndirect,
        Target::DispatchIndirect,
        Target::Parameter,
        Target::Query,
    ];

    pub(super) fn slot(self) -> usize {
        match self {
            Target::Array => 0,
            Target::PixelPack => 1,
            Target::PixelUnpack => 2,
            Target::DrawIndirect => 3,
            Target::DispatchIndirect => 4,
            Target::Parameter => 5,
            Target::Query => 6,
            Target::ElementArray => unreachable!("vertex-array state"),
        }
    }
}

pub(super) fn read_binding(gl_fns: &Gl, target: Target) -> u32 {
    let mut v = 0;
    // SAFETY: a single-integer query.
    unsafe { (gl_fns.GetIntegerv)(target.binding_pname(), &mut v) };
    v as u32
}
