//! Reads `glcorearb.h` with regular expressions.
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
use std::sync::OnceLock;

use regex::Regex;

use crate::ctype::CType;
use crate::error::{Error, Position};

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

struct Patterns {
    ifndef: Regex,
    define_feature: Regex,
    define_value: Regex,
    glapi: Regex,
    glapi_name: Regex,
    param: Regex,
    typedef_plain: Regex,
    typedef_fn: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        ifndef: Regex::new(r"^#ifndef[ \t\r]+(GL_[A-Za-z0-9_]+)[ \t\r]*$").unwrap(),
        define_feature: Regex::new(r"^#define[ \t\r]+(GL_[A-Za-z0-9_]+)[ \t\r]+1[ \t\r]*$").unwrap(),
        define_value: Regex::new(
            r"^#define[ \t\r]+(GL_[A-Za-z0-9_]+)[ \t\r]+(0x[0-9A-Fa-f]+|[0-9]+)(u|ull|U|ULL)?[ \t\r]*$",
        )
        .unwrap(),
        glapi: Regex::new(
            r"^GLAPI[ \t\r]+(.+?)[ \t\r]*APIENTRY[ \t\r]+(gl[A-Za-z0-9_]+)[ \t\r]*\((.*)\)[ \t\r]*;[ \t\r]*$",
        )
        .unwrap(),
        glapi_name: Regex::new(r"APIENTRY[ \t\r]+(gl[A-Za-z0-9_]+)").unwrap(),
        param: Regex::new(r"^(.*?)(?-u:\b)([A-Za-z0-9_]+)[ \t\r]*$").unwrap(),
        typedef_plain: Regex::new(r"^typedef[ \t\r]+([^()]+?)[ \t\r]*(?-u:\b)(GL[A-Za-z0-9_]+)[ \t\r]*;[ \t\r]*$")
            .unwrap(),
        typedef_fn: Regex::new(r"^typedef[ \t\r]+.*\([ \t\r]*APIENTRY[ \t\r]*\*[ \t\r]*(GL[A-Za-z0-9_]+)[ \t\r]*\)")
            .unwrap(),
    })
}

/// Reads and parses a header file.
pub fn read(path: &Path) -> Result<Header, Vec<Error>> {
    let text = std::fs::read_to_string(path).map_err(|source| vec![Error::Io { path: path.to_path_buf(), source }])?;
    parse(path, &text)
}

/// Parses header text; `path` is only used in error messages.
pub fn parse(path: &Path, text: &str) -> Result<Header, Vec<Error>> {
    let p = patterns();
    let at = |line: usize| Position { file: path.to_path_buf(), line };
    let mut errors = Vec::new();
    let mut header = Header { prototypes: Vec::new(), enums: Vec::new(), typedefs: Vec::new() };

    // The feature whose `#ifndef` block we are in, and the line that opened the prototype block.
    let mut pending_ifndef: Option<String> = None;
    let mut feature: Option<(String, usize)> = None;
    let mut prototypes_open: Option<usize> = None;
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut raw_prototypes = Vec::new();

    for (index, line) in text.lines().enumerate() {
        let n = index + 1;
        let line = line.trim_end();
        // The `starts_with` guards keep most lines away from the regexes, which run without
        // regex's optimised engines (see codegen/Cargo.toml) in a dependent's debug build.
        let define = line.starts_with("#define");
        if let Some(c) = line.starts_with("#ifndef").then(|| p.ifndef.captures(line)).flatten() {
            pending_ifndef = Some(c[1].to_string());
            continue;
        }
        if let Some(c) = define.then(|| p.define_feature.captures(line)).flatten() {
            if pending_ifndef.as_deref() == Some(&c[1]) {
                feature = Some((c[1].to_string(), n));
                pending_ifndef = None;
                continue;
            }
        }
        pending_ifndef = None;
        if line.starts_with("#ifdef GL_GLEXT_PROTOTYPES") {
            if let Some(open) = prototypes_open {
                errors.push(Error::Header {
                    at: at(n),
                    function: None,
                    message: format!("GL_GLEXT_PROTOTYPES block opened inside the one opened at line {open}"),
                });
            }
            prototypes_open = Some(n);
            continue;
        }
        if line.starts_with("#endif") && prototypes_open.is_some() {
            prototypes_open = None;
            continue;
        }
        if let Some(c) = define.then(|| p.define_value.captures(line)).flatten() {
            match parse_number(&c[2]) {
                Some(value) => header.enums.push(Define { name: c[1].to_string(), value, line: n }),
                None => errors.push(Error::Header {
                    at: at(n),
                    function: None,
                    message: format!("value of {} does not fit in 64 bits", &c[1]),
                }),
            }
            continue;
        }
        if line.starts_with("typedef") && !line.contains("PFNGL") {
            if let Some(c) = p.typedef_fn.captures(line) {
                header.typedefs.push(Typedef { name: c[1].to_string(), definition: line.to_string(), line: n });
            } else if let Some(c) = p.typedef_plain.captures(line) {
                header.typedefs.push(Typedef { name: c[2].to_string(), definition: c[1].trim().to_string(), line: n });
            }
            continue;
        }
        if line.starts_with("GLAPI") {
            let name = p.glapi_name.captures(line).map(|c| c[1].to_string());
            if prototypes_open.is_none() {
                errors.push(Error::Header {
                    at: at(n),
                    function: name,
                    message: "prototype outside an #ifdef GL_GLEXT_PROTOTYPES block".into(),
                });
                continue;
            }
            let Some(c) = p.glapi.captures(line) else {
                errors.push(Error::Header {
                    at: at(n),
                    function: name,
                    message: format!("cannot read this prototype (truncated or malformed): `{line}`"),
                });
                continue;
            };
            let name = c[2].to_string();
            if let Some(first) = seen.insert(name.clone(), n) {
                errors.push(Error::Header {
                    at: at(n),
                    function: Some(name.clone()),
                    message: format!("declared twice; first declared at line {first}"),
                });
                continue;
            }
            let Some((feature_name, _)) = &feature else {
                errors.push(Error::Header {
                    at: at(n),
                    function: Some(name),
                    message: "prototype outside any #ifndef GL_<feature> block".into(),
                });
                continue;
            };
            raw_prototypes.push((n, name, c[1].to_string(), c[3].to_string(), feature_name.clone()));
        }
    }
    if let Some(open) = prototypes_open {
        errors.push(Error::Header {
            at: at(text.lines().count()),
            function: None,
            message: format!(
                "file ends inside the #ifdef GL_GLEXT_PROTOTYPES block opened at line {open} (truncated header?)"
            ),
        });
    }

    // Types are checked once every typedef is known.
    let mut known: Vec<&str> = C_BUILTINS.to_vec();
    known.extend(header.typedefs.iter().map(|t| t.name.as_str()));
    for (n, name, ret, params, feature) in raw_prototypes {
        let mut bad = |message: String| errors.push(Error::Header { at: at(n), function: Some(name.clone()), message });
        let ret = match CType::parse(&ret) {
            Some(t) if known.contains(&t.base.as_str()) => t,
            Some(t) => {
                bad(format!("unknown return type `{}`", t.base));
                continue;
            }
            None => {
                bad(format!("cannot read the return type `{ret}`"));
                continue;
            }
        };
        let mut parsed = Vec::new();
        let mut ok = true;
        if params.trim() != "void" {
            for param in params.split(',') {
                let param = param.trim();
                let Some(pc) = p.param.captures(param) else {
                    bad(format!("cannot read the parameter `{param}`"));
                    ok = false;
                    continue;
                };
                match CType::parse(&pc[1]) {
                    Some(t) if known.contains(&t.base.as_str()) => parsed.push((t, pc[2].to_string())),
                    Some(t) => {
                        bad(format!("parameter `{}` has unknown type `{}`", &pc[2], t.base));
                        ok = false;
                    }
                    None => {
                        bad(format!("cannot read the type of parameter `{param}`"));
                        ok = false;
                    }
                }
            }
        }
        if ok {
            header.prototypes.push(Prototype { name, ret, params: parsed, feature, line: n });
        }
    }

    if errors.is_empty() {
        Ok(header)
    } else {
        Err(errors)
    }
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
