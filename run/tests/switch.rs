//! Switching one thread between contexts that share only a window, through `glcmd-run`,
//! against the same program run directly (`tests/c/switch.c`, on Xvfb): a core-profile context
//! (adopted by glcmd-run) and a compatibility-profile one (run directly), and two core contexts
//! (two devices), draw into the window's back buffer in turn without a flush and read what the
//! other drew. Directly, each make-current flushes the context the thread had current before,
//! so the reader sees the writer's pixels; through glcmd-run the same must hold whichever of
//! the two glcmd serves: from an adopted context (its calls replayed and flushed on its render
//! thread before the switch returns), to an adopted context from a direct one (released with
//! the real function, which flushes it), with or without making nothing current in between.
//! With EGL, a window surface cannot be current in two threads: an adopted context that holds
//! the surface on its render thread is handed back before the other context takes it.

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

fn differential(api: &str) {
    if !tools::require(&[(tools::cc().as_str(), "gcc"), ("Xvfb", "xvfb")]) {
        return;
    }
    let x = xvfb::Xvfb::start();
    let exe = support::compile("switch.c", &format!("switch-{api}"), &[]);
    let direct = support::run(&exe, &[api], None, Some(&x.display));
    assert_eq!(direct.status, Some(0), "directly: {direct:?}");
    // The pixels a flushed switch shows (so that both runs being wrong alike fails too): round
    // 1 cleared to (128,0,255) with a (255,128,0) centre in `core`, read in `compat`.
    let expected = "1 core -> compat: centre 255,128,0 corner 128,0,255 error 0";
    assert!(direct.stdout.lines().any(|l| l == expected), "{}", direct.stdout);
    assert_eq!(direct.stdout.lines().count(), 22, "{}", direct.stdout);
    for round in 0..3 {
        let through = support::run(&exe, &[api], Some(&["--stats"]), Some(&x.display));
        assert_eq!(through.status, Some(0), "through glcmd-run: {through:?}");
        assert_eq!(through.stdout, direct.stdout, "round {round}; glcmd-run's stderr:\n{}", through.stderr);
        assert!(through.stderr.contains("glcmd-run: device"), "not adopted: {}", through.stderr);
        let direct_lines: Vec<&str> = through.stderr.lines().filter(|l| l.contains("runs directly")).collect();
        assert_eq!(direct_lines.len(), 1, "only the compatibility context runs directly:\n{}", through.stderr);
    }
}

#[test]
fn glx_switches_between_adopted_and_direct_contexts_flush_as_directly() {
    differential("glx");
}

#[test]
fn egl_switches_between_adopted_and_direct_contexts_flush_as_directly() {
    differential("egl");
}
