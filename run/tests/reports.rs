//! What glcmd-run says about a program's calls (`tests/c/refuse.c`): a draw glcmd refuses for
//! its own safety (glDrawElements with an index offset and no element buffer: the GL would
//! read process memory at that address; run directly, Mesa crashes) is reported on stderr in
//! one line naming the call, once although the program makes it 1000 times; the program sees
//! the error the GL gives (GL_INVALID_OPERATION) each time. With `--diagnostics`, a GL error
//! the driver raises is reported attributed to the call that raised it, once for three calls.
//! Without refusals and options, glcmd-run prints nothing (`teardown.rs` checks an empty stderr).

#[allow(dead_code)]
#[path = "../../tests/common/process.rs"]
mod process;
#[allow(dead_code)]
mod support;
#[path = "../../tests/common/tools.rs"]
mod tools;

/// The lines of `stderr` glcmd-run printed.
fn glcmd_lines(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.starts_with("glcmd-run:")).collect()
}

fn refused_draw_lines<'a>(lines: &[&'a str]) -> Vec<&'a str> {
    lines
        .iter()
        .copied()
        .filter(|l| l.contains("refused glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_INT, 0x"))
        .collect()
}

#[test]
fn a_refused_call_is_said_once_and_gl_errors_with_the_option() {
    if !tools::require_cc() {
        return;
    }
    let exe = support::compile("refuse.c", "refuse", &[]);
    let direct = support::run(&exe, &["nodraw"], None, None);
    assert_eq!(direct.status, Some(0), "{direct:?}");
    let enable_errors = "enable error: 0x500\n".repeat(3);
    assert_eq!(direct.stdout, format!("draws refused: 0\n{enable_errors}done\n"));

    let plain = support::run(&exe, &[], Some(&[]), None);
    assert_eq!(plain.status, Some(0), "{plain:?}");
    assert_eq!(plain.stdout, format!("draws refused: 1000\n{enable_errors}done\n"), "{plain:?}");
    let lines = glcmd_lines(&plain.stderr);
    assert_eq!(lines.len(), 1, "one line, for the refused draw:\n{}", plain.stderr);
    assert_eq!(refused_draw_lines(&lines).len(), 1, "{}", plain.stderr);
    assert!(lines[0].contains("GL_ELEMENT_ARRAY_BUFFER"), "says why: {}", lines[0]);
    assert_eq!(plain.stderr.lines().count(), 1, "nothing else on stderr:\n{}", plain.stderr);

    for option in ["strict", "all"] {
        let diag = support::run(&exe, &[], Some(&["--diagnostics", option]), None);
        assert_eq!(diag.status, Some(0), "{diag:?}");
        assert_eq!(diag.stdout, plain.stdout, "{option}");
        let lines = glcmd_lines(&diag.stderr);
        assert_eq!(refused_draw_lines(&lines).len(), 1, "{option}:\n{}", diag.stderr);
        let enable: Vec<&&str> =
            lines.iter().filter(|l| l.contains("glEnable(0x1234)") && l.contains("GL_INVALID_ENUM")).collect();
        assert_eq!(enable.len(), 1, "{option}: the GL error, attributed to glEnable, once:\n{}", diag.stderr);
        assert!(lines.len() <= 4, "{option}: deduplicated:\n{}", diag.stderr);
    }
}
