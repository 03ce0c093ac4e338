//! GL names to Rust names, the rule the README links to. glow's spelling, made consistent:
//!
//! 1. `gl` is dropped and words are split where the case changes, lower-cased and joined with
//!    `_`: `glBindTexture` -> `bind_texture`. A run of capitals is one word (`glGetnUniformfv`
//!    -> `getn_uniformfv`); a digit followed by `D` is one word (`glTexImage2D` ->
//!    `tex_image_2d`); type suffixes stay on their word (`glUniformMatrix4fv` ->
//!    `uniform_matrix4fv`, `glGetIntegeri_v` -> `get_integeri_v`).
//! 2. An extension tag (`EXT`, `ARB`, `KHR`, `NV`, `NVX`, `AMD`, `INTEL`, `MESA`, `OVR`) is a
//!    word of its own: `glDrawArraysEXT` -> `draw_arrays_ext`, `glTextureSubImage2DEXT` ->
//!    `texture_sub_image_2d_ext`.
//! 3. A name that is a Rust keyword gets a trailing `_` (parameters too: `type` -> `type_`).
//! 4. Forms glcmd adds beside the GL function (emitted by `emit::commands` and
//!    `emit::device`):
//!    * a create of `n` objects has a singular form: `create_buffers(n)` and `create_buffer()`,
//!      `gen_queries(n)` and `gen_query()` ([`singular`]);
//!    * a query whose result size comes from its pname has a scalar form without the final `v`
//!      (or `_v`), for pnames that yield one value: `get_integerv` and `get_integer`,
//!      `get_shaderiv` and `get_shaderi`, `get_integeri_v` and `get_integeri`
//!      ([`scalar`]);
//!    * a buffer upload whose size argument may go with a null pointer has a form that takes
//!      the size from the slice: `named_buffer_storage(buffer, size, Some(data), flags)` and
//!      `named_buffer_storage_from_slice(buffer, data, flags)`;
//!    * a pixel transfer that may write into a buffer has a `_to_buffer` form
//!      (`read_pixels_to_buffer`).

pub fn snake_case(gl_name: &str) -> String {
    let name = gl_name.strip_prefix("gl").unwrap_or(gl_name);
    // The extension tag is its own word: `glTextureSubImage2DEXT` -> `texture_sub_image_2d_ext`,
    // as `glDrawArraysEXT` -> `draw_arrays_ext`.
    let (stem, tag) = split_tag(name);
    let mut out = snake_words(stem);
    if let Some(tag) = tag {
        out.push('_');
        out.push_str(&tag.to_ascii_lowercase());
    }
    escape_keyword(out)
}

/// The extension tags that end GL function names, longest first (`NVX` before `NV`).
const TAGS: &[&str] = &["INTEL", "MESA", "NVX", "EXT", "ARB", "KHR", "AMD", "OVR", "NV"];

/// Splits `TextureSubImage2DEXT` into `TextureSubImage2D` and `EXT`.
pub fn split_tag(name: &str) -> (&str, Option<&str>) {
    for tag in TAGS {
        if let Some(stem) = name.strip_suffix(tag) {
            if !stem.is_empty() {
                return (stem, Some(tag));
            }
        }
    }
    (name, None)
}

fn snake_words(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let prev = if i > 0 { Some(chars[i - 1]) } else { None };
        let next = chars.get(i + 1).copied();
        if c.is_ascii_uppercase() {
            let boundary = match prev {
                None => false,
                Some(p) if p.is_ascii_lowercase() => true,
                // "2D" stays together after a digit; "NV" stays together.
                Some(p) if p.is_ascii_digit() => c != 'D' || next.is_some_and(|n| n.is_ascii_lowercase()),
                Some(p) if p.is_ascii_uppercase() => next.is_some_and(|n| n.is_ascii_lowercase()),
                _ => false,
            };
            if boundary {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_digit() && prev.is_some_and(|p| p.is_ascii_lowercase()) && next == Some('D') {
            out.push('_');
            out.push(c);
        } else {
            out.push(c);
        }
    }
    out
}

/// Rust's strict and reserved keywords: a generated name that is one gets a trailing `_`
/// (no GL function of today's header is one, but a future one must not break the build).
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate", "do", "dyn", "else",
    "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod",
    "move", "mut", "override", "priv", "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true",
    "try", "type", "typeof", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// `name`, or `name_` when it is a Rust keyword.
pub fn escape_keyword(name: String) -> String {
    if KEYWORDS.contains(&name.as_str()) {
        name + "_"
    } else {
        name
    }
}

/// The scalar form of a pname query's method name: `get_integerv` -> `get_integer`,
/// `get_integeri_v` -> `get_integeri`. `None` when the name does not end in `v`.
pub fn scalar(method: &str) -> Option<String> {
    let stem = method.strip_suffix("_v").or_else(|| method.strip_suffix('v'))?;
    Some(stem.to_string())
}

/// The singular of a create function's name, for the method that makes one object:
/// `glCreateBuffers` -> `glCreateBuffer`, `glGenQueries` -> `glGenQuery`,
/// `glGenSemaphoresEXT` -> `glGenSemaphoreEXT`. `None` when the name is not a plural.
pub fn singular(gl_name: &str) -> Option<String> {
    let (stem, tag) = split_tag(gl_name);
    let one =
        if let Some(s) = stem.strip_suffix("ies") { format!("{s}y") } else { stem.strip_suffix('s')?.to_string() };
    Some(one + tag.unwrap_or(""))
}

/// A parameter name as a Rust identifier (`type` -> `type_`, `ref` -> `ref_`).
pub fn param_ident(name: &str) -> String {
    let mut s = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                s.push('_');
            }
            s.push(c.to_ascii_lowercase());
        } else {
            s.push(c);
        }
    }
    escape_keyword(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_names() {
        for (gl, rust) in [
            ("glBindTexture", "bind_texture"),
            ("glUniformMatrix4fv", "uniform_matrix4fv"),
            ("glTexImage2D", "tex_image_2d"),
            ("glTextureSubImage2D", "texture_sub_image_2d"),
            ("glDrawElementsInstanced", "draw_elements_instanced"),
            ("glGetIntegeri_v", "get_integeri_v"),
            ("glVertexAttrib4Nubv", "vertex_attrib4_nubv"),
            ("glBindTextureUnit", "bind_texture_unit"),
            ("glTexStorage3DMultisample", "tex_storage_3d_multisample"),
            ("glGetTextureHandleARB", "get_texture_handle_arb"),
            ("glFramebufferTexture1D", "framebuffer_texture_1d"),
            ("glDrawArraysEXT", "draw_arrays_ext"),
            ("glTextureSubImage2DEXT", "texture_sub_image_2d_ext"),
            ("glCopyTextureSubImage3DEXT", "copy_texture_sub_image_3d_ext"),
            ("glApplyFramebufferAttachmentCMAAINTEL", "apply_framebuffer_attachment_cmaa_intel"),
            ("glUniform1ui64ARB", "uniform1ui64_arb"),
            ("glUploadGpuMaskNVX", "upload_gpu_mask_nvx"),
            ("glTexImage3DMultisampleCoverageNV", "tex_image_3d_multisample_coverage_nv"),
            ("glBlendBarrierKHR", "blend_barrier_khr"),
        ] {
            assert_eq!(snake_case(gl), rust, "{gl}");
        }
    }

    #[test]
    fn keywords_are_escaped() {
        assert_eq!(snake_case("glType"), "type_");
        assert_eq!(snake_case("glLoop"), "loop_");
        assert_eq!(snake_case("glFinish"), "finish");
        assert_eq!(param_ident("ref"), "ref_");
    }

    #[test]
    fn singulars() {
        assert_eq!(singular("glCreateBuffers").as_deref(), Some("glCreateBuffer"));
        assert_eq!(singular("glGenQueries").as_deref(), Some("glGenQuery"));
        assert_eq!(singular("glCreateTransformFeedbacks").as_deref(), Some("glCreateTransformFeedback"));
        assert_eq!(singular("glGenSemaphoresEXT").as_deref(), Some("glGenSemaphoreEXT"));
        assert_eq!(singular("glCreateProgram"), None);
    }

    #[test]
    fn param_names() {
        assert_eq!(param_ident("type"), "type_");
        assert_eq!(param_ident("bufSize"), "buf_size");
        assert_eq!(param_ident("instancecount"), "instancecount");
    }
}
