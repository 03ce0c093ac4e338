//! The exported GL symbols of glcmd-run's preload library (`run/`): one `#[no_mangle]` function
//! per function of the header, with its exact C signature, that jumps through the calling
//! thread's dispatch table.
//!
//! An unmodified program links `glDrawArrays` straight from libGL or libOpenGL, and gets the
//! rest from `glXGetProcAddressARB` / `eglGetProcAddress`. Preloaded, these symbols come before
//! the driver's, so both paths land here. Which function runs is decided per thread at the
//! call: a thread made current on a context glcmd adopted goes to glcmd's C entry points (those
//! of `glcmdGetProcAddress`), any other thread to the driver's own function (a compatibility or
//! GLES context, or a thread with no context). The table and that choice are hand-written
//! (`run/src/preload/dispatch.rs`); this emitter writes only the symbols and the name table, in
//! the order of the model, which is the index of each symbol's table entry: the functions, then
//! gl.xml's aliases of them (`crate::aliases`), each with its canonical function's signature and
//! an entry of its own, filled by name like the others (glcmd's answer for an alias is the
//! canonical entry point; the driver's is whatever it has for that name).

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::loader::{pfn_alias, signature};
use crate::model::Api;

/// The symbols and `NAMES`, the C name of each table entry.
pub fn emit(api: &Api) -> TokenStream {
    let mut names = Vec::new();
    let mut symbols = Vec::new();
    let mut arms = Vec::new();
    let by_name = |n: &str| api.functions.iter().find(|f| f.name == n);
    let served = api.functions.iter().map(|f| (f.name.as_str(), f));
    let aliases = api.aliases.iter().filter_map(|a| Some((a.name.as_str(), by_name(&a.canonical)?)));
    for (index, (symbol, f)) in served.chain(aliases).enumerate() {
        let name = format_ident!("{}", symbol);
        let pfn = pfn_alias(f);
        let (types, ret) = signature(f);
        let args: Vec<_> = (0..types.len()).map(|i| format_ident!("a{i}")).collect();
        let i = Literal::usize_unsuffixed(index);
        let cname = Literal::c_string(&std::ffi::CString::new(symbol).expect("GL names have no NUL"));
        names.push(quote!(#cname,));
        arms.push(quote!(#i => #name as *const std::ffi::c_void,));
        symbols.push(quote! {
            #[no_mangle]
            pub unsafe extern "system" fn #name(#(#args: #types),*) #ret {
                // SAFETY: entry `i` of every dispatch table is a function of `NAMES[i]`'s
                // signature (dispatch.rs fills it from that name), and the caller keeps the
                // GL's contract for its arguments.
                unsafe {
                    let f: loader::#pfn = std::mem::transmute(crate::dispatch::entry(#i));
                    f(#(#args),*)
                }
            }
        });
    }
    let count = Literal::usize_unsuffixed(names.len());
    quote! {
        use glcmd::generated::{loader, types};

        /// The C name of every exported GL symbol, by dispatch-table index.
        pub static NAMES: [&std::ffi::CStr; #count] = [#(#names)*];

        /// The address of exported symbol `i` (what `glXGetProcAddressARB` hands out for it).
        pub fn symbol(i: usize) -> *const std::ffi::c_void {
            match i {
                #(#arms)*
                _ => std::ptr::null(),
            }
        }

        #(#symbols)*
    }
}
