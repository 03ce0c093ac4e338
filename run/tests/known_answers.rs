//! Answers without a round trip (issue 35 item 5, issue 31's third item): a query result or a
//! fence state the render thread has already read answers `glGetQueryObject*v`, `glIsQuery`,
//! `glIsSync` and `glClientWaitSync` at once (`runtime/known_answers.rs`), and every call that
//! could make such an answer stale sends the question to the GL again.
//!
//! `tests/c/known.c` asks as mpv does (a ring of queries read before they are begun again, a
//! fence waited on two frames later), through every getter and pname, and after each call that
//! must make an earlier answer stale (a query begun again while active, a refused begin, a
//! refused counter, a delete, a buffer bound to `GL_QUERY_BUFFER`, a deleted sync, flags the GL
//! refuses): its output through glcmd-run must be the direct run's, line for line. The round
//! trips it saves are counted on the same program with and without its questions, a glFinish
//! ending each frame so that the count cannot depend on the machine's speed.

#[allow(dead_code)]
#[path = "../../tests/common/process.rs"]
mod process;
#[allow(dead_code)]
mod support;
#[path = "../../tests/common/tools.rs"]
mod tools;

/// Runs `known MODE` directly and through glcmd-run (`support::same_both_ways`: the outputs
/// equal); returns the round trips through glcmd-run.
fn same_both_ways(exe: &std::path::Path, mode: &str) -> u64 {
    support::stat(&support::same_both_ways(exe, mode, &[]), "round trips")
}

#[test]
fn results_and_fences_answer_as_the_gl_and_stale_ones_ask_it() {
    if !tools::require_cc() {
        return;
    }
    let exe = support::compile("known.c", "known", &[]);
    same_both_ways(&exe, "all");
}

#[test]
fn results_and_fences_already_read_cost_no_round_trip() {
    if !tools::require_cc() {
        return;
    }
    // Its own name: tests run in parallel, and a program being written cannot be started.
    let exe = support::compile("known.c", "known-frames", &[]);
    let asked = same_both_ways(&exe, "frames");
    let unasked = same_both_ways(&exe, "frames-unasked");
    // Twelve frames ask 12 `glIsQuery`, 9 reads, 10 `glIsSync` and 10 waits. Only the three
    // `glIsQuery` of queries never begun (frames 0 to 2, answered false) go to the GL: the rest
    // ask about queries and fences that completed before the frame's glFinish returned.
    assert_eq!(asked, unasked + 3, "round trips with the questions {asked}, without {unasked}");
}

/// The tutorial frame (`bench/tutorial.c`, issue 31's program) through glcmd-run: its digest (every
/// answer and the pixels) and the round trips glcmd-run's `--stats` line counts.
fn tutorial(exe: &std::path::Path, frame: &str, launcher: &[&str]) -> u64 {
    let args = [frame, "20", "40"];
    let digest = |stdout: &str| stdout.split_once("digest=").map(|(_, d)| d.trim().to_string());
    let direct = support::run(exe, &args, None, None);
    assert_eq!(direct.status, Some(0), "directly: {direct:?}");
    let through = support::run(exe, &args, Some(launcher), None);
    assert_eq!(through.status, Some(0), "through glcmd-run: {through:?}");
    assert!(digest(&direct.stdout).is_some(), "{direct:?}");
    assert_eq!(digest(&through.stdout), digest(&direct.stdout), "{frame}: stderr:\n{}", through.stderr);
    support::stat(&through.stderr, "round trips")
}

#[test]
fn state_an_immediate_thread_set_is_answered_without_a_round_trip() {
    if !tools::require_cc() {
        return;
    }
    let exe = support::compile("../../bench/tutorial.c", "tutorial-state", &[]);
    // 60 frames (20 warm-up and 40 timed) of Dear ImGui's 25 state queries and its restores, over
    // the same frame without them: the queries go to the GL the first time only (the shadow
    // keeps the GL's answers, and follows the restores), not 25 times a frame.
    // (Every glGetError asks here, so that the frames' round trips differ by the state queries
    // alone.)
    let asking = ["--stats", "--ask-every-error"];
    let imgui = tutorial(&exe, "imgui", &asking);
    let cached = tutorial(&exe, "cached", &asking);
    assert!(imgui <= cached + 25, "round trips with ImGui's state queries {imgui}, without {cached}");
    // A glGetIntegerv(GL_VIEWPORT) after every draw (and a glGetError, which does go to the GL).
    let queries = tutorial(&exe, "queries", &asking);
    // Without the shadow: two a draw; with it, the glGetError and the first viewport.
    assert!(queries <= cached + 60 * 20 + 1, "round trips of the queries frame {queries}, of the plain frame {cached}");
    // With glGetError answered where glcmd knows it (`known_errors.rs`): the frame's draws repeat
    // the first frame's, so after it they cost no round trip either.
    let known = tutorial(&exe, "queries", &["--stats"]);
    let cached_known = tutorial(&exe, "cached", &["--stats"]);
    assert!(known <= cached_known + 25, "round trips of the queries frame {known}, of the plain frame {cached_known}");
}
