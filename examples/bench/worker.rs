//! What a worker asks the GL for while it records (issue 9): a name for a new buffer, a uniform
//! location looked up lazily, a limit. Measured on a worker thread of a live device:
//!
//! * `create_ns_pooled`: one `create_buffer()` from the name pool;
//! * `cached_query_ns`: one `get_uniform_location` answered by the program interface cache;
//! * `limit_ns`: one `get_integerv(GL_MAX_TEXTURE_SIZE)` answered by the limits cache;
//! * the streaming frame: every worker, every frame, looks its uniform locations up, creates a
//!   streaming buffer, fills and draws from it, deletes it, and reads a limit: round trips per
//!   frame in steady state (the goal is 0).

use std::hint::black_box;
use std::time::Instant;

use glcmd::types::*;
use glcmd::{gl, Device};

use crate::harness::{per_op, summary};

const VS: &str = "#version 450 core\nlayout(location = 0) in vec2 pos;\nuniform mat4 mvp;\nuniform vec4 tint[4];\nvoid main() { gl_Position = mvp * vec4(pos, 0.0, 1.0) + tint[3]; }\n";
const FS: &str = "#version 450 core\nuniform vec4 color;\nout vec4 frag;\nvoid main() { frag = color; }\n";

/// A program linked through a recorded list (so the interface cache knows it).
fn program(device: &Device) -> GLuint {
    let program = device.create_program().unwrap();
    let mut list = device.command_list();
    for (kind, src) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)] {
        let s = device.create_shader(kind).unwrap();
        list.shader_source(s, &[src]);
        list.compile_shader(s);
        list.attach_shader(program, s);
    }
    list.link_program(program);
    device.submit(list).unwrap();
    assert_eq!(device.get_programiv(program, gl::LINK_STATUS).unwrap(), vec![1]);
    program
}

pub struct WorkerFigures {
    /// (median, min) ns.
    pub create_pooled: (f64, f64),
    pub cached_query: (f64, f64),
    pub limit: (f64, f64),
    /// Round trips per frame of the streaming frame, steady state.
    pub streaming_round_trips: f64,
    pub streaming_frames: usize,
    pub streaming_workers: usize,
}

pub fn run(device: &Device, reps: usize, frames: usize) -> WorkerFigures {
    let program = program(device);
    let device2 = device.clone();
    // On a worker thread, as an engine would.
    let (create_pooled, cached_query, limit) = std::thread::spawn(move || {
        let d = &device2;
        d.create_buffers(1).unwrap(); // starts the pool
        d.finish().unwrap();
        let mut made = Vec::new();
        let create = summary(per_op(5, reps, || {
            for _ in 0..64 {
                made.push(black_box(d.create_buffer().unwrap()));
            }
            64
        }));
        let query = summary(per_op(20, reps, || {
            for _ in 0..64 {
                black_box(d.get_uniform_location(program, black_box("mvp")).unwrap());
            }
            64
        }));
        let limit = summary(per_op(20, reps, || {
            for _ in 0..64 {
                black_box(d.get_integerv(gl::MAX_TEXTURE_SIZE).unwrap());
            }
            64
        }));
        let mut list = d.command_list();
        list.delete_buffers(&made);
        d.submit(list).unwrap();
        (create, query, limit)
    })
    .join()
    .unwrap();

    // The streaming frame.
    let workers = 4;
    let fbo = device.create_framebuffers(1).unwrap()[0];
    let rb = device.create_renderbuffers(1).unwrap()[0];
    let vao = device.create_vertex_arrays(1).unwrap()[0];
    let mut list = device.command_list();
    list.named_renderbuffer_storage(rb, gl::RGBA8, 32, 32);
    list.named_framebuffer_renderbuffer(fbo, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
    device.submit(list).unwrap();
    let frame_of = |device: &Device| {
        let frame = device.begin_frame(workers).unwrap();
        std::thread::scope(|s| {
            for slot in 0..workers {
                let (device, frame) = (device, &frame);
                s.spawn(move || {
                    let mut list = frame.list(slot).unwrap();
                    // Lazily, every frame: locations, a limit, a streaming buffer.
                    let mvp = device.get_uniform_location(program, "mvp").unwrap();
                    let color = device.get_uniform_location(program, "color").unwrap();
                    let tint = device.get_uniform_location(program, "tint[3]").unwrap();
                    let max = device.get_integerv(gl::MAX_VERTEX_ATTRIBS).unwrap()[0];
                    let buffer = device.create_buffers(1).unwrap()[0];
                    let quad: [f32; 8] = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
                    let bytes: Vec<u8> = quad.iter().flat_map(|f| f.to_ne_bytes()).collect();
                    list.named_buffer_storage(buffer, bytes.len() as GLsizeiptr, Some(&bytes), 0);
                    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
                    list.viewport(0, 0, 32, 32);
                    list.use_program(program);
                    list.bind_vertex_array(vao);
                    list.vertex_array_vertex_buffer(vao, 0, buffer, 0, 8);
                    list.vertex_array_attrib_format(vao, 0, 2, gl::FLOAT, false, 0);
                    list.enable_vertex_array_attrib(vao, 0);
                    list.uniform_matrix4fv(
                        mvp,
                        false,
                        &[[0.5, 0., 0., 0., 0., 0.5, 0., 0., 0., 0., 1., 0., 0., 0., 0., 1.]],
                    );
                    list.uniform4f(color, slot as f32 / 4.0, 0.5, 0.25, 1.0);
                    list.uniform4f(tint, 0.0, 0.0, 0.0, black_box(max as f32) * 0.0);
                    list.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
                    list.delete_buffers(&[buffer]); // runs at the end of the frame
                    frame.submit(slot, list).unwrap();
                });
            }
        });
    };
    for _ in 0..10 {
        frame_of(device);
    }
    device.finish().unwrap();
    let before = device.stats().round_trips;
    let t = Instant::now();
    for _ in 0..frames {
        frame_of(device);
    }
    let _ = t.elapsed();
    let after = device.stats().round_trips;
    device.finish().unwrap();
    WorkerFigures {
        create_pooled,
        cached_query,
        limit,
        streaming_round_trips: (after - before) as f64 / frames as f64,
        streaming_frames: frames,
        streaming_workers: workers,
    }
}
