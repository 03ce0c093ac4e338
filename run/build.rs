//! Generates the preload library's exported GL symbols (`glcmd_codegen::preload_source`) into
//! `$OUT_DIR/exports.rs`, which `src/exports.rs` includes, and links the library against the
//! GL loader libraries it stands in for (see `src/dl.rs`: a program that opens libEGL or libGL
//! with `dlopen` is given this library, and every symbol it does not define must then be found
//! in its dependencies).

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    let inputs = glcmd_codegen::Inputs::bundled();
    println!("cargo:rerun-if-changed={}", inputs.header.display());
    println!("cargo:rerun-if-changed={}", inputs.registry.display());
    println!("cargo:rerun-if-changed=build.rs");
    // libglvnd's sonames, present wherever a GL program runs (no -dev package needed).
    println!("cargo:rustc-cdylib-link-arg=-Wl,--no-as-needed,-l:libEGL.so.1,-l:libGL.so.1,--as-needed");
    match glcmd_codegen::preload_source(&inputs) {
        Ok(source) => {
            let path = out.join("exports.rs");
            if std::fs::read_to_string(&path).ok().as_deref() != Some(source.as_str()) {
                std::fs::write(path, source).expect("write the exported symbols");
            }
        }
        Err(errors) => {
            eprintln!("{errors}");
            std::process::exit(1);
        }
    }
}
