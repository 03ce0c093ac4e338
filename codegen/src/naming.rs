//! GL names to Rust names: `glBindTexture` -> `bind_texture`, `glUniformMatrix4fv` ->
//! `uniform_matrix4fv`, `glTexImage2D` -> `tex_image_2d` (the spelling glow uses).

pub fn snake_case(gl_name: &str) -> String {
    let name = gl_name.strip_prefix("gl").unwrap_or(gl_name);
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
    // Rust keywords cannot be method names.
    match out.as_str() {
        "finish" | "flush" => out,
        _ => out,
    }
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
    match s.as_str() {
        "type" | "ref" | "in" | "box" | "fn" | "mod" | "impl" | "use" | "move" | "self" | "loop" | "match" => {
            format!("{s}_")
        }
        _ => s,
    }
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
        ] {
            assert_eq!(snake_case(gl), rust, "{gl}");
        }
    }

    #[test]
    fn param_names() {
        assert_eq!(param_ident("type"), "type_");
        assert_eq!(param_ident("bufSize"), "buf_size");
        assert_eq!(param_ident("instancecount"), "instancecount");
    }
}
