//! The immediate context (issue 18, part 1): queries see the context's own earlier calls, in
//! plain single-threaded style, compared with the same calls on a direct context; its counters;
//! its order against frames of slots on other threads; and answers glcmd gives from its own
//! knowledge after calls the GL refused.

mod common;

use std::sync::mpsc;
use std::time::Duration;

use common::*;
use glcmd::{gl, Device, Options};

const VS: &str = "#version 450 core
uniform vec2 offset;
void main() {
    vec2 p[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
    gl_Position = vec4(p[gl_VertexID] + offset, 0.0, 1.0);
}";
const FS: &str = "#version 450 core
uniform vec4 colour;
out vec4 frag;
void main() { frag = colour; }";
const BROKEN: &str = "#version 450 core\nvoid main() { this is not glsl; }";

fn device_with_long_wait() -> Device {
    Device::with_options(Options::default().wait_limit(Duration::from_secs(60))).unwrap()
}

/// Records the program of `VS` and `FS` on `imm` (compiled, attached, linked).
fn link_vs_fs(imm: &mut glcmd::Immediate) -> u32 {
    let program = imm.create_program().unwrap();
    for (ty, src) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)] {
        let sh = imm.create_shader(ty).unwrap();
        imm.shader_source(sh, &[src]);
        imm.compile_shader(sh);
        imm.attach_shader(program, sh);
    }
    imm.link_program(program);
    program
}

/// Compile, then ask for the compile status and the log; link, then look a uniform up: on the
/// immediate context with no submit, against direct GL.
#[test]
fn compile_and_link_queries_see_the_calls_before_them() {
    let direct = Direct::new();
    let g = &direct.gl;
    let compile_direct = |src: &str| unsafe {
        let sh = (g.CreateShader)(gl::FRAGMENT_SHADER);
        let c = std::ffi::CString::new(src).unwrap();
        let ptr = c.as_ptr();
        (g.ShaderSource)(sh, 1, &ptr, std::ptr::null());
        (g.CompileShader)(sh);
        let mut ok = -1;
        (g.GetShaderiv)(sh, gl::COMPILE_STATUS, &mut ok);
        ok
    };
    let expected = [compile_direct(FS), compile_direct(BROKEN)];
    let program = direct.program(&[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)]);
    let expected_location = unsafe { (g.GetUniformLocation)(program, c"colour".as_ptr()) };

    let device = device();
    let mut imm = device.immediate();
    let mut got = Vec::new();
    for src in [FS, BROKEN] {
        let sh = imm.create_shader(gl::FRAGMENT_SHADER).unwrap();
        imm.shader_source(sh, &[src]);
        imm.compile_shader(sh);
        got.push(imm.get_shaderiv(sh, gl::COMPILE_STATUS).unwrap()[0]);
        if src == BROKEN {
            assert!(!imm.get_shader_info_log(sh, 4096).unwrap().is_empty(), "the log of the failed compile");
        }
    }
    assert_eq!(got, expected, "compile status, immediate against direct");
    assert_eq!(expected, [1, 0]);

    let program = link_vs_fs(&mut imm);
    assert_eq!(imm.get_programiv(program, gl::LINK_STATUS).unwrap()[0], 1);
    assert_eq!(imm.get_uniform_location(program, "colour").unwrap(), expected_location);
    assert!(expected_location >= 0);
    assert_eq!(imm.get_error().unwrap(), direct.error());
}

/// A lookup right after the context's own `glDeleteProgram` sees the program gone (the GL gives
/// -1 and `GL_INVALID_VALUE`), not the interface cache's answer for the deleted program: the
/// delete is submitted and waited for first.
#[test]
fn a_lookup_after_the_contexts_own_delete_is_the_gls() {
    let direct = Direct::new();
    let g = &direct.gl;
    let program = direct.program(&[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)]);
    let expected = unsafe {
        let before = (g.GetUniformLocation)(program, c"colour".as_ptr());
        (g.DeleteProgram)(program);
        let after = (g.GetUniformLocation)(program, c"colour".as_ptr());
        [before as i64, after as i64, direct.error() as i64]
    };
    let device = device();
    let mut imm = device.immediate();
    let program = link_vs_fs(&mut imm);
    let before = imm.get_uniform_location(program, "colour").unwrap();
    imm.delete_program(program);
    assert_eq!(before as i64, expected[0]);
    // The Rust API names the error where the GL returns -1 and raises GL_INVALID_VALUE (the C
    // ABI gives the GL's answer: capi/tests/fast_answers.rs).
    let after = imm.get_uniform_location(program, "colour");
    assert!(matches!(after, Err(glcmd::Error::NoSuchObject { .. })), "after the delete: {after:?}");
    assert_eq!(expected[1..], [-1, gl::INVALID_VALUE as i64]);
}

/// Bind, upload, update, read back; bind, then map the bound buffer and write through the
/// mapping (`with_gl` sees the binding recorded before it): against direct GL.
#[test]
fn buffer_writes_and_maps_see_the_binding_before_them() {
    let data: Vec<u8> = (0..64).collect();
    let patch = [0xAAu8; 8];
    let direct = Direct::new();
    let g = &direct.gl;
    let expected = unsafe {
        let mut b = 0;
        (g.GenBuffers)(1, &mut b);
        (g.BindBuffer)(gl::ARRAY_BUFFER, b);
        (g.BufferData)(gl::ARRAY_BUFFER, 64, data.as_ptr().cast(), gl::DYNAMIC_DRAW);
        (g.BufferSubData)(gl::ARRAY_BUFFER, 8, 8, patch.as_ptr().cast());
        let p = (g.MapBufferRange)(gl::ARRAY_BUFFER, 32, 4, gl::MAP_WRITE_BIT) as *mut u8;
        std::ptr::copy_nonoverlapping([1u8, 2, 3, 4].as_ptr(), p, 4);
        (g.UnmapBuffer)(gl::ARRAY_BUFFER);
        let mut out = vec![0u8; 64];
        (g.GetBufferSubData)(gl::ARRAY_BUFFER, 0, 64, out.as_mut_ptr().cast());
        out
    };

    let device = device();
    let mut imm = device.immediate();
    let b = imm.gen_buffer().unwrap();
    imm.bind_buffer(gl::ARRAY_BUFFER, b);
    imm.buffer_data(gl::ARRAY_BUFFER, 64, Some(&data[..]), gl::DYNAMIC_DRAW);
    imm.buffer_sub_data(gl::ARRAY_BUFFER, 8, &patch[..]);
    let mapped = imm
        .with_gl(|g| unsafe {
            let p = (g.MapBufferRange)(gl::ARRAY_BUFFER, 32, 4, gl::MAP_WRITE_BIT) as *mut u8;
            if !p.is_null() {
                std::ptr::copy_nonoverlapping([1u8, 2, 3, 4].as_ptr(), p, 4);
            }
            (g.UnmapBuffer)(gl::ARRAY_BUFFER);
            !p.is_null()
        })
        .unwrap();
    assert!(mapped, "the map of the buffer bound by the immediate context");
    let got = imm.get_buffer_sub_data(gl::ARRAY_BUFFER, 0, 64).unwrap();
    assert_eq!(got, expected);
    assert_eq!(&got[8..16], &patch);
    assert_eq!(imm.get_error().unwrap(), direct.error());
}

/// Clear and draw, then read the pixels, with no submit: against direct GL.
#[test]
fn read_pixels_after_a_draw_sees_the_draw() {
    let (w, h) = (8, 8);
    let direct = Direct::new();
    let g = &direct.gl;
    let program = direct.program(&[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)]);
    let fbo = direct.fbo_rgba8(w, h);
    let vao = direct.vao();
    let expected = unsafe {
        (g.BindFramebuffer)(gl::FRAMEBUFFER, fbo);
        (g.Viewport)(0, 0, w, h);
        (g.ClearColor)(0.0, 0.0, 1.0, 1.0);
        (g.Clear)(gl::COLOR_BUFFER_BIT);
        (g.UseProgram)(program);
        (g.Uniform2f)((g.GetUniformLocation)(program, c"offset".as_ptr()), 0.5, 0.5);
        (g.Uniform4f)((g.GetUniformLocation)(program, c"colour".as_ptr()), 1.0, 0.5, 0.0, 1.0);
        (g.BindVertexArray)(vao);
        (g.DrawArrays)(gl::TRIANGLES, 0, 3);
        let mut px = vec![0u8; (w * h * 4) as usize];
        (g.ReadnPixels)(0, 0, w, h, gl::RGBA, gl::UNSIGNED_BYTE, px.len() as i32, px.as_mut_ptr().cast());
        px
    };

    let device = device();
    let program = device_program(&device, &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)]);
    let fbo = device_fbo_rgba8(&device, w, h);
    let mut imm = device.immediate();
    let vao = imm.create_vertex_array().unwrap();
    imm.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    imm.viewport(0, 0, w, h);
    imm.clear_color(0.0, 0.0, 1.0, 1.0);
    imm.clear(gl::COLOR_BUFFER_BIT);
    imm.use_program(program);
    let offset = imm.get_uniform_location(program, "offset").unwrap();
    let colour = imm.get_uniform_location(program, "colour").unwrap();
    imm.uniform2f(offset, 0.5, 0.5);
    imm.uniform4f(colour, 1.0, 0.5, 0.0, 1.0);
    imm.bind_vertex_array(vao);
    imm.draw_arrays(gl::TRIANGLES, 0, 3);
    let got = imm.readn_pixels(0, 0, w, h, gl::RGBA, gl::UNSIGNED_BYTE, w * h * 4).unwrap();
    assert_same_image("draw then read_pixels", &got, &expected, w as usize);
    let blue = expected.chunks(4).filter(|p| p == &[0, 0, 255, 255]).count();
    assert!(blue > 0 && blue < (w * h) as usize, "the draw covers part of the image: {blue} blue pixels");
}

/// The errors of the context's own calls, each read at once, against direct GL; and the
/// answers after refused calls (`use_program` and `bind_buffer` of a name that is nothing) are
/// the GL's, including `CURRENT_PROGRAM` and `ARRAY_BUFFER_BINDING`, which Mesa's glthread
/// answers from what was asked.
#[test]
fn errors_and_state_after_refused_calls_are_the_gls() {
    let direct = Direct::new();
    let g = &direct.gl;
    let program = direct.program(&[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)]);
    let expected = unsafe {
        let mut b = 0;
        (g.GenBuffers)(1, &mut b);
        (g.BindBuffer)(gl::ARRAY_BUFFER, b);
        (g.UseProgram)(program);
        let mut out = vec![direct.error()];
        (g.UseProgram)(987_654);
        out.push(direct.error());
        (g.BindBuffer)(gl::ARRAY_BUFFER, 987_654);
        out.push(direct.error());
        out.push(direct.integers(gl::CURRENT_PROGRAM, 1)[0] as u32 - program);
        out.push(direct.integers(gl::ARRAY_BUFFER_BINDING, 1)[0] as u32 - b);
        (g.Enable)(0xFFFF);
        out.push(direct.error());
        let vao = direct.vao();
        (g.BindVertexArray)(vao);
        (g.DrawArrays)(gl::TRIANGLES, 0, -1);
        out.push(direct.error());
        out.push(direct.error());
        out
    };

    let device = device();
    let program = device_program(&device, &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)]);
    let mut imm = device.immediate();
    let b = imm.gen_buffer().unwrap();
    imm.bind_buffer(gl::ARRAY_BUFFER, b);
    imm.use_program(program);
    let mut got = vec![imm.get_error().unwrap()];
    imm.use_program(987_654);
    got.push(imm.get_error().unwrap());
    imm.bind_buffer(gl::ARRAY_BUFFER, 987_654);
    got.push(imm.get_error().unwrap());
    got.push(imm.get_integerv(gl::CURRENT_PROGRAM).unwrap()[0] as u32 - program);
    got.push(imm.get_integerv(gl::ARRAY_BUFFER_BINDING).unwrap()[0] as u32 - b);
    imm.enable(0xFFFF);
    got.push(imm.get_error().unwrap());
    let vao = imm.create_vertex_array().unwrap();
    imm.bind_vertex_array(vao);
    imm.draw_arrays(gl::TRIANGLES, 0, -1);
    got.push(imm.get_error().unwrap());
    got.push(imm.get_error().unwrap());
    assert_eq!(got, expected, "errors and bindings, immediate against direct (0x500 enum, 0x501 value, 0x502 op)");
    assert_eq!(expected[1..3], [gl::INVALID_VALUE, gl::INVALID_OPERATION], "the GL refuses both");
    assert_eq!(expected[3..5], [0, 0], "and keeps the program and buffer bound before");
}

/// The counters: a query with nothing pending submits nothing; a create submits nothing; a
/// query after calls submits one list; limits make no round trip; dropping
/// the context submits what it holds; past the size limit a recording call submits.
#[test]
fn implicit_submits_and_round_trips_are_counted() {
    let device = device();
    let fbo = device_fbo_rgba8(&device, 1, 1);
    let mut imm = device.immediate();
    imm.get_error().unwrap();
    assert_eq!((imm.implicit_submits(), imm.round_trips()), (0, 1), "a query with nothing pending");
    imm.get_integerv(gl::MAX_TEXTURE_SIZE).unwrap();
    assert_eq!(imm.round_trips(), 1, "a limit answers from the cache");
    // Pooled names make a round trip only when the pool is empty (how often depends on the
    // refills): the context counts exactly the device's round trips of this thread.
    let (before, device_before) = (imm.round_trips(), device.stats().round_trips);
    for _ in 0..4 {
        imm.create_buffer().unwrap();
    }
    assert_eq!(imm.round_trips() - before, device.stats().round_trips - device_before);
    assert_eq!(imm.implicit_submits(), 0, "creates submit nothing");
    imm.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    imm.clear_color(0.0, 1.0, 0.0, 1.0);
    imm.clear(gl::COLOR_BUFFER_BIT);
    let before = imm.round_trips();
    imm.get_error().unwrap();
    assert_eq!((imm.implicit_submits(), imm.round_trips() - before), (1, 1));

    // Dropped with calls pending: they are submitted, and a later query sees them.
    imm.clear_color(1.0, 0.0, 0.0, 1.0);
    imm.clear(gl::COLOR_BUFFER_BIT);
    drop(imm);
    assert_eq!(device_read_rgba8(&device, fbo, 1, 1), [255, 0, 0, 255]);

    // A size limit of 0 submits before every recording call after the first.
    let mut imm = device.immediate();
    imm.set_flush_bytes(0);
    imm.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    imm.clear_color(0.0, 0.0, 1.0, 1.0);
    imm.clear(gl::COLOR_BUFFER_BIT);
    assert_eq!(imm.implicit_submits(), 2, "three calls, each after the first submits the one before");
    imm.finish().unwrap();
    assert_eq!(imm.implicit_submits(), 3);
    assert_eq!(imm.readn_pixels(0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, 4).unwrap(), [0, 0, 255, 255]);
}

/// After a sync the context hands its calls over sooner (`glcmd::HandOvers`: an eighth of
/// `Options::immediate_flush_bytes`, doubling up to it), and a query starts that again.
#[test]
fn hand_overs_after_a_sync_start_small_and_double() {
    let device = device();
    let mut imm = device.immediate();
    let calls_per_hand_over = |imm: &mut glcmd::Immediate, n: usize| {
        let mut counts = Vec::new();
        let (mut calls, mut submits) = (0, imm.implicit_submits());
        while counts.len() < n {
            imm.depth_func(if calls % 2 == 0 { gl::LEQUAL } else { gl::LESS });
            calls += 1;
            if imm.implicit_submits() > submits {
                // The call that found the list past the size was recorded after the submit.
                counts.push(calls - 1);
                (calls, submits) = (1, imm.implicit_submits());
            }
        }
        counts
    };
    imm.get_error().unwrap();
    let first: Vec<usize> = calls_per_hand_over(&mut imm, 6);
    for i in 1..4 {
        assert!(first[i].abs_diff(2 * first[i - 1]) <= 1, "batch {i} of {first:?}");
    }
    assert!(first[4..].iter().all(|&n| n.abs_diff(first[3]) <= 1), "{first:?}");
    assert_eq!(imm.get_error().unwrap(), gl::NO_ERROR);
    let again: Vec<usize> = calls_per_hand_over(&mut imm, 2);
    assert!(again[0] < first[1] && again[1] > again[0], "after a query: {again:?}, first: {first:?}");
    // A size limit off (`usize::MAX`) stays off.
    imm.set_flush_bytes(usize::MAX);
    imm.finish().unwrap();
    let before = imm.implicit_submits();
    for i in 0..40_000 {
        imm.depth_func(if i % 2 == 0 { gl::LEQUAL } else { gl::LESS });
    }
    assert_eq!(imm.implicit_submits(), before, "no hand-over for size");
}

/// Records a clear of one pixel (full state: framebuffer, scissor, colour), so the result does
/// not depend on what ran before.
fn clear_pixel(list: &mut glcmd::CommandList, fbo: u32, x: i32, rgba: [f32; 4]) {
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.enable(gl::SCISSOR_TEST);
    list.scissor(x, 0, 1, 1);
    list.clear_color(rgba[0], rgba[1], rgba[2], rgba[3]);
    list.clear(gl::COLOR_BUFFER_BIT);
    list.disable(gl::SCISSOR_TEST);
}

/// The order of `frame.rs`'s essay: an immediate context's calls replay after every frame
/// begun before they were submitted, and its query sees them. A frame of two slots is begun,
/// two immediate threads write and read back their own pixels while worker threads fill the
/// frame's slots (in either order): each immediate read sees its own write over the frame's,
/// and the final image is the frame's writes overwritten by the immediate ones.
#[test]
fn immediate_threads_and_a_frame_of_slots_keep_the_stated_order() {
    let device = device_with_long_wait();
    let fbo = device_fbo_rgba8(&device, 4, 1);
    let frame = device.begin_frame(2).unwrap();
    let blue = [0.0, 0.0, 1.0, 1.0];
    let (started_tx, started_rx) = mpsc::channel();
    std::thread::scope(|s| {
        for (x, rgba) in [(0, [1.0, 0.0, 0.0, 1.0]), (1, [0.0, 1.0, 0.0, 1.0])] {
            let device = device.clone();
            let started = started_tx.clone();
            s.spawn(move || {
                let mut imm = device.immediate();
                clear_pixel(&mut imm, fbo, x, rgba);
                imm.bind_framebuffer(gl::READ_FRAMEBUFFER, fbo);
                started.send(()).unwrap();
                let px = imm.readn_pixels(x, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, 4).unwrap();
                let want: Vec<u8> = rgba.iter().map(|c| (c * 255.0) as u8).collect();
                assert_eq!(px, want, "immediate thread {x} reads its own write");
            });
        }
        // The workers fill the frame once both immediate threads have recorded.
        started_rx.recv().unwrap();
        started_rx.recv().unwrap();
        let frame = &frame;
        for slot in [1usize, 0] {
            let device = device.clone();
            s.spawn(move || {
                let mut list = device.command_list();
                // Slot 0 writes pixels 0..2, slot 1 writes pixel 2: both under the immediate
                // writes where they overlap.
                if slot == 0 {
                    clear_pixel(&mut list, fbo, 0, blue);
                    clear_pixel(&mut list, fbo, 1, blue);
                } else {
                    clear_pixel(&mut list, fbo, 2, blue);
                }
                frame.submit(slot, list).unwrap();
            });
        }
    });
    drop(frame);
    let px = device_read_rgba8(&device, fbo, 4, 1);
    assert_eq!(px, [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 0, 0, 0, 0]);
}

/// Issue 18's stall: a worker takes a list with `command_list`, asks a round-trip query, then
/// submits into slot 0 of a frame whose slot 1 another worker has submitted. The query cannot
/// be answered before slot 0, which this thread owes: it fails at once, naming frame and slot
/// (the wait limit is 60 s, so a stall would show), and the frame still completes.
#[test]
fn a_query_behind_a_slot_its_thread_may_owe_fails_at_once() {
    let device = device_with_long_wait();
    let frame = std::sync::Arc::new(device.begin_frame(2).unwrap());
    let (one_tx, one_rx) = mpsc::channel();
    let worker1 = {
        let (device, frame) = (device.clone(), frame.clone());
        std::thread::spawn(move || {
            let mut list = device.command_list();
            list.clear_color(0.0, 0.0, 0.0, 1.0);
            frame.submit(1, list).unwrap();
            one_tx.send(()).unwrap();
        })
    };
    let worker0 = {
        let (device, frame) = (device.clone(), frame.clone());
        std::thread::spawn(move || {
            let mut list = device.command_list();
            list.clear_color(1.0, 1.0, 1.0, 1.0);
            one_rx.recv().unwrap();
            let started = std::time::Instant::now();
            let answer = device.get_integerv(gl::CURRENT_PROGRAM);
            let took = started.elapsed();
            frame.submit(0, list).unwrap();
            (answer, took)
        })
    };
    worker1.join().unwrap();
    let (answer, took) = worker0.join().unwrap();
    assert!(took < Duration::from_secs(30), "failed at once, not after the wait limit: {took:?}");
    match answer {
        Err(glcmd::Error::WouldDeadlock { frame: f, slot: 0, .. }) => assert_eq!(f, frame.number()),
        other => panic!("expected WouldDeadlock naming slot 0: {other:?}"),
    }
    let number = frame.number();
    drop(frame);
    device.wait_frames(number + 1).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
}

/// The same with a claimed list (`Frame::list`) on scoped threads.
#[test]
fn a_query_behind_a_claimed_slot_of_its_own_fails_at_once() {
    let device = device_with_long_wait();
    let frame = device.begin_frame(2).unwrap();
    let (one_tx, one_rx) = mpsc::channel();
    let (answer, took) = std::thread::scope(|s| {
        let frame = &frame;
        s.spawn(move || {
            let list = frame.list(1).unwrap();
            frame.submit(1, list).unwrap();
            one_tx.send(()).unwrap();
        });
        s.spawn(move || {
            let list = frame.list(0).unwrap();
            one_rx.recv().unwrap();
            let started = std::time::Instant::now();
            let answer = frame.device().get_error();
            let took = started.elapsed();
            frame.submit(0, list).unwrap();
            (answer, took)
        })
        .join()
        .unwrap()
    });
    assert!(took < Duration::from_secs(30), "{took:?}");
    assert!(matches!(answer, Err(glcmd::Error::WouldDeadlock { slot: 0, .. })), "{answer:?}");
}

/// A frame handed to scoped threads is no longer held by the thread that began it: that
/// thread's query waits for the workers' slots (and gets its answer) instead of failing.
#[test]
fn a_frame_handed_to_other_threads_is_not_held_by_the_thread_that_began_it() {
    let device = device_with_long_wait();
    let fbo = device_fbo_rgba8(&device, 2, 1);
    let frame = device.begin_frame(2).unwrap();
    let (zero_tx, zero_rx) = mpsc::channel();
    let (asked_tx, asked_rx) = mpsc::channel::<()>();
    let px = std::thread::scope(|s| {
        let frame = &frame;
        s.spawn(move || {
            let mut list = frame.device().command_list();
            clear_pixel(&mut list, fbo, 0, [1.0, 0.0, 0.0, 1.0]);
            frame.submit(0, list).unwrap();
            zero_tx.send(()).unwrap();
        });
        s.spawn(move || {
            // Submits once the beginning thread is about to ask (either order gives the same
            // answer: the query waits for this slot).
            let _ = asked_rx.recv();
            let mut list = frame.device().command_list();
            clear_pixel(&mut list, fbo, 1, [0.0, 1.0, 0.0, 1.0]);
            frame.submit(1, list).unwrap();
        });
        zero_rx.recv().unwrap();
        asked_tx.send(()).unwrap();
        let mut list = device.command_list();
        list.bind_framebuffer(gl::READ_FRAMEBUFFER, fbo);
        device.submit(list).unwrap();
        device.readn_pixels(0, 0, 2, 1, gl::RGBA, gl::UNSIGNED_BYTE, 8)
    });
    assert_eq!(px.unwrap(), [255, 0, 0, 255, 0, 255, 0, 255]);
}

/// `get_error` without a round trip (`known_errors.rs`): the same draw checked again and again
/// is answered at once after the first check, with the GL's answers (compared with a direct
/// context); a texture the context deleted, a uniform the program lacks and another thread's
/// list that deletes the vertex array each make the next check ask, and return the GL's error.
#[test]
fn get_error_is_answered_without_a_round_trip_where_nothing_can_have_failed() {
    let device = device_with_long_wait();
    let mut imm = device.immediate();
    let program = link_vs_fs(&mut imm);
    let colour = imm.get_uniform_location(program, "colour").unwrap();
    let fbo = imm.create_framebuffers(1).unwrap()[0];
    let target = imm.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    imm.texture_storage_2d(target, 1, gl::RGBA8, 4, 4);
    imm.named_framebuffer_texture(fbo, gl::COLOR_ATTACHMENT0, target, 0);
    imm.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    let vao = imm.create_vertex_arrays(1).unwrap()[0];
    let texture = imm.gen_textures(1).unwrap()[0];
    assert_eq!(imm.get_error().unwrap(), gl::NO_ERROR);
    let object = |imm: &mut glcmd::Immediate, vao: u32, location: i32| {
        imm.use_program(program);
        imm.uniform4f(location, 1.0, 0.5, 0.25, 1.0);
        imm.bind_texture(gl::TEXTURE_2D, texture);
        imm.bind_vertex_array(vao);
        imm.draw_arrays(gl::TRIANGLES, 0, 3);
    };
    let trips = imm.round_trips();
    for _ in 0..10 {
        object(&mut imm, vao, colour);
        assert_eq!(imm.get_error().unwrap(), gl::NO_ERROR);
    }
    assert_eq!(imm.errors_known(), 9, "the first check asks, the other nine are known");
    assert_eq!(imm.round_trips() - trips, 1);
    // A uniform location the program lacks: asked, and the GL's error.
    object(&mut imm, vao, colour + 100);
    assert_eq!(imm.get_error().unwrap(), gl::INVALID_OPERATION);
    object(&mut imm, vao, colour);
    assert_eq!(imm.get_error().unwrap(), gl::NO_ERROR);
    // The texture deleted by the context itself.
    imm.delete_textures(&[texture]);
    object(&mut imm, vao, colour);
    assert_eq!(imm.get_error().unwrap(), gl::INVALID_OPERATION);
    // With a fresh texture, learned again; then another thread's list deletes the vertex array.
    let fresh = imm.gen_textures(1).unwrap()[0];
    let object = |imm: &mut glcmd::Immediate| {
        imm.use_program(program);
        imm.bind_texture(gl::TEXTURE_2D, fresh);
        imm.bind_vertex_array(vao);
        imm.draw_arrays(gl::TRIANGLES, 0, 3);
    };
    for _ in 0..3 {
        object(&mut imm);
        assert_eq!(imm.get_error().unwrap(), gl::NO_ERROR);
    }
    let known = imm.errors_known();
    let other = device.clone();
    std::thread::spawn(move || {
        let mut list = other.command_list();
        list.delete_vertex_arrays(&[vao]);
        other.submit(list).unwrap();
    })
    .join()
    .unwrap();
    object(&mut imm);
    assert_eq!(imm.get_error().unwrap(), gl::INVALID_OPERATION, "the vertex array is gone");
    assert_eq!(imm.errors_known(), known);
    // The same answers as a direct context for the first stretch.
    let d = Direct::new();
    let p = gl_program(&d.gl, &[(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)]);
    unsafe {
        let mut f = 0;
        (d.gl.CreateFramebuffers)(1, &mut f);
        let mut t = 0;
        (d.gl.CreateTextures)(gl::TEXTURE_2D, 1, &mut t);
        (d.gl.TextureStorage2D)(t, 1, gl::RGBA8, 4, 4);
        (d.gl.NamedFramebufferTexture)(f, gl::COLOR_ATTACHMENT0, t, 0);
        (d.gl.BindFramebuffer)(gl::FRAMEBUFFER, f);
        let mut a = 0;
        (d.gl.CreateVertexArrays)(1, &mut a);
        (d.gl.UseProgram)(p);
        (d.gl.Uniform4f)(colour + 100, 1.0, 0.5, 0.25, 1.0);
        assert_eq!(d.error(), gl::INVALID_OPERATION, "direct GL: a location the program lacks");
        (d.gl.BindVertexArray)(a);
        (d.gl.DrawArrays)(gl::TRIANGLES, 0, 3);
        assert_eq!(d.error(), gl::NO_ERROR, "direct GL: the object's draw");
    }
}
