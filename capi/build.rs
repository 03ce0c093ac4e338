//! Generates the C entry points (one per GL function) from glcmd-codegen's vendored inputs into
//! `$OUT_DIR/glcmd_capi_entry.rs`, which `src/generated.rs` includes. The C header is generated
//! from the same model, but committed (`include/glcmd.h`; `tests/header.rs` checks it is fresh).
//!
//! It also gives the shared library the soname C programs link against, `libglcmd.so.0.<minor>`
//! (`libglcmd.so.<major>` from 1.0 on: cargo-c's rule, one soname per semver-incompatible
//! version). Cargo names the file `libglcmd_capi.so`; `install.sh` installs it as
//! `libglcmd.so.<version>` with the soname and `libglcmd.so` as links, beside `glcmd.pc`.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    let inputs = glcmd_codegen::Inputs::bundled();
    println!("cargo:rerun-if-changed={}", inputs.header.display());
    println!("cargo:rerun-if-changed={}", inputs.registry.display());
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{}", soname());
    }
    match glcmd_codegen::capi_source(&inputs) {
        Ok(source) => {
            let path = out.join("glcmd_capi_entry.rs");
            if std::fs::read_to_string(&path).ok().as_deref() != Some(source.as_str()) {
                std::fs::write(path, source).expect("write the entry points");
            }
        }
        Err(errors) => {
            for e in &errors.0 {
                println!("cargo:warning={e}");
            }
            eprintln!("{errors}");
            std::process::exit(1);
        }
    }
}

/// `libglcmd.so.0.<minor>` before 1.0, `libglcmd.so.<major>` after (`install.sh` computes the same).
fn soname() -> String {
    let var = |name: &str| std::env::var(name).expect("cargo sets the package version");
    match var("CARGO_PKG_VERSION_MAJOR").as_str() {
        "0" => format!("libglcmd.so.0.{}", var("CARGO_PKG_VERSION_MINOR")),
        major => format!("libglcmd.so.{major}"),
    }
}
