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

    // Value -> name per group, for printing enum arguments (`GL_TEXTURE_2D` not `3553`): sorted
    // tables searched by `enum_name`. (A function per group with a `match` of its values was a
    // twentieth of the crate's machine code.)
    let values: std::collections::HashMap<&str, u64> = api.enums.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let mut groups = Vec::new();
    for (group, members) in &api.groups {
        let named = members.iter().filter_map(|m| Some((values.get(m.as_str()).copied()?, m.as_str())));
        let (vals, names) = sorted_table(named);
        groups.push(quote! { (#group, &[#(#vals),*], &[#(#names),*]), });
    }
    // Any name with that value, for arguments without a group.
    let any = api.enums.iter().filter(|(_, v)| *v <= 0xFFFF && *v > 1).map(|(n, v)| (*v, n.as_str()));
    let (any_values, any_names) = sorted_table(any);

    quote! {
        #(#consts)*

        /// Each gl.xml enum group, sorted by name: its values, sorted, and their names.
        pub(crate) static GROUPS: &[(&str, &[u32], &[&str])] = &[#(#groups)*];
        /// Every enumerant up to 0xFFFF but 0 and 1, sorted by value, the first name of each.
        pub(crate) static ANY_VALUES: &[u32] = &[#(#any_values),*];
        pub(crate) static ANY_NAMES: &[&str] = &[#(#any_names),*];

        /// The name of `value` in the gl.xml enum group `group`, or any enumerant with that value
        /// when the group is unknown. Used by dumps and diagnostics.
        pub fn enum_name(group: &str, value: u32) -> Option<&'static str> {
            let find = |values: &[u32], names: &[&'static str]| values.binary_search(&value).ok().map(|i| names[i]);
            let named = GROUPS.binary_search_by(|(g, _, _)| g.cmp(&group)).ok().and_then(|i| find(GROUPS[i].1, GROUPS[i].2));
            named.or_else(|| find(ANY_VALUES, ANY_NAMES))
        }
    }
}

/// (values, names) sorted by value; the first name of a value wins, values above u32 are left out.
fn sorted_table<'a>(named: impl Iterator<Item = (u64, &'a str)>) -> (Vec<Literal>, Vec<&'a str>) {
    let mut seen = std::collections::HashSet::new();
    let mut rows: Vec<(u32, &str)> =
        named.filter(|&(v, _)| v <= u32::MAX as u64 && seen.insert(v)).map(|(v, n)| (v as u32, n)).collect();
    rows.sort_by_key(|&(v, _)| v);
    rows.into_iter().map(|(v, n)| (Literal::u32_unsuffixed(v), n)).unzip()
}
