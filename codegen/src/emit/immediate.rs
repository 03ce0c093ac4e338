//! The immediate context's twins of the `Device` methods of create and query functions
//! (`runtime/immediate.rs`). Each twin has the signature of its `Device` method, taking
//! `&mut self`: a query submits the context's pending calls first (so it sees every call the
//! context recorded before it) and then asks the device; a create asks at once, because a name
//! cannot depend on earlier calls (names come from pools, or from a create that runs before
//! anything else: ordering rule 5 of `frame.rs`).
//!
//! The twins are derived from the tokens [`super::device::method_forms`] emits, so every form
//! the device has (plural and singular creates, scalar queries, cached lookups) has its twin
//! and a signature that cannot drift from it: the emitter copies each `pub fn` item's
//! signature and replaces its body with a call of the device's method.

use proc_macro2::{Delimiter, Group, Ident, TokenStream, TokenTree};
use quote::{format_ident, quote};

use crate::model::{Api, Kind};

pub fn emit(api: &Api) -> TokenStream {
    let mut methods = Vec::new();
    for f in api.functions.iter().filter(|f| matches!(f.kind, Kind::Create | Kind::Query)) {
        let create = f.kind == Kind::Create;
        for item in fn_items(super::device::method_forms(api, f)) {
            methods.push(twin(&item, create));
        }
    }
    quote! {
        use super::types;
        use crate::immediate::Immediate;

        /// Create and query functions of the immediate context: a query submits this context's
        /// pending calls first, then asks as the `Device` method of the same name does; a create
        /// asks at once (names cannot depend on earlier calls).
        impl Immediate {
            #(#methods)*
        }
    }
}

/// One `pub fn` item of an `impl` body: its outer attributes, whether it is `unsafe`, its name,
/// the tokens from the name to the body (generics, arguments, return type) and the argument
/// names.
struct FnItem {
    attrs: Vec<TokenStream>,
    unsafety: bool,
    name: Ident,
    signature: Vec<TokenTree>,
    args: Vec<Ident>,
}

/// Splits a stream of `impl` items into its `pub fn` items (the body and the docs are dropped:
/// the twin has its own doc).
fn fn_items(tokens: TokenStream) -> Vec<FnItem> {
    let mut items = Vec::new();
    let mut attrs = Vec::new();
    let mut iter = tokens.into_iter();
    while let Some(tt) = iter.next() {
        match &tt {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                let body = iter.next().expect("an attribute has a body");
                if !is_doc(&body) {
                    attrs.push(quote!(#tt #body));
                }
            }
            TokenTree::Ident(i) if i == "pub" => {
                let Some((unsafety, name)) = fn_head(&mut iter) else {
                    // `pub(crate)`: a helper of the device's, not a method users call.
                    attrs.clear();
                    iter.by_ref().find(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace));
                    continue;
                };
                let mut signature = Vec::new();
                let mut args = None;
                for tt in iter.by_ref() {
                    match &tt {
                        TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => break,
                        TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis && args.is_none() => {
                            args = Some(arg_names(g));
                        }
                        _ => {}
                    }
                    signature.push(tt);
                }
                let args = args.expect("a generated method has arguments");
                items.push(FnItem { attrs: std::mem::take(&mut attrs), unsafety, name, signature, args });
            }
            _ => attrs.clear(),
        }
    }
    items
}

/// `[unsafe] fn NAME` after `pub`: whether the method is unsafe, and its name; `None` for a
/// restricted visibility (`pub(crate)`).
fn fn_head(iter: &mut impl Iterator<Item = TokenTree>) -> Option<(bool, Ident)> {
    let mut unsafety = false;
    for tt in iter {
        match tt {
            TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis => return None,
            TokenTree::Ident(i) if i == "unsafe" => unsafety = true,
            TokenTree::Ident(i) if i == "fn" => {}
            TokenTree::Ident(i) => return Some((unsafety, i)),
            other => panic!("unexpected token in a generated method's head: {other}"),
        }
    }
    panic!("a generated method without a name")
}

/// A `[doc = ...]` attribute body.
fn is_doc(t: &TokenTree) -> bool {
    match t {
        TokenTree::Group(g) => {
            g.stream().into_iter().next().is_some_and(|t| matches!(t, TokenTree::Ident(i) if i == "doc"))
        }
        _ => false,
    }
}

/// The names of a method's arguments after `&self`: the identifier before each top-level `:`.
fn arg_names(args: &Group) -> Vec<Ident> {
    let mut names = Vec::new();
    let mut last: Option<Ident> = None;
    let mut depth = 0i32;
    let mut expect_name = true;
    for tt in args.stream() {
        match &tt {
            TokenTree::Punct(p) if p.as_char() == '<' => depth += 1,
            TokenTree::Punct(p) if p.as_char() == '>' => depth -= 1,
            TokenTree::Punct(p) if p.as_char() == ',' && depth == 0 => expect_name = true,
            TokenTree::Punct(p) if p.as_char() == ':' && depth == 0 && expect_name => {
                names.extend(last.take());
                expect_name = false;
            }
            TokenTree::Ident(i) if expect_name => last = Some(i.clone()),
            _ => {}
        }
    }
    names
}

/// The immediate context's twin of one `Device` method.
fn twin(item: &FnItem, create: bool) -> TokenStream {
    let FnItem { attrs, unsafety, name, signature, args } = item;
    // `&self` becomes `&mut self`: a query submits the context's pending list.
    let signature: Vec<TokenTree> = signature
        .iter()
        .map(|tt| match tt {
            TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis => {
                let mut inner: Vec<TokenTree> = g.stream().into_iter().collect();
                if let Some(pos) = inner.iter().position(|t| matches!(t, TokenTree::Ident(i) if i == "self")) {
                    inner.insert(pos, TokenTree::Ident(format_ident!("mut")));
                }
                let mut group = Group::new(Delimiter::Parenthesis, inner.into_iter().collect());
                group.set_span(g.span());
                TokenTree::Group(group)
            }
            other => other.clone(),
        })
        .collect();
    let call = quote!(self.device.#name(#(#args),*));
    let call = if *unsafety { quote!(unsafe { #call }) } else { call };
    // State this context's own calls set is answered from what it recorded
    // (`runtime/recorded_state.rs`), as for the C ABI's immediate threads.
    let call = if matches!(name.to_string().as_str(), "get_integerv" | "get_integer" | "is_enabled") {
        quote!(crate::immediate::answering_recorded(|| #call))
    } else {
        call
    };
    let (helper, what) = if create {
        (format_ident!("before_create"), "asks at once: a name cannot depend on earlier calls")
    } else {
        (format_ident!("before_query"), "submits this context's pending calls first, then asks")
    };
    let doc = format!(" [`Device::{name}`](crate::Device::{name}) on the immediate context: {what}.");
    let unsafety = unsafety.then(|| quote!(unsafe));
    let safety = unsafety.as_ref().map(|_| {
        let s = format!(" As for [`Device::{name}`](crate::Device::{name}).");
        quote!(#[doc = ""] #[doc = " # Safety"] #[doc = ""] #[doc = #s])
    });
    quote! {
        #[doc = #doc]
        #safety
        #(#attrs)*
        pub #unsafety fn #name #(#signature)* {
            let mark = self.#helper()?;
            let answer = #call;
            self.count_round_trips(mark);
            answer
        }
    }
}
