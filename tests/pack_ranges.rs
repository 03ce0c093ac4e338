//! Pixel reads into the pixel-pack buffer write only inside its storage (`runtime/pack_range.rs`).
//!
//! Every recording method that reads pixels into the buffer bound to `GL_PIXEL_PACK_BUFFER`
//! (`read_pixels_to_buffer`, `get_tex_image_to_buffer`, ... : ten functions) is driven at the last
//! offset that fits, where it must write exactly the image, and one byte further, where glcmd must
//! refuse it before the GL writes anything. Each refusal is compared with the same call made
//! directly on the render thread (`with_gl`): the error must be the GL's own, and the buffer's
//! bytes (filled with a sentinel) must be what the GL leaves. The image sizes depend on the pack
//! state, the level's size, a cube map's six faces and `bufSize`, and each of those is varied.

mod common;

use common::*;
use glcmd::types::*;
use glcmd::{gl, CommandList, Device, ReportKind};

const SENTINEL: u8 = 0xA5;

/// A pack buffer of `size` bytes, each [`SENTINEL`].
fn pack_buffer(device: &Device, size: usize) -> GLuint {
    let buffer = device.create_buffer().unwrap();
    let mut list = device.command_list();
    list.named_buffer_storage(buffer, size as GLsizeiptr, Some(&vec![SENTINEL; size]), gl::DYNAMIC_STORAGE_BIT);
    device.submit(list).unwrap();
    buffer
}

/// An 8x4 RGBA8 texture (one level) whose texel (x, y) is `[x, y, 7, 255]`.
fn texture_8x4(device: &Device) -> GLuint {
    let texture = device.create_texture(gl::TEXTURE_2D).unwrap();
    let texels: Vec<u8> = (0..4u8).flat_map(|y| (0..8u8).flat_map(move |x| [x, y, 7, 255])).collect();
    let mut list = device.command_list();
    list.texture_storage_2d(texture, 1, gl::RGBA8, 8, 4);
    list.texture_sub_image_2d(texture, 0, 0, 0, 8, 4, gl::RGBA, gl::UNSIGNED_BYTE, &texels[..]);
    device.submit(list).unwrap();
    texture
}

/// An 8x8 RGTC1 texture (4 blocks of 8 bytes), its blocks filled with bytes 0..32.
fn compressed_8x8(device: &Device) -> GLuint {
    let texture = device.create_texture(gl::TEXTURE_2D).unwrap();
    let blocks: Vec<u8> = (0..32u8).collect();
    let mut list = device.command_list();
    list.texture_storage_2d(texture, 1, gl::COMPRESSED_RED_RGTC1, 8, 8);
    list.compressed_texture_sub_image_2d(texture, 0, 0, 0, 8, 8, gl::COMPRESSED_RED_RGTC1, 32, &blocks[..]);
    device.submit(list).unwrap();
    texture
}

/// Runs `record` with `buffer` bound to `GL_PIXEL_PACK_BUFFER` (and unbinds it after); returns
/// the error it raised, how many calls glcmd refused, whether the context lacks the function
/// (an `Unavailable` report), and the buffer's bytes.
fn through_glcmd(
    device: &Device,
    buffer: GLuint,
    record: impl FnOnce(&mut CommandList),
) -> (GLenum, usize, bool, Vec<u8>) {
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR, "an error left from before");
    let _ = device.reports().try_iter().count();
    let mut list = device.command_list();
    list.bind_buffer(gl::PIXEL_PACK_BUFFER, buffer);
    record(&mut list);
    list.bind_buffer(gl::PIXEL_PACK_BUFFER, 0);
    device.submit(list).unwrap();
    let error = device.get_error().unwrap();
    let reports: Vec<ReportKind> = device.reports().try_iter().map(|r| r.kind).collect();
    let refused = reports.iter().filter(|&&k| k == ReportKind::Skipped).count();
    let lacks = reports.contains(&ReportKind::Unavailable);
    let size = device.get_named_buffer_parameteri64v(buffer, gl::BUFFER_SIZE).unwrap()[0];
    (error, refused, lacks, device.get_named_buffer_sub_data(buffer, 0, size as GLsizeiptr).unwrap())
}

/// The same call made directly on the render thread, into a fresh buffer of the same size:
/// (error, bytes).
fn direct(device: &Device, size: usize, call: impl FnOnce(&glcmd::Gl) + Send + 'static) -> (GLenum, Vec<u8>) {
    let buffer = pack_buffer(device, size);
    let error = device
        .with_gl(move |g| unsafe {
            while (g.GetError)() != gl::NO_ERROR {}
            (g.BindBuffer)(gl::PIXEL_PACK_BUFFER, buffer);
            call(g);
            (g.BindBuffer)(gl::PIXEL_PACK_BUFFER, 0);
            (g.GetError)()
        })
        .unwrap();
    (error, device.get_named_buffer_sub_data(buffer, 0, size as GLsizeiptr).unwrap())
}

/// One read at the last offset that fits (`fits`) and one byte past it, through glcmd and
/// directly: the same errors and bytes; glcmd refuses (and reports) only the one past the end.
fn check_edge<R, D>(device: &Device, what: &str, size: usize, fits: usize, record: R, call: D)
where
    R: Fn(&mut CommandList, usize),
    D: Fn(&glcmd::Gl, usize) + Send + Sync + Clone + 'static,
{
    // Mesa 22 lacks the robust texture reads (glGetnTexImage, glGetnCompressedTexImage: its
    // dispatch has no slot for them, glcmd's `loader.rs`): called, they write nothing, directly
    // with no error; through glcmd with GL_INVALID_OPERATION, as any call of a function the
    // context lacks. For them the bytes are compared with direct GL's, the error is the one for
    // a lacking function (or past the end the specification's), and "it wrote" is not asked.
    let writes = !what.starts_with("glGetn");
    edge(device, what, (size, fits, writes), record, call)
}

fn edge<R, D>(device: &Device, what: &str, (size, fits, writes): (usize, usize, bool), record: R, call: D)
where
    R: Fn(&mut CommandList, usize),
    D: Fn(&glcmd::Gl, usize) + Send + Sync + Clone + 'static,
{
    for (offset, refused) in [(fits, 0), (fits + 1, 1)] {
        let buffer = pack_buffer(device, size);
        let (error, n, lacks, bytes) = through_glcmd(device, buffer, |l| record(l, offset));
        let d = call.clone();
        let (direct_error, direct_bytes) = direct(device, size, move |g| d(g, offset));
        assert_eq!(n, refused, "{what} at offset {offset}: calls refused");
        if lacks {
            assert!(!writes && refused == 0, "{what} at offset {offset}: a lacking function in a test that expects it");
            assert_eq!(
                error,
                gl::INVALID_OPERATION,
                "{what} at offset {offset}: a call of a function the context lacks"
            );
        } else if writes || refused == 0 {
            assert_eq!(error, direct_error, "{what} at offset {offset}: glcmd's error, then direct GL's");
        }
        assert_eq!(bytes, direct_bytes, "{what} at offset {offset}: the buffer's bytes differ from direct GL's");
        if refused == 1 {
            assert_eq!(error, gl::INVALID_OPERATION, "{what}: the GL's error for a write past the buffer");
            assert!(bytes.iter().all(|&b| b == SENTINEL), "{what}: a refused read wrote into the buffer");
        } else if writes {
            assert!(
                bytes[offset..].iter().any(|&b| b != SENTINEL),
                "{what}: the read wrote nothing (error {error:#x})"
            );
        }
    }
}

#[test]
fn framebuffer_reads_fit_the_pack_buffer_under_the_pack_state() {
    let device = device();
    let fbo = device_fbo_rgba8(&device, 4, 4);
    let mut list = device.command_list();
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.clear_color(0.0, 1.0, 0.0, 1.0);
    list.clear(gl::COLOR_BUFFER_BIT);
    device.submit(list).unwrap();
    // 4x4 RGBA8: 64 bytes in a buffer of 100.
    check_edge(
        &device,
        "glReadPixels",
        100,
        36,
        |l, o| l.read_pixels_to_buffer(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, o),
        |g, o| unsafe { (g.ReadPixels)(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, o as *mut _) },
    );
    check_edge(
        &device,
        "glReadnPixels",
        100,
        36,
        |l, o| l.readn_pixels_to_buffer(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, 64, o),
        |g, o| unsafe { (g.ReadnPixels)(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, 64, o as *mut _) },
    );
    // Rows of 6 pixels with 1 row skipped: (1 + 3) * 24 + 16 = 112 bytes.
    let pack_state = |l: &mut CommandList, row: i32, skip: i32| {
        l.pixel_storei(gl::PACK_ROW_LENGTH, row);
        l.pixel_storei(gl::PACK_SKIP_ROWS, skip);
    };
    check_edge(
        &device,
        "glReadPixels with PACK_ROW_LENGTH 6, PACK_SKIP_ROWS 1",
        120,
        8,
        |l, o| {
            pack_state(l, 6, 1);
            l.read_pixels_to_buffer(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, o);
            pack_state(l, 0, 0);
        },
        |g, o| unsafe {
            (g.PixelStorei)(gl::PACK_ROW_LENGTH, 6);
            (g.PixelStorei)(gl::PACK_SKIP_ROWS, 1);
            (g.ReadPixels)(0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, o as *mut _);
            (g.PixelStorei)(gl::PACK_ROW_LENGTH, 0);
            (g.PixelStorei)(gl::PACK_SKIP_ROWS, 0);
        },
    );
}

#[test]
fn texture_reads_fit_the_pack_buffer_by_the_levels_size() {
    let device = device();
    let texture = texture_8x4(&device);
    // 8x4 RGBA8: 128 bytes in a buffer of 160.
    let bind = move |l: &mut CommandList| l.bind_texture(gl::TEXTURE_2D, texture);
    check_edge(
        &device,
        "glGetTexImage",
        160,
        32,
        |l, o| {
            bind(l);
            l.get_tex_image_to_buffer(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE, o);
        },
        move |g, o| unsafe {
            (g.BindTexture)(gl::TEXTURE_2D, texture);
            (g.GetTexImage)(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE, o as *mut _);
        },
    );
    check_edge(
        &device,
        "glGetnTexImage",
        160,
        32,
        |l, o| {
            bind(l);
            l.getn_tex_image_to_buffer(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE, 128, o);
        },
        move |g, o| unsafe {
            (g.BindTexture)(gl::TEXTURE_2D, texture);
            (g.GetnTexImage)(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE, 128, o as *mut _);
        },
    );
    check_edge(
        &device,
        "glGetTextureImage",
        160,
        32,
        |l, o| l.get_texture_image_to_buffer(texture, 0, gl::RGBA, gl::UNSIGNED_BYTE, 160, o),
        move |g, o| unsafe { (g.GetTextureImage)(texture, 0, gl::RGBA, gl::UNSIGNED_BYTE, 160, o as *mut _) },
    );
    // A 3x2 sub-image: 24 bytes.
    check_edge(
        &device,
        "glGetTextureSubImage",
        40,
        16,
        |l, o| l.get_texture_sub_image_to_buffer(texture, 0, 2, 1, 0, 3, 2, 1, gl::RGBA, gl::UNSIGNED_BYTE, 40, o),
        move |g, o| unsafe {
            (g.GetTextureSubImage)(texture, 0, 2, 1, 0, 3, 2, 1, gl::RGBA, gl::UNSIGNED_BYTE, 40, o as *mut _)
        },
    );
}

#[test]
fn a_whole_cube_map_is_six_faces() {
    let device = device();
    let cube = device.create_texture(gl::TEXTURE_CUBE_MAP).unwrap();
    let mut list = device.command_list();
    list.texture_storage_2d(cube, 1, gl::RGBA8, 2, 2);
    for face in 0..6 {
        let texels = [face as u8 * 40; 16];
        list.texture_sub_image_3d(cube, 0, 0, 0, face, 2, 2, 1, gl::RGBA, gl::UNSIGNED_BYTE, &texels[..]);
    }
    device.submit(list).unwrap();
    // Six faces of 2x2 RGBA8: 96 bytes in a buffer of 100.
    check_edge(
        &device,
        "glGetTextureImage of a cube map",
        100,
        4,
        |l, o| l.get_texture_image_to_buffer(cube, 0, gl::RGBA, gl::UNSIGNED_BYTE, 96, o),
        move |g, o| unsafe { (g.GetTextureImage)(cube, 0, gl::RGBA, gl::UNSIGNED_BYTE, 96, o as *mut _) },
    );
}

#[test]
fn compressed_reads_fit_the_pack_buffer_by_the_compressed_size() {
    let device = device();
    let texture = compressed_8x8(&device);
    check_edge(
        &device,
        "glGetCompressedTexImage",
        40,
        8,
        move |l, o| {
            l.bind_texture(gl::TEXTURE_2D, texture);
            l.get_compressed_tex_image_to_buffer(gl::TEXTURE_2D, 0, o);
        },
        move |g, o| unsafe {
            (g.BindTexture)(gl::TEXTURE_2D, texture);
            (g.GetCompressedTexImage)(gl::TEXTURE_2D, 0, o as *mut _);
        },
    );
    check_edge(
        &device,
        "glGetnCompressedTexImage",
        40,
        8,
        move |l, o| {
            l.bind_texture(gl::TEXTURE_2D, texture);
            l.getn_compressed_tex_image_to_buffer(gl::TEXTURE_2D, 0, 32, o);
        },
        move |g, o| unsafe {
            (g.BindTexture)(gl::TEXTURE_2D, texture);
            (g.GetnCompressedTexImage)(gl::TEXTURE_2D, 0, 32, o as *mut _);
        },
    );
    check_edge(
        &device,
        "glGetCompressedTextureImage",
        40,
        8,
        |l, o| l.get_compressed_texture_image_to_buffer(texture, 0, 32, o),
        move |g, o| unsafe { (g.GetCompressedTextureImage)(texture, 0, 32, o as *mut _) },
    );
    // A sub-image of one block is bounded by bufSize, the only size glcmd knows for it.
    check_edge(
        &device,
        "glGetCompressedTextureSubImage",
        40,
        32,
        |l, o| l.get_compressed_texture_sub_image_to_buffer(texture, 0, 4, 4, 0, 4, 4, 1, 8, o),
        move |g, o| unsafe { (g.GetCompressedTextureSubImage)(texture, 0, 4, 4, 0, 4, 4, 1, 8, o as *mut _) },
    );
}

/// `bufSize` bounds writes into client memory; with a pack buffer bound Mesa reads the whole
/// image whatever `bufSize` says and checks the buffer's storage instead. glcmd does the same.
#[test]
fn buf_size_does_not_bound_a_read_into_a_pack_buffer() {
    let device = device();
    let texture = texture_8x4(&device);
    let buffer = pack_buffer(&device, 256);
    let (error, refused, _, bytes) = through_glcmd(&device, buffer, |l| {
        l.get_texture_image_to_buffer(texture, 0, gl::RGBA, gl::UNSIGNED_BYTE, 16, 0)
    });
    let (direct_error, direct_bytes) = direct(&device, 256, move |g| unsafe {
        (g.GetTextureImage)(texture, 0, gl::RGBA, gl::UNSIGNED_BYTE, 16, std::ptr::null_mut())
    });
    assert_eq!((error, refused), (direct_error, 0));
    assert_eq!(bytes, direct_bytes);
    assert_eq!(&bytes[4 * 9..4 * 10], &[1, 1, 7, 255], "texel (1, 1)");
}

/// With compressed-block pack state set, the bytes depend on the format's blocks, which glcmd
/// does not model: a compressed read into a pack buffer is refused and says why.
#[test]
fn compressed_block_pack_state_is_refused() {
    let device = device();
    let texture = compressed_8x8(&device);
    let buffer = pack_buffer(&device, 64);
    let blocks = |l: &mut CommandList, on: bool| {
        for (pname, v) in [
            (gl::PACK_COMPRESSED_BLOCK_WIDTH, 4),
            (gl::PACK_COMPRESSED_BLOCK_HEIGHT, 4),
            (gl::PACK_COMPRESSED_BLOCK_DEPTH, 1),
            (gl::PACK_COMPRESSED_BLOCK_SIZE, 8),
        ] {
            l.pixel_storei(pname, if on { v } else { 0 });
        }
    };
    let (error, refused, _, bytes) = through_glcmd(&device, buffer, |l| {
        blocks(l, true);
        l.bind_texture(gl::TEXTURE_2D, texture);
        l.get_compressed_tex_image_to_buffer(gl::TEXTURE_2D, 0, 0);
        l.get_compressed_texture_image_to_buffer(texture, 0, 64, 0);
        blocks(l, false);
    });
    assert_eq!((error, refused), (gl::INVALID_OPERATION, 2));
    assert!(bytes.iter().all(|&b| b == SENTINEL));
    let (error, refused, _, bytes) =
        through_glcmd(&device, buffer, |l| l.get_compressed_texture_image_to_buffer(texture, 0, 64, 32));
    assert_eq!((error, refused), (gl::NO_ERROR, 0), "the same read with the state reset");
    assert_eq!(&bytes[32..], &(0..32u8).collect::<Vec<_>>()[..], "the blocks, at offset 32");
}

/// A refused read is named in its report with the image it measured and the buffer's size.
#[test]
fn the_report_names_the_call_and_the_overrun() {
    let device = device();
    let texture = texture_8x4(&device);
    let buffer = pack_buffer(&device, 100);
    let mut list = device.command_list();
    list.bind_buffer(gl::PIXEL_PACK_BUFFER, buffer);
    list.get_texture_image_to_buffer(texture, 0, gl::RGBA, gl::UNSIGNED_BYTE, 128, 0);
    list.bind_buffer(gl::PIXEL_PACK_BUFFER, 0);
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::INVALID_OPERATION);
    let reports: Vec<_> = device.reports().try_iter().filter(|r| r.kind == ReportKind::Skipped).collect();
    assert_eq!(reports.len(), 1, "{reports:#?}");
    assert!(reports[0].call.starts_with("glGetTextureImage("), "{}", reports[0]);
    assert!(reports[0].message.contains("128") && reports[0].message.contains("100"), "{}", reports[0]);
}

/// A format/type pair glcmd cannot size is refused with the GL's error for the pair, as the GL
/// refuses it: `GL_INVALID_ENUM` for a format that is none, `GL_INVALID_OPERATION` for a pair
/// that does not go together.
#[test]
fn a_pair_glcmd_cannot_size_raises_the_gls_error() {
    let device = device();
    let fbo = device_fbo_rgba8(&device, 4, 4);
    let mut list = device.command_list();
    list.bind_framebuffer(gl::READ_FRAMEBUFFER, fbo);
    device.submit(list).unwrap();
    for (format, type_, expected) in
        [(0x1234, gl::UNSIGNED_BYTE, gl::INVALID_ENUM), (gl::DEPTH_STENCIL, gl::UNSIGNED_BYTE, gl::INVALID_OPERATION)]
    {
        let buffer = pack_buffer(&device, 256);
        let (error, refused, _, bytes) =
            through_glcmd(&device, buffer, |l| l.read_pixels_to_buffer(0, 0, 4, 4, format, type_, 0));
        let (direct_error, direct_bytes) =
            direct(&device, 256, move |g| unsafe { (g.ReadPixels)(0, 0, 4, 4, format, type_, std::ptr::null_mut()) });
        assert_eq!((error, refused), (expected, 1), "format {format:#x}, type {type_:#x}");
        // Mesa 22 raises GL_INVALID_OPERATION for a format that is no format when a pack buffer
        // is bound (its buffer check, which cannot size the image, comes first); the
        // specification's error for it is GL_INVALID_ENUM (GL 4.6 §18.2.2), which glcmd raises.
        if expected == gl::INVALID_OPERATION {
            assert_eq!(direct_error, expected, "direct GL, format {format:#x}, type {type_:#x}");
        } else {
            assert_ne!(direct_error, gl::NO_ERROR, "direct GL refuses it too");
        }
        assert_eq!(bytes, direct_bytes);
        assert!(bytes.iter().all(|&b| b == SENTINEL));
    }
}
