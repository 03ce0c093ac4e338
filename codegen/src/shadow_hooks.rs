//! The binding-shadow hooks: which recorded GL functions the render thread's binding shadow
//! (`runtime/shadow.rs`) watches, and how. (Not GL bindings, which the whole crate generates:
//! the hooks are what the generated execute functions call into the shadow.)
//!
//! A pointer argument that the core profile reads as an offset into a bound buffer is only an
//! offset while a buffer is bound; otherwise the driver takes it for a process address. The
//! runtime keeps a shadow of the relevant bindings and checks offsets before each call; this
//! table tells the generator which execute functions update the shadow (binds, attribute
//! state, deletes) and which check it (draws, indirect dispatches, attribute pointers).
//!
//! It is hand-written, like the pname tables, because gl.xml does not say what a function does
//! to the binding state. Every function of the header that binds a buffer to one of the tracked
//! targets, changes a vertex array's attributes or element buffer, deletes buffers or vertex
//! arrays, or draws from vertex arrays is here; `codegen/tests/list_table.rs`
//! (`every_function_that_touches_tracked_bindings_has_a_shadow_hook`) checks that no safe
//! function whose name says it does one of those things is missing.
//!
//! Beside the hook table live the other hand-written facts about what a function does to the
//! state the render thread checks: the object classes whose names the shadow tracks
//! ([`TRACKED_CLASSES`]), the `first`/`count` pairs and NaN arguments it refuses
//! ([`first_count`], [`refuses_nan`]), the program links and lookups of the program interface
//! cache ([`links_program`], [`PROGRAM_LOOKUPS`]), and the extensions whose pointers or GPU
//! addresses no shadow can check ([`GPU_ADDRESS_EXTENSIONS`], [`FIXED_FUNCTION_ARRAYS`]).

use crate::model::Function;

/// Which `glVertexAttrib*Pointer` a function is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttribKind {
    Float,
    Integer,
    Long,
}

/// What a recorded function does to (or needs from) the binding shadow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    /// `glBindBuffer(target, buffer)`.
    BindBuffer,
    /// `glBindVertexArray(array)`.
    BindVertexArray,
    /// `glVertexArrayElementBuffer(vaobj, buffer)`.
    VertexArrayElementBuffer,
    /// `glBindVertexBuffer(bindingindex, buffer, offset, stride)`; `dsa`: the
    /// `glVertexArrayVertexBuffer(vaobj, ...)` form.
    VertexBuffer { dsa: bool },
    /// `glBindVertexBuffers(first, count, buffers, offsets, strides)` and the DSA form.
    VertexBuffers { dsa: bool },
    /// `glVertexAttrib{,I,L}Pointer(index, size, type, [normalized,] stride, pointer)`.
    AttribPointer(AttribKind),
    /// `glVertexAttribBinding(attribindex, bindingindex)` and the DSA form.
    AttribBinding { dsa: bool },
    /// `glEnable/DisableVertexAttribArray(index)` and the DSA forms.
    EnableAttrib { dsa: bool, enable: bool },
    /// An EXT_direct_state_access call that changes vertex array `vaobj` in ways the shadow does
    /// not model: the vertex array is read back before its next draw. `buffer_offset` names the
    /// buffer and offset arguments when it binds a buffer (buffer 0 with an offset is refused).
    VertexArrayChanged { buffer_offset: Option<(&'static str, &'static str)> },
    /// `glDeleteBuffers(n, buffers)`.
    DeleteBuffers,
    /// `glDeleteVertexArrays(n, arrays)`.
    DeleteVertexArrays,
    /// Changes client state wholesale (`glClientAttribDefaultEXT`): the shadow is read back.
    Refresh,
    /// A draw from the current vertex array: `elements` reads the element buffer (through
    /// `indices`), `indirect` reads `GL_DRAW_INDIRECT_BUFFER`, `count` reads the draw count from
    /// `GL_PARAMETER_BUFFER`, `multi` takes arrays of counts and offsets (`glMultiDraw*` that
    /// are not indirect). Every range it reads from a buffer is checked against the buffer's
    /// storage (`shadow::check_indices`, `check_indirect`, `check_range`).
    Draw { elements: bool, indirect: bool, count: bool, multi: bool },
    /// `glDispatchComputeIndirect(indirect)`: reads 12 bytes of `GL_DISPATCH_INDIRECT_BUFFER`.
    DispatchIndirect,
    /// `glDrawMeshTasksIndirectNV` and its multi and count forms: read 8-byte commands from
    /// `GL_DRAW_INDIRECT_BUFFER` (and, for `count`, the draw count from `GL_PARAMETER_BUFFER`).
    MeshTasksIndirect { count: bool },
    /// (Re)allocates a buffer's storage (`glBufferData`, `glBufferStorage` and their DSA and
    /// extension forms): the sizes the shadow checks ranges against are asked again.
    Storage,
    /// `glInvalidateTexSubImage(texture, level, ...)`: Mesa dereferences the texture object its
    /// own error check rejected (a level past `GL_TEXTURE_MAX_LEVEL`, a non-zero level of a
    /// rectangle, buffer or multisample texture), so the level is checked first.
    TextureLevel,
}

/// The hook of a recorded function, if it has one.
pub fn hook(f: &Function) -> Option<Hook> {
    let n = f.name.as_str();
    Some(match n {
        "glBindBuffer" | "glBindBufferARB" => Hook::BindBuffer,
        "glBindVertexArray" => Hook::BindVertexArray,
        "glVertexArrayElementBuffer" => Hook::VertexArrayElementBuffer,
        "glBindVertexBuffer" => Hook::VertexBuffer { dsa: false },
        "glVertexArrayVertexBuffer" => Hook::VertexBuffer { dsa: true },
        "glBindVertexBuffers" => Hook::VertexBuffers { dsa: false },
        "glVertexArrayVertexBuffers" => Hook::VertexBuffers { dsa: true },
        "glVertexAttribPointer" | "glVertexAttribPointerARB" => Hook::AttribPointer(AttribKind::Float),
        "glVertexAttribIPointer" | "glVertexAttribIPointerEXT" => Hook::AttribPointer(AttribKind::Integer),
        "glVertexAttribLPointer" | "glVertexAttribLPointerEXT" => Hook::AttribPointer(AttribKind::Long),
        "glVertexAttribBinding" => Hook::AttribBinding { dsa: false },
        "glVertexArrayAttribBinding" => Hook::AttribBinding { dsa: true },
        "glEnableVertexAttribArray" | "glEnableVertexAttribArrayARB" => Hook::EnableAttrib { dsa: false, enable: true },
        "glDisableVertexAttribArray" | "glDisableVertexAttribArrayARB" => {
            Hook::EnableAttrib { dsa: false, enable: false }
        }
        "glEnableVertexArrayAttrib" => Hook::EnableAttrib { dsa: true, enable: true },
        "glDisableVertexArrayAttrib" => Hook::EnableAttrib { dsa: true, enable: false },
        "glEnableVertexArrayAttribEXT"
        | "glDisableVertexArrayAttribEXT"
        | "glVertexArrayVertexAttribBindingEXT"
        | "glVertexArrayVertexAttribFormatEXT"
        | "glVertexArrayVertexAttribIFormatEXT"
        | "glVertexArrayVertexAttribLFormatEXT"
        | "glVertexArrayVertexBindingDivisorEXT"
        | "glVertexArrayVertexAttribDivisorEXT" => Hook::VertexArrayChanged { buffer_offset: None },
        "glVertexArrayBindVertexBufferEXT" => Hook::VertexArrayChanged { buffer_offset: Some(("buffer", "offset")) },
        "glVertexArrayVertexAttribOffsetEXT"
        | "glVertexArrayVertexAttribIOffsetEXT"
        | "glVertexArrayVertexAttribLOffsetEXT" => {
            Hook::VertexArrayChanged { buffer_offset: Some(("buffer", "offset")) }
        }
        "glDeleteBuffers" | "glDeleteBuffersARB" => Hook::DeleteBuffers,
        "glDeleteVertexArrays" => Hook::DeleteVertexArrays,
        "glClientAttribDefaultEXT" | "glPushClientAttribDefaultEXT" => Hook::Refresh,
        "glDispatchComputeIndirect" => Hook::DispatchIndirect,
        "glDrawMeshTasksIndirectNV" | "glMultiDrawMeshTasksIndirectNV" => Hook::MeshTasksIndirect { count: false },
        "glMultiDrawMeshTasksIndirectCountNV" => Hook::MeshTasksIndirect { count: true },
        _ if ["glBufferData", "glBufferStorage", "glNamedBufferData", "glNamedBufferStorage"]
            .iter()
            .any(|p| n.starts_with(p)) =>
        {
            Hook::Storage
        }
        "glInvalidateTexSubImage" => Hook::TextureLevel,
        _ if is_vertex_draw(n) => Hook::Draw {
            elements: n.contains("Elements"),
            indirect: n.contains("Indirect"),
            count: n.contains("IndirectCount"),
            multi: n.starts_with("glMultiDraw") && !n.contains("Indirect"),
        },
        _ => return None,
    })
}

/// Draws that read the current vertex array.
fn is_vertex_draw(n: &str) -> bool {
    (n.starts_with("glDraw") || n.starts_with("glMultiDraw"))
        && !n.starts_with("glDrawBuffer")
        && !n.contains("MeshTasks")
        && !n.contains("Commands")
        && !n.contains("Bindless")
        && !matches!(n, "glDrawVkImageNV" | "glDrawTextureNV")
}

/// Whether a recorded function takes a `GLuint first` and a `count` of consecutive bindings
/// (multi-binds, viewport and scissor arrays). Mesa checks `first + count` against its limit
/// in unsigned 32-bit arithmetic, so a sum that wraps passes and it indexes past its arrays:
/// the runtime refuses such a pair (`shadow::check_first_count`).
pub fn first_count(f: &Function) -> bool {
    let first = f.params.iter().any(|p| p.name == "first" && p.ty.base == "GLuint" && !p.ty.is_pointer());
    let count = f
        .params
        .iter()
        .any(|p| p.name == "count" && matches!(p.ty.base.as_str(), "GLsizei" | "GLuint") && !p.ty.is_pointer());
    first && count
}

/// The buffer targets of the core profile and its extensions (`GL_*` names without `GL_`).
const BUFFER_TARGETS: &[&str] = &[
    "ARRAY_BUFFER",
    "ATOMIC_COUNTER_BUFFER",
    "COPY_READ_BUFFER",
    "COPY_WRITE_BUFFER",
    "DISPATCH_INDIRECT_BUFFER",
    "DRAW_INDIRECT_BUFFER",
    "ELEMENT_ARRAY_BUFFER",
    "PARAMETER_BUFFER",
    "PIXEL_PACK_BUFFER",
    "PIXEL_UNPACK_BUFFER",
    "QUERY_BUFFER",
    "SHADER_STORAGE_BUFFER",
    "TEXTURE_BUFFER",
    "TRANSFORM_FEEDBACK_BUFFER",
    "UNIFORM_BUFFER",
];

/// The indexed buffer targets (`glBindBuffersBase` and its kin).
const INDEXED_BUFFER_TARGETS: &[&str] =
    &["ATOMIC_COUNTER_BUFFER", "SHADER_STORAGE_BUFFER", "TRANSFORM_FEEDBACK_BUFFER", "UNIFORM_BUFFER"];

/// Enum arguments the GL checks before anything glcmd checks, each with the values it accepts
/// (`GL_*` names without `GL_`): the runtime refuses another value with the GL's
/// `GL_INVALID_ENUM` before its own checks (`shadow::check_enum`), so a call with a wrong target
/// and a range or buffer glcmd would refuse raises the GL's error. Mesa checks these targets
/// first of all (`get_buffer_target`, `_mesa_TexBufferRange`, `_mesa_BindBuffersBase`,
/// `_mesa_BindBuffersRange`). A value in the list that this context does
/// not have is left to the later checks.
pub fn earlier_enums(f: &Function) -> Vec<(&'static str, &'static [&'static str])> {
    let base = f.name.trim_end_matches("ARB").trim_end_matches("EXT");
    match base {
        "glTexBuffer" | "glTexBufferRange" => vec![("target", &["TEXTURE_BUFFER"])],
        "glBufferSubData" | "glClearBufferSubData" | "glClearBufferData" | "glFlushMappedBufferRange" => {
            vec![("target", BUFFER_TARGETS)]
        }
        "glCopyBufferSubData" => vec![("readTarget", BUFFER_TARGETS), ("writeTarget", BUFFER_TARGETS)],
        // Not glBindBufferRange and glBindBufferBase: Mesa looks their buffer up first
        // (`IndexedRange`, runtime/shadow/bind_ranges.rs).
        "glBindBuffersRange" | "glBindBuffersBase" => vec![("target", INDEXED_BUFFER_TARGETS)],
        _ => Vec::new(),
    }
}

/// Indexed buffer bindings whose range glcmd refuses only after the GL's earlier checks, which
/// need state (the buffer's name, an active transform feedback: `runtime/shadow/bind_ranges.rs`):
/// their `check_ranges` is `Shadow::check_bind_buffer_range` or `check_feedback_buffer_range`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexedRange {
    /// `glBindBufferRange(target, index, buffer, offset, size)`.
    Bind,
    /// `glTransformFeedbackBufferRange(xfb, index, buffer, offset, size)`.
    Feedback,
}

/// The [`IndexedRange`] of `f`, if it is one.
pub fn indexed_range(f: &Function) -> Option<IndexedRange> {
    match f.name.as_str() {
        "glBindBufferRange" | "glBindBufferRangeEXT" | "glBindBufferRangeNV" => Some(IndexedRange::Bind),
        "glTransformFeedbackBufferRange" => Some(IndexedRange::Feedback),
        _ => None,
    }
}

/// Functions whose offset and size the GL ignores when their buffer is 0 (it detaches the
/// buffer, GL 4.6 §8.9): the call reaches the GL with an offset and size of 0 instead, as Mesa
/// sets them, so no range check of glcmd's refuses what the GL accepts.
pub fn range_ignored_without_buffer(f: &Function) -> bool {
    matches!(
        f.name.as_str(),
        "glTexBufferRange" | "glTexBufferRangeEXT" | "glTextureBufferRange" | "glTextureBufferRangeEXT"
    )
}

/// Extensions whose functions hand the GPU raw addresses or bindless handles (or execute
/// command streams made of them): an invalid one makes the GPU read or write arbitrary memory,
/// which glcmd cannot check. Their recorded and create functions are `unsafe`; queries (which
/// only read handles back) stay safe.
pub const GPU_ADDRESS_EXTENSIONS: &[&str] = &[
    "GL_ARB_bindless_texture",
    "GL_NV_bindless_texture",
    "GL_NV_shader_buffer_load",
    "GL_NV_vertex_buffer_unified_memory",
    "GL_NV_command_list",
    "GL_NV_bindless_multi_draw_indirect",
    "GL_NV_bindless_multi_draw_indirect_count",
    "GL_NV_draw_vulkan_image",
    "GL_EXT_memory_object_fd",
    "GL_EXT_memory_object_win32",
    "GL_EXT_semaphore_fd",
    "GL_EXT_semaphore_win32",
    "GL_EXT_win32_keyed_mutex",
];

/// EXT_direct_state_access functions for the compatibility profile's fixed-function client
/// arrays. glcmd's shadow does not track those arrays, so it cannot keep their pointers from
/// being client addresses: the functions are `unsafe`.
pub const FIXED_FUNCTION_ARRAYS: &[&str] = &[
    "glMultiTexCoordPointerEXT",
    "glEnableClientStateIndexedEXT",
    "glDisableClientStateIndexedEXT",
    "glEnableClientStateiEXT",
    "glDisableClientStateiEXT",
    "glEnableVertexArrayEXT",
    "glDisableVertexArrayEXT",
    "glVertexArrayColorOffsetEXT",
    "glVertexArrayEdgeFlagOffsetEXT",
    "glVertexArrayFogCoordOffsetEXT",
    "glVertexArrayIndexOffsetEXT",
    "glVertexArrayMultiTexCoordOffsetEXT",
    "glVertexArrayNormalOffsetEXT",
    "glVertexArraySecondaryColorOffsetEXT",
    "glVertexArrayTexCoordOffsetEXT",
    "glVertexArrayVertexOffsetEXT",
];

/// Functions whose object arguments are not checked against the known names: binds and begins
/// (a bind of a generated name creates the object; the GL checks the rest), the existence
/// queries themselves, creates and deletes (a delete of an unknown name is ignored).
pub fn names_unchecked(f: &Function) -> bool {
    let n = f.name.as_str();
    ["glBind", "glBegin", "glEnd", "glIs", "glDelete", "glGen", "glCreate", "glQueryCounter"]
        .iter()
        .any(|p| n.starts_with(p))
        || matches!(n, "glUseProgram" | "glUseProgramObjectARB" | "glActiveProgramEXT")
}

/// Object arguments that may be a name generated (`glGen*`) and never bound: the GL creates
/// the object on first use there, as a bind does (GL 4.6 §8.18 for `glTextureView`'s new
/// texture, §7.4 for the program pipeline of `glUseProgramStages` and `glActiveShaderProgram`,
/// §10.3.1 for the buffer of `glVertexArrayVertexBuffer`, which binds it as `glBindVertexBuffer`
/// does: Mesa's `_mesa_handle_bind_buffer_gen`).
/// Such a name is no object yet, so `glIs*` says false for it and glcmd cannot tell it from a
/// name never generated; the GL can, and must look the name up to create the object, so the
/// check is left to it.
pub const CREATED_ON_FIRST_USE: &[(&str, &str)] = &[
    ("glTextureView", "texture"),
    ("glUseProgramStages", "pipeline"),
    ("glActiveShaderProgram", "pipeline"),
    ("glVertexArrayVertexBuffer", "buffer"),
];

/// Whether `param` of `f` is in [`CREATED_ON_FIRST_USE`].
pub fn created_on_first_use(f: &Function, param: &str) -> bool {
    CREATED_ON_FIRST_USE.iter().any(|&(function, p)| function == f.name && p == param)
}

/// The classes the runtime tracks names of (`shadow::Class`).
pub const TRACKED_CLASSES: &[(&str, &str)] = &[
    ("buffer", "Buffer"),
    ("texture", "Texture"),
    ("framebuffer", "Framebuffer"),
    ("renderbuffer", "Renderbuffer"),
    ("sampler", "Sampler"),
    ("query", "Query"),
    ("vertex array", "VertexArray"),
    ("program pipeline", "ProgramPipeline"),
    ("transform feedback", "TransformFeedback"),
    ("program", "Program"),
    ("shader", "Shader"),
];

/// The runtime's `Class` variant of a gl.xml class, if it is tracked.
pub fn class_variant(class: &str) -> Option<&'static str> {
    TRACKED_CLASSES.iter().find(|(c, _)| *c == class).map(|(_, v)| *v)
}

/// Recorded functions whose floating-point arguments set GL state that the driver range-checks
/// with comparisons a NaN passes (`param < 1.0` is false for NaN): sampler and texture
/// parameters, point, line and polygon-offset state, depth ranges, float viewports, sample
/// shading and coverage, patch defaults. NVIDIA's driver accepted a NaN
/// `GL_TEXTURE_MAX_ANISOTROPY` and crashed at the next draw (found by the capture fuzzer), so
/// no NaN of them reaches the driver, in scalars and in the arrays of the `fv` forms: the render
/// thread refuses it, except in the texture and sampler parameters of [`float_parameter`],
/// which answer NaN as the GL does with a value that is none where the GL makes one of it. Uniforms, vertex attributes and clear values are data, where NaN is legal, and are
/// not checked.
pub fn refuses_nan(f: &Function) -> bool {
    const PREFIXES: &[&str] = &[
        "glTexParameterf",
        "glTextureParameterf",
        "glSamplerParameterf",
        "glMultiTexParameterf",
        "glPointParameterf",
        "glPatchParameterfv",
        "glDepthRange",
        "glViewportIndexedf",
        "glViewportArrayv",
        "glPolygonOffset",
    ];
    const NAMES: &[&str] =
        &["glPointSize", "glLineWidth", "glMinSampleShading", "glMinSampleShadingARB", "glSampleCoverage"];
    let n = f.name.as_str();
    NAMES.contains(&n) || PREFIXES.iter().any(|p| n.starts_with(p))
}

/// The float texture, sampler and point parameter functions whose NaN is answered as the GL answers it
/// (`runtime/float_params.rs`: a substitute the GL treats as it treats NaN, or glcmd's refusal
/// after the GL's own checks), with the argument naming their object and its `ParamOf` variant.
/// (`None`: the point parameters, which have no object).
pub fn float_parameter(f: &Function) -> Option<(Option<&'static str>, &'static str)> {
    match f.name.trim_end_matches("ARB").trim_end_matches("EXT") {
        "glTexParameterf" | "glTexParameterfv" if !f.name.ends_with("EXT") => Some((Some("target"), "Bound")),
        "glTextureParameterf" | "glTextureParameterfv" if !f.name.ends_with("EXT") => {
            Some((Some("texture"), "Texture"))
        }
        "glSamplerParameterf" | "glSamplerParameterfv" => Some((Some("sampler"), "Sampler")),
        "glPointParameterf" | "glPointParameterfv" => Some((None, "Point")),
        _ => None,
    }
}

/// Recorded functions that (re)link a program: the program interface cache (`runtime/
/// programs.rs`) is told when they are recorded, submitted and replayed.
pub fn links_program(f: &Function) -> bool {
    matches!(f.name.as_str(), "glLinkProgram" | "glLinkProgramARB" | "glProgramBinary")
}

/// Functions that delete a program, whose lookups wait for the delete once it is submitted
/// (`CommandList::note_program_delete`, `runtime/programs.rs`).
pub fn deletes_program(f: &Function) -> bool {
    f.name == "glDeleteProgram"
}

/// Program interface lookups answered from the cache: (GL function, `Lookup` variant, the
/// parameter that is part of the key besides the name, if any).
pub const PROGRAM_LOOKUPS: &[(&str, &str, Option<&str>)] = &[
    ("glGetUniformLocation", "UniformLocation", None),
    ("glGetAttribLocation", "AttribLocation", None),
    ("glGetUniformBlockIndex", "UniformBlockIndex", None),
    ("glGetFragDataLocation", "FragDataLocation", None),
    ("glGetFragDataIndex", "FragDataIndex", None),
    ("glGetProgramResourceIndex", "ResourceIndex", Some("programInterface")),
    ("glGetProgramResourceLocation", "ResourceLocation", Some("programInterface")),
    ("glGetProgramResourceLocationIndex", "ResourceLocationIndex", Some("programInterface")),
    ("glGetSubroutineIndex", "SubroutineIndex", Some("shadertype")),
    ("glGetSubroutineUniformLocation", "SubroutineUniformLocation", Some("shadertype")),
];

/// A range of a buffer's storage that a function reads or writes, checked at replay against
/// that storage (`runtime/shadow/storage.rs`): the buffer (`buffer`, a parameter naming a
/// target if `by_target`, else a buffer name), the offset and length parameters (or a constant
/// length in bytes), and whether the range is one of the buffer's mapping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StorageRange {
    pub buffer: &'static str,
    pub by_target: bool,
    pub offset: &'static str,
    pub len: RangeLen,
    pub mapped: bool,
}

/// The length of a [`StorageRange`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeLen {
    Param(&'static str),
    Bytes(u64),
}

/// The storage ranges of `f`, by its name without an `ARB`/`EXT` suffix. Every recorded function
/// of the core profile and its extensions whose specification bounds a range by a buffer's size
/// is here; `glBindBufferRange` and vertex-buffer bindings are not (the GL checks those ranges
/// when the binding is used, not when it is made).
pub fn storage_ranges(f: &Function) -> Vec<StorageRange> {
    let range = |buffer, by_target, offset, len| StorageRange { buffer, by_target, offset, len, mapped: false };
    let size = RangeLen::Param("size");
    let base = f.name.trim_end_matches("ARB").trim_end_matches("EXT");
    match base {
        "glBufferSubData" | "glClearBufferSubData" | "glBufferPageCommitment" => {
            vec![range("target", true, "offset", size)]
        }
        "glNamedBufferSubData" | "glClearNamedBufferSubData" | "glNamedBufferPageCommitment" => {
            vec![range("buffer", false, "offset", size)]
        }
        "glCopyBufferSubData" => {
            vec![range("readTarget", true, "readOffset", size), range("writeTarget", true, "writeOffset", size)]
        }
        "glCopyNamedBufferSubData" | "glNamedCopyBufferSubData" => {
            vec![range("readBuffer", false, "readOffset", size), range("writeBuffer", false, "writeOffset", size)]
        }
        "glInvalidateBufferSubData" => vec![range("buffer", false, "offset", RangeLen::Param("length"))],
        "glTexBufferRange" | "glTextureBufferRange" => vec![range("buffer", false, "offset", size)],
        "glGetQueryBufferObjectiv" | "glGetQueryBufferObjectuiv" => {
            vec![range("buffer", false, "offset", RangeLen::Bytes(4))]
        }
        "glGetQueryBufferObjecti64v" | "glGetQueryBufferObjectui64v" => {
            vec![range("buffer", false, "offset", RangeLen::Bytes(8))]
        }
        "glFlushMappedBufferRange" => {
            vec![StorageRange { mapped: true, ..range("target", true, "offset", RangeLen::Param("length")) }]
        }
        "glFlushMappedNamedBufferRange" => {
            vec![StorageRange { mapped: true, ..range("buffer", false, "offset", RangeLen::Param("length")) }]
        }
        _ => Vec::new(),
    }
}
