//! The plain data model the emitters read: every GL function with its kind and, for each
//! parameter, the role it plays in the generated API.
//!
//! Like gl-rs's registry, this is data without behaviour. `classify` builds it from the header
//! and gl.xml; each emitter walks it and returns tokens.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::ctype::CType;

#[derive(Clone, Debug)]
pub struct Api {
    /// Sorted by GL name.
    pub functions: Vec<Function>,
    /// `#define` enumerants of the header, in header order.
    pub enums: Vec<(String, u64)>,
    /// GL typedefs of the header: name and C definition.
    pub typedefs: Vec<(String, String)>,
    /// gl.xml enum group -> enumerant names that the header defines.
    pub groups: BTreeMap<String, Vec<String>>,
    /// The groups whose every member is below 0xFFFF: a parameter of such a group is packed
    /// as 16 bits.
    pub narrow_groups: BTreeSet<String>,
    /// gl.xml's extensions, in registry order, with what each requires of a core-profile
    /// context (one for OpenGL ES only: what all its blocks require). Computed before [`Api::select`], which leaves it whole: the
    /// runtime decides at build time which families are there.
    pub extensions: Vec<Provision>,
    /// The core versions (`GL_VERSION_1_0` .. `GL_VERSION_4_6`), as [`Api::extensions`].
    pub versions: Vec<Provision>,
    /// gl.xml-only names served with the entry point of a function of [`Api::functions`]
    /// (`crate::aliases`), sorted by name.
    pub aliases: Vec<Alias>,
}

/// A name gl.xml declares an `<alias>` of a function glcmd generates (same semantics, same C
/// types), which the header does not declare: `glFramebufferTextureLayerEXT` of
/// `glFramebufferTextureLayer`. Served with the canonical function's entry point.
#[derive(Clone, Debug, PartialEq)]
pub struct Alias {
    /// `glFramebufferTextureLayerEXT`.
    pub name: String,
    /// `glFramebufferTextureLayer`.
    pub canonical: String,
    /// The family whose cargo feature serves it: the family of the extension that provides
    /// the name, which is also the canonical function's or the canonical function is core.
    pub family: Family,
}

/// An extension or a core version and the functions it requires of a core-profile context,
/// each with the family whose cargo feature generates its entry point (`None`: the function is
/// not in the header, so no build of glcmd has one).
#[derive(Clone, Debug, PartialEq)]
pub struct Provision {
    pub name: String,
    pub functions: Vec<Required>,
    /// Functions required only where another extension is supported too: (that extension,
    /// the functions).
    pub conditional: Vec<(String, Vec<Required>)>,
}

/// A required function and the family of its entry point (`None`: not in the header).
pub type Required = (String, Option<Family>);

/// What the generated API does with a function. Every function has exactly one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A `CommandList` method writes one packet.
    Record,
    /// A `Device` method runs at once on the render thread and returns new names.
    Create,
    /// Recorded in order; runs after every list of its frame.
    Delete,
    /// A `Device` method: waits for earlier submissions, runs on the render thread, returns.
    Query,
    /// Hand-written in the runtime (or reached through `Device::with_gl`); see `reason`.
    Special,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Record => "record",
            Kind::Create => "create",
            Kind::Delete => "delete",
            Kind::Query => "query",
            Kind::Special => "special",
        })
    }
}

#[derive(Clone, Debug)]
pub struct Function {
    /// `glBindTexture`.
    pub name: String,
    /// `GL_VERSION_1_1`, `GL_ARB_bindless_texture`, ...
    pub feature: String,
    pub ret: CType,
    /// gl.xml `class` of the returned object name, if any.
    pub ret_class: Option<String>,
    pub params: Vec<Param>,
    pub kind: Kind,
    /// Why a special function is special.
    pub special_reason: Option<&'static str>,
    pub header_line: usize,
    /// Why the Rust method is `unsafe` (its `# Safety` section), when glcmd cannot make every
    /// argument safe: a length the GL derives from state, a GPU address. `None`: safe.
    pub unsafe_reason: Option<String>,
    /// What provides the function to a desktop context (gl.xml): core versions
    /// (`GL_VERSION_4_5`) and extensions. The runtime checks them against the context.
    pub providers: Vec<String>,
    /// The buffer binding that turns this function's client-memory pointer into a buffer
    /// offset (pixel transfers, query results), if any.
    pub redirect: Option<Redirect>,
    /// For a second API entry of the same GL function (`read_pixels_to_buffer`): the suffix of
    /// its method name. `None` for the function itself.
    pub variant: Option<&'static str>,
}

/// A buffer binding that makes the GL read or write a buffer object instead of the client
/// memory a pointer argument names (the pointer becomes an offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Redirect {
    /// `GL_PIXEL_UNPACK_BUFFER`: pixel data the GL reads (texture uploads).
    PixelUnpack,
    /// `GL_PIXEL_PACK_BUFFER`: pixel data the GL writes (`glReadPixels`, `glGetTexImage`).
    PixelPack,
    /// `GL_QUERY_BUFFER`: query-object results (`glGetQueryObject*`).
    QueryBuffer,
}

impl Function {
    /// Whether the Rust method is `unsafe`.
    pub fn is_unsafe(&self) -> bool {
        self.unsafe_reason.is_some()
    }

    /// `bind_texture` for `glBindTexture`.
    pub fn method_name(&self) -> String {
        match self.variant {
            Some(v) => format!("{}_{v}", crate::naming::snake_case(&self.name)),
            None => crate::naming::snake_case(&self.name),
        }
    }

    /// Rust type names for this entry: `BindTexture`, `ReadPixelsToBuffer`.
    pub fn type_name(&self) -> String {
        let mut s = self.short_name().to_string();
        for part in self.variant.unwrap_or("").split('_').filter(|p| !p.is_empty()) {
            s.push_str(&part[..1].to_uppercase());
            s.push_str(&part[1..]);
        }
        s
    }
    /// `BindTexture` for `glBindTexture`.
    pub fn short_name(&self) -> &str {
        &self.name[2..]
    }

    /// Which cargo feature of glcmd generates this function: from the header block that
    /// declares it.
    pub fn family(&self) -> Family {
        Family::of(&self.feature)
    }
}

impl Family {
    /// The family of a feature block: a core version, `GL_ARB_*` and `GL_KHR_*` are core,
    /// `GL_EXT_*` is `Ext`, any other extension is `Vendor`.
    pub fn of(feature: &str) -> Family {
        let f = feature;
        if f.starts_with("GL_VERSION_") || f.starts_with("GL_ARB_") || f.starts_with("GL_KHR_") {
            Family::Core
        } else if f.starts_with("GL_EXT_") {
            Family::Ext
        } else {
            Family::Vendor
        }
    }
}

/// The extension families glcmd's cargo features select. Core versions, ARB and KHR are
/// always generated; EXT and vendor extensions (NV, AMD, INTEL, MESA, OVR) only on request,
/// since they are 41 % of the header's functions and most of them duplicate core functions
/// (EXT_direct_state_access alone is 200).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    /// `GL_VERSION_*`, `GL_ARB_*`, `GL_KHR_*`.
    Core,
    /// `GL_EXT_*`: cargo feature `ext`.
    Ext,
    /// Every other extension block: cargo feature `vendor`.
    Vendor,
}

/// What to generate: the extension families and the optional files.
///
/// An options type as glcmd's are (glcmd's `runtime/builders.rs` gives the rule):
/// `#[non_exhaustive]`, so a struct literal does not compile outside this crate and a new family
/// is not a breaking change for a build script, and made from [`Selection::default`] (core GL,
/// ARB and KHR only: glcmd's default features) with one builder method per field:
///
/// ```
/// use glcmd_codegen::Selection;
/// let ext = Selection::default().ext(true);
/// assert!(ext.ext && !ext.vendor && !ext.checking);
/// assert_eq!(Selection::default().ext(true).vendor(true).checking(true), Selection::ALL);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Selection {
    /// `GL_EXT_*` functions (glcmd feature `ext`).
    pub ext: bool,
    /// NV, AMD, INTEL, MESA and OVR functions (glcmd feature `vendor`).
    pub vendor: bool,
    /// The checking function table `checked.rs` (glcmd feature `checking`).
    pub checking: bool,
}

impl Selection {
    /// Everything: the snapshots, the CLI and the soundness sweep.
    pub const ALL: Selection = Selection { ext: true, vendor: true, checking: true };

    /// Sets [`Selection::ext`] and returns the selection.
    #[must_use = "a builder method returns the changed selection; the one it was called on is gone"]
    pub fn ext(mut self, ext: bool) -> Self {
        self.ext = ext;
        self
    }

    /// Sets [`Selection::vendor`] and returns the selection.
    #[must_use = "a builder method returns the changed selection; the one it was called on is gone"]
    pub fn vendor(mut self, vendor: bool) -> Self {
        self.vendor = vendor;
        self
    }

    /// Sets [`Selection::checking`] and returns the selection.
    #[must_use = "a builder method returns the changed selection; the one it was called on is gone"]
    pub fn checking(mut self, checking: bool) -> Self {
        self.checking = checking;
        self
    }

    pub fn includes(&self, family: Family) -> bool {
        match family {
            Family::Core => true,
            Family::Ext => self.ext,
            Family::Vendor => self.vendor,
        }
    }
}

impl Api {
    /// Keeps the functions of the selected families.
    pub fn select(&mut self, selection: &Selection) {
        self.functions.retain(|f| selection.includes(f.family()));
        self.aliases.retain(|a| selection.includes(a.family));
    }
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: CType,
    /// gl.xml `len`, as written.
    pub len: Option<String>,
    pub group: Option<String>,
    pub class: Option<String>,
    pub role: Role,
    /// The GL accepts NULL for this array: the Rust API takes `Option<&[T]>`.
    pub nullable: bool,
    /// Compressed pixel data sized by a byte-count argument: the Rust API takes `glcmd::Bytes`
    /// (a slice checked against the count, or an offset into the pixel-unpack buffer).
    pub unpack_offset: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    /// A scalar passed through.
    Value,
    /// A `GLsync`: glcmd hands out handles that the render thread resolves.
    Sync,
    /// A scalar count that the Rust API derives from the length of the slices named here.
    Length { of: Vec<String> },
    /// A `const GLint *length` array that the Rust API derives from `&[&str]`.
    LengthArray { of: String },
    /// A scalar length consumed by a string output (`GLsizei *length` of an info log).
    OutLength { of: String },
    /// An array the GL reads; copied into the parameter buffer.
    In(Rule),
    /// An array or value the GL writes; returned by the query.
    Out(Rule),
    /// A pointer that is really an offset into a bound buffer (`usize`).
    Offset,
    /// A pointer value passed through untouched (`userParam`).
    Opaque,
}

/// How long an array argument is.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    /// `len="n"`: as many elements as the parameter says.
    Param(String),
    /// `len="16"`.
    Const(u32),
    /// `len="count*4"`: the Rust API takes chunks `&[[T; 4]]`.
    Product(String, u32),
    /// `len="bufSize/4"`: the parameter counts bytes.
    Quotient(String, u32),
    /// `COMPSIZE(pname)`: a hand-written table from the enum group maps pname to a count.
    Pname { group: String, param: String },
    /// The length depends on GL state (pixel data and the like): the caller sizes the slice
    /// and the method is `unsafe`.
    Bytes,
    /// A NUL-terminated string (`&str` in, `String` out).
    String,
    /// An array of strings, `&[&str]`, as many as the parameter says.
    Strings(String),
    /// A single value.
    One,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Param(p) => write!(f, "param({p})"),
            Rule::Const(n) => write!(f, "const({n})"),
            Rule::Product(p, n) => write!(f, "product({p}*{n})"),
            Rule::Quotient(p, n) => write!(f, "product({p}/{n})"),
            Rule::Pname { group, param } => write!(f, "pname({param}:{group})"),
            Rule::Bytes => f.write_str("bytes"),
            Rule::String => f.write_str("string"),
            Rule::Strings(p) => write!(f, "strings({p})"),
            Rule::One => f.write_str("one"),
        }
    }
}

impl Rule {
    /// The rule family, for counting: parameter, constant, product, pname, bytes, string.
    pub fn family(&self) -> &'static str {
        match self {
            Rule::Param(_) => "parameter",
            Rule::Const(_) | Rule::One => "constant",
            Rule::Product(..) | Rule::Quotient(..) => "product",
            Rule::Pname { .. } => "pname",
            Rule::Bytes => "bytes",
            Rule::String | Rule::Strings(_) => "string",
        }
    }
}
