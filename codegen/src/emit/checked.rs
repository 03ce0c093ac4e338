//! The checking function table (`runtime/checked.rs`, cargo feature `checking`): one wrapper
//! per GL function that checks, from the call's own arguments and the registry's length rules,
//! that every pointer lies inside memory the call may touch for the length the GL will use,
//! that every offset has a buffer bound, and that sync objects are real, then calls the driver.
//!
//! The lengths are computed here, from the model, independently of the recording code: the
//! wrappers see only the arguments the GL receives.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::rust_type;
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
    let field = format_ident!("{}", f.short_name());
    let args: Vec<proc_macro2::Ident> = (0..f.params.len()).map(|i| format_ident!("a{}", i)).collect();
    let tys: Vec<TokenStream> = f.params.iter().map(|p| rust_type(&p.ty)).collect();
    let ret = if f.ret.is_void() {
        quote!()
    } else {
        let r = rust_type(&f.ret);
        quote!(-> #r)
    };
    let mut checks: Vec<TokenStream> = (0..f.params.len()).filter_map(|i| param_check(f, i)).collect();
    checks.extend(hook_checks(f));
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

/// The wrapper's argument that is parameter `name`.
fn arg(f: &Function, name: &str) -> proc_macro2::Ident {
    format_ident!("a{}", f.params.iter().position(|p| p.name == name).expect("a parameter"))
}

/// The count argument `x`, negative counts taken as 0.
fn count(f: &Function, x: &str) -> TokenStream {
    let a = arg(f, x);
    quote!(checked::n(#a as i64))
}

/// The check of parameter `i`, if it is a pointer, a sync or an attribute offset: the memory
/// its length rule gives must be the call's to touch.
fn param_check(f: &Function, i: usize) -> Option<TokenStream> {
    let p = &f.params[i];
    let name = &f.name;
    let a = format_ident!("a{}", i);
    let pname = param_ident(&p.name);
    let ptr = quote!(#a as *const std::ffi::c_void);
    Some(match &p.role {
        Role::Value | Role::Length { .. } | Role::Opaque | Role::LengthArray { .. } => return None,
        Role::Sync => quote!(ok &= checked::sync(#name, #pname, #a as types::GLsync);),
        Role::OutLength { .. } => quote!(ok &= checked::pointer(#name, #pname, #ptr, 4);),
        Role::In(Rule::String) => {
            let length = f.params.iter().find(|q| matches!(&q.role, Role::Length { of } if of.contains(&p.name)));
            match length {
                Some(l) => {
                    let l = arg(f, &l.name);
                    quote!(ok &= checked::string(#name, #pname, #ptr, Some(#l as i64));)
                }
                None => quote!(ok &= checked::string(#name, #pname, #ptr, None);),
            }
        }
        Role::In(Rule::Strings(c)) => {
            let c = arg(f, c);
            let lengths = f
                .params
                .iter()
                .find(|q| matches!(&q.role, Role::LengthArray { of } if *of == p.name))
                .map(|q| {
                    let l = arg(f, &q.name);
                    quote!(#l as *const types::GLint)
                })
                .unwrap_or(quote!(std::ptr::null()));
            quote!(ok &= unsafe { checked::strings(#name, #pname, #a as *const *const types::GLchar, #c as i64, #lengths) };)
        }
        Role::Out(Rule::String) => match p.len.as_deref().and_then(crate::classify::parse_len) {
            Some(Rule::Param(x)) => {
                let c = count(f, &x);
                quote!(ok &= checked::pointer(#name, #pname, #ptr, #c);)
            }
            _ => quote!(ok &= checked::pointer(#name, #pname, #ptr, 1);),
        },
        Role::In(rule) | Role::Out(rule) => array_check(f, i, rule),
        Role::Offset => match f.name.as_str() {
            n if n.contains("Pointer") => quote! {
                if #a as usize != 0 { ok &= checked::bound(#name, #pname, gl::ARRAY_BUFFER_BINDING, #a as usize); }
            },
            // Element and indirect offsets are checked with the draw (`hook_checks`).
            _ => return None,
        },
    })
}

/// The check of an array other than a string: inside the call's memory for its rule's byte
/// length, or, where a buffer binding redirects the pointer, inside that buffer when one is
/// bound.
fn array_check(f: &Function, i: usize, rule: &Rule) -> TokenStream {
    let p = &f.params[i];
    let name = &f.name;
    let a = format_ident!("a{}", i);
    let pname = param_ident(&p.name);
    let ptr = quote!(#a as *const std::ffi::c_void);
    let bytes = rule_bytes(f, i, rule);
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

/// The byte length of array parameter `i` under `rule`, or `None` where the GL derives it
/// from state (bytes, strings).
fn rule_bytes(f: &Function, i: usize, rule: &Rule) -> Option<TokenStream> {
    let size = elem_size(&f.params[i]);
    Some(match rule {
        Rule::Param(x) => {
            let c = count(f, x);
            quote!(#c * #size)
        }
        Rule::Const(n) => {
            let n = *n as usize;
            quote!(#n * #size)
        }
        Rule::One => quote!(#size),
        Rule::Product(x, k) => {
            let (c, k) = (count(f, x), *k as usize);
            quote!(#c * #k * #size)
        }
        Rule::Quotient(x, d) => {
            let (c, d) = (count(f, x), *d as usize);
            quote!(#c * #size / #d)
        }
        Rule::Pname { group, param } => {
            let count_fn = format_ident!("count_{}", group.to_lowercase());
            let pn = arg(f, param);
            let queried = queried_bytes(f, i, param);
            quote!(match pname::#count_fn(#pn as u32) {
                Some(Count::Fixed(n)) => n as usize * #size,
                Some(Count::Queried(q)) => #queried,
                // Recorded arrays of unknown pnames are padded to 16 values.
                None => 16 * #size,
            })
        }
        // Pixel data: from the image and the GL's unpack state now (`checked::unpack_bytes`).
        Rule::Bytes => match crate::sizing::sizing(f, &f.params[i]) {
            Some(crate::sizing::Sizing::UnpackImage { dims }) => {
                let dim = |n: &str| match f.params.iter().any(|q| q.name == n) {
                    true => {
                        let a = arg(f, n);
                        quote!(#a as i64)
                    }
                    false => quote!(1),
                };
                let (w, h, d, format, type_) =
                    (dim("width"), dim("height"), dim("depth"), arg(f, "format"), arg(f, "type"));
                quote!(checked::unpack_bytes(#dims, (#w, #h, #d), #format, #type_))
            }
            Some(crate::sizing::Sizing::Texel) => {
                let (format, type_) = (arg(f, "format"), arg(f, "type"));
                quote!(checked::texel_bytes(#format, #type_))
            }
            _ => return None,
        },
        Rule::String | Rule::Strings(_) => return None,
    })
}

/// The byte length of array `i` when its pname's count is counted by another pname `q`: an
/// output asks the GL that count, as the GL itself will; anything else is taken as one value.
fn queried_bytes(f: &Function, i: usize, param: &str) -> TokenStream {
    let p = &f.params[i];
    let size = elem_size(p);
    if !matches!(p.role, Role::Out(_)) || p.ty.pointee().base == "GLboolean" {
        return quote!({ let _ = q; #size });
    }
    let field = format_ident!("{}", f.short_name());
    let elem = super::element_type(p);
    let ty = rust_type(&p.ty);
    let qargs: Vec<TokenStream> = f
        .params
        .iter()
        .enumerate()
        .map(|(j, q)| {
            let aj = format_ident!("a{}", j);
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
}

/// The checks of a draw or an indirect dispatch, after the arguments': the vertex array reads
/// no client memory, and the indices, indirect commands and draw count lie inside their
/// buffers.
fn hook_checks(f: &Function) -> Vec<TokenStream> {
    let name = &f.name;
    match shadow_hooks::hook(f) {
        Some(Hook::Draw { elements, indirect, count, multi }) => {
            let mut checks = vec![quote!(ok &= checked::draw(#name, #elements);)];
            if elements && (multi || !indirect) {
                checks.push(index_checks(f, multi));
            }
            if indirect {
                let a = arg(f, "indirect");
                let (n, stride) = indirect_count_stride(f, count);
                let command: u128 = if elements { 20 } else { 16 };
                checks.push(quote!(ok &= checked::indirect(#name, gl::DRAW_INDIRECT_BUFFER, gl::DRAW_INDIRECT_BUFFER_BINDING, #a as usize, #n, #stride, #command);));
            }
            if count {
                let a = arg(f, "drawcount");
                checks.push(quote!(ok &= checked::range(#name, "drawcount", gl::PARAMETER_BUFFER, gl::PARAMETER_BUFFER_BINDING, #a as u64 as u128, 4);));
            }
            checks
        }
        Some(Hook::DispatchIndirect) => {
            let a = arg(f, "indirect");
            vec![
                quote!(ok &= checked::indirect(#name, gl::DISPATCH_INDIRECT_BUFFER, gl::DISPATCH_INDIRECT_BUFFER_BINDING, #a as usize, 1, 0, 12);),
            ]
        }
        _ => Vec::new(),
    }
}

/// The check of the indices of an element draw: each draw's, for the `multi` forms (only
/// once their arrays passed their own checks).
fn index_checks(f: &Function, multi: bool) -> TokenStream {
    let name = &f.name;
    let (c, t, i) = (arg(f, "count"), arg(f, "type"), arg(f, "indices"));
    if !multi {
        return quote!(ok &= checked::indices(#name, #c as i64, #t, #i as usize););
    }
    let has = |n: &str| f.params.iter().any(|p| p.name == n);
    let n = arg(f, if has("drawcount") { "drawcount" } else { "primcount" });
    quote! {
        // Only once the arrays themselves passed their checks above.
        if ok { for k in 0..(#n.max(0) as usize) {
            // SAFETY: both arrays were checked to hold `drawcount` values above.
            let (c, i) = unsafe { (#c.add(k).read_unaligned(), #i.add(k).read_unaligned()) };
            ok &= checked::indices(#name, c as i64, #t, i as usize);
        } }
    }
}

/// How many commands an indirect draw reads (its count argument, `maxdrawcount` for the
/// `IndirectCount` forms, 1 for single draws) and their stride (0: tightly packed).
fn indirect_count_stride(f: &Function, count_form: bool) -> (TokenStream, TokenStream) {
    let has = |n: &str| f.params.iter().any(|p| p.name == n);
    let n = if count_form {
        let m = arg(f, "maxdrawcount");
        quote!(#m as i64)
    } else if has("drawcount") {
        let d = arg(f, "drawcount");
        quote!(#d as i64)
    } else if has("primcount") {
        let d = arg(f, "primcount");
        quote!(#d as i64)
    } else {
        quote!(1)
    };
    let stride = if has("stride") {
        let s = arg(f, "stride");
        quote!(#s as i64)
    } else {
        quote!(0)
    };
    (n, stride)
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
