//! The soundness sweep: a call of every safe recording method and every safe generated query,
//! with arguments a fixture chooses adversarially (zero, negative and huge counts and sizes,
//! empty and long slices, unknown enums, names that do not exist, offsets with and without a
//! buffer bound). Generated from the model, so a function nobody thought of is swept too.
//!
//! The output is a Rust module for the `glcmd-sweep` test crate (`sweep/`), which supplies the
//! fixture (`Fixture`: `enumv`, `name`, `int`, `slice`, ...). Each generated function takes the
//! variant number `v`; argument `i` of variant `v` picks its value from the fixture's choices
//! by `(v, i)`, so the variants spread over every choice of every argument.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::commands::recorded_entries;
use super::element_type;
use crate::model::{Api, Function, Kind, Param, Role, Rule};

/// Valid values of a parameter's enum group (up to 4), for the fixture to mix with invalid
/// ones.
fn group_values(api: &Api, p: &Param) -> TokenStream {
    let values: std::collections::HashMap<&str, u64> = api.enums.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let list: Vec<Literal> = p
        .group
        .as_ref()
        .and_then(|g| api.groups.get(g))
        .map(|members| {
            members
                .iter()
                .filter_map(|m| values.get(m.as_str()))
                .filter(|&&v| v <= u32::MAX as u64)
                .take(4)
                .map(|&v| Literal::u32_unsuffixed(v as u32))
                .collect()
        })
        .unwrap_or_default();
    quote!(&[#(#list),*])
}

/// The expression for a scalar argument.
fn scalar(api: &Api, p: &Param, v: &TokenStream, i: usize) -> TokenStream {
    let base = p.ty.base.as_str();
    match base {
        "GLenum" => {
            let values = group_values(api, p);
            quote!(fx.enumv(#v, #i, #values))
        }
        "GLboolean" => quote!(fx.boolean(#v, #i)),
        "GLbitfield" => quote!(fx.bits(#v, #i)),
        "GLfloat" | "GLclampf" => quote!(fx.float(#v, #i) as f32),
        "GLdouble" | "GLclampd" => quote!(fx.float(#v, #i)),
        "GLuint" if p.class.is_some() => {
            let class = p.class.clone().unwrap_or_default();
            quote!(fx.name(#v, #i, #class))
        }
        "GLuint" | "GLhandleARB" => quote!(fx.uint(#v, #i)),
        "GLint64" | "GLuint64" | "GLint64EXT" | "GLuint64EXT" | "GLintptr" | "GLsizeiptr" | "GLintptrARB"
        | "GLsizeiptrARB" | "GLvdpauSurfaceNV" => quote!(fx.wide(#v, #i) as _),
        _ => quote!(fx.int(#v, #i) as _),
    }
}

/// The Rust element type of an array argument, and whether it is chunked (`[[T; k]]`).
fn slice_expr(p: &Param, rule: &Rule, v: &TokenStream, i: usize, count: Option<&proc_macro2::Ident>) -> TokenStream {
    let elem = element_type(p);
    let len = match count {
        Some(c) => quote!(fx.len_for(#c as i64)),
        None => quote!(fx.slice_len(#v, #i)),
    };
    match rule {
        Rule::Product(_, k) => {
            let k = *k as usize;
            quote!(&fx.chunks::<#elem, #k>(#len)[..])
        }
        Rule::Const(n) => {
            let n = *n as usize;
            quote!(&fx.array::<#elem, #n>())
        }
        Rule::Pname { .. } => quote!(&fx.values::<#elem>(fx.pname_len(#v, #i))[..]),
        _ => quote!(&fx.values::<#elem>(#len)[..]),
    }
}

/// The arguments of a generated method, in order, with `let`s for counts that size arrays.
fn arguments(api: &Api, f: &Function, v: &TokenStream) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let (lets, args) = indexed_arguments(api, f, v);
    (lets, args.into_iter().map(|(_, a)| a).collect())
}

/// [`arguments`], each with the index of its parameter.
fn indexed_arguments(api: &Api, f: &Function, v: &TokenStream) -> (Vec<TokenStream>, Vec<(usize, TokenStream)>) {
    let mut lets = Vec::new();
    let mut args = Vec::new();
    // Scalar counts that stay arguments and size a slice: chosen first, so the slice can match.
    let sizes_array = |name: &str| {
        f.params.iter().any(|q| match &q.role {
            Role::In(Rule::Param(x) | Rule::Product(x, _) | Rule::Quotient(x, _)) => x == name,
            _ => false,
        })
    };
    for (i, p) in f.params.iter().enumerate() {
        if matches!(p.role, Role::Value) && sizes_array(&p.name) {
            let c = format_ident!("c{}", i);
            lets.push(quote!(let #c = fx.count(#v, #i);));
        }
    }
    let count_of = |x: &str| {
        let j = f.params.iter().position(|q| q.name == x)?;
        matches!(f.params[j].role, Role::Value).then(|| format_ident!("c{}", j))
    };
    for (i, p) in f.params.iter().enumerate() {
        let arg = match &p.role {
            Role::Value if sizes_array(&p.name) => {
                let c = format_ident!("c{}", i);
                quote!(#c as _)
            }
            Role::Value => scalar(api, p, v, i),
            Role::Sync => quote!(fx.sync(#v, #i)),
            Role::Length { .. } | Role::LengthArray { .. } | Role::OutLength { .. } => continue,
            Role::Offset | Role::Opaque => quote!(fx.offset(#v, #i)),
            Role::Out(Rule::Bytes) if crate::sizing::sized_by_query(f, p) => continue,
            Role::Out(Rule::Bytes) => quote!(fx.out_len(#v, #i)),
            Role::Out(_) => continue,
            Role::In(rule) => {
                let count = match rule {
                    Rule::Param(x) | Rule::Product(x, _) | Rule::Quotient(x, _) => count_of(x),
                    _ => None,
                };
                if p.unpack_offset {
                    let c = count.expect("an unpack-offset array is sized by an argument");
                    quote!(fx.bytes_sized(#v, #i, #c as i64))
                } else {
                    match rule {
                        Rule::String => quote!(fx.string(#v, #i)),
                        Rule::Strings(_) => quote!(&fx.strings(#v, #i)[..]),
                        Rule::Bytes if p.ty.pointee().base == "void" && p.ty.pointers.len() == 1 => {
                            quote!(fx.bytes(#v, #i))
                        }
                        Rule::Quotient(_, d) => {
                            let elem = element_type(p);
                            let c = count.expect("a quotient is sized by an argument");
                            let d = *d as i64;
                            quote!(&fx.values::<#elem>(fx.len_for(#c as i64 / #d))[..])
                        }
                        _ => {
                            let s = slice_expr(p, rule, v, i, count.as_ref());
                            if p.nullable {
                                quote!(fx.maybe(#v, #i, #s))
                            } else {
                                s
                            }
                        }
                    }
                }
            }
        };
        args.push((i, arg));
    }
    (lets, args)
}

pub fn emit(api: &Api) -> TokenStream {
    let mut callers = Callers::default();
    callers.base_recording(api);
    callers.base_queries(api);
    callers.slice_upload_forms(api);
    callers.singular_and_scalar_forms(api);
    let Callers { fns, record, query } = callers;
    let hooked = shadow_hooked(api);
    quote! {
        use glcmd::{types, CommandList, Device};
        use crate::fixture::Fixture;

        /// The GL functions whose replay updates or checks the binding shadow (the generator's
        /// `shadow_hooks::hook` table), for the shadow audit.
        pub static SHADOW_HOOKED: &[&str] = &[#(#hooked),*];

        /// Records one call of a method with variant `v`'s arguments.
        pub type RecordFn = fn(&mut CommandList, &Fixture, usize);
        /// Makes one query with variant `v`'s arguments.
        pub type QueryFn = fn(&Device, &Fixture, usize) -> Result<(), glcmd::Error>;

        #(#fns)*

        /// Every safe recording method, with its `_from_slice` form: (GL name, method, caller).
        pub static RECORD: &[(&str, &str, RecordFn)] = &[#(#record)*];
        /// Every safe generated create and query method, with its singular and scalar forms:
        /// (GL name, method, caller).
        pub static QUERY: &[(&str, &str, QueryFn)] = &[#(#query)*];
    }
}

/// The generated callers, and the `RECORD` and `QUERY` table entries that list them.
#[derive(Default)]
struct Callers {
    fns: Vec<TokenStream>,
    record: Vec<TokenStream>,
    query: Vec<TokenStream>,
}

impl Callers {
    /// A caller of every safe recording method.
    fn base_recording(&mut self, api: &Api) {
        let v = quote!(v);
        for f in recorded_entries(api).iter().filter(|f| !f.is_unsafe()) {
            let name = format_ident!("r_{}", f.method_name());
            let method = format_ident!("{}", f.method_name());
            let (lets, args) = arguments(api, f, &v);
            let gl_name = &f.name;
            let method_name = f.method_name();
            let call = if f.name == "glFenceSync" {
                quote!({ fx.keep_sync(l.#method(#(#args),*)); })
            } else {
                quote!(l.#method(#(#args),*);)
            };
            self.fns.push(quote! {
                fn #name(l: &mut CommandList, fx: &Fixture, v: usize) {
                    #(#lets)*
                    #call
                }
            });
            self.record.push(quote!((#gl_name, #method_name, #name as RecordFn),));
        }
    }

    /// A caller of every safe create and query method.
    fn base_queries(&mut self, api: &Api) {
        let v = quote!(v);
        for f in api.functions.iter().filter(|f| matches!(f.kind, Kind::Create | Kind::Query) && !f.is_unsafe()) {
            let name = format_ident!("q_{}", f.method_name());
            let method = format_ident!("{}", f.method_name());
            let (lets, args) = arguments(api, f, &v);
            let gl_name = &f.name;
            let method_name = f.method_name();
            self.fns.push(quote! {
                fn #name(d: &Device, fx: &Fixture, v: usize) -> Result<(), glcmd::Error> {
                    #(#lets)*
                    d.#method(#(#args),*).map(|r| fx.keep(&r))
                }
            });
            self.query.push(quote!((#gl_name, #method_name, #name as QueryFn),));
        }
    }

    // The other forms of the same functions (`_from_slice` uploads, whose size comes from the
    // slice; singular creates; scalar queries) have argument handling of their own that the
    // base method's caller does not reach: each is swept like its base method.

    /// A caller of every `_from_slice` upload.
    fn slice_upload_forms(&mut self, api: &Api) {
        let v = quote!(v);
        for f in recorded_entries(api).iter().filter(|f| !f.is_unsafe()) {
            let Some((data, size)) = super::commands::from_slice_params(f) else { continue };
            let method_name = format!("{}_from_slice", f.method_name());
            let name = format_ident!("r_{}", method_name);
            let method = format_ident!("{}", method_name);
            let (lets, args) = indexed_arguments(api, f, &v);
            let args = args.into_iter().filter(|(i, _)| f.params[*i].name != size.name).map(|(i, a)| {
                if f.params[i].name == data.name {
                    quote!(&fx.values::<u8>(fx.slice_len(#v, #i))[..])
                } else {
                    a
                }
            });
            let gl_name = &f.name;
            self.fns.push(quote! {
                fn #name(l: &mut CommandList, fx: &Fixture, v: usize) {
                    #(#lets)*
                    l.#method(#(#args),*);
                }
            });
            self.record.push(quote!((#gl_name, #method_name, #name as RecordFn),));
        }
    }

    /// A caller of every singular create (`create_texture(target)`) and scalar query.
    fn singular_and_scalar_forms(&mut self, api: &Api) {
        let v = quote!(v);
        for f in api.functions.iter().filter(|f| matches!(f.kind, Kind::Create | Kind::Query) && !f.is_unsafe()) {
            let gl_name = &f.name;
            if let Some(one) = super::device::singular_form(api, f) {
                // `create_texture(target)`: the base arguments without the count.
                let (_, args) = indexed_arguments(api, f, &v);
                let args = args.into_iter().filter(|(i, _)| f.params[*i].ty.base == "GLenum").map(|(_, a)| a);
                let name = format_ident!("q_{}", one);
                let method = format_ident!("{}", one);
                self.fns.push(quote! {
                    fn #name(d: &Device, fx: &Fixture, v: usize) -> Result<(), glcmd::Error> {
                        d.#method(#(#args),*).map(|r| fx.keep(&r))
                    }
                });
                self.query.push(quote!((#gl_name, #one, #name as QueryFn),));
            }
            if let Some(scalar) = super::device::scalar_form(api, f) {
                let (lets, args) = arguments(api, f, &v);
                let name = format_ident!("q_{}", scalar);
                let method = format_ident!("{}", scalar);
                self.fns.push(quote! {
                    fn #name(d: &Device, fx: &Fixture, v: usize) -> Result<(), glcmd::Error> {
                        #(#lets)*
                        d.#method(#(#args),*).map(|r| fx.keep(&r))
                    }
                });
                self.query.push(quote!((#gl_name, #scalar, #name as QueryFn),));
            }
        }
    }
}

/// The functions the binding shadow watches (a bind, multi-bind, delete, vertex-array or
/// storage change, or a checked draw): the shadow audit calls each and compares the shadow with
/// the GL after it.
fn shadow_hooked(api: &Api) -> Vec<&str> {
    api.functions
        .iter()
        .filter(|f| {
            crate::shadow_hooks::hook(f).is_some() && matches!(f.kind, Kind::Record | Kind::Delete) && !f.is_unsafe()
        })
        .map(|f| f.name.as_str())
        .collect()
}
