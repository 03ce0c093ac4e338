//! glcmd-capi as C users take it: `install.sh` installs this build's library into a temporary
//! prefix (the shared library under its version with the soname and `libglcmd.so` as links, the
//! static library, `include/glcmd/glcmd.h`, `lib/pkgconfig/glcmd.pc`), then the README's C
//! example (`tests/c/readme.c`, whose marked part is the README's C block, checked here too) is
//! compiled with nothing but `pkg-config --cflags --libs glcmd`, its dependency on the soname is
//! read back from the executable, and it runs against the installed library alone.
//!
//! And from a checkout, without installing: the README's lines for the build tree
//! (`capi/dev-env.sh` makes the soname link and a `glcmd.pc` in `target/<profile>/` and prints
//! the environment) are run as they stand, and the same program runs against the build tree's
//! library; without that environment the loader does not find it.

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

/// The README's lines for a checkout: the ```sh block that runs `capi/dev-env.sh`.
fn readme_dev_env_block() -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let fence = "```sh\ncargo build -p glcmd-capi && eval";
    let start = readme.find(fence).expect("README.md has the build tree's ```sh block") + "```sh\n".len();
    let end = start + readme[start..].find("```\n").expect("the block ends");
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

#[test]
fn the_build_tree_runs_the_readme_program_as_the_readme_says() {
    if !tools::require(&[("cc", "gcc"), ("pkg-config", "pkgconf"), ("readelf", "binutils"), ("bash", "bash")]) {
        return;
    }
    let block = readme_dev_env_block();
    let lines: Vec<&str> = block.lines().collect();
    let first = lines[0].strip_prefix("cargo build -p glcmd-capi && ").expect("the block starts with the build");
    assert_eq!(first, r#"eval "$(capi/dev-env.sh)""#, "the README's first line changed: update this test");
    assert_eq!(lines.len(), 2, "the README's block: {block}");
    // `cargo build` is this test's own build, which left the library in target/<profile>/deps
    // (cargo test does not copy a cdylib up to target/<profile>/, and a cargo started here would
    // wait for the lock cargo test holds). So the build tree is a target directory of this test's
    // whose debug/libglcmd_capi.so is that library, named by CARGO_TARGET_DIR, which the script
    // honours (it asks `cargo metadata`, which takes no lock). The rest runs as written, from a directory holding readme.c, with the script's
    // path made absolute.
    let deps = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    let work = deps.parent().unwrap().join("dev-env-test");
    let _ = std::fs::remove_dir_all(&work);
    let target = work.join("target");
    let profile = target.join("debug");
    std::fs::create_dir_all(&profile).unwrap();
    std::os::unix::fs::symlink(deps.join("libglcmd_capi.so"), profile.join("libglcmd_capi.so")).unwrap();
    std::fs::copy(root().join("capi/tests/c/readme.c"), work.join("readme.c")).unwrap();
    let script = root().join("capi/dev-env.sh");
    let commands =
        format!("set -e\n{}\n{}\n", first.replace("capi/dev-env.sh", &script.display().to_string()), lines[1]);
    let stdout = output(
        Command::new("bash")
            .arg("-c")
            .arg(&commands)
            .current_dir(&work)
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("LD_LIBRARY_PATH")
            .env_remove("PKG_CONFIG_PATH"),
        &format!("the README's lines:\n{commands}"),
    );
    assert_eq!(stdout, "PIXELS 0 255 0 255 / 64 255 0 255\n");

    // What the script made, beside cargo's file.
    assert_eq!(std::fs::read_link(profile.join(soname())).unwrap(), Path::new("libglcmd_capi.so"));
    assert_eq!(std::fs::read_link(profile.join("libglcmd.so")).unwrap(), Path::new(&soname()));
    let pc = std::fs::read_to_string(profile.join("pkgconfig/glcmd.pc")).unwrap();
    assert!(pc.contains(&format!("libdir={}\n", profile.display())), "{pc}");
    assert!(pc.contains(&format!("includedir={}\n", root().join("capi/include").display())), "{pc}");
    assert!(pc.contains("Cflags: -I${includedir}\n"), "{pc}");
    assert!(pc.contains(&format!("Version: {}\n", env!("CARGO_PKG_VERSION"))), "{pc}");
    // The program asks for the soname, and without the printed environment the loader finds no
    // library of that name: the case the script exists for.
    let exe = work.join("readme");
    let needed = output(Command::new("readelf").arg("-d").arg(&exe), "readelf -d readme");
    assert!(needed.contains(&format!("Shared library: [{}]", soname())), "{needed}");
    let bare = Command::new(&exe).env_remove("LD_LIBRARY_PATH").output().unwrap();
    assert!(!bare.status.success(), "readme ran without LD_LIBRARY_PATH");
    let stderr = String::from_utf8_lossy(&bare.stderr);
    assert!(stderr.contains(&soname()) && stderr.contains("cannot open shared object"), "{stderr}");

    // Again, with the links there and a library path already set: prepended to it.
    let again = output(
        Command::new("bash")
            .arg("-c")
            .arg(format!("eval \"$({})\"; printf %s \"$LD_LIBRARY_PATH\"", script.display()))
            .env("CARGO_TARGET_DIR", &target)
            .env("LD_LIBRARY_PATH", "/nowhere"),
        "dev-env.sh, twice",
    );
    assert_eq!(again, format!("{}:/nowhere", profile.display()));
    // A target directory set in a cargo config (`build.target-dir`, here in its environment form)
    // rather than by CARGO_TARGET_DIR: the script asks cargo where it builds, so it is found too.
    let configured = output(
        Command::new("bash")
            .arg("-c")
            .arg(format!("eval \"$({})\"; printf %s \"$LD_LIBRARY_PATH\"", script.display()))
            .env_remove("CARGO_TARGET_DIR")
            .env("CARGO_BUILD_TARGET_DIR", &target)
            .env_remove("LD_LIBRARY_PATH"),
        "dev-env.sh with build.target-dir",
    );
    assert_eq!(configured, profile.display().to_string());
    // Before a build: it says what to run, and fails.
    let unbuilt = Command::new("bash").arg(&script).arg("--release").env("CARGO_TARGET_DIR", &target).output().unwrap();
    assert!(!unbuilt.status.success() && unbuilt.stdout.is_empty());
    let message = String::from_utf8_lossy(&unbuilt.stderr);
    assert!(message.contains("run `cargo build --release -p glcmd-capi` first"), "{message}");
}
