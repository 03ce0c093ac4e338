//! Plain single-threaded GL through glcmd's immediate context, on a thread that is not the
//! render thread: compile and check, link and look uniforms up, upload, draw, read a pixel back
//! and check errors, as code written for one GL context does, with no list and no submit in
//! sight. Prints, per frame, the implicit submits and round trips that cost.
//!
//! `cargo run --example immediate [FRAMES]`

use glcmd::{gl, Device, Error};

const VS: &str = "#version 450 core
layout(location = 0) in vec2 position;
uniform vec2 offset;
void main() { gl_Position = vec4(position + offset, 0.0, 1.0); }";
const FS: &str = "#version 450 core
uniform vec4 colour;
out vec4 frag;
void main() { frag = colour; }";

fn main() -> Result<(), Error> {
    let frames: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(4);
    let device = Device::headless()?;
    let mut ctx = device.immediate();
    let (w, h) = (64, 64);

    // Set-up, as for a direct context: every check sees the calls before it.
    let program = ctx.create_program()?;
    for (kind, src) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)] {
        let shader = ctx.create_shader(kind)?;
        ctx.shader_source(shader, &[src]);
        ctx.compile_shader(shader);
        if ctx.get_shaderi(shader, gl::COMPILE_STATUS)? == 0 {
            panic!("compile: {}", ctx.get_shader_info_log(shader, 4096)?);
        }
        ctx.attach_shader(program, shader);
    }
    ctx.link_program(program);
    assert_eq!(ctx.get_programi(program, gl::LINK_STATUS)?, 1, "{}", ctx.get_program_info_log(program, 4096)?);
    let offset = ctx.get_uniform_location(program, "offset")?;
    let colour = ctx.get_uniform_location(program, "colour")?;

    let fbo = ctx.create_framebuffer()?;
    let rb = ctx.create_renderbuffer()?;
    ctx.named_renderbuffer_storage(rb, gl::RGBA8, w, h);
    ctx.named_framebuffer_renderbuffer(fbo, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
    assert_eq!(ctx.check_named_framebuffer_status(fbo, gl::FRAMEBUFFER)?, gl::FRAMEBUFFER_COMPLETE);

    let vertices: [f32; 6] = [-0.5, -0.5, 0.5, -0.5, 0.0, 0.5];
    let vao = ctx.gen_vertex_array()?;
    let vbo = ctx.gen_buffer()?;
    ctx.bind_vertex_array(vao);
    ctx.bind_buffer(gl::ARRAY_BUFFER, vbo);
    ctx.buffer_data(gl::ARRAY_BUFFER, 24, Some(bytemuck::cast_slice(&vertices[..])), gl::STATIC_DRAW);
    ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 8, 0);
    ctx.enable_vertex_attrib_array(0);
    assert_eq!(ctx.get_error()?, gl::NO_ERROR);
    println!("set-up: {} implicit submits, {} round trips", ctx.implicit_submits(), ctx.round_trips());

    for frame in 0..frames {
        let (submits, trips) = (ctx.implicit_submits(), ctx.round_trips());
        ctx.bind_framebuffer(gl::FRAMEBUFFER, fbo);
        ctx.viewport(0, 0, w, h);
        ctx.clear_color(0.1, 0.1, 0.1, 1.0);
        ctx.clear(gl::COLOR_BUFFER_BIT);
        ctx.use_program(program);
        ctx.uniform2f(offset, 0.05 * frame as f32, 0.0);
        ctx.uniform4f(colour, 1.0, 0.5, 0.0, 1.0);
        ctx.draw_arrays(gl::TRIANGLES, 0, 3);
        let centre = ctx.readn_pixels(w / 2, h / 2, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, 4)?;
        let error = ctx.get_error()?;
        println!(
            "frame {frame}: centre pixel {centre:?}, error 0x{error:x}; {} implicit submits, {} round trips",
            ctx.implicit_submits() - submits,
            ctx.round_trips() - trips
        );
    }
    Ok(())
}
