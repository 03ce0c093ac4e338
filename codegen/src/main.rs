//! `glcmd-codegen`: the thin CLI over the library.
//!
//! ```text
//! glcmd-codegen list  [--header H] [--registry X]      one row per function (TSV)
//! glcmd-codegen stats [--header H] [--registry X]      counts per kind and length rule
//! glcmd-codegen emit DIR [--header H] [--registry X]   writes the generated Rust into DIR
//! glcmd-codegen header [FILE]                          writes glcmd.h (default capi/include/glcmd.h)
//! ```
//! The inputs default to this crate's `vendor/` (`Inputs::bundled`).

use std::path::PathBuf;
use std::process::ExitCode;

use glcmd_codegen::{list_table, load, stats, write, Inputs};

/// Writes to stdout; a closed pipe (`| head`) is not an error.
fn output(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("glcmd-codegen: cannot write the output: {e}");
            std::process::exit(1);
        }
    }
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(command) = args.next() else {
        eprintln!("usage: glcmd-codegen list|stats|emit DIR [--header PATH] [--registry PATH]");
        return ExitCode::from(2);
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("codegen/ is inside the checkout")
        .to_path_buf();
    let mut inputs = Inputs::bundled();
    let mut positional = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--header" => inputs.header = args.next().map(PathBuf::from).unwrap_or_default(),
            "--registry" => inputs.registry = args.next().map(PathBuf::from).unwrap_or_default(),
            _ => positional.push(a),
        }
    }
    let result = match command.as_str() {
        "list" => load(&inputs).map(|api| output(&list_table(&api))),
        "stats" => load(&inputs).map(|api| output(&stats(&api))),
        "emit" => {
            let Some(dir) = positional.first() else {
                eprintln!("usage: glcmd-codegen emit DIR");
                return ExitCode::from(2);
            };
            if let Err(e) = std::fs::create_dir_all(dir) {
                eprintln!("{dir}: {e}");
                return ExitCode::FAILURE;
            }
            write(&inputs, &PathBuf::from(dir))
        }
        #[cfg(all(feature = "pretty", feature = "capi"))]
        "header" => {
            let path = positional.first().map(PathBuf::from).unwrap_or_else(|| root.join("capi/include/glcmd.h"));
            let read = |file: &str| {
                let path = root.join(file);
                std::fs::read_to_string(&path)
                    .map_err(|source| glcmd_codegen::Errors(vec![glcmd_codegen::Error::Io { path, source }]))
            };
            read("capi/src/types.rs").and_then(|types| {
                let api = read("capi/src/api.rs")?;
                let h = glcmd_codegen::c_header(&inputs, &[&types, &api])?;
                std::fs::write(&path, h).map_err(|source| {
                    glcmd_codegen::Errors(vec![glcmd_codegen::Error::Io { path: path.clone(), source }])
                })
            })
        }
        other => {
            eprintln!("unknown command `{other}`; expected list, stats, emit or header");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(errors) => {
            eprint!("{errors}");
            ExitCode::FAILURE
        }
    }
}
