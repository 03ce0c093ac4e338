//! Functions that gl.xml has and `glcorearb.h` lacks: which of them glcmd serves, and how.
//!
//! glcmd's entry points are generated from the core-profile header, but an extension a driver
//! lists may require functions only gl.xml knows (`GL_EXT_texture_array`'s
//! `glFramebufferTextureLayerEXT`, `GL_EXT_texture_integer`'s `glClearColorIiEXT`). glcmd lists
//! an extension only when every function it requires has an entry point (`runtime/served.rs`),
//! so each such function keeps its extension out of `GL_EXTENSIONS`. Two kinds are served:
//!
//! * **Aliases.** gl.xml marks a command `<alias name="glX"/>` when it is another name of `glX`
//!   with the same semantics. Where `glX` is generated, the alias is served with `glX`'s entry
//!   point: `glcmdGetProcAddress` answers it (capi), `glcmd-run` exports it and answers it from
//!   `eglGetProcAddress`/`glXGetProcAddress(ARB)`, and the extension-list rule counts it. Only
//!   where the C types agree, each typedef followed through gl.xml's `<types>` to the type it
//!   names (`GLsizeiptrARB` and `GLsizeiptr` are both `khronos_ssize_t`; `GLhandleARB`, which
//!   is a pointer on Apple, equals nothing else), so the canonical entry point has the alias's
//!   ABI. That excludes, for example, `glCreateProgramObjectARB` (returns a `GLhandleARB`) and
//!   `glTexImage3DEXT` (`GLenum internalformat` where `glTexImage3D` has `GLint`).
//!
//!   **Family.** An alias is served in the family of the extension that provides it (its first
//!   desktop `<require>`r in gl.xml: `GL_EXT_*` with the cargo feature `ext`, NV, AMD, ... with
//!   `vendor`, ARB and KHR always), and only with its canonical function: so it takes the
//!   canonical's family where that is core or the same, and is not served where the two would
//!   need both `ext` and `vendor` (an alias of an EXT function that only a vendor extension
//!   provides) or where an ARB name aliases an EXT or vendor function. The C ABI and
//!   `glcmd-run` build every family, so there the rule only matters for the Rust crate's
//!   extension list.
//!
//! * **Functions with no alias** that an extension otherwise served needs, listed by hand in
//!   [`REGISTRY_ONLY`] after checking what the driver does with them and that glcmd's shadow
//!   state has nothing to say about them. Each goes through the normal path as if the header
//!   declared it (recording method, packet, execute function, C entry point, preload export),
//!   from gl.xml's prototype, under its extension's family. The others are left out on purpose
//!   ([`LEFT_OUT`] gives each reason), and with them their extensions.

use std::collections::HashMap;

use crate::ctype::CType;
use crate::header::Prototype;
use crate::model::{Alias, Family, Function};
use crate::registry::Registry;

/// gl.xml-only functions without an alias that glcmd generates as if the header declared them.
///
/// `glClearColorIiEXT`/`glClearColorIuiEXT` (`GL_EXT_texture_integer`) set the clear colour of
/// integer colour buffers: four integers by value, no object, no pointer, and glcmd keeps no
/// shadow of the clear colour. Mesa (llvmpipe) serves them in a core context; through glcmd they
/// are recorded like `glClearColor` (`tests/xml_only.rs` compares pixels and errors with the
/// driver's).
pub const REGISTRY_ONLY: &[&str] = &[
    "glClearColorIiEXT",
    "glClearColorIuiEXT",
    "glEGLImageTargetTexture2DOES",
    "glEGLImageTargetRenderbufferStorageOES",
];

/// Enumerants of the extensions served through [`REGISTRY_ONLY`] that `glcorearb.h` lacks and
/// a core context answers: `GL_RGBA_INTEGER_MODE_EXT` (`GL_EXT_texture_integer`), which
/// `glGetBooleanv` and the other `glGet*` accept where the extension is listed (piglit's
/// `gl-3.1-mixed-int-float-fbo` asks it). They join the header's enumerants (`gl::` constants)
/// with gl.xml's value, so that the pname tables (`pname_tables.rs`) can name them.
pub const REGISTRY_ONLY_ENUMS: &[&str] = &["GL_RGBA_INTEGER_MODE_EXT"];

/// [`REGISTRY_ONLY_ENUMS`] with their gl.xml values.
pub fn registry_only_enums(registry: &Registry) -> Vec<(String, u64)> {
    REGISTRY_ONLY_ENUMS.iter().filter_map(|n| Some((n.to_string(), *registry.enums.get(*n)?))).collect()
}

/// gl.xml-only functions without an alias, of extensions llvmpipe lists, that glcmd does not
/// serve, and why (their extensions stay out of the list).
pub const LEFT_OUT: &[(&str, &str)] = &[
    (
        "glBindFramebufferEXT, glBindRenderbufferEXT (GL_EXT_framebuffer_object)",
        "accept names that were never generated and create the object on first bind; glcmd's binding \
         and existence shadow follows the core rule (a name must come from glGen*)",
    ),
    (
        "glBindBufferOffsetEXT (GL_EXT_transform_feedback)",
        "binds a buffer at an offset with no size; the shadow's indexed bindings know base and range only",
    ),
    (
        "glDeleteObjectARB, glGetHandleARB, glGetObjectParameter*ARB, glGetInfoLogARB, \
         glGetAttachedObjectsARB (GL_ARB_shader_objects)",
        "handle objects (GLhandleARB, a pointer on Apple) that are shaders or programs as the driver \
         decides; glcmd's object classes cannot tell which",
    ),
    (
        "glCreateMemoryObjectsEXT and the rest of GL_EXT_memory_object(_fd)",
        "a class of object (memory objects, imported file descriptors) glcmd has no pool or shadow for",
    ),
    ("glCopyImageSubDataNV (GL_NV_copy_image)", "gl.xml gives its names no class, so glcmd could not check them"),
    ("glMultiModeDrawArraysIBM, glMultiModeDrawElementsIBM", "arrays of client pointers of unknown length"),
];

/// The header-style prototypes of [`REGISTRY_ONLY`], from gl.xml, each in the block of the first
/// desktop extension that provides it (its line is gl.xml's).
pub fn registry_only(registry: &Registry) -> Vec<Prototype> {
    REGISTRY_ONLY
        .iter()
        .filter_map(|name| {
            let c = registry.commands.get(*name)?;
            let feature = desktop_providers(registry, name).first()?.clone();
            let params = c.params.iter().map(|p| (p.ty.clone(), p.name.clone())).collect();
            Some(Prototype { name: c.name.clone(), ret: c.ret.clone(), params, feature, line: c.line })
        })
        .collect()
}

/// What provides a function to a desktop context: gl.xml's desktop providers, or, for a function
/// only an extension gl.xml lists for OpenGL ES provides (`GL_OES_EGL_image`, which Mesa lists in
/// desktop contexts too), that extension: the runtime serves it where the driver lists it.
pub fn desktop_providers(registry: &Registry, name: &str) -> Vec<String> {
    match registry.providers.get(name) {
        Some(list) if !list.is_empty() => list.clone(),
        _ => registry
            .extensions
            .iter()
            .filter(|e| e.commands.iter().any(|c| c == name))
            .map(|e| e.name.clone())
            .collect(),
    }
}

/// `t` with its base followed through gl.xml's plain typedefs to the type it finally names.
fn resolved(t: &CType, typedefs: &HashMap<String, String>) -> CType {
    let mut t = t.clone();
    for _ in 0..8 {
        match typedefs.get(&t.base) {
            Some(target) => t.base = target.clone(),
            None => break,
        }
    }
    t
}

/// Whether two commands' C types agree, typedefs resolved (parameter names may differ).
fn same_types(a: &crate::registry::Command, b: &crate::registry::Command, registry: &Registry) -> bool {
    let eq = |x: &CType, y: &CType| resolved(x, &registry.typedefs) == resolved(y, &registry.typedefs);
    eq(&a.ret, &b.ret)
        && a.params.len() == b.params.len()
        && a.params.iter().zip(&b.params).all(|(p, q)| eq(&p.ty, &q.ty))
}

/// The family an alias is served in, given its own (`alias`) and its canonical function's.
fn served_family(alias: Family, canonical: Family) -> Option<Family> {
    match (alias, canonical) {
        (a, Family::Core) => Some(a),
        (a, c) if a == c => Some(a),
        _ => None,
    }
}

/// Every alias glcmd serves: a gl.xml command a desktop extension or version provides, absent
/// from `functions`, whose `<alias>` is one of `functions` with the same C types; sorted by name.
pub fn collect(registry: &Registry, functions: &[Function]) -> Vec<Alias> {
    let by_name: HashMap<&str, &Function> = functions.iter().map(|f| (f.name.as_str(), f)).collect();
    let mut out: Vec<Alias> = registry
        .commands
        .values()
        .filter(|c| !by_name.contains_key(c.name.as_str()))
        .filter_map(|c| {
            let target = by_name.get(c.alias.as_deref()?)?;
            let provider = registry.providers.get(&c.name)?.first()?;
            let family = served_family(Family::of(provider), target.family())?;
            same_types(c, registry.commands.get(&target.name)?, registry).then(|| Alias {
                name: c.name.clone(),
                canonical: target.name.clone(),
                family,
            })
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vendored_registry_gives_these_aliases_and_functions() {
        let api = crate::load(&crate::Inputs::bundled()).unwrap_or_else(|e| panic!("{e}"));
        let alias = |n: &str| api.aliases.iter().find(|a| a.name == n).map(|a| (a.canonical.as_str(), a.family));
        assert_eq!(alias("glFramebufferTextureLayerEXT"), Some(("glFramebufferTextureLayer", Family::Ext)));
        assert_eq!(alias("glGetTexParameterIuivEXT"), Some(("glGetTexParameterIuiv", Family::Ext)));
        // GLsizeiptrARB and GLsizeiptr are both khronos_ssize_t.
        assert_eq!(alias("glBufferDataARB"), Some(("glBufferData", Family::Core)));
        assert_eq!(alias("glBlendFuncIndexedAMD"), Some(("glBlendFunci", Family::Vendor)));
        // A GLhandleARB return; GLenum where the canonical function has GLint; no alias at all.
        for refused in ["glCreateProgramObjectARB", "glTexImage3DEXT", "glBindFramebufferEXT"] {
            assert_eq!(alias(refused), None, "{refused}");
        }
        assert!(api.aliases.windows(2).all(|w| w[0].name < w[1].name));
        for name in REGISTRY_ONLY {
            let f = api.functions.iter().find(|f| f.name == *name).expect("generated");
            // GL_OES_EGL_image is gl.xml's for OpenGL ES only: its own block, in the vendor family.
            let expected = if name.contains("EGLImage") {
                ("GL_OES_EGL_image", Family::Vendor)
            } else {
                ("GL_EXT_texture_integer", Family::Ext)
            };
            assert_eq!((f.feature.as_str(), f.family()), expected, "{name}");
            assert_eq!(f.providers, [expected.0], "{name}");
        }
        assert!(api.enums.iter().any(|(n, v)| n == "GL_RGBA_INTEGER_MODE_EXT" && *v == 0x8D9E));
    }

    #[test]
    fn families_of_an_alias() {
        assert_eq!(served_family(Family::Ext, Family::Core), Some(Family::Ext));
        assert_eq!(served_family(Family::Vendor, Family::Vendor), Some(Family::Vendor));
        assert_eq!(served_family(Family::Vendor, Family::Ext), None);
        assert_eq!(served_family(Family::Core, Family::Ext), None);
    }
}
