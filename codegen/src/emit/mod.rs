//! Emitters: one per generated file. Each takes the model and returns a `TokenStream`; none
//! does I/O. [`emit_all`] formats them with prettyplease, which makes the output deterministic
//! (byte-identical across runs) and reviewable.
//!
//! | file | emitter | what it holds |
//! | --- | --- | --- |
//! | `types.rs` | [`types`] | GL typedefs as Rust type aliases |
//! | `enums.rs` | [`enums`] | `#define` enumerants as constants, and enum-name lookup for dumps |
//! | `loader.rs` | [`loader`] | `Gl`, the function-pointer table, and its loader |
//! | `commands.rs` | [`commands`] | packets, `CommandList` recording methods, execute functions, the opcode tables |
//! | `inspect.rs` | [`inspect`] | per-opcode dump functions and object-name lists, for diagnostics |
//! | `device.rs` | [`device`] | `Device` methods for create and query functions |
//! | `immediate.rs` | [`immediate`] | the immediate context's twins of those methods |
//! | `pname.rs` | [`pname`] | the pname count tables as `match` functions |
//! | `checked.rs` | [`checked`] | the checking function table (cargo feature `checking`) |
//! | `capture.rs` | [`capture`] | capture tables: fingerprint, per-opcode array and name fields, replay of creates and queries |
//! | `extensions.rs` | [`extensions`] | per extension and core version, the functions it requires and the family of each |
//! | `spec_errors.rs` | [`spec_errors`] | the GL error of each check where a function's differs from the usual one |
//!
//! Crate glcmd-capi's sources come from two more emitters, outside [`emit_all`]: [`capi`] (the C
//! entry points, Rust) and [`c_header`] (`glcmd.h`, C). The test programs of two test crates
//! come from [`sweep`] (glcmd-sweep's Rust calls) and [`c_calls`] (glcmd-run's C calls).

// The C program of glcmd-run's generated differential calls (issue 30 items 3 and 4): the
// sweep's kinds of arguments, in C.
#[cfg(feature = "sweep")]
pub mod c_calls;
// Reads `capi/src/types.rs` and `api.rs` with syn: built with the `pretty` feature (the CLI and
// the header test), not in build scripts.
#[cfg(all(feature = "pretty", feature = "capi"))]
pub mod c_header;
// The caller's contract of each C entry point, for the header (it reads `capi`'s plans).
#[cfg(feature = "capi")]
pub mod c_contract;
// The emitters of the other crates' build scripts: features, so that glcmd's own build script
// (which every dependent runs) does not compile them.
#[cfg(feature = "capi")]
pub mod capi;
pub mod capture;
pub mod checked;
pub mod commands;
pub mod device;
pub mod device_known;
pub mod enums;
pub mod extensions;
pub mod immediate;
pub mod inspect;
pub mod loader;
pub mod pname;
mod repeats;
// The exported GL symbols of glcmd-run's preload library, for its build script.
#[cfg(feature = "preload")]
pub mod preload;
pub mod spec_errors;
#[cfg(feature = "sweep")]
pub mod sweep;
pub mod types;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::ctype::CType;
use crate::error::Error;
use crate::model::{Api, Function, Param, Role};
use crate::naming::param_ident;

/// Every generated file: (file name, formatted Rust source).
pub fn emit_all(api: &Api) -> Result<Vec<(&'static str, String)>, Vec<Error>> {
    emit_files(api, true)
}

/// The generated files, `checked.rs` only when `checking` is set.
pub fn emit_files(api: &Api, checking: bool) -> Result<Vec<(&'static str, String)>, Vec<Error>> {
    let mut files: Vec<(&'static str, Result<TokenStream, Vec<Error>>)> = vec![
        ("types.rs", types::emit(api)),
        ("enums.rs", Ok(enums::emit(api))),
        ("loader.rs", Ok(loader::emit(api))),
        ("commands.rs", Ok(commands::emit(api))),
        ("inspect.rs", Ok(inspect::emit(api))),
        ("device.rs", Ok(device::emit(api))),
        ("immediate.rs", Ok(immediate::emit(api))),
        ("pname.rs", pname::emit(api)),
        ("capture.rs", Ok(capture::emit(api))),
        ("extensions.rs", Ok(extensions::emit(api))),
        ("spec_errors.rs", Ok(spec_errors::emit(api))),
    ];
    if checking {
        files.push(("checked.rs", Ok(checked::emit(api))));
    }
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (name, tokens) in files {
        match tokens {
            Ok(t) => out.push((name, format(t))),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The generated code of one GL function, formatted, for snapshot tests and review: packet,
/// recording method and execute function of a recorded function, the `Device` method of a
/// create or query function, and for a special function the loader entry and the reason.
pub fn function_source(api: &Api, name: &str) -> Option<String> {
    let f = api.functions.iter().find(|f| f.name == name)?;
    let tokens = match f.kind {
        crate::model::Kind::Create | crate::model::Kind::Query => {
            let m = device::method_forms(api, f);
            quote!(impl Device { #m })
        }
        _ => match commands::function_items(api, f) {
            Some(t) => t,
            None => {
                let d = doc(f, "hand-written in the runtime (`special.rs`) or reached through `Device::with_gl`");
                let field = format_ident!("{}", f.short_name());
                let pfn = loader::pfn_alias(f);
                let (args, ret) = loader::signature(f);
                quote!(pub type #pfn = unsafe extern "system" fn(#(#args),*) #ret; pub struct Gl { #d pub #field: #pfn, })
            }
        },
    };
    Some(format(tokens))
}

const GENERATED: &str = "// @generated by glcmd-codegen from vendor/glcorearb.h and vendor/gl.xml. Do not edit.\n";

/// Formats tokens as a file, with a header saying it is generated: with prettyplease when the
/// `pretty` feature is on (the CLI, the snapshots), else with [`plain`].
pub fn format(tokens: TokenStream) -> String {
    #[cfg(feature = "pretty")]
    {
        let file: syn::File = syn::parse2(tokens).expect("emitters produce valid Rust");
        format!("{GENERATED}{}", prettyplease::unparse(&file))
    }
    #[cfg(not(feature = "pretty"))]
    {
        format!("{GENERATED}{}", plain(tokens))
    }
}

/// Prints tokens with a line break after every item and every statement (`;` or a `{ }` block
/// at the top of the file or of a `{ }` block), indented by depth: readable enough to find an
/// item in the build's `OUT_DIR`, and a small fraction of prettyplease's cost in an unoptimised
/// build script. Comments are `#[doc]` attributes and stay on their item's line.
pub fn plain(tokens: TokenStream) -> String {
    let mut out = String::with_capacity(1 << 20);
    plain_into(tokens, 0, &mut out);
    out
}

fn plain_into(tokens: TokenStream, depth: usize, out: &mut String) {
    use proc_macro2::{Delimiter, TokenTree};
    // Tokens of one line are printed together: `TokenStream`'s `Display` keeps joint
    // punctuation (`::`, `->`, `'a`) joint.
    let mut line: Vec<TokenTree> = Vec::new();
    let flush = |line: &mut Vec<TokenTree>, out: &mut String, end: &str| {
        out.extend(std::iter::repeat_n("    ", depth));
        out.push_str(&line.drain(..).collect::<TokenStream>().to_string());
        out.push_str(end);
    };
    for tt in tokens {
        match &tt {
            TokenTree::Group(g) if g.delimiter() == Delimiter::Brace && depth < 2 => {
                flush(&mut line, out, " {\n");
                plain_into(g.stream(), depth + 1, out);
                out.extend(std::iter::repeat_n("    ", depth));
                out.push_str("}\n");
            }
            TokenTree::Punct(p) if p.as_char() == ';' => {
                line.push(tt);
                flush(&mut line, out, "\n");
            }
            _ => line.push(tt),
        }
    }
    if !line.is_empty() {
        flush(&mut line, out, "\n");
    }
}

/// Rust source text as tokens (types and literals the emitters spell as strings).
pub fn tokens(source: &str) -> TokenStream {
    source.parse().unwrap_or_else(|e| panic!("emitters spell valid Rust tokens: `{source}`: {e}"))
}

/// The Rust type of a C type, as tokens, with GL typedefs from `types::`.
pub fn rust_type(t: &CType) -> TokenStream {
    tokens(&t.to_rust("types::"))
}

/// The element type of an array argument, as the Rust API spells it: `void` is bytes, and a
/// pointer element (`const void *const*indices`) is a `usize` buffer offset.
pub fn element_type(p: &Param) -> TokenStream {
    let pointee = p.ty.pointee();
    if pointee.is_pointer() {
        quote!(usize)
    } else if pointee.base == "void" {
        quote!(u8)
    } else {
        rust_type(&CType { base: pointee.base, base_const: false, pointers: vec![] })
    }
}

/// Whether a parameter is one `GLboolean`, which the Rust API takes as `bool`.
pub fn is_bool(p: &Param) -> bool {
    p.ty.base == "GLboolean" && !p.ty.is_pointer()
}

/// The Rust type of a value parameter as the API takes it: `bool` for a `GLboolean`.
pub fn value_type(p: &Param) -> TokenStream {
    if is_bool(p) {
        quote!(bool)
    } else {
        rust_type(&p.ty)
    }
}

/// The value parameter converted back to its C type (`bool` -> `GLboolean`).
pub fn value_to_c(p: &Param) -> TokenStream {
    let id = ident(p);
    if is_bool(p) {
        quote!(#id as types::GLboolean)
    } else {
        quote!(#id)
    }
}

/// Whether an array parameter is untyped memory (`const void *`), which the Rust API takes as a
/// slice of any plain-data type (`bytemuck::NoUninit`: every `Pod` type).
pub fn is_untyped(p: &Param) -> bool {
    let pointee = p.ty.pointee();
    !pointee.is_pointer() && pointee.base == "void"
}

pub fn ident(p: &Param) -> proc_macro2::Ident {
    format_ident!("{}", param_ident(&p.name))
}

pub fn param_named<'a>(f: &'a Function, name: &str) -> &'a Param {
    f.params.iter().find(|p| p.name == name).expect("classify checked that len names a parameter")
}

/// The doc comment of a generated item: GL name, feature, kind, and each array's length rule.
pub fn doc(f: &Function, what: &str) -> TokenStream {
    doc_lines(f, what, true)
}

/// Like [`doc`], without the `# Safety` section (for packets and execute functions, whose
/// safety contract is the opcode's).
pub fn doc_brief(f: &Function, what: &str) -> TokenStream {
    doc_lines(f, what, false)
}

fn doc_lines(f: &Function, what: &str, safety: bool) -> TokenStream {
    let mut lines = vec![format!(" `{}` ({}, {}): {what}.", f.name, f.feature, f.kind)];
    for p in &f.params {
        match &p.role {
            Role::In(rule) => lines.push(format!(" * `{}`: input array, length rule `{rule}`.", param_ident(&p.name))),
            Role::Out(rule) => lines.push(format!(" * `{}`: output, length rule `{rule}`.", param_ident(&p.name))),
            Role::Offset => lines.push(format!(" * `{}`: offset into the bound buffer.", param_ident(&p.name))),
            Role::Length { of } => {
                lines.push(format!(" * `{}`: taken from the length of `{}`.", p.name, of.join("`, `")))
            }
            _ => {}
        }
    }
    if safety {
        lines.push(String::new());
        lines.push(format!(" {}", requirement(f)));
    }
    if let (Some(reason), true) = (&f.unsafe_reason, safety) {
        lines.push(String::new());
        lines.push(" # Safety".into());
        for l in reason.lines() {
            lines.push(format!(" {l}"));
        }
    }
    if let Some(reason) = f.special_reason {
        lines.push(format!(" Special: {reason}."));
    }
    let lines = lines.into_iter().map(|l| quote!(#[doc = #l]));
    quote!(#(#lines)*)
}

/// What a function needs, with a link to its documentation: "Needs OpenGL 4.5 or
/// `GL_ARB_direct_state_access`. [Reference page](…)" for a core function (the gl4 reference
/// pages), the extension's specification for an extension function.
pub fn requirement(f: &Function) -> String {
    let providers: Vec<String> = f
        .providers
        .iter()
        .map(|p| match p.strip_prefix("GL_VERSION_") {
            Some(v) => format!("OpenGL {}", v.replace('_', ".")),
            None => format!("`{p}`"),
        })
        .collect();
    let needs = match providers.as_slice() {
        [] => format!("Declared in `{}`", f.feature),
        [one] => format!("Needs {one}"),
        [rest @ .., last] => format!("Needs {} or {last}", rest.join(", ")),
    };
    match refpage(&f.name) {
        Some(page) => {
            format!("{needs}. [Reference page](https://registry.khronos.org/OpenGL-Refpages/gl4/html/{page}.xhtml).")
        }
        None => match f.feature.strip_prefix("GL_").filter(|_| !f.feature.starts_with("GL_VERSION_")) {
            Some(ext) => {
                let vendor = ext.split('_').next().unwrap_or(ext);
                format!("{needs}. [Specification](https://registry.khronos.org/OpenGL/extensions/{vendor}/{ext}.txt).")
            }
            None => format!("{needs}."),
        },
    }
}

/// The gl4 reference page that documents a function (`glUniform4fv` -> `glUniform`).
pub fn refpage(name: &str) -> Option<&'static str> {
    // From KhronosGroup/OpenGL-Refpages; the file says which commit.
    const PAGES: &str = include_str!("../refpages.tsv");
    PAGES.lines().filter(|l| !l.starts_with('#')).find_map(|l| {
        let (function, page) = l.split_once('\t')?;
        (function == name).then_some(page)
    })
}

/// Whether a packed `GLenum` fits 16 bits: every member of its group is below 0xFFFF.
pub fn enum_fits_u16(api: &Api, p: &Param) -> bool {
    p.group.as_ref().is_some_and(|g| api.narrow_groups.contains(g))
}
