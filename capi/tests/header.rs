//! `include/glcmd.h`: generated from the model, `src/types.rs` and `src/api.rs`, committed, and
//! checked here: it is what the generator writes now; it compiles cleanly as C99 and as C++,
//! alone and before or after `glcorearb.h`; and every `GlcmdGL` entry has exactly the type of
//! `glcorearb.h`'s `PFNGL...PROC` for its function (glext.h's for the two gl.xml-only ones) (an incompatible pointer is an error with
//! `-Werror`, and in C++ always).
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
    let inputs = glcmd_codegen::Inputs::bundled();
    let read = |file: &str| std::fs::read_to_string(root().join(file)).unwrap();
    let (types_rs, api_rs) = (read("capi/src/types.rs"), read("capi/src/api.rs"));
    let fresh = glcmd_codegen::c_header(&inputs, &[&types_rs, &api_rs]).unwrap_or_else(|e| panic!("{e}"));
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
    std::fs::copy(root().join("codegen/vendor/glcorearb.h"), dir.join("GL/glcorearb.h")).unwrap();
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

#[path = "../../tests/common/tools.rs"]
mod tools;
use tools::{cc, cxx};

const C99: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-Werror"];
const C99_PEDANTIC: &[&str] = &["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror"];
const CXX: &[&str] = &["-Wall", "-Wextra", "-Werror"];

#[test]
fn header_compiles_as_c99_and_cxx_before_and_after_glcorearb() {
    if !tools::require(&[(cc().as_str(), "gcc"), (cxx().as_str(), "g++")]) {
        return;
    }
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

/// glext.h's (Khronos, 2024) function pointer types of the functions glcmd generates that
/// glcorearb.h lacks, copied as glext.h writes them.
const GLEXT_ONLY: &[(&str, &str)] = &[
    (
        "glClearColorIiEXT",
        "typedef void (APIENTRYP PFNGLCLEARCOLORIIEXTPROC) (GLint red, GLint green, GLint blue, GLint alpha);",
    ),
    (
        "glClearColorIuiEXT",
        "typedef void (APIENTRYP PFNGLCLEARCOLORIUIEXTPROC) (GLuint red, GLuint green, GLuint blue, GLuint alpha);",
    ),
    // GL_OES_EGL_image: gl2ext.h's (and Mesa's gl.h's) typedefs.
    (
        "glEGLImageTargetTexture2DOES",
        "typedef void (APIENTRYP PFNGLEGLIMAGETARGETTEXTURE2DOESPROC) (GLenum target, GLeglImageOES image);",
    ),
    (
        "glEGLImageTargetRenderbufferStorageOES",
        "typedef void (APIENTRYP PFNGLEGLIMAGETARGETRENDERBUFFERSTORAGEOESPROC) (GLenum target, GLeglImageOES image);",
    ),
];

#[test]
fn every_entry_has_the_type_of_glcorearb_h() {
    if !tools::require(&[(cc().as_str(), "gcc"), (cxx().as_str(), "g++")]) {
        return;
    }
    let inputs = glcmd_codegen::Inputs::bundled();
    let api = glcmd_codegen::load(&inputs).unwrap();
    let dir = scratch("signatures");
    let mut source = String::from("#include <GL/glcorearb.h>\n#include \"glcmd.h\"\n");
    // The functions glcmd generates from gl.xml (codegen/src/aliases.rs) are not in
    // glcorearb.h: their types as Khronos' glext.h spells them.
    for name in glcmd_codegen::aliases::REGISTRY_ONLY {
        let typedef = GLEXT_ONLY
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("{name}: add glext.h's PFN...PROC typedef to GLEXT_ONLY"));
        source.push_str(typedef.1);
        source.push('\n');
    }
    source.push_str("void check(const GlcmdGL *t);\nvoid check(const GlcmdGL *t) {\n");
    for f in &api.functions {
        let short = f.short_name();
        source.push_str(&format!("    PFNGL{}PROC p_{short} = t->{short}; (void)p_{short};\n", short.to_uppercase()));
    }
    source.push_str("}\n");
    compile(&dir, &cc(), C99, "signatures.c", &source);
    compile(&dir, &cxx(), CXX, "signatures.cpp", &source);
    println!("{} entries of GlcmdGL have glcorearb.h's types", api.functions.len());
}

/// The caller's contract (issue 16, item 9): the C boundary cannot know how long an array is,
/// so `glcmd.h` says, above every entry point with a pointer argument, what each pointer must
/// hold, by the length rule the Rust method uses. Iterates the model: every pointer argument of
/// every function has its line, and the line names what its rule counts by (the count argument,
/// the constant, the pname, the byte length, the offset, a pointer passed through unread).
#[test]
fn every_pointer_argument_has_its_contract_above_its_entry_point() {
    use glcmd_codegen::model::{Role, Rule};
    let inputs = glcmd_codegen::Inputs::bundled();
    let api = glcmd_codegen::load(&inputs).unwrap_or_else(|e| panic!("{e}"));
    let header = std::fs::read_to_string(header_path()).unwrap();
    let lines: Vec<&str> = header.lines().collect();
    let (mut functions, mut pointers) = (0, 0);
    for f in &api.functions {
        let ptrs: Vec<_> = f.params.iter().filter(|p| p.ty.is_pointer()).collect();
        if ptrs.is_empty() {
            continue;
        }
        let member = format!("(GLCMD_APIENTRY *{})(", f.short_name());
        let at = lines.iter().position(|l| l.contains(&member)).unwrap_or_else(|| panic!("no member for {}", f.name));
        // The comment block right above the member.
        assert_eq!(lines[at - 1].trim(), "*/", "{}: no contract comment above its entry point", f.name);
        let start = (0..at).rev().find(|&i| lines[i].trim() == "/*").expect("the comment's start");
        let block = &lines[start..at];
        assert!(block.iter().any(|l| l.contains(&f.name) && l.contains("contract")), "{}: {block:#?}", f.name);
        let unsupported = lines[at].contains("unsupported */");
        for p in ptrs {
            let key = format!("`{}`:", p.name);
            let line = block
                .iter()
                .find(|l| l.trim_start().trim_start_matches('*').trim_start().starts_with(&key))
                .unwrap_or_else(|| panic!("{}: no contract line for `{}`", f.name, p.name));
            if unsupported {
                assert!(line.contains("unsupported"), "{}: {line}", f.name);
                continue;
            }
            let must: Vec<String> = match &p.role {
                Role::In(Rule::Param(x)) | Role::Out(Rule::Param(x)) => vec![format!("`{x}`")],
                Role::In(Rule::Const(n)) | Role::Out(Rule::Const(n)) => vec![n.to_string()],
                Role::In(Rule::Product(x, k)) | Role::Out(Rule::Product(x, k)) => {
                    vec![format!("`{x}`"), k.to_string()]
                }
                Role::In(Rule::Quotient(x, d)) | Role::Out(Rule::Quotient(x, d)) => {
                    vec![format!("`{x}`"), d.to_string()]
                }
                Role::In(Rule::Pname { param, .. }) | Role::Out(Rule::Pname { param, .. }) => {
                    vec![format!("`{param}`")]
                }
                Role::In(Rule::Strings(count)) => vec![format!("`{count}`"), "NUL".into()],
                Role::In(Rule::String) => vec!["NUL".into()],
                Role::Offset => vec!["offset".into()],
                Role::Opaque => vec!["never reads".into()],
                Role::OutLength { .. } => vec!["room for one".into()],
                _ => vec![],
            };
            for m in must {
                assert!(line.contains(&m), "{}: the contract of `{}` does not name {m}: {line}", f.name, p.name);
            }
            if p.nullable && matches!(p.role, Role::In(_)) {
                assert!(
                    line.contains("NULL"),
                    "{}: `{}` may be NULL, and its contract says so: {line}",
                    f.name,
                    p.name
                );
            }
            pointers += 1;
        }
        functions += 1;
    }
    eprintln!("{functions} entry points with pointer arguments, {pointers} contract lines checked");
    assert!(functions > 500, "{functions}");
}
