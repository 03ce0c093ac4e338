//! A share group through `glcmd-run` (issue 35, item 3), against the same program run directly
//! (`tests/c/share_group.c`, an EGL pbuffer): a core context glcmd adopted, then a second context
//! created sharing its objects. Until glcmd serves a whole group on its one driver thread, the
//! group runs directly whole, never split between glcmd's deferred stream and direct calls: the
//! adopted context is handed back at the create (its calls replayed, made current again on the
//! thread that had it), whether it was current on that thread or on none. The program's answers
//! (a buffer read across the group, a texture drawn across it, the first context's own clear)
//! must equal the direct run's, and glcmd-run says once per context that it runs directly.

#[allow(dead_code)]
#[path = "../../tests/common/process.rs"]
mod process;
#[allow(dead_code)]
mod support;
#[path = "../../tests/common/tools.rs"]
mod tools;

fn differential(mode: &str) {
    if !tools::require(&[(tools::cc().as_str(), "gcc")]) {
        return;
    }
    let exe = support::compile("share_group.c", &format!("share_group-{mode}"), &[]);
    let direct = support::run(&exe, &[mode], None, None);
    assert_eq!(direct.status, Some(0), "directly: {direct:?}");
    // What the GL specifies, so that both runs being wrong alike fails too.
    for expected in [
        "second reads the first's buffer: 11223344 55667788 99aabbcc ddeeff00 error 0",
        "first reads the second's texture: 0,255,0,255 status 8cd5 error 0",
        "first, its clear still there: pixel 255,0,0,255 error 0",
        "done",
    ] {
        assert!(direct.stdout.lines().any(|l| l == expected), "no `{expected}` in:\n{}", direct.stdout);
    }
    let through = support::run(&exe, &[mode], Some(&["--stats"]), None);
    assert_eq!(through.status, Some(0), "through glcmd-run: {through:?}");
    assert_eq!(through.stdout, direct.stdout, "glcmd-run's stderr:\n{}", through.stderr);
    // The first context was adopted, then handed back at the create; the second ran directly.
    assert!(through.stderr.contains("glcmd-run: device"), "never adopted:\n{}", through.stderr);
    let handed_back = through.stderr.lines().filter(|l| l.contains("runs directly from now on")).count();
    assert_eq!(handed_back, 1, "the first context handed back once:\n{}", through.stderr);
    let direct_lines = through.stderr.lines().filter(|l| l.contains("runs directly, not through glcmd")).count();
    assert_eq!(direct_lines, 1, "the second context runs directly, said once:\n{}", through.stderr);
    assert!(!through.stderr.contains("split"), "{}", through.stderr);
}

#[test]
fn a_context_created_sharing_an_adopted_current_one_makes_the_group_direct() {
    differential("current");
}

#[test]
fn a_context_created_sharing_an_adopted_released_one_makes_the_group_direct() {
    differential("released");
}
