//! Window-system teardown through `glcmd-run`, against the same program run directly
//! (`tests/c/teardown.c`, on Xvfb): a windowed program draws three frames, presents each (the
//! last one still queued through glcmd), then ends its window system in one order or another:
//! what mpv does (`eglMakeCurrent(NO_CONTEXT)`, `eglTerminate`, `XCloseDisplay`, `exit`), what
//! Blender does (`XCloseDisplay` with its context alive), what Godot does (`XDestroyWindow`,
//! then `glXMakeCurrent(None)` and `glXDestroyContext`), the window's parent destroyed, the
//! surface destroyed while current, and every way to end the process (`exit`, a return from
//! `main`, `_exit`, `quick_exit`, `exit` on another thread).
//!
//! For each, through glcmd-run as directly: the same exit status (no SIGSEGV from a context
//! released on a closed display), the same stdout (every X error the program's handler sees: a
//! present or a draw replayed after the window is gone raises `BadDrawable`), the same (empty)
//! stderr, and the same pixel at the centre of the window once the program has ended (its
//! windows are retained on the server): what was presented before the teardown reached the
//! window. And through glcmd-run, that the step that ends what the context uses handed it back
//! (its render thread is gone after that step, whether or not the timing let a late present
//! show). Each order runs three times through glcmd-run (the failures were timing-dependent).

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

use support::Ran;

/// Runs through glcmd-run this many times per order.
const REPEATS: usize = 3;

/// The orders of every API (`terminate` and `release-thread` are EGL's, dropped for GLX).
const ORDERS: &[&str] = &[
    // mpv
    "release terminate close exit",
    // Blender: the display closed, nothing destroyed
    "close exit",
    "release close exit",
    "release-thread terminate close exit",
    // Godot: the window destroyed under the current context
    "destroy-window release destroy-context terminate close exit",
    "destroy-parent release destroy-context terminate close exit",
    "destroy-subwindows release destroy-context terminate close exit",
    "destroy-window exit",
    // every destroy, in order
    "release destroy-surface destroy-context terminate close exit",
    "release destroy-context destroy-surface close exit",
    // terminated while current (EGL keeps the context until released)
    "terminate release close exit",
    "exit",
    "return",
    "_exit",
    "quick_exit",
    "thread-exit",
    "fork-_exit",
    "close _exit",
    "release close quick_exit",
];

/// Orders only EGL runs: a surface destroyed while current stays usable until released (with
/// GLX, drawing after glXDestroyWindow of the current drawable crashes Mesa directly).
const EGL_ORDERS: &[&str] = &["destroy-surface draw release destroy-context terminate close exit"];

/// Orders only a GLX 1.3 window runs (`glx12` has no GLX window to destroy).
const GLX13_ORDERS: &[&str] = &["destroy-surface release destroy-context close exit"];

/// A run of `teardown API ORDER`, with what `teardown inspect` then reads of its window.
#[derive(Debug, PartialEq)]
struct Outcome {
    ran: Ran,
    centre: String,
}

fn outcome(exe: &Path, api: &str, order: &str, through: bool, display: &str) -> (Outcome, usize) {
    let mut args = vec![api];
    args.extend(order.split(' '));
    let mut ran = support::run(exe, &args, through.then_some(&[][..]), Some(display));
    let window = ran.stdout.lines().find_map(|l| l.strip_prefix("window ")).map(str::to_string);
    let threads = ran.stdout.lines().find_map(|l| l.strip_prefix("render_threads=")).and_then(|n| n.parse().ok());
    // Through glcmd-run the context is served until a step ends what it uses, and handed back
    // by that step: its render thread is gone after it.
    let mut ended = false;
    for l in ran.stdout.lines() {
        let Some((step, n)) = l.strip_prefix("after ").and_then(|r| r.split_once(": render_threads=")) else {
            continue;
        };
        ended |= ["destroy-", "terminate", "close"].iter().any(|e| step.starts_with(e));
        let expected = if through && !ended { "1" } else { "0" };
        assert_eq!(n, expected, "{api} {order} (through glcmd-run: {through}): render threads after {step}");
    }
    // The window's id and the render threads differ between the runs; the rest must not.
    ran.stdout = ran
        .stdout
        .lines()
        .filter(|l| !l.starts_with("window ") && !l.contains("render_threads="))
        .map(|l| format!("{l}\n"))
        .collect();
    let Some(window) = window else { panic!("{api} {order}: no window ({through}): {ran:?}") };
    let inspected = support::run(exe, &["inspect", &window], None, Some(display));
    assert_eq!(inspected.status, Some(0), "inspect: {inspected:?}");
    (Outcome { ran, centre: inspected.stdout }, threads.unwrap_or(usize::MAX))
}

fn orders_of(api: &str) -> Vec<&'static str> {
    let egl = api.starts_with("egl");
    let mut orders: Vec<&str> =
        ORDERS.iter().copied().filter(|o| egl || !(o.contains("terminate") || o.contains("release-thread"))).collect();
    if egl {
        orders.extend(EGL_ORDERS);
    }
    if api == "glx" {
        orders.extend(GLX13_ORDERS);
    }
    orders
}

fn differential(api: &str) {
    if !tools::require(&[(tools::cc().as_str(), "gcc"), ("Xvfb", "xvfb")]) {
        return;
    }
    let x = xvfb::Xvfb::start();
    let exe = support::compile("teardown.c", &format!("teardown-{api}"), &[]);
    for order in orders_of(api) {
        let (direct, threads) = outcome(&exe, api, order, false, &x.display);
        assert_eq!(threads, 0, "{api} {order}: render threads directly");
        assert_eq!(direct.ran.status, Some(0), "{api} {order}: directly: {direct:?}");
        assert_eq!(direct.ran.stderr, "", "{api} {order}: directly");
        // The last frame's centre is red; a window destroyed by the program cannot be read.
        let expected = if order.contains("destroy-window")
            || order.contains("destroy-parent")
            || order.contains("destroy-subwindows")
        {
            "no window\n"
        } else {
            "centre pixel ff0000\n"
        };
        assert!(direct.centre.ends_with(expected), "{api} {order}: directly: {direct:?}");
        for round in 0..REPEATS {
            let (through, threads) = outcome(&exe, api, order, true, &x.display);
            assert_eq!(threads, 1, "{api} {order}: not adopted by glcmd-run: {through:?}");
            assert_eq!(through, direct, "{api} {order}, round {round}: through glcmd-run (left), directly (right)");
        }
    }
}

#[test]
fn egl_on_x11_teardown_in_every_order_is_as_direct() {
    differential("egl");
}

#[test]
fn egl_get_display_teardown_in_every_order_is_as_direct() {
    differential("egl-default");
}

#[test]
fn glx_window_teardown_in_every_order_is_as_direct() {
    differential("glx");
}

#[test]
fn glx_1_2_teardown_in_every_order_is_as_direct() {
    differential("glx12");
}
