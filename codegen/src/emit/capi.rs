//! The C ABI's GL entry points, for crate glcmd-capi (`capi/`): one `unsafe extern "system" fn`
//! per function of the header, with its exact C signature, that converts the C arguments and
//! calls the generated Rust API, so a C caller gets exactly the checks a Rust caller gets.
//!
//! | kind | the entry point |
//! | --- | --- |
//! | record, delete | converts pointer + count into slices (copied by the recording method) and calls the `CommandList` method on the calling thread's current list |
//! | create, query | calls the `Device` method of the thread's current device (a round trip) and writes the result through the C output pointers |
//! | special | hand-written in `capi/src/special.rs`, or unsupported ([`SPECIALS`]) |
//!
//! Every C-to-Rust argument conversion is made in one function, `convert_param` (and the
//! conversions it dispatches to, one per kind of argument), and every Rust-to-C result in one
//! other, `write_result`: when the Rust signatures change, those are the places to adapt. Method names come from the model (`Function::method_name`), never from
//! a list here.
//!
//! Arrays whose length gl.xml does not give (`Rule::Bytes`, which makes the Rust method
//! `unsafe`) are sized here when the GL's own rule can be computed ([`Sizing`]): pixel uploads
//! from the list's pixel-store state, pixel reads and texture images from the render thread's
//! real state, uniform values from the uniform's type. The rest are unsupported through C: the
//! entry point exists and reports `GLCMD_ERROR_UNSUPPORTED`.
//!
//! Besides the functions, the emitter writes the function table the C header declares
//! (`GlcmdGL`, a `#[repr(C)]` struct of the loader's pointer types, so every entry point's
//! signature is checked against `glcorearb.h` by the compiler), and the name, kind and flag
//! tables `glcmdGetProcAddress` and `glcmdFunctionInfo` read.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::{element_type, ident, param_named, rust_type};
use crate::error::{Error, Position};
use crate::model::{Api, Function, Kind, Param, Role, Rule};

/// `glcmdFunctionInfo` flag: the entry point always fails with `GLCMD_ERROR_UNSUPPORTED`.
pub const FLAG_UNSUPPORTED: u8 = 1;
/// `glcmdFunctionInfo` flag: the entry point may make a round trip to the render thread.
pub const FLAG_ROUND_TRIP: u8 = 2;
/// `glcmdFunctionInfo` flag: the Rust method is `unsafe` (the C entry point computes the
/// lengths its contract asks for, or passes GPU addresses and handles through as given).
pub const FLAG_UNSAFE: u8 = 4;

/// What the C entry point of a special function does.
pub struct SpecialC {
    pub name: &'static str,
    /// Hand-written in `capi/src/special.rs` (else it reports `GLCMD_ERROR_UNSUPPORTED`).
    pub supported: bool,
    pub round_trip: bool,
    pub what: &'static str,
}

const fn special(name: &'static str, supported: bool, round_trip: bool, what: &'static str) -> SpecialC {
    SpecialC { name, supported, round_trip, what }
}

/// Every special function of the model, with what its C entry point does. A special function
/// missing here is a generator error.
pub const SPECIALS: &[SpecialC] = &[
    special("glFenceSync", true, false, "records the fence in the current list; the GLsync it returns becomes a sync object when the list replays"),
    special("glClientWaitSync", true, true, "a round trip: waits on the render thread after every submitted list (the fence's list must have been submitted)"),
    special("glFinish", true, true, "a round trip: glFinish after every submitted list"),
    special("glFlush", true, true, "a round trip: glFlush after every submitted list"),
    special("glGetError", true, true, "first the error of a failed entry point of this thread, then Device::get_error (a round trip)"),
    special("glGetProgramResourceiv", true, true, "Device::get_program_resourceiv (a round trip); writes at most `count` values"),
    special("glGetDebugMessageLog", true, true, "Device::get_debug_message_log (a round trip)"),
    special("glGetDebugMessageLogARB", true, true, "Device::get_debug_message_log (a round trip)"),
    special("glMapBuffer", true, true, "a round trip: maps after every submitted list; the pointer is usable on any thread until the buffer is unmapped"),
    special("glMapBufferRange", true, true, "a round trip: maps after every submitted list; the pointer is usable on any thread until the buffer is unmapped"),
    special("glMapNamedBuffer", true, true, "a round trip: maps after every submitted list; the pointer is usable on any thread until the buffer is unmapped"),
    special("glMapNamedBufferRange", true, true, "a round trip: maps after every submitted list; the pointer is usable on any thread until the buffer is unmapped"),
    special("glMapNamedBufferEXT", true, true, "a round trip: maps after every submitted list; the pointer is usable on any thread until the buffer is unmapped"),
    special("glMapNamedBufferRangeEXT", true, true, "a round trip: maps after every submitted list; the pointer is usable on any thread until the buffer is unmapped"),
    special("glDebugMessageCallback", true, true, "Device::set_debug_callback: the callback runs on the render thread, after glcmd's attribution"),
    special("glDebugMessageCallbackARB", true, true, "Device::set_debug_callback: the callback runs on the render thread, after glcmd's attribution"),
    special("glCreateSyncFromCLeventARB", false, false, "takes OpenCL process pointers"),
    special("glImportSyncEXT", false, false, "imports an external sync handle"),
    special("glEGLImageTargetTexture2DOES", true, true, "a round trip: given to the GL on the render thread after the thread's earlier calls, the EGL image as the program gave it (the driver's handle, which it checks)"),
    special("glEGLImageTargetRenderbufferStorageOES", true, true, "a round trip: given to the GL on the render thread after the thread's earlier calls, the EGL image as the program gave it (the driver's handle, which it checks)"),
    special("glEGLImageTargetTexStorageEXT", false, false, "takes an EGL image handle"),
    special("glEGLImageTargetTextureStorageEXT", false, false, "takes an EGL image handle"),
    special("glListDrawCommandsStatesClientNV", false, false, "takes an array of client-memory pointers"),
];

pub use crate::sizing::{sizing, Sizing};

/// What an entry point does.
pub enum Plan {
    /// Records through the `CommandList` method.
    Record,
    /// A round trip through the `Device` method.
    RoundTrip,
    /// Hand-written (`capi/src/special.rs`).
    Special,
    /// Always fails with `GLCMD_ERROR_UNSUPPORTED`, for this reason.
    Unsupported(String),
}

pub fn plan(f: &Function) -> Plan {
    if f.kind == Kind::Special {
        return match SPECIALS.iter().find(|s| s.name == f.name) {
            Some(s) if s.supported => Plan::Special,
            Some(s) => Plan::Unsupported(format!("{}; use glcmdRunOnRenderThread", s.what)),
            None => Plan::Unsupported("a special function the C ABI does not know".into()),
        };
    }
    for p in &f.params {
        if matches!(p.role, Role::In(Rule::Bytes) | Role::Out(Rule::Bytes)) && sizing(f, p).is_none() {
            return Plan::Unsupported(format!(
                "the length of `{}` depends on state or data glcmd cannot see at the C boundary; call it inside \
                 glcmdRunOnRenderThread",
                p.name
            ));
        }
    }
    match f.kind {
        Kind::Record | Kind::Delete => Plan::Record,
        Kind::Create | Kind::Query => Plan::RoundTrip,
        Kind::Special => unreachable!(),
    }
}

/// The `glcmdFunctionInfo` flags of `f`.
pub fn flags(f: &Function) -> u8 {
    let mut flags = if f.is_unsafe() { FLAG_UNSAFE } else { 0 };
    match plan(f) {
        Plan::Unsupported(_) => flags |= FLAG_UNSUPPORTED,
        Plan::RoundTrip => flags |= FLAG_ROUND_TRIP,
        Plan::Special if SPECIALS.iter().any(|s| s.name == f.name && s.round_trip) => flags |= FLAG_ROUND_TRIP,
        _ => {}
    }
    flags
}

/// The pixel-pack-buffer form of a query (`read_pixels_to_buffer`), recorded instead when the
/// calling thread's list has bound a pixel-pack buffer.
fn pack_variant(api: &Api, f: &Function) -> Option<Function> {
    super::commands::pack_buffer_variants(api).into_iter().find(|g| g.name == f.name)
}

/// Which API the converted arguments are for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    /// A `CommandList` recording method (`cur`: the thread's `Recording`).
    List,
    /// A `Device` create or query method (`device`).
    Device,
}

/// The statements that check and convert one C argument, and the expression passed to the
/// Rust method (`None`: the method derives it, e.g. a count from a slice's length).
struct Conversion {
    prep: Vec<TokenStream>,
    arg: Option<TokenStream>,
}

fn count_var(p: &Param) -> proc_macro2::Ident {
    format_ident!("n_{}", crate::naming::param_ident(&p.name).trim_end_matches('_'))
}

/// The one place a C argument becomes a Rust argument (with the conversions it dispatches to,
/// one per kind of argument). `F` is the GL name in the generated code; counts
/// (`Role::Length`) are converted before every array (`n_<count>`).
fn convert_param(f: &Function, p: &Param, target: Target) -> Conversion {
    let id = ident(p);
    let none = |prep: Vec<TokenStream>| Conversion { prep, arg: None };
    let pass = |arg: TokenStream| Conversion { prep: Vec::new(), arg: Some(arg) };
    match &p.role {
        // GLboolean: the method's parameter type decides (u8 or bool).
        Role::Value if p.ty.base == "GLboolean" && !p.ty.is_pointer() => pass(quote!(crate::conv::boolean(#id))),
        Role::Value => pass(quote!(#id)),
        Role::Sync => pass(quote!(crate::conv::sync(#id as types::GLsync))),
        Role::Length { .. } | Role::LengthArray { .. } | Role::OutLength { .. } => none(Vec::new()),
        Role::Offset | Role::Opaque => pass(quote!(#id as usize)),
        Role::In(rule) if p.unpack_offset => compressed_conversion(f, p, rule),
        Role::In(Rule::String) => string_conversion(f, p),
        Role::In(Rule::Strings(count)) => strings_conversion(f, p, count),
        Role::In(Rule::Bytes) => sized_bytes_conversion(f, p),
        Role::In(rule) => slice_conversion(f, p, rule, target),
        Role::Out(rule) => output_conversion(f, p, rule),
    }
}

/// The length of an array sized by parameter `x`, as a usize: a count converted earlier (a
/// derived count) or the value of an argument the method also takes.
fn len_of(f: &Function, x: &str) -> TokenStream {
    let q = param_named(f, x);
    match q.role {
        Role::Length { .. } => {
            let n = count_var(q);
            quote!(#n)
        }
        _ => {
            let v = ident(q);
            quote!(crate::conv::count(F, #x, #v as i64)?)
        }
    }
}

/// Compressed pixel data: `imageSize` bytes, or an offset into the list's pixel-unpack buffer.
fn compressed_conversion(f: &Function, p: &Param, rule: &Rule) -> Conversion {
    let (id, name) = (ident(p), p.name.as_str());
    let Rule::Param(x) = rule else { unreachable!("compressed data is sized by a byte count") };
    let n = len_of(f, x);
    // An image (not a sub-image) upload allocates with NULL data: no bytes are read.
    let allocates = p.nullable;
    Conversion {
        prep: vec![quote! {
            // SAFETY: the caller passes `imageSize` bytes (or an offset, with a
            // pixel-unpack buffer bound in this list), or NULL.
            let #id = unsafe { crate::pixels::compressed(cur, F, #name, #id as *const u8, #n, #allocates)? };
        }],
        arg: Some(quote!(#id)),
    }
}

/// An input array whose length its rule gives (a count, a constant, a pname's count): read as
/// a slice of exactly that many values, as the GL reads it.
fn slice_conversion(f: &Function, p: &Param, rule: &Rule, target: Target) -> Conversion {
    let (id, name, elem) = (ident(p), p.name.as_str(), element_type(p));
    let slice = |len: TokenStream| {
        quote! {
            // SAFETY: the GL reads this many values at this pointer; so does glcmd.
            let #id = unsafe { crate::conv::slice(F, #name, #id as *const #elem, #len)? };
        }
    };
    match rule {
        Rule::Param(x) if p.nullable && target == Target::List => {
            let n = len_of(f, x);
            Conversion {
                prep: vec![quote! {
                    // SAFETY: as for `conv::slice`; NULL is `None`.
                    let #id = unsafe { crate::conv::option_slice(F, #name, #id as *const #elem, #n)? };
                }],
                arg: Some(quote!(#id.as_deref())),
            }
        }
        Rule::Param(x) if matches!(null_rule(f, p), Some(NullRule::IgnoredWithout(_))) => {
            let Some(NullRule::IgnoredWithout(of)) = null_rule(f, p) else { unreachable!() };
            let (n, of) = (len_of(f, x), format_ident!("{}", of));
            Conversion {
                prep: vec![quote! {
                    // The GL does not read this array when `buffers` is NULL: nor does glcmd.
                    let #id = if #of.is_none() {
                        std::borrow::Cow::Owned(vec![0; #n])
                    } else {
                        // SAFETY: the GL reads this many values at this pointer; so does glcmd.
                        unsafe { crate::conv::slice(F, #name, #id as *const #elem, #n)? }
                    };
                }],
                arg: Some(quote!(&*#id)),
            }
        }
        Rule::Param(x) if null_rule(f, p) == Some(NullRule::NoZeros) => {
            let n = len_of(f, x);
            let check = quote! {
                // NULL data passes the GL's checks and is then ignored (Mesa): zeros would be
                // written. The common mistake's error instead, as before the stand-ins.
                if #id.is_null() && #n > 0 {
                    return Err(crate::error::CallError::null(F, #name));
                }
            };
            Conversion { prep: vec![check, slice(n)], arg: Some(quote!(&*#id)) }
        }
        // `&*`: a plain slice, also where the method is generic over its element.
        Rule::Param(x) => Conversion { prep: vec![slice(len_of(f, x))], arg: Some(quote!(&*#id)) },
        Rule::Quotient(x, d) => {
            let n = len_of(f, x);
            let d = Literal::usize_unsuffixed(*d as usize);
            Conversion { prep: vec![slice(quote!(#n / #d))], arg: Some(quote!(&*#id)) }
        }
        Rule::Const(k) => {
            let k = Literal::usize_unsuffixed(*k as usize);
            Conversion {
                prep: vec![quote! {
                    // SAFETY: the GL reads this many values at this pointer; so does glcmd.
                    let #id: [#elem; #k] = unsafe { crate::conv::array(F, #name, #id as *const #elem)? };
                }],
                arg: Some(quote!(&#id)),
            }
        }
        Rule::Product(x, k) => {
            let n = len_of(f, x);
            let k = Literal::usize_unsuffixed(*k as usize);
            Conversion {
                prep: vec![quote! {
                    // SAFETY: the GL reads `count` chunks of this many values; so does glcmd.
                    let #id = unsafe { crate::conv::chunks::<#elem, #k>(F, #name, #id as *const #elem, #n)? };
                }],
                arg: Some(quote!(&*#id)),
            }
        }
        Rule::Pname { group, param } => {
            let count_fn = format_ident!("count_{}", group.to_lowercase());
            let pn = ident(param_named(f, param));
            let prep = vec![quote! {
                // SAFETY: the GL reads the pname's count of values at this pointer; so does
                // glcmd (none for a pname it does not know).
                let #id = unsafe {
                    crate::conv::pname_slice(F, #name, #id as *const #elem, #pn, glcmd::generated::pname::#count_fn(#pn))?
                };
            }];
            Conversion { prep, arg: Some(quote!(&*#id)) }
        }
        Rule::One => unreachable!("inputs have no `one` rule"),
        Rule::String | Rule::Strings(_) | Rule::Bytes => unreachable!("converted by their own functions"),
    }
}

/// An input string, with its byte-length argument if it has one (negative: NUL-terminated).
fn string_conversion(f: &Function, p: &Param) -> Conversion {
    let (id, name) = (ident(p), p.name.as_str());
    let length = f
        .params
        .iter()
        .find(|q| matches!(&q.role, Role::Length { of } if of.contains(&p.name)))
        .map(|q| {
            let l = ident(q);
            quote!(Some(#l as i64))
        })
        .unwrap_or(quote!(None));
    let read = if null_rule(f, p) == Some(NullRule::EmptyLabel) {
        quote! {
            // NULL removes the label, as an empty one does.
            let #id = if #id.is_null() { "" } else { unsafe { crate::conv::string(F, #name, #id as *const u8, #length)? } };
        }
    } else {
        quote! {
            // SAFETY: a NUL-terminated string, or `length` bytes when that is not negative.
            let #id = unsafe { crate::conv::string(F, #name, #id as *const u8, #length)? };
        }
    };
    Conversion { prep: vec![read], arg: Some(quote!(#id)) }
}

/// An array of `count` input strings, with its parallel `length` array if it has one.
fn strings_conversion(f: &Function, p: &Param, count: &str) -> Conversion {
    let (id, name) = (ident(p), p.name.as_str());
    let n = len_of(f, count);
    let lengths = f
        .params
        .iter()
        .find(|q| matches!(&q.role, Role::LengthArray { of } if *of == p.name))
        .map(|q| {
            let l = ident(q);
            quote!(#l as *const i32)
        })
        .unwrap_or(quote!(std::ptr::null()));
    let null_refused = null_rule(f, p) == Some(NullRule::Refused);
    let raised_after = if null_rule(f, p) == Some(NullRule::RaisedAfter) {
        quote!(let null_strings = #id.is_null();)
    } else {
        quote!()
    };
    Conversion {
        prep: vec![quote! {
            #raised_after
            // SAFETY: `count` strings, each NUL-terminated or as long as its `length` entry.
            let #id = unsafe { crate::conv::strings(F, #name, #id as *const *const u8, #n, #lengths, #null_refused)? };
        }],
        arg: Some(quote!(&*#id)),
    }
}

/// What the GL does with a NULL pointer argument where it neither reads nor writes through it
/// for a count of 0, or where NULL has a meaning of its own; anything not here is an array the
/// GL reads (NULL with a count of 0 reads nothing, as an empty array) or a `nullable` one (NULL
/// reaches the GL as NULL, `classify::NULLABLE`). Mesa 22 is the reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NullRule {
    /// The GL refuses NULL with `GL_INVALID_VALUE` whatever the count (`glShaderSource`'s
    /// strings: Mesa's `shader_source`, after the shader's lookup): glcmd raises it too.
    Refused,
    /// The GL raises `GL_INVALID_VALUE` for NULL and goes on with no source
    /// (`glCreateShaderProgramv`: its `glShaderSource` fails, the compile and link fail, the
    /// program is returned): glcmd creates it from no strings and raises the error after.
    RaisedAfter,
    /// NULL removes the object's label (GL 4.6 §20.7): the same as an empty label, which is
    /// what glcmd records.
    EmptyLabel,
    /// Checked by the GL and then ignored (Mesa's `glBufferSubData` family writes nothing for NULL
    /// data): the stand-in's zeros would be written, so NULL stays glcmd's error
    /// (`GL_INVALID_VALUE`, the common mistake's) and nothing is recorded.
    NoZeros,
    /// Ignored by the GL when the array `of` is NULL (the multi-binds' offsets, strides and
    /// sizes, GL 4.6 §7.9, §10.3.1): glcmd reads nothing there and records zeros.
    IgnoredWithout(&'static str),
}

fn null_rule(f: &Function, p: &Param) -> Option<NullRule> {
    let base = f.name.trim_end_matches("KHR");
    match (base, p.name.as_str()) {
        ("glShaderSource" | "glShaderSourceARB", "string") => Some(NullRule::Refused),
        ("glCreateShaderProgramv", "strings") => Some(NullRule::RaisedAfter),
        ("glObjectLabel" | "glObjectPtrLabel", "label") => Some(NullRule::EmptyLabel),
        ("glBufferSubData" | "glBufferSubDataARB" | "glNamedBufferSubData" | "glNamedBufferSubDataEXT", "data") => {
            Some(NullRule::NoZeros)
        }
        ("glBindVertexBuffers" | "glVertexArrayVertexBuffers", "offsets" | "strides")
        | ("glBindBuffersRange", "offsets" | "sizes") => Some(NullRule::IgnoredWithout("buffers")),
        _ => None,
    }
}

/// Input bytes whose length gl.xml does not give, sized by the GL's own rule ([`Sizing`]): a
/// pixel upload from the list's unpack state, or one texel of `format`/`type`.
fn sized_bytes_conversion(f: &Function, p: &Param) -> Conversion {
    let (id, name) = (ident(p), p.name.as_str());
    match sizing(f, p) {
        Some(Sizing::UnpackImage { dims }) => {
            let dim = |n: &str| -> TokenStream {
                if f.params.iter().any(|q| q.name == n) {
                    let v = format_ident!("{}", n);
                    quote!(#v as i64)
                } else {
                    quote!(1)
                }
            };
            let (w, h, d) = (dim("width"), dim("height"), dim("depth"));
            let nullable = p.nullable;
            let image = quote! {
                let image = glcmd::pixels::Image { dims: #dims, width: #w, height: #h, depth: #d, format, type_ };
            };
            if !nullable && f.name.contains("SubImage") {
                // NULL pixels with no unpack buffer: the GL makes all its checks and then reads
                // nothing (Mesa's `_mesa_validate_pbo_teximage`). glcmd hands no driver NULL
                // pixels: the call reaches the GL with an empty region (positive width, height
                // and depth made 0, no bytes), which the GL checks the same way and which writes
                // nothing. So does a format/type pair glcmd cannot size (it cannot know the
                // bytes): the GL's checks refuse the pair with the GL's error, or an earlier one.
                let dims: Vec<proc_macro2::Ident> = ["width", "height", "depth"]
                    .into_iter()
                    .filter(|n| f.params.iter().any(|q| q.name == *n))
                    .map(|n| format_ident!("{}", n))
                    .collect();
                return Conversion {
                    prep: vec![quote! {
                        #image
                        let empty = crate::pixels::upload_nothing(F, #id.is_null() && !cur.list.pixel_state().unpack_buffer, format, type_);
                        #(let #dims = if empty { #dims.min(0) } else { #dims };)*
                        let #id = if empty {
                            glcmd::Bytes::Slice(&[])
                        } else {
                            // SAFETY: the GL reads the bytes `image` spans at this pointer under
                            // the list's unpack state, which `unpack` records first.
                            unsafe { crate::pixels::unpack(cur, F, #name, #id as *const u8, image, false)? }
                        };
                    }],
                    arg: Some(quote!(#id)),
                };
            }
            Conversion {
                prep: vec![quote! {
                    #image
                    // SAFETY: the GL reads the bytes `image` spans at this pointer under
                    // the list's unpack state, which `unpack` records first.
                    let #id = unsafe { crate::pixels::unpack(cur, F, #name, #id as *const u8, image, #nullable)? };
                }],
                arg: Some(quote!(#id)),
            }
        }
        Some(Sizing::Texel) => Conversion {
            prep: vec![quote! {
                // SAFETY: the GL reads one element of `format`/`type` (or none: NULL).
                let #id = unsafe { crate::pixels::texel(F, #name, #id as *const u8, format, type_)? };
            }],
            arg: Some(quote!(#id)),
        },
        _ => unreachable!("plan() makes unsized arrays unsupported"),
    }
}

/// An output pointer. NULL is no reason to skip the call (issue 30 item 4): a query runs with
/// glcmd's own vector, so the GL makes its checks and raises its errors, and `write_result`
/// writes nothing through NULL; a create into NULL creates nothing (Mesa's `glGen*` and
/// `glCreate*` return at a NULL array after the count's check). Caller-sized bytes pass their
/// length `len`.
fn output_conversion(f: &Function, p: &Param, rule: &Rule) -> Conversion {
    let (id, name) = (ident(p), p.name.as_str());
    // Optional outputs (`length`, `count`) may be NULL; an array of zero values too. Any other
    // NULL is noted (`glcmdLastError`), with no GL error.
    let count_zero = |x: &str| {
        let v = ident(param_named(f, x));
        Some(quote!((#v as i64) == 0))
    };
    let may_be_null = match rule {
        Rule::One if matches!(name, "length" | "count") => return Conversion { prep: Vec::new(), arg: None },
        Rule::Param(x) | Rule::Product(x, _) | Rule::Quotient(x, _) => count_zero(x),
        Rule::String => match p.len.as_deref().and_then(crate::classify::parse_len) {
            Some(Rule::Param(x)) => count_zero(&x),
            _ => None,
        },
        _ => None,
    };
    let is_null = match may_be_null {
        Some(zero) => quote!(#id.is_null() && !#zero),
        None => quote!(#id.is_null()),
    };
    let prep = match rule {
        // A query-object result's pointer may be an offset into the query buffer (NULL: offset
        // 0): the render thread decides.
        _ if f.redirect == Some(crate::model::Redirect::QueryBuffer) => Vec::new(),
        Rule::Param(x) if f.kind == crate::model::Kind::Create => {
            let n = ident(param_named(f, x));
            let nothing = if f.ret.is_void() { quote!(()) } else { quote!(Default::default()) };
            vec![quote! {
                if crate::conv::created_into_null(F, #name, #id.is_null(), #n as i64) {
                    return Ok(#nothing);
                }
            }]
        }
        _ => vec![quote!(crate::conv::output_noted(F, #name, #is_null);)],
    };
    // Pixel reads are sized by the Rust query itself, on the render thread (`runtime/pixels.rs`).
    let arg = (*rule == Rule::Bytes && !crate::sizing::sized_by_query(f, p)).then(|| quote!(len));
    Conversion { prep, arg }
}

/// The one place a Rust result becomes C output: the statement that writes result `value` of
/// output `p` through its pointer.
fn write_result(f: &Function, p: &Param, value: &proc_macro2::Ident) -> TokenStream {
    let id = ident(p);
    let name = p.name.as_str();
    let elem = element_type(p);
    let Role::Out(rule) = &p.role else { unreachable!("only outputs are written") };
    match rule {
        Rule::One => quote! {
            // SAFETY: checked non-NULL above (or optional and skipped); the GL writes one value.
            unsafe { crate::conv::write_one(#id as *mut #elem, #value) };
        },
        Rule::Const(_) => quote! {
            // SAFETY: the GL writes this many values; so does glcmd.
            unsafe { crate::conv::write_slice(#id as *mut #elem, &#value[..]) };
        },
        Rule::Product(..) => quote! {
            // SAFETY: the GL writes these values; so does glcmd.
            unsafe { crate::conv::write_slice(#id as *mut #elem, #value.as_flattened()) };
        },
        Rule::String => {
            let Some(Rule::Param(x)) = p.len.as_deref().and_then(crate::classify::parse_len) else {
                unreachable!("classify gives output strings a parameter length")
            };
            let size = ident(param_named(f, &x));
            let length = f
                .params
                .iter()
                .find(|q| matches!(&q.role, Role::OutLength { of } if *of == p.name))
                .map(|q| {
                    let l = ident(q);
                    quote!(#l)
                })
                .unwrap_or(quote!(std::ptr::null_mut()));
            quote! {
                // SAFETY: at most `bufSize` bytes, NUL included, as the GL writes.
                unsafe { crate::conv::write_string(#id as *mut u8, #size as i64, #length, &#value) };
            }
        }
        Rule::Quotient(x, _) => {
            let size = ident(param_named(f, x));
            quote! {
                // SAFETY: at most `bufSize` bytes, which the caller's buffer holds.
                unsafe { crate::conv::write_slice_bytes(#id as *mut #elem, &#value, #size as i64) };
            }
        }
        _ => {
            let _ = name;
            quote! {
                // SAFETY: the GL writes these values (sized by the length rule); so does glcmd.
                unsafe { crate::conv::write_slice(#id as *mut #elem, &#value) };
            }
        }
    }
}

/// The value an entry point returns when it fails: what the GL returns for "nothing" (-1 for
/// locations and for the signed indices, `glGetFragDataIndex` and
/// `glGetProgramResourceLocationIndex`; `GL_INVALID_INDEX` for the unsigned indices; zero or
/// NULL otherwise). `run/tests/c/refusals.c` compares each with the GL's.
fn error_return(f: &Function) -> TokenStream {
    if f.ret.is_void() {
        return quote!(());
    }
    if f.ret.is_pointer() {
        return if f.ret.points_to_const() { quote!(std::ptr::null()) } else { quote!(std::ptr::null_mut()) };
    }
    match f.ret.base.as_str() {
        "GLint" if f.name.contains("Location") || f.name.ends_with("Index") => quote!(-1),
        "GLuint" if f.name.ends_with("Index") => quote!(u32::MAX),
        "GLsync" => quote!(std::ptr::null()),
        _ => quote!(Default::default()),
    }
}

fn entry_doc(f: &Function, what: &str) -> TokenStream {
    let line = format!(" `{}` ({}, {}): {what}.", f.name, f.feature, f.kind);
    quote!(#[doc = #line])
}

/// The counts that size arrays (`Role::Length`), converted first: negative is an error. A
/// string's byte length is not one of them (negative means NUL-terminated there).
fn counts(f: &Function) -> Vec<TokenStream> {
    f.params
        .iter()
        .filter(|p| match &p.role {
            Role::Length { of } => of.iter().any(|o| !matches!(param_named(f, o).role, Role::In(Rule::String))),
            _ => false,
        })
        .map(|p| {
            let (v, n, name) = (ident(p), count_var(p), p.name.as_str());
            quote!(let #n = crate::conv::count(F, #name, #v as i64)?;)
        })
        .collect()
}

/// The body of a recording closure for `f` (`cur`: the thread's `Recording`).
fn record_body(f: &Function) -> TokenStream {
    let method = format_ident!("{}", f.method_name());
    let mut prep = Vec::new();
    prep.extend(counts(f));
    let mut args = Vec::new();
    for p in &f.params {
        let c = convert_param(f, p, Target::List);
        prep.extend(c.prep);
        args.extend(c.arg);
    }
    let hook = pixel_hook(f);
    let call = quote!(cur.list.#method(#(#args),*));
    let call = if f.is_unsafe() {
        quote! {
            // SAFETY: every array the method's contract sizes was sized above by the GL's own
            // rule; addresses and handles are the C caller's (C is unsafe: its contract holds).
            unsafe { #call };
        }
    } else {
        quote!(#call;)
    };
    quote! {
        #(#prep)*
        #hook
        #call
        Ok(())
    }
}

/// What the C boundary checks of a pixel-store call before the list records (and tracks) it:
/// a float the Rust method would refuse with a panic is an error of the entry point instead.
fn pixel_hook(f: &Function) -> TokenStream {
    match f.name.as_str() {
        "glPixelStoref" => quote!(crate::pixels::store_float(pname, param)?;),
        _ => quote!(),
    }
}

/// The body of a round-trip closure for `f` (`device`: the thread's current device).
fn round_trip_body(api: &Api, f: &Function) -> TokenStream {
    let method = format_ident!("{}", f.method_name());
    let mut prep = Vec::new();
    prep.extend(counts(f));
    let mut args = Vec::new();
    for p in &f.params {
        let c = convert_param(f, p, Target::Device);
        prep.extend(c.prep);
        args.extend(c.arg);
    }
    let unsafety = f.is_unsafe();
    let sized = f.params.iter().find_map(|p| sizing(f, p));
    let call = match sized {
        // Measured and called on the render thread, in one round trip.
        Some(s @ (Sizing::CompressedLevel | Sizing::Uniform)) => {
            let size = match s {
                Sizing::CompressedLevel => quote!(crate::sizes::Size::CompressedLevel { target, level }),
                _ => quote!(crate::sizes::Size::Uniform { program, location }),
            };
            quote! {
                crate::sizes::sized(F, device, #size, move |device, len| {
                    // SAFETY: `len` is what the GL writes, measured on the render thread just
                    // before this call, in the same round trip.
                    unsafe { device.#method(#(#args),*) }
                })?
            }
        }
        Some(Sizing::IndexedBoolean) => {
            // The integer query of the same indexed pname, whose count the pname tables know.
            let integer = api
                .functions
                .iter()
                .find(|g| g.name == "glGetIntegeri_v")
                .map(|g| format_ident!("{}", g.method_name()))
                .expect("glGetIntegeri_v is in the header");
            quote! {{
                let len = crate::conv::checked(F, device.#integer(target, index))?.len();
                // SAFETY: the pname's count, as the integer query of the same pname returns it.
                crate::conv::checked(F, unsafe { device.#method(#(#args),*) })?
            }}
        }
        Some(Sizing::One) => quote! {{
            let len = 1;
            // SAFETY: every pname of this query has one value.
            crate::conv::checked(F, unsafe { device.#method(#(#args),*) })?
        }},
        _ if unsafety => quote! {
            // SAFETY: the C caller upholds the method's contract (C is unsafe): addresses and
            // handles are passed through as given.
            crate::conv::checked(F, unsafe { device.#method(#(#args),*) })?
        },
        _ => quote!(crate::conv::checked(F, device.#method(#(#args),*))?),
    };
    // Results: the return value, then each output in parameter order.
    let mut names = Vec::new();
    let mut writes = Vec::new();
    let mut ret = quote!(());
    if !f.ret.is_void() {
        names.push(format_ident!("ret"));
        ret = if f.ret.is_pointer() && f.ret.base == "GLubyte" {
            quote!(crate::conv::intern(ret))
        } else if f.ret.is_pointer() {
            let t = rust_type(&f.ret);
            quote!(ret as #t)
        } else {
            quote!(crate::conv::ret(ret))
        };
    }
    for (i, p) in f.params.iter().enumerate() {
        if let Role::Out(_) = p.role {
            let v = format_ident!("r{}", i);
            writes.push(write_result(f, p, &v));
            names.push(v);
        }
    }
    let pattern = match names.len() {
        0 => quote!(()),
        1 => {
            let n = &names[0];
            quote!(#n)
        }
        _ => quote!((#(#names),*)),
    };
    let call = with_client_outputs(f, call);
    let created = after_round_trip(f);
    quote! {
        #(#prep)*
        let #pattern = #call;
        #(#writes)*
        #created
        Ok(#ret)
    }
}

/// `call`, given the C caller's output pointers where the query fills its vectors from them (so
/// what the GL does not write keeps its value) or takes a query-buffer offset for one
/// (`runtime/client_out.rs`).
fn with_client_outputs(f: &Function, call: TokenStream) -> TokenStream {
    if !super::device::uses_client_outputs(f) {
        return call;
    }
    let outputs: Vec<TokenStream> = f
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p.role, Role::Out(_)))
        .map(|(i, p)| {
            let (id, index) = (ident(p), Literal::usize_unsuffixed(i));
            quote!((#index, #id as *mut std::ffi::c_void))
        })
        .collect();
    quote! {{
        // The call's `?`s return its errors from the closure.
        #[allow(clippy::needless_question_mark)]
        let query = || -> Result<_, crate::error::CallError> { Ok(#call) };
        // SAFETY: each pointer is what the C caller gave the GL for that output: memory the
        // GL may write (so also read) for what the query's vector holds, or an offset.
        unsafe { glcmd::client_out::with_client_outputs(&[#(#outputs),*], query) }?
    }}
}

/// What follows the round trip of `f` in the entry point: the vertex arrays `elements.rs` must
/// know were made, or the GL's error for NULL strings after the earlier calls' errors.
fn after_round_trip(f: &Function) -> TokenStream {
    if matches!(f.name.as_str(), "glGenVertexArrays" | "glCreateVertexArrays") {
        // SAFETY: the names were written to `arrays` just now.
        quote!(unsafe { crate::elements::created(n, arrays) };)
    } else if f.params.iter().any(|p| null_rule(f, p) == Some(NullRule::RaisedAfter)) {
        // The GL's error for NULL strings, after the earlier calls' errors (`NullRule`).
        quote! {
            if null_strings {
                crate::immediate::collect_errors(F);
                crate::error::raise_gl(glcmd::gl::INVALID_VALUE);
            }
        }
    } else {
        quote!()
    }
}

/// Before a sub-image upload: NULL pixels on an immediate thread are answered in one round
/// trip, with the GL's check that the region lies in the level (`pixels::null_sub_image`).
fn sub_image_hook(f: &Function) -> TokenStream {
    let dims: u8 = match f.name.as_str() {
        "glTexSubImage1D" | "glTextureSubImage1D" => 1,
        "glTexSubImage2D" | "glTextureSubImage2D" => 2,
        "glTexSubImage3D" | "glTextureSubImage3D" => 3,
        _ => return quote!(),
    };
    let has = |n: &str| f.params.iter().any(|p| p.name == n);
    let a = |n: &str| format_ident!("{}", crate::naming::param_ident(n));
    let or = |n: &str, default: TokenStream| {
        let v = a(n);
        if has(n) {
            quote!(#v)
        } else {
            default
        }
    };
    let dsa = has("texture");
    let object = if dsa { a("texture") } else { a("target") };
    let offset = [or("xoffset", quote!(0)), or("yoffset", quote!(0)), or("zoffset", quote!(0))];
    let size = [or("width", quote!(1)), or("height", quote!(1)), or("depth", quote!(1))];
    // `level`, `format` and `type_` are the parameters' own names.
    let pixels = a("pixels");
    quote! {
        let sub_image = crate::pixels::SubImage {
            dims: #dims, dsa: #dsa, object: #object, level, offset: [#(#offset),*], size: [#(#size),*], format, type_,
        };
        if crate::pixels::null_sub_image(F, sub_image, #pixels.is_null()) {
            return;
        }
    }
}

/// The hooks of `elements.rs` (client-memory indices, issue 34 item 6) around a recording entry
/// point: before an element draw, the draw from client memory where the thread knows the
/// vertex array has no element buffer (the entry point returns then); after a call that changes
/// what the thread knows, the update.
fn element_hooks(f: &Function) -> (TokenStream, TokenStream) {
    let has = |n: &str| f.params.iter().any(|p| p.name == n);
    let a = |n: &str| format_ident!("{}", crate::naming::param_ident(n));
    let after = match f.name.as_str() {
        "glBindVertexArray" => quote!(crate::elements::bound_vertex_array(array);),
        "glBindBuffer" => quote!(crate::elements::bound_buffer(target, buffer);),
        "glVertexArrayElementBuffer" => quote!(crate::elements::vertex_array_element_buffer(vaobj, buffer);),
        // SAFETY: the GL read `n` names there; so did the recording.
        "glDeleteVertexArrays" => quote!(unsafe { crate::elements::deleted_vertex_arrays(n, arrays) };),
        _ => quote!(),
    };
    let kind = match f.name.as_str() {
        "glDrawElements" => "Elements",
        "glDrawElementsBaseVertex" => "ElementsBaseVertex",
        "glDrawElementsInstanced" => "ElementsInstanced",
        "glDrawElementsInstancedBaseVertex" => "ElementsInstancedBaseVertex",
        "glDrawElementsInstancedBaseInstance" => "ElementsInstancedBaseInstance",
        "glDrawElementsInstancedBaseVertexBaseInstance" => "ElementsInstancedBaseVertexBaseInstance",
        "glDrawRangeElements" => "RangeElements",
        "glDrawRangeElementsBaseVertex" => "RangeElementsBaseVertex",
        "glMultiDrawElements" => "MultiElements",
        "glMultiDrawElementsBaseVertex" => "MultiElementsBaseVertex",
        _ => return (quote!(), after),
    };
    let kind = format_ident!("{}", kind);
    let (mode, count, type_, indices) = (a("mode"), a("count"), a("type"), a("indices"));
    let client = if f.name.starts_with("glMultiDraw") {
        let drawcount = a("drawcount");
        let bv = if has("basevertex") {
            let b = a("basevertex");
            quote!(#b)
        } else {
            quote!(std::ptr::null())
        };
        quote! {
            // SAFETY: the GL's own contract for these arrays (`elements.rs`).
            if unsafe { crate::elements::multi(F, glcmd::client_indices::ElementDraw::#kind, #mode, #count, #type_, #indices, #drawcount, #bv) } {
                return;
            }
        }
    } else {
        let opt = |n: &str, default: TokenStream| {
            if has(n) {
                let v = a(n);
                quote!(#v as _)
            } else {
                default
            }
        };
        let instances = opt("instancecount", quote!(1));
        let base_vertex = opt("basevertex", quote!(0));
        let base_instance = opt("baseinstance", quote!(0));
        let range = if has("start") { quote!((start, end)) } else { quote!((0, 0)) };
        quote! {
            let extras = crate::elements::Extras {
                instances: #instances, base_vertex: #base_vertex, base_instance: #base_instance, range: #range,
            };
            // SAFETY: the GL's own contract for `indices` (`elements.rs`).
            if unsafe { crate::elements::single(F, glcmd::client_indices::ElementDraw::#kind, #mode, #count, #type_, #indices, extras) } {
                return;
            }
        }
    };
    (client, after)
}

/// The entry point of one function.
fn entry_point(api: &Api, f: &Function) -> TokenStream {
    let name = format_ident!("{}", f.name);
    let gl_name = f.name.as_str();
    let params: Vec<TokenStream> = f
        .params
        .iter()
        .map(|p| {
            let id = ident(p);
            let ty = rust_type(&p.ty);
            quote!(#id: #ty)
        })
        .collect();
    let ret = if f.ret.is_void() {
        quote!()
    } else {
        let t = rust_type(&f.ret);
        quote!(-> #t)
    };
    let default = error_return(f);
    let method = f.method_name();
    let (doc, body) = match plan(f) {
        Plan::Special => unreachable!("special entry points are hand-written"),
        Plan::Unsupported(reason) => (
            entry_doc(f, &format!("unsupported through the C ABI ({reason})")),
            quote! {
                crate::call::unsupported(F, #reason);
                #default
            },
        ),
        Plan::Record => {
            let body = record_body(f);
            let (client, after) = element_hooks(f);
            let sub_image = sub_image_hook(f);
            // The program's debug-output state, for synchronous delivery (capi/src/debug_sync.rs).
            let debug_cap = match f.name.as_str() {
                "glEnable" => quote!(crate::call::debug_cap(F, cap, true);),
                "glDisable" => quote!(crate::call::debug_cap(F, cap, false);),
                _ => quote!(),
            };
            (
                entry_doc(f, &format!("records `CommandList::{method}` into the calling thread's current list")),
                quote! {
                    #debug_cap
                    #client
                    #sub_image
                    crate::call::record(F, |cur| { #body });
                    #after
                },
            )
        }
        Plan::RoundTrip => {
            let body = round_trip_body(api, f);
            let what = if f.kind == Kind::Create { "creates" } else { "queries" };
            let mut doc = format!("{what} through `Device::{method}` of the calling thread's current device");
            let pack = pack_variant(api, f).map(|g| {
                doc.push_str(&format!(
                    "; while the thread's list has a pixel-pack buffer bound, records `CommandList::{}` instead",
                    g.method_name()
                ));
                let body = record_body(&g);
                quote! {
                    if crate::call::pack_buffer_bound() {
                        return crate::call::record(F, |cur| { #body });
                    }
                }
            });
            let recent = recent_lookup(f);
            (
                entry_doc(f, &doc),
                quote! {
                    #pack
                    #recent
                    crate::call::round_trip(F, #default, |device| { #body })
                },
            )
        }
    };
    quote! {
        #doc
        #[allow(unused_variables, unused_mut, clippy::too_many_arguments, clippy::unnecessary_cast, clippy::let_unit_value)]
        pub unsafe extern "system" fn #name(#(#params),*) #ret {
            const F: &str = #gl_name;
            #body
        }
    }
}

/// A query's fast path (`capi/src/fast_answers.rs`), before the generic entry point: a program
/// interface lookup from the thread's copy of the cache, `glGetIntegerv` and `glIsEnabled` from
/// the limits and the recorded state.
fn recent_lookup(f: &Function) -> TokenStream {
    match f.name.as_str() {
        "glGetIntegerv" => {
            return quote! {
                // SAFETY: `data` is NULL or has room for what `pname` yields, as for the generic path.
                if unsafe { crate::fast_answers::integerv(pname, data) } {
                    return;
                }
            };
        }
        "glIsEnabled" => {
            return quote! {
                if let Some(v) = crate::fast_answers::is_enabled(cap) {
                    return crate::conv::ret(v);
                }
            }
        }
        _ => {}
    }
    let Some(&(_, lookup, aux)) = crate::shadow_hooks::PROGRAM_LOOKUPS.iter().find(|(n, _, _)| *n == f.name) else {
        return quote!();
    };
    let lookup = format_ident!("{}", lookup);
    let aux = match aux {
        Some(a) => {
            let a = ident(param_named(f, a));
            quote!(#a as u32)
        }
        None => quote!(0u32),
    };
    let name = ident(f.params.iter().find(|p| matches!(p.role, Role::In(Rule::String))).expect("a name argument"));
    quote! {
        // SAFETY: `name` is NULL or NUL-terminated, as for the generic path.
        if let Some(v) = unsafe { crate::fast_answers::recent(glcmd::programs::Lookup::#lookup, #aux, program, #name) } {
            return v as _;
        }
    }
}

/// The entry points, the `GlcmdGL` table and the lookup tables, or an error naming each special
/// function the C ABI does not know.
pub fn emit(api: &Api) -> Result<TokenStream, Vec<Error>> {
    let errors: Vec<Error> = api
        .functions
        .iter()
        .filter(|f| f.kind == Kind::Special && !SPECIALS.iter().any(|s| s.name == f.name))
        .map(|f| Error::Classify {
            at: Position { file: "glcorearb.h".into(), line: f.header_line },
            function: f.name.clone(),
            message: "a special function without a C entry point; add it to SPECIALS in codegen/src/emit/capi.rs"
                .into(),
        })
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut entries = Vec::new();
    let mut fields = Vec::new();
    let mut inits = Vec::new();
    let mut names = Vec::new();
    let mut kinds = Vec::new();
    let mut flag_values = Vec::new();
    for f in &api.functions {
        let field = format_ident!("{}", f.short_name());
        let pfn = super::loader::pfn_alias(f);
        let name = format_ident!("{}", f.name);
        let path = match plan(f) {
            Plan::Special => quote!(crate::special::#name),
            _ => {
                entries.push(entry_point(api, f));
                quote!(#name)
            }
        };
        let doc = format!(" `{}` ({}).", f.name, f.feature);
        fields.push(quote!(#[doc = #doc] pub #field: loader::#pfn,));
        inits.push(quote!(#field: #path,));
        let gl_name = f.name.as_str();
        names.push(quote!(#gl_name));
        let kind: u8 = match f.kind {
            Kind::Record => 1,
            Kind::Create => 2,
            Kind::Delete => 3,
            Kind::Query => 4,
            Kind::Special => 5,
        };
        kinds.push(kind);
        flag_values.push(flags(f));
    }
    let count = api.functions.len();
    let alias_count = api.aliases.len();
    let aliases = api.aliases.iter().map(|a| {
        let (name, canonical) = (&a.name, &a.canonical);
        quote!((#name, #canonical))
    });
    Ok(quote! {
        use glcmd::generated::{loader, types};

        #(#entries)*

        /// Every entry point, in the order of the header's functions sorted by name: the table
        /// `glcmd.h` declares as `GlcmdGL`. Each field has the loader's pointer type of its
        /// function, so the compiler checks every entry point against `glcorearb.h`.
        #[repr(C)]
        #[derive(Clone, Copy)]
        #[allow(non_snake_case)]
        pub struct GlcmdGL {
            #(#fields)*
        }

        /// The table of entry points.
        pub static TABLE: GlcmdGL = GlcmdGL { #(#inits)* };

        /// Number of functions.
        pub const COUNT: usize = #count;
        /// GL names, sorted (byte order), in table order.
        pub static NAMES: [&str; #count] = [#(#names),*];
        /// Kind of each function: 1 record, 2 create, 3 delete, 4 query, 5 special.
        pub static KINDS: [u8; #count] = [#(#kinds),*];
        /// `glcmdFunctionInfo` flags of each function.
        pub static FLAGS: [u8; #count] = [#(#flag_values),*];
        /// gl.xml-only names that gl.xml declares aliases of a function of `NAMES` (same
        /// semantics and C types), sorted (byte order): (alias, canonical function).
        /// `glcmdGetProcAddress` answers an alias with the canonical function's entry point.
        pub static ALIASES: [(&str, &str); #alias_count] = [#(#aliases),*];
    })
}
