//! The audit of the recorded-state shadow (`runtime/recorded_state.rs`: `glGetIntegerv` and
//! `glIsEnabled` answered from what an immediate thread recorded), as the binding shadow's audit
//! is: from a fixed seed, every call that can change a shadowed value, with adversarial arguments
//! (sizes the GL refuses or clamps, corners outside the bounds range, caps and indices that are
//! not indexed, factors and equations the GL refuses, units and names that do not exist, a 2D
//! bind of a cube-map texture, deletes of bound buffers), calls that forget everything
//! (`glBindTextures`, `glDeleteTextures`, `glViewportIndexedf`, `glBlendFunci`) and state changed
//! behind glcmd's back (`with_gl`); after each step every value the shadow would answer is compared
//! with the GL's own, asked with a round trip. Lists are recorded as a C immediate thread records
//! them (`mark_immediate_recording`) and handed over at random points, so the shadow is asked
//! with calls still unsubmitted, as the thread's own queries are; now and then a query goes to
//! the GL through the shadow's learning path, so that kept answers are audited too.
//!
//! The rule checked: an answer the shadow gives is the GL's, exactly. The audit also checks that
//! answers are given (a shadow that never answers would pass the rule).

mod common;

use common::Rng;
use glcmd::recorded_state::{answering, SHADOWED};
use glcmd::types::GLuint;
use glcmd::{gl, CommandList, Device};

fn list(device: &Device) -> CommandList {
    let mut list = device.command_list();
    list.mark_immediate_recording();
    list
}

/// The shadowed caps, and caps the shadow does not follow (one that is no cap).
const CAPS: [u32; 9] = {
    let s = glcmd::recorded_state::CAPS;
    [s[0], s[1], s[2], s[3], s[4], s[5], gl::POLYGON_OFFSET_FILL, gl::DITHER, 0xFFFF]
};
const FACTORS: [u32; 6] = [gl::ONE, gl::ZERO, gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA, gl::SRC1_COLOR, 0x1234];
const EQUATIONS: [u32; 5] = [gl::FUNC_ADD, gl::MIN, gl::FUNC_REVERSE_SUBTRACT, 0x9294, 0];
const INTS: [i32; 8] = [0, 1, 7, 16, -1, -5, 40000, i32::MAX];

/// One adversarial call into `l`. `names` are: buffers, 2D textures, a cube-map texture, samplers,
/// vertex arrays, a linked program.
fn step(rng: &mut Rng, l: &mut CommandList, names: &Names) {
    let int = |rng: &mut Rng| rng.pick(&INTS);
    match rng.next_u64() % 24 {
        0 => l.viewport(int(rng), int(rng), int(rng), int(rng)),
        1 => l.scissor(int(rng), int(rng), int(rng), int(rng)),
        2 => l.enable(rng.pick(&CAPS)),
        3 => l.disable(rng.pick(&CAPS)),
        4 => l.enablei(rng.pick(&CAPS), rng.pick(&[0, 1, 99])),
        5 => l.disablei(rng.pick(&CAPS), rng.pick(&[0, 1, 99])),
        6 => l.blend_func(rng.pick(&FACTORS), rng.pick(&FACTORS)),
        7 => l.blend_func_separate(rng.pick(&FACTORS), rng.pick(&FACTORS), rng.pick(&FACTORS), rng.pick(&FACTORS)),
        8 => l.blend_equation(rng.pick(&EQUATIONS)),
        9 => l.blend_equation_separate(rng.pick(&EQUATIONS), rng.pick(&EQUATIONS)),
        10 => l.active_texture(rng.pick(&[gl::TEXTURE0, gl::TEXTURE0 + 3, gl::TEXTURE0 + 100_000, 0])),
        11 => {
            let target = rng.pick(&[gl::ARRAY_BUFFER, gl::ELEMENT_ARRAY_BUFFER, gl::ELEMENT_ARRAY_BUFFER, 0xFFFF]);
            l.bind_buffer(target, rng.pick(&names.buffers))
        }
        12 if rng.next_u64() % 4 == 0 => l.delete_buffers(&[rng.pick(&names.buffers)]),
        13 => l.bind_texture(rng.pick(&[gl::TEXTURE_2D, gl::TEXTURE_2D, gl::TEXTURE_3D]), rng.pick(&names.textures)),
        14 => l.bind_sampler(rng.pick(&[0, 3, 100_000]), rng.pick(&names.samplers)),
        15 => l.bind_vertex_array(rng.pick(&names.arrays)),
        16 => l.use_program(rng.pick(&names.programs)),
        17 => l.polygon_mode(
            rng.pick(&[gl::FRONT_AND_BACK, gl::FRONT_AND_BACK, gl::FRONT]),
            rng.pick(&[gl::LINE, gl::FILL, gl::POINT, 0]),
        ),
        18 => match rng.next_u64() % 4 {
            0 => l.bind_textures(0, 2, Some(&[0, 0])),
            1 if rng.next_u64() % 4 == 0 => l.delete_textures(&[rng.pick(&names.textures)]),
            2 => l.viewport_indexedf(0, 1.0, 2.0, 3.0, 4.0),
            _ => l.blend_funci(0, gl::ONE, gl::ONE),
        },
        19 => l.pixel_storei(rng.pick(&[gl::UNPACK_ALIGNMENT, gl::PACK_ALIGNMENT]), rng.pick(&[1, 4, 8, 3, 0])),
        20 => match rng.next_u64() % 3 {
            0 => l.pixel_storef(gl::PACK_ALIGNMENT, 2.0),
            1 => l.clip_control(rng.pick(&[gl::LOWER_LEFT, gl::UPPER_LEFT]), gl::NEGATIVE_ONE_TO_ONE),
            _ => l.vertex_array_element_buffer(rng.pick(&names.arrays), rng.pick(&names.buffers)),
        },
        21 if rng.next_u64() % 8 == 0 => l.link_program(rng.pick(&names.programs)),
        22 if rng.next_u64() % 200 == 0 => l.begin_transform_feedback(gl::POINTS),
        _ => {}
    }
}

struct Names {
    buffers: Vec<GLuint>,
    textures: Vec<GLuint>,
    samplers: Vec<GLuint>,
    arrays: Vec<GLuint>,
    programs: Vec<GLuint>,
}

fn names(device: &Device) -> Names {
    let mut buffers = device.create_buffers(2).unwrap();
    buffers.extend(device.gen_buffers(1).unwrap());
    buffers.extend([0, 4242]);
    let mut textures = device.create_textures(gl::TEXTURE_2D, 2).unwrap();
    textures.extend(device.create_textures(gl::TEXTURE_CUBE_MAP, 1).unwrap());
    textures.extend([0, 4242]);
    let mut samplers = device.create_samplers(1).unwrap();
    samplers.extend([0, 4242]);
    let mut arrays = device.create_vertex_arrays(3).unwrap();
    arrays.extend([0, 4242]);
    let linked = device
        .create_shader_programv(gl::VERTEX_SHADER, &["#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n"])
        .unwrap();
    let programs = vec![0, device.create_program().unwrap(), linked, linked, 4242];
    Names { buffers, textures, samplers, arrays, programs }
}

#[test]
fn recorded_state_answers_are_the_gls() {
    let device = Device::headless().unwrap();
    let names = names(&device);
    let recorded = device.recorded_state();
    let mut rng = Rng::new(0x05EE_D0F5_747E);
    let mut l = list(&device);
    let (mut answered, mut learned) = (0, 0);
    for n in 0..3000 {
        step(&mut rng, &mut l, &names);
        if rng.next_u64() % 40 == 0 {
            device.submit(std::mem::replace(&mut l, list(&device))).unwrap();
            device.with_gl(|g| unsafe { (g.Viewport)(3, 4, 5, 6) }).unwrap();
        }
        // The shadow's answers now (the calls recorded so far included).
        let shadow: Vec<_> = SHADOWED.iter().map(|&p| (p, answering(|| recorded.integerv(p)))).collect();
        let enabled: Vec<_> = CAPS.iter().map(|&c| (c, answering(|| recorded.is_enabled(c)))).collect();
        if shadow.iter().all(|(_, v)| v.is_none()) && rng.next_u64() % 3 != 0 {
            continue;
        }
        device.submit(std::mem::replace(&mut l, list(&device))).unwrap();
        for (pname, known) in shadow {
            let Some(known) = known else { continue };
            answered += 1;
            let gl_value = device.get_integerv(pname).unwrap();
            assert_eq!(known, gl_value, "step {n}: pname {pname:#x}");
        }
        for (cap, known) in enabled {
            let Some(known) = known else { continue };
            assert_eq!(known, device.is_enabled(cap).unwrap(), "step {n}: cap {cap:#x}");
        }
        // Through the learning path: the GL's answer is kept.
        for _ in 0..3 {
            let pname = rng.pick(&SHADOWED);
            answering(|| device.get_integerv(pname)).unwrap();
            learned += answering(|| recorded.integerv(pname)).is_some() as u32;
        }
    }
    eprintln!("recorded state audited: {answered} answers, {learned} kept from the GL");
    assert!(answered > 1000, "only {answered} answers came from the recorded state");
    assert!(learned > 20, "only {learned} answers of the GL were kept");
}

#[test]
fn a_second_recording_thread_turns_the_shadow_off() {
    let device = Device::headless().unwrap();
    let mut l = list(&device);
    l.viewport(0, 0, 8, 8);
    assert_eq!(answering(|| device.recorded_state().integerv(gl::VIEWPORT)), Some(vec![0, 0, 8, 8]));
    let d = device.clone();
    std::thread::spawn(move || {
        let mut other = list(&d);
        other.scissor(0, 0, 1, 1);
        d.submit(other).unwrap();
    })
    .join()
    .unwrap();
    assert_eq!(answering(|| device.recorded_state().integerv(gl::VIEWPORT)), None);
    device.submit(l).unwrap();
}

#[test]
fn setters_in_a_deferred_list_turn_the_shadow_off() {
    let device = Device::headless().unwrap();
    let mut l = list(&device);
    l.viewport(0, 0, 8, 8);
    let mut deferred = device.command_list();
    deferred.scissor(0, 0, 1, 1);
    assert_eq!(answering(|| device.recorded_state().integerv(gl::VIEWPORT)), None);
    device.submit(l).unwrap();
    device.submit(deferred).unwrap();
}

#[test]
fn a_program_whose_relink_failed_while_current_is_not_taken_as_rebound() {
    let device = Device::headless().unwrap();
    let recorded = device.recorded_state();
    // A program that links, and the shader that makes it link.
    let (program, shader) = device
        .with_gl(|g| unsafe {
            let s = (g.CreateShader)(gl::VERTEX_SHADER);
            let src = c"#version 330 core\nvoid main() { gl_Position = vec4(0.0); }\n";
            let p_src = src.as_ptr();
            (g.ShaderSource)(s, 1, &p_src, std::ptr::null());
            (g.CompileShader)(s);
            let p = (g.CreateProgram)();
            (g.AttachShader)(p, s);
            (g.LinkProgram)(p);
            (p, s)
        })
        .unwrap();
    let mut l = list(&device);
    l.use_program(program);
    device.submit(std::mem::replace(&mut l, list(&device))).unwrap();
    assert_eq!(answering(|| device.get_integerv(gl::CURRENT_PROGRAM)).unwrap(), vec![program as i32]);
    // Relinked with no shader while current: the link fails, the program stays current...
    l.detach_shader(program, shader);
    l.link_program(program);
    // (A call that forgets everything, so that the GL is asked again below.)
    l.bind_textures(0, 1, Some(&[0]));
    device.submit(std::mem::replace(&mut l, list(&device))).unwrap();
    assert_eq!(answering(|| device.get_integerv(gl::CURRENT_PROGRAM)).unwrap(), vec![program as i32]);
    // ...and refuses to be made current again.
    l.use_program(0);
    l.use_program(program);
    let shadow = answering(|| recorded.integerv(gl::CURRENT_PROGRAM));
    device.submit(l).unwrap();
    let gl_value = device.get_integerv(gl::CURRENT_PROGRAM).unwrap();
    assert_eq!(gl_value, vec![0], "the GL refuses glUseProgram of a program whose last link failed");
    assert!(shadow.is_none() || shadow == Some(gl_value), "the shadow answered {shadow:?}");
}

#[test]
fn a_vertex_arrays_element_buffer_follows_it_when_bound_again() {
    let device = Device::headless().unwrap();
    let recorded = device.recorded_state();
    let arrays = device.create_vertex_arrays(2).unwrap();
    let buffers = device.create_buffers(3).unwrap();
    let mut l = list(&device);
    l.bind_vertex_array(arrays[0]);
    l.bind_buffer(gl::ELEMENT_ARRAY_BUFFER, buffers[0]);
    device.submit(std::mem::replace(&mut l, list(&device))).unwrap();
    // The GL's answers are kept: array 0 is bindable, its element buffer remembered.
    assert_eq!(answering(|| device.get_integerv(gl::VERTEX_ARRAY_BINDING)).unwrap(), vec![arrays[0] as i32]);
    assert_eq!(answering(|| device.get_integerv(gl::ELEMENT_ARRAY_BUFFER_BINDING)).unwrap(), vec![buffers[0] as i32]);
    let check = |l: &mut CommandList, what: &str| {
        let shadow = answering(|| recorded.integerv(gl::ELEMENT_ARRAY_BUFFER_BINDING));
        device.submit(std::mem::replace(l, list(&device))).unwrap();
        let gl_value = device.get_integerv(gl::ELEMENT_ARRAY_BUFFER_BINDING).unwrap();
        assert!(shadow.is_none() || shadow.as_ref() == Some(&gl_value), "{what}: shadow {shadow:?}, GL {gl_value:?}");
        shadow.is_some()
    };
    l.bind_vertex_array(arrays[1]);
    l.bind_vertex_array(arrays[0]);
    assert!(check(&mut l, "bound again"), "the element buffer of a vertex array bound again is known");
    // Changed while another array is bound, by direct state access or a delete.
    l.bind_vertex_array(arrays[1]);
    l.vertex_array_element_buffer(arrays[0], buffers[1]);
    l.bind_vertex_array(arrays[0]);
    check(&mut l, "after glVertexArrayElementBuffer");
    assert_eq!(answering(|| device.get_integerv(gl::ELEMENT_ARRAY_BUFFER_BINDING)).unwrap(), vec![buffers[1] as i32]);
    l.bind_vertex_array(arrays[1]);
    l.delete_buffers(&[buffers[1]]);
    l.bind_vertex_array(arrays[0]);
    check(&mut l, "after its buffer was deleted");
}

#[test]
fn a_rust_immediate_context_gets_the_same_answers_without_round_trips() {
    let device = Device::headless().unwrap();
    let mut imm = device.immediate();
    imm.viewport(1, 2, 3, 4);
    imm.enable(gl::BLEND);
    imm.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
    let before = imm.round_trips();
    assert_eq!(imm.get_integerv(gl::VIEWPORT).unwrap(), vec![1, 2, 3, 4]);
    assert!(imm.is_enabled(gl::BLEND).unwrap());
    assert_eq!(imm.get_integer(gl::BLEND_DST_RGB).unwrap(), gl::ONE_MINUS_SRC_ALPHA as i32);
    assert_eq!(imm.round_trips(), before, "state the context set itself needs no round trip");
    // The GL agrees (asked outside the immediate context's answering: a round trip).
    imm.submit_pending().unwrap();
    assert_eq!(device.get_integerv(gl::VIEWPORT).unwrap(), vec![1, 2, 3, 4]);
    assert!(device.is_enabled(gl::BLEND).unwrap());
    // State it did not set goes to the GL.
    assert_eq!(imm.get_integer(gl::DEPTH_FUNC).unwrap(), gl::LESS as i32);
    assert_eq!(imm.round_trips(), before + 1);
}
