//! apitrace as an independent witness: the calls that reach the driver when glcmd replays lists
//! recorded on two worker threads are exactly the calls the same program makes directly, with
//! the same arguments and the same array contents (buffer uploads compared byte for byte), and
//! besides them only the unbinds a deferred delete makes at its place (named in the test).
//!
//! Runs `examples/trace_probe.rs` twice under `apitrace trace --api egl` and compares
//! `apitrace dump` from its first create to its final `glFinish`, without the calls glcmd makes
//! for its own bookkeeping: creates (name pools are filled ahead of demand, so glcmd's creates
//! come in other batches; the names they return are in the calls that use them, which are
//! compared) and state reads (`glGet*`, `glIs*`: the binding shadow's and the program interface
//! cache's read-backs).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Traces `probe args` and returns the dumped calls of the probe section, call numbers
/// removed and blobs replaced by a hash of their bytes.
fn trace(probe: &Path, args: &[&str], dir: &Path, name: &str) -> Vec<String> {
    let trace = dir.join(format!("{name}.trace"));
    let status = Command::new("apitrace")
        .args(["trace", "--api", "egl", "-o"])
        .arg(&trace)
        .arg(probe)
        .args(args)
        .stdin(Stdio::null())
        .status()
        .expect("apitrace is not installed: apt-get install apitrace apitrace-tracers (.ci/install-deps.sh does)");
    assert!(status.success(), "tracing {name} failed");
    let blobs = dir.join(format!("{name}-blobs"));
    std::fs::create_dir_all(&blobs).unwrap();
    let out = Command::new("apitrace")
        .args(["dump", "--blobs", "--call-nos=no", "--multiline=no"])
        .arg(&trace)
        .current_dir(&blobs)
        .output()
        .unwrap();
    assert!(out.status.success(), "apitrace dump failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.starts_with("glCreateFramebuffers")).expect("probe start");
    let end = lines.iter().position(|l| l.starts_with("glFinish")).expect("probe end");
    lines[start..=end]
        .iter()
        .filter(|l| !["glCreate", "glGen", "glGet", "glIs"].iter().any(|p| l.starts_with(p)))
        .map(|l| match l.split_once("blob(\"") {
            Some((head, rest)) => {
                let (file, tail) = rest.split_once("\")").unwrap();
                let bytes = std::fs::read(blobs.join(file)).unwrap();
                let hash = bytes.iter().fold(0xcbf29ce484222325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100000001b3));
                format!("{head}blob({} bytes, fnv {hash:016x}){tail}", bytes.len())
            }
            None => l.to_string(),
        })
        .collect()
}

#[test]
fn replayed_calls_equal_direct_calls_in_apitrace() {
    if !common::tools::require(&[("apitrace", "apitrace apitrace-tracers")]) {
        return;
    }
    let probe = common::build_example("trace_probe");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("apitrace");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let direct = trace(&probe, &["--direct"], &dir, "direct");
    let mut replayed = trace(&probe, &[], &dir, "glcmd");
    assert!(direct.len() > 20, "{direct:#?}");
    // The one kind of call glcmd adds: a deferred delete makes the GL delete's effects on the
    // context at its place (`runtime/delete_effects.rs`), which the direct program's delete
    // makes inside the driver. The textures are attached to the bound framebuffer, so they are
    // detached there: after the clear, before the pop that follows the delete in its list.
    let effects = [
        "glFramebufferTexture(target = GL_DRAW_FRAMEBUFFER, attachment = GL_COLOR_ATTACHMENT0, texture = 0, level = 0)",
        "glFramebufferTexture(target = GL_DRAW_FRAMEBUFFER, attachment = GL_COLOR_ATTACHMENT1, texture = 0, level = 0)",
    ];
    let at = replayed.iter().position(|l| l == effects[0]).expect("the delete's detaches at its place");
    assert_eq!(replayed[at..at + 2], effects, "{replayed:#?}");
    assert!(
        replayed[at - 1].starts_with("glClearBufferfv") && replayed[at + 2] == "glPopDebugGroup()",
        "{replayed:#?}"
    );
    replayed.drain(at..at + 2);
    assert_eq!(replayed, direct, "glcmd sent the driver a different call stream");
    // The arrays made it: draw buffers, border colour, the matrix and the 1 KiB upload.
    let all = direct.join("\n");
    for needle in [
        "bufs = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1}",
        "params = {0, 0.5, 1, 1}",
        "value = {1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0.25, 0.5, 0.75, 1}",
        "data = blob(1024 bytes",
        "textures = {1, 2}", // glDeleteTextures: the names the creates returned
        "message = \"probe\"",
    ] {
        assert!(all.contains(needle), "missing `{needle}` in:\n{all}");
    }
}
