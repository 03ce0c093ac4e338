//! `glGetError` without a round trip (issue 31: "none where glcmd can know the answer"): an
//! immediate thread answers `GL_NO_ERROR` at once when every call since its last `glGetError`
//! was seen before, on the same program, vertex array and sampler units, in a stretch the GL
//! answered `GL_NO_ERROR` for, and nothing else changed the context since
//! (`runtime/known_errors.rs`).
//!
//! `tests/c/errors_known.c` draws one object with a `glGetError` after it until glcmd knows it,
//! then changes one thing each step that the GL's errors depend on: an argument, a sampler's
//! unit (in the stretch before the draw, which is what the epoch guards), the vertex array
//! bound, the program (the same location a vec4 in one program and a sampler in another), a
//! deleted texture, vertex array or program, a failed relink, a mapped buffer, an incomplete
//! framebuffer, another thread that deletes the vertex array while it has the context. Its
//! output through glcmd-run must be the direct run's, line for line: an answer given without
//! asking that the GL would not give shows there, and so does the error it hid, one line later.
//! Each rule of the module was checked by breaking it (the epoch, the program and the vertex
//! array left out of the keys, other calls forgetting nothing, the value of `glUniform1i` left
//! out): each broken rule fails this test.

#[allow(dead_code)]
#[path = "../../tests/common/process.rs"]
mod process;
#[allow(dead_code)]
mod support;
#[path = "../../tests/common/tools.rs"]
mod tools;

/// Runs `errors_known MODE` directly and through glcmd-run (`support::same_both_ways`: the
/// outputs equal); returns the `glGetError` calls glcmd-run answered without a round trip.
fn same_both_ways(exe: &std::path::Path, mode: &str, env: &[(&str, &str)]) -> u64 {
    support::stat(&support::same_both_ways(exe, mode, env), "without a round trip")
}

#[test]
fn errors_answered_without_asking_are_the_gls_after_every_change_they_depend_on() {
    if !tools::require_cc() {
        return;
    }
    let exe = support::compile("errors_known.c", "errors-known", &[]);
    let known = same_both_ways(&exe, "steps", &[]);
    // The steps between the changes are answered without asking (each change makes the next
    // stretch ask): at least one a step.
    assert!(known >= 15, "glGetError answered without a round trip {known} times");
}

#[test]
fn an_object_checked_after_every_draw_costs_one_round_trip_to_learn() {
    if !tools::require_cc() {
        return;
    }
    let exe = support::compile("errors_known.c", "errors-known-objects", &[]);
    // 50 objects, a glGetError after each: the first asks the GL (and learns the calls), the
    // other 49 are known. The set-up's own glGetError asks too.
    let known = same_both_ways(&exe, "objects", &[]);
    assert_eq!(known, 49);
    // Capturing keeps every glGetError: none is answered without asking.
    let dir = tempfile_dir();
    let capture = dir.join("errors.glcmdcap");
    let known = same_both_ways(&exe, "objects", &[("GLCMD_CAPTURE", capture.to_str().unwrap())]);
    assert_eq!(known, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("glcmd-known-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
