//! `Gl`: one function pointer per GL function, loaded by name from the context.
//!
//! The loader is a table, not code per entry: `FUNCTIONS` holds every GL name with the core
//! versions and extensions that provide it (from gl.xml), and `Gl::load_with` walks it once,
//! in one loop with one call of the caller's `load`: a call per entry, inlined ~760 times into
//! one function, was too much for LLVM's loop analysis at opt-level 1 (a stack overflow in
//! rustc, issue 21).
//! Each field has a pointer-type alias (`PfnBindTexture`), so an entry is one short line.
//!
//! A function the driver lacks (a null address, or one the runtime's availability check
//! refused) gets a stub with the same signature that reports the call
//! (`crate::missing_function`) and returns zero, instead of a null pointer that would crash at
//! the first call. `Gl::is_available` says which entries are real, so generated queries can
//! return an error instead of calling a stub.

use proc_macro2::{Literal, TokenStream};
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

/// `PfnBindTexture`: the pointer-type alias of a function's table entry.
pub fn pfn_alias(f: &Function) -> proc_macro2::Ident {
    format_ident!("Pfn{}", f.short_name())
}

pub fn emit(api: &Api) -> TokenStream {
    let mut aliases = Vec::new();
    let mut fields = Vec::new();
    let mut entries = Vec::new();
    let mut loads = Vec::new();
    let mut stubs = Vec::new();
    let mut stub_addresses = Vec::new();
    for (index, f) in api.functions.iter().enumerate() {
        let field = format_ident!("{}", f.short_name());
        let stub = format_ident!("missing_{}", f.short_name());
        let pfn = pfn_alias(f);
        let (args, ret) = signature(f);
        let body = if f.ret.is_void() { quote!() } else { quote!(unsafe { std::mem::zeroed() }) };
        let doc = format!(" `{}` ({}).", f.name, f.feature);
        let cname = Literal::c_string(&std::ffi::CString::new(f.name.as_str()).expect("GL names have no NUL"));
        let providers = &f.providers;
        let i = Literal::usize_unsuffixed(index);
        aliases.push(quote! { pub type #pfn = unsafe extern "system" fn(#(#args),*) #ret; });
        fields.push(quote! { #[doc = #doc] pub #field: #pfn, });
        entries.push(quote! { (#cname, &[#(#providers),*]), });
        let under: Vec<TokenStream> = args.iter().map(|a| quote!(_: #a)).collect();
        stubs.push(quote! {
            unsafe extern "system" fn #stub(#(#under),*) #ret { crate::missing_function(#i); #body }
        });
        stub_addresses.push(quote! { #stub as #pfn as *const c_void, });
        loads.push(quote! { #field: entry!(#i, #pfn), });
    }
    let count = api.functions.len();
    let words = count.div_ceil(64);
    quote! {
        use std::ffi::{c_void, CStr};
        use super::types;

        #(#aliases)*

        /// Every GL function of `glcorearb.h`, loaded from the context of the render thread.
        /// Calling an entry is `unsafe`: the caller upholds the GL's own contract (valid
        /// pointers of the sizes the GL will touch, a current context on the calling thread).
        pub struct Gl {
            #(#fields)*
            missing: [u64; #words],
        }

        /// Every function of the table, in table order: its GL name and what provides it to a
        /// desktop context (core versions `GL_VERSION_x_y` and extensions, from gl.xml).
        pub static FUNCTIONS: [(&CStr, &[&str]); #count] = [#(#entries)*];

        impl Gl {
            /// Number of functions in the table.
            pub const FUNCTIONS: usize = #count;

            /// Loads every function by name, e.g. with glutin's `get_proc_address`. A null
            /// address gives a stub that reports the call and returns zero.
            ///
            /// # Safety
            /// Every non-null address `load` returns must be the GL function of that name, with
            /// the signature `glcorearb.h` gives it, callable on every thread that will call
            /// through the table. (glcmd's render thread loads its own table from its own
            /// context; a table fed by arbitrary addresses would let safe replay jump anywhere.)
            pub unsafe fn load_with(mut load: impl FnMut(&CStr) -> *const c_void) -> Box<Gl> {
                // `load` has one call site, in a loop, and the table is then filled from
                // `addresses` in straight-line code without calls. A call per entry (each
                // inlined with the runtime's availability check and its loop) made one
                // function of ~760 loops in a row, whose loop analysis overflowed rustc's
                // stack at opt-level 1 (issue 21).
                let stubs: [*const c_void; #count] = [#(#stub_addresses)*];
                let mut addresses = [std::ptr::null::<c_void>(); #count];
                let mut missing = [0u64; #words];
                for (i, (name, _)) in FUNCTIONS.iter().enumerate() {
                    addresses[i] = load(name);
                    if addresses[i].is_null() {
                        missing[i / 64] |= 1 << (i % 64);
                        addresses[i] = stubs[i];
                    }
                }
                // Straight-line code without branches, one transmute per entry: a `match` per
                // entry was a twentieth of the crate's machine code.
                macro_rules! entry {
                    ($i:literal, $pfn:ty) => {
                        // SAFETY: the address is the stub of this entry, which has this
                        // signature, or an address the caller guarantees is this function,
                        // with this signature.
                        unsafe { std::mem::transmute::<*const c_void, $pfn>(addresses[$i]) }
                    };
                }
                let mut gl = Box::new(Gl { #(#loads)* missing: [0; #words] });
                gl.missing = missing;
                gl
            }

            /// Whether entry `index` (an index of [`FUNCTIONS`]) is the driver's function, not a
            /// stub.
            pub fn is_available(&self, index: usize) -> bool {
                index < #count && self.missing[index / 64] & (1 << (index % 64)) == 0
            }
        }

        #(#stubs)*
    }
}
