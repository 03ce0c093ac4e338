//! # scene: thousands of draws, recorded on several worker threads
//!
//! The job glcmd exists for. A scene of `--objects` small discs (default 4096) is split between
//! `--workers` threads (default 4). Each worker does the per-object CPU work (a model matrix and
//! a colour) and records, for every object, the three calls a classic GL renderer makes per
//! draw:
//!
//! ```text
//! glUniformMatrix4fv(u_model, 1, GL_FALSE, model)   // 64 bytes of array data
//! glUniform4f(u_color, r, g, b, a)
//! glDrawArrays(GL_TRIANGLE_STRIP, 0, 4)             // the quad comes from gl_VertexID
//! ```
//!
//! into a `CommandList` of its own. The render thread replays the lists in slot order into a
//! 512x512 offscreen framebuffer. After the last frame the image is read back and written to
//! `scene.png`.
//!
//! ```sh
//! cargo run --release --example scene
//! cargo run --release --example scene -- --workers 2 --frames 30 --objects 20000 --out /tmp/s.png
//! cargo run --release --example scene -- --capture /tmp/s.glcap    # then: glcmd-replay /tmp/s.glcap
//! ```
//!
//! ## One frame
//!
//! ```text
//! main thread      begin_frame(1 + W) ─ records slot 0 (clear) ─ submit ─┐  drop(frame) ─ wait ─ print
//! worker 0         records objects [0, n/W)       ─ submit slot 1 ──────┤
//! ...                                                                   │
//! worker W-1       records objects [.., n)        ─ submit slot W ──────┤
//! render thread                          replays slot 0, 1, ..., W in this order, whoever finished first
//! ```
//!
//! Things worth noticing:
//!
//! * **No round trips in a frame.** Names (program, framebuffer, vertex array) are created once
//!   at start-up; uniform locations are queried once. A frame only records and submits, so the
//!   workers never wait for the render thread. The statistics print the round trips per frame
//!   to prove it (`0`).
//! * **Each list sets the state it needs.** GL state carries over from one list to the next in
//!   replay order, so a worker's list could rely on what an earlier list left bound. It does
//!   not: it binds its own framebuffer, viewport, program, vertex array and blending (six
//!   commands), so lists can be reordered or recorded by other code without breaking.
//! * **Deterministic output.** Discs overlap and are alpha-blended, so draw order matters. Slot
//!   order fixes it: the image is the same for any number of workers and any thread timing.
//! * **What `replay` measures.** The time the render thread spent in the GL calls of the frame.
//!   Drivers (llvmpipe included) rasterise asynchronously, so this is the CPU cost of submitting
//!   to the driver, not the GPU time of the frame.

use std::error::Error;
use std::f32::consts::{PI, TAU};
use std::ops::Range;
use std::time::Instant;

use glcmd::types::{GLint, GLuint};
use glcmd::{gl, CommandList, Device, Stats};

/// Width and height of the offscreen framebuffer, in pixels.
const SIZE: i32 = 512;

/// The quad is generated from `gl_VertexID`: no vertex buffer, no attributes. Core profile still
/// wants a vertex array object bound to draw, so an empty one is bound.
const VERTEX_SHADER: &str = r#"#version 450 core
uniform mat4 u_model;
out vec2 v_corner;
void main() {
    // Vertex 0..3 of a triangle strip: (-1,-1) (1,-1) (-1,1) (1,1).
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1)) * 2.0 - 1.0;
    v_corner = corner;
    gl_Position = u_model * vec4(corner, 0.0, 1.0);
}
"#;

/// A soft-edged disc inside the quad.
const FRAGMENT_SHADER: &str = r#"#version 450 core
uniform vec4 u_color;
in vec2 v_corner;
out vec4 o_color;
void main() {
    float edge = 1.0 - smoothstep(0.75, 1.0, length(v_corner));
    if (edge <= 0.0) discard;
    o_color = vec4(u_color.rgb, u_color.a * edge);
}
"#;

/// Command-line options.
struct Options {
    workers: usize,
    frames: usize,
    objects: usize,
    out: String,
    /// Capture the frames to this file (`glcmd::capture`).
    capture: Option<String>,
}

impl Options {
    fn parse() -> Result<Options, String> {
        let mut options = Options { workers: 4, frames: 10, objects: 4096, out: "scene.png".into(), capture: None };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
            let number = |name: &str, v: String| -> Result<usize, String> {
                v.parse::<usize>().ok().filter(|&n| n > 0).ok_or(format!("{name}: {v:?} is not a positive number"))
            };
            match arg.as_str() {
                "--workers" => options.workers = number("--workers", value("--workers")?)?,
                "--frames" => options.frames = number("--frames", value("--frames")?)?,
                "--objects" => options.objects = number("--objects", value("--objects")?)?,
                "--out" => options.out = value("--out")?,
                "--capture" => options.capture = Some(value("--capture")?),
                "-h" | "--help" => {
                    println!("usage: scene [--workers N (4)] [--frames N (10)] [--objects N (4096)]");
                    println!("             [--out PATH (scene.png)] [--capture PATH (the frames, for glcmd-replay)]");
                    std::process::exit(0);
                }
                other => return Err(format!("unknown argument {other:?}; try --help")),
            }
        }
        Ok(options)
    }
}

/// The GL objects every list uses. Plain names: `Copy`, and shared with the workers freely.
#[derive(Clone, Copy)]
struct Scene {
    framebuffer: GLuint,
    texture: GLuint,
    vertex_array: GLuint,
    program: GLuint,
    shaders: [GLuint; 2],
    u_model: GLint,
    u_color: GLint,
    objects: usize,
}

fn main() -> Result<(), Box<dyn Error>> {
    env_logger::init(); // glcmd's warnings go to `log` (and to Device::reports); RUST_LOG=warn shows them
    let options = Options::parse()?;
    let started = Instant::now();

    // The render thread, with a headless GL 4.5 core context (EGL device platform).
    let device = Device::with_options(
        glcmd::Options::default().capture(options.capture.is_some().then(glcmd::capture::CaptureOptions::default)),
    )?;
    let renderer = device.get_string(gl::RENDERER)?.unwrap_or_default();
    let scene = create_scene(&device, options.objects)?;
    let setup_round_trips = device.stats().round_trips;
    println!(
        "scene: {} objects, {} workers, {} frames, {SIZE}x{SIZE} RGBA8 framebuffer on {renderer}",
        options.objects, options.workers, options.frames
    );
    println!("setup: {setup_round_trips} round trips (renderer name, 6 creates, compile/link/framebuffer status, 2 locations)");
    println!();
    println!(
        "{:>5} {:>5} {:>8} {:>9} {:>9} {:>6}  {:<26} {:>9} {:>6} {:>8}",
        "frame",
        "lists",
        "commands",
        "pkt KiB",
        "param KiB",
        "B/cmd",
        "record ms per worker",
        "replay ms",
        "trips",
        "frame ms"
    );

    // The frames below are captured, after the set-up the capture's set-up log holds.
    let capture = match &options.capture {
        Some(path) => Some(device.capture(path, options.frames as u64)?),
        None => None,
    };

    // Labels are made once: `set_label` copies into the list's own (reused) string.
    let labels: Vec<String> = (0..options.workers).map(|w| format!("worker {w}")).collect();
    let mut rows = Vec::with_capacity(options.frames);
    for frame_index in 0..options.frames {
        let frame_start = Instant::now();
        let before = device.stats();
        let time = frame_index as f32 / 30.0; // seconds, at 30 frames per second

        // Slot 0 is the main thread's; slots 1..=W belong to the workers. (Scoped threads keep
        // the example short; an engine would hand the work to a persistent job system.)
        let frame = device.begin_frame(1 + options.workers)?;
        let record_ms: Vec<f64> = std::thread::scope(|s| -> Result<Vec<f64>, glcmd::Error> {
            let frame = &frame;
            let workers: Vec<_> = (0..options.workers)
                .map(|w| {
                    let device = &device;
                    let label = labels[w].as_str();
                    s.spawn(move || -> Result<f64, glcmd::Error> {
                        let start = Instant::now();
                        let mut list = device.command_list(); // from the pool: no allocation in steady state
                        list.set_label(label); // a glPushDebugGroup at replay: RenderDoc and apitrace show it
                        record_objects(&mut list, &scene, share(scene.objects, options.workers, w), time);
                        let ms = start.elapsed().as_secs_f64() * 1e3;
                        frame.submit(1 + w, list)?;
                        Ok(ms)
                    })
                })
                .collect();

            // Meanwhile, the main thread records slot 0: clear the target. Replay runs it first,
            // however late it is submitted.
            let mut list = device.command_list();
            list.set_label("clear");
            list.clear_named_framebufferfv(scene.framebuffer, gl::COLOR, 0, &[0.02, 0.02, 0.05, 1.0]);
            frame.submit(0, list)?;

            workers.into_iter().map(|w| w.join().expect("worker panicked")).collect()
        })?;
        drop(frame); // closes the frame: the render thread ends it when its last slot has run

        let after = wait_for_frames(&device, before.frames + 1)?;
        let row = Row {
            stats: after.last_frame,
            round_trips: after.round_trips - before.round_trips,
            record_ms,
            frame_ms: frame_start.elapsed().as_secs_f64() * 1e3,
        };
        row.print(frame_index);
        rows.push(row);
    }

    if let Some(capture) = capture {
        let c = capture.wait(std::time::Duration::from_secs(120))?;
        let per_frame = |x: f64| x / c.frames.max(1) as f64;
        println!(
            "captured {} frames to {}: {} bytes ({:.1} KiB per frame; list bytes {:.1} KiB per frame); render \
             thread {:.3} ms per frame handing lists over, writer thread {:.3} ms per frame",
            c.frames,
            c.path.display(),
            c.bytes,
            per_frame(c.bytes as f64 / 1024.0),
            per_frame(c.list_bytes as f64 / 1024.0),
            per_frame(c.copy_time.as_secs_f64() * 1e3),
            per_frame(c.writer_time.as_secs_f64() * 1e3),
        );
    }

    // Read the last frame back. A query waits for every list submitted before it.
    let pixels = read_back(&device, scene.framebuffer)?;
    write_png(&options.out, &pixels)?;
    let error = device.get_error()?;

    print_summary(&rows);
    println!(
        "wrote {} ({SIZE}x{SIZE}); glGetError = {}; {:.2} s in all",
        options.out,
        if error == gl::NO_ERROR { "GL_NO_ERROR".to_string() } else { format!("{error:#06x}") },
        started.elapsed().as_secs_f64()
    );

    // Deletes are recorded like any call, and run at the end of the frame they were replayed in,
    // when no list of that frame can still use the names.
    let mut cleanup = device.command_list();
    cleanup.delete_framebuffers(&[scene.framebuffer]);
    cleanup.delete_textures(&[scene.texture]);
    cleanup.delete_vertex_arrays(&[scene.vertex_array]);
    cleanup.delete_program(scene.program);
    for shader in scene.shaders {
        cleanup.delete_shader(shader);
    }
    device.submit(cleanup)?;
    // Dropping the last Device handle replays what is left, then destroys the context.
    if error != gl::NO_ERROR {
        return Err(format!("the scene left a GL error: {error:#06x}").into());
    }
    Ok(())
}

/// Creates the framebuffer, the program and the vertex array. Creation is immediate (a round trip
/// per call, returning real names); configuring the objects is recorded into one setup list.
fn create_scene(device: &Device, objects: usize) -> Result<Scene, Box<dyn Error>> {
    let texture = device.create_texture(gl::TEXTURE_2D)?;
    let framebuffer = device.create_framebuffer()?;
    let vertex_array = device.create_vertex_array()?;
    let vs = device.create_shader(gl::VERTEX_SHADER)?;
    let fs = device.create_shader(gl::FRAGMENT_SHADER)?;
    let program = device.create_program()?;

    let mut setup = device.command_list();
    setup.set_label("setup");
    setup.texture_storage_2d(texture, 1, gl::RGBA8, SIZE, SIZE);
    setup.named_framebuffer_texture(framebuffer, gl::COLOR_ATTACHMENT0, texture, 0);
    setup.named_framebuffer_draw_buffers(framebuffer, &[gl::COLOR_ATTACHMENT0]);
    setup.named_framebuffer_read_buffer(framebuffer, gl::COLOR_ATTACHMENT0);
    for (shader, source) in [(vs, VERTEX_SHADER), (fs, FRAGMENT_SHADER)] {
        setup.shader_source(shader, &[source]); // &[&str]: copied into the list, NUL added
        setup.compile_shader(shader);
        setup.attach_shader(program, shader);
    }
    setup.link_program(program);
    device.submit(setup)?;

    // Queries run after the setup list: the compile and link results are there.
    for (shader, what) in [(vs, "vertex"), (fs, "fragment")] {
        if device.get_shaderi(shader, gl::COMPILE_STATUS)? == 0 {
            return Err(format!("{what} shader: {}", device.get_shader_info_log(shader, 4096)?).into());
        }
    }
    if device.get_programi(program, gl::LINK_STATUS)? == 0 {
        return Err(format!("link: {}", device.get_program_info_log(program, 4096)?).into());
    }
    let status = device.check_named_framebuffer_status(framebuffer, gl::FRAMEBUFFER)?;
    if status != gl::FRAMEBUFFER_COMPLETE {
        return Err(format!("framebuffer incomplete: {status:#06x}").into());
    }
    Ok(Scene {
        framebuffer,
        texture,
        vertex_array,
        program,
        shaders: [vs, fs],
        u_model: device.get_uniform_location(program, "u_model")?,
        u_color: device.get_uniform_location(program, "u_color")?,
        objects,
    })
}

/// Records one worker's share of the scene: its own state first, then three commands per object.
fn record_objects(list: &mut CommandList, scene: &Scene, objects: Range<usize>, time: f32) {
    list.bind_framebuffer(gl::DRAW_FRAMEBUFFER, scene.framebuffer);
    list.viewport(0, 0, SIZE, SIZE);
    list.use_program(scene.program);
    list.bind_vertex_array(scene.vertex_array);
    list.enable(gl::BLEND);
    // Colour: ordinary "over" blending. Alpha: keep the target opaque, so the PNG is too.
    list.blend_func_separate(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA, gl::ONE, gl::ONE_MINUS_SRC_ALPHA);

    for i in objects {
        let (model, [r, g, b, a]) = object(i, scene.objects, time);
        list.uniform_matrix4fv(scene.u_model, false, &[model]); // &[[f32; 16]]: count = 1
        list.uniform4f(scene.u_color, r, g, b, a);
        list.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    }
}

/// The range of objects worker `w` of `workers` records.
fn share(objects: usize, workers: usize, w: usize) -> Range<usize> {
    objects * w / workers..objects * (w + 1) / workers
}

/// Column-major 4x4 matrix, the layout `glUniformMatrix4fv` takes with `transpose = GL_FALSE`.
type Mat4 = [f32; 16];

/// The per-object CPU work: where object `i` of `n` is at `time`, and its colour.
///
/// The objects sit on a sunflower spiral (golden-angle phyllotaxis) that turns faster near the
/// centre; each disc is squashed, spins about its own centre and pulses. The model matrix is
/// `view_projection * translate * rotate * scale`, composed with real 4x4 products, as an engine
/// would.
fn object(i: usize, n: usize, time: f32) -> (Mat4, [f32; 4]) {
    const GOLDEN_ANGLE: f32 = PI * 0.763_932; // PI * (3 - sqrt 5)
    let radius = 0.93 * ((i as f32 + 0.5) / n as f32).sqrt();
    let angle = i as f32 * GOLDEN_ANGLE + time * (0.2 + 1.5 * (1.0 - radius));
    let spacing = 0.93 * (PI / n as f32).sqrt();
    let size = 0.8 * spacing * (1.0 + 0.25 * (time * 3.0 + radius * 12.0).sin());
    let spin = 2.0 * angle + time;

    let view_projection = scale(0.98, 0.98); // the whole scene, a margin around it
    let model = mul(
        &mul(&view_projection, &translate(radius * angle.cos(), radius * angle.sin())),
        &mul(&rotate(spin), &scale(size, size * 0.55)),
    );

    let hue = (angle / TAU + radius * 0.6).rem_euclid(1.0);
    let [r, g, b] = hsv(hue, 0.75, 1.0 - 0.35 * radius);
    (model, [r, g, b, 0.85])
}

fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    let mut m = [0.0; 16];
    for column in 0..4 {
        for row in 0..4 {
            m[column * 4 + row] = (0..4).map(|k| a[k * 4 + row] * b[column * 4 + k]).sum();
        }
    }
    m
}

fn translate(x: f32, y: f32) -> Mat4 {
    [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, x, y, 0.0, 1.0]
}

fn rotate(angle: f32) -> Mat4 {
    let (s, c) = angle.sin_cos();
    [c, s, 0.0, 0.0, -s, c, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
}

fn scale(x: f32, y: f32) -> Mat4 {
    [x, 0.0, 0.0, 0.0, 0.0, y, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
}

fn hsv(h: f32, s: f32, v: f32) -> [f32; 3] {
    let channel = |k: f32| {
        let k = (k + h * 6.0).rem_euclid(6.0);
        v - v * s * k.min(4.0 - k).clamp(0.0, 1.0)
    };
    [channel(5.0), channel(3.0), channel(1.0)]
}

/// Waits until the render thread has ended `frames` frames, and returns the counters then.
///
/// A query (`get_error`, `finish`, ...) would also wait, but it is a round trip of its own;
/// polling the counters costs none, so the per-frame round-trip count below stays honest. A real
/// engine would not wait at all: it records frame N+1 while frame N replays. The example waits so
/// that each printed frame's statistics are that frame's alone.
fn wait_for_frames(device: &Device, frames: u64) -> Result<Stats, glcmd::Error> {
    // Blocks on the render thread's frame-end notification: no polling, no round trip.
    device.wait_frames(frames)
}

/// One line of the per-frame table.
struct Row {
    stats: glcmd::FrameStats,
    round_trips: u64,
    record_ms: Vec<f64>,
    frame_ms: f64,
}

impl Row {
    fn bytes_per_command(&self) -> f64 {
        (self.stats.packet_bytes + self.stats.param_bytes) as f64 / self.stats.commands.max(1) as f64
    }

    fn print(&self, frame: usize) {
        let record: Vec<String> = self.record_ms.iter().map(|ms| format!("{ms:.2}")).collect();
        println!(
            "{frame:>5} {:>5} {:>8} {:>9.1} {:>9.1} {:>6.1}  {:<26} {:>9.2} {:>6} {:>8.2}",
            self.stats.lists,
            self.stats.commands,
            self.stats.packet_bytes as f64 / 1024.0,
            self.stats.param_bytes as f64 / 1024.0,
            self.bytes_per_command(),
            record.join(" "),
            self.stats.replay.as_secs_f64() * 1e3,
            self.round_trips,
            self.frame_ms,
        );
    }
}

fn print_summary(rows: &[Row]) {
    let n = rows.len() as f64;
    let avg = |f: &dyn Fn(&Row) -> f64| rows.iter().map(f).sum::<f64>() / n;
    let commands = avg(&|r| r.stats.commands as f64);
    let record = avg(&|r| r.record_ms.iter().sum::<f64>() / r.record_ms.len() as f64);
    let slowest = avg(&|r| r.record_ms.iter().cloned().fold(0.0, f64::max));
    let replay = avg(&|r| r.stats.replay.as_secs_f64() * 1e3);
    println!();
    println!(
        "summary over {} frames: {:.0} commands/frame, {:.1} B/command ({:.1} packet + {:.1} param), \
         record {:.2} ms per worker (slowest {:.2}), replay {:.2} ms ({:.0} ns/command), \
         {:.2} round trips/frame, {:.2} ms/frame",
        rows.len(),
        commands,
        avg(&|r| r.bytes_per_command()),
        avg(&|r| r.stats.packet_bytes as f64 / r.stats.commands.max(1) as f64),
        avg(&|r| r.stats.param_bytes as f64 / r.stats.commands.max(1) as f64),
        record,
        slowest,
        replay,
        replay * 1e6 / commands.max(1.0),
        avg(&|r| r.round_trips as f64),
        avg(&|r| r.frame_ms),
    );
    // One line to compare runs side by side (with and without --capture, llvmpipe and GPU).
    let mut ms: Vec<f64> = rows.iter().map(|r| r.frame_ms).collect();
    ms.sort_by(f64::total_cmp);
    println!(
        "frame_ms mean {:.2} median {:.2} min {:.2} max {:.2}",
        avg(&|r| r.frame_ms),
        ms[ms.len() / 2],
        ms[0],
        ms[ms.len() - 1]
    );
}

/// Reads the framebuffer's colour attachment back: RGBA8, bottom row first (GL's order).
fn read_back(device: &Device, framebuffer: GLuint) -> Result<Vec<u8>, Box<dyn Error>> {
    // glReadnPixels reads from the bound read framebuffer: bind ours first, in a list. The query
    // then runs after that list (and every earlier one), on the render thread.
    let mut list = device.command_list();
    list.bind_framebuffer(gl::READ_FRAMEBUFFER, framebuffer);
    list.pixel_storei(gl::PACK_ALIGNMENT, 1);
    device.submit(list)?;
    let len = (SIZE * SIZE * 4) as usize;
    let pixels = device.readn_pixels(0, 0, SIZE, SIZE, gl::RGBA, gl::UNSIGNED_BYTE, len as i32)?;
    if pixels.len() != len {
        return Err(format!("read {} bytes, expected {len}", pixels.len()).into());
    }
    Ok(pixels)
}

/// Writes RGBA8 pixels as a PNG, flipping rows: GL's first row is the bottom one, PNG's the top.
fn write_png(path: &str, pixels: &[u8]) -> Result<(), Box<dyn Error>> {
    let row = SIZE as usize * 4;
    let flipped: Vec<u8> = pixels.chunks_exact(row).rev().flatten().copied().collect();
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, SIZE as u32, SIZE as u32);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&flipped)?;
    writer.finish()?;
    Ok(())
}
