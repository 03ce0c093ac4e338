//! Generates glcmd's GL bindings from `vendor/` into `$OUT_DIR` with glcmd-codegen.
//! Generator errors (file, line, function) become a readable build failure.

use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let inputs = glcmd_codegen::Inputs::vendored(&root);
    println!("cargo:rerun-if-changed=vendor/glcorearb.h");
    println!("cargo:rerun-if-changed=vendor/gl.xml");
    println!("cargo:rerun-if-changed=build.rs");
    if let Err(errors) = glcmd_codegen::write(&inputs, &out) {
        for e in &errors.0 {
            println!("cargo:warning={e}");
        }
        eprintln!("{errors}");
        std::process::exit(1);
    }
}
