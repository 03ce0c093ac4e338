//! `glcmd-run`: runs an unmodified, dynamically linked GL program through glcmd.
//!
//! ```text
//! glcmd-run [OPTIONS] -- PROGRAM [ARGS...]
//! ```
//!
//! The launcher puts the preload library (`libglcmd_preload.so`, built beside this executable
//! from `src/lib.rs`) first in `LD_PRELOAD`, turns its options into the environment variables
//! the library reads, and replaces itself with PROGRAM (`exec`), so the program's exit status,
//! signals and terminal are its own. Child processes inherit the environment, so a test runner
//! started this way runs each of its tests through glcmd too.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::ExitCode;

const HELP: &str = "\
glcmd-run: run an unmodified OpenGL program through glcmd

Usage: glcmd-run [OPTIONS] -- PROGRAM [ARGS...]

The program's GL calls are recorded on its own threads and replayed on a render
thread that owns its context (desktop OpenGL 4.5 core contexts, made through EGL
or GLX). Compatibility-profile and OpenGL ES contexts run directly; glcmd-run
says so in one line on stderr. Child processes run through glcmd too.

Options (each sets the environment variable in brackets, which the program's
preloaded library reads; set the variables yourself to the same effect):
  --direct                 run every context directly, not through glcmd [GLCMD_RUN=direct]
  --diagnostics LEVELS     all, none, or a comma list of debug_output, strict,
                           track_deletes: GL errors attributed to calls, driver
                           messages, use after delete, printed on stderr (calls glcmd
                           refuses for safety are printed always, each once)
                           [GLCMD_DIAGNOSTICS]
  --watchdog-ms N          report replay steps and waits longer than N ms [GLCMD_WATCHDOG_MS]
  --wait-limit-ms N        how long work waits for a list nobody submitted
                           (default 10000) [GLCMD_WAIT_LIMIT_MS]
  --spin-us N              how long the render thread and a waiting query spin
                           before sleeping (default 20) [GLCMD_SPIN_US]
  --batch-bytes N          hand a thread's recorded calls to the render thread past N
                           bytes (default 16384, at least 1024; after a query, flush
                           or swap past N/8, N/4, N/2 first) [GLCMD_BATCH_BYTES]
  --ask-every-error        every glGetError asks the GL; by default one whose answer
                           glcmd knows is GL_NO_ERROR (the same calls, seen clean on the
                           same state) answers without a round trip [GLCMD_KNOWN_ERRORS=0]
  --no-driver-thread       leave the program's EGL and GLX calls on its own threads; by
                           default they all go to one thread, which is also the render
                           thread of the context glcmd adopts (drivers such as NVIDIA's run
                           GL slower when two threads call EGL) [GLCMD_RUN_DRIVER_THREAD=0]
  --capture FILE           capture the whole run to FILE, for glcmd-replay [GLCMD_CAPTURE]
  --post-mortem FILE       keep the last frames in memory; write them to FILE if the
                           device is lost or stalls [GLCMD_POST_MORTEM]
  --post-mortem-frames N   frames the post-mortem ring keeps (default 3)
                           [GLCMD_POST_MORTEM_FRAMES]
  --stats                  at the end, print presents, lists, commands and round trips
                           per device, and the render thread's time per present by
                           phase [GLCMD_RUN_STATS=1]
  -h, --help               this text
";

/// The library's file name.
const LIBRARY: &str = "libglcmd_preload.so";

/// Where the preload library may be, in order: `GLCMD_PRELOAD_LIBRARY` (when set, the only
/// place), beside this executable (`cargo build` puts it there), and the `lib` directory next to
/// the executable's `bin` (`PREFIX/lib`, `PREFIX/lib/glcmd-run`: an installation by hand, since
/// `cargo install` installs executables only).
fn candidates(exe: &std::path::Path, env: Option<OsString>) -> Vec<PathBuf> {
    if let Some(path) = env {
        return vec![PathBuf::from(path)];
    }
    let dir = exe.parent().unwrap_or(std::path::Path::new("."));
    let prefix_lib = dir.parent().map(|p| p.join("lib")).unwrap_or_else(|| dir.join("../lib"));
    vec![dir.join(LIBRARY), prefix_lib.join(LIBRARY), prefix_lib.join("glcmd-run").join(LIBRARY)]
}

/// The preload library: the first of [`candidates`] that exists.
fn preload_library() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    let tried = candidates(&exe, std::env::var_os("GLCMD_PRELOAD_LIBRARY"));
    if let Some(lib) = tried.iter().find(|p| p.is_file()) {
        return Ok(lib.clone());
    }
    let list: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
    Err(format!(
        "{LIBRARY} is not at {}: build it with `cargo build --release -p glcmd-run` (it is built beside \
         glcmd-run; `cargo install` installs the launcher only) and keep it beside the launcher, in PREFIX/lib, \
         or name it with GLCMD_PRELOAD_LIBRARY",
        list.join(", ")
    ))
}

/// Environment variables for the program, by name.
type Environment = Vec<(&'static str, OsString)>;

/// The options before `--`, as environment variables; the program and its arguments.
fn parse(args: Vec<OsString>) -> Result<(Environment, Vec<OsString>), String> {
    let mut env = Vec::new();
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        let flag = arg.to_string_lossy().into_owned();
        let mut value = |var: &'static str| -> Result<(), String> {
            let v = it.next().ok_or_else(|| format!("{flag} needs a value (see glcmd-run --help)"))?;
            env.push((var, v));
            Ok(())
        };
        match flag.as_str() {
            "--" => {
                let program: Vec<OsString> = it.collect();
                if program.is_empty() {
                    return Err("no program after `--` (see glcmd-run --help)".into());
                }
                return Ok((env, program));
            }
            "--direct" => env.push(("GLCMD_RUN", "direct".into())),
            "--stats" => env.push(("GLCMD_RUN_STATS", "1".into())),
            "--no-driver-thread" => env.push(("GLCMD_RUN_DRIVER_THREAD", "0".into())),
            "--ask-every-error" => env.push(("GLCMD_KNOWN_ERRORS", "0".into())),
            "--diagnostics" => value("GLCMD_DIAGNOSTICS")?,
            "--watchdog-ms" => value("GLCMD_WATCHDOG_MS")?,
            "--wait-limit-ms" => value("GLCMD_WAIT_LIMIT_MS")?,
            "--spin-us" => value("GLCMD_SPIN_US")?,
            "--batch-bytes" => value("GLCMD_BATCH_BYTES")?,
            "--capture" => value("GLCMD_CAPTURE")?,
            "--post-mortem" => value("GLCMD_POST_MORTEM")?,
            "--post-mortem-frames" => value("GLCMD_POST_MORTEM_FRAMES")?,
            other => return Err(format!("unknown option {other} (the program goes after `--`; see glcmd-run --help)")),
        }
    }
    Err("no `--` before the program (usage: glcmd-run [OPTIONS] -- PROGRAM [ARGS...])".into())
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if args.is_empty() || args.iter().take_while(|a| *a != "--").any(|a| a == "-h" || a == "--help") {
        print!("{HELP}");
        return if args.is_empty() { ExitCode::from(2) } else { ExitCode::SUCCESS };
    }
    let result = parse(args).and_then(|(env, program)| Ok((env, program, preload_library()?)));
    let (env, program, lib) = match result {
        Ok(v) => v,
        Err(e) => {
            eprintln!("glcmd-run: {e}");
            return ExitCode::from(2);
        }
    };
    let mut preload = OsString::from(lib.as_os_str());
    if let Some(existing) = std::env::var_os("LD_PRELOAD").filter(|p| !p.is_empty()) {
        preload.push(":");
        preload.push(existing);
    }
    let error = std::process::Command::new(&program[0]).args(&program[1..]).envs(env).env("LD_PRELOAD", preload).exec();
    eprintln!("glcmd-run: cannot run {}: {error}", program[0].to_string_lossy());
    ExitCode::from(127)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_library_is_looked_for_beside_the_launcher_then_in_prefix_lib() {
        let c = candidates(Path::new("/opt/x/bin/glcmd-run"), None);
        let c: Vec<&str> = c.iter().map(|p| p.to_str().unwrap()).collect();
        assert_eq!(
            c,
            [
                "/opt/x/bin/libglcmd_preload.so",
                "/opt/x/lib/libglcmd_preload.so",
                "/opt/x/lib/glcmd-run/libglcmd_preload.so"
            ]
        );
        let named = candidates(Path::new("/opt/x/bin/glcmd-run"), Some("/y/lib.so".into()));
        assert_eq!(named, [PathBuf::from("/y/lib.so")]);
    }
}
