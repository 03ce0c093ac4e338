//! The object classes whose names glcmd tracks (gl.xml's `class` attribute): the binding
//! shadow's name tracking, the capture's name remapping, use-after-delete diagnostics and the
//! generated code all speak of them.

use crate::generated::{types::*, Gl};

/// An object type (gl.xml `class`) whose names glcmd tracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Buffer,
    Texture,
    Framebuffer,
    Renderbuffer,
    Sampler,
    Query,
    VertexArray,
    ProgramPipeline,
    TransformFeedback,
    Program,
    Shader,
}

/// How many classes there are.
pub(crate) const CLASSES: usize = 11;

impl Class {
    /// The class of a gl.xml `class` attribute.
    pub fn from_xml(class: &str) -> Option<Class> {
        Some(match class {
            "buffer" => Class::Buffer,
            "texture" => Class::Texture,
            "framebuffer" => Class::Framebuffer,
            "renderbuffer" => Class::Renderbuffer,
            "sampler" => Class::Sampler,
            "query" => Class::Query,
            "vertex array" => Class::VertexArray,
            "program pipeline" => Class::ProgramPipeline,
            "transform feedback" => Class::TransformFeedback,
            "program" => Class::Program,
            "shader" => Class::Shader,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Class::Buffer => "buffer",
            Class::Texture => "texture",
            Class::Framebuffer => "framebuffer",
            Class::Renderbuffer => "renderbuffer",
            Class::Sampler => "sampler",
            Class::Query => "query",
            Class::VertexArray => "vertex array",
            Class::ProgramPipeline => "program pipeline",
            Class::TransformFeedback => "transform feedback",
            Class::Program => "program",
            Class::Shader => "shader",
        }
    }

    /// Whether name 0 means an object of this class (the default framebuffer, the default
    /// transform feedback object).
    pub(crate) fn zero_is_an_object(self) -> bool {
        matches!(self, Class::Framebuffer | Class::TransformFeedback)
    }

    /// `glIs*` of the class: whether a name is an object, asked of the GL.
    pub(crate) fn is_object(self, gl_fns: &Gl, name: GLuint) -> bool {
        // SAFETY: glIs* take any name.
        let r = unsafe {
            match self {
                Class::Buffer => (gl_fns.IsBuffer)(name),
                Class::Texture => (gl_fns.IsTexture)(name),
                Class::Framebuffer => (gl_fns.IsFramebuffer)(name),
                Class::Renderbuffer => (gl_fns.IsRenderbuffer)(name),
                Class::Sampler => (gl_fns.IsSampler)(name),
                Class::Query => (gl_fns.IsQuery)(name),
                Class::VertexArray => (gl_fns.IsVertexArray)(name),
                Class::ProgramPipeline => (gl_fns.IsProgramPipeline)(name),
                Class::TransformFeedback => (gl_fns.IsTransformFeedback)(name),
                Class::Program => (gl_fns.IsProgram)(name),
                Class::Shader => (gl_fns.IsShader)(name),
            }
        };
        r != 0
    }
}
