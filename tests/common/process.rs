//! Running a child process with a time limit, for tests that start programs (`tests/window.rs`,
//! and glcmd-run's `run/tests/programs.rs`, which includes this file with `#[path]`): a test
//! never waits for ever on a hung child.

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Reads a pipe to its end on a thread.
pub fn collect(mut pipe: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Waits for `child` up to `timeout`; kills it and returns `None` after that.
pub fn wait_or_kill(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waiting for the example") {
            return Some(status);
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// What a finished child printed.
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `command` with piped output; kills it after `timeout` and panics naming `what`.
pub fn run(mut command: Command, what: &str, timeout: Duration) -> Finished {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
    let (out, err) = (collect(child.stdout.take().unwrap()), collect(child.stderr.take().unwrap()));
    let status = wait_or_kill(&mut child, timeout);
    let (stdout, stderr) = (out.join().unwrap(), err.join().unwrap());
    let status = status.unwrap_or_else(|| panic!("{what} did not exit within {timeout:?}:\n{stdout}{stderr}"));
    Finished { status, stdout, stderr }
}
