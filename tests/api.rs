//! The forms the Rust API adds beside each GL function (issue 11), each against direct GL or
//! the plural/vector form it stands for: singular creates, scalar queries, `bool` arguments and
//! results, typed-slice uploads and the `_from_slice` form; and the messages of misuse, which
//! name the GL function, the argument and the enum by its GL name, at the caller's line.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use common::*;
use glcmd::gl;
use glcmd::types::GLuint;

/// The singular creates return the names the plural ones would, in the same order as direct
/// GL gives them.
#[test]
fn singular_creates_match_direct_gl() {
    let d = Direct::new();
    let direct: Vec<GLuint> = unsafe {
        let mut v = vec![0; 4];
        (d.gl.CreateBuffers)(1, &mut v[0]);
        (d.gl.CreateTextures)(gl::TEXTURE_2D, 1, &mut v[1]);
        (d.gl.GenQueries)(1, &mut v[2]);
        (d.gl.CreateVertexArrays)(1, &mut v[3]);
        v
    };
    let device = device();
    let ours = vec![
        device.create_buffer().unwrap(),
        device.create_texture(gl::TEXTURE_2D).unwrap(),
        device.gen_query().unwrap(),
        device.create_vertex_array().unwrap(),
    ];
    assert_eq!(ours, direct);
    assert!(device.is_buffer(ours[0]).unwrap(), "a created buffer is a buffer: is_buffer returns bool");
    assert!(device.is_texture(ours[1]).unwrap());
}

/// A scalar query returns the first (only) value of its vector form; a multi-valued pname is
/// the caller's mistake and panics at the caller's line, naming the function and the enum.
#[test]
fn scalar_queries() {
    let device = device();
    let mut list = device.command_list();
    list.enable(gl::DEPTH_TEST);
    list.depth_mask(false); // bool argument
    list.color_mask(false, true, false, true);
    list.viewport(1, 2, 30, 40);
    device.submit(list).unwrap();

    assert_eq!(
        device.get_integer(gl::MAX_TEXTURE_SIZE).unwrap(),
        device.get_integerv(gl::MAX_TEXTURE_SIZE).unwrap()[0]
    );
    assert_eq!(
        device.get_integer(gl::MAX_TEXTURE_SIZE).unwrap(),
        device.limits().integerv(gl::MAX_TEXTURE_SIZE).unwrap()[0]
    );
    assert!(device.get_boolean(gl::DEPTH_TEST).unwrap(), "get_boolean returns bool");
    assert!(!device.get_boolean(gl::DEPTH_WRITEMASK).unwrap());
    assert!(device.is_enabled(gl::DEPTH_TEST).unwrap());
    assert_eq!(device.get_booleanv(gl::COLOR_WRITEMASK).unwrap(), vec![0, 1, 0, 1]);
    assert_eq!(device.get_integerv(gl::VIEWPORT).unwrap(), vec![1, 2, 30, 40]);

    let shader = device.create_shader(gl::VERTEX_SHADER).unwrap();
    assert_eq!(device.get_shaderi(shader, gl::SHADER_TYPE).unwrap(), gl::VERTEX_SHADER as i32);
    assert_eq!(device.get_shaderi(shader, gl::COMPILE_STATUS).unwrap(), 0);

    let expected = line!() + 2; // the call below, whatever the formatting after it
    let (message, line) = panic_site(|| {
        let _ = device.get_integer(gl::VIEWPORT);
    });
    assert!(
        message.contains("glGetIntegerv") && message.contains("GL_VIEWPORT") && message.contains("4 values"),
        "{message}"
    );
    assert!(!message.contains("0x0BA2"), "enums are named, not printed in hex: {message}");
    assert_eq!(line, expected, "the panic points at the caller's line");
}

/// Uploads take typed slices; the `_from_slice` form takes the size from the slice; the bytes
/// that reach the buffer are the slice's.
#[test]
fn typed_slices_reach_the_buffer() {
    let device = device();
    let (a, b) = (device.create_buffer().unwrap(), device.create_buffer().unwrap());
    let floats: [f32; 4] = [1.0, -2.5, 0.125, 1e9];
    let indices: Vec<u16> = vec![0, 1, 2, 2, 3, 0];
    let mut list = device.command_list();
    list.named_buffer_storage_from_slice(a, &floats, gl::DYNAMIC_STORAGE_BIT);
    list.named_buffer_storage(b, 64, None, gl::DYNAMIC_STORAGE_BIT); // allocation only: no type to name
    list.named_buffer_sub_data(b, 4, &indices);
    device.submit(list).unwrap();

    let expected: Vec<u8> = floats.iter().flat_map(|f| f.to_ne_bytes()).collect();
    assert_eq!(device.get_named_buffer_sub_data(a, 0, 16).unwrap(), expected);
    assert_eq!(device.get_named_buffer_parameteri(a, gl::BUFFER_SIZE).unwrap(), 16);
    let expected: Vec<u8> = indices.iter().flat_map(|i| i.to_ne_bytes()).collect();
    assert_eq!(device.get_named_buffer_sub_data(b, 4, 12).unwrap(), expected);
}

/// A recording method given impossible input panics at the caller's line, naming the GL
/// function, the argument and the pname by its GL name.
#[test]
fn recording_misuse_names_function_argument_and_enum() {
    let device = device();
    let mut list = device.command_list();
    let (message, line) = panic_site(|| list.tex_parameterfv(gl::TEXTURE_2D, gl::TEXTURE_BORDER_COLOR, &[1.0]));
    assert_eq!(line, line!() - 1);
    assert!(message.contains("glTexParameterfv"), "{message}");
    assert!(message.contains("`params`"), "{message}");
    assert!(message.contains("GL_TEXTURE_BORDER_COLOR"), "{message}");
    assert!(message.contains("needs 4"), "{message}");
}

/// Runs `f`, which must panic; returns the panic message and the line it points at.
fn panic_site(f: impl FnOnce()) -> (String, u32) {
    let site = Arc::new(Mutex::new(None));
    let hook = std::panic::take_hook();
    {
        let site = site.clone();
        std::panic::set_hook(Box::new(move |info| {
            let at = info.location().map(|l| (l.file().to_string(), l.line()));
            *site.lock().unwrap() = at;
        }));
    }
    let result = catch_unwind(AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    let payload = result.expect_err("the call must panic");
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    let (file, line) = site.lock().unwrap().clone().expect("the hook saw the panic");
    assert!(file.ends_with("tests/api.rs"), "the panic points into the caller's file, not {file}");
    (message, line)
}
