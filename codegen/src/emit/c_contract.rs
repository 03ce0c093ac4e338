//! The caller's contract of each C entry point, for `glcmd.h`: for every pointer argument, what
//! the memory it points to must hold.
//!
//! A C pointer carries no length, so the C boundary cannot check that an array holds what the GL
//! will read: the entry point trusts the caller and copies as many elements as the length rule
//! says (the same rule the Rust method applies to its slice: `emit/capi.rs`'s `convert_param`).
//! A short array is read past its end. `glcmd.h` therefore states, where each entry point is
//! declared, how many elements each of its pointer arguments must hold, in the terms of the
//! length rule: a count argument (`count` elements), a constant, a product, a pname's count
//! from glcmd's tables, a string, the pixel bytes the GL derives, an offset into a bound
//! buffer, a pointer passed through unread. `capi/tests/header.rs` checks every entry point
//! with a pointer argument has one line per pointer.

use super::capi::{plan, sizing, Plan, Sizing};
use crate::model::{Function, Param, Role, Rule};

/// The element type of an array argument, as C spells it (`GLuint`, `bytes` for `void`).
fn element(p: &Param) -> String {
    let t = p.ty.pointee();
    if t.base == "void" && !t.is_pointer() {
        "bytes".into()
    } else if t.base == "void" && t.pointers.len() == 1 {
        // `const void *const *indices` of the multi-draws: offsets into the bound buffer.
        "pointer-sized byte offsets into the bound element array buffer (never read as pointers)".into()
    } else if t.is_pointer() {
        format!("pointers ({})", t.to_string().trim())
    } else {
        t.base.clone()
    }
}

fn count_of(f: &Function, name: &str) -> String {
    let _ = f;
    format!("`{name}`")
}

/// The contract of input array `p` sized by `rule`.
fn input(f: &Function, p: &Param, rule: &Rule) -> String {
    let null = if p.nullable { "NULL, or " } else { "" };
    let elem = element(p);
    if p.unpack_offset {
        let Rule::Param(x) = rule else { return "compressed pixel data".into() };
        let null = if p.nullable { "; or NULL (no data: the level is allocated)" } else { "" };
        return format!(
            "`{x}` bytes of compressed data; or, while the current list has a buffer bound to \
             GL_PIXEL_UNPACK_BUFFER, a byte offset into it{null}"
        );
    }
    match rule {
        Rule::Param(x) => format!("{null}{} {elem}", count_of(f, x)),
        Rule::Const(n) => format!("{null}{n} {elem}"),
        Rule::Product(x, k) => format!("{null}{} x {k} {elem}", count_of(f, x)),
        Rule::Quotient(x, d) => format!("{null}{} / {d} {elem} (`{x}` counts bytes)", count_of(f, x)),
        Rule::Pname { group, param } => format!(
            "{null}as many {elem} as `{param}` takes (glcmd's {group} table; a pname it does not know fails with \
             GLCMD_ERROR_UNKNOWN_PNAME before anything is read)"
        ),
        Rule::String => {
            let length = f.params.iter().find(|q| matches!(&q.role, Role::Length { of } if of.contains(&p.name)));
            match length {
                Some(l) => format!(
                    "{null}`{}` chars, or a NUL-terminated string when `{}` is negative",
                    l.name, l.name
                ),
                None => format!("{null}a NUL-terminated string"),
            }
        }
        Rule::Strings(count) => {
            let lengths = f.params.iter().find(|q| matches!(&q.role, Role::LengthArray { of } if *of == p.name));
            match lengths {
                Some(l) => format!(
                    "`{count}` pointers to strings, each NUL-terminated, or of `{0}[i]` chars where `{0}` is not NULL \
                     and `{0}[i]` is not negative",
                    l.name
                ),
                None => format!("`{count}` pointers to NUL-terminated strings"),
            }
        }
        Rule::Bytes => match sizing(f, p) {
            Some(Sizing::UnpackImage { .. }) => format!(
                "{null}the bytes the GL reads for the image of `width` x `height` x `depth` (as the function has them) \
                 in `format`/`type` under the current list's pixel-store state; or, while the current list has a buffer \
                 bound to GL_PIXEL_UNPACK_BUFFER, a byte offset into it"
            ),
            Some(Sizing::Texel) => format!("{null}one texel (or element) of `format`/`type`"),
            _ => "unsupported through C (GLCMD_ERROR_UNSUPPORTED; nothing is read)".into(),
        },
        Rule::One => format!("{null}one {elem}"),
    }
}

/// The contract of output `p` sized by `rule`.
fn output(f: &Function, p: &Param, rule: &Rule) -> String {
    let elem = element(p);
    match rule {
        Rule::One if matches!(p.name.as_str(), "length" | "count") => format!("NULL, or room for one {elem}"),
        Rule::One => format!("room for one {elem}"),
        Rule::Param(x) => format!("room for {} {elem} (may be NULL when `{x}` is 0)", count_of(f, x)),
        Rule::Const(n) => format!("room for {n} {elem}"),
        Rule::Product(x, k) => format!("room for {} x {k} {elem}", count_of(f, x)),
        Rule::Quotient(x, d) => format!("room for {} / {d} {elem} (`{x}` counts bytes)", count_of(f, x)),
        Rule::Pname { group, param } => {
            format!(
                "room for as many {elem} as `{param}` gives (glcmd's {group} table; a pname it does not know fails with \
                 GLCMD_ERROR_UNKNOWN_PNAME before anything is written)"
            )
        }
        Rule::String => match p.len.as_deref().and_then(crate::classify::parse_len) {
            Some(Rule::Param(x)) => format!("room for `{x}` chars, the NUL included (may be NULL when `{x}` is 0)"),
            _ => "room for the string the GL writes".into(),
        },
        Rule::Bytes => match sizing(f, p) {
            Some(Sizing::PackImage) => "room for the bytes the GL writes for `width` x `height` in `format`/`type` \
                under the pack state the render thread has; or, while the current list has a buffer bound to \
                GL_PIXEL_PACK_BUFFER, a byte offset into it"
                .into(),
            Some(Sizing::TexLevel) => {
                "room for the level's image in `format`/`type` under the render thread's pack state".into()
            }
            Some(Sizing::CompressedLevel) => {
                "room for the level's compressed image (its GL_TEXTURE_COMPRESSED_IMAGE_SIZE)".into()
            }
            Some(Sizing::Uniform) => "room for as many values as the uniform at `location` has (its type)".into(),
            Some(Sizing::IndexedBoolean) => {
                "room for as many values as glGetIntegeri_v gives for the same pname".into()
            }
            Some(Sizing::One) => "room for one value".into(),
            _ => "unsupported through C (GLCMD_ERROR_UNSUPPORTED; nothing is written)".into(),
        },
        Rule::Strings(_) => "room for the strings the GL writes".into(),
    }
}

/// The contract of pointer argument `p` of `f`, or `None` for an argument that is no pointer.
pub fn contract(f: &Function, p: &Param) -> Option<String> {
    if !p.ty.is_pointer() {
        return None;
    }
    if let Plan::Unsupported(_) = plan(f) {
        return Some("not read: the entry point is unsupported through C (GLCMD_ERROR_UNSUPPORTED)".into());
    }
    Some(match &p.role {
        Role::In(rule) => input(f, p, rule),
        Role::Out(rule) => output(f, p, rule),
        Role::LengthArray { of } => {
            let count = f
                .params
                .iter()
                .find(|q| q.name == *of)
                .and_then(|q| match &q.role {
                    Role::In(Rule::Strings(c)) => Some(c.clone()),
                    _ => None,
                })
                .unwrap_or_else(|| "count".into());
            format!("NULL, or `{count}` {} (the lengths of `{of}`)", element(p))
        }
        Role::OutLength { .. } => format!("NULL, or room for one {}", element(p)),
        Role::Offset => "a byte offset into the buffer bound to the target the function reads (never read as a \
            pointer: with nothing bound the command is skipped and reported)"
            .into(),
        Role::Opaque => "passed through unchanged; glcmd never reads it".into(),
        Role::Sync => "a GLsync returned by glFenceSync through glcmd".into(),
        Role::Value | Role::Length { .. } => "a handle passed through unchanged; glcmd never reads it".into(),
    })
}

/// The contract lines of `f`: (argument, contract), one per pointer argument.
pub fn contracts(f: &Function) -> Vec<(String, String)> {
    f.params.iter().filter_map(|p| contract(f, p).map(|c| (p.name.clone(), c))).collect()
}
