//! # renderer: a small learn-opengl-style renderer, written against glcmd's API
//!
//! The renderer a GL programmer writes in their first week, ported from glow to glcmd as a new
//! user would: DSA vertex and index buffers and a vertex array, a texture with mipmaps and a
//! sampler, a std140 uniform block, instanced draws into an offscreen framebuffer, and a
//! post-process pass that samples it. Uploads take typed slices (`&[[f32; 4]]`, `&[u16]`,
//! `&[u32]`), booleans are `bool`, creates return one name, status queries return one value:
//! no casts, no byte conversion, no `[0]`.
//!
//! ```sh
//! cargo run --example renderer              # writes renderer.png
//! cargo run --example renderer -- OUT.png
//! ```
//!
//! `tests/renderer.rs` renders the same frames with direct GL calls and checks that the pixels
//! are identical.

use glcmd::types::{GLenum, GLuint};
use glcmd::{gl, CommandList, Device};

/// The offscreen targets are `SIZE` x `SIZE` RGBA8.
pub const SIZE: i32 = 128;
/// Instances of the textured quad drawn per frame (a 4 x 4 grid).
pub const INSTANCES: i32 = 16;

/// Interleaved vertices: position (x, y) and texture coordinate (u, v).
pub const VERTICES: [[f32; 4]; 4] =
    [[-1.0, -1.0, 0.0, 0.0], [1.0, -1.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0], [-1.0, 1.0, 0.0, 1.0]];
pub const INDICES: [u16; 6] = [0, 1, 2, 2, 3, 0];
/// Bytes between two vertices.
pub const STRIDE: i32 = 16;
/// Texture levels: 16 x 16 down to 1 x 1.
pub const LEVELS: i32 = 5;

pub const SCENE_VS: &str = r#"#version 450 core
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec2 a_uv;
layout(std140, binding = 0) uniform Frame {
    vec4 tint;
    vec4 offset_scale; // xy: offset of the grid, zw: size of one quad
};
out vec2 v_uv;
void main() {
    vec2 cell = vec2(gl_InstanceID % 4, gl_InstanceID / 4);
    vec2 centre = (cell - 1.5) * 0.45 + offset_scale.xy;
    gl_Position = vec4(centre + a_position * offset_scale.zw, 0.0, 1.0);
    v_uv = a_uv * (1.0 + float(gl_InstanceID) * 0.5);
}
"#;

pub const SCENE_FS: &str = r#"#version 450 core
layout(std140, binding = 0) uniform Frame {
    vec4 tint;
    vec4 offset_scale;
};
layout(binding = 0) uniform sampler2D u_texture;
in vec2 v_uv;
out vec4 o_color;
void main() {
    o_color = texture(u_texture, v_uv) * tint;
}
"#;

/// A full-screen triangle from `gl_VertexID`.
pub const POST_VS: &str = r#"#version 450 core
out vec2 v_uv;
void main() {
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    v_uv = p;
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
"#;

/// Post-process: a small blur across the offscreen image, a vignette, and inverted colours.
pub const POST_FS: &str = r#"#version 450 core
layout(binding = 1) uniform sampler2D u_scene;
in vec2 v_uv;
out vec4 o_color;
void main() {
    vec2 texel = 1.0 / vec2(textureSize(u_scene, 0));
    vec3 c = texture(u_scene, v_uv).rgb * 0.5
        + texture(u_scene, v_uv + vec2(texel.x, 0.0)).rgb * 0.25
        + texture(u_scene, v_uv - vec2(texel.x, 0.0)).rgb * 0.25;
    float vignette = 1.0 - 0.6 * dot(v_uv - 0.5, v_uv - 0.5);
    o_color = vec4((1.0 - c) * vignette, 1.0);
}
"#;

/// A 16 x 16 RGBA8 checkerboard, one colour per 4 x 4 block.
pub fn checkerboard() -> Vec<u32> {
    (0..16 * 16)
        .map(|i| {
            let (x, y) = (i % 16 / 4, i / 16 / 4);
            if (x + y) % 2 == 0 {
                0xFF20_D0F0 // ABGR in memory order R, G, B, A: (F0, D0, 20, FF)
            } else {
                0xFF80_2040
            }
        })
        .collect()
}

/// The uniform block of frame `i`: a tint and the grid's offset and quad size (std140: two
/// `vec4`s).
pub fn frame_block(i: u32) -> [[f32; 4]; 2] {
    let t = i as f32 * 0.25;
    [[1.0, 0.6 + 0.1 * t.sin(), 0.8, 1.0], [0.05 * t.cos(), 0.05 * t.sin(), 0.18, 0.18]]
}

/// The objects of the renderer: plain names, `Copy`, shared with any thread.
#[derive(Clone, Copy, Debug)]
pub struct Renderer {
    vertex_buffer: GLuint,
    index_buffer: GLuint,
    uniform_buffer: GLuint,
    vertex_array: GLuint,
    post_vertex_array: GLuint,
    texture: GLuint,
    sampler: GLuint,
    scene_target: GLuint,
    scene_framebuffer: GLuint,
    post_target: GLuint,
    /// The framebuffer the post-process pass draws into: read it back for the image.
    pub post_framebuffer: GLuint,
    scene_program: GLuint,
    post_program: GLuint,
}

impl Renderer {
    /// Creates every object (creates are immediate and return real names) and records their
    /// set-up into one list.
    pub fn new(device: &Device) -> Result<Renderer, String> {
        let e = |e: glcmd::Error| e.to_string();
        let r = Renderer {
            vertex_buffer: device.create_buffer().map_err(e)?,
            index_buffer: device.create_buffer().map_err(e)?,
            uniform_buffer: device.create_buffer().map_err(e)?,
            vertex_array: device.create_vertex_array().map_err(e)?,
            post_vertex_array: device.create_vertex_array().map_err(e)?,
            texture: device.create_texture(gl::TEXTURE_2D).map_err(e)?,
            sampler: device.create_sampler().map_err(e)?,
            scene_target: device.create_texture(gl::TEXTURE_2D).map_err(e)?,
            scene_framebuffer: device.create_framebuffer().map_err(e)?,
            post_target: device.create_texture(gl::TEXTURE_2D).map_err(e)?,
            post_framebuffer: device.create_framebuffer().map_err(e)?,
            scene_program: device.create_program().map_err(e)?,
            post_program: device.create_program().map_err(e)?,
        };
        let shaders = [
            (r.scene_program, device.create_shader(gl::VERTEX_SHADER).map_err(e)?, SCENE_VS),
            (r.scene_program, device.create_shader(gl::FRAGMENT_SHADER).map_err(e)?, SCENE_FS),
            (r.post_program, device.create_shader(gl::VERTEX_SHADER).map_err(e)?, POST_VS),
            (r.post_program, device.create_shader(gl::FRAGMENT_SHADER).map_err(e)?, POST_FS),
        ];

        let mut setup = device.command_list();
        setup.set_label("renderer set-up");
        // Buffers: typed slices, the size taken from the slice.
        setup.named_buffer_storage_from_slice(r.vertex_buffer, &VERTICES, 0);
        setup.named_buffer_storage_from_slice(r.index_buffer, &INDICES, 0);
        setup.named_buffer_storage_from_slice(r.uniform_buffer, &frame_block(0), gl::DYNAMIC_STORAGE_BIT);
        // The vertex array: one interleaved binding, two attributes, the index buffer.
        setup.vertex_array_vertex_buffer(r.vertex_array, 0, r.vertex_buffer, 0, STRIDE);
        setup.vertex_array_element_buffer(r.vertex_array, r.index_buffer);
        for (attribute, offset) in [(0, 0), (1, 8)] {
            setup.enable_vertex_array_attrib(r.vertex_array, attribute);
            setup.vertex_array_attrib_format(r.vertex_array, attribute, 2, gl::FLOAT, false, offset);
            setup.vertex_array_attrib_binding(r.vertex_array, attribute, 0);
        }
        // The texture: level 0 uploaded, the others generated; sampled with trilinear filtering.
        setup.texture_storage_2d(r.texture, LEVELS, gl::RGBA8, 16, 16);
        setup.pixel_storei(gl::UNPACK_ALIGNMENT, 4);
        // 16 x 16 RGBA8 texels: the list checks the slice against the size its pixel-store state
        // gives (the defaults here: 16 * 16 * 4 bytes).
        setup.texture_sub_image_2d(r.texture, 0, 0, 0, 16, 16, gl::RGBA, gl::UNSIGNED_BYTE, &checkerboard());
        setup.generate_texture_mipmap(r.texture);
        setup.sampler_parameteri(r.sampler, gl::TEXTURE_MIN_FILTER, gl::LINEAR_MIPMAP_LINEAR as i32);
        setup.sampler_parameteri(r.sampler, gl::TEXTURE_MAG_FILTER, gl::NEAREST as i32);
        setup.sampler_parameteri(r.sampler, gl::TEXTURE_WRAP_S, gl::REPEAT as i32);
        setup.sampler_parameteri(r.sampler, gl::TEXTURE_WRAP_T, gl::REPEAT as i32);
        // Two offscreen targets.
        for (target, framebuffer) in [(r.scene_target, r.scene_framebuffer), (r.post_target, r.post_framebuffer)] {
            setup.texture_storage_2d(target, 1, gl::RGBA8, SIZE, SIZE);
            setup.texture_parameteri(target, gl::TEXTURE_MIN_FILTER, gl::LINEAR as i32);
            setup.texture_parameteri(target, gl::TEXTURE_WRAP_S, gl::CLAMP_TO_EDGE as i32);
            setup.named_framebuffer_texture(framebuffer, gl::COLOR_ATTACHMENT0, target, 0);
        }
        for &(program, shader, source) in &shaders {
            setup.shader_source(shader, &[source]);
            setup.compile_shader(shader);
            setup.attach_shader(program, shader);
        }
        setup.link_program(r.scene_program);
        setup.link_program(r.post_program);
        for &(_, shader, _) in &shaders {
            setup.delete_shader(shader); // flagged: the programs keep them
        }
        device.submit(setup).map_err(|refused| e(refused.into()))?;

        // Status queries run after the set-up list and return one value each.
        for &(_, shader, _) in &shaders {
            if device.get_shaderi(shader, gl::COMPILE_STATUS).map_err(e)? == 0 {
                return Err(device.get_shader_info_log(shader, 4096).map_err(e)?);
            }
        }
        for program in [r.scene_program, r.post_program] {
            if device.get_programi(program, gl::LINK_STATUS).map_err(e)? == 0 {
                return Err(device.get_program_info_log(program, 4096).map_err(e)?);
            }
        }
        for framebuffer in [r.scene_framebuffer, r.post_framebuffer] {
            let status = device.check_named_framebuffer_status(framebuffer, gl::FRAMEBUFFER).map_err(e)?;
            if status != gl::FRAMEBUFFER_COMPLETE {
                return Err(format!("framebuffer {framebuffer} is incomplete: {}", glcmd::dump::EnumName(status)));
            }
        }
        Ok(r)
    }

    /// Records frame `i`: the instanced scene pass, then the post-process pass.
    pub fn record_frame(&self, list: &mut CommandList, i: u32) {
        list.named_buffer_sub_data(self.uniform_buffer, 0, &frame_block(i));
        list.bind_buffer_base(gl::UNIFORM_BUFFER, 0, self.uniform_buffer);

        list.bind_framebuffer(gl::FRAMEBUFFER, self.scene_framebuffer);
        list.viewport(0, 0, SIZE, SIZE);
        list.clear_named_framebufferfv(self.scene_framebuffer, gl::COLOR, 0, &[0.1, 0.1, 0.15, 1.0]);
        list.enable(gl::BLEND);
        list.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
        list.color_mask(true, true, true, true);
        list.use_program(self.scene_program);
        list.bind_vertex_array(self.vertex_array);
        list.bind_texture_unit(0, self.texture);
        list.bind_sampler(0, self.sampler);
        list.draw_elements_instanced(gl::TRIANGLES, INDICES.len() as i32, gl::UNSIGNED_SHORT, 0, INSTANCES);
        list.disable(gl::BLEND);

        list.bind_framebuffer(gl::FRAMEBUFFER, self.post_framebuffer);
        list.use_program(self.post_program);
        list.bind_vertex_array(self.post_vertex_array);
        list.bind_texture_unit(1, self.scene_target);
        list.draw_arrays(gl::TRIANGLES, 0, 3);
    }

    /// The post-process target, RGBA8, bottom row first.
    pub fn read_back(&self, device: &Device) -> Result<Vec<u8>, glcmd::Error> {
        let mut list = device.command_list();
        list.bind_framebuffer(gl::READ_FRAMEBUFFER, self.post_framebuffer);
        list.pixel_storei(gl::PACK_ALIGNMENT, 1);
        device.submit(list)?;
        device.readn_pixels(0, 0, SIZE, SIZE, gl::RGBA, gl::UNSIGNED_BYTE, SIZE * SIZE * 4)
    }
}

/// The GL enums the renderer uses for its targets, for the direct-GL twin in the tests.
pub const TARGET_FORMAT: GLenum = gl::RGBA8;

/// Renders `frames` frames, the scene pass of each recorded on a worker thread, and returns the
/// last one's pixels.
pub fn render(device: &Device, frames: u32) -> Result<Vec<u8>, String> {
    let renderer = Renderer::new(device)?;
    for i in 0..frames {
        let frame = device.begin_frame(1).map_err(|e| e.to_string())?;
        std::thread::scope(|s| {
            s.spawn(|| {
                let mut list = device.command_list();
                list.set_label("frame");
                renderer.record_frame(&mut list, i);
                frame.submit(0, list)
            })
            .join()
            .expect("the worker does not panic")
        })
        .map_err(|e| e.to_string())?;
    }
    let pixels = renderer.read_back(device).map_err(|e| e.to_string())?;
    let error = device.get_error().map_err(|e| e.to_string())?;
    if error != gl::NO_ERROR {
        return Err(format!("GL error {}", glcmd::dump::EnumName(error)));
    }
    Ok(pixels)
}

#[allow(dead_code)] // `tests/renderer.rs` includes this file for `render`, not `main`.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init();
    let out = std::env::args().nth(1).unwrap_or_else(|| "renderer.png".into());
    let device = Device::headless()?;
    let pixels = render(&device, 3)?;
    let row = SIZE as usize * 4;
    let flipped: Vec<u8> = pixels.chunks_exact(row).rev().flatten().copied().collect();
    let mut encoder = png::Encoder::new(std::fs::File::create(&out)?, SIZE as u32, SIZE as u32);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(&flipped)?;
    println!("wrote {out} ({SIZE}x{SIZE})");
    Ok(())
}
