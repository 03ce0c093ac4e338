//! Every argument form through every diagnostics path (issue 16, item 3).
//!
//! A packet encodes an argument in one of several forms: a slice's offset and length, a null
//! array (offset `u32::MAX`), `Bytes::None` and `Bytes::BufferOffset` (length markers), an
//! empty slice (an offset at the end of the parameter buffer), a string, a string table. The
//! readers of packets outside the execute path (the dump of reports and of `CommandList`'s
//! `Display`, attribution, strict mode, use-after-delete's object walk, the capture writer and
//! loader) must handle each without reading memory that is not there: strict mode once
//! segfaulted the render thread dumping the absent pixels of `tex_image_2d(.., Bytes::None)`.
//!
//! The regression tests (Rust and C ABI) replay that call under strict mode; the class tests
//! dump a list holding every form and replay it under every diagnostics level with errors
//! forced, so that reports are produced, and print what they covered.

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};
use std::time::Duration;

use glcmd::types::*;
use glcmd::{capture, gl, Bytes, CommandList, Device, DiagnosticOptions, Options, Report, ReportKind};

/// The call of the regression: an upload with no data into an immutable texture.
const TEX_IMAGE_NULL: &str = "glTexImage2D(GL_TEXTURE_2D, 0, 32856, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL)";

fn drain(device: &Device) -> Vec<Report> {
    // A round trip waits for every earlier list, so their reports are already sent.
    device.get_error().unwrap();
    device.reports().try_iter().collect()
}

/// The device answers a round trip with the state the lists left: the immutable texture is
/// 4 pixels wide, and a buffer holds the bytes uploaded to it.
fn assert_alive(device: &Device, texture: GLuint) {
    assert_eq!(device.get_texture_level_parameteri(texture, 0, gl::TEXTURE_WIDTH).unwrap(), 4);
    let buffer = device.create_buffer().unwrap();
    let mut list = device.command_list();
    list.named_buffer_data(buffer, 4, Some(&[1, 2, 3, 4]), gl::STATIC_DRAW);
    device.submit(list).unwrap();
    assert_eq!(device.get_named_buffer_sub_data(buffer, 0, 4).unwrap(), [1, 2, 3, 4]);
}

/// Records the regression's commands: an immutable texture, then `glTexImage2D` with no data.
fn record_upload_without_data(list: &mut CommandList, texture: GLuint) {
    list.texture_storage_2d(texture, 1, gl::RGBA8, 4, 4);
    list.bind_texture(gl::TEXTURE_2D, texture);
    // `Bytes::None` passes a null pointer: the GL reads no client memory.
    list.tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8 as i32, 4, 4, 0, gl::RGBA, gl::UNSIGNED_BYTE, Bytes::None);
}

#[test]
fn strict_mode_reports_tex_image_2d_without_data_on_an_immutable_texture() {
    let device = Device::with_options(
        Options::default().track_sites(true).diagnostics(DiagnosticOptions::default().strict(true)),
    )
    .unwrap();
    let texture = device.create_texture(gl::TEXTURE_2D).unwrap();
    let mut list = device.command_list();
    list.set_label("upload");
    record_upload_without_data(&mut list, texture);
    device.submit(list).unwrap();
    let reports = drain(&device);
    let error = reports
        .iter()
        .find(|r| r.kind == ReportKind::GlError)
        .unwrap_or_else(|| panic!("no GL error reported: {reports:#?}"));
    assert_eq!(error.call, TEX_IMAGE_NULL);
    assert_eq!(error.message, "GL_INVALID_OPERATION");
    assert_eq!((error.list.as_deref(), error.index), (Some("upload"), Some(2)));
    assert!(error.site.is_some_and(|s| s.file().ends_with("diagnostics_forms.rs")), "{error}");
    println!("{error}");
    assert_alive(&device, texture);
}

#[test]
fn strict_mode_through_the_c_abi_reports_gl_tex_image_2d_with_null_pixels() {
    use glcmd_capi::generated::TABLE as GL;
    use glcmd_capi::*;
    fn check(status: GlcmdStatus) {
        assert_eq!(status, GLCMD_OK, "{:?}", unsafe { CStr::from_ptr(glcmdStatusName(status)) });
    }
    let text = |p: *const c_char| {
        if p.is_null() {
            String::new()
        } else {
            unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
        }
    };
    let options = GlcmdDeviceOptions {
        size: std::mem::size_of::<GlcmdDeviceOptions>() as u32,
        flags: GLCMD_DEVICE_STRICT,
        wait_limit_ms: 0,
        watchdog_ms: 0,
    };
    let mut device = null_mut();
    // SAFETY: a whole options struct and an output pointer; every GL entry point gets the
    // arguments its contract asks for (TexImage2D's pixels NULL, which the GL accepts).
    unsafe {
        check(glcmdDeviceCreateHeadless(&options, &mut device));
        check(glcmdListBegin(device));
        let mut texture = 0;
        (GL.CreateTextures)(gl::TEXTURE_2D, 1, &mut texture);
        (GL.TextureStorage2D)(texture, 1, gl::RGBA8, 4, 4);
        (GL.BindTexture)(gl::TEXTURE_2D, texture);
        (GL.TexImage2D)(gl::TEXTURE_2D, 0, gl::RGBA8 as i32, 4, 4, 0, gl::RGBA, gl::UNSIGNED_BYTE, null());
        check(glcmdSubmit(device));
        (GL.Finish)();
        let mut reports = Vec::new();
        loop {
            let mut r: GlcmdReport = std::mem::zeroed();
            check(glcmdGetReport(device, &mut r));
            if r.kind == GLCMD_REPORT_NONE {
                break;
            }
            reports.push((r.kind, text(r.call), text(r.message), text(r.text)));
        }
        let error = reports
            .iter()
            .find(|r| r.0 == GLCMD_REPORT_GL_ERROR)
            .unwrap_or_else(|| panic!("no GL error reported: {reports:#?}"));
        assert_eq!((error.1.as_str(), error.2.as_str()), (TEX_IMAGE_NULL, "GL_INVALID_OPERATION"));
        println!("{}", error.3);
        // The render thread lives: a query answers with the texture's width.
        let mut width = 0;
        (GL.GetTextureLevelParameteriv)(texture, 0, gl::TEXTURE_WIDTH, &mut width);
        assert_eq!((glcmdLastError(null_mut()), width), (GLCMD_OK, 4));
        check(glcmdDeviceDestroy(device));
    }
}

/// The objects the forms name: an immutable texture, a texture and a shader deleted before the
/// forms replay (for use after delete), and a live shader.
struct Objects {
    texture: GLuint,
    gone: GLuint,
    shader: GLuint,
}

fn objects(device: &Device) -> Objects {
    // `create_textures`, not `create_texture` twice: a name `create_texture` takes from the
    // name pool is not in the capture's set-up log (a capture bug outside this test's scope).
    let names = device.create_textures(gl::TEXTURE_2D, 2).unwrap();
    let (texture, gone) = (names[0], names[1]);
    let shader = device.create_shader(gl::FRAGMENT_SHADER).unwrap();
    let mut list = device.command_list();
    list.set_label("set-up");
    list.texture_storage_2d(texture, 1, gl::RGBA8, 4, 4);
    list.delete_textures(&[gone]);
    device.submit(list).unwrap();
    Objects { texture, gone, shader }
}

/// One command per argument form (the form, then the command), most of them raising a GL
/// error or being skipped, so every diagnostics path has a report to write, among them the
/// `tex_image_2d` forms (each `glcmd::Bytes` form).
fn record_forms(list: &mut CommandList, o: &Objects) -> Vec<&'static str> {
    let mut forms = Vec::new();
    let (tex, gone) = (o.texture, o.gone);
    list.bind_texture(gl::TEXTURE_2D, tex);
    record_uploads(list, &mut forms);
    forms.push("null array");
    list.bind_textures(0, 1, None);
    list.buffer_data(gl::ARRAY_BUFFER, 16, None, gl::STATIC_DRAW);
    forms.push("empty array");
    list.bind_textures(0, 0, Some(&[]));
    list.delete_textures(&[]);
    forms.push("array naming a deleted object");
    list.bind_textures(0, 1, Some(&[gone]));
    forms.push("string");
    list.object_label(gl::TEXTURE, tex, "forms");
    forms.push("empty string, deleted object");
    list.object_label(gl::TEXTURE, gone, "");
    list.debug_message_insert(gl::DEBUG_SOURCE_APPLICATION, gl::DEBUG_TYPE_MARKER, 1, gl::DEBUG_SEVERITY_HIGH, "");
    forms.push("string array");
    list.shader_source(o.shader, &["void main() {}", ""]);
    forms.push("empty string array");
    list.shader_source(o.shader, &[]);
    list.shader_source(0, &["no shader"]);
    forms.push("buffer offset for a pointer, no buffer bound");
    list.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 0, 16);
    list.draw_elements(gl::TRIANGLES, 3, gl::UNSIGNED_INT, 8);
    forms
}

/// The `Bytes` forms, into the immutable texture bound to `GL_TEXTURE_2D` (each a GL error).
fn record_uploads(list: &mut CommandList, forms: &mut Vec<&'static str>) {
    // `Bytes::None` reads nothing; a slice holds the 4x4 RGBA8 or 0x0 image the call reads; an
    // offset with no pixel-unpack buffer bound is skipped.
    let upload = |list: &mut CommandList, size: i32, pixels: Bytes<'_>| {
        list.tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8 as i32, size, size, 0, gl::RGBA, gl::UNSIGNED_BYTE, pixels)
    };
    forms.push("Bytes::None");
    upload(list, 4, Bytes::None);
    forms.push("Bytes::BufferOffset, no buffer bound");
    upload(list, 4, Bytes::BufferOffset(16));
    forms.push("Bytes::Slice, empty");
    upload(list, 0, Bytes::Slice(&[]));
    forms.push("Bytes::Slice");
    upload(list, 4, Bytes::Slice(&[7; 64]));
}

#[test]
fn every_argument_form_dumps_as_itself() {
    let device = glcmd::Device::headless().unwrap();
    let o = objects(&device);
    let mut list = device.command_list();
    let forms = record_forms(&mut list, &o);
    let text = list.to_string();
    print!("{text}");
    let (tex, gone, shader) = (o.texture, o.gone, o.shader);
    for line in [
        TEX_IMAGE_NULL.to_string(),
        "glTexImage2D(GL_TEXTURE_2D, 0, 32856, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, buffer+0x10)".into(),
        "glTexImage2D(GL_TEXTURE_2D, 0, 32856, 0, 0, 0, GL_RGBA, GL_UNSIGNED_BYTE, < (0 bytes)>)".into(),
        "glTexImage2D(GL_TEXTURE_2D, 0, 32856, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, <07070707070707070707070707070707.. (64 bytes)>)".into(),
        "glBindTextures(0, 1, NULL)".into(),
        "glBufferData(GL_ARRAY_BUFFER, 16, NULL, GL_STATIC_DRAW)".into(),
        "glBindTextures(0, 0, {})".into(),
        "glDeleteTextures(0, {})".into(),
        format!("glBindTextures(0, 1, {{{gone}}})"),
        format!("glObjectLabel(GL_TEXTURE, {tex}, 5, \"forms\")"),
        format!("glObjectLabel(GL_TEXTURE, {gone}, 0, \"\")"),
        format!("glShaderSource({shader}, 2, {{\"void main() {{}}\", \"\"}}, {{14, 0}})"),
        format!("glShaderSource({shader}, 0, {{}}, {{}})"),
        "glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, 0x10)".into(),
        "glDrawElements(GL_TRIANGLES, 3, GL_UNSIGNED_INT, 0x8)".into(),
    ] {
        assert!(text.lines().any(|l| l == line), "no line {line:?} in the dump:\n{text}");
    }
    assert!(!text.contains("outside the list's parameters"), "{text}");
    println!("dumped {} commands in {} argument forms: {}", list.len(), forms.len(), forms.join("; "));
}

/// A diagnostics level the class test replays the forms under.
struct Level {
    name: &'static str,
    diagnostics: DiagnosticOptions,
    capture: bool,
}

fn levels() -> Vec<Level> {
    // A watchdog far longer than any step here, even under memcheck: it runs, and the reports
    // checked never depend on the machine's speed. (Not longer: the watchdog thread sleeps an
    // eighth of it between looks, and the device's drop waits for it.)
    let all = DiagnosticOptions::all().watchdog(Some(Duration::from_secs(16)));
    let level = |name, diagnostics, capture| Level { name, diagnostics, capture };
    vec![
        level("off", DiagnosticOptions::default(), false),
        level("attribution", DiagnosticOptions::default().debug_output(true), false),
        level("all (attribution, breadcrumbs, watchdog, track_deletes)", all.clone(), false),
        level("strict", DiagnosticOptions::default().strict(true), false),
        level("strict and all", all.clone().strict(true), false),
        level("all and capture", all, true),
    ]
}

fn count(reports: &[Report], kind: ReportKind) -> usize {
    reports.iter().filter(|r| r.kind == kind).count()
}

/// Replays the forms under `level`; returns the reports.
fn replay_forms(level: &Level, path: &std::path::Path) -> Vec<Report> {
    let options = Options::default()
        .track_sites(true)
        .diagnostics(level.diagnostics.clone())
        .capture(level.capture.then(capture::CaptureOptions::default));
    let device = Device::with_options(options).unwrap();
    let o = objects(&device);
    let handle = level.capture.then(|| device.capture(path, 1).unwrap());
    let mut list = device.command_list();
    list.set_label("forms");
    record_forms(&mut list, &o);
    device.submit(list).unwrap();
    let reports = drain(&device);
    assert_alive(&device, o.texture);
    if let Some(h) = handle {
        assert_eq!(h.wait(Duration::from_secs(60)).unwrap().frames, 1);
    }
    reports
}

#[test]
fn every_argument_form_replays_under_every_diagnostics_level() {
    let dir = std::env::temp_dir().join(format!("glcmd-forms-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for level in levels() {
        let path = dir.join("forms.glcap");
        let reports = replay_forms(&level, &path);
        for r in &reports {
            assert!(!r.call.contains("outside the list's parameters"), "{r}");
        }
        let d = &level.diagnostics;
        let on_null_upload = |kind| reports.iter().any(|r| r.kind == kind && r.call == TEX_IMAGE_NULL);
        assert!(count(&reports, ReportKind::Skipped) >= 2, "{}: {reports:#?}", level.name);
        assert_eq!(on_null_upload(ReportKind::GlError), d.strict, "{}: {reports:#?}", level.name);
        assert_eq!(on_null_upload(ReportKind::DebugMessage), d.debug_output, "{}: {reports:#?}", level.name);
        let uses = count(&reports, ReportKind::UseAfterDelete);
        assert_eq!(uses > 0, d.track_deletes, "{}: {reports:#?}", level.name);
        if d.track_deletes {
            let gone =
                reports.iter().find(|r| r.kind == ReportKind::UseAfterDelete && r.call.starts_with("glBindTextures"));
            assert!(
                gone.is_some_and(|r| r.deleted_by.as_ref().is_some_and(|d| d.0.starts_with("glDeleteTextures(1, {")))
            );
        }
        let replayed = if level.capture { replay_capture(&path) } else { String::new() };
        println!(
            "level {}: {} reports (GL errors {}, debug messages {}, uses after delete {}, skipped {}){replayed}",
            level.name,
            reports.len(),
            count(&reports, ReportKind::GlError),
            count(&reports, ReportKind::DebugMessage),
            uses,
            count(&reports, ReportKind::Skipped),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Loads the capture of the forms (every packet validated), replays it with dumps into a
/// strict device, and checks the dump and the strict report of the upload without data.
fn replay_capture(path: &std::path::Path) -> String {
    let c = capture::Capture::open(path).unwrap();
    let device =
        Device::with_options(Options::default().diagnostics(DiagnosticOptions::default().strict(true))).unwrap();
    let (mut dumped, mut errors) = (String::new(), Vec::new());
    let options = capture::ReplayOptions::default().dump(true);
    capture::replay(&c, &device, &options, &mut |e| match e {
        capture::ReplayEvent::List { label, text, .. } if label == "forms" => dumped = text,
        capture::ReplayEvent::Report(r) if r.kind == ReportKind::GlError => errors.push(r),
        _ => {}
    })
    .unwrap();
    let null_data = "glBufferData(GL_ARRAY_BUFFER, 16, NULL, GL_STATIC_DRAW)";
    assert!(dumped.lines().any(|l| l.starts_with(null_data)), "{dumped}");
    assert!(dumped.contains("glShaderSource(") && !dumped.contains("outside the list's parameters"), "{dumped}");
    assert!(errors.iter().any(|r| r.call == null_data), "{errors:#?}");
    format!("; its capture loaded and replayed ({} lines dumped, {} GL errors)", dumped.lines().count(), errors.len())
}
