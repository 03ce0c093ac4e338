//! `Device` methods for create and query functions. A create takes names from the device's
//! pools when it can (`runtime/pools.rs`), and a lookup or limit answers from the caches
//! (`programs.rs`, `limits.rs`); otherwise the method copies its inputs into owned values,
//! sends a closure to the render thread and waits for the result (a round trip), so the
//! closure never borrows from the caller. When each runs: the rules of `runtime/frame.rs`.
//!
//! Every `pub` method here is `#[inline]` (and so is its twin on the immediate context, which
//! copies its attributes): a debug build compiles an inline function in the crates that call it,
//! not in glcmd, so a dependent's build pays for the queries it uses, not for all of them (issue
//! 21). The ones the capture replayer calls are compiled in glcmd as well.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{doc, element_type, ident, param_named, rust_type, value_to_c, value_type};
use crate::model::{Api, Function, Kind, Redirect, Role, Rule};
use crate::naming::{param_ident, scalar, singular, snake_case};
use crate::sizing::Sizing;

pub fn emit(api: &Api) -> TokenStream {
    let methods: Vec<TokenStream> = api
        .functions
        .iter()
        .filter(|f| matches!(f.kind, Kind::Create | Kind::Query))
        .map(|f| method_forms(api, f))
        .collect();
    quote! {
        use super::types;
        use super::pname::{self, Count};
        use crate::arguments;
        use crate::device::Device;
        use crate::RenderContext;
        use crate::shadow::Target;

        /// Create and query functions. A create runs at once (from a name pool, or a round trip
        /// that waits for no list); a query is a round trip that runs after every list submitted
        /// before it, unless a cache answers it (program interface lookups, limits). The
        /// ordering rules are stated once, in `frame.rs`.
        impl Device {
            #(#methods)*
        }
    }
}

/// Whether a create comes from a name pool (`runtime/pools.rs`): the creates of the core object
/// types, `(n, names)` or `(target, n, names)`. Returns the object class and whether the
/// function creates objects (`glCreate*`) or generates names (`glGen*`).
pub fn pooled(f: &Function) -> Option<(&str, bool)> {
    if f.kind != Kind::Create || f.is_unsafe() {
        return None;
    }
    let out = f.params.last()?;
    let class = out.class.as_deref()?;
    if !matches!(
        class,
        "buffer"
            | "texture"
            | "framebuffer"
            | "renderbuffer"
            | "sampler"
            | "query"
            | "vertex array"
            | "program pipeline"
            | "transform feedback"
    ) {
        return None;
    }
    let shape = match f.params.as_slice() {
        [n, _] => n.ty.base == "GLsizei",
        [t, n, _] => t.ty.base == "GLenum" && n.ty.base == "GLsizei",
        _ => false,
    };
    let vendor = !f.feature.starts_with("GL_VERSION_") && !f.feature.starts_with("GL_ARB_");
    (shape && !vendor && matches!(out.role, Role::Out(Rule::Param(_))))
        .then_some((class, f.name.starts_with("glCreate")))
}

/// The pooled form of a create method: names from the device's pool, the rest by a round trip.
fn pooled_method(api: &Api, f: &Function, class: &str, created: bool) -> TokenStream {
    let index = api.functions.iter().position(|g| g.name == f.name).expect("a function of the api");
    let index = proc_macro2::Literal::usize_unsuffixed(index);
    let gl_name = &f.name;
    let method = format_ident!("{}", f.method_name());
    let make = format_ident!("make_{}", f.method_name());
    let field = format_ident!("{}", f.short_name());
    let docs =
        doc(f, "takes the names from the device's name pool, so it makes no round trip once the pool is started");
    let (args, target, call) = if f.params.len() == 3 {
        let (t, n) = (ident(&f.params[0]), ident(&f.params[1]));
        (quote!(#t: types::GLenum, #n: types::GLsizei), quote!(#t), quote!((gl.#field)(target, n, names)))
    } else {
        let n = ident(&f.params[0]);
        (quote!(#n: types::GLsizei), quote!(0), quote!({ let _ = target; (gl.#field)(n, names) }))
    };
    let n = ident(&f.params[f.params.len() - 2]);
    let capture = super::capture::hook(api, f, super::capture::HookAt::Method, &format_ident!("answer"));
    quote! {
        #docs
        pub fn #method(&self, #args) -> Result<Vec<types::GLuint>, crate::Error> {
            /// Makes names with the GL, for the pool and for the first create.
            unsafe fn #make(gl: &crate::Gl, target: types::GLenum, n: types::GLsizei, names: *mut types::GLuint) {
                unsafe { #call }
            }
            let answer = self.pooled_create(#gl_name, #index, #target, #n, #class, #created, #make)?;
            #capture
            Ok(answer)
        }
    }
}

/// The method of a create or query function and the forms glcmd adds beside it.
pub fn method_forms(api: &Api, f: &Function) -> TokenStream {
    let m = method(api, f);
    let one = singular_create(api, f);
    let scalar = scalar_query(api, f);
    quote!(#m #one #scalar)
}

/// The singular form of a create of `n` objects (`create_buffer()` beside `create_buffers(n)`),
/// named by [`singular`] unless that is another GL function's name.
pub fn singular_form(api: &Api, f: &Function) -> Option<String> {
    if f.kind != Kind::Create {
        return None;
    }
    let (n, out) = match f.params.as_slice() {
        [n, out] | [_, n, out] => (n, out),
        _ => return None,
    };
    let sized = matches!(&out.role, Role::Out(Rule::Param(x)) if *x == n.name);
    if !sized || !matches!(n.role, Role::Value) || out.ty.pointee().base != "GLuint" {
        return None;
    }
    let one = singular(&f.name)?;
    (!api.functions.iter().any(|g| g.name == one)).then(|| snake_case(&one))
}

fn singular_create(api: &Api, f: &Function) -> TokenStream {
    let Some(name) = singular_form(api, f) else { return quote!() };
    let one = format_ident!("{name}");
    let method = format_ident!("{}", f.method_name());
    let target = (f.params.len() == 3).then(|| ident(&f.params[0]));
    let (arg, pass) = match &target {
        Some(t) => (quote!(#t: types::GLenum,), quote!(#t,)),
        None => (quote!(), quote!()),
    };
    let doc = format!(" `{}` for one object: [`{}`](Self::{method}) with `n` = 1.", f.name, f.method_name());
    let unsafety = if f.is_unsafe() { quote!(unsafe) } else { quote!() };
    let call = quote!(self.#method(#pass 1));
    let call = if f.is_unsafe() { quote!(unsafe { #call }) } else { call };
    // A pooled create takes its name straight from the pool when it has one.
    let fast = if pooled(f).is_some() {
        let index = api.functions.iter().position(|g| g.name == f.name).expect("a function of the api");
        let index = proc_macro2::Literal::usize_unsuffixed(index);
        let target = match &target {
            Some(t) => quote!(#t),
            None => quote!(0),
        };
        quote! {
            if let Some(name) = self.pooled_take_one(#index, #target) {
                return Ok(name);
            }
        }
    } else {
        quote!()
    };
    quote! {
        #[doc = #doc]
        #[track_caller]
        #[inline]
        pub #unsafety fn #one(&self, #arg) -> Result<types::GLuint, crate::Error> {
            #fast
            Ok(#call?[0])
        }
    }
}

/// The scalar form of a query whose result size comes from its pname: [`scalar`] of the method
/// name, for safe queries with one output and no return value. Where an indexed query would
/// take the name of a plain one (`get_transform_feedbacki_v` and `get_transform_feedbackiv`),
/// the plain one has it.
pub fn scalar_form(api: &Api, f: &Function) -> Option<String> {
    let name = scalar_candidate(f)?;
    let method = f.method_name();
    let taken = method.ends_with("_v")
        && api.functions.iter().any(|g| g.name != f.name && scalar_candidate(g).as_deref() == Some(name.as_str()));
    (!taken).then_some(name)
}

fn scalar_candidate(f: &Function) -> Option<String> {
    if f.kind != Kind::Query || f.is_unsafe() || !f.ret.is_void() || f.variant.is_some() {
        return None;
    }
    let outs: Vec<&crate::model::Param> =
        f.params.iter().filter(|p| matches!(p.role, Role::Out(_) | Role::OutLength { .. })).collect();
    match outs.as_slice() {
        [p] if matches!(p.role, Role::Out(Rule::Pname { .. })) => scalar(&f.method_name()),
        _ => None,
    }
}

fn scalar_query(api: &Api, f: &Function) -> TokenStream {
    let Some(name) = scalar_form(api, f) else { return quote!() };
    let one = format_ident!("{name}");
    let method = format_ident!("{}", f.method_name());
    let gl_name = &f.name;
    let out = f.params.iter().find(|p| matches!(p.role, Role::Out(_))).expect("scalar_form found it");
    let Role::Out(Rule::Pname { group, param }) = &out.role else { unreachable!() };
    let count_fn = format_ident!("count_{}", group.to_lowercase());
    let pn = ident(param_named(f, param));
    let inputs: Vec<&crate::model::Param> = f.params.iter().filter(|p| !matches!(p.role, Role::Out(_))).collect();
    let args = inputs.iter().map(|p| {
        let (id, ty) = (ident(p), value_type(p));
        quote!(#id: #ty)
    });
    let pass = inputs.iter().map(|p| ident(p));
    let elem = element_type(out);
    let (ret, value) =
        if out.ty.pointee().base == "GLboolean" { (quote!(bool), quote!(x != 0)) } else { (elem, quote!(x)) };
    let doc = format!(
        " `{gl_name}` for a pname that yields one value: [`{}`](Self::{method}), first value. \
         Panics, at the caller's line, for a pname that yields several.",
        f.method_name()
    );
    quote! {
        #[doc = #doc]
        #[track_caller]
        #[inline]
        pub fn #one(&self, #(#args),*) -> Result<#ret, crate::Error> {
            arguments::check_scalar_pname(#gl_name, #pn, pname::#count_fn(#pn));
            match self.#method(#(#pass),*)?.first() {
                Some(&x) => Ok(#value),
                None => Err(crate::Error::UnsupportedQuery {
                    function: #gl_name,
                    pname: #pn,
                    reason: "the GL returned no value for this pname",
                }),
            }
        }
    }
}

/// The `Device` method of a create or query function.
pub fn method(api: &Api, f: &Function) -> TokenStream {
    if let Some((class, created)) = pooled(f) {
        return pooled_method(api, f, class, created);
    }
    if let Some(&(_, lookup, aux)) = crate::shadow_hooks::PROGRAM_LOOKUPS.iter().find(|(n, _, _)| *n == f.name) {
        return cached_lookup(api, f, lookup, aux);
    }
    if matches!(f.name.as_str(), "glGetProgramiv" | "glGetProgramInfoLog") {
        return cached_program_query(api, f);
    }
    if let Some(&(_, accessor)) = LIMIT_GETTERS.iter().find(|(n, _)| *n == f.name) {
        return limit_getter(api, f, accessor);
    }
    if let Some(method) = super::device_known::method(api, f) {
        return method;
    }
    round_trip_method(api, f, None)
}

/// Getters whose implementation-dependent pnames are answered from the limits cache
/// (`runtime/limits.rs`): (GL function, `Limits` accessor).
const LIMIT_GETTERS: &[(&str, &str)] = &[
    ("glGetIntegerv", "integerv"),
    ("glGetInteger64v", "integer64v"),
    ("glGetFloatv", "floatv"),
    ("glGetDoublev", "doublev"),
    ("glGetBooleanv", "booleanv"),
    ("glGetIntegeri_v", "integeri_v"),
    ("glGetInteger64i_v", "integer64i_v"),
    ("glGetString", "string"),
    ("glGetStringi", "stringi"),
];

/// A getter that answers the context's constants from the limits cache and asks the GL for the
/// rest.
fn limit_getter(api: &Api, f: &Function, accessor: &str) -> TokenStream {
    let method = format_ident!("{}", f.method_name());
    let uncached = format_ident!("{}_round_trip", f.method_name());
    let inner = round_trip_method(api, f, Some(&uncached));
    let inputs: Vec<&crate::model::Param> = f.params.iter().filter(|p| matches!(p.role, Role::Value)).collect();
    let ids: Vec<_> = inputs.iter().map(|p| ident(p)).collect();
    let tys: Vec<TokenStream> = inputs.iter().map(|p| rust_type(&p.ty)).collect();
    let accessor = format_ident!("{}", accessor);
    let capture = super::capture::hook(api, f, super::capture::HookAt::Method, &format_ident!("v"));
    let ret = if f.ret.is_void() {
        let out = f.params.iter().find(|p| matches!(p.role, Role::Out(_))).expect("an output");
        let elem = element_type(out);
        quote!(Vec<#elem>)
    } else {
        quote!(Option<String>)
    };
    let docs = doc(
        f,
        "the context's implementation-dependent constants (`generated::pname::LIMITS`) are answered from the limits \
         cache without a round trip; other pnames are a round trip, answered from the submitted stream (calls in a \
         list not yet submitted are not seen: `Device::immediate`'s twin submits its pending calls first)",
    );
    // An index past a list the cache holds (the extensions glcmd serves: `runtime/served.rs`)
    // goes to the GL as an index past the GL's own list, so that the GL raises
    // `GL_INVALID_VALUE` and returns NULL, as it does past its list.
    let remap = (f.name == "glGetStringi").then(|| quote!(let index = self.limits().uncached_index(name, index);));
    // glGetIntegerv also answers from the state an immediate thread recorded, and keeps the
    // GL's answers of that state (`runtime/recorded_state.rs`); a NULL output (C callers) goes to
    // the GL's checks.
    let asked = if f.name == "glGetIntegerv" {
        quote! {
            let recorded = &self.inner.shared.recorded;
            if !crate::client_out::null_given(1) {
                if let Some(v) = recorded.integerv(pname) {
                    #capture
                    return Ok(v);
                }
            }
            let version = recorded.version();
            let v = self.#uncached(#(#ids),*)?;
            recorded.learn(pname, &v, version);
            Ok(v)
        }
    } else {
        quote!(self.#uncached(#(#ids),*))
    };
    quote! {
        #inner

        #docs
        #[track_caller]
        #[inline]
        pub fn #method(&self, #(#ids: #tys),*) -> Result<#ret, crate::Error> {
            if let Some(v) = self.limits().#accessor(#(#ids),*) {
                #capture
                return Ok(v);
            }
            #remap
            #asked
        }
    }
}

/// A program interface lookup answered from the cache (`runtime/programs.rs`), with the round
/// trip (under the name `<method>_round_trip`) for names the cache does not hold.
fn cached_lookup(api: &Api, f: &Function, lookup: &str, aux: Option<&str>) -> TokenStream {
    let gl_name = &f.name;
    let method = format_ident!("{}", f.method_name());
    let uncached = format_ident!("{}_round_trip", f.method_name());
    let inner = round_trip_method(api, f, Some(&uncached));
    let params: Vec<_> = f.params.iter().map(ident).collect();
    let types: Vec<TokenStream> = f
        .params
        .iter()
        .map(|p| if matches!(p.role, Role::In(Rule::String)) { quote!(&str) } else { rust_type(&p.ty) })
        .collect();
    let program = ident(param_named(f, "program"));
    let name = ident(f.params.iter().find(|p| matches!(p.role, Role::In(Rule::String))).expect("a name argument"));
    let aux = match aux {
        Some(a) => {
            let a = ident(param_named(f, a));
            quote!(#a as u32)
        }
        None => quote!(0u32),
    };
    let lookup = format_ident!("{}", lookup);
    let ret = rust_type(&f.ret);
    let capture = super::capture::hook(api, f, super::capture::HookAt::Method, &format_ident!("v"));
    let docs = doc(
        f,
        "answered from the program interface cache when the program's latest link has replayed (no round trip); \
         fails at once if that link is recorded in a list not yet submitted (`Device::immediate`'s twin submits it \
         first)",
    );
    quote! {
        #inner

        #docs
        #[track_caller]
        #[inline]
        pub fn #method(&self, #(#params: #types),*) -> Result<#ret, crate::Error> {
            let key = (crate::programs::Lookup::#lookup, #aux, #name);
            if let Some(v) = self.program_lookup(#gl_name, #program, key)? {
                let v = v as #ret;
                #capture
                return Ok(v);
            }
            let v = self.#uncached(#(#params),*)?;
            self.program_remember(#program, key, v as i64);
            Ok(v)
        }
    }
}

/// `get_programiv(LINK_STATUS)` and `get_program_info_log` from the cache, other pnames (and
/// programs the cache does not know) by a round trip.
fn cached_program_query(api: &Api, f: &Function) -> TokenStream {
    let gl_name = &f.name;
    let method = format_ident!("{}", f.method_name());
    let uncached = format_ident!("{}_round_trip", f.method_name());
    let inner = round_trip_method(api, f, Some(&uncached));
    let capture = super::capture::hook(api, f, super::capture::HookAt::Method, &format_ident!("answer"));
    let docs = doc(
        f,
        if f.name == "glGetProgramiv" {
            "`GL_LINK_STATUS` is answered from the program interface cache once the latest link has replayed; \
             other pnames are a round trip"
        } else {
            "answered from the program interface cache once the latest link has replayed"
        },
    );
    if f.name == "glGetProgramiv" {
        quote! {
            #inner

            #docs
            #[track_caller]
        #[inline]
            pub fn #method(&self, program: types::GLuint, pname: types::GLenum) -> Result<Vec<types::GLint>, crate::Error> {
                if pname == crate::gl::LINK_STATUS {
                    if let Some(status) = self.program_link_status(#gl_name, program)? {
                        let answer = vec![status];
                        #capture
                        return Ok(answer);
                    }
                }
                self.#uncached(program, pname)
            }
        }
    } else {
        quote! {
            #inner

            #docs
            #[track_caller]
        #[inline]
            pub fn #method(&self, program: types::GLuint, buf_size: types::GLsizei) -> Result<String, crate::Error> {
                if buf_size < 0 {
                    return Err(crate::Error::InvalidArgument { function: #gl_name, argument: "buf_size", value: buf_size as i64 });
                }
                if let Some(log) = self.program_info_log(#gl_name, program)? {
                    // As the GL: at most buf_size - 1 bytes (and the NUL).
                    let mut end = log.len().min((buf_size as usize).saturating_sub(1));
                    while !log.is_char_boundary(end) {
                        end -= 1;
                    }
                    let answer = log[..end].to_string();
                    #capture
                    return Ok(answer);
                }
                self.#uncached(program, buf_size)
            }
        }
    }
}

/// A create or query method as a round trip (`rename`: under another name, crate-private).
pub(super) fn round_trip_method(api: &Api, f: &Function, rename: Option<&proc_macro2::Ident>) -> TokenStream {
    let index = api.functions.iter().position(|g| g.name == f.name).expect("a function of the api");
    let gl_name = &f.name;
    let field = format_ident!("{}", f.short_name());
    let RoundTripParts { args, lengths, owned, setup, call_args, regions, results, finish, .. } = round_trip_parts(f);
    let (ret_ty, ret_expr) = return_value(f, results);
    let docs = doc(
        f,
        if f.kind == Kind::Create {
            "creates at once on the render thread and returns the result"
        } else {
            "a round trip to the render thread. It answers from the submitted stream: calls recorded in a list \
             not yet submitted are not seen (submit first, or ask through an immediate context, \
             `Device::immediate`, whose twin submits its pending calls first)"
        },
    );
    let (method, vis) = match rename {
        Some(r) => (r.clone(), quote!(pub(crate))),
        None => (format_ident!("{}", f.method_name()), quote!(pub)),
    };
    let unsafety = if f.is_unsafe() { quote!(unsafe) } else { quote!() };
    let bind_ret = if f.ret.is_void() { quote!() } else { quote!(let ret =) };
    let round_trip = if f.kind == Kind::Create { quote!(create) } else { quote!(call) };
    let capture = super::capture::hook(api, f, super::capture::HookAt::RenderThread, &format_ident!("answer"));
    let index = proc_macro2::Literal::usize_unsuffixed(index);
    let call = redirected_call(f, &field, &call_args);
    // A query the GL refuses writes no output: its error is the answer (`refused_by`).
    let call = if f.kind == Kind::Query && !matches!(f.name.as_str(), "glGetError" | "glGetGraphicsResetStatus") {
        quote!(ctx.refused_by(#gl_name, || #call)?)
    } else {
        call
    };
    let n_regions = regions.len();
    // The C caller's output pointers (`runtime/client_out.rs`), taken on the calling thread.
    let take_client = if uses_client_outputs(f) { quote!(let client = crate::client_out::take();) } else { quote!() };
    let name_checks = name_checks(f);
    let range_check = range_check(f);
    // State glcmd substitutes (its debug trampoline and context) is answered with the program's
    // value (`Diagnostics::program_pointer`), never glcmd's own.
    let substituted = match f.name.as_str() {
        "glGetPointerv" => quote! {
            let substituted = ctx.diag.program_pointer(pname);
            if let Some(answer) = substituted {
                return Ok(answer);
            }
        },
        _ => quote!(),
    };
    quote! {
        #docs
        #[track_caller]
        #[inline]
        #vis #unsafety fn #method(&self, #(#args),*) -> Result<#ret_ty, crate::Error> {
            #take_client
            #(#lengths)*
            #range_check
            #(#owned)*
            self.#round_trip(#gl_name, move |ctx: &RenderContext| {
                let gl = ctx.gl();
                if !gl.is_available(#index) {
                    return Err(ctx.unavailable(#gl_name));
                }
                #(#name_checks)*
                #substituted
                #(#setup)*
                let _regions: [arguments::Region; #n_regions] = [#(#regions),*];
                // SAFETY: every pointer argument points into a buffer owned by this closure and
                // sized by the length rule in the doc comment.
                #bind_ret #call;
                #(#finish)*
                let answer = #ret_expr;
                #capture
                Ok(answer)
            })
        }
    }
}

/// What a round-trip method's parameters contribute, each list in the order the method uses it.
#[derive(Default)]
struct RoundTripParts {
    /// The method's parameters.
    args: Vec<TokenStream>,
    /// Length arguments taken from the slices that carry them, on the calling thread.
    lengths: Vec<TokenStream>,
    /// Copies of the inputs made on the calling thread and moved into the closure, so that the
    /// closure never borrows from the caller.
    owned: Vec<TokenStream>,
    /// Output buffers and looked-up objects, made on the render thread before the call.
    setup: Vec<TokenStream>,
    /// The GL call's arguments.
    call_args: Vec<TokenStream>,
    /// Memory the call may touch, for the checking function table (no-ops without it).
    regions: Vec<TokenStream>,
    /// The method's results besides the GL return value: (type, expression).
    results: Vec<(TokenStream, TokenStream)>,
    /// Statements after the call: truncations, string conversions, created names.
    finish: Vec<TokenStream>,
    /// The output whose length its pname gives, if any (index into the parameters).
    pname_out: Option<usize>,
    /// Another output whose count is measured (`query_out::written`), if any.
    measured_out: Option<usize>,
}

/// The parts of every parameter, then the count query of a `Queried` pname and the
/// bookkeeping of created names.
fn round_trip_parts(f: &Function) -> RoundTripParts {
    let mut parts = RoundTripParts::default();
    for (i, p) in f.params.iter().enumerate() {
        match &p.role {
            Role::In(rule) => in_array_parts(f, i, rule, &mut parts),
            Role::Out(rule) => out_array_parts(f, i, rule, &mut parts),
            _ => scalar_parts(f, i, &mut parts),
        }
    }
    if let Some(index) = parts.pname_out {
        parts.setup = with_count_query(f, index, &parts.call_args, parts.setup);
        parts.finish = with_probe_call(f, index, &parts.call_args, parts.finish);
    }
    if let Some(index) = parts.measured_out {
        parts.finish = with_probe_call(f, index, &parts.call_args, parts.finish);
    }
    created_names(f, &mut parts.finish);
    parts
}

/// The parts of a parameter that is no array: values, offsets, syncs and lengths.
fn scalar_parts(f: &Function, i: usize, parts: &mut RoundTripParts) {
    let p = &f.params[i];
    let gl_name = &f.name;
    let id = ident(p);
    let ty = rust_type(&p.ty);
    let a = format_ident!("a{}", i);
    match &p.role {
        Role::Value => {
            let vty = value_type(p);
            parts.args.push(quote!(#id: #vty));
            parts.call_args.push(value_to_c(p));
        }
        Role::Opaque | Role::Offset => {
            parts.args.push(quote!(#id: usize));
            parts.call_args.push(quote!(#id as #ty));
        }
        Role::Sync => {
            parts.args.push(quote!(#id: crate::SyncHandle));
            parts.owned.push(quote!(let #id = #id.id();));
            // glIsSync answers false for a handle that names no sync object, without an error
            // (GL 4.6 §4.1.3); every other use of such a handle is an error.
            parts.setup.push(if f.name == "glIsSync" {
                quote!(let Ok(#a) = ctx.sync_object(#gl_name, #id) else { return Ok(false) };)
            } else {
                quote!(let #a = ctx.sync_object(#gl_name, #id)?;)
            });
            parts.call_args.push(quote!(#a as #ty));
        }
        Role::Length { of } => {
            let first = ident(param_named(f, &of[0]));
            let first_name = of[0].as_str();
            let conv = match p.ty.base.as_str() {
                "GLsizei" | "GLint" => quote!(arguments::count_i32(#first.len(), #gl_name, #first_name)),
                "GLuint" => quote!(arguments::count_i32(#first.len(), #gl_name, #first_name) as u32),
                _ => quote!(#first.len() as _),
            };
            parts.lengths.push(quote!(let #id: #ty = #conv;));
            parts.call_args.push(quote!(#id));
        }
        Role::LengthArray { .. } => parts.call_args.push(quote!(std::ptr::null())),
        Role::OutLength { .. } => {
            parts.setup.push(quote!(let mut #a: types::GLsizei = -1;));
            parts.call_args.push(quote!(&mut #a as *mut types::GLsizei));
            parts.regions.push(quote!(arguments::region(&#a as *const types::GLsizei, 4)));
        }
        Role::In(_) | Role::Out(_) => unreachable!("arrays have their own parts"),
    }
}

/// The parts of an input array: the method takes a borrowed slice (or `&str`) and the closure
/// an owned copy of it.
fn in_array_parts(f: &Function, i: usize, rule: &Rule, parts: &mut RoundTripParts) {
    let p = &f.params[i];
    let gl_name = &f.name;
    let (id, arg_name, ty, elem) = (ident(p), p.name.as_str(), rust_type(&p.ty), element_type(p));
    let a = format_ident!("a{}", i);
    match rule {
        Rule::String => {
            parts.args.push(quote!(#id: &str));
            parts.owned.push(quote!(let #id = arguments::c_string(#gl_name, #arg_name, #id);));
        }
        Rule::Strings(_) => {
            parts.args.push(quote!(#id: &[&str]));
            parts.owned.push(quote! {
                let #id: Vec<std::ffi::CString> = #id.iter().map(|s| arguments::c_string(#gl_name, #arg_name, s)).collect();
            });
            parts.setup.push(quote!(let #a: Vec<*const std::ffi::c_char> = #id.iter().map(|s| s.as_ptr()).collect();));
            parts.setup.push(quote! {
                let _strings: Vec<arguments::Region> = #id.iter().map(|s| arguments::region(s.as_ptr(), s.as_bytes_with_nul().len())).collect();
            });
            parts.call_args.push(quote!(#a.as_ptr() as #ty));
            parts.regions.push(quote!(arguments::region(#a.as_ptr(), std::mem::size_of_val(&#a[..]))));
            return;
        }
        Rule::Const(n) => {
            let n = *n as usize;
            parts.args.push(quote!(#id: &[#elem; #n]));
            parts.owned.push(quote!(let #id = *#id;));
        }
        Rule::Product(_, k) => {
            let k = *k as usize;
            parts.args.push(quote!(#id: &[[#elem; #k]]));
            parts.owned.push(quote!(let #id = #id.to_vec();));
        }
        Rule::Pname { group, param } => {
            parts.args.push(quote!(#id: &[#elem]));
            let count_fn = format_ident!("count_{}", group.to_lowercase());
            let pn = ident(param_named(f, param));
            parts.owned.push(quote! {
                let needed = match pname::#count_fn(#pn) { Some(Count::Fixed(n)) => Some(n), _ => None };
                arguments::check_pname_len(#gl_name, #arg_name, #id.len(), needed, #pn);
                let mut #id = #id.to_vec();
                #id.resize(#id.len().max(16), Default::default());
            });
        }
        _ => {
            parts.args.push(quote!(#id: &[#elem]));
            parts.owned.push(quote!(let #id = #id.to_vec();));
        }
    }
    // Every form but a string array passes its owned copy.
    parts.call_args.push(quote!(#id.as_ptr() as #ty));
    parts.regions.push(quote!(arguments::region(#id.as_ptr(), std::mem::size_of_val(&#id[..]))));
}

/// The parts of an output array: a buffer made on the render thread, sized before anything is
/// called, and returned (truncated to its length, or as a string).
fn out_array_parts(f: &Function, i: usize, rule: &Rule, parts: &mut RoundTripParts) {
    let p = &f.params[i];
    let (ty, elem) = (rust_type(&p.ty), element_type(p));
    let a = format_ident!("a{}", i);
    let a_len = format_ident!("{}_len", a);
    let result = match rule {
        Rule::One => {
            parts.setup.push(quote!(let mut #a: #elem = Default::default();));
            parts.call_args.push(quote!(&mut #a as *mut #elem as #ty));
            parts.regions.push(quote!(arguments::region(&#a as *const #elem, std::mem::size_of::<#elem>())));
            parts.results.push((quote!(#elem), quote!(#a)));
            return;
        }
        Rule::Const(n) => {
            let n = *n as usize;
            parts.setup.push(quote!(let mut #a: [#elem; #n] = [Default::default(); #n];));
            parts.call_args.push(quote!(#a.as_mut_ptr() as #ty));
            parts.regions.push(quote!(arguments::region(#a.as_ptr(), std::mem::size_of_val(&#a[..]))));
            parts.results.push((quote!([#elem; #n]), quote!(#a)));
            return;
        }
        Rule::Param(x) => {
            let n = size_arg(f, x);
            parts.owned.push(quote!(let #a_len = #n;));
            parts.setup.push(out_vec(f, &a, elem.clone(), quote!(#a_len)));
            (quote!(Vec<#elem>), quote!(#a))
        }
        Rule::Quotient(x, d) => {
            // Rounded up: a driver may write up to the byte count it is given.
            let n = size_arg(f, x);
            let d = *d as usize;
            parts.owned.push(quote!(let #a_len = #n.div_ceil(#d);));
            parts.setup.push(out_vec(f, &a, elem.clone(), quote!(#a_len)));
            (quote!(Vec<#elem>), quote!(#a))
        }
        Rule::Product(x, k) => {
            let n = size_arg(f, x);
            let k = *k as usize;
            parts.owned.push(quote!(let #a_len = #n;));
            parts.setup.push(out_vec(f, &a, quote!([#elem; #k]), quote!(#a_len)));
            (quote!(Vec<[#elem; #k]>), quote!(#a))
        }
        Rule::Bytes => return out_bytes_parts(f, i, parts),
        Rule::String => return out_string_parts(f, i, parts),
        Rule::Pname { group, param } => return out_pname_parts(f, i, group, param, parts),
        Rule::Strings(_) => unreachable!("no output string arrays"),
    };
    // The vectors sized by an argument, filled from the C caller's memory: the GL may write
    // fewer elements than `bufSize` allows (`client_out.rs`). A byte count rounded up to
    // elements fills only the bytes counted.
    let bytes = match rule {
        Rule::Quotient(x, _) => size_arg(f, x),
        _ => quote!(usize::MAX),
    };
    let index = proc_macro2::Literal::usize_unsuffixed(i);
    if uses_client_outputs(f) {
        parts.setup.push(quote!(client.prefill(#index, &mut #a[..#a_len], #bytes);));
    }
    parts.call_args.push(quote!(#a.as_mut_ptr() as #ty));
    parts.regions.push(quote!(arguments::region(#a.as_ptr(), std::mem::size_of_val(&#a[..]))));
    parts.finish.push(quote!(#a.truncate(#a_len);));
    parts.results.push(result);
}

/// The parts of an output array sized in bytes: by the GL's pack state or a level's size where
/// the function's sizing says so (asked on the render thread), else by a length argument of the
/// method; an indexed boolean query is measured as a pname query is.
fn out_bytes_parts(f: &Function, i: usize, parts: &mut RoundTripParts) {
    let p = &f.params[i];
    let (ty, elem) = (rust_type(&p.ty), element_type(p));
    let a = format_ident!("a{}", i);
    let len_id = format_ident!("{}_len", param_ident(&p.name));
    let gl_name = &f.name;
    let arg = |n: &str| ident(param_named(f, n));
    let first = read_error_first(f, p);
    match crate::sizing::sizing(f, p) {
        // Sized here, on the render thread, from the GL's pack state (`runtime/pixels.rs`).
        Some(Sizing::PackImage) if crate::sizing::sized_by_query(f, p) => {
            let (w, h, format, type_) = (arg("width"), arg("height"), arg("format"), arg("type"));
            parts.setup.push(quote! {
                let (image_format, image_type) = (#format, #type_);
                let image = crate::pixels::Image {
                    dims: 2, width: #w as i64, height: #h as i64, depth: 1, format: image_format, type_: image_type,
                };
                // SAFETY: on the render thread, with its current context's table (unaudited: glcmd's own reads).
                let #len_id = match unsafe { crate::pixels::pack_len(ctx.raw_gl(), #gl_name, image) } {
                    Ok(n) => n,
                    Err(e) => return Err(#first),
                };
            });
        }
        Some(Sizing::TexLevel) if crate::sizing::sized_by_query(f, p) => {
            let (target, level, format, type_) = (arg("target"), arg("level"), arg("format"), arg("type"));
            parts.setup.push(quote! {
                // SAFETY: on the render thread, with its current context's table (unaudited: glcmd's own reads).
                let #len_id = match unsafe {
                    crate::pixels::tex_level_len(ctx.raw_gl(), #gl_name, (#target, #level), #format, #type_)
                } {
                    Ok(n) => n,
                    Err(e) => return Err(#first),
                };
            });
        }
        _ => parts.args.push(quote!(#len_id: usize)),
    }
    parts.call_args.push(quote!(#a.as_mut_ptr() as #ty));
    parts.regions.push(quote!(arguments::region(#a.as_ptr(), std::mem::size_of_val(&#a[..]))));
    if crate::sizing::sizing(f, p) == Some(Sizing::IndexedBoolean) {
        // Sized by the integer form of the same pname, which a driver may answer where
        // it writes no boolean (Mesa: GL_VIEWPORT): measured as a pname query is.
        parts.setup.push(quote!(let mut #a: Vec<#elem> = crate::query_out::buffer(#gl_name, #len_id, 0)?;));
        parts.finish.push(quote! {
            let #len_id = crate::query_out::written(&#a, #len_id, |again: &mut [#elem]| PROBE_CALL);
            #a.truncate(#len_id);
        });
        parts.measured_out = Some(i);
    } else {
        parts.setup.push(out_vec(f, &a, elem.clone(), quote!(#len_id)));
        // From the C caller's memory: the GL writes the pixels, not the gaps between
        // rows or what lies outside the framebuffer (`client_out.rs`).
        let index = proc_macro2::Literal::usize_unsuffixed(i);
        if uses_client_outputs(f) {
            parts.setup.push(quote!(client.prefill(#index, &mut #a[..#len_id], usize::MAX);));
        }
        parts.finish.push(quote!(#a.truncate(#len_id);));
    }
    parts.results.push((quote!(Vec<#elem>), quote!(#a)));
}

/// A size argument, checked before anything is allocated or called: a negative one is an
/// error (the GL would take it as huge), a huge one fails to allocate with an error instead of
/// aborting, and a zero one still gets a real buffer (the driver may touch the first element
/// whatever it is told).
fn size_arg(f: &Function, x: &str) -> TokenStream {
    let gl_name = &f.name;
    let xi = ident(param_named(f, x));
    let x_ident = param_ident(x);
    quote!(arguments::size_arg(#gl_name, #x_ident, #xi as i64)?)
}

/// An output vector `a` of `n` elements, whose allocation failure is an error.
fn out_vec(f: &Function, a: &proc_macro2::Ident, elem: TokenStream, n: TokenStream) -> TokenStream {
    let gl_name = &f.name;
    quote! {
        let mut #a: Vec<#elem> = arguments::out_vec(#gl_name, #n)?;
    }
}

/// The parts of an output string: a byte buffer sized by its argument, read back up to the
/// length the GL wrote (when the function returns one) or the NUL.
fn out_string_parts(f: &Function, i: usize, parts: &mut RoundTripParts) {
    let p = &f.params[i];
    let ty = rust_type(&p.ty);
    let a = format_ident!("a{}", i);
    let a_len = format_ident!("{}_len", a);
    let Some(Rule::Param(x)) = p.len.as_deref().and_then(crate::classify::parse_len) else {
        unreachable!("classify gives output strings a parameter length")
    };
    let n = size_arg(f, &x);
    parts.owned.push(quote!(let #a_len = #n;));
    parts.setup.push(out_vec(f, &a, quote!(u8), quote!(#a_len)));
    parts.call_args.push(quote!(#a.as_mut_ptr() as #ty));
    parts.regions.push(quote!(arguments::region(#a.as_ptr(), std::mem::size_of_val(&#a[..]))));
    let length = f
        .params
        .iter()
        .position(|q| matches!(&q.role, Role::OutLength { of } if *of == p.name))
        .map(|j| {
            let l = format_ident!("a{}", j);
            quote!(Some(#l))
        })
        .unwrap_or(quote!(None));
    let s = format_ident!("s{}", i);
    parts.finish.push(quote!(#a.truncate(#a_len);));
    parts.finish.push(quote!(let #s = arguments::string_from(&#a, #length);));
    parts.results.push((quote!(String), quote!(#s)));
}

/// The parts of an output whose length its pname gives. A `Queried` count is asked of the GL
/// first: its call is the placeholder `QUERIED_CALL` until [`with_count_query`] replaces it,
/// because it needs the call arguments of every parameter.
fn out_pname_parts(f: &Function, i: usize, group: &str, param: &str, parts: &mut RoundTripParts) {
    let p = &f.params[i];
    let gl_name = &f.name;
    let (ty, elem) = (rust_type(&p.ty), element_type(p));
    let a = format_ident!("a{}", i);
    let a_len = format_ident!("{}_len", a);
    let count_fn = format_ident!("count_{}", group.to_lowercase());
    let pn = ident(param_named(f, param));
    parts.pname_out = Some(i);
    let is_bool = p.ty.base == "GLboolean";
    let queried = if is_bool {
        quote!({ let _ = q; return Err(crate::Error::UnsupportedQuery { function: #gl_name, pname: #pn as u32, reason: "the count of this pname must be queried with an integer getter" }) })
    } else {
        quote!(QUERIED_CALL)
    };
    // A pname the tables lack is passed on (count 0), unless it is one no driver may be asked;
    // the count is measured either way (`query_out`): `PROBE_CALL` asks again where it must.
    parts.setup.push(quote! {
        let n = match pname::#count_fn(#pn) {
            Some(Count::Fixed(n)) => n as usize,
            Some(Count::Queried(q)) => { #queried }
            None if crate::query_out::refused(#pn as u32) => {
                return Err(crate::Error::UnknownPname { function: #gl_name, pname: #pn as u32 })
            }
            None => 0,
        };
        let mut #a: Vec<#elem> = crate::query_out::buffer(#gl_name, n, 0)?;
    });
    let measured = quote!(crate::query_out::written(&#a, n, |again: &mut [#elem]| PROBE_CALL));
    if f.redirect == Some(Redirect::QueryBuffer) {
        // The C caller's value is an offset while a buffer is bound to GL_QUERY_BUFFER at this
        // point of the stream (checked against its storage for the pname's values, at least
        // one), memory otherwise (`client_out.rs`); the answer is then empty: the GL wrote into
        // the buffer, and nothing is measured (a second call would pass glcmd's own buffer as an
        // offset into the bound one).
        let (index, name) = (proc_macro2::Literal::usize_unsuffixed(i), p.name.as_str());
        let at = format_ident!("{}_at", a);
        parts.setup.push(quote! {
            let #at: Option<usize> = match client.address(#index) {
                Some(address) => ctx.buffer_output(
                    #gl_name, #name, Target::Query, address, std::mem::size_of::<#elem>() * n.max(1),
                )?,
                None => None,
            };
        });
        parts.finish.push(quote! {
            let #a_len = if #at.is_some() { 0 } else { #measured };
            #a.truncate(#a_len);
        });
        parts.call_args.push(quote!(match #at { Some(offset) => offset as #ty, None => #a.as_mut_ptr() as #ty }));
    } else {
        parts.finish.push(quote! {
            let #a_len = #measured;
            #a.truncate(#a_len);
        });
        parts.call_args.push(quote!(#a.as_mut_ptr() as #ty));
    }
    parts.regions.push(quote!(arguments::region(#a.as_ptr(), std::mem::size_of_val(&#a[..]))));
    parts.results.push((quote!(Vec<#elem>), quote!(#a)));
}

/// Whether a round-trip method takes the C caller's output pointers (`runtime/client_out.rs`):
/// it has an output vector the GL may fill only in part, or an output the GL takes as an
/// offset into the query buffer.
pub fn uses_client_outputs(f: &Function) -> bool {
    f.kind == Kind::Query
        && (f.redirect == Some(Redirect::QueryBuffer)
            || f.params.iter().any(|p| {
                matches!(p.role, Role::Out(Rule::Param(_) | Rule::Quotient(..) | Rule::Product(..) | Rule::Bytes))
                    // Measured as a pname query is (`query_out`): sentinels, not the caller's bytes.
                    && crate::sizing::sizing(f, p) != Some(Sizing::IndexedBoolean)
            }))
}

/// `setup` with the call that asks how many values a `Queried` pname returns in place of
/// `QUERIED_CALL`: the same function, with pname replaced by the counting pname and the output
/// (parameter `index`) by a small scratch array.
fn with_count_query(
    f: &Function,
    index: usize,
    call_args: &[TokenStream],
    setup: Vec<TokenStream>,
) -> Vec<TokenStream> {
    let field = format_ident!("{}", f.short_name());
    let p = &f.params[index];
    let elem = element_type(p);
    let ty = rust_type(&p.ty);
    let Role::Out(Rule::Pname { param, .. }) = &p.role else { unreachable!() };
    let pname_index = f.params.iter().position(|q| q.name == *param).unwrap();
    let mut qargs = call_args.to_vec();
    qargs[pname_index] = quote!(q);
    qargs[index] = quote!(one.as_mut_ptr() as #ty);
    let q_call = quote! {{
        let mut one: [#elem; 16] = [Default::default(); 16];
        let _one = arguments::region(one.as_ptr(), std::mem::size_of_val(&one));
        unsafe { (gl.#field)(#(#qargs),*) };
        (one[0] as i64).max(0) as usize
    }};
    setup
        .into_iter()
        .map(|t| {
            let s = t.to_string();
            if s.contains("QUERIED_CALL") {
                let q = q_call.to_string();
                s.replace("QUERIED_CALL", &q).parse().unwrap()
            } else {
                t
            }
        })
        .collect()
}

/// `finish` with the second call of `query_out::written` in place of `PROBE_CALL`: the same
/// call, with the output (parameter `index`) replaced by the closure's buffer `again`.
fn with_probe_call(
    f: &Function,
    index: usize,
    call_args: &[TokenStream],
    finish: Vec<TokenStream>,
) -> Vec<TokenStream> {
    let field = format_ident!("{}", f.short_name());
    let ty = rust_type(&f.params[index].ty);
    let mut args = call_args.to_vec();
    args[index] = quote!(again.as_mut_ptr() as #ty);
    // SAFETY (in the generated code): `again` is as long as the first buffer, which holds at
    // least what the pname's table says (`query_out::buffer`); the other arguments, and the
    // bindings set aside around the call (`redirected_call`), are the first call's.
    let call = redirected_call(f, &field, &args).to_string();
    finish
        .into_iter()
        .map(|t| {
            let s = t.to_string();
            if s.contains("PROBE_CALL") {
                s.replace("PROBE_CALL", &call).parse().unwrap()
            } else {
                t
            }
        })
        .collect()
}

/// Names a create function returns are live again (for use-after-delete tracking, and the
/// program cache forgets an older program of the same name: before the link below is read).
fn created_names(f: &Function, finish: &mut Vec<TokenStream>) {
    if f.kind == Kind::Create {
        if let Some(class) = &f.ret_class {
            finish.push(quote!(ctx.objects_created(#class, &[ret], true);));
        }
        let created = f.name.starts_with("glCreate");
        for (i, p) in f.params.iter().enumerate() {
            if let (Some(class), Role::Out(Rule::Param(_))) = (&p.class, &p.role) {
                let a = format_ident!("a{}", i);
                finish.push(quote!(ctx.objects_created(#class, &#a, #created);));
            }
        }
    }
    if f.name == "glCreateShaderProgramv" {
        finish.push(quote!(ctx.program_linked(ret);));
    }
}

/// The method's return type and value: the GL return value (a string, an address, a `bool` or
/// the value) followed by the outputs, one of them alone or several as a tuple.
fn return_value(f: &Function, results: Vec<(TokenStream, TokenStream)>) -> (TokenStream, TokenStream) {
    let mut all_results = Vec::new();
    if !f.ret.is_void() {
        let (rt, re) = if f.ret.is_pointer() && f.ret.base == "GLubyte" {
            (quote!(Option<String>), quote!(unsafe { arguments::string_from_ptr(ret) }))
        } else if f.ret.is_pointer() {
            (quote!(usize), quote!(ret as usize))
        } else if f.ret.base == "GLboolean" {
            (quote!(bool), quote!(ret != 0))
        } else {
            let rt = rust_type(&f.ret);
            (rt, quote!(ret))
        };
        all_results.push((rt, re));
    }
    all_results.extend(results);
    match all_results.len() {
        0 => (quote!(()), quote!(())),
        1 => all_results.pop().unwrap(),
        _ => {
            let (ts, es): (Vec<_>, Vec<_>) = all_results.into_iter().unzip();
            (quote!((#(#ts),*)), quote!((#(#es),*)))
        }
    }
}

/// The GL call. With a pixel-pack or query buffer bound, the GL would take the output pointer
/// for an offset into it: the binding is lifted for the call.
fn redirected_call(f: &Function, field: &proc_macro2::Ident, call_args: &[TokenStream]) -> TokenStream {
    let gl_call = quote!(unsafe { (gl.#field)(#(#call_args),*) });
    match f.redirect {
        Some(Redirect::PixelPack) => quote!(ctx.without_buffer(Target::PixelPack, || #gl_call)),
        Some(Redirect::QueryBuffer) => {
            // An offset into the bound query buffer goes to the GL as it is (`out_pname_parts`).
            let at = f
                .params
                .iter()
                .position(|p| matches!(p.role, Role::Out(Rule::Pname { .. })))
                .map(|i| format_ident!("a{}_at", i))
                .expect("a query-object read has a pname output");
            quote!(if #at.is_some() { #gl_call } else { ctx.without_buffer(Target::Query, || #gl_call) })
        }
        _ => gl_call,
    }
}

/// Object names must exist (the first one cannot be 0), as for recorded commands.
fn name_checks(f: &Function) -> Vec<TokenStream> {
    if crate::shadow_hooks::names_unchecked(f) {
        return Vec::new();
    }
    let gl_name = &f.name;
    f.params
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p.role, Role::Value) && p.ty.base == "GLuint")
        .filter_map(|(i, p)| {
            let variant = p.class.as_deref().and_then(crate::shadow_hooks::class_variant)?;
            let (id, class, first) = (ident(p), format_ident!("{}", variant), i == 0);
            Some(quote!(ctx.check_name(#gl_name, crate::shadow::Class::#class, #id, #first)?;))
        })
        .collect()
}

/// The check of the buffer offset and size arguments, on the calling thread: non-negative, and
/// their sum must not overflow (a sum that wraps passes the driver's bounds check).
fn range_check(f: &Function) -> TokenStream {
    let gl_name = &f.name;
    let ranges: Vec<TokenStream> = f
        .params
        .iter()
        .filter(|p| super::commands::is_range(p))
        .map(|p| {
            let (id, name) = (ident(p), param_ident(&p.name));
            quote!((#name, #id as i64))
        })
        .collect();
    if ranges.is_empty() {
        quote!()
    } else {
        quote!(arguments::check_ranges(#gl_name, &[#(#ranges),*])?;)
    }
}

/// The error of a read sized on the render thread whose format/type pair glcmd cannot size:
/// the GL's, asked with the read's robust form and a `bufSize` of 0, which writes nothing
/// (`runtime/pixels.rs`, `read_error_first`); glcmd's own `e` for a read with no such form.
fn read_error_first(f: &Function, out: &crate::model::Param) -> TokenStream {
    let robust = match f.name.as_str() {
        "glReadPixels" => "ReadnPixels",
        "glGetTexImage" => "GetnTexImage",
        _ if f.params.iter().any(|q| q.name == "bufSize") => f.short_name(),
        _ => return quote!(e),
    };
    let field = format_ident!("{}", robust);
    let mut args: Vec<TokenStream> = Vec::new();
    for q in &f.params {
        if q.name == out.name {
            if !f.params.iter().any(|q| q.name == "bufSize") {
                args.push(quote!(0));
            }
            args.push(quote!(probe_out.as_mut_ptr().cast()));
        } else if q.name == "bufSize" {
            args.push(quote!(0));
        } else {
            let a = ident(q);
            args.push(quote!(#a));
        }
    }
    quote! {
        // SAFETY: on the render thread; a `bufSize` of 0: the GL writes nothing.
        unsafe {
            crate::pixels::read_error_first(ctx.raw_gl(), e, || {
                let mut probe_out = [0u8; 1];
                (ctx.raw_gl().#field)(#(#args),*)
            })
        }
    }
}
