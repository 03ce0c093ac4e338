//! The learn-opengl-style renderer of `examples/renderer.rs` (issue 11's port), rendered through
//! glcmd and, call for call, with direct GL on a context of its own: the pixels must be
//! identical. The glcmd side uses the API as a new user writes it (typed slices, `bool`,
//! singular creates, scalar queries); the direct side is the C API the same renderer would call.

mod common;

#[allow(dead_code)]
#[path = "../examples/renderer.rs"]
mod renderer;

use common::*;
use glcmd::gl;
use glcmd::types::{GLenum, GLuint};
use renderer::*;

const FRAMES: u32 = 3;

/// The same frames with direct GL calls.
fn render_direct() -> Vec<u8> {
    let d = Direct::new();
    let g = &d.gl;
    let create = |f: unsafe extern "system" fn(i32, *mut GLuint)| {
        let mut n = 0;
        unsafe { f(1, &mut n) };
        n
    };
    let texture = || {
        let mut n = 0;
        unsafe { (g.CreateTextures)(gl::TEXTURE_2D, 1, &mut n) };
        n
    };
    unsafe {
        let (vbo, ibo, ubo) = (create(g.CreateBuffers), create(g.CreateBuffers), create(g.CreateBuffers));
        let (vao, post_vao) = (create(g.CreateVertexArrays), create(g.CreateVertexArrays));
        let tex = texture();
        let sampler = create(g.CreateSamplers);
        let (scene_target, scene_fbo) = (texture(), create(g.CreateFramebuffers));
        let (post_target, post_fbo) = (texture(), create(g.CreateFramebuffers));
        let scene_program = d.program(&[(gl::VERTEX_SHADER, SCENE_VS), (gl::FRAGMENT_SHADER, SCENE_FS)]);
        let post_program = d.program(&[(gl::VERTEX_SHADER, POST_VS), (gl::FRAGMENT_SHADER, POST_FS)]);

        let bytes = |s: &[u8]| (s.len() as isize, s.as_ptr().cast());
        let (n, p) = bytes(bytemuck_bytes(&VERTICES));
        (g.NamedBufferStorage)(vbo, n, p, 0);
        let (n, p) = bytes(bytemuck_bytes(&INDICES));
        (g.NamedBufferStorage)(ibo, n, p, 0);
        let (n, p) = bytes(bytemuck_bytes(&frame_block(0)));
        (g.NamedBufferStorage)(ubo, n, p, gl::DYNAMIC_STORAGE_BIT);
        (g.VertexArrayVertexBuffer)(vao, 0, vbo, 0, STRIDE);
        (g.VertexArrayElementBuffer)(vao, ibo);
        for (attribute, offset) in [(0, 0), (1, 8)] {
            (g.EnableVertexArrayAttrib)(vao, attribute);
            (g.VertexArrayAttribFormat)(vao, attribute, 2, gl::FLOAT, gl::FALSE as u8, offset);
            (g.VertexArrayAttribBinding)(vao, attribute, 0);
        }
        (g.TextureStorage2D)(tex, LEVELS, gl::RGBA8, 16, 16);
        (g.PixelStorei)(gl::UNPACK_ALIGNMENT, 4);
        let texels = checkerboard();
        (g.TextureSubImage2D)(tex, 0, 0, 0, 16, 16, gl::RGBA, gl::UNSIGNED_BYTE, texels.as_ptr().cast());
        (g.GenerateTextureMipmap)(tex);
        let sp = |pname: GLenum, v: GLenum| (g.SamplerParameteri)(sampler, pname, v as i32);
        sp(gl::TEXTURE_MIN_FILTER, gl::LINEAR_MIPMAP_LINEAR);
        sp(gl::TEXTURE_MAG_FILTER, gl::NEAREST);
        sp(gl::TEXTURE_WRAP_S, gl::REPEAT);
        sp(gl::TEXTURE_WRAP_T, gl::REPEAT);
        for (target, fbo) in [(scene_target, scene_fbo), (post_target, post_fbo)] {
            (g.TextureStorage2D)(target, 1, TARGET_FORMAT, SIZE, SIZE);
            (g.TextureParameteri)(target, gl::TEXTURE_MIN_FILTER, gl::LINEAR as i32);
            (g.TextureParameteri)(target, gl::TEXTURE_WRAP_S, gl::CLAMP_TO_EDGE as i32);
            (g.NamedFramebufferTexture)(fbo, gl::COLOR_ATTACHMENT0, target, 0);
        }

        for i in 0..FRAMES {
            let block = frame_block(i);
            let (n, p) = bytes(bytemuck_bytes(&block));
            (g.NamedBufferSubData)(ubo, 0, n, p);
            (g.BindBufferBase)(gl::UNIFORM_BUFFER, 0, ubo);
            (g.BindFramebuffer)(gl::FRAMEBUFFER, scene_fbo);
            (g.Viewport)(0, 0, SIZE, SIZE);
            (g.ClearNamedFramebufferfv)(scene_fbo, gl::COLOR, 0, [0.1, 0.1, 0.15, 1.0].as_ptr());
            (g.Enable)(gl::BLEND);
            (g.BlendFunc)(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
            (g.ColorMask)(1, 1, 1, 1);
            (g.UseProgram)(scene_program);
            (g.BindVertexArray)(vao);
            (g.BindTextureUnit)(0, tex);
            (g.BindSampler)(0, sampler);
            (g.DrawElementsInstanced)(
                gl::TRIANGLES,
                INDICES.len() as i32,
                gl::UNSIGNED_SHORT,
                std::ptr::null(),
                INSTANCES,
            );
            (g.Disable)(gl::BLEND);
            (g.BindFramebuffer)(gl::FRAMEBUFFER, post_fbo);
            (g.UseProgram)(post_program);
            (g.BindVertexArray)(post_vao);
            (g.BindTextureUnit)(1, scene_target);
            (g.DrawArrays)(gl::TRIANGLES, 0, 3);
        }
        (g.PixelStorei)(gl::PACK_ALIGNMENT, 1);
        assert_eq!(d.error(), gl::NO_ERROR);
        d.read_rgba8(post_fbo, SIZE, SIZE)
    }
}

/// The bytes of plain data, as the direct C API takes them.
fn bytemuck_bytes<T: Copy>(v: &[T]) -> &[u8] {
    // SAFETY: the element types used here (f32 arrays, u16) have no padding.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast(), std::mem::size_of_val(v)) }
}

#[test]
fn renderer_matches_direct_gl() {
    let device = device();
    let through_glcmd = render(&device, FRAMES).unwrap_or_else(|e| panic!("the renderer failed: {e}"));
    let direct = render_direct();
    // The image is not trivial: the quads, their texture and the post-process all show.
    let distinct: std::collections::BTreeSet<&[u8]> = through_glcmd.chunks_exact(4).collect();
    assert!(distinct.len() > 50, "only {} distinct colours", distinct.len());
    assert_same_image("renderer", &through_glcmd, &direct, SIZE as usize);
}
