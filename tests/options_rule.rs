//! The rule for public options and counters types (issue 32; `runtime/builders.rs` states it):
//! every options type and every counters or summary type is `#[non_exhaustive]`, and every
//! options type has builder methods, one per field, named as the field, that set that field and
//! no other.
//!
//! Two checks. On the source of every crate of the workspace with a Rust API (glcmd, glcmd-capi,
//! glcmd-codegen, glcmd-replay, glcmd-sweep): every public struct whose name says it is options
//! (`*Options`, `*Budget`, `PostMortem`) or counters (`*Stats`, `*Summary`, `*Times`), and the
//! few whose names do not say so (glcmd-codegen's `Selection`, glcmd-replay's `fuzz::Config` and
//! `fuzz::Outcome`), has the attribute, and the options ones have their builders: written by
//! glcmd's `builders!` macro (which fails glcmd's build when a field lacks one), or, in the other
//! crates, which cannot use it, a `pub fn field(mut self, ..)` for every public field. C structs
//! (`#[repr(C)]`, versioned by their `size` field) and error types (`OverBudget`) are outside
//! the rule; glcmd-run has no Rust API (a preload `cdylib` and a binary; its `RunOptions` is in a
//! private module). From outside the crate, as a user: each builder's
//! result equals the default with that one field assigned, with a value that is not the
//! default's; a chain of all of them equals all of them assigned; and the fields exercised are
//! exactly the fields the type's `Debug` shows, so a new field without a case here fails.

use std::path::{Path, PathBuf};
use std::time::Duration;

use glcmd::capture::{CaptureOptions, PostMortem, SetupLog};
use glcmd::{DiagnosticOptions, Options};

// ---------------------------------------------------------------------------------------------
// The source
// ---------------------------------------------------------------------------------------------

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// What the rule says a type named `name` in the crate source `dir` is, if anything: by its
/// name's ending, or named here where the name does not say it (`capture::calls::Outcome` of
/// glcmd is a record of one replayed answer, not counters, hence the directory).
fn kind(dir: &str, name: &str) -> Option<&'static str> {
    let named = |options: &[(&str, &str)]| options.contains(&(dir, name));
    if name.ends_with("Options")
        || name.ends_with("Budget")
        || name == "PostMortem"
        || named(&[("codegen/src", "Selection"), ("replay/src", "Config")])
    {
        Some("options")
    } else if name.ends_with("Stats")
        || name.ends_with("Summary")
        || name.ends_with("Times")
        || named(&[("replay/src", "Outcome")])
    {
        Some("counters")
    } else {
        None
    }
}

/// The public fields of the struct whose `pub struct` line is `lines[at]`.
fn public_fields(lines: &[&str], at: usize) -> Vec<String> {
    lines[at + 1..]
        .iter()
        .take_while(|l| **l != "}")
        .filter_map(|l| l.strip_prefix("    pub "))
        .filter_map(|r| r.split_once(':').map(|(name, _)| name.to_string()))
        .collect()
}

/// A public struct the rule covers: its name, kind, attributes, public fields, file and the
/// file's text.
type Covered = (String, &'static str, Vec<String>, Vec<String>, PathBuf, String);

/// The public structs of a crate's source the rule covers, and the crate's whole source (for its
/// `builders!` invocations and error impls).
fn covered(root: &Path, dir: &str) -> (Vec<Covered>, String) {
    let mut files = Vec::new();
    sources(&root.join(dir), &mut files);
    let (mut found, mut all) = (Vec::new(), String::new());
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(rest) = line.strip_prefix("pub struct ") else { continue };
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let Some(kind) = kind(dir, &name) else { continue };
            // The attributes and doc lines right above the struct.
            let attributes = lines[..i]
                .iter()
                .rev()
                .take_while(|l| l.starts_with("#[") || l.starts_with("///"))
                .filter(|l| l.starts_with("#["))
                .map(|l| l.to_string())
                .collect();
            found.push((name, kind, attributes, public_fields(&lines, i), f.clone(), text.clone()));
        }
        all.push_str(&text);
    }
    (found, all)
}

#[test]
fn every_public_options_and_counters_type_follows_the_rule() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names = Vec::new();
    let mut broken = Vec::new();
    for dir in ["runtime", "capi/src", "codegen/src", "replay/src", "sweep/src"] {
        let (found, source) = covered(root, dir);
        for (name, kind, attributes, fields, file, text) in found {
            let at = format!("{name} ({kind}, {})", file.strip_prefix(root).unwrap().display());
            // C structs are versioned by their `size`; an error (`OverBudget`) is not options.
            if attributes.iter().any(|a| a.starts_with("#[repr(C")) || source.contains(&format!("Error for {name} {{"))
            {
                continue;
            }
            if !attributes.iter().any(|a| a == "#[non_exhaustive]") {
                broken.push(format!("{at}: not #[non_exhaustive]"));
            }
            if kind == "options" && !source.contains(&format!("builders!({name} {{")) {
                // Written by hand: one per public field, in the type's file.
                let missing: Vec<&String> =
                    fields.iter().filter(|f| !text.contains(&format!("pub fn {f}(mut self, "))).collect();
                if fields.is_empty() || !missing.is_empty() {
                    broken.push(format!("{at}: no builders!({name} {{ .. }}) and no builder for {missing:?}"));
                }
            }
            names.push(name);
        }
    }
    assert!(broken.is_empty(), "types outside the rule:\n{}", broken.join("\n"));
    // The scan found the types the rule names (it is not looking at nothing).
    for expected in [
        "Options",
        "DiagnosticOptions",
        "CaptureOptions",
        "PostMortem",
        "ReplayOptions",
        "ReplayBudget",
        "Stats",
        "RenderTimes",
        "FrameStats",
        "CaptureSummary",
        "ReplaySummary",
        "ImmediateStats",
        "Selection",
        "Config",
        "Outcome",
        "Summary",
        "AuditSummary",
    ] {
        assert!(names.iter().any(|n| n == expected), "{expected} not found in the source; found {names:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// The builders, as a user calls them
// ---------------------------------------------------------------------------------------------

/// The top-level field names of a value's pretty `Debug` (`Name {\n    field: ..`).
fn fields(pretty: &str) -> Vec<String> {
    let mut names: Vec<String> = pretty
        .lines()
        .filter_map(|l| l.strip_prefix("    ").filter(|r| !r.starts_with(' ')))
        .filter_map(|r| r.split_once(':').map(|(n, _)| n.to_string()))
        .collect();
    names.sort();
    names
}

/// For each `field = value`: the builder equals assigning the field (so it sets that field and no
/// other) and the value is not the start's. Then a chain of every builder equals every field
/// assigned, and the fields named are all of the type's.
macro_rules! check_builders {
    ($start:expr; $($field:ident = $value:expr),+ $(,)?) => {{
        let start = $start;
        let mut chained = start.clone();
        let mut assigned_all = start.clone();
        let mut named = Vec::new();
        $(
            let built = start.clone().$field($value);
            let mut assigned = start.clone();
            assigned.$field = $value;
            let field = stringify!($field);
            assert_eq!(format!("{built:?}"), format!("{assigned:?}"), "the builder {field} does not set {field} alone");
            assert_ne!(format!("{built:?}"), format!("{start:?}"), "{field}: the test's value is the start's");
            chained = chained.$field($value);
            assigned_all.$field = $value;
            named.push(field.to_string());
        )+
        assert_eq!(format!("{chained:?}"), format!("{assigned_all:?}"), "a chain of every builder");
        named.sort();
        assert_eq!(named, fields(&format!("{start:#?}")), "fields without a case here (or cases of no field)");
    }};
}

#[test]
fn every_options_builder_sets_its_field() {
    check_builders!(Options::default();
        track_sites = true,
        diagnostics = DiagnosticOptions::all(),
        wait_limit = Duration::from_millis(1500),
        spin = Duration::from_micros(3),
        report_capacity = 7,
        robust_access = true,
        checked_gl = true,
        capture = Some(CaptureOptions::default()),
        immediate_flush_bytes = 123,
        render_host = Some(glcmd::render_host::RenderHost::new(|_| Err("no thread in this test".into()))),
        skip_repeats = false,
        known_errors = false,
    );
    check_builders!(DiagnosticOptions::default();
        debug_output = true,
        strict = true,
        track_deletes = true,
        watchdog = Some(Duration::from_secs(3)),
        deleted_names_kept = 9,
    );
    check_builders!(CaptureOptions::default();
        setup = SetupLog::Everything,
        setup_limit = 5,
        post_mortem = Some(PostMortem::new(2, "last.glcap")),
    );
    check_builders!(PostMortem::new(2, "a.glcap");
        frames = 4,
        path = PathBuf::from("b.glcap"),
    );
}

#[cfg(feature = "capture-replay")]
#[test]
fn every_replay_options_builder_sets_its_field() {
    use glcmd::capture::{ReplayBudget, ReplayOptions};
    check_builders!(ReplayOptions::default();
        frames = Some(1..3),
        dump = true,
        budget = ReplayBudget::unlimited(),
    );
    check_builders!(ReplayBudget::default();
        objects = 1,
        storage_bytes = 2,
        vertices = 3,
    );
}

#[test]
fn post_mortem_new_sets_both_fields() {
    let p = PostMortem::new(5, "ring.glcap");
    assert_eq!((p.frames, p.path), (5, PathBuf::from("ring.glcap")));
}
