//! The repeat checks of the execute functions (`runtime/repeats.rs` says why a skipped repeat
//! is exact): which functions are tracked binding calls, which `glUniform*` forms are compared by
//! their values (and how their values' bytes are found), and which functions forget what is
//! known because their name says they may change it. Split from `commands.rs`, which places the
//! check in each execute function after glcmd's own checks.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ident;
use crate::model::Function;

/// Before the GL call, after glcmd's checks (`runtime/repeats.rs`): a binding call that repeats
/// the last of its kind in the list is skipped; a call whose name says it may touch programs,
/// shaders, textures, vertex arrays, pipelines or transform feedback forgets what is known.
pub(super) fn repeat_check(f: &Function, arg: &dyn Fn(&str) -> proc_macro2::Ident) -> TokenStream {
    if let Some(shape) = uniform_shape(&f.name) {
        return uniform_repeat_check(f, shape, arg);
    }
    let tracked = match f.name.as_str() {
        "glUseProgram" => Some((quote!(use_program), vec![arg("program")])),
        "glBindVertexArray" => Some((quote!(bind_vertex_array), vec![arg("array")])),
        "glActiveTexture" => Some((quote!(active_texture), vec![arg("texture")])),
        "glBindTexture" => Some((quote!(bind_texture), vec![arg("target"), arg("texture")])),
        _ => None,
    };
    if let Some((method, args)) = tracked {
        return quote! {
            if r.repeats.#method(#(#args),*) {
                r.repeat_skipped();
                return;
            }
        };
    }
    // `Subroutine`: a program's subroutine selections are reset when it is made current again on
    // some drivers (GL 4.6 §7.10 resets them when the stage's program changes), so after a
    // `glUniformSubroutinesuiv` the next `glUseProgram` reaches the GL even if it repeats.
    const TOUCHES: [&str; 7] =
        ["Program", "Shader", "Texture", "VertexArray", "Pipeline", "TransformFeedback", "Subroutine"];
    if TOUCHES.iter().any(|t| f.name.contains(t)) {
        quote!(r.repeats.forget();)
    } else {
        quote!()
    }
}

/// The shape of a `glUniform*` call that sets values of the current program: how many
/// components one element has, their size in bytes, and whether the values are an array
/// argument (`v` forms, with a count) and a matrix (with `transpose`). None for other functions.
#[derive(Clone, Copy)]
struct UniformShape {
    components: usize,
    size: usize,
    array: bool,
    matrix: bool,
}

fn uniform_shape(name: &str) -> Option<UniformShape> {
    let size_of = |t: &str| match t {
        "f" | "i" | "ui" => Some(4),
        "d" => Some(8),
        _ => None,
    };
    let digit = |c: u8| (b'2'..=b'4').contains(&c).then(|| (c - b'0') as usize);
    if let Some(rest) = name.strip_prefix("glUniformMatrix") {
        let (cols, rest) = (digit(*rest.as_bytes().first()?)?, &rest[1..]);
        let (rows, rest) = match rest.strip_prefix('x') {
            Some(r) => (digit(*r.as_bytes().first()?)?, &r[1..]),
            None => (cols, rest),
        };
        let size = size_of(rest.strip_suffix('v')?)?;
        return Some(UniformShape { components: cols * rows, size, array: true, matrix: true });
    }
    let rest = name.strip_prefix("glUniform")?;
    let components = (b'1'..=b'4').contains(rest.as_bytes().first()?).then(|| (rest.as_bytes()[0] - b'0') as usize)?;
    let (kind, array) = match rest[1..].strip_suffix('v') {
        Some(k) => (k, true),
        None => (&rest[1..], false),
    };
    Some(UniformShape { components, size: size_of(kind)?, array, matrix: false })
}

/// The repeat check of a `glUniform*` (`runtime/repeats.rs`): its values' bytes, from the
/// packet (scalar forms, whose values follow `location` in it) or the list's parameters
/// (array forms: `count` elements, as recorded).
fn uniform_repeat_check(f: &Function, shape: UniformShape, arg: &dyn Fn(&str) -> proc_macro2::Ident) -> TokenStream {
    let location = arg("location");
    let element = shape.components * shape.size;
    let (count, values) = if shape.array {
        let count = arg("count");
        let value = ident(f.params.last().expect("a value array"));
        (
            quote!(#count),
            // SAFETY: the recording method copied `count` elements into the list's parameters.
            quote!(unsafe { std::slice::from_raw_parts(r.param::<u8>(c.#value), (#count.max(0) as usize) * #element) }),
        )
    } else {
        let packet = format_ident!("{}Packet", f.type_name());
        let first = ident(&f.params[1]);
        (
            quote!(1),
            // SAFETY: the packet holds the values one after the other from its first value field.
            quote!(unsafe { std::slice::from_raw_parts(p.cast::<u8>().add(std::mem::offset_of!(#packet, #first)), #element) }),
        )
    };
    let flag = if shape.matrix {
        let transpose = arg("transpose");
        quote!(#transpose)
    } else {
        quote!(0)
    };
    quote! {
        let values: &[u8] = #values;
        if r.repeats.uniform(c.op, #location, #count, #flag, values) {
            r.repeat_skipped();
            return;
        }
    }
}
