//! Runs `examples/diagnostics.rs`, which checks that each of its three deliberate mistakes is
//! reported once, at the line that recorded it, and prints the reports.

mod common;

#[test]
fn diagnostics_example_reports_every_mistake_at_its_line() {
    let example = common::build_example("diagnostics");
    let out = std::process::Command::new(&example).output().expect("run the example");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "example failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    // The three mistakes, plus the GL's own GL_INVALID_OPERATION for binding the deleted name.
    assert!(stdout.contains("4 reports:"), "{stdout}");
    assert_eq!(stdout.matches("- examples/diagnostics.rs:").count(), 4, "{stdout}");
    assert!(stdout.contains("all 4 reports point at the right lines"), "{stdout}");
}
