//! The program interface cache (issue 9): lookups answered without joining the command stream,
//! equal to what direct GL answers for the same program (differential), failing at once when
//! the link is recorded but not submitted, refreshed by every relink.

mod common;

use std::ffi::CString;

use common::*;
use glcmd::types::*;
use glcmd::{gl, Error};

const VS: &str = "#version 450 core
layout(location = 3) in vec4 position;
in vec2 uv;
in float weights[3];
struct Light { vec4 color; float power; };
uniform Light lights[4];
uniform mat4 mvp;
uniform float unused_uniform;
uniform float ks[5];
layout(std140) uniform Camera { mat4 view; vec4 eye; } camera;
layout(std430, binding = 1) buffer Data { vec4 items[]; } data;
subroutine vec4 Shade(vec4 c);
subroutine(Shade) vec4 plain(vec4 c) { return c; }
subroutine(Shade) vec4 doubled(vec4 c) { return c * 2.0; }
subroutine uniform Shade shade;
out vec2 v_uv;
void main() {
    v_uv = uv + vec2(weights[0] + weights[2]);
    vec4 l = lights[2].color * lights[3].power + camera.eye + data.items[1];
    gl_Position = shade(mvp * position + l * ks[4]);
}
";
const FS: &str = "#version 450 core
in vec2 v_uv;
layout(location = 0) out vec4 color;
layout(location = 1) out vec4 extra;
uniform sampler2D tex;
void main() { color = texture(tex, v_uv); extra = vec4(1.0); }
";

/// Names to look up: active ones in every spelling, inactive ones, wrong ones.
const UNIFORMS: &[&str] = &[
    "mvp",
    "lights[0].color",
    "lights[2].color",
    "lights[3].power",
    "lights[1].power",
    "ks",
    "ks[0]",
    "ks[4]",
    "ks[5]",
    "tex",
    "unused_uniform",
    "nope",
    "mvp[0]",
    "lights",
    "ks[ 1]",
    "",
];
const ATTRIBS: &[&str] =
    &["position", "uv", "weights", "weights[0]", "weights[2]", "weights[3]", "nope", "gl_VertexID"];
const BLOCKS: &[&str] = &["Camera", "camera", "Data", "nope"];
const OUTPUTS: &[&str] = &["color", "extra", "nope"];

/// Every lookup, asked of a context through `get(lookup, interface_or_stage, name)`.
fn answers(mut get: impl FnMut(&str, GLenum, &str) -> i64) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    let mut ask =
        |what: &str, aux: GLenum, name: &str| out.push((format!("{what}({aux:#x}, {name:?})"), get(what, aux, name)));
    for u in UNIFORMS {
        ask("uniform", 0, u);
        ask("index", gl::UNIFORM, u);
        ask("location", gl::UNIFORM, u);
    }
    for a in ATTRIBS {
        ask("attrib", 0, a);
        ask("index", gl::PROGRAM_INPUT, a);
    }
    for b in BLOCKS {
        ask("block", 0, b);
        ask("index", gl::UNIFORM_BLOCK, b);
        ask("index", gl::SHADER_STORAGE_BLOCK, b);
    }
    for o in OUTPUTS {
        ask("frag", 0, o);
        ask("location", gl::PROGRAM_OUTPUT, o);
    }
    for s in ["plain", "doubled", "nope"] {
        ask("subroutine", gl::VERTEX_SHADER, s);
    }
    for s in ["shade", "nope"] {
        ask("subroutine uniform", gl::VERTEX_SHADER, s);
    }
    out
}

fn direct_answers() -> (Vec<(String, i64)>, GLint) {
    let d = Direct::new();
    let program = d.program(&[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)]);
    let g = &d.gl;
    let mut status = 0;
    unsafe { (g.GetProgramiv)(program, gl::LINK_STATUS, &mut status) };
    (direct_lookups(g, program), status)
}

/// Every lookup of `answers`, asked of direct GL.
fn direct_lookups(g: &glcmd::Gl, program: GLuint) -> Vec<(String, i64)> {
    answers(|what, aux, name| {
        let c = CString::new(name).unwrap();
        let p = c.as_ptr();
        // SAFETY: a NUL-terminated name and a program of this context.
        unsafe {
            match what {
                "uniform" => (g.GetUniformLocation)(program, p) as i64,
                "index" => (g.GetProgramResourceIndex)(program, aux, p) as i64,
                "location" => (g.GetProgramResourceLocation)(program, aux, p) as i64,
                "attrib" => (g.GetAttribLocation)(program, p) as i64,
                "block" => (g.GetUniformBlockIndex)(program, p) as i64,
                "frag" => (g.GetFragDataLocation)(program, p) as i64,
                "subroutine" => (g.GetSubroutineIndex)(program, aux, p) as i64,
                _ => (g.GetSubroutineUniformLocation)(program, aux, p) as i64,
            }
        }
    })
}

fn device_answers(device: &glcmd::Device, program: GLuint) -> Vec<(String, i64)> {
    answers(|what, aux, name| match what {
        "uniform" => device.get_uniform_location(program, name).unwrap() as i64,
        "index" => device.get_program_resource_index(program, aux, name).unwrap() as i64,
        "location" => device.get_program_resource_location(program, aux, name).unwrap() as i64,
        "attrib" => device.get_attrib_location(program, name).unwrap() as i64,
        "block" => device.get_uniform_block_index(program, name).unwrap() as i64,
        "frag" => device.get_frag_data_location(program, name).unwrap() as i64,
        "subroutine" => device.get_subroutine_index(program, aux, name).unwrap() as i64,
        _ => device.get_subroutine_uniform_location(program, aux, name).unwrap() as i64,
    })
}

#[test]
fn cached_lookups_equal_direct_gl_and_make_no_round_trip() {
    let (direct, direct_status) = direct_answers();
    let device = device();
    let program = device_program(&device, &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)]);
    device.finish().unwrap();
    // The active resources, by the names the GL reports for them, are prefilled: no round trip.
    let before = device.stats().round_trips;
    for (what, aux, name) in ACTIVE {
        let value = match *what {
            "uniform" => device.get_uniform_location(program, name).unwrap() as i64,
            "attrib" => device.get_attrib_location(program, name).unwrap() as i64,
            "block" => device.get_uniform_block_index(program, name).unwrap() as i64,
            "frag" => device.get_frag_data_location(program, name).unwrap() as i64,
            "subroutine" => device.get_subroutine_index(program, *aux, name).unwrap() as i64,
            "subroutine uniform" => device.get_subroutine_uniform_location(program, *aux, name).unwrap() as i64,
            _ => device.get_program_resource_index(program, *aux, name).unwrap() as i64,
        };
        assert!(found(value), "{what} {name:?} is active in the shader, got {value}");
    }
    assert_eq!(device.stats().round_trips, before, "the active resources were all cached");
    // Every lookup, other spellings included (asked once, then kept), equals direct GL's.
    assert_eq!(device_answers(&device, program), direct);
    assert!(direct.iter().any(|(_, v)| *v > 0), "the program has active resources");
    assert_eq!(device.get_programiv(program, gl::LINK_STATUS).unwrap(), vec![direct_status]);
    let again_before = device.stats().round_trips;
    assert_eq!(device_answers(&device, program), direct);
    assert_eq!(device.stats().round_trips, again_before, "a second pass is all cached");
}

/// Lookups of resources that VS and FS use, by the names the GL reports (how many *other*
/// spellings a driver accepts, and so asks about, differs between drivers).
const ACTIVE: &[(&str, GLenum, &str)] = &[
    ("uniform", 0, "mvp"),
    ("uniform", 0, "lights[2].color"),
    ("uniform", 0, "lights[3].power"),
    ("uniform", 0, "ks[0]"),
    ("uniform", 0, "tex"),
    ("index", gl::UNIFORM, "mvp"),
    ("attrib", 0, "position"),
    ("attrib", 0, "uv"),
    ("index", gl::PROGRAM_INPUT, "position"),
    ("block", 0, "Camera"),
    ("index", gl::SHADER_STORAGE_BLOCK, "Data"),
    ("frag", 0, "color"),
    ("frag", 0, "extra"),
    ("subroutine", gl::VERTEX_SHADER, "plain"),
    ("subroutine", gl::VERTEX_SHADER, "doubled"),
    ("subroutine uniform", gl::VERTEX_SHADER, "shade"),
];

#[test]
fn a_lookup_of_a_link_that_is_not_submitted_fails_at_once() {
    let device = device();
    let program = device.create_program().unwrap();
    let vs = device.create_shader(gl::VERTEX_SHADER).unwrap();
    let mut list = device.command_list();
    list.shader_source(vs, &[VS]);
    list.compile_shader(vs);
    list.attach_shader(program, vs);
    list.link_program(program);
    let r = device.get_uniform_location(program, "mvp");
    assert!(matches!(r, Err(Error::LinkNotSubmitted { program: p }) if p == program), "{r:?}");
    let r = device.get_programiv(program, gl::LINK_STATUS);
    assert!(matches!(r, Err(Error::LinkNotSubmitted { .. })), "{r:?}");
    device.submit(list).unwrap();
    assert_eq!(device.get_programiv(program, gl::LINK_STATUS).unwrap(), vec![1]);
    assert!(device.get_uniform_location(program, "mvp").unwrap() >= 0);
    // A list dropped unsubmitted no longer blocks lookups.
    let mut list = device.command_list();
    list.link_program(program);
    drop(list);
    assert!(device.get_uniform_location(program, "mvp").unwrap() >= 0);
}

#[test]
fn a_lookup_waits_only_for_the_link_not_for_other_lists() {
    let device = device();
    let program = device_program(&device, &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)]);
    let expected = device.get_uniform_location(program, "mvp").unwrap();
    // Slot 0 is this thread's and unsubmitted; slot 1 is submitted. A query would wait for
    // slot 0 (and fail at once, since only this thread can submit it); the lookup does not.
    let frame = device.begin_frame(2).unwrap();
    let mine = frame.list(0).unwrap();
    frame.submit(1, device.command_list()).unwrap();
    assert!(matches!(device.get_error(), Err(Error::WouldDeadlock { .. })));
    assert_eq!(device.get_uniform_location(program, "mvp").unwrap(), expected);
    frame.submit(0, mine).unwrap();
}

/// A lookup made right after submitting the slot that links, while the frame is still open:
/// the render thread may not have seen the submit yet (its stall still names that slot), and
/// the lookup must wait for the link, not report a deadlock on a slot that is on its way. The
/// race is won or lost by timing; 200 frames make a wrong check fail on any machine, and the
/// right one passes on every machine.
#[test]
fn a_lookup_right_after_submitting_the_linking_slot_waits_for_it() {
    with_timeout("lookup after submit", std::time::Duration::from_secs(120), || {
        let device = device();
        let vs = device.create_shader(gl::VERTEX_SHADER).unwrap();
        let mut list = device.command_list();
        list.shader_source(vs, &[VS]);
        list.compile_shader(vs);
        device.submit(list).unwrap();
        for round in 0..200 {
            let program = device.create_program().unwrap();
            let frame = device.begin_frame(2).unwrap();
            let mut link = device.command_list();
            link.attach_shader(program, vs);
            link.link_program(program);
            frame.submit(0, link).unwrap();
            let r = device.get_uniform_location(program, "mvp");
            assert!(matches!(r, Ok(l) if l >= 0), "round {round}: {r:?}");
            frame.submit(1, device.command_list()).unwrap();
            let mut delete = device.command_list();
            delete.delete_program(program);
            device.submit(delete).unwrap();
        }
    });
}

/// A lookup's answer names a resource: not -1, not `GL_INVALID_INDEX`.
fn found(value: i64) -> bool {
    value >= 0 && value != gl::INVALID_INDEX as i64
}

/// `glProgramBinary` and `glCreateShaderProgramv` fill the cache as a link does: their
/// lookups equal direct GL's for the same program, with the round trips of a linked program's.
#[test]
fn program_binary_and_create_shader_programv_fill_the_cache_like_a_link() {
    let device = device();
    let linked = device_program(&device, &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)]);
    // What a linked program's first pass asks the GL (spellings the cache cannot know).
    let before = device.stats().round_trips;
    let linked_answers = device_answers(&device, linked);
    let asked_linked = device.stats().round_trips - before;
    let formats = device.get_integerv(gl::NUM_PROGRAM_BINARY_FORMATS).unwrap()[0];
    let size = device.get_programiv(linked, gl::PROGRAM_BINARY_LENGTH).unwrap()[0];
    if formats > 0 && size > 0 {
        let (direct, direct_status) = direct_answers();
        let (written, format, bytes) = device.get_program_binary(linked, size).unwrap();
        assert_eq!(written, size);
        let program = device.create_program().unwrap();
        let mut list = device.command_list();
        list.program_binary(program, format, &bytes[..written as usize]);
        device.submit(list).unwrap();
        device.finish().unwrap();
        let before = device.stats().round_trips;
        assert_eq!(device_answers(&device, program), direct);
        let asked = device.stats().round_trips - before;
        assert_eq!(linked_answers, direct);
        // The binary's cache is the link's, subroutines included (no shader is attached to a
        // program made from a binary: the cache asks every stage).
        assert!(direct.iter().any(|(k, v)| k.starts_with("subroutine") && found(*v)));
        assert_eq!(asked, asked_linked, "{} lookups", direct.len());
        assert_eq!(device.get_programiv(program, gl::LINK_STATUS).unwrap(), vec![direct_status]);
    } else {
        // Not every driver offers a binary format; the rest of the test still runs.
        eprintln!("no program binary format ({formats} formats, binary length {size}): glProgramBinary not tested");
    }

    // A separable vertex program, made by glCreateShaderProgramv, directly and through glcmd. A
    // separable program redeclares the gl_PerVertex block it writes (NVIDIA refuses the link
    // otherwise).
    let separable_vs =
        VS.replacen("#version 450 core\n", "#version 450 core\nout gl_PerVertex { vec4 gl_Position; };\n", 1);
    let d = Direct::new();
    let source = CString::new(separable_vs.as_str()).unwrap();
    let direct_program = unsafe { (d.gl.CreateShaderProgramv)(gl::VERTEX_SHADER, 1, &source.as_ptr()) };
    let mut direct_status = 0;
    unsafe { (d.gl.GetProgramiv)(direct_program, gl::LINK_STATUS, &mut direct_status) };
    assert_eq!(direct_status, 1, "the direct separable program links");
    let direct = direct_lookups(&d.gl, direct_program);
    let program = device.create_shader_programv(gl::VERTEX_SHADER, &[separable_vs.as_str()]).unwrap();
    let before = device.stats().round_trips;
    assert_eq!(device_answers(&device, program), direct);
    let asked = device.stats().round_trips - before;
    // The cache is what a link of the same vertex shader gives, subroutines included
    // (glCreateShaderProgramv detaches its shader before it returns).
    let vertex_only = device.create_program().unwrap();
    let shader = device.create_shader(gl::VERTEX_SHADER).unwrap();
    let mut list = device.command_list();
    list.shader_source(shader, &[separable_vs.as_str()]);
    list.compile_shader(shader);
    list.attach_shader(vertex_only, shader);
    list.program_parameteri(vertex_only, gl::PROGRAM_SEPARABLE, gl::TRUE as GLint);
    list.link_program(vertex_only);
    device.submit(list).unwrap();
    let before_linked = device.stats().round_trips;
    assert_eq!(device_answers(&device, vertex_only), direct);
    let asked_linked = device.stats().round_trips - before_linked;
    assert!(direct.iter().filter(|(_, v)| found(*v)).count() > 10, "active resources: {direct:?}");
    assert!(direct.iter().any(|(k, v)| k.starts_with("subroutine") && found(*v)));
    assert_eq!(asked, asked_linked, "{} lookups", direct.len());
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR, "glcmd's own reads raised no error");
    let before = device.stats().round_trips;
    assert_eq!(device_answers(&device, program), direct);
    assert_eq!(device.stats().round_trips, before, "a second pass is all cached");
    assert_eq!(device.get_programiv(program, gl::LINK_STATUS).unwrap(), vec![1]);
}

#[test]
fn a_relink_refreshes_the_cache() {
    let device = device();
    let program = device.create_program().unwrap();
    let vs = device.create_shader(gl::VERTEX_SHADER).unwrap();
    let fs = device.create_shader(gl::FRAGMENT_SHADER).unwrap();
    let mut list = device.command_list();
    list.shader_source(vs, &[VS]);
    list.shader_source(fs, &[FS]);
    list.compile_shader(vs);
    list.compile_shader(fs);
    list.attach_shader(program, vs);
    list.attach_shader(program, fs);
    list.bind_attrib_location(program, 7, "uv");
    list.link_program(program);
    device.submit(list).unwrap();
    assert_eq!(device.get_attrib_location(program, "uv").unwrap(), 7);
    let mut list = device.command_list();
    list.bind_attrib_location(program, 9, "uv");
    list.link_program(program);
    device.submit(list).unwrap();
    assert_eq!(device.get_attrib_location(program, "uv").unwrap(), 9);
    // The info log and link status come from the cache too, as the GL gives them.
    assert_eq!(device.get_programiv(program, gl::LINK_STATUS).unwrap(), vec![1]);
    let _ = device.get_program_info_log(program, 1024).unwrap();
    assert_eq!(device.get_program_info_log(program, 0).unwrap(), "");
}

#[test]
fn a_link_that_is_skipped_or_dropped_does_not_keep_lookups_waiting() {
    let device =
        glcmd::Device::with_options(glcmd::Options::default().wait_limit(std::time::Duration::from_secs(60))).unwrap();
    // A link of a name that is no program: glcmd skips it at replay. Lookups of that name must
    // not wait for a link that will never run.
    let mut list = device.command_list();
    list.link_program(4242);
    device.submit(list).unwrap();
    let start = std::time::Instant::now();
    // The GL's own answer for a name that is no program (the lookup is a round trip).
    let r = device.get_uniform_location(4242, "mvp");
    assert!(matches!(r, Ok(-1) | Err(Error::NoSuchObject { .. })), "{r:?}");
    assert!(start.elapsed() < std::time::Duration::from_secs(30), "the lookup waited for a skipped link");
}

/// A lookup that would wait for a link queued behind a slot this thread owes (here: slot 0 of
/// a frame this thread holds open) fails at once with `WouldDeadlock` naming that slot, instead
/// of waiting out `Options::wait_limit` (two minutes here, so an answer "at once" is not a
/// timeout in disguise).
#[test]
fn a_lookup_behind_a_slot_this_thread_owes_fails_at_once() {
    use std::time::{Duration, Instant};
    let device = glcmd::Device::with_options(glcmd::Options::default().wait_limit(Duration::from_secs(120))).unwrap();
    let program = device.create_program().unwrap();
    let vs = device.create_shader(gl::VERTEX_SHADER).unwrap();
    let frame = device.begin_frame(2).unwrap();
    let mut list = device.command_list();
    list.shader_source(vs, &[VS]);
    list.compile_shader(vs);
    list.attach_shader(program, vs);
    list.link_program(program);
    frame.submit(1, list).unwrap();
    let start = Instant::now();
    match device.get_uniform_location(program, "mvp") {
        Err(Error::WouldDeadlock { frame: f, slot: 0, what, .. }) => {
            assert_eq!(f, frame.number());
            assert!(what.contains("glGetUniformLocation"), "{what}");
        }
        other => panic!("expected WouldDeadlock for slot 0, got {other:?}"),
    }
    assert!(matches!(device.get_programiv(program, gl::LINK_STATUS), Err(Error::WouldDeadlock { slot: 0, .. })));
    assert!(start.elapsed() < Duration::from_secs(60), "answered at once, not after the wait limit");
    frame.submit(0, device.command_list()).unwrap();
    drop(frame);
    assert_eq!(device.get_programiv(program, gl::LINK_STATUS).unwrap(), vec![1]);
    assert!(device.get_uniform_location(program, "mvp").unwrap() >= 0);
}

/// Lookups of ever new names (issue 16, item 7): each is asked of the GL and answered right,
/// but the cache keeps at most `MISSES_KEPT` of them per program (and `MISS_BYTES` of names),
/// so its size stays bounded however many names are looked up; the prefilled answers stay.
#[test]
fn lookups_of_ever_new_names_keep_the_cache_bounded() {
    use glcmd::programs::{MISSES_KEPT, MISS_BYTES};
    let device = device();
    let program = device_program(&device, &[(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, COLOR_FS)]);
    assert_eq!(device.get_uniform_location(program, "color").unwrap(), LOC_COLOR);
    let prefilled = device.stats().program_answers;
    assert!(prefilled > 0);
    let mut most = 0;
    let padding = "x".repeat(100);
    for i in 0..20_000 {
        let name = format!("missing_{padding}_{i}");
        assert_eq!(device.get_uniform_location(program, &name).unwrap(), -1, "{name}");
        most = most.max(device.stats().program_answers);
    }
    assert!(most <= prefilled + MISSES_KEPT, "{most} answers kept ({prefilled} prefilled)");
    assert!((most - prefilled) * 110 <= MISS_BYTES + 110, "{} misses of 110 bytes kept", most - prefilled);
    assert_eq!(device.stats().program_entries, 1);
    // The answers are still the GL's: the prefilled ones, and a miss asked again.
    assert_eq!(device.get_uniform_location(program, "color").unwrap(), LOC_COLOR);
    assert_eq!(device.get_uniform_location(program, "rect").unwrap(), LOC_RECT);
    assert_eq!(device.get_uniform_location(program, "size").unwrap(), LOC_SIZE);
    assert_eq!(device.get_uniform_location(program, &format!("missing_{padding}_7")).unwrap(), -1);
    // A name longer than the byte bound is answered and not kept.
    let huge = "y".repeat(MISS_BYTES + 1);
    let before = device.stats().program_answers;
    assert_eq!(device.get_uniform_location(program, &huge).unwrap(), -1);
    assert!(device.stats().program_answers <= before);
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
}

/// Each thread keeps a copy of the answers it was given (`recent_lookups.rs`), valid only while
/// nothing changed in the shared cache. A copy must never outlive a change: a relink made by
/// another thread, a link recorded and not submitted, a delete, or the same program name on
/// another device. Every lookup here is made first so that the copy holds it, then again after
/// the change.
#[test]
fn a_threads_copy_of_an_answer_never_outlives_a_change() {
    let device = device();
    let program = device.create_program().unwrap();
    let vs = device.create_shader(gl::VERTEX_SHADER).unwrap();
    let fs = device.create_shader(gl::FRAGMENT_SHADER).unwrap();
    let link_with_uv_at = |location: u32| {
        let mut list = device.command_list();
        list.bind_attrib_location(program, location, "uv");
        list.link_program(program);
        device.submit(list).unwrap();
    };
    let mut list = device.command_list();
    list.shader_source(vs, &[VS]);
    list.shader_source(fs, &[FS]);
    list.compile_shader(vs);
    list.compile_shader(fs);
    list.attach_shader(program, vs);
    list.attach_shader(program, fs);
    device.submit(list).unwrap();
    link_with_uv_at(7);
    assert_eq!(device.get_attrib_location(program, "uv").unwrap(), 7);
    assert_eq!(device.get_attrib_location(program, "uv").unwrap(), 7, "from this thread's copy");
    // A relink by another thread: this thread's copy must not answer 7 any more.
    std::thread::scope(|s| s.spawn(|| link_with_uv_at(9)).join().unwrap());
    assert_eq!(device.get_attrib_location(program, "uv").unwrap(), 9);
    // A link recorded on another thread and not yet submitted: the lookup fails at once.
    let pending = std::thread::scope(|s| {
        s.spawn(|| {
            let mut list = device.command_list();
            list.link_program(program);
            list
        })
        .join()
        .unwrap()
    });
    let r = device.get_attrib_location(program, "uv");
    assert!(matches!(r, Err(Error::LinkNotSubmitted { .. })), "{r:?}");
    device.submit(pending).unwrap();
    assert_eq!(device.get_attrib_location(program, "uv").unwrap(), 9);
    // The same program name on another device answers for that device's program.
    let other = glcmd::Device::headless().unwrap();
    let other_program = device_program(&other, &[(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, COLOR_FS)]);
    // SAFETY: a NUL-terminated name.
    let direct_other =
        other.with_gl(move |g| unsafe { (g.GetUniformLocation)(other_program, c"color".as_ptr()) }).unwrap();
    for _ in 0..2 {
        assert_eq!(device.get_attrib_location(program, "uv").unwrap(), 9);
        assert_eq!(other.get_uniform_location(other_program, "color").unwrap(), direct_other);
    }
    // A delete: the answer is the GL's for a name that is no program any more, not the copy's.
    let mut list = device.command_list();
    list.delete_program(program);
    device.submit(list).unwrap();
    device.finish().unwrap();
    let r = device.get_attrib_location(program, "uv");
    assert!(!matches!(r, Ok(9)), "a deleted program's answer came from a copy: {r:?}");
}
