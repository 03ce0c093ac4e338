//! What immediate threads cost (`capi/src/immediate.rs`), counted by the counters `glcmd-run`
//! prints: an implicit submit only where an answer needs the thread's pending calls, never an
//! empty one; limits, pooled creates and the program cache answer without a submit or a round
//! trip; a list past `SUBMIT_BYTES` is submitted on its own; the answers are right throughout.
//! (`tests/c_programs.rs` checks the semantics against direct GL.)

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};

use glcmd::gl;
use glcmd::types::*;
use glcmd_capi::generated::TABLE as GL;
use glcmd_capi::immediate::{thread_stats, total_stats, ImmediateStats, SUBMIT_BYTES};
use glcmd_capi::*;

fn check(status: GlcmdStatus) {
    if status != GLCMD_OK {
        let mut message: *const c_char = null();
        unsafe { glcmdLastError(&mut message) };
        panic!("{}", unsafe { CStr::from_ptr(message) }.to_string_lossy());
    }
}

/// The change of the thread's counters over `f`: (implicit submits, round trips).
fn counted(f: impl FnOnce()) -> (u64, u64) {
    let a = thread_stats();
    f();
    let b = thread_stats();
    (b.implicit_submits - a.implicit_submits, b.round_trips - a.round_trips)
}

fn depth_func() -> GLenum {
    let mut v = -1;
    unsafe { (GL.GetIntegerv)(gl::DEPTH_FUNC, &mut v) };
    v as GLenum
}

fn viewport() -> [GLint; 4] {
    let mut v = [-1; 4];
    unsafe { (GL.GetIntegerv)(gl::VIEWPORT, v.as_mut_ptr()) };
    v
}

#[test]
fn implicit_submits_happen_only_where_an_answer_needs_them() {
    let mut d = null_mut();
    check(unsafe { glcmdDeviceCreateHeadless(null(), &mut d) });
    check(glcmdThreadMakeImmediate(d));
    unsafe {
        // Nothing pending: a query is a round trip, with no submit.
        assert_eq!(counted(|| assert_eq!(depth_func(), gl::LESS)), (0, 1));
        // Pending calls: a limit, a string and a pooled create answer without either.
        (GL.DepthFunc)(gl::LEQUAL);
        let mut max = 0;
        let mut buffer = 0;
        let (submits, _) = counted(|| {
            (GL.GetIntegerv)(gl::MAX_TEXTURE_SIZE, &mut max);
            assert!(!(GL.GetString)(gl::VERSION).is_null());
            (GL.GenBuffers)(1, &mut buffer);
        });
        assert!(max >= 1024 && buffer != 0);
        assert_eq!(submits, 0, "limits, strings and creates need no submit");
        // A query that needs them: one submit, one round trip; asked again: no submit.
        assert_eq!(counted(|| assert_eq!(depth_func(), gl::LEQUAL)), (1, 1));
        assert_eq!(counted(|| assert_eq!(depth_func(), gl::LEQUAL)), (0, 1));
        // glFlush and glFinish with nothing pending submit nothing; glFlush waits for nothing.
        assert_eq!(counted(|| (GL.Flush)()), (0, 0));
        assert_eq!(counted(|| (GL.Finish)()).0, 0);
        (GL.DepthFunc)(gl::GEQUAL);
        assert_eq!(counted(|| (GL.Flush)()), (1, 0));
        assert_eq!(counted(|| assert_eq!(depth_func(), gl::GEQUAL)), (0, 1));
        // State the thread set itself (glcmd's recorded_state.rs) needs neither, pending or not.
        (GL.Viewport)(1, 2, 3, 4);
        assert_eq!(counted(|| assert_eq!(viewport(), [1, 2, 3, 4])), (0, 0));

        // The program cache answers lookups while calls are pending.
        let program = (GL.CreateProgram)();
        for (kind, src) in [
            (gl::VERTEX_SHADER, "#version 450 core\nvoid main() { gl_Position = vec4(0.0); }\n"),
            (gl::FRAGMENT_SHADER, "#version 450 core\nuniform vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n"),
        ] {
            let s = (GL.CreateShader)(kind);
            let ptr = src.as_ptr() as *const GLchar;
            let len = src.len() as GLint;
            (GL.ShaderSource)(s, 1, &ptr, &len);
            (GL.CompileShader)(s);
            (GL.AttachShader)(program, s);
        }
        (GL.LinkProgram)(program);
        let mut linked = 0;
        assert_eq!(counted(|| (GL.GetProgramiv)(program, gl::LINK_STATUS, &mut linked)).0, 1, "the link is pending");
        assert_eq!(linked, 1);
        (GL.Viewport)(0, 0, 9, 9);
        let (submits, round_trips) = counted(|| assert_eq!((GL.GetUniformLocation)(program, c"c".as_ptr()), 0));
        assert_eq!((submits, round_trips), (0, 0), "the program cache answers");

        // Past SUBMIT_BYTES, the list is submitted on its own; the data arrives in order.
        (GL.BindBuffer)(gl::ARRAY_BUFFER, buffer);
        let chunk = SUBMIT_BYTES / 4;
        (GL.BufferData)(gl::ARRAY_BUFFER, (chunk * 6) as GLsizeiptr, null(), gl::STATIC_DRAW);
        let before = thread_stats();
        for i in 0..6u8 {
            let data = vec![i; chunk];
            (GL.BufferSubData)(
                gl::ARRAY_BUFFER,
                (chunk * i as usize) as GLintptr,
                chunk as GLsizeiptr,
                data.as_ptr().cast(),
            );
        }
        let after = thread_stats();
        assert!(after.size_submits > before.size_submits, "{before:?} -> {after:?}");
        assert_eq!(after.round_trips, before.round_trips);
        let mut back = vec![0xffu8; chunk * 6];
        (GL.GetBufferSubData)(gl::ARRAY_BUFFER, 0, back.len() as GLsizeiptr, back.as_mut_ptr().cast());
        for i in 0..6 {
            assert!(back[i * chunk..(i + 1) * chunk].iter().all(|&b| b == i as u8), "chunk {i}");
        }
    }
    let ImmediateStats { implicit_submits, .. } = total_stats();
    assert!(implicit_submits >= thread_stats().implicit_submits);
    check(glcmdThreadMakeImmediate(null_mut()));
    check(glcmdDeviceDestroy(d));
}

/// How many `glDepthFunc` calls go into each of the next `n` hand-overs for size.
fn calls_per_hand_over(n: usize) -> Vec<usize> {
    let mut counts = Vec::new();
    let mut calls = 0;
    let mut size_submits = thread_stats().size_submits;
    while counts.len() < n {
        unsafe { (GL.DepthFunc)(if calls % 2 == 0 { gl::LEQUAL } else { gl::LESS }) };
        calls += 1;
        let now = thread_stats().size_submits;
        if now > size_submits {
            // The call that passed the size was recorded, then the list submitted with it.
            counts.push(calls);
            calls = 0;
            size_submits = now;
        }
    }
    counts
}

#[test]
fn hand_overs_after_a_sync_start_small_and_double_up_to_the_batch_size() {
    let mut d = null_mut();
    check(unsafe { glcmdDeviceCreateHeadless(null(), &mut d) });
    check(glcmdThreadMakeImmediate(d));
    assert_eq!(depth_func(), gl::LESS, "a sync: nothing pending");
    let first = calls_per_hand_over(7);
    // 2, 4, 8 KiB, then SUBMIT_BYTES (16 KiB) each: each batch holds twice the calls of the one
    // before (give or take the call that passed it), until the batch size.
    assert_eq!(glcmd::HandOvers::STEPS, 3);
    for i in 1..4 {
        assert!(first[i].abs_diff(2 * first[i - 1]) <= 1, "batch {i} of {first:?}");
    }
    assert!(first[4].abs_diff(first[3]) <= 1 && first[5..].iter().all(|&n| n == first[4]), "{first:?}");
    // A query synchronises: the next batch is small again.
    assert!(matches!(depth_func(), gl::LEQUAL | gl::LESS));
    assert_eq!(calls_per_hand_over(2), first[..2], "after a query");
    // So does glFlush; a flush with nothing pending too (the render thread is idle after it).
    let _ = calls_per_hand_over(3);
    unsafe { (GL.Flush)() };
    assert_eq!(calls_per_hand_over(1), first[..1], "after glFlush");
    // The batch size scales them.
    glcmd_capi::immediate::set_submit_bytes(SUBMIT_BYTES / 16);
    unsafe { (GL.Flush)() };
    let small = calls_per_hand_over(5);
    glcmd_capi::immediate::set_submit_bytes(SUBMIT_BYTES);
    for (i, (s, f)) in small.iter().zip(&first).enumerate() {
        assert!(s.abs_diff(f / 16) <= 1, "batch {i}: 1 KiB {small:?}, 16 KiB {first:?}");
    }
    check(glcmdThreadMakeImmediate(null_mut()));
    check(glcmdDeviceDestroy(d));
}

#[test]
fn an_immediate_thread_that_exits_submits_what_it_has_pending() {
    let mut d = null_mut();
    check(unsafe { glcmdDeviceCreateHeadless(null(), &mut d) });
    let device = d as usize;
    std::thread::spawn(move || {
        check(glcmdThreadMakeImmediate(device as *mut GlcmdDevice));
        unsafe { (GL.Viewport)(3, 4, 5, 6) };
    })
    .join()
    .unwrap();
    check(glcmdDeviceMakeCurrent(d));
    assert_eq!(viewport(), [3, 4, 5, 6]);
    check(glcmdDeviceDestroy(d));
}
