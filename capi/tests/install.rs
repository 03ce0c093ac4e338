//! glcmd-capi as C users take it: `install.sh` installs this build's library into a temporary
//! prefix (the shared library under its version with the soname and `libglcmd.so` as links, the
//! static library, `include/glcmd/glcmd.h`, `lib/pkgconfig/glcmd.pc`), then the README's C
//! example (`tests/c/readme.c`, whose marked part is the README's C block, checked here too) is
//! compiled with nothing but `pkg-config --cflags --libs glcmd`, its dependency on the soname is
//! read back from the executable, and it runs against the installed library alone.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../tests/common/tools.rs"]
mod tools;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The soname `build.rs` gives the library.
fn soname() -> String {
    match env!("CARGO_PKG_VERSION_MAJOR") {
        "0" => format!("libglcmd.so.0.{}", env!("CARGO_PKG_VERSION_MINOR")),
        major => format!("libglcmd.so.{major}"),
    }
}

/// Runs `command`, asserting success; returns stdout.
fn output(command: &mut Command, what: &str) -> String {
    let out = command.output().unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{what} failed ({}):\n{stdout}{}", out.status, String::from_utf8_lossy(&out.stderr));
    stdout
}

/// The README's C block: the text between its ```c fence and the closing fence.
fn readme_c_block() -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find("```c\n").expect("README.md has a ```c block") + "```c\n".len();
    let end = start + readme[start..].find("```\n").expect("the C block ends");
    readme[start..end].to_string()
}

#[test]
fn the_readme_c_block_is_the_compiled_example() {
    let source = std::fs::read_to_string(root().join("capi/tests/c/readme.c")).unwrap();
    let begin = "/* README begin */\n";
    let start = source.find(begin).expect("readme.c marks its README part") + begin.len();
    let end = source.find("/* README end */").expect("readme.c marks its README part's end");
    assert!(
        readme_c_block() == source[start..end],
        "README.md's C block and capi/tests/c/readme.c (between the markers) differ: copy one onto the other"
    );
}

#[test]
fn installs_into_a_prefix_and_a_program_builds_with_pkg_config() {
    if !tools::require(&[(tools::cc().as_str(), "gcc"), ("pkg-config", "pkgconf"), ("readelf", "binutils")]) {
        return;
    }
    let lib_dir = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    let work = lib_dir.parent().unwrap().join("install-test");
    let _ = std::fs::remove_dir_all(&work);
    let prefix = work.join("prefix");
    let script = root().join("capi/install.sh");
    print!("{}", output(Command::new("bash").arg(&script).arg("--lib-dir").arg(&lib_dir).arg(&prefix), "install.sh"));

    let version = env!("CARGO_PKG_VERSION");
    let lib = prefix.join("lib");
    assert!(lib.join(format!("libglcmd.so.{version}")).is_file());
    assert_eq!(std::fs::read_link(lib.join(soname())).unwrap(), Path::new(&format!("libglcmd.so.{version}")));
    assert_eq!(std::fs::read_link(lib.join("libglcmd.so")).unwrap(), Path::new(&soname()));
    assert!(lib.join("libglcmd.a").is_file());
    assert_eq!(
        std::fs::read(prefix.join("include/glcmd/glcmd.h")).unwrap(),
        std::fs::read(root().join("capi/include/glcmd.h")).unwrap()
    );
    let pc = std::fs::read_to_string(lib.join("pkgconfig/glcmd.pc")).unwrap();
    assert!(pc.contains(&format!("prefix={}\n", prefix.display())), "{pc}");
    assert!(pc.contains(&format!("Version: {version}\n")), "{pc}");

    // The library's own soname, as the dynamic linker reads it.
    let dynamic = output(Command::new("readelf").arg("-d").arg(lib.join(soname())), "readelf -d libglcmd");
    assert!(dynamic.contains(&format!("Library soname: [{}]", soname())), "{dynamic}");

    let pkg_config = |args: &[&str]| {
        let mut c = Command::new("pkg-config");
        c.args(args).env("PKG_CONFIG_PATH", lib.join("pkgconfig"));
        output(&mut c, "pkg-config")
    };
    assert_eq!(pkg_config(&["--modversion", "glcmd"]).trim(), version);
    let flags = pkg_config(&["--cflags", "--libs", "glcmd"]);
    assert!(flags.contains(&format!("-I{}", prefix.join("include/glcmd").display())), "{flags}");
    assert!(flags.contains("-lglcmd"), "{flags}");

    let exe = work.join("readme");
    let cc = tools::cc();
    output(
        Command::new(&cc)
            .args(["-std=c99", "-Wall", "-Wextra", "-Werror"])
            .arg(root().join("capi/tests/c/readme.c"))
            .args(flags.split_whitespace())
            .arg("-pthread")
            .arg("-o")
            .arg(&exe),
        &format!("{cc} readme.c $(pkg-config --cflags --libs glcmd)"),
    );
    let needed = output(Command::new("readelf").arg("-d").arg(&exe), "readelf -d readme");
    assert!(needed.contains(&format!("Shared library: [{}]", soname())), "{needed}");

    // Only the prefix on the library path: the program finds the installed library by its soname.
    let stdout = output(Command::new(&exe).env("LD_LIBRARY_PATH", &lib), "the README's C example");
    assert_eq!(stdout, "PIXELS 0 255 0 255 / 64 255 0 255\n");
}
