//! Reads `glcorearb.h`, line by line.
//!
//! The Khronos header is machine-generated and regular: every prototype is one `GLAPI` line
//! inside an `#ifdef GL_GLEXT_PROTOTYPES` block, and every block sits inside the
//! `#ifndef GL_FEATURE` / `#define GL_FEATURE 1` pair of its feature (a core version or an
//! extension). So a line-oriented scan is enough and far simpler than a C parser. It keeps:
//!
//! * the prototypes, each with its feature and line;
//! * the `#define GL_NAME value` enumerants;
//! * the GL typedefs (`typedef unsigned int GLenum;`), which give the set of known types.
//!
//! Anything it cannot read (a truncated prototype, an unknown type, a block that never ends, a
//! function declared twice) becomes an [`Error`] with the line and, where known, the function.

use std::collections::HashMap;
use std::path::Path;

use crate::ctype::CType;
use crate::error::{Error, Position};
use crate::lines;

#[derive(Clone, Debug)]
pub struct Header {
    pub prototypes: Vec<Prototype>,
    pub enums: Vec<Define>,
    pub typedefs: Vec<Typedef>,
}

#[derive(Clone, Debug)]
pub struct Prototype {
    pub name: String,
    pub ret: CType,
    pub params: Vec<(CType, String)>,
    /// `GL_VERSION_4_5`, `GL_ARB_bindless_texture`, ...
    pub feature: String,
    pub line: usize,
}

#[derive(Clone, Debug)]
pub struct Define {
    pub name: String,
    pub value: u64,
    pub line: usize,
}

#[derive(Clone, Debug)]
pub struct Typedef {
    pub name: String,
    /// The C text of the definition, e.g. `unsigned int` or `struct __GLsync *`; for function
    /// pointer typedefs, the whole signature.
    pub definition: String,
    pub line: usize,
}

/// C types that are not typedefs of the header but may appear in it.
const C_BUILTINS: &[&str] = &["void", "struct _cl_context", "struct _cl_event"];

/// Reads and parses a header file.
pub fn read(path: &Path) -> Result<Header, Vec<Error>> {
    let text = std::fs::read_to_string(path).map_err(|source| vec![Error::Io { path: path.to_path_buf(), source }])?;
    parse(path, &text)
}

/// Parses header text; `path` is only used in error messages.
pub fn parse(path: &Path, text: &str) -> Result<Header, Vec<Error>> {
    let mut scan = Scan {
        path,
        header: Header { prototypes: Vec::new(), enums: Vec::new(), typedefs: Vec::new() },
        errors: Vec::new(),
        pending_ifndef: None,
        feature: None,
        prototypes_open: None,
        seen: HashMap::new(),
        raw_prototypes: Vec::new(),
    };
    for (index, line) in text.lines().enumerate() {
        scan.line(index + 1, line.trim_end());
    }
    if let Some(open) = scan.prototypes_open {
        scan.error(
            text.lines().count(),
            None,
            format!("file ends inside the #ifdef GL_GLEXT_PROTOTYPES block opened at line {open} (truncated header?)"),
        );
    }
    let Scan { mut header, mut errors, raw_prototypes, .. } = scan;

    // Types are checked once every typedef is known.
    let mut known: Vec<&str> = C_BUILTINS.to_vec();
    known.extend(header.typedefs.iter().map(|t| t.name.as_str()));
    let prototypes: Vec<Prototype> =
        raw_prototypes.into_iter().filter_map(|raw| typed_prototype(path, raw, &known, &mut errors)).collect();
    header.prototypes = prototypes;

    if errors.is_empty() {
        Ok(header)
    } else {
        Err(errors)
    }
}

/// A prototype as the scan read it, before its types are checked: its line, name, return type,
/// parameter list and feature.
struct RawPrototype {
    line: usize,
    name: String,
    ret: String,
    params: String,
    feature: String,
}

/// The state of the line-by-line scan.
struct Scan<'a> {
    path: &'a Path,
    header: Header,
    errors: Vec<Error>,
    /// The `GL_<feature>` of an `#ifndef` on the line before: a `#define GL_<feature> 1` next
    /// opens its block.
    pending_ifndef: Option<String>,
    /// The feature whose `#ifndef` block we are in, and the line that opened it.
    feature: Option<(String, usize)>,
    /// The line that opened the prototype block we are in.
    prototypes_open: Option<usize>,
    /// Where each function was first declared.
    seen: HashMap<String, usize>,
    /// The prototypes, typed once every typedef is known.
    raw_prototypes: Vec<RawPrototype>,
}

impl Scan<'_> {
    fn error(&mut self, line: usize, function: Option<String>, message: String) {
        self.errors.push(Error::Header { at: Position { file: self.path.to_path_buf(), line }, function, message });
    }

    /// Reads line `n`: a feature block's opening, a prototype block's opening or end, an
    /// enumerant, a typedef or a prototype; anything else is skipped.
    fn line(&mut self, n: usize, line: &str) {
        if let Some(feature) = lines::ifndef(line) {
            self.pending_ifndef = Some(feature.to_string());
            return;
        }
        if let Some(feature) = lines::define_feature(line) {
            if self.pending_ifndef.as_deref() == Some(feature) {
                self.feature = Some((feature.to_string(), n));
                self.pending_ifndef = None;
                return;
            }
        }
        self.pending_ifndef = None;
        if line.starts_with("#ifdef GL_GLEXT_PROTOTYPES") {
            if let Some(open) = self.prototypes_open {
                let message = format!("GL_GLEXT_PROTOTYPES block opened inside the one opened at line {open}");
                self.error(n, None, message);
            }
            self.prototypes_open = Some(n);
        } else if line.starts_with("#endif") && self.prototypes_open.is_some() {
            self.prototypes_open = None;
        } else if let Some((name, number)) = lines::define_value(line) {
            match parse_number(number) {
                Some(value) => self.header.enums.push(Define { name: name.to_string(), value, line: n }),
                None => self.error(n, None, format!("value of {name} does not fit in 64 bits")),
            }
        } else if line.starts_with("typedef") && !line.contains("PFNGL") {
            if let Some(name) = lines::typedef_fn(line) {
                self.header.typedefs.push(Typedef { name: name.to_string(), definition: line.to_string(), line: n });
            } else if let Some((definition, name)) = lines::typedef_plain(line) {
                let definition = definition.trim().to_string();
                self.header.typedefs.push(Typedef { name: name.to_string(), definition, line: n });
            }
        } else if line.starts_with("GLAPI") {
            self.prototype(n, line);
        }
    }

    /// Reads a `GLAPI` line: a prototype inside a prototype block and a feature block, declared
    /// once.
    fn prototype(&mut self, n: usize, line: &str) {
        let name = lines::glapi_name(line).map(str::to_string);
        if self.prototypes_open.is_none() {
            self.error(n, name, "prototype outside an #ifdef GL_GLEXT_PROTOTYPES block".into());
            return;
        }
        let Some(glapi) = lines::glapi(line) else {
            self.error(n, name, format!("cannot read this prototype (truncated or malformed): `{line}`"));
            return;
        };
        let name = glapi.name.to_string();
        if let Some(first) = self.seen.insert(name.clone(), n) {
            self.error(n, Some(name), format!("declared twice; first declared at line {first}"));
            return;
        }
        let Some((feature, _)) = &self.feature else {
            self.error(n, Some(name), "prototype outside any #ifndef GL_<feature> block".into());
            return;
        };
        let feature = feature.clone();
        self.raw_prototypes.push(RawPrototype {
            line: n,
            name,
            ret: glapi.ret.to_string(),
            params: glapi.params.to_string(),
            feature,
        });
    }
}

/// A prototype with its return and parameter types read and known (a GL typedef or a C
/// builtin), or `None` after pushing an error for each one that is not.
fn typed_prototype(path: &Path, raw: RawPrototype, known: &[&str], errors: &mut Vec<Error>) -> Option<Prototype> {
    let RawPrototype { line: n, name, ret, params, feature } = raw;
    let mut bad = |message: String| {
        errors.push(Error::Header {
            at: Position { file: path.to_path_buf(), line: n },
            function: Some(name.clone()),
            message,
        })
    };
    let ret = match CType::parse(&ret) {
        Some(t) if known.contains(&t.base.as_str()) => t,
        Some(t) => {
            bad(format!("unknown return type `{}`", t.base));
            return None;
        }
        None => {
            bad(format!("cannot read the return type `{ret}`"));
            return None;
        }
    };
    let mut parsed = Vec::new();
    let mut ok = true;
    if params.trim() != "void" {
        for param in params.split(',') {
            let param = param.trim();
            let Some((ty, pname)) = lines::param(param) else {
                bad(format!("cannot read the parameter `{param}`"));
                ok = false;
                continue;
            };
            match CType::parse(ty) {
                Some(t) if known.contains(&t.base.as_str()) => parsed.push((t, pname.to_string())),
                Some(t) => {
                    bad(format!("parameter `{pname}` has unknown type `{}`", t.base));
                    ok = false;
                }
                None => {
                    bad(format!("cannot read the type of parameter `{param}`"));
                    ok = false;
                }
            }
        }
    }
    ok.then_some(Prototype { name, ret, params: parsed, feature, line: n })
}

fn parse_number(s: &str) -> Option<u64> {
    match s.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "\
typedef unsigned int GLenum;
typedef unsigned int GLuint;
#ifndef GL_VERSION_1_1
#define GL_VERSION_1_1 1
#define GL_TEXTURE_2D 0x0DE1
#ifdef GL_GLEXT_PROTOTYPES
GLAPI void APIENTRY glBindTexture (GLenum target, GLuint texture);
GLAPI void APIENTRY glFlush (void);
#endif
#endif /* GL_VERSION_1_1 */
";

    #[test]
    fn reads_prototypes_with_feature() {
        let h = parse(Path::new("t.h"), SMALL).unwrap();
        assert_eq!(h.prototypes.len(), 2);
        let p = &h.prototypes[0];
        assert_eq!((p.name.as_str(), p.feature.as_str(), p.line), ("glBindTexture", "GL_VERSION_1_1", 7));
        assert_eq!(p.params[1].1, "texture");
        assert!(h.prototypes[1].params.is_empty());
        assert_eq!(h.enums[0].name, "GL_TEXTURE_2D");
        assert_eq!(h.enums[0].value, 0x0DE1);
        assert_eq!(h.typedefs.len(), 2);
    }
}
