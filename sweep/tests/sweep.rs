//! The soundness sweep (issue 8, item 12): every safe recording method and every safe query of
//! glcmd, with adversarial arguments, in two binding states, on a real context, through the
//! checking function table. It runs in a child process of this test binary, so a crash or a
//! hang of the driver or of glcmd is a reported failure with the last progress line, not a
//! vanished test. Prints the summary: functions swept, calls made, invalid accesses, crashes,
//! hangs.
//!
//! It runs once per diagnostics level (`glcmd_sweep::Level`: off, attribution, all, strict,
//! capture), each in its own child, and prints one summary line per level: every reader of
//! packets outside replay sees every argument form the calls make.
//!
//! `GLCMD_SWEEP_VARIANTS` sets the argument variants per method at level `off` (default 6, which
//! CI's memcheck run uses too; `.ci/valgrind.sh` prints how long it took);
//! `GLCMD_SWEEP_LEVEL_VARIANTS` those of the other levels (default the same; memcheck uses fewer);
//! `GLCMD_SWEEP_LEVELS` the levels (comma-separated names, default all).

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use glcmd_sweep::Level;

const CHILD: &str = "GLCMD_SWEEP_CHILD";
const LEVEL: &str = "GLCMD_SWEEP_DIAGNOSTICS";

fn number(var: &str) -> Option<usize> {
    std::env::var(var).ok().and_then(|v| v.parse().ok())
}

fn variants(level: Level) -> usize {
    let off = number("GLCMD_SWEEP_VARIANTS").unwrap_or(6);
    match level {
        Level::Off => off,
        _ => number("GLCMD_SWEEP_LEVEL_VARIANTS").unwrap_or(off),
    }
}

fn levels() -> Vec<Level> {
    match std::env::var("GLCMD_SWEEP_LEVELS") {
        Ok(names) => names
            .split(',')
            .map(|n| Level::parse(n.trim()).unwrap_or_else(|| panic!("GLCMD_SWEEP_LEVELS: unknown level {n:?}")))
            .collect(),
        Err(_) => Level::ALL.to_vec(),
    }
}

#[test]
fn every_safe_method_with_adversarial_arguments() {
    if std::env::var_os(CHILD).is_some() {
        let level = std::env::var(LEVEL).ok().and_then(|n| Level::parse(&n)).unwrap_or(Level::Off);
        child(level);
        return;
    }
    let mut summaries = Vec::new();
    for level in levels() {
        summaries.push(sweep_in_child(level));
    }
    for s in summaries {
        println!("{s}");
    }
}

/// Runs the sweep at `level` in a child process; returns its summary line.
fn sweep_in_child(level: Level) -> String {
    let limit =
        Duration::from_secs(std::env::var("GLCMD_SWEEP_TIMEOUT_S").ok().and_then(|v| v.parse().ok()).unwrap_or(600));
    let start = Instant::now();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "every_safe_method_with_adversarial_arguments", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .env(LEVEL, level.name())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the sweep's child process");
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let (out, err) = (out_reader.join().unwrap(), err_reader.join().unwrap());
    let tail: Vec<&str> = err.lines().rev().take(30).collect::<Vec<_>>().into_iter().rev().collect();
    let Some(status) = status else {
        panic!(
            "the sweep at level {} hung (no end within {limit:?}); its last lines:\n{}",
            level.name(),
            tail.join("\n")
        );
    };
    assert!(
        status.success(),
        "the sweep's child process at level {} failed ({status}: a crash or a failed check); its last lines:\n{}\n{out}",
        level.name(),
        tail.join("\n")
    );
    let summary = out
        .lines()
        .find_map(|l| l.find("SWEEP SUMMARY").map(|at| &l[at..]))
        .unwrap_or_else(|| panic!("no summary:\n{out}"));
    format!("{summary}; crashes: 0, hangs: 0 ({:.1} s including start-up)", start.elapsed().as_secs_f64())
}

fn child(level: Level) {
    let variants = variants(level);
    let s = match glcmd_sweep::run(variants, level) {
        Ok(s) => s,
        Err(e) => panic!("the sweep lost its device: {e}"),
    };
    for v in s.violations.iter().take(50) {
        eprintln!("VIOLATION {}({}): {}", v.function, v.argument, v.message);
    }
    println!(
        "SWEEP SUMMARY [diagnostics {}, {variants} variants]: {} functions swept ({} methods), {} calls made ({} refused at \
         the caller's line, {} query errors, {} commands skipped as unsafe), {} GL calls checked, {} reports, {} invalid \
         accesses{}, in {:.1} s",
        level.name(),
        s.functions,
        s.methods,
        s.calls,
        s.rejected,
        s.errors,
        s.skipped,
        s.checked_calls,
        s.reports,
        s.violations.len(),
        s.capture.as_deref().map(|c| format!("; capture: {c}")).unwrap_or_default(),
        s.seconds
    );
    assert!(s.violations.is_empty(), "{} invalid accesses (first ones above)", s.violations.len());
    assert!(s.checked_calls > 0, "the checking table saw no call");
}
