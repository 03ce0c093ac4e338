//! Malformed inputs: each gives errors, never a panic, and every error names the file and the
//! line (for gl.xml also the element) and, where one is involved, the GL function.
//!
//! Fixtures are derived from the vendored files at test time (a few lines cut, replaced or
//! duplicated) and written under `CARGO_TARGET_TMPDIR`, so nothing large is committed. The
//! error text is snapshotted after absolute paths are made relative (`glcorearb.h`,
//! `vendor/gl.xml`), so snapshots do not depend on where the checkout lives.

use std::path::{Path, PathBuf};

use glcmd_codegen::{load, Errors, Inputs};

/// glcmd-codegen's directory, which holds the vendored inputs.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn vendored_header() -> String {
    std::fs::read_to_string(root().join("vendor/glcorearb.h")).unwrap()
}

fn vendored_registry() -> String {
    std::fs::read_to_string(root().join("vendor/gl.xml")).unwrap()
}

/// A fresh, empty directory for one case.
fn case_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("glcmd-codegen-malformed").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// 1-based line of the first line of `text` that contains `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("{needle:?} not found")) + 1
}

/// Replaces exactly one occurrence of `from` (which must occur once) by `to`.
fn replace_once(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "{from:?} must occur exactly once");
    text.replacen(from, to, 1)
}

/// The byte range of `<command>`'s body for `name` in gl.xml: from its `<name>` to `</command>`.
fn command_range(xml: &str, name: &str) -> std::ops::Range<usize> {
    let start = xml.find(&format!("<name>{name}</name>")).unwrap_or_else(|| panic!("{name} not in gl.xml"));
    let end = start + xml[start..].find("</command>").unwrap();
    start..end
}

/// Replaces the one occurrence of `from` inside `name`'s `<command>` by `to`.
fn edit_command(xml: &str, name: &str, from: &str, to: &str) -> String {
    let r = command_range(xml, name);
    assert_eq!(xml[r.clone()].matches(from).count(), 1, "{from:?} must occur once in {name}");
    let at = r.start + xml[r].find(from).unwrap();
    format!("{}{to}{}", &xml[..at], &xml[at + from.len()..])
}

/// 1-based line of `needle` inside `name`'s `<command>`.
fn line_in_command(xml: &str, name: &str, needle: &str) -> usize {
    let r = command_range(xml, name);
    let at = r.start + xml[r].find(needle).unwrap();
    xml[..at].matches('\n').count() + 1
}

const BIND_TEXTURE: &str = "GLAPI void APIENTRY glBindTexture (GLenum target, GLuint texture);";
const BIND_TEXTURE_XML: &str = r#"<param class="texture"><ptype>GLuint</ptype> <name>texture</name></param>"#;

/// Loads `inputs`, which must fail without panicking; returns the errors and their text with
/// `dir/` and the checkout root made relative.
fn load_err(inputs: &Inputs, dir: &Path) -> (Errors, String) {
    let result = std::panic::catch_unwind(|| load(inputs));
    let Ok(result) = result else { panic!("load panicked on malformed input") };
    let Err(errors) = result else { panic!("load accepted malformed input") };
    let text =
        errors.to_string().replace(&format!("{}/", dir.display()), "").replace(&format!("{}/", root().display()), "");
    assert!(!text.contains(&*dir.display().to_string()), "absolute path left in:\n{text}");
    (errors, text)
}

fn header_case(name: &str, header: &str) -> (Errors, String) {
    let dir = case_dir(name);
    let path = dir.join("glcorearb.h");
    std::fs::write(&path, header).unwrap();
    load_err(&Inputs { header: path, registry: root().join("vendor/gl.xml") }, &dir)
}

fn registry_case(name: &str, xml: &str) -> (Errors, String) {
    let dir = case_dir(name);
    let path = dir.join("gl.xml");
    std::fs::write(&path, xml).unwrap();
    load_err(&Inputs { header: root().join("vendor/glcorearb.h"), registry: path }, &dir)
}

// (a) ---------------------------------------------------------------------------------------

#[test]
fn truncated_header_inside_a_prototype_line() {
    let full = vendored_header();
    let n = line_of(&full, BIND_TEXTURE);
    // Everything before glBindTexture's line, then half of that line: the file ends inside
    // GL_VERSION_1_1's GL_GLEXT_PROTOTYPES block, in the middle of a prototype.
    let mut cut: String = full.lines().take(n - 1).map(|l| format!("{l}\n")).collect();
    cut.push_str(&BIND_TEXTURE[..BIND_TEXTURE.find("GLenum").unwrap() + 4]);
    let (errors, text) = header_case("truncated_in_prototype", &cut);

    assert_eq!(errors.0.len(), 2, "{text}");
    assert!(text.contains(&format!("glcorearb.h:{n}: glBindTexture: cannot read this prototype")), "{text}");
    let block = cut
        .lines()
        .take(n)
        .collect::<Vec<_>>()
        .iter()
        .rposition(|l| l.starts_with("#ifdef GL_GLEXT_PROTOTYPES"))
        .unwrap()
        + 1;
    assert!(
        text.contains(&format!(
            "glcorearb.h:{n}: file ends inside the #ifdef GL_GLEXT_PROTOTYPES block opened at line {block}"
        )),
        "{text}"
    );
    insta::assert_snapshot!("truncated_in_prototype", text);
}

#[test]
fn truncated_header_between_prototypes() {
    let full = vendored_header();
    let n = line_of(&full, BIND_TEXTURE);
    // Cut after glBindTexture's whole line: still inside the block.
    let cut: String = full.lines().take(n).map(|l| format!("{l}\n")).collect();
    let (errors, text) = header_case("truncated_in_block", &cut);
    assert_eq!(errors.0.len(), 1, "{text}");
    assert!(
        text.contains(&format!("glcorearb.h:{n}: file ends inside the #ifdef GL_GLEXT_PROTOTYPES block")),
        "{text}"
    );
    insta::assert_snapshot!("truncated_in_block", text);
}

// (b) ---------------------------------------------------------------------------------------

#[test]
fn unknown_type_in_a_prototype() {
    let full = vendored_header();
    let n = line_of(&full, BIND_TEXTURE);
    let bad = replace_once(&full, BIND_TEXTURE, &BIND_TEXTURE.replace("GLuint texture", "GLtexture texture"));
    let (errors, text) = header_case("unknown_type", &bad);
    assert_eq!(errors.0.len(), 1, "{text}");
    assert!(
        text.contains(&format!("glcorearb.h:{n}: glBindTexture: parameter `texture` has unknown type `GLtexture`")),
        "{text}"
    );
    insta::assert_snapshot!("unknown_type", text);
}

#[test]
fn unknown_return_type() {
    let full = vendored_header();
    let proto = "GLAPI GLboolean APIENTRY glIsTexture (GLuint texture);";
    let n = line_of(&full, proto);
    let bad = replace_once(&full, proto, &proto.replace("GLboolean", "GLbool"));
    let (_, text) = header_case("unknown_return_type", &bad);
    assert!(text.contains(&format!("glcorearb.h:{n}: glIsTexture: unknown return type `GLbool`")), "{text}");
    insta::assert_snapshot!("unknown_return_type", text);
}

// (c) ---------------------------------------------------------------------------------------

#[test]
fn duplicated_function() {
    let full = vendored_header();
    let n = line_of(&full, BIND_TEXTURE);
    // A second copy right after the first, inside the same block.
    let bad = replace_once(&full, BIND_TEXTURE, &format!("{BIND_TEXTURE}\n{BIND_TEXTURE}"));
    let (errors, text) = header_case("duplicated", &bad);
    assert_eq!(errors.0.len(), 1, "{text}");
    assert!(
        text.contains(&format!("glcorearb.h:{}: glBindTexture: declared twice; first declared at line {n}", n + 1)),
        "{text}"
    );
    insta::assert_snapshot!("duplicated", text);
}

#[test]
fn prototype_outside_a_prototypes_block() {
    // The same prototype again at the very end of the file, outside every block.
    let bad = format!("{}\n{BIND_TEXTURE}\n", vendored_header());
    let n = bad.lines().count();
    let (_, text) = header_case("outside_block", &bad);
    assert!(
        text.contains(&format!(
            "glcorearb.h:{n}: glBindTexture: prototype outside an #ifdef GL_GLEXT_PROTOTYPES block"
        )),
        "{text}"
    );
    insta::assert_snapshot!("outside_block", text);
}

// (d) ---------------------------------------------------------------------------------------

#[test]
fn missing_registry() {
    let dir = case_dir("missing_registry");
    let inputs = Inputs { header: root().join("vendor/glcorearb.h"), registry: dir.join("no-such-gl.xml") };
    let (errors, text) = load_err(&inputs, &dir);
    assert_eq!(errors.0.len(), 1, "{text}");
    assert!(text.contains("no-such-gl.xml: cannot read:"), "{text}");
    insta::assert_snapshot!("missing_registry", text);
}

#[test]
fn missing_header() {
    let dir = case_dir("missing_header");
    let inputs = Inputs { header: dir.join("no-such.h"), registry: root().join("vendor/gl.xml") };
    let (_, text) = load_err(&inputs, &dir);
    assert!(text.contains("no-such.h: cannot read:"), "{text}");
}

// (e) ---------------------------------------------------------------------------------------

#[test]
fn registry_disagrees_with_header() {
    let xml = vendored_registry();
    let command = line_of(&xml, "<name>glBindTexture</name>") - 1;
    let param = line_in_command(&xml, "glBindTexture", BIND_TEXTURE_XML);
    let header_line = line_of(&vendored_header(), BIND_TEXTURE);
    let bad = edit_command(&xml, "glBindTexture", BIND_TEXTURE_XML, &BIND_TEXTURE_XML.replace("GLuint", "GLint"));
    let (errors, text) = registry_case("disagrees", &bad);
    assert_eq!(errors.0.len(), 1, "{text}");
    assert!(
        text.contains(&format!(
            "vendor/glcorearb.h:{header_line} and gl.xml:{command}: glBindTexture: parameter `GLuint texture` in the header is `GLint texture` in gl.xml (line {param})"
        )),
        "{text}"
    );
    insta::assert_snapshot!("disagrees", text);
}

#[test]
fn registry_lacks_a_function_of_the_header() {
    let xml = vendored_registry();
    let bad = replace_once(&xml, "<name>glBindTexture</name>", "<name>glBindTextureGone</name>");
    let header_line = line_of(&vendored_header(), BIND_TEXTURE);
    let (errors, text) = registry_case("lacks_function", &bad);
    assert_eq!(errors.0.len(), 1, "{text}");
    assert!(text.contains(&format!("vendor/glcorearb.h:{header_line}: glBindTexture: not found in")), "{text}");
    insta::assert_snapshot!("lacks_function", text);
}

// (f) ---------------------------------------------------------------------------------------

#[test]
fn registry_not_well_formed() {
    let xml = vendored_registry();
    let param = line_in_command(&xml, "glBindTexture", BIND_TEXTURE_XML);
    // A mistyped closing tag inside glBindTexture's <command>.
    let bad = edit_command(&xml, "glBindTexture", BIND_TEXTURE_XML, &BIND_TEXTURE_XML.replace("</param>", "</parm>"));
    let (errors, text) = registry_case("not_well_formed", &bad);
    assert_eq!(errors.0.len(), 1, "{text}");
    assert!(text.contains(&format!("gl.xml:{param}: <registry> ")), "{text}");
    assert!(text.contains("not well-formed XML"), "{text}");
    insta::assert_snapshot!("not_well_formed", text);
}

#[test]
fn registry_not_well_formed_names_the_function() {
    let xml = vendored_registry();
    let bad = edit_command(&xml, "glBindTexture", BIND_TEXTURE_XML, &BIND_TEXTURE_XML.replace("</param>", "</parm>"));
    let (_, text) = registry_case("not_well_formed_function", &bad);
    assert!(text.contains("glBindTexture"), "{text}");
}

#[test]
fn registry_truncated() {
    let xml = vendored_registry();
    let cut = &xml[..xml.find("<name>glBindTexture</name>").unwrap()];
    let (errors, text) = registry_case("truncated_registry", cut);
    assert_eq!(errors.0.len(), 1, "{text}");
    assert!(text.contains("gl.xml:") && text.contains("not well-formed XML"), "{text}");
    insta::assert_snapshot!("truncated_registry", text);
}

#[test]
fn registry_truncated_points_at_the_end() {
    let xml = vendored_registry();
    let cut = &xml[..xml.find("<name>glBindTexture</name>").unwrap()];
    let last = cut.lines().count();
    let (_, text) = registry_case("truncated_registry_end", cut);
    assert!(text.contains(&format!("gl.xml:{last}: ")), "expected line {last}:\n{text}");
}

// Several errors in one run ---------------------------------------------------------------

#[test]
fn several_header_errors_and_a_missing_registry_are_reported_together() {
    let full = vendored_header();
    let bind = line_of(&full, BIND_TEXTURE);
    let viewport = "GLAPI void APIENTRY glViewport (GLint x, GLint y, GLsizei width, GLsizei height);";
    let viewport_line = line_of(&full, viewport);
    let clear = "GLAPI void APIENTRY glClear (GLbitfield mask);";
    let clear_line = line_of(&full, clear);
    assert!(viewport_line != bind && clear_line != bind);
    let mut bad = replace_once(&full, BIND_TEXTURE, &BIND_TEXTURE.replace("GLuint texture", "GLtexture texture"));
    bad = replace_once(&bad, viewport, &format!("{viewport}\n{viewport}"));
    bad = replace_once(&bad, clear, "GLAPI void APIENTRY glClear (GLbitfield mask");

    let dir = case_dir("several");
    let header = dir.join("glcorearb.h");
    std::fs::write(&header, &bad).unwrap();
    let (errors, text) = load_err(&Inputs { header, registry: dir.join("missing.xml") }, &dir);
    assert_eq!(errors.0.len(), 4, "{text}");
    assert!(text.starts_with("glcmd-codegen found 4 errors:\n"), "{text}");
    // Lines are those of the edited file: the duplicate shifts everything after it by one.
    let shift = |l: usize| if l > viewport_line { l + 1 } else { l };
    for expected in [
        format!("glcorearb.h:{}: glBindTexture: parameter `texture` has unknown type `GLtexture`", shift(bind)),
        format!(
            "glcorearb.h:{}: glViewport: declared twice; first declared at line {viewport_line}",
            viewport_line + 1
        ),
        format!("glcorearb.h:{}: glClear: cannot read this prototype", shift(clear_line)),
        "missing.xml: cannot read:".to_string(),
    ] {
        assert!(text.contains(&expected), "missing {expected:?} in:\n{text}");
    }
    insta::assert_snapshot!("several", text);
}

#[test]
fn several_registry_disagreements_are_reported_together() {
    let xml = vendored_registry();
    let mut bad = edit_command(&xml, "glBindTexture", BIND_TEXTURE_XML, &BIND_TEXTURE_XML.replace("GLuint", "GLint"));
    // glBindTextures loses its last parameter in gl.xml.
    let textures = r#"<param class="texture" len="count">const <ptype>GLuint</ptype> *<name>textures</name></param>"#;
    bad = edit_command(&bad, "glBindTextures", textures, "");
    // glIsTexture returns something else in gl.xml.
    bad = replace_once(
        &bad,
        "<ptype>GLboolean</ptype> <name>glIsTexture</name>",
        "<ptype>GLint</ptype> <name>glIsTexture</name>",
    );

    let (errors, text) = registry_case("several_registry", &bad);
    assert_eq!(errors.0.len(), 3, "{text}");
    for expected in [
        "glBindTexture: parameter `GLuint texture` in the header is `GLint texture` in gl.xml",
        "glBindTextures: has 3 parameters in the header but 2 in gl.xml",
        "glIsTexture: returns `GLboolean` in the header but `GLint` in gl.xml",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    // Each names both places.
    for line in text.lines().skip(1) {
        assert!(line.contains("vendor/glcorearb.h:") && line.contains(" and gl.xml:"), "{line}");
    }
    insta::assert_snapshot!("several_registry", text);
}

// The CLI -----------------------------------------------------------------------------------

#[test]
fn cli_prints_errors_and_exits_non_zero() {
    let full = vendored_header();
    let dir = case_dir("cli");
    let header = dir.join("glcorearb.h");
    std::fs::write(
        &header,
        replace_once(&full, BIND_TEXTURE, &BIND_TEXTURE.replace("GLuint texture", "GLtexture texture")),
    )
    .unwrap();
    for command in ["list", "stats"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_glcmd-codegen"))
            .args([command, "--header"])
            .arg(&header)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{command} must fail");
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty(), "{command} printed to stdout");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("glBindTexture: parameter `texture` has unknown type `GLtexture`"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let out_dir = dir.join("out");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_glcmd-codegen"))
        .arg("emit")
        .arg(&out_dir)
        .arg("--header")
        .arg(&header)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(std::fs::read_dir(&out_dir).map(|d| d.count()).unwrap_or(0) == 0, "emit wrote files despite errors");
}
