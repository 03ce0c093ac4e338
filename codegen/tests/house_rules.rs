//! House rules that a reviewer would otherwise check by eye.
//!
//! A function longer than a screen cannot be read at once: its stages blur, and a change to one
//! stage is reviewed without the others in view. [`long_functions`] finds every hand-written
//! function over a limit in a folder; the test holds `codegen/src` to 120 lines. The scanner is
//! lexical (comments, strings and character literals skipped, braces matched), so it needs no
//! parser and can be pointed at any folder of Rust source, `runtime/` included.

use std::path::{Path, PathBuf};

/// The most lines a hand-written function may span, from its `fn` line to its closing brace.
const MAX_FUNCTION_LINES: usize = 120;

/// A function found by [`functions_in`]: where it is and how many lines it spans.
#[derive(Debug)]
struct FunctionSpan {
    file: PathBuf,
    name: String,
    /// 1-based line of the `fn` keyword.
    line: usize,
    /// Lines from the `fn` keyword to the closing brace, both included.
    lines: usize,
}

/// A token of the lexical scan: an identifier (or keyword) or one punctuation character, with
/// its 1-based line. Literals and comments produce no token.
#[derive(Debug, PartialEq)]
enum Token {
    Word(String, usize),
    Punct(char, usize),
}

/// Splits Rust source into words and punctuation, skipping comments, string, byte-string,
/// raw-string and character literals, so that a brace inside one is not counted.
fn tokenize(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let start = i;
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i = skip_block_comment(&chars, i);
        } else if c == '"' {
            i = skip_quoted(&chars, i, '"');
        } else if let Some(end) = raw_string_end(&chars, i) {
            i = end;
        } else if c == '\'' {
            i = skip_char_or_lifetime(&chars, i);
        } else if c.is_alphanumeric() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            // `b"…"` and `b'…'` are literals, not the word `b` and a literal.
            if !(word == "b" && matches!(chars.get(i), Some('"' | '\''))) {
                tokens.push(Token::Word(word, line));
            }
        } else {
            if !c.is_whitespace() {
                tokens.push(Token::Punct(c, line));
            }
            i += 1;
        }
        line += chars[start..i].iter().filter(|&&c| c == '\n').count();
    }
    tokens
}

/// The index after a (nested) block comment that starts at `i`.
fn skip_block_comment(chars: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < chars.len() {
        match (chars[i], chars.get(i + 1)) {
            ('/', Some('*')) => (depth, i) = (depth + 1, i + 2),
            ('*', Some('/')) => {
                (depth, i) = (depth - 1, i + 2);
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    i
}

/// The index after a literal that opens with `quote` at `i` and honours backslash escapes.
fn skip_quoted(chars: &[char], mut i: usize, quote: char) -> usize {
    i += 1;
    while i < chars.len() && chars[i] != quote {
        i += if chars[i] == '\\' { 2 } else { 1 };
    }
    i + 1
}

/// When a raw string (`r"…"`, `r#"…"#`, `br#"…"#`) starts at `i`, the index after it.
fn raw_string_end(chars: &[char], i: usize) -> Option<usize> {
    // A raw string's prefix is a word of its own: `for"` is not one.
    if i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_') {
        return None;
    }
    let mut j = i + usize::from(chars[i] == 'b');
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let hashes = chars[j..].iter().take_while(|&&c| c == '#').count();
    j += hashes;
    if chars.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < chars.len() {
        if chars[j] == '"' && chars[j + 1..].iter().take(hashes).filter(|&&c| c == '#').count() == hashes {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(j)
}

/// The index after a character literal (`'{'`, `'\''`) or a lifetime (`'a`) at `i`.
fn skip_char_or_lifetime(chars: &[char], i: usize) -> usize {
    match (chars.get(i + 1), chars.get(i + 2)) {
        (Some('\\'), _) => skip_quoted(chars, i, '\''),
        (Some(_), Some('\'')) => i + 3,
        // A lifetime: the name that follows is read as a word, which is harmless.
        _ => i + 1,
    }
}

/// Every function with a body in `source`: the `fn` keyword, its name, and the line of the
/// brace that closes its body. Declarations without a body (`fn f();`) are skipped.
fn functions_in(file: &Path, source: &str) -> Vec<FunctionSpan> {
    let tokens = tokenize(source);
    let mut found = Vec::new();
    for (k, token) in tokens.iter().enumerate() {
        let (Token::Word(kw, line), Some(Token::Word(name, _))) = (token, tokens.get(k + 1)) else { continue };
        if kw != "fn" {
            continue;
        }
        if let Some(end) = body_end_line(&tokens[k + 2..]) {
            found.push(FunctionSpan {
                file: file.to_path_buf(),
                name: name.clone(),
                line: *line,
                lines: end - line + 1,
            });
        }
    }
    found
}

/// The line of the brace that closes the body that follows a function's signature, or `None`
/// when the signature ends with `;` (no body).
fn body_end_line(after_name: &[Token]) -> Option<usize> {
    // The body is the first `{` outside the signature's parentheses and brackets; a `;` there
    // first means a declaration.
    let mut nesting = 0i32;
    let mut depth = 0i32;
    for token in after_name {
        let Token::Punct(c, line) = token else { continue };
        match (c, depth) {
            ('(' | '[', 0) => nesting += 1,
            (')' | ']', 0) => nesting -= 1,
            (';', 0) if nesting == 0 => return None,
            ('{', _) if nesting == 0 => depth += 1,
            ('}', _) if nesting == 0 => {
                depth -= 1;
                if depth == 0 {
                    return Some(*line);
                }
            }
            _ => {}
        }
    }
    None
}

/// The `.rs` files under `dir`, recursively, in a stable order.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a readable directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// Every hand-written function under `dir` longer than `max_lines`. A file that says it is
/// `@generated` on its first line is not hand-written and is skipped.
fn long_functions(dir: &Path, max_lines: usize) -> Vec<FunctionSpan> {
    let mut long = Vec::new();
    for file in rust_files(dir) {
        let source = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        if source.lines().next().is_some_and(|l| l.contains("@generated")) {
            continue;
        }
        long.extend(functions_in(&file, &source).into_iter().filter(|f| f.lines > max_lines));
    }
    long
}

fn report(spans: &[FunctionSpan]) -> String {
    spans.iter().map(|f| format!("\n  {}:{} {} ({} lines)", f.file.display(), f.line, f.name, f.lines)).collect()
}

/// The most lines a hand-written runtime file may hold: a room with one job. (Data tables are
/// exempt: they are long by nature and read by search, not from top to bottom.)
const MAX_RUNTIME_FILE_LINES: usize = 700;

/// Runtime files that are data tables.
const DATA_TABLES: &[&str] = &[];

#[test]
fn no_runtime_function_or_capi_function_is_longer_than_120_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("codegen/ is inside the checkout").to_path_buf();
    let mut long = long_functions(&root.join("runtime"), MAX_FUNCTION_LINES);
    long.extend(long_functions(&root.join("capi/src"), MAX_FUNCTION_LINES));
    assert!(long.is_empty(), "functions over {MAX_FUNCTION_LINES} lines: cut each into named stages{}", report(&long));
}

#[test]
fn no_runtime_file_is_longer_than_700_lines() {
    let runtime =
        Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("codegen/ is inside the checkout").join("runtime");
    let long: Vec<String> = rust_files(&runtime)
        .into_iter()
        .filter(|f| !DATA_TABLES.iter().any(|t| f.ends_with(t)))
        .filter_map(|f| {
            let lines = std::fs::read_to_string(&f).unwrap().lines().count();
            (lines > MAX_RUNTIME_FILE_LINES).then(|| format!("\n  {} ({lines} lines)", f.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "runtime files over {MAX_RUNTIME_FILE_LINES} lines: split them by concern{}",
        long.concat()
    );
}

#[test]
fn no_codegen_function_is_longer_than_120_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let long = long_functions(&src, MAX_FUNCTION_LINES);
    assert!(long.is_empty(), "functions over {MAX_FUNCTION_LINES} lines: cut each into named stages{}", report(&long));
}

/// The scanner itself, on source whose braces hide in literals and comments: the test above is
/// only as good as the spans it measures.
#[test]
fn the_scanner_measures_bodies_and_skips_braces_in_literals() {
    let source = r##"
trait T {
    fn declared(&self);
}
fn outer(x: [u8; 2]) -> Option<&'static str> {
    let _ = '{';
    let _ = "}}";
    let _ = r#"{ "} "#;
    // }
    /* { /* } */ */
    fn inner() {}
    None
}
"##;
    let spans = functions_in(Path::new("example.rs"), source);
    let found: Vec<(&str, usize, usize)> = spans.iter().map(|f| (f.name.as_str(), f.line, f.lines)).collect();
    assert_eq!(found, [("outer", 5, 9), ("inner", 11, 1)]);
}
