//! Generates glcmd's GL bindings from `vendor/` into `$OUT_DIR` with glcmd-codegen.
//! Generator errors (file, line, function) become a readable build failure.
//!
//! The cargo features `ext`, `vendor` and `checking` select what is generated (see
//! `glcmd_codegen::Selection`): a crate that needs only core GL, ARB and KHR compiles 59 % of
//! the functions.

use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let inputs = glcmd_codegen::Inputs::vendored(&root);
    println!("cargo:rerun-if-changed=vendor/glcorearb.h");
    println!("cargo:rerun-if-changed=vendor/gl.xml");
    println!("cargo:rerun-if-changed=build.rs");
    let feature = |name: &str| std::env::var_os(format!("CARGO_FEATURE_{name}")).is_some();
    let selection =
        glcmd_codegen::Selection { ext: feature("EXT"), vendor: feature("VENDOR"), checking: feature("CHECKING") };
    if let Err(errors) = glcmd_codegen::write_selected(&inputs, &out, &selection) {
        for e in &errors.0 {
            println!("cargo:warning={e}");
        }
        eprintln!("{errors}");
        std::process::exit(1);
    }
}
