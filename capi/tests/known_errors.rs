//! `glGetError` of an immediate thread without a round trip (glcmd's `known_errors.rs`), through
//! the C ABI: calls seen clean before are answered `GL_NO_ERROR` at once, and another immediate
//! thread of the same device that changes the context between two checks makes the next check
//! ask the GL again. (`run/tests/known_errors.rs` compares every answer with direct GL through
//! glcmd-run, over each change the rule guards against.)

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};

use glcmd::gl;
use glcmd_capi::generated::TABLE as GL;
use glcmd_capi::immediate::thread_stats;
use glcmd_capi::*;

fn check(status: GlcmdStatus) {
    if status != GLCMD_OK {
        let mut message: *const c_char = null();
        unsafe { glcmdLastError(&mut message) };
        panic!("{}", unsafe { CStr::from_ptr(message) }.to_string_lossy());
    }
}

/// The GL's error after `f`, and whether it was answered without a round trip.
fn error_after(f: impl FnOnce()) -> (u32, bool) {
    f();
    let before = thread_stats();
    let error = unsafe { (GL.GetError)() };
    let after = thread_stats();
    (error, after.errors_known > before.errors_known)
}

#[test]
fn another_immediate_thread_between_two_checks_makes_the_next_one_ask() {
    let mut d = null_mut();
    check(unsafe { glcmdDeviceCreateHeadless(null(), &mut d) });
    check(glcmdThreadMakeImmediate(d));
    let texture = std::cell::Cell::new(0);
    let generate = || {
        let mut name = 0;
        unsafe { (GL.GenTextures)(1, &mut name) };
        texture.set(name);
    };
    generate();
    let bind = || unsafe { (GL.BindTexture)(gl::TEXTURE_2D, texture.get()) };
    // The first checks ask (and learn the bind); then the same bind is known.
    assert_eq!(error_after(|| {}).0, gl::NO_ERROR);
    assert_eq!(error_after(bind), (gl::NO_ERROR, false));
    assert_eq!(error_after(bind), (gl::NO_ERROR, true));
    // Another thread, immediate on the same device, deletes the texture.
    let (device, name) = (d as usize, texture.get());
    std::thread::spawn(move || {
        check(glcmdThreadMakeImmediate(device as *mut GlcmdDevice));
        unsafe { (GL.DeleteTextures)(1, &name) };
        unsafe { (GL.Finish)() };
        check(glcmdThreadMakeImmediate(null_mut()));
    })
    .join()
    .unwrap();
    // The same bind now names no texture: asked, and the GL's error returned.
    assert_eq!(error_after(bind), (gl::INVALID_OPERATION, false));
    // A query the GL refuses leaves its error in the GL's flag: the next check asks.
    let program = unsafe { (GL.CreateProgram)() };
    let mut size = [-7; 3];
    assert_eq!(error_after(bind).0, gl::INVALID_OPERATION, "the texture is still deleted");
    // A create that asks the render thread forgets too: the stretch with it asks, and so does
    // the next (which learns); a pooled one does not.
    generate();
    let answers: Vec<_> = (0..3).map(|_| error_after(bind)).collect();
    assert!(answers.iter().all(|a| a.0 == gl::NO_ERROR) && answers[2].1, "{answers:?}");
    let refused_then_bind = || {
        unsafe { (GL.GetProgramiv)(program, gl::COMPUTE_WORK_GROUP_SIZE, size.as_mut_ptr()) };
        bind();
    };
    assert_eq!(error_after(refused_then_bind), (gl::INVALID_OPERATION, false));
    assert_eq!(size, [-7; 3]);
    // A flag the entry points raise themselves forgets what was learned too.
    let mut name = 0;
    assert_eq!(error_after(|| unsafe { (GL.GenTextures)(-1, &mut name) }), (gl::INVALID_VALUE, false));
    check(glcmdThreadMakeImmediate(null_mut()));
    check(glcmdDeviceDestroy(d));
}

#[test]
fn a_thread_that_is_not_immediate_always_asks() {
    let mut d = null_mut();
    check(unsafe { glcmdDeviceCreateHeadless(null(), &mut d) });
    check(glcmdDeviceMakeCurrent(d));
    for _ in 0..3 {
        assert_eq!(error_after(|| {}), (gl::NO_ERROR, false));
    }
    check(glcmdDeviceDestroy(d));
}
