//! The implementation-dependent constants of a context: the `glGet*` pnames whose value cannot
//! change while the context lives. The render thread reads them once at start-up and the
//! generated getters answer them from memory (`runtime/limits.rs`).
//!
//! Every `GL_MAX_*` and `GL_MIN_*` pname of the `GetPName` table except the one that is state
//! (`GL_MIN_SAMPLE_SHADING_VALUE`), and the other constants of the OpenGL 4.6 core
//! specification's "Implementation Dependent Values" and "Context" state tables. Values that
//! depend on the bound framebuffer (`GL_SAMPLES`, `GL_IMPLEMENTATION_COLOR_READ_FORMAT`) are
//! state, not limits, and are left out.

use crate::pname_tables;

/// Pnames that are constants besides the `MAX`/`MIN` ones.
const OTHER_CONSTANTS: &[&str] = &[
    "GL_SUBPIXEL_BITS",
    "GL_ALIASED_LINE_WIDTH_RANGE",
    "GL_SMOOTH_LINE_WIDTH_RANGE",
    "GL_SMOOTH_LINE_WIDTH_GRANULARITY",
    "GL_POINT_SIZE_RANGE",
    "GL_POINT_SIZE_GRANULARITY",
    "GL_VIEWPORT_BOUNDS_RANGE",
    "GL_VIEWPORT_SUBPIXEL_BITS",
    "GL_LAYER_PROVOKING_VERTEX",
    "GL_VIEWPORT_INDEX_PROVOKING_VERTEX",
    "GL_NUM_COMPRESSED_TEXTURE_FORMATS",
    "GL_COMPRESSED_TEXTURE_FORMATS",
    "GL_NUM_PROGRAM_BINARY_FORMATS",
    "GL_PROGRAM_BINARY_FORMATS",
    "GL_NUM_SHADER_BINARY_FORMATS",
    "GL_SHADER_BINARY_FORMATS",
    "GL_SHADER_COMPILER",
    "GL_MAJOR_VERSION",
    "GL_MINOR_VERSION",
    "GL_CONTEXT_FLAGS",
    "GL_CONTEXT_PROFILE_MASK",
    "GL_NUM_EXTENSIONS",
    "GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT",
    "GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT",
    "GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT",
    "GL_PRIMITIVE_RESTART_FOR_PATCHES_SUPPORTED",
    "GL_RESET_NOTIFICATION_STRATEGY",
    "GL_CONTEXT_RELEASE_BEHAVIOR",
    "GL_DOUBLEBUFFER",
    "GL_STEREO",
];

/// Pnames that are state although they are named `MIN_`.
const STATE: &[&str] = &["GL_MIN_SAMPLE_SHADING_VALUE"];

/// Indexed constants (`glGetIntegeri_v`): the pname and how many indices it has.
pub const INDEXED: &[(&str, u32)] = &[("GL_MAX_COMPUTE_WORK_GROUP_COUNT", 3), ("GL_MAX_COMPUTE_WORK_GROUP_SIZE", 3)];

/// The constant pnames of the `GetPName` table, in table order.
pub fn pnames() -> Vec<&'static str> {
    let table = pname_tables::table("GetPName").expect("the GetPName table");
    table
        .entries
        .iter()
        .map(|(name, _)| *name)
        .filter(|n| {
            ((n.starts_with("GL_MAX_") || n.starts_with("GL_MIN_")) && !STATE.contains(n))
                || OTHER_CONSTANTS.contains(n)
        })
        .collect()
}
