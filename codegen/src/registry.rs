//! Reads the Khronos registry `gl.xml` with roxmltree.
//!
//! The header says what the functions are; the registry says what their pointer arguments
//! mean. For each parameter we keep its `len` (how many elements an array holds), its `group`
//! (the enum group, used to print enum names and to pick a pname table) and its `class` (the
//! object type of a GL name: texture, buffer, ...). For each enum group we keep its members.
//! Every element keeps its line so a cross-check error can point at it.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use crate::ctype::CType;
use crate::error::{Error, Position};

#[derive(Clone, Debug)]
pub struct Registry {
    pub path: PathBuf,
    pub commands: HashMap<String, Command>,
    /// group name -> enumerant names, in registry order.
    pub groups: BTreeMap<String, Vec<String>>,
    /// enumerant name -> value.
    pub enums: HashMap<String, u64>,
    /// command name -> what provides it to a desktop GL context: core versions
    /// (`GL_VERSION_4_5`) and extensions (`GL_ARB_robustness`), in registry order.
    pub providers: HashMap<String, Vec<String>>,
    /// The extensions, in registry order, with the commands a core-profile context requires of
    /// them (for one gl.xml lists for OpenGL ES only, the commands of all its blocks).
    pub extensions: Vec<Requirement>,
    /// The core versions (`GL_VERSION_4_6`), in registry order, with the commands each adds to
    /// the core profile (those a later version removes from it are left out).
    pub versions: Vec<Requirement>,
    /// `<types>`' plain typedefs: name -> the C type it names (`GLsizeiptrARB` ->
    /// `khronos_ssize_t`). Typedefs of function pointers and platform-dependent ones
    /// (`GLhandleARB`, an `#ifdef`) are left out: they are equal to no other type.
    pub typedefs: HashMap<String, String>,
}

/// The commands an extension or a core version requires of a desktop core-profile context.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Requirement {
    /// `GL_ARB_texture_storage`, `GL_VERSION_4_5`.
    pub name: String,
    /// Commands required unconditionally, in registry order.
    pub commands: Vec<String>,
    /// Commands required only where another extension is also supported (`<require
    /// comment="Supported only if GL_EXT_direct_state_access is supported">`): (that extension,
    /// the commands).
    pub conditional: Vec<(String, Vec<String>)>,
}

#[derive(Clone, Debug)]
pub struct Command {
    pub name: String,
    pub ret: CType,
    /// gl.xml `class` of the returned value (`glCreateShader` returns a `shader`).
    pub ret_class: Option<String>,
    pub params: Vec<Param>,
    /// gl.xml's `<alias name="...">`: the command this one is another name of, with the same
    /// semantics.
    pub alias: Option<String>,
    pub line: usize,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: CType,
    pub len: Option<String>,
    pub group: Option<String>,
    pub class: Option<String>,
    pub line: usize,
}

pub fn read(path: &Path) -> Result<Registry, Vec<Error>> {
    let text = std::fs::read_to_string(path).map_err(|source| vec![Error::Io { path: path.to_path_buf(), source }])?;
    parse(path, &text)
}

pub fn parse(path: &Path, text: &str) -> Result<Registry, Vec<Error>> {
    let doc = roxmltree::Document::parse(text).map_err(|e| vec![not_well_formed(path, text, e)])?;
    let lines = Lines::new(path, text);
    let mut errors = Vec::new();
    let mut registry = Registry {
        path: path.to_path_buf(),
        commands: HashMap::new(),
        groups: BTreeMap::new(),
        enums: HashMap::new(),
        providers: HashMap::new(),
        extensions: Vec::new(),
        versions: Vec::new(),
        typedefs: HashMap::new(),
    };
    read_typedefs(&doc, &mut registry);
    read_enums(&doc, &mut registry);
    read_commands(&doc, &lines, &mut registry, &mut errors);
    read_providers(&doc, &mut registry);
    read_requirements(&doc, &mut registry);
    if errors.is_empty() {
        Ok(registry)
    } else {
        Err(errors)
    }
}

/// The error of XML that does not parse, at its line and, where one encloses it, command.
fn not_well_formed(path: &Path, text: &str, e: roxmltree::Error) -> Error {
    // An unclosed root is reported at 1:1; the file really ends at its last line.
    let line = match e {
        roxmltree::Error::UnclosedRootNode => text.lines().count(),
        _ => e.pos().row as usize,
    };
    Error::Registry {
        at: Position { file: path.to_path_buf(), line },
        element: "registry".into(),
        function: enclosing_command(text, line),
        message: format!("not well-formed XML: {e}"),
    }
}

/// The line of a node, for errors: roxmltree's own position lookup rescans the text; a table
/// of line starts is O(log n).
struct Lines<'a> {
    path: &'a Path,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(path: &'a Path, text: &str) -> Lines<'a> {
        Lines { path, starts: std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect() }
    }

    fn line_of(&self, node: roxmltree::Node) -> usize {
        self.starts.partition_point(|&s| s <= node.range().start)
    }

    fn at(&self, node: roxmltree::Node) -> Position {
        Position { file: self.path.to_path_buf(), line: self.line_of(node) }
    }
}

/// The enumerants of every `<enums>` block, with their values and groups.
fn read_enums(doc: &roxmltree::Document, registry: &mut Registry) {
    for e in doc.descendants().filter(|n| n.has_tag_name("enum") && n.parent().is_some_and(|p| p.has_tag_name("enums")))
    {
        let (Some(name), Some(value)) = (e.attribute("name"), e.attribute("value")) else { continue };
        let parsed = match value.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None => value.parse::<i64>().ok().map(|v| v as u64),
        };
        if let Some(v) = parsed {
            registry.enums.insert(name.to_string(), v);
        }
        for group in e.attribute("group").into_iter().flat_map(|g| g.split(',')) {
            registry.groups.entry(group.to_string()).or_default().push(name.to_string());
        }
    }
}

/// The commands of every `<commands>` block; a command defined twice is an error.
fn read_commands(doc: &roxmltree::Document, lines: &Lines, registry: &mut Registry, errors: &mut Vec<Error>) {
    for command in doc
        .descendants()
        .filter(|n| n.has_tag_name("command") && n.parent().is_some_and(|p| p.has_tag_name("commands")))
    {
        let Some(c) = read_command(command, lines, errors) else { continue };
        if let Some(first) = registry.commands.get(&c.name) {
            errors.push(Error::Registry {
                at: lines.at(command),
                element: "command".into(),
                function: Some(c.name.clone()),
                message: format!("defined twice; first at line {}", first.line),
            });
            continue;
        }
        registry.commands.insert(c.name.clone(), c);
    }
}

/// One `<command>`: its name, return type and parameters. A parameter that cannot be read is
/// an error and left out; a command without a name or return type is `None`.
fn read_command(command: roxmltree::Node, lines: &Lines, errors: &mut Vec<Error>) -> Option<Command> {
    let Some(proto) = command.children().find(|n| n.has_tag_name("proto")) else {
        let message = "has no <proto>".into();
        errors.push(Error::Registry { at: lines.at(command), element: "command".into(), function: None, message });
        return None;
    };
    let Some(name) = child_text(proto, "name") else {
        let message = "has no <name>".into();
        errors.push(Error::Registry { at: lines.at(proto), element: "proto".into(), function: None, message });
        return None;
    };
    let bad = |node, element: &str, message: String| Error::Registry {
        at: lines.at(node),
        element: element.into(),
        function: Some(name.clone()),
        message,
    };
    let Some(ret) = CType::parse(&declaration_text(proto)) else {
        errors.push(bad(proto, "proto", format!("cannot read the return type `{}`", declaration_text(proto))));
        return None;
    };
    let mut params = Vec::new();
    for p in command.children().filter(|n| n.has_tag_name("param")) {
        let Some(pname) = child_text(p, "name") else {
            errors.push(bad(p, "param", "has no <name>".into()));
            continue;
        };
        let Some(ty) = CType::parse(&declaration_text(p)) else {
            errors.push(bad(p, "param", format!("cannot read the type of `{pname}`")));
            continue;
        };
        params.push(Param {
            name: pname,
            ty,
            len: p.attribute("len").map(str::to_string),
            group: p.attribute("group").map(str::to_string),
            class: p.attribute("class").map(str::to_string),
            line: lines.line_of(p),
        });
    }
    let line = lines.line_of(command);
    let alias = command.children().find(|n| n.has_tag_name("alias")).and_then(|n| n.attribute("name"));
    let ret_class = proto.attribute("class").map(str::to_string);
    Some(Command { name, ret, ret_class, params, alias: alias.map(str::to_string), line })
}

/// The plain typedefs of `<types>` ([`Registry::typedefs`]): `<type>typedef X <name>N</name>;`.
fn read_typedefs(doc: &roxmltree::Document, registry: &mut Registry) {
    for t in doc.descendants().filter(|n| n.has_tag_name("type") && n.parent().is_some_and(|p| p.has_tag_name("types")))
    {
        let Some(name) = child_text(t, "name") else { continue };
        let text = declaration_text(t);
        let Some(target) = text.trim().strip_prefix("typedef ") else { continue };
        if target.contains(['(', '#', '*']) || target.trim().is_empty() {
            continue;
        }
        registry.typedefs.insert(name, target.trim().to_string());
    }
}

/// Who provides each command to desktop GL: `<feature api="gl">` (a core version) and
/// `<extension supported="gl|...">`, through `<require>` blocks meant for desktop GL.
fn read_providers(doc: &roxmltree::Document, registry: &mut Registry) {
    let desktop = |api: Option<&str>| api.is_none_or(|a| a.split('|').any(|a| a == "gl" || a == "glcore"));
    for provider in doc.descendants().filter(|n| {
        (n.has_tag_name("feature") && n.attribute("api") == Some("gl"))
            || (n.has_tag_name("extension") && n.attribute("supported").is_some_and(|s| desktop(Some(s))))
    }) {
        let Some(name) = provider.attribute("name") else { continue };
        for require in provider.children().filter(|n| n.has_tag_name("require") && desktop(n.attribute("api"))) {
            for command in require.children().filter(|n| n.has_tag_name("command")) {
                if let Some(c) = command.attribute("name") {
                    let list = registry.providers.entry(c.to_string()).or_default();
                    if !list.iter().any(|p| p == name) {
                        list.push(name.to_string());
                    }
                }
            }
        }
    }
}

/// Whether a `<require>` or `<remove>` block applies to a desktop core-profile context: no `api`
/// or one naming `gl`/`glcore`, and no `profile` or `core` (`compatibility` blocks list what a
/// core context lacks; `api="gles2"` blocks are for OpenGL ES).
fn core_block(block: roxmltree::Node) -> bool {
    let api_ok = block.attribute("api").is_none_or(|a| a.split('|').any(|a| a == "gl" || a == "glcore"));
    api_ok && block.attribute("profile").is_none_or(|p| p == "core")
}

/// The extension a `<require>` block depends on, from its comment (`Supported only if
/// GL_EXT_direct_state_access is supported`): gl.xml says so in prose only.
fn condition(block: roxmltree::Node) -> Option<String> {
    let rest = block.attribute("comment")?.strip_prefix("Supported only if ")?;
    let name = rest.split_whitespace().next()?;
    name.starts_with("GL_").then(|| name.to_string())
}

/// The commands of each desktop extension and of each core version, for a core-profile context
/// ([`Registry::extensions`], [`Registry::versions`]).
fn read_requirements(doc: &roxmltree::Document, registry: &mut Registry) {
    let commands_of = |block: roxmltree::Node| -> Vec<String> {
        block
            .children()
            .filter(|n| n.has_tag_name("command"))
            .filter_map(|c| c.attribute("name"))
            .map(str::to_string)
            .collect()
    };
    let gl = |s: &str| s.split('|').any(|a| a == "gl" || a == "glcore");
    for node in doc.descendants() {
        let is_version = node.has_tag_name("feature") && node.attribute("api") == Some("gl");
        let is_extension = node.has_tag_name("extension");
        // An extension gl.xml lists for OpenGL ES only, which a desktop driver lists too (Mesa:
        // `GL_OES_EGL_image`, `GL_EXT_texture_compression_dxt1`): every block counts, for lack
        // of a desktop one.
        let desktop = is_version || node.attribute("supported").is_some_and(gl);
        let Some(name) = node.attribute("name").filter(|_| is_version || is_extension) else { continue };
        let mut r = Requirement { name: name.to_string(), ..Requirement::default() };
        let counts = |n: &roxmltree::Node| n.has_tag_name("require") && (!desktop || core_block(*n));
        for block in node.children().filter(counts) {
            let found = commands_of(block);
            match condition(block) {
                Some(c) => r.conditional.push((c, found)),
                None => {
                    for c in found {
                        if !r.commands.contains(&c) {
                            r.commands.push(c);
                        }
                    }
                }
            }
        }
        if is_version {
            for block in node.children().filter(|n| n.has_tag_name("remove") && core_block(*n)) {
                let removed = commands_of(block);
                for earlier in &mut registry.versions {
                    earlier.commands.retain(|c| !removed.contains(c));
                }
            }
            registry.versions.push(r);
        } else {
            registry.extensions.push(r);
        }
    }
}

/// The name of the `<command>` that contains `line`, for errors in XML that does not parse.
fn enclosing_command(text: &str, line: usize) -> Option<String> {
    let before: Vec<&str> = text.lines().take(line).collect();
    let start = before.iter().rposition(|l| l.trim_start().starts_with("<command"))?;
    if before[start..].iter().any(|l| l.contains("</command>")) {
        return None;
    }
    let proto = text.lines().skip(start).take(4).find(|l| l.contains("<proto"))?;
    let name = proto.split("<name>").nth(1)?.split("</name>").next()?;
    Some(name.to_string())
}

fn child_text(node: roxmltree::Node, tag: &str) -> Option<String> {
    node.children().find(|n| n.has_tag_name(tag)).and_then(|n| n.text()).map(str::to_string)
}

/// The C declaration of a `<proto>` or `<param>` without its `<name>`: all text, `<ptype>`
/// included, up to the name.
fn declaration_text(node: roxmltree::Node) -> String {
    let mut s = String::new();
    for child in node.children() {
        if child.has_tag_name("name") {
            break;
        }
        if child.is_text() {
            s.push_str(child.text().unwrap_or(""));
        } else if let Some(t) = child.text() {
            s.push_str(t);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_len_group_class() {
        let xml = r#"<registry><enums><enum value="0x0DE1" name="GL_TEXTURE_2D" group="TextureTarget"/></enums>
<commands><command>
  <proto>void <name>glBindTextures</name></proto>
  <param><ptype>GLuint</ptype> <name>first</name></param>
  <param><ptype>GLsizei</ptype> <name>count</name></param>
  <param class="texture" len="count">const <ptype>GLuint</ptype> *<name>textures</name></param>
</command></commands></registry>"#;
        let r = parse(Path::new("gl.xml"), xml).unwrap();
        let c = &r.commands["glBindTextures"];
        assert_eq!(c.params[2].len.as_deref(), Some("count"));
        assert_eq!(c.params[2].class.as_deref(), Some("texture"));
        assert_eq!(c.params[2].ty.to_string(), "const GLuint *");
        assert_eq!(c.params[2].line, 6);
        assert_eq!(r.groups["TextureTarget"], vec!["GL_TEXTURE_2D"]);
        assert_eq!(r.enums["GL_TEXTURE_2D"], 0x0DE1);
    }

    #[test]
    fn reads_what_extensions_and_versions_require_of_a_core_context() {
        let xml = r#"<registry>
<feature api="gl" name="GL_VERSION_1_0" number="1.0"><require><command name="glBegin"/><command name="glClear"/></require></feature>
<feature api="gl" name="GL_VERSION_3_2" number="3.2"><require><command name="glFenceSync"/></require>
  <remove profile="core"><command name="glBegin"/></remove></feature>
<extensions>
<extension name="GL_X_a" supported="gl|glcore|gles2">
  <require><command name="glA"/></require>
  <require api="gles2"><command name="glAOES"/></require>
  <require profile="compatibility"><command name="glAOld"/></require>
  <require comment="Supported only if GL_EXT_direct_state_access is supported"><command name="glAEXT"/></require>
</extension>
<extension name="GL_X_es" supported="gles2"><require><command name="glEs"/></require></extension>
</extensions></registry>"#;
        let r = parse(Path::new("gl.xml"), xml).unwrap();
        let a = &r.extensions[0];
        assert_eq!((a.name.as_str(), a.commands.clone()), ("GL_X_a", vec!["glA".to_string()]));
        assert_eq!(a.conditional, vec![("GL_EXT_direct_state_access".to_string(), vec!["glAEXT".to_string()])]);
        assert_eq!(r.extensions[1].commands, vec!["glEs".to_string()], "an ES-only extension: all its blocks");
        let versions: Vec<(&str, Vec<String>)> =
            r.versions.iter().map(|v| (v.name.as_str(), v.commands.clone())).collect();
        assert_eq!(
            versions,
            [("GL_VERSION_1_0", vec!["glClear".to_string()]), ("GL_VERSION_3_2", vec!["glFenceSync".to_string()])],
            "glBegin is removed from core by 3.2"
        );
    }
}
