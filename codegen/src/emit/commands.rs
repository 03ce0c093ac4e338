//! Recorded functions: for each one a packet struct, a `CommandList` recording method and an
//! execute function, then the opcode-indexed tables `EXECUTE`, `SLOTS` and `NAMES`.
//!
//! Packet layout: `#[repr(C, packed)]`, the `u16` opcode first, then the arguments in GL order.
//! A `GLenum` whose gl.xml group has only values below 0xFFFF is packed to 16 bits (as Mesa's
//! glthread does); booleans take one byte; an array is a `u32` byte offset into the parameter
//! buffer. So `glBindTexture` is 2 + 2 + 4 = 8 bytes, one slot.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{
    doc, doc_brief, element_type, enum_fits_u16, ident, is_bool, is_untyped, param_named, rust_type, value_type,
};
use crate::model::{Api, Function, Kind, Param, Role, Rule};
use crate::naming::param_ident;
use crate::shadow_hooks::{self, AttribKind, Hook};
use crate::sizing::Sizing;

/// Whether a function gets an opcode.
pub fn is_recorded(f: &Function) -> bool {
    matches!(f.kind, Kind::Record | Kind::Delete) || f.name == "glFenceSync" || f.name == "glClientWaitSync"
}

/// One packet field: name and type.
pub(crate) struct Field {
    pub(crate) name: proc_macro2::Ident,
    pub(crate) ty: TokenStream,
    pub(crate) bytes: usize,
}

/// The packet's fields in order (the capture tables compute field offsets from them).
pub(crate) fn packet_fields(api: &Api, f: &Function) -> Vec<Field> {
    let mut fields = vec![Field { name: format_ident!("op"), ty: quote!(u16), bytes: 2 }];
    for p in &f.params {
        let name = ident(p);
        let (ty, bytes) = match &p.role {
            // A length taken from a slice fits 32 bits (a list's parameter buffer is limited
            // to 4 GiB), so a `GLsizeiptr` length is stored in 4 bytes, not 8.
            Role::Length { .. } if narrowed_length(p) => (quote!(u32), 4),
            Role::Value | Role::Length { .. } => scalar_storage(api, p),
            Role::Sync => (quote!(u32), 4),
            Role::In(_) if p.unpack_offset => {
                fields.push(Field { name: format_ident!("{}_len", param_ident(&p.name)), ty: quote!(u32), bytes: 4 });
                (quote!(u64), 8)
            }
            Role::In(Rule::Bytes) if is_void_array(p) => {
                fields.push(Field { name: format_ident!("{}_len", param_ident(&p.name)), ty: quote!(u32), bytes: 4 });
                (quote!(u64), 8)
            }
            Role::In(Rule::Bytes) => {
                fields.push(Field { name: format_ident!("{}_len", param_ident(&p.name)), ty: quote!(u32), bytes: 4 });
                (quote!(u32), 4)
            }
            Role::In(_) | Role::LengthArray { .. } => (quote!(u32), 4),
            Role::Offset | Role::Opaque => (quote!(usize), 8),
            Role::Out(_) | Role::OutLength { .. } => unreachable!("recorded functions have no outputs"),
        };
        fields.push(Field { name, ty, bytes });
    }
    if f.name == "glFenceSync" {
        fields.push(Field { name: format_ident!("sync"), ty: quote!(u32), bytes: 4 });
    }
    fields
}

/// A buffer offset or size argument (`GLintptr`, `GLsizeiptr`) passed as a value.
pub fn is_range(p: &Param) -> bool {
    !p.ty.is_pointer()
        && matches!(p.role, Role::Value | Role::Length { .. })
        && matches!(p.ty.base.as_str(), "GLintptr" | "GLsizeiptr" | "GLintptrARB" | "GLsizeiptrARB")
}

/// Whether a slice-derived length of a pointer-sized type is stored in 32 bits.
fn narrowed_length(p: &Param) -> bool {
    matches!(p.role, Role::Length { .. })
        && matches!(p.ty.base.as_str(), "GLsizeiptr" | "GLsizeiptrARB" | "GLintptr" | "GLintptrARB")
}

fn is_void_array(p: &Param) -> bool {
    p.ty.pointee().base == "void" && p.ty.pointers.len() == 1
}

fn is_packed_enum(api: &Api, p: &Param) -> bool {
    p.ty.base == "GLenum" && !p.ty.is_pointer() && matches!(p.role, Role::Value) && enum_fits_u16(api, p)
}

fn scalar_storage(api: &Api, p: &Param) -> (TokenStream, usize) {
    if is_packed_enum(api, p) {
        return (quote!(u16), 2);
    }
    let bytes = match p.ty.base.as_str() {
        "GLboolean" | "GLubyte" | "GLbyte" | "GLchar" => 1,
        "GLshort" | "GLushort" | "GLhalf" | "GLhalfNV" => 2,
        "GLdouble" | "GLclampd" | "GLint64" | "GLuint64" | "GLint64EXT" | "GLuint64EXT" | "GLintptr" | "GLsizeiptr"
        | "GLintptrARB" | "GLsizeiptrARB" | "GLhandleARB" => 8,
        _ => 4,
    };
    (rust_type(&p.ty), bytes)
}

/// Size in bytes of the packet of a recorded function (for `list` and the docs).
pub fn packet_bytes(api: &Api, f: &Function) -> usize {
    packet_fields(api, f).iter().map(|f| f.bytes).sum()
}

/// Queries that read pixels into client memory also get a recorded variant that writes into the
/// buffer bound to `GL_PIXEL_PACK_BUFFER` at a `usize` offset: `read_pixels_to_buffer`.
pub fn pack_buffer_variants(api: &Api) -> Vec<Function> {
    api.functions
        .iter()
        .filter(|f| {
            f.kind == Kind::Query
                && f.ret.is_void()
                && (f.name.contains("Image") || f.name.contains("ReadPixels") || f.name.contains("ReadnPixels"))
        })
        .filter(|f| {
            let outs: Vec<&Param> = f.params.iter().filter(|p| matches!(p.role, Role::Out(_))).collect();
            outs.len() == 1 && is_void_array(outs[0])
        })
        .map(|f| {
            let mut g = f.clone();
            g.kind = Kind::Record;
            g.variant = Some("to_buffer");
            g.unsafe_reason = None;
            for p in &mut g.params {
                if matches!(p.role, Role::Out(_)) {
                    p.role = Role::Offset;
                }
            }
            g
        })
        .collect()
}

/// Every entry with an opcode, in opcode order: recorded functions, then pack-buffer variants.
pub fn recorded_entries(api: &Api) -> Vec<Function> {
    let mut v: Vec<Function> = api.functions.iter().filter(|f| is_recorded(f)).cloned().collect();
    v.extend(pack_buffer_variants(api));
    v
}

pub fn emit(api: &Api) -> TokenStream {
    let entries = recorded_entries(api);
    let recorded: Vec<&Function> = entries.iter().collect();
    let mut items = Vec::new();
    let mut methods = Vec::new();
    let mut execs = Vec::new();
    let mut slots = Vec::new();
    let mut names = Vec::new();
    for (opcode, f) in recorded.iter().enumerate() {
        let opcode = opcode as u16;
        let packet = format_ident!("{}Packet", f.type_name());
        let exec = format_ident!("exec_{}", f.method_name());
        items.push(packet_struct(api, f, &packet, opcode));
        methods.push(record_method(api, f, &packet));
        execs.push(exec_fn(api, f, &packet, &exec));
        slots.push(quote!(<#packet as Packet>::SLOTS as u8));
        let name = &f.name;
        names.push(quote!(#name));
    }
    let n = recorded.len();
    let exec_names = recorded.iter().map(|f| format_ident!("exec_{}", f.method_name()));
    let arms = recorded.iter().enumerate().map(|(op, f)| {
        let op = op as u16;
        let exec = format_ident!("exec_{}", f.method_name());
        let packet = format_ident!("{}Packet", f.type_name());
        quote!(#op => { unsafe { #exec(r, p) }; <#packet as Packet>::SLOTS })
    });
    quote! {
        use super::types;
        use super::pname::{self, Count};
        use crate::arguments;
        use crate::list::CommandList;
        use crate::packet::Packet;
        use crate::replay::{ExecuteFn, Replayer};
        use crate::shadow::{AttribKind, Class, Target};

        #(#items)*

        /// Recording methods, one per recorded GL function. Each copies its arrays into the
        /// parameter buffer and writes one packet; none touches the GL.
        impl CommandList {
            #(#methods)*
        }

        #(#execs)*

        /// Runs the packet at `p` and returns its size in slots: a `match` on the opcode, which
        /// compiles to one jump table with the execute functions inlined into its arms (one
        /// indirect jump per command instead of an indirect call, its return and a size lookup).
        ///
        /// # Safety
        /// As for the functions of `EXECUTE`.
        #[inline(always)]
        pub unsafe fn dispatch(r: &mut Replayer<'_>, p: *const u64) -> usize {
            match unsafe { p.cast::<u16>().read() } {
                #(#arms,)*
                // SAFETY: every packet starts with an opcode below OPCODE_COUNT.
                _ => unsafe { std::hint::unreachable_unchecked() },
            }
        }

        /// Number of opcodes.
        pub const OPCODE_COUNT: usize = #n;
        /// Execute function of each opcode.
        pub static EXECUTE: [ExecuteFn; #n] = [#(#exec_names),*];
        /// Packet size of each opcode, in 8-byte slots.
        pub static SLOTS: [u8; #n] = [#(#slots),*];
        /// GL function name of each opcode.
        pub static NAMES: [&str; #n] = [#(#names),*];
    }
}

fn packet_struct(api: &Api, f: &Function, packet: &proc_macro2::Ident, opcode: u16) -> TokenStream {
    let fields = packet_fields(api, f);
    let field_defs = fields.iter().map(|Field { name, ty, .. }| quote!(pub(crate) #name: #ty));
    let bytes: usize = fields.iter().map(|f| f.bytes).sum();
    let pdoc = doc_brief(f, &format!("packet, opcode {opcode}, {bytes} bytes ({} slot(s))", bytes.div_ceil(8)));
    quote! {
        #pdoc
        #[repr(C, packed)]
        #[derive(Clone, Copy)]
        pub struct #packet { #(#field_defs),* }
        // SAFETY: repr(C, packed), starts with the u16 opcode, plain integer fields only.
        unsafe impl Packet for #packet { const OPCODE: u16 = #opcode; }
    }
}

/// Everything generated for one recorded function (packet, method, execute function), for
/// snapshot tests and review.
pub fn function_items(api: &Api, f: &Function) -> Option<TokenStream> {
    let opcode = recorded_entries(api).iter().position(|g| g.name == f.name && g.variant == f.variant)? as u16;
    let packet = format_ident!("{}Packet", f.type_name());
    let exec = format_ident!("exec_{}", f.method_name());
    let item = packet_struct(api, f, &packet, opcode);
    let method = record_method(api, f, &packet);
    let exec = exec_fn(api, f, &packet, &exec);
    Some(quote! { #item impl CommandList { #method } #exec })
}

/// The `CommandList` method of a recorded function.
fn record_method(api: &Api, f: &Function, packet: &proc_macro2::Ident) -> TokenStream {
    let method = format_ident!("{}", f.method_name());
    let RecordParts { args, casts, mut lengths, prelude, inits } = record_parts(api, f);
    let docs = doc(f, "records one packet");
    let unsafety = if f.is_unsafe() { quote!(unsafe) } else { quote!() };
    let from_slice = from_slice_method(f);
    // `impl Into<Bytes<'_>>` is not stable in argument position: the lifetime is named.
    let generics = if args.iter().any(|a| a.to_string().contains("Bytes < 'b >")) { quote!(<'b>) } else { quote!() };
    if shadow_hooks::links_program(f) {
        let program = ident(param_named(f, "program"));
        lengths.insert(0, quote!(self.note_link(#program);));
    }
    if shadow_hooks::deletes_program(f) {
        let program = ident(param_named(f, "program"));
        lengths.insert(0, quote!(self.note_program_delete(#program);));
    }
    if let Some(track) = pixel_tracking(f) {
        lengths.insert(0, track);
    }
    if let Some(track) = answer_tracking(f) {
        lengths.insert(0, track);
    }
    if let Some(track) = state_tracking(f) {
        lengths.insert(0, track);
    }
    if f.name == "glFenceSync" {
        return quote! {
            #docs
            /// Returns the handle of the fence; it becomes a GL sync object when the list replays.
            /// A fence the GL refuses (a condition or flags it does not accept) returns the null
            /// handle, as the GL returns 0; it is recorded, so the GL raises its error in order.
            #[track_caller]
            #[inline]
            pub fn #method(&mut self, #(#args),*) -> crate::SyncHandle {
                #(#casts)*
                #(#lengths)*
                #(#prelude)*
                let sync = crate::SyncHandle::for_fence(condition, flags);
                self.push_packet(#packet { op: <#packet as Packet>::OPCODE, #(#inits,)* sync: sync.id() });
                sync
            }
        };
    }
    quote! {
        #docs
        #[track_caller]
        #[inline]
        pub #unsafety fn #method #generics(&mut self, #(#args),*) {
            #(#casts)*
            #(#lengths)*
            #(#prelude)*
            self.push_packet(#packet { op: <#packet as Packet>::OPCODE, #(#inits),* });
        }
        #from_slice
    }
}

/// What the list's pixel-state tracking (`runtime/pixel_args.rs`) must see of a recorded call:
/// pixel-store changes, pixel-buffer bindings and the deletes that unbind them, and the reset of
/// the pixel-store state.
fn pixel_tracking(f: &Function) -> Option<TokenStream> {
    let name = &f.name;
    let p = |n: &str| f.params.iter().find(|q| q.name == n).map(ident);
    match name.as_str() {
        "glPixelStorei" | "glPixelStoref" => {
            let (pname, param) = (p("pname")?, p("param")?);
            Some(quote!(self.track_pixel_store(#name, #pname, #param as f64);))
        }
        "glBindBuffer" | "glBindBufferARB" => {
            let (target, buffer) = (p("target")?, p("buffer")?);
            Some(quote!(self.track_bind_buffer(#target, #buffer);))
        }
        "glDeleteBuffers" | "glDeleteBuffersARB" => {
            let buffers = p("buffers")?;
            Some(quote!(self.track_delete_buffers(#buffers);))
        }
        "glClientAttribDefaultEXT" | "glPushClientAttribDefaultEXT" => {
            let mask = p("mask")?;
            Some(quote!(self.track_client_defaults(#mask);))
        }
        _ => None,
    }
}

/// What the device's known answers (`runtime/known_answers.rs`) must see of a recorded call:
/// touches of query objects and deletes of syncs, before the GL sees them.
fn answer_tracking(f: &Function) -> Option<TokenStream> {
    let p = |n: &str| f.params.iter().find(|q| q.name == n).map(ident);
    match f.name.as_str() {
        "glBeginQuery" | "glBeginQueryIndexed" | "glQueryCounter" => {
            let id = p("id")?;
            Some(quote!(self.track_query_touches(&[#id]);))
        }
        "glDeleteQueries" => {
            let ids = p("ids")?;
            Some(quote!(self.track_query_touches(#ids);))
        }
        "glDeleteSync" => {
            let sync = p("sync")?;
            Some(quote!(self.track_delete_sync(#sync);))
        }
        _ => None,
    }
}

/// What the device's recorded-state shadow (`runtime/recorded_state.rs`) must see of a recorded
/// call (`state_calls.rs` says which kind each function is): the modelled setter's
/// `state_<method>`, or forgetting everything.
fn state_tracking(f: &Function) -> Option<TokenStream> {
    match crate::state_calls::effect(&f.name) {
        crate::state_calls::StateEffect::Unchanged => None,
        crate::state_calls::StateEffect::ForgetsAll => Some(quote!(if self.state_live() {
            self.state_forget_all();
        })),
        crate::state_calls::StateEffect::Modelled => {
            let method = format_ident!("state_{}", f.method_name());
            let args: Vec<_> = f
                .params
                .iter()
                .filter(|p| matches!(p.role, Role::Value) || (f.name == "glDeleteBuffers" && p.name == "buffers"))
                .map(ident)
                .collect();
            // The check inline, the tracking out of line: a list whose device's shadow is off
            // (or that has none) pays two loads and a branch.
            Some(quote!(if self.state_live() {
                self.#method(#(#args),*);
            }))
        }
    }
}

/// What a recording method's parameters contribute, each list in the order the method uses it.
#[derive(Default)]
struct RecordParts {
    /// The method's parameters.
    args: Vec<TokenStream>,
    /// Typed slices become bytes first, so that lengths taken from them count bytes.
    casts: Vec<TokenStream>,
    /// Length arguments taken from slices, before the arrays are copied (which rebinds their
    /// names to offsets).
    lengths: Vec<TokenStream>,
    /// Checks of the arrays and their copies into the parameter buffer.
    prelude: Vec<TokenStream>,
    /// The packet's field initialisers.
    inits: Vec<TokenStream>,
}

impl RecordParts {
    /// The type of a slice argument: untyped memory (`const void *`) takes any plain data,
    /// cast to bytes before anything else.
    fn slice_arg(&mut self, p: &Param, slice_ty: TokenStream) -> TokenStream {
        if is_untyped(p) {
            let id = ident(p);
            self.casts.push(quote!(let #id: &[u8] = bytemuck::cast_slice(#id);));
            quote!(&[impl bytemuck::NoUninit])
        } else {
            slice_ty
        }
    }
}

/// The parts of every parameter of a recorded function.
fn record_parts(api: &Api, f: &Function) -> RecordParts {
    let mut parts = RecordParts::default();
    for p in &f.params {
        match &p.role {
            Role::In(rule) if p.unpack_offset => unpack_offset_parts(f, p, rule, &mut parts),
            Role::In(rule @ (Rule::Param(x) | Rule::Product(x, _)))
                if p.nullable || matches!(param_named(f, x).role, Role::Value) =>
            {
                counted_slice_parts(f, p, rule, x, &mut parts)
            }
            Role::In(rule) => in_slice_parts(f, p, rule, &mut parts),
            Role::Out(_) | Role::OutLength { .. } => unreachable!(),
            _ => scalar_record_parts(api, f, p, &mut parts),
        }
    }
    parts
}

/// The parts of a parameter that is no array: values, syncs, lengths taken from slices,
/// offsets and opaque pointers.
fn scalar_record_parts(api: &Api, f: &Function, p: &Param, parts: &mut RecordParts) {
    let id = ident(p);
    let gl_name = &f.name;
    match &p.role {
        Role::Value => {
            let ty = value_type(p);
            parts.args.push(quote!(#id: #ty));
            if is_packed_enum(api, p) {
                parts.inits.push(quote!(#id: arguments::pack_enum(#id)));
            } else if is_bool(p) {
                parts.inits.push(quote!(#id: #id as types::GLboolean));
            } else {
                parts.inits.push(quote!(#id));
            }
        }
        Role::Sync => {
            parts.args.push(quote!(#id: crate::SyncHandle));
            parts.inits.push(quote!(#id: #id.id()));
        }
        Role::Length { of } => {
            let lens: Vec<TokenStream> = of
                .iter()
                .map(|o| {
                    let a = ident(param_named(f, o));
                    quote!((#o, #a.len()))
                })
                .collect();
            let n = if lens.len() == 1 {
                let a = ident(param_named(f, &of[0]));
                quote!(#a.len())
            } else {
                let count = &p.name;
                quote!(arguments::same_len(#gl_name, #count, &[#(#lens),*]))
            };
            let first = &of[0];
            let conv = length_conversion(p, n, gl_name, first);
            parts.lengths.push(quote!(let #id = #conv;));
            if narrowed_length(p) {
                parts.inits.push(quote!(#id: #id as u32));
            } else {
                parts.inits.push(quote!(#id));
            }
        }
        // Filled together with its strings (`in_slice_parts`); the offset is bound there.
        Role::LengthArray { .. } => parts.inits.push(quote!(#id)),
        Role::Offset | Role::Opaque => {
            parts.args.push(quote!(#id: usize));
            parts.inits.push(quote!(#id));
        }
        Role::In(_) | Role::Out(_) | Role::OutLength { .. } => unreachable!("arrays have their own parts"),
    }
}

/// An input array that may instead be an offset into the bound pixel-unpack buffer: bytes or
/// an offset (`crate::Bytes`), a slice checked against its size argument.
fn unpack_offset_parts(f: &Function, p: &Param, rule: &Rule, parts: &mut RecordParts) {
    let (id, arg_name, gl_name) = (ident(p), p.name.as_str(), &f.name);
    let Rule::Param(x) = rule else { unreachable!("unpack_offset arrays are sized by a parameter") };
    let x_id = ident(param_named(f, x));
    let len_id = format_ident!("{}_len", param_ident(&p.name));
    let none = p.nullable;
    parts.args.push(quote!(#id: impl Into<crate::Bytes<'b>>));
    parts.prelude.push(quote! {
        let #id: crate::Bytes<'b> = #id.into();
        if let crate::Bytes::Slice(s) = #id {
            arguments::check_len(#gl_name, #arg_name, s.len(), #x_id as i64, #x);
        }
        let (#id, #len_id) = self.push_bytes_arg(#id.into(), #gl_name, #arg_name, true, #none);
    });
    parts.inits.push(quote!(#len_id));
    parts.inits.push(quote!(#id));
}

/// An input array whose count is an argument (`x`): the slice is checked against it.
fn counted_slice_parts(f: &Function, p: &Param, rule: &Rule, x: &str, parts: &mut RecordParts) {
    let (id, arg_name, gl_name) = (ident(p), p.name.as_str(), &f.name);
    let elem = element_type(p);
    let x_id = ident(param_named(f, x));
    let slice_ty = match rule {
        Rule::Product(_, k) => {
            let k = *k as usize;
            quote!(&[[#elem; #k]])
        }
        _ => quote!(&[#elem]),
    };
    let check = quote!(arguments::check_len(#gl_name, #arg_name, s.len(), #x_id as i64, #x););
    if p.nullable {
        // Bytes, not a generic slice: `None` must not need a type annotation. The
        // `_from_slice` form takes typed data.
        parts.args.push(quote!(#id: Option<#slice_ty>));
        parts.prelude.push(quote! {
            let #id = match #id {
                Some(s) => { #check self.push_slice(s) }
                None => u32::MAX,
            };
        });
    } else {
        let slice_ty = if matches!(rule, Rule::Param(_)) { parts.slice_arg(p, slice_ty) } else { slice_ty };
        parts.args.push(quote!(#id: #slice_ty));
        parts.prelude.push(quote! {
            let #id = { let s = #id; #check self.push_slice(s) };
        });
    }
    parts.inits.push(quote!(#id));
}

/// Any other input array, copied into the parameter buffer after the check its rule allows.
fn in_slice_parts(f: &Function, p: &Param, rule: &Rule, parts: &mut RecordParts) {
    let (id, arg_name, gl_name) = (ident(p), p.name.as_str(), &f.name);
    let elem = element_type(p);
    match rule {
        Rule::Param(_) => {
            let slice_ty = parts.slice_arg(p, quote!(&[#elem]));
            parts.args.push(quote!(#id: #slice_ty));
            parts.prelude.push(quote!(let #id = self.push_slice(#id);));
        }
        Rule::Const(n) => {
            let n = *n as usize;
            parts.args.push(quote!(#id: &[#elem; #n]));
            parts.prelude.push(quote!(let #id = self.push_slice(#id);));
        }
        Rule::Product(_, k) => {
            let k = *k as usize;
            parts.args.push(quote!(#id: &[[#elem; #k]]));
            parts.prelude.push(quote!(let #id = self.push_slice(#id);));
        }
        Rule::Quotient(x, d) => {
            parts.args.push(quote!(#id: &[#elem]));
            let x_id = ident(param_named(f, x));
            let rule = format!("{x}/{d}");
            parts.prelude.push(quote! {
                arguments::check_len(#gl_name, #arg_name, #id.len(), (#x_id as i64) / #d as i64, #rule);
                let #id = self.push_slice(#id);
            });
        }
        Rule::Pname { group, param } => {
            parts.args.push(quote!(#id: &[#elem]));
            let count_fn = format_ident!("count_{}", group.to_lowercase());
            let pn = ident(param_named(f, param));
            parts.prelude.push(quote! {
                let needed = match pname::#count_fn(#pn) { Some(Count::Fixed(n)) => Some(n), _ => None };
                arguments::check_pname_len(#gl_name, #arg_name, #id.len(), needed, #pn);
                // A pname the tables do not know: pad so the GL cannot read past the copy.
                let #id = self.push_slice_padded(#id, if needed.is_some() { 0 } else { 16 });
            });
        }
        Rule::Bytes => bytes_parts(f, p, parts),
        Rule::String => {
            parts.args.push(quote!(#id: &str));
            // With a length argument the GL reads exactly that many bytes.
            let has_length = f.params.iter().any(|q| matches!(&q.role, Role::Length { of } if of.contains(&p.name)));
            let nul_terminated = !has_length;
            parts.prelude.push(quote!(let #id = self.push_str(#gl_name, #arg_name, #id, #nul_terminated);));
        }
        Rule::Strings(_) => {
            parts.args.push(quote!(#id: &[&str]));
            let lengths = f
                .params
                .iter()
                .find(|q| matches!(&q.role, Role::LengthArray { of } if *of == p.name))
                .map(ident)
                .unwrap_or_else(|| format_ident!("_lengths"));
            parts.prelude.push(quote!(let (#id, #lengths) = self.push_strs(#gl_name, #arg_name, #id);));
        }
        Rule::One => unreachable!("inputs have no `one` rule"),
    }
    parts.inits.push(quote!(#id));
}

/// An input array of bytes whose length the packet carries: `void` data takes bytes or an
/// offset (`crate::Bytes`), a typed one a slice.
fn bytes_parts(f: &Function, p: &Param, parts: &mut RecordParts) {
    let (id, arg_name, gl_name) = (ident(p), p.name.as_str(), &f.name);
    let len_id = format_ident!("{}_len", param_ident(&p.name));
    if is_void_array(p) {
        parts.args.push(quote!(#id: impl Into<crate::Bytes<'b>>));
        // An offset means something only where a buffer binding redirects the
        // pointer (pixel unpack); `Bytes::None` only where the GL accepts null.
        let offsets = f.redirect.is_some();
        let none = p.nullable;
        let push = match crate::sizing::sizing(f, p) {
            // Sized from the list's own pixel-store state (`runtime/pixel_args.rs`).
            Some(Sizing::UnpackImage { dims }) if crate::sizing::sized_by_recording(f, p) => {
                let dim = |n: &str| match f.params.iter().find(|q| q.name == n) {
                    Some(q) => {
                        let v = ident(q);
                        quote!(#v as i64)
                    }
                    None => quote!(1),
                };
                let (w, h, d) = (dim("width"), dim("height"), dim("depth"));
                let (format, type_) = (ident(param_named(f, "format")), ident(param_named(f, "type")));
                quote! {
                    let (image_format, image_type) = (#format, #type_);
                    let image = crate::pixels::Image {
                        dims: #dims, width: #w, height: #h, depth: #d, format: image_format, type_: image_type,
                    };
                    let (#id, #len_id) = self.push_pixels_arg(#id.into(), #gl_name, #arg_name, image, #none);
                }
            }
            Some(Sizing::Texel) if crate::sizing::sized_by_recording(f, p) => {
                let (format, type_) = (ident(param_named(f, "format")), ident(param_named(f, "type")));
                quote! {
                    let (#id, #len_id) = self.push_texel_arg(#id.into(), #gl_name, #arg_name, #format, #type_);
                }
            }
            _ => quote! {
                let (#id, #len_id) = self.push_bytes_arg(#id.into(), #gl_name, #arg_name, #offsets, #none);
            },
        };
        parts.prelude.push(push);
    } else {
        let elem = element_type(p);
        let slice_ty = parts.slice_arg(p, quote!(&[#elem]));
        parts.args.push(quote!(#id: #slice_ty));
        parts.prelude.push(quote! {
            let #len_id = arguments::count_i32(#id.len(), #gl_name, #arg_name) as u32;
            let #id = self.push_slice(#id);
        });
    }
    parts.inits.push(quote!(#len_id));
}

/// The data and size parameters of a buffer upload that has a `_from_slice` form.
pub fn from_slice_params(f: &Function) -> Option<(&Param, &Param)> {
    if !is_recorded(f) {
        return None;
    }
    f.params.iter().find_map(|p| match &p.role {
        Role::In(Rule::Param(x)) if p.nullable && is_untyped(p) && matches!(param_named(f, x).role, Role::Value) => {
            Some((p, param_named(f, x)))
        }
        _ => None,
    })
}

/// The form of a buffer upload that takes its size from the slice
/// (`named_buffer_storage_from_slice`): for a nullable untyped array sized by a value argument.
fn from_slice_method(f: &Function) -> TokenStream {
    let Some((data, size)) = from_slice_params(f) else {
        return quote!();
    };
    let method = format_ident!("{}", f.method_name());
    let from_slice = format_ident!("{}_from_slice", f.method_name());
    let gl_name = &f.name;
    let data_name = data.name.as_str();
    let (data_id, size_id) = (ident(data), ident(size));
    let conv = length_conversion(size, quote!(#data_id.len()), gl_name, data_name);
    let args = f.params.iter().filter(|p| p.name != size.name).map(|p| {
        let id = ident(p);
        if p.name == data.name {
            quote!(#id: &[impl bytemuck::NoUninit])
        } else {
            let ty = value_type(p);
            quote!(#id: #ty)
        }
    });
    let call = f.params.iter().map(|p| {
        let id = ident(p);
        if p.name == data.name {
            quote!(Some(#id))
        } else {
            quote!(#id)
        }
    });
    let unsafety = if f.is_unsafe() { quote!(unsafe) } else { quote!() };
    let doc = format!(
        " `{gl_name}` with `{}` taken from the length in bytes of `{data_name}`: [`{}`](Self::{method}) \
         with `Some({data_name})`.",
        param_ident(&size.name),
        f.method_name()
    );
    let body = quote! {
        let #data_id: &[u8] = bytemuck::cast_slice(#data_id);
        let #size_id = #conv;
        self.#method(#(#call),*)
    };
    let body = if f.is_unsafe() { quote!(unsafe { #body }) } else { body };
    quote! {
        #[doc = #doc]
        #[track_caller]
        #[inline]
        pub #unsafety fn #from_slice(&mut self, #(#args),*) {
            #body
        }
    }
}

/// Converts a slice length to the C type of the count argument.
fn length_conversion(p: &Param, n: TokenStream, gl_name: &str, array: &str) -> TokenStream {
    match p.ty.base.as_str() {
        "GLsizei" | "GLint" => quote!(arguments::count_i32(#n, #gl_name, #array)),
        "GLuint" => quote!(arguments::count_i32(#n, #gl_name, #array) as u32),
        "GLsizeiptr" | "GLintptr" | "GLsizeiptrARB" | "GLintptrARB" => quote!(arguments::count_isize(#n)),
        "GLint64" | "GLint64EXT" => quote!((#n) as i64),
        _ => quote!((#n) as _),
    }
}

/// The execute function of a recorded function: unpacks the packet, runs the binding-shadow
/// checks (which may skip the call, see `runtime/shadow.rs`), calls the GL, and updates the
/// shadow.
/// The parts of a plain draw's two execute functions.
struct FastDraw<'a> {
    edoc: TokenStream,
    exec: &'a proc_macro2::Ident,
    packet: &'a proc_macro2::Ident,
    fits: TokenStream,
    lets: &'a [TokenStream],
    body: TokenStream,
    pre: TokenStream,
    post: TokenStream,
}

/// The hot draws: the cached check alone, then a tail call into the GL; anything else (a check
/// to make, a refusal to report) in a cold function of its own, so that the first stays small
/// enough for the replay loop to inline.
fn fast_draw_exec(d: FastDraw<'_>) -> TokenStream {
    let FastDraw { edoc, exec, packet, fits, lets, body, pre, post } = d;
    let checked = format_ident!("{}_checked", exec);
    quote! {
        #edoc
        #[allow(unused_variables)]
        #[inline]
        unsafe fn #exec(r: &mut Replayer<'_>, p: *const u64) {
            // SAFETY: as in the checked form below.
            let c = unsafe { p.cast::<#packet>().read_unaligned() };
            #(#lets)*
            if r.shadow().#fits {
                let gl = r.gl;
                // SAFETY: as in the checked form; the shadow's cached check passed.
                unsafe { #body }
                return;
            }
            // SAFETY: the same packet.
            unsafe { #checked(r, p) }
        }
        /// The same call with every check made (the fast path's cache could not answer).
        #[allow(unused_variables)]
        #[cold]
        #[inline(never)]
        unsafe fn #checked(r: &mut Replayer<'_>, p: *const u64) {
            // SAFETY: the opcode of the packet at `p` selected this function, so `p` holds a
            // #packet written by the recording method above.
            let c = unsafe { p.cast::<#packet>().read_unaligned() };
            #(#lets)*
            let gl = r.gl;
            let raw = r.raw;
            #pre
            // SAFETY: the arguments are those the application recorded, checked against the
            // binding shadow where a pointer could be an offset.
            unsafe { #body }
            #post
        }
    }
}

/// The shadow's fast check of a plain draw (no indirect, count or multi form, and no argument
/// that another check watches): `draw_fits(None)` for an array draw, `draw_fits(Some((count,
/// type, indices)))` for an element draw. `None` for every other function.
fn draw_fast_path(f: &Function, arg: &dyn Fn(&str) -> proc_macro2::Ident) -> Option<TokenStream> {
    let Some(Hook::Draw { elements, indirect: false, count: false, multi: false }) = shadow_hooks::hook(f) else {
        return None;
    };
    let only_draw_checks = f.params.iter().all(|p| p.class.is_none() && !is_range(p))
        && !shadow_hooks::refuses_nan(f)
        && !shadow_hooks::first_count(f);
    if !only_draw_checks {
        return None;
    }
    Some(if elements {
        let (c, t, i) = (arg("count"), arg("type"), arg("indices"));
        quote!(draw_fits(Some((#c, #t, #i as usize))))
    } else {
        quote!(draw_fits(None))
    })
}

/// What an upload from the pixel-unpack buffer reads, for the range check at replay
/// (`Replayer::unpack_fits`): the image (sized under the GL's unpack state then) or the compressed
/// byte count. `None` for arrays that are never offsets into that buffer.
fn unpack_extent(f: &Function, p: &Param, arg: &dyn Fn(&str) -> proc_macro2::Ident) -> Option<TokenStream> {
    if f.redirect != Some(crate::model::Redirect::PixelUnpack) {
        return None;
    }
    if p.unpack_offset {
        let Role::In(Rule::Param(x)) = &p.role else { return None };
        let n = arg(x);
        return Some(quote!(crate::replay::UnpackExtent::Bytes(#n as i64)));
    }
    let Some(Sizing::UnpackImage { dims }) = crate::sizing::sizing(f, p) else { return None };
    let dim = |n: &str| {
        if f.params.iter().any(|q| q.name == n) {
            let v = arg(n);
            quote!(#v as i64)
        } else {
            quote!(1)
        }
    };
    let (w, h, d) = (dim("width"), dim("height"), dim("depth"));
    let (format, type_) = (arg("format"), arg("type"));
    Some(quote! {
        crate::replay::UnpackExtent::Image(crate::pixels::Image {
            dims: #dims, width: #w, height: #h, depth: #d, format: #format, type_: #type_,
        })
    })
}

fn exec_fn(api: &Api, f: &Function, packet: &proc_macro2::Ident, exec: &proc_macro2::Ident) -> TokenStream {
    let field = format_ident!("{}", f.short_name());
    let mut lets = Vec::new();
    let mut call_args = Vec::new();
    // Pointer arguments that the pixel-unpack binding would turn into offsets: (variable that
    // says whether to unbind it around the call).
    let mut unbind_flags = Vec::new();
    let arg = |name: &str| format_ident!("a{}", f.params.iter().position(|p| p.name == name).expect("a parameter"));
    for (i, p) in f.params.iter().enumerate() {
        let id = ident(p);
        let a = format_ident!("a{}", i);
        let ty = rust_type(&p.ty);
        let value = match &p.role {
            Role::Value | Role::Length { .. } if is_packed_enum(api, p) => quote!(c.#id as u32),
            Role::Length { .. } if narrowed_length(p) => quote!(c.#id as #ty),
            Role::Value | Role::Length { .. } => quote!(c.#id),
            Role::Sync => quote!(match r.sync_arg(p, c.#id) {
                Some(s) => s as #ty,
                None => return,
            }),
            Role::In(Rule::Strings(count)) => {
                let count = ident(param_named(f, count));
                quote!(unsafe { r.strings(c.#id, c.#count as i32) } as #ty)
            }
            Role::In(_) if p.unpack_offset || (matches!(p.role, Role::In(Rule::Bytes)) && is_void_array(p)) => {
                let len_id = format_ident!("{}_len", param_ident(&p.name));
                let flag = format_ident!("unbind{}", i);
                let redirect = f.redirect.is_some();
                lets.push(quote! {
                    // SAFETY: the fields come from this packet.
                    let (#a, #flag) = match unsafe { r.bytes_arg(p, c.#id, c.#len_id, #redirect) } {
                        Some(x) => x,
                        None => return,
                    };
                });
                if let Some(extent) = unpack_extent(f, p, &arg) {
                    // The range the GL reads must fit the buffer's storage, or the bytes copied.
                    lets.push(quote! {
                        if !r.unpack_fits(p, c.#id, c.#len_id, #extent) {
                            return;
                        }
                    });
                }
                unbind_flags.push(flag);
                call_args.push(a);
                continue;
            }
            Role::In(_) if p.nullable => {
                quote!(if c.#id == u32::MAX { std::ptr::null_mut::<u8>() as #ty } else { r.param::<u8>(c.#id) as #ty })
            }
            Role::In(_) | Role::LengthArray { .. } => quote!(r.param::<u8>(c.#id) as #ty),
            Role::Offset | Role::Opaque => quote!(c.#id as #ty),
            Role::Out(_) | Role::OutLength { .. } => unreachable!(),
        };
        lets.push(quote!(let #a: #ty = #value;));
        call_args.push(a);
    }
    if shadow_hooks::range_ignored_without_buffer(f) {
        // The GL ignores offset and size with buffer 0: they reach it as 0, as Mesa sets them.
        let (b, o, z) = (arg("buffer"), arg("offset"), arg("size"));
        lets.push(quote! {
            let (#o, #z) = if #b == 0 { (0, 0) } else { (#o, #z) };
        });
    }
    let defer = if f.kind == Kind::Delete {
        // SAFETY: `p` is the packet being executed.
        quote!(if unsafe { r.defer(p) } {
            return;
        })
    } else {
        quote!()
    };
    let (pre, post) = shadow_checks_and_updates(f, &arg);
    let call = quote!((gl.#field)(#(#call_args),*));
    let body = if f.name == "glFenceSync" {
        quote! { let s = #call; r.set_sync(c.sync, s); }
    } else if f.name == "glDeleteSync" {
        let sync_field = ident(&f.params[0]);
        quote! { #call; r.forget_sync(c.#sync_field); }
    } else if let Some(body) = query_replay_body(f, &arg, &call) {
        body
    } else if !unbind_flags.is_empty() {
        // Client memory while a pixel-unpack buffer is bound: unbind it around the call, so
        // the pointer stays a pointer.
        quote! { r.without_unpack_buffer(#(#unbind_flags)||*, |gl| #call); }
    } else {
        quote! { #call; }
    };
    let repeat = super::repeats::repeat_check(f, &arg);
    let edoc = doc_brief(f, "execute function: unpacks the packet and calls the GL");
    if let Some(fits) = draw_fast_path(f, &arg) {
        return fast_draw_exec(FastDraw { edoc, exec, packet, fits, lets: &lets, body, pre, post });
    }
    quote! {
        #edoc
        #[allow(unused_variables)]
        unsafe fn #exec(r: &mut Replayer<'_>, p: *const u64) {
            // SAFETY: the opcode of the packet at `p` selected this function, so `p` holds a
            // #packet written by the recording method above.
            let c = unsafe { p.cast::<#packet>().read_unaligned() };
            #defer
            #(#lets)*
            let gl = r.gl;
            let raw = r.raw;
            #pre
            #repeat
            // SAFETY: the arguments are those the application recorded, checked against the
            // binding shadow where a pointer could be an offset; array arguments point into the
            // list's parameter buffer, which outlives the call.
            unsafe { #body }
            #post
        }
    }
}

/// The checks of a draw before it runs (each an expression giving `Result<(), Refusal>`): the
/// vertex array reads no client memory, and every range the draw reads from a buffer lies
/// inside that buffer's storage: the indices of an element draw (each draw's, for the `multi`
/// forms), the commands of an indirect draw.
fn draw_checks(
    f: &Function,
    arg: &dyn Fn(&str) -> proc_macro2::Ident,
    elements: bool,
    indirect: bool,
    multi: bool,
) -> Vec<TokenStream> {
    // The GL checks a draw's counts and mode before its vertex array (Mesa's
    // `_mesa_validate_Draw*`), so glcmd's vertex-array checks come after the same checks.
    let mut counts: Vec<TokenStream> = f
        .params
        .iter()
        .filter(|p| !p.ty.is_pointer() && p.ty.base == "GLsizei" && p.name != "stride")
        .map(|p| {
            let (name, a) = (p.name.as_str(), arg(&p.name));
            quote!((#name, #a as i64))
        })
        .collect();
    if f.params.iter().any(|p| p.name == "start") && f.params.iter().any(|p| p.name == "end") {
        // `glDrawRangeElements*`: `end < start` is GL_INVALID_VALUE, checked with the counts
        // (GL 4.6 §10.4; Mesa's `_mesa_validate_DrawRangeElements` checks it before the mode
        // and the vertex array).
        let (start, end) = (arg("start"), arg("end"));
        counts.push(quote!(("end - start", #end as i64 - #start as i64)));
    }
    let mode = arg("mode");
    let mut checks = Vec::new();
    if f.params.iter().any(|p| p.name == "stream") {
        // A transform-feedback stream is checked before the counts and the mode.
        let stream = arg("stream");
        checks.push(quote!(r.shadow().check_stream(#stream)));
    }
    if indirect {
        // Mesa 22's order for indirect draws: counts; the stride of the multi-draws; the index
        // type; the vertex array (and its element buffer); the mode; the alignment of
        // `indirect`; the indirect buffer.
        checks.push(quote!(r.shadow().check_draw_counts(&[#(#counts),*])));
        if f.params.iter().any(|p| p.name == "stride") {
            let stride = arg("stride");
            checks.push(quote!(r.shadow().check_indirect_stride(#stride as i64)));
        }
        if elements {
            let t = arg("type");
            checks.push(quote!(r.shadow().check_indirect_index_type(#t)));
        }
        let i = arg("indirect");
        let (n, stride) = indirect_count_stride(f, arg, f.name.contains("IndirectCount"));
        // DrawArraysIndirectCommand is 4 uints; DrawElementsIndirectCommand is 5.
        let command: u64 = if elements { 20 } else { 16 };
        let fb = |check: TokenStream| quote!(#check.map_err(|why| crate::shadow::framebuffer_first(raw, why)));
        checks.push(fb(quote!(r.shadow().check_draw(raw, #elements))));
        checks.push(quote!(r.shadow().check_draw_mode(#mode)));
        checks.push(quote!(r.shadow().check_indirect_alignment(#i as u64)));
        checks.push(fb(
            quote!(r.shadow().check_indirect(raw, Target::DrawIndirect, #i as u64, #n as i64, #stride as i64, #command)),
        ));
        return checks;
    }
    let first = checks.len();
    checks.push(quote!(r.shadow().check_draw_arguments(#mode, &[#(#counts),*])));
    if elements {
        let (c, t, i) = (arg("count"), arg("type"), arg("indices"));
        checks.push(if multi {
            let n = arg(draw_count_param(f).expect("a multi-draw has a draw count"));
            quote!(unsafe { r.shadow().check_multi_indices(raw, #c, #t, #i, #n) })
        } else if f.params.iter().any(|p| p.name == "instancecount") {
            // No instance reads no index: the GL draws nothing and raises nothing.
            let n = arg("instancecount");
            quote!(r.shadow().check_indices(raw, if #n == 0 { 0 } else { #c }, #t, #i as usize))
        } else {
            quote!(r.shadow().check_indices(raw, #c, #t, #i as usize))
        });
    } else {
        checks.push(quote!(r.shadow().check_draw(raw, #elements)));
    }
    // The GL checks the draw framebuffer before the vertex array and the buffers: a refusal of
    // those raises GL_INVALID_FRAMEBUFFER_OPERATION when the framebuffer is incomplete.
    for check in &mut checks[first + 1..] {
        *check = quote!(#check.map_err(|why| crate::shadow::framebuffer_first(raw, why)));
    }
    checks
}

/// The parameter holding how many draws a multi-draw makes (`drawcount`, or `primcount` in
/// the older extension forms), if any.
fn draw_count_param(f: &Function) -> Option<&'static str> {
    ["drawcount", "primcount"]
        .into_iter()
        .find(|n| f.params.iter().any(|p| p.name == *n && !p.ty.is_pointer() && p.ty.base == "GLsizei"))
}

/// How many commands an indirect draw reads (its count argument, `maxdrawcount` for the
/// `IndirectCount` forms, 1 for single draws) and their stride (0 where it has none: tightly
/// packed).
fn indirect_count_stride(
    f: &Function,
    arg: &dyn Fn(&str) -> proc_macro2::Ident,
    count_form: bool,
) -> (TokenStream, TokenStream) {
    let n = if count_form {
        let m = arg("maxdrawcount");
        quote!(#m)
    } else if let Some(p) = draw_count_param(f) {
        let d = arg(p);
        quote!(#d)
    } else {
        quote!(1)
    };
    let stride = if f.params.iter().any(|p| p.name == "stride") {
        let s = arg("stride");
        quote!(#s)
    } else {
        quote!(0)
    };
    (n, stride)
}

/// The binding-shadow checks before the call (each may skip it: the packet is refused) and the
/// updates after it.
fn shadow_checks_and_updates(f: &Function, arg: &dyn Fn(&str) -> proc_macro2::Ident) -> (TokenStream, TokenStream) {
    // A skipped link still counts as replayed, so lookups waiting for it stop waiting.
    let link_skipped = if shadow_hooks::links_program(f) {
        let program = arg("program");
        quote!(r.program_link_skipped(#program);)
    } else {
        quote!()
    };
    let refuse = |check: TokenStream| {
        quote! {
            if let Err(why) = #check {
                r.refuse(p, why);
                #link_skipped
                return;
            }
        }
    };
    // The GL's order (Mesa's): an enum it checks first of all, then the object names
    // (`_mesa_lookup_*_err`), then ranges and storage; glcmd's own checks after those.
    let mut checks: Vec<TokenStream> = shadow_hooks::earlier_enums(f)
        .into_iter()
        .map(|(param, accepted)| {
            let a = arg(param);
            let values = accepted.iter().map(|v| format_ident!("{}", v));
            let names = accepted.iter().map(|v| format!("GL_{v}")).collect::<Vec<_>>().join(", ");
            quote!(crate::shadow::check_enum(#param, #a, &[#(super::enums::#values),*], #names))
        })
        .collect();
    checks.extend(name_checks(f, arg));
    checks.extend(argument_checks(f, arg));
    // The pixel-pack range, after the name checks (it asks the GL about the texture), refuses
    // by itself (its message names the image it measured).
    let pack = pack_check(f, arg).map(|fits| {
        quote! {
            if !#fits {
                #link_skipped
                return;
            }
        }
    });
    let mut updates = name_updates(f, arg);
    let (hook_checks, hook_updates) = match shadow_hooks::hook(f) {
        None => (Vec::new(), Vec::new()),
        Some(
            hook @ (Hook::TextureLevel | Hook::Draw { .. } | Hook::DispatchIndirect | Hook::MeshTasksIndirect { .. }),
        ) => (check_only_hook(f, arg, hook), Vec::new()),
        Some(hook) => state_hook(arg, hook),
    };
    checks.extend(hook_checks);
    updates.extend(hook_updates);
    let checks = checks.into_iter().map(refuse);
    let float_parameter = float_parameter(f, arg);
    let multi_ranges = multi_bind_ranges(f, arg);
    (quote!(#(#checks)* #pack #float_parameter #multi_ranges), quote!(#(#updates)*))
}

/// A pixel read into the pack buffer (`*_to_buffer`): the bytes it writes must fit the buffer
/// (`runtime/pack_range.rs`, `Replayer::pack_fits`). Every function the classifier redirects to
/// that buffer is named here, so a new one fails the generator until it is sized.
fn pack_check(f: &Function, arg: &dyn Fn(&str) -> proc_macro2::Ident) -> Option<TokenStream> {
    if f.redirect != Some(crate::model::Redirect::PixelPack) {
        return None;
    }
    let offset = f.params.iter().find(|p| p.role == Role::Offset)?;
    let offset = arg(&offset.name);
    let has = |n: &str| f.params.iter().any(|p| p.name == n);
    let a = |n: &str| arg(n);
    let level = || a(if has("level") { "level" } else { "lod" });
    let of = || {
        if has("texunit") {
            let (u, t) = (a("texunit"), a("target"));
            quote!(crate::pack_range::LevelOf::Unit(#u, #t))
        } else if has("texture") && has("target") {
            let (x, t) = (a("texture"), a("target"));
            quote!(crate::pack_range::LevelOf::Texture(#x, Some(#t)))
        } else if has("texture") {
            let x = a("texture");
            quote!(crate::pack_range::LevelOf::Texture(#x, None))
        } else {
            let t = a("target");
            quote!(crate::pack_range::LevelOf::Bound(#t))
        }
    };
    let base = f.name.trim_end_matches("ARB").trim_end_matches("EXT").trim_end_matches("KHR");
    let extent = match base {
        "glReadPixels" | "glReadnPixels" => {
            let (w, h, format, type_) = (a("width"), a("height"), a("format"), a("type"));
            quote!(crate::pack_range::PackExtent::Image(crate::pixels::Image {
                dims: 2, width: #w as i64, height: #h as i64, depth: 1, format: #format, type_: #type_,
            }))
        }
        "glGetTexImage" | "glGetnTexImage" | "glGetTextureImage" | "glGetMultiTexImage" => {
            let (format, type_, of, level) = (a("format"), a("type"), of(), level());
            quote!(crate::pack_range::PackExtent::Level { of: #of, level: #level, format: #format, type_: #type_ })
        }
        "glGetTextureSubImage" => {
            let (x, w, h, d, format, type_) =
                (a("texture"), a("width"), a("height"), a("depth"), a("format"), a("type"));
            quote!(crate::pack_range::PackExtent::SubImage {
                texture: #x, width: #w, height: #h, depth: #d, format: #format, type_: #type_,
            })
        }
        "glGetCompressedTexImage" | "glGetnCompressedTexImage" | "glGetCompressedTextureImage"
        | "glGetCompressedMultiTexImage" => {
            let (of, level) = (of(), level());
            quote!(crate::pack_range::PackExtent::Compressed { of: #of, level: #level })
        }
        "glGetCompressedTextureSubImage" => {
            let (x, level, w, h, d) = (a("texture"), level(), a("width"), a("height"), a("depth"));
            quote!(crate::pack_range::PackExtent::CompressedSubImage {
                texture: #x, level: #level, width: #w, height: #h, depth: #d,
            })
        }
        other => panic!("{other} writes into the pixel-pack buffer, but glcmd does not know how to size it (emit/commands.rs, pack_check)"),
    };
    Some(quote!(r.pack_fits(p, #offset as usize, #extent)))
}

/// The checks of a function's arguments, before any hook's: buffer ranges must not wrap and
/// must lie inside the buffer's storage, range-checked float state refuses NaN, `first + count`
/// must not wrap, and a buffer's storage must not be the list's pinned memory.
fn argument_checks(f: &Function, arg: &dyn Fn(&str) -> proc_macro2::Ident) -> Vec<TokenStream> {
    let mut checks = Vec::new();
    let ranges: Vec<proc_macro2::Ident> = f.params.iter().filter(|p| is_range(p)).map(|p| arg(&p.name)).collect();
    // An indexed binding's range is refused after the GL's earlier checks, which need state.
    match shadow_hooks::indexed_range(f) {
        Some(shadow_hooks::IndexedRange::Bind) => {
            let (t, b, o, s) = (arg("target"), arg("buffer"), arg("offset"), arg("size"));
            checks.push(quote!(r.shadow().check_bind_buffer_range(raw, #t, #b, #o as i64, #s as i64)));
        }
        Some(shadow_hooks::IndexedRange::Feedback) => {
            let (x, o, s) = (arg("xfb"), arg("offset"), arg("size"));
            checks.push(quote!(r.shadow().check_feedback_buffer_range(raw, #x, #o as i64, #s as i64)));
        }
        None if !ranges.is_empty() => checks.push(quote!(crate::shadow::check_ranges(&[#(#ranges as i64),*]))),
        None => {}
    }
    for range in shadow_hooks::storage_ranges(f) {
        let (buffer, offset) = (arg(range.buffer), arg(range.offset));
        let of = if range.by_target {
            quote!(crate::shadow::StorageOf::Bound(#buffer))
        } else {
            quote!(crate::shadow::StorageOf::Named(#buffer))
        };
        let len = match range.len {
            shadow_hooks::RangeLen::Param(p) => {
                let l = arg(p);
                quote!(#l as i64)
            }
            shadow_hooks::RangeLen::Bytes(n) => {
                let n = n as i64;
                quote!(#n)
            }
        };
        let mapped = range.mapped;
        checks.push(quote!(r.shadow().check_storage(raw, #of, #offset as i64, #len, #mapped)));
    }
    // A float texture or sampler parameter answers NaN as the GL does (`float_parameter`).
    if shadow_hooks::refuses_nan(f) && shadow_hooks::float_parameter(f).is_none() {
        checks.extend(nan_checks(f, arg));
    }
    if shadow_hooks::first_count(f) {
        // Mesa compares `first + count` with its limit in unsigned 32-bit arithmetic.
        let (first, count) = (arg("first"), arg("count"));
        checks.push(quote!(crate::shadow::check_first_count(#first as u32, #count as i64)));
    }
    if matches!(f.name.as_str(), "glBufferData" | "glBufferDataARB" | "glBufferStorage") {
        // AMD_pinned_memory: the driver would keep the list's parameter buffer as the
        // buffer's storage, and the list is reused after replay.
        let t = arg("target");
        checks.push(quote!(crate::shadow::check_not_pinned(#t)));
    }
    checks
}

/// The NaN checks of a function whose float arguments set range-checked state: its float
/// scalars, and its float arrays whose length the packet implies.
fn nan_checks(f: &Function, arg: &dyn Fn(&str) -> proc_macro2::Ident) -> Vec<TokenStream> {
    float_values(f, arg)
        .into_iter()
        .map(|(name, values, array)| {
            if array {
                quote!(crate::shadow::check_not_nan_slice(#values, #name))
            } else {
                quote!(crate::shadow::check_not_nan(&[#values as f64], #name))
            }
        })
        .collect()
}

/// The float arguments of `f` that set state: (name, the value or a slice of the array's values
/// whose length the packet implies, whether it is an array).
fn float_values(f: &Function, arg: &dyn Fn(&str) -> proc_macro2::Ident) -> Vec<(String, TokenStream, bool)> {
    let float = |t: &str| matches!(t, "GLfloat" | "GLdouble" | "GLclampf" | "GLclampd");
    let mut values = Vec::new();
    for p in &f.params {
        let a = arg(&p.name);
        let name = p.name.clone();
        match &p.role {
            Role::Value if float(&p.ty.base) && !p.ty.is_pointer() => values.push((name, quote!(#a), false)),
            // The array lies in the parameter buffer; its length is the pname's count (an
            // unknown pname was padded at record time and is left to the GL), or the count
            // argument times the components per element.
            Role::In(rule) if float(&p.ty.pointee().base) => {
                let len = match rule {
                    Rule::Pname { group, param } => {
                        let count_fn = format_ident!("count_{}", group.to_lowercase());
                        let pn = arg(param);
                        quote!(match pname::#count_fn(#pn) { Some(Count::Fixed(n)) => n as usize, _ => 0 })
                    }
                    Rule::Product(count, k) => {
                        let c = arg(count);
                        quote!((#c.max(0) as usize) * #k as usize)
                    }
                    Rule::Const(n) => quote!(#n as usize),
                    _ => continue,
                };
                let elem = if p.ty.pointee().base == "GLdouble" { quote!(f64) } else { quote!(f32) };
                let slice = quote! {
                    // SAFETY: the recording method copied `len` elements to this offset (the
                    // count came from the same table), and a capture's loader checked it.
                    unsafe { std::slice::from_raw_parts(#a as *const #elem, #len) }
                };
                values.push((name, slice, true));
            }
            _ => {}
        }
    }
    values
}

/// A float texture or sampler parameter (`shadow_hooks::float_parameter`): its value is what
/// `Replayer::float_parameter` says (the recorded one, a substitute for NaN, or none: the call
/// is done), bound again under the argument's name before the GL call.
fn float_parameter(f: &Function, arg: &dyn Fn(&str) -> proc_macro2::Ident) -> Option<TokenStream> {
    let (object, variant) = shadow_hooks::float_parameter(f)?;
    let (variant, pname) = (format_ident!("{}", variant), arg("pname"));
    let of = match object {
        Some(object) => {
            let o = arg(object);
            quote!(crate::replay::ParamOf::#variant(#o))
        }
        None => quote!(crate::replay::ParamOf::#variant),
    };
    let (name, values, array) = float_values(f, arg).into_iter().next()?;
    let a = arg(&name);
    // An array's substitute is memory the call reads: a region for the checking table.
    let (values, substituted) = if array {
        (
            quote!(#values),
            quote!({
                float_substitute = v;
                _float_region = crate::arguments::region(float_substitute.as_ptr(), 16);
                float_substitute.as_ptr() as *const types::GLfloat
            }),
        )
    } else {
        (quote!(&[#values]), quote!(v[0]))
    };
    let holder = if array {
        quote!(let float_substitute: [f32; 4]; let _float_region: crate::arguments::Region;)
    } else {
        quote!()
    };
    Some(quote! {
        #holder
        let #a = match r.float_parameter(p, #of, #pname, #values) {
            crate::replay::FloatParameter::Call => #a,
            crate::replay::FloatParameter::Substitute(v) => #substituted,
            crate::replay::FloatParameter::Done => return,
        };
    })
}

/// `glBindBuffersRange`: an entry with an offset and size glcmd must not pass reaches the GL as
/// one the GL refuses alone (`shadow::multi_bind_ranges`); the substitutes are memory the call
/// reads (a region for the checking table).
fn multi_bind_ranges(f: &Function, arg: &dyn Fn(&str) -> proc_macro2::Ident) -> Option<TokenStream> {
    if f.name != "glBindBuffersRange" {
        return None;
    }
    let (count, buffers, offsets, sizes) = (arg("count"), arg("buffers"), arg("offsets"), arg("sizes"));
    Some(quote! {
        // SAFETY: the recording method copied `count` values of each array (buffers: or none).
        let multi_ranges = unsafe { crate::shadow::multi_bind_ranges(#count, #buffers, #offsets, #sizes) };
        let _multi_region = multi_ranges.as_ref().map(|v| crate::arguments::region(v.as_ptr(), v.len() * 8));
        let (#offsets, #sizes) = match &multi_ranges {
            Some(v) => (v.as_ptr(), v[v.len() / 2..].as_ptr()),
            None => (#offsets, #sizes),
        };
    })
}

/// Object names: each must exist (the first one, the object operated on, cannot be 0).
fn name_checks(f: &Function, arg: &dyn Fn(&str) -> proc_macro2::Ident) -> Vec<TokenStream> {
    if shadow_hooks::names_unchecked(f) {
        return Vec::new();
    }
    let mut checks = Vec::new();
    for (i, p) in f.params.iter().enumerate() {
        let Some(variant) = p.class.as_deref().and_then(shadow_hooks::class_variant) else { continue };
        if !matches!(p.role, Role::Value) || p.ty.base != "GLuint" || shadow_hooks::created_on_first_use(f, &p.name) {
            continue;
        }
        let (a, class, first) = (arg(&p.name), format_ident!("{}", variant), i == 0);
        checks.push(quote!(r.shadow().check_name(raw, Class::#class, #a, #first)));
    }
    checks
}

/// The execute body of a call that ends or counts a query: the known answers
/// (`runtime/known_replay.rs`) note the query whose result will be there to poll; and of a
/// call whose driver defect replay keeps away from (`runtime/replay_quirks.rs`).
fn query_replay_body(
    f: &Function,
    arg: &dyn Fn(&str) -> proc_macro2::Ident,
    call: &TokenStream,
) -> Option<TokenStream> {
    match f.name.as_str() {
        "glEndQuery" | "glEndQueryIndexed" => {
            let target = arg("target");
            let index = if f.name == "glEndQuery" {
                quote!(0)
            } else {
                let index = arg("index");
                quote!(#index)
            };
            Some(quote! { let ended = r.query_ending(#target, #index); #call; r.query_ended(ended); })
        }
        "glQueryCounter" => {
            let id = arg("id");
            Some(quote! { r.query_counter(#id, |gl| { #call; }); })
        }
        // A driver defect kept away from (`runtime/replay_quirks.rs`).
        "glUniformSubroutinesuiv" => {
            let (t, n) = (arg("shadertype"), arg("count"));
            Some(quote! { if r.subroutine_call_is_safe(#t, #n) { #call; } })
        }
        _ => None,
    }
}

fn name_updates(f: &Function, arg: &dyn Fn(&str) -> proc_macro2::Ident) -> Vec<TokenStream> {
    let mut updates = Vec::new();
    match f.name.as_str() {
        "glBeginQuery" | "glBeginQueryIndexed" => {
            let id = arg("id");
            updates.push(quote!(r.queries_touched(&[#id]);));
        }
        "glDeleteQueries" => {
            let (ids, n) = (arg("ids"), arg("n"));
            updates.push(quote!(r.queries_touched(unsafe { crate::replay::names(#ids, #n) });));
        }
        _ => {}
    }
    if f.kind == Kind::Delete {
        for p in &f.params {
            let Some(variant) = p.class.as_deref().and_then(shadow_hooks::class_variant) else { continue };
            let (a, class) = (arg(&p.name), format_ident!("{}", variant));
            match &p.role {
                Role::In(Rule::Param(n)) => {
                    let n = arg(n);
                    updates.push(
                        quote!(r.shadow().names_deleted(Class::#class, unsafe { crate::replay::names(#a, #n) });),
                    );
                }
                Role::Value => updates.push(quote!(r.shadow().names_deleted(Class::#class, &[#a]);)),
                _ => {}
            }
        }
    }
    if shadow_hooks::links_program(f) {
        let program = arg("program");
        updates.push(quote!(r.program_linked(#program);));
    }
    if f.name == "glDeleteProgram" {
        let program = arg("program");
        updates.push(quote!(r.program_deleted(#program);));
    }
    updates
}

/// The checks and updates of a hook that changes the binding state the shadow follows: binds,
/// vertex buffers and attributes (an attribute or vertex buffer pointer must be an offset into
/// a bound buffer), state it must read back, and buffer storage.
fn state_hook(arg: &dyn Fn(&str) -> proc_macro2::Ident, hook: Hook) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let dsa = |on: bool| {
        if on {
            let v = arg("vaobj");
            quote!(Some(#v))
        } else {
            quote!(None)
        }
    };
    let (mut checks, mut updates) = (Vec::new(), Vec::new());
    match hook {
        Hook::BindBuffer => {
            let (t, b) = (arg("target"), arg("buffer"));
            updates.push(quote!(r.shadow().bind_buffer(raw, #t, #b);));
        }
        Hook::BindVertexArray => {
            let a = arg("array");
            updates.push(quote!(r.shadow().bind_vertex_array(raw, #a);));
        }
        Hook::VertexArrayElementBuffer => {
            let (v, b) = (arg("vaobj"), arg("buffer"));
            updates.push(quote!(r.shadow().vertex_array_element_buffer(#v, #b);));
        }
        Hook::VertexBuffer { dsa: d } => {
            let (i, b, o, st) = (arg("bindingindex"), arg("buffer"), arg("offset"), arg("stride"));
            let vao = dsa(d);
            checks.push(quote!(r.shadow().check_vertex_buffer(#b, #o as i64)));
            updates.push(quote!(r.shadow().vertex_buffer(#vao, #i, #b, #o as i64, #st);));
        }
        Hook::VertexBuffers { dsa: d } => {
            let (first, count, b, o, st) = (arg("first"), arg("count"), arg("buffers"), arg("offsets"), arg("strides"));
            let vao = dsa(d);
            checks.push(quote!(unsafe { r.shadow().check_vertex_buffers(#count, #b, #o) }));
            updates.push(quote!(unsafe { r.shadow().vertex_buffers(#vao, #first, #count, #b, #o, #st) };));
        }
        Hook::AttribPointer(kind) => {
            let (i, size, t, st, ptr) = (arg("index"), arg("size"), arg("type"), arg("stride"), arg("pointer"));
            let kind = match kind {
                AttribKind::Float => quote!(AttribKind::Float),
                AttribKind::Integer => quote!(AttribKind::Integer),
                AttribKind::Long => quote!(AttribKind::Long),
            };
            checks.push(quote!(r.shadow().check_attrib_pointer(#i, #st, #ptr as usize)));
            updates.push(quote!(r.shadow().attrib_pointer(#i, #size, #t, #st, #kind);));
        }
        Hook::AttribBinding { dsa: d } => {
            let (a, b) = (arg("attribindex"), arg("bindingindex"));
            let vao = dsa(d);
            updates.push(quote!(r.shadow().attrib_binding(#vao, #a, #b);));
        }
        Hook::EnableAttrib { dsa: d, enable } => {
            let i = arg("index");
            let vao = dsa(d);
            updates.push(quote!(r.shadow().enable_attrib(#vao, #i, #enable);));
        }
        Hook::VertexArrayChanged { buffer_offset } => {
            let v = arg("vaobj");
            if let Some((b, o)) = buffer_offset {
                let (b, o) = (arg(b), arg(o));
                checks.push(quote!(r.shadow().check_vertex_buffer(#b, #o as i64)));
            }
            updates.push(quote!(r.shadow().vertex_array_changed(#v);));
        }
        // Handled with every delete (`name_updates`).
        Hook::DeleteBuffers | Hook::DeleteVertexArrays => {}
        Hook::Refresh => updates.push(quote!(r.shadow().refresh(raw);)),
        Hook::Storage => updates.push(quote!(r.shadow().storage_changed();)),
        Hook::TextureLevel | Hook::Draw { .. } | Hook::DispatchIndirect | Hook::MeshTasksIndirect { .. } => {
            unreachable!("hooks that only check have their own (`check_only_hook`)")
        }
    }
    (checks, updates)
}

/// The checks of a hook that changes nothing the shadow follows: draws, indirect dispatches and
/// mesh tasks (every range they read from a buffer lies inside it), and
/// `glInvalidateTexSubImage` (its level, which Mesa's own check lets through to a crash).
fn check_only_hook(f: &Function, arg: &dyn Fn(&str) -> proc_macro2::Ident, hook: Hook) -> Vec<TokenStream> {
    let mut checks = Vec::new();
    match hook {
        Hook::TextureLevel => {
            let (t, l) = (arg("texture"), arg("level"));
            checks.push(quote!(crate::shadow::check_texture_level(raw, #t, #l)));
        }
        Hook::Draw { elements, indirect, count, multi } => {
            checks.extend(draw_checks(f, arg, elements, indirect, multi));
            if count {
                let d = arg("drawcount");
                checks.push(quote!(r.shadow().check_range(raw, Target::Parameter, #d as u64, 4)));
            }
        }
        Hook::DispatchIndirect => {
            let i = arg("indirect");
            checks.push(quote!(r.shadow().check_indirect(raw, Target::DispatchIndirect, #i as u64, 1, 0, 12)));
        }
        Hook::MeshTasksIndirect { count } => {
            let i = arg("indirect");
            let (n, stride) = indirect_count_stride(f, arg, count);
            checks.push(
                quote!(r.shadow().check_indirect(raw, Target::DrawIndirect, #i as u64, #n as i64, #stride as i64, 8)),
            );
            if count {
                let d = arg("drawcount");
                checks.push(quote!(r.shadow().check_range(raw, Target::Parameter, #d as u64, 4)));
            }
        }
        _ => unreachable!("hooks that change state have their own (`state_hook`)"),
    }
    checks
}
