//! # glcmd-codegen
//!
//! Reads the Khronos header `glcorearb.h` and the registry `gl.xml` and generates, for every GL
//! function of the header, the Rust that glcmd's runtime plugs in: a packet, a recording method
//! and an execute function for recorded functions, a `Device` method for create and query
//! functions, and a function-pointer loader for all of them.
//!
//! The pipeline is four stages, each a module:
//!
//! 1. **parse**: [`header`] (line by line, with the hand-written matchers of [`lines`]) and [`registry`] (roxmltree);
//! 2. **model**: [`model`], plain data, built by
//! 3. **classify**: [`classify`], which cross-checks the two inputs and gives every function one
//!    [`Kind`](model::Kind) and every array one length [`Rule`](model::Rule);
//! 4. **emit**: [`emit`], one emitter per generated file, returning token streams that are
//!    formatted with prettyplease.
//!
//! No stage panics on bad input: each collects [`Error`]s naming file, line and function, and
//! [`generate`] returns them all together. `build.rs` prints them as a build failure; the CLI
//! (`glcmd-codegen list|emit`) prints them and exits non-zero.

pub mod aliases;
pub mod budget;
pub mod classify;
pub mod ctype;
pub mod emit;
pub mod error;
pub mod header;
pub mod limits;
pub mod lines;
pub mod model;
pub mod naming;
pub mod pname_tables;
pub mod registry;
pub mod shadow_hooks;
pub mod sizing;
pub mod spec_errors;
pub mod state_calls;

use std::path::{Path, PathBuf};

pub use error::{Error, Errors};
use model::{Api, Role};
pub use model::{Family, Selection};

/// Where the inputs are.
#[derive(Clone, Debug)]
pub struct Inputs {
    pub header: PathBuf,
    pub registry: PathBuf,
}

impl Inputs {
    /// `vendor/glcorearb.h` and `vendor/gl.xml` under `dir`.
    pub fn vendored(dir: &Path) -> Inputs {
        Inputs { header: dir.join("vendor/glcorearb.h"), registry: dir.join("vendor/gl.xml") }
    }

    /// The pinned inputs this crate ships (`vendor/` of glcmd-codegen's package, where its
    /// README gives source, version and licence): what the build scripts of glcmd, glcmd-capi,
    /// glcmd-run and glcmd-sweep read. The path is this crate's source directory, fixed when it
    /// is compiled (a checkout, or cargo's registry cache for a published crate), so a crate
    /// that depends on glcmd needs no copy of its own.
    pub fn bundled() -> Inputs {
        Inputs::vendored(Path::new(env!("CARGO_MANIFEST_DIR")))
    }
}

/// Reads both inputs and builds the classified model. Errors of both files are reported
/// together.
pub fn load(inputs: &Inputs) -> Result<Api, Errors> {
    let header = header::read(&inputs.header);
    let registry = registry::read(&inputs.registry);
    match (header, registry) {
        (Ok(h), Ok(r)) => classify::build(&h, &inputs.header, &r).map_err(Errors),
        (h, r) => {
            let mut errors = Vec::new();
            errors.extend(h.err().unwrap_or_default());
            errors.extend(r.err().unwrap_or_default());
            Err(Errors(errors))
        }
    }
}

/// Every generated file, formatted: (file name, source).
pub fn generate(inputs: &Inputs) -> Result<Vec<(&'static str, String)>, Errors> {
    generate_selected(inputs, &Selection::ALL)
}

/// The generated files of the selected extension families and optional files.
pub fn generate_selected(inputs: &Inputs, selection: &Selection) -> Result<Vec<(&'static str, String)>, Errors> {
    let mut api = load(inputs)?;
    api.select(selection);
    emit::emit_files(&api, selection.checking).map_err(Errors)
}

/// The soundness sweep's generated calls (`emit::sweep`), formatted, for the `glcmd-sweep` test
/// crate.
#[cfg(feature = "sweep")]
pub fn sweep_source(inputs: &Inputs) -> Result<String, Errors> {
    let api = load(inputs)?;
    Ok(emit::format(emit::sweep::emit(&api)))
}

/// The C program of glcmd-run's generated differential calls (`emit::c_calls`): every core
/// function with the sweep's kinds of arguments, NULL for every pointer once.
#[cfg(feature = "sweep")]
pub fn c_calls_source(inputs: &Inputs) -> Result<String, Errors> {
    let api = load(inputs)?;
    Ok(emit::c_calls::emit(&api))
}

/// The C entry points of crate glcmd-capi (`emit::capi`), formatted.
#[cfg(feature = "capi")]
pub fn capi_source(inputs: &Inputs) -> Result<String, Errors> {
    let api = load(inputs)?;
    emit::capi::emit(&api).map(emit::format).map_err(Errors)
}

/// The exported GL symbols of glcmd-run's preload library (`emit::preload`), formatted.
#[cfg(feature = "preload")]
pub fn preload_source(inputs: &Inputs) -> Result<String, Errors> {
    let api = load(inputs)?;
    Ok(emit::format(emit::preload::emit(&api)))
}

/// `glcmd.h` (`emit::c_header`), from the model and `api_sources`, the texts of
/// `capi/src/types.rs` and `capi/src/api.rs`, in that order.
#[cfg(all(feature = "pretty", feature = "capi"))]
pub fn c_header(inputs: &Inputs, api_sources: &[&str]) -> Result<String, Errors> {
    let api = load(inputs)?;
    emit::c_header::emit(&api, api_sources).map_err(Errors)
}

/// Writes every generated file into `dir`.
pub fn write(inputs: &Inputs, dir: &Path) -> Result<(), Errors> {
    write_selected(inputs, dir, &Selection::ALL)
}

/// Writes the generated files of a selection into `dir` (glcmd's build script).
pub fn write_selected(inputs: &Inputs, dir: &Path, selection: &Selection) -> Result<(), Errors> {
    for (name, source) in generate_selected(inputs, selection)? {
        let path = dir.join(name);
        // Unchanged files are not rewritten, so cargo does not rebuild for nothing.
        if std::fs::read_to_string(&path).ok().as_deref() == Some(source.as_str()) {
            continue;
        }
        std::fs::write(&path, source).map_err(|source| Errors(vec![Error::Io { path, source }]))?;
    }
    Ok(())
}

/// The Rust methods of a GL function, every form (`CommandList::named_buffer_storage`,
/// `CommandList::named_buffer_storage_from_slice`; `Device::create_buffers`,
/// `Device::create_buffer`), or for a special function the hand-written method or the route
/// through `Device::with_gl`.
pub fn methods(api: &Api, f: &model::Function) -> Vec<String> {
    use model::Kind;
    let m = f.method_name();
    match f.kind {
        Kind::Record | Kind::Delete => {
            let mut v = vec![format!("CommandList::{m}")];
            if emit::commands::from_slice_params(f).is_some() {
                v.push(format!("CommandList::{m}_from_slice"));
            }
            if emit::commands::pack_buffer_variants(api).iter().any(|g| g.name == f.name) {
                v.push(format!("CommandList::{m}_to_buffer"));
            }
            v
        }
        Kind::Create | Kind::Query => {
            let mut v = vec![format!("Device::{m}")];
            v.extend(emit::device::singular_form(api, f).map(|s| format!("Device::{s}")));
            v.extend(emit::device::scalar_form(api, f).map(|s| format!("Device::{s}")));
            if emit::commands::pack_buffer_variants(api).iter().any(|g| g.name == f.name) {
                v.push(format!("CommandList::{m}_to_buffer"));
            }
            v
        }
        Kind::Special => {
            let reason = f.special_reason.unwrap_or("");
            let mut v: Vec<String> = ["Device::", "CommandList::"]
                .iter()
                .flat_map(|owner| {
                    reason.match_indices(owner).map(move |(i, _)| {
                        let rest = &reason[i + owner.len()..];
                        let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
                        format!("{owner}{}", &rest[..end])
                    })
                })
                .filter(|s| !s.ends_with("with_gl"))
                .collect();
            if emit::commands::is_recorded(f) && !v.iter().any(|s| s == &format!("CommandList::{m}")) {
                v.insert(0, format!("CommandList::{m}"));
            }
            if v.is_empty() {
                v.push(format!("Gl::{} (Device::with_gl)", f.short_name()));
            }
            v
        }
    }
}

/// The `list` table: one tab-separated row per function: name, the Rust methods ([`methods`],
/// comma-separated), feature, kind, `unsafe` (`yes` when the Rust method is `unsafe`: its doc
/// gives the contract), arrays. `arrays` lists `param:rule` for every array argument (`-` when
/// there is none).
pub fn list_table(api: &Api) -> String {
    let mut out = String::from("name\tmethods\tfeature\tkind\tunsafe\tarrays\n");
    for f in &api.functions {
        let arrays: Vec<String> = f
            .params
            .iter()
            .filter_map(|p| match &p.role {
                Role::In(rule) => Some(format!("{}:in:{rule}", p.name)),
                Role::Out(rule) => Some(format!("{}:out:{rule}", p.name)),
                Role::Offset => Some(format!("{}:offset", p.name)),
                _ => None,
            })
            .collect();
        let arrays = if arrays.is_empty() { "-".to_string() } else { arrays.join(",") };
        let unsafety = if f.is_unsafe() { "yes" } else { "no" };
        let methods = methods(api, f).join(", ");
        out.push_str(&format!("{}\t{methods}\t{}\t{}\t{unsafety}\t{arrays}\n", f.name, f.feature, f.kind));
    }
    out
}

/// Counts per kind and per length-rule family, for the `stats` command and the docs.
pub fn stats(api: &Api) -> String {
    use std::collections::BTreeMap;
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut rules: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &api.functions {
        *kinds.entry(f.kind.to_string()).or_default() += 1;
        for p in &f.params {
            match &p.role {
                Role::In(r) | Role::Out(r) => *rules.entry(r.family()).or_default() += 1,
                Role::Offset => *rules.entry("offset").or_default() += 1,
                _ => {}
            }
        }
    }
    let mut out = format!("functions\t{}\n", api.functions.len());
    for (k, n) in kinds {
        out.push_str(&format!("kind {k}\t{n}\n"));
    }
    for (r, n) in rules {
        out.push_str(&format!("rule {r}\t{n}\n"));
    }
    for name in ["glBindTexture", "glUniformMatrix4fv", "glDrawElementsInstanced", "glNamedBufferSubData"] {
        if let Some(f) = api.functions.iter().find(|f| f.name == name) {
            let bytes = emit::commands::packet_bytes(api, f);
            out.push_str(&format!("packet {name}\t{bytes} bytes, {} slot(s)\n", bytes.div_ceil(8)));
        }
    }
    out
}
