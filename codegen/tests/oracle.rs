//! gl_generator 0.14 (the generator of the `gl` crate) as an independent oracle for the C
//! signatures our model takes from glcorearb.h and gl.xml.
//!
//! gl_generator reads its own, older copy of gl.xml (from `khronos_api` 3.1) with its own
//! parser and spells every type in Rust. For every command it knows that is also in our model,
//! we compare the number of parameters, each parameter's Rust type and the return type, after
//! normalising spellings that mean the same thing (`__gl_imports::raw::c_void`,
//! `std::ffi::c_void` and `types::GLvoid` are all `c_void`; `()` is a void return).
//!
//! gl_generator has a few documented mistranslations in its fixed C-to-Rust table
//! (`registry/parse.rs`, `to_rust_ty`): the outer pointer of every pointer-to-pointer is
//! `*const` even where C says it is mutable (`void **` becomes `*const *mut c_void`,
//! `const GLchar **` becomes `*const *const GLchar`), and `struct _cl_context *` becomes
//! `*const`; and the C array parameter `GLuint x[2]` (a `GLuint *`) becomes `[Gluint; 2]`.
//! A difference is accepted only when gl_generator's spelling is exactly what those
//! rules make of our C type; each accepted one is printed. Every other difference fails the
//! test with both sides shown.

use std::collections::BTreeSet;

use gl_generator::{Api as GlApi, Fallbacks, Profile, Registry};
use glcmd_codegen::{ctype::CType, load, model::Api, Inputs};

fn api() -> Api {
    load(&Inputs::bundled()).unwrap_or_else(|e| panic!("vendored inputs must load:\n{e}"))
}

/// Spelling-neutral form of a Rust type.
fn normalise(ty: &str) -> String {
    let t = ty
        .replace("__gl_imports::raw::c_void", "c_void")
        .replace("std::ffi::c_void", "c_void")
        .replace("types::GLvoid", "c_void");
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn ours(t: &CType) -> String {
    if t.is_void() {
        "()".to_string()
    } else {
        normalise(&t.to_rust("types::"))
    }
}

/// What gl_generator's `to_rust_ty` table makes of a C type, where it differs from C: the
/// outermost pointer of a pointer-to-pointer is always `*const`, and `struct _cl_*` pointers
/// are `*const`.
fn gl_generator_erratum(t: &CType) -> Option<String> {
    let mut g = t.clone();
    if g.pointers.len() == 2 {
        // `to_rust` makes the last pointer the outermost: its mutability comes from the
        // const-ness of the one inside it.
        g.pointers[0] = true;
    } else if g.pointers.len() == 1 && g.base.starts_with("struct _cl_") {
        g.base_const = true;
    } else {
        return None;
    }
    let s = normalise(&g.to_rust("types::"));
    (s != ours(t)).then_some(s)
}

/// gl_generator's registry for GL 4.6 core plus `extensions`. Its older gl.xml marks a few of
/// them as GLES-only (`GL_EXT_texture_storage`…), and `Registry::new` panics when asked for
/// one of those; each is dropped, reported and returned.
fn gl_generator_registry(mut extensions: Vec<&str>) -> (Registry, Vec<String>) {
    let mut not_gl = Vec::new();
    loop {
        let exts = extensions.clone();
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let result = std::panic::catch_unwind(move || {
            Registry::new(GlApi::Gl, (4, 6), Profile::Core, Fallbacks::All, &exts[..])
        });
        std::panic::set_hook(hook);
        match result {
            Ok(r) => return (r, not_gl),
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                let name = msg
                    .strip_prefix("Requested ")
                    .and_then(|m| m.split_once(", which doesn't support"))
                    .map(|(n, _)| n.to_string())
                    .unwrap_or_else(|| panic!("gl_generator failed: {msg}"));
                assert!(extensions.contains(&name.as_str()), "gl_generator refused {name}, which we did not ask for");
                extensions.retain(|e| *e != name);
                not_gl.push(name);
            }
        }
    }
}

fn comparison() -> &'static Comparison {
    static C: std::sync::OnceLock<Comparison> = std::sync::OnceLock::new();
    C.get_or_init(compare)
}

struct Comparison {
    compared: usize,
    /// Parameters whose types were compared, and how many of those were pointers.
    params: usize,
    pointer_params: usize,
    mismatches: Vec<String>,
    errata: Vec<String>,
    lacking: Vec<String>,
}

fn compare() -> Comparison {
    let api = api();
    let extensions: BTreeSet<&str> =
        api.functions.iter().map(|f| f.feature.as_str()).filter(|f| !f.starts_with("GL_VERSION_")).collect();
    let extensions: Vec<&str> = extensions.into_iter().collect();
    assert!(extensions.len() > 50, "the header has many extensions: {}", extensions.len());
    let (registry, not_gl) = gl_generator_registry(extensions);
    println!("extensions gl_generator's registry does not give to the gl API: {not_gl:?}");

    let mut theirs: std::collections::BTreeMap<String, &gl_generator::Cmd> =
        registry.cmds.iter().map(|c| (format!("gl{}", c.proto.ident), c)).collect();
    // Extensions gl_generator knows only for GLES (its gl.xml predates their GL support):
    // their commands have the same C signatures, so they are compared from a GLES registry.
    let gles_names: Vec<&str> = not_gl.iter().map(String::as_str).collect();
    let gles = Registry::new(GlApi::Gles2, (3, 2), Profile::Core, Fallbacks::All, &gles_names[..]);
    for c in &gles.cmds {
        theirs.entry(format!("gl{}", c.proto.ident)).or_insert(c);
    }

    let mut out = Comparison {
        compared: 0,
        params: 0,
        pointer_params: 0,
        mismatches: Vec::new(),
        errata: Vec::new(),
        lacking: Vec::new(),
    };
    for f in &api.functions {
        let Some(cmd) = theirs.get(&f.name) else {
            out.lacking.push(f.name.clone());
            continue;
        };
        out.compared += 1;
        let mut check = |what: String, mine: &CType, their: &str| {
            let (a, b) = (ours(mine), normalise(their));
            if a == b {
                return;
            }
            let line = format!("{} {what}: ours `{a}` (C `{mine}`), gl_generator `{b}`", f.name);
            // The old gl.xml declares `GLuint baseAndCount[2]`, a C array parameter, which is
            // a `GLuint *`; gl_generator's table turns `GLuint[2]` into `[Gluint; 2]` (sic).
            let array_parameter = b == "[Gluint; 2]" && a == "*mut types::GLuint";
            if array_parameter || gl_generator_erratum(mine).as_deref() == Some(b.as_str()) {
                out.errata.push(line);
            } else {
                out.mismatches.push(line);
            }
        };
        check("return type".into(), &f.ret, &cmd.proto.ty);
        if f.params.len() != cmd.params.len() {
            out.mismatches.push(format!(
                "{}: {} parameters in our model, {} in gl_generator",
                f.name,
                f.params.len(),
                cmd.params.len()
            ));
            continue;
        }
        for (i, (p, q)) in f.params.iter().zip(&cmd.params).enumerate() {
            out.params += 1;
            out.pointer_params += usize::from(p.ty.is_pointer());
            check(format!("parameter {i} `{}`", p.name), &p.ty, &q.ty);
        }
    }
    out
}

#[test]
fn signatures_agree_with_gl_generator() {
    let c = comparison();
    println!(
        "compared {} functions ({} parameters, {} of them pointers) with gl_generator 0.14",
        c.compared, c.params, c.pointer_params
    );
    println!("{} accepted gl_generator errata:", c.errata.len());
    for e in &c.errata {
        println!("  {e}");
    }
    println!("{} functions gl_generator lacks: {:?}", c.lacking.len(), c.lacking);
    assert!(
        c.mismatches.is_empty(),
        "{} signature mismatches with gl_generator:\n  {}",
        c.mismatches.len(),
        c.mismatches.join("\n  ")
    );
    assert!(c.compared > 1000, "only {} functions compared", c.compared);
    assert_eq!(c.compared + c.lacking.len(), 1278 + glcmd_codegen::aliases::REGISTRY_ONLY.len());
    // The errata are the handful of pointer-to-pointer and OpenCL parameters, not a way to
    // hide real differences.
    assert!(c.errata.len() < 30, "suspiciously many errata: {}", c.errata.len());
    insta::assert_snapshot!("errata", c.errata.join("\n"));
    assert!(c.pointer_params > 700, "only {} pointer parameters compared", c.pointer_params);
}

#[test]
fn gl_generator_lacks_exactly_the_functions_newer_than_its_registry() {
    // DESIGN.md: the older gl.xml inside khronos_api lacks 8 of the header's functions.
    let c = comparison();
    insta::assert_snapshot!("lacking", c.lacking.join("\n"));
    assert_eq!(c.lacking.len(), 8, "gl_generator lacks: {:?}", c.lacking);
}

#[test]
fn normalisation_and_errata_rules() {
    let t = |s: &str| CType::parse(s).unwrap();
    assert_eq!(ours(&t("void")), "()");
    assert_eq!(ours(&t("const void *")), "*const c_void");
    assert_eq!(normalise("*const __gl_imports::raw::c_void"), "*const c_void");
    assert_eq!(ours(&t("GLuint *")), "*mut types::GLuint");
    // Plain pointers are never excused.
    assert_eq!(gl_generator_erratum(&t("const GLuint *")), None);
    assert_eq!(gl_generator_erratum(&t("GLuint *")), None);
    // `void **`: C says `*mut *mut`, gl_generator `*const *mut`.
    assert_eq!(ours(&t("void **")), "*mut *mut c_void");
    assert_eq!(gl_generator_erratum(&t("void **")).as_deref(), Some("*const *mut c_void"));
    // `const GLchar *const*` is spelled the same by both: nothing to excuse.
    assert_eq!(gl_generator_erratum(&t("const GLchar *const*")), None);
    assert_eq!(gl_generator_erratum(&t("struct _cl_context *")).as_deref(), Some("*const types::_cl_context"));
}
