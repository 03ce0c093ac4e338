//! Snapshots of the generated code of single GL functions (`emit::function_source`), one
//! named snapshot per function. They cover every kind and every length rule family, so a
//! change to an emitter or to classification shows up in review as a diff of real code:
//!
//! | function | why |
//! | --- | --- |
//! | glBindTextures | `len="count"` input array of names, count derived from the slice |
//! | glNamedFramebufferDrawBuffers | `len="n"` array of enums |
//! | glUniformMatrix4fv | `len="count*16"` product: chunks `&[[f32; 16]]` |
//! | glTextureSubImage2D | pixel data: caller-sized bytes, `unsafe` |
//! | glDrawElementsInstanced | `indices` is an offset into the bound element buffer |
//! | glMultiDrawElementsIndirect | `indirect` is an offset into the bound indirect buffer |
//! | glShaderSource | `&[&str]` with the parallel `length` array derived |
//! | glTexParameteriv | `COMPSIZE(pname)` through a pname table |
//! | glCreateTextures | create: immediate, returns names |
//! | glDeleteBuffers | delete: deferred to the end of the frame |
//! | glGetIntegerv | query through a pname table |
//! | glGetProgramInfoLog | query returning a string, `length` out-parameter consumed |
//! | glFenceSync | special: returns a sync handle |
//! | glDebugMessageCallback | special: takes a callback pointer |

use std::sync::OnceLock;

use glcmd_codegen::{emit, load, model::Api, Inputs};

fn api() -> &'static Api {
    static API: OnceLock<Api> = OnceLock::new();
    API.get_or_init(|| load(&Inputs::bundled()).unwrap_or_else(|e| panic!("vendored inputs must load:\n{e}")))
}

fn source(name: &str) -> String {
    emit::function_source(api(), name).unwrap_or_else(|| panic!("{name} is not in the model"))
}

macro_rules! snapshot_tests {
    ($($test:ident => $gl:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                let src = source($gl);
                // Content checks independent of the snapshot: the doc comment names the GL
                // function, and the code is formatted Rust that mentions it.
                assert!(src.contains(concat!("`", $gl, "`")), "doc comment must name {}:\n{src}", $gl);
                insta::assert_snapshot!($gl, src);
            }
        )*
    };
}

snapshot_tests! {
    bind_textures => "glBindTextures",
    named_framebuffer_draw_buffers => "glNamedFramebufferDrawBuffers",
    uniform_matrix_4fv => "glUniformMatrix4fv",
    texture_sub_image_2d => "glTextureSubImage2D",
    draw_elements_instanced => "glDrawElementsInstanced",
    multi_draw_elements_indirect => "glMultiDrawElementsIndirect",
    shader_source => "glShaderSource",
    tex_parameteriv => "glTexParameteriv",
    create_textures => "glCreateTextures",
    delete_buffers => "glDeleteBuffers",
    get_integerv => "glGetIntegerv",
    get_program_info_log => "glGetProgramInfoLog",
    fence_sync => "glFenceSync",
    debug_message_callback => "glDebugMessageCallback",
    // Forms the Rust API adds: a typed slice and the size taken from it, `bool` arguments and
    // results, scalar queries.
    named_buffer_storage => "glNamedBufferStorage",
    named_buffer_sub_data => "glNamedBufferSubData",
    vertex_attrib_pointer => "glVertexAttribPointer",
    get_shaderiv => "glGetShaderiv",
    is_enabled => "glIsEnabled",
}

/// Each generated method's doc names what it needs and links its documentation: the gl4
/// reference page for a core function, the extension's specification otherwise.
#[test]
fn docs_name_the_requirement_and_link_the_reference() {
    let refpage = |page: &str| format!("https://registry.khronos.org/OpenGL-Refpages/gl4/html/{page}.xhtml");
    for (function, needs, link) in [
        ("glBindTexture", "Needs OpenGL 1.1.", refpage("glBindTexture")),
        ("glNamedBufferStorage", "Needs OpenGL 4.5 or `GL_ARB_direct_state_access`.", refpage("glBufferStorage")),
        ("glUniformMatrix4fv", "Needs OpenGL 2.0.", refpage("glUniform")),
        ("glGetIntegerv", "Needs OpenGL 1.0.", refpage("glGet")),
        ("glCreateTextures", "Needs OpenGL 4.5 or `GL_ARB_direct_state_access`.", refpage("glCreateTextures")),
        (
            "glTextureSubImage2DEXT",
            "Needs `GL_EXT_direct_state_access`.",
            "https://registry.khronos.org/OpenGL/extensions/EXT/EXT_direct_state_access.txt".into(),
        ),
        (
            "glGetTextureHandleARB",
            "Needs `GL_ARB_bindless_texture`.",
            "https://registry.khronos.org/OpenGL/extensions/ARB/ARB_bindless_texture.txt".into(),
        ),
    ] {
        let src = source(function);
        assert!(src.contains(needs), "{function}: no `{needs}` in\n{src}");
        assert!(src.contains(&link), "{function}: no link {link} in\n{src}");
    }
}

#[test]
fn unknown_function_gives_none() {
    assert!(emit::function_source(api(), "glNoSuchFunction").is_none());
}

#[test]
fn function_source_is_deterministic() {
    for name in ["glBindTextures", "glShaderSource", "glGetIntegerv"] {
        assert_eq!(source(name), source(name));
    }
}

// Known codegen bugs and regressions ---------------------------------------------------------

/// The arguments of the recording method (or `Device` method) in `src`, as written.
fn method_args(src: &str, method: &str) -> String {
    let start = src.find(&format!("fn {method}(")).unwrap_or_else(|| panic!("no fn {method} in:\n{src}"));
    let rest = &src[start..];
    rest[..rest.find(')').unwrap()].to_string()
}

/// Regression (soundness): the safe method once took a caller `length` array, so the GL could
/// read past the copied strings.
#[test]
fn shader_source_takes_only_strings() {
    let src = source("glShaderSource");
    let args = method_args(&src, "shader_source");
    assert!(args.contains("string: &[&str]"), "{args}");
    assert!(!args.contains("length"), "the GL would read `length[i]` bytes of a copy that may be shorter: {args}");
}

#[test]
fn string_lengths_come_from_the_str() {
    for (gl, method, length) in [
        ("glNamedStringARB", "named_string_arb", "namelen"),
        ("glNamedStringARB", "named_string_arb", "stringlen"),
        ("glInsertEventMarkerEXT", "insert_event_marker_ext", "length"),
        ("glPushGroupMarkerEXT", "push_group_marker_ext", "length"),
        ("glLabelObjectEXT", "label_object_ext", "length"),
    ] {
        let args = method_args(&source(gl), method);
        assert!(
            !args.contains(&format!("{length}:")),
            "{gl}: `{length}` must come from the &str, or the GL reads past the copy: {args}"
        );
    }
}
