//! The implementation-dependent constants of a context: the `glGet*` pnames whose value cannot
//! change while the context lives. The render thread reads them once at start-up and the
//! generated getters answer them from memory (`runtime/limits.rs`).
//!
//! A pname is cached only if it is listed below, and the list is the OpenGL 4.6 core
//! specification's implementation-dependent state tables (chapter 23, "State Tables": the
//! tables titled "Implementation Dependent ...", whose values the implementation fixes), table
//! by table, restricted to the pnames the `glGet*` getters answer (not `glGetString*`, which
//! `runtime/limits.rs` reads itself, nor `glGetInternalformativ` or `glGetQueryiv`). A rule by
//! prefix (every `GL_MAX_*`) is not used: it caught state. What is left out, and why:
//!
//! * pnames a call can set: `GL_MAX_SHADER_COMPILER_THREADS_KHR`
//!   (`glMaxShaderCompilerThreadsKHR`), `GL_MIN_SAMPLE_SHADING_VALUE` (`glMinSampleShading`);
//! * the "Framebuffer Dependent Values" table, which follows the bound draw framebuffer and the
//!   drawable: `GL_DOUBLEBUFFER`, `GL_STEREO`, `GL_SAMPLE_BUFFERS`, `GL_SAMPLES`,
//!   `GL_IMPLEMENTATION_COLOR_READ_FORMAT`/`_TYPE`;
//! * constants of extensions that are not in the 4.6 tables (`GL_MAX_SPARSE_*_ARB`,
//!   `GL_MAX_COMPUTE_VARIABLE_GROUP_*_ARB`, ...) and constants kept in other tables
//!   (`GL_RESET_NOTIFICATION_STRATEGY`): they are answered by a round trip, as any pname.
//!
//! `tests/limits.rs` checks the generated list against an independent copy of the tables.

use crate::pname_tables;

/// The OpenGL 4.6 core specification's implementation-dependent tables, by table, as `glGet*`
/// pnames (the indexed ones are in [`INDEXED`]).
pub const CONSTANTS: &[(&str, &[&str])] = &[
    (
        "Implementation Dependent Values",
        &[
            "GL_CONTEXT_RELEASE_BEHAVIOR",
            "GL_MAX_CLIP_DISTANCES",
            "GL_MAX_CULL_DISTANCES",
            "GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES",
            "GL_SUBPIXEL_BITS",
            "GL_MAX_ELEMENT_INDEX",
            "GL_PRIMITIVE_RESTART_FOR_PATCHES_SUPPORTED",
            "GL_MAX_3D_TEXTURE_SIZE",
            "GL_MAX_TEXTURE_SIZE",
            "GL_MAX_ARRAY_TEXTURE_LAYERS",
            "GL_MAX_TEXTURE_LOD_BIAS",
            "GL_MAX_CUBE_MAP_TEXTURE_SIZE",
            "GL_MAX_RENDERBUFFER_SIZE",
            "GL_MAX_TEXTURE_MAX_ANISOTROPY",
            "GL_MAX_VIEWPORT_DIMS",
            "GL_MAX_VIEWPORTS",
            "GL_VIEWPORT_SUBPIXEL_BITS",
            "GL_VIEWPORT_BOUNDS_RANGE",
            "GL_LAYER_PROVOKING_VERTEX",
            "GL_VIEWPORT_INDEX_PROVOKING_VERTEX",
            "GL_POINT_SIZE_RANGE",
            "GL_POINT_SIZE_GRANULARITY",
            "GL_ALIASED_LINE_WIDTH_RANGE",
            "GL_SMOOTH_LINE_WIDTH_RANGE",
            "GL_SMOOTH_LINE_WIDTH_GRANULARITY",
            "GL_MAX_ELEMENTS_INDICES",
            "GL_MAX_ELEMENTS_VERTICES",
            "GL_MAX_VERTEX_ATTRIB_RELATIVE_OFFSET",
            "GL_MAX_VERTEX_ATTRIB_BINDINGS",
            "GL_MAX_VERTEX_ATTRIB_STRIDE",
            "GL_NUM_COMPRESSED_TEXTURE_FORMATS",
            "GL_COMPRESSED_TEXTURE_FORMATS",
            "GL_MAX_TEXTURE_BUFFER_SIZE",
            "GL_MAX_RECTANGLE_TEXTURE_SIZE",
            "GL_NUM_PROGRAM_BINARY_FORMATS",
            "GL_PROGRAM_BINARY_FORMATS",
            "GL_NUM_SHADER_BINARY_FORMATS",
            "GL_SHADER_BINARY_FORMATS",
            "GL_SHADER_COMPILER",
            "GL_MIN_MAP_BUFFER_ALIGNMENT",
            "GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT",
        ],
    ),
    (
        "Implementation Dependent Version and Extension Support",
        &[
            "GL_MAJOR_VERSION",
            "GL_MINOR_VERSION",
            "GL_CONTEXT_FLAGS",
            "GL_CONTEXT_PROFILE_MASK",
            "GL_NUM_EXTENSIONS",
            "GL_NUM_SHADING_LANGUAGE_VERSIONS",
            "GL_NUM_SPIR_V_EXTENSIONS",
        ],
    ),
    (
        "Implementation Dependent Vertex Shader Limits",
        &[
            "GL_MAX_VERTEX_ATTRIBS",
            "GL_MAX_VERTEX_UNIFORM_COMPONENTS",
            "GL_MAX_VERTEX_UNIFORM_VECTORS",
            "GL_MAX_VERTEX_UNIFORM_BLOCKS",
            "GL_MAX_VERTEX_OUTPUT_COMPONENTS",
            "GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS",
            "GL_MAX_VERTEX_ATOMIC_COUNTER_BUFFERS",
            "GL_MAX_VERTEX_ATOMIC_COUNTERS",
            "GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS",
        ],
    ),
    (
        "Implementation Dependent Tessellation Shader Limits",
        &[
            "GL_MAX_TESS_GEN_LEVEL",
            "GL_MAX_PATCH_VERTICES",
            "GL_MAX_TESS_CONTROL_UNIFORM_COMPONENTS",
            "GL_MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS",
            "GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS",
            "GL_MAX_TESS_PATCH_COMPONENTS",
            "GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS",
            "GL_MAX_TESS_CONTROL_INPUT_COMPONENTS",
            "GL_MAX_TESS_CONTROL_UNIFORM_BLOCKS",
            "GL_MAX_TESS_CONTROL_ATOMIC_COUNTER_BUFFERS",
            "GL_MAX_TESS_CONTROL_ATOMIC_COUNTERS",
            "GL_MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS",
            "GL_MAX_TESS_EVALUATION_UNIFORM_COMPONENTS",
            "GL_MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS",
            "GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS",
            "GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS",
            "GL_MAX_TESS_EVALUATION_UNIFORM_BLOCKS",
            "GL_MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS",
            "GL_MAX_TESS_EVALUATION_ATOMIC_COUNTERS",
            "GL_MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS",
        ],
    ),
    (
        "Implementation Dependent Geometry Shader Limits",
        &[
            "GL_MAX_GEOMETRY_UNIFORM_COMPONENTS",
            "GL_MAX_GEOMETRY_UNIFORM_BLOCKS",
            "GL_MAX_GEOMETRY_INPUT_COMPONENTS",
            "GL_MAX_GEOMETRY_OUTPUT_COMPONENTS",
            "GL_MAX_GEOMETRY_OUTPUT_VERTICES",
            "GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS",
            "GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS",
            "GL_MAX_GEOMETRY_SHADER_INVOCATIONS",
            "GL_MAX_VERTEX_STREAMS",
            "GL_MAX_GEOMETRY_ATOMIC_COUNTER_BUFFERS",
            "GL_MAX_GEOMETRY_ATOMIC_COUNTERS",
            "GL_MAX_GEOMETRY_SHADER_STORAGE_BLOCKS",
        ],
    ),
    (
        "Implementation Dependent Fragment Shader Limits",
        &[
            "GL_MAX_FRAGMENT_UNIFORM_COMPONENTS",
            "GL_MAX_FRAGMENT_UNIFORM_VECTORS",
            "GL_MAX_FRAGMENT_UNIFORM_BLOCKS",
            "GL_MAX_FRAGMENT_INPUT_COMPONENTS",
            "GL_MAX_TEXTURE_IMAGE_UNITS",
            "GL_MIN_PROGRAM_TEXTURE_GATHER_OFFSET",
            "GL_MAX_PROGRAM_TEXTURE_GATHER_OFFSET",
            "GL_MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS",
            "GL_MAX_FRAGMENT_ATOMIC_COUNTERS",
            "GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS",
        ],
    ),
    (
        "Implementation Dependent Compute Shader Limits",
        &[
            "GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS",
            "GL_MAX_COMPUTE_UNIFORM_BLOCKS",
            "GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS",
            "GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS",
            "GL_MAX_COMPUTE_ATOMIC_COUNTERS",
            "GL_MAX_COMPUTE_SHARED_MEMORY_SIZE",
            "GL_MAX_COMPUTE_UNIFORM_COMPONENTS",
            "GL_MAX_COMPUTE_IMAGE_UNIFORMS",
            "GL_MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS",
            "GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS",
        ],
    ),
    (
        "Implementation Dependent Aggregate Shader Limits",
        &[
            "GL_MIN_PROGRAM_TEXEL_OFFSET",
            "GL_MAX_PROGRAM_TEXEL_OFFSET",
            "GL_MAX_UNIFORM_BUFFER_BINDINGS",
            "GL_MAX_UNIFORM_BLOCK_SIZE",
            "GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT",
            "GL_MAX_COMBINED_UNIFORM_BLOCKS",
            "GL_MAX_VARYING_COMPONENTS",
            "GL_MAX_VARYING_VECTORS",
            "GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS",
            "GL_MAX_SUBROUTINES",
            "GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS",
            "GL_MAX_UNIFORM_LOCATIONS",
            "GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS",
            "GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE",
            "GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS",
            "GL_MAX_COMBINED_ATOMIC_COUNTERS",
            "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS",
            "GL_MAX_SHADER_STORAGE_BLOCK_SIZE",
            "GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS",
            "GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT",
            "GL_MAX_IMAGE_UNITS",
            "GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES",
            "GL_MAX_IMAGE_SAMPLES",
            "GL_MAX_VERTEX_IMAGE_UNIFORMS",
            "GL_MAX_TESS_CONTROL_IMAGE_UNIFORMS",
            "GL_MAX_TESS_EVALUATION_IMAGE_UNIFORMS",
            "GL_MAX_GEOMETRY_IMAGE_UNIFORMS",
            "GL_MAX_FRAGMENT_IMAGE_UNIFORMS",
            "GL_MAX_COMBINED_IMAGE_UNIFORMS",
            "GL_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS",
            "GL_MAX_COMBINED_GEOMETRY_UNIFORM_COMPONENTS",
            "GL_MAX_COMBINED_TESS_CONTROL_UNIFORM_COMPONENTS",
            "GL_MAX_COMBINED_TESS_EVALUATION_UNIFORM_COMPONENTS",
            "GL_MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS",
        ],
    ),
    (
        "Implementation Dependent Debug Output State",
        &[
            "GL_MAX_DEBUG_MESSAGE_LENGTH",
            "GL_MAX_DEBUG_LOGGED_MESSAGES",
            "GL_MAX_DEBUG_GROUP_STACK_DEPTH",
            "GL_MAX_LABEL_LENGTH",
        ],
    ),
    (
        "Implementation Dependent Values (framebuffers, samples, sync, interpolation, draw buffers)",
        &[
            "GL_MAX_FRAMEBUFFER_WIDTH",
            "GL_MAX_FRAMEBUFFER_HEIGHT",
            "GL_MAX_FRAMEBUFFER_LAYERS",
            "GL_MAX_FRAMEBUFFER_SAMPLES",
            "GL_MAX_SAMPLE_MASK_WORDS",
            "GL_MAX_SAMPLES",
            "GL_MAX_COLOR_TEXTURE_SAMPLES",
            "GL_MAX_DEPTH_TEXTURE_SAMPLES",
            "GL_MAX_INTEGER_SAMPLES",
            "GL_MAX_SERVER_WAIT_TIMEOUT",
            "GL_MIN_FRAGMENT_INTERPOLATION_OFFSET",
            "GL_MAX_FRAGMENT_INTERPOLATION_OFFSET",
            "GL_FRAGMENT_INTERPOLATION_OFFSET_BITS",
            "GL_MAX_DRAW_BUFFERS",
            "GL_MAX_DUAL_SOURCE_DRAW_BUFFERS",
            "GL_MAX_COLOR_ATTACHMENTS",
        ],
    ),
    (
        "Implementation Dependent Transform Feedback Limits",
        &[
            "GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS",
            "GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS",
            "GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS",
            "GL_MAX_TRANSFORM_FEEDBACK_BUFFERS",
        ],
    ),
];

/// Indexed constants (`glGetIntegeri_v`) of the compute table: the pname and how many indices
/// it has.
pub const INDEXED: &[(&str, u32)] = &[("GL_MAX_COMPUTE_WORK_GROUP_COUNT", 3), ("GL_MAX_COMPUTE_WORK_GROUP_SIZE", 3)];

/// The constant pnames, in the order of the `GetPName` table (which gives their counts). A
/// constant the table does not know is an error of the table, reported by [`missing`].
pub fn pnames() -> Vec<&'static str> {
    let table = pname_tables::table("GetPName").expect("the GetPName table");
    table.entries.iter().map(|(name, _)| *name).filter(|n| is_constant(n)).collect()
}

/// Names of the 4.6 tables that the `GetPName` table spells by their older alias (the same
/// value).
const ALIASES: &[(&str, &str)] = &[
    ("GL_SMOOTH_LINE_WIDTH_RANGE", "GL_LINE_WIDTH_RANGE"),
    ("GL_SMOOTH_LINE_WIDTH_GRANULARITY", "GL_LINE_WIDTH_GRANULARITY"),
];

/// The `GetPName` table's name of a constant.
fn table_name(pname: &'static str) -> &'static str {
    ALIASES.iter().find(|(spec, _)| *spec == pname).map_or(pname, |(_, table)| table)
}

/// Whether `pname` (as the `GetPName` table spells it) is in the implementation-dependent
/// tables.
pub fn is_constant(pname: &str) -> bool {
    CONSTANTS.iter().any(|(_, names)| names.iter().any(|&n| table_name(n) == pname))
}

/// Constants of [`CONSTANTS`] that the `GetPName` table lacks (so they would not be cached).
pub fn missing() -> Vec<&'static str> {
    let table = pname_tables::table("GetPName").expect("the GetPName table");
    CONSTANTS
        .iter()
        .flat_map(|(_, names)| names.iter().copied())
        .filter(|&n| !table.entries.iter().any(|(e, _)| *e == table_name(n)))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_constant_is_in_the_get_pname_table() {
        assert_eq!(super::missing(), Vec::<&str>::new());
    }
}
