//! `examples/glow.rs`, end to end: an unchanged glow renderer, run on a direct context and
//! through glcmd's entry points on an immediate thread (not the render thread), must read back
//! the same bytes; the example says so and exits with success only then.

mod common;

use std::process::Command;
use std::time::Duration;

#[test]
fn an_unchanged_glow_renderer_draws_the_same_pixels_through_glcmd() {
    let example = common::build_example("glow");
    let done = common::process::run(Command::new(&example), "examples/glow", Duration::from_secs(120));
    assert!(done.status.success(), "the glow example failed ({}):\n{}{}", done.status, done.stdout, done.stderr);
    assert!(done.stdout.contains("PIXELS EQUAL: 16384 bytes"), "{}", done.stdout);
    // The pixel the example prints: the first triangle's colour, (1, 0.5, 0, 1) as bytes.
    assert!(done.stdout.contains("through glcmd [255, 128, 0, 255]"), "{}", done.stdout);
    // The renderer's queries (compile and link status, uniform lookups, read-back) saw its own
    // calls: they were handed to the render thread as implicit submits.
    let submits: u64 = done
        .stdout
        .split("through glcmd: ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no implicit-submit count in:\n{}", done.stdout));
    assert!(submits >= 1, "{}", done.stdout);
}
