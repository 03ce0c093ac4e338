//! Joins the header and gl.xml, cross-checks them and gives every function its kind and every
//! pointer its length rule.
//!
//! The header is the authority on *which* functions exist and their C signature; gl.xml is the
//! authority on what each pointer means. A function whose signature differs between the two is
//! an error naming both places.
//!
//! Length rules, in order of preference: gl.xml's own `len` first, as the authority on what a
//! pointer means; a caller-sized slice, which leaves the length to the caller and so makes the
//! method `unsafe`, only where no rule is known:
//! 1. gl.xml `len`: a parameter (`n`), a constant (`16`), a product (`count*4`);
//! 2. `COMPSIZE(pname)`: a hand-written table per enum group (`pname_tables.rs`);
//! 3. pixel data and other state-dependent sizes: a byte slice that the recording method checks
//!    where it knows the GL's rule (`sizing.rs`: pixel uploads from the list's own pixel-store
//!    state, one-texel clear values), else a caller-sized one (`unsafe`);
//! 4. core-profile pointers that are offsets into a bound buffer: `usize`;
//! 5. strings: `&str`, and `&[&str]` for arrays of strings.
//!
//! gl.xml has no `len` for a few pointers whose length the extension specs do give; those are
//! in [`LEN_OVERRIDES`], the one place where the generator knows better than the registry.

use std::collections::{BTreeMap, HashMap};

use crate::ctype::CType;
use crate::error::{Error, Position};
use crate::header::Header;
use crate::model::{Alias, Api, Family, Function, Kind, Param, Provision, Redirect, Role, Rule};
use crate::pname_tables;
use crate::registry::Registry;

/// Functions that fit no generated kind, with the reason. They are hand-written in the runtime
/// or reached through `Device::with_gl`.
pub const SPECIAL: &[(&str, &str)] = &[
    ("glFenceSync", "recorded in place; returns a glcmd Sync handle that replay fills in"),
    ("glClientWaitSync", "blocks on a fence: Device::client_wait_sync waits from the caller's side; the recorded CommandList::client_wait_sync blocks replay at its place"),
    ("glFinish", "a whole-pipeline barrier; Device::finish waits for submitted lists, then calls it"),
    ("glFlush", "Device::flush; replay decides when to flush"),
    ("glMapBuffer", "returns process memory that outlives the call; use Device::with_gl"),
    ("glMapBufferRange", "returns process memory that outlives the call; use Device::with_gl"),
    ("glMapNamedBuffer", "returns process memory that outlives the call; use Device::with_gl"),
    ("glMapNamedBufferRange", "returns process memory that outlives the call; use Device::with_gl"),
    ("glMapNamedBufferEXT", "returns process memory that outlives the call; use Device::with_gl"),
    ("glMapNamedBufferRangeEXT", "returns process memory that outlives the call; use Device::with_gl"),
    ("glDebugMessageCallback", "a callback on the render thread; glcmd's diagnostics chain it"),
    ("glDebugMessageCallbackARB", "a callback on the render thread; glcmd's diagnostics chain it"),
    ("glCreateSyncFromCLeventARB", "takes OpenCL process pointers; use Device::with_gl"),
    ("glImportSyncEXT", "imports an external sync handle; use Device::with_gl"),
    (
        "glGetProgramResourceiv",
        "a hand-written query (Device::get_program_resourceiv): drivers write more than `count` values for \
         GL_ACTIVE_VARIABLES and GL_COMPATIBLE_SUBROUTINES (Mesa does), so glcmd asks for those counts first and \
         sizes the result itself",
    ),
    (
        "glGetDebugMessageLog",
        "a hand-written query (Device::get_debug_message_log): returns each message with its own text",
    ),
    (
        "glGetDebugMessageLogARB",
        "a hand-written query (Device::get_debug_message_log): returns each message with its own text",
    ),
    (
        "glGetError",
        "a hand-written query (Device::get_error): also returns the GL_INVALID_OPERATION glcmd raises for a \
         command it skipped because an argument was unsafe",
    ),
];

/// Lengths that gl.xml omits or states only as an opaque COMPSIZE, taken from the GL spec or
/// the extension spec. (function, parameter, rule as a len string).
pub const LEN_OVERRIDES: &[(&str, &str, &str)] = &[
    ("glViewportArrayv", "v", "count*4"),
    ("glScissorArrayv", "v", "count*4"),
    ("glDepthRangeArrayv", "v", "count*2"),
    ("glWindowRectanglesEXT", "box", "count*4"),
    ("glScissorExclusiveArrayvNV", "v", "count*4"),
    ("glDepthRangeArraydvNV", "v", "count*2"),
    ("glFramebufferSampleLocationsfvARB", "v", "count*2"),
    ("glNamedFramebufferSampleLocationsfvARB", "v", "count*2"),
    ("glFramebufferSampleLocationsfvNV", "v", "count*2"),
    ("glNamedFramebufferSampleLocationsfvNV", "v", "count*2"),
    ("glVertexAttribL1ui64vARB", "v", "1"),
    ("glMatrixLoad3x2fNV", "m", "6"),
    ("glMatrixMult3x2fNV", "m", "6"),
    ("glMatrixLoad3x3fNV", "m", "9"),
    ("glMatrixLoadTranspose3x3fNV", "m", "9"),
    ("glMatrixMult3x3fNV", "m", "9"),
    ("glMatrixMultTranspose3x3fNV", "m", "9"),
    ("glSpecializeShaderARB", "pConstantIndex", "numSpecializationConstants"),
    ("glSpecializeShaderARB", "pConstantValue", "numSpecializationConstants"),
    ("glGetProgramResourcefvNV", "props", "propCount"),
    // bufSize counts bytes (NV_framebuffer_mixed_samples).
    ("glGetCoverageModulationTableNV", "v", "bufSize/4"),
    // gl.xml says 1, but GL_CURRENT_VERTEX_ATTRIB writes 4 (apitrace, Mesa's varray.c).
    ("glGetVertexAttribIiv", "params", "COMPSIZE(pname)"),
    ("glGetVertexAttribIuiv", "params", "COMPSIZE(pname)"),
    // gl.xml says 4, the most any pname writes; the driver writes 1 for every pname but
    // GL_CURRENT_VERTEX_ATTRIB, and glcmd copies what it wrote (runtime/query_out.rs).
    ("glGetVertexAttribiv", "params", "COMPSIZE(pname)"),
    ("glGetVertexAttribfv", "params", "COMPSIZE(pname)"),
    ("glGetVertexAttribdv", "params", "COMPSIZE(pname)"),
    // The UniformBlockPName table knows every pname, including the queried index list.
    ("glGetActiveUniformBlockiv", "params", "COMPSIZE(pname)"),
    ("glGetMemoryObjectDetachedResourcesuivNV", "params", "count"),
    ("glDrawCommandsNV", "indirects", "count"),
    ("glDrawCommandsNV", "sizes", "count"),
    ("glDrawCommandsAddressNV", "indirects", "count"),
    ("glDrawCommandsAddressNV", "sizes", "count"),
    ("glDrawCommandsStatesNV", "indirects", "count"),
    ("glDrawCommandsStatesNV", "sizes", "count"),
    ("glDrawCommandsStatesNV", "states", "count"),
    ("glDrawCommandsStatesNV", "fbos", "count"),
    ("glDrawCommandsStatesAddressNV", "indirects", "count"),
    ("glDrawCommandsStatesAddressNV", "sizes", "count"),
    ("glDrawCommandsStatesAddressNV", "states", "count"),
    ("glDrawCommandsStatesAddressNV", "fbos", "count"),
    // glClearBuffer*v: GL_COLOR takes 4 values, GL_DEPTH and GL_STENCIL one.
    ("glClearBufferiv", "value", "COMPSIZE(buffer)"),
    // One value per uniform index, whatever the pname.
    ("glGetActiveUniformsiv", "params", "uniformCount"),
];

/// Outputs that gl.xml gives no length and that write exactly one value (checked against
/// apitrace's glapi.py and the extension specs).
const SINGLE_OUTPUTS: &[(&str, &str)] = &[
    ("glCreatePerfQueryINTEL", "queryHandle"),
    ("glGetFirstPerfQueryIdINTEL", "queryId"),
    ("glGetNextPerfQueryIdINTEL", "nextQueryId"),
    ("glGetPerfCounterInfoINTEL", "counterOffset"),
    ("glGetPerfCounterInfoINTEL", "counterDataSize"),
    ("glGetPerfCounterInfoINTEL", "counterTypeEnum"),
    ("glGetPerfCounterInfoINTEL", "counterDataTypeEnum"),
    ("glGetPerfCounterInfoINTEL", "rawCounterMaxValue"),
    ("glGetPerfQueryDataINTEL", "bytesWritten"),
    ("glGetPerfQueryIdByNameINTEL", "queryId"),
    ("glGetPerfQueryInfoINTEL", "dataSize"),
    ("glGetPerfQueryInfoINTEL", "noCounters"),
    ("glGetPerfQueryInfoINTEL", "noInstances"),
    ("glGetPerfQueryInfoINTEL", "capsMask"),
];

/// Outputs whose size the driver decides, ignoring (or not being told) the size glcmd passes:
/// the method is `unsafe` and the caller sizes the buffer. (function, parameter, why).
pub const DRIVER_SIZED_OUTPUTS: &[(&str, &str, &str)] = &[
    (
        "glGetPerfQueryDataINTEL",
        "data",
        "Mesa's Intel backend writes the whole query result whatever `dataSize` says: allocate at least the \
         query's data size (glGetPerfQueryInfoINTEL).",
    ),
    (
        "glGetPerfMonitorCounterDataAMD",
        "data",
        "Mesa writes every active counter's result whatever `dataSize` says: allocate at least the size \
         GL_PERFMON_RESULT_SIZE_AMD reports.",
    ),
    ("glGetPathCommandsNV", "commands", "The GL writes the path's GL_PATH_COMMAND_COUNT_NV commands."),
    ("glGetPathCoordsNV", "coords", "The GL writes the path's GL_PATH_COORD_COUNT_NV coordinates."),
    ("glGetPathDashArrayNV", "dashArray", "The GL writes the path's GL_PATH_DASH_ARRAY_COUNT_NV values."),
    (
        "glGetProgramResourcefvNV",
        "params",
        "Like glGetProgramResourceiv, a driver may write more than `count` values for variable-length \
         properties; allocate for the largest.",
    ),
];

fn driver_sized(function: &str, param: &str) -> Option<&'static str> {
    DRIVER_SIZED_OUTPUTS.iter().find(|(f, p, _)| *f == function && *p == param).map(|(_, _, r)| *r)
}

/// A parameter that counts bytes, so `COMPSIZE(it)` is the length itself.
fn is_byte_size(name: &str) -> bool {
    name == "size" || name.ends_with("Size") || name == "uniformCount"
}

/// Pointer parameters that the GL only reads although gl.xml declares them writable.
const INPUT_POINTERS: &[(&str, &str)] = &[
    ("glGetPerfQueryIdByNameINTEL", "queryName"),
    ("glDeletePerfMonitorsAMD", "monitors"),
    ("glSelectPerfMonitorCountersAMD", "counterList"),
];

/// Arrays the GL accepts as NULL: `(function, parameter)`. Their count stays an argument and
/// the Rust API takes `Option<&[T]>` (checked against the count when `Some`).
pub const NULLABLE: &[(&str, &str)] = &[
    ("glBufferData", "data"),
    ("glNamedBufferData", "data"),
    ("glNamedBufferDataEXT", "data"),
    ("glBufferStorage", "data"),
    ("glNamedBufferStorage", "data"),
    ("glNamedBufferStorageEXT", "data"),
    ("glBindTextures", "textures"),
    ("glBindSamplers", "samplers"),
    ("glBindImageTextures", "textures"),
    ("glBindBuffersBase", "buffers"),
    ("glBindBuffersRange", "buffers"),
    ("glBindVertexBuffers", "buffers"),
    ("glVertexArrayVertexBuffers", "buffers"),
];

/// Pointer parameter names that, in the core profile, are offsets into a bound buffer.
const OFFSET_NAMES: &[&str] = &["indices", "pointer", "indirect"];

/// Typedefs that are process pointers; a function taking one by value is special.
const POINTER_TYPEDEFS: &[&str] =
    &["GLeglImageOES", "GLeglClientBufferEXT", "GLDEBUGPROC", "GLDEBUGPROCARB", "GLDEBUGPROCAMD", "GLVULKANPROCNV"];

/// Builds the model, or every error found.
pub fn build(header: &Header, header_path: &std::path::Path, registry: &Registry) -> Result<Api, Vec<Error>> {
    let mut errors = Vec::new();
    let mut functions = Vec::new();
    let header_at = |line| Position { file: header_path.to_path_buf(), line };
    let registry_at = |line| Position { file: registry.path.clone(), line };
    let defined: std::collections::HashSet<&str> = header.enums.iter().map(|d| d.name.as_str()).collect();

    let registry_only = crate::aliases::registry_only(registry);
    for proto in header.prototypes.iter().chain(&registry_only) {
        let Some(command) = registry.commands.get(&proto.name) else {
            errors.push(Error::Classify {
                at: header_at(proto.line),
                function: proto.name.clone(),
                message: format!("not found in {}", registry.path.display()),
            });
            continue;
        };
        let mismatch = |message: String| Error::Mismatch {
            header: header_at(proto.line),
            registry: registry_at(command.line),
            function: proto.name.clone(),
            message,
        };
        if proto.ret != command.ret {
            errors.push(mismatch(format!("returns `{}` in the header but `{}` in gl.xml", proto.ret, command.ret)));
            continue;
        }
        if proto.params.len() != command.params.len() {
            errors.push(mismatch(format!(
                "has {} parameters in the header but {} in gl.xml",
                proto.params.len(),
                command.params.len()
            )));
            continue;
        }
        let mut ok = true;
        for ((ty, name), p) in proto.params.iter().zip(&command.params) {
            if *ty != p.ty || *name != p.name {
                errors.push(mismatch(format!(
                    "parameter `{ty} {name}` in the header is `{} {}` in gl.xml (line {})",
                    p.ty, p.name, p.line
                )));
                ok = false;
            }
        }
        if !ok {
            continue;
        }
        let params: Vec<Param> = command
            .params
            .iter()
            .map(|p| Param {
                name: p.name.clone(),
                ty: p.ty.clone(),
                len: override_len(&proto.name, &p.name).map(str::to_string).or_else(|| p.len.clone()),
                group: p.group.clone(),
                class: p.class.clone(),
                role: Role::Value,
                nullable: NULLABLE.contains(&(proto.name.as_str(), p.name.as_str())),
                unpack_offset: false,
            })
            .collect();
        let mut f = Function {
            name: proto.name.clone(),
            feature: proto.feature.clone(),
            ret: proto.ret.clone(),
            ret_class: command.ret_class.clone(),
            params,
            kind: Kind::Record,
            special_reason: None,
            header_line: proto.line,
            unsafe_reason: None,
            providers: crate::aliases::desktop_providers(registry, &proto.name),
            redirect: None,
            variant: None,
        };
        match assign_roles(&mut f) {
            Ok(()) => {
                f.kind = kind_of(&f);
                f.redirect = redirect_of(&f);
                mark_unsafe_bytes(&mut f);
                mark_unsafe_families(&mut f);
                functions.push(f);
            }
            Err(message) => {
                errors.push(Error::Classify { at: header_at(proto.line), function: proto.name.clone(), message })
            }
        }
    }

    if !errors.is_empty() {
        return Err(errors);
    }
    functions.sort_by(|a, b| a.name.cmp(&b.name));
    let (groups, narrow_groups) = enum_groups(header, registry, &defined);
    let aliases = crate::aliases::collect(registry, &functions);
    let (extensions, versions) = provisions(registry, &functions, &aliases);
    Ok(Api {
        enums: header
            .enums
            .iter()
            .map(|d| (d.name.clone(), d.value))
            .chain(crate::aliases::registry_only_enums(registry))
            .collect(),
        typedefs: header.typedefs.iter().map(|t| (t.name.clone(), t.definition.clone())).collect(),
        groups,
        narrow_groups,
        extensions,
        versions,
        functions,
        aliases,
    })
}

/// gl.xml's enum groups with the members the header defines, and the groups whose every member
/// is below 0xFFFF ([`Api::narrow_groups`]).
fn enum_groups(
    header: &Header,
    registry: &Registry,
    defined: &std::collections::HashSet<&str>,
) -> (BTreeMap<String, Vec<String>>, std::collections::BTreeSet<String>) {
    let mut groups = BTreeMap::new();
    for (group, names) in &registry.groups {
        let names: Vec<String> = names.iter().filter(|n| defined.contains(n.as_str())).cloned().collect();
        if !names.is_empty() {
            groups.insert(group.clone(), names);
        }
    }
    let values: HashMap<&str, u64> = header.enums.iter().map(|d| (d.name.as_str(), d.value)).collect();
    let narrow_groups = groups
        .iter()
        .filter(|(_, members)| members.iter().all(|m| values.get(m.as_str()).is_some_and(|&v| v < 0xFFFF)))
        .map(|(g, _)| g.clone())
        .collect();
    (groups, narrow_groups)
}

/// What every extension and core version requires, each function with the family of its entry
/// point: a generated function's, or an alias's (`crate::aliases`).
fn provisions(registry: &Registry, functions: &[Function], aliases: &[Alias]) -> (Vec<Provision>, Vec<Provision>) {
    let mut families: HashMap<&str, Family> = functions.iter().map(|f| (f.name.as_str(), f.family())).collect();
    families.extend(aliases.iter().map(|a| (a.name.as_str(), a.family)));
    let extensions = registry.extensions.iter().map(|r| provision(r, &families)).collect();
    (extensions, registry.versions.iter().map(|r| provision(r, &families)).collect())
}

/// An extension's or version's requirements, with the family of each function's entry point
/// (`None` for a function the header does not declare).
fn provision(r: &crate::registry::Requirement, families: &HashMap<&str, Family>) -> Provision {
    let with_family = |names: &[String]| names.iter().map(|n| (n.clone(), families.get(n.as_str()).copied())).collect();
    Provision {
        name: r.name.clone(),
        functions: with_family(&r.commands),
        conditional: r.conditional.iter().map(|(c, names)| (c.clone(), with_family(names))).collect(),
    }
}

fn override_len(function: &str, param: &str) -> Option<&'static str> {
    LEN_OVERRIDES.iter().find(|(f, p, _)| *f == function && *p == param).map(|(_, _, l)| *l).or(
        match (function, param) {
            (
                "glClearBufferuiv"
                | "glClearBufferfv"
                | "glClearNamedFramebufferiv"
                | "glClearNamedFramebufferuiv"
                | "glClearNamedFramebufferfv",
                "value",
            ) => Some("COMPSIZE(buffer)"),
            _ => None,
        },
    )
}

fn kind_of(f: &Function) -> Kind {
    let n = f.name.as_str();
    if SPECIAL.iter().any(|(s, _)| *s == n) || f.special_reason.is_some() {
        return Kind::Special;
    }
    let has_out = f.params.iter().any(|p| matches!(p.role, Role::Out(_)));
    // glGenerateMipmap is a command, not a name generator.
    if (n.starts_with("glGen") && !n.starts_with("glGenerate")) || n.starts_with("glCreate") {
        return Kind::Create;
    }
    if n.starts_with("glDelete") && !has_out {
        return Kind::Delete;
    }
    if !f.ret.is_void() || has_out {
        return Kind::Query;
    }
    Kind::Record
}

fn is_char(t: &CType) -> bool {
    matches!(t.base.as_str(), "GLchar" | "GLcharARB")
}

fn is_integer_scalar(t: &CType) -> bool {
    !t.is_pointer()
        && matches!(
            t.base.as_str(),
            "GLsizei" | "GLint" | "GLuint" | "GLsizeiptr" | "GLsizeiptrARB" | "GLintptr" | "GLint64" | "GLuint64"
        )
}

/// Gives every parameter its role. Errors name the parameter.
fn assign_roles(f: &mut Function) -> Result<(), String> {
    if let Some((_, reason)) = SPECIAL.iter().find(|(s, _)| *s == f.name) {
        f.special_reason = Some(reason);
    }
    for i in 0..f.params.len() {
        assign_role(f, i)?;
    }
    // Compressed pixel data sized in bytes may also come from the pixel-unpack buffer.
    if f.name.contains("Compressed") && f.name.contains("Image") {
        for p in f.params.iter_mut() {
            if matches!(&p.role, Role::In(Rule::Param(_))) && p.ty.pointee().base == "void" {
                p.unpack_offset = true;
            }
        }
    }
    settle_counts(f);
    Ok(())
}

/// Whether `f` has an integer parameter `name` (one that can be a count or a size).
fn is_scalar_param(f: &Function, name: &str) -> bool {
    f.params.iter().find(|p| p.name == name).filter(|p| is_integer_scalar(&p.ty)).is_some()
}

/// The enum group of parameter `name`, when a pname table gives the counts of its values.
fn pname_table_group(f: &Function, name: &str) -> Option<String> {
    let p = f.params.iter().find(|p| p.name == name)?;
    let g = p.group.clone()?;
    pname_tables::table(&g).map(|_| g)
}

/// Gives parameter `i` its role, unless an earlier parameter gave it one: scalars stay values
/// (or syncs), and pointers become offsets, strings, pointer arrays or arrays with a rule.
fn assign_role(f: &mut Function, i: usize) -> Result<(), String> {
    let p = f.params[i].clone();
    // A role given by an earlier parameter (the `length` array of a string array) stays.
    if p.role != Role::Value {
        return Ok(());
    }
    if p.ty.base == "GLsync" && !p.ty.is_pointer() {
        f.params[i].role = Role::Sync;
        return Ok(());
    }
    if !p.ty.is_pointer() {
        if POINTER_TYPEDEFS.contains(&p.ty.base.as_str()) && f.special_reason.is_none() {
            f.special_reason = Some("takes a process pointer (callback or EGL handle); use Device::with_gl");
        }
        return Ok(());
    }
    let input = p.ty.points_to_const() || INPUT_POINTERS.contains(&(f.name.as_str(), p.name.as_str()));
    let pointee = p.ty.pointee();
    let depth = p.ty.pointers.len();

    // Sync objects named through a void pointer (glObjectPtrLabel).
    if p.name == "ptr" && f.name.contains("ObjectPtrLabel") {
        f.params[i].role = Role::Sync;
        return Ok(());
    }
    if p.name == "userParam" {
        f.params[i].role = Role::Opaque;
        return Ok(());
    }
    if input && OFFSET_NAMES.contains(&p.name.as_str()) && pointee.base == "void" && depth == 1 {
        f.params[i].role = Role::Offset;
        return Ok(());
    }
    if depth > 2 {
        return Err(format!("parameter `{}` has {depth} levels of pointers", p.name));
    }
    if is_char(&pointee) || (depth == 2 && is_char(&pointee.pointee())) {
        return match (depth, input) {
            (2, _) => string_array_role(f, i, input),
            (_, true) => {
                input_string_role(f, i);
                Ok(())
            }
            (_, false) => {
                output_string_role(f, i);
                Ok(())
            }
        };
    }
    if depth == 2 {
        return pointer_array_role(f, i, input);
    }
    let rule = array_rule(f, &p, input)?;
    set_array_role(f, i, input, rule)
}

/// An array of strings (`const GLchar *const*`), with its count and a parallel `length` array
/// derived from the strings.
fn string_array_role(f: &mut Function, i: usize, input: bool) -> Result<(), String> {
    let p = f.params[i].clone();
    let count = p
        .len
        .clone()
        .map(|l| strip_compsize(&l))
        .filter(|c| is_scalar_param(f, c))
        .ok_or_else(|| format!("string array `{}` has no count parameter (len {:?})", p.name, p.len))?;
    if !input {
        return Err(format!("output string array `{}` is not supported", p.name));
    }
    f.params[i].role = Role::In(Rule::Strings(count.clone()));
    mark_length(f, &count, &p.name);
    // A parallel `const GLint *length` array is derived from the strings.
    if let Some(j) = f.params.iter().position(|q| q.name == "length" && q.ty.is_pointer()) {
        f.params[j].role = Role::LengthArray { of: p.name.clone() };
    }
    Ok(())
}

/// An input string: `&str`. The string's byte length argument, if it has one, comes from the
/// `&str`: `len="namelen"`, `COMPSIZE(label,length)`, or a bare `length` beside it.
fn input_string_role(f: &mut Function, i: usize) {
    let p = f.params[i].clone();
    f.params[i].role = Role::In(Rule::String);
    let named = match p.len.as_deref().map(parse_len) {
        Some(Some(Rule::Param(x))) if is_scalar_param(f, &x) => Some(x),
        _ => None,
    };
    let length = named.or_else(|| {
        let mentions = p.len.as_deref().is_none_or(|l| l.contains("length"));
        (mentions && is_scalar_param(f, "length")).then(|| "length".to_string())
    });
    if let Some(x) = length {
        if let Some(j) = f.params.iter().position(|q| q.name == x) {
            f.params[j].role = Role::Length { of: vec![p.name.clone()] };
        }
    }
}

/// An output string: as long as its buffer-size parameter, or caller-sized bytes (`unsafe`)
/// without one; a `GLsizei *length` beside it receives how much the GL wrote.
fn output_string_role(f: &mut Function, i: usize) {
    let p = f.params[i].clone();
    let rule = match p.len.as_deref().map(parse_len) {
        Some(Some(r @ Rule::Param(_))) => r,
        _ => Rule::Bytes,
    };
    // Caller-sized bytes make the method `unsafe`: `mark_unsafe_bytes`.
    f.params[i].role = Role::Out(if rule == Rule::Bytes { Rule::Bytes } else { Rule::String });
    if let Rule::Param(_) = rule {
        f.params[i].len = p.len.clone();
    }
    if let Some(j) = f.params.iter().position(|q| q.name == "length" && q.ty.is_pointer() && !q.ty.points_to_const()) {
        f.params[j].role = Role::OutLength { of: p.name.clone() };
    }
}

/// A pointer to pointers that is no string array: client-memory pointers (the function is
/// special), an array of buffer offsets (`const void *const*indices`), or one output pointer.
fn pointer_array_role(f: &mut Function, i: usize, input: bool) -> Result<(), String> {
    let p = f.params[i].clone();
    if p.ty.base_const && !p.ty.pointers[0] {
        // `const void **`: an array of client-memory pointers, which a list cannot own.
        f.special_reason = Some("takes an array of client-memory pointers; use Device::with_gl");
        f.params[i].role = Role::Opaque;
        return Ok(());
    }
    // `const void *const*indices`: an array of buffer offsets.
    let count = p.len.clone().map(|l| strip_compsize(&l)).filter(|c| is_scalar_param(f, c));
    match (input, count) {
        (true, Some(c)) if p.name == "indices" => {
            f.params[i].role = Role::In(Rule::Param(c.clone()));
            mark_length(f, &c, &p.name);
        }
        (false, _) if p.len.is_none() || p.len.as_deref() == Some("1") => f.params[i].role = Role::Out(Rule::One),
        _ => return Err(format!("pointer-to-pointer `{}` (len {:?}) has no rule", p.name, p.len)),
    }
    Ok(())
}

/// The length rule of a plain array, from its gl.xml `len` (or its absence).
fn array_rule(f: &Function, p: &Param, input: bool) -> Result<Rule, String> {
    Ok(match p.len.as_deref() {
        None if input => Rule::Bytes,
        None if driver_sized(&f.name, &p.name).is_some() => Rule::Bytes,
        None => match pname_table_group(f, "pname") {
            Some(group) => Rule::Pname { group, param: "pname".into() },
            // gl.xml gives no length: only outputs known to be one value are accepted.
            None if SINGLE_OUTPUTS.contains(&(f.name.as_str(), p.name.as_str())) => Rule::One,
            // Hand-written functions take these as opaque process pointers.
            None if f.special_reason.is_some() => Rule::One,
            None => {
                return Err(format!(
                    "output `{}` has no length in gl.xml and no pname table; add it to LEN_OVERRIDES, \
                     SINGLE_OUTPUTS or DRIVER_SIZED_OUTPUTS in codegen/src/classify.rs",
                    p.name
                ))
            }
        },
        Some(_) if !input && driver_sized(&f.name, &p.name).is_some() => Rule::Bytes,
        Some(len) => match parse_len(len) {
            Some(Rule::Param(x)) if !is_scalar_param(f, &x) => {
                return Err(format!("`{}` has len `{len}`, but `{x}` is not an integer parameter", p.name))
            }
            Some(r @ (Rule::Product(..) | Rule::Quotient(..))) => r,
            Some(Rule::Param(x)) => Rule::Param(x),
            Some(Rule::Const(1)) if !input => Rule::One,
            Some(r) => r,
            None => compsize_rule(f, p, len)?,
        },
    })
}

/// The rule of a `COMPSIZE(...)` length: a pname table, a byte size, or caller-sized bytes.
fn compsize_rule(f: &Function, p: &Param, len: &str) -> Result<Rule, String> {
    let args = compsize_args(len);
    let has_param = |a: &String| f.params.iter().any(|q| &q.name == a);
    Ok(match args.as_slice() {
        [a] if pname_table_group(f, a).is_some() => {
            Rule::Pname { group: pname_table_group(f, a).unwrap(), param: a.clone() }
        }
        // COMPSIZE(x) means "computed from x": only a byte size is the length
        // itself (`COMPSIZE(size)`). Anything else (`COMPSIZE(count)` of a
        // four-value array, `COMPSIZE(path)` of an object name) needs its rule
        // written down in LEN_OVERRIDES.
        [a] if is_scalar_param(f, a) && has_param(a) && is_byte_size(a) => Rule::Param(a.clone()),
        [a] if is_scalar_param(f, a) && has_param(a) => {
            return Err(format!(
                "`{}` has len `{len}`: `{a}` is not a byte size, so the length cannot be taken \
                 from it; add the rule to LEN_OVERRIDES in codegen/src/classify.rs",
                p.name
            ))
        }
        _ => Rule::Bytes,
    })
}

/// Gives a plain array its rule, after checking the parameters the rule names: a caller-sized
/// one makes the function `unsafe`, and an input's count comes from its slice.
fn set_array_role(f: &mut Function, i: usize, input: bool, rule: Rule) -> Result<(), String> {
    let name = f.params[i].name.clone();
    if let Rule::Product(x, _) | Rule::Quotient(x, _) | Rule::Param(x) = &rule {
        if !is_scalar_param(f, x) {
            return Err(format!("`{name}` is sized by `{x}`, which is not an integer parameter"));
        }
    }
    if let Rule::Pname { param, .. } = &rule {
        if !f.params.iter().any(|q| &q.name == param) {
            return Err(format!("`{name}` is sized by pname `{param}`, which is not a parameter"));
        }
    }
    if input {
        if let Rule::Param(x) | Rule::Product(x, _) = &rule {
            mark_length(f, &x.clone(), &name);
        }
        f.params[i].role = Role::In(rule);
    } else {
        f.params[i].role = Role::Out(rule);
    }
    Ok(())
}

/// Which counts the caller passes after all: a count that sizes a NULL-able or offset-able
/// array stays an argument (it cannot come from a slice that may be absent), and so does a
/// count that sizes only outputs (the caller chooses it).
fn settle_counts(f: &mut Function) {
    let kept: Vec<String> = f
        .params
        .iter()
        .filter(|p| p.nullable || p.unpack_offset)
        .filter_map(|p| match &p.role {
            Role::In(Rule::Param(x) | Rule::Product(x, _)) => Some(x.clone()),
            _ => None,
        })
        .collect();
    for p in f.params.iter_mut() {
        if kept.contains(&p.name) && matches!(p.role, Role::Length { .. }) {
            p.role = Role::Value;
        }
    }
    // A count that sizes an output is the caller's to choose, unless an input sizes it too.
    for i in 0..f.params.len() {
        if let Role::Length { of } = &f.params[i].role {
            let sized_by_input =
                of.iter().any(|o| f.params.iter().any(|q| &q.name == o && matches!(q.role, Role::In(_))));
            if !sized_by_input {
                f.params[i].role = Role::Value;
            }
        }
    }
}

/// Marks the method `unsafe` for each caller-sized (`Rule::Bytes`) array, unless the recording
/// method sizes it itself from the GL's rule (`sizing.rs`: pixel uploads from the list's own
/// pixel-store state, one-texel clear values).
fn mark_unsafe_bytes(f: &mut Function) {
    let caller_sized: Vec<(String, bool)> = f
        .params
        .iter()
        .filter(|p| !crate::sizing::sized_by_recording(f, p) && !crate::sizing::sized_by_query(f, p))
        .filter_map(|p| match p.role {
            Role::In(Rule::Bytes) => Some((p.name.clone(), true)),
            Role::Out(Rule::Bytes) => Some((p.name.clone(), false)),
            _ => None,
        })
        .collect();
    for (name, input) in caller_sized {
        mark_unsafe(f, &name, input);
        if let Some(reason) = driver_sized(&f.name, &name) {
            f.unsafe_reason.as_mut().expect("just marked").push_str(&format!("\n{reason}"));
        }
    }
}

/// Records why a caller-sized array makes the method `unsafe` (its `# Safety` section).
fn mark_unsafe(f: &mut Function, param: &str, input: bool) {
    let ident = crate::naming::param_ident(param);
    let line = if input {
        format!(
            "`{ident}`: the GL reads as many bytes as it derives from the other arguments and from GL state \
             (dimensions, format and type, pixel-store parameters); the slice must hold at least that many."
        )
    } else {
        format!(
            "`{ident}`: the GL writes as many bytes as it derives from the other arguments and from GL state; \
             the buffer glcmd allocates has the size the caller gives, which must be at least that many."
        )
    };
    match &mut f.unsafe_reason {
        Some(r) => {
            r.push('\n');
            r.push_str(&line);
        }
        None => f.unsafe_reason = Some(line),
    }
}

/// Functions glcmd cannot make safe whatever it checks: GPU addresses and bindless handles,
/// and the compatibility profile's fixed-function client arrays (see `shadow_hooks.rs`).
fn mark_unsafe_families(f: &mut Function) {
    let reason = if crate::shadow_hooks::FIXED_FUNCTION_ARRAYS.contains(&f.name.as_str()) {
        Some(
            "Sets up or enables a compatibility-profile fixed-function client array, which glcmd does not track: \
             the caller guarantees that no enabled array reads a client pointer (every array reads a bound buffer).",
        )
    } else if matches!(f.kind, Kind::Record | Kind::Create | Kind::Delete)
        && crate::shadow_hooks::GPU_ADDRESS_EXTENSIONS.contains(&f.feature.as_str())
    {
        Some(
            "Hands the GPU raw addresses, bindless handles or operating-system handles (or runs command streams \
             made of them), which glcmd cannot check: an invalid one makes the GPU read or write arbitrary \
             memory. The caller guarantees that every address and handle is valid and resident for as long as \
             the GPU uses it.",
        )
    } else {
        None
    };
    if let Some(reason) = reason {
        match &mut f.unsafe_reason {
            Some(r) => {
                r.push('\n');
                r.push_str(reason);
            }
            None => f.unsafe_reason = Some(reason.to_string()),
        }
    }
    // `Bytes::None` (no data: allocate only) is accepted where the GL allows a null pointer:
    // the image uploads, compressed ones included (their `imageSize` is still checked by the GL
    // against the format; the contents are undefined, GL 4.6 §8.5, §8.7).
    if f.redirect == Some(Redirect::PixelUnpack) {
        let n = f.name.as_str();
        let allocates = !n.contains("Sub") && n.contains("Image");
        for p in f.params.iter_mut() {
            if allocates && (matches!(p.role, Role::In(Rule::Bytes)) || p.unpack_offset) {
                p.nullable = true;
            }
        }
    }
}

/// The buffer binding that redirects a function's client pointer into a buffer object.
fn redirect_of(f: &Function) -> Option<Redirect> {
    let n = f.name.strip_prefix("gl").unwrap_or(&f.name);
    let has = |input: bool| {
        f.params.iter().any(|p| match &p.role {
            Role::In(_) if input => p.ty.pointee().base == "void",
            Role::Out(_) if !input => p.ty.pointee().base == "void",
            _ => false,
        })
    };
    let image = |s: &str| {
        let s = s.strip_prefix("Compressed").unwrap_or(s);
        ["TexImage", "TexSubImage", "TextureImage", "TextureSubImage", "MultiTexImage", "MultiTexSubImage"]
            .iter()
            .any(|p| s.starts_with(p))
    };
    if f.kind == Kind::Record && image(n) && has(true) {
        return Some(Redirect::PixelUnpack);
    }
    let read = n.strip_prefix("Get").map(|g| g.strip_prefix('n').unwrap_or(g));
    let pack = n.starts_with("ReadPixels")
        || n.starts_with("ReadnPixels")
        || read.is_some_and(|g| {
            let g = g.strip_prefix("Compressed").unwrap_or(g);
            ["TexImage", "TextureImage", "TextureSubImage", "MultiTexImage"].iter().any(|p| g.starts_with(p))
        });
    if pack && has(false) {
        return Some(Redirect::PixelPack);
    }
    if n.starts_with("GetQueryObject") && f.params.iter().any(|p| matches!(p.role, Role::Out(_))) {
        return Some(Redirect::QueryBuffer);
    }
    None
}

/// Marks scalar `count` as derived from the slice `array`.
fn mark_length(f: &mut Function, count: &str, array: &str) {
    if let Some(p) = f.params.iter_mut().find(|p| p.name == count) {
        match &mut p.role {
            Role::Length { of } => of.push(array.to_string()),
            Role::Value => p.role = Role::Length { of: vec![array.to_string()] },
            _ => {}
        }
    }
}

fn strip_compsize(len: &str) -> String {
    let args = compsize_args(len);
    if args.len() == 1 {
        args[0].clone()
    } else {
        len.to_string()
    }
}

fn compsize_args(len: &str) -> Vec<String> {
    len.strip_prefix("COMPSIZE(")
        .and_then(|s| s.strip_suffix(')'))
        .map(|s| s.split(',').map(|a| a.trim().to_string()).filter(|a| !a.is_empty()).collect())
        .unwrap_or_default()
}

/// Parses `n`, `16`, `count*4`, `4*count`, `bufSize/4`. `COMPSIZE(...)` gives `None`.
pub fn parse_len(len: &str) -> Option<Rule> {
    let len = len.trim();
    let ident = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| c == '_' || c.is_ascii_alphanumeric())
            && !s.chars().next().unwrap().is_ascii_digit()
    };
    if let Ok(n) = len.parse::<u32>() {
        return Some(Rule::Const(n));
    }
    if ident(len) {
        return Some(Rule::Param(len.to_string()));
    }
    if let Some((a, b)) = len.split_once('*') {
        let (a, b) = (a.trim(), b.trim());
        return match (a.parse::<u32>(), b.parse::<u32>()) {
            (Err(_), Ok(1)) if ident(a) => Some(Rule::Param(a.into())),
            (Ok(1), Err(_)) if ident(b) => Some(Rule::Param(b.into())),
            (Err(_), Ok(n)) if ident(a) => Some(Rule::Product(a.into(), n)),
            (Ok(n), Err(_)) if ident(b) => Some(Rule::Product(b.into(), n)),
            _ => None,
        };
    }
    if let Some((a, b)) = len.split_once('/') {
        let (a, b) = (a.trim(), b.trim());
        if let (true, Ok(n)) = (ident(a), b.parse::<u32>()) {
            return Some(Rule::Quotient(a.into(), n));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn len_expressions() {
        assert_eq!(parse_len("n"), Some(Rule::Param("n".into())));
        assert_eq!(parse_len("16"), Some(Rule::Const(16)));
        assert_eq!(parse_len("count*4"), Some(Rule::Product("count".into(), 4)));
        assert_eq!(parse_len("bufSize / 4"), Some(Rule::Quotient("bufSize".into(), 4)));
        assert_eq!(parse_len("COMPSIZE(pname)"), None);
        assert_eq!(compsize_args("COMPSIZE(format,type,width)"), vec!["format", "type", "width"]);
    }
}
