//! The GPU runs' records (issue 32): `docs/gpu-runs/` holds the tables a reader checks a figure
//! against, with their commands and machines in its README, and every raw log lies under
//! `docs/gpu-runs/data/`. Checked on the repository's text:
//!
//! * every path under `docs/gpu-runs/` that the documents, scripts and examples name exists (a
//!   `*` in it matches at least one file; `ROUND`, `NAME` and `...` are placeholders and are not
//!   looked up), and so does every relative link of the Markdown files under `docs/gpu-runs/`;
//! * outside `data/`, `docs/gpu-runs/` holds Markdown only: a raw log (`.err`, `.jsonl`, `.txt`,
//!   ...) filed beside the tables fails, naming it.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Whether `pattern` (a path relative to the root, `*` matching within one component) names at
/// least one file or folder.
fn matches(pattern: &str) -> bool {
    let mut candidates = vec![root()];
    for part in pattern.split('/').filter(|p| !p.is_empty()) {
        let mut next = Vec::new();
        for dir in &candidates {
            if !part.contains('*') {
                let p = dir.join(part);
                if p.exists() {
                    next.push(p);
                }
                continue;
            }
            let (prefix, suffix) = part.split_once('*').unwrap();
            for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with(prefix) && name.ends_with(suffix) && name.len() >= prefix.len() + suffix.len() {
                    next.push(entry.path());
                }
            }
        }
        candidates = next;
    }
    !candidates.is_empty()
}

/// The `docs/gpu-runs/...` paths a text names.
fn named_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in text.match_indices("docs/gpu-runs/") {
        let path: String =
            text[i..].chars().take_while(|c| c.is_alphanumeric() || matches!(c, '/' | '.' | '-' | '_' | '*')).collect();
        found.push(path.trim_end_matches('.').to_string());
    }
    found
}

#[test]
fn every_named_gpu_run_path_exists() {
    let root = root();
    let mut sources = vec![root.join("README.md"), root.join("BENCHMARKS.md"), root.join("Cargo.toml")];
    for dir in ["docs", "scripts", "examples", ".ci", "run/bench", "tests"] {
        files(&root.join(dir), &mut sources);
    }
    let mut checked = 0;
    let mut missing = Vec::new();
    for source in &sources {
        let Ok(text) = std::fs::read_to_string(source) else { continue };
        for path in named_paths(&text) {
            if ["ROUND", "NAME", "..."].iter().any(|p| path.contains(p)) || path.ends_with("/.") {
                continue;
            }
            checked += 1;
            if !matches(&path) {
                missing.push(format!("{}: {path}", source.strip_prefix(&root).unwrap().display()));
            }
        }
    }
    assert!(missing.is_empty(), "paths named that do not exist:\n{}", missing.join("\n"));
    assert!(checked > 20, "only {checked} paths found: is the scan looking at the documents?");
}

#[test]
fn every_relative_link_under_docs_gpu_runs_exists() {
    let mut docs = Vec::new();
    files(&root().join("docs/gpu-runs"), &mut docs);
    let mut checked = 0;
    let mut missing = Vec::new();
    for doc in docs.iter().filter(|d| d.extension().is_some_and(|e| e == "md")) {
        let text = std::fs::read_to_string(doc).unwrap();
        for (i, _) in text.match_indices("](") {
            let target = &text[i + 2..];
            let target = &target[..target.find(')').unwrap()];
            if target.contains("://") || target.starts_with('#') {
                continue;
            }
            checked += 1;
            if !doc.parent().unwrap().join(target).exists() {
                missing.push(format!("{}: {target}", doc.strip_prefix(root()).unwrap().display()));
            }
        }
    }
    assert!(missing.is_empty(), "links to nothing:\n{}", missing.join("\n"));
    assert!(checked > 10, "only {checked} links found under docs/gpu-runs");
}

#[test]
fn raw_logs_of_gpu_runs_are_under_data() {
    let base = root().join("docs/gpu-runs");
    let mut all = Vec::new();
    files(&base, &mut all);
    let beside: Vec<String> = all
        .iter()
        .filter(|f| !f.starts_with(base.join("data")) && f.extension().is_none_or(|e| e != "md"))
        .map(|f| f.strip_prefix(&base).unwrap().display().to_string())
        .collect();
    assert!(beside.is_empty(), "raw logs beside the tables (move them under docs/gpu-runs/data/): {beside:?}");
    assert!(base.join("README.md").is_file() && base.join("data/README.md").is_file());
    assert!(all.iter().any(|f| f.starts_with(base.join("data")) && f.extension().is_some_and(|e| e == "err")));
}
