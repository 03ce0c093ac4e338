//! Regression tests of "safe means safe" (issue 8): each reproduces, through safe code only, a
//! way the safe API could corrupt memory, crash, abort or lose data, and checks the outcome by
//! content (memory left untouched, pixels, GL state, the report that names the call). The
//! numbers in the test names are the items of the issue.
//!
//! Several of these crashed or corrupted memory at commit 1d3b607; CI also runs this binary
//! under valgrind memcheck (`.ci/valgrind.sh`).

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use common::*;
use glcmd::types::*;
use glcmd::{gl, Bytes, Device, DiagnosticOptions, Error, Options, Report, ReportKind};

fn skipped(device: &Device) -> Vec<Report> {
    device.reports().try_iter().filter(|r| r.kind == ReportKind::Skipped).collect()
}

/// A vertex array with nothing attached, and a 4x4 RGBA8 framebuffer bound for drawing with the
/// quad program.
fn draw_setup(device: &Device) -> (GLuint, GLuint, GLuint) {
    let program = device_program(device, &[(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, COLOR_FS)]);
    let fbo = device_fbo_rgba8(device, 4, 4);
    let vao = device.create_vertex_arrays(1).unwrap()[0];
    (program, fbo, vao)
}

/// Records what a draw of `draw_setup`'s objects needs: the framebuffer, the program with a
/// green full-viewport quad, the vertex array.
fn record_draw_state(list: &mut glcmd::CommandList, (program, fbo, vao): (GLuint, GLuint, GLuint)) {
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.viewport(0, 0, 4, 4);
    list.use_program(program);
    list.uniform4f(LOC_RECT, 0.0, 0.0, 4.0, 4.0);
    list.uniform2f(LOC_SIZE, 4.0, 4.0);
    list.uniform4f(LOC_COLOR, 0.0, 1.0, 0.0, 1.0);
    list.bind_vertex_array(vao);
}

// ---- 1. Offsets that become client pointers ------------------------------------------------

#[test]
fn item1_read_pixels_to_buffer_without_a_pack_buffer_writes_nothing() {
    let device = device();
    let fbo = device_fbo_rgba8(&device, 4, 4);
    let victim = vec![0x55u8; 256];
    let mut list = device.command_list();
    list.bind_framebuffer(gl::READ_FRAMEBUFFER, fbo);
    // The address of a live Vec, passed as an "offset": without a pack buffer, the GL would
    // write the pixels there.
    list.read_pixels_to_buffer(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, victim.as_ptr() as usize);
    list.readn_pixels_to_buffer(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, 64, victim.as_ptr() as usize);
    list.get_texture_image_to_buffer(1, 0, gl::RGBA, gl::UNSIGNED_BYTE, 64, victim.as_ptr() as usize);
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::INVALID_OPERATION, "a skipped command raises GL_INVALID_OPERATION");
    assert!(victim.iter().all(|&b| b == 0x55), "the Vec behind the offset was written");
    let reports = skipped(&device);
    assert_eq!(reports.len(), 3, "{reports:#?}");
    assert!(reports[0].call.starts_with("glReadPixels("), "{}", reports[0]);
    assert!(reports[0].message.contains("GL_PIXEL_PACK_BUFFER"), "{}", reports[0]);
    // The call and the missing binding are always named; the recording site too when sites are
    // tracked (item1_element_draw_without_an_element_buffer_is_skipped).
    assert_eq!(device.stats().refused, 3);
}

/// The shadow is read back after `with_gl` and `post`, which may bind behind glcmd's back: a
/// pack buffer bound there makes the next offset read a buffer write, and one unbound there
/// makes it a skipped command, never a write to the address the offset names.
#[test]
fn item1_the_shadow_follows_bindings_made_in_with_gl_and_post() {
    let device = device();
    let fbo = device_fbo_rgba8(&device, 4, 4);
    let buffer = device.create_buffer().unwrap();
    let mut list = device.command_list();
    list.named_buffer_storage(buffer, 64, None, gl::DYNAMIC_STORAGE_BIT);
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.clear_color(0.0, 1.0, 0.0, 1.0);
    list.clear(gl::COLOR_BUFFER_BIT);
    device.submit(list).unwrap();
    device.with_gl(move |g| unsafe { (g.BindBuffer)(gl::PIXEL_PACK_BUFFER, buffer) }).unwrap();
    let mut list = device.command_list();
    list.read_pixels_to_buffer(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, 0);
    device.submit(list).unwrap();
    assert!(skipped(&device).is_empty(), "the read ran into the buffer with_gl bound");
    let data = device.get_named_buffer_sub_data(buffer, 0, 64).unwrap();
    assert_eq!(&data[..8], &[0, 255, 0, 255, 0, 255, 0, 255]);
    device.post(|g| unsafe { (g.BindBuffer)(gl::PIXEL_PACK_BUFFER, 0) }).unwrap();
    #[allow(clippy::useless_vec)] // on the heap on purpose: corrupting it was the bug
    let victim = vec![0x55u8; 64];
    let mut list = device.command_list();
    list.read_pixels_to_buffer(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, victim.as_ptr() as usize);
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::INVALID_OPERATION);
    assert!(victim.iter().all(|&b| b == 0x55), "the Vec behind the offset was written");
    let reports = skipped(&device);
    assert_eq!(reports.len(), 1, "{reports:#?}");
    assert!(reports[0].message.contains("GL_PIXEL_PACK_BUFFER"), "{}", reports[0]);
}

#[test]
fn item1_read_pixels_to_buffer_with_a_pack_buffer_works() {
    let device = device();
    let fbo = device_fbo_rgba8(&device, 4, 4);
    let buffer = device.create_buffers(1).unwrap()[0];
    let mut list = device.command_list();
    list.named_buffer_storage(buffer, 64, None, gl::DYNAMIC_STORAGE_BIT);
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.clear_color(1.0, 0.0, 0.0, 1.0);
    list.clear(gl::COLOR_BUFFER_BIT);
    list.bind_buffer(gl::PIXEL_PACK_BUFFER, buffer);
    list.read_pixels_to_buffer(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, 0);
    list.bind_buffer(gl::PIXEL_PACK_BUFFER, 0);
    device.submit(list).unwrap();
    let data = device.get_named_buffer_sub_data(buffer, 0, 64).unwrap();
    assert_eq!(&data[..8], &[255, 0, 0, 255, 255, 0, 0, 255]);
    assert!(skipped(&device).is_empty());
}

/// Indirect draws and dispatches read their parameters at an offset into the buffer bound to
/// `GL_DRAW_INDIRECT_BUFFER` / `GL_DISPATCH_INDIRECT_BUFFER`: with none bound, the offset would
/// be an address, so each call is skipped and reported; with the buffer bound, the same draw runs.
#[test]
fn item1_indirect_draws_and_dispatches_without_their_buffer_are_skipped() {
    let device = device();
    let objects = draw_setup(&device);
    let (_, fbo, _) = objects;
    let setup = |list: &mut glcmd::CommandList| record_draw_state(list, objects);
    let mut list = device.command_list();
    setup(&mut list);
    list.draw_arrays_indirect(gl::TRIANGLE_STRIP, 0x1000);
    list.multi_draw_arrays_indirect(gl::TRIANGLE_STRIP, 0x1000, 2, 0);
    list.dispatch_compute_indirect(0x1000);
    device.submit(list).unwrap();
    assert!(device_read_rgba8(&device, fbo, 4, 4).iter().all(|&b| b == 0), "nothing was drawn");
    let reports = skipped(&device);
    assert_eq!(reports.len(), 3, "{reports:#?}");
    assert!(reports[0].call.starts_with("glDrawArraysIndirect("), "{}", reports[0]);
    assert!(reports[0].message.contains("GL_DRAW_INDIRECT_BUFFER"), "{}", reports[0]);
    assert!(reports[1].message.contains("GL_DRAW_INDIRECT_BUFFER"), "{}", reports[1]);
    assert!(reports[2].call.starts_with("glDispatchComputeIndirect("), "{}", reports[2]);
    assert!(reports[2].message.contains("GL_DISPATCH_INDIRECT_BUFFER"), "{}", reports[2]);
    // The same draw with its parameters in a bound buffer: count 4, 1 instance, first 0.
    let buffer = device.create_buffer().unwrap();
    let mut list = device.command_list();
    list.named_buffer_storage_from_slice(buffer, &[4u32, 1, 0, 0], 0);
    setup(&mut list);
    list.bind_buffer(gl::DRAW_INDIRECT_BUFFER, buffer);
    list.draw_arrays_indirect(gl::TRIANGLE_STRIP, 0);
    list.bind_buffer(gl::DRAW_INDIRECT_BUFFER, 0);
    device.submit(list).unwrap();
    let pixels = device_read_rgba8(&device, fbo, 4, 4);
    assert!(pixels.chunks(4).all(|p| p == [0, 255, 0, 255]), "{pixels:?}");
    assert!(skipped(&device).is_empty());
}

#[test]
fn item1_element_draw_without_an_element_buffer_is_skipped() {
    let device = Device::with_options(Options::default().track_sites(true)).unwrap();
    let objects = draw_setup(&device);
    let (_, fbo, vao) = objects;
    let mut list = device.command_list();
    record_draw_state(&mut list, objects);
    // Offset 16 with no element buffer: the driver would read indices at address 16.
    list.draw_elements(gl::TRIANGLE_STRIP, 4, gl::UNSIGNED_INT, 16);
    let line = line!() - 1;
    list.draw_elements_instanced(gl::TRIANGLE_STRIP, 4, gl::UNSIGNED_INT, 32, 1);
    list.draw_range_elements(gl::TRIANGLE_STRIP, 0, 3, 4, gl::UNSIGNED_SHORT, 8);
    list.multi_draw_elements(gl::TRIANGLE_STRIP, &[4, 4], gl::UNSIGNED_INT, &[16, 64]);
    device.submit(list).unwrap();
    let pixels = device_read_rgba8(&device, fbo, 4, 4);
    assert!(pixels.iter().all(|&b| b == 0), "nothing was drawn");
    let reports = skipped(&device);
    assert_eq!(reports.len(), 4, "{reports:#?}");
    assert!(reports[0].call.starts_with("glDrawElements("), "{}", reports[0]);
    assert!(reports[0].message.contains("GL_ELEMENT_ARRAY_BUFFER"), "{}", reports[0]);
    assert_eq!(reports[0].site.map(|s| s.line()), Some(line), "{}", reports[0]);

    // With an element buffer the same draw works.
    let indices = device.create_buffers(1).unwrap()[0];
    let mut list = device.command_list();
    let data: Vec<u8> = [0u32, 1, 2, 3].iter().flat_map(|i| i.to_ne_bytes()).collect();
    list.named_buffer_data(indices, 16, Some(&data), gl::STATIC_DRAW);
    list.vertex_array_element_buffer(vao, indices);
    record_draw_state(&mut list, objects);
    list.draw_elements(gl::TRIANGLE_STRIP, 4, gl::UNSIGNED_INT, 0);
    device.submit(list).unwrap();
    let pixels = device_read_rgba8(&device, fbo, 4, 4);
    assert_eq!(&pixels[..4], &[0, 255, 0, 255]);
    assert!(skipped(&device).is_empty());
}

#[test]
fn item1_compressed_upload_from_an_offset_without_an_unpack_buffer_is_skipped() {
    let device = device();
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let victim = vec![7u8; 4096];
    let mut list = device.command_list();
    list.texture_storage_2d(texture, 1, gl::COMPRESSED_RGBA_S3TC_DXT1_EXT, 4, 4);
    list.compressed_texture_sub_image_2d(
        texture,
        0,
        0,
        0,
        4,
        4,
        gl::COMPRESSED_RGBA_S3TC_DXT1_EXT,
        8,
        Bytes::BufferOffset(victim.as_ptr() as usize),
    );
    device.submit(list).unwrap();
    device.get_error().unwrap();
    let reports = skipped(&device);
    assert_eq!(reports.len(), 1, "{reports:#?}");
    assert!(reports[0].message.contains("GL_PIXEL_UNPACK_BUFFER"), "{}", reports[0]);
}

#[test]
fn item1_client_data_is_read_as_client_data_while_an_unpack_buffer_is_bound() {
    let device = device();
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let unpack = device.create_buffers(1).unwrap()[0];
    let pixels: Vec<u8> = (0..64).map(|i| i as u8 * 3).collect();
    let mut list = device.command_list();
    list.named_buffer_storage(unpack, 64, None, 0);
    list.texture_storage_2d(texture, 1, gl::RGBA8, 4, 4);
    // A bound unpack buffer would turn the slice's address into an offset into it.
    list.bind_buffer(gl::PIXEL_UNPACK_BUFFER, unpack);
    // 4x4 RGBA8 needs 64 bytes, the slice holds 64 (checked by the recording method).
    list.texture_sub_image_2d(texture, 0, 0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, Bytes::Slice(&pixels));
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    // The binding is back after the call.
    assert_eq!(device.get_integerv(gl::PIXEL_UNPACK_BUFFER_BINDING).unwrap(), vec![unpack as GLint]);
    let mut list = device.command_list();
    list.bind_buffer(gl::PIXEL_UNPACK_BUFFER, 0);
    device.submit(list).unwrap();
    let read = device.get_texture_image(texture, 0, gl::RGBA, gl::UNSIGNED_BYTE, 64).unwrap();
    assert_eq!(read, pixels);
}

#[test]
fn item1_attribute_pointer_without_an_array_buffer_is_skipped_and_so_is_the_draw() {
    let device = device();
    let (program, fbo, vao) = draw_setup(&device);
    let mut list = device.command_list();
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.use_program(program);
    list.bind_vertex_array(vao);
    list.enable_vertex_attrib_array(0);
    // No GL_ARRAY_BUFFER: 0x1000 would become the attribute's client pointer.
    list.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 0, 0x1000);
    // The attribute is enabled and reads no buffer: a client array.
    list.draw_arrays(gl::TRIANGLES, 0, 3);
    device.submit(list).unwrap();
    device.get_error().unwrap();
    let reports = skipped(&device);
    assert_eq!(reports.len(), 2, "{reports:#?}");
    assert!(reports[0].call.starts_with("glVertexAttribPointer("), "{}", reports[0]);
    assert!(reports[1].call.starts_with("glDrawArrays("), "{}", reports[1]);
    assert!(reports[1].message.contains("attribute 0"), "{}", reports[1]);
}

#[test]
fn item1_deleting_a_buffer_attached_to_the_current_vertex_array_makes_its_draws_safe() {
    let device = device();
    let (program, fbo, vao) = draw_setup(&device);
    let buffer = device.create_buffers(1).unwrap()[0];
    let mut list = device.command_list();
    list.named_buffer_storage(buffer, 4096, None, 0);
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.use_program(program);
    list.bind_vertex_array(vao);
    list.bind_buffer(gl::ARRAY_BUFFER, buffer);
    list.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 0, 0x100);
    list.enable_vertex_attrib_array(0);
    list.draw_arrays(gl::TRIANGLES, 0, 3);
    // Deleting the buffer detaches it from the bound vertex array: its offset 0x100 would then
    // be a client pointer.
    list.delete_buffers(&[buffer]);
    device.submit(list).unwrap();
    let mut list = device.command_list();
    list.draw_arrays(gl::TRIANGLES, 0, 3);
    device.submit(list).unwrap();
    device.get_error().unwrap();
    let reports = skipped(&device);
    assert_eq!(reports.len(), 1, "{reports:#?}");
    assert!(reports[0].call.starts_with("glDrawArrays("), "{}", reports[0]);
}

#[test]
fn item1_robust_access_is_an_option_that_the_context_reports() {
    let plain = device();
    assert!(!plain.robust_access());
    let robust = Device::with_options(Options::default().robust_access(true)).unwrap();
    // llvmpipe offers EGL_EXT_create_context_robustness; the flag is read back from the GL.
    assert!(robust.robust_access(), "llvmpipe's EGL offers robust access");
    let flags = robust.get_integerv(gl::CONTEXT_FLAGS).unwrap()[0] as u32;
    assert_ne!(flags & gl::CONTEXT_FLAG_ROBUST_ACCESS_BIT, 0);
}

// ---- 2. Query buffers smaller than what the driver writes ----------------------------------

#[test]
fn item2_current_vertex_attrib_integer_queries_return_four_values() {
    let device = device();
    let vao = device.create_vertex_arrays(1).unwrap()[0];
    let mut list = device.command_list();
    list.bind_vertex_array(vao);
    list.vertex_attrib_i4i(3, -1, 2, -3, 4);
    list.vertex_attrib_i4ui(4, 5, 6, 7, 8);
    device.submit(list).unwrap();
    assert_eq!(device.get_vertex_attrib_iiv(3, gl::CURRENT_VERTEX_ATTRIB).unwrap(), vec![-1, 2, -3, 4]);
    assert_eq!(device.get_vertex_attrib_iuiv(4, gl::CURRENT_VERTEX_ATTRIB).unwrap(), vec![5, 6, 7, 8]);
    assert_eq!(device.get_vertex_attrib_iiv(3, gl::VERTEX_ATTRIB_ARRAY_ENABLED).unwrap(), vec![0]);
}

#[test]
fn item2_program_resource_queries_size_variable_length_properties_themselves() {
    let device = device();
    const VS: &str = "#version 450 core\nlayout(std140, binding = 0) uniform Block { vec4 a; vec4 b; vec4 c; } block;\nvoid main() { gl_Position = block.a + block.b + block.c; }\n";
    const FS: &str = "#version 450 core\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n";
    let program = device_program(&device, &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)]);
    let block = device.get_program_resource_index(program, gl::UNIFORM_BLOCK, "Block").unwrap();
    // Mesa writes every active variable whatever `count` says; glcmd asks for the count first.
    let values = device
        .get_program_resourceiv(program, gl::UNIFORM_BLOCK, block, &[gl::NUM_ACTIVE_VARIABLES, gl::ACTIVE_VARIABLES])
        .unwrap();
    assert_eq!(values[0], 3, "{values:?}");
    assert_eq!(values.len(), 4, "the count, then the three members: {values:?}");
    let mut members = values[1..].to_vec();
    members.sort();
    members.dedup();
    assert_eq!(members.len(), 3);
    // A property glcmd does not know goes to the GL (with room for 16 values), which refuses
    // it as directly: GL_INVALID_ENUM, nothing written.
    let unknown = device.get_program_resourceiv(program, gl::UNIFORM_BLOCK, block, &[0x1234]).unwrap();
    assert!(unknown.is_empty(), "{unknown:?}");
    let through = device.get_error().unwrap();
    let direct = device
        .with_gl(move |g| {
            let (prop, mut v, mut length) = (0x1234u32, [-7i32; 16], -3);
            unsafe {
                (g.GetProgramResourceiv)(program, gl::UNIFORM_BLOCK, block, 1, &prop, 16, &mut length, v.as_mut_ptr());
                ((g.GetError)(), length, v)
            }
        })
        .unwrap();
    assert_eq!(through, direct.0);
    assert_eq!(direct.0, gl::INVALID_ENUM);
    assert_eq!((direct.1, direct.2), (-3, [-7; 16]), "the GL writes nothing for an unknown property");
}

// ---- 3. Sizes passed through unchecked ------------------------------------------------------

#[test]
fn item3_zero_and_negative_sizes() {
    let device = device();
    let program = device_program(&device, &[(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, COLOR_FS)]);
    // A zero size gets a real buffer (the driver writes the NUL there).
    let (_size, _ty, name) = device.get_active_uniform(program, 0, 0).unwrap();
    assert_eq!(name, "");
    assert_eq!(device.get_active_uniform_name(program, 0, 0).unwrap(), "");
    assert_eq!(device.get_program_resource_name(program, gl::UNIFORM, 0, 0).unwrap(), "");
    assert!(device.get_program_info_log(program, 0).unwrap().is_empty());
    // A negative size is an error before anything reaches the GL.
    for r in [
        device.readn_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, -1).map(|_| ()),
        device.get_active_uniform_name(program, 0, -5).map(|_| ()),
        device.get_internalformati64v(gl::TEXTURE_2D, gl::RGBA8, gl::NUM_SAMPLE_COUNTS, -1).map(|_| ()),
    ] {
        assert!(matches!(r, Err(Error::InvalidArgument { value: _, .. })), "{r:?}");
    }
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let r = device.get_texture_image(texture, 0, gl::RGBA, gl::UNSIGNED_BYTE, -1);
    assert!(matches!(r, Err(Error::InvalidArgument { argument: "buf_size", value: -1, .. })), "{r:?}");
    let r = device.get_texture_sub_image(texture, 0, 0, 0, 0, 1, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, -1);
    assert!(matches!(r, Err(Error::InvalidArgument { .. })), "{r:?}");
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR, "nothing reached the GL");
}

// ---- 4. Public functions that could call arbitrary addresses ------------------------------

#[test]
fn item4_no_context_can_be_made_on_the_render_thread() {
    let device = device();
    let r = device.with_gl(|_| glcmd::context::GlContext::headless().map(|_| ()).map_err(|e| e.to_string())).unwrap();
    assert!(r.unwrap_err().contains("render thread"));
    // The render thread still has its context.
    let fbo = device_fbo_rgba8(&device, 2, 2);
    assert_ne!(fbo, 0);
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
}

// ---- 5. Use after free while the render thread unwinds -------------------------------------

#[test]
fn item5_values_dropped_while_the_render_thread_unwinds_cannot_reach_the_context() {
    struct CallsOnDrop(Device, mpsc::Sender<String>);
    impl Drop for CallsOnDrop {
        fn drop(&mut self) {
            // Runs on the render thread while it unwinds: must get an error, not a freed table.
            let r = self.0.get_integerv(gl::VIEWPORT);
            let _ = self.1.send(format!("{r:?}"));
        }
    }
    let device = device();
    let (tx, rx) = mpsc::channel();
    let capture = CallsOnDrop(device.clone(), tx);
    device
        .set_debug_callback(move |_| {
            let _ = &capture;
        })
        .unwrap();
    let lost = device.with_gl(|_| panic!("injected"));
    assert!(matches!(lost, Err(Error::DeviceLost { .. })));
    let answer = rx.recv_timeout(Duration::from_secs(30)).expect("the capture was dropped");
    assert!(answer.contains("DeviceLost"), "{answer}");
}

// ---- 6. Truncations at the edges -----------------------------------------------------------

#[test]
fn item6_a_label_longer_than_the_gl_allows_keeps_debug_groups_balanced() {
    let device = device();
    let max = device.get_integerv(gl::MAX_LABEL_LENGTH).unwrap()[0] as usize;
    let groups = Arc::new(AtomicUsize::new(0));
    let g = groups.clone();
    device
        .set_debug_callback(move |m| {
            if m.kind == gl::DEBUG_TYPE_PUSH_GROUP {
                g.fetch_add(1, Ordering::SeqCst);
            }
        })
        .unwrap();
    // The application's own group, open across lists.
    let mut list = device.command_list();
    list.push_debug_group(gl::DEBUG_SOURCE_APPLICATION, 1, "outer");
    device.submit(list).unwrap();
    let mut list = device.command_list();
    list.set_label(&"é".repeat(max * 2)); // longer than GL_MAX_LABEL_LENGTH, multi-byte
    list.enable(gl::BLEND);
    device.submit(list).unwrap();
    let mut list = device.command_list();
    list.pop_debug_group();
    device.submit(list).unwrap();
    // A failed push with a pop that still ran would have popped "outer": the last pop would
    // then underflow the stack.
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    assert_eq!(groups.load(Ordering::SeqCst), 2, "both groups were pushed");
}

// ---- 7. Aborts ------------------------------------------------------------------------------

#[test]
fn item7_huge_sizes_are_errors_not_aborts() {
    let device = device();
    assert!(matches!(device.begin_frame(u32::MAX as usize), Err(Error::TooManySlots { .. })));
    assert!(matches!(device.begin_frame(1 << 32), Err(Error::TooManySlots { .. })));
    let buffer = device.create_buffers(1).unwrap()[0];
    let mut list = device.command_list();
    list.named_buffer_storage(buffer, 16, None, gl::DYNAMIC_STORAGE_BIT);
    device.submit(list).unwrap();
    let r = device.get_named_buffer_sub_data(buffer, 0, 1 << 40);
    assert!(matches!(r, Err(Error::OutOfMemory { .. })), "{r:?}");
    // The device is not stuck: refused frames used no frame number.
    let frame = device.begin_frame(1).unwrap();
    frame.submit(0, device.command_list()).unwrap();
    drop(frame);
    assert_eq!(device.get_named_buffer_sub_data(buffer, 0, 16).unwrap().len(), 16);
}

// ---- 8. Silent loss -------------------------------------------------------------------------

#[test]
fn item8_a_high_slot_submitted_twice_is_an_error() {
    let device = device();
    let frame = device.begin_frame(300).unwrap();
    frame.submit(299, device.command_list()).unwrap();
    assert!(matches!(
        frame.submit(299, device.command_list()),
        Err(glcmd::SubmitError { error: Error::SlotTaken { slot: 299 }, .. })
    ));
    for slot in 0..299 {
        frame.submit(slot, device.command_list()).unwrap();
    }
}

#[test]
fn item8_readn_pixels_reads_pixels_while_a_pack_buffer_is_bound() {
    let device = device();
    let fbo = device_fbo_rgba8(&device, 2, 2);
    let pack = device.create_buffers(1).unwrap()[0];
    let mut list = device.command_list();
    list.named_buffer_storage(pack, 64, Some(&[9u8; 64]), gl::DYNAMIC_STORAGE_BIT);
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.clear_color(0.0, 0.0, 1.0, 1.0);
    list.clear(gl::COLOR_BUFFER_BIT);
    list.bind_framebuffer(gl::READ_FRAMEBUFFER, fbo);
    list.bind_buffer(gl::PIXEL_PACK_BUFFER, pack);
    device.submit(list).unwrap();
    assert_eq!(device.readn_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, 4).unwrap(), vec![0, 0, 255, 255]);
    // A bufSize too small for the pixel: the GL refuses the read (GL_INVALID_OPERATION) and
    // writes nothing, neither into the result nor into the pack buffer.
    let e = device.readn_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, 0).unwrap_err();
    assert_eq!(e.gl_error(), Some(gl::INVALID_OPERATION), "{e}");
    assert_eq!(device.get_error().unwrap(), gl::INVALID_OPERATION);
    // The pack buffer is untouched and still bound.
    assert_eq!(device.get_named_buffer_sub_data(pack, 0, 64).unwrap(), vec![9u8; 64]);
    assert_eq!(device.get_integerv(gl::PIXEL_PACK_BUFFER_BINDING).unwrap(), vec![pack as GLint]);
}

#[test]
fn item8_a_function_the_context_lacks_is_an_error_the_caller_sees() {
    let device = device();
    let program = device_program(&device, &[(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, COLOR_FS)]);
    // llvmpipe (Mesa 22.3) reports 4.5 but has no glGetnUniformdv; it has the ARB variant.
    let r = device.getn_uniformdv(program, LOC_COLOR, 32);
    match r {
        Err(Error::Unavailable { function: "glGetnUniformdv", .. }) => {}
        Ok(v) => {
            // A driver that has it answers for real.
            assert_eq!(v.len(), 4);
        }
        other => panic!("{other:?}"),
    }
    // A recorded call of a function the context lacks is reported, not silently dropped.
    // (An NV function: built when the `vendor` feature is on, as in `cargo test --workspace`.)
    #[cfg(feature = "vendor")]
    recorded_unavailable_is_reported(&device);
}

/// A recorded call of a function the context lacks raises `GL_INVALID_OPERATION`, as Mesa's
/// dispatch does for it (`_mesa_generic_nop`) and as an unavailable query does, in the GL's
/// one-flag order: an error raised before it is returned first, one raised after it is dropped.
#[test]
fn item8_a_recorded_call_the_context_lacks_raises_invalid_operation_in_order() {
    let device = device();
    let shader = device.create_shader(gl::VERTEX_SHADER).unwrap();
    let specialize = |l: &mut glcmd::CommandList| l.specialize_shader(shader, "main", &[], &[]);
    let mut list = device.command_list();
    specialize(&mut list);
    device.submit(list).unwrap();
    let first = device.get_error().unwrap();
    let lacks = device.reports().try_iter().any(|r| r.kind == ReportKind::Unavailable);
    if !lacks {
        // A GL 4.6 driver has it: its own answer (the shader has no SPIR-V binary) stands.
        assert_eq!(first, gl::INVALID_OPERATION);
        return;
    }
    assert_eq!(first, gl::INVALID_OPERATION);
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR, "returned once");
    for (before, expected) in [(true, gl::INVALID_ENUM), (false, gl::INVALID_OPERATION)] {
        let mut list = device.command_list();
        if before {
            list.enable(0xFFFF);
        }
        specialize(&mut list);
        if !before {
            list.enable(0xFFFF);
        }
        device.submit(list).unwrap();
        assert_eq!(device.get_error().unwrap(), expected, "bad enable before the call: {before}");
        assert_eq!(device.get_error().unwrap(), gl::NO_ERROR, "one flag: the other error is dropped");
    }
}

#[cfg(feature = "vendor")]
fn recorded_unavailable_is_reported(device: &Device) {
    let mut list = device.command_list();
    list.path_parameteri_nv(1, gl::PATH_STROKE_WIDTH_NV, 2);
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::INVALID_OPERATION, "as the GL's dispatch raises for it");
    let unavailable: Vec<Report> = device.reports().try_iter().filter(|r| r.kind == ReportKind::Unavailable).collect();
    assert_eq!(unavailable.len(), 1, "{unavailable:#?}");
    assert!(unavailable[0].message.contains("glPathParameteriNV"), "{}", unavailable[0]);
}

#[test]
fn item8_the_debug_message_log_returns_every_message() {
    let device = device();
    // No callback is installed, so messages go to the log.
    let mut list = device.command_list();
    list.enable(gl::DEBUG_OUTPUT);
    for (id, text) in [(1, "first"), (2, "second message"), (3, "third")] {
        list.debug_message_insert(
            gl::DEBUG_SOURCE_APPLICATION,
            gl::DEBUG_TYPE_MARKER,
            id,
            gl::DEBUG_SEVERITY_HIGH,
            text,
        );
    }
    device.submit(list).unwrap();
    let messages = device.get_debug_message_log(10).unwrap();
    let texts: Vec<(u32, &str)> = messages.iter().map(|m| (m.id, m.message.as_str())).collect();
    assert_eq!(texts, vec![(1, "first"), (2, "second message"), (3, "third")]);
}

// ---- 9. A debug callback that fails must not recurse ---------------------------------------

#[test]
fn item9_a_debug_callback_whose_own_query_fails_does_not_recurse() {
    let device = device();
    let calls = Arc::new(AtomicUsize::new(0));
    let (c, d) = (calls.clone(), device.clone());
    device
        .set_debug_callback(move |_| {
            c.fetch_add(1, Ordering::SeqCst);
            // Raises GL_INVALID_ENUM itself: a message while the callback runs.
            let _ = d.get_tex_parameteriv(0xBAD, gl::TEXTURE_MIN_FILTER);
        })
        .unwrap();
    let mut list = device.command_list();
    list.enable(0x1234);
    device.submit(list).unwrap();
    device.get_error().unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_eq!(device.get_integerv(gl::MAX_TEXTURE_SIZE).unwrap().len(), 1, "the device is alive");
}

// ---- 10. Diagnostics that lie ---------------------------------------------------------------

fn diag_device() -> Device {
    Device::with_options(Options::default().diagnostics(DiagnosticOptions::default().track_deletes(true))).unwrap()
}

fn use_after_delete(device: &Device) -> Vec<Report> {
    device.get_error().unwrap();
    device.reports().try_iter().filter(|r| r.kind == ReportKind::UseAfterDelete).collect()
}

#[test]
fn item10_a_use_in_a_later_slot_of_the_deleting_frame_is_legal() {
    let device = diag_device();
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let frame = device.begin_frame(2).unwrap();
    let mut a = device.command_list();
    a.delete_textures(&[texture]);
    let mut b = device.command_list();
    b.bind_texture(gl::TEXTURE_2D, texture);
    frame.submit(0, a).unwrap();
    frame.submit(1, b).unwrap();
    drop(frame);
    assert!(use_after_delete(&device).is_empty());
    // After the frame the delete has run: a use is reported.
    let mut c = device.command_list();
    c.bind_texture(gl::TEXTURE_2D, texture);
    device.submit(c).unwrap();
    assert_eq!(use_after_delete(&device).len(), 1);
}

#[test]
fn item10_uses_through_copy_image_and_wait_sync_are_reported() {
    let device = diag_device();
    let t = device.create_textures(gl::TEXTURE_2D, 2).unwrap();
    let mut list = device.command_list();
    for &x in &t {
        list.texture_storage_2d(x, 1, gl::RGBA8, 4, 4);
    }
    let sync = list.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
    list.delete_textures(&[t[0]]);
    list.delete_sync(sync);
    device.submit(list).unwrap();
    let mut list = device.command_list();
    list.copy_image_sub_data(t[0], gl::TEXTURE_2D, 0, 0, 0, 0, t[1], gl::TEXTURE_2D, 0, 0, 0, 0, 4, 4, 1);
    list.wait_sync(sync, 0, gl::TIMEOUT_IGNORED);
    device.submit(list).unwrap();
    let reports = use_after_delete(&device);
    assert_eq!(reports.len(), 2, "{reports:#?}");
    assert!(reports[0].call.starts_with("glCopyImageSubData") && reports[0].message.contains("texture"));
    assert!(reports[1].call.starts_with("glWaitSync") && reports[1].message.contains("sync"));
}

#[test]
fn item10_turning_site_tracking_on_mid_list_attributes_later_errors_correctly() {
    let device =
        Device::with_options(Options::default().diagnostics(DiagnosticOptions::default().strict(true))).unwrap();
    let mut list = glcmd::CommandList::new();
    list.enable(gl::BLEND);
    list.enable(gl::DEPTH_TEST);
    list.track_sites(true);
    list.disable(gl::BLEND);
    list.enable(0x1234);
    let line = line!() - 1;
    device.submit(list).unwrap();
    device.get_error().unwrap();
    let errors: Vec<Report> = device.reports().try_iter().filter(|r| r.kind == ReportKind::GlError).collect();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].index, Some(3));
    assert_eq!(errors[0].site.map(|s| s.line()), Some(line), "{}", errors[0]);
}

#[test]
fn item10_the_deleted_names_map_and_the_reports_queue_are_bounded() {
    let device = Device::with_options(
        Options::default()
            .diagnostics(DiagnosticOptions::default().track_deletes(true).deleted_names_kept(64))
            .report_capacity(8),
    )
    .unwrap();
    for _ in 0..20 {
        let names = device.create_buffers(50).unwrap();
        let mut list = device.command_list();
        list.delete_buffers(&names);
        device.submit(list).unwrap();
    }
    let stats = device.wait_frames(device.stats().frames.max(20)).unwrap();
    assert!(stats.deleted_names <= 64, "{} names remembered", stats.deleted_names);
    // 100 reports, nobody reading: 8 are kept, the rest counted.
    let mut list = device.command_list();
    for _ in 0..100 {
        list.draw_arrays(gl::TRIANGLES, 0, 3); // no vertex array bound: skipped and reported
    }
    device.submit(list).unwrap();
    device.get_error().unwrap();
    let stats = device.stats();
    assert_eq!(stats.reports_dropped, 92, "{stats:?}");
    assert_eq!(device.reports().try_iter().count(), 8);
}

// ---- Round 2 (issue 16), item 1: the shadow follows what the GL accepted -------------------

/// The attack of issue 16, item 1: attribute 0 holds offset `x` of an array buffer, the buffer
/// is deleted while the vertex array is bound (the GL keeps `x` as a client pointer), then a
/// multi-bind the GL refuses for that entry (a negative offset) names a real buffer. The shadow
/// must not believe binding 0 has a buffer: the next draw is skipped, and the audit finds the
/// shadow claims nothing the GL lacks. `dsa`: the `glVertexArrayVertexBuffers` form.
fn refused_multi_bind_after_delete(dsa: bool) {
    let device = device();
    let objects = draw_setup(&device);
    let (_, _, vao) = objects;
    let [attached, other] = device.create_buffers(2).unwrap()[..] else { unreachable!() };
    let mut list = device.command_list();
    list.named_buffer_storage(attached, 4096, None, 0);
    list.named_buffer_storage(other, 4096, None, 0);
    record_draw_state(&mut list, objects);
    list.bind_buffer(gl::ARRAY_BUFFER, attached);
    list.vertex_attrib_pointer(0, 4, gl::FLOAT, false, 0, 0x1000);
    list.enable_vertex_attrib_array(0);
    list.bind_buffer(gl::ARRAY_BUFFER, 0);
    list.delete_buffers(&[attached]);
    device.submit(list).unwrap();
    let mut list = device.command_list();
    if dsa {
        list.vertex_array_vertex_buffers(vao, 0, 1, Some(&[other]), &[-16], &[16]);
    } else {
        list.bind_vertex_buffers(0, 1, Some(&[other]), &[-16], &[16]);
    }
    list.draw_arrays(gl::TRIANGLES, 0, 3);
    device.submit(list).unwrap();
    // The GL's error for the entry, and glcmd's for the draw it skipped.
    let errors = [device.get_error().unwrap(), device.get_error().unwrap()];
    assert!(errors.contains(&gl::INVALID_VALUE), "the GL refused the entry: {errors:x?}");
    assert_eq!(device.get_integeri_v(gl::VERTEX_BINDING_BUFFER, 0).unwrap(), vec![0], "the GL kept no buffer");
    let reports = skipped(&device);
    assert_eq!(reports.len(), 1, "{reports:#?}");
    assert!(reports[0].call.starts_with("glDrawArrays("), "{}", reports[0]);
    assert!(reports[0].message.contains("attribute 0"), "{}", reports[0]);
    assert_eq!(device.audit_binding_shadow().unwrap(), Vec::<String>::new());
}

#[test]
fn round2_item1_a_refused_multi_bind_entry_is_not_believed() {
    refused_multi_bind_after_delete(false);
}

#[test]
fn round2_item1_a_refused_dsa_multi_bind_entry_is_not_believed() {
    refused_multi_bind_after_delete(true);
}

/// A multi-bind the GL refuses whole (`first + count` past `GL_MAX_VERTEX_ATTRIB_BINDINGS`)
/// changes nothing, in the GL and in the shadow.
#[test]
fn round2_item1_a_multi_bind_refused_whole_changes_nothing() {
    let device = device();
    let objects = draw_setup(&device);
    let buffer = device.create_buffer().unwrap();
    let max = device.get_integerv(gl::MAX_VERTEX_ATTRIB_BINDINGS).unwrap()[0] as u32;
    let mut list = device.command_list();
    list.named_buffer_storage(buffer, 4096, None, 0);
    record_draw_state(&mut list, objects);
    list.enable_vertex_attrib_array(0);
    list.vertex_attrib_binding(0, max - 1);
    list.bind_vertex_buffers(max - 1, 2, Some(&[buffer, buffer]), &[0, 0], &[16, 16]);
    list.draw_arrays(gl::TRIANGLES, 0, 3);
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::INVALID_OPERATION);
    let reports = skipped(&device);
    assert_eq!(reports.len(), 1, "the draw reads a client array: {reports:#?}");
    assert_eq!(device.audit_binding_shadow().unwrap(), Vec::<String>::new());
}

// ---- Round 2 (issue 16), item 2: every offset is a checked range ---------------------------

/// A 4x4 draw whose commands sit in a buffer of exactly one DrawArraysIndirectCommand (count
/// 4, one instance), bound to `GL_DRAW_INDIRECT_BUFFER`.
fn indirect_setup(device: &Device) -> ((GLuint, GLuint, GLuint), GLuint) {
    let objects = draw_setup(device);
    let buffer = device.create_buffer().unwrap();
    let mut list = device.command_list();
    list.named_buffer_storage_from_slice(buffer, &[4u32, 1, 0, 0], 0);
    device.submit(list).unwrap();
    (objects, buffer)
}

#[test]
fn round2_item2_indirect_offsets_near_2_64_are_refused() {
    let device = device();
    let (objects, buffer) = indirect_setup(&device);
    let mut list = device.command_list();
    record_draw_state(&mut list, objects);
    list.bind_buffer(gl::DRAW_INDIRECT_BUFFER, buffer);
    list.bind_buffer(gl::DISPATCH_INDIRECT_BUFFER, buffer);
    let near_end = usize::MAX - 15; // read as a GLintptr: -16, and -16 + 16 = 0 passes a wrapping check
    list.draw_arrays_indirect(gl::TRIANGLE_STRIP, near_end);
    list.multi_draw_arrays_indirect(gl::TRIANGLE_STRIP, near_end, 1, 0);
    list.draw_arrays_indirect(gl::TRIANGLE_STRIP, 4); // 4 + 16 > 16 bytes of storage
    list.dispatch_compute_indirect(i64::MAX as isize - 4);
    list.dispatch_compute_indirect(8); // 8 + 12 > 16
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::INVALID_OPERATION);
    let reports = skipped(&device);
    assert_eq!(reports.len(), 5, "{reports:#?}");
    for r in &reports {
        assert!(r.message.contains("bytes at offset"), "{r}");
    }
    assert!(reports[0].message.contains("GL_DRAW_INDIRECT_BUFFER"), "{}", reports[0]);
    assert!(reports[3].message.contains("GL_DISPATCH_INDIRECT_BUFFER"), "{}", reports[3]);
}

#[test]
fn round2_item2_multi_draw_counts_whose_32_bit_product_wraps_are_refused() {
    let device = device();
    let (objects, buffer) = indirect_setup(&device);
    let (_, fbo, _) = objects;
    let mut list = device.command_list();
    record_draw_state(&mut list, objects);
    list.bind_buffer(gl::DRAW_INDIRECT_BUFFER, buffer);
    // (2^28 + 1 - 1) * 16 = 2^32: 0 in 32 bits, so a driver that multiplies in 32 bits reads
    // 16 bytes it thinks fit, and then 2^28 + 1 commands.
    list.multi_draw_arrays_indirect(gl::TRIANGLE_STRIP, 0, (1 << 28) + 1, 16);
    list.multi_draw_arrays_indirect(gl::TRIANGLE_STRIP, 0, 2, 0); // 32 bytes from a buffer of 16
    list.multi_draw_arrays_indirect(gl::TRIANGLE_STRIP, 0, 2, -16); // reads before the offset
    device.submit(list).unwrap();
    device.get_error().unwrap();
    let reports = skipped(&device);
    assert_eq!(reports.len(), 3, "{reports:#?}");
    assert!(device_read_rgba8(&device, fbo, 4, 4).iter().all(|&b| b == 0), "nothing was drawn");
    // The one command the buffer holds draws.
    let mut list = device.command_list();
    record_draw_state(&mut list, objects);
    list.bind_buffer(gl::DRAW_INDIRECT_BUFFER, buffer);
    list.multi_draw_arrays_indirect(gl::TRIANGLE_STRIP, 0, 1, 16);
    device.submit(list).unwrap();
    let pixels = device_read_rgba8(&device, fbo, 4, 4);
    assert!(pixels.chunks(4).all(|p| p == [0, 255, 0, 255]), "{pixels:?}");
    assert!(skipped(&device).is_empty());
}

#[test]
fn round2_item2_element_draws_read_only_inside_the_element_buffer() {
    let device = device();
    let objects = draw_setup(&device);
    let (_, fbo, vao) = objects;
    let elements = device.create_buffer().unwrap();
    let mut list = device.command_list();
    list.named_buffer_storage_from_slice(elements, &[0u16, 1, 2, 3], 0); // 8 bytes
    list.vertex_array_element_buffer(vao, elements);
    record_draw_state(&mut list, objects);
    list.draw_elements(gl::TRIANGLE_STRIP, 4, gl::UNSIGNED_SHORT, 2); // 2 + 8 > 8
    list.draw_elements(gl::TRIANGLE_STRIP, 4, gl::UNSIGNED_SHORT, usize::MAX - 7); // wraps
    list.draw_elements(gl::TRIANGLE_STRIP, 4, gl::UNSIGNED_INT, 0); // 16 > 8
    list.draw_elements_instanced_base_vertex(gl::TRIANGLE_STRIP, 5, gl::UNSIGNED_SHORT, 0, 1, 0);
    list.multi_draw_elements(gl::TRIANGLE_STRIP, &[4, 4], gl::UNSIGNED_SHORT, &[0, 2]);
    device.submit(list).unwrap();
    device.get_error().unwrap();
    let reports = skipped(&device);
    assert_eq!(reports.len(), 5, "{reports:#?}");
    assert!(reports.iter().all(|r| r.message.contains("GL_ELEMENT_ARRAY_BUFFER")), "{reports:#?}");
    assert!(device_read_rgba8(&device, fbo, 4, 4).iter().all(|&b| b == 0), "nothing was drawn");
    // Within the buffer, they draw; a larger storage (re-specified) is seen at once.
    let mut list = device.command_list();
    record_draw_state(&mut list, objects);
    list.draw_elements(gl::TRIANGLE_STRIP, 4, gl::UNSIGNED_SHORT, 0);
    list.multi_draw_elements(gl::TRIANGLE_STRIP, &[4, 2], gl::UNSIGNED_SHORT, &[0, 4]);
    device.submit(list).unwrap();
    let pixels = device_read_rgba8(&device, fbo, 4, 4);
    assert!(pixels.chunks(4).all(|p| p == [0, 255, 0, 255]), "{pixels:?}");
    assert!(skipped(&device).is_empty());
    let bigger = device.create_buffer().unwrap();
    let mut list = device.command_list();
    list.named_buffer_data_from_slice(bigger, &[0u16, 1, 2, 3, 0, 1, 2, 3], gl::STATIC_DRAW);
    list.vertex_array_element_buffer(vao, bigger);
    record_draw_state(&mut list, objects);
    list.draw_elements(gl::TRIANGLE_STRIP, 4, gl::UNSIGNED_SHORT, 8);
    list.named_buffer_data_from_slice(bigger, &[0u16, 1], gl::STATIC_DRAW); // now 4 bytes
    list.draw_elements(gl::TRIANGLE_STRIP, 4, gl::UNSIGNED_SHORT, 0);
    device.submit(list).unwrap();
    device.get_error().unwrap();
    let reports = skipped(&device);
    assert_eq!(reports.len(), 1, "only the draw after the storage shrank: {reports:#?}");
    assert_eq!(device.audit_binding_shadow().unwrap(), Vec::<String>::new());
}
