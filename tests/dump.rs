//! `Display` of a command list: one GL call per line, apitrace style, enums by name, array
//! contents shown and long arrays abbreviated. Needs no GL context: dumping reads the list.

use glcmd::{gl, CommandList};

#[test]
fn dump_of_a_list_with_arrays_strings_and_enums() {
    let mut list = CommandList::new();
    list.set_label("hdr pass");
    list.bind_texture(gl::TEXTURE_2D, 5);
    list.tex_parameteriv(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, &[gl::LINEAR as i32]);
    list.tex_parameterfv(gl::TEXTURE_2D, gl::TEXTURE_BORDER_COLOR, &[0.0, 0.5, 1.0, 1.0]);
    list.named_framebuffer_draw_buffers(3, &[gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT1]);
    list.shader_source(7, &["#version 450 core\n", "void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n"]);
    list.object_label(gl::PROGRAM, 9, "tonemap \"program\"");
    let identity: [f32; 16] = [1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1.];
    list.uniform_matrix4fv(2, false, &[identity]);
    list.uniform4f(3, 1.0, 0.25, 0.0, 1.0);
    let kib: Vec<u8> = (0..1024).map(|i| i as u8).collect();
    list.named_buffer_sub_data(4, 256, &kib);
    list.bind_textures(0, 2, None);
    list.enable(gl::BLEND);
    list.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
    list.clear(gl::COLOR_BUFFER_BIT | gl::DEPTH_BUFFER_BIT);
    list.draw_elements_instanced(gl::TRIANGLES, 36, gl::UNSIGNED_SHORT, 128, 10);
    list.delete_textures(&[5, 6]);
    let sync = list.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
    list.wait_sync(sync, 0, gl::TIMEOUT_IGNORED);
    insta::assert_snapshot!(list.to_string().replace(&format!("sync#{}", sync.id()), "sync#N"));
}
