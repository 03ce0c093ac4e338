//! Typed generator errors.
//!
//! The generator never panics on bad input. Every stage collects the problems it finds into a
//! list of [`Error`] values and carries on, so one run reports everything at once. Each error
//! names the file, the line (for gl.xml also the element) and, where there is one, the GL
//! function, so `build.rs` can print a build failure a person can act on.

use std::fmt;
use std::path::PathBuf;

/// A place in an input file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub file: PathBuf,
    /// 1-based line.
    pub line: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file.display(), self.line)
    }
}

/// One problem found in the inputs.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: cannot read: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },

    #[error("{at}: {}{message}", fn_prefix(function))]
    Header { at: Position, function: Option<String>, message: String },

    #[error("{at}: <{element}> {}{message}", fn_prefix(function))]
    Registry { at: Position, element: String, function: Option<String>, message: String },

    #[error("{header} and {registry}: {function}: {message}")]
    Mismatch { header: Position, registry: Position, function: String, message: String },

    #[error("{at}: {function}: {message}")]
    Classify { at: Position, function: String, message: String },
}

fn fn_prefix(function: &Option<String>) -> String {
    function.as_ref().map(|f| format!("{f}: ")).unwrap_or_default()
}

/// Every error of one generator run, in input order.
#[derive(Debug)]
pub struct Errors(pub Vec<Error>);

impl fmt::Display for Errors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        writeln!(f, "glcmd-codegen found {n} error{}:", if n == 1 { "" } else { "s" })?;
        for e in &self.0 {
            writeln!(f, "  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Errors {}

impl From<Error> for Errors {
    fn from(e: Error) -> Self {
        Errors(vec![e])
    }
}
