//! The windowed path, end to end: starts a virtual X server (Xvfb), runs `examples/window.rs`
//! on it, and checks the pixels that the example reads back from its window's back buffer
//! (`Device::with_window`: a winit window, a glutin GL 4.5 core context handed over not current,
//! `swap_buffers` on the render thread).
//!
//! Needs `Xvfb` (Debian package `xvfb`; `.ci/install-deps.sh` installs it). Without it the test
//! fails under `CI=true` and elsewhere is skipped and says so (`common::tools`): it does not pass
//! silently.

mod common;

use common::process::{collect, wait_or_kill};
use common::xvfb::Xvfb;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// What the example draws: the triangle's colour in the centre, the clear colour in a corner
/// (`TRIANGLE` and `CLEAR` in examples/window.rs, as bytes).
const EXPECTED_CENTRE: [u8; 4] = [255, 204, 0, 255];
const EXPECTED_CORNER: [u8; 4] = [51, 102, 153, 255];

/// How long the example may take, once built: seconds on llvmpipe; the rest is margin.
const RUN_TIMEOUT: Duration = Duration::from_secs(120);

#[test]
fn window_example_draws_into_its_window() {
    if !common::tools::require(&[("Xvfb", "xvfb")]) {
        return;
    }
    let example = common::build_example("window");
    let xvfb = Xvfb::start();
    // glutin-winit's default on X11 (GLX first), then EGL on the same X server.
    for args in [&["--frames", "3"][..], &["--frames", "3", "--egl"][..]] {
        run_example(&example, args, &xvfb);
    }
    // Single-threaded style on a window device: each frame's query hands the calls over (an
    // implicit frame, which must not present); the frame presents once, when asked.
    let stdout = run_example(&example, &["--frames", "3", "--immediate"], &xvfb);
    assert!(stdout.lines().any(|l| l == "PRESENTS 3 FRAMES 3"), "one present per frame:\n{stdout}");
}

/// Runs the example on `xvfb` and checks the two pixels it prints.
fn run_example(example: &Path, args: &[&str], xvfb: &Xvfb) -> String {
    let mut child = Command::new(example)
        .args(args)
        .env("DISPLAY", &xvfb.display)
        .env_remove("WAYLAND_DISPLAY") // winit is built for X11 only, but be explicit
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", example.display()));
    let stdout = collect(child.stdout.take().unwrap());
    let stderr = collect(child.stderr.take().unwrap());
    let status = wait_or_kill(&mut child, RUN_TIMEOUT);
    let (stdout, stderr) = (stdout.join().unwrap(), stderr.join().unwrap());
    let report = || {
        format!(
            "{} {} on DISPLAY={}\n--- stdout\n{stdout}--- stderr\n{stderr}--- Xvfb stderr\n{}",
            example.display(),
            args.join(" "),
            xvfb.display,
            xvfb.stderr()
        )
    };

    let status = status.unwrap_or_else(|| panic!("the example did not exit within {RUN_TIMEOUT:?}: {}", report()));
    assert!(status.success(), "the example failed ({status}): {}", report());
    assert_eq!(pixel(&stdout, "PIXEL"), Some(EXPECTED_CENTRE), "centre pixel (the triangle): {}", report());
    assert_eq!(pixel(&stdout, "CORNER"), Some(EXPECTED_CORNER), "corner pixel (the clear colour): {}", report());
    eprint!("{stderr}"); // the example's one line about its context (GLX or EGL, renderer)
    stdout
}

/// The four numbers of the line `<tag> r g b a`.
fn pixel(stdout: &str, tag: &str) -> Option<[u8; 4]> {
    let line = stdout.lines().find(|l| l.split_whitespace().next() == Some(tag))?;
    let values: Vec<u8> = line.split_whitespace().skip(1).map(|v| v.parse().ok()).collect::<Option<_>>()?;
    values.try_into().ok()
}
