//! Generates the C entry points (one per GL function) from glcmd's vendored inputs into
//! `$OUT_DIR/glcmd_capi_entry.rs`, which `src/generated.rs` includes. The C header is generated
//! from the same model, but committed (`include/glcmd.h`; `tests/header.rs` checks it is fresh).

use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("..");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    let inputs = glcmd_codegen::Inputs::vendored(&root);
    println!("cargo:rerun-if-changed=../vendor/glcorearb.h");
    println!("cargo:rerun-if-changed=../vendor/gl.xml");
    println!("cargo:rerun-if-changed=build.rs");
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
