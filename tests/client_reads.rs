//! Reads into a caller's memory write the bytes the GL writes and no others, and a query-object
//! output is an offset while a query buffer is bound (`runtime/client_out.rs`; issue 30 item 2,
//! issue 34 item 2).
//!
//! The C ABI hands a query method the caller's pointers through `client_out::with_client_outputs`;
//! these tests do the same from Rust, and compare every byte with the same call made directly on
//! the render thread (`with_gl`) into memory of the same sentinel bytes: reads of the
//! framebuffer and of textures under pack states of every parameter, a read partly outside the
//! framebuffer, `bufSize` larger than the image, a `bufSize` in bytes that cuts a value, and
//! `glGetQueryObject*v` into a bound `GL_QUERY_BUFFER` at offsets inside, at and past its end
//! (and NULL, which is offset 0 there and refused with nothing bound). The program's own
//! `glcmd-run` test (`run/tests/unchanged.rs`, `tests/c/reads.c`) runs the C ABI end to end.

mod common;

use common::*;
use glcmd::client_out::with_client_outputs;
use glcmd::types::*;
use glcmd::{gl, Device, Error};

const SENTINEL: u8 = 0xAB;
const ROOM: usize = 1024;

/// Pack states: (row length, skip pixels, skip rows, alignment, swap bytes).
const PACKS: [(i32, i32, i32, i32, i32); 6] =
    [(0, 0, 0, 4, 0), (0, 0, 0, 1, 0), (0, 0, 0, 8, 0), (11, 0, 0, 4, 0), (13, 2, 1, 8, 1), (7, 3, 2, 2, 0)];

fn set_pack(g: &glcmd::Gl, (row, skip_pixels, skip_rows, alignment, swap): (i32, i32, i32, i32, i32)) {
    unsafe {
        (g.PixelStorei)(gl::PACK_ROW_LENGTH, row);
        (g.PixelStorei)(gl::PACK_SKIP_PIXELS, skip_pixels);
        (g.PixelStorei)(gl::PACK_SKIP_ROWS, skip_rows);
        (g.PixelStorei)(gl::PACK_ALIGNMENT, alignment);
        (g.PixelStorei)(gl::PACK_SWAP_BYTES, swap);
    }
}

/// An 8x8 RGBA8 framebuffer (bound for reading) and a 3x2x3 RGBA8 3D texture, of bytes
/// without the sentinel.
fn scene(device: &Device) -> GLuint {
    let fbo = device_fbo_rgba8(device, 8, 8);
    let texture = device.create_texture(gl::TEXTURE_3D).unwrap();
    let texels: Vec<u8> = (0..72).map(|i| (i * 13 % 171) as u8).collect();
    let mut list = device.command_list();
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.clear_color(0.25, 0.5, 0.75, 1.0);
    list.clear(gl::COLOR_BUFFER_BIT);
    list.texture_storage_3d(texture, 1, gl::RGBA8, 3, 2, 3);
    list.texture_sub_image_3d(texture, 0, 0, 0, 0, 3, 2, 3, gl::RGBA, gl::UNSIGNED_BYTE, &texels[..]);
    device.submit(list).unwrap();
    texture
}

/// The bytes and error of `call` made directly on the render thread into sentinel memory.
fn direct(
    device: &Device,
    pack: (i32, i32, i32, i32, i32),
    call: impl FnOnce(&glcmd::Gl, *mut u8) + Send + 'static,
) -> (GLenum, Vec<u8>) {
    device
        .with_gl(move |g| {
            let mut out = vec![SENTINEL; ROOM];
            unsafe { while (g.GetError)() != gl::NO_ERROR {} }
            set_pack(g, pack);
            call(g, out.as_mut_ptr());
            let error = unsafe { (g.GetError)() };
            set_pack(g, PACKS[0]);
            (error, out)
        })
        .unwrap()
}

/// The bytes and error of the query method `query` given sentinel memory as parameter `index`'s
/// output, its answer copied back as the C ABI copies it.
fn through_glcmd<T: Copy>(
    device: &Device,
    pack: (i32, i32, i32, i32, i32),
    index: usize,
    query: impl FnOnce(&Device) -> Result<Vec<T>, Error>,
) -> (GLenum, Vec<u8>) {
    let mut out = vec![SENTINEL; ROOM];
    device.with_gl(move |g| set_pack(g, pack)).unwrap();
    let answer = unsafe { with_client_outputs(&[(index, out.as_mut_ptr().cast())], || query(device)) };
    if let Ok(values) = answer {
        let bytes = std::mem::size_of_val(&values[..]);
        unsafe { std::ptr::copy_nonoverlapping(values.as_ptr().cast::<u8>(), out.as_mut_ptr(), bytes) };
    }
    let error = device.get_error().unwrap();
    device.with_gl(|g| set_pack(g, PACKS[0])).unwrap();
    (error, out)
}

fn same(what: &str, (e1, b1): (GLenum, Vec<u8>), (e2, b2): (GLenum, Vec<u8>)) {
    assert_eq!(e2, e1, "{what}: error (direct, then through glcmd)");
    if let Some(i) = (0..ROOM).find(|&i| b1[i] != b2[i]) {
        panic!("{what}: byte {i} is {:#x} directly and {:#x} through glcmd", b1[i], b2[i]);
    }
}

#[test]
fn reads_into_memory_write_only_what_the_gl_writes() {
    let device = device();
    let texture = scene(&device);
    for pack in PACKS {
        let w = format!("glReadPixels 3x2 RGB under {pack:?}");
        let d =
            direct(&device, pack, |g, p| unsafe { (g.ReadPixels)(1, 2, 3, 2, gl::RGB, gl::UNSIGNED_BYTE, p.cast()) });
        same(&w, d, through_glcmd(&device, pack, 6, |dv| dv.read_pixels(1, 2, 3, 2, gl::RGB, gl::UNSIGNED_BYTE)));
        let w = format!("glReadPixels 5x5 half outside under {pack:?}");
        let d =
            direct(&device, pack, |g, p| unsafe { (g.ReadPixels)(-2, 5, 5, 5, gl::RGBA, gl::UNSIGNED_BYTE, p.cast()) });
        same(&w, d, through_glcmd(&device, pack, 6, |dv| dv.read_pixels(-2, 5, 5, 5, gl::RGBA, gl::UNSIGNED_BYTE)));
        let w = format!("glReadnPixels RED/USHORT, bufSize {ROOM}, under {pack:?}");
        let n = ROOM as GLsizei;
        let d = direct(&device, pack, move |g, p| unsafe {
            (g.ReadnPixels)(0, 0, 3, 3, gl::RED, gl::UNSIGNED_SHORT, n, p.cast())
        });
        same(&w, d, through_glcmd(&device, pack, 7, |dv| dv.readn_pixels(0, 0, 3, 3, gl::RED, gl::UNSIGNED_SHORT, n)));
        let w = format!("glGetTextureImage 3D, bufSize {ROOM}, under {pack:?}");
        let d = direct(&device, pack, move |g, p| unsafe {
            (g.GetTextureImage)(texture, 0, gl::RGB, gl::UNSIGNED_BYTE, n, p.cast())
        });
        same(
            &w,
            d,
            through_glcmd(&device, pack, 5, |dv| dv.get_texture_image(texture, 0, gl::RGB, gl::UNSIGNED_BYTE, n)),
        );
        let w = format!("glGetTextureSubImage 2x2x2 under {pack:?}");
        let d = direct(&device, pack, move |g, p| unsafe {
            (g.GetTextureSubImage)(texture, 0, 1, 0, 1, 2, 2, 2, gl::RGBA, gl::UNSIGNED_BYTE, n, p.cast())
        });
        let t = through_glcmd(&device, pack, 11, |dv| {
            dv.get_texture_sub_image(texture, 0, 1, 0, 1, 2, 2, 2, gl::RGBA, gl::UNSIGNED_BYTE, n)
        });
        same(&w, d, t);
    }
    // Too small a bufSize: an error, nothing written.
    let d = direct(&device, PACKS[0], |g, p| unsafe {
        (g.ReadnPixels)(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, 20, p.cast())
    });
    same(
        "glReadnPixels, bufSize 20",
        d,
        through_glcmd(&device, PACKS[0], 7, |dv| dv.readn_pixels(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, 20)),
    );
}

#[test]
fn a_byte_count_that_cuts_a_value_fills_only_the_bytes_counted() {
    let device = device();
    let program = device_program(
        &device,
        &[
            (
                gl::VERTEX_SHADER,
                "#version 450 core\nuniform vec2 u;\nvoid main() { gl_Position = vec4(u, 0.0, 1.0); }\n",
            ),
            (gl::FRAGMENT_SHADER, "#version 450 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n"),
        ],
    );
    let location = device.get_uniform_location(program, "u").unwrap();
    // A vec2 in a bufSize of 10 bytes: the GL writes 8.
    let d = direct(&device, PACKS[0], move |g, p| unsafe { (g.GetnUniformfv)(program, location, 10, p.cast()) });
    let mut out = vec![SENTINEL; ROOM];
    let answer = unsafe {
        with_client_outputs(&[(3, out.as_mut_ptr().cast())], || device.getn_uniformfv(program, location, 10))
    }
    .unwrap();
    // The C ABI copies at most bufSize bytes (`conv::write_slice_bytes`).
    let bytes = std::mem::size_of_val(&answer[..]).min(10);
    unsafe { std::ptr::copy_nonoverlapping(answer.as_ptr().cast::<u8>(), out.as_mut_ptr(), bytes) };
    same("glGetnUniformfv, bufSize 10", d, (device.get_error().unwrap(), out));
}

/// A query of 5 points generated, its program and vertex array.
fn points_query(device: &Device) -> GLuint {
    let program = device_program(
        device,
        &[
            (gl::VERTEX_SHADER, "#version 450 core\nvoid main() { gl_Position = vec4(0.0); }\n"),
            (gl::FRAGMENT_SHADER, "#version 450 core\nout vec4 c;\nvoid main() { c = vec4(1.0); }\n"),
        ],
    );
    let vao = device.create_vertex_arrays(1).unwrap()[0];
    let query = device.create_queries(gl::PRIMITIVES_GENERATED, 1).unwrap()[0];
    let fbo = device_fbo_rgba8(device, 4, 4);
    let mut list = device.command_list();
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.bind_vertex_array(vao);
    list.use_program(program);
    list.begin_query(gl::PRIMITIVES_GENERATED, query);
    list.draw_arrays(gl::POINTS, 0, 5);
    list.end_query(gl::PRIMITIVES_GENERATED);
    list.use_program(0);
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    query
}

#[test]
fn a_query_result_goes_into_the_bound_query_buffer_at_its_offset() {
    let device = device();
    let query = points_query(&device);
    let buffer = device.create_buffer().unwrap();
    let mut list = device.command_list();
    list.named_buffer_storage(buffer, 32, Some(&[SENTINEL; 32][..]), gl::DYNAMIC_STORAGE_BIT);
    list.bind_buffer(gl::QUERY_BUFFER, buffer);
    device.submit(list).unwrap();
    let at = |offset: usize| {
        let answer = unsafe {
            with_client_outputs(&[(2, offset as *mut std::ffi::c_void)], || {
                device.get_query_objectuiv(query, gl::QUERY_RESULT)
            })
        };
        (answer, device.get_error().unwrap())
    };
    // Offsets 0 (NULL) and 8: written into the buffer, nothing answered.
    for offset in [0, 8] {
        let (answer, error) = at(offset);
        assert_eq!((answer.unwrap(), error), (vec![], gl::NO_ERROR), "offset {offset}");
    }
    // Past the end: the GL's GL_INVALID_OPERATION, nothing written.
    let (past, _) = at(30);
    assert!(matches!(past, Err(Error::OutputOffset { offset: Some(30), len: 4, size: 32, .. })), "{past:?}");
    assert_eq!(past.unwrap_err().gl_error(), Some(gl::INVALID_OPERATION));
    let bytes = device.get_named_buffer_sub_data(buffer, 0, 32).unwrap();
    let mut expected = vec![SENTINEL; 32];
    expected[0..4].copy_from_slice(&5u32.to_ne_bytes());
    expected[8..12].copy_from_slice(&5u32.to_ne_bytes());
    assert_eq!(bytes, expected);
    // Unbound: memory again, and NULL is refused with the GL's error for a NULL output.
    let mut list = device.command_list();
    list.bind_buffer(gl::QUERY_BUFFER, 0);
    device.submit(list).unwrap();
    let mut value: GLuint = 7;
    let answer = unsafe {
        with_client_outputs(&[(2, (&mut value as *mut GLuint).cast())], || {
            device.get_query_objectuiv(query, gl::QUERY_RESULT)
        })
    };
    assert_eq!(answer.unwrap(), vec![5]);
    let (null, _) = at(0);
    assert!(matches!(null, Err(Error::OutputOffset { offset: None, .. })), "{null:?}");
    assert_eq!(null.unwrap_err().gl_error(), Some(gl::INVALID_VALUE));
    // The Rust API without a pointer answers in memory whatever is bound.
    let mut list = device.command_list();
    list.bind_buffer(gl::QUERY_BUFFER, buffer);
    device.submit(list).unwrap();
    assert_eq!(device.get_query_objectuiv(query, gl::QUERY_RESULT).unwrap(), vec![5]);
    assert_eq!(device.get_named_buffer_sub_data(buffer, 0, 32).unwrap(), expected);
}
