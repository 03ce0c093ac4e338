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
//! that ends with work queued: every device is finished before its exit handlers run.

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
            Through::GlcmdRun => {
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
        Through::GlcmdRun => {
            let mut c = Command::new(launcher());
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
