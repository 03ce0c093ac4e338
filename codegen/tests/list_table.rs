//! The `list` table: a snapshot of the whole table (so every change of classification shows up
//! in review), plus checks that do not depend on the snapshot: one row per `GLAPI` prototype of
//! the vendored header, unique names equal to the header's set, only the five kinds, and spot
//! checks of rows whose right answer follows from GL semantics. Also: generation is
//! deterministic, and the CLI prints exactly `list_table`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use glcmd_codegen::{generate, list_table, load, model::Api, Inputs};

/// glcmd-codegen's directory, which holds the vendored inputs.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn api() -> &'static Api {
    static API: OnceLock<Api> = OnceLock::new();
    API.get_or_init(|| load(&Inputs::vendored(&root())).unwrap_or_else(|e| panic!("vendored inputs must load:\n{e}")))
}

fn table() -> &'static str {
    static T: OnceLock<String> = OnceLock::new();
    T.get_or_init(|| list_table(api()))
}

/// Rows after the header line, keyed by function name: (feature, kind, arrays).
fn rows() -> BTreeMap<&'static str, (&'static str, &'static str, &'static str)> {
    full_rows().into_iter().map(|(name, cols)| (name, (cols[1], cols[2], cols[4]))).collect()
}

/// Every column after the name: methods, feature, kind, unsafe, arrays.
fn full_rows() -> BTreeMap<&'static str, [&'static str; 5]> {
    let mut lines = table().lines();
    assert_eq!(lines.next(), Some("name\tmethods\tfeature\tkind\tunsafe\tarrays"));
    let mut map = BTreeMap::new();
    for line in lines {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 6, "row must have 6 columns: {line:?}");
        let prev = map.insert(cols[0], [cols[1], cols[2], cols[3], cols[4], cols[5]]);
        assert!(prev.is_none(), "function listed twice: {}", cols[0]);
    }
    map
}

#[test]
fn methods_and_unsafe_columns() {
    let rows = full_rows();
    // Every Rust method is named once (a name two GL functions shared would not compile, but
    // the table must say the same).
    let mut seen = BTreeMap::new();
    for (name, cols) in &rows {
        for m in cols[0].split(", ").filter(|m| !m.starts_with("Gl::")) {
            if let Some(other) = seen.insert(m.to_string(), *name) {
                assert!(
                    // A hand-written method documented by two GL functions (the ARB twin).
                    other.trim_end_matches("ARB") == name.trim_end_matches("ARB"),
                    "{m} is the method of {other} and of {name}"
                );
            }
        }
    }
    for f in &api().functions {
        let cols = rows[f.name.as_str()];
        assert_eq!(cols[3], if f.is_unsafe() { "yes" } else { "no" }, "{}", f.name);
    }
    let methods = |name: &str| rows[name][0];
    assert_eq!(methods("glBindTexture"), "CommandList::bind_texture");
    assert_eq!(methods("glCreateBuffers"), "Device::create_buffers, Device::create_buffer");
    assert_eq!(methods("glCreateTextures"), "Device::create_textures, Device::create_texture");
    assert_eq!(methods("glGenQueries"), "Device::gen_queries, Device::gen_query");
    assert_eq!(methods("glGetShaderiv"), "Device::get_shaderiv, Device::get_shaderi");
    assert_eq!(methods("glGetIntegeri_v"), "Device::get_integeri_v, Device::get_integeri");
    assert_eq!(
        methods("glGetTransformFeedbackiv"),
        "Device::get_transform_feedbackiv, Device::get_transform_feedbacki"
    );
    assert_eq!(methods("glGetTransformFeedbacki_v"), "Device::get_transform_feedbacki_v");
    assert_eq!(
        methods("glNamedBufferStorage"),
        "CommandList::named_buffer_storage, CommandList::named_buffer_storage_from_slice"
    );
    assert_eq!(methods("glTextureSubImage2DEXT"), "CommandList::texture_sub_image_2d_ext");
    assert_eq!(methods("glMapBufferRange"), "Gl::MapBufferRange (Device::with_gl)");
    assert_eq!(methods("glGetError"), "Device::get_error");
    // Pixel uploads and reads are sized from pixel-store state by glcmd (issue 21): safe.
    assert_eq!(rows["glTexImage2D"][3], "no");
    assert_eq!(rows["glReadPixels"][3], "no");
    assert_eq!(rows["glMakeTextureHandleResidentARB"][3], "yes");
    assert_eq!(rows["glBindTexture"][3], "no");
    // Extension tags are words of their own: no `2dext`, `3dext`, `cmaaintel`.
    for (name, cols) in &rows {
        for tag in ["dext", "darb", "dnv", "aintel"] {
            assert!(!cols[0].contains(&format!("{tag},")) && !cols[0].ends_with(tag), "{name}: {}", cols[0]);
        }
    }
}

/// The header's prototypes, found independently of the generator: the name after `APIENTRY`
/// on every line that starts with `GLAPI`.
fn header_names() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("vendor/glcorearb.h")).unwrap();
    text.lines()
        .filter(|l| l.starts_with("GLAPI"))
        .map(|l| {
            let after = l.split("APIENTRY").nth(1).unwrap_or_else(|| panic!("GLAPI line without APIENTRY: {l}"));
            after.trim_start().split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap().to_string()
        })
        .collect()
}

#[test]
fn snapshot_of_the_whole_table() {
    insta::assert_snapshot!("list_table", table());
}

#[test]
fn one_row_per_header_prototype_and_gl_xml_only_function() {
    let header = header_names();
    assert_eq!(header.len(), 1278, "the vendored header has 1278 GLAPI prototypes");
    let header_set: BTreeSet<&str> = header.iter().map(String::as_str).collect();
    assert_eq!(header_set.len(), header.len(), "the header declares no function twice");

    // glcmd also generates the few gl.xml-only functions of `aliases::REGISTRY_ONLY`.
    let extra_names = glcmd_codegen::aliases::REGISTRY_ONLY;
    let expected = header.len() + extra_names.len();
    let rows = rows();
    assert_eq!(rows.len(), expected, "one row per prototype and gl.xml-only function");
    assert_eq!(table().lines().count(), expected + 1, "header line + one row per function");
    let mut header_set = header_set;
    header_set.extend(extra_names.iter().copied());
    let listed: BTreeSet<&str> = rows.keys().copied().collect();
    let missing: Vec<_> = header_set.difference(&listed).collect();
    let extra: Vec<_> = listed.difference(&header_set).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing from list: {missing:?}; not in header: {extra:?}");
    assert_eq!(api().functions.len(), expected);
}

#[test]
fn rows_are_sorted_by_name() {
    let names: Vec<&str> = table().lines().skip(1).map(|l| l.split('\t').next().unwrap()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
}

#[test]
fn every_kind_is_one_of_five_and_each_is_used() {
    let allowed = ["record", "create", "delete", "query", "special"];
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (name, (feature, kind, arrays)) in rows() {
        assert!(allowed.contains(&kind), "{name}: unknown kind {kind:?}");
        assert!(
            feature.starts_with("GL_VERSION_") || feature.starts_with("GL_"),
            "{name}: feature {feature:?} is not a GL feature macro"
        );
        assert!(!arrays.is_empty(), "{name}: the arrays column is `-` when there is none, never empty");
        *seen.entry(kind).or_default() += 1;
    }
    for k in allowed {
        assert!(seen.get(k).copied().unwrap_or(0) > 0, "no function of kind {k}: {seen:?}");
    }
}

#[test]
fn every_array_argument_has_a_known_rule() {
    // Every entry of the arrays column is `param:in|out:rule` with a known rule, or `param:offset`.
    let rule_ok = |r: &str| {
        r == "offset"
            || r == "in:bytes"
            || r == "out:bytes"
            || r == "in:string"
            || r == "out:string"
            || r == "out:one"
            || [
                "in:param(",
                "out:param(",
                "in:const(",
                "out:const(",
                "in:product(",
                "out:product(",
                "in:pname(",
                "out:pname(",
                "in:strings(",
            ]
            .iter()
            .any(|p| r.starts_with(p) && r.ends_with(')'))
    };
    for (name, (_, _, arrays)) in rows() {
        if arrays == "-" {
            continue;
        }
        for entry in arrays.split(',') {
            let (param, rule) = entry.split_once(':').unwrap_or_else(|| panic!("{name}: malformed entry {entry:?}"));
            assert!(!param.is_empty(), "{name}: entry without a parameter: {entry:?}");
            assert!(rule_ok(rule), "{name}: unknown rule {rule:?} in {entry:?}");
        }
    }
}

#[test]
fn no_pointer_parameter_is_left_a_plain_value() {
    // A pointer passed through as a plain value would be recorded as a process address: every
    // pointer parameter must have an array, offset, string, sync, opaque or derived role.
    use glcmd_codegen::model::Role;
    let mut unclassified = Vec::new();
    for f in &api().functions {
        for p in &f.params {
            if p.ty.is_pointer() && p.role == Role::Value {
                unclassified.push(format!("{}({})", f.name, p.name));
            }
        }
        // Every parameter named in a `Length { of }` is a parameter of the function.
        for p in &f.params {
            if let Role::Length { of } = &p.role {
                for o in of {
                    assert!(f.params.iter().any(|q| &q.name == o), "{}: `{}` sizes unknown `{o}`", f.name, p.name);
                }
            }
        }
    }
    assert!(unclassified.is_empty(), "pointer parameters with no role: {unclassified:?}");
}

#[test]
fn spot_checks() {
    let rows = rows();
    let row = |n: &str| *rows.get(n).unwrap_or_else(|| panic!("{n} is not listed"));

    assert_eq!(row("glBindTextures"), ("GL_VERSION_4_4", "record", "textures:in:param(count)"));
    assert_eq!(row("glUniformMatrix4fv"), ("GL_VERSION_2_0", "record", "value:in:product(count*16)"));
    assert_eq!(row("glDrawElementsInstanced"), ("GL_VERSION_3_1", "record", "indices:offset"));
    assert_eq!(row("glTexParameteriv"), ("GL_VERSION_1_0", "record", "params:in:pname(pname:TextureParameterName)"));
    assert_eq!(row("glGetIntegerv").1, "query");
    assert_eq!(row("glCreateTextures"), ("GL_VERSION_4_5", "create", "textures:out:param(n)"));
    assert_eq!(row("glDeleteBuffers"), ("GL_VERSION_1_5", "delete", "buffers:in:param(n)"));
    assert_eq!(row("glFenceSync"), ("GL_VERSION_3_2", "special", "-"));

    // More rows whose answer follows from the GL spec.
    assert_eq!(row("glBindTexture"), ("GL_VERSION_1_1", "record", "-"));
    assert_eq!(row("glGenBuffers").1, "create");
    assert_eq!(row("glCreateShader").1, "create");
    assert_eq!(row("glCreateProgram").1, "create");
    assert_eq!(row("glCreateShaderProgramv").1, "create");
    assert_eq!(row("glDeleteTextures").1, "delete");
    assert_eq!(row("glIsTexture").1, "query");
    // Hand-written queries: glcmd merges its own errors into glGetError, and sizes the
    // driver-sized outputs of these two itself.
    assert_eq!(row("glGetError").1, "special");
    assert_eq!(row("glGetProgramResourceiv").1, "special");
    assert_eq!(row("glGetDebugMessageLog").1, "special");
    // Lengths gl.xml gets wrong or leaves to a driver that ignores the size it is told.
    assert_eq!(row("glGetVertexAttribIiv").2, "params:out:pname(pname:VertexAttribEnum)");
    assert_eq!(row("glGetPerfQueryDataINTEL").2, "data:out:bytes,bytesWritten:out:one");
    assert_eq!(row("glGetPathCommandsNV").2, "commands:out:bytes");
    assert_eq!(row("glCheckFramebufferStatus").1, "query");
    assert_eq!(row("glReadPixels").1, "query");
    for special in [
        "glClientWaitSync",
        "glMapBuffer",
        "glMapBufferRange",
        "glMapNamedBufferRange",
        "glDebugMessageCallback",
        "glFinish",
        "glFlush",
    ] {
        assert_eq!(row(special).1, "special", "{special}");
    }
    assert_eq!(row("glVertexAttribPointer").2, "pointer:offset");
    assert_eq!(row("glDrawArraysIndirect").2, "indirect:offset");
    assert_eq!(row("glUniform4fv").2, "value:in:product(count*4)");
    assert_eq!(row("glUniformMatrix3x2fv").2, "value:in:product(count*6)");
    assert_eq!(row("glViewportArrayv").2, "v:in:product(count*4)");
    assert_eq!(row("glDepthRangeArrayv").2, "v:in:product(count*2)");
    assert!(row("glShaderSource").2.starts_with("string:in:strings(count)"), "{:?}", row("glShaderSource"));
    assert_eq!(row("glTransformFeedbackVaryings").2, "varyings:in:strings(count)");
    assert_eq!(row("glObjectLabel").2, "label:in:string");
    assert_eq!(row("glGetProgramInfoLog"), ("GL_VERSION_2_0", "query", "infoLog:out:string"));
    assert_eq!(row("glTextureSubImage2D"), ("GL_VERSION_4_5", "record", "pixels:in:bytes"));
    assert_eq!(row("glClearBufferfv").2, "value:in:pname(buffer:Buffer)");
    assert_eq!(row("glBindTextureUnit"), ("GL_VERSION_4_5", "record", "-"));
    assert_eq!(row("glBindImageTextures").2, "textures:in:param(count)");
    assert_eq!(row("glNamedFramebufferDrawBuffers").2, "bufs:in:param(n)");
    assert_eq!(row("glMultiDrawElementsIndirect").2, "indirect:offset");
    // Extensions carry their own feature.
    assert_eq!(row("glGetTextureHandleARB").0, "GL_ARB_bindless_texture");
}

#[test]
fn generation_is_byte_identical_across_runs() {
    let inputs = Inputs::vendored(&root());
    let a = generate(&inputs).unwrap_or_else(|e| panic!("{e}"));
    let b = generate(&inputs).unwrap_or_else(|e| panic!("{e}"));
    assert!(!a.is_empty());
    assert_eq!(a.len(), b.len());
    for ((na, sa), (nb, sb)) in a.iter().zip(&b) {
        assert_eq!(na, nb);
        assert!(sa == sb, "{na} differs between two runs");
        assert!(sa.starts_with("// @generated"), "{na} must say it is generated");
    }
    let names: Vec<&str> = a.iter().map(|(n, _)| *n).collect();
    for expected in ["types.rs", "enums.rs", "loader.rs", "commands.rs", "device.rs"] {
        assert!(names.contains(&expected), "{expected} not generated: {names:?}");
    }
}

#[test]
fn cli_list_equals_list_table() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_glcmd-codegen"))
        .arg("list")
        .output()
        .expect("run glcmd-codegen list");
    assert!(out.status.success(), "glcmd-codegen list failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout == table(), "`glcmd-codegen list` differs from list_table()");
}

#[test]
fn cli_list_with_explicit_inputs_equals_list_table() {
    let r = root();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_glcmd-codegen"))
        .arg("list")
        .arg("--header")
        .arg(r.join("vendor/glcorearb.h"))
        .arg("--registry")
        .arg(r.join("vendor/gl.xml"))
        .output()
        .expect("run glcmd-codegen list");
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).unwrap() == table());
}

// Known codegen bugs and regressions ---------------------------------------------------------
// Each test states the right answer for a bug found and fixed in codegen/src.

#[test]
fn generate_mipmap_is_recorded_not_created() {
    let rows = rows();
    for name in
        ["glGenerateMipmap", "glGenerateTextureMipmap", "glGenerateMultiTexMipmapEXT", "glGenerateTextureMipmapEXT"]
    {
        assert_eq!(rows[name].1, "record", "{name} changes texture state; it must be recorded in order");
    }
}

/// Regression: `assign_roles` once overwrote the LengthArray role of `length` with
/// `In(Param(count))`, so the safe method took a caller `length` array.
#[test]
fn shader_source_length_array_is_derived_from_the_strings() {
    let rows = rows();
    // DESIGN.md: `glShaderSource` takes `&[&str]`; the `length` array comes from the strings.
    for name in ["glShaderSource", "glCompileShaderIncludeARB"] {
        let arrays = rows[name].2;
        assert!(!arrays.contains("length:in:"), "{name}: `length` must be derived, not a caller array: {arrays}");
    }
}

#[test]
fn amd_perf_monitor_input_arrays_are_inputs() {
    let rows = rows();
    assert_eq!(rows["glDeletePerfMonitorsAMD"].1, "delete");
    assert_eq!(rows["glDeletePerfMonitorsAMD"].2, "monitors:in:param(n)");
    assert_eq!(rows["glSelectPerfMonitorCountersAMD"].1, "record");
    assert_eq!(rows["glSelectPerfMonitorCountersAMD"].2, "counterList:in:param(numCounters)");
}

/// The binding shadow's table (`shadow_hooks::hook`) is hand-written: every function whose name says
/// it binds a vertex or element buffer, changes a vertex array's attribute pointers, enables or
/// bindings, deletes buffers or vertex arrays, or draws from the vertex array must be in it, so
/// a function added to the header cannot slip past the offset checks unnoticed.
#[test]
fn every_function_that_touches_tracked_bindings_has_a_shadow_hook() {
    use glcmd_codegen::shadow_hooks::hook;
    let touches = |n: &str| {
        let base = n.trim_end_matches("ARB").trim_end_matches("EXT");
        matches!(
            base,
            "glBindBuffer"
                | "glBindVertexArray"
                | "glBindVertexBuffer"
                | "glBindVertexBuffers"
                | "glVertexArrayVertexBuffer"
                | "glVertexArrayVertexBuffers"
                | "glVertexArrayElementBuffer"
                | "glVertexAttribBinding"
                | "glVertexArrayAttribBinding"
                | "glEnableVertexAttribArray"
                | "glDisableVertexAttribArray"
                | "glEnableVertexArrayAttrib"
                | "glDisableVertexArrayAttrib"
                | "glDeleteBuffers"
                | "glDeleteVertexArrays"
                | "glDispatchComputeIndirect"
        ) || (base.starts_with("glVertexAttrib") && base.ends_with("Pointer"))
            || ((n.starts_with("glDraw") || n.starts_with("glMultiDraw"))
                && (n.contains("Arrays") || n.contains("Elements")))
    };
    let touching = api().functions.iter().filter(|f| touches(&f.name)).count();
    assert!(touching > 40, "the patterns match {touching} functions: too few to mean anything");
    let missing: Vec<&str> = api()
        .functions
        .iter()
        .filter(|f| touches(&f.name) && hook(f).is_none())
        // Bindless and NV vertex-program forms take GPU addresses or fixed-function arrays and
        // are `unsafe` (their contract is the caller's), so the shadow does not watch them.
        .filter(|f| !f.is_unsafe())
        .map(|f| f.name.as_str())
        .collect();
    assert!(missing.is_empty(), "functions that touch tracked bindings with no shadow hook: {missing:?}");
}
