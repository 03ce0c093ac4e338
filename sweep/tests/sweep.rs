//! The soundness sweep (issue 8, item 12): every safe recording method and every safe query of
//! glcmd, with adversarial arguments, in two binding states, on a real context, through the
//! checking function table. It runs in a child process of this test binary, so a crash or a
//! hang of the driver or of glcmd is a reported failure with the last progress line, not a
//! vanished test. Prints the summary: functions swept, calls made, invalid accesses, crashes,
//! hangs.
//!
//! `GLCMD_SWEEP_VARIANTS` sets the argument variants per method (default 6, which CI's memcheck run
//! uses too; `.ci/valgrind.sh` prints how long it took).

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CHILD: &str = "GLCMD_SWEEP_CHILD";

fn variants() -> usize {
    std::env::var("GLCMD_SWEEP_VARIANTS").ok().and_then(|v| v.parse().ok()).unwrap_or(6)
}

#[test]
fn every_safe_method_with_adversarial_arguments() {
    if std::env::var_os(CHILD).is_some() {
        child();
        return;
    }
    let limit =
        Duration::from_secs(std::env::var("GLCMD_SWEEP_TIMEOUT_S").ok().and_then(|v| v.parse().ok()).unwrap_or(600));
    let start = Instant::now();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "every_safe_method_with_adversarial_arguments", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
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
        panic!("the sweep hung (no end within {limit:?}); its last lines:\n{}", tail.join("\n"));
    };
    assert!(
        status.success(),
        "the sweep's child process failed ({status}: a crash or a failed check); its last lines:\n{}\n{out}",
        tail.join("\n")
    );
    let summary = out
        .lines()
        .find_map(|l| l.find("SWEEP SUMMARY").map(|at| &l[at..]))
        .unwrap_or_else(|| panic!("no summary:\n{out}"));
    println!("{summary}");
    println!("crashes: 0, hangs: 0 ({:.1} s including start-up)", start.elapsed().as_secs_f64());
}

fn child() {
    let s = match glcmd_sweep::run(variants()) {
        Ok(s) => s,
        Err(e) => panic!("the sweep lost its device: {e}"),
    };
    for v in s.violations.iter().take(50) {
        eprintln!("VIOLATION {}({}): {}", v.function, v.argument, v.message);
    }
    println!(
        "SWEEP SUMMARY: {} functions swept ({} methods), {} calls made ({} refused at the caller's line, {} query errors, {} \
         commands skipped as unsafe), {} GL calls checked, {} invalid accesses, in {:.1} s",
        s.functions,
        s.methods,
        s.calls,
        s.rejected,
        s.errors,
        s.skipped,
        s.checked_calls,
        s.violations.len(),
        s.seconds
    );
    assert!(s.violations.is_empty(), "{} invalid accesses (first ones above)", s.violations.len());
    assert!(s.checked_calls > 0, "the checking table saw no call");
}
