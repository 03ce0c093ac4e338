//! The checking function table (`runtime/checked.rs`, cargo feature `checking`): one wrapper
//! per GL function that checks, from the call's own arguments and the registry's length rules,
//! that every pointer lies inside memory the call may touch for the length the GL will use,
//! that every offset has a buffer bound, and that sync objects are real, then calls the driver.
//!
//! The lengths are computed here, from the model, independently of the recording code: the
//! wrappers see only the arguments the GL receives.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::{ident, param_named, rust_type};
use crate::model::{Api, Function, Param, Redirect, Role, Rule};
use crate::naming::param_ident;
use crate::shadow_hooks::{self, Hook};

/// The element size of an array parameter, as tokens.
fn elem_size(p: &Param) -> TokenStream {
    let pointee = p.ty.pointee();
    if pointee.is_pointer() {
        quote!(std::mem::size_of::<usize>())
    } else if pointee.base == "void" {
        quote!(1usize)
    } else {
        let t = rust_type(&crate::ctype::CType { base: pointee.base, base_const: false, pointers: vec![] });
        quote!(std::mem::size_of::<#t>())
    }
}

fn binding_of(redirect: Redirect) -> TokenStream {
    match redirect {
        Redirect::PixelUnpack => quote!(gl::PIXEL_UNPACK_BUFFER_BINDING),
        Redirect::PixelPack => quote!(gl::PIXEL_PACK_BUFFER_BINDING),
        Redirect::QueryBuffer => quote!(gl::QUERY_BUFFER_BINDING),
    }
}

/// The wrapper of one GL function.
fn wrapper(f: &Function) -> TokenStream {
    let name = &f.name;
    let field = format_ident!("{}", f.short_name());
    let args: Vec<proc_macro2::Ident> = (0..f.params.len()).map(|i| format_ident!("a{}", i)).collect();
    let arg = |n: &str| format_ident!("a{}", f.params.iter().position(|p| p.name == n).expect("a parameter"));
    let tys: Vec<TokenStream> = f.params.iter().map(|p| rust_type(&p.ty)).collect();
    let ret = if f.ret.is_void() {
        quote!()
    } else {
        let r = rust_type(&f.ret);
        quote!(-> #r)
    };
    let count = |x: &str| {
        let a = arg(x);
        quote!(checked::n(#a as i64))
    };
    let mut checks = Vec::new();
    for (i, p) in f.params.iter().enumerate() {
        let a = &args[i];
        let pname = param_ident(&p.name);
        let size = elem_size(p);
        let ptr = quote!(#a as *const std::ffi::c_void);
        let rule_bytes = |rule: &Rule| -> Option<TokenStream> {
            Some(match rule {
                Rule::Param(x) => {
                    let c = count(x);
                    quote!(#c * #size)
                }
                Rule::Const(n) => {
                    let n = *n as usize;
                    quote!(#n * #size)
                }
                Rule::One => quote!(#size),
                Rule::Product(x, k) => {
                    let (c, k) = (count(x), *k as usize);
                    quote!(#c * #k * #size)
                }
                Rule::Quotient(x, d) => {
                    let (c, d) = (count(x), *d as usize);
                    quote!(#c * #size / #d)
                }
                Rule::Pname { group, param } => {
                    let count_fn = format_ident!("count_{}", group.to_lowercase());
                    let pn = arg(param);
                    // Counted by another pname: ask the GL that count, as the GL itself will.
                    let queried = if matches!(p.role, Role::Out(_)) && p.ty.pointee().base != "GLboolean" {
                        let elem = super::element_type(p);
                        let ty = rust_type(&p.ty);
                        let qargs: Vec<TokenStream> = f
                            .params
                            .iter()
                            .enumerate()
                            .map(|(j, q)| {
                                let aj = &args[j];
                                if q.name == *param {
                                    quote!(q as _)
                                } else if j == i {
                                    quote!(one.as_mut_ptr() as #ty)
                                } else {
                                    quote!(#aj)
                                }
                            })
                            .collect();
                        quote!({
                            let mut one: [#elem; 16] = [Default::default(); 16];
                            unsafe { (checked::real().#field)(#(#qargs),*) };
                            checked::n(one[0] as i64) * #size
                        })
                    } else {
                        quote!({ let _ = q; #size })
                    };
                    quote!(match pname::#count_fn(#pn as u32) {
                        Some(Count::Fixed(n)) => n as usize * #size,
                        Some(Count::Queried(q)) => #queried,
                        // Recorded arrays of unknown pnames are padded to 16 values.
                        None => 16 * #size,
                    })
                }
                Rule::Bytes | Rule::String | Rule::Strings(_) => return None,
            })
        };
        let check = match &p.role {
            Role::Value | Role::Length { .. } | Role::Opaque | Role::LengthArray { .. } => continue,
            Role::Sync => quote!(ok &= checked::sync(#name, #pname, #a as types::GLsync);),
            Role::OutLength { .. } => quote!(ok &= checked::pointer(#name, #pname, #ptr, 4);),
            Role::In(Rule::String) => {
                let length = f.params.iter().find(|q| matches!(&q.role, Role::Length { of } if of.contains(&p.name)));
                match length {
                    Some(l) => {
                        let l = arg(&l.name);
                        quote!(ok &= checked::string(#name, #pname, #ptr, Some(#l as i64));)
                    }
                    None => quote!(ok &= checked::string(#name, #pname, #ptr, None);),
                }
            }
            Role::In(Rule::Strings(c)) => {
                let c = arg(c);
                let lengths = f
                    .params
                    .iter()
                    .find(|q| matches!(&q.role, Role::LengthArray { of } if *of == p.name))
                    .map(|q| {
                        let l = arg(&q.name);
                        quote!(#l as *const types::GLint)
                    })
                    .unwrap_or(quote!(std::ptr::null()));
                quote!(ok &= unsafe { checked::strings(#name, #pname, #a as *const *const types::GLchar, #c as i64, #lengths) };)
            }
            Role::Out(Rule::String) => match p.len.as_deref().and_then(crate::classify::parse_len) {
                Some(Rule::Param(x)) => {
                    let c = count(&x);
                    quote!(ok &= checked::pointer(#name, #pname, #ptr, #c);)
                }
                _ => quote!(ok &= checked::pointer(#name, #pname, #ptr, 1);),
            },
            Role::In(rule) | Role::Out(rule) => {
                let bytes = rule_bytes(rule);
                match (f.redirect, bytes) {
                    (Some(r), b) if p.ty.pointee().base == "void" || f.redirect == Some(Redirect::QueryBuffer) => {
                        let binding = binding_of(r);
                        let b = match b {
                            Some(b) => quote!(Some(#b)),
                            None => quote!(None),
                        };
                        quote!(ok &= checked::redirected(#name, #pname, #binding, #ptr, #b);)
                    }
                    (_, Some(b)) => quote!(ok &= checked::pointer(#name, #pname, #ptr, #b);),
                    // The GL derives the length from state: only the start is checked.
                    (_, None) => quote!(ok &= checked::pointer(#name, #pname, #ptr, 1);),
                }
            }
            Role::Offset => match f.name.as_str() {
                n if n.contains("Pointer") => quote! {
                    if #a as usize != 0 { ok &= checked::bound(#name, #pname, gl::ARRAY_BUFFER_BINDING, #a as usize); }
                },
                // Element and indirect offsets are checked with the draw below.
                _ => continue,
            },
        };
        checks.push(check);
    }
    match shadow_hooks::hook(f) {
        Some(Hook::Draw { elements, indirect, count, multi }) => {
            checks.push(quote!(ok &= checked::draw(#name, #elements);));
            let has = |n: &str| f.params.iter().any(|p| p.name == n);
            if elements && !indirect && !multi {
                let (c, t, i) = (arg("count"), arg("type"), arg("indices"));
                checks.push(quote!(ok &= checked::indices(#name, #c as i64, #t, #i as usize);));
            }
            if elements && multi {
                let (c, t, i) = (arg("count"), arg("type"), arg("indices"));
                let n = arg(if has("drawcount") { "drawcount" } else { "primcount" });
                checks.push(quote! {
                    // Only once the arrays themselves passed their checks above.
                    if ok { for k in 0..(#n.max(0) as usize) {
                        // SAFETY: both arrays were checked to hold `drawcount` values above.
                        let (c, i) = unsafe { (#c.add(k).read_unaligned(), #i.add(k).read_unaligned()) };
                        ok &= checked::indices(#name, c as i64, #t, i as usize);
                    } }
                });
            }
            if indirect {
                let a = arg("indirect");
                let n = if count {
                    let m = arg("maxdrawcount");
                    quote!(#m as i64)
                } else if has("drawcount") {
                    let d = arg("drawcount");
                    quote!(#d as i64)
                } else if has("primcount") {
                    let d = arg("primcount");
                    quote!(#d as i64)
                } else {
                    quote!(1)
                };
                let stride = if has("stride") {
                    let s = arg("stride");
                    quote!(#s as i64)
                } else {
                    quote!(0)
                };
                let command: u128 = if elements { 20 } else { 16 };
                checks.push(quote!(ok &= checked::indirect(#name, gl::DRAW_INDIRECT_BUFFER, gl::DRAW_INDIRECT_BUFFER_BINDING, #a as usize, #n, #stride, #command);));
            }
            if count {
                let a = arg("drawcount");
                checks.push(quote!(ok &= checked::range(#name, "drawcount", gl::PARAMETER_BUFFER, gl::PARAMETER_BUFFER_BINDING, #a as u64 as u128, 4);));
            }
        }
        Some(Hook::DispatchIndirect) => {
            let a = arg("indirect");
            checks.push(quote!(ok &= checked::indirect(#name, gl::DISPATCH_INDIRECT_BUFFER, gl::DISPATCH_INDIRECT_BUFFER_BINDING, #a as usize, 1, 0, 12);));
        }
        _ => {}
    }
    let _ = param_named;
    let _ = ident;
    let fail = if f.ret.is_void() { quote!(return;) } else { quote!(return unsafe { std::mem::zeroed() };) };
    quote! {
        unsafe extern "system" fn #field(#(#args: #tys),*) #ret {
            checked::call();
            let mut ok = true;
            #(#checks)*
            if !ok {
                #fail
            }
            unsafe { (checked::real().#field)(#(#args),*) }
        }
    }
}

pub fn emit(api: &Api) -> TokenStream {
    let wrappers: Vec<TokenStream> = api.functions.iter().map(wrapper).collect();
    let arms = api.functions.iter().enumerate().map(|(i, f)| {
        let field = format_ident!("{}", f.short_name());
        let i = Literal::usize_unsuffixed(i);
        quote!(#i => #field as *const std::ffi::c_void,)
    });
    quote! {
        use super::types;
        use super::enums as gl;
        use super::pname::{self, Count};
        use super::Gl;
        use crate::checked;

        #(#wrappers)*

        /// The checking table: every entry a wrapper of the same signature.
        pub(crate) fn table() -> Box<Gl> {
            let mut i = 0usize;
            // SAFETY: every address is a wrapper with the GL signature of its entry (the
            // entries are loaded in table order, so `i` is the entry's index).
            unsafe {
                Gl::load_with(|_| {
                    let p = match i { #(#arms)* _ => std::ptr::null() };
                    i += 1;
                    p
                })
            }
        }
    }
}
