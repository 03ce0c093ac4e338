//! The generated differential calls (issue 30 items 3 and 4): every core GL function called
//! with the soundness sweep's kinds of arguments, from C, directly and through glcmd-run; each
//! call's return value and error must be the same both ways. The calls are generated from the
//! model (glcmd-codegen's `emit/c_calls.rs`: a base call per function, then one argument changed
//! at a time, NULL for every pointer once), so a function nobody thought of is compared too; the
//! fixture and the main function are `tests/c/calls_fixture.h` and `calls_main.h`.
//!
//! Where Mesa itself crashes on a call (it writes through a NULL output pointer, or reads a NULL
//! array it was told is there), the direct run dies at that call. The program is then started
//! again after it, on both sides at the same places, so both sides make the same calls on the same
//! state; the calls that crash the driver are counted and left out of the comparison (what glcmd
//! does there cannot differ from the GL's answer, the GL has none).

#[allow(dead_code)]
#[path = "../../tests/common/process.rs"]
mod process;
#[allow(dead_code)]
mod support;
#[path = "../../tests/common/tools.rs"]
mod tools;

use std::path::{Path, PathBuf};

/// The generated program, compiled.
fn program() -> PathBuf {
    let source = glcmd_codegen::c_calls_source(&glcmd_codegen::Inputs::bundled()).unwrap_or_else(|e| panic!("{e}"));
    let dir = support::launcher().parent().unwrap().join("run-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("generated_calls.c");
    std::fs::write(&path, source).unwrap();
    let include = format!("-I{}", Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").display());
    support::compile(path.to_str().unwrap(), "generated-calls", &[&include])
}

/// One run of calls `from..to`: the lines of the calls it finished, and the call it crashed in.
struct Segment {
    from: usize,
    lines: Vec<String>,
    crashed_at: Option<usize>,
}

fn run_segment(exe: &Path, from: usize, to: usize, through: Option<&[&str]>) -> Segment {
    let ran = support::run(exe, &[&from.to_string(), &to.to_string()], through, None);
    let mut lines: Vec<String> = ran.stdout.lines().map(str::to_string).collect();
    if lines.last().map(String::as_str) == Some("done") && ran.status == Some(0) {
        lines.pop();
        return Segment { from, lines, crashed_at: None };
    }
    // The call it died in is the last line, printed before the call and never finished.
    let last = lines.pop().unwrap_or_else(|| panic!("calls {from}..{to} printed nothing: {ran:?}"));
    let at = last.split(' ').next().and_then(|n| n.parse().ok());
    assert!(
        at.is_some() && !last.contains(" error=") && through.is_none(),
        "calls {from}..{to} (through glcmd-run: {through:?}) ended at `{last}`: status {:?}\n{}",
        ran.status,
        ran.stderr
    );
    Segment { from, lines, crashed_at: at }
}

/// The direct side: runs every call, starting again after each call the driver crashes in.
fn direct_segments(exe: &Path, count: usize) -> Vec<Segment> {
    let mut segments = Vec::new();
    let mut from = 0;
    while from < count {
        let segment = run_segment(exe, from, count, None);
        from = segment.crashed_at.map_or(count, |at| at + 1);
        segments.push(segment);
    }
    segments
}

/// The known differences: `tests/generated_calls_known.txt`, one line per call that glcmd-run
/// still answers differently (`name variant :: direct || glcmd-run`), each a class an issue
/// names; `GLCMD_BLESS=1` rewrites it.
const KNOWN: &str = "tests/generated_calls_known.txt";

const KNOWN_HEADER: &str = "\
# Calls of the generated differential test (tests/generated_calls.rs) that glcmd-run still answers
# differently from the GL (Mesa 22, llvmpipe): `function variant :: direct || through glcmd-run`.
# The test fails on a difference not listed here and on a listed call that no longer differs;
# `GLCMD_BLESS=1 cargo test -p glcmd-run --test generated_calls` rewrites the list. The classes:
# * a negative count, size or offset that glcmd refuses (GL_INVALID_VALUE) before the GL's own
#   earlier check (no buffer bound, a target, a texture name): the Rust API takes slices, so the
#   count cannot reach the GL as it was given (issue 30 item 4, issue 34 item 4);
# * NaN in range-checked float state that the GL takes without an error (a depth range, a line
#   width, a point size, a LOD), refused for the driver's sake (NVIDIA crashed on one);
# * functions Mesa 22 lists but serves with a no-op (glGetnTexImage, glGetnCompressedTexImage,
#   glGetnUniformdv: no error for anything), where glcmd's checks raise errors;
# * compressed uploads and program-resource queries whose sizes glcmd checks before the GL's
#   format and index checks;
# * calls where glcmd is safer than Mesa (a `first` whose sum with `count` wraps 2^32, which
#   Mesa indexes past its arrays with; buffer 0 bound at a non-zero offset; a debug-log count
#   of 2^32 - 1, which glcmd cannot allocate room for).
";

/// `N name variant: outcome` as `name variant`, `outcome`.
fn split(line: &str) -> (&str, &str) {
    let line = line.split_once(' ').map_or(line, |(_, rest)| rest);
    line.split_once(':').unwrap_or((line, ""))
}

#[test]
fn every_core_function_returns_and_raises_what_the_gl_does_with_adversarial_and_null_arguments() {
    if !tools::require_cc() {
        return;
    }
    let exe = program();
    let counted = support::run(&exe, &["--count"], None, None);
    let count: usize = counted.stdout.trim().parse().unwrap_or_else(|e| panic!("{counted:?}: {e}"));
    let direct = direct_segments(&exe, count);
    let mut differences = std::collections::BTreeSet::new();
    let mut compared = 0;
    for segment in &direct {
        let to = segment.crashed_at.unwrap_or(count);
        let through = run_segment(&exe, segment.from, to, Some(&[]));
        assert_eq!(through.crashed_at, None);
        assert_eq!(segment.lines.len(), through.lines.len(), "calls {}..{to}", segment.from);
        for (d, t) in segment.lines.iter().zip(&through.lines) {
            compared += 1;
            let ((call, direct), (call_through, through)) = (split(d), split(t));
            assert_eq!(call, call_through, "the two runs made different calls");
            if direct != through {
                differences.insert(format!("{call} ::{direct} ||{through}"));
            }
        }
    }
    let crashes: Vec<usize> = direct.iter().filter_map(|s| s.crashed_at).collect();
    println!(
        "{count} calls: {compared} compared, {} differ, {} crash the driver directly",
        differences.len(),
        crashes.len()
    );
    assert!(compared > count / 2, "too few calls ran directly: {compared} of {count}");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(KNOWN);
    if std::env::var_os("GLCMD_BLESS").is_some() {
        let lines: Vec<&str> = differences.iter().map(String::as_str).collect();
        std::fs::write(&path, format!("{KNOWN_HEADER}{}\n", lines.join("\n"))).unwrap();
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let known: std::collections::BTreeSet<String> =
        text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).map(str::to_string).collect();
    let new: Vec<&String> = differences.difference(&known).collect();
    let gone: Vec<&String> = known.difference(&differences).collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "{} calls differ from the GL and are not in {KNOWN}:\n{}\n\n{} listed calls no longer differ (remove \
         them: GLCMD_BLESS=1):\n{}",
        new.len(),
        new.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n"),
        gone.len(),
        gone.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}
