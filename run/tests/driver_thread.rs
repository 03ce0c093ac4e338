//! The one driver thread (issue 31): under glcmd-run, every EGL or GLX call of a single-threaded
//! program reaches the driver from one thread, glcmd's, which is also the render thread of the
//! context it adopted; the program's own thread calls EGL or GLX not once. NVIDIA's driver runs GL
//! 1.3–1.7× slower in any process whose EGL calls come from two threads, so this is what lets
//! glcmd-run be faster than the program run directly there.
//!
//! Checked with a spy (`tests/c/egl_spy.c`), preloaded after glcmd's library: it is the "next"
//! EGL and GLX that glcmd calls and notes which thread made each call. The programs
//! (`tests/c/one_thread.c` with EGL: frames with a swap, the current-context queries, a fence, a
//! query the driver refuses, the teardown; `tests/c/one_thread_glx.c` with GLX on Xvfb: configs,
//! a window, an extension function, frames with `glXWaitGL` and a swap, the teardown) print the
//! same through glcmd-run as directly, and the spy sees one thread, not the main one. With
//! `GLCMD_RUN_DRIVER_THREAD=0` it sees two (so the check can fail), and directly only the main
//! thread (so the spy sees what it should).

#[allow(dead_code)]
#[path = "../../tests/common/process.rs"]
mod process;
#[allow(dead_code)]
mod support;
#[path = "../../tests/common/tools.rs"]
mod tools;
#[allow(dead_code)]
#[path = "../../tests/common/xvfb.rs"]
mod xvfb;

use std::path::Path;

/// The spy's report of one run: (thread, calls, first function) per thread that called EGL or
/// GLX.
fn spied(
    exe: &Path,
    through: Option<&[&str]>,
    display: Option<&str>,
    extra_env: &[(&str, &str)],
    tag: &str,
) -> (support::Ran, Vec<(String, u64, String)>) {
    // Compiled once: the two tests run side by side.
    static SPY: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    let spy = SPY.get_or_init(|| support::compile_library("egl_spy.c", "libegl_spy.so"));
    let report = spy.with_file_name(format!("egl_spy_{tag}.txt"));
    let _ = std::fs::remove_file(&report);
    let mut env = vec![("LD_PRELOAD", spy.to_str().unwrap()), ("EGL_SPY_OUT", report.to_str().unwrap())];
    env.extend_from_slice(extra_env);
    let ran = support::run_with_env(exe, &[], through, display, &env);
    let text = std::fs::read_to_string(&report).unwrap_or_default();
    let threads = text
        .lines()
        .map(|l| {
            let mut parts = l.split(' ');
            let who = parts.next().unwrap().to_string();
            let calls = parts.next().unwrap().parse().unwrap();
            (who, calls, parts.next().unwrap().to_string())
        })
        .collect();
    (ran, threads)
}

#[test]
fn every_egl_call_of_a_program_reaches_the_driver_from_one_thread() {
    if !tools::require(&[(tools::cc().as_str(), "gcc")]) {
        return;
    }
    let exe = support::compile("one_thread.c", "one_thread", &[]);
    one_thread(
        &exe,
        None,
        "egl",
        &["frame 3: corner 191,128,64 centre 255,255,0 fence signalled", "bad query: 0 error 0x3004"],
    );
}

#[test]
fn every_glx_call_of_a_program_reaches_the_driver_from_one_thread() {
    if !tools::require(&[(tools::cc().as_str(), "gcc"), ("Xvfb", "xvfb")]) {
        return;
    }
    let x = xvfb::Xvfb::start();
    let exe = support::compile("one_thread_glx.c", "one_thread_glx", &[]);
    one_thread(
        &exe,
        Some(&x.display),
        "glx",
        &["frame 3: corner 191,128,64 gl 0x0", "release 1; current after 0", "x errors 0"],
    );
}

/// The program directly, through glcmd-run and through glcmd-run without the driver thread, each
/// under the spy: the same output (containing each of `expected`), and the threads that called
/// the window-system API: the main one, glcmd's one, both.
fn one_thread(exe: &Path, display: Option<&str>, api: &str, expected: &[&str]) {
    let (direct, threads) = spied(exe, None, display, &[], &format!("{api}-direct"));
    assert_eq!(direct.status, Some(0), "directly: {direct:?}");
    for line in expected {
        assert!(direct.stdout.contains(line), "{line:?} in\n{}", direct.stdout);
    }
    assert_eq!(threads.len(), 1, "directly, only the main thread calls {api}: {threads:?}");
    assert_eq!(threads[0].0, "main", "{threads:?}");

    let (through, threads) = spied(exe, Some(&[]), display, &[], &format!("{api}-through"));
    assert_eq!(through.status, Some(0), "through glcmd-run: {through:?}");
    assert_eq!(through.stdout, direct.stdout, "glcmd-run's stderr:\n{}", through.stderr);
    // Nothing of glcmd-run's (the driver's own warnings, if any, are the direct run's too).
    assert!(!through.stderr.contains("glcmd-run:"), "glcmd-run printed: {}", through.stderr);
    assert_eq!(threads.len(), 1, "through glcmd-run, one thread calls {api}: {threads:?}");
    assert_eq!(threads[0].0, "other", "glcmd's driver thread, not the program's: {threads:?}");
    assert!(threads[0].1 >= direct_calls(&direct), "{threads:?}");

    let (off, threads) = spied(exe, Some(&[]), display, &[("GLCMD_RUN_DRIVER_THREAD", "0")], &format!("{api}-off"));
    assert_eq!(off.stdout, direct.stdout, "without the driver thread: {}", off.stderr);
    let mut who: Vec<&str> = threads.iter().map(|t| t.0.as_str()).collect();
    who.sort();
    assert_eq!(who, ["main", "other"], "without the driver thread both call {api}: {threads:?}");
}

/// A lower bound of the window-system calls the program makes itself (each line it prints follows at
/// least one).
fn direct_calls(direct: &support::Ran) -> u64 {
    direct.stdout.lines().count() as u64
}

/// A client wait never holds the driver thread: a second thread waits with `EGL_FOREVER` on a
/// reusable sync that the main thread signals (`tests/c/reusable_sync.c`), through glcmd-run as
/// directly. (A wait made on the driver thread with the program's timeout held the signal behind
/// it for ever.) The signal comes after the wait began most of the time, in either order the wait
/// must end signalled.
#[test]
fn a_client_wait_does_not_hold_the_signal_of_another_thread() {
    if !tools::require(&[(tools::cc().as_str(), "gcc")]) {
        return;
    }
    let exe = support::compile("reusable_sync.c", "reusable_sync", &[]);
    let direct = support::run(&exe, &[], None, None);
    assert_eq!(direct.status, Some(0), "directly: {direct:?}");
    if direct.stdout.contains("no EGL_KHR_reusable_sync") {
        eprintln!("the driver has no EGL_KHR_reusable_sync: nothing to check");
        return;
    }
    assert_eq!(direct.stdout, "signal 1 wait 0x30f6\n", "directly: EGL_CONDITION_SATISFIED");
    let through = support::run(&exe, &[], Some(&[]), None);
    assert_eq!(through.status, Some(0), "through glcmd-run (a hang ends in the harness's limit): {through:?}");
    assert_eq!(through.stdout, direct.stdout, "glcmd-run's stderr:\n{}", through.stderr);
}
