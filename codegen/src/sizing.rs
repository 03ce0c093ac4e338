//! How arrays whose length gl.xml does not give are sized: by the GL's own rule, from other
//! arguments and GL state, where glcmd knows the rule ([`Sizing`]).
//!
//! Two places use it. The classifier ([`crate::classify`]) leaves a recording method safe when
//! every such array of it is one the recording side sizes itself: pixel uploads
//! ([`Sizing::UnpackImage`], from the list's own unpack state, `runtime/pixels.rs`) and one-texel
//! clear values ([`Sizing::Texel`]); and the queries `glReadPixels` / `glGetTexImage`, whose
//! output the render thread sizes from its real pack state ([`sized_by_query`]). The rest stay
//! caller-sized and `unsafe`. The C emitter
//! (`emit/capi.rs`) sizes every array it can at the C boundary, including the outputs of
//! queries that the render thread sizes from its real state (`capi/src/sizes.rs`).

use crate::model::{Function, Kind, Param, Redirect, Role, Rule};

/// How an array whose length gl.xml does not give is sized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sizing {
    /// Pixel data the GL reads from client memory: computed from format, type, dimensions and
    /// the list's own pixel-store state (`runtime/pixels.rs`), by the recording method.
    UnpackImage { dims: u8 },
    /// One texel or buffer element of `format`/`type` (`glClearTexImage`, `glClearBufferData`).
    Texel,
    /// `glReadPixels`: from the render thread's pack state, in the same round trip.
    PackImage,
    /// `glGetTexImage`: the level's size and the pack state, read on the render thread.
    TexLevel,
    /// `glGetCompressedTexImage`: the level's compressed size, read on the render thread.
    CompressedLevel,
    /// `glGetUniform*v`: the uniform's type at that location, read on the render thread.
    Uniform,
    /// `glGetBooleani_v`: as many values as `glGetIntegeri_v` returns for the same pname.
    IndexedBoolean,
    /// One value (`glGetNamedStringivARB`: every pname is one value).
    One,
}

/// Whether the recording method of `f` sizes its `Rule::Bytes` array `p` itself (so the array
/// does not make the method `unsafe`): pixel uploads and one-texel values of recorded functions.
pub fn sized_by_recording(f: &Function, p: &Param) -> bool {
    f.kind == Kind::Record && matches!(sizing(f, p), Some(Sizing::UnpackImage { .. } | Sizing::Texel))
}

/// Whether the generated query `f` sizes its `Rule::Bytes` output `p` itself, on the render
/// thread from the GL's pack state (`runtime/pixels.rs`: `pack_len`, `tex_level_len`), so the
/// caller passes no length and the method is safe.
pub fn sized_by_query(f: &Function, p: &Param) -> bool {
    f.kind == Kind::Query && matches!(sizing(f, p), Some(Sizing::PackImage | Sizing::TexLevel))
}

/// The sizing of a caller-sized (`Rule::Bytes`) array of `f`, if the C boundary can size it.
pub fn sizing(f: &Function, p: &Param) -> Option<Sizing> {
    let n = f.name.as_str();
    let void = p.ty.pointee().base == "void" && p.ty.pointers.len() == 1;
    let has = |name: &str| f.params.iter().any(|q| q.name == name);
    match &p.role {
        Role::In(Rule::Bytes) if void && f.redirect == Some(Redirect::PixelUnpack) => {
            if !(has("width") && has("format") && has("type")) {
                return None;
            }
            let dims = if n.contains("1D") {
                1
            } else if n.contains("2D") {
                2
            } else if n.contains("3D") {
                3
            } else {
                return None;
            };
            Some(Sizing::UnpackImage { dims })
        }
        Role::In(Rule::Bytes)
            if void
                && ["glClearTex", "glClearBuffer", "glClearNamedBuffer"].iter().any(|s| n.starts_with(s))
                && has("format")
                && has("type") =>
        {
            Some(Sizing::Texel)
        }
        Role::Out(Rule::Bytes) => match n {
            "glReadPixels" => Some(Sizing::PackImage),
            "glGetTexImage" => Some(Sizing::TexLevel),
            "glGetCompressedTexImage" => Some(Sizing::CompressedLevel),
            "glGetBooleani_v" => Some(Sizing::IndexedBoolean),
            "glGetNamedStringivARB" => Some(Sizing::One),
            _ if n.starts_with("glGetUniform") && has("program") && has("location") => Some(Sizing::Uniform),
            _ => None,
        },
        _ => None,
    }
}
