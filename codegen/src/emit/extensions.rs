//! What each desktop GL extension and core version requires of a core-profile context, and
//! which of glcmd's families has an entry point for each required function.
//!
//! A driver lists every extension it implements; glcmd passes calls through only for the
//! functions it generates, and which it generates depends on the cargo features of the build
//! (`ext`, `vendor`: [`Family`]). A loader such as glad sets
//! `GLAD_GL_EXT_framebuffer_object` from the extension list and then calls the extension's
//! functions through the pointers it loaded: an extension listed with a function glcmd lacks
//! is a call through NULL. So the runtime (`runtime/served.rs`) lists an extension only if
//! every function it requires has an entry point in the families built, and caps the version
//! the same way. This file is its data: per extension (sorted by name, for a binary search) and
//! per core version (in order), the functions gl.xml's `<require>` blocks name for desktop core
//! (blocks for `gles2` or the compatibility profile do not count, except for an extension gl.xml
//! lists for OpenGL ES only, where all count; and a version's functions that a later version
//! removes from core are left out), each with the family that generates it, or
//! `None` where no build has an entry point for it. A gl.xml-only name that gl.xml declares an
//! alias of a generated function (`glFramebufferTextureLayerEXT`) has the family that serves the
//! alias (`crate::aliases`); the table `ALIASES` lists them. Functions gl.xml requires
//! only where another extension is supported too come apart, with that extension's name.

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{Api, Family, Provision};

/// A family's letter in a function list: `c`ore, `e`xt, `v`endor, `-` for none.
fn letter(f: Option<Family>) -> char {
    match f {
        Some(Family::Core) => 'c',
        Some(Family::Ext) => 'e',
        Some(Family::Vendor) => 'v',
        None => '-',
    }
}

fn known(f: Family) -> TokenStream {
    match f {
        Family::Core => quote!(Family::Core),
        Family::Ext => quote!(Family::Ext),
        Family::Vendor => quote!(Family::Vendor),
    }
}

/// `"glA:c glB:-"`: one string literal per list. As nested slices of tuples, the 3 400
/// requirements were a static that every build of glcmd const-evaluated, a second of compile
/// time; the runtime reads the strings with `Provision::functions`.
fn functions(list: &[(String, Option<Family>)]) -> String {
    let items: Vec<String> = list.iter().map(|(name, f)| format!("{name}:{}", letter(*f))).collect();
    items.join(" ")
}

fn provision(p: &Provision) -> TokenStream {
    let name = &p.name;
    let required = functions(&p.functions);
    let conditional = p.conditional.iter().map(|(c, list)| {
        let list = functions(list);
        quote!((#c, #list),)
    });
    quote!(Provision { name: #name, required: #required, conditional_lists: &[#(#conditional)*] },)
}

pub fn emit(api: &Api) -> TokenStream {
    let mut extensions: Vec<&Provision> = api.extensions.iter().collect();
    extensions.sort_by(|a, b| a.name.cmp(&b.name));
    extensions.dedup_by(|a, b| a.name == b.name);
    let extensions = extensions.into_iter().map(provision);
    let versions = api.versions.iter().map(provision);
    let aliases = api.aliases.iter().map(|a| {
        let (name, canonical, f) = (&a.name, &a.canonical, known(a.family));
        quote!((#name, #canonical, #f),)
    });
    quote! {
        /// The cargo feature that generates a function: core GL, ARB and KHR always; `GL_EXT_*`
        /// with `ext`; NV, AMD, INTEL, MESA and OVR with `vendor`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Family {
            Core,
            Ext,
            Vendor,
        }

        /// A required function and the family of its entry point (`None`: no build of glcmd
        /// has one: neither the header nor glcmd's gl.xml-only functions declare it, and it is
        /// no alias glcmd serves).
        pub type Function = (&'static str, Option<Family>);

        /// An extension or core version and what it requires of a core-profile context
        /// (read with `functions` and `conditional`, in `runtime/served.rs`).
        #[derive(Debug)]
        pub struct Provision {
            pub name: &'static str,
            /// The required functions, `"glA:c glB:-"`: each name with its family's letter
            /// (`c`ore, `e`xt, `v`endor, `-` none).
            pub(crate) required: &'static str,
            /// Functions required only where another extension is supported too: (that
            /// extension, the functions as in `required`).
            pub(crate) conditional_lists: &'static [(&'static str, &'static str)],
        }

        /// gl.xml's extensions, sorted by name.
        pub static EXTENSIONS: &[Provision] = &[#(#extensions)*];

        /// The core versions, `GL_VERSION_1_0` first.
        pub static VERSIONS: &[Provision] = &[#(#versions)*];

        /// gl.xml's aliases this build serves with the entry point of the function they alias
        /// (same semantics and C types), sorted: (alias, canonical function, family).
        pub static ALIASES: &[(&str, &str, Family)] = &[#(#aliases)*];
    }
}
