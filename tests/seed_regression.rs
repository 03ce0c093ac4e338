//! The seed bug: `glNamedFramebufferDrawBuffers(fbo, 2, bufs)` recorded with a pointer to a
//! local `GLenum bufs[]` that is gone (stack reused, heap freed and reallocated) by the time the
//! list replays. glcmd copies array arguments at record time, so the deferred call must see
//! the values the caller passed.
//!
//! Checked by content: an MRT framebuffer (two RGBA16F attachments), a fragment shader writing
//! a different colour to each output, and both attachments read back.

mod common;

use std::hint::black_box;

use common::*;
use glcmd::{gl, CommandList};

const W: i32 = 8;
const H: i32 = 8;

const MRT_FS: &str = "#version 450 core
layout(location = 0) out vec4 out0;
layout(location = 1) out vec4 out1;
void main() {
    out0 = vec4(1.0, 0.25, 0.0, 1.0);
    out1 = vec4(0.0, 0.5, 0.75, 1.0);
}
";

/// Exactly representable in half floats.
const COLOR0: [f32; 4] = [1.0, 0.25, 0.0, 1.0];
const COLOR1: [f32; 4] = [0.0, 0.5, 0.75, 1.0];

/// Records the draw-buffer setup from a local array on this function's stack frame.
#[inline(never)]
fn record_draw_buffers_from_stack(list: &mut CommandList, fbo: u32) {
    let bufs = [gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT1];
    list.named_framebuffer_draw_buffers(fbo, black_box(&bufs));
}

/// Overwrites the stack region the array above lived in.
#[inline(never)]
fn scribble_stack() {
    let mut junk = [gl::NONE; 512];
    black_box(&mut junk);
    let mut junk2 = [0xDEAD_BEEFu32; 512];
    black_box(&mut junk2);
}

/// Records the draw-buffer setup from a heap array that is freed at once; the allocator then
/// hands the same memory to an array of garbage.
#[inline(never)]
fn record_draw_buffers_from_heap(list: &mut CommandList, fbo: u32) -> Vec<Vec<u32>> {
    let bufs = vec![gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT1];
    list.named_framebuffer_draw_buffers(fbo, &bufs);
    drop(bufs);
    (0..16).map(|_| black_box(vec![gl::NONE, 0xFFFF_FFFF])).collect()
}

fn mrt_setup(device: &glcmd::Device) -> (u32, u32, u32) {
    let fbo = device.create_framebuffers(1).unwrap()[0];
    let tex = device.create_textures(gl::TEXTURE_2D, 2).unwrap();
    let mut list = device.command_list();
    for (i, &t) in tex.iter().enumerate() {
        list.texture_storage_2d(t, 1, gl::RGBA16F, W, H);
        list.named_framebuffer_texture(fbo, gl::COLOR_ATTACHMENT0 + i as u32, t, 0);
    }
    device.submit(list).unwrap();
    assert_eq!(device.check_named_framebuffer_status(fbo, gl::FRAMEBUFFER).unwrap(), gl::FRAMEBUFFER_COMPLETE);
    let program = device_program(device, &[(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, MRT_FS)]);
    (fbo, program, device.create_vertex_arrays(1).unwrap()[0])
}

/// Records the draw (the draw-buffer setup is already in `list`).
fn record_draw(list: &mut CommandList, fbo: u32, program: u32, vao: u32) {
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.viewport(0, 0, W, H);
    // Both attachments cleared to black first (the clear goes to every draw buffer).
    list.clear_color(0.0, 0.0, 0.0, 0.0);
    list.clear(gl::COLOR_BUFFER_BIT);
    list.use_program(program);
    list.bind_vertex_array(vao);
    list.uniform2f(LOC_SIZE, W as f32, H as f32);
    list.uniform4f(LOC_RECT, 0.0, 0.0, W as f32, H as f32);
    list.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
}

fn read_attachment(device: &glcmd::Device, fbo: u32, attachment: u32) -> Vec<[f32; 4]> {
    let mut list = device.command_list();
    list.bind_framebuffer(gl::READ_FRAMEBUFFER, fbo);
    list.named_framebuffer_read_buffer(fbo, attachment);
    device.submit(list).unwrap();
    let bytes = device.readn_pixels(0, 0, W, H, gl::RGBA, gl::FLOAT, W * H * 16).unwrap();
    bytes
        .chunks_exact(16)
        .map(|p| std::array::from_fn(|i| f32::from_le_bytes(p[i * 4..i * 4 + 4].try_into().unwrap())))
        .collect()
}

fn check(device: &glcmd::Device, fbo: u32, what: &str) {
    // The draw-buffer state itself, as GL holds it.
    let mut list = device.command_list();
    list.bind_framebuffer(gl::DRAW_FRAMEBUFFER, fbo);
    device.submit(list).unwrap();
    assert_eq!(
        device.get_integerv(gl::DRAW_BUFFER0).unwrap(),
        vec![gl::COLOR_ATTACHMENT0 as i32],
        "{what}: GL_DRAW_BUFFER0"
    );
    assert_eq!(
        device.get_integerv(gl::DRAW_BUFFER1).unwrap(),
        vec![gl::COLOR_ATTACHMENT1 as i32],
        "{what}: GL_DRAW_BUFFER1"
    );

    for (attachment, expected) in [(gl::COLOR_ATTACHMENT0, COLOR0), (gl::COLOR_ATTACHMENT1, COLOR1)] {
        let pixels = read_attachment(device, fbo, attachment);
        for (i, p) in pixels.iter().enumerate() {
            assert_eq!(*p, expected, "{what}: attachment {attachment:#x}, pixel {i}");
        }
    }
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR, "{what}: GL error");
}

#[test]
fn draw_buffers_from_a_dead_stack_array() {
    let device = device();
    let (fbo, program, vao) = mrt_setup(&device);

    // Recorded on a thread that exits before the list is submitted: its whole stack is gone.
    let list = {
        let device = device.clone();
        std::thread::spawn(move || {
            let mut list = device.command_list();
            record_draw_buffers_from_stack(&mut list, fbo);
            scribble_stack();
            record_draw(&mut list, fbo, program, vao);
            list
        })
        .join()
        .unwrap()
    };
    scribble_stack();
    device.submit(list).unwrap();
    check(&device, fbo, "stack array, other thread");

    // Same thread, the array's frame overwritten by a deeper call before submission.
    let (fbo2, _, _) = mrt_setup(&device);
    let mut list = device.command_list();
    record_draw_buffers_from_stack(&mut list, fbo2);
    scribble_stack();
    record_draw(&mut list, fbo2, program, vao);
    scribble_stack();
    device.submit(list).unwrap();
    check(&device, fbo2, "stack array, same thread");
}

#[test]
fn draw_buffers_from_a_freed_heap_array() {
    let device = device();
    let (fbo, program, vao) = mrt_setup(&device);
    let mut list = device.command_list();
    let garbage = record_draw_buffers_from_heap(&mut list, fbo);
    record_draw(&mut list, fbo, program, vao);
    // Submitted as one slot of a multi-slot frame whose other slot arrives later, so the list
    // waits on the render thread while the garbage is alive.
    let frame = device.begin_frame(2).unwrap();
    frame.submit(1, list).unwrap();
    let empty = device.command_list();
    frame.submit(0, empty).unwrap();
    drop(frame);
    check(&device, fbo, "heap array");
    drop(garbage);
}
