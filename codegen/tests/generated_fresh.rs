//! The generated layer, committed for readers: `generated/` at the checkout's root holds the
//! formatted sources glcmd's build script generates for the **default features** (core GL, ARB
//! and KHR; no `ext`, `vendor` or `checking`), the same text the build includes from
//! `$OUT_DIR`. A reader can open `generated/commands.rs` and find `impl CommandList`, or grep
//! for a GL function, without running the generator. This test keeps the copy fresh: it
//! regenerates every file and fails on any difference; `GLCMD_BLESS=1 cargo test -p
//! glcmd-codegen --test generated_fresh` rewrites them (as `glcmd.h` is rewritten).

use std::path::Path;

use glcmd_codegen::{generate_selected, Inputs, Selection};

#[test]
fn the_committed_generated_sources_are_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("codegen/ is inside the checkout");
    let dir = root.join("generated");
    // Core GL, ARB and KHR: no `ext`, `vendor` or `checking`.
    let defaults = Selection::default();
    let files = generate_selected(&Inputs::bundled(), &defaults).unwrap_or_else(|e| panic!("{e}"));
    let bless = std::env::var_os("GLCMD_BLESS").is_some();
    let mut stale = Vec::new();
    for (name, source) in &files {
        let path = dir.join(name);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(source.as_str()) {
            continue;
        }
        if bless {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, source).unwrap();
        } else {
            stale.push(name.to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "generated/{{{}}} differ from what the generator makes now: run `GLCMD_BLESS=1 cargo test -p glcmd-codegen \
         --test generated_fresh` and commit the result",
        stale.join(",")
    );
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    println!("generated/ is fresh: {} files ({})", files.len(), names.join(", "));
    assert!(names.contains(&"commands.rs") && names.contains(&"device.rs"), "{names:?}");
}
