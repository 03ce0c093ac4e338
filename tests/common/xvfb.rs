//! A virtual X server (Xvfb) for tests that need X11: the window example (tests/window.rs) and
//! the adopted GLX context (tests/adopt.rs), glcmd-run's GLX programs (run/tests/programs.rs,
//! which includes this file with `#[path]`). Needs the Debian package `xvfb`
//! (`.ci/install-deps.sh` installs it); the tests ask `tools::require` first, so that without
//! it a test is skipped and says so (a failure under `CI=true`).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// A running `Xvfb` on a display number it picked itself; killed on drop.
pub struct Xvfb {
    child: Child,
    pub display: String,
    /// Xvfb's stderr so far, for failure reports.
    stderr: Arc<Mutex<String>>,
}

impl Xvfb {
    pub fn start() -> Xvfb {
        // `-displayfd 1`: Xvfb picks a free display number and writes it to its stdout once it
        // accepts connections, so there is neither a race nor a guessed number.
        let mut child = match Command::new("Xvfb")
            .args(["-displayfd", "1", "-screen", "0", "640x480x24", "-nolisten", "tcp"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
        {
            Ok(child) => child,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
                "Xvfb is not installed, and this test needs an X server: install \
                 the Debian package `xvfb` (`bash .ci/install-deps.sh` installs it with the rest)"
            ),
            Err(e) => panic!("cannot start Xvfb: {e}"),
        };
        let stderr = Arc::new(Mutex::new(String::new()));
        let (pipe, sink) = (child.stderr.take().unwrap(), stderr.clone());
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                let mut sink = sink.lock().unwrap();
                sink.push_str(&line);
                sink.push('\n');
            }
        });
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = tx.send(stdout.read_line(&mut line).map(|_| line));
            // Keep the pipe open (and drained) while Xvfb runs.
            let _ = std::io::copy(&mut stdout, &mut std::io::sink());
        });
        let mut xvfb = Xvfb { child, display: String::new(), stderr };
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(Ok(line)) if line.trim().parse::<u32>().is_ok() => xvfb.display = format!(":{}", line.trim()),
            other => {
                let _ = xvfb.child.kill();
                let _ = xvfb.child.wait();
                panic!("Xvfb did not report a display number ({other:?}); its stderr:\n{}", xvfb.stderr());
            }
        }
        xvfb
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
