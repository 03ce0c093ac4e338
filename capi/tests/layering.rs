//! The crate's modules form floors: every `crate::<module>` path in a module points to a module
//! below it, so there is no import circle. A circle means no module in it can be read, changed or
//! tested without the others (issue 17 found `api.rs`, which held both the C types and the
//! functions that use them, in a circle of seven files); this test reads `src/*.rs` (and the
//! generated entry points `src/generated.rs` includes), draws the graph of `crate::` edges and
//! fails on a cycle, printing the edges.
//!
//! `types.rs` is the ground floor: it imports nothing of the crate.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The module names after `crate::` in `source`, skipping comment lines (a doc link is no
/// import). `crate::{a, b::c}` names `a` and `b`.
fn crate_paths(source: &str) -> BTreeSet<String> {
    let code: String = source.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        // `glcmd_capi::crate` cannot occur; a path segment before `crate` would be an identifier.
        if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            out.extend(group.split(',').map(|p| ident(p.trim())).filter(|m| !m.is_empty()));
        } else {
            out.insert(ident(rest));
        }
    }
    out
}

/// The module graph of `src/` (with the generated entry points counted as `generated`).
fn graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut sources = BTreeMap::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.extension().is_some_and(|e| e == "rs") && name != "lib" {
            sources.insert(name, std::fs::read_to_string(&path).unwrap());
        }
    }
    let generated = Path::new(env!("OUT_DIR")).join("glcmd_capi_entry.rs");
    let text = std::fs::read_to_string(&generated).unwrap_or_else(|e| panic!("{}: {e}", generated.display()));
    // Unformatted (one item per line, as `cargo test -p glcmd-capi` builds it) a path reads
    // `crate :: call :: record`.
    let text = text.replace(" :: ", "::");
    sources.get_mut("generated").expect("src/generated.rs").push_str(&text);
    let modules: BTreeSet<String> = sources.keys().cloned().collect();
    sources
        .iter()
        .map(|(m, s)| {
            let to = crate_paths(s).into_iter().filter(|t| t != m && modules.contains(t)).collect();
            (m.clone(), to)
        })
        .collect()
}

/// A cycle of `graph`, as the modules along it, if there is one.
fn cycle(graph: &Graph) -> Option<Vec<String>> {
    // 0: unvisited, 1: on the current path, 2: done.
    fn visit(g: &Graph, m: &str, state: &mut BTreeMap<String, u8>, path: &mut Vec<String>) -> Option<Vec<String>> {
        state.insert(m.to_string(), 1);
        path.push(m.to_string());
        for t in g.get(m).into_iter().flatten() {
            match state.get(t).copied().unwrap_or(0) {
                1 => {
                    let start = path.iter().position(|p| p == t).unwrap();
                    let mut c = path[start..].to_vec();
                    c.push(t.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(g, t, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in graph.keys() {
        if state.get(m).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(graph, m, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn edges(graph: &Graph) -> String {
    graph.iter().flat_map(|(m, to)| to.iter().map(move |t| format!("{m} -> {t}\n"))).collect()
}

#[test]
fn the_detector_finds_paths_and_cycles() {
    let paths = crate_paths("use crate::a::X;\n// crate::b in a comment\nuse crate::{c, d::Y};\nf(crate::e::g());");
    assert_eq!(paths, ["a", "c", "d", "e"].map(String::from).into());
    let g = |e: &[(&str, &str)]| {
        let mut g = Graph::new();
        for (a, b) in e {
            g.entry(a.to_string()).or_default().insert(b.to_string());
        }
        g
    };
    assert_eq!(cycle(&g(&[("a", "b"), ("b", "c"), ("a", "c")])), None);
    assert_eq!(cycle(&g(&[("a", "b"), ("b", "c"), ("c", "a")])), Some(["a", "b", "c", "a"].map(String::from).into()));
}

#[test]
fn module_imports_point_down_only() {
    let graph = graph();
    let edges = edges(&graph);
    println!("{edges}");
    // The graph is the real one: the ABI on top reaches the types at the bottom.
    assert!(graph["api"].contains("types") && graph["error"].contains("types"), "{edges}");
    assert!(graph["generated"].contains("call"), "the generated entry points are read:\n{edges}");
    assert!(graph["types"].is_empty(), "types.rs is the ground floor; it imports:\n{edges}");
    if let Some(c) = cycle(&graph) {
        panic!("an import circle: {}\nevery edge:\n{edges}", c.join(" -> "));
    }
}
