//! Repeated binding calls skipped at replay (issue 31, `runtime/repeats.rs`), audited against
//! the GL: seeded sequences of `glUseProgram`, `glActiveTexture`, `glBindTexture` and
//! `glBindVertexArray` (mostly repeats of the call before, as tutorial-style frames make them),
//! of valid and invalid arguments (a program whose link failed, a cube map bound as a 2D texture
//! and the other way round, a unit past the last, name 0), mixed with calls that
//! change what the cache knows behind its back (`glBindTextureUnit`, a failed relink of the
//! current program, `glUniform1i` of a sampler) and with draws into cells of a grid that show
//! what was bound at each draw (the current program's tint, the textures of units 0 and 1).
//! Each sequence is one command list on the device and the same calls made directly; the
//! pictures, the final bindings and the first GL error flag must be the same, and the device
//! must have skipped repeats (so the audit audits something).

mod common;

use common::*;
use glcmd::{gl, Device};

const VS: &str = "#version 450 core
void main() {
    vec2 p[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
    gl_Position = vec4(p[gl_VertexID], 0.0, 1.0);
}";

/// Samples units 0 and 1 (the samplers' units are set once) and adds the program's tint.
fn fragment(tint: &str) -> String {
    format!(
        "#version 450 core
layout(binding = 0) uniform sampler2D s0;
layout(binding = 1) uniform sampler2D s1;
out vec4 frag;
void main() {{ frag = vec4({tint}, 0.0) + texture(s0, vec2(0.5)) + 0.5 * texture(s1, vec2(0.5)); }}"
    )
}

const BROKEN: &str = "#version 450 core\nvoid main() { this is not glsl; }";
const GRID: i32 = 8;
const CELL: i32 = 4;
const SIZE: i32 = GRID * CELL;

/// One step of a sequence.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    UseProgram(usize),
    ActiveTexture(u32),
    BindTexture(u32, usize),
    BindVertexArray(usize),
    BindTextureUnit(u32, usize),
    /// A failed relink of program `i` (a broken shader attached, linked, detached).
    BreakProgram(usize),
    SamplerUnit(i32),
    /// A draw into cell `i` of the grid.
    Draw(i32),
}

/// The objects of one side, by index: programs (the last never linked), textures (the last a
/// cube map), vertex arrays; plus names that are nothing.
struct Objects {
    programs: Vec<u32>,
    textures: Vec<u32>,
    arrays: Vec<u32>,
    broken_shader: u32,
    fbo: u32,
}

fn sequence(rng: &mut Rng, len: usize) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut cell = 0;
    for _ in 0..len {
        let repeat = steps.iter().rev().find(|s| !matches!(s, Step::Draw(_))).copied();
        let step = match (rng.chance(0.45), repeat) {
            (true, Some(s)) => s,
            _ => match rng.below(20) {
                0..=3 => Step::UseProgram(rng.below(5) as usize),
                4..=6 => Step::ActiveTexture(rng.pick(&[0, 0, 1, 1, 2, 200])),
                7..=10 => Step::BindTexture(
                    rng.pick(&[gl::TEXTURE_2D, gl::TEXTURE_2D, gl::TEXTURE_CUBE_MAP]),
                    rng.below(6) as usize,
                ),
                11..=12 => Step::BindVertexArray(rng.below(4) as usize),
                13 => Step::BindTextureUnit(rng.below(2) as u32, rng.below(4) as usize),
                14 => Step::BreakProgram(rng.below(2) as usize),
                15 => Step::SamplerUnit(rng.below(2) as i32),
                _ => {
                    cell = (cell + 1) % (GRID * GRID);
                    Step::Draw(cell)
                }
            },
        };
        steps.push(step);
    }
    steps
}

/// The name an index stands for: one of the objects, or 0. (Names that are nothing are left
/// out: glcmd refuses them itself, raising its own flag beside the GL's, and the order of the
/// two flags is glcmd's error model, not the skipped repeats'.)
fn name(list: &[u32], i: usize) -> u32 {
    list.get(i).copied().unwrap_or(0)
}

/// The calls of `step` on a direct context.
fn call_direct(d: &Direct, o: &Objects, step: Step) {
    let g = &d.gl;
    // SAFETY: GL calls on the direct context, with names and enums the GL checks itself.
    unsafe {
        match step {
            Step::UseProgram(i) => (g.UseProgram)(name(&o.programs, i)),
            Step::ActiveTexture(u) => (g.ActiveTexture)(gl::TEXTURE0 + u),
            Step::BindTexture(t, i) => (g.BindTexture)(t, name(&o.textures, i)),
            Step::BindVertexArray(i) => (g.BindVertexArray)(name(&o.arrays, i)),
            Step::BindTextureUnit(u, i) => (g.BindTextureUnit)(u, name(&o.textures, i)),
            Step::BreakProgram(i) => {
                (g.AttachShader)(o.programs[i], o.broken_shader);
                (g.LinkProgram)(o.programs[i]);
                (g.DetachShader)(o.programs[i], o.broken_shader);
            }
            Step::SamplerUnit(u) => (g.Uniform1i)(0, u),
            Step::Draw(cell) => {
                (g.Viewport)((cell % GRID) * CELL, (cell / GRID) * CELL, CELL, CELL);
                (g.DrawArrays)(gl::TRIANGLES, 0, 3);
            }
        }
    }
}

/// The same on a device's list.
fn record(l: &mut glcmd::CommandList, o: &Objects, step: Step) {
    match step {
        Step::UseProgram(i) => l.use_program(name(&o.programs, i)),
        Step::ActiveTexture(u) => l.active_texture(gl::TEXTURE0 + u),
        Step::BindTexture(t, i) => l.bind_texture(t, name(&o.textures, i)),
        Step::BindVertexArray(i) => l.bind_vertex_array(name(&o.arrays, i)),
        Step::BindTextureUnit(u, i) => l.bind_texture_unit(u, name(&o.textures, i)),
        Step::BreakProgram(i) => {
            l.attach_shader(o.programs[i], o.broken_shader);
            l.link_program(o.programs[i]);
            l.detach_shader(o.programs[i], o.broken_shader);
        }
        Step::SamplerUnit(u) => l.uniform1i(0, u),
        Step::Draw(cell) => {
            l.viewport((cell % GRID) * CELL, (cell / GRID) * CELL, CELL, CELL);
            l.draw_arrays(gl::TRIANGLES, 0, 3);
        }
    }
}

/// What the audit compares: the picture, the bindings at the end, the error flags.
#[derive(Debug, PartialEq)]
struct Outcome {
    pixels: Vec<u8>,
    bindings: Vec<i32>,
    errors: Vec<u32>,
}

const BINDINGS: [u32; 5] = [
    gl::CURRENT_PROGRAM,
    gl::ACTIVE_TEXTURE,
    gl::TEXTURE_BINDING_2D,
    gl::TEXTURE_BINDING_CUBE_MAP,
    gl::VERTEX_ARRAY_BINDING,
];

const TEXELS: [[u8; 4]; 3] = [[100, 0, 0, 255], [0, 100, 0, 255], [0, 0, 100, 255]];

fn direct_objects(d: &Direct) -> Objects {
    let g = &d.gl;
    let mut programs: Vec<u32> = ["0.1, 0.0, 0.0", "0.0, 0.0, 0.3"]
        .iter()
        .map(|t| d.program(&[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, &fragment(t))]))
        .collect();
    // SAFETY: creates and uploads on the direct context.
    unsafe {
        programs.push((g.CreateProgram)());
        let broken_shader = (g.CreateShader)(gl::FRAGMENT_SHADER);
        let src = std::ffi::CString::new(BROKEN).unwrap();
        (g.ShaderSource)(broken_shader, 1, &src.as_ptr(), std::ptr::null());
        (g.CompileShader)(broken_shader);
        let mut textures = Vec::new();
        for texel in TEXELS {
            let mut t = 0;
            (g.CreateTextures)(gl::TEXTURE_2D, 1, &mut t);
            (g.TextureStorage2D)(t, 1, gl::RGBA8, 1, 1);
            (g.TextureSubImage2D)(t, 0, 0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, texel.as_ptr().cast());
            textures.push(t);
        }
        let mut cube = 0;
        (g.CreateTextures)(gl::TEXTURE_CUBE_MAP, 1, &mut cube);
        textures.push(cube);
        let arrays = vec![d.vao(), d.vao()];
        let fbo = d.fbo_rgba8(SIZE, SIZE);
        (g.BindFramebuffer)(gl::FRAMEBUFFER, fbo);
        // The bindings an earlier seed left, undone: names differ between the two contexts.
        for unit in 0..3 {
            (g.ActiveTexture)(gl::TEXTURE0 + unit);
            (g.BindTexture)(gl::TEXTURE_2D, 0);
            (g.BindTexture)(gl::TEXTURE_CUBE_MAP, 0);
        }
        (g.ActiveTexture)(gl::TEXTURE0);
        (g.UseProgram)(0);
        (g.BindVertexArray)(0);
        (g.ClearColor)(0.0, 0.0, 0.0, 1.0);
        (g.Clear)(gl::COLOR_BUFFER_BIT);
        while (g.GetError)() != gl::NO_ERROR {}
        Objects { programs, textures, arrays, broken_shader, fbo }
    }
}

fn device_objects(device: &Device) -> Objects {
    let mut programs: Vec<u32> = ["0.1, 0.0, 0.0", "0.0, 0.0, 0.3"]
        .iter()
        .map(|t| device_program(device, &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, &fragment(t))]))
        .collect();
    programs.push(device.create_program().unwrap());
    let broken_shader = device.create_shader(gl::FRAGMENT_SHADER).unwrap();
    let mut l = device.command_list();
    l.shader_source(broken_shader, &[BROKEN]);
    l.compile_shader(broken_shader);
    let mut textures = Vec::new();
    for texel in TEXELS {
        let t = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
        l.texture_storage_2d(t, 1, gl::RGBA8, 1, 1);
        l.texture_sub_image_2d(t, 0, 0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, &texel[..]);
        textures.push(t);
    }
    textures.push(device.create_textures(gl::TEXTURE_CUBE_MAP, 1).unwrap()[0]);
    let arrays = device.create_vertex_arrays(2).unwrap();
    device.submit(l).unwrap();
    let fbo = device_fbo_rgba8(device, SIZE, SIZE);
    let mut l = device.command_list();
    l.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    for unit in 0..3 {
        l.active_texture(gl::TEXTURE0 + unit);
        l.bind_texture(gl::TEXTURE_2D, 0);
        l.bind_texture(gl::TEXTURE_CUBE_MAP, 0);
    }
    l.active_texture(gl::TEXTURE0);
    l.use_program(0);
    l.bind_vertex_array(0);
    l.clear_color(0.0, 0.0, 0.0, 1.0);
    l.clear(gl::COLOR_BUFFER_BIT);
    device.submit(l).unwrap();
    while device.get_error().unwrap() != gl::NO_ERROR {}
    Objects { programs, textures, arrays, broken_shader, fbo }
}

#[test]
fn repeated_bindings_skipped_at_replay_leave_pictures_bindings_and_errors_as_the_gl() {
    let direct = Direct::new();
    let device = device();
    let (mut skipped, mut steps_run) = (0, 0);
    for seed in 0..200u64 {
        let steps = sequence(&mut Rng::new(0x5EED_0000 + seed), 80);
        steps_run += steps.len();
        skipped += audit(&direct, &device, &steps, &format!("seed {seed}"));
    }
    assert!(skipped > 100, "the audit skipped only {skipped} repeats in {steps_run} steps: it audits too little");
    eprintln!("{skipped} repeats skipped in {steps_run} steps, every picture, binding and error as the GL's");
}

/// A unit the GL refuses leaves the unit it had active: a bind after it binds there, so a bind
/// of the texture that unit had before must run again (found with seed 58 of the generator
/// above).
#[test]
fn a_refused_texture_unit_does_not_hide_a_bind_on_the_unit_that_stayed_active() {
    let direct = Direct::new();
    let device = device();
    let steps = [
        Step::ActiveTexture(0),
        Step::BindTexture(gl::TEXTURE_2D, 0),
        Step::ActiveTexture(200),
        Step::BindTexture(gl::TEXTURE_2D, 1),
        Step::ActiveTexture(0),
        Step::BindTexture(gl::TEXTURE_2D, 0),
        Step::UseProgram(0),
        Step::BindVertexArray(0),
        Step::Draw(0),
    ];
    audit(&direct, &device, &steps, "a refused unit");
}

/// `steps` directly and as one list on the device, from fresh objects on both: the pictures,
/// the bindings at the end (by what they name) and the first error flag must be the same.
/// Returns the repeats the device skipped.
fn audit(direct: &Direct, device: &Device, steps: &[Step], what: &str) -> u64 {
    // Fresh objects each time: a failed relink leaves a program unusable.
    let (d_objects, g_objects) = (direct_objects(direct), device_objects(device));
    for &s in steps {
        call_direct(direct, &d_objects, s);
    }
    let expected = Outcome {
        bindings: BINDINGS.iter().map(|&p| direct.integers(p, 1)[0]).collect(),
        errors: std::iter::from_fn(|| Some(direct.error()).filter(|&e| e != gl::NO_ERROR)).collect(),
        pixels: direct.read_rgba8(d_objects.fbo, SIZE, SIZE),
    };
    let before = device.stats().repeats_skipped;
    let mut l = device.command_list();
    for &s in steps {
        record(&mut l, &g_objects, s);
    }
    device.submit(l).unwrap();
    let errors: Vec<u32> =
        std::iter::from_fn(|| Some(device.get_error().unwrap()).filter(|&e| e != gl::NO_ERROR)).collect();
    let bindings: Vec<i32> = BINDINGS.iter().map(|&p| device.get_integerv(p).unwrap()[0]).collect();
    let got = Outcome { bindings, errors, pixels: device_read_rgba8(device, g_objects.fbo, SIZE, SIZE) };
    // Names differ between the two contexts: compare bindings by what they name.
    let as_index = |o: &Objects, v: Vec<i32>| -> Vec<i64> {
        let index_of =
            |list: &[u32], n: i32| list.iter().position(|&x| x as i32 == n).map_or(n as i64, |i| 1000 + i as i64);
        vec![
            index_of(&o.programs, v[0]),
            v[1] as i64,
            index_of(&o.textures, v[2]),
            index_of(&o.textures, v[3]),
            index_of(&o.arrays, v[4]),
        ]
    };
    assert_eq!(
        as_index(&g_objects, got.bindings),
        as_index(&d_objects, expected.bindings),
        "{what}: bindings; steps {steps:?}"
    );
    // The first flag: Mesa keeps one error flag (the first), glcmd one per code (its own
    // refusals beside the GL's, in the order they arose), as the specification allows; that
    // difference is glcmd's error model, not the skipped repeats', and the first flag is what a
    // program sees.
    assert_eq!(
        got.errors.first(),
        expected.errors.first(),
        "{what}: errors {:?} against {:?}; steps {steps:?}",
        got.errors,
        expected.errors
    );
    assert_same_image(what, &got.pixels, &expected.pixels, SIZE as usize);
    device.finish().unwrap();
    device.stats().repeats_skipped - before
}
