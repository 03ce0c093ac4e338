//! Which recorded calls change the state the runtime's recorded-state shadow answers
//! (`runtime/recorded_state.rs`: `glGetIntegerv` and `glIsEnabled` of the viewport, the scissor
//! box, six enables, blending, the active texture unit and a few bindings), as data the
//! generator reads.
//!
//! A function is one of three kinds:
//!
//! * **modelled**: its recording method tells the shadow what it leaves
//!   (`runtime/state_tracking.rs`, one method per function, named `state_<method>`);
//! * **unchanged**: listed below as changing none of the shadowed values (a draw, an upload, a
//!   uniform, a texture parameter ...);
//! * **anything else forgets everything**: its recording method makes every shadowed value
//!   unknown. This is the default on purpose: a function added to gl.xml, an extension's, or one
//!   nobody thought of (`glBindTextures`, `glBindTextureUnit`, `glDeleteTextures`,
//!   `glViewportIndexedf`, `glBlendFunci`, ...) can only cost a round trip, never give a stale
//!   answer.

/// The functions whose effect on the shadowed state is modelled.
pub const MODELLED: &[&str] = &[
    "glViewport",
    "glScissor",
    "glEnable",
    "glDisable",
    "glEnablei",
    "glDisablei",
    "glBlendFunc",
    "glBlendFuncSeparate",
    "glBlendEquation",
    "glBlendEquationSeparate",
    "glActiveTexture",
    "glBindBuffer",
    "glDeleteBuffers",
    "glBindTexture",
    "glBindSampler",
    "glBindVertexArray",
    "glUseProgram",
    "glPolygonMode",
    "glPixelStorei",
    "glPixelStoref",
    "glClipControl",
    "glVertexArrayElementBuffer",
    "glDeleteProgram",
    "glBeginTransformFeedback",
    "glResumeTransformFeedback",
];

/// Prefixes of functions that change none of the shadowed values. Each was checked against the
/// shadowed list: none selects a texture unit, binds to `GL_ARRAY_BUFFER`, `GL_TEXTURE_2D` or a
/// sampler unit, binds a program or vertex array, deletes a bound object of those kinds, or sets
/// a viewport, scissor, enable or blend state.
const UNCHANGED_PREFIXES: &[&str] = &[
    "glUniform",
    "glProgramUniform",
    "glDraw",
    "glMultiDraw",
    "glDispatch",
    "glClear",
    "glBufferData",
    "glBufferSubData",
    "glBufferStorage",
    "glNamedBuffer",
    "glCopyBufferSubData",
    "glCopyNamedBufferSubData",
    "glFlushMappedBufferRange",
    "glFlushMappedNamedBufferRange",
    "glInvalidate",
    "glTexImage",
    "glTexSubImage",
    "glTexStorage",
    "glTexParameter",
    "glTexBuffer",
    "glTextureSubImage",
    "glTextureStorage",
    "glTextureParameter",
    "glTextureBuffer",
    "glTextureView",
    "glTextureBarrier",
    "glCompressedTex",
    "glCopyTex",
    "glGenerateMipmap",
    "glGenerateTextureMipmap",
    "glSamplerParameter",
    "glVertexAttrib",
    "glVertexArrayAttrib",
    "glVertexArrayVertexBuffer",
    "glVertexArrayBindingDivisor",
    "glEnableVertexAttribArray",
    "glDisableVertexAttribArray",
    "glEnableVertexArrayAttrib",
    "glDisableVertexArrayAttrib",
    "glBindVertexBuffer",
    "glVertexBindingDivisor",
    "glBindFramebuffer",
    "glBindRenderbuffer",
    "glFramebuffer",
    "glNamedFramebuffer",
    "glRenderbufferStorage",
    "glNamedRenderbufferStorage",
    "glBlitFramebuffer",
    "glBlitNamedFramebuffer",
    "glDrawBuffer",
    "glReadBuffer",
    "glColorMask",
    "glDepthMask",
    "glDepthFunc",
    "glDepthRange",
    "glStencil",
    "glCullFace",
    "glFrontFace",
    "glLineWidth",
    "glPointSize",
    "glPointParameter",
    "glPolygonOffset",
    "glSampleCoverage",
    "glSampleMask",
    "glMinSampleShading",
    "glLogicOp",
    "glHint",
    "glProvokingVertex",
    "glPrimitiveRestartIndex",
    "glPatchParameter",
    "glBlendColor",
    "glMemoryBarrier",
    "glBeginQuery",
    "glEndQuery",
    "glQueryCounter",
    "glDeleteQueries",
    "glFenceSync",
    "glWaitSync",
    "glDeleteSync",
    "glBeginConditionalRender",
    "glEndConditionalRender",
    "glEndTransformFeedback",
    "glPauseTransformFeedback",
    "glTransformFeedbackVaryings",
    "glBindTransformFeedback",
    "glBindBufferBase",
    "glBindBufferRange",
    "glBindImageTexture",
    "glDebugMessage",
    "glPushDebugGroup",
    "glPopDebugGroup",
    "glObjectLabel",
    "glObjectPtrLabel",
    "glShaderSource",
    "glCompileShader",
    "glAttachShader",
    "glDetachShader",
    "glDeleteShader",
    "glLinkProgram",
    "glProgramBinary",
    "glValidateProgram",
    "glProgramParameteri",
    "glBindAttribLocation",
    "glBindFragDataLocation",
    "glUniformBlockBinding",
    "glShaderStorageBlockBinding",
    "glDeleteFramebuffers",
    "glDeleteRenderbuffers",
    "glDeleteTransformFeedbacks",
    "glDeleteProgramPipelines",
    "glTransformFeedbackBuffer",
    "glBlendBarrier",
    "glClampColor",
    "glReleaseShaderCompiler",
    "glShaderBinary",
    "glSpecializeShader",
    "glMaxShaderCompilerThreads",
    // Reads into a bound buffer (recorded: their output is an offset).
    "glReadPixels",
    "glReadnPixels",
    "glGetTexImage",
    "glGetnTexImage",
    "glGetTextureImage",
    "glGetTextureSubImage",
    "glGetCompressedTexImage",
    "glGetnCompressedTexImage",
    "glGetCompressedTextureImage",
    "glGetCompressedTextureSubImage",
    "glGetQueryBufferObject",
];

/// What a recorded call does to the shadowed state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateEffect {
    Modelled,
    Unchanged,
    ForgetsAll,
}

/// The effect of recording `function`.
pub fn effect(function: &str) -> StateEffect {
    if MODELLED.contains(&function) {
        StateEffect::Modelled
    } else if UNCHANGED_PREFIXES.iter().any(|p| function.starts_with(p)) {
        StateEffect::Unchanged
    } else {
        StateEffect::ForgetsAll
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_that_change_shadowed_state_are_never_unchanged() {
        for f in [
            "glBindTextures",
            "glBindTextureUnit",
            "glBindSamplers",
            "glBindBuffersBase",
            "glBindBuffersRange",
            "glDeleteTextures",
            "glDeleteSamplers",
            "glDeleteVertexArrays",
            "glViewportIndexedf",
            "glViewportArrayv",
            "glScissorIndexed",
            "glScissorArrayv",
            "glBlendFunci",
            "glBlendEquationSeparatei",
            "glBindMultiTextureEXT",
            "glEnableIndexedEXT",
            "glBindProgramPipeline",
            "glUseProgramStages",
        ] {
            assert_eq!(effect(f), StateEffect::ForgetsAll, "{f}");
        }
        for f in MODELLED {
            assert_eq!(effect(f), StateEffect::Modelled, "{f}");
        }
        assert_eq!(effect("glDrawElements"), StateEffect::Unchanged);
    }
}
