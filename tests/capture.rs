//! Capture and replay (`glcmd::capture`), on llvmpipe.
//!
//! * A scene captured mid-run (after its set-up, with creates, set-up lists, multi-slot frames,
//!   queries and a deferred delete) replays on another device to the same pixels, with every
//!   query answered alike, although the replaying device hands out other names.
//! * Malformed files: truncated anywhere, another build's fingerprint, another byte order or
//!   version, offsets out of range, counts inconsistent, an unknown opcode, an unknown name, an
//!   opcode whose recording method is unsafe, an unterminated string. Each is a typed error
//!   naming the frame, list, command and byte offset, never a panic.
//! * Post-mortem: a lost device and a watchdog stall leave the last frames on disk, at the path
//!   the report names, and the file replays.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::*;
use glcmd::capture::tables::Len;
use glcmd::capture::validate::PacketProblem;
use glcmd::capture::{self, CaptureOptions, LoadError, PostMortem, Record, ReplayEvent, ReplayOptions};
use glcmd::generated::capture::OPCODES;
use glcmd::{gl, Device, DiagnosticOptions, Error, Options, ReportKind};

const W: i32 = 64;
const H: i32 = 48;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("glcmd-capture-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn capturing(options: CaptureOptions) -> Device {
    Device::with_options(Options::default().capture(Some(options))).unwrap()
}

/// The objects of the captured scene.
struct Objects {
    scene: Scene,
    texture: u32,
}

/// Set-up: a program, a framebuffer, a vertex array (common::Scene), a labelled texture bound
/// through a multi-bind. All before the capture starts, so they come from the set-up log.
fn set_up(device: &Device) -> Objects {
    let scene = Scene::on_device(device, W, H);
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let mut list = device.command_list();
    list.set_label("textures");
    list.texture_storage_2d(texture, 1, gl::RGBA8, 4, 4);
    list.object_label(gl::TEXTURE, texture, "a texture");
    list.bind_textures(0, 1, Some(&[texture]));
    // A string read up to its NUL (it only matters at the next link, which never comes).
    list.bind_attrib_location(scene.program, 0, "unused");
    device.submit(list).unwrap();
    Objects { scene, texture }
}

/// One frame of two slots: a clear and rectangles whose colours depend on `frame`.
fn render_frame(device: &Device, o: &Objects, frame: u32) {
    let s = &o.scene;
    let f = device.begin_frame(2).unwrap();
    let mut clear = device.command_list();
    clear.set_label("clear");
    for c in preamble(s) {
        c.record(&mut clear, s);
    }
    clear.named_framebuffer_draw_buffers(s.fbo, &[gl::COLOR_ATTACHMENT0]);
    let mut draw = device.command_list();
    draw.set_label("rectangles");
    Cmd::UseScene.record(&mut draw, s);
    draw.enable(gl::BLEND);
    draw.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
    for i in 0..6u32 {
        let x = (i * 9 + frame * 3) as f32;
        draw.uniform4f(LOC_RECT, x, 4.0 + i as f32, x + 20.0, 40.0);
        draw.uniform4fv(LOC_COLOR, &[[0.2 * i as f32, 0.5, 1.0 - 0.1 * frame as f32, 0.6]]);
        draw.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    }
    draw.bind_textures(0, 1, Some(&[o.texture]));
    draw.disable(gl::BLEND);
    f.submit(1, draw).unwrap();
    f.submit(0, clear).unwrap();
}

/// Captures frames 1 and 2 of a three-frame run and the frame of a delete after them (a create
/// and queries inside), and returns the pixels the capturing device ended with.
fn capture_scene(path: &Path) -> Vec<u8> {
    let device = capturing(CaptureOptions::default());
    let o = set_up(&device);
    render_frame(&device, &o, 0);
    let handle = device.capture(path, 3).unwrap();
    render_frame(&device, &o, 1);
    // Inside the captured frames: a create, queries, and a delete at the end of frame 2.
    let spare = device.create_textures(gl::TEXTURE_2D, 2).unwrap();
    assert_eq!(device.get_integerv(gl::VIEWPORT).unwrap(), vec![0, 0, W, H]);
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    render_frame(&device, &o, 2);
    let mut delete = device.command_list();
    delete.delete_textures(&spare);
    device.submit(delete).unwrap();
    let summary = handle.wait(Duration::from_secs(60)).unwrap();
    assert_eq!(summary.frames, 3, "{summary:?}");
    assert!(!summary.setup_incomplete);
    // The pixels after frame 2 (the delete changes none).
    device_read_rgba8(&device, o.scene.fbo, W, H)
}

fn captured(name: &str) -> (PathBuf, Vec<u8>, Vec<u8>) {
    let path = temp(name);
    let pixels = capture_scene(&path);
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes, pixels)
}

#[test]
fn a_capture_replays_to_the_same_pixels_and_answers_with_other_names() {
    with_timeout("capture and replay", Duration::from_secs(120), || {
        let (path, _, pixels) = captured("replay.glcap");
        let c = capture::Capture::open(&path).unwrap();
        assert_eq!(c.frames(), 3);
        // The set-up log holds the set-up lists; the frames hold two lists each.
        let labels: Vec<&str> = c.lists().map(|l| l.label.as_str()).collect();
        assert!(labels.contains(&"textures"), "{labels:?}");
        let setup_end = c.records.iter().position(|r| matches!(r, Record::SetupEnd)).unwrap();
        let captured_labels: Vec<&str> = c.records[setup_end..]
            .iter()
            .filter_map(|r| match r {
                Record::List(l) => Some(l.label.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(captured_labels, ["clear", "rectangles", "clear", "rectangles", ""]);

        // The replaying device has made objects of its own first: every name differs.
        let device = Device::headless().unwrap();
        device.create_textures(gl::TEXTURE_2D, 5).unwrap();
        device.create_framebuffers(3).unwrap();
        device.create_vertex_arrays(2).unwrap();
        for _ in 0..4 {
            device.create_program().unwrap();
        }
        let mut calls = Vec::new();
        let mut reports = Vec::new();
        let summary = capture::replay(&c, &device, &ReplayOptions::default(), &mut |e| match e {
            ReplayEvent::Call(o) => calls.push(o),
            ReplayEvent::Report(r) => reports.push(r),
            _ => {}
        })
        .unwrap();
        assert!(reports.is_empty(), "{reports:?}");
        assert_eq!(summary.frames, 3);
        assert_eq!(summary.skipped, 0);
        assert_eq!(summary.unmapped, 0);
        assert_eq!(summary.differences, 0, "{calls:#?}");
        for f in ["glGetIntegerv", "glGetError", "glCreateTextures", "glCreateProgram"] {
            assert!(calls.iter().any(|o| o.function == f), "{f} not replayed: {calls:#?}");
        }
        let image = capture::read_final_framebuffer(&device).unwrap();
        assert_eq!((image.width, image.height), (W as u32, H as u32));
        assert_same_image("replayed capture", &image.rgba, &pixels, W as usize);
        assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    });
}

/// The render thread hands a captured list's buffers to the writer only when its frame ends
/// (no copy), and holds what is sent meanwhile: a lookup answered while the frame is still open
/// comes after the list that linked the program, in the file as in time, and replays alike.
#[test]
fn a_lookup_made_while_the_linking_frame_is_open_follows_the_link_in_the_capture() {
    with_timeout("lookup order", Duration::from_secs(120), || {
        let path = temp("lookup-order.glcap");
        let device = capturing(CaptureOptions::default());
        let scene = Scene::on_device(&device, W, H);
        let handle = device.capture(&path, 1).unwrap();
        let program = device.create_program().unwrap();
        let shaders = [(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, COLOR_FS)]
            .map(|(ty, src)| (device.create_shader(ty).unwrap(), src));
        let frame = device.begin_frame(2).unwrap();
        let mut link = device.command_list();
        link.set_label("link");
        for (shader, src) in shaders {
            link.shader_source(shader, &[src]);
            link.compile_shader(shader);
            link.attach_shader(program, shader);
        }
        link.link_program(program);
        frame.submit(0, link).unwrap();
        // Slot 1 is not submitted: the frame is open while the lookups are answered.
        let rect = device.get_uniform_location(program, "rect").unwrap();
        let color = device.get_uniform_location(program, "color").unwrap();
        assert_eq!((rect, color), (LOC_RECT, LOC_COLOR));
        let mut draw = device.command_list();
        draw.set_label("draw");
        for c in preamble(&scene) {
            c.record(&mut draw, &scene);
        }
        draw.use_program(program);
        draw.bind_vertex_array(scene.vao);
        draw.uniform2f(LOC_SIZE, W as f32, H as f32);
        draw.uniform4f(rect, 8.0, 8.0, 40.0, 30.0);
        draw.uniform4f(color, 1.0, 0.5, 0.25, 1.0);
        draw.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
        frame.submit(1, draw).unwrap();
        handle.wait(Duration::from_secs(60)).unwrap();
        let pixels = device_read_rgba8(&device, scene.fbo, W, H);

        let c = capture::Capture::open(&path).unwrap();
        let setup_end = c.records.iter().position(|r| matches!(r, Record::SetupEnd)).unwrap();
        let order: Vec<String> = c.records[setup_end..]
            .iter()
            .filter_map(|r| match r {
                Record::List(l) => Some(format!("list {}", l.label)),
                Record::Call { function, .. } => {
                    Some(glcmd::generated::capture::call_info(*function).unwrap().0.to_string())
                }
                Record::FrameEnd { .. } => Some("frame end".into()),
                _ => None,
            })
            .collect();
        let link_at = order.iter().position(|r| r == "list link").unwrap_or_else(|| panic!("{order:?}"));
        let draw_at = order.iter().position(|r| r == "list draw").unwrap_or_else(|| panic!("{order:?}"));
        let lookups: Vec<usize> =
            order.iter().enumerate().filter(|(_, r)| *r == "glGetUniformLocation").map(|(i, _)| i).collect();
        assert_eq!(lookups.len(), 2, "{order:?}");
        assert!(lookups.iter().all(|&i| link_at < i && i < draw_at), "{order:?}");
        assert_eq!(order.last().map(String::as_str), Some("frame end"), "{order:?}");

        let replaying = Device::headless().unwrap();
        for _ in 0..3 {
            replaying.create_program().unwrap(); // other names than the capture's
        }
        let mut reports = Vec::new();
        let summary = capture::replay(&c, &replaying, &ReplayOptions::default(), &mut |e| {
            if let ReplayEvent::Report(r) = e {
                reports.push(r)
            }
        })
        .unwrap();
        assert!(reports.is_empty(), "{reports:?}");
        assert_eq!((summary.differences, summary.skipped, summary.unmapped), (0, 0, 0), "{summary:?}");
        let image = capture::read_final_framebuffer(&replaying).unwrap();
        assert_same_image("replayed capture", &image.rgba, &pixels, W as usize);
    });
}

#[test]
fn a_frame_range_replays_the_frames_before_it_and_stops_after_it() {
    with_timeout("frame range", Duration::from_secs(120), || {
        let (path, _, _) = captured("range.glcap");
        let c = capture::Capture::open(&path).unwrap();
        let device = Device::headless().unwrap();
        let mut ended = Vec::new();
        let options = ReplayOptions::default().frames(Some(0..1)).dump(true);
        let mut dumps = Vec::new();
        let summary = capture::replay(&c, &device, &options, &mut |e| match e {
            ReplayEvent::FrameEnd { index, .. } => ended.push(index),
            ReplayEvent::List { text, .. } => dumps.push(text),
            _ => {}
        })
        .unwrap();
        assert_eq!(ended, [0]);
        assert_eq!(summary.frames, 1);
        assert!(dumps.iter().any(|d| d.contains("glDrawArrays(GL_TRIANGLE_STRIP, 0, 4)")), "{dumps:?}");
        let err = capture::replay(&c, &device, &ReplayOptions::default().frames(Some(1..4)).dump(false), &mut |_| {});
        assert!(matches!(err, Err(capture::ReplayError::Frames { has: 3, .. })), "{err:?}");
    });
}

#[test]
fn capture_needs_the_option() {
    let device = Device::headless().unwrap();
    match device.capture(temp("off.glcap"), 1) {
        Err(Error::Capture(capture::CaptureError::Off)) => {}
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Malformed files
// ---------------------------------------------------------------------------------------------

/// A good capture, made once per test binary.
fn good() -> &'static (Vec<u8>, capture::Capture) {
    static GOOD: std::sync::OnceLock<(Vec<u8>, capture::Capture)> = std::sync::OnceLock::new();
    GOOD.get_or_init(|| {
        let (_, bytes, _) = captured("good.glcap");
        let c = capture::Capture::from_bytes(&bytes).unwrap();
        (bytes, c)
    })
}

/// The file offset of the first packet of `function`, and the opcode's tables.
fn packet(function: &str) -> (usize, &'static capture::tables::Opcode, &'static capture::ListRecord) {
    let (_, c) = good();
    for l in c.lists() {
        if let Some(p) = l.packet_infos().into_iter().find(|p| p.function == function) {
            return (p.offset, &OPCODES[p.opcode as usize], l);
        }
    }
    panic!("no {function} packet in the capture");
}

fn patch(bytes: &[u8], at: usize, value: &[u8]) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at..at + value.len()].copy_from_slice(value);
    b
}

fn load_err(bytes: &[u8]) -> LoadError {
    match capture::Capture::from_bytes(bytes) {
        Ok(_) => panic!("a malformed capture loaded"),
        Err(e) => {
            eprintln!("{e}");
            e
        }
    }
}

/// The problem of a packet error, after checking it names the packet's frame and offset.
fn packet_problem(e: LoadError, offset: usize, list: &capture::ListRecord) -> PacketProblem {
    match e {
        LoadError::Packet { offset: at, frame, slot, label, problem, .. } => {
            assert_eq!(at, offset, "the error names the packet's byte offset");
            assert_eq!((frame, slot, label.as_str()), (list.frame, list.slot, list.label.as_str()));
            problem
        }
        other => panic!("not a packet error: {other}"),
    }
}

#[test]
fn truncated_captures_are_refused_with_the_offset() {
    let (bytes, c) = good();
    // Every cut inside the header, then cuts across the whole file.
    let step = (bytes.len() / 2000).max(1);
    for cut in (0..64).chain((64..bytes.len()).step_by(step)) {
        match capture::Capture::from_bytes(&bytes[..cut]) {
            Ok(_) => panic!("a capture cut at byte {cut} of {} loaded", bytes.len()),
            Err(LoadError::Truncated { offset, .. }) => assert!(offset <= cut, "cut {cut}, offset {offset}"),
            Err(LoadError::NotACapture { .. }) => assert!(cut < 8),
            Err(e) => panic!("cut at {cut}: {e}"),
        }
    }
    // A cut in the middle of a list's packets names the list record's offset.
    let l = c.lists().last().unwrap();
    match load_err(&bytes[..l.packets_offset + 4]) {
        LoadError::Truncated { offset, .. } => assert_eq!(offset, l.offset),
        other => panic!("{other}"),
    }
}

#[test]
fn a_capture_of_another_build_is_refused() {
    let (bytes, _) = good();
    // Fingerprint: bytes 16..24.
    let mut b = bytes.clone();
    b[17] ^= 0x40;
    match load_err(&b) {
        LoadError::Fingerprint { file, this_build } => {
            assert_ne!(file, this_build);
            assert_eq!(this_build, glcmd::generated::capture::FINGERPRINT);
        }
        other => panic!("{other}"),
    }
    // A build with other extension families (header bytes 28..32, checked when the fingerprint
    // differs): the refusal names the cargo
    // features to build the replayer with.
    let other = capture::format::families() ^ capture::format::FAMILY_VENDOR;
    let c = patch(&b, 28, &other.to_ne_bytes());
    match load_err(&c) {
        LoadError::Families { file, this_build } => {
            assert_eq!(file, capture::format::family_features(other));
            assert_eq!(this_build, capture::format::family_features(capture::format::families()));
            let text = load_err(&c).to_string();
            assert!(text.contains("--no-default-features --features"), "{text}");
        }
        other => panic!("{other}"),
    }
    assert_eq!(capture::format::family_features(0), "none");
    assert_eq!(capture::format::family_features(3), "ext, vendor");
    assert!(matches!(load_err(&patch(bytes, 12, &7u32.to_ne_bytes())), LoadError::Version { found: 7, .. }));
    let swapped = capture::format::BYTE_ORDER_MARK.swap_bytes().to_ne_bytes();
    assert!(matches!(load_err(&patch(bytes, 8, &swapped)), LoadError::ByteOrder { .. }));
    assert!(matches!(load_err(&patch(bytes, 0, b"GLCMDCAX")), LoadError::NotACapture { .. }));
    assert!(matches!(load_err(b"PNG"), LoadError::NotACapture { .. }));
}

#[test]
fn an_unknown_opcode_is_refused() {
    let (bytes, _) = good();
    let (at, _, list) = packet("glUniform4fv");
    let op = glcmd::generated::OPCODE_COUNT as u16;
    let e = load_err(&patch(bytes, at, &op.to_ne_bytes()));
    assert_eq!(packet_problem(e, at, list), PacketProblem::UnknownOpcode(op));
}

#[test]
fn an_offset_out_of_range_is_refused() {
    let (bytes, _) = good();
    let (at, info, list) = packet("glUniform4fv");
    let value = info.arrays.iter().find(|a| a.param == "value").unwrap();
    let size = list.params().len() as u32;
    // Just past the end (16 bytes from 8 before the end), and far past it.
    for offset in [size - 8, u32::MAX - 3] {
        let e = load_err(&patch(bytes, at + value.at as usize, &offset.to_ne_bytes()));
        match packet_problem(e, at, list) {
            PacketProblem::OutOfRange { function: "glUniform4fv", param: "value", start, .. } => {
                assert_eq!(start, offset as u64)
            }
            other => panic!("{other}"),
        }
    }
    // A string's offset.
    let (at, info, list) = packet("glObjectLabel");
    let label = info.arrays.iter().find(|a| a.param == "label").unwrap();
    let e = load_err(&patch(bytes, at + label.at as usize, &(list.params().len() as u32 + 1).to_ne_bytes()));
    assert!(matches!(packet_problem(e, at, list), PacketProblem::OutOfRange { param: "label", .. }));
}

#[test]
fn inconsistent_counts_are_refused() {
    let (bytes, _) = good();
    let (at, info, list) = packet("glNamedFramebufferDrawBuffers");
    let bufs = info.arrays.iter().find(|a| a.param == "bufs").unwrap();
    let Len::Count { count, .. } = bufs.len else { panic!("{:?}", bufs.len) };
    // More buffers than the parameter buffer holds.
    let e = load_err(&patch(bytes, at + count.at as usize, &100_000i32.to_ne_bytes()));
    assert!(matches!(packet_problem(e, at, list), PacketProblem::OutOfRange { param: "bufs", .. }));
    // A negative count.
    let e = load_err(&patch(bytes, at + count.at as usize, &(-1i32).to_ne_bytes()));
    assert!(matches!(packet_problem(e, at, list), PacketProblem::NegativeCount { param: "bufs", count: -1, .. }));
    // A string longer than its buffer (glObjectLabel's length).
    let (at, info, list) = packet("glObjectLabel");
    let label = info.arrays.iter().find(|a| a.param == "label").unwrap();
    let Len::String { length: Some(length) } = label.len else { panic!("{:?}", label.len) };
    let e = load_err(&patch(bytes, at + length.at as usize, &1_000_000i32.to_ne_bytes()));
    assert!(matches!(packet_problem(e, at, list), PacketProblem::OutOfRange { param: "label", .. }));
    // Fuzz seed 8, iteration 24743: a negative string length (glDeleteNamedStringARB's, after an
    // opcode swap). Mesa takes only -1 for "up to a NUL" and allocates `length + 1` bytes for
    // any other negative: recorded lengths are never negative, so the loader refuses one.
    let e = load_err(&patch(bytes, at + length.at as usize, &(-5i32).to_ne_bytes()));
    assert!(matches!(packet_problem(e, at, list), PacketProblem::NegativeCount { param: "label", count: -5, .. }));
    // A string table whose lengths say more than the strings hold (glShaderSource).
    let (at, info, list) = packet("glShaderSource");
    let strings = info.arrays.iter().find(|a| a.param == "string").unwrap();
    let Len::Strings { count, lengths: Some(lengths) } = strings.len else { panic!("{:?}", strings.len) };
    let lengths_offset =
        u32::from_ne_bytes(bytes[at + lengths as usize..at + lengths as usize + 4].try_into().unwrap());
    let e = load_err(&patch(bytes, list.params_offset() + lengths_offset as usize, &(1i32 << 24).to_ne_bytes()));
    assert!(matches!(packet_problem(e, at, list), PacketProblem::OutOfRange { param: "string", .. }));
    // A negative length in that table (recording never writes one).
    let e = load_err(&patch(bytes, list.params_offset() + lengths_offset as usize, &(-1i32).to_ne_bytes()));
    assert!(matches!(packet_problem(e, at, list), PacketProblem::NegativeCount { param: "string", count: -1, .. }));
    // Its count beyond its table.
    let e = load_err(&patch(bytes, at + count.at as usize, &1_000_000i32.to_ne_bytes()));
    assert!(matches!(packet_problem(e, at, list), PacketProblem::OutOfRange { param: "string", .. }));
    // The end record's count of records.
    let end = bytes.len() - 8;
    assert!(matches!(load_err(&patch(bytes, end, &3u64.to_ne_bytes())), LoadError::Malformed { .. }));
}

#[test]
fn an_unknown_name_is_refused() {
    let (bytes, _) = good();
    // A scalar name: the framebuffer a list binds.
    let (at, info, list) = packet("glBindFramebuffer");
    let fb = info.names.iter().find(|n| n.param == "framebuffer").unwrap();
    let e = load_err(&patch(bytes, at + fb.at as usize, &9999u32.to_ne_bytes()));
    match packet_problem(e, at, list) {
        PacketProblem::Name { problem: capture::calls::CallProblem::UnknownName { name: 9999, .. }, .. } => {}
        other => panic!("{other}"),
    }
    // A name inside an array: glBindTextures' textures.
    let (at, info, list) = packet("glBindTextures");
    let textures = info.arrays.iter().find(|a| a.param == "textures").unwrap();
    let offset =
        u32::from_ne_bytes(bytes[at + textures.at as usize..at + textures.at as usize + 4].try_into().unwrap());
    let e = load_err(&patch(bytes, list.params_offset() + offset as usize, &4242u32.to_ne_bytes()));
    assert!(matches!(
        packet_problem(e, at, list),
        PacketProblem::Name { problem: capture::calls::CallProblem::UnknownName { name: 4242, .. }, .. }
    ));
}

#[test]
fn an_unterminated_string_is_refused() {
    let (bytes, _) = good();
    // glBindAttribLocation's name is read up to its NUL: make it run to the end of the buffer
    // without one.
    let (at, info, list) = packet("glBindAttribLocation");
    let name = info.arrays.iter().find(|a| a.param == "name").unwrap();
    let string = u32::from_ne_bytes(bytes[at + name.at as usize..][..4].try_into().unwrap()) as usize;
    let mut b = bytes.clone();
    let params_end = list.params_offset() + list.params().len();
    for byte in &mut b[list.params_offset() + string..params_end] {
        if *byte == 0 {
            *byte = b' ';
        }
    }
    let e = load_err(&b);
    assert!(matches!(packet_problem(e, at, list), PacketProblem::Unterminated { param: "name", .. }));
}

#[test]
fn an_opcode_whose_recording_method_is_unsafe_is_refused() {
    let path = temp("unsafe.glcap");
    let device = capturing(CaptureOptions::default());
    let handle = device.capture(&path, 1).unwrap();
    let mut list = device.command_list();
    // SAFETY: handle 0 is no texture handle: the GL raises GL_INVALID_OPERATION (or, without
    // ARB_bindless_texture, glcmd reports the missing function); no memory is touched.
    unsafe { list.make_texture_handle_resident_arb(0) };
    device.submit(list).unwrap();
    handle.wait(Duration::from_secs(30)).unwrap();
    match load_err(&std::fs::read(&path).unwrap()) {
        LoadError::Packet {
            problem: PacketProblem::Refused { function: "glMakeTextureHandleResidentARB", .. },
            ..
        } => {}
        other => panic!("{other}"),
    }
}

#[test]
fn record_framing_errors_are_refused() {
    let (bytes, c) = good();
    // An unknown record tag, and a record length past the end of the file.
    let l = c.lists().next().unwrap();
    assert!(matches!(load_err(&patch(bytes, l.offset, &[77])), LoadError::Malformed { .. }));
    assert!(matches!(load_err(&patch(bytes, l.offset + 1, &u32::MAX.to_ne_bytes())), LoadError::Truncated { .. }));
    // A list whose packet bytes are not whole slots.
    let len_at = l.packets_offset - 4;
    let n = u32::from_ne_bytes(bytes[len_at..len_at + 4].try_into().unwrap());
    assert!(capture::Capture::from_bytes(&patch(bytes, len_at, &(n - 3).to_ne_bytes())).is_err());
    // Bytes after the end record.
    let mut b = bytes.clone();
    b.push(0);
    assert!(matches!(load_err(&b), LoadError::Malformed { .. }));
    // A call record whose answer does not decode.
    let call = c
        .records
        .iter()
        .find_map(|r| match r {
            Record::Call { offset, answer, .. } if !answer.is_empty() => Some(*offset),
            _ => None,
        })
        .unwrap();
    // tag 1, length 4, function 2, args length 4: the function index is at +5.
    assert!(matches!(load_err(&patch(bytes, call + 5, &u16::MAX.to_ne_bytes())), LoadError::Call { .. }));
}

// ---------------------------------------------------------------------------------------------
// Post-mortem
// ---------------------------------------------------------------------------------------------

#[test]
fn a_lost_device_leaves_its_last_frames_on_disk() {
    with_timeout("post-mortem on loss", Duration::from_secs(120), || {
        let path = temp("lost.glcap");
        let _ = std::fs::remove_file(&path);
        let device = capturing(CaptureOptions::default().post_mortem(Some(PostMortem::new(2, path.clone()))));
        let o = set_up(&device);
        for frame in 0..4 {
            render_frame(&device, &o, frame);
        }
        let pixels = device_read_rgba8(&device, o.scene.fbo, W, H);
        let r = device.with_gl(|_| panic!("injected"));
        let reason = match r {
            Err(Error::DeviceLost { reason }) => reason,
            other => panic!("{other:?}"),
        };
        assert!(reason.contains(&path.display().to_string()), "the reason does not name the capture: {reason}");
        // The file is complete before the loss is visible.
        let c = capture::Capture::open(&path).unwrap();
        assert!(c.has_flag(capture::format::FLAG_POST_MORTEM));
        assert!(c.records.iter().any(|r| matches!(r, Record::Note(n) if n.contains("injected"))));
        // The ring's two frames, then the frame of the read-back (bind and query) in progress.
        assert_eq!(c.frames(), 2);
        let replayer = Device::headless().unwrap();
        capture::replay(&c, &replayer, &ReplayOptions::default(), &mut |_| {}).unwrap();
        let image = capture::read_final_framebuffer(&replayer).unwrap();
        assert_same_image("post-mortem replay", &image.rgba, &pixels, W as usize);
    });
}

#[test]
fn a_watchdog_stall_writes_the_post_mortem_capture() {
    with_timeout("post-mortem on stall", Duration::from_secs(120), || {
        let path = temp("stall.glcap");
        let _ = std::fs::remove_file(&path);
        let device = Device::with_options(
            Options::default()
                .diagnostics(DiagnosticOptions::default().watchdog(Some(Duration::from_millis(100))))
                .wait_limit(Duration::from_secs(600))
                .capture(Some(CaptureOptions::default().post_mortem(Some(PostMortem::new(3, path.clone()))))),
        )
        .unwrap();
        let o = set_up(&device);
        render_frame(&device, &o, 0);
        // Frame A misses slot 1 (held by a thread that submits nothing and lets go of the frame
        // only once the stall is reported), frame B waits behind it.
        let a = device.begin_frame(2).unwrap();
        let mut l = device.command_list();
        Cmd::UseScene.record(&mut l, &o.scene);
        a.submit(0, l).unwrap();
        let (reported, release) = std::sync::mpsc::channel::<()>();
        let holder = std::thread::spawn(move || {
            let _ = release.recv();
            drop(a);
        });
        let mut l = device.command_list();
        l.clear(gl::COLOR_BUFFER_BIT);
        device.submit(l).unwrap();
        let reports = device.reports();
        let stall = loop {
            let r = reports.recv_timeout(Duration::from_secs(30)).expect("a stall report");
            if r.kind == ReportKind::Stall {
                break r;
            }
        };
        assert!(stall.message.contains(&path.display().to_string()), "{}", stall.message);
        reported.send(()).unwrap();
        holder.join().unwrap();
        drop(device);
        let c = capture::Capture::open(&path).unwrap();
        assert!(c.has_flag(capture::format::FLAG_POST_MORTEM));
        assert!(c.records.iter().any(|r| matches!(r, Record::Note(n) if n.contains("frame"))));
        // Frame 0's lists are in it, and A's slot 0, replayed before the stall.
        assert!(c.lists().any(|l| l.label == "rectangles"));
    });
}

#[test]
fn with_gl_is_noted_in_a_capture() {
    let path = temp("note.glcap");
    let device = capturing(CaptureOptions::default());
    let handle = device.capture(&path, 1).unwrap();
    // Between the request and the captured frame: written before the frame.
    device.with_gl(|_| ()).unwrap();
    let f = device.begin_frame(1).unwrap();
    f.submit(0, device.command_list()).unwrap();
    drop(f);
    handle.wait(Duration::from_secs(30)).unwrap();
    let c = capture::Capture::open(&path).unwrap();
    assert!(c.records.iter().any(|r| matches!(r, Record::Note(n) if n.contains("with_gl"))), "{:?}", c.records);
}

// ---------------------------------------------------------------------------------------------
// Regressions found by the fuzzer (replay/src/fuzz.rs)
// ---------------------------------------------------------------------------------------------

/// Fuzz seed 7, iteration 15406: a mutated `level` of `glInvalidateTexSubImage` on a texture
/// that exists. Mesa's check rejects the level, then reads `t->Image[0][level]` through the null
/// object it rejected (and a level below `GL_TEXTURE_MAX_LEVEL` but past the spec's bound indexes
/// past its array of levels): a crash in the driver, from the safe recording method as much as
/// from a capture. The render thread now checks the level first.
#[test]
fn fuzz_regression_invalidate_tex_sub_image_with_a_level_the_texture_cannot_have() {
    with_timeout("invalidate levels", Duration::from_secs(60), || {
        let path = temp("invalidate.glcap");
        let device = capturing(CaptureOptions::default());
        let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
        let mut setup = device.command_list();
        setup.texture_storage_2d(texture, 3, gl::RGBA8, 8, 8);
        device.submit(setup).unwrap();
        let handle = device.capture(&path, 1).unwrap();
        let mut list = device.command_list();
        for level in [2_031_616, -1, 1000, 15, 0, 2] {
            list.invalidate_tex_sub_image(texture, level, 0, 0, 0, 1, 1, 1);
        }
        device.submit(list).unwrap();
        handle.wait(Duration::from_secs(30)).unwrap();
        // Four skipped (and reported); levels 0 and 2 reach the GL.
        let skipped: Vec<_> = device.reports().try_iter().filter(|r| r.kind == ReportKind::Skipped).collect();
        assert_eq!(skipped.len(), 4, "{skipped:#?}");
        assert!(skipped[0].message.contains("level 2031616"), "{}", skipped[0].message);
        // A level the texture cannot have is an invalid value (issue 19: the GL's error).
        assert_eq!(device.get_error().unwrap(), gl::INVALID_VALUE);
        assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
        // The capture of the same list replays as safely.
        let c = capture::Capture::open(&path).unwrap();
        let replayer = Device::headless().unwrap();
        let summary = capture::replay(&c, &replayer, &ReplayOptions::default(), &mut |_| {}).unwrap();
        assert_eq!(summary.skipped, 4);
        assert_eq!(replayer.get_error().unwrap(), gl::INVALID_VALUE);
    });
}

/// Fuzz seed 7, iteration 16317: `glBindSamplers(4294967295, 1, ..)`. Mesa checks
/// `first + count > limit` in unsigned 32-bit arithmetic; the wrapped sum passes and it reads
/// and writes past its array of units. The same holds for every multi-bind and the viewport,
/// scissor and depth-range arrays: the render thread refuses a range that runs past 2^32.
#[test]
fn fuzz_regression_bindings_past_two_to_the_32_are_refused() {
    with_timeout("first + count", Duration::from_secs(60), || {
        let path = temp("wrap.glcap");
        let device = capturing(CaptureOptions::default());
        let sampler = device.create_samplers(1).unwrap()[0];
        let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
        let buffer = device.create_buffers(1).unwrap()[0];
        let handle = device.capture(&path, 1).unwrap();
        let mut list = device.command_list();
        list.bind_samplers(u32::MAX, 1, Some(&[sampler]));
        list.bind_textures(u32::MAX - 1, 2, Some(&[texture, texture]));
        list.bind_buffers_base(gl::UNIFORM_BUFFER, u32::MAX, 1, Some(&[buffer]));
        list.viewport_arrayv(u32::MAX, &[[0.0, 0.0, 1.0, 1.0]]);
        list.scissor_arrayv(u32::MAX, &[[0, 0, 1, 1]]);
        // In range: reaches the GL.
        list.bind_samplers(0, 1, Some(&[sampler]));
        device.submit(list).unwrap();
        handle.wait(Duration::from_secs(30)).unwrap();
        let skipped: Vec<_> = device.reports().try_iter().filter(|r| r.kind == ReportKind::Skipped).collect();
        assert_eq!(skipped.len(), 5, "{skipped:#?}");
        assert!(skipped.iter().all(|r| r.message.contains("2^32")), "{skipped:#?}");
        // The multi-binds' GL_INVALID_OPERATION; the viewport and scissor arrays'
        // GL_INVALID_VALUE came later and is dropped, as the GL keeps one flag (docs/errors.md).
        assert_eq!(device.get_error().unwrap(), gl::INVALID_OPERATION);
        assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
        let c = capture::Capture::open(&path).unwrap();
        let replayer = Device::headless().unwrap();
        let summary = capture::replay(&c, &replayer, &ReplayOptions::default(), &mut |_| {}).unwrap();
        assert_eq!(summary.skipped, 5);
    });
}

/// Fuzz seed 11 on the GPU machine, iteration 4098: `glSamplerParameterf(s,
/// GL_TEXTURE_MAX_ANISOTROPY, NaN)`. NaN passes the driver's `< 1.0` check, and NVIDIA's driver
/// crashed at the next draw with that sampler. No NaN of range-checked float state reaches the
/// driver (scalars and `fv` arrays), for lists and captures alike: a texture or sampler
/// parameter answers as the GL answers NaN with a value that is none (the anisotropy is clamped
/// to the maximum, `runtime/float_params.rs`) or is refused (a LOD), every other such function
/// refuses it; data (uniforms, clear values, border colours) keeps its NaNs. Iteration 295 of the same round, a buffer left
/// without storage and then drawn from, is why `glcmd-replay` asks for robust buffer access.
#[test]
fn fuzz_regression_nan_state_values_are_refused() {
    with_timeout("NaN state", Duration::from_secs(60), || {
        let path = temp("nan.glcap");
        let device = capturing(CaptureOptions::default());
        let sampler = device.create_sampler().unwrap();
        let texture = device.create_texture(gl::TEXTURE_2D).unwrap();
        let handle = device.capture(&path, 1).unwrap();
        let mut list = device.command_list();
        list.sampler_parameterf(sampler, gl::TEXTURE_MAX_ANISOTROPY, f32::NAN);
        list.sampler_parameterfv(sampler, gl::TEXTURE_BORDER_COLOR, &[0.0, f32::NAN, 0.0, 1.0]);
        list.texture_parameterf(texture, gl::TEXTURE_MIN_LOD, f32::NAN);
        list.point_size(f32::NAN);
        list.line_width(f32::NAN);
        list.polygon_offset(f32::NAN, 0.0);
        list.depth_rangef(0.0, f32::NAN);
        list.viewport_indexedf(0, 0.0, 0.0, f32::NAN, 16.0);
        // Finite values reach the GL; NaN in data is not state and is kept.
        list.sampler_parameterf(sampler, gl::TEXTURE_MAX_ANISOTROPY, 2.0);
        list.sampler_parameterfv(sampler, gl::TEXTURE_BORDER_COLOR, &[0.0, 0.5, 0.0, 1.0]);
        list.clear_color(f32::NAN, 0.0, 0.0, 1.0);
        device.submit(list).unwrap();
        handle.wait(Duration::from_secs(30)).unwrap();
        let skipped: Vec<_> = device.reports().try_iter().filter(|r| r.kind == ReportKind::Skipped).collect();
        // Not the anisotropy (clamped to the maximum, as the GL clamps NaN) nor the border colour.
        assert_eq!(skipped.len(), 6, "{skipped:#?}");
        assert!(skipped.iter().all(|r| r.message.contains("is NaN")), "{skipped:#?}");
        assert!(skipped[0].message.contains("`param`"), "{}", skipped[0].message);
        // NaN is an invalid value (issue 19: INVALID_VALUE, not INVALID_OPERATION).
        assert_eq!(device.get_error().unwrap(), gl::INVALID_VALUE);
        assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
        assert_eq!(device.get_sampler_parameterfv(sampler, gl::TEXTURE_MAX_ANISOTROPY).unwrap(), vec![2.0]);
        assert_eq!(
            device.get_sampler_parameterfv(sampler, gl::TEXTURE_BORDER_COLOR).unwrap(),
            vec![0.0, 0.5, 0.0, 1.0]
        );
        assert_eq!(device.get_floatv(gl::POINT_SIZE).unwrap(), vec![1.0]);
        let c = capture::Capture::open(&path).unwrap();
        let replayer = glcmd_replay_device();
        let summary = capture::replay(&c, &replayer, &ReplayOptions::default(), &mut |_| {}).unwrap();
        assert_eq!(summary.skipped, 6);
    });
}

/// A replay device as `glcmd-replay` makes it: robust buffer access asked for.
fn glcmd_replay_device() -> Device {
    Device::with_options(glcmd::Options::default().robust_access(true)).unwrap()
}

/// Fuzz seed 7, iterations 7013 and 11673: a recorded `glGetUniformLocation` whose name gained
/// a NUL. The typed method refuses such a name by panicking (a caller's mistake in the process);
/// from a file it is a load error of the record, never a panic of the replay.
#[test]
fn fuzz_regression_a_recorded_query_string_with_a_nul_is_refused_at_load() {
    with_timeout("query string with a NUL", Duration::from_secs(60), || {
        let path = temp("nul.glcap");
        let device = capturing(CaptureOptions::default());
        let s = Scene::on_device(&device, W, H);
        let handle = device.capture(&path, 1).unwrap();
        assert_eq!(device.get_uniform_location(s.program, "color").unwrap(), LOC_COLOR);
        device.submit(device.command_list()).unwrap();
        handle.wait(Duration::from_secs(30)).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let c = capture::Capture::from_bytes(&bytes).unwrap();
        let at = c
            .records
            .iter()
            .find_map(|r| match r {
                Record::Call { offset, function, .. }
                    if glcmd::generated::capture::call_info(*function).map(|(n, _)| n)
                        == Some("glGetUniformLocation") =>
                {
                    Some(*offset)
                }
                _ => None,
            })
            .expect("the lookup is recorded");
        // tag 1, length 4, function 2, argument length 4, program 4, name length 4, then "color".
        let name = at + 19;
        assert_eq!(&bytes[name..name + 5], b"color");
        match load_err(&patch(&bytes, name + 2, &[0])) {
            LoadError::Call {
                offset,
                function,
                problem: capture::calls::CallProblem::Argument { param: "name", .. },
            } => {
                assert_eq!((offset, function.as_str()), (at, "glGetUniformLocation"))
            }
            other => panic!("{other}"),
        }
    });
}
