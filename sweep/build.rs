//! Generates the sweep's calls (one function per safe method) from glcmd's vendored inputs.

use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("..");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    let inputs = glcmd_codegen::Inputs::vendored(&root);
    println!("cargo:rerun-if-changed=../vendor/glcorearb.h");
    println!("cargo:rerun-if-changed=../vendor/gl.xml");
    match glcmd_codegen::sweep_source(&inputs) {
        Ok(source) => std::fs::write(out.join("sweep_calls.rs"), source).expect("write the sweep"),
        Err(errors) => {
            eprintln!("{errors}");
            std::process::exit(1);
        }
    }
}
