//! `glcmd-run --batch-bytes N` (`GLCMD_BATCH_BYTES`): a thread's recorded calls are handed to the
//! render thread each time they pass N bytes (16 KiB by default), besides at a query, a flush and a swap
//! (issue 31's streaming hand-over, a knob for measuring batch sizes). The program's answers and
//! pixels must not change with the batch size (`bench/tutorial.c`, issue 31's program: its digest
//! of every answer and the pixels, against the direct run), and the hand-overs for size must
//! happen: the device's `--stats` line counts them.

#[allow(dead_code)]
#[path = "../../tests/common/process.rs"]
mod process;
#[allow(dead_code)]
mod support;
#[path = "../../tests/common/tools.rs"]
mod tools;

/// The hand-overs for size that glcmd-run's `--stats` line reports ("... N for size)").
fn size_submits(stderr: &str) -> u64 {
    let line = stderr.lines().find(|l| l.contains("implicit submits")).unwrap_or_else(|| panic!("no stats:\n{stderr}"));
    let before = line.rsplit_once(" for size").unwrap_or_else(|| panic!("{line}")).0;
    before.rsplit(' ').next().unwrap().parse().unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[test]
fn small_batches_hand_calls_over_mid_program_and_change_no_answer() {
    if !tools::require_cc() {
        return;
    }
    let exe = support::compile("../../bench/tutorial.c", "tutorial-batches", &[]);
    let digest = |stdout: &str| stdout.split_once("digest=").map(|(_, d)| d.trim().to_string());
    // The queries frame asks after every draw, so its lists never reach 1 KiB: only its answers
    // are compared there.
    for frame in ["cached", "lean", "queries"] {
        let args = [frame, "300", "4"];
        let direct = support::run(&exe, &args, None, None);
        assert_eq!(direct.status, Some(0), "directly: {direct:?}");
        assert!(digest(&direct.stdout).is_some(), "{direct:?}");
        let large = support::run(&exe, &args, Some(&["--stats", "--batch-bytes", "1048576"]), None);
        assert_eq!(digest(&large.stdout), digest(&direct.stdout), "{frame}: 1 MiB; stderr:\n{}", large.stderr);
        assert_eq!(size_submits(&large.stderr), 0, "{frame}: a frame records less than 1 MiB");
        // The default (16 KiB) hands the cached and lean frames over within the frame.
        let default = support::run(&exe, &args, Some(&["--stats"]), None);
        assert_eq!(digest(&default.stdout), digest(&direct.stdout), "{frame}; stderr:\n{}", default.stderr);
        assert!(frame == "queries" || size_submits(&default.stderr) > 0, "{frame}:\n{}", default.stderr);
        let small = support::run(&exe, &args, Some(&["--stats", "--batch-bytes", "1024"]), None);
        assert_eq!(small.status, Some(0), "{small:?}");
        assert_eq!(digest(&small.stdout), digest(&direct.stdout), "{frame}: 1 KiB batches; stderr:\n{}", small.stderr);
        assert!(
            frame == "queries" || size_submits(&small.stderr) > 0,
            "{frame}: no hand-over for size with 1 KiB batches:\n{}",
            small.stderr
        );
    }
    let bad = support::run(&exe, &["cached", "10", "1"], Some(&["--batch-bytes", "lots"]), None);
    assert!(bad.stderr.contains("GLCMD_BATCH_BYTES=lots is not a whole number"), "{bad:?}");
}
