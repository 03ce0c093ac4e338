//! Repeated binding calls skipped at replay (issue 31, `runtime/repeats.rs`), audited against
//! the GL: seeded sequences of `glUseProgram`, `glActiveTexture`, `glBindTexture` and
//! `glBindVertexArray` (mostly repeats of the call before, as tutorial-style frames make them),
//! of valid and invalid arguments (a program whose link failed, a cube map bound as a 2D texture
//! and the other way round, a unit past the last, name 0), mixed with calls that
//! change what the cache knows behind its back (`glBindTextureUnit`, a failed relink of the
//! current program, `glUniform1i` of a sampler) and with draws into cells of a grid that show
//! what was bound at each draw (the current program's tint, the textures of units 0 and 1).
//! Each sequence is one command list on the device and the same calls made directly (or, across
//! lists, several, with `glGetError`, a query or a binding changed by `Device::with_gl` between);
//! the pictures, the final bindings, the GL error flag and every answer along the way must be
//! the same, and the device must have skipped repeats (so the audit audits something).

mod common;

use common::*;
use glcmd::{gl, Device};

const VS: &str = "#version 450 core
void main() {
    vec2 p[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
    gl_Position = vec4(p[gl_VertexID], 0.0, 1.0);
}";

/// Samples units 0 and 1 (the samplers' units are set once) and adds the program's tint and
/// its uniforms `extra` (location 3) and `arr[2]` (locations 4 and 5).
fn fragment(tint: &str) -> String {
    format!(
        "#version 450 core
layout(binding = 0) uniform sampler2D s0;
layout(binding = 1) uniform sampler2D s1;
layout(location = 3) uniform vec4 extra;
layout(location = 4) uniform vec4 arr[2];
out vec4 frag;
void main() {{
    frag = vec4({tint}, 0.0) + texture(s0, vec2(0.5)) + 0.5 * texture(s1, vec2(0.5))
        + extra + arr[0] + 0.5 * arr[1];
}}"
    )
}

/// The values `Step::Uniform` sets (small: the sums stay below 1).
const UNIFORM_VALUES: [[f32; 4]; 3] = [[0.1, 0.0, 0.0, 0.0], [0.0, 0.15, 0.0, 0.0], [0.0, 0.0, 0.2, 0.05]];

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
    /// A `glUniform*` of the current program, of kind `k` with values `i`: `glUniform4f` and
    /// `glUniform4fv` of `extra`, `glUniform4fv` of both elements of `arr` and of `arr[1]` alone
    /// (locations that overlap), and `glUniform1i` of `extra` (the wrong type: refused).
    Uniform(u8, usize),
    /// A draw into cell `i` of the grid.
    Draw(i32),
    // Between lists (the device submits the list so far first; directly nothing but the query
    // or the calls): what the render thread may do between two lists.
    /// The list so far is submitted; the next steps go into a new one.
    Submit,
    /// `glGetError`, one flag: the answers along the sequence are compared.
    ReadError,
    /// `glGetIntegerv(GL_CURRENT_PROGRAM)`, a pure query between lists.
    ReadProgram,
    /// A binding changed outside any list (`Device::with_gl` on the device): `glUseProgram`,
    /// `glActiveTexture`, `glBindTexture(GL_TEXTURE_2D)` or `glBindVertexArray` of index `i`.
    Behind(u8, usize),
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

/// A sequence of `len` steps; `across`: with steps between lists too; `uniforms`: with
/// `glUniform*` calls.
fn sequence(rng: &mut Rng, len: usize, across: bool, uniforms: bool) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut cell = 0;
    for _ in 0..len {
        // A repeat of the last step, or (with uniforms) of one of the last three: A, B, A
        // patterns, where B may change what A set.
        let back = if uniforms { rng.below(3) as usize } else { 0 };
        let repeat = steps.iter().rev().filter(|s| !matches!(s, Step::Draw(_)) && !between(s)).nth(back).copied();
        let step = match (rng.chance(0.45), repeat) {
            (true, Some(s)) => s,
            _ if across && rng.chance(0.2) => match rng.below(8) {
                0..=2 => Step::Submit,
                3..=4 => Step::ReadError,
                5 => Step::ReadProgram,
                _ => Step::Behind(rng.below(4) as u8, rng.below(3) as usize),
            },
            _ => match rng.below(if uniforms { 24 } else { 20 }) {
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
                16..=18 if uniforms => Step::Uniform(rng.below(5) as u8, rng.below(3) as usize),
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

/// A step that runs between lists on the device.
fn between(step: &Step) -> bool {
    matches!(step, Step::Submit | Step::ReadError | Step::ReadProgram | Step::Behind(..))
}

/// The binding call of [`Step::Behind`], through `g` (either side's table).
///
/// # Safety
/// `g` is the table of the context current on this thread.
unsafe fn behind(g: &glcmd::Gl, kind: u8, name: u32, unit: u32) {
    // SAFETY: the caller's contract; names and enums the GL checks itself.
    unsafe {
        match kind {
            0 => (g.UseProgram)(name),
            1 => (g.ActiveTexture)(gl::TEXTURE0 + unit),
            2 => (g.BindTexture)(gl::TEXTURE_2D, name),
            _ => (g.BindVertexArray)(name),
        }
    }
}

/// The name [`Step::Behind`] binds on `o`'s side.
fn behind_name(o: &Objects, kind: u8, i: usize) -> u32 {
    match kind {
        0 => name(&o.programs, i),
        2 => name(&o.textures, i),
        _ => name(&o.arrays, i),
    }
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
            Step::Uniform(kind, i) => {
                let (v, w) = (UNIFORM_VALUES[i], UNIFORM_VALUES[(i + 1) % 3]);
                match kind {
                    0 => (g.Uniform4f)(3, v[0], v[1], v[2], v[3]),
                    1 => (g.Uniform4fv)(3, 1, v.as_ptr()),
                    2 => (g.Uniform4fv)(4, 2, [v, w].as_ptr().cast()),
                    3 => (g.Uniform4fv)(5, 1, v.as_ptr()),
                    _ => (g.Uniform1i)(3, 1),
                }
            }
            Step::Draw(cell) => {
                (g.Viewport)((cell % GRID) * CELL, (cell / GRID) * CELL, CELL, CELL);
                (g.DrawArrays)(gl::TRIANGLES, 0, 3);
            }
            Step::Behind(kind, i) => behind(g, kind, behind_name(o, kind, i), i as u32),
            // Answers are read by the audit.
            Step::Submit | Step::ReadError | Step::ReadProgram => {}
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
        Step::Uniform(kind, i) => {
            let (v, w) = (UNIFORM_VALUES[i], UNIFORM_VALUES[(i + 1) % 3]);
            match kind {
                0 => l.uniform4f(3, v[0], v[1], v[2], v[3]),
                1 => l.uniform4fv(3, &[v]),
                2 => l.uniform4fv(4, &[v, w]),
                3 => l.uniform4fv(5, &[v]),
                _ => l.uniform1i(3, 1),
            }
        }
        Step::Draw(cell) => {
            l.viewport((cell % GRID) * CELL, (cell / GRID) * CELL, CELL, CELL);
            l.draw_arrays(gl::TRIANGLES, 0, 3);
        }
        Step::Submit | Step::ReadError | Step::ReadProgram | Step::Behind(..) => {
            unreachable!("steps between lists are the audit's")
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
    audit_seeds(0x5EED_0000, false, "");
}

/// 200 seeded sequences of 80 steps (`across`: with steps between lists and uniforms), each
/// audited; the device must have skipped repeats, so the audit audits something.
fn audit_seeds(base: u64, across: bool, what: &str) {
    let direct = Direct::new();
    let device = device();
    let (mut skipped, mut steps_run) = (0, 0);
    for seed in 0..200u64 {
        let steps = sequence(&mut Rng::new(base + seed), 80, across, across);
        steps_run += steps.len();
        skipped += audit(&direct, &device, &steps, &format!("seed {seed}{what}"));
    }
    assert!(skipped > 100, "the audit skipped only {skipped} repeats in {steps_run} steps: it audits too little");
    eprintln!("{skipped} repeats skipped in {steps_run} steps{what}, every picture, binding and answer as the GL's");
}

/// The same across lists: the render thread keeps what the last list's binding calls set for
/// the next list while only pure queries run between, and forgets it when anything else runs
/// (`Device::with_gl` here) or a `glGetError` reports a flag (a skipped repeat of the failed
/// call must raise it again). Every `glGetError` and `glGetIntegerv(GL_CURRENT_PROGRAM)` answer
/// along the sequence is compared too.
#[test]
fn repeats_skipped_across_lists_leave_pictures_bindings_and_errors_as_the_gl() {
    audit_seeds(0xAC05_0000, true, " (across lists)");
}

/// The cases the carried knowledge must not survive, one each: a failed call whose flag was
/// read (the repeat must fail again), and a binding changed between the lists.
#[test]
fn a_read_error_flag_or_a_change_between_lists_makes_the_next_list_run_its_binding_calls() {
    let direct = Direct::new();
    let device = device();
    // Program 2 never linked: glUseProgram fails, each time.
    let failed_twice = [
        Step::UseProgram(2),
        Step::ReadError,
        Step::UseProgram(2),
        Step::ReadError,
        Step::Submit,
        Step::UseProgram(2),
        Step::ReadError,
    ];
    audit(&direct, &device, &failed_twice, "a failed glUseProgram read and repeated");
    let behind_the_back = [
        Step::UseProgram(0),
        Step::ActiveTexture(0),
        Step::BindTexture(gl::TEXTURE_2D, 0),
        Step::BindVertexArray(0),
        Step::Draw(0),
        Step::Behind(0, 1),
        Step::UseProgram(0),
        Step::Draw(1),
        Step::Behind(2, 1),
        Step::BindTexture(gl::TEXTURE_2D, 0),
        Step::Draw(2),
        Step::Behind(1, 1),
        Step::ActiveTexture(0),
        Step::BindTexture(gl::TEXTURE_2D, 0),
        Step::Draw(3),
        Step::Behind(3, 1),
        Step::BindVertexArray(0),
        Step::Draw(4),
    ];
    audit(&direct, &device, &behind_the_back, "bindings changed between lists");
    // And where only queries run between, the repeats are skipped: the knowledge is carried.
    let queried = [
        Step::UseProgram(0),
        Step::BindVertexArray(0),
        Step::Draw(0),
        Step::ReadError,
        Step::ReadProgram,
        Step::UseProgram(0),
        Step::BindVertexArray(0),
        Step::Draw(1),
    ];
    assert_eq!(audit(&direct, &device, &queried, "only queries between"), 2, "both repeats skipped");
}

/// Uniform values, one case each: a repeat in the same program is skipped, a repeat after
/// another program's call runs, an array call overwrites an element set alone, a call of the
/// wrong type is refused each time its flag was read.
#[test]
fn repeated_uniform_values_are_skipped_only_where_the_program_holds_them() {
    let direct = Direct::new();
    let device = device();
    let steps = [
        Step::UseProgram(0),
        Step::BindVertexArray(0),
        Step::Uniform(0, 0),
        Step::Draw(0),
        Step::Uniform(0, 0),
        Step::Draw(1),
        Step::UseProgram(1),
        Step::Uniform(0, 0),
        Step::Draw(2),
        Step::Uniform(3, 1),
        Step::Uniform(2, 0),
        Step::Uniform(3, 1),
        Step::Draw(3),
        Step::Uniform(4, 0),
        Step::ReadError,
        Step::Uniform(4, 0),
        Step::ReadError,
        Step::UseProgram(0),
        Step::Uniform(0, 0),
        Step::Draw(4),
    ];
    // The skips: the second Uniform(0, 0), the repeated glUseProgram... none other.
    assert_eq!(audit(&direct, &device, &steps, "uniform values"), 1, "one repeat skipped");
}

/// `Options::skip_repeats(false)` (an adopted context that shares objects with another that
/// changes them: a rebind is the GL's point of visibility): every repeat reaches the GL, and
/// the picture, bindings and errors are the GL's all the same.
#[test]
fn with_skip_repeats_off_every_repeat_reaches_the_gl() {
    let direct = Direct::new();
    let device = Device::with_options(glcmd::Options::default().skip_repeats(false)).expect("a headless device");
    let steps = sequence(&mut Rng::new(0x0FF_0000), 80, true, true);
    assert_eq!(audit(&direct, &device, &steps, "skip_repeats off"), 0, "nothing skipped");
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
/// the bindings at the end (by what they name) and the error flag must be the same.
/// Returns the repeats the device skipped.
fn audit(direct: &Direct, device: &Device, steps: &[Step], what: &str) -> u64 {
    // Fresh objects each time: a failed relink leaves a program unusable.
    let (d_objects, g_objects) = (direct_objects(direct), device_objects(device));
    let mut direct_answers = Vec::new();
    for &s in steps {
        match s {
            Step::ReadError => direct_answers.push(direct.error() as i64),
            Step::ReadProgram => {
                direct_answers.push(as_index(&d_objects.programs, direct.integers(gl::CURRENT_PROGRAM, 1)[0]))
            }
            s => call_direct(direct, &d_objects, s),
        }
    }
    let expected = Outcome {
        bindings: BINDINGS.iter().map(|&p| direct.integers(p, 1)[0]).collect(),
        errors: std::iter::from_fn(|| Some(direct.error()).filter(|&e| e != gl::NO_ERROR)).collect(),
        pixels: direct.read_rgba8(d_objects.fbo, SIZE, SIZE),
    };
    let before = device.stats().repeats_skipped;
    let mut l = device.command_list();
    let mut answers = Vec::new();
    for &s in steps {
        if !between(&s) {
            record(&mut l, &g_objects, s);
            continue;
        }
        device.submit(std::mem::replace(&mut l, device.command_list())).unwrap();
        match s {
            Step::ReadError => answers.push(device.get_error().unwrap() as i64),
            Step::ReadProgram => {
                answers.push(as_index(&g_objects.programs, device.get_integerv(gl::CURRENT_PROGRAM).unwrap()[0]))
            }
            Step::Behind(kind, i) => {
                let name = behind_name(&g_objects, kind, i);
                // SAFETY: the device's own table, on its render thread.
                device.with_gl(move |g| unsafe { behind(g, kind, name, i as u32) }).unwrap();
            }
            _ => {}
        }
    }
    device.submit(l).unwrap();
    assert_eq!(answers, direct_answers, "{what}: glGetError and glGetIntegerv answers along the way; steps {steps:?}");
    let errors: Vec<u32> =
        std::iter::from_fn(|| Some(device.get_error().unwrap()).filter(|&e| e != gl::NO_ERROR)).collect();
    let bindings: Vec<i32> = BINDINGS.iter().map(|&p| device.get_integerv(p).unwrap()[0]).collect();
    let got = Outcome { bindings, errors, pixels: device_read_rgba8(device, g_objects.fbo, SIZE, SIZE) };
    // Names differ between the two contexts: compare bindings by what they name.
    let as_indices = |o: &Objects, v: Vec<i32>| -> Vec<i64> {
        vec![
            as_index(&o.programs, v[0]),
            v[1] as i64,
            as_index(&o.textures, v[2]),
            as_index(&o.textures, v[3]),
            as_index(&o.arrays, v[4]),
        ]
    };
    assert_eq!(
        as_indices(&g_objects, got.bindings),
        as_indices(&d_objects, expected.bindings),
        "{what}: bindings; steps {steps:?}"
    );
    // Every flag: the GL keeps one (the first error until it is read), and so does glcmd.
    assert_eq!(got.errors, expected.errors, "{what}: errors; steps {steps:?}");
    assert_same_image(what, &got.pixels, &expected.pixels, SIZE as usize);
    device.finish().unwrap();
    device.stats().repeats_skipped - before
}

/// A name as what it names on its side (names differ between the two contexts): 1000 + its
/// index among `list`, or the name itself (0) where it is none of them.
fn as_index(list: &[u32], n: i32) -> i64 {
    list.iter().position(|&x| x as i32 == n).map_or(n as i64, |i| 1000 + i as i64)
}

const SUBROUTINES: &str = "#version 450 core
subroutine vec4 paint();
layout(index = 0) subroutine(paint) vec4 red() { return vec4(1.0, 0.0, 0.0, 1.0); }
layout(index = 1) subroutine(paint) vec4 green() { return vec4(0.0, 1.0, 0.0, 1.0); }
layout(location = 0) subroutine uniform paint chosen;
out vec4 frag;
void main() { frag = chosen(); }";

/// A `glUseProgram` after `glUniformSubroutinesuiv` reaches the GL even when it repeats: the
/// GL resets a stage's subroutine selections when its program changes (GL 4.6 §7.10), and
/// drivers differ on whether the same program made current again is a change (Mesa keeps them),
/// so only the GL may decide. The pictures are the GL's and nothing is skipped.
#[test]
fn a_use_program_after_subroutine_selections_reaches_the_gl() {
    let direct = Direct::new();
    let device = device();
    let p = direct.program(&[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, SUBROUTINES)]);
    let (vao, fbo) = (direct.vao(), direct.fbo_rgba8(SIZE, SIZE));
    // SAFETY: GL calls on the direct context; one index read from a local.
    unsafe {
        let g = &direct.gl;
        (g.BindFramebuffer)(gl::FRAMEBUFFER, fbo);
        (g.BindVertexArray)(vao);
        for (cell, again) in [(0, false), (1, true)] {
            (g.UseProgram)(p);
            if !again {
                (g.UniformSubroutinesuiv)(gl::FRAGMENT_SHADER, 1, [1u32].as_ptr());
            }
            (g.Viewport)(cell * CELL, 0, CELL, CELL);
            (g.DrawArrays)(gl::TRIANGLES, 0, 3);
        }
    }
    let expected = direct.read_rgba8(fbo, SIZE, SIZE);
    let p = device_program(&device, &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, SUBROUTINES)]);
    let vao = device.create_vertex_arrays(1).unwrap()[0];
    let fbo = device_fbo_rgba8(&device, SIZE, SIZE);
    let before = device.stats().repeats_skipped;
    let mut l = device.command_list();
    l.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    l.bind_vertex_array(vao);
    for (cell, again) in [(0, false), (1, true)] {
        l.use_program(p);
        if !again {
            l.uniform_subroutinesuiv(gl::FRAGMENT_SHADER, &[1]);
        }
        l.viewport(cell * CELL, 0, CELL, CELL);
        l.draw_arrays(gl::TRIANGLES, 0, 3);
    }
    device.submit(l).unwrap();
    let got = device_read_rgba8(&device, fbo, SIZE, SIZE);
    assert_same_image("subroutines", &got, &expected, SIZE as usize);
    device.finish().unwrap();
    assert_eq!(device.stats().repeats_skipped - before, 0, "the second glUseProgram reached the GL");
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
}
