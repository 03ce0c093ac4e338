//! The extensions and the GL version this build of glcmd serves.
//!
//! A program learns what it may call from `GL_EXTENSIONS` and `GL_VERSION`: a loader such as
//! glad reads the list through `glGetStringi`, sets `GLAD_GL_EXT_framebuffer_object`, and
//! later calls `glGenFramebuffersEXT` through the pointer it loaded for it. The driver lists
//! every extension *it* implements, but a call reaches the driver through glcmd only where
//! glcmd has an entry point, and which functions glcmd generates depends on the build: core
//! GL, ARB and KHR always, `GL_EXT_*` with the cargo feature `ext`, the vendors' with `vendor`,
//! and of the functions only gl.xml knows just gl.xml's aliases of generated functions and the
//! few `glcmd_codegen::aliases` generates (the table counts an alias in the family that serves it:
//! docs/extensions.md). Passing the driver's list on
//! would promise functions the program then calls through NULL.
//!
//! So every answer glcmd gives about the context describes this build:
//!
//! * **Extensions.** An extension is listed when the driver lists it *and* every function gl.xml
//!   requires of it for a desktop core-profile context (`generated::extensions`) has an entry
//!   point in the families built, in the driver's order. Functions gl.xml requires only where
//!   another extension is supported too (`GL_ARB_texture_storage`'s `glTextureStorage2DEXT`,
//!   with `GL_EXT_direct_state_access`) count when that extension is listed. An extension
//!   gl.xml does not know is looked up in a reviewed table of those drivers list
//!   (`NOT_IN_GL_XML`: GLSL-only ones add no function and are listed); one neither knows is not
//!   listed: glcmd cannot tell what it would promise. [`hidden_because`] names, for each one left
//!   out, the function glcmd cannot serve.
//! * **Version.** The highest core version at most the driver's whose every core-profile
//!   function, and those of every version below it, has an entry point in this build. Every
//!   core function through 4.6 is generated in every build, so in practice the driver's version
//!   passes; the cap is there so that the rule holds by construction, not by luck.
//!
//! The limits cache (`limits.rs`) applies both once, when it reads the context's constants:
//! `glGetStringi(GL_EXTENSIONS, i)`, `GL_NUM_EXTENSIONS` through every typed getter,
//! `GL_MAJOR_VERSION`/`GL_MINOR_VERSION`, `GL_VERSION` and `GL_SHADING_LANGUAGE_VERSION` all come
//! from there. The function loader (`loader.rs`) keeps the driver's own list: it decides which
//! of glcmd's functions the driver really has, which is another question.

use crate::generated::extensions::{Family, Function, Provision, EXTENSIONS, VERSIONS};

impl Provision {
    /// The functions the extension or version requires, each with the family of its entry point.
    pub fn functions(&self) -> impl Iterator<Item = Function> {
        parse_functions(self.required)
    }

    /// Functions required only where another extension is supported too: (that extension, the
    /// functions).
    pub fn conditional(&self) -> impl Iterator<Item = (&'static str, impl Iterator<Item = Function>)> {
        self.conditional_lists.iter().map(|&(other, list)| (other, parse_functions(list)))
    }
}

/// Reads a generated function list, `"glA:c glB:-"` (`generated/extensions.rs`).
fn parse_functions(list: &'static str) -> impl Iterator<Item = Function> {
    list.split_whitespace().map(|item| {
        let (name, letter) = item.rsplit_once(':').expect("a generated function list names each family");
        let family = match letter {
            "c" => Some(Family::Core),
            "e" => Some(Family::Ext),
            "v" => Some(Family::Vendor),
            _ => None,
        };
        (name, family)
    })
}

/// Whether this build of glcmd generates the functions of `family` (its cargo features).
pub fn built(family: Family) -> bool {
    match family {
        Family::Core => true,
        Family::Ext => cfg!(feature = "ext"),
        Family::Vendor => cfg!(feature = "vendor"),
    }
}

/// Extensions drivers list that gl.xml does not know, with the functions their specifications
/// (or, for Mesa's own, Mesa's dispatch tables) add, each without an entry point in glcmd (`-`).
/// Reviewed by hand: an extension that adds no function (GLSL or enums only) is served as any
/// other; one whose functions glcmd lacks is left out naming them.
static NOT_IN_GL_XML: &[Provision] = &[
    // Mesa's: glBlendEquationSeparateATI (its dispatch's name for glBlendEquationSeparate; no
    // registry spec). glcmd has no entry point of that name.
    Provision {
        name: "GL_ATI_blend_equation_separate",
        required: "glBlendEquationSeparateATI:-",
        conditional_lists: &[],
    },
    // "New Procedures and Functions: None": GLSL built-ins (atomicMin/atomicMax on floats).
    Provision { name: "GL_INTEL_shader_atomic_float_minmax", required: "", conditional_lists: &[] },
    // Mesa's: new internal formats (GL_RGBA_SNORM's older token) only.
    Provision { name: "GL_MESA_texture_signed_rgba", required: "", conditional_lists: &[] },
];

/// What extension `name` requires of a core-profile context: gl.xml's requirements, or
/// `NOT_IN_GL_XML`'s for an extension gl.xml does not know; `None` for one neither knows
/// (glcmd cannot tell what it would promise, so it is not listed).
pub fn extension(name: &str) -> Option<&'static Provision> {
    match EXTENSIONS.binary_search_by(|p| p.name.cmp(name)) {
        Ok(i) => Some(&EXTENSIONS[i]),
        Err(_) => NOT_IN_GL_XML.iter().find(|p| p.name == name),
    }
}

/// Why extension `name`, which the driver lists among `driver`, is not listed through this
/// build: the first function it requires (where the extensions listed with it are) that has
/// no entry point, or that neither gl.xml nor glcmd knows the extension; `None` if it is listed.
pub fn hidden_because(name: &str, driver: &[String]) -> Option<String> {
    let Some(p) = extension(name) else {
        return Some("neither gl.xml nor glcmd's table knows it, so what it adds is unknown".into());
    };
    let served = served_extensions(driver);
    if served.iter().any(|s| s == name) {
        return None;
    }
    let conditional = p.conditional().filter(|(other, _)| served.iter().any(|s| s == other)).flat_map(|(_, f)| f);
    let missing = p.functions().chain(conditional).find(|(_, family)| !family.is_some_and(built))?;
    Some(format!("requires {}, which glcmd cannot serve", missing.0))
}

/// Whether every one of `functions` has an entry point in the families `built` says are there.
fn has_entry_points(mut functions: impl Iterator<Item = Function>, built: &impl Fn(Family) -> bool) -> bool {
    functions.all(|(_, family)| family.is_some_and(built))
}

/// The extensions of `driver` (the driver's list, in its order) whose functions all have entry
/// points in the families `built` says are there, in the same order.
pub fn served_extensions_with(driver: &[String], built: impl Fn(Family) -> bool) -> Vec<String> {
    filter(driver, extension, built)
}

/// [`served_extensions_with`], with gl.xml's requirements looked up by `lookup`.
fn filter(
    driver: &[String],
    lookup: impl Fn(&str) -> Option<&'static Provision>,
    built: impl Fn(Family) -> bool,
) -> Vec<String> {
    let first: Vec<Option<&Provision>> =
        driver.iter().map(|name| lookup(name).filter(|p| has_entry_points(p.functions(), &built))).collect();
    let listed = |name: &str| first.iter().flatten().any(|p| p.name == name);
    first
        .iter()
        .flatten()
        .filter(|p| p.conditional().all(|(other, functions)| !listed(other) || has_entry_points(functions, &built)))
        .map(|p| p.name.to_string())
        .collect()
}

/// [`served_extensions_with`] for the families of this build.
pub fn served_extensions(driver: &[String]) -> Vec<String> {
    served_extensions_with(driver, built)
}

/// `(4, 6)` for `GL_VERSION_4_6`.
fn version_of(name: &str) -> Option<(u32, u32)> {
    let (major, minor) = name.strip_prefix("GL_VERSION_")?.split_once('_')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

/// The highest core version at most `driver` whose functions, and those of every version below
/// it, all have entry points in the families `built` says are there (`(1, 0)` at the least).
pub fn served_version_with(driver: (u32, u32), built: impl Fn(Family) -> bool) -> (u32, u32) {
    cap(driver, VERSIONS, built)
}

/// [`served_version_with`] over the core versions `versions`, in order.
fn cap(driver: (u32, u32), versions: &[Provision], built: impl Fn(Family) -> bool) -> (u32, u32) {
    let mut served = (1, 0);
    for p in versions {
        let Some(v) = version_of(p.name) else { continue };
        if v > driver || !has_entry_points(p.functions(), &built) {
            break;
        }
        served = v;
    }
    served
}

/// [`served_version_with`] for the families of this build.
pub fn served_version(driver: (u32, u32)) -> (u32, u32) {
    served_version_with(driver, built)
}

/// The GLSL version of a GL version (`GL_SHADING_LANGUAGE_VERSION`'s leading number).
fn glsl_of((major, minor): (u32, u32)) -> String {
    match (major, minor) {
        (2, 0) => "1.10".into(),
        (2, 1) => "1.20".into(),
        (3, 0) => "1.30".into(),
        (3, 1) => "1.40".into(),
        (3, 2) => "1.50".into(),
        _ => format!("{major}.{minor}0"),
    }
}

/// `text` with its leading version number (up to the first space) replaced by `number`.
fn renumber(text: &str, number: &str) -> String {
    match text.split_once(' ') {
        Some((_, rest)) => format!("{number} {rest}"),
        None => number.to_string(),
    }
}

/// `GL_VERSION` for a build that serves `served` where the driver's string is `driver`: the
/// driver's string with its number replaced (`4.5 (Core Profile) Mesa 22.3.6` capped at 4.3
/// reads `4.3 (Core Profile) Mesa 22.3.6`).
pub fn version_string(driver: &str, served: (u32, u32)) -> String {
    renumber(driver, &format!("{}.{}", served.0, served.1))
}

/// `GL_SHADING_LANGUAGE_VERSION` for a build that serves GL `served`: the driver's string with
/// the GLSL version of `served` (`4.50` capped at GL 4.3 reads `4.30`).
pub fn glsl_version_string(driver: &str, served: (u32, u32)) -> String {
    renumber(driver, &glsl_of(served))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn an_extension_with_a_function_of_a_family_not_built_is_not_served() {
        let driver = names(&["GL_EXT_texture_storage", "GL_ARB_sync", "GL_EXT_framebuffer_object", "GL_MESA_unknown"]);
        // EXT_texture_storage's functions are EXT functions of the header; EXT_framebuffer_object's
        // are not in the core header at all; MESA_unknown is not in gl.xml.
        assert_eq!(served_extensions_with(&driver, |f| f == Family::Core), names(&["GL_ARB_sync"]));
        assert_eq!(served_extensions_with(&driver, |_| true), names(&["GL_EXT_texture_storage", "GL_ARB_sync"]));
    }

    #[test]
    fn gl_xml_aliases_and_generated_gl_xml_only_functions_count_in_their_family() {
        // GL_EXT_texture_array: glFramebufferTextureLayerEXT, an alias of a core function;
        // GL_EXT_texture_integer: EXT aliases and glClearColorIiEXT, generated from gl.xml;
        // GL_ARB_vertex_buffer_object: ARB aliases (glBufferDataARB), served in every build.
        let driver = names(&["GL_EXT_texture_array", "GL_EXT_texture_integer", "GL_ARB_vertex_buffer_object"]);
        assert_eq!(served_extensions_with(&driver, |_| true), driver);
        assert_eq!(served_extensions_with(&driver, |f| f == Family::Core), names(&["GL_ARB_vertex_buffer_object"]));
        let texture_array = extension("GL_EXT_texture_array").unwrap();
        assert!(texture_array.functions().any(|f| f == ("glFramebufferTextureLayerEXT", Some(Family::Ext))));
    }

    #[test]
    fn an_extension_gl_xml_lists_for_opengl_es_only_counts_all_its_functions() {
        // No functions: served. GL_OES_EGL_image's two functions are generated from gl.xml
        // (`aliases::REGISTRY_ONLY`) in the vendor family (OES is no EXT): served with it only.
        let driver = names(&["GL_EXT_texture_compression_dxt1", "GL_OES_EGL_image"]);
        let oes = extension("GL_OES_EGL_image").unwrap();
        assert!(oes.functions().any(|f| f == ("glEGLImageTargetTexture2DOES", Some(Family::Vendor))));
        assert_eq!(served_extensions_with(&driver, |_| true), driver);
        assert_eq!(
            served_extensions_with(&driver, |f| f != Family::Vendor),
            names(&["GL_EXT_texture_compression_dxt1"])
        );
    }

    #[test]
    fn a_conditional_requirement_counts_only_with_its_extension() {
        // gl.xml's shape (`Supported only if GL_EXT_direct_state_access is supported`), with
        // the families chosen so that only the conditional function is missing.
        static A: Provision =
            Provision { name: "GL_X_a", required: "glA:c", conditional_lists: &[("GL_X_b", "glAB:e")] };
        static B: Provision = Provision { name: "GL_X_b", required: "glB:c", conditional_lists: &[] };
        let lookup = |name: &str| [&A, &B].into_iter().find(|p| p.name == name);
        let core = |f| f == Family::Core;
        assert_eq!(filter(&names(&["GL_X_a"]), lookup, core), names(&["GL_X_a"]));
        assert_eq!(filter(&names(&["GL_X_b", "GL_X_a"]), lookup, core), names(&["GL_X_b"]));
        assert_eq!(filter(&names(&["GL_X_b", "GL_X_a"]), lookup, |_| true), names(&["GL_X_b", "GL_X_a"]));
        // The real table reads the condition from gl.xml's comment.
        let sparse = extension("GL_ARB_sparse_buffer").unwrap();
        assert!(sparse.conditional().any(|(c, _)| c == "GL_EXT_direct_state_access"));
    }

    #[test]
    fn the_version_is_capped_at_the_first_version_with_a_missing_function() {
        assert_eq!(served_version_with((4, 5), |_| true), (4, 5));
        assert_eq!(served_version_with((4, 6), |f| f == Family::Core), (4, 6));
        assert_eq!(served_version_with((3, 3), |_| true), (3, 3));
        // With no family built, no version's functions are there.
        assert_eq!(served_version_with((4, 6), |_| false), (1, 0));
        // A version with a function no build has caps at the one below it, whatever follows.
        let versions = [
            Provision { name: "GL_VERSION_1_0", required: "glA:c", conditional_lists: &[] },
            Provision { name: "GL_VERSION_2_0", required: "glB:c", conditional_lists: &[] },
            Provision { name: "GL_VERSION_2_1", required: "glC:-", conditional_lists: &[] },
            Provision { name: "GL_VERSION_3_0", required: "", conditional_lists: &[] },
        ];
        assert_eq!(cap((4, 5), &versions, |_| true), (2, 0));
        assert_eq!(cap((1, 0), &versions, |_| true), (1, 0));
        assert_eq!(cap((2, 0), &versions, |_| true), (2, 0));
    }

    #[test]
    fn version_strings_keep_the_vendor_part() {
        assert_eq!(version_string("4.5 (Core Profile) Mesa 22.3.6", (4, 3)), "4.3 (Core Profile) Mesa 22.3.6");
        assert_eq!(glsl_version_string("4.50", (3, 2)), "1.50");
        assert_eq!(glsl_version_string("4.60 NVIDIA", (4, 1)), "4.10 NVIDIA");
    }
}
