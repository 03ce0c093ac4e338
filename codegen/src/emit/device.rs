//! `Device` methods for create and query functions. Each copies its inputs into owned values,
//! sends a closure to the render thread and waits for the result (a round trip), so the
//! closure never borrows from the caller.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{doc, element_type, ident, param_named, rust_type};
use crate::model::{Api, Function, Kind, Role, Rule};
use crate::naming::param_ident;

pub fn emit(api: &Api) -> TokenStream {
    let methods: Vec<TokenStream> =
        api.functions.iter().filter(|f| matches!(f.kind, Kind::Create | Kind::Query)).map(method).collect();
    quote! {
        use super::types;
        use super::pname::{self, Count};
        use crate::codec;
        use crate::device::{Device, RenderContext};

        /// Create and query functions. Each is a round trip to the render thread: it waits for
        /// every list submitted before it, runs, and returns the GL's answer.
        impl Device {
            #(#methods)*
        }
    }
}

/// The `Device` method of a create or query function.
pub fn method(f: &Function) -> TokenStream {
    let gl_name = &f.name;
    let method = format_ident!("{}", f.method_name());
    let field = format_ident!("{}", f.short_name());
    let mut args = Vec::new();
    let mut lengths = Vec::new();
    let mut owned = Vec::new();
    let mut setup = Vec::new();
    let mut call_args: Vec<TokenStream> = Vec::new();
    let mut results: Vec<(TokenStream, TokenStream)> = Vec::new(); // (type, expression)
    let mut finish = Vec::new();
    let mut pname_out: Option<(usize, TokenStream)> = None;

    for (i, p) in f.params.iter().enumerate() {
        let id = ident(p);
        let arg_name = p.name.as_str();
        let ty = rust_type(&p.ty);
        let a = format_ident!("a{}", i);
        match &p.role {
            Role::Value => {
                args.push(quote!(#id: #ty));
                call_args.push(quote!(#id));
            }
            Role::Opaque | Role::Offset => {
                args.push(quote!(#id: usize));
                call_args.push(quote!(#id as #ty));
            }
            Role::Sync => {
                args.push(quote!(#id: crate::Sync));
                owned.push(quote!(let #id = #id.id();));
                setup.push(quote!(let #a = ctx.sync_object(#gl_name, #id)?;));
                call_args.push(quote!(#a as #ty));
            }
            Role::Length { of } => {
                let first = ident(param_named(f, &of[0]));
                let first_name = of[0].as_str();
                let conv = match p.ty.base.as_str() {
                    "GLsizei" | "GLint" => quote!(codec::count_i32(#first.len(), #gl_name, #first_name)),
                    "GLuint" => quote!(codec::count_i32(#first.len(), #gl_name, #first_name) as u32),
                    _ => quote!(#first.len() as _),
                };
                lengths.push(quote!(let #id: #ty = #conv;));
                call_args.push(quote!(#id));
            }
            Role::LengthArray { .. } => call_args.push(quote!(std::ptr::null())),
            Role::OutLength { .. } => {
                setup.push(quote!(let mut #a: types::GLsizei = -1;));
                call_args.push(quote!(&mut #a as *mut types::GLsizei));
            }
            Role::In(rule) => {
                let elem = element_type(p);
                match rule {
                    Rule::String => {
                        args.push(quote!(#id: &str));
                        owned.push(quote!(let #id = codec::c_string(#gl_name, #arg_name, #id);));
                        call_args.push(quote!(#id.as_ptr() as #ty));
                    }
                    Rule::Strings(_) => {
                        args.push(quote!(#id: &[&str]));
                        owned.push(quote! {
                            let #id: Vec<std::ffi::CString> = #id.iter().map(|s| codec::c_string(#gl_name, #arg_name, s)).collect();
                        });
                        setup.push(
                            quote!(let #a: Vec<*const std::ffi::c_char> = #id.iter().map(|s| s.as_ptr()).collect();),
                        );
                        call_args.push(quote!(#a.as_ptr() as #ty));
                    }
                    Rule::Const(n) => {
                        let n = *n as usize;
                        args.push(quote!(#id: &[#elem; #n]));
                        owned.push(quote!(let #id = *#id;));
                        call_args.push(quote!(#id.as_ptr() as #ty));
                    }
                    Rule::Product(_, k) => {
                        let k = *k as usize;
                        args.push(quote!(#id: &[[#elem; #k]]));
                        owned.push(quote!(let #id = #id.to_vec();));
                        call_args.push(quote!(#id.as_ptr() as #ty));
                    }
                    Rule::Pname { group, param } => {
                        args.push(quote!(#id: &[#elem]));
                        let count_fn = format_ident!("count_{}", group.to_lowercase());
                        let pn = ident(param_named(f, param));
                        owned.push(quote! {
                            let needed = match pname::#count_fn(#pn) { Some(Count::Fixed(n)) => Some(n), _ => None };
                            codec::check_pname_len(#gl_name, #arg_name, #id.len(), needed, #pn);
                            let mut #id = #id.to_vec();
                            #id.resize(#id.len().max(16), Default::default());
                        });
                        call_args.push(quote!(#id.as_ptr() as #ty));
                    }
                    _ => {
                        args.push(quote!(#id: &[#elem]));
                        owned.push(quote!(let #id = #id.to_vec();));
                        call_args.push(quote!(#id.as_ptr() as #ty));
                    }
                }
            }
            Role::Out(rule) => {
                let elem = element_type(p);
                let len_expr = |x: &str| -> TokenStream {
                    let xp = param_named(f, x);
                    let xi = ident(xp);
                    match &xp.role {
                        Role::Length { .. } => quote!((#xi as i64).max(0) as usize),
                        _ => quote!((#xi as i64).max(0) as usize),
                    }
                };
                match rule {
                    Rule::One => {
                        setup.push(quote!(let mut #a: #elem = Default::default();));
                        call_args.push(quote!(&mut #a as *mut #elem as #ty));
                        results.push((quote!(#elem), quote!(#a)));
                    }
                    Rule::Const(n) => {
                        let n = *n as usize;
                        setup.push(quote!(let mut #a: [#elem; #n] = [Default::default(); #n];));
                        call_args.push(quote!(#a.as_mut_ptr() as #ty));
                        results.push((quote!([#elem; #n]), quote!(#a)));
                    }
                    Rule::Param(x) => {
                        let n = len_expr(x);
                        setup.push(quote!(let mut #a: Vec<#elem> = vec![Default::default(); #n];));
                        call_args.push(quote!(#a.as_mut_ptr() as #ty));
                        results.push((quote!(Vec<#elem>), quote!(#a)));
                    }
                    Rule::Quotient(x, d) => {
                        let n = len_expr(x);
                        let d = *d as usize;
                        setup.push(quote!(let mut #a: Vec<#elem> = vec![Default::default(); #n / #d];));
                        call_args.push(quote!(#a.as_mut_ptr() as #ty));
                        results.push((quote!(Vec<#elem>), quote!(#a)));
                    }
                    Rule::Product(x, k) => {
                        let n = len_expr(x);
                        let k = *k as usize;
                        setup.push(quote!(let mut #a: Vec<[#elem; #k]> = vec![[Default::default(); #k]; #n];));
                        call_args.push(quote!(#a.as_mut_ptr() as #ty));
                        results.push((quote!(Vec<[#elem; #k]>), quote!(#a)));
                    }
                    Rule::Bytes => {
                        let len_id = format_ident!("{}_len", param_ident(&p.name));
                        args.push(quote!(#len_id: usize));
                        setup.push(quote!(let mut #a: Vec<#elem> = vec![Default::default(); #len_id];));
                        call_args.push(quote!(#a.as_mut_ptr() as #ty));
                        results.push((quote!(Vec<#elem>), quote!(#a)));
                    }
                    Rule::String => {
                        let Some(Rule::Param(x)) = p.len.as_deref().and_then(crate::classify::parse_len) else {
                            unreachable!("classify gives output strings a parameter length")
                        };
                        let n = len_expr(&x);
                        setup.push(quote!(let mut #a: Vec<u8> = vec![0; #n];));
                        call_args.push(quote!(#a.as_mut_ptr() as #ty));
                        let length = f
                            .params
                            .iter()
                            .position(|q| matches!(&q.role, Role::OutLength { of } if *of == p.name))
                            .map(|j| {
                                let l = format_ident!("a{}", j);
                                quote!(Some(#l))
                            })
                            .unwrap_or(quote!(None));
                        let s = format_ident!("s{}", i);
                        finish.push(quote!(let #s = codec::string_from(&#a, #length);));
                        results.push((quote!(String), quote!(#s)));
                    }
                    Rule::Pname { group, param } => {
                        let count_fn = format_ident!("count_{}", group.to_lowercase());
                        let pn = ident(param_named(f, param));
                        pname_out = Some((i, quote!(#a)));
                        let is_bool = p.ty.base == "GLboolean";
                        let queried = if is_bool {
                            quote!({ let _ = q; return Err(crate::Error::UnsupportedQuery { function: #gl_name, pname: #pn as u32, reason: "the count of this pname must be queried with an integer getter" }) })
                        } else {
                            quote!(QUERIED_CALL)
                        };
                        setup.push(quote! {
                            let n = match pname::#count_fn(#pn) {
                                Some(Count::Fixed(n)) => n as usize,
                                Some(Count::Queried(q)) => { #queried }
                                None => return Err(crate::Error::UnknownPname { function: #gl_name, pname: #pn as u32 }),
                            };
                            let mut #a: Vec<#elem> = vec![Default::default(); n];
                        });
                        call_args.push(quote!(#a.as_mut_ptr() as #ty));
                        results.push((quote!(Vec<#elem>), quote!(#a)));
                    }
                    Rule::Strings(_) => unreachable!("no output string arrays"),
                }
            }
        }
    }

    // The call that asks how many values a `Queried` pname returns: the same function, with
    // pname replaced by the counting pname and the output by a small scratch array.
    if let Some((index, _)) = &pname_out {
        let p = &f.params[*index];
        let elem = element_type(p);
        let ty = rust_type(&p.ty);
        let Role::Out(Rule::Pname { param, .. }) = &p.role else { unreachable!() };
        let pname_index = f.params.iter().position(|q| q.name == *param).unwrap();
        let mut qargs = call_args.clone();
        qargs[pname_index] = quote!(q);
        qargs[*index] = quote!(one.as_mut_ptr() as #ty);
        let q_call = quote! {{
            let mut one: [#elem; 16] = [Default::default(); 16];
            unsafe { (gl.#field)(#(#qargs),*) };
            (one[0] as i64).max(0) as usize
        }};
        let replaced: Vec<TokenStream> = setup
            .iter()
            .map(|t| {
                let s = t.to_string();
                if s.contains("QUERIED_CALL") {
                    let q = q_call.to_string();
                    s.replace("QUERIED_CALL", &q).parse().unwrap()
                } else {
                    t.clone()
                }
            })
            .collect();
        setup = replaced;
    }

    // Names a create function returns are live again (for use-after-delete tracking).
    if f.kind == Kind::Create {
        if let Some(class) = &f.ret_class {
            finish.push(quote!(ctx.objects_created(#class, &[ret]);));
        }
        for (i, p) in f.params.iter().enumerate() {
            if let (Some(class), Role::Out(Rule::Param(_))) = (&p.class, &p.role) {
                let a = format_ident!("a{}", i);
                finish.push(quote!(ctx.objects_created(#class, &#a);));
            }
        }
    }
    let ret_is_void = f.ret.is_void();
    let mut all_results = Vec::new();
    if !ret_is_void {
        let (rt, re) = if f.ret.is_pointer() && f.ret.base == "GLubyte" {
            (quote!(Option<String>), quote!(unsafe { codec::string_from_ptr(ret) }))
        } else if f.ret.is_pointer() {
            (quote!(usize), quote!(ret as usize))
        } else {
            let rt = rust_type(&f.ret);
            (rt, quote!(ret))
        };
        all_results.push((rt, re));
    }
    all_results.extend(results);
    let (ret_ty, ret_expr) = match all_results.len() {
        0 => (quote!(()), quote!(())),
        1 => all_results.pop().unwrap(),
        _ => {
            let (ts, es): (Vec<_>, Vec<_>) = all_results.into_iter().unzip();
            (quote!((#(#ts),*)), quote!((#(#es),*)))
        }
    };
    let docs = doc(
        f,
        if f.kind == Kind::Create {
            "creates at once on the render thread and returns the result"
        } else {
            "a round trip to the render thread"
        },
    );
    let unsafety = if f.unchecked { quote!(unsafe) } else { quote!() };
    let bind_ret = if ret_is_void { quote!() } else { quote!(let ret =) };
    let round_trip = if f.kind == Kind::Create { quote!(create) } else { quote!(call) };
    quote! {
        #docs
        #[track_caller]
        pub #unsafety fn #method(&self, #(#args),*) -> Result<#ret_ty, crate::Error> {
            #(#lengths)*
            #(#owned)*
            self.#round_trip(#gl_name, move |ctx: &RenderContext| {
                let gl = ctx.gl();
                #(#setup)*
                // SAFETY: every pointer argument points into a buffer owned by this closure and
                // sized by the length rule in the doc comment.
                #bind_ret unsafe { (gl.#field)(#(#call_args),*) };
                #(#finish)*
                Ok(#ret_expr)
            })
        }
    }
}
