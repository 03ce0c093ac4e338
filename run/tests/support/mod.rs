//! What the test files of glcmd-run share: the launcher with its preload library built, and C
//! test programs compiled from `tests/c/` (`unchanged.rs` has its own copies of these, older).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::{process, tools};

/// The launcher, with the preload library beside it: `cargo test` builds the launcher for
/// these tests but not the library (a `cdylib` no test links), so it is built here once, with
/// the features of the README's `cargo test --workspace` (nothing else is compiled again).
pub fn launcher() -> PathBuf {
    static BUILT: std::sync::Once = std::sync::Once::new();
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_glcmd-run"));
    BUILT.call_once(|| {
        let profile_dir = exe.parent().unwrap().to_path_buf();
        let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
            Some("debug") | None => "dev".to_string(),
            Some(name) => name.to_string(),
        };
        let mut command = Command::new(env!("CARGO"));
        command.args(["build", "--workspace", "--tests", "--profile", &profile, "--target-dir"]);
        command.arg(profile_dir.parent().unwrap()).current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap());
        command.arg("--lib");
        let done = process::run(command, "cargo build --lib", Duration::from_secs(1200));
        assert!(done.status.success(), "cargo build --lib failed:\n{}", done.stderr);
    });
    exe
}

/// Compiles `tests/c/<source>` with `defines` into `target/<profile>/run-tests/<name>`, linked
/// to libEGL, libGL and libX11.
pub fn compile(source: &str, name: &str, defines: &[&str]) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(source);
    let out_dir = launcher().parent().unwrap().join("run-tests");
    std::fs::create_dir_all(&out_dir).unwrap();
    let exe = out_dir.join(name);
    let cc = tools::cc();
    let output = Command::new(&cc)
        .args(["-std=c99", "-O1", "-Wall", "-Werror"])
        .args(defines)
        .arg(&source)
        .arg("-o")
        .arg(&exe)
        .args(["-lEGL", "-lGL", "-lX11", "-pthread"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}` (install gcc, or set CC): {e}"));
    assert!(
        output.status.success(),
        "{cc} {} {defines:?} failed:\n{}",
        source.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    exe
}

/// Compiles `tests/c/<source>` into the shared library `target/<profile>/run-tests/<name>`.
pub fn compile_library(source: &str, name: &str) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(source);
    let out_dir = launcher().parent().unwrap().join("run-tests");
    std::fs::create_dir_all(&out_dir).unwrap();
    let lib = out_dir.join(name);
    let cc = tools::cc();
    let output = Command::new(&cc)
        .args(["-std=c99", "-O1", "-Wall", "-Werror", "-shared", "-fPIC"])
        .arg(&source)
        .arg("-o")
        .arg(&lib)
        .args(["-ldl", "-pthread"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}` (install gcc, or set CC): {e}"));
    assert!(output.status.success(), "{cc} {} failed:\n{}", source.display(), String::from_utf8_lossy(&output.stderr));
    lib
}

/// How a program ended and what it printed.
#[derive(Debug, PartialEq)]
pub struct Ran {
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `exe args` on `display` (None: without DISPLAY), directly or through glcmd-run with
/// `launcher_args` before `--`.
pub fn run(exe: &Path, args: &[&str], through: Option<&[&str]>, display: Option<&str>) -> Ran {
    run_with_env(exe, args, through, display, &[])
}

/// [`run`] with environment variables set for the program (and the launcher).
pub fn run_with_env(
    exe: &Path,
    args: &[&str],
    through: Option<&[&str]>,
    display: Option<&str>,
    env: &[(&str, &str)],
) -> Ran {
    let mut command = match through {
        None => Command::new(exe),
        Some(launcher_args) => {
            let mut c = Command::new(launcher());
            c.args(launcher_args).arg("--").arg(exe);
            c
        }
    };
    command.args(args).envs(env.iter().copied());
    match display {
        Some(d) => command.env("DISPLAY", d),
        None => command.env_remove("DISPLAY"),
    };
    let what = format!("{} {args:?} (through glcmd-run: {through:?})", exe.display());
    let done = process::run(command, &what, Duration::from_secs(120));
    Ran { status: done.status.code(), stdout: done.stdout, stderr: done.stderr }
}

/// A number glcmd-run's `--stats` lines report after `label` (`"round trips"`, `"without a
/// round trip"`).
pub fn stat(stderr: &str, label: &str) -> u64 {
    let line = stderr.lines().find(|l| l.contains(label)).unwrap_or_else(|| panic!("no `{label}` in:\n{stderr}"));
    let after = line.split_once(label).unwrap_or_else(|| panic!("{line}")).1;
    let digits: String = after.trim_start().chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// Runs `exe mode` directly and through `glcmd-run --stats` (with `env` set): both exit 0 and
/// print the same lines, line for line, the last `done=1`. Returns glcmd-run's stderr.
pub fn same_both_ways(exe: &Path, mode: &str, env: &[(&str, &str)]) -> String {
    let direct = run(exe, &[mode], None, None);
    assert_eq!(direct.status, Some(0), "directly: {direct:?}");
    assert!(direct.stdout.ends_with("done=1\n"), "{direct:?}");
    let through = run_with_env(exe, &[mode], Some(&["--stats"]), None, env);
    assert_eq!(through.status, Some(0), "through glcmd-run: {through:?}");
    let (d, t): (Vec<&str>, Vec<&str>) = (direct.stdout.lines().collect(), through.stdout.lines().collect());
    for (i, (a, b)) in d.iter().zip(&t).enumerate() {
        assert_eq!(a, b, "{mode}: line {i} differs (direct, then glcmd-run); stderr:\n{}", through.stderr);
    }
    assert_eq!(d.len(), t.len(), "{mode}: direct:\n{}\nglcmd-run:\n{}", direct.stdout, through.stdout);
    through.stderr
}
