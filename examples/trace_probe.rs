//! The same GL call sequence made two ways, for tracing with apitrace: directly on one thread
//! (`--direct`), or recorded into command lists on worker threads and replayed by glcmd
//! (default). `tests/apitrace.rs` traces both and checks that the driver received the same
//! calls with the same array contents.
//!
//! ```sh
//! apitrace trace --api egl -o glcmd.trace target/debug/examples/trace_probe
//! apitrace trace --api egl -o direct.trace target/debug/examples/trace_probe --direct
//! ```
//!
//! Both modes create their objects first (creation is immediate in glcmd), then make the
//! recorded calls inside `glPushDebugGroup("probe")`/`glPopDebugGroup`; the comparison starts at
//! the first `glCreateFramebuffers`, so context set-up is ignored.

use glcmd::{gl, types::*, Device, Gl};

const LABEL: &str = "probe";
const MATRIX: [f32; 16] = [1.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.25, 0.5, 0.75, 1.0];
const VS: &str = "#version 450 core\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n";
const FS: &str = "#version 450 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n";

fn bytes() -> Vec<u8> {
    (0..1024u32).map(|i| (i * 7 % 251) as u8).collect()
}

fn main() -> Result<(), glcmd::Error> {
    if std::env::args().any(|a| a == "--direct") {
        direct();
        Ok(())
    } else {
        through_glcmd()
    }
}

/// The sequence with plain GL calls on this thread.
fn direct() {
    let context = glcmd::context::GlContext::headless().expect("headless context");
    let g: Box<Gl> = context.load_gl();
    let data = bytes();
    // SAFETY: valid GL calls on the current context, arrays alive for each call.
    unsafe {
        let (mut fbo, mut tex, mut buf) = ([0u32; 1], [0u32; 2], [0u32; 1]);
        (g.CreateFramebuffers)(1, fbo.as_mut_ptr());
        (g.CreateTextures)(gl::TEXTURE_2D, 2, tex.as_mut_ptr());
        (g.CreateBuffers)(1, buf.as_mut_ptr());
        let program = (g.CreateProgram)();
        let vs = (g.CreateShader)(gl::VERTEX_SHADER);
        let fs = (g.CreateShader)(gl::FRAGMENT_SHADER);
        (g.PushDebugGroup)(gl::DEBUG_SOURCE_APPLICATION, 0, LABEL.len() as GLsizei, LABEL.as_ptr().cast());
        // List 0.
        for t in tex {
            (g.TextureStorage2D)(t, 1, gl::RGBA8, 16, 16);
            (g.TextureParameterfv)(t, gl::TEXTURE_BORDER_COLOR, [0.0f32, 0.5, 1.0, 1.0].as_ptr());
        }
        (g.NamedFramebufferTexture)(fbo[0], gl::COLOR_ATTACHMENT0, tex[0], 0);
        (g.NamedFramebufferTexture)(fbo[0], gl::COLOR_ATTACHMENT1, tex[1], 0);
        let bufs = [gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT1];
        (g.NamedFramebufferDrawBuffers)(fbo[0], 2, bufs.as_ptr());
        (g.NamedBufferStorage)(buf[0], 2048, std::ptr::null(), gl::DYNAMIC_STORAGE_BIT);
        (g.NamedBufferSubData)(buf[0], 512, 1024, data.as_ptr().cast());
        // List 1.
        for (shader, source) in [(vs, VS), (fs, FS)] {
            let ptr = source.as_ptr().cast::<GLchar>();
            let len = source.len() as GLint;
            (g.ShaderSource)(shader, 1, &ptr, &len);
            (g.CompileShader)(shader);
            (g.AttachShader)(program, shader);
        }
        (g.LinkProgram)(program);
        (g.UseProgram)(program);
        (g.UniformMatrix4fv)(0, 1, gl::FALSE as GLboolean, MATRIX.as_ptr());
        (g.BindFramebuffer)(gl::FRAMEBUFFER, fbo[0]);
        (g.ClearBufferfv)(gl::COLOR, 1, [0.25f32, 0.5, 0.75, 1.0].as_ptr());
        (g.PopDebugGroup)();
        // glcmd runs recorded deletes at the end of the frame, after every list of it.
        (g.DeleteTextures)(2, tex.as_ptr());
        (g.Finish)();
    }
}

/// The same sequence recorded on two worker threads into two slots of one frame.
fn through_glcmd() -> Result<(), glcmd::Error> {
    let device = Device::headless()?;
    // Creation is immediate: these run at once, before any list below.
    let fbo = device.create_framebuffers(1)?[0];
    let tex = device.create_textures(gl::TEXTURE_2D, 2)?;
    let buf = device.create_buffers(1)?[0];
    let program = device.create_program()?;
    let vs = device.create_shader(gl::VERTEX_SHADER)?;
    let fs = device.create_shader(gl::FRAGMENT_SHADER)?;
    let frame = device.begin_frame(2)?;
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut list = device.command_list();
            list.push_debug_group(gl::DEBUG_SOURCE_APPLICATION, 0, LABEL);
            for &t in &tex {
                list.texture_storage_2d(t, 1, gl::RGBA8, 16, 16);
                list.texture_parameterfv(t, gl::TEXTURE_BORDER_COLOR, &[0.0, 0.5, 1.0, 1.0]);
            }
            list.named_framebuffer_texture(fbo, gl::COLOR_ATTACHMENT0, tex[0], 0);
            list.named_framebuffer_texture(fbo, gl::COLOR_ATTACHMENT1, tex[1], 0);
            let bufs = [gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT1];
            list.named_framebuffer_draw_buffers(fbo, &bufs);
            list.named_buffer_storage(buf, 2048, None, gl::DYNAMIC_STORAGE_BIT);
            list.named_buffer_sub_data(buf, 512, &bytes());
            frame.submit(0, list).expect("submit");
        });
        s.spawn(|| {
            let mut list = device.command_list();
            for (shader, source) in [(vs, VS), (fs, FS)] {
                list.shader_source(shader, &[source]);
                list.compile_shader(shader);
                list.attach_shader(program, shader);
            }
            list.link_program(program);
            list.use_program(program);
            list.uniform_matrix4fv(0, false, &[MATRIX]);
            list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
            list.clear_bufferfv(gl::COLOR, 1, &[0.25, 0.5, 0.75, 1.0]);
            list.delete_textures(&tex);
            list.pop_debug_group();
            frame.submit(1, list).expect("submit");
        });
    });
    drop(frame);
    device.finish()
}
