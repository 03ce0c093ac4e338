//! Unmodified programs through `glcmd-run`, against the same programs run directly.
//!
//! `tests/c/plain.c` is GL code in plain single-threaded style: it makes its own context and
//! checks compile and link status, looks uniforms and blocks up after the link, binds then maps
//! then writes, reads pixels after draws, asks `glGetError` after refused calls, waits on a
//! fence, deletes with no list, and presents twice. Each variant is run directly and through
//! `glcmd-run`, and the two outputs (every answer and pixel hash, one per line) must be equal;
//! a few answers are also checked against what the GL specifies, so that both runs being wrong
//! in the same way would fail too.
//!
//! Variants: EGL (a pbuffer of Mesa's surfaceless platform) with the GL functions linked
//! directly, taken from `eglGetProcAddress`, and with libEGL opened by `dlopen` (as waffle, SDL
//! and GLFW do); GLX on Xvfb with both; a program that asks for
//! a compatibility-profile context (runs directly, says so); a program started by a shell (the
//! child inherits the preload). And the project's own examples: `renderer` (a program that uses
//! glcmd itself: its render thread is left alone) writes the same PNG, and `glow` (whose direct
//! half is then adopted by glcmd-run) still reads back equal pixels. And `tests/c/exit.c`, a program
//! that ends with work queued: every device is finished before its exit handlers run;
//! `lifetime.c` (GL in `atexit` handlers, at a thread's end, in a child of `fork`),
//! `egl_entry.c` (every interposed EGL function's answer and error), `glx_entry.c` (the same for
//! GLX, on Xvfb), `first_current.c` (no trace of glcmd-run's first look at a context, of every
//! kind), `reach.c` (every way to reach a GL function), `reads.c` (reads into memory and into
//! bound buffers, byte for byte), `refusals.c` (calls the GL refuses return and raise what the GL
//! does), `nulls.c` (NULL arguments answer as the GL answers them) and `client_indices.c` with
//! piglit's tests of the kind (element draws with indices in client memory draw as directly),
//! each against the program run directly.

#[allow(dead_code)]
#[path = "../../tests/common/process.rs"]
mod process;
#[path = "../../tests/common/tools.rs"]
mod tools;
#[allow(dead_code)]
#[path = "../../tests/common/xvfb.rs"]
mod xvfb;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Seconds on llvmpipe; the rest is margin for a loaded machine.
const TIMEOUT: Duration = Duration::from_secs(120);

/// The launcher, with the preload library beside it: `cargo test` builds the launcher for
/// these tests but not the library (a `cdylib` no test links), so it is built here once, with
/// the features of the README's `cargo test --workspace` (nothing else is compiled again).
fn launcher() -> PathBuf {
    static BUILT: std::sync::Once = std::sync::Once::new();
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_glcmd-run"));
    BUILT.call_once(|| cargo_build(&exe, &["--lib"]));
    exe
}

/// `cargo build --workspace --tests ARGS` into the target directory of `exe` (a binary of this
/// build), for its profile.
fn cargo_build(exe: &Path, args: &[&str]) {
    let profile_dir = exe.parent().unwrap().to_path_buf();
    let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") | None => "dev".to_string(),
        Some(name) => name.to_string(),
    };
    let mut command = Command::new(env!("CARGO"));
    command.args(["build", "--workspace", "--tests", "--profile", &profile, "--target-dir"]);
    command.arg(profile_dir.parent().unwrap()).current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap());
    command.args(args);
    let done = process::run(command, &format!("cargo build {args:?}"), Duration::from_secs(1200));
    assert!(done.status.success(), "cargo build {args:?} failed:\n{}", done.stderr);
}

/// Compiles `tests/c/plain.c` with `defines` into `target/<profile>/run-tests/`, linked to the
/// GL libraries (or, with `-DVIA_DLOPEN`, to none).
fn compile(name: &str, defines: &[&str]) -> PathBuf {
    compile_source("plain.c", name, defines)
}

/// Compiles `tests/c/<source>`, as [`compile`].
fn compile_source(source: &str, name: &str, defines: &[&str]) -> PathBuf {
    let libs: &[&str] =
        if defines.contains(&"-DVIA_DLOPEN") { &["-ldl"] } else { &["-DWITH_GLX", "-lEGL", "-lGL", "-lX11"] };
    compile_with(source, name, defines, libs)
}

/// Compiles `tests/c/<source>` with `defines`, linked to `libs`.
fn compile_with(source: &str, name: &str, defines: &[&str], libs: &[&str]) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(source);
    let out_dir = launcher().parent().unwrap().join("run-tests");
    std::fs::create_dir_all(&out_dir).unwrap();
    let exe = out_dir.join(name);
    let cc = tools::cc();
    let output = Command::new(&cc)
        .args(["-std=c99", "-O1", "-Wall", "-Werror"])
        .args(defines)
        .arg(&source)
        .args(["-o"])
        .arg(&exe)
        .args(libs)
        .arg("-pthread")
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

/// How a program is started.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Through {
    Direct,
    GlcmdRun,
    /// `glcmd-run --direct`: every context runs directly, but glcmd-run still looks at each.
    GlcmdRunDirect,
}

/// Runs `exe args` directly or through glcmd-run (with `--stats`); returns (stdout, stderr),
/// asserting success.
fn run(exe: &Path, args: &[&str], through: Through, display: Option<&str>) -> (String, String) {
    let mut command = match through {
        Through::Direct => Command::new(exe),
        Through::GlcmdRun => {
            let mut c = Command::new(launcher());
            c.args(["--stats", "--"]).arg(exe);
            c
        }
        Through::GlcmdRunDirect => {
            let mut c = Command::new(launcher());
            c.args(["--direct", "--"]).arg(exe);
            c
        }
    };
    command.args(args);
    match display {
        Some(d) => command.env("DISPLAY", d),
        None => command.env_remove("DISPLAY"),
    };
    let what = format!("{} {args:?} ({through:?})", exe.display());
    let done = process::run(command, &what, TIMEOUT);
    assert!(done.status.success(), "{what} failed ({}):\n{}{}", done.status, done.stdout, done.stderr);
    (done.stdout, done.stderr)
}

/// Runs a variant both ways and compares; returns glcmd-run's (stdout, stderr).
fn differential(exe: &Path, args: &[&str], display: Option<&str>) -> (String, String) {
    let (direct, _) = run(exe, args, Through::Direct, display);
    let (through, stderr) = run(exe, args, Through::GlcmdRun, display);
    let (d, t): (Vec<&str>, Vec<&str>) = (direct.lines().collect(), through.lines().collect());
    for (i, (a, b)) in d.iter().zip(&t).enumerate() {
        assert_eq!(a, b, "line {i} differs (direct, then glcmd-run); glcmd-run's stderr:\n{stderr}");
    }
    assert_eq!(d.len(), t.len(), "direct:\n{direct}\nglcmd-run:\n{through}\nstderr:\n{stderr}");
    check_answers(&through);
    (through, stderr)
}

/// The answers a core GL gives this program, whatever the driver.
fn check_answers(out: &str) {
    for expected in [
        "current_context_matches=1",
        "current_surface_matches=1",
        "viewport=0,0,64,48",
        "scissor=0,0,64,48",
        "framebuffer=0",
        "link_status=1",
        "uniform_offset_found=1",
        "uniform_missing=-1",
        "block_size=16",
        "error_use_program=0x501",
        "current_program_after_refused=0",
        "error_bind_buffer=0x502",
        "array_buffer_after_refused=0",
        "error_enable=0x500",
        "error_none=0",
        "array_buffer_is_vbo=1",
        "map_nonnull=1",
        "texels=255,200,100,50",
        "fence_signaled=1",
        "is_buffer_after_delete=0",
        "error_end=0",
        "done=1",
    ] {
        assert!(out.lines().any(|l| l == expected), "no line `{expected}` in:\n{out}");
    }
    let compiles: Vec<&str> = out.lines().filter(|l| l.starts_with("compile_status=")).collect();
    assert_eq!(compiles, ["compile_status=1", "compile_status=1", "compile_status=0"]);
}

/// glcmd-run's `--stats` line says the program's context went through glcmd.
fn assert_through_glcmd(stderr: &str) {
    assert!(
        stderr.lines().any(|l| l.starts_with("glcmd-run: device") && l.contains("2 presents")),
        "no stats line with 2 presents from glcmd-run:\n{stderr}"
    );
    assert!(!stderr.contains("runs directly"), "{stderr}");
}

#[test]
fn egl_program_linking_gl_directly_runs_unchanged() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile("plain-egl", &[]);
    let (_, stderr) = differential(&exe, &[], None);
    assert_through_glcmd(&stderr);
}

#[test]
fn egl_program_loading_gl_through_get_proc_address_runs_unchanged() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile("plain-egl-proc", &["-DVIA_PROC"]);
    let (_, stderr) = differential(&exe, &[], None);
    assert_through_glcmd(&stderr);
}

#[test]
fn egl_program_opening_libegl_with_dlopen_runs_unchanged() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile("plain-egl-dlopen", &["-DVIA_DLOPEN"]);
    let (_, stderr) = differential(&exe, &[], None);
    assert_through_glcmd(&stderr);
}

#[test]
fn glx_programs_run_unchanged_on_xvfb() {
    if !tools::require(&[(tools::cc().as_str(), "gcc"), ("Xvfb", "xvfb")]) {
        return;
    }
    let x = xvfb::Xvfb::start();
    for (name, defines) in [("plain-glx", &[][..]), ("plain-glx-proc", &["-DVIA_PROC"][..])] {
        let exe = compile(name, defines);
        let (_, stderr) = differential(&exe, &["glx"], Some(&x.display));
        assert_through_glcmd(&stderr);
    }
}

/// `tests/c/contexts.c`: two contexts on two pbuffers switched on one thread, a context moved
/// to another thread and back, refused on a second thread while current on the first, made
/// current on another surface, a surface destroyed: the same answers and pixels as directly,
/// with a device per adoption.
#[test]
fn several_contexts_threads_and_surfaces_behave_as_directly() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile_source("contexts.c", "contexts", &[]);
    let (direct, _) = run(&exe, &[], Through::Direct, None);
    let (through, stderr) = run(&exe, &[], Through::GlcmdRun, None);
    assert_eq!(direct, through, "glcmd-run's stderr:\n{stderr}");
    for expected in [
        "second thread while current elsewhere: 0",
        "other thread sees pixel 0,255,0,255",
        "texture made on the other thread: 1",
        "one on c: pixel 0,0,255,255 viewport 32x32 error 0",
        "done",
    ] {
        assert!(through.lines().any(|l| l == expected), "no line `{expected}` in:\n{through}");
    }
    assert!(stderr.contains("is current on another thread"), "the refusal says why:\n{stderr}");
    // One device for each context, and one more for each re-adoption (other surface, then the
    // destroyed surface's context made current again).
    assert_eq!(stderr.lines().filter(|l| l.starts_with("glcmd-run: device")).count(), 4, "{stderr}");
}

/// `tests/c/first_current.c`: whatever the kind of context (core, compatibility, OpenGL ES 2
/// and 3; EGL and GLX), glcmd-run's first look at it leaves nothing the program can see: after
/// the program's first make-current the error flag is clear, the debug log of its debug context
/// is empty, and bindings, pixel store, program and debug state are a new context's, as
/// directly; also with `--direct`. (The probe asked an OpenGL ES context for
/// `GL_CONTEXT_PROFILE_MASK`: `GL_INVALID_ENUM`, and every GLES test of piglit failed.)
#[test]
fn the_first_make_current_leaves_no_trace_on_any_kind_of_context() {
    if !tools::require(&[(tools::cc().as_str(), "gcc"), ("Xvfb", "xvfb")]) {
        return;
    }
    let exe = compile_source("first_current.c", "first-current", &[]);
    let x = xvfb::Xvfb::start();
    let kinds = ["egl-core", "egl-compat", "egl-gles2", "egl-gles3", "glx-core", "glx-compat", "glx-gles2"];
    for kind in kinds {
        let display = kind.starts_with("glx").then_some(x.display.as_str());
        let (direct, _) = run(&exe, &[kind], Through::Direct, display);
        if direct.starts_with("unsupported") {
            println!("{kind}: the driver makes no such context");
            continue;
        }
        for expected in ["error=0", "logged_messages=0", "current_program=0", "unpack_alignment=4", "error_end=0"] {
            assert!(direct.lines().any(|l| l == expected), "{kind}: no line `{expected}` directly:\n{direct}");
        }
        for through in [Through::GlcmdRun, Through::GlcmdRunDirect] {
            let (out, stderr) = run(&exe, &[kind], through, display);
            assert_eq!(out, direct, "{kind} ({through:?}), stderr:\n{stderr}");
            let adopted = stderr.lines().any(|l| l.starts_with("glcmd-run: device"));
            assert_eq!(adopted, kind.ends_with("core") && through == Through::GlcmdRun, "{kind}: {stderr}");
        }
    }
}

/// `tests/c/reach.c`: every way to reach a GL function (linked from libGLESv2, `dlsym` on
/// RTLD_DEFAULT and on `dlopen` handles of libGL, libOpenGL, libGLESv2 and libGLESv1_CM,
/// `eglGetProcAddress` linked and from libEGL's handle, `glXGetProcAddress(ARB)` from libGLX's
/// and libGL's) reaches glcmd's entry point while the context is adopted: each way's clear,
/// read, `glGetString` and `glGetError` answer as directly. (Functions from libGLESv2's handle
/// reached the driver, which has no context on that thread: NULL version, nothing drawn.)
#[test]
fn every_way_to_reach_a_gl_function_reaches_glcmd() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile_with("reach.c", "reach", &[], &["-lEGL", "-lGLESv2", "-ldl"]);
    let (direct, _) = run(&exe, &[], Through::Direct, None);
    let (through, stderr) = run(&exe, &[], Through::GlcmdRun, None);
    assert_eq!(through, direct, "glcmd-run's stderr:\n{stderr}");
    assert_eq!(direct.lines().count(), 11, "{direct}");
    for line in direct.lines() {
        assert!(line.contains("version 4.") && line.ends_with(",255 error 0"), "{line}");
    }
    assert!(stderr.lines().any(|l| l.starts_with("glcmd-run: device")), "not adopted:\n{stderr}");
}

#[test]
fn a_compatibility_context_runs_directly_and_says_so() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile("plain-egl-compat", &["-DCOMPAT"]);
    let (direct, _) = run(&exe, &[], Through::Direct, None);
    let (through, stderr) = run(&exe, &[], Through::GlcmdRun, None);
    assert_eq!(direct, through);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("runs directly")).collect();
    assert_eq!(lines.len(), 1, "one line saying the context runs directly:\n{stderr}");
    assert!(lines[0].contains("compatibility-profile"), "{stderr}");
}

#[test]
fn child_processes_run_through_glcmd_too() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile("plain-egl-child", &[]);
    let script = format!("{} > /dev/null", exe.display());
    let (_, stderr) = run(Path::new("/bin/sh"), &["-c", &script], Through::GlcmdRun, None);
    assert_through_glcmd(&stderr);
}

/// A program that ends with work queued and an exit handler registered after its context was
/// adopted: by the time that handler runs, glcmd-run has finished every device (replayed what
/// was queued, joined the render thread), for `exit` and for a return from `main`. A render
/// thread still replaying there could reach a library whose statics exit had already destroyed
/// (LLVM's, on llvmpipe: piglit's `arb_texture_view-bug-layers-image` crashed after passing).
/// `tests/c/reads.c`: every read into memory writes the bytes the GL writes and no others
/// (sentinels before, between rows and images, and after, under every pack state; reads partly
/// outside the framebuffer; `bufSize` larger than needed; queries writing arrays), and an
/// output pointer is an offset while a buffer is bound to `GL_QUERY_BUFFER` or
/// `GL_PIXEL_PACK_BUFFER` (issue 30 item 2, issue 34 item 2: glcmd zeroed the gaps between rows
/// and the rest of `bufSize`, and wrote a query result to address 8).
#[test]
fn reads_write_only_what_the_gl_writes_and_offsets_follow_the_bound_buffer() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile_source("reads.c", "reads", &[]);
    let (direct, _) = run(&exe, &[], Through::Direct, None);
    let (through, stderr) = run(&exe, &[], Through::GlcmdRun, None);
    let (d, t): (Vec<&str>, Vec<&str>) = (direct.lines().collect(), through.lines().collect());
    for (i, (a, b)) in d.iter().zip(&t).enumerate() {
        assert_eq!(a, b, "line {i} differs (direct, then glcmd-run); glcmd-run's stderr:\n{stderr}");
    }
    assert_eq!(d.len(), t.len(), "direct:\n{direct}\nglcmd-run:\n{through}\nstderr:\n{stderr}");
    assert!(stderr.lines().any(|l| l.starts_with("glcmd-run: device")), "not adopted:\n{stderr}");
    // What the GL specifies, so that both runs being wrong alike fails too: rows of 3 RGBA
    // pixels 44 bytes apart (row length 11), rows of 9 bytes padded to 16 (alignment 8), a
    // too-small bufSize writes nothing, a read partly outside the 8x8 framebuffer writes only
    // the 3x3 pixels inside, and query results land in the query buffer at their offsets.
    for prefix in [
        "fbo_complete=1",
        "textures_err=0x0",
        "readpixels rowlen11 rgba_ub err=0x0 written=0-12,44-56 ",
        "readpixels align8 rgb_ub err=0x0 written=0-9,16-25 ",
        "readnpixels rowlen11 rgba_ub err=0x0 written=0-12,44-56 ",
        "readnpixels_small default err=0x502 written=none ",
        "readpixels_clipped default err=0x0 written=8-20,28-40,48-60 ",
        "getnuniformfv err=0x0 written=0-16 ",
        "getnuniformfv_18 err=0x0 written=0-16 ",
        "getsynciv count=1 err=0x0 written=0-4 ",
        "query_to_buffer_8 err=0x0",
        "query_to_buffer_0 err=0x0",
        "query_to_buffer_past_end err=0x502",
        "query_buffer err=0x0 written=0-4,8-12,16-24,28-32 ",
        "query_to_memory err=0x0 result=7,5,7",
        "pack_buffer err=0x0 written=0-16,40-48,100-106,136-142,200-232 ",
        "error_end=0x0",
        "done=1",
    ] {
        assert!(through.lines().any(|l| l.starts_with(prefix)), "no line `{prefix}` in:\n{through}");
    }
}

#[test]
fn devices_finish_before_the_programs_exit_handlers_run() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile_source("exit.c", "exit-egl", &[]);
    for how in ["exit", "return"] {
        let (direct, _) = run(&exe, &[how], Through::Direct, None);
        let (through, stderr) = run(&exe, &[how], Through::GlcmdRun, None);
        assert_eq!(direct, "recorded\nrender_threads_at_exit=0\n", "{how}");
        assert_eq!(through, direct, "{how}; glcmd-run's stderr:\n{stderr}");
        assert!(stderr.lines().any(|l| l.starts_with("glcmd-run: device")), "{how}: not adopted:\n{stderr}");
        assert!(!stderr.contains("runs directly"), "{stderr}");
    }
}

/// `tests/c/lifetime.c`: GL at the edges of a process's and a thread's life behaves as directly.
/// An `atexit` handler's clear, `glFinish`, `glReadPixels` and `glGetString` work (after `exit`,
/// a return from `main`, and `exit` on another thread: the exiting thread's context is handed
/// back to it, current directly, once its device has finished); a context left current on a
/// thread that ended stays bound to it (`EGL_BAD_ACCESS` elsewhere, as the driver keeps it); a
/// child of `fork` that exits prints nothing (the exit hooks joined render threads the child
/// does not have: a panic with a backtrace), and one that calls GL says once that the call does
/// nothing; an error raised in an `atexit` handler of a program with a debug callback does not
/// reach glcmd's callback, whose state went with the device (it crashed). No panic output in any
/// mode.
#[test]
fn gl_at_exit_thread_end_and_fork_behaves_as_directly() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile_source("lifetime.c", "lifetime", &[]);
    for mode in ["atexit", "return", "atexit-debug", "thread-exit", "thread-end", "fork-exit"] {
        let (direct, _) = run(&exe, &[mode], Through::Direct, None);
        let (through, stderr) = run(&exe, &[mode], Through::GlcmdRun, None);
        assert_eq!(through, direct, "{mode}; glcmd-run's stderr:\n{stderr}");
        assert!(stderr.lines().any(|l| l.starts_with("glcmd-run: device")), "{mode}: not adopted:\n{stderr}");
        assert!(!stderr.contains("panicked") && !stderr.contains("backtrace"), "{mode}:\n{stderr}");
    }
    let (direct, _) = run(&exe, &["atexit"], Through::Direct, None);
    for expected in [
        "handler: current context is the program's: 1",
        "handler, the clear left pending: pixel 0,255,0,255 error 0",
        "handler, after its own clear and glFinish: pixel 0,0,255,255 error 0",
        "handler: version string: yes",
    ] {
        assert!(direct.lines().any(|l| l == expected), "no line `{expected}` in:\n{direct}");
    }
    // A child's GL calls cannot reach the parent's render thread (directly, llvmpipe's child
    // waits forever for rasterizer threads it does not have, so there is nothing to compare).
    let (through, stderr) = run(&exe, &["fork-gl"], Through::GlcmdRun, None);
    assert!(through.contains("child exit: exited 1 status 2"), "{through}");
    let said = stderr.lines().filter(|l| l.contains("a GL call in a child of fork()")).count();
    assert_eq!(said, 2, "once in each of the two children:\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// `tests/c/egl_entry.c`: every EGL function glcmd-run interposes answers and sets
/// `eglGetError` as the driver does (a make-current glcmd refuses: `EGL_BAD_ACCESS`; one glcmd
/// answers itself: `EGL_SUCCESS`, after an earlier failure), and keeps contexts alive as EGL 1.5
/// does: a context destroyed while current on this or another thread still clears, reads and
/// answers `glGetString` until released, and is gone afterwards (`EGL_BAD_CONTEXT`, with no
/// message from glcmd-run).
#[test]
fn egl_entry_points_answer_and_set_errors_as_the_driver() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile_source("egl_entry.c", "egl-entry", &[]);
    let (direct, _) = run(&exe, &[], Through::Direct, None);
    let (through, stderr) = run(&exe, &[], Through::GlcmdRun, None);
    assert_eq!(through, direct, "glcmd-run's stderr:\n{stderr}");
    for expected in [
        "second thread: make current of a context current on the first: 0 error 0x3002",
        "swap: 1 error 0x3000",
        "current context is still one: 1 error 0x3000",
        "one, destroyed but current: pixel 128,128,0,255 version yes gl error 0",
        "make current of the destroyed one: 0 error 0x3006",
        "holder: two destroyed elsewhere, still current here: pixel 0,255,0,255 version yes gl error 0",
        "done",
    ] {
        assert!(direct.lines().any(|l| l == expected), "no line `{expected}` in:\n{direct}");
    }
    assert!(!stderr.contains("could not be probed") && !stderr.contains("runs directly"), "{stderr}");
    assert!(stderr.lines().filter(|l| l.starts_with("glcmd-run: device")).count() >= 3, "{stderr}");
}

/// `tests/c/glx_entry.c` on Xvfb: every GLX function glcmd-run interposes answers and raises X
/// errors as the driver does, and a context destroyed while current (on this or another thread)
/// clears, reads and answers `glGetString` until released. One difference is deliberate: a
/// make-current of a context current on another thread, which Mesa's GLX accepts against the
/// specification (the context would be current on two threads, one of them glcmd's render
/// thread), is refused through glcmd (false, the context not current there, a message).
#[test]
fn glx_entry_points_answer_and_raise_errors_as_the_driver() {
    if !tools::require(&[(tools::cc().as_str(), "gcc"), ("Xvfb", "xvfb")]) {
        return;
    }
    let x = xvfb::Xvfb::start();
    let exe = compile_with("glx_entry.c", "glx-entry", &[], &["-lGL", "-lX11"]);
    let (direct, _) = run(&exe, &[], Through::Direct, Some(&x.display));
    let (through, stderr) = run(&exe, &[], Through::GlcmdRun, Some(&x.display));
    let compared = |out: &str| -> Vec<String> {
        out.lines().filter(|l| !l.starts_with("second thread:")).map(String::from).collect()
    };
    assert_eq!(compared(&through), compared(&direct), "glcmd-run's stderr:\n{stderr}");
    for expected in [
        "second thread: make current of a context current on the first: 0 x errors 0",
        "second thread: current context is none: 1 x errors 0",
    ] {
        assert!(through.lines().any(|l| l == expected), "no line `{expected}` in:\n{through}");
    }
    assert!(stderr.contains("is current on another thread"), "{stderr}");
    for expected in [
        "current context is still one: 1 x errors 0",
        "one, destroyed but current: pixel 128,128,0,255 version yes gl error 0",
        "holder: two destroyed elsewhere, still current here: pixel 0,255,0,255 version yes gl error 0",
        "done",
    ] {
        assert!(direct.lines().any(|l| l == expected), "no line `{expected}` in:\n{direct}");
    }
    assert!(stderr.lines().filter(|l| l.starts_with("glcmd-run: device")).count() >= 3, "{stderr}");
    // GL in an atexit handler of a GLX program: the context is handed back at exit.
    let (direct, _) = run(&exe, &["atexit"], Through::Direct, Some(&x.display));
    let (through, stderr) = run(&exe, &["atexit"], Through::GlcmdRun, Some(&x.display));
    assert_eq!(through, direct, "glcmd-run's stderr:\n{stderr}");
    for expected in [
        "handler: current context is one: 1",
        "handler: the clear left pending: 0,255,0,255",
        "handler: its own clear: pixel 64,128,255,255 version yes gl error 0",
    ] {
        assert!(direct.lines().any(|l| l == expected), "no line `{expected}` in:\n{direct}");
    }
}

/// Runs `tests/c/<source>` directly and through glcmd-run; asserts equal stdout, line by line,
/// and that glcmd-run adopted the context. Returns glcmd-run's stdout.
fn same_lines(source: &str, name: &str) -> String {
    let exe = compile_source(source, name, &[]);
    let (direct, _) = run(&exe, &[], Through::Direct, None);
    let (through, stderr) = run(&exe, &[], Through::GlcmdRun, None);
    for (i, (d, t)) in direct.lines().zip(through.lines()).enumerate() {
        assert_eq!(d, t, "{source}: line {i} differs (direct, then glcmd-run); glcmd-run's stderr:\n{stderr}");
    }
    assert_eq!(direct.lines().count(), through.lines().count(), "direct:\n{direct}\nglcmd-run:\n{through}");
    assert!(stderr.lines().any(|l| l.starts_with("glcmd-run: device")), "not adopted:\n{stderr}");
    through
}

/// `through` has each of the `expected` lines: what the GL specifies, so that both runs being
/// wrong in one way fails too.
fn assert_lines(through: &str, expected: &[&str]) {
    for expected in expected {
        assert!(through.lines().any(|l| l == *expected), "no line `{expected}` in:\n{through}");
    }
}

/// Issue 30 item 3 and issue 34 item 4 (`tests/c/refusals.c`): calls the GL refuses, or that
/// glcmd refuses for its own safety where the GL would refuse them for an earlier reason, return
/// what the GL returns and raise the GL's error, line for line as directly.
#[test]
fn refused_calls_return_and_raise_what_the_gl_does() {
    if !tools::require_cc() {
        return;
    }
    let through = same_lines("refusals.c", "refusals-egl");
    assert_lines(
        &through,
        &[
            "fence_bad_condition_nonzero=0 glFenceSync(0, 0) error=0x500",
            "fence_bad_flags_nonzero=0 glFenceSync(flags 1) error=0x501",
            "fence_nonzero=1 glFenceSync error=0x0",
            "glDrawTransformFeedbackStream(stream 1000, no vertex array) error=0x501",
            "glTexBufferRange(GL_TEXTURE_2D, no buffer, -1) error=0x500",
            "glVertexAttribLPointer(index 100000, client pointer) error=0x501",
            "glInvalidateBufferData(4242) error=0x501",
            "glBindBufferRange(4242, offset -256) error=0x502",
            "glBindBufferRange(GL_ARRAY_BUFFER, offset -256) error=0x500",
            "glBindBufferRange(GL_ARRAY_BUFFER, size -16) error=0x501",
            "glBindBufferRange(buffer 0, offset -256) error=0x0",
            "glTexParameterf(GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_MIN_LOD, NaN) error=0x500",
            "glTexParameterf(GL_TEXTURE_MIN_FILTER, NaN) error=0x500",
            "anisotropy_is_max=1 glTexParameterf(GL_TEXTURE_MAX_ANISOTROPY, NaN) error=0x0",
            "glSamplerParameterf(GL_TEXTURE_WRAP_S, NaN) error=0x500",
            "done=1",
        ],
    );
}

/// Issue 34's last regression of the whole quick profile (`tests/c/egl_image.c`): GL_OES_EGL_image
/// is listed and served, an image of a texture made right after its upload sees the upload, and
/// the texture and renderbuffer given the image read back its texels, as directly.
#[test]
fn egl_images_of_gl_textures_are_served_as_directly() {
    if !tools::require_cc() {
        return;
    }
    let through = same_lines("egl_image.c", "egl-image-egl");
    assert_lines(
        &through,
        &[
            "GL_OES_EGL_image listed=1",
            "image_nonnull=1 egl_error=0x3000",
            "glEGLImageTargetTexture2DOES error=0x0",
            "texels_equal=1 first=1 last=186 error=0x0",
            "glEGLImageTargetRenderbufferStorageOES error=0x0 width=4",
            "done=1",
        ],
    );
}

/// Issue 30 item 4 (`tests/c/nulls.c`): NULL pointer arguments reach the GL as the GL takes
/// them (NULL, or what the GL makes of it), and where the GL refuses NULL, glcmd raises its error.
#[test]
fn null_arguments_answer_as_the_gl_does() {
    if !tools::require_cc() {
        return;
    }
    let through = same_lines("nulls.c", "nulls-egl");
    assert_lines(
        &through,
        &[
            "glShaderSource(0, NULL) error=0x501",
            "create_shader_program_nonzero=1 glCreateShaderProgramv(0, NULL) error=0x501",
            "glObjectLabel(-1, NULL) error=0x0",
            "label_len=0",
            "glBindVertexBuffers(NULL, NULL, NULL) error=0x0",
            "glBindBuffersRange(NULL...) error=0x0",
            "glTexSubImage2D(NULL) error=0x0",
            "glTexSubImage1D(GL_TEXTURE_2D, NULL) error=0x500",
            "buffer_after_null_sub_data=1,4,5,8",
            "glTexSubImage2D(past the level, NULL) error=0x501",
            "glTexSubImage2D(x -2, NULL) error=0x501",
            "glTexSubImage2D(last row, NULL) error=0x0",
            "glTexSubImage2D(row 4, NULL) error=0x501",
            "glTexSubImage2D(level 1 missing, NULL) error=0x502",
            "glTextureSubImage2D(past the level, NULL) error=0x501",
            "glTexSubImage3D(depth past, NULL) error=0x501",
            "glTexSubImage1D(past, NULL) error=0x501",
            "texel_after_null_uploads=7,7",
            "done=1",
        ],
    );
}

/// Issue 34 item 6 (`tests/c/client_indices.c`): element draws with indices in client memory
/// and no element buffer draw the same pixels as directly (Mesa's core profile draws them), in
/// every form, and with an element buffer bound the pointer stays an offset.
#[test]
fn client_memory_indices_draw_as_directly() {
    if !tools::require_cc() {
        return;
    }
    let through = same_lines("client_indices.c", "client-indices-egl");
    assert_lines(
        &through,
        &[
            "glDrawElements(left, client) error=0x0 lit=128 sum=356616",
            "glMultiDrawElements(left, half right, client) error=0x0 lit=192 sum=534924",
            "glDrawElements(GL_FLOAT, client) error=0x500 lit=0 sum=0",
            "glDrawElements(client, no vertex array) error=0x502 lit=0 sum=0",
            "done=1",
        ],
    );
}

/// The piglit tests of issue 34 item 6 that draw from client-memory indices in a core context:
/// each passes through glcmd-run as it passes directly.
#[test]
fn piglit_client_index_draws_pass_through_glcmd_run() {
    let bin = Path::new("/usr/lib/x86_64-linux-gnu/piglit/bin");
    if !tools::require(&[(bin.join("arb_shader_draw_parameters-drawid").to_str().unwrap(), "piglit")]) {
        return;
    }
    let cases: &[(&str, &[&str])] = &[
        ("arb_shader_draw_parameters-drawid", &["drawid"]),
        ("arb_shader_draw_parameters-drawid", &["vertexid"]),
        ("arb_shader_draw_parameters-drawid-indirect", &["drawid"]),
        ("arb_shader_draw_parameters-drawid-indirect", &["vertexid"]),
        ("arb_gpu_shader_fp64-tf-interleaved", &[]),
    ];
    for (test, args) in cases {
        let exe = bin.join(test);
        let mut args = args.to_vec();
        args.extend(["-auto", "-fbo"]);
        let result = |through| {
            let mut command = match through {
                Through::Direct => Command::new(&exe),
                Through::GlcmdRun | Through::GlcmdRunDirect => {
                    let mut c = Command::new(launcher());
                    if through == Through::GlcmdRunDirect {
                        c.arg("--direct");
                    }
                    c.arg("--").arg(&exe);
                    c
                }
            };
            command.args(&args).env("PIGLIT_PLATFORM", "surfaceless_egl").env_remove("DISPLAY");
            let done = process::run(command, &format!("{test} {args:?} ({through:?})"), TIMEOUT);
            let out = format!("{}{}", done.stdout, done.stderr);
            out.lines().find(|l| l.starts_with("PIGLIT: ")).map(str::to_string).unwrap_or(out)
        };
        let direct = result(Through::Direct);
        assert_eq!(direct, r#"PIGLIT: {"result": "pass" }"#, "{test} {args:?} directly");
        assert_eq!(result(Through::GlcmdRun), direct, "{test} {args:?} through glcmd-run");
    }
}

#[test]
fn the_launcher_explains_its_usage() {
    let help = Command::new(launcher()).arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(help.status.success());
    for var in ["GLCMD_DIAGNOSTICS", "GLCMD_CAPTURE", "GLCMD_POST_MORTEM", "GLCMD_WAIT_LIMIT_MS", "GLCMD_RUN_STATS"] {
        assert!(text.contains(var), "--help does not name {var}:\n{text}");
    }
    let bad = Command::new(launcher()).args(["--frobnicate", "--", "true"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown option --frobnicate"));
    let missing = Command::new(launcher()).args(["--", "/nonexistent/program"]).output().unwrap();
    assert_eq!(missing.status.code(), Some(127));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot run /nonexistent/program"));
}

/// Builds examples of the glcmd crate, as [`cargo_build`] does.
fn build_examples(names: &[&str]) -> Vec<PathBuf> {
    let args: Vec<&str> = names.iter().flat_map(|n| ["--example", n]).collect();
    cargo_build(&launcher(), &args);
    names.iter().map(|n| launcher().parent().unwrap().join("examples").join(n)).collect()
}

#[test]
fn the_projects_own_examples_run_through_glcmd_run() {
    let exes = build_examples(&["renderer", "glow"]);
    let out = launcher().parent().unwrap().join("run-tests");
    let mut pngs = Vec::new();
    for through in [Through::Direct, Through::GlcmdRun] {
        let dir = out.join(format!("renderer-{through:?}"));
        std::fs::create_dir_all(&dir).unwrap();
        let mut command = match through {
            Through::Direct => Command::new(&exes[0]),
            Through::GlcmdRun | Through::GlcmdRunDirect => {
                let mut c = Command::new(launcher());
                c.arg("--").arg(&exes[0]);
                c
            }
        };
        command.current_dir(&dir);
        let done = process::run(command, "examples/renderer", TIMEOUT);
        assert!(done.status.success(), "renderer ({through:?}) failed:\n{}{}", done.stdout, done.stderr);
        pngs.push(std::fs::read(dir.join("renderer.png")).unwrap());
    }
    assert!(pngs[0] == pngs[1], "renderer.png differs through glcmd-run");
    let (stdout, stderr) = run(&exes[1], &[], Through::GlcmdRun, None);
    assert!(stdout.contains("PIXELS EQUAL"), "{stdout}{stderr}");
    assert!(stderr.contains("glcmd-run: device"), "the direct half was adopted: {stderr}");
}

/// `glcmd-run --capture FILE` captures an unmodified program, as apitrace does: a capture file
/// with glcmd's header, holding the program's lists (its set-up log keeps every list).
#[test]
fn the_launcher_captures_an_unmodified_program() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile("plain-egl-capture", &[]);
    let path = launcher().parent().unwrap().join("run-tests/plain.glcmdcap");
    let _ = std::fs::remove_file(&path);
    let mut command = Command::new(launcher());
    command.arg("--capture").arg(&path).arg("--").arg(&exe).env_remove("DISPLAY");
    let done = process::run(command, "glcmd-run --capture", TIMEOUT);
    assert!(done.status.success(), "{}{}", done.stdout, done.stderr);
    check_answers(&done.stdout);
    let bytes =
        std::fs::read(&path).unwrap_or_else(|e| panic!("no capture at {}: {e}\n{}", path.display(), done.stderr));
    assert_eq!(&bytes[..8], b"GLCMDCAP", "a glcmd capture");
    // The program's own calls are in it: its fragment shader's source, recorded by
    // glShaderSource into a list.
    let needle = b"uniform sampler2D tex;";
    assert!(bytes.windows(needle.len()).any(|w| w == needle), "the capture holds the program's lists");
}

/// glad2's C loader for core 4.6 with every extension of its gl.xml, generated once into
/// `target/<profile>/run-tests/glad` (`pip install glad2` provides `glad`; `.ci/install-deps.sh`
/// installs it).
fn glad_loader() -> PathBuf {
    let dir = launcher().parent().unwrap().join("run-tests/glad");
    if !dir.join("src/gl.c").exists() {
        let mut command = Command::new("glad");
        command.args(["--api", "gl:core=4.6", "--reproducible", "--quiet", "--out-path"]).arg(&dir).args(["c"]);
        let done = process::run(command, "glad", Duration::from_secs(600));
        assert!(done.status.success(), "glad failed (install it with `pip install glad2`):\n{}", done.stderr);
    }
    dir
}

/// `ext_functions.h`: every (extension, function, extension the function also needs or "") of
/// glcmd's generated table, for `tests/c/loader.c`'s resolution check.
fn ext_functions_header(dir: &Path) {
    let mut rows = String::new();
    for p in glcmd::generated::extensions::EXTENSIONS {
        for (f, _) in p.functions() {
            rows.push_str(&format!("    {{\"{}\", \"{f}\", \"\"}},\n", p.name));
        }
        for (needs, functions) in p.conditional() {
            for (f, _) in functions {
                rows.push_str(&format!("    {{\"{}\", \"{f}\", \"{needs}\"}},\n", p.name));
            }
        }
    }
    let text = format!("static const char *const EXT_FUNCTIONS[][3] = {{\n{rows}}};\n");
    std::fs::write(dir.join("ext_functions.h"), text).unwrap();
}

/// The lines of `out` that start with `prefix`, without it.
fn lines_of<'a>(out: &'a str, prefix: &str) -> Vec<&'a str> {
    out.lines().filter_map(|l| l.strip_prefix(prefix)).collect()
}

/// A program loaded with glad: through glcmd-run its extension list is the driver's in the
/// driver's order with what glcmd cannot serve left out, every function of every listed
/// extension resolves to glcmd's entry point, and its calls behind GLAD_GL_ flags run without a
/// crash and answer as directly.
#[test]
fn a_glad_program_sees_only_extensions_glcmd_serves_and_can_call_them() {
    let glad = glad_loader();
    ext_functions_header(&glad);
    let exe = launcher().parent().unwrap().join("run-tests/loader");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let output = Command::new(&cc)
        .args(["-std=c99", "-O1", "-Wall", "-Werror", "-I"])
        .arg(glad.join("include"))
        .arg("-I")
        .arg(&glad)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/loader.c"))
        .arg(glad.join("src/gl.c"))
        .arg("-o")
        .arg(&exe)
        .args(["-lEGL", "-ldl"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{cc} loader.c failed:\n{}", String::from_utf8_lossy(&output.stderr));

    let (direct, _) = run(&exe, &[], Through::Direct, None);
    let (through, stderr) = run(&exe, &["resolve"], Through::GlcmdRun, None);
    assert!(stderr.lines().any(|l| l.starts_with("glcmd-run: device")), "not through glcmd:\n{stderr}");
    let (driver, served) = (lines_of(&direct, "ext="), lines_of(&through, "ext="));
    println!("driver: {} extensions, through glcmd-run: {}", driver.len(), served.len());
    assert_eq!(lines_of(&through, "num_extensions="), [served.len().to_string().as_str()]);
    let mut rest = driver.iter();
    for name in &served {
        assert!(rest.any(|d| d == name), "{name}: not in the driver's list, or out of its order");
    }
    assert!(served.len() > 100 && served.len() < driver.len(), "{} of {}", served.len(), driver.len());
    assert_eq!(lines_of(&through, "unresolved="), Vec::<&str>::new(), "functions of listed extensions");
    // As many functions checked as glcmd's table gives the listed extensions.
    let expected: usize = served
        .iter()
        .map(|name| {
            let p = glcmd::served::extension(name).unwrap();
            let conditional = p.conditional().filter(|(other, _)| served.iter().any(|s| s == other));
            p.functions().count() + conditional.map(|(_, f)| f.count()).sum::<usize>()
        })
        .sum();
    assert_eq!(lines_of(&through, "resolved="), [format!("{expected}/{expected}").as_str()]);
    for out in [&direct, &through] {
        for expected in ["past_end_null=1", "past_end_error=0x501", "error_end=0x0", "done=1"] {
            assert!(out.lines().any(|l| l == expected), "no line `{expected}` in:\n{out}");
        }
    }
    // The guarded calls of extensions both list answer the same.
    for key in [
        "glad_version=",
        "dsa_buffer_size=",
        "khr_debug_label=",
        "arb_sync_signaled=",
        "texture_storage_levels=",
        "ext_texture_integer_clear=",
    ] {
        assert_eq!(lines_of(&direct, key), lines_of(&through, key), "{key}");
        assert_eq!(lines_of(&through, key).len(), 1, "{key} in:\n{through}");
    }
    assert_eq!(lines_of(&direct, "ext_texture_integer_clear="), ["-5 6 16777216 -7"], "the clear reached the layer");
    // Calls of extensions glcmd leaves out are not made through it.
    if !served.contains(&"GL_EXT_framebuffer_object") {
        assert!(lines_of(&through, "ext_framebuffer_object_name=").is_empty());
    }
}

/// `tests/c/bindings.c deletes` (issue 34, item 5): a delete has every effect the GL's delete
/// has on the context at its place in the program's calls, before the program's next call: the
/// buffer leaves every generic, indexed and vertex-array binding (Mesa clears an indexed binding
/// with `glBindBufferBase(..., 0)`, which clears the generic one too: the piglit instance,
/// `arb_shader_atomic_counters@semantics`, failed its next `glBufferData` when that came late),
/// and a deleted name of every class is refused when bound again. Every binding is compared
/// with the direct run; the instance's answers are also checked against the GL's rules.
#[test]
fn deletes_have_their_effects_at_their_place() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile_source("bindings.c", "bindings", &[]);
    let (direct, _) = run(&exe, &["deletes"], Through::Direct, None);
    let (through, stderr) = run(&exe, &["deletes"], Through::GlcmdRun, None);
    assert_eq!(direct, through, "glcmd-run's stderr:\n{stderr}");
    let section = |name: &str| -> Vec<&str> {
        through
            .lines()
            .skip_while(|l| *l != format!("-- {name}"))
            .skip(1)
            .take_while(|l| !l.starts_with("--"))
            .collect()
    };
    let rebound = section("deleted then rebound");
    for expected in ["atomic=2", "atomic[0]=2", "atomic[1]=0", "uniform[3]=0", "storage[2]=0", "vertex_buffer[1]=0"] {
        assert!(rebound.contains(&expected), "no `{expected}` after the delete and the rebind:\n{through}");
    }
    assert!(rebound.contains(&"deleted then rebound error=0x0"), "{through}");
    for expected in [
        "deleted name bound again error=0x502",
        "rebind deleted texture, sampler, renderbuffer error=0x502",
        "rebind deleted framebuffer, vertex array error=0x502",
        "end error=0x0",
        "done=1",
    ] {
        assert!(through.lines().any(|l| l == expected), "no line `{expected}` in:\n{through}");
    }
}

/// `tests/c/bindings.c pixels` (issue 30, item 1): pixel-buffer bindings the GL refused (a name
/// never generated, a deleted name, a rebind that keeps the old buffer) or dropped (the bound
/// buffer deleted), each followed by an upload and a read: the pointer means what the GL's
/// binding says, client memory or an offset, and every byte, binding and error is as directly.
#[test]
fn pixel_buffer_bindings_follow_what_the_gl_accepted() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile_source("bindings.c", "bindings", &[]);
    let (direct, _) = run(&exe, &["pixels"], Through::Direct, None);
    let (through, stderr) = run(&exe, &["pixels"], Through::GlcmdRun, None);
    assert_eq!(direct, through, "glcmd-run's stderr:\n{stderr}");
    // The uploads from client memory arrived (src: 1, 4, 7, ...), and so did the read.
    for expected in [
        "unpack never generated error=0x502",
        "unpack never generated texture=1,4,7,10..190 hash=2510275680",
        "unpack deleted error=0x0",
        "unpack deleted texture=1,4,7,10..190 hash=2510275680",
        "pack deleted error=0x0",
        "refused rebind keeps the buffer texture=1,4,7,10..190 hash=2510275680",
        "end error=0x0",
        "done=1",
    ] {
        assert!(through.lines().any(|l| l == expected), "no line `{expected}` in:\n{through}");
    }
    assert!(through.lines().any(|l| l.starts_with("pack never generated read=51,102,153,204")), "{through}");
}

/// `tests/c/bindings.c switch` (issue 30, item 1): a pixel-unpack buffer bound on context a stays
/// a's across a switch to context b (which uploads from client memory, and refuses a bind of a
/// name never generated), a switch back, and a move of a to another thread; every upload's
/// bytes and errors as directly. A thread becoming immediate on a context starts from the GL's
/// own pixel state.
#[test]
fn pixel_buffer_bindings_survive_context_switches_and_threads() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile_source("bindings.c", "bindings", &[]);
    let (direct, _) = run(&exe, &["switch"], Through::Direct, None);
    let (through, stderr) = run(&exe, &["switch"], Through::GlcmdRun, None);
    assert_eq!(direct, through, "glcmd-run's stderr:\n{stderr}");
    assert!(!stderr.contains("runs directly"), "{stderr}");
    for expected in [
        "a again: buffer error=0x0",
        "a again: buffer texture=200,199,198,197..137 hash=3674169312",
        "b: client memory texture=1,4,7,10..190 hash=2510275680",
        "other thread: a's buffer texture=200,199,198,197..137 hash=3674169312",
        "a after the thread: client memory texture=1,4,7,10..190 hash=2510275680",
        "done=1",
    ] {
        assert!(through.lines().any(|l| l == expected), "no line `{expected}` in:\n{through}");
    }
}

/// gl.xml's enumerant values, each once, into `target/<profile>/run-tests/enums.txt`, without
/// `left_out`; returns the path and the number of values.
fn enum_values_file(name: &str, keep: impl Fn(u32) -> bool) -> (PathBuf, usize) {
    let xml = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../codegen/vendor/gl.xml")).unwrap();
    let mut values = std::collections::BTreeSet::new();
    for piece in xml.split("<enum value=\"").skip(1) {
        let text = &piece[..piece.find('"').unwrap()];
        let value = match text.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => text.parse(),
        };
        if let Ok(v) = value.map(u32::try_from) {
            values.extend(v.ok().filter(|&v| keep(v)));
        }
    }
    let path = launcher().parent().unwrap().join("run-tests").join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text: String = values.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(&path, text).unwrap();
    (path, values.len())
}

/// Issue 34, item 3: every enumerant of gl.xml through every glGet* and glGet*Parameter*
/// function (`tests/c/queries.c`), directly and through glcmd-run: the same error, the same
/// number of values written and the same bytes, the sentinels after them untouched. A pname
/// glcmd's tables lack is answered as the driver answers (`GL_TEXTURE_BUFFER_FORMAT_ARB`,
/// `GL_FRAMEBUFFER_FLIP_Y_MESA`, `GL_TEXTURE_SRGB_DECODE_EXT`, the compatibility state Mesa answers
/// in a core context), and one the driver answers with fewer values than the specification's
/// table (Mesa's `glGetBooleanv(GL_DEPTH_RANGE)`) writes no more. The pnames that crash the driver
/// (`query_out::REFUSED`) are asked through glcmd only: every getter refuses them.
#[test]
fn every_pname_of_gl_xml_is_answered_as_directly() {
    let exe = compile_source("queries.c", "queries", &[]);
    let refused = glcmd::query_out::refused;
    let (values, count) = enum_values_file("enums.txt", |v| !refused(v));
    assert!(count > 4000, "{count} values in gl.xml");
    let values = values.to_str().unwrap();
    let (direct, through, stderr) = differential_slow(&exe, &[values]);
    let (d, t): (Vec<&str>, Vec<&str>) = (direct.lines().collect(), through.lines().collect());
    assert_eq!(d.len(), t.len(), "direct, then glcmd-run:\n{direct}\n{through}\n{stderr}");
    for (a, b) in d.iter().zip(&t) {
        assert_eq!(a, b, "direct, then glcmd-run; glcmd-run's stderr:\n{stderr}");
    }
    for line in ["get_integer 0x8C2E 0x0 1 29820000", "error_end=0x0", "done=1"] {
        assert!(through.lines().any(|l| l == line), "no line `{line}`");
    }
    let answered = through.lines().filter(|l| l.contains(" 0x0 ")).count();
    let getters = through.lines().filter(|l| l.contains(" refused=")).count();
    println!("{count} values x {getters} getters: {answered} answered");

    let (crashing, n) = enum_values_file("enums-refused.txt", refused);
    assert_eq!(n, glcmd::query_out::REFUSED.len());
    let (out, _) = run_slow(&exe, &[crashing.to_str().unwrap()], Through::GlcmdRun);
    // The glGet*v family, where the driver crashes, refuses them; no getter answers them.
    let counts = out.lines().filter(|l| l.contains(" refused=")).collect::<Vec<_>>();
    assert_eq!(counts.len(), getters, "{out}");
    let get = counts.iter().filter(|l| l.starts_with("get_")).collect::<Vec<_>>();
    assert_eq!(get.len(), 10, "{out}");
    assert!(get.iter().all(|l| l.ends_with(&format!(" refused={n}"))), "{out}");
    assert!(!out.lines().any(|l| l.contains(" 0x0 ")), "{out}");
}

/// [`run`] for a program that makes some hundred thousand calls: 10 minutes.
fn run_slow(exe: &Path, args: &[&str], through: Through) -> (String, String) {
    let mut command = match through {
        Through::Direct => Command::new(exe),
        Through::GlcmdRun | Through::GlcmdRunDirect => {
            let mut c = Command::new(launcher());
            if through == Through::GlcmdRunDirect {
                c.arg("--direct");
            }
            c.arg("--").arg(exe);
            c
        }
    };
    command.args(args).env_remove("DISPLAY");
    let what = format!("{} {args:?} ({through:?})", exe.display());
    let done = process::run(command, &what, Duration::from_secs(600));
    assert!(done.status.success(), "{what} failed ({}):\n{}{}", done.status, done.stdout, done.stderr);
    (done.stdout, done.stderr)
}

/// Both ways with [`run_slow`]: (direct stdout, glcmd-run's stdout, its stderr).
fn differential_slow(exe: &Path, args: &[&str]) -> (String, String, String) {
    let (direct, _) = run_slow(exe, args, Through::Direct);
    let (through, stderr) = run_slow(exe, args, Through::GlcmdRun);
    (direct, through, stderr)
}

/// Issue 30, item 7: KHR_debug output through glcmd-run as directly (`tests/c/debug.c`). With
/// `GL_DEBUG_OUTPUT_SYNCHRONOUS` on, the program's callback runs on its own thread before the
/// call that raised the message returns (a refused bind, a refused enum, a message it inserts,
/// a refused query); with output off (a context without the debug flag starts so) none arrives;
/// `glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION / _USER_PARAM)` answers the program's function and
/// pointer, not glcmd's trampoline and context; `glGetBufferPointerv` the pointer the map returned.
#[test]
fn debug_output_reaches_the_callback_on_the_calling_thread_as_directly() {
    let exe = compile_source("debug.c", "debug", &[]);
    let (direct, _) = run(&exe, &[], Through::Direct, None);
    let (through, stderr) = run(&exe, &[], Through::GlcmdRun, None);
    assert!(stderr.lines().any(|l| l.starts_with("glcmd-run: device")), "not through glcmd:\n{stderr}");
    let (d, t): (Vec<&str>, Vec<&str>) = (direct.lines().collect(), through.lines().collect());
    for (i, (a, b)) in d.iter().zip(&t).enumerate() {
        assert_eq!(a, b, "line {i} differs (direct, then glcmd-run); glcmd-run's stderr:\n{stderr}");
    }
    assert_eq!(d.len(), t.len(), "direct:\n{direct}\nglcmd-run:\n{through}");
    for expected in [
        "set_callback_is_program's=1",
        "set_user_is_program's=1",
        "output_off: error=0x500 calls=0",
        "refused_bind: flag=1 same_thread=1",
        "insert: flag=1 same_thread=1",
        "insert: id=42 text=hello from the program",
        "refused_blend: flag=1 same_thread=1",
        "refused_query: flag=1 same_thread=1",
        "output_off_again: calls=0 error=0x500",
        "cleared_callback_null=1 user_null=1",
        "map_pointer_matches=1 named=1 nonnull=1",
        "error_end=0x0",
        "done=1",
    ] {
        assert!(through.lines().any(|l| l == expected), "no line `{expected}` in:\n{through}");
    }
}
