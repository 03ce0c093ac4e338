//! Optional tools of the tests: a C compiler, `pkg-config`, apitrace, Xvfb. The tests that shell
//! out to one ask [`require`] first, so that a missing tool is never a test that passed:
//!
//! * under `CI=true` (what `.ci/run` sets) a missing tool fails the test, naming the package,
//!   because CI installs every tool (`.ci/install-deps.sh`) and a test that silently ran nothing
//!   there would hide a broken image;
//! * elsewhere (a developer's machine without apitrace, say) the test prints
//!   `SKIPPED: <test>: install <package> (<tool> not found)` and returns early. A test harness
//!   can only count a returning test as passed, so the skip is also appended to the file named
//!   by `GLCMD_SKIPPED` when that is set: `scripts/test.sh` sets it and ends with "N tests
//!   skipped", listing them, so the summary says what was not tested.
//!
//! A tool is found the way `Command::new` finds it: a name with a `/` as a path, otherwise on
//! `PATH`. The C compiler is `$CC` (default `cc`) and the C++ compiler `$CXX` (default `c++`), as
//! the tests call them. Included with `mod common;` by the root crate's tests and with `#[path]`
//! by glcmd-capi's and glcmd-run's.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// The C compiler the tests call: `$CC`, or `cc`.
pub fn cc() -> String {
    std::env::var("CC").unwrap_or_else(|_| "cc".into())
}

/// The C++ compiler the tests call: `$CXX`, or `c++`.
pub fn cxx() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "c++".into())
}

/// Where `program` would be run from, if it can be.
pub fn find(program: &str) -> Option<PathBuf> {
    let executable = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        p.metadata().map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
    };
    if program.contains('/') {
        let p = PathBuf::from(program);
        return executable(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(program)).find(|p| executable(p))
}

/// Whether every tool of `tools` (program, Debian package) is there. When one is not: under
/// `CI=true` panics naming the package; otherwise prints `SKIPPED: ...`, records the skip in
/// `$GLCMD_SKIPPED` and returns false, and the caller returns without testing anything.
#[track_caller]
pub fn require(tools: &[(&str, &str)]) -> bool {
    let missing: Vec<&(&str, &str)> = tools.iter().filter(|(program, _)| find(program).is_none()).collect();
    if missing.is_empty() {
        return true;
    }
    let packages: Vec<&str> = missing.iter().map(|(_, package)| *package).collect();
    let programs: Vec<&str> = missing.iter().map(|(program, _)| *program).collect();
    let test = std::thread::current().name().unwrap_or("?").to_string();
    let line = format!(
        "{test}: install {} ({} not found; `bash .ci/install-deps.sh` installs every tool)",
        packages.join(" "),
        programs.join(", ")
    );
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("CI=true and a tool is missing: {line}");
    }
    // Straight to the process's stderr: the test harness captures `eprintln!` of a passing test.
    let _ = writeln!(std::io::stderr(), "SKIPPED: {line}");
    if let Some(file) = std::env::var_os("GLCMD_SKIPPED") {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&file)
            .unwrap_or_else(|e| panic!("cannot append to GLCMD_SKIPPED={}: {e}", Path::new(&file).display()));
        writeln!(f, "{line}").expect("write the skip record");
    }
    false
}

/// [`require`] for the C compiler.
#[track_caller]
pub fn require_cc() -> bool {
    require(&[(cc().as_str(), "gcc")])
}
