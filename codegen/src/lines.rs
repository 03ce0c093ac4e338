//! The eight line shapes of `glcorearb.h`, matched by hand.
//!
//! The Khronos header is machine-written: a feature block opens with `#ifndef GL_X` and
//! `#define GL_X 1`, an enumerant is `#define GL_NAME 0x1234`, a prototype is one
//! `GLAPI ret APIENTRY glName (params);` line, a typedef is one line. [`crate::header`] scans it
//! line by line and asks this module what a line is. These matchers were regular expressions
//! once; the `regex` crate cost about 4 s of every dependent's clean build (issue 21) for eight
//! patterns this simple, so each is now a few string operations with the same meaning. Each
//! function's comment gives the pattern it stands for (`ws` is `[ \t\r]`, `ident` is
//! `[A-Za-z0-9_]+`), and the tests pin the cases where a hand-written matcher most easily
//! drifts from its pattern: trailing blanks, suffixes, nested parentheses, names that only
//! start like a GL name.

/// The blanks of the patterns: space, tab and a carriage return (a header with CRLF lines).
fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r')
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `s` after one or more blanks, or `None` when it does not start with a blank.
fn after_blanks(s: &str) -> Option<&str> {
    let rest = s.trim_start_matches(is_blank);
    (rest.len() < s.len()).then_some(rest)
}

/// `s` without its trailing blanks.
fn trim_blanks_end(s: &str) -> &str {
    s.trim_end_matches(is_blank)
}

/// The word characters that start `s`, and what follows them.
fn split_word(s: &str) -> (&str, &str) {
    let end = s.find(|c: char| !is_word(c)).unwrap_or(s.len());
    s.split_at(end)
}

/// The maximal run of word characters that ends `s` (empty when `s` ends otherwise), and what
/// precedes it: a word that starts at a word boundary, as `\b(ident)$` reads it.
fn split_last_word(s: &str) -> (&str, &str) {
    let start = s.rfind(|c: char| !is_word(c)).map_or(0, |i| i + 1);
    s.split_at(start)
}

/// `prefix` `ws+` `(GL_ident)` and the rest of the line after the name.
fn directive_name<'a>(line: &'a str, prefix: &str) -> Option<(&'a str, &'a str)> {
    let rest = after_blanks(line.strip_prefix(prefix)?)?;
    let (name, rest) = split_word(rest);
    (name.starts_with("GL_") && name.len() > 3).then_some((name, rest))
}

/// `^#ifndef ws+ (GL_ident) ws* $`: the feature a block is about to define.
pub fn ifndef(line: &str) -> Option<&str> {
    let (name, rest) = directive_name(line, "#ifndef")?;
    rest.chars().all(is_blank).then_some(name)
}

/// `^#define ws+ (GL_ident) ws+ 1 ws* $`: the definition that opens a feature block.
pub fn define_feature(line: &str) -> Option<&str> {
    let (name, rest) = directive_name(line, "#define")?;
    let rest = after_blanks(rest)?.strip_prefix('1')?;
    rest.chars().all(is_blank).then_some(name)
}

/// `^#define ws+ (GL_ident) ws+ (0x[0-9A-Fa-f]+|[0-9]+)(u|ull|U|ULL)? ws* $`: an enumerant,
/// as its name and its number's text (without the suffix).
pub fn define_value(line: &str) -> Option<(&str, &str)> {
    let (name, rest) = directive_name(line, "#define")?;
    let value = trim_blanks_end(after_blanks(rest)?);
    let digits = ["ULL", "ull", "U", "u"].iter().find_map(|s| value.strip_suffix(s)).unwrap_or(value);
    let number = match digits.strip_prefix("0x") {
        Some(hex) => !hex.is_empty() && hex.chars().all(|c| c.is_ascii_hexdigit()),
        None => !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()),
    };
    number.then_some((name, digits))
}

/// `APIENTRY ws+ (gl ident)` anywhere in the line, the first such: the name of a prototype,
/// for a message about a line that is otherwise unreadable.
pub fn glapi_name(line: &str) -> Option<&str> {
    line.match_indices("APIENTRY").find_map(|(i, _)| gl_word(after_blanks(&line[i + "APIENTRY".len()..])?))
}

/// The `gl`-prefixed name that starts `s`, if it has one.
fn gl_word(s: &str) -> Option<&str> {
    let (name, _) = split_word(s);
    (name.starts_with("gl") && name.len() > 2).then_some(name)
}

/// A prototype line's parts: its return type, name and parameter list.
pub struct Glapi<'a> {
    pub ret: &'a str,
    pub name: &'a str,
    pub params: &'a str,
}

/// `^GLAPI ws+ (.+?) ws* APIENTRY ws+ (gl ident) ws* \( (.*) \) ws* ; ws* $`: the first
/// `APIENTRY glName` ends the return type; the parameters run to the last `)` before the `;`.
pub fn glapi(line: &str) -> Option<Glapi<'_>> {
    let body = after_blanks(line.strip_prefix("GLAPI")?)?;
    let params_end = trim_blanks_end(trim_blanks_end(line).strip_suffix(';')?).strip_suffix(')')?;
    body.match_indices("APIENTRY").find_map(|(i, _)| {
        let ret = trim_blanks_end(&body[..i]);
        let after = after_blanks(&body[i + "APIENTRY".len()..])?;
        let name = gl_word(after)?;
        let open = after[name.len()..].trim_start_matches(is_blank).strip_prefix('(')?;
        // `open` and `params_end` are both suffixes/prefixes of `line`: the parameters are what
        // lies between the `(` and the final `)`.
        let start = line.len() - open.len();
        let params = line.get(start..params_end.len())?;
        (!ret.is_empty()).then_some(Glapi { ret, name, params })
    })
}

/// `^(.*?) \b (ident) ws* $`: a parameter's type text and its name (the word that ends it).
pub fn param(text: &str) -> Option<(&str, &str)> {
    let (ty, name) = split_last_word(trim_blanks_end(text));
    (!name.is_empty()).then_some((ty, name))
}

/// `^typedef ws+ ([^()]+?) ws* \b (GL ident) ws* ; ws* $`: a plain typedef's definition
/// (untrimmed) and name.
pub fn typedef_plain(line: &str) -> Option<(&str, &str)> {
    let body = after_blanks(line.strip_prefix("typedef")?)?;
    let body = trim_blanks_end(trim_blanks_end(body).strip_suffix(';')?);
    let (definition, name) = split_last_word(body);
    let plain = !definition.is_empty() && !definition.contains(['(', ')']);
    (plain && name.starts_with("GL") && name.len() > 2).then_some((definition, name))
}

/// `^typedef ws+ .* \( ws* APIENTRY ws* \* ws* (GL ident) ws* \)`: a function-pointer
/// typedef's name, from the last `(APIENTRY *GLname)` of the line.
pub fn typedef_fn(line: &str) -> Option<&str> {
    let body = after_blanks(line.strip_prefix("typedef")?)?;
    body.match_indices('(').rev().find_map(|(i, _)| {
        let rest = body[i + 1..].trim_start_matches(is_blank).strip_prefix("APIENTRY")?;
        let rest = rest.trim_start_matches(is_blank).strip_prefix('*')?;
        let (name, rest) = split_word(rest.trim_start_matches(is_blank));
        let closed = rest.trim_start_matches(is_blank).starts_with(')');
        (closed && name.starts_with("GL") && name.len() > 2).then_some(name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_block_lines() {
        assert_eq!(ifndef("#ifndef GL_VERSION_1_0"), Some("GL_VERSION_1_0"));
        assert_eq!(ifndef("#ifndef\tGL_ARB_sync \r"), Some("GL_ARB_sync"));
        assert_eq!(ifndef("#ifndef GL_"), None);
        assert_eq!(ifndef("#ifndef GLAPI"), None);
        assert_eq!(ifndef("#ifndef GL_X y"), None);
        assert_eq!(ifndef("#ifndefGL_X"), None);
        assert_eq!(define_feature("#define GL_ARB_sync 1"), Some("GL_ARB_sync"));
        assert_eq!(define_feature("#define GL_ARB_sync 10"), None);
        assert_eq!(define_feature("#define GL_ARB_sync 1 "), Some("GL_ARB_sync"));
    }

    #[test]
    fn enumerants() {
        assert_eq!(define_value("#define GL_TEXTURE_2D 0x0DE1"), Some(("GL_TEXTURE_2D", "0x0DE1")));
        assert_eq!(define_value("#define GL_ALL 0xFFFFFFFFFFFFFFFFull"), Some(("GL_ALL", "0xFFFFFFFFFFFFFFFF")));
        assert_eq!(define_value("#define GL_X 42u\r"), Some(("GL_X", "42")));
        assert_eq!(define_value("#define GL_X 4U2"), None);
        assert_eq!(define_value("#define GL_X 0x"), None);
        assert_eq!(define_value("#define GL_X GL_Y"), None);
        assert_eq!(define_value("#define GL_X 1 2"), None);
    }

    #[test]
    fn prototypes() {
        let line = "GLAPI const GLubyte *APIENTRY glGetStringi (GLenum name, GLuint index);";
        let p = glapi(line).unwrap();
        assert_eq!((p.ret, p.name, p.params), ("const GLubyte *", "glGetStringi", "GLenum name, GLuint index"));
        let p = glapi("GLAPI void APIENTRY glF (void (*cb)(int), int x) ; ").unwrap();
        assert_eq!((p.ret, p.name, p.params), ("void", "glF", "void (*cb)(int), int x"));
        assert!(glapi("GLAPI void APIENTRY glFlush (void)").is_none(), "no semicolon");
        assert!(glapi("GLAPI APIENTRY glFlush (void);").is_none(), "no return type");
        assert!(glapi("GLAPI void APIENTRY Flush (void);").is_none(), "not a gl name");
        assert_eq!(glapi_name("GLAPI void APIENTRY glFlush (void"), Some("glFlush"));
        assert_eq!(glapi_name("GLAPI void APIENTRY"), None);
    }

    #[test]
    fn parameters() {
        assert_eq!(param("const void *const*indices"), Some(("const void *const*", "indices")));
        assert_eq!(param("GLuint texture "), Some(("GLuint ", "texture")));
        assert_eq!(param("GLuint *"), None);
    }

    #[test]
    fn typedefs() {
        assert_eq!(typedef_plain("typedef unsigned int GLenum;"), Some(("unsigned int ", "GLenum")));
        assert_eq!(typedef_plain("typedef struct __GLsync *GLsync;"), Some(("struct __GLsync *", "GLsync")));
        assert_eq!(typedef_plain("typedef int XGLint;"), None);
        assert_eq!(typedef_plain("typedef void (*GLfn)(void);"), None);
        let f = "typedef void (APIENTRY  *GLDEBUGPROC)(GLenum source,GLenum type);";
        assert_eq!(typedef_fn(f), Some("GLDEBUGPROC"));
        assert_eq!(typedef_fn("typedef void (*GLfn)(void);"), None);
    }
}
