//! Generates glcmd's GL bindings from glcmd-codegen's vendored inputs (`Inputs::bundled`) into
//! `$OUT_DIR`, for a build with the cargo feature `ext`, `vendor` or `checking`. Generator
//! errors (file, line, function) become a readable build failure.
//!
//! With the default features there is nothing to do: the library includes the committed
//! `generated/` (the generator's output for core GL, ARB and KHR, kept fresh by
//! `codegen/tests/generated_fresh.rs`), and glcmd-codegen, an optional build dependency, is not
//! even compiled. A dependent's build then costs what glcmd's own code costs (BENCHMARKS.md,
//! "Build cost"). The features select what is generated (see `glcmd_codegen::Selection`): a crate
//! that needs only core GL, ARB and KHR compiles 59 % of the functions.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    #[cfg(any(feature = "ext", feature = "vendor", feature = "checking"))]
    generate();
}

#[cfg(any(feature = "ext", feature = "vendor", feature = "checking"))]
fn generate() {
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let inputs = glcmd_codegen::Inputs::bundled();
    println!("cargo:rerun-if-changed={}", inputs.header.display());
    println!("cargo:rerun-if-changed={}", inputs.registry.display());
    let selection = glcmd_codegen::Selection::default()
        .ext(cfg!(feature = "ext"))
        .vendor(cfg!(feature = "vendor"))
        .checking(cfg!(feature = "checking"));
    if let Err(errors) = glcmd_codegen::write_selected(&inputs, &out, &selection) {
        for e in &errors.0 {
            println!("cargo:warning={e}");
        }
        eprintln!("{errors}");
        std::process::exit(1);
    }
}
