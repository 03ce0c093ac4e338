//! C types as the header and gl.xml spell them, normalised so the two can be compared, and
//! their Rust spelling.
//!
//! A type is a base (`GLuint`, `void`, `struct _cl_context`), whether the base is `const`, and
//! a stack of pointers, innermost first, each of which may itself be `const`
//! (`const void *const*` is base `void`, const, pointers `[const, mutable]`).

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CType {
    pub base: String,
    pub base_const: bool,
    /// One entry per `*`, innermost first; `true` when that pointer is itself `const`.
    pub pointers: Vec<bool>,
}

impl CType {
    /// Parses a declaration without its parameter name, e.g. `const GLchar *const*`.
    /// Returns `None` when the text holds no base type or something that is not a type.
    pub fn parse(text: &str) -> Option<CType> {
        let mut base: Option<String> = None;
        let mut base_const = false;
        let mut pointers = Vec::new();
        let spaced = text.replace('*', " * ");
        let mut words = spaced.split_whitespace().peekable();
        while let Some(w) = words.next() {
            match w {
                "*" => pointers.push(false),
                "const" if pointers.is_empty() => base_const = true,
                "const" => *pointers.last_mut()? = true,
                "struct" => {
                    let tag = words.next()?;
                    if base.replace(format!("struct {tag}")).is_some() {
                        return None;
                    }
                }
                w if is_identifier(w) && pointers.is_empty() => {
                    if base.replace(w.to_string()).is_some() {
                        return None;
                    }
                }
                _ => return None,
            }
        }
        Some(CType { base: base?, base_const, pointers })
    }

    pub fn is_void(&self) -> bool {
        self.base == "void" && self.pointers.is_empty()
    }

    pub fn is_pointer(&self) -> bool {
        !self.pointers.is_empty()
    }

    /// The type one pointer level down (`const GLuint *` gives `const GLuint`).
    pub fn pointee(&self) -> CType {
        let mut t = self.clone();
        t.pointers.pop();
        t
    }

    /// Whether the outermost pointer points to const data.
    pub fn points_to_const(&self) -> bool {
        match self.pointers.len() {
            0 => false,
            1 => self.base_const,
            n => self.pointers[n - 2],
        }
    }

    /// The Rust spelling, with GL typedefs prefixed by `prefix` (e.g. `types::`).
    pub fn to_rust(&self, prefix: &str) -> String {
        let mut s = rust_base(&self.base, prefix);
        let mut inner_const = self.base_const;
        for &ptr_const in &self.pointers {
            s = format!("*{} {s}", if inner_const { "const" } else { "mut" });
            inner_const = ptr_const;
        }
        s
    }
}

/// The Rust name of a C base type.
pub fn rust_base(base: &str, prefix: &str) -> String {
    match base {
        "void" => "std::ffi::c_void".to_string(),
        b if b.starts_with("struct ") => format!("{prefix}{}", &b["struct ".len()..]),
        b => format!("{prefix}{b}"),
    }
}

impl fmt::Display for CType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.base_const {
            f.write_str("const ")?;
        }
        f.write_str(&self.base)?;
        for (i, &c) in self.pointers.iter().enumerate() {
            f.write_str(if i == 0 { " *" } else { "*" })?;
            if c {
                f.write_str("const")?;
            }
        }
        Ok(())
    }
}

fn is_identifier(w: &str) -> bool {
    let mut chars = w.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_nested_const_pointers() {
        let t = CType::parse("const void *const*").unwrap();
        assert_eq!(t.base, "void");
        assert!(t.base_const);
        assert_eq!(t.pointers, vec![true, false]);
        assert_eq!(t.to_string(), "const void *const*");
        assert_eq!(t.to_rust("types::"), "*const *const std::ffi::c_void");
        assert!(t.points_to_const());
    }

    #[test]
    fn parses_struct_and_plain() {
        let t = CType::parse("struct _cl_context *").unwrap();
        assert_eq!(t.base, "struct _cl_context");
        assert_eq!(t.to_rust("types::"), "*mut types::_cl_context");
        let t = CType::parse("GLuint").unwrap();
        assert!(!t.is_pointer());
        assert_eq!(CType::parse("GLuint *").unwrap().to_rust(""), "*mut GLuint");
    }

    #[test]
    fn rejects_garbage() {
        assert!(CType::parse("").is_none());
        assert!(CType::parse("GLuint GLint").is_none());
        assert!(CType::parse("* GLuint").is_none());
        assert!(CType::parse("GLuint (").is_none());
    }
}
