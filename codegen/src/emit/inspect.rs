//! What diagnostics need to read a packet back: a dump function per opcode (one GL call in
//! apitrace style, enums by name, array contents shown), and for opcodes whose arguments name
//! GL objects (gl.xml `class`), a function that lists those names, so the runtime can catch a
//! use after delete.
//!
//! Both read the packet's own fields directly and the parameter buffer only through the
//! bounds-checked helpers of `runtime/dump.rs`, which know every argument form (null arrays,
//! `Bytes` markers, string tables): diagnostics run on the render thread, where a wrong read
//! would take the device down with it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::commands::recorded_entries;
use super::{ident, param_named, rust_type};
use crate::ctype::CType;
use crate::model::{Api, Function, Kind, Param, Role, Rule};
use crate::naming::param_ident;

pub fn emit(api: &Api) -> TokenStream {
    let entries = recorded_entries(api);
    let mut fns = Vec::new();
    let mut dump_names = Vec::new();
    let mut object_fns = Vec::new();
    let mut deletes = Vec::new();
    let mut draws = Vec::new();
    for f in &entries {
        draws.push(f.name.starts_with("glDraw") || f.name.starts_with("glMultiDraw"));
        let packet = format_ident!("{}Packet", f.type_name());
        let dump = format_ident!("dump_{}", f.method_name());
        fns.push(dump_fn(api, f, &packet, &dump));
        dump_names.push(dump);
        match objects_fn(f, &packet) {
            Some((name, tokens)) => {
                fns.push(tokens);
                object_fns.push(quote!(Some(#name)));
            }
            None => object_fns.push(quote!(None)),
        }
        deletes.push(f.kind == Kind::Delete);
    }
    let n = entries.len();
    quote! {
        use super::commands::*;
        use super::types;
        use super::enums::enum_name;
        use super::pname::{self, Count};
        use crate::dump::{self, DumpFn, ObjectsFn};

        #(#fns)*

        /// Dump function of each opcode.
        pub static DUMP: [DumpFn; #n] = [#(#dump_names),*];
        /// For each opcode, the function listing the GL object names its arguments use.
        pub static OBJECTS: [Option<ObjectsFn>; #n] = [#(#object_fns),*];
        /// Whether each opcode deletes the objects it names.
        pub static DELETES: [bool; #n] = [#(#deletes),*];
        /// Whether each opcode is a draw call (`glDraw*`, `glMultiDraw*`).
        pub static DRAWS: [bool; #n] = [#(#draws),*];
    }
}

fn count_expr(f: &Function, rule: &Rule) -> TokenStream {
    let field = |x: &str| {
        let id = ident(param_named(f, x));
        quote!(((c.#id) as i64).max(0) as usize)
    };
    match rule {
        Rule::Param(x) => field(x),
        Rule::Const(n) => {
            let n = *n as usize;
            quote!(#n)
        }
        Rule::Product(x, k) => {
            let v = field(x);
            let k = *k as usize;
            quote!(#v * #k)
        }
        Rule::Quotient(x, d) => {
            let v = field(x);
            let d = *d as usize;
            quote!(#v / #d)
        }
        Rule::Pname { group, param } => {
            let count_fn = format_ident!("count_{}", group.to_lowercase());
            let pn = ident(param_named(f, param));
            quote!(match pname::#count_fn(c.#pn as u32) { Some(Count::Fixed(n)) => n as usize, _ => 16 })
        }
        Rule::One => quote!(1usize),
        Rule::Bytes | Rule::String | Rule::Strings(_) => unreachable!("handled by the caller"),
    }
}

fn group_lit(p: &Param) -> TokenStream {
    let g = p.group.clone().unwrap_or_default();
    quote!(#g)
}

fn dump_fn(api: &Api, f: &Function, packet: &proc_macro2::Ident, name: &proc_macro2::Ident) -> TokenStream {
    let gl_name = &f.name;
    let parts: Vec<TokenStream> = f.params.iter().map(|p| dump_arg(f, p)).collect();
    let _ = api;
    let end = if f.name == "glFenceSync" { quote!(d.end_returning_sync({ c.sync } as u64)) } else { quote!(d.end()) };
    let doc = format!(" Writes a `{gl_name}` packet as one line.");
    quote! {
        #[doc = #doc]
        #[allow(unused_variables, unused_unsafe, unused_mut)]
        unsafe fn #name(p: *const u64, params: &[u8], out: &mut dyn std::fmt::Write) -> std::fmt::Result {
            // SAFETY: the opcode at `p` selected this function, so a whole packet of this type
            // lies at `p`. The parameter buffer is read through bounds-checked helpers only.
            let c = unsafe { p.cast::<#packet>().read_unaligned() };
            let mut d = dump::Line::new(out, params, #gl_name);
            #(#parts)*
            #end
        }
    }
}

/// One argument of a dump function: a call on the `dump::Line` being written.
fn dump_arg(f: &Function, p: &Param) -> TokenStream {
    let id = ident(p);
    let group = group_lit(p);
    match &p.role {
        Role::Value | Role::Length { .. } => match p.ty.base.as_str() {
            "GLenum" => quote!(d.enum_value(#group, (c.#id) as u32);),
            "GLboolean" => quote!(d.boolean(c.#id);),
            "GLbitfield" => quote!(d.bitfield(#group, c.#id);),
            "GLfloat" | "GLdouble" | "GLclampf" | "GLclampd" => quote!(d.float(&{ c.#id });),
            _ => quote!(d.display(&{ c.#id });),
        },
        Role::Sync => quote!(d.sync({ c.#id } as u64);),
        Role::Offset | Role::Opaque => quote!(d.hex(&{ c.#id });),
        Role::LengthArray { of } => {
            let count = f.params.iter().find(|q| q.name == *of).and_then(|q| match &q.role {
                Role::In(Rule::Strings(n)) => Some(ident(param_named(f, n))),
                _ => None,
            });
            let count = count.expect("a length array belongs to a string array");
            quote!(d.array::<i32>({ c.#id } as u64, ((c.#count) as i64).max(0) as usize, None);)
        }
        Role::In(Rule::String) => {
            let length = f.params.iter().find(|q| matches!(&q.role, Role::Length { of } if of.contains(&p.name)));
            match length {
                Some(l) => {
                    let l = ident(l);
                    quote!(d.string({ c.#id } as u64, Some((c.#l) as i64));)
                }
                None => quote!(d.string({ c.#id } as u64, None);),
            }
        }
        Role::In(Rule::Strings(count)) => {
            let count = ident(param_named(f, count));
            quote!(d.strings({ c.#id } as u64, ((c.#count) as i64).max(0) as usize);)
        }
        Role::In(_) if p.unpack_offset || matches!(p.role, Role::In(Rule::Bytes)) => {
            let len_id = format_ident!("{}_len", param_ident(&p.name));
            quote!(d.bytes({ c.#id } as u64, { c.#len_id });)
        }
        Role::In(rule) if p.nullable => {
            let count = count_expr(f, rule);
            let pointee = p.ty.pointee();
            let elem = if pointee.base == "void" {
                quote!(u8)
            } else {
                rust_type(&CType { base: pointee.base.clone(), base_const: false, pointers: vec![] })
            };
            quote!(d.nullable_array::<#elem>({ c.#id } as u64, #count, None);)
        }
        Role::In(rule) => {
            let count = count_expr(f, rule);
            let pointee = p.ty.pointee();
            let elem = if pointee.is_pointer() {
                quote!(usize)
            } else if pointee.base == "void" {
                quote!(u8)
            } else {
                rust_type(&CType { base: pointee.base.clone(), base_const: false, pointers: vec![] })
            };
            let enum_group = if pointee.base == "GLenum" { quote!(Some(#group)) } else { quote!(None) };
            quote!(d.array::<#elem>({ c.#id } as u64, #count, #enum_group);)
        }
        Role::Out(_) | Role::OutLength { .. } => unreachable!("recorded functions have no outputs"),
    }
}

/// Lists the object names a packet uses: scalar arguments with a gl.xml class, and input
/// arrays of them.
fn objects_fn(f: &Function, packet: &proc_macro2::Ident) -> Option<(proc_macro2::Ident, TokenStream)> {
    let mut parts = Vec::new();
    for p in &f.params {
        // Object names gl.xml gives no class, because the class depends on another argument.
        let field = |name: &str| ident(param_named(f, name));
        match (f.name.as_str(), p.name.as_str()) {
            ("glCopyImageSubData", n @ ("srcName" | "dstName")) => {
                let (id, target) = (ident(p), field(if n == "srcName" { "srcTarget" } else { "dstTarget" }));
                parts.push(quote! {
                    each(if c.#target as u32 == crate::gl::RENDERBUFFER { "renderbuffer" } else { "texture" }, c.#id);
                });
                continue;
            }
            ("glBeginConditionalRender", "id") => {
                let id = ident(p);
                parts.push(quote!(each("query", c.#id);));
                continue;
            }
            ("glObjectLabel", "name") => {
                let (id, identifier) = (ident(p), field("identifier"));
                parts.push(quote! {
                    if let Some(class) = dump::class_of_identifier(c.#identifier as u32) { each(class, c.#id); }
                });
                continue;
            }
            _ => {}
        }
        let Some(class) = p.class.clone() else { continue };
        let id = ident(p);
        match &p.role {
            Role::Value if matches!(p.ty.base.as_str(), "GLuint") => parts.push(quote!(each(#class, c.#id);)),
            // glcmd's sync handles: the ids the packets carry.
            Role::Sync => parts.push(quote!(each(#class, c.#id);)),
            Role::In(rule @ (Rule::Param(_) | Rule::Const(_))) if p.ty.pointee().base == "GLuint" => {
                let count = count_expr(f, rule);
                let nullable = p.nullable;
                parts.push(quote! {
                    dump::names(params, { c.#id } as u64, #count, #nullable, |n| each(#class, n));
                });
            }
            _ => {}
        }
    }
    if parts.is_empty() {
        return None;
    }
    let name = format_ident!("objects_{}", f.method_name());
    let odoc = format!(" Lists the GL object names a `{}` packet uses.", f.name);
    let tokens = quote! {
        #[doc = #odoc]
        #[allow(unused_unsafe, unused_variables)]
        unsafe fn #name(p: *const u64, params: &[u8], each: &mut dyn FnMut(&'static str, u32)) {
            // SAFETY: as for the dump functions.
            let c = unsafe { p.cast::<#packet>().read_unaligned() };
            #(#parts)*
        }
    };
    Some((name, tokens))
}
