//! How many values a `pname`-dependent array argument holds.
//!
//! Many GL entry points take an enum `pname` and a pointer whose length depends on it:
//! `glTexParameteriv(target, pname, params)` reads one value for `GL_TEXTURE_MIN_FILTER`
//! but four for `GL_TEXTURE_BORDER_COLOR`, and `glGetIntegerv(pname, data)` writes one
//! value for `GL_MAX_TEXTURE_SIZE` but four for `GL_VIEWPORT`. gl.xml only says
//! `len="COMPSIZE(pname)"` (or nothing at all) for these parameters, so the length has to
//! come from somewhere else. glcmd needs it in two places:
//!
//! * recording a const array (`glTexParameterfv`, `glSamplerParameteriv`,
//!   `glPatchParameterfv`, ...): the recorder copies `count(pname)` values out of the
//!   caller's pointer into the command list, because the pointer is not valid any more when
//!   the list is replayed;
//! * query outputs (`glGetIntegerv`, `glGetProgramiv`, ...): the replayer allocates
//!   `count(pname)` values for the driver to write into and hands them back.
//!
//! The tables below are keyed by the gl.xml enum *group* of the `pname` parameter
//! (`<param group="GetPName">`), which is what the code generator sees. This is the same
//! information as Mesa's `_mesa_tex_param_enum_to_count` and friends in
//! `src/mesa/main/glthread_marshal.h` (the glthread COMPSIZE helpers) and the type column
//! of Mesa's `src/mesa/main/get_hash_params.py` (`TYPE_INT_4`, `CONTEXT_FLOAT2`,
//! `TYPE_INT_N`, ...), and it is taken from the OpenGL 4.6 core profile specification:
//! the "State Tables" of chapter 23 give every queryable state variable a type such as
//! `4 x R` or `2 x Z+`, and the command descriptions (sections 8.10/8.11 for texture and
//! sampler parameters, 7.13 for program queries, 22 for `glGet*`) list which pnames each
//! command accepts. The Khronos reference pages (`glGet`, `glGetTexParameter`, ...) were
//! used to cross-check. The numbers were written by hand from those sources, not generated.
//!
//! Scope: every pname of the core profile (GL 4.6 plus the ARB/KHR extensions in
//! glcorearb.h) that the commands using a group accept. Vendor-only (NV/AMD/INTEL/EXT/
//! MESA) pnames are left out, and so are compatibility-profile pnames. gl.xml's group lists
//! are both too wide (they hold pnames of other commands, e.g. `GL_TEXTURE_WIDTH` in
//! `TextureParameterName`) and too narrow (`GetPName` misses dozens of 4.x limits), so
//! the tables follow the spec rather than gl.xml. Where two names share one value (e.g.
//! `GL_BLEND_EQUATION` and `GL_BLEND_EQUATION_RGB`), only one of them is listed so that a
//! table never maps one GLenum value twice; the alias is named in a comment.
//!
//! A pname that is not listed is *not* given a default length: [`PnameTable::count`]
//! returns `None`, and the caller (recorder or replayer) must turn that into an error
//! rather than guess. Guessing "1" for an unknown pname would read or write past the end of
//! the caller's array as soon as the guess is wrong, which is exactly the class of bug
//! these tables exist to prevent.
//!
//! Counts are *element* counts, not bytes: `glGetFloatv(GL_VIEWPORT)` and
//! `glGetIntegerv(GL_VIEWPORT)` both produce 4 elements, of the command's own element type.
//!
//! Where implementations write more than the core spec's state table promises, the larger
//! number is used, because for query outputs a too-large buffer is harmless and a too-small
//! one is a memory-safety bug. The cases are commented where they occur (`GL_POLYGON_MODE`,
//! the indexed-only compute limits).

/// How many values a pname-dependent array argument holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// Always this many values.
    Fixed(u32),
    /// As many values as the integer state named here holds, e.g. GL_COMPRESSED_TEXTURE_FORMATS
    /// holds GL_NUM_COMPRESSED_TEXTURE_FORMATS values. Only meaningful for queries.
    ///
    /// The named pname always belongs to the *same* table and is queried with the *same*
    /// command and the same leading arguments (same program and block index, same program
    /// and atomic counter buffer index, same program, shader type and subroutine uniform
    /// index, or the context for `glGet*`). For example
    /// `glGetActiveUniformBlockiv(p, i, GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES, out)` writes
    /// as many values as `glGetActiveUniformBlockiv(p, i, GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS)`
    /// returns. The named pname is itself `Fixed(1)` in that table.
    Queried(&'static str),
}

/// The counts for one enum group.
#[derive(Debug)]
pub struct PnameTable {
    /// gl.xml group name, e.g. "TextureParameterName".
    pub group: &'static str,
    /// (enumerant name as in glcorearb.h, e.g. "GL_TEXTURE_BORDER_COLOR", count)
    pub entries: &'static [(&'static str, Count)],
}

impl PnameTable {
    /// The count for `pname` (an enumerant name as in glcorearb.h), or `None` if this table
    /// does not list it. `None` must become an error for the caller, never a default.
    pub fn count(&self, pname: &str) -> Option<Count> {
        self.entries.iter().find(|(name, _)| *name == pname).map(|&(_, count)| count)
    }
}

use Count::{Fixed, Queried};

// ---------------------------------------------------------------------------------------
// Texture and sampler parameters (GL 4.6 core section 8.10 "Texture Parameters", 8.2
// "Sampler Objects"; state table "Textures (state per texture object)" and "Textures
// (state per sampler object)").
// ---------------------------------------------------------------------------------------

/// glTexParameter{f,i,Ii,Iui}v, glTextureParameter{f,i,Ii,Iui}v: the settable texture
/// parameters (gl.xml also lists read-only level parameters such as GL_TEXTURE_WIDTH in
/// this group; setting those is an error, so they are not here).
const TEXTURE_PARAMETER_NAME: &[(&str, Count)] = &[
    ("GL_DEPTH_STENCIL_TEXTURE_MODE", Fixed(1)),
    ("GL_TEXTURE_BASE_LEVEL", Fixed(1)),
    ("GL_TEXTURE_BORDER_COLOR", Fixed(4)),
    ("GL_TEXTURE_COMPARE_FUNC", Fixed(1)),
    ("GL_TEXTURE_COMPARE_MODE", Fixed(1)),
    ("GL_TEXTURE_LOD_BIAS", Fixed(1)),
    ("GL_TEXTURE_MAG_FILTER", Fixed(1)),
    ("GL_TEXTURE_MAX_ANISOTROPY", Fixed(1)),
    ("GL_TEXTURE_MAX_LEVEL", Fixed(1)),
    ("GL_TEXTURE_MAX_LOD", Fixed(1)),
    ("GL_TEXTURE_MIN_FILTER", Fixed(1)),
    ("GL_TEXTURE_MIN_LOD", Fixed(1)),
    ("GL_TEXTURE_SWIZZLE_R", Fixed(1)),
    ("GL_TEXTURE_SWIZZLE_G", Fixed(1)),
    ("GL_TEXTURE_SWIZZLE_B", Fixed(1)),
    ("GL_TEXTURE_SWIZZLE_A", Fixed(1)),
    ("GL_TEXTURE_SWIZZLE_RGBA", Fixed(4)),
    ("GL_TEXTURE_WRAP_S", Fixed(1)),
    ("GL_TEXTURE_WRAP_T", Fixed(1)),
    ("GL_TEXTURE_WRAP_R", Fixed(1)),
    // ARB_seamless_cubemap_per_texture
    ("GL_TEXTURE_CUBE_MAP_SEAMLESS", Fixed(1)),
    // ARB_texture_filter_minmax
    ("GL_TEXTURE_REDUCTION_MODE_ARB", Fixed(1)),
    // ARB_sparse_texture
    ("GL_TEXTURE_SPARSE_ARB", Fixed(1)),
    ("GL_VIRTUAL_PAGE_SIZE_INDEX_ARB", Fixed(1)),
];

/// glGetTexParameter*, glGetTextureParameter* (section 8.11.2) and glGetTexLevelParameter*,
/// glGetTextureLevelParameter* (section 8.11.3), which share this group in gl.xml.
const GET_TEXTURE_PARAMETER: &[(&str, Count)] = &[
    // Per texture object: everything settable ...
    ("GL_DEPTH_STENCIL_TEXTURE_MODE", Fixed(1)),
    ("GL_TEXTURE_BASE_LEVEL", Fixed(1)),
    ("GL_TEXTURE_BORDER_COLOR", Fixed(4)),
    ("GL_TEXTURE_COMPARE_FUNC", Fixed(1)),
    ("GL_TEXTURE_COMPARE_MODE", Fixed(1)),
    ("GL_TEXTURE_LOD_BIAS", Fixed(1)),
    ("GL_TEXTURE_MAG_FILTER", Fixed(1)),
    ("GL_TEXTURE_MAX_ANISOTROPY", Fixed(1)),
    ("GL_TEXTURE_MAX_LEVEL", Fixed(1)),
    ("GL_TEXTURE_MAX_LOD", Fixed(1)),
    ("GL_TEXTURE_MIN_FILTER", Fixed(1)),
    ("GL_TEXTURE_MIN_LOD", Fixed(1)),
    ("GL_TEXTURE_SWIZZLE_R", Fixed(1)),
    ("GL_TEXTURE_SWIZZLE_G", Fixed(1)),
    ("GL_TEXTURE_SWIZZLE_B", Fixed(1)),
    ("GL_TEXTURE_SWIZZLE_A", Fixed(1)),
    ("GL_TEXTURE_SWIZZLE_RGBA", Fixed(4)),
    ("GL_TEXTURE_WRAP_S", Fixed(1)),
    ("GL_TEXTURE_WRAP_T", Fixed(1)),
    ("GL_TEXTURE_WRAP_R", Fixed(1)),
    ("GL_TEXTURE_CUBE_MAP_SEAMLESS", Fixed(1)),
    ("GL_TEXTURE_REDUCTION_MODE_ARB", Fixed(1)),
    ("GL_TEXTURE_SPARSE_ARB", Fixed(1)),
    ("GL_VIRTUAL_PAGE_SIZE_INDEX_ARB", Fixed(1)),
    // ... and the read-only per-object state.
    ("GL_IMAGE_FORMAT_COMPATIBILITY_TYPE", Fixed(1)),
    ("GL_TEXTURE_IMMUTABLE_FORMAT", Fixed(1)),
    ("GL_TEXTURE_IMMUTABLE_LEVELS", Fixed(1)),
    ("GL_TEXTURE_TARGET", Fixed(1)),
    ("GL_TEXTURE_VIEW_MIN_LAYER", Fixed(1)),
    ("GL_TEXTURE_VIEW_MIN_LEVEL", Fixed(1)),
    ("GL_TEXTURE_VIEW_NUM_LAYERS", Fixed(1)),
    ("GL_TEXTURE_VIEW_NUM_LEVELS", Fixed(1)),
    ("GL_NUM_SPARSE_LEVELS_ARB", Fixed(1)),
    // Per image level ("Textures (state per texture image)").
    ("GL_TEXTURE_WIDTH", Fixed(1)),
    ("GL_TEXTURE_HEIGHT", Fixed(1)),
    ("GL_TEXTURE_DEPTH", Fixed(1)),
    ("GL_TEXTURE_SAMPLES", Fixed(1)),
    ("GL_TEXTURE_FIXED_SAMPLE_LOCATIONS", Fixed(1)),
    ("GL_TEXTURE_INTERNAL_FORMAT", Fixed(1)),
    ("GL_TEXTURE_RED_SIZE", Fixed(1)),
    ("GL_TEXTURE_GREEN_SIZE", Fixed(1)),
    ("GL_TEXTURE_BLUE_SIZE", Fixed(1)),
    ("GL_TEXTURE_ALPHA_SIZE", Fixed(1)),
    ("GL_TEXTURE_DEPTH_SIZE", Fixed(1)),
    ("GL_TEXTURE_STENCIL_SIZE", Fixed(1)),
    ("GL_TEXTURE_SHARED_SIZE", Fixed(1)),
    ("GL_TEXTURE_RED_TYPE", Fixed(1)),
    ("GL_TEXTURE_GREEN_TYPE", Fixed(1)),
    ("GL_TEXTURE_BLUE_TYPE", Fixed(1)),
    ("GL_TEXTURE_ALPHA_TYPE", Fixed(1)),
    ("GL_TEXTURE_DEPTH_TYPE", Fixed(1)),
    ("GL_TEXTURE_COMPRESSED", Fixed(1)),
    ("GL_TEXTURE_COMPRESSED_IMAGE_SIZE", Fixed(1)),
    ("GL_TEXTURE_BUFFER_DATA_STORE_BINDING", Fixed(1)),
    ("GL_TEXTURE_BUFFER_OFFSET", Fixed(1)),
    ("GL_TEXTURE_BUFFER_SIZE", Fixed(1)),
];

/// Sampler object parameters (section 8.2), shared by the two sampler groups below:
/// glSamplerParameteriv/Iiv/Iuiv and glGetSamplerParameteriv/Iiv/Iuiv use
/// `SamplerParameterI`, glSamplerParameterfv and glGetSamplerParameterfv use
/// `SamplerParameterF`, but every sampler parameter may be set and queried through either
/// (gl.xml splits the group by the natural type of each parameter).
const SAMPLER_PARAMETER: &[(&str, Count)] = &[
    ("GL_TEXTURE_BORDER_COLOR", Fixed(4)),
    ("GL_TEXTURE_COMPARE_FUNC", Fixed(1)),
    ("GL_TEXTURE_COMPARE_MODE", Fixed(1)),
    ("GL_TEXTURE_LOD_BIAS", Fixed(1)),
    ("GL_TEXTURE_MAG_FILTER", Fixed(1)),
    ("GL_TEXTURE_MAX_ANISOTROPY", Fixed(1)),
    ("GL_TEXTURE_MAX_LOD", Fixed(1)),
    ("GL_TEXTURE_MIN_FILTER", Fixed(1)),
    ("GL_TEXTURE_MIN_LOD", Fixed(1)),
    ("GL_TEXTURE_WRAP_S", Fixed(1)),
    ("GL_TEXTURE_WRAP_T", Fixed(1)),
    ("GL_TEXTURE_WRAP_R", Fixed(1)),
    // ARB_seamless_cubemap_per_texture
    ("GL_TEXTURE_CUBE_MAP_SEAMLESS", Fixed(1)),
    // ARB_texture_filter_minmax
    ("GL_TEXTURE_REDUCTION_MODE_ARB", Fixed(1)),
];

// ---------------------------------------------------------------------------------------
// Context state: glGetBooleanv/Integerv/Integer64v/Floatv/Doublev (section 22.1), and the
// indexed forms glGet*i_v, whose `target` parameter is in the same gl.xml group. Ordered
// like the GL 4.6 core state tables of chapter 23.
// ---------------------------------------------------------------------------------------

/// Aliases (same value) left out: GL_BLEND_EQUATION (= GL_BLEND_EQUATION_RGB),
/// GL_SMOOTH_POINT_SIZE_RANGE (= GL_POINT_SIZE_RANGE), GL_SMOOTH_POINT_SIZE_GRANULARITY
/// (= GL_POINT_SIZE_GRANULARITY), GL_SMOOTH_LINE_WIDTH_RANGE (= GL_LINE_WIDTH_RANGE),
/// GL_SMOOTH_LINE_WIDTH_GRANULARITY (= GL_LINE_WIDTH_GRANULARITY), GL_FRAMEBUFFER_BINDING
/// (= GL_DRAW_FRAMEBUFFER_BINDING), GL_MAX_VARYING_FLOATS (= GL_MAX_VARYING_COMPONENTS),
/// GL_MAX_COMBINED_IMAGE_UNITS_AND_FRAGMENT_OUTPUTS (= GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES),
/// GL_VERTEX_PROGRAM_POINT_SIZE (= GL_PROGRAM_POINT_SIZE), GL_COPY_READ_BUFFER /
/// GL_COPY_WRITE_BUFFER (= the *_BINDING names), GL_TEXTURE_BUFFER (= GL_TEXTURE_BUFFER_BINDING),
/// GL_MAX_COMPUTE_FIXED_GROUP_INVOCATIONS_ARB / GL_MAX_COMPUTE_FIXED_GROUP_SIZE_ARB (= the
/// core compute names), GL_MAX_SHADER_COMPILER_THREADS_ARB (= the KHR name), and the
/// GL_TRANSFORM_FEEDBACK_PAUSED / _ACTIVE spellings of GL_TRANSFORM_FEEDBACK_BUFFER_PAUSED /
/// _ACTIVE.
const GET_PNAME: &[(&str, Count)] = &[
    // --- Vertex array and buffer binding state ---
    ("GL_VERTEX_ARRAY_BINDING", Fixed(1)),
    ("GL_ARRAY_BUFFER_BINDING", Fixed(1)),
    ("GL_ELEMENT_ARRAY_BUFFER_BINDING", Fixed(1)),
    ("GL_COPY_READ_BUFFER_BINDING", Fixed(1)),
    ("GL_COPY_WRITE_BUFFER_BINDING", Fixed(1)),
    ("GL_DRAW_INDIRECT_BUFFER_BINDING", Fixed(1)),
    ("GL_DISPATCH_INDIRECT_BUFFER_BINDING", Fixed(1)),
    ("GL_PARAMETER_BUFFER_BINDING", Fixed(1)),
    ("GL_PIXEL_PACK_BUFFER_BINDING", Fixed(1)),
    ("GL_PIXEL_UNPACK_BUFFER_BINDING", Fixed(1)),
    ("GL_QUERY_BUFFER_BINDING", Fixed(1)),
    ("GL_TEXTURE_BUFFER_BINDING", Fixed(1)),
    ("GL_PRIMITIVE_RESTART", Fixed(1)),
    ("GL_PRIMITIVE_RESTART_FIXED_INDEX", Fixed(1)),
    ("GL_PRIMITIVE_RESTART_INDEX", Fixed(1)),
    // Indexed buffer bindings: the *_BINDING names also work unindexed (generic binding
    // point); *_START and *_SIZE are indexed only. One value each.
    ("GL_ATOMIC_COUNTER_BUFFER_BINDING", Fixed(1)),
    ("GL_ATOMIC_COUNTER_BUFFER_START", Fixed(1)),
    ("GL_ATOMIC_COUNTER_BUFFER_SIZE", Fixed(1)),
    ("GL_SHADER_STORAGE_BUFFER_BINDING", Fixed(1)),
    ("GL_SHADER_STORAGE_BUFFER_START", Fixed(1)),
    ("GL_SHADER_STORAGE_BUFFER_SIZE", Fixed(1)),
    ("GL_TRANSFORM_FEEDBACK_BUFFER_BINDING", Fixed(1)),
    ("GL_TRANSFORM_FEEDBACK_BUFFER_START", Fixed(1)),
    ("GL_TRANSFORM_FEEDBACK_BUFFER_SIZE", Fixed(1)),
    ("GL_UNIFORM_BUFFER_BINDING", Fixed(1)),
    ("GL_UNIFORM_BUFFER_START", Fixed(1)),
    ("GL_UNIFORM_BUFFER_SIZE", Fixed(1)),
    // Vertex attribute bindings of the current VAO (indexed only).
    ("GL_VERTEX_BINDING_BUFFER", Fixed(1)),
    ("GL_VERTEX_BINDING_DIVISOR", Fixed(1)),
    ("GL_VERTEX_BINDING_OFFSET", Fixed(1)),
    ("GL_VERTEX_BINDING_STRIDE", Fixed(1)),
    // --- Transformation state ---
    ("GL_VIEWPORT", Fixed(4)),
    ("GL_DEPTH_RANGE", Fixed(2)),
    ("GL_CLIP_DISTANCE0", Fixed(1)),
    ("GL_CLIP_DISTANCE1", Fixed(1)),
    ("GL_CLIP_DISTANCE2", Fixed(1)),
    ("GL_CLIP_DISTANCE3", Fixed(1)),
    ("GL_CLIP_DISTANCE4", Fixed(1)),
    ("GL_CLIP_DISTANCE5", Fixed(1)),
    ("GL_CLIP_DISTANCE6", Fixed(1)),
    ("GL_CLIP_DISTANCE7", Fixed(1)),
    ("GL_DEPTH_CLAMP", Fixed(1)),
    ("GL_CLIP_ORIGIN", Fixed(1)),
    ("GL_CLIP_DEPTH_MODE", Fixed(1)),
    ("GL_TRANSFORM_FEEDBACK_BINDING", Fixed(1)),
    ("GL_TRANSFORM_FEEDBACK_BUFFER_PAUSED", Fixed(1)),
    ("GL_TRANSFORM_FEEDBACK_BUFFER_ACTIVE", Fixed(1)),
    // --- Coloring ---
    ("GL_CLAMP_READ_COLOR", Fixed(1)),
    ("GL_PROVOKING_VERTEX", Fixed(1)),
    // --- Rasterization ---
    ("GL_RASTERIZER_DISCARD", Fixed(1)),
    ("GL_POINT_SIZE", Fixed(1)),
    ("GL_POINT_FADE_THRESHOLD_SIZE", Fixed(1)),
    ("GL_POINT_SPRITE_COORD_ORIGIN", Fixed(1)),
    ("GL_PROGRAM_POINT_SIZE", Fixed(1)),
    ("GL_LINE_WIDTH", Fixed(1)),
    ("GL_LINE_SMOOTH", Fixed(1)),
    ("GL_CULL_FACE", Fixed(1)),
    ("GL_CULL_FACE_MODE", Fixed(1)),
    ("GL_FRONT_FACE", Fixed(1)),
    ("GL_POLYGON_SMOOTH", Fixed(1)),
    // The core state table lists one enum (front and back share the mode), but Mesa
    // (`CONTEXT_ENUM2`) and the compatibility profile return two values, front then back.
    // Two is the safe size for an output buffer.
    ("GL_POLYGON_MODE", Fixed(2)),
    ("GL_POLYGON_OFFSET_FACTOR", Fixed(1)),
    ("GL_POLYGON_OFFSET_UNITS", Fixed(1)),
    ("GL_POLYGON_OFFSET_CLAMP", Fixed(1)),
    ("GL_POLYGON_OFFSET_POINT", Fixed(1)),
    ("GL_POLYGON_OFFSET_LINE", Fixed(1)),
    ("GL_POLYGON_OFFSET_FILL", Fixed(1)),
    // --- Multisampling ---
    ("GL_MULTISAMPLE", Fixed(1)),
    ("GL_SAMPLE_ALPHA_TO_COVERAGE", Fixed(1)),
    ("GL_SAMPLE_ALPHA_TO_ONE", Fixed(1)),
    ("GL_SAMPLE_COVERAGE", Fixed(1)),
    ("GL_SAMPLE_COVERAGE_VALUE", Fixed(1)),
    ("GL_SAMPLE_COVERAGE_INVERT", Fixed(1)),
    ("GL_SAMPLE_SHADING", Fixed(1)),
    ("GL_MIN_SAMPLE_SHADING_VALUE", Fixed(1)),
    ("GL_SAMPLE_MASK", Fixed(1)),
    // Indexed by mask word.
    ("GL_SAMPLE_MASK_VALUE", Fixed(1)),
    // --- Textures (selector and binding state) ---
    ("GL_ACTIVE_TEXTURE", Fixed(1)),
    ("GL_TEXTURE_BINDING_1D", Fixed(1)),
    ("GL_TEXTURE_BINDING_2D", Fixed(1)),
    ("GL_TEXTURE_BINDING_3D", Fixed(1)),
    ("GL_TEXTURE_BINDING_1D_ARRAY", Fixed(1)),
    ("GL_TEXTURE_BINDING_2D_ARRAY", Fixed(1)),
    ("GL_TEXTURE_BINDING_CUBE_MAP_ARRAY", Fixed(1)),
    ("GL_TEXTURE_BINDING_RECTANGLE", Fixed(1)),
    ("GL_TEXTURE_BINDING_BUFFER", Fixed(1)),
    ("GL_TEXTURE_BINDING_CUBE_MAP", Fixed(1)),
    ("GL_TEXTURE_BINDING_2D_MULTISAMPLE", Fixed(1)),
    ("GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY", Fixed(1)),
    ("GL_SAMPLER_BINDING", Fixed(1)),
    ("GL_TEXTURE_CUBE_MAP_SEAMLESS", Fixed(1)),
    // Image unit bindings (indexed only).
    ("GL_IMAGE_BINDING_NAME", Fixed(1)),
    ("GL_IMAGE_BINDING_LEVEL", Fixed(1)),
    ("GL_IMAGE_BINDING_LAYERED", Fixed(1)),
    ("GL_IMAGE_BINDING_LAYER", Fixed(1)),
    ("GL_IMAGE_BINDING_ACCESS", Fixed(1)),
    ("GL_IMAGE_BINDING_FORMAT", Fixed(1)),
    // --- Pixel operations ---
    ("GL_SCISSOR_TEST", Fixed(1)),
    ("GL_SCISSOR_BOX", Fixed(4)),
    ("GL_STENCIL_TEST", Fixed(1)),
    ("GL_STENCIL_FUNC", Fixed(1)),
    ("GL_STENCIL_VALUE_MASK", Fixed(1)),
    ("GL_STENCIL_REF", Fixed(1)),
    ("GL_STENCIL_FAIL", Fixed(1)),
    ("GL_STENCIL_PASS_DEPTH_FAIL", Fixed(1)),
    ("GL_STENCIL_PASS_DEPTH_PASS", Fixed(1)),
    ("GL_STENCIL_BACK_FUNC", Fixed(1)),
    ("GL_STENCIL_BACK_VALUE_MASK", Fixed(1)),
    ("GL_STENCIL_BACK_REF", Fixed(1)),
    ("GL_STENCIL_BACK_FAIL", Fixed(1)),
    ("GL_STENCIL_BACK_PASS_DEPTH_FAIL", Fixed(1)),
    ("GL_STENCIL_BACK_PASS_DEPTH_PASS", Fixed(1)),
    ("GL_DEPTH_TEST", Fixed(1)),
    ("GL_DEPTH_FUNC", Fixed(1)),
    ("GL_BLEND", Fixed(1)),
    ("GL_BLEND_SRC_RGB", Fixed(1)),
    ("GL_BLEND_SRC_ALPHA", Fixed(1)),
    ("GL_BLEND_DST_RGB", Fixed(1)),
    ("GL_BLEND_DST_ALPHA", Fixed(1)),
    // Pre-1.4 names of the RGB blend factors; still in glcorearb.h and accepted by
    // implementations (Mesa lists them for core contexts).
    ("GL_BLEND_SRC", Fixed(1)),
    ("GL_BLEND_DST", Fixed(1)),
    ("GL_BLEND_EQUATION_RGB", Fixed(1)),
    ("GL_BLEND_EQUATION_ALPHA", Fixed(1)),
    ("GL_BLEND_COLOR", Fixed(4)),
    ("GL_FRAMEBUFFER_SRGB", Fixed(1)),
    ("GL_DITHER", Fixed(1)),
    ("GL_COLOR_LOGIC_OP", Fixed(1)),
    ("GL_LOGIC_OP_MODE", Fixed(1)),
    // KHR_blend_equation_advanced_coherent
    ("GL_BLEND_ADVANCED_COHERENT_KHR", Fixed(1)),
    // --- Framebuffer control ---
    ("GL_COLOR_WRITEMASK", Fixed(4)),
    ("GL_DEPTH_WRITEMASK", Fixed(1)),
    ("GL_STENCIL_WRITEMASK", Fixed(1)),
    ("GL_STENCIL_BACK_WRITEMASK", Fixed(1)),
    ("GL_COLOR_CLEAR_VALUE", Fixed(4)),
    ("GL_DEPTH_CLEAR_VALUE", Fixed(1)),
    ("GL_STENCIL_CLEAR_VALUE", Fixed(1)),
    ("GL_DRAW_FRAMEBUFFER_BINDING", Fixed(1)),
    ("GL_READ_FRAMEBUFFER_BINDING", Fixed(1)),
    ("GL_RENDERBUFFER_BINDING", Fixed(1)),
    ("GL_DRAW_BUFFER", Fixed(1)),
    ("GL_DRAW_BUFFER0", Fixed(1)),
    ("GL_DRAW_BUFFER1", Fixed(1)),
    ("GL_DRAW_BUFFER2", Fixed(1)),
    ("GL_DRAW_BUFFER3", Fixed(1)),
    ("GL_DRAW_BUFFER4", Fixed(1)),
    ("GL_DRAW_BUFFER5", Fixed(1)),
    ("GL_DRAW_BUFFER6", Fixed(1)),
    ("GL_DRAW_BUFFER7", Fixed(1)),
    ("GL_DRAW_BUFFER8", Fixed(1)),
    ("GL_DRAW_BUFFER9", Fixed(1)),
    ("GL_DRAW_BUFFER10", Fixed(1)),
    ("GL_DRAW_BUFFER11", Fixed(1)),
    ("GL_DRAW_BUFFER12", Fixed(1)),
    ("GL_DRAW_BUFFER13", Fixed(1)),
    ("GL_DRAW_BUFFER14", Fixed(1)),
    ("GL_DRAW_BUFFER15", Fixed(1)),
    ("GL_READ_BUFFER", Fixed(1)),
    // --- Pixels (pixel store) ---
    ("GL_UNPACK_SWAP_BYTES", Fixed(1)),
    ("GL_UNPACK_LSB_FIRST", Fixed(1)),
    ("GL_UNPACK_IMAGE_HEIGHT", Fixed(1)),
    ("GL_UNPACK_SKIP_IMAGES", Fixed(1)),
    ("GL_UNPACK_ROW_LENGTH", Fixed(1)),
    ("GL_UNPACK_SKIP_ROWS", Fixed(1)),
    ("GL_UNPACK_SKIP_PIXELS", Fixed(1)),
    ("GL_UNPACK_ALIGNMENT", Fixed(1)),
    ("GL_UNPACK_COMPRESSED_BLOCK_WIDTH", Fixed(1)),
    ("GL_UNPACK_COMPRESSED_BLOCK_HEIGHT", Fixed(1)),
    ("GL_UNPACK_COMPRESSED_BLOCK_DEPTH", Fixed(1)),
    ("GL_UNPACK_COMPRESSED_BLOCK_SIZE", Fixed(1)),
    ("GL_PACK_SWAP_BYTES", Fixed(1)),
    ("GL_PACK_LSB_FIRST", Fixed(1)),
    ("GL_PACK_IMAGE_HEIGHT", Fixed(1)),
    ("GL_PACK_SKIP_IMAGES", Fixed(1)),
    ("GL_PACK_ROW_LENGTH", Fixed(1)),
    ("GL_PACK_SKIP_ROWS", Fixed(1)),
    ("GL_PACK_SKIP_PIXELS", Fixed(1)),
    ("GL_PACK_ALIGNMENT", Fixed(1)),
    ("GL_PACK_COMPRESSED_BLOCK_WIDTH", Fixed(1)),
    ("GL_PACK_COMPRESSED_BLOCK_HEIGHT", Fixed(1)),
    ("GL_PACK_COMPRESSED_BLOCK_DEPTH", Fixed(1)),
    ("GL_PACK_COMPRESSED_BLOCK_SIZE", Fixed(1)),
    // --- Program pipeline and shader state ---
    ("GL_CURRENT_PROGRAM", Fixed(1)),
    ("GL_PROGRAM_PIPELINE_BINDING", Fixed(1)),
    ("GL_PATCH_VERTICES", Fixed(1)),
    ("GL_PATCH_DEFAULT_OUTER_LEVEL", Fixed(4)),
    ("GL_PATCH_DEFAULT_INNER_LEVEL", Fixed(2)),
    // --- Hints ---
    ("GL_LINE_SMOOTH_HINT", Fixed(1)),
    ("GL_POLYGON_SMOOTH_HINT", Fixed(1)),
    ("GL_TEXTURE_COMPRESSION_HINT", Fixed(1)),
    ("GL_FRAGMENT_SHADER_DERIVATIVE_HINT", Fixed(1)),
    // --- Debug output (KHR_debug, core 4.3) ---
    ("GL_DEBUG_OUTPUT", Fixed(1)),
    ("GL_DEBUG_OUTPUT_SYNCHRONOUS", Fixed(1)),
    ("GL_DEBUG_LOGGED_MESSAGES", Fixed(1)),
    ("GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH", Fixed(1)),
    ("GL_DEBUG_GROUP_STACK_DEPTH", Fixed(1)),
    // --- Implementation-dependent values ---
    ("GL_MAX_CLIP_DISTANCES", Fixed(1)),
    ("GL_MAX_CULL_DISTANCES", Fixed(1)),
    ("GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES", Fixed(1)),
    ("GL_SUBPIXEL_BITS", Fixed(1)),
    ("GL_MAX_ELEMENT_INDEX", Fixed(1)),
    ("GL_PRIMITIVE_RESTART_FOR_PATCHES_SUPPORTED", Fixed(1)),
    ("GL_MAX_3D_TEXTURE_SIZE", Fixed(1)),
    ("GL_MAX_TEXTURE_SIZE", Fixed(1)),
    ("GL_MAX_ARRAY_TEXTURE_LAYERS", Fixed(1)),
    ("GL_MAX_TEXTURE_LOD_BIAS", Fixed(1)),
    ("GL_MAX_TEXTURE_MAX_ANISOTROPY", Fixed(1)),
    ("GL_MAX_CUBE_MAP_TEXTURE_SIZE", Fixed(1)),
    ("GL_MAX_RENDERBUFFER_SIZE", Fixed(1)),
    ("GL_MAX_RECTANGLE_TEXTURE_SIZE", Fixed(1)),
    ("GL_MAX_TEXTURE_BUFFER_SIZE", Fixed(1)),
    ("GL_MAX_VIEWPORT_DIMS", Fixed(2)),
    ("GL_MAX_VIEWPORTS", Fixed(1)),
    ("GL_VIEWPORT_SUBPIXEL_BITS", Fixed(1)),
    ("GL_VIEWPORT_BOUNDS_RANGE", Fixed(2)),
    ("GL_LAYER_PROVOKING_VERTEX", Fixed(1)),
    ("GL_VIEWPORT_INDEX_PROVOKING_VERTEX", Fixed(1)),
    ("GL_POINT_SIZE_RANGE", Fixed(2)),
    ("GL_POINT_SIZE_GRANULARITY", Fixed(1)),
    ("GL_ALIASED_LINE_WIDTH_RANGE", Fixed(2)),
    ("GL_LINE_WIDTH_RANGE", Fixed(2)),
    ("GL_LINE_WIDTH_GRANULARITY", Fixed(1)),
    ("GL_MAX_ELEMENTS_INDICES", Fixed(1)),
    ("GL_MAX_ELEMENTS_VERTICES", Fixed(1)),
    ("GL_MAX_VERTEX_ATTRIB_RELATIVE_OFFSET", Fixed(1)),
    ("GL_MAX_VERTEX_ATTRIB_BINDINGS", Fixed(1)),
    ("GL_MAX_VERTEX_ATTRIB_STRIDE", Fixed(1)),
    ("GL_NUM_COMPRESSED_TEXTURE_FORMATS", Fixed(1)),
    ("GL_COMPRESSED_TEXTURE_FORMATS", Queried("GL_NUM_COMPRESSED_TEXTURE_FORMATS")),
    ("GL_NUM_PROGRAM_BINARY_FORMATS", Fixed(1)),
    ("GL_PROGRAM_BINARY_FORMATS", Queried("GL_NUM_PROGRAM_BINARY_FORMATS")),
    ("GL_NUM_SHADER_BINARY_FORMATS", Fixed(1)),
    ("GL_SHADER_BINARY_FORMATS", Queried("GL_NUM_SHADER_BINARY_FORMATS")),
    ("GL_SHADER_COMPILER", Fixed(1)),
    ("GL_MIN_MAP_BUFFER_ALIGNMENT", Fixed(1)),
    ("GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT", Fixed(1)),
    ("GL_MAX_SERVER_WAIT_TIMEOUT", Fixed(1)),
    ("GL_TIMESTAMP", Fixed(1)),
    ("GL_MAJOR_VERSION", Fixed(1)),
    ("GL_MINOR_VERSION", Fixed(1)),
    ("GL_CONTEXT_FLAGS", Fixed(1)),
    ("GL_CONTEXT_PROFILE_MASK", Fixed(1)),
    ("GL_CONTEXT_RELEASE_BEHAVIOR", Fixed(1)),
    ("GL_CONTEXT_ROBUST_ACCESS", Fixed(1)),
    ("GL_RESET_NOTIFICATION_STRATEGY", Fixed(1)),
    ("GL_NUM_EXTENSIONS", Fixed(1)),
    ("GL_NUM_SHADING_LANGUAGE_VERSIONS", Fixed(1)),
    ("GL_NUM_SPIR_V_EXTENSIONS", Fixed(1)),
    ("GL_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION", Fixed(1)),
    // GL_EXT_texture_integer (listed by glcmd: codegen/src/aliases.rs): whether the draw
    // framebuffer's colour buffers are integer; not in glcorearb.h, value from gl.xml.
    ("GL_RGBA_INTEGER_MODE_EXT", Fixed(1)),
    // Vertex shader limits.
    ("GL_MAX_VERTEX_ATTRIBS", Fixed(1)),
    ("GL_MAX_VERTEX_UNIFORM_COMPONENTS", Fixed(1)),
    ("GL_MAX_VERTEX_UNIFORM_VECTORS", Fixed(1)),
    ("GL_MAX_VERTEX_UNIFORM_BLOCKS", Fixed(1)),
    ("GL_MAX_VERTEX_OUTPUT_COMPONENTS", Fixed(1)),
    ("GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS", Fixed(1)),
    ("GL_MAX_VERTEX_ATOMIC_COUNTER_BUFFERS", Fixed(1)),
    ("GL_MAX_VERTEX_ATOMIC_COUNTERS", Fixed(1)),
    ("GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS", Fixed(1)),
    ("GL_MAX_VERTEX_IMAGE_UNIFORMS", Fixed(1)),
    // Tessellation limits.
    ("GL_MAX_TESS_GEN_LEVEL", Fixed(1)),
    ("GL_MAX_PATCH_VERTICES", Fixed(1)),
    ("GL_MAX_TESS_CONTROL_UNIFORM_COMPONENTS", Fixed(1)),
    ("GL_MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS", Fixed(1)),
    ("GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS", Fixed(1)),
    ("GL_MAX_TESS_PATCH_COMPONENTS", Fixed(1)),
    ("GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS", Fixed(1)),
    ("GL_MAX_TESS_CONTROL_INPUT_COMPONENTS", Fixed(1)),
    ("GL_MAX_TESS_CONTROL_UNIFORM_BLOCKS", Fixed(1)),
    ("GL_MAX_TESS_CONTROL_ATOMIC_COUNTER_BUFFERS", Fixed(1)),
    ("GL_MAX_TESS_CONTROL_ATOMIC_COUNTERS", Fixed(1)),
    ("GL_MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS", Fixed(1)),
    ("GL_MAX_TESS_CONTROL_IMAGE_UNIFORMS", Fixed(1)),
    ("GL_MAX_TESS_EVALUATION_UNIFORM_COMPONENTS", Fixed(1)),
    ("GL_MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS", Fixed(1)),
    ("GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS", Fixed(1)),
    ("GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS", Fixed(1)),
    ("GL_MAX_TESS_EVALUATION_UNIFORM_BLOCKS", Fixed(1)),
    ("GL_MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS", Fixed(1)),
    ("GL_MAX_TESS_EVALUATION_ATOMIC_COUNTERS", Fixed(1)),
    ("GL_MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS", Fixed(1)),
    ("GL_MAX_TESS_EVALUATION_IMAGE_UNIFORMS", Fixed(1)),
    // Geometry shader limits.
    ("GL_MAX_GEOMETRY_UNIFORM_COMPONENTS", Fixed(1)),
    ("GL_MAX_GEOMETRY_UNIFORM_BLOCKS", Fixed(1)),
    ("GL_MAX_GEOMETRY_INPUT_COMPONENTS", Fixed(1)),
    ("GL_MAX_GEOMETRY_OUTPUT_COMPONENTS", Fixed(1)),
    ("GL_MAX_GEOMETRY_OUTPUT_VERTICES", Fixed(1)),
    ("GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS", Fixed(1)),
    ("GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS", Fixed(1)),
    ("GL_MAX_GEOMETRY_SHADER_INVOCATIONS", Fixed(1)),
    ("GL_MAX_VERTEX_STREAMS", Fixed(1)),
    ("GL_MAX_GEOMETRY_ATOMIC_COUNTER_BUFFERS", Fixed(1)),
    ("GL_MAX_GEOMETRY_ATOMIC_COUNTERS", Fixed(1)),
    ("GL_MAX_GEOMETRY_SHADER_STORAGE_BLOCKS", Fixed(1)),
    ("GL_MAX_GEOMETRY_IMAGE_UNIFORMS", Fixed(1)),
    // Fragment shader limits.
    ("GL_MAX_FRAGMENT_UNIFORM_COMPONENTS", Fixed(1)),
    ("GL_MAX_FRAGMENT_UNIFORM_VECTORS", Fixed(1)),
    ("GL_MAX_FRAGMENT_UNIFORM_BLOCKS", Fixed(1)),
    ("GL_MAX_FRAGMENT_INPUT_COMPONENTS", Fixed(1)),
    ("GL_MAX_TEXTURE_IMAGE_UNITS", Fixed(1)),
    ("GL_MIN_PROGRAM_TEXTURE_GATHER_OFFSET", Fixed(1)),
    ("GL_MAX_PROGRAM_TEXTURE_GATHER_OFFSET", Fixed(1)),
    ("GL_MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS", Fixed(1)),
    ("GL_MAX_FRAGMENT_ATOMIC_COUNTERS", Fixed(1)),
    ("GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS", Fixed(1)),
    ("GL_MAX_FRAGMENT_IMAGE_UNIFORMS", Fixed(1)),
    ("GL_MIN_FRAGMENT_INTERPOLATION_OFFSET", Fixed(1)),
    ("GL_MAX_FRAGMENT_INTERPOLATION_OFFSET", Fixed(1)),
    ("GL_FRAGMENT_INTERPOLATION_OFFSET_BITS", Fixed(1)),
    // Compute shader limits. GL_MAX_COMPUTE_WORK_GROUP_COUNT / _SIZE are x, y, z limits that
    // the spec only exposes through the indexed queries (one value per index); listed with 3
    // so that a whole-vector query (accepted by some drivers) never overflows.
    ("GL_MAX_COMPUTE_WORK_GROUP_COUNT", Fixed(3)),
    ("GL_MAX_COMPUTE_WORK_GROUP_SIZE", Fixed(3)),
    ("GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS", Fixed(1)),
    ("GL_MAX_COMPUTE_UNIFORM_BLOCKS", Fixed(1)),
    ("GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS", Fixed(1)),
    ("GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS", Fixed(1)),
    ("GL_MAX_COMPUTE_ATOMIC_COUNTERS", Fixed(1)),
    ("GL_MAX_COMPUTE_SHARED_MEMORY_SIZE", Fixed(1)),
    ("GL_MAX_COMPUTE_UNIFORM_COMPONENTS", Fixed(1)),
    ("GL_MAX_COMPUTE_IMAGE_UNIFORMS", Fixed(1)),
    ("GL_MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS", Fixed(1)),
    ("GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS", Fixed(1)),
    // ARB_compute_variable_group_size (same shape as the fixed-size limits above).
    ("GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB", Fixed(1)),
    ("GL_MAX_COMPUTE_VARIABLE_GROUP_SIZE_ARB", Fixed(3)),
    // Aggregate shader limits.
    ("GL_MIN_PROGRAM_TEXEL_OFFSET", Fixed(1)),
    ("GL_MAX_PROGRAM_TEXEL_OFFSET", Fixed(1)),
    ("GL_MAX_UNIFORM_BUFFER_BINDINGS", Fixed(1)),
    ("GL_MAX_UNIFORM_BLOCK_SIZE", Fixed(1)),
    ("GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT", Fixed(1)),
    ("GL_MAX_COMBINED_UNIFORM_BLOCKS", Fixed(1)),
    ("GL_MAX_VARYING_COMPONENTS", Fixed(1)),
    ("GL_MAX_VARYING_VECTORS", Fixed(1)),
    ("GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS", Fixed(1)),
    ("GL_MAX_SUBROUTINES", Fixed(1)),
    ("GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS", Fixed(1)),
    ("GL_MAX_UNIFORM_LOCATIONS", Fixed(1)),
    ("GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS", Fixed(1)),
    ("GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE", Fixed(1)),
    ("GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS", Fixed(1)),
    ("GL_MAX_COMBINED_ATOMIC_COUNTERS", Fixed(1)),
    ("GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS", Fixed(1)),
    ("GL_MAX_SHADER_STORAGE_BLOCK_SIZE", Fixed(1)),
    ("GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS", Fixed(1)),
    ("GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT", Fixed(1)),
    ("GL_MAX_IMAGE_UNITS", Fixed(1)),
    ("GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES", Fixed(1)),
    ("GL_MAX_IMAGE_SAMPLES", Fixed(1)),
    ("GL_MAX_COMBINED_IMAGE_UNIFORMS", Fixed(1)),
    ("GL_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS", Fixed(1)),
    ("GL_MAX_COMBINED_GEOMETRY_UNIFORM_COMPONENTS", Fixed(1)),
    ("GL_MAX_COMBINED_TESS_CONTROL_UNIFORM_COMPONENTS", Fixed(1)),
    ("GL_MAX_COMBINED_TESS_EVALUATION_UNIFORM_COMPONENTS", Fixed(1)),
    ("GL_MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS", Fixed(1)),
    // Debug limits.
    ("GL_MAX_DEBUG_MESSAGE_LENGTH", Fixed(1)),
    ("GL_MAX_DEBUG_LOGGED_MESSAGES", Fixed(1)),
    ("GL_MAX_DEBUG_GROUP_STACK_DEPTH", Fixed(1)),
    ("GL_MAX_LABEL_LENGTH", Fixed(1)),
    // Transform feedback limits.
    ("GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS", Fixed(1)),
    ("GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS", Fixed(1)),
    ("GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS", Fixed(1)),
    ("GL_MAX_TRANSFORM_FEEDBACK_BUFFERS", Fixed(1)),
    // Framebuffer limits.
    ("GL_MAX_FRAMEBUFFER_WIDTH", Fixed(1)),
    ("GL_MAX_FRAMEBUFFER_HEIGHT", Fixed(1)),
    ("GL_MAX_FRAMEBUFFER_LAYERS", Fixed(1)),
    ("GL_MAX_FRAMEBUFFER_SAMPLES", Fixed(1)),
    ("GL_MAX_SAMPLE_MASK_WORDS", Fixed(1)),
    ("GL_MAX_SAMPLES", Fixed(1)),
    ("GL_MAX_COLOR_TEXTURE_SAMPLES", Fixed(1)),
    ("GL_MAX_DEPTH_TEXTURE_SAMPLES", Fixed(1)),
    ("GL_MAX_INTEGER_SAMPLES", Fixed(1)),
    ("GL_MAX_COLOR_ATTACHMENTS", Fixed(1)),
    ("GL_MAX_DRAW_BUFFERS", Fixed(1)),
    ("GL_MAX_DUAL_SOURCE_DRAW_BUFFERS", Fixed(1)),
    // Current framebuffer (read-only, per framebuffer; also glGetFramebufferParameteriv).
    ("GL_DOUBLEBUFFER", Fixed(1)),
    ("GL_STEREO", Fixed(1)),
    ("GL_SAMPLE_BUFFERS", Fixed(1)),
    ("GL_SAMPLES", Fixed(1)),
    ("GL_IMPLEMENTATION_COLOR_READ_FORMAT", Fixed(1)),
    ("GL_IMPLEMENTATION_COLOR_READ_TYPE", Fixed(1)),
    // --- ARB / KHR extensions in glcorearb.h ---
    // ARB_ES3_2_compatibility
    ("GL_PRIMITIVE_BOUNDING_BOX_ARB", Fixed(8)),
    ("GL_MULTISAMPLE_LINE_WIDTH_RANGE_ARB", Fixed(2)),
    ("GL_MULTISAMPLE_LINE_WIDTH_GRANULARITY_ARB", Fixed(1)),
    // ARB_sample_locations
    ("GL_SAMPLE_LOCATION_SUBPIXEL_BITS_ARB", Fixed(1)),
    ("GL_SAMPLE_LOCATION_PIXEL_GRID_WIDTH_ARB", Fixed(1)),
    ("GL_SAMPLE_LOCATION_PIXEL_GRID_HEIGHT_ARB", Fixed(1)),
    ("GL_PROGRAMMABLE_SAMPLE_LOCATION_TABLE_SIZE_ARB", Fixed(1)),
    // ARB_sparse_buffer, ARB_sparse_texture
    ("GL_SPARSE_BUFFER_PAGE_SIZE_ARB", Fixed(1)),
    ("GL_MAX_SPARSE_TEXTURE_SIZE_ARB", Fixed(1)),
    ("GL_MAX_SPARSE_3D_TEXTURE_SIZE_ARB", Fixed(1)),
    ("GL_MAX_SPARSE_ARRAY_TEXTURE_LAYERS_ARB", Fixed(1)),
    ("GL_SPARSE_TEXTURE_FULL_ARRAY_CUBE_MIPMAPS_ARB", Fixed(1)),
    // ARB_texture_gather
    ("GL_MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS_ARB", Fixed(1)),
    // KHR_parallel_shader_compile / ARB_parallel_shader_compile
    ("GL_MAX_SHADER_COMPILER_THREADS_KHR", Fixed(1)),
    // KHR_shader_subgroup
    ("GL_SUBGROUP_SIZE_KHR", Fixed(1)),
    ("GL_SUBGROUP_SUPPORTED_STAGES_KHR", Fixed(1)),
    ("GL_SUBGROUP_SUPPORTED_FEATURES_KHR", Fixed(1)),
    ("GL_SUBGROUP_QUAD_ALL_STAGES_KHR", Fixed(1)),
];

// ---------------------------------------------------------------------------------------
// Points and patches (sections 14.4 "Points" and 10.1.15 "Separate Patches").
// ---------------------------------------------------------------------------------------

/// glPointParameterfv / glPointParameteriv. The core profile has only these two; the
/// compatibility point parameters (GL_POINT_SIZE_MIN, GL_POINT_DISTANCE_ATTENUATION, ...)
/// are not in glcorearb.h.
const POINT_PARAMETER_NAME_ARB: &[(&str, Count)] =
    &[("GL_POINT_FADE_THRESHOLD_SIZE", Fixed(1)), ("GL_POINT_SPRITE_COORD_ORIGIN", Fixed(1))];

/// glPatchParameterfv. GL_PATCH_VERTICES is in this gl.xml group too, but only
/// glPatchParameteri accepts it (glPatchParameterfv with it is GL_INVALID_ENUM).
const PATCH_PARAMETER_NAME: &[(&str, Count)] =
    &[("GL_PATCH_DEFAULT_OUTER_LEVEL", Fixed(4)), ("GL_PATCH_DEFAULT_INNER_LEVEL", Fixed(2))];

/// glGetMultisamplefv (section 14.3.1): one (x, y) position per sample index.
/// GL_SAMPLE_LOCATION_ARB is an alias of GL_SAMPLE_POSITION and is left out.
const GET_MULTISAMPLE_PNAME_NV: &[(&str, Count)] = &[
    ("GL_SAMPLE_POSITION", Fixed(2)),
    // ARB_sample_locations
    ("GL_PROGRAMMABLE_SAMPLE_LOCATION_ARB", Fixed(2)),
];

// ---------------------------------------------------------------------------------------
// Query objects (section 4.2.3 "Query Object Queries"; state tables "Query Object State"
// and "Asynchronous query state").
// ---------------------------------------------------------------------------------------

/// glGetQueryiv, glGetQueryIndexediv.
const QUERY_PARAMETER_NAME: &[(&str, Count)] = &[("GL_CURRENT_QUERY", Fixed(1)), ("GL_QUERY_COUNTER_BITS", Fixed(1))];

/// glGetQueryObject{i,ui,i64,ui64}v. (With a buffer bound to GL_QUERY_BUFFER the pointer
/// is an offset into that buffer instead; that is the caller's business, the count is the
/// same.)
const QUERY_OBJECT_PARAMETER_NAME: &[(&str, Count)] = &[
    ("GL_QUERY_RESULT", Fixed(1)),
    ("GL_QUERY_RESULT_AVAILABLE", Fixed(1)),
    ("GL_QUERY_RESULT_NO_WAIT", Fixed(1)),
    ("GL_QUERY_TARGET", Fixed(1)),
];

// ---------------------------------------------------------------------------------------
// Buffer objects (chapter 6, "Buffer Object Queries"; state table "Buffer Object State").
// ---------------------------------------------------------------------------------------

/// glGetBufferParameteriv/i64v, glGetNamedBufferParameteriv/i64v.
const BUFFER_PNAME_ARB: &[(&str, Count)] = &[
    ("GL_BUFFER_ACCESS", Fixed(1)),
    ("GL_BUFFER_ACCESS_FLAGS", Fixed(1)),
    ("GL_BUFFER_IMMUTABLE_STORAGE", Fixed(1)),
    ("GL_BUFFER_MAPPED", Fixed(1)),
    ("GL_BUFFER_MAP_LENGTH", Fixed(1)),
    ("GL_BUFFER_MAP_OFFSET", Fixed(1)),
    ("GL_BUFFER_SIZE", Fixed(1)),
    ("GL_BUFFER_STORAGE_FLAGS", Fixed(1)),
    ("GL_BUFFER_USAGE", Fixed(1)),
];

// ---------------------------------------------------------------------------------------
// Shader, program and pipeline objects (section 7.13 "Shader, Program, and Program
// Pipeline Queries"; state tables "Shader Object State", "Program Object State",
// "Program Pipeline Object State").
// ---------------------------------------------------------------------------------------

/// glGetShaderiv.
const SHADER_PARAMETER_NAME: &[(&str, Count)] = &[
    ("GL_SHADER_TYPE", Fixed(1)),
    ("GL_DELETE_STATUS", Fixed(1)),
    ("GL_COMPILE_STATUS", Fixed(1)),
    ("GL_INFO_LOG_LENGTH", Fixed(1)),
    ("GL_SHADER_SOURCE_LENGTH", Fixed(1)),
    ("GL_SPIR_V_BINARY", Fixed(1)),
    // KHR_parallel_shader_compile (= GL_COMPLETION_STATUS_ARB)
    ("GL_COMPLETION_STATUS_KHR", Fixed(1)),
];

/// glGetProgramiv.
const PROGRAM_PROPERTY_ARB: &[(&str, Count)] = &[
    ("GL_DELETE_STATUS", Fixed(1)),
    ("GL_LINK_STATUS", Fixed(1)),
    ("GL_VALIDATE_STATUS", Fixed(1)),
    ("GL_INFO_LOG_LENGTH", Fixed(1)),
    ("GL_ATTACHED_SHADERS", Fixed(1)),
    ("GL_ACTIVE_ATOMIC_COUNTER_BUFFERS", Fixed(1)),
    ("GL_ACTIVE_ATTRIBUTES", Fixed(1)),
    ("GL_ACTIVE_ATTRIBUTE_MAX_LENGTH", Fixed(1)),
    ("GL_ACTIVE_UNIFORMS", Fixed(1)),
    ("GL_ACTIVE_UNIFORM_MAX_LENGTH", Fixed(1)),
    ("GL_ACTIVE_UNIFORM_BLOCKS", Fixed(1)),
    ("GL_ACTIVE_UNIFORM_BLOCK_MAX_NAME_LENGTH", Fixed(1)),
    ("GL_COMPUTE_WORK_GROUP_SIZE", Fixed(3)),
    ("GL_PROGRAM_BINARY_LENGTH", Fixed(1)),
    ("GL_PROGRAM_BINARY_RETRIEVABLE_HINT", Fixed(1)),
    ("GL_PROGRAM_SEPARABLE", Fixed(1)),
    ("GL_TRANSFORM_FEEDBACK_BUFFER_MODE", Fixed(1)),
    ("GL_TRANSFORM_FEEDBACK_VARYINGS", Fixed(1)),
    ("GL_TRANSFORM_FEEDBACK_VARYING_MAX_LENGTH", Fixed(1)),
    ("GL_GEOMETRY_VERTICES_OUT", Fixed(1)),
    ("GL_GEOMETRY_INPUT_TYPE", Fixed(1)),
    ("GL_GEOMETRY_OUTPUT_TYPE", Fixed(1)),
    ("GL_GEOMETRY_SHADER_INVOCATIONS", Fixed(1)),
    ("GL_TESS_CONTROL_OUTPUT_VERTICES", Fixed(1)),
    ("GL_TESS_GEN_MODE", Fixed(1)),
    ("GL_TESS_GEN_SPACING", Fixed(1)),
    ("GL_TESS_GEN_VERTEX_ORDER", Fixed(1)),
    ("GL_TESS_GEN_POINT_MODE", Fixed(1)),
    // KHR_parallel_shader_compile
    ("GL_COMPLETION_STATUS_KHR", Fixed(1)),
];

/// glGetProgramPipelineiv (gl.xml's group misses GL_COMPUTE_SHADER and
/// GL_VALIDATE_STATUS, which the command accepts).
const PIPELINE_PARAMETER_NAME: &[(&str, Count)] = &[
    ("GL_ACTIVE_PROGRAM", Fixed(1)),
    ("GL_VERTEX_SHADER", Fixed(1)),
    ("GL_TESS_CONTROL_SHADER", Fixed(1)),
    ("GL_TESS_EVALUATION_SHADER", Fixed(1)),
    ("GL_GEOMETRY_SHADER", Fixed(1)),
    ("GL_FRAGMENT_SHADER", Fixed(1)),
    ("GL_COMPUTE_SHADER", Fixed(1)),
    ("GL_VALIDATE_STATUS", Fixed(1)),
    ("GL_INFO_LOG_LENGTH", Fixed(1)),
];

/// glGetActiveUniformsiv: one value *per uniform index* (the command's array holds
/// `uniformCount` times this count).
const UNIFORM_PNAME: &[(&str, Count)] = &[
    ("GL_UNIFORM_TYPE", Fixed(1)),
    ("GL_UNIFORM_SIZE", Fixed(1)),
    ("GL_UNIFORM_NAME_LENGTH", Fixed(1)),
    ("GL_UNIFORM_BLOCK_INDEX", Fixed(1)),
    ("GL_UNIFORM_OFFSET", Fixed(1)),
    ("GL_UNIFORM_ARRAY_STRIDE", Fixed(1)),
    ("GL_UNIFORM_MATRIX_STRIDE", Fixed(1)),
    ("GL_UNIFORM_IS_ROW_MAJOR", Fixed(1)),
    ("GL_UNIFORM_ATOMIC_COUNTER_BUFFER_INDEX", Fixed(1)),
];

/// glGetActiveUniformBlockiv. The index list holds as many values as
/// GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS of the same program and block.
const UNIFORM_BLOCK_PNAME: &[(&str, Count)] = &[
    ("GL_UNIFORM_BLOCK_BINDING", Fixed(1)),
    ("GL_UNIFORM_BLOCK_DATA_SIZE", Fixed(1)),
    ("GL_UNIFORM_BLOCK_NAME_LENGTH", Fixed(1)),
    ("GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS", Fixed(1)),
    ("GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES", Queried("GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS")),
    ("GL_UNIFORM_BLOCK_REFERENCED_BY_VERTEX_SHADER", Fixed(1)),
    ("GL_UNIFORM_BLOCK_REFERENCED_BY_TESS_CONTROL_SHADER", Fixed(1)),
    ("GL_UNIFORM_BLOCK_REFERENCED_BY_TESS_EVALUATION_SHADER", Fixed(1)),
    ("GL_UNIFORM_BLOCK_REFERENCED_BY_GEOMETRY_SHADER", Fixed(1)),
    ("GL_UNIFORM_BLOCK_REFERENCED_BY_FRAGMENT_SHADER", Fixed(1)),
    ("GL_UNIFORM_BLOCK_REFERENCED_BY_COMPUTE_SHADER", Fixed(1)),
];

/// glGetActiveAtomicCounterBufferiv. The index list holds as many values as
/// GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS of the same program and buffer index.
const ATOMIC_COUNTER_BUFFER_PNAME: &[(&str, Count)] = &[
    ("GL_ATOMIC_COUNTER_BUFFER_BINDING", Fixed(1)),
    ("GL_ATOMIC_COUNTER_BUFFER_DATA_SIZE", Fixed(1)),
    ("GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS", Fixed(1)),
    (
        "GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTER_INDICES",
        Queried("GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS"),
    ),
    ("GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_VERTEX_SHADER", Fixed(1)),
    ("GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_TESS_CONTROL_SHADER", Fixed(1)),
    ("GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_TESS_EVALUATION_SHADER", Fixed(1)),
    ("GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_GEOMETRY_SHADER", Fixed(1)),
    ("GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_FRAGMENT_SHADER", Fixed(1)),
    ("GL_ATOMIC_COUNTER_BUFFER_REFERENCED_BY_COMPUTE_SHADER", Fixed(1)),
];

/// glGetActiveSubroutineUniformiv (section 7.10 "Subroutine Uniform Variables"). The
/// subroutine list holds as many values as GL_NUM_COMPATIBLE_SUBROUTINES of the same
/// program, shader type and subroutine uniform index.
const SUBROUTINE_PARAMETER_NAME: &[(&str, Count)] = &[
    ("GL_NUM_COMPATIBLE_SUBROUTINES", Fixed(1)),
    ("GL_COMPATIBLE_SUBROUTINES", Queried("GL_NUM_COMPATIBLE_SUBROUTINES")),
    ("GL_UNIFORM_SIZE", Fixed(1)),
    ("GL_UNIFORM_NAME_LENGTH", Fixed(1)),
];

/// glGetProgramInterfaceiv (section 7.3.1 "Program Interfaces").
const PROGRAM_INTERFACE_PNAME: &[(&str, Count)] = &[
    ("GL_ACTIVE_RESOURCES", Fixed(1)),
    ("GL_MAX_NAME_LENGTH", Fixed(1)),
    ("GL_MAX_NUM_ACTIVE_VARIABLES", Fixed(1)),
    ("GL_MAX_NUM_COMPATIBLE_SUBROUTINES", Fixed(1)),
];

// ---------------------------------------------------------------------------------------
// Framebuffer and renderbuffer objects (section 9.2.3 "Framebuffer Object Queries", 9.2.6
// "Renderbuffer Object Queries"; state tables "Framebuffer (state per attachment point)",
// "Framebuffer (state per framebuffer object)", "Renderbuffer (state per renderbuffer)").
// ---------------------------------------------------------------------------------------

/// glGetFramebufferAttachmentParameteriv, glGetNamedFramebufferAttachmentParameteriv.
///
/// gl.xml also gives glGetFramebufferParameteriv's `pname` this group (instead of
/// `GetFramebufferParameter`, which only glGetNamedFramebufferParameteriv uses), so the
/// framebuffer parameters are listed here as well; their values do not collide with the
/// attachment parameters.
const FRAMEBUFFER_ATTACHMENT_PARAMETER_NAME: &[(&str, Count)] = &[
    ("GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE", Fixed(1)),
    ("GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME", Fixed(1)),
    ("GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE", Fixed(1)),
    ("GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE", Fixed(1)),
    ("GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE", Fixed(1)),
    ("GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE", Fixed(1)),
    ("GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE", Fixed(1)),
    ("GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE", Fixed(1)),
    ("GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE", Fixed(1)),
    ("GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING", Fixed(1)),
    ("GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL", Fixed(1)),
    ("GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE", Fixed(1)),
    ("GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER", Fixed(1)),
    ("GL_FRAMEBUFFER_ATTACHMENT_LAYERED", Fixed(1)),
    // glGetFramebufferParameteriv (see above).
    ("GL_FRAMEBUFFER_DEFAULT_WIDTH", Fixed(1)),
    ("GL_FRAMEBUFFER_DEFAULT_HEIGHT", Fixed(1)),
    ("GL_FRAMEBUFFER_DEFAULT_LAYERS", Fixed(1)),
    ("GL_FRAMEBUFFER_DEFAULT_SAMPLES", Fixed(1)),
    ("GL_FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS", Fixed(1)),
    ("GL_DOUBLEBUFFER", Fixed(1)),
    ("GL_IMPLEMENTATION_COLOR_READ_FORMAT", Fixed(1)),
    ("GL_IMPLEMENTATION_COLOR_READ_TYPE", Fixed(1)),
    ("GL_SAMPLES", Fixed(1)),
    ("GL_SAMPLE_BUFFERS", Fixed(1)),
    ("GL_STEREO", Fixed(1)),
    ("GL_FRAMEBUFFER_PROGRAMMABLE_SAMPLE_LOCATIONS_ARB", Fixed(1)),
    ("GL_FRAMEBUFFER_SAMPLE_LOCATION_PIXEL_GRID_ARB", Fixed(1)),
];

/// glGetNamedFramebufferParameteriv (and glGetFramebufferParameteriv, see above).
const GET_FRAMEBUFFER_PARAMETER: &[(&str, Count)] = &[
    ("GL_FRAMEBUFFER_DEFAULT_WIDTH", Fixed(1)),
    ("GL_FRAMEBUFFER_DEFAULT_HEIGHT", Fixed(1)),
    ("GL_FRAMEBUFFER_DEFAULT_LAYERS", Fixed(1)),
    ("GL_FRAMEBUFFER_DEFAULT_SAMPLES", Fixed(1)),
    ("GL_FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS", Fixed(1)),
    ("GL_DOUBLEBUFFER", Fixed(1)),
    ("GL_IMPLEMENTATION_COLOR_READ_FORMAT", Fixed(1)),
    ("GL_IMPLEMENTATION_COLOR_READ_TYPE", Fixed(1)),
    ("GL_SAMPLES", Fixed(1)),
    ("GL_SAMPLE_BUFFERS", Fixed(1)),
    ("GL_STEREO", Fixed(1)),
    // ARB_sample_locations
    ("GL_FRAMEBUFFER_PROGRAMMABLE_SAMPLE_LOCATIONS_ARB", Fixed(1)),
    ("GL_FRAMEBUFFER_SAMPLE_LOCATION_PIXEL_GRID_ARB", Fixed(1)),
];

/// glGetRenderbufferParameteriv, glGetNamedRenderbufferParameteriv.
const RENDERBUFFER_PARAMETER_NAME: &[(&str, Count)] = &[
    ("GL_RENDERBUFFER_WIDTH", Fixed(1)),
    ("GL_RENDERBUFFER_HEIGHT", Fixed(1)),
    ("GL_RENDERBUFFER_INTERNAL_FORMAT", Fixed(1)),
    ("GL_RENDERBUFFER_SAMPLES", Fixed(1)),
    ("GL_RENDERBUFFER_RED_SIZE", Fixed(1)),
    ("GL_RENDERBUFFER_GREEN_SIZE", Fixed(1)),
    ("GL_RENDERBUFFER_BLUE_SIZE", Fixed(1)),
    ("GL_RENDERBUFFER_ALPHA_SIZE", Fixed(1)),
    ("GL_RENDERBUFFER_DEPTH_SIZE", Fixed(1)),
    ("GL_RENDERBUFFER_STENCIL_SIZE", Fixed(1)),
];

// ---------------------------------------------------------------------------------------
// Vertex arrays and transform feedback objects (section 10.5 "Vertex Array and Vertex
// Array Object Queries", section 13.2 "Transform Feedback"; state tables "Vertex Array
// Object State", "Transform Feedback State").
// ---------------------------------------------------------------------------------------

/// glGetVertexAttrib{d,f,i,Ii,Iui,Ld}v, glGetVertexAttribLui64vARB (gl.xml gives
/// glGetVertexAttrib{d,f,i}v a fixed len of 4, their group `VertexAttribPropertyARB`, and
/// glGetVertexAttribI{i,ui}v a len of 1; the same pnames apply to all).
const VERTEX_ATTRIB_ENUM: &[(&str, Count)] = &[
    ("GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_ENABLED", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_SIZE", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_STRIDE", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_TYPE", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_NORMALIZED", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_INTEGER", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_LONG", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_DIVISOR", Fixed(1)),
    ("GL_VERTEX_ATTRIB_BINDING", Fixed(1)),
    ("GL_VERTEX_ATTRIB_RELATIVE_OFFSET", Fixed(1)),
    ("GL_CURRENT_VERTEX_ATTRIB", Fixed(4)),
];

/// glGetVertexArrayiv (GL_ELEMENT_ARRAY_BUFFER_BINDING), glGetVertexArrayIndexediv (the
/// per-attribute state) and glGetVertexArrayIndexed64iv (GL_VERTEX_BINDING_OFFSET).
const VERTEX_ARRAY_PNAME: &[(&str, Count)] = &[
    ("GL_ELEMENT_ARRAY_BUFFER_BINDING", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_ENABLED", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_SIZE", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_STRIDE", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_TYPE", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_NORMALIZED", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_INTEGER", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_LONG", Fixed(1)),
    ("GL_VERTEX_ATTRIB_ARRAY_DIVISOR", Fixed(1)),
    ("GL_VERTEX_ATTRIB_RELATIVE_OFFSET", Fixed(1)),
    ("GL_VERTEX_BINDING_OFFSET", Fixed(1)),
];

/// glGetTransformFeedbackiv (PAUSED, ACTIVE), glGetTransformFeedbacki_v (BUFFER_BINDING)
/// and glGetTransformFeedbacki64_v (BUFFER_START, BUFFER_SIZE). GL_TRANSFORM_FEEDBACK_PAUSED
/// and _ACTIVE have the same values as GL_TRANSFORM_FEEDBACK_BUFFER_PAUSED and _ACTIVE.
const TRANSFORM_FEEDBACK_PNAME: &[(&str, Count)] = &[
    ("GL_TRANSFORM_FEEDBACK_PAUSED", Fixed(1)),
    ("GL_TRANSFORM_FEEDBACK_ACTIVE", Fixed(1)),
    ("GL_TRANSFORM_FEEDBACK_BUFFER_BINDING", Fixed(1)),
    ("GL_TRANSFORM_FEEDBACK_BUFFER_START", Fixed(1)),
    ("GL_TRANSFORM_FEEDBACK_BUFFER_SIZE", Fixed(1)),
];

// ---------------------------------------------------------------------------------------

/// Every table glcmd has, one per gl.xml group.
/// glClearBuffer*v / glClearNamedFramebuffer*v `buffer` (GL 4.6 core §17.4.3.1): a colour
/// buffer takes four values, depth and stencil one.
const BUFFER: &[(&str, Count)] = &[("GL_COLOR", Fixed(4)), ("GL_DEPTH", Fixed(1)), ("GL_STENCIL", Fixed(1))];

/// Groups whose function writes exactly one value whatever the pname, so a pname glcmd does not
/// know is safe to pass on: the GL raises its own error for it (which may be
/// `GL_INVALID_OPERATION` rather than `GL_INVALID_ENUM`, as for glGetProgramInterfaceiv with a
/// pname the interface does not support, GL 4.6 §7.3.1.1) and writes at most that one value.
/// Refusing such a pname with `GL_INVALID_ENUM` would pre-empt the GL's own answer (piglit's
/// `arb_program_interface_query-getprograminterfaceiv`).
pub const ONE_VALUE_GROUPS: &[&str] = &[
    // glGetProgramInterfaceiv: "returns a single integer" for every pname (GL 4.6 §7.3.1.1).
    "ProgramInterfacePName",
];

pub const TABLES: &[PnameTable] = &[
    PnameTable { group: "Buffer", entries: BUFFER },
    PnameTable { group: "TextureParameterName", entries: TEXTURE_PARAMETER_NAME },
    PnameTable { group: "GetTextureParameter", entries: GET_TEXTURE_PARAMETER },
    PnameTable { group: "SamplerParameterI", entries: SAMPLER_PARAMETER },
    PnameTable { group: "SamplerParameterF", entries: SAMPLER_PARAMETER },
    PnameTable { group: "GetPName", entries: GET_PNAME },
    PnameTable { group: "PointParameterNameARB", entries: POINT_PARAMETER_NAME_ARB },
    PnameTable { group: "PatchParameterName", entries: PATCH_PARAMETER_NAME },
    PnameTable { group: "GetMultisamplePNameNV", entries: GET_MULTISAMPLE_PNAME_NV },
    PnameTable { group: "QueryParameterName", entries: QUERY_PARAMETER_NAME },
    PnameTable { group: "QueryObjectParameterName", entries: QUERY_OBJECT_PARAMETER_NAME },
    PnameTable { group: "BufferPNameARB", entries: BUFFER_PNAME_ARB },
    PnameTable { group: "ShaderParameterName", entries: SHADER_PARAMETER_NAME },
    PnameTable { group: "ProgramPropertyARB", entries: PROGRAM_PROPERTY_ARB },
    PnameTable { group: "PipelineParameterName", entries: PIPELINE_PARAMETER_NAME },
    PnameTable { group: "UniformPName", entries: UNIFORM_PNAME },
    PnameTable { group: "UniformBlockPName", entries: UNIFORM_BLOCK_PNAME },
    PnameTable { group: "AtomicCounterBufferPName", entries: ATOMIC_COUNTER_BUFFER_PNAME },
    PnameTable { group: "SubroutineParameterName", entries: SUBROUTINE_PARAMETER_NAME },
    PnameTable { group: "ProgramInterfacePName", entries: PROGRAM_INTERFACE_PNAME },
    PnameTable { group: "FramebufferAttachmentParameterName", entries: FRAMEBUFFER_ATTACHMENT_PARAMETER_NAME },
    PnameTable { group: "GetFramebufferParameter", entries: GET_FRAMEBUFFER_PARAMETER },
    PnameTable { group: "RenderbufferParameterName", entries: RENDERBUFFER_PARAMETER_NAME },
    PnameTable { group: "VertexAttribEnum", entries: VERTEX_ATTRIB_ENUM },
    PnameTable { group: "VertexAttribPropertyARB", entries: VERTEX_ATTRIB_ENUM },
    PnameTable { group: "VertexArrayPName", entries: VERTEX_ARRAY_PNAME },
    PnameTable { group: "TransformFeedbackPName", entries: TRANSFORM_FEEDBACK_PNAME },
];

/// The table for a gl.xml group, if glcmd has one.
pub fn table(group: &str) -> Option<&'static PnameTable> {
    TABLES.iter().find(|t| t.group == group)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, HashSet};

    const GLCOREARB_H: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/vendor/glcorearb.h"));
    const GL_XML: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/vendor/gl.xml"));

    /// `#define GL_NAME 0xVALUE` lines of glcorearb.h, name -> value.
    fn header_values() -> HashMap<&'static str, u64> {
        let mut map = HashMap::new();
        for line in GLCOREARB_H.lines() {
            let mut words = line.split_whitespace();
            if words.next() != Some("#define") {
                continue;
            }
            let (Some(name), Some(value)) = (words.next(), words.next()) else {
                continue;
            };
            if !name.starts_with("GL_") {
                continue;
            }
            let value = value.trim_end_matches(['u', 'l', 'U', 'L']);
            let parsed = match value.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16).ok(),
                None => value.parse().ok(),
            };
            if let Some(v) = parsed {
                map.insert(name, v);
            }
        }
        map
    }

    fn count(group: &str, pname: &str) -> Option<Count> {
        table(group).unwrap_or_else(|| panic!("no table for {group}")).count(pname)
    }

    #[test]
    fn spot_checks_against_the_spec() {
        let fixed = [
            // glGet* (GL 4.6 core state tables / glGet reference page)
            ("GetPName", "GL_VIEWPORT", 4),
            ("GetPName", "GL_SCISSOR_BOX", 4),
            ("GetPName", "GL_COLOR_CLEAR_VALUE", 4),
            ("GetPName", "GL_COLOR_WRITEMASK", 4),
            ("GetPName", "GL_BLEND_COLOR", 4),
            ("GetPName", "GL_DEPTH_RANGE", 2),
            ("GetPName", "GL_MAX_VIEWPORT_DIMS", 2),
            ("GetPName", "GL_ALIASED_LINE_WIDTH_RANGE", 2),
            ("GetPName", "GL_LINE_WIDTH_RANGE", 2),
            ("GetPName", "GL_POINT_SIZE_RANGE", 2),
            ("GetPName", "GL_VIEWPORT_BOUNDS_RANGE", 2),
            ("GetPName", "GL_PATCH_DEFAULT_OUTER_LEVEL", 4),
            ("GetPName", "GL_PATCH_DEFAULT_INNER_LEVEL", 2),
            ("GetPName", "GL_MAX_COMPUTE_WORK_GROUP_COUNT", 3),
            ("GetPName", "GL_MAX_COMPUTE_WORK_GROUP_SIZE", 3),
            ("GetPName", "GL_PRIMITIVE_BOUNDING_BOX_ARB", 8),
            ("GetPName", "GL_MAX_TEXTURE_SIZE", 1),
            ("GetPName", "GL_NUM_COMPRESSED_TEXTURE_FORMATS", 1),
            ("GetPName", "GL_TIMESTAMP", 1),
            ("GetPName", "GL_DEPTH_TEST", 1),
            ("GetPName", "GL_UNIFORM_BUFFER_BINDING", 1),
            ("GetPName", "GL_MAX_TESS_GEN_LEVEL", 1),
            // Texture parameters
            ("TextureParameterName", "GL_TEXTURE_BORDER_COLOR", 4),
            ("TextureParameterName", "GL_TEXTURE_SWIZZLE_RGBA", 4),
            ("TextureParameterName", "GL_TEXTURE_MIN_FILTER", 1),
            ("TextureParameterName", "GL_TEXTURE_MAX_ANISOTROPY", 1),
            ("GetTextureParameter", "GL_TEXTURE_BORDER_COLOR", 4),
            ("GetTextureParameter", "GL_TEXTURE_WIDTH", 1),
            ("GetTextureParameter", "GL_TEXTURE_IMMUTABLE_LEVELS", 1),
            ("SamplerParameterF", "GL_TEXTURE_BORDER_COLOR", 4),
            ("SamplerParameterI", "GL_TEXTURE_BORDER_COLOR", 4),
            ("SamplerParameterI", "GL_TEXTURE_WRAP_R", 1),
            // Everything else
            ("ProgramPropertyARB", "GL_COMPUTE_WORK_GROUP_SIZE", 3),
            ("ProgramPropertyARB", "GL_LINK_STATUS", 1),
            ("GetMultisamplePNameNV", "GL_SAMPLE_POSITION", 2),
            ("PatchParameterName", "GL_PATCH_DEFAULT_OUTER_LEVEL", 4),
            ("PatchParameterName", "GL_PATCH_DEFAULT_INNER_LEVEL", 2),
            ("VertexAttribEnum", "GL_CURRENT_VERTEX_ATTRIB", 4),
            ("VertexAttribEnum", "GL_VERTEX_ATTRIB_ARRAY_SIZE", 1),
            ("ShaderParameterName", "GL_COMPILE_STATUS", 1),
            ("BufferPNameARB", "GL_BUFFER_SIZE", 1),
            ("QueryObjectParameterName", "GL_QUERY_RESULT", 1),
            ("RenderbufferParameterName", "GL_RENDERBUFFER_SAMPLES", 1),
            ("FramebufferAttachmentParameterName", "GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME", 1),
            ("FramebufferAttachmentParameterName", "GL_FRAMEBUFFER_DEFAULT_WIDTH", 1),
            ("PointParameterNameARB", "GL_POINT_FADE_THRESHOLD_SIZE", 1),
            ("TransformFeedbackPName", "GL_TRANSFORM_FEEDBACK_BUFFER_START", 1),
            ("VertexArrayPName", "GL_VERTEX_BINDING_OFFSET", 1),
        ];
        for (group, pname, n) in fixed {
            assert_eq!(count(group, pname), Some(Fixed(n)), "{group} {pname}");
        }

        let queried = [
            ("GetPName", "GL_COMPRESSED_TEXTURE_FORMATS", "GL_NUM_COMPRESSED_TEXTURE_FORMATS"),
            ("GetPName", "GL_PROGRAM_BINARY_FORMATS", "GL_NUM_PROGRAM_BINARY_FORMATS"),
            ("GetPName", "GL_SHADER_BINARY_FORMATS", "GL_NUM_SHADER_BINARY_FORMATS"),
            ("UniformBlockPName", "GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES", "GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS"),
            (
                "AtomicCounterBufferPName",
                "GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTER_INDICES",
                "GL_ATOMIC_COUNTER_BUFFER_ACTIVE_ATOMIC_COUNTERS",
            ),
            ("SubroutineParameterName", "GL_COMPATIBLE_SUBROUTINES", "GL_NUM_COMPATIBLE_SUBROUTINES"),
        ];
        for (group, pname, by) in queried {
            assert_eq!(count(group, pname), Some(Queried(by)), "{group} {pname}");
        }
    }

    #[test]
    fn unknown_pnames_and_groups_are_not_guessed() {
        assert_eq!(count("GetPName", "GL_NOT_A_PNAME"), None);
        // Compatibility-only state is not in the core tables.
        assert_eq!(count("GetPName", "GL_CURRENT_COLOR"), None);
        // Read-only level parameters cannot be set.
        assert_eq!(count("TextureParameterName", "GL_TEXTURE_WIDTH"), None);
        // glPatchParameterfv does not take GL_PATCH_VERTICES.
        assert_eq!(count("PatchParameterName", "GL_PATCH_VERTICES"), None);
        assert!(table("NoSuchGroup").is_none());
    }

    #[test]
    fn groups_are_unique() {
        let mut seen = HashSet::new();
        for t in TABLES {
            assert!(seen.insert(t.group), "group {} appears twice", t.group);
        }
    }

    #[test]
    fn pnames_are_unique_within_a_table() {
        for t in TABLES {
            let mut seen = HashSet::new();
            for (name, _) in t.entries {
                assert!(seen.insert(*name), "{} lists {} twice", t.group, name);
            }
        }
    }

    #[test]
    fn no_table_maps_one_value_twice() {
        let values = header_values();
        for t in TABLES {
            let mut seen: HashMap<u64, &str> = HashMap::new();
            for (name, _) in t.entries {
                let Some(&v) = values.get(name) else { continue };
                if let Some(other) = seen.insert(v, name) {
                    panic!("{}: {} and {} are both {:#x}", t.group, other, name, v);
                }
            }
        }
    }

    #[test]
    fn every_name_is_defined_in_glcorearb_h() {
        let mut values = header_values();
        // Or one of the few gl.xml-only enumerants glcmd takes from gl.xml.
        for name in crate::aliases::REGISTRY_ONLY_ENUMS {
            assert!(GL_XML.contains(&format!("name=\"{name}\"")), "{name} is not in gl.xml");
            values.insert(name, 0);
        }
        for t in TABLES {
            for (name, c) in t.entries {
                assert!(values.contains_key(name), "{}: {} is not in glcorearb.h", t.group, name);
                if let Queried(by) = c {
                    assert!(values.contains_key(by), "{}: {} is not in glcorearb.h", t.group, by);
                }
            }
        }
    }

    #[test]
    fn every_group_is_a_gl_xml_group() {
        // A group name appears in gl.xml as `group="A,B"` on enums and params.
        for t in TABLES {
            let g = t.group;
            let found = [format!("group=\"{g}\""), format!("group=\"{g},"), format!(",{g},"), format!(",{g}\"")]
                .iter()
                .any(|pattern| GL_XML.contains(pattern.as_str()));
            assert!(found, "{g} is not a gl.xml group");
        }
    }

    #[test]
    fn queried_targets_are_single_integers_of_the_same_table() {
        let mut n = 0;
        for t in TABLES {
            for (name, c) in t.entries {
                if let Queried(by) = c {
                    n += 1;
                    assert_eq!(
                        t.count(by),
                        Some(Fixed(1)),
                        "{}: {} is counted by {}, which must be Fixed(1) in the same table",
                        t.group,
                        name,
                        by
                    );
                }
            }
        }
        assert_eq!(n, 6);
    }

    #[test]
    fn fixed_counts_are_between_1_and_16() {
        for t in TABLES {
            for (name, c) in t.entries {
                if let Fixed(n) = c {
                    assert!((1..=16).contains(n), "{}: {} has count {}", t.group, name, n);
                }
            }
        }
    }
}
