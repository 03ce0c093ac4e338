//! The program interface cache never answers for a program that is gone (issue 16, item 4).
//!
//! GL reuses a deleted program's name for the next program (NVIDIA always, Mesa with
//! `force_gl_names_reuse`, which every test here sets in a child process and checks it took
//! effect). Each test takes a program through one order of link, delete and list drop (a link
//! pending when the delete runs and then dropped, or replayed after the delete; a delete the
//! cache sees, one it does not see, `glCreateShaderProgramv`), makes a new program that gets the
//! same name, and compares what glcmd answers for it (link status, info log, a uniform
//! location, the GL error) with what direct GL answers after the same calls: before the new
//! program is linked, and after. At the end the cache holds no entry for a deleted program.

mod common;

use std::ffi::CString;
use std::time::Duration;

use common::*;
use glcmd::types::*;
use glcmd::{gl, Device};

const FS_AT_3: &str = "#version 450 core
layout(location = 3) uniform vec4 u_color;
layout(location = 0) out vec4 out_color;
void main() { out_color = u_color; }
";
const FS_AT_5: &str = "#version 450 core
layout(location = 5) uniform vec4 u_color;
layout(location = 0) out vec4 out_color;
void main() { out_color = u_color; }
";

const REUSE: &[(&str, &str)] = &[("force_gl_names_reuse", "true")];

/// What a program's lookups answer: link status, info log, `u_color`'s location, the GL error.
type Probe = (GLint, String, GLint, GLenum);

fn probe_device(device: &Device, program: GLuint) -> Probe {
    // A lookup the GL refuses writes nothing and returns the GL's error: direct GL's outputs then
    // keep what `probe_direct` initialised them to (0, "", and -1 from glGetUniformLocation).
    let status = answered(device.get_programiv(program, gl::LINK_STATUS).map(|v| v[0]), 0);
    let log = answered(device.get_program_info_log(program, 4096), String::new());
    let location = answered(device.get_uniform_location(program, "u_color"), -1);
    (status, log, location, device.get_error().unwrap())
}

/// The answer, or `none` where the query failed with a GL error (any other failure is a bug).
fn answered<T>(result: Result<T, glcmd::Error>, none: T) -> T {
    result.unwrap_or_else(|e| {
        assert!(e.gl_error().is_some(), "a failure that stands for no GL error: {e}");
        none
    })
}

fn probe_direct(d: &Direct, program: GLuint) -> Probe {
    let g = &d.gl;
    let name = CString::new("u_color").unwrap();
    let mut status = 0;
    let mut log = vec![0u8; 4096];
    let mut len = 0;
    // SAFETY: outputs of the sizes passed, a NUL-terminated name.
    unsafe {
        (g.GetProgramiv)(program, gl::LINK_STATUS, &mut status);
        (g.GetProgramInfoLog)(program, 4096, &mut len, log.as_mut_ptr().cast());
        let location = (g.GetUniformLocation)(program, name.as_ptr());
        (status, String::from_utf8_lossy(&log[..len.max(0) as usize]).into_owned(), location, d.error())
    }
}

/// Shaders compiled on the device, to attach.
fn device_shaders(device: &Device, fs: &str) -> [GLuint; 2] {
    let shaders =
        [device.create_shader(gl::VERTEX_SHADER).unwrap(), device.create_shader(gl::FRAGMENT_SHADER).unwrap()];
    let mut list = device.command_list();
    for (&s, src) in shaders.iter().zip([QUAD_VS, fs]) {
        list.shader_source(s, &[src]);
        list.compile_shader(s);
    }
    device.submit(list).unwrap();
    shaders
}

fn direct_shaders(d: &Direct, fs: &str) -> [GLuint; 2] {
    let g = &d.gl;
    // SAFETY: NUL-terminated sources, valid enums.
    unsafe {
        let shaders = [(g.CreateShader)(gl::VERTEX_SHADER), (g.CreateShader)(gl::FRAGMENT_SHADER)];
        for (&s, src) in shaders.iter().zip([QUAD_VS, fs]) {
            let c = CString::new(src).unwrap();
            (g.ShaderSource)(s, 1, &c.as_ptr(), std::ptr::null());
            (g.CompileShader)(s);
        }
        shaders
    }
}

/// Records the attach of `shaders` and the link of `program`.
fn record_link(list: &mut glcmd::CommandList, program: GLuint, shaders: &[GLuint]) {
    for &s in shaders {
        list.attach_shader(program, s);
    }
    list.link_program(program);
}

fn direct_link(d: &Direct, program: GLuint, shaders: &[GLuint]) {
    // SAFETY: names, no pointers.
    unsafe {
        for &s in shaders {
            (d.gl.AttachShader)(program, s);
        }
        (d.gl.LinkProgram)(program);
    }
}

fn device_delete(device: &Device, program: GLuint) {
    let mut list = device.command_list();
    list.delete_program(program);
    device.submit(list).unwrap();
}

/// A program linked with `FS_AT_3`, cached (its lookups answered).
fn linked_device_program(device: &Device) -> GLuint {
    let shaders = device_shaders(device, FS_AT_3);
    let program = device.create_program().unwrap();
    let mut list = device.command_list();
    record_link(&mut list, program, &shaders);
    device.submit(list).unwrap();
    assert_eq!(device.get_programiv(program, gl::LINK_STATUS).unwrap(), vec![1]);
    assert_eq!(device.get_uniform_location(program, "u_color").unwrap(), 3);
    program
}

fn linked_direct_program(d: &Direct) -> GLuint {
    let shaders = direct_shaders(d, FS_AT_3);
    // SAFETY: no arguments.
    let program = unsafe { (d.gl.CreateProgram)() };
    direct_link(d, program, &shaders);
    program
}

/// The end of every order: a new program, which gets the old name, answers as direct GL's new
/// program does, before its link and after a link with `u_color` at 5; once it is deleted the
/// cache holds nothing.
fn new_program_answers_as_direct_gl(device: &Device, old: GLuint, d: &Direct, direct_old: GLuint) {
    let fresh = device.create_program().unwrap();
    // SAFETY: no arguments.
    let direct_fresh = unsafe { (d.gl.CreateProgram)() };
    assert_eq!(fresh, old, "the GL did not reuse the deleted program's name: the test exercises nothing");
    assert_eq!(direct_fresh, direct_old, "direct GL reuses the name too");
    let (got, want) = (probe_device(device, fresh), probe_direct(d, direct_fresh));
    eprintln!("never linked: glcmd {got:?}, direct GL {want:?}");
    assert_eq!(got, want, "a never-linked program under a reused name");
    let shaders = device_shaders(device, FS_AT_5);
    let mut list = device.command_list();
    record_link(&mut list, fresh, &shaders);
    device.submit(list).unwrap();
    direct_link(d, direct_fresh, &direct_shaders(d, FS_AT_5));
    let (got, want) = (probe_device(device, fresh), probe_direct(d, direct_fresh));
    assert_eq!(got, want, "the new program, linked");
    assert_eq!(got.2, 5);
    device_delete(device, fresh);
    device.finish().unwrap();
    assert_eq!(device.stats().program_entries, 0, "the cache keeps entries for deleted programs");
}

fn in_child(name: &str, body: impl FnOnce() + Send + 'static) {
    if !rerun_in_child(name, REUSE) {
        return;
    }
    with_timeout(name, Duration::from_secs(60), body);
}

/// Linked, then deleted with nothing pending.
#[test]
fn a_deleted_program_s_answers_go_with_it() {
    in_child("a_deleted_program_s_answers_go_with_it", || {
        let (device, d) = (device(), Direct::new());
        let (p, dp) = (linked_device_program(&device), linked_direct_program(&d));
        device_delete(&device, p);
        device.finish().unwrap();
        // SAFETY: a name.
        unsafe { (d.gl.DeleteProgram)(dp) };
        new_program_answers_as_direct_gl(&device, p, &d, dp);
    });
}

/// A relink recorded in a list that is not submitted when the delete runs, and the list then
/// dropped: the link never happens (direct GL: no second link).
#[test]
fn a_link_recorded_when_the_delete_runs_and_dropped_leaves_nothing() {
    in_child("a_link_recorded_when_the_delete_runs_and_dropped_leaves_nothing", || {
        let (device, d) = (device(), Direct::new());
        let (p, dp) = (linked_device_program(&device), linked_direct_program(&d));
        let mut pending = device.command_list();
        pending.link_program(p);
        device_delete(&device, p);
        device.finish().unwrap();
        assert!(!device.is_program(p).unwrap(), "the delete ran");
        drop(pending);
        // SAFETY: a name.
        unsafe { (d.gl.DeleteProgram)(dp) };
        new_program_answers_as_direct_gl(&device, p, &d, dp);
    });
}

/// A relink submitted to a frame behind the one that deletes: the delete runs while the link
/// is pending, then the link replays on a name that is no program (direct GL: the same link
/// after the delete, which the GL refuses).
#[test]
fn a_link_pending_when_the_delete_runs_and_replayed_after_it_leaves_nothing() {
    in_child("a_link_pending_when_the_delete_runs_and_replayed_after_it_leaves_nothing", || {
        let (device, d) = (device(), Direct::new());
        let (p, dp) = (linked_device_program(&device), linked_direct_program(&d));
        let deleting = device.begin_frame(1).unwrap();
        let linking = device.begin_frame(2).unwrap();
        let mut relink = device.command_list();
        relink.link_program(p);
        linking.submit(1, relink).unwrap();
        let mut delete = device.command_list();
        delete.delete_program(p);
        deleting.submit(0, delete).unwrap();
        let n = deleting.number();
        drop(deleting);
        device.wait_frames(n + 1).unwrap();
        linking.submit(0, device.command_list()).unwrap();
        drop(linking);
        device.finish().unwrap();
        let _ = device.get_error().unwrap(); // the refused link's error, if the GL raised one
                                             // SAFETY: names.
        unsafe {
            (d.gl.DeleteProgram)(dp);
            (d.gl.LinkProgram)(dp);
        }
        let _ = d.error();
        new_program_answers_as_direct_gl(&device, p, &d, dp);
    });
}

/// The same pending link, but the new program is made before the link replays: the link then
/// links the new program (the GL works by name), with no shader attached (direct GL: create,
/// then the link).
#[test]
fn a_link_pending_when_the_name_is_reused_links_the_new_program() {
    in_child("a_link_pending_when_the_name_is_reused_links_the_new_program", || {
        let (device, d) = (device(), Direct::new());
        let (p, dp) = (linked_device_program(&device), linked_direct_program(&d));
        let deleting = device.begin_frame(1).unwrap();
        let linking = device.begin_frame(2).unwrap();
        let mut relink = device.command_list();
        relink.link_program(p);
        linking.submit(1, relink).unwrap();
        let mut delete = device.command_list();
        delete.delete_program(p);
        deleting.submit(0, delete).unwrap();
        let n = deleting.number();
        drop(deleting);
        device.wait_frames(n + 1).unwrap();
        let fresh = device.create_program().unwrap();
        assert_eq!(fresh, p, "the GL did not reuse the name");
        linking.submit(0, device.command_list()).unwrap();
        drop(linking);
        // SAFETY: names, no pointers.
        let direct_fresh = unsafe {
            (d.gl.DeleteProgram)(dp);
            let q = (d.gl.CreateProgram)();
            (d.gl.LinkProgram)(q);
            q
        };
        assert_eq!(direct_fresh, dp);
        let (got, want) = (probe_device(&device, fresh), probe_direct(&d, direct_fresh));
        eprintln!("linked with no shader: glcmd {got:?}, direct GL {want:?}");
        assert_eq!(got, want);
        assert_eq!(got.0, 0, "a link with no shader fails");
        device_delete(&device, fresh);
        device.finish().unwrap();
        assert_eq!(device.stats().program_entries, 0);
    });
}

/// A delete glcmd does not see (inside `with_gl`): the name handed out again drops what was
/// kept for it.
#[test]
fn a_delete_inside_with_gl_is_caught() {
    in_child("a_delete_inside_with_gl_is_caught", || {
        let (device, d) = (device(), Direct::new());
        let (p, dp) = (linked_device_program(&device), linked_direct_program(&d));
        // SAFETY: a name.
        device.with_gl(move |g| unsafe { (g.DeleteProgram)(p) }).unwrap();
        unsafe { (d.gl.DeleteProgram)(dp) };
        new_program_answers_as_direct_gl(&device, p, &d, dp);
    });
}

/// `glCreateShaderProgramv` under a reused name: the cache holds the new program's answers,
/// not the old program's and not none.
#[test]
fn create_shader_programv_under_a_reused_name_answers_for_the_new_program() {
    in_child("create_shader_programv_under_a_reused_name_answers_for_the_new_program", || {
        let (device, d) = (device(), Direct::new());
        let (p, dp) = (linked_device_program(&device), linked_direct_program(&d));
        // glCreateShaderProgramv makes a shader first, then the program: with the deleted
        // program's name and a lower one free, the program gets the deleted program's name.
        let mut list = device.command_list();
        list.delete_program(p);
        list.delete_shader(p - 1);
        device.submit(list).unwrap();
        device.finish().unwrap();
        let source = FS_AT_5;
        let fresh = device.create_shader_programv(gl::FRAGMENT_SHADER, &[source]).unwrap();
        let c = CString::new(source).unwrap();
        // SAFETY: a name; one NUL-terminated source.
        let direct_fresh = unsafe {
            (d.gl.DeleteProgram)(dp);
            (d.gl.DeleteShader)(dp - 1);
            (d.gl.CreateShaderProgramv)(gl::FRAGMENT_SHADER, 1, &c.as_ptr())
        };
        assert_eq!(fresh, p, "the GL did not reuse the name");
        assert_eq!(direct_fresh, dp);
        let before = device.stats().round_trips;
        let got = probe_device(&device, fresh);
        assert_eq!(got, probe_direct(&d, direct_fresh));
        assert_eq!((got.0, got.2), (1, 5));
        // Answered from the cache (the error query is the one round trip).
        assert_eq!(device.stats().round_trips - before, 1, "the new program's answers are cached");
    });
}
