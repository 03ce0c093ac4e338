//! Generates the sweep's calls (one function per safe method) from glcmd-codegen's vendored inputs.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    let inputs = glcmd_codegen::Inputs::bundled();
    println!("cargo:rerun-if-changed={}", inputs.header.display());
    println!("cargo:rerun-if-changed={}", inputs.registry.display());
    match glcmd_codegen::sweep_source(&inputs) {
        Ok(source) => std::fs::write(out.join("sweep_calls.rs"), source).expect("write the sweep"),
        Err(errors) => {
            eprintln!("{errors}");
            std::process::exit(1);
        }
    }
}
