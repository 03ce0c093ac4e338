//! Generates glcmd's GL bindings from glcmd-codegen's vendored inputs (`Inputs::bundled`) into
//! `$OUT_DIR`.
//! Generator errors (file, line, function) become a readable build failure.
//!
//! The cargo features `ext`, `vendor` and `checking` select what is generated (see
//! `glcmd_codegen::Selection`): a crate that needs only core GL, ARB and KHR compiles 59 % of
//! the functions.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let inputs = glcmd_codegen::Inputs::bundled();
    println!("cargo:rerun-if-changed={}", inputs.header.display());
    println!("cargo:rerun-if-changed={}", inputs.registry.display());
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
