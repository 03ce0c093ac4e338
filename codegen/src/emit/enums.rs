//! `#define` enumerants as constants (`pub const TEXTURE_2D: u32 = 0x0DE1;`, the spelling of
//! the `gl` crate and glow), and a lookup from value to name for dumps and diagnostics.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::model::Api;

pub fn emit(api: &Api) -> TokenStream {
    let mut consts = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (name, value) in &api.enums {
        if !seen.insert(name) {
            continue;
        }
        let short = &name[3..];
        let id = if short.starts_with(|c: char| c.is_ascii_digit()) {
            format_ident!("_{}", short)
        } else {
            format_ident!("{}", short)
        };
        let doc = format!(" `{name}`");
        let lit = super::tokens(&format!("0x{value:X}"));
        if *value <= u32::MAX as u64 {
            consts.push(quote! { #[doc = #doc] pub const #id: u32 = #lit; });
        } else {
            consts.push(quote! { #[doc = #doc] pub const #id: u64 = #lit; });
        }
    }

    // Value -> name per group, for printing enum arguments (`GL_TEXTURE_2D` not `3553`).
    let values: std::collections::HashMap<&str, u64> = api.enums.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let mut group_fns = Vec::new();
    let mut group_arms = Vec::new();
    for (group, members) in &api.groups {
        let mut arms = Vec::new();
        let mut used = std::collections::HashSet::new();
        for m in members {
            let Some(&v) = values.get(m.as_str()) else { continue };
            if v > u32::MAX as u64 || !used.insert(v) {
                continue;
            }
            let v = Literal::u32_unsuffixed(v as u32);
            arms.push(quote! { #v => Some(#m), });
        }
        let f = format_ident!("group_{}", group.to_lowercase());
        let doc = format!(" Name of a value of the gl.xml group `{group}`.");
        group_fns.push(quote! {
            #[doc = #doc]
            fn #f(value: u32) -> Option<&'static str> {
                match value { #(#arms)* _ => None }
            }
        });
        group_arms.push(quote! { #group => #f(value), });
    }
    // Any name with that value, for arguments without a group.
    let mut any_arms = Vec::new();
    let mut used = std::collections::HashSet::new();
    for (name, value) in &api.enums {
        if *value > 0xFFFF || *value == 0 || *value == 1 || !used.insert(*value) {
            continue;
        }
        let v = Literal::u32_unsuffixed(*value as u32);
        any_arms.push(quote! { #v => Some(#name), });
    }

    quote! {
        #(#consts)*
        #(#group_fns)*
        /// The name of `value` in the gl.xml enum group `group`, or any enumerant with that value
        /// when the group is unknown. Used by dumps and diagnostics.
        pub fn enum_name(group: &str, value: u32) -> Option<&'static str> {
            let named = match group { #(#group_arms)* _ => None };
            if named.is_some() { return named; }
            match value { #(#any_arms)* _ => None }
        }
    }
}
