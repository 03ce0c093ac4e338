//! `include/glcmd.h`: generated from the model and `src/api.rs`, committed, and checked here:
//! it is what the generator writes now; it compiles cleanly as C99 and as C++, alone and before
//! or after `glcorearb.h`; and every `GlcmdGL` entry has exactly the type of `glcorearb.h`'s
//! `PFNGL...PROC` for its function (an incompatible pointer is an error with `-Werror`, and in
//! C++ always).
//!
//! `GLCMD_BLESS=1 cargo test -p glcmd-capi --test header` rewrites the header (as does
//! `cargo run -p glcmd-codegen -- header`).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn header_path() -> PathBuf {
    root().join("capi/include/glcmd.h")
}

#[test]
fn header_is_fresh() {
    let inputs = glcmd_codegen::Inputs::vendored(&root());
    let api_rs = std::fs::read_to_string(root().join("capi/src/api.rs")).unwrap();
    let fresh = glcmd_codegen::c_header(&inputs, &api_rs).unwrap_or_else(|e| panic!("{e}"));
    let committed = std::fs::read_to_string(header_path()).unwrap_or_default();
    if std::env::var_os("GLCMD_BLESS").is_some() {
        std::fs::write(header_path(), &fresh).unwrap();
        return;
    }
    assert!(
        committed == fresh,
        "capi/include/glcmd.h is stale: run `cargo run -p glcmd-codegen -- header` (or GLCMD_BLESS=1 cargo test -p \
         glcmd-capi --test header)"
    );
}

/// A scratch directory with `GL/glcorearb.h` (the vendored copy glcmd is generated from).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::current_exe().unwrap().parent().unwrap().parent().unwrap().join("c-tests").join(name);
    std::fs::create_dir_all(dir.join("GL")).unwrap();
    std::fs::copy(root().join("vendor/glcorearb.h"), dir.join("GL/glcorearb.h")).unwrap();
    dir
}

/// Compiles `source` (no linking) with `compiler` and `flags`; panics with the diagnostics.
fn compile(dir: &Path, compiler: &str, flags: &[&str], name: &str, source: &str) {
    let file = dir.join(name);
    std::fs::write(&file, source).unwrap();
    let output = Command::new(compiler)
        .args(flags)
        .arg(format!("-I{}", dir.display()))
        .arg(format!("-I{}", root().join("capi/include").display()))
        .arg("-c")
        .arg(&file)
        .arg("-o")
        .arg(file.with_extension("o"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run `{compiler}` (install gcc and g++, or set CC and CXX): {e}"));
    assert!(
        output.status.success(),
        "{compiler} {} {name} failed:\n{}{}",
        flags.join(" "),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn cc() -> String {
    std::env::var("CC").unwrap_or_else(|_| "cc".into())
}

fn cxx() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "c++".into())
}

const C99: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-Werror"];
const C99_PEDANTIC: &[&str] = &["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror"];
const CXX: &[&str] = &["-Wall", "-Wextra", "-Werror"];

#[test]
fn header_compiles_as_c99_and_cxx_before_and_after_glcorearb() {
    let dir = scratch("header_orders");
    let uses = "int main(void) { GlcmdGL table; GlcmdReport report; (void)report; \
                return glcmdLoadGL(&table) == GLCMD_OK && glcmdFunctionCount() == GLCMD_FUNCTION_COUNT ? 0 : 1; }\n";
    let alone = format!("#include \"glcmd.h\"\n{uses}");
    let after = format!("#include <GL/glcorearb.h>\n#include \"glcmd.h\"\nPFNGLBINDTEXTUREPROC p;\n{uses}");
    let before = format!("#include \"glcmd.h\"\n#include <GL/glcorearb.h>\nPFNGLBINDTEXTUREPROC p;\n{uses}");
    for (name, source) in [("alone", &alone), ("after", &after), ("before", &before)] {
        compile(&dir, &cc(), C99, &format!("{name}.c"), source);
        compile(&dir, &cxx(), CXX, &format!("{name}.cpp"), source);
    }
    // Strict ISO C99 where the header does not need to repeat glcorearb.h's typedefs.
    compile(&dir, &cc(), C99_PEDANTIC, "alone_pedantic.c", &alone);
    compile(&dir, &cc(), C99_PEDANTIC, "after_pedantic.c", &after);
    // The macro block (GLEW-style use): every glX name goes through `glcmd_gl`.
    let macros = "#include <GL/glcorearb.h>\n#define GLCMD_GL_MACROS\n#include \"glcmd.h\"\nGlcmdGL glcmd_gl;\n\
                  void draw(void) { glBindTexture(GL_TEXTURE_2D, 1); glDrawArrays(GL_TRIANGLES, 0, 3); }\n";
    compile(&dir, &cc(), C99, "macros.c", macros);
    compile(&dir, &cxx(), CXX, "macros.cpp", macros);
}

#[test]
fn every_entry_has_the_type_of_glcorearb_h() {
    let inputs = glcmd_codegen::Inputs::vendored(&root());
    let api = glcmd_codegen::load(&inputs).unwrap();
    let dir = scratch("signatures");
    let mut source = String::from("#include <GL/glcorearb.h>\n#include \"glcmd.h\"\nvoid check(const GlcmdGL *t);\nvoid check(const GlcmdGL *t) {\n");
    for f in &api.functions {
        let short = f.short_name();
        source.push_str(&format!("    PFNGL{}PROC p_{short} = t->{short}; (void)p_{short};\n", short.to_uppercase()));
    }
    source.push_str("}\n");
    compile(&dir, &cc(), C99, "signatures.c", &source);
    compile(&dir, &cxx(), CXX, "signatures.cpp", &source);
    println!("{} entries of GlcmdGL have glcorearb.h's types", api.functions.len());
}
