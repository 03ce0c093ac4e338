//! The pname tables of `pname_tables.rs` as `match` functions over enum values, one per enum
//! group: `count_textureparametername(GL_TEXTURE_BORDER_COLOR) == Some(Count::Fixed(4))`.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::error::{Error, Position};
use crate::model::Api;
use crate::pname_tables::{self, Count};

pub fn emit(api: &Api) -> Result<TokenStream, Vec<Error>> {
    let values: std::collections::HashMap<&str, u64> = api.enums.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let mut errors = Vec::new();
    let mut fns = Vec::new();
    let value_of = |name: &str, group: &str, errors: &mut Vec<Error>| -> Option<u32> {
        match values.get(name) {
            Some(&v) => Some(v as u32),
            None => {
                errors.push(Error::Classify {
                    at: Position { file: "codegen/src/pname_tables.rs".into(), line: 0 },
                    function: group.to_string(),
                    message: format!("pname table names `{name}`, which the header does not define"),
                });
                None
            }
        }
    };
    for table in pname_tables::TABLES {
        let f = format_ident!("count_{}", table.group.to_lowercase());
        let mut arms = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (name, count) in table.entries {
            let Some(v) = value_of(name, table.group, &mut errors) else { continue };
            if !seen.insert(v) {
                continue;
            }
            let v = Literal::u32_unsuffixed(v);
            let c = match count {
                Count::Fixed(n) => quote!(Count::Fixed(#n)),
                Count::Queried(q) => match value_of(q, table.group, &mut errors) {
                    Some(q) => quote!(Count::Queried(#q)),
                    None => continue,
                },
            };
            arms.push(quote!(#v => Some(#c),));
        }
        // A group whose function writes one value for any pname lets the GL judge the others
        // (`pname_tables::ONE_VALUE_GROUPS`).
        let (unknown, doc) = if crate::pname_tables::ONE_VALUE_GROUPS.contains(&table.group) {
            let doc = format!(
                " How many values a `{}` pname needs: one for every pname (the GL judges those glcmd does not list).",
                table.group
            );
            (quote!(Some(Count::Fixed(1))), doc)
        } else {
            let doc =
                format!(" How many values a `{}` pname needs; `None` for a pname glcmd does not know.", table.group);
            (quote!(None), doc)
        };
        fns.push(quote! {
            #[doc = #doc]
            pub fn #f(pname: u32) -> Option<Count> {
                match pname { #(#arms)* _ => #unknown }
            }
        });
    }
    // The implementation-dependent constants (`limits.rs`), read once at start-up.
    let mut limits = Vec::new();
    let mut limit_doc = vec![
        " The implementation-dependent constants the render thread reads once at start-up and the".to_string(),
        " `glGet*` methods answer from memory: (pname, values).".to_string(),
        String::new(),
    ];
    for name in crate::limits::pnames() {
        let Some(v) = value_of(name, "GetPName", &mut errors) else { continue };
        let n = match pname_tables::table("GetPName").and_then(|t| t.count(name)) {
            Some(Count::Fixed(n)) => n,
            // Counted by another pname: read with room for the most any implementation has.
            _ => 256,
        };
        limit_doc.push(format!(" * `{name}`"));
        limits.push(quote!((#v, #n),));
    }
    let mut indexed = Vec::new();
    for (name, count) in crate::limits::INDEXED {
        let Some(v) = value_of(name, "GetPName", &mut errors) else { continue };
        limit_doc.push(format!(" * `{name}` (indexed, {count} values)"));
        indexed.push(quote!((#v, #count),));
    }
    let limit_doc = limit_doc.into_iter().map(|l| quote!(#[doc = #l]));
    fns.push(quote! {
        #(#limit_doc)*
        pub static LIMITS: &[(u32, u32)] = &[#(#limits)*];
        /// Indexed implementation-dependent constants: (pname, indices).
        pub static INDEXED_LIMITS: &[(u32, u32)] = &[#(#indexed)*];
    });
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(quote! {
        /// How many values an array sized by a pname holds.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Count {
            /// Always this many.
            Fixed(u32),
            /// As many as the same query returns for this pname (e.g.
            /// `GL_NUM_COMPRESSED_TEXTURE_FORMATS`).
            Queried(u32),
        }
        #(#fns)*
    })
}
