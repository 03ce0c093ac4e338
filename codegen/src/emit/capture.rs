//! The capture tables (`capture.rs`): what `runtime/capture/` needs to read packets and round
//! trips back from a file that nobody vouches for.
//!
//! * `FINGERPRINT`: a hash of everything a capture's bytes depend on (every opcode's name and
//!   packet layout, every argument's role, and the argument encoding of every replayable create
//!   and query). A capture written by a build with another table is refused, not misread.
//! * `OPCODES`: per opcode, the array arguments (where the offset field is, how the length is
//!   derived: a count field, a constant, a `_len` field, a pname table, a string, a string
//!   table), the arguments that name GL objects (for validation and name remapping), the
//!   program a link links, and whether the opcode is refused in a capture (an `unsafe`
//!   recording method: its array size depends on GL state glcmd does not check, or it hands the
//!   GPU raw addresses; or it names objects of a class glcmd does not track).
//! * `call`: replays one recorded create or query through the typed `Device` method, by its
//!   index in the function table, with arguments decoded from the capture and object names
//!   remapped.
//!
//! The tables are data, read by the hand-written validator (`runtime/capture/validate.rs`), so
//! the rules are checked in one place rather than in 983 generated functions.
//!
//! [`hook`] is the one line the `Device` methods of `emit/device.rs` add to record a create or
//! query answer (nothing when capture is off).

use std::collections::HashMap;

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::commands::{packet_fields, recorded_entries};
use super::{element_type, ident, param_named, value_type};
use crate::model::{Api, Function, Kind, Param, Role, Rule};
use crate::naming::param_ident;
use crate::shadow_hooks;

/// Bumped when the meaning of the tables or of the call encoding changes without a change of
/// the model (it is part of the fingerprint).
const TABLES_REVISION: &str = "glcmd capture tables 1";

pub fn emit(api: &Api) -> TokenStream {
    let entries = recorded_entries(api);
    let opcodes: Vec<TokenStream> = entries.iter().map(|f| opcode_info(api, f)).collect();
    let n = opcodes.len();
    let fingerprint = Literal::u64_suffixed(fingerprint(api));
    let calls: Vec<(usize, &Function)> = api.functions.iter().enumerate().filter(|(_, f)| replayable_call(f)).collect();
    let arms = calls.iter().map(|(i, f)| call_arm(*i, f));
    let names = calls.iter().map(|(i, f)| {
        let i = *i as u16;
        let name = &f.name;
        // Creates and program interface lookups are set-up: the set-up log keeps them.
        let setup = f.kind == Kind::Create || shadow_hooks::PROGRAM_LOOKUPS.iter().any(|(n, _, _)| *n == f.name);
        quote!(#i => Some((#name, #setup)),)
    });
    let get_error = api.functions.iter().position(|f| f.name == "glGetError").expect("glGetError") as u16;
    quote! {
        #[cfg(feature = "capture-replay")]
        use super::types;
        #[cfg(feature = "capture-replay")]
        use crate::capture::tables::{ArrayField, Cost, Field, Image, Int, Len, NameClass, NameCount, NameField, Opcode};
        #[cfg(feature = "capture-replay")]
        use crate::capture::calls::{self, CallProblem, Decoder, Names, Outcome};
        #[cfg(feature = "capture-replay")]
        use crate::device::Device;
        #[cfg(feature = "capture-replay")]
        use crate::shadow::Class;

        /// Hash of the opcode table, the packet layouts, the argument roles and the call
        /// encoding: a capture records it, and a build with another value refuses the capture.
        pub const FINGERPRINT: u64 = #fingerprint;

        /// The function index of `glGetError`, which `special.rs` records.
        pub const GET_ERROR: u16 = #get_error;

        /// What the capture loader knows about each opcode.
        #[cfg(feature = "capture-replay")]
        pub static OPCODES: [Opcode; #n] = [#(#opcodes),*];

        /// The GL name of a replayable create or query, by its index in the function table, and
        /// whether it is set-up (a create or a program interface lookup).
        pub fn call_info(index: u16) -> Option<(&'static str, bool)> {
            match index {
                #(#names)*
                _ => None,
            }
        }

        /// Decodes a recorded create or query (function `index`, its encoded arguments and
        /// answer), checks or remaps the object names it takes and returns, and, given a device,
        /// runs it there through the typed method and compares the answers.
        #[cfg(feature = "capture-replay")]
        #[allow(unused_mut, clippy::needless_borrow, clippy::let_unit_value)]
        pub(crate) fn call(
            index: u16,
            args: &[u8],
            answer: &[u8],
            names: &mut dyn Names,
            device: Option<&Device>,
        ) -> Result<Outcome, CallProblem> {
            match index {
                #(#arms)*
                _ => Err(CallProblem::UnknownFunction(index)),
            }
        }
    }
}

// ---- opcodes ----------------------------------------------------------------------------

/// Byte offset, size and Rust type of each packet field, by field name.
fn field_offsets(api: &Api, f: &Function) -> HashMap<String, (usize, usize, String)> {
    let mut at = 0;
    let mut out = HashMap::new();
    for field in packet_fields(api, f) {
        out.insert(field.name.to_string(), (at, field.bytes, field.ty.to_string()));
        at += field.bytes;
    }
    out
}

fn is_signed(ty: &str, p: Option<&Param>) -> bool {
    if matches!(ty, "u8" | "u16" | "u32" | "u64" | "usize") {
        return false;
    }
    let base = p.map(|p| p.ty.base.as_str()).unwrap_or("");
    matches!(
        base,
        "GLint"
            | "GLsizei"
            | "GLintptr"
            | "GLsizeiptr"
            | "GLintptrARB"
            | "GLsizeiptrARB"
            | "GLint64"
            | "GLint64EXT"
            | "GLshort"
            | "GLbyte"
            | "GLfixed"
    )
}

/// The `Int` of a packet field.
fn int(fields: &HashMap<String, (usize, usize, String)>, field: &str, p: Option<&Param>) -> TokenStream {
    let (at, size, ty) = fields.get(field).unwrap_or_else(|| panic!("packet field {field}"));
    let (at, size) = (*at as u16, *size as u8);
    let signed = is_signed(ty, p);
    quote!(Int { at: #at, size: #size, signed: #signed })
}

fn int_of(f: &Function, fields: &HashMap<String, (usize, usize, String)>, param: &str) -> TokenStream {
    let p = param_named(f, param);
    int(fields, &param_ident(&p.name), Some(p))
}

fn is_void_array(p: &Param) -> bool {
    p.ty.pointee().base == "void" && p.ty.pointers.len() == 1
}

/// Element size of an array argument, as a const expression.
fn elem_size(p: &Param) -> TokenStream {
    let elem = element_type(p);
    quote!(core::mem::size_of::<#elem>() as u32)
}

/// Why an opcode cannot be replayed from a capture, if it cannot.
fn refusal(f: &Function) -> Option<String> {
    if let Some(reason) = &f.unsafe_reason {
        let first = reason.lines().next().unwrap_or("").trim();
        return Some(format!("its recording method is unsafe ({first})"));
    }
    for p in &f.params {
        if let Some(class) = &p.class {
            if shadow_hooks::class_variant(class).is_none() && p.role != Role::Sync {
                return Some(format!("`{}` names a {class}, an object type glcmd does not track", p.name));
            }
        }
    }
    None
}

fn opcode_info(api: &Api, f: &Function) -> TokenStream {
    let fields = field_offsets(api, f);
    let refused = match refusal(f) {
        Some(r) => quote!(Some(#r)),
        None => quote!(None),
    };
    let mut arrays = Vec::new();
    let mut names = Vec::new();
    for p in &f.params {
        let pid = param_ident(&p.name);
        let pname = p.name.as_str();
        if let Some(array) = array_field(api, f, p, &fields) {
            arrays.push(array);
        }
        // Object names gl.xml gives no class, because the class depends on another argument
        // (as `emit/inspect.rs` knows them).
        let special = match (f.name.as_str(), pname) {
            ("glCopyImageSubData", n @ ("srcName" | "dstName")) => {
                let target = int_of(f, &fields, if n == "srcName" { "srcTarget" } else { "dstTarget" });
                Some(quote!(NameClass::RenderbufferOrTexture(#target)))
            }
            ("glBeginConditionalRender", "id") => Some(quote!(NameClass::Fixed(Class::Query))),
            ("glObjectLabel", "name") => {
                let identifier = int_of(f, &fields, "identifier");
                Some(quote!(NameClass::Identifier(#identifier)))
            }
            _ => None,
        };
        if let Some(class) = special {
            let at = fields[&pid].0 as u16;
            names.push(quote!(NameField { param: #pname, at: #at, class: #class, array: None }));
            continue;
        }
        let Some(variant) = p.class.as_deref().and_then(shadow_hooks::class_variant) else { continue };
        let class = format_ident!("{}", variant);
        match &p.role {
            Role::Value if p.ty.base == "GLuint" => {
                let at = fields[&pid].0 as u16;
                names.push(
                    quote!(NameField { param: #pname, at: #at, class: NameClass::Fixed(Class::#class), array: None }),
                );
            }
            Role::In(rule @ (Rule::Param(_) | Rule::Const(_))) if p.ty.pointee().base == "GLuint" => {
                let at = fields[&pid].0 as u16;
                let count = match rule {
                    Rule::Param(x) => {
                        let c = int_of(f, &fields, x);
                        quote!(NameCount::Field(#c))
                    }
                    Rule::Const(n) => quote!(NameCount::Const(#n)),
                    _ => unreachable!(),
                };
                let nullable = p.nullable;
                names.push(quote! {
                    NameField { param: #pname, at: #at, class: NameClass::Fixed(Class::#class), array: Some((#count, #nullable)) }
                });
            }
            _ => {}
        }
    }
    let links = if shadow_hooks::links_program(f) {
        let program = int_of(f, &fields, "program");
        quote!(Some(#program))
    } else {
        quote!(None)
    };
    let name = &f.name;
    let cost = cost(f, &fields);
    quote! {
        Opcode { function: #name, refused: #refused, arrays: &[#(#arrays),*], names: &[#(#names),*], links: #links, cost: #cost }
    }
}

/// The `Cost` of an opcode (`budget.rs`'s rule, or a delete's).
fn cost(f: &Function, fields: &HashMap<String, (usize, usize, String)>) -> TokenStream {
    use crate::budget::{CostRule, Object, Target};
    if f.kind == Kind::Delete {
        return quote!(Cost::Delete);
    }
    let Some(rule) = crate::budget::rule(&f.name) else { return quote!(Cost::None) };
    let arg = |p: &str| int_of(f, fields, p);
    let opt = |p: Option<&str>| match p {
        Some(p) => {
            let i = arg(p);
            quote!(Some(#i))
        }
        None => quote!(None),
    };
    let class = |o: Object| match o {
        Object::Buffer => quote!(Class::Buffer),
        Object::Texture => quote!(Class::Texture),
        Object::Renderbuffer => quote!(Class::Renderbuffer),
    };
    match rule {
        CostRule::Bind { object, target, name } => {
            let (c, t, n) = (class(object), arg(target), arg(name));
            quote!(Cost::Bind { class: #c, target: #t, name: #n })
        }
        CostRule::Forget { object, target } => {
            let c = class(object);
            let t = match target {
                None => quote!(None),
                Some(Target::Arg(p)) => {
                    let i = arg(p);
                    quote!(Some(Field::Int(#i)))
                }
                Some(Target::Value(v)) => quote!(Some(Field::Value(#v))),
            };
            quote!(Cost::Forget { class: #c, target: #t })
        }
        CostRule::ActiveTexture { unit } => {
            let u = arg(unit);
            quote!(Cost::ActiveTexture { unit: #u })
        }
        CostRule::Buffer { target, buffer, size } => {
            let (t, b, s) = (opt(target), opt(buffer), arg(size));
            quote!(Cost::Buffer { target: #t, buffer: #b, size: #s })
        }
        CostRule::Image { object, target, name, levels, level, format, width, height, depth, samples, bytes } => {
            let c = class(object);
            let (t, n, ls, l, fm) = (opt(target), opt(name), opt(levels), opt(level), opt(format));
            let (w, h, d, s, b) = (arg(width), opt(height), opt(depth), opt(samples), opt(bytes));
            quote! {
                Cost::Image(Image { class: #c, target: #t, name: #n, levels: #ls, level: #l, format: #fm, width: #w, height: #h, depth: #d, samples: #s, bytes: #b })
            }
        }
        CostRule::Draw { count, counts, instances } => {
            let (c, i) = (opt(count), opt(instances));
            let counts = match counts {
                Some(p) => {
                    let param = param_named(f, p);
                    let Role::In(Rule::Param(n)) = &param.role else {
                        panic!("{}: `{p}` is not an array sized by a parameter", f.name)
                    };
                    let at = fields[&param_ident(&param.name)].0 as u16;
                    let n = arg(n);
                    quote!(Some((#at, #n)))
                }
                None => quote!(None),
            };
            quote!(Cost::Draw { count: #c, counts: #counts, instances: #i })
        }
    }
}

/// The `ArrayField` of an array argument (None for scalars and for the length table of a
/// string array, which its strings' entry covers).
fn array_field(
    api: &Api,
    f: &Function,
    p: &Param,
    fields: &HashMap<String, (usize, usize, String)>,
) -> Option<TokenStream> {
    let _ = api;
    let pid = param_ident(&p.name);
    let pname = p.name.as_str();
    let Role::In(rule) = &p.role else { return None };
    let (at, bytes, _) = &fields[&pid];
    let at = *at as u16;
    let wide = *bytes == 8;
    let nullable = p.nullable;
    let len_field = || int(fields, &format!("{pid}_len"), None);
    let len = if p.unpack_offset {
        let Rule::Param(x) = rule else { unreachable!("unpack_offset arrays are sized by a parameter") };
        let (l, equals) = (len_field(), int_of(f, fields, x));
        quote!(Len::Bytes { len: #l, elem: 1, offsets: true, null: false, equals: Some(#equals) })
    } else {
        match rule {
            Rule::Bytes if is_void_array(p) => {
                let (l, offsets, null) = (len_field(), f.redirect.is_some(), p.nullable);
                quote!(Len::Bytes { len: #l, elem: 1, offsets: #offsets, null: #null, equals: None })
            }
            Rule::Bytes => {
                let (l, elem) = (len_field(), elem_size(p));
                quote!(Len::Bytes { len: #l, elem: #elem, offsets: false, null: false, equals: None })
            }
            Rule::Param(x) => {
                let (count, elem) = (int_of(f, fields, x), elem_size(p));
                quote!(Len::Count { count: #count, elem: #elem, div: 1 })
            }
            Rule::Product(x, k) => {
                let (count, elem) = (int_of(f, fields, x), elem_size(p));
                quote!(Len::Count { count: #count, elem: #elem * #k, div: 1 })
            }
            Rule::Quotient(x, d) => {
                let (count, elem) = (int_of(f, fields, x), elem_size(p));
                quote!(Len::Count { count: #count, elem: #elem, div: #d })
            }
            Rule::Const(n) => {
                let elem = elem_size(p);
                quote!(Len::Const { bytes: #elem * #n })
            }
            Rule::Pname { group, param } => {
                let count_fn = format_ident!("count_{}", group.to_lowercase());
                let (pn, elem) = (int_of(f, fields, param), elem_size(p));
                quote!(Len::Pname { pname: #pn, count: super::pname::#count_fn, elem: #elem })
            }
            Rule::String => {
                let length = f.params.iter().find(|q| matches!(&q.role, Role::Length { of } if of.contains(&p.name)));
                match length {
                    Some(l) => {
                        let l = int_of(f, fields, &l.name);
                        quote!(Len::String { length: Some(#l) })
                    }
                    None => quote!(Len::String { length: None }),
                }
            }
            Rule::Strings(count) => {
                let count = int_of(f, fields, count);
                let lengths = f
                    .params
                    .iter()
                    .find(|q| matches!(&q.role, Role::LengthArray { of } if *of == p.name))
                    .map(|q| fields[&param_ident(&q.name)].0 as u16);
                let lengths = match lengths {
                    Some(at) => quote!(Some(#at)),
                    None => quote!(None),
                };
                quote!(Len::Strings { count: #count, lengths: #lengths })
            }
            Rule::One => unreachable!("inputs have no `one` rule"),
        }
    };
    Some(quote!(ArrayField { param: #pname, at: #at, wide: #wide, nullable: #nullable, len: #len }))
}

// ---- calls ------------------------------------------------------------------------------

/// Whether a create or query can be recorded and replayed: safe, no glcmd sync handle (a
/// replay has its own), no process pointer.
pub fn replayable_call(f: &Function) -> bool {
    // `glGetError` is hand-written (`runtime/special.rs`), with the signature a query would have.
    (matches!(f.kind, Kind::Create | Kind::Query) || f.name == "glGetError")
        && !f.is_unsafe()
        && f.params.iter().all(|p| !matches!(p.role, Role::Sync | Role::Opaque))
        && plain_return(f)
}

/// A return value the capture can encode: none, a number, a string or an address.
fn plain_return(f: &Function) -> bool {
    f.ret.is_void()
        || f.ret.is_pointer()
        || matches!(
            f.ret.base.as_str(),
            "GLenum"
                | "GLboolean"
                | "GLbitfield"
                | "GLuint"
                | "GLint"
                | "GLsizei"
                | "GLfloat"
                | "GLdouble"
                | "GLint64"
                | "GLuint64"
                | "GLint64EXT"
                | "GLuint64EXT"
                | "GLintptr"
                | "GLsizeiptr"
                | "GLshort"
                | "GLushort"
                | "GLbyte"
                | "GLubyte"
        )
}

/// One argument of a create or query method, as the capture encodes it.
struct CallArg<'a> {
    param: &'a Param,
    /// The variable holding it inside the round-trip closure and in the method.
    id: proc_macro2::Ident,
    /// The owned type it decodes to.
    owned: TokenStream,
    /// How the decoded value is passed to the typed method.
    borrow: TokenStream,
}

/// The arguments of the typed method, in order (as `emit/device.rs` makes them).
fn call_args(f: &Function) -> Vec<CallArg<'_>> {
    let mut out = Vec::new();
    for (i, p) in f.params.iter().enumerate() {
        let id = ident(p);
        let a = format_ident!("a{}", i);
        let elem = element_type(p);
        let (id, owned, borrow) = match &p.role {
            Role::Value => (id, value_type(p), quote!(#a)),
            Role::Offset => (id, quote!(usize), quote!(#a)),
            Role::In(Rule::String) => (id, quote!(String), quote!(&#a)),
            Role::In(Rule::Strings(_)) => {
                (id, quote!(Vec<String>), quote!(&#a.iter().map(String::as_str).collect::<Vec<&str>>()))
            }
            Role::In(Rule::Const(n)) => {
                let n = *n as usize;
                (id, quote!([#elem; #n]), quote!(&#a))
            }
            Role::In(Rule::Product(_, k)) => {
                let k = *k as usize;
                (id, quote!(Vec<[#elem; #k]>), quote!(&#a))
            }
            Role::In(_) => (id, quote!(Vec<#elem>), quote!(&#a)),
            // Sized on the render thread: no length argument.
            Role::Out(Rule::Bytes) if crate::sizing::sized_by_query(f, p) => continue,
            Role::Out(Rule::Bytes) => (format_ident!("{}_len", param_ident(&p.name)), quote!(usize), quote!(#a)),
            _ => continue,
        };
        out.push(CallArg { param: p, id, owned, borrow });
    }
    out
}

/// Where a [`hook`] is placed: in the round-trip closure (`ctx`, on the render thread, where
/// the arguments are the closure's owned copies), or in a `Device` method that answers without
/// a round trip (`self`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum HookAt {
    RenderThread,
    Method,
}

/// The statement that records a create or query and its answer (the variable `answer`) when
/// capture is on. Empty for functions a capture cannot replay.
pub fn hook(api: &Api, f: &Function, at: HookAt, answer: &proc_macro2::Ident) -> TokenStream {
    if !replayable_call(f) {
        return quote!();
    }
    let index = api.functions.iter().position(|g| g.name == f.name).expect("a function of the api") as u16;
    let ids: Vec<_> = call_args(f).into_iter().map(|a| a.id).collect();
    let w = if ids.is_empty() { format_ident!("_w") } else { format_ident!("w") };
    let target = match at {
        HookAt::RenderThread => quote!(ctx),
        HookAt::Method => quote!(self),
    };
    quote! {
        #target.capture_call(#index, &|#w: &mut crate::capture::wire::Writer| { #(#w.put(&#ids);)* }, &#answer);
    }
}

/// The arm of `call` for one function.
fn call_arm(index: usize, f: &Function) -> TokenStream {
    let index = index as u16;
    let gl_name = &f.name;
    let method = format_ident!("{}", f.method_name());
    let args = call_args(f);
    let mut decode = Vec::new();
    let mut remap = Vec::new();
    let mut borrows = Vec::new();
    for arg in &args {
        let i = f.params.iter().position(|q| std::ptr::eq(q, arg.param)).expect("a parameter");
        let a = format_ident!("a{}", i);
        let owned = &arg.owned;
        let pname = arg.param.name.as_str();
        // Strings: the typed method takes them as `&str` and refuses a NUL inside.
        let getter = match &arg.param.role {
            Role::In(Rule::String) => quote!(d.string(#pname)?),
            Role::In(Rule::Strings(_)) => quote!(d.strings(#pname)?),
            _ => quote!(d.get(#pname)?),
        };
        decode.push(quote!(let mut #a: #owned = #getter;));
        if let Some(variant) = arg.param.class.as_deref().and_then(shadow_hooks::class_variant) {
            let class = format_ident!("{}", variant);
            match &arg.param.role {
                Role::Value if arg.param.ty.base == "GLuint" => {
                    remap.push(quote!(#a = names.map(Class::#class, #a, #pname)?;));
                }
                Role::In(Rule::Param(_)) if arg.param.ty.pointee().base == "GLuint" => {
                    remap.push(quote!(for x in #a.iter_mut() { *x = names.map(Class::#class, *x, #pname)?; }));
                }
                _ => {}
            }
        }
        borrows.push(arg.borrow.clone());
    }
    // What a create returns: one name (`glCreateShader`) or an array of them (`glGen*`).
    let outs: Vec<&Param> = f.params.iter().filter(|p| matches!(p.role, Role::Out(_))).collect();
    let created = if f.kind != Kind::Create {
        None
    } else if let (Some(class), true) = (&f.ret_class, outs.is_empty()) {
        shadow_hooks::class_variant(class)
    } else if let ([out], true) = (outs.as_slice(), f.ret.is_void()) {
        out.class
            .as_deref()
            .and_then(shadow_hooks::class_variant)
            .filter(|_| matches!(out.role, Role::Out(Rule::Param(_))))
    } else {
        None
    };
    let run = match created {
        Some(variant) => {
            let class = format_ident!("{}", variant);
            // How many names it asks for: the count of its output array (one name otherwise).
            let count = match outs.as_slice() {
                [out] => match &out.role {
                    Role::Out(Rule::Param(n)) => {
                        let i = f.params.iter().position(|q| q.name == *n).expect("the count parameter");
                        let a = format_ident!("a{}", i);
                        quote!(Some((#n, #a as i64)))
                    }
                    _ => quote!(None),
                },
                _ => quote!(None),
            };
            let target = match f.params.iter().position(|q| q.name == "target") {
                Some(i) => {
                    let a = format_ident!("a{}", i);
                    quote!(Some(#a as u32))
                }
                None => quote!(None),
            };
            quote! {
                calls::create(#gl_name, Class::#class, calls::Asked { count: #count, target: #target }, &call, answer, names, device)
            }
        }
        None => quote!(calls::query(#gl_name, &call, answer, device)),
    };
    quote! {
        #index => {
            let mut d = Decoder::new(args);
            #(#decode)*
            d.finish()?;
            #(#remap)*
            let call = |device: &Device| device.#method(#(#borrows),*);
            #run
        }
    }
}

// ---- fingerprint -------------------------------------------------------------------------

/// FNV-1a over a description of every opcode's packet and arguments and every replayable
/// call's argument encoding.
pub fn fingerprint(api: &Api) -> u64 {
    let mut text = String::from(TABLES_REVISION);
    text.push('\n');
    for (op, f) in recorded_entries(api).iter().enumerate() {
        text.push_str(&format!("{op} {} {:?} refused={}\n", f.name, f.variant, refusal(f).is_some()));
        for field in packet_fields(api, f) {
            text.push_str(&format!("  field {} {} {}\n", field.name, field.ty, field.bytes));
        }
        for p in &f.params {
            text.push_str(&format!(
                "  param {} {} {:?} {:?} {} {}\n",
                p.name, p.ty.base, p.role, p.class, p.nullable, p.unpack_offset
            ));
        }
    }
    for (i, f) in api.functions.iter().enumerate().filter(|(_, f)| replayable_call(f)) {
        text.push_str(&format!("call {i} {} {}\n", f.name, f.method_name()));
        for a in call_args(f) {
            text.push_str(&format!("  arg {} {}\n", a.id, a.owned));
        }
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}
