//! The `Device` methods of the queries glcmd may answer without a round trip from what the device
//! already knows at the caller's point of the stream: query results and fence states the render
//! thread has read (`runtime/known_answers.rs`), and state a C immediate thread's own calls set
//! (`runtime/recorded_state.rs`). Each wraps the generated round trip (`<method>_round_trip`),
//! which answers whatever the knowledge does not.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::device::round_trip_method;
use super::{doc, ident, rust_type};
use crate::model::{Api, Function};

/// The method of `f`, where `f` is one of these queries.
pub fn method(api: &Api, f: &Function) -> Option<TokenStream> {
    if let Some(&(_, ty)) = KNOWN_GETTERS.iter().find(|(n, _)| *n == f.name) {
        return Some(known_getter(api, f, ty));
    }
    if let Some(&(_, accessor)) = KNOWN_IS.iter().find(|(n, _)| *n == f.name) {
        return Some(known_is(api, f, accessor));
    }
    (f.name == "glIsEnabled").then(|| recorded_is_enabled(api, f))
}

/// Getters answered from the device's known answers (`runtime/known_answers.rs`) when a kept
/// result answers them: (GL function, the type they write).
const KNOWN_GETTERS: &[(&str, &str)] = &[
    ("glGetQueryObjectiv", "i32"),
    ("glGetQueryObjectuiv", "u32"),
    ("glGetQueryObjecti64v", "i64"),
    ("glGetQueryObjectui64v", "u64"),
];

/// `glIs*` functions answered `true` from the device's known answers when an object is known
/// to exist (a kept query result, a replayed fence not deleted since): (GL function, accessor).
const KNOWN_IS: &[(&str, &str)] = &[("glIsQuery", "is_query"), ("glIsSync", "is_sync")];

/// A `glIs*` that answers `true` without a round trip where the known answers prove the object
/// exists, and asks the GL otherwise.
fn known_is(api: &Api, f: &Function, accessor: &str) -> TokenStream {
    let method = format_ident!("{}", f.method_name());
    let asked = format_ident!("{}_round_trip", f.method_name());
    let inner = round_trip_method(api, f, Some(&asked));
    let accessor = format_ident!("{}", accessor);
    let p = &f.params[0];
    let name = ident(p);
    let (ty, key) = if f.name == "glIsSync" {
        (quote!(crate::SyncHandle), quote!(#name.id()))
    } else {
        (rust_type(&p.ty), quote!(#name))
    };
    let capture = super::capture::hook(api, f, super::capture::HookAt::Method, &format_ident!("v"));
    let docs = doc(
        f,
        "`true` without a round trip where the render thread has seen the object made and nothing recorded since \
         can have deleted it (`runtime/known_answers.rs`); otherwise a round trip, answered from the submitted stream",
    );
    quote! {
        #inner

        #docs
        #[track_caller]
        #[inline]
        pub fn #method(&self, #name: #ty) -> Result<bool, crate::Error> {
            if self.inner.shared.known.#accessor(#key) {
                let v = true;
                #capture
                return Ok(v);
            }
            self.#asked(#name)
        }
    }
}

/// `glIsEnabled`, answered from the state an immediate thread recorded where it is known
/// (`runtime/recorded_state.rs`), and asked of the GL otherwise.
fn recorded_is_enabled(api: &Api, f: &Function) -> TokenStream {
    let method = format_ident!("{}", f.method_name());
    let asked = format_ident!("{}_round_trip", f.method_name());
    let inner = round_trip_method(api, f, Some(&asked));
    let cap = ident(&f.params[0]);
    let capture = super::capture::hook(api, f, super::capture::HookAt::Method, &format_ident!("v"));
    let docs = doc(
        f,
        "on a C immediate thread, a cap whose state its own recorded calls set is answered without a round trip \
         (`runtime/recorded_state.rs`); otherwise a round trip, answered from the submitted stream",
    );
    quote! {
        #inner

        #docs
        #[track_caller]
        #[inline]
        pub fn #method(&self, #cap: types::GLenum) -> Result<bool, crate::Error> {
            if let Some(v) = self.inner.shared.recorded.is_enabled(#cap) {
                #capture
                return Ok(v);
            }
            self.#asked(#cap)
        }
    }
}

/// A query-object getter that answers from a result the render thread kept, when nothing recorded
/// since can have changed it, and asks the GL otherwise.
fn known_getter(api: &Api, f: &Function, ty: &str) -> TokenStream {
    let method = format_ident!("{}", f.method_name());
    let asked = format_ident!("{}_round_trip", f.method_name());
    let inner = round_trip_method(api, f, Some(&asked));
    let ty = format_ident!("{}", ty);
    let capture = super::capture::hook(api, f, super::capture::HookAt::Method, &format_ident!("v"));
    let docs = doc(
        f,
        "a result the render thread has already read (the query's end replayed, nothing recorded since touched the \
         query, no buffer bound to `GL_QUERY_BUFFER`) answers without a round trip (`runtime/known_answers.rs`); \
         otherwise a round trip, answered from the submitted stream",
    );
    quote! {
        #inner

        #docs
        #[track_caller]
        #[inline]
        pub fn #method(&self, id: types::GLuint, pname: types::GLenum) -> Result<Vec<#ty>, crate::Error> {
            // A NULL output (C callers) goes to the GL's checks.
            if !crate::client_out::null_given(2) {
                if let Some(v) = self.inner.shared.known.query_object::<#ty>(id, pname) {
                    #capture
                    return Ok(v);
                }
            }
            self.#asked(id, pname)
        }
    }
}
