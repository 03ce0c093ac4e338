//! `glcmd.h`, the C header of crate glcmd-capi, generated from two sources so it cannot fall
//! out of step with either:
//!
//! * **the model**: the GL typedefs the header needs, and `GlcmdGL`, the table of every GL
//!   entry point with its exact C signature, in the order and with the kinds of the Rust API;
//! * **`capi/src/types.rs` and `capi/src/api.rs`**, the Rust sources that define the C ABI's own
//!   types and constants, and its functions: each `#[no_mangle] extern "C" fn`, `#[repr(C)]
//!   struct`, opaque handle, `type` alias and integer `const` becomes its C declaration, with its
//!   doc comment. This is a small cbindgen for the few Rust types those modules use (fixed-size integers, raw pointers,
//!   `Option<extern fn>` callbacks, its own types); anything else is an error naming the item.
//!
//! Unlike the other emitters this one returns C source, a `String`, not a `TokenStream`; it
//! still does no I/O (the caller reads `types.rs` and `api.rs` and writes the header).
//!
//! The GL typedefs are grouped by the `glcorearb.h` block that declares them and guarded by that
//! block's macro (`GL_VERSION_1_5`, ...): included after `glcorearb.h`, glad or GLEW (which
//! define those macros with the types), the header declares nothing twice; included before one,
//! the GL header repeats the same typedefs, which C11, C++ and GCC's C99 mode accept.

use std::fmt::Write as _;

use crate::ctype::CType;
use crate::error::{Error, Position};
use crate::model::{Api, Kind};

/// The `glcorearb.h` block that declares each GL typedef.
const TYPEDEF_BLOCKS: &[(&str, &str)] = &[
    ("GLvoid", "GL_VERSION_1_0"),
    ("GLenum", "GL_VERSION_1_0"),
    ("GLfloat", "GL_VERSION_1_0"),
    ("GLint", "GL_VERSION_1_0"),
    ("GLsizei", "GL_VERSION_1_0"),
    ("GLbitfield", "GL_VERSION_1_0"),
    ("GLdouble", "GL_VERSION_1_0"),
    ("GLuint", "GL_VERSION_1_0"),
    ("GLboolean", "GL_VERSION_1_0"),
    ("GLubyte", "GL_VERSION_1_0"),
    ("GLclampf", "GL_VERSION_1_1"),
    ("GLclampd", "GL_VERSION_1_1"),
    ("GLsizeiptr", "GL_VERSION_1_5"),
    ("GLintptr", "GL_VERSION_1_5"),
    ("GLchar", "GL_VERSION_2_0"),
    ("GLshort", "GL_VERSION_2_0"),
    ("GLbyte", "GL_VERSION_2_0"),
    ("GLushort", "GL_VERSION_2_0"),
    ("GLhalf", "GL_VERSION_3_0"),
    ("GLsync", "GL_VERSION_3_2"),
    ("GLuint64", "GL_VERSION_3_2"),
    ("GLint64", "GL_VERSION_3_2"),
    ("GLDEBUGPROC", "GL_VERSION_4_3"),
    ("GLuint64EXT", "GL_ARB_bindless_texture"),
    ("GLDEBUGPROCARB", "GL_ARB_debug_output"),
    ("GLeglImageOES", "GL_EXT_EGL_image_storage"),
    ("GLVULKANPROCNV", "GL_NV_draw_vulkan_image"),
    ("GLint64EXT", "GL_NV_gpu_shader5"),
];

/// `khrplatform.h`'s types, spelled without it (the header includes only `<stdint.h>` and
/// `<stddef.h>`): the same C types `khrplatform.h` gives them on every platform it supports.
fn khronos(t: &str) -> Option<&'static str> {
    Some(match t {
        "khronos_float_t" => "float",
        "khronos_int8_t" => "signed char",
        "khronos_uint8_t" => "unsigned char",
        "khronos_int16_t" => "signed short int",
        "khronos_uint16_t" => "unsigned short int",
        "khronos_int32_t" => "int32_t",
        "khronos_uint32_t" => "uint32_t",
        "khronos_int64_t" => "int64_t",
        "khronos_uint64_t" => "uint64_t",
        "khronos_intptr_t" => "GLCMD_KHRONOS_INTPTR",
        "khronos_ssize_t" => "GLCMD_KHRONOS_SSIZE",
        _ => return None,
    })
}

fn err(what: &str, message: String) -> Error {
    Error::Classify { at: Position { file: "capi/src/api.rs".into(), line: 0 }, function: what.into(), message }
}

/// The typedef lines, with `khronos_*` and `APIENTRY` spelled for this header.
fn typedef_line(definition: &str) -> String {
    let mut s = definition.replace("APIENTRY ", "GLCMD_APIENTRY ").replace("APIENTRY*", "GLCMD_APIENTRY *");
    for k in [
        "khronos_float_t",
        "khronos_int8_t",
        "khronos_uint8_t",
        "khronos_int16_t",
        "khronos_uint16_t",
        "khronos_int32_t",
        "khronos_uint32_t",
        "khronos_int64_t",
        "khronos_uint64_t",
        "khronos_intptr_t",
        "khronos_ssize_t",
    ] {
        s = s.replace(k, khronos(k).expect("listed"));
    }
    s
}

/// A C declaration of `name` with type `t` (`const GLuint *textures`).
fn c_decl(t: &CType, name: &str) -> String {
    let ty = t.to_string();
    if ty.ends_with('*') {
        format!("{ty}{name}")
    } else {
        format!("{ty} {name}")
    }
}

/// Doc comment lines as a C comment, indented.
fn c_comment(out: &mut String, indent: &str, lines: &[String]) {
    let lines: Vec<String> = lines.iter().map(|l| l.trim_end().replace("*/", "* /")).collect();
    if lines.iter().all(|l| l.trim().is_empty()) {
        return;
    }
    if lines.len() == 1 {
        let _ = writeln!(out, "{indent}/* {} */", lines[0].trim());
        return;
    }
    let _ = writeln!(out, "{indent}/*");
    for l in &lines {
        if l.trim().is_empty() {
            let _ = writeln!(out, "{indent} *");
        } else {
            let _ = writeln!(out, "{indent} * {}", l.strip_prefix(' ').unwrap_or(l));
        }
    }
    let _ = writeln!(out, "{indent} */");
}

fn docs(attrs: &[syn::Attribute]) -> Vec<String> {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn has_attr(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident(name)
            || matches!(&a.meta, syn::Meta::List(l) if l.path.is_ident("unsafe") && l.tokens.to_string().contains(name))
    })
}

/// Types `api.rs` declares (or the header declares for it), usable by name.
struct Known(Vec<String>);

/// The C spelling of a Rust type of `api.rs`, around a declarator (`name`, possibly empty).
fn c_type(known: &Known, ty: &syn::Type, declarator: &str, what: &str) -> Result<String, Error> {
    let spaced = |base: &str| if declarator.is_empty() { base.to_string() } else { format!("{base} {declarator}") };
    match ty {
        syn::Type::Ptr(p) => {
            // `*mut T` is `T *d`; `*const T` is `const T *d` (a const pointer to a pointer has
            // no use here and is refused).
            let decl = format!("*{declarator}");
            if p.const_token.is_none() {
                return c_type(known, &p.elem, &decl, what);
            }
            if matches!(*p.elem, syn::Type::Ptr(_)) {
                return Err(err(what, "`*const *T` has no C spelling in the header generator".into()));
            }
            Ok(format!("const {}", c_type(known, &p.elem, &decl, what)?))
        }
        syn::Type::Tuple(t) if t.elems.is_empty() => Ok(spaced("void")),
        syn::Type::Path(p) => {
            let last = p.path.segments.last().ok_or_else(|| err(what, "an empty type path".into()))?;
            let name = last.ident.to_string();
            if name == "Option" {
                return Err(err(what, "Option<..> is only supported as a callback type alias".into()));
            }
            let base = match name.as_str() {
                "u8" => "uint8_t",
                "u16" => "uint16_t",
                "u32" => "uint32_t",
                "u64" => "uint64_t",
                "i8" => "int8_t",
                "i16" => "int16_t",
                "i32" => "int32_t",
                "i64" => "int64_t",
                "usize" => "size_t",
                "isize" => "ptrdiff_t",
                "c_char" => "char",
                "c_int" => "int",
                "c_ulong" => "unsigned long",
                "c_void" => "void",
                n if n.starts_with("GL") => n,
                n if known.0.iter().any(|k| k == n) => n,
                n => return Err(err(what, format!("type `{n}` has no C spelling in the header generator"))),
            };
            Ok(spaced(base))
        }
        _ => Err(err(what, format!("type `{}` has no C spelling in the header generator", quote::quote!(#ty)))),
    }
}

/// `R (CONV *name)(params)` for a `extern fn` pointer type.
fn c_fn_pointer(known: &Known, f: &syn::TypeBareFn, name: &str, what: &str) -> Result<String, Error> {
    let conv = match f.abi.as_ref().and_then(|a| a.name.as_ref()).map(|n| n.value()) {
        Some(n) if n == "system" => "GLCMD_APIENTRY ",
        Some(n) if n == "C" => "",
        _ => return Err(err(what, "callbacks must be extern \"C\" or extern \"system\"".into())),
    };
    let mut params = Vec::new();
    for (i, a) in f.inputs.iter().enumerate() {
        let pname = a.name.as_ref().map(|(n, _)| n.to_string()).unwrap_or_else(|| format!("arg{i}"));
        params.push(c_type(known, &a.ty, &pname, what)?);
    }
    let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
    let ret = match &f.output {
        syn::ReturnType::Default => "void".to_string(),
        syn::ReturnType::Type(_, t) => c_type(known, t, "", what)?,
    };
    Ok(format!("{ret} ({conv}*{name})({params})"))
}

/// The callback type inside `Option<unsafe extern "C" fn(..)>`, if `ty` is one.
fn callback(ty: &syn::Type) -> Option<&syn::TypeBareFn> {
    let syn::Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else { return None };
    match args.args.first()? {
        syn::GenericArgument::Type(syn::Type::BareFn(f)) => Some(f),
        _ => None,
    }
}

fn int_literal(e: &syn::Expr) -> Option<String> {
    match e {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => {
            Some(i.to_string().replace('_', "").trim_end_matches(char::is_alphabetic).to_string())
        }
        syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_), expr, .. }) => {
            int_literal(expr).map(|s| format!("(-{s})"))
        }
        syn::Expr::Cast(c) => int_literal(&c.expr),
        syn::Expr::Paren(p) => int_literal(&p.expr),
        _ => None,
    }
}

/// The declarations of the C ABI's sources (`types.rs`, then `api.rs`), in source order.
fn api_declarations(sources: &[&str]) -> Result<String, Vec<Error>> {
    let mut items = Vec::new();
    for source in sources {
        let file: syn::File =
            syn::parse_file(source).map_err(|e| vec![err("api.rs", format!("does not parse: {e}"))])?;
        items.extend(file.items);
    }
    let mut known = Known(vec!["GlcmdGL".into()]);
    for item in &items {
        match item {
            syn::Item::Struct(s) => known.0.push(s.ident.to_string()),
            syn::Item::Type(t) => known.0.push(t.ident.to_string()),
            _ => {}
        }
    }
    let mut out = String::new();
    let mut errors = Vec::new();
    for item in &items {
        let r: Result<(), Error> = (|| {
            match item {
                syn::Item::Type(t) if matches!(t.vis, syn::Visibility::Public(_)) => {
                    let name = t.ident.to_string();
                    c_comment(&mut out, "", &docs(&t.attrs));
                    if let Some(f) = callback(&t.ty) {
                        let _ = writeln!(out, "typedef {};\n", c_fn_pointer(&known, f, &name, &name)?);
                    } else {
                        let _ = writeln!(out, "typedef {};\n", c_type(&known, &t.ty, &name, &name)?);
                    }
                }
                syn::Item::Const(c) if matches!(c.vis, syn::Visibility::Public(_)) => {
                    let name = c.ident.to_string();
                    let value =
                        int_literal(&c.expr).ok_or_else(|| err(&name, "constants must be integer literals".into()))?;
                    let d = docs(&c.attrs);
                    if d.len() == 1 {
                        let _ = writeln!(out, "#define {name} {value} /* {} */", d[0].trim().replace("*/", "* /"));
                    } else {
                        c_comment(&mut out, "", &d);
                        let _ = writeln!(out, "#define {name} {value}");
                    }
                }
                syn::Item::Struct(s) if matches!(s.vis, syn::Visibility::Public(_)) => {
                    let name = s.ident.to_string();
                    c_comment(&mut out, "", &docs(&s.attrs));
                    let public: Vec<&syn::Field> =
                        s.fields.iter().filter(|f| matches!(f.vis, syn::Visibility::Public(_))).collect();
                    if public.is_empty() {
                        // An opaque handle.
                        let _ = writeln!(out, "typedef struct {name} {name};\n");
                        return Ok(());
                    }
                    if !s.attrs.iter().any(|a| a.path().is_ident("repr")) {
                        return Err(err(&name, "a struct with public fields must be #[repr(C)]".into()));
                    }
                    let _ = writeln!(out, "typedef struct {name} {{");
                    for f in &s.fields {
                        let fname = f.ident.as_ref().map(|i| i.to_string()).unwrap_or_default();
                        c_comment(&mut out, "    ", &docs(&f.attrs));
                        let decl = match callback(&f.ty) {
                            Some(cb) => c_fn_pointer(&known, cb, &fname, &name)?,
                            None => c_type(&known, &f.ty, &fname, &name)?,
                        };
                        let _ = writeln!(out, "    {decl};");
                    }
                    let _ = writeln!(out, "}} {name};\n");
                }
                syn::Item::Fn(f) if has_attr(&f.attrs, "no_mangle") => {
                    let name = f.sig.ident.to_string();
                    match f.sig.abi.as_ref().and_then(|a| a.name.as_ref()).map(|n| n.value()) {
                        Some(abi) if abi == "C" => {}
                        _ => return Err(err(&name, "exported functions must be extern \"C\"".into())),
                    }
                    let mut params = Vec::new();
                    for a in &f.sig.inputs {
                        let syn::FnArg::Typed(pt) = a else { return Err(err(&name, "a method".into())) };
                        let pname = match &*pt.pat {
                            syn::Pat::Ident(i) => i.ident.to_string(),
                            _ => return Err(err(&name, "parameters must be plain names".into())),
                        };
                        let decl = match callback(&pt.ty) {
                            Some(cb) => c_fn_pointer(&known, cb, &pname, &name)?,
                            None => c_type(&known, &pt.ty, &pname, &name)?,
                        };
                        params.push(decl);
                    }
                    let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
                    let ret = match &f.sig.output {
                        syn::ReturnType::Default => "void".to_string(),
                        syn::ReturnType::Type(_, t) => c_type(&known, t, "", &name)?,
                    };
                    c_comment(&mut out, "", &docs(&f.attrs));
                    let sep = if ret.ends_with('*') { "" } else { " " };
                    let _ = writeln!(out, "GLCMD_API {ret}{sep}{name}({params});\n");
                }
                _ => {}
            }
            Ok(())
        })();
        if let Err(e) = r {
            errors.push(e);
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// `glcmd.h`: the GL types, the C ABI of `api_sources` (the texts of `capi/src/types.rs` and
/// `capi/src/api.rs`), and the table of GL entry points.
pub fn emit(api: &Api, api_sources: &[&str]) -> Result<String, Vec<Error>> {
    let mut errors = Vec::new();
    let mut out = String::new();
    out.push_str(PROLOGUE);

    // GL types, by glcorearb.h block.
    out.push_str(
        "/*\n * The GL types glcmd.h uses, as glcorearb.h declares them, block by block. A block is skipped when\n \
         * a GL header included first (glcorearb.h, glext.h, glad, GLEW) declared it: those define the\n \
         * block's macro. Included before such a header, the header declares the same typedefs again,\n \
         * which C11, C++ and GCC's C99 mode accept (strict ISO C99, -pedantic, does not: include the\n \
         * GL header first there).\n */\n",
    );
    out.push_str(
        "#if defined(_WIN64)\n#define GLCMD_KHRONOS_INTPTR signed long long int\n#define GLCMD_KHRONOS_SSIZE signed long long int\n\
         #else\n#define GLCMD_KHRONOS_INTPTR signed long int\n#define GLCMD_KHRONOS_SSIZE signed long int\n#endif\n",
    );
    let mut blocks: Vec<(&str, Vec<String>)> = Vec::new();
    for (name, definition) in &api.typedefs {
        let Some((_, block)) = TYPEDEF_BLOCKS.iter().find(|(t, _)| t == name) else {
            errors.push(err(
                name,
                "a GL typedef without its glcorearb.h block; add it to TYPEDEF_BLOCKS in codegen/src/emit/c_header.rs"
                    .into(),
            ));
            continue;
        };
        // Plain typedefs are kept as their type; function-pointer ones as the whole declaration.
        let line = if definition.starts_with("typedef") {
            typedef_line(definition)
        } else {
            typedef_line(&format!("typedef {definition} {name};"))
        };
        if line.contains("khronos_") {
            errors.push(err(name, format!("`{definition}` uses a khrplatform.h type the header cannot spell")));
        }
        match blocks.iter_mut().find(|(b, _)| b == block) {
            Some((_, lines)) => {
                if !lines.contains(&line) {
                    lines.push(line)
                }
            }
            None => blocks.push((block, vec![line])),
        }
    }
    for (block, lines) in &blocks {
        let _ = writeln!(out, "#ifndef {block}");
        for l in lines {
            let _ = writeln!(out, "{l}");
        }
        let _ = writeln!(out, "#endif");
    }
    out.push_str("struct _cl_context;\nstruct _cl_event;\n\n");

    match api_declarations(api_sources) {
        Ok(decls) => {
            out.push_str("/* ---- The C ABI (capi/src/types.rs, capi/src/api.rs) ---- */\n\n");
            out.push_str("/* The table of GL entry points, defined below. */\ntypedef struct GlcmdGL GlcmdGL;\n\n");
            out.push_str(&decls);
        }
        Err(e) => errors.extend(e),
    }

    // The table of GL entry points.
    let count = api.functions.len();
    let kinds = |k: Kind| api.functions.iter().filter(|f| f.kind == k).count();
    let _ = writeln!(
        out,
        "/* ---- The GL entry points ---- */\n\n\
         /* Functions of glcorearb.h, each with an entry point (glcmdGetProcAddress, GlcmdGL):\n   \
         {count} = {} record + {} create + {} delete + {} query + {} special. */\n\
         #define GLCMD_FUNCTION_COUNT {count}\n",
        kinds(Kind::Record),
        kinds(Kind::Create),
        kinds(Kind::Delete),
        kinds(Kind::Query),
        kinds(Kind::Special),
    );
    out.push_str(TABLE_PREAMBLE);
    for f in &api.functions {
        write_contract(&mut out, f);
        let params: Vec<String> = f.params.iter().map(|p| c_decl(&p.ty, &p.name)).collect();
        let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
        let ret = f.ret.to_string();
        let sep = if ret.ends_with('*') { "" } else { " " };
        let unsupported = super::capi::flags(f) & super::capi::FLAG_UNSUPPORTED != 0;
        let _ = writeln!(
            out,
            "    {ret}{sep}(GLCMD_APIENTRY *{})({params}); /* {}{} */",
            f.short_name(),
            f.kind,
            if unsupported { ", unsupported" } else { "" }
        );
    }
    out.push_str("};\n\n");

    out.push_str(
        "/*\n * GLCMD_GL_MACROS: defined before this header (which must then come after every GL header),\n \
         * every glX name of the translation unit calls through `glcmd_gl`, a GlcmdGL the application\n \
         * defines once and fills with glcmdLoadGL. For loaders without a hook (GLEW links GL 1.0/1.1\n \
         * from libGL directly).\n */\n#ifdef GLCMD_GL_MACROS\nextern GlcmdGL glcmd_gl;\n",
    );
    for f in &api.functions {
        let _ = writeln!(out, "#undef {0}\n#define {0} (glcmd_gl.{1})", f.name, f.short_name());
    }
    out.push_str("#endif /* GLCMD_GL_MACROS */\n\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* GLCMD_H */\n");
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The caller's contract of `f`'s pointer arguments (`c_contract.rs`), as a comment above its
/// member of `GlcmdGL`; nothing for a function without pointer arguments.
fn write_contract(out: &mut String, f: &crate::model::Function) {
    let contracts = super::c_contract::contracts(f);
    if contracts.is_empty() {
        return;
    }
    let _ = writeln!(out, "    /*\n     * {} ({}): the caller's contract", f.name, f.kind);
    for (name, text) in &contracts {
        let _ = writeln!(out, "     *   `{name}`: {}", text.replace("*/", "* /"));
    }
    let _ = writeln!(out, "     */");
}

/// The comment that opens `struct GlcmdGL`, with what the caller's contract lines mean.
const TABLE_PREAMBLE: &str =
    "/*\n * Every entry point, with the exact C signature of glcorearb.h, named without the `gl` prefix and\n \
         * sorted by GL name: a glad-style table that glcmdLoadGL fills. The comment after each member is\n \
         * its kind (record, create, delete, query, special) and whether it is unsupported through C.\n \
         *\n \
         * The caller's contract. A C pointer carries no length, so an entry point cannot check that an\n \
         * array holds what the GL reads: it copies as many elements as the length rule of the Rust\n \
         * method says, and a shorter array is read past its end (undefined behaviour, in the caller).\n \
         * The comment above each entry point with pointer arguments states, for each of them, what it\n \
         * must point to: a non-NULL array holds the elements named there (`count` elements: as many\n \
         * as the argument `count` says), an output has room for them. NULL where the contract does not\n \
         * allow it is refused (GLCMD_ERROR_NULL_POINTER), as is a negative count; what is checked,\n \
         * glcmd checks exactly as for the Rust method.\n */\n\
         struct GlcmdGL {\n";

const PROLOGUE: &str = "\
/*
 * glcmd.h: the C ABI of glcmd (crate glcmd-capi). C and C++ threads record OpenGL calls into
 * command lists through the entry points of glcmdGetProcAddress; one render thread replays them.
 * See README.md, \"C and C++\".
 *
 * @generated by glcmd-codegen from vendor/glcorearb.h, vendor/gl.xml, capi/src/types.rs and capi/src/api.rs.
 * Do not edit: `cargo run -p glcmd-codegen -- header capi/include/glcmd.h` regenerates it, and
 * `cargo test -p glcmd-capi --test header` checks that it is fresh.
 *
 * The GL types and entry-point signatures are glcorearb.h's: Copyright 2013-2020 The Khronos
 * Group Inc., SPDX-License-Identifier: MIT (text: glcorearb.h.LICENSE-MIT beside this file).
 * The rest: glcmd, MIT OR Apache-2.0.
 */
#ifndef GLCMD_H
#define GLCMD_H 1

#include <stddef.h>
#include <stdint.h>

/* The calling convention of GL entry points (glcorearb.h's APIENTRY). */
#if defined(_WIN32) && !defined(__CYGWIN__) && !defined(__SCITECH_SNAP__)
#define GLCMD_APIENTRY __stdcall
#else
#define GLCMD_APIENTRY
#endif

/* How the glcmd* functions are declared (e.g. __declspec(dllimport) on Windows). */
#ifndef GLCMD_API
#define GLCMD_API extern
#endif

#ifdef __cplusplus
extern \"C\" {
#endif

";
