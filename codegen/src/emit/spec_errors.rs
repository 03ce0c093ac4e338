//! `spec_errors.rs`: the rows of [`crate::spec_errors::SPEC_ERRORS`] whose function is in the
//! selection, as the runtime's `SpecError` values (`crate::vocab::check`), each with its reason
//! as its doc comment.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::Api;
use crate::spec_errors::SPEC_ERRORS;

pub fn emit(api: &Api) -> TokenStream {
    let mut items = Vec::new();
    let mut names = Vec::new();
    for (i, r) in SPEC_ERRORS.iter().enumerate() {
        if !api.functions.iter().any(|f| f.name == r.function) {
            continue;
        }
        let function = r.function;
        let check = super::tokens(&format!("Check::{}", r.check));
        let error = super::tokens(&format!("gl::{}", r.error));
        let doc = format!(" `{function}`, `{}`: `GL_{}`. {}", r.check, r.error, r.why);
        let name = format_ident!("ROW_{i}");
        items.push(quote! {
            #[doc = #doc]
            pub const #name: SpecError = SpecError { function: #function, check: #check, error: #error };
        });
        names.push(name);
    }
    let n = names.len();
    quote! {
        use super::enums as gl;
        use crate::vocab::check::{Check, SpecError};
        use crate::vocab::Class;

        #(#items)*

        /// The GL errors of glcmd's checks where a function's differs from the check's usual
        /// one (`Check::usual_error`), from `codegen/src/spec_errors.rs`.
        pub static SPEC_ERRORS: [SpecError; #n] = [#(#names),*];
    }
}
