//! An unchanged glow renderer, through glcmd.
//!
//! `render` below is ordinary glow code, written for a context current on the calling thread:
//! it compiles and links a program and checks both statuses, looks a uniform up, fills a buffer,
//! draws into a framebuffer object and reads the pixels back. The example runs it twice:
//!
//! 1. **directly**, on a headless EGL context current on this thread;
//! 2. **through glcmd**, on the same thread, which is not glcmd's render thread: the glow
//!    `Context` is built over glcmd's entry points (`glcmdGetProcAddress`) after
//!    `glcmdThreadMakeImmediate`, so every call is recorded on this thread and replayed on the
//!    render thread, and every query sees the calls before it.
//!
//! and checks that the two runs read back the same bytes. `tests/glow_example.rs` runs it.
//!
//! ```sh
//! cargo run --example glow
//! ```

use std::ffi::{c_void, CStr};

use glow::HasContext;

const SIZE: i32 = 64;

const VERTEX: &str = "#version 450 core
layout(location = 0) in vec2 position;
uniform vec2 offset;
void main() { gl_Position = vec4(position + offset, 0.0, 1.0); }";
const FRAGMENT: &str = "#version 450 core
uniform vec4 color;
out vec4 frag;
void main() { frag = color; }";

/// Ordinary glow code for a direct context: the pixels it draws, RGBA8, bottom row first.
fn render(gl: &glow::Context) -> Result<Vec<u8>, String> {
    // SAFETY: glow's functions are unsafe because they call the GL; the arguments are valid.
    unsafe {
        let program = gl.create_program()?;
        for (kind, source) in [(glow::VERTEX_SHADER, VERTEX), (glow::FRAGMENT_SHADER, FRAGMENT)] {
            let shader = gl.create_shader(kind)?;
            gl.shader_source(shader, source);
            gl.compile_shader(shader);
            if !gl.get_shader_compile_status(shader) {
                return Err(format!("compile: {}", gl.get_shader_info_log(shader)));
            }
            gl.attach_shader(program, shader);
            gl.delete_shader(shader);
        }
        gl.link_program(program);
        if !gl.get_program_link_status(program) {
            return Err(format!("link: {}", gl.get_program_info_log(program)));
        }
        let offset = gl.get_uniform_location(program, "offset").ok_or("no uniform `offset`")?;
        let color = gl.get_uniform_location(program, "color").ok_or("no uniform `color`")?;

        let vertices: [f32; 6] = [-0.5, -0.5, 0.5, -0.5, 0.0, 0.5];
        let bytes: Vec<u8> = vertices.iter().flat_map(|v| v.to_ne_bytes()).collect();
        let vbo = gl.create_buffer()?;
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
        gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, &bytes, glow::STATIC_DRAW);
        let vao = gl.create_vertex_array()?;
        gl.bind_vertex_array(Some(vao));
        gl.vertex_attrib_pointer_f32(0, 2, glow::FLOAT, false, 8, 0);
        gl.enable_vertex_attrib_array(0);

        let rb = gl.create_renderbuffer()?;
        gl.bind_renderbuffer(glow::RENDERBUFFER, Some(rb));
        gl.renderbuffer_storage(glow::RENDERBUFFER, glow::RGBA8, SIZE, SIZE);
        let fbo = gl.create_framebuffer()?;
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
        gl.framebuffer_renderbuffer(glow::FRAMEBUFFER, glow::COLOR_ATTACHMENT0, glow::RENDERBUFFER, Some(rb));
        if gl.check_framebuffer_status(glow::FRAMEBUFFER) != glow::FRAMEBUFFER_COMPLETE {
            return Err("framebuffer incomplete".into());
        }

        gl.viewport(0, 0, SIZE, SIZE);
        gl.clear_color(0.1, 0.2, 0.3, 1.0);
        gl.clear(glow::COLOR_BUFFER_BIT);
        gl.use_program(Some(program));
        for (i, rgba) in [[1.0, 0.5, 0.0, 1.0], [0.0, 0.8, 0.4, 1.0]].iter().enumerate() {
            gl.uniform_2_f32(Some(&offset), -0.25 + 0.5 * i as f32, 0.0);
            gl.uniform_4_f32_slice(Some(&color), rgba);
            gl.draw_arrays(glow::TRIANGLES, 0, 3);
        }
        let mut pixels = vec![0u8; (SIZE * SIZE * 4) as usize];
        gl.read_pixels(
            0,
            0,
            SIZE,
            SIZE,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelPackData::Slice(Some(&mut pixels)),
        );
        if gl.get_error() != glow::NO_ERROR {
            return Err("a GL error".into());
        }
        gl.delete_framebuffer(fbo);
        gl.delete_renderbuffer(rb);
        gl.delete_vertex_array(vao);
        gl.delete_buffer(vbo);
        gl.delete_program(program);
        Ok(pixels)
    }
}

/// A glcmd status as a Result, with glcmd's message.
fn check(status: glcmd_capi::GlcmdStatus) -> Result<(), String> {
    if status == glcmd_capi::GLCMD_OK {
        return Ok(());
    }
    let mut message = std::ptr::null();
    // SAFETY: writes a pointer to a NUL-terminated message, valid until the next glcmd call.
    unsafe { glcmd_capi::glcmdLastError(&mut message) };
    // SAFETY: as above; non-NULL after a failure.
    Err(unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // 1. Directly: a headless context current on this thread.
    let context = glcmd::context::GlContext::headless()?;
    // SAFETY: the context is current on this thread; the loader returns its functions.
    let gl = unsafe { glow::Context::from_loader_function_cstr(|name| context.get_proc_address(name)) };
    let direct = render(&gl)?;
    drop(gl);
    drop(context);

    // 2. Through glcmd: a device, this thread made immediate, glow over glcmd's entry points.
    let mut device = std::ptr::null_mut();
    // SAFETY: NULL options; `device` has room for the handle.
    check(unsafe { glcmd_capi::glcmdDeviceCreateHeadless(std::ptr::null(), &mut device) })?;
    check(glcmd_capi::glcmdThreadMakeImmediate(device))?;
    // SAFETY: glcmd's entry points are GL functions of the names asked for.
    let gl = unsafe {
        glow::Context::from_loader_function_cstr(|name: &CStr| {
            glcmd_capi::glcmdGetProcAddress(name.as_ptr()) as *const c_void
        })
    };
    let through = render(&gl)?;
    drop(gl);
    check(glcmd_capi::glcmdThreadMakeImmediate(std::ptr::null_mut()))?;
    let stats = glcmd_capi::immediate::thread_stats();
    check(glcmd_capi::glcmdDeviceDestroy(device))?;

    let differing = direct.iter().zip(&through).filter(|(a, b)| a != b).count();
    let centre = |p: &[u8]| {
        let i = ((SIZE / 2 * SIZE + SIZE / 4) * 4) as usize;
        [p[i], p[i + 1], p[i + 2], p[i + 3]]
    };
    println!("direct centre-left pixel {:?}, through glcmd {:?}", centre(&direct), centre(&through));
    println!(
        "through glcmd: {} implicit submits, {} round trips, on thread {:?} (not the render thread)",
        stats.implicit_submits,
        stats.round_trips,
        std::thread::current().name().unwrap_or("?")
    );
    if differing != 0 || direct.len() != through.len() {
        return Err(format!("{differing} bytes differ between the direct run and the run through glcmd").into());
    }
    println!("PIXELS EQUAL: {} bytes", direct.len());
    Ok(())
}
