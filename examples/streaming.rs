//! # streaming: workers that ask the GL for things while they record
//!
//! A variant of `scene.rs` shaped like an engine's streaming path (issue 9). Every frame, each
//! worker thread
//!
//! * looks its uniform locations up lazily (`get_uniform_location`: the program interface
//!   cache answers, no round trip),
//! * reads a limit (`get_integer(GL_MAX_VERTEX_ATTRIBS)`: the limits cache answers),
//! * creates a streaming vertex buffer (`create_buffer()`: a name from the device's pool),
//!   fills it with this frame's vertices, draws from it, and deletes it (deferred to the frame's
//!   end),
//!
//! and the program prints the round trips each frame made. After the first frames (which start
//! the pools) the count is 0: no worker waits for the render thread.
//!
//! ```sh
//! cargo run --release --example streaming [-- FRAMES WORKERS]
//! ```

use glcmd::types::GLuint;
use glcmd::{gl, Device};

pub const SIZE: i32 = 64;

const VS: &str = r#"#version 450 core
layout(location = 0) in vec2 a_position;
uniform vec2 u_offset;
void main() { gl_Position = vec4(a_position + u_offset, 0.0, 1.0); }
"#;

const FS: &str = r#"#version 450 core
uniform vec4 u_color;
out vec4 o_color;
void main() { o_color = u_color; }
"#;

/// What one run measured.
pub struct Run {
    /// Round trips made by each frame.
    pub round_trips: Vec<u64>,
    /// The final image, RGBA8, bottom row first.
    pub pixels: Vec<u8>,
}

/// Renders `frames` frames with `workers` workers, each streaming one quad per frame into a
/// buffer of its own.
pub fn run(device: &Device, frames: usize, workers: usize) -> Result<Run, glcmd::Error> {
    // Set-up, once: the program, a framebuffer, a vertex array whose buffer changes per draw.
    let program = device.create_program()?;
    let target = device.create_renderbuffer()?;
    let framebuffer = device.create_framebuffer()?;
    let vertex_array = device.create_vertex_array()?;
    let mut setup = device.command_list();
    for (kind, source) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)] {
        let shader = device.create_shader(kind)?;
        setup.shader_source(shader, &[source]);
        setup.compile_shader(shader);
        setup.attach_shader(program, shader);
        setup.delete_shader(shader);
    }
    setup.link_program(program);
    setup.named_renderbuffer_storage(target, gl::RGBA8, SIZE, SIZE);
    setup.named_framebuffer_renderbuffer(framebuffer, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, target);
    setup.enable_vertex_array_attrib(vertex_array, 0);
    setup.vertex_array_attrib_format(vertex_array, 0, 2, gl::FLOAT, false, 0);
    setup.vertex_array_attrib_binding(vertex_array, 0, 0);
    device.submit(setup)?;

    let mut round_trips = Vec::with_capacity(frames);
    for f in 0..frames {
        let before = device.stats();
        let frame = device.begin_frame(1 + workers)?;
        let mut clear = device.command_list();
        clear.clear_named_framebufferfv(framebuffer, gl::COLOR, 0, &[0.0, 0.0, 0.0, 1.0]);
        frame.submit(0, clear)?;
        std::thread::scope(|s| -> Result<(), glcmd::Error> {
            let frame = &frame;
            let handles: Vec<_> = (0..workers)
                .map(|w| {
                    s.spawn(move || -> Result<(), glcmd::Error> {
                        let mut list = frame.list(1 + w)?;
                        // Lazily, every frame, as an engine's material system would.
                        let u_offset = device.get_uniform_location(program, "u_offset")?;
                        let u_color = device.get_uniform_location(program, "u_color")?;
                        let attributes = device.get_integer(gl::MAX_VERTEX_ATTRIBS)?;
                        assert!(attributes >= 16, "GL 4.5 guarantees 16 vertex attributes");
                        // A buffer for this frame's vertices only.
                        let buffer: GLuint = device.create_buffer()?;
                        let size = 0.2 + 0.05 * (f % 4) as f32;
                        let quad: [[f32; 2]; 4] = [[-size, -size], [size, -size], [-size, size], [size, size]];
                        list.named_buffer_storage_from_slice(buffer, &quad, 0);
                        list.bind_framebuffer(gl::FRAMEBUFFER, framebuffer);
                        list.viewport(0, 0, SIZE, SIZE);
                        list.use_program(program);
                        list.bind_vertex_array(vertex_array);
                        list.vertex_array_vertex_buffer(vertex_array, 0, buffer, 0, 8);
                        let x = -0.6 + 1.2 * w as f32 / (workers.max(2) - 1) as f32;
                        list.uniform2f(u_offset, x, 0.0);
                        list.uniform4f(u_color, 0.2 + 0.2 * w as f32, 0.8, 0.3, 1.0);
                        list.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
                        list.delete_buffers(&[buffer]); // runs when the frame ends
                        Ok(frame.submit(1 + w, list)?)
                    })
                })
                .collect();
            handles.into_iter().try_for_each(|h| h.join().expect("worker panicked"))
        })?;
        drop(frame);
        // Every frame begun before this one has ended or will end before it: wait for this one.
        device.wait_frames(before.frames + 1)?;
        round_trips.push(device.stats().round_trips - before.round_trips);
    }

    let mut list = device.command_list();
    list.bind_framebuffer(gl::READ_FRAMEBUFFER, framebuffer);
    device.submit(list)?;
    let pixels = device.readn_pixels(0, 0, SIZE, SIZE, gl::RGBA, gl::UNSIGNED_BYTE, SIZE * SIZE * 4)?;
    Ok(Run { round_trips, pixels })
}

#[allow(dead_code)] // `tests/streaming.rs` includes this file for `run`.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init();
    let mut args = std::env::args().skip(1);
    let frames: usize = args.next().map(|a| a.parse()).transpose()?.unwrap_or(30);
    let workers: usize = args.next().map(|a| a.parse()).transpose()?.unwrap_or(4);
    let device = Device::headless()?;
    let run = run(&device, frames, workers)?;
    for (f, n) in run.round_trips.iter().enumerate() {
        println!("frame {f:>3}: {n} round trips");
    }
    let steady = &run.round_trips[run.round_trips.len().min(3)..];
    let mean = steady.iter().sum::<u64>() as f64 / steady.len().max(1) as f64;
    println!("round trips per frame after the first 3 frames: {mean:.2} ({workers} workers, {frames} frames)");
    Ok(())
}
