//! The house rules of the runtime's floors (issue 17), checked on the source: which
//! hand-written module imports which, and whether any import goes round in a circle.
//!
//! A module is a top-level part of `runtime/` (a file, or a folder with its `mod.rs`). An edge
//! A → B is any `crate::B` path in A's code (comments aside), including `use crate::{B, ..}`
//! groups and names the crate root re-exports (`crate::Error` is `error`). The test prints every
//! edge, then fails if the graph has a cycle: imports only point down.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

/// The code of a file without its comments (line comments and doc comments).
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().filter(|l| !l.trim_start().starts_with("//")).map(|l| format!("{l}\n")).collect()
}

/// Top-level module of each runtime file, and the names `lib.rs` re-exports (name → module).
fn modules(root: &Path) -> (BTreeMap<String, Vec<PathBuf>>, BTreeMap<String, String>) {
    let mut files = Vec::new();
    sources(root, &mut files);
    let mut mods: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(root).unwrap();
        let first = rel.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
        if first != "lib" {
            mods.entry(first).or_default().push(f);
        }
    }
    let mut reexports = BTreeMap::new();
    for line in code(&root.join("lib.rs")).lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else { continue };
        let (module, names) = rest.trim_end_matches(';').split_once("::").unwrap_or((rest, ""));
        for name in names.trim_matches(|c| c == '{' || c == '}').split(',') {
            let name = name.split(" as ").last().unwrap().trim().rsplit("::").next().unwrap().to_string();
            if !name.is_empty() {
                reexports.insert(name, module.to_string());
            }
        }
    }
    (mods, reexports)
}

/// The identifiers that follow `crate::` in `code`, and the first names of `use crate::{..}`.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for part in group.split(',') {
                found.insert(ident(part.trim()));
            }
        } else {
            found.insert(ident(rest));
        }
    }
    found
}

fn graph(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let (mods, reexports) = modules(root);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, files) in &mods {
        let targets = edges.entry(m.clone()).or_default();
        for f in files {
            for name in crate_paths(&code(f)) {
                let target = if mods.contains_key(&name) { Some(name) } else { reexports.get(&name).cloned() };
                if let Some(t) = target.filter(|t| t != m && mods.contains_key(t)) {
                    targets.insert(t);
                }
            }
        }
    }
    edges
}

/// Strongly connected components of more than one module (Tarjan).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a str) {
        let n = w.index.len();
        w.index.insert(v, n);
        w.low.insert(v, n);
        w.stack.push(v);
        for t in &w.edges[v] {
            if !w.index.contains_key(t.as_str()) {
                visit(w, t);
                let l = w.low[t.as_str()].min(w.low[v]);
                w.low.insert(v, l);
            } else if w.stack.contains(&t.as_str()) {
                let l = w.index[t.as_str()].min(w.low[v]);
                w.low.insert(v, l);
            }
        }
        if w.low[v] == w.index[v] {
            let mut comp = Vec::new();
            while let Some(x) = w.stack.pop() {
                comp.push(x.to_string());
                if x == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                w.found.push(comp);
            }
        }
    }
    let mut w = Walk { edges, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for v in edges.keys() {
        if !w.index.contains_key(v.as_str()) {
            visit(&mut w, v);
        }
    }
    w.found
}

#[test]
fn the_runtime_has_no_import_circles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime");
    let edges = graph(&root);
    for (m, targets) in &edges {
        println!("{m} -> {}", targets.iter().cloned().collect::<Vec<_>>().join(", "));
    }
    let found = cycles(&edges);
    println!("import circles: {found:?}");
    assert!(found.is_empty(), "import circles (imports must point down): {found:?}");
    assert!(
        edges.len() > 10 && edges.values().map(BTreeSet::len).sum::<usize>() > 20,
        "the graph is too small to mean anything"
    );
}

#[test]
fn the_ground_floor_imports_nothing_above_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime");
    let edges = graph(&root);
    for floor in ["vocab", "error", "packet"] {
        let up: Vec<&String> = edges[floor].iter().filter(|t| !matches!(t.as_str(), "generated" | "vocab")).collect();
        assert!(
            up.is_empty(),
            "{floor} imports {up:?}: the ground floor may import only the generated tables and itself"
        );
    }
}

/// The generated layer (committed in `generated/`) plugs into a fixed set of hand-written
/// helpers and otherwise speaks only the ground floor: a generated file that reached into any
/// other module would tie the generator to the runtime's inside.
#[test]
fn the_generated_code_imports_only_the_ground_floor_and_its_plug_ins() {
    const ALLOWED: &[&str] = &[
        // the generated tables and the ground floor
        "generated",
        "gl",
        "types",
        "Gl",
        "vocab",
        "packet",
        "missing_function",
        "Error",
        "Bytes",
        // the helpers the generated code plugs into: recording, argument checks, replay and its
        // shadow hooks, dumps, the checking table, the Device methods' round trips and caches,
        // capture tables
        "list",
        "arguments",
        // pixel sizes and pixel-store state (ground floor: `pixels.rs` imports only the tables)
        "pixels",
        "replay",
        // replay's check of pixel reads into the pack buffer (a room above `replay`)
        "pack_range",
        "shadow",
        "dump",
        "checked",
        "device",
        "immediate",
        "programs",
        // the C caller's output pointers, which a generated query fills its vectors from, and
        // the measured count of a pname query's answer
        "client_out",
        "query_out",
        "capture",
        "CommandList",
        "Device",
        "Immediate",
        "SyncHandle",
        "RenderContext",
    ];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("generated");
    let mut seen = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            seen.extend(crate_paths(&code(&path)));
        }
    }
    seen.remove("");
    println!("generated/ imports: {}", seen.iter().cloned().collect::<Vec<_>>().join(", "));
    let other: Vec<&String> = seen.iter().filter(|p| !ALLOWED.contains(&p.as_str())).collect();
    assert!(other.is_empty(), "generated code reaches into {other:?}: give it a helper on a floor it may use");
    assert!(seen.contains("replay") && seen.contains("list"), "the scan found too little: {seen:?}");
}

/// The same rule inside each folder of `runtime/`: a room (file) imports only rooms below it. A
/// child that names an item of its folder's `mod.rs` (`super::Shadow`) while `mod.rs` imports
/// from that child would be a circle between floors of one part; `mod.rs` only declares its
/// rooms and re-exports what the crate needs.
#[test]
fn no_folder_of_the_runtime_has_an_import_circle_between_its_rooms() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("runtime");
    let mut folders = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        folders += 1;
        let rooms: BTreeMap<String, PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .map(|p| (p.file_stem().unwrap().to_string_lossy().to_string(), p))
            .collect();
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (room, path) in &rooms {
            let text = code(path);
            let targets = edges.entry(room.clone()).or_default();
            if room == "mod" {
                // `use child::…` / `child::…` (not `mod child;` and not `pub use`, re-exports).
                // An attribute before the `use` on the same line does not hide it.
                let uses =
                    text.lines().map(|l| l.trim().rsplit("] ").next().unwrap_or("")).filter(|l| l.starts_with("use "));
                for line in uses {
                    let name: String =
                        line["use ".len()..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    if rooms.contains_key(&name) && name != "mod" {
                        targets.insert(name);
                    }
                }
                continue;
            }
            for (i, _) in text.match_indices("super::") {
                let rest = &text[i + "super::".len()..];
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                let sibling = rooms.contains_key(&name) && rest[name.len()..].starts_with("::");
                targets.insert(if sibling { name } else { "mod".to_string() });
            }
            targets.remove(room);
        }
        let found = cycles(&edges);
        assert!(found.is_empty(), "{}: import circles between its rooms: {found:?} (edges {edges:?})", dir.display());
    }
    assert!(folders >= 5, "only {folders} folders: the scan is not reading runtime/");
}
