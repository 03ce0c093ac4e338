//! `Gl`: one function pointer per GL function, loaded by name from the context.
//!
//! A function the driver lacks gets a stub that reports it (through `crate::missing_function`)
//! and returns zero, instead of a null pointer that would crash at the first call.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::rust_type;
use crate::model::{Api, Function};

/// The Rust parameter types and the `-> R` (or nothing) of a GL function's pointer type.
pub fn signature(f: &Function) -> (Vec<TokenStream>, TokenStream) {
    let args = f.params.iter().map(|p| rust_type(&p.ty)).collect();
    let ret = if f.ret.is_void() {
        quote!()
    } else {
        let r = rust_type(&f.ret);
        quote!(-> #r)
    };
    (args, ret)
}

pub fn emit(api: &Api) -> TokenStream {
    let mut fields = Vec::new();
    let mut loads = Vec::new();
    let mut stubs = Vec::new();
    for f in &api.functions {
        let field = format_ident!("{}", f.short_name());
        let stub = format_ident!("missing_{}", f.short_name());
        let (args, ret) = signature(f);
        let body = if f.ret.is_void() { quote!() } else { quote!(unsafe { std::mem::zeroed() }) };
        let doc = format!(" `{}` ({}).", f.name, f.feature);
        let name = &f.name;
        let cname = syn::LitCStr::new(&std::ffi::CString::new(name.as_str()).unwrap(), proc_macro2::Span::call_site());
        fields.push(quote! { #[doc = #doc] pub #field: unsafe extern "system" fn(#(#args),*) #ret, });
        let under: Vec<TokenStream> = args.iter().map(|a| quote!(_: #a)).collect();
        let stub_doc = format!(" Stands in for `{}` when the driver lacks it: reports the call, returns zero.", f.name);
        stubs.push(quote! {
            #[doc = #stub_doc]
            unsafe extern "system" fn #stub(#(#under),*) #ret {
                crate::missing_function(#name);
                #body
            }
        });
        loads.push(quote! {
            #field: {
                let p = load(#cname);
                // SAFETY: a non-null address that the context returned for this name is the
                // function with this signature (glcorearb.h).
                if p.is_null() { #stub } else { unsafe { std::mem::transmute::<*const std::ffi::c_void, unsafe extern "system" fn(#(#args),*) #ret>(p) } }
            },
        });
    }
    let count = api.functions.len();
    quote! {
        use super::types;

        /// Every GL function of `glcorearb.h`, loaded from the context of the render thread.
        pub struct Gl {
            #(#fields)*
        }

        impl Gl {
            /// Number of functions in the table.
            pub const FUNCTIONS: usize = #count;

            /// Loads every function by name, e.g. with glutin's `get_proc_address`.
            pub fn load_with(mut load: impl FnMut(&std::ffi::CStr) -> *const std::ffi::c_void) -> Box<Gl> {
                Box::new(Gl { #(#loads)* })
            }
        }

        #(#stubs)*
    }
}
