//! The GL errors of glcmd's checks that differ from function to function: the hand-written
//! table behind `runtime/vocab/check.rs` (read its essay first).
//!
//! Each check glcmd makes has a usual error (`Check::usual_error`: a name of a class other than
//! program or shader that is no object is `GL_INVALID_OPERATION`, as for most commands of the
//! GL 4.6 core specification and Mesa's `_mesa_lookup_*_err`). The specification names another
//! error for some functions; each such function has a row here, with the section or the Mesa
//! function that gives it. The generator emits the rows into `SPEC_ERRORS`
//! (`generated/spec_errors.rs`), which the runtime reads when a check fails; `docs/errors.md`
//! lists them and `tests/gl_errors.rs` checks each against direct GL on llvmpipe.
//!
//! Like the pname tables, this is hand-written because gl.xml does not say which error a
//! function raises. A row whose function is not in the generated selection is left out.

/// One row: `function` raises `error` (a `GL_*` name) when the check `check` (a variant of the
/// runtime's `Check`, as Rust source: `NoSuchObject(Class::Buffer)`) fails. `why`: where the
/// specification or Mesa says so.
#[derive(Clone, Copy, Debug)]
pub struct SpecErrorRow {
    pub function: &'static str,
    pub check: &'static str,
    pub error: &'static str,
    pub why: &'static str,
}

const fn row(function: &'static str, check: &'static str, error: &'static str, why: &'static str) -> SpecErrorRow {
    SpecErrorRow { function, check, error, why }
}

const XFB_BUFFER: &str = "GL 4.6 §13.2.2 (TransformFeedbackBufferRange/Base): INVALID_VALUE if buffer is not zero and \
                          not the name of an existing buffer object (Mesa: lookup_transform_feedback_bufferobj_err)";
const XFB_DRAW: &str = "GL 4.6 §10.5 (DrawTransformFeedback*): INVALID_VALUE if id is not the name of a transform \
                        feedback object";
const ARRAYS: &str = "GL 4.6 §13.6.1 (ViewportArrayv, ScissorArrayv, DepthRangeArrayv): INVALID_VALUE if first + \
                      count is greater than the value of MAX_VIEWPORTS";

const COMPRESSED_NULL: &str = "GL 4.6 §8.11.4: INVALID_OPERATION if the image would be written past bufSize bytes \
                               of client memory; Mesa checks bufSize before the pointer (getcompressedteximage_error_check), \
                               so NULL client memory with no pack buffer (which glcmd refuses) raises it first";

const COMPRESSED_UPLOAD_NULL: &str = "NULL data of imageSize > 0 with no unpack buffer: Mesa checks the texture \
    name first (INVALID_OPERATION for one that is no texture, GL 4.6 §8.7, piglit's \
    arb_direct_state_access@getcompressedtextureimage) and then ignores NULL data; glcmd, which cannot look the \
    name up at the C boundary and will not pass NULL to every driver, raises the GL's error for the common \
    mistake and skips the call";

const INVALIDATE: &str = "GL 4.6 §6.5 (InvalidateBufferSubData, InvalidateBufferData): INVALID_VALUE if buffer is not \
                          the name of an existing buffer object (Mesa: _mesa_InvalidateBuffer*Data, \"invalid object\")";

const INVALIDATE_TEX: &str = "GL 4.6 §8.20 (InvalidateTexSubImage, InvalidateTexImage): INVALID_VALUE if texture is \
                              zero or is not the name of an existing texture object (Mesa: invalidate_tex_image_error_check)";

const FRAMEBUFFER_TEXTURE: &str = "GL 4.5 §9.2.8 as Mesa reads it (get_texture_for_framebuffer_err): the attach \
    commands without a dimension, FramebufferTexture and NamedFramebufferTexture, raise INVALID_VALUE for a texture \
    that is not zero and no texture object; the others INVALID_OPERATION";

const PIPELINE_LOG: &str = "GL 4.6 §7.14 (GetProgramPipelineInfoLog): INVALID_VALUE if pipeline is not the name of an \
                            existing program pipeline object (Mesa: _mesa_GetProgramPipelineInfoLog)";

const QUERY_RESULT: &str = "GL 4.6 §4.2.3 (GetQueryBufferObject*): a result written past the end of the buffer is \
                            INVALID_OPERATION (Mesa: get_query_object, \"out of bounds\")";

/// The rows, by function.
pub const SPEC_ERRORS: &[SpecErrorRow] = &[
    row("glDepthRangeArrayv", "Wraps", "INVALID_VALUE", ARRAYS),
    row("glDrawTransformFeedback", "NoSuchObject(Class::TransformFeedback)", "INVALID_VALUE", XFB_DRAW),
    row("glDrawTransformFeedbackInstanced", "NoSuchObject(Class::TransformFeedback)", "INVALID_VALUE", XFB_DRAW),
    row("glDrawTransformFeedbackStream", "NoSuchObject(Class::TransformFeedback)", "INVALID_VALUE", XFB_DRAW),
    row("glDrawTransformFeedbackStreamInstanced", "NoSuchObject(Class::TransformFeedback)", "INVALID_VALUE", XFB_DRAW),
    row("glCompressedTextureSubImage1D", "NullPointer", "INVALID_OPERATION", COMPRESSED_UPLOAD_NULL),
    row("glCompressedTextureSubImage2D", "NullPointer", "INVALID_OPERATION", COMPRESSED_UPLOAD_NULL),
    row("glCompressedTextureSubImage3D", "NullPointer", "INVALID_OPERATION", COMPRESSED_UPLOAD_NULL),
    row("glFramebufferTexture", "NoSuchObject(Class::Texture)", "INVALID_VALUE", FRAMEBUFFER_TEXTURE),
    row("glGetCompressedTextureImage", "NullPointer", "INVALID_OPERATION", COMPRESSED_NULL),
    row("glGetnCompressedTexImage", "NullPointer", "INVALID_OPERATION", COMPRESSED_NULL),
    row("glGetProgramPipelineInfoLog", "NoSuchObject(Class::ProgramPipeline)", "INVALID_VALUE", PIPELINE_LOG),
    row("glGetQueryBufferObjecti64v", "Storage", "INVALID_OPERATION", QUERY_RESULT),
    row("glGetQueryBufferObjectiv", "Storage", "INVALID_OPERATION", QUERY_RESULT),
    row("glGetQueryBufferObjectui64v", "Storage", "INVALID_OPERATION", QUERY_RESULT),
    row("glGetQueryBufferObjectuiv", "Storage", "INVALID_OPERATION", QUERY_RESULT),
    row("glInvalidateBufferData", "NoSuchObject(Class::Buffer)", "INVALID_VALUE", INVALIDATE),
    row("glInvalidateBufferSubData", "NoSuchObject(Class::Buffer)", "INVALID_VALUE", INVALIDATE),
    row("glInvalidateTexImage", "NoSuchObject(Class::Texture)", "INVALID_VALUE", INVALIDATE_TEX),
    row("glInvalidateTexSubImage", "NoSuchObject(Class::Texture)", "INVALID_VALUE", INVALIDATE_TEX),
    row("glNamedFramebufferTexture", "NoSuchObject(Class::Texture)", "INVALID_VALUE", FRAMEBUFFER_TEXTURE),
    row("glScissorArrayv", "Wraps", "INVALID_VALUE", ARRAYS),
    row(
        "glTextureView",
        "NoSuchObject(Class::Texture)",
        "INVALID_VALUE",
        "GL 4.6 §8.18 (TextureView): INVALID_VALUE if origtexture is not the name of a texture object (the new \
         texture, the other texture argument, is left to the GL: it is created on first use)",
    ),
    row("glTransformFeedbackBufferBase", "NoSuchObject(Class::Buffer)", "INVALID_VALUE", XFB_BUFFER),
    row("glTransformFeedbackBufferRange", "NoSuchObject(Class::Buffer)", "INVALID_VALUE", XFB_BUFFER),
    row("glViewportArrayv", "Wraps", "INVALID_VALUE", ARRAYS),
];
