//! Safe pixel uploads (issue 21): a recorded upload is sized from the list's own pixel-store
//! state, checked against the slice (a short one panics at the caller's line) or, for an offset
//! into the pixel-unpack buffer, against that buffer's storage at replay (refused with
//! `GL_INVALID_OPERATION`, the GL's error). Every outcome is checked by content, on llvmpipe:
//! the texels the GL stored, read back, against the same upload made directly through the GL
//! and against the layout rule applied by hand.

use std::cell::RefCell;

use glcmd::types::{GLenum, GLint, GLuint};
use glcmd::{gl, Bytes, Device, ReportKind};

fn device() -> Device {
    Device::headless().unwrap()
}

/// Bytes that differ from texel to texel (and from one test to the next, by `seed`).
fn pattern(n: usize, seed: usize) -> Vec<u8> {
    (0..n).map(|i| ((i * 31 + seed * 7 + 3) % 251) as u8).collect()
}

/// An unpack layout: the pixel-store values a test sets, in the list and directly.
#[derive(Clone, Copy)]
struct Layout {
    alignment: GLint,
    row_length: GLint,
    image_height: GLint,
    skip_pixels: GLint,
    skip_rows: GLint,
    skip_images: GLint,
}

impl Layout {
    fn pnames(self) -> [(GLenum, GLint); 6] {
        [
            (gl::UNPACK_ALIGNMENT, self.alignment),
            (gl::UNPACK_ROW_LENGTH, self.row_length),
            (gl::UNPACK_IMAGE_HEIGHT, self.image_height),
            (gl::UNPACK_SKIP_PIXELS, self.skip_pixels),
            (gl::UNPACK_SKIP_ROWS, self.skip_rows),
            (gl::UNPACK_SKIP_IMAGES, self.skip_images),
        ]
    }

    /// Row and image strides in bytes for pixels of `bpp` bytes, `w` x `h` images (the GL
    /// spec's rule, section 8.4.4.1, written out independently of glcmd's).
    fn strides(self, bpp: usize, w: usize, h: usize) -> (usize, usize) {
        let row_pixels = if self.row_length > 0 { self.row_length as usize } else { w };
        let a = self.alignment as usize;
        let row = (row_pixels * bpp).div_ceil(a) * a;
        let rows = if self.image_height > 0 { self.image_height as usize } else { h };
        (row, row * rows)
    }

    /// The texels the GL takes from `source` for a `w` x `h` x `d` image, tightly packed.
    fn extract(self, source: &[u8], bpp: usize, (w, h, d): (usize, usize, usize), skip_images: bool) -> Vec<u8> {
        let (row, image) = self.strides(bpp, w, h);
        let mut out = Vec::new();
        for z in 0..d {
            for y in 0..h {
                let zi = z + if skip_images { self.skip_images as usize } else { 0 };
                let start = zi * image + (y + self.skip_rows as usize) * row + self.skip_pixels as usize * bpp;
                out.extend_from_slice(&source[start..start + w * bpp]);
            }
        }
        out
    }

    /// The bytes the GL reads: up to the last byte of the last pixel.
    fn needed(self, bpp: usize, (w, h, d): (usize, usize, usize), skip_images: bool) -> usize {
        let (row, image) = self.strides(bpp, w, h);
        let zi = d - 1 + if skip_images { self.skip_images as usize } else { 0 };
        zi * image + (h - 1 + self.skip_rows as usize) * row + (self.skip_pixels as usize + w) * bpp
    }
}

/// Reads level 0 of `texture` back as RGBA8 through the safe query (pack alignment 4 divides
/// every RGBA8 row, so the default pack state packs it tightly).
fn read_rgba(device: &Device, texture: GLuint, texels: usize) -> Vec<u8> {
    device.get_texture_image(texture, 0, gl::RGBA, gl::UNSIGNED_BYTE, (texels * 4) as i32).unwrap()
}

/// RGB8 texels as the RGBA8 the GL reads back (alpha 1.0).
fn rgb_to_rgba(rgb: &[u8]) -> Vec<u8> {
    rgb.chunks(3).flat_map(|c| [c[0], c[1], c[2], 255]).collect()
}

#[test]
fn a_2d_upload_under_a_non_default_unpack_state_stores_what_the_gl_stores_directly() {
    let device = device();
    let (w, h) = (5usize, 3usize);
    let layout = Layout { alignment: 8, row_length: 7, image_height: 0, skip_pixels: 2, skip_rows: 1, skip_images: 0 };
    let needed = layout.needed(3, (w, h, 1), false);
    let source = pattern(needed, 1);
    let textures = device.create_textures(gl::TEXTURE_2D, 2).unwrap();
    let (through_glcmd, direct) = (textures[0], textures[1]);

    let mut list = device.command_list();
    list.texture_storage_2d(through_glcmd, 1, gl::RGB8, w as i32, h as i32);
    list.texture_storage_2d(direct, 1, gl::RGB8, w as i32, h as i32);
    for (pname, value) in layout.pnames() {
        list.pixel_storei(pname, value);
    }
    // Exactly the bytes the GL reads: not one more.
    list.texture_sub_image_2d(through_glcmd, 0, 0, 0, w as i32, h as i32, gl::RGB, gl::UNSIGNED_BYTE, &source[..]);
    device.submit(list).unwrap();

    let copy = source.clone();
    device
        .with_gl(move |g| unsafe {
            for (pname, value) in layout.pnames() {
                (g.PixelStorei)(pname, value);
            }
            (g.TextureSubImage2D)(
                direct,
                0,
                0,
                0,
                w as i32,
                h as i32,
                gl::RGB,
                gl::UNSIGNED_BYTE,
                copy.as_ptr().cast(),
            );
            for (pname, _) in layout.pnames() {
                let default = if pname == gl::UNPACK_ALIGNMENT { 4 } else { 0 };
                (g.PixelStorei)(pname, default);
            }
        })
        .unwrap();
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);

    let glcmd_texels = read_rgba(&device, through_glcmd, w * h);
    let direct_texels = read_rgba(&device, direct, w * h);
    assert_eq!(glcmd_texels, direct_texels);
    assert_eq!(glcmd_texels, rgb_to_rgba(&layout.extract(&source, 3, (w, h, 1), false)));
}

#[test]
fn a_3d_upload_with_image_height_and_skipped_images_stores_the_texels_the_layout_names() {
    let device = device();
    let (w, h, d) = (3usize, 2usize, 2usize);
    let layout = Layout { alignment: 1, row_length: 4, image_height: 3, skip_pixels: 1, skip_rows: 1, skip_images: 1 };
    let needed = layout.needed(4, (w, h, d), true);
    let source = pattern(needed, 2);
    let texture = device.create_textures(gl::TEXTURE_3D, 1).unwrap()[0];

    let mut list = device.command_list();
    list.texture_storage_3d(texture, 1, gl::RGBA8, w as i32, h as i32, d as i32);
    for (pname, value) in layout.pnames() {
        list.pixel_storei(pname, value);
    }
    let args = (w as i32, h as i32, d as i32);
    list.texture_sub_image_3d(texture, 0, 0, 0, 0, args.0, args.1, args.2, gl::RGBA, gl::UNSIGNED_BYTE, &source);
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    assert_eq!(read_rgba(&device, texture, w * h * d), layout.extract(&source, 4, (w, h, d), true));
}

#[test]
fn an_upload_uses_its_own_lists_state_not_what_an_earlier_list_left() {
    let device = device();
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    // An earlier list leaves a row length and skips in the GL.
    let mut first = device.command_list();
    first.texture_storage_2d(texture, 1, gl::RGBA8, 4, 4);
    first.pixel_storei(gl::UNPACK_ROW_LENGTH, 9);
    first.pixel_storei(gl::UNPACK_SKIP_ROWS, 2);
    device.submit(first).unwrap();
    assert_eq!(device.get_integerv(gl::UNPACK_ROW_LENGTH).unwrap(), vec![9]);
    // This list set nothing: it believes the defaults, sizes the tight 64 bytes, and records
    // the defaults before the upload, so the GL reads exactly those bytes.
    let tight = pattern(64, 3);
    let mut second = device.command_list();
    second.texture_sub_image_2d(texture, 0, 0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, &tight);
    device.submit(second).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    assert_eq!(read_rgba(&device, texture, 16), tight);
    assert_eq!(device.get_integerv(gl::UNPACK_ROW_LENGTH).unwrap(), vec![0]);
}

thread_local! {
    /// The message and file of the last panic on this thread (set by `panic_of`'s hook).
    static LAST_PANIC: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
}

/// Runs `f`, which must panic; returns the panic's message and the file it names.
fn panic_of(f: impl FnOnce()) -> (String, String) {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let message = match (info.payload().downcast_ref::<String>(), info.payload().downcast_ref::<&str>()) {
            (Some(s), _) => s.clone(),
            (None, Some(s)) => s.to_string(),
            _ => String::new(),
        };
        let file = info.location().map(|l| l.file().to_string()).unwrap_or_default();
        LAST_PANIC.with(|p| *p.borrow_mut() = Some((message, file)));
    }));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    assert!(result.is_err(), "the call did not panic");
    LAST_PANIC.with(|p| p.borrow_mut().take()).expect("the hook saw the panic")
}

#[test]
fn a_slice_too_short_for_the_lists_unpack_state_panics_at_the_callers_line() {
    let device = device();
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let mut list = device.command_list();
    list.texture_storage_2d(texture, 1, gl::RGBA8, 4, 4);
    // Enough for a tight 4x4 RGBA8 image, not for rows of 8 pixels.
    list.pixel_storei(gl::UNPACK_ROW_LENGTH, 8);
    let tight = pattern(64, 4);
    let needed = Layout { alignment: 4, row_length: 8, image_height: 0, skip_pixels: 0, skip_rows: 0, skip_images: 0 }
        .needed(4, (4, 4, 1), false);
    let commands = list.len();
    let (message, file) = panic_of(|| {
        list.texture_sub_image_2d(texture, 0, 0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, &tight);
    });
    assert!(message.contains("glTextureSubImage2D"), "{message}");
    assert!(message.contains("`pixels`"), "{message}");
    assert!(message.contains(&format!("holds 64 bytes, but the GL reads {needed}")), "{message}");
    assert!(file.ends_with("pixel_uploads.rs"), "the panic names {file}, not the caller's file");
    // Nothing was recorded by the refused call.
    assert_eq!(list.len(), commands);

    // The same with the C-style `tex_image_2d` and an unknown format: the message names it.
    let mut list = device.command_list();
    let (message, _) = panic_of(|| {
        list.tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8 as i32, 1, 1, 0, 0x1234, gl::UNSIGNED_BYTE, &tight);
    });
    assert!(message.contains("glTexImage2D") && message.contains("`format`"), "{message}");
    assert!(message.contains("GL_INVALID_ENUM"), "{message}");
}

#[test]
fn no_data_allocates_and_uploads_nothing() {
    let device = device();
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let mut list = device.command_list();
    list.bind_texture(gl::TEXTURE_2D, texture);
    list.tex_image_2d(gl::TEXTURE_2D, 0, gl::RGBA8 as i32, 3, 2, 0, gl::RGBA, gl::UNSIGNED_BYTE, None::<&[u8]>);
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    assert_eq!(device.get_texture_level_parameteriv(texture, 0, gl::TEXTURE_WIDTH).unwrap(), vec![3]);
    assert_eq!(device.get_texture_level_parameteriv(texture, 0, gl::TEXTURE_HEIGHT).unwrap(), vec![2]);
}

#[test]
fn an_unpack_buffer_offset_is_checked_against_the_buffers_storage() {
    let device = device();
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let unpack = device.create_buffers(1).unwrap()[0];
    let contents = pattern(80, 5);
    let mut list = device.command_list();
    list.texture_storage_2d(texture, 1, gl::RGBA8, 4, 4);
    list.named_buffer_storage(unpack, 80, Some(&contents[..]), 0);
    list.bind_buffer(gl::PIXEL_UNPACK_BUFFER, unpack);
    // 64 bytes at 16: the last byte is the buffer's last.
    list.texture_sub_image_2d(texture, 0, 0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, Bytes::BufferOffset(16));
    list.bind_buffer(gl::PIXEL_UNPACK_BUFFER, 0);
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    assert_eq!(read_rgba(&device, texture, 16), contents[16..80]);
    let _ = device.reports().try_iter().count();

    // One byte further, and (from offset 0) rows of 8 pixels: both read past the end.
    let before = read_rgba(&device, texture, 16);
    for (offset, row_length) in [(17, 0), (0, 8)] {
        let mut list = device.command_list();
        list.bind_buffer(gl::PIXEL_UNPACK_BUFFER, unpack);
        list.pixel_storei(gl::UNPACK_ROW_LENGTH, row_length);
        list.texture_sub_image_2d(texture, 0, 0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, Bytes::BufferOffset(offset));
        list.bind_buffer(gl::PIXEL_UNPACK_BUFFER, 0);
        device.submit(list).unwrap();
        assert_eq!(device.get_error().unwrap(), gl::INVALID_OPERATION, "offset {offset}, row length {row_length}");
        let skipped: Vec<_> = device.reports().try_iter().filter(|r| r.kind == ReportKind::Skipped).collect();
        assert_eq!(skipped.len(), 1, "{skipped:#?}");
        assert!(skipped[0].message.contains("GL_PIXEL_UNPACK_BUFFER"), "{}", skipped[0]);
        assert_eq!(read_rgba(&device, texture, 16), before, "the refused upload changed nothing");
    }
}

#[test]
fn a_clear_value_is_one_texel_checked_and_none_clears_to_zero() {
    let device = device();
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let mut list = device.command_list();
    list.texture_storage_2d(texture, 1, gl::RGBA8, 2, 2);
    list.clear_tex_image(texture, 0, gl::RGBA, gl::UNSIGNED_BYTE, &[9u8, 8, 7, 6]);
    device.submit(list).unwrap();
    assert_eq!(read_rgba(&device, texture, 4), [9, 8, 7, 6].repeat(4));
    let mut list = device.command_list();
    list.clear_tex_image(texture, 0, gl::RGBA, gl::UNSIGNED_BYTE, None::<&[u8]>);
    device.submit(list).unwrap();
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    assert_eq!(read_rgba(&device, texture, 4), vec![0; 16]);
    let mut list = device.command_list();
    let (message, _) = panic_of(|| list.clear_tex_image(texture, 0, gl::RGBA, gl::UNSIGNED_BYTE, &[1u8, 2, 3]));
    assert!(message.contains("glClearTexImage") && message.contains("`data`"), "{message}");
}

#[test]
fn read_pixels_is_sized_from_the_pack_state_and_matches_the_gl_directly() {
    let device = device();
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let fbo = device.create_framebuffers(1).unwrap()[0];
    let texels = pattern(64, 6);
    let mut list = device.command_list();
    list.texture_storage_2d(texture, 1, gl::RGBA8, 4, 4);
    list.texture_sub_image_2d(texture, 0, 0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, &texels);
    list.named_framebuffer_texture(fbo, gl::COLOR_ATTACHMENT0, texture, 0);
    list.bind_framebuffer(gl::READ_FRAMEBUFFER, fbo);
    // Rows of 6 pixels, 1 row and 1 pixel skipped: the GL writes (1 + 3) * 24 + (1 + 3) * 4 bytes
    // for a 3x3 read.
    list.pixel_storei(gl::PACK_ROW_LENGTH, 6);
    list.pixel_storei(gl::PACK_SKIP_ROWS, 1);
    list.pixel_storei(gl::PACK_SKIP_PIXELS, 1);
    device.submit(list).unwrap();
    let read = device.read_pixels(1, 1, 3, 3, gl::RGBA, gl::UNSIGNED_BYTE).unwrap();
    assert_eq!(read.len(), (1 + 3 - 1) * 24 + (1 + 3) * 4);
    let direct = device
        .with_gl(|g| {
            let mut out = vec![0u8; (1 + 3 - 1) * 24 + (1 + 3) * 4];
            unsafe { (g.ReadPixels)(1, 1, 3, 3, gl::RGBA, gl::UNSIGNED_BYTE, out.as_mut_ptr().cast()) };
            out
        })
        .unwrap();
    assert_eq!(read, direct);
    for y in 0..3 {
        let at = (1 + y) * 24 + 4;
        let source = ((1 + y) * 4 + 1) * 4;
        assert_eq!(read[at..at + 12], texels[source..source + 12], "row {y}");
    }
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
}

#[test]
fn a_read_glcmd_cannot_size_is_an_error_naming_the_gls_error() {
    let device = device();
    // The GL's own answer for the same read (it writes nothing for a pair it refuses): glcmd
    // asks the GL with a read of nothing and names its error, in the GL's order of checks (this
    // device's context has no framebuffer, which the GL checks before the format).
    let direct = |format: u32, type_: u32| {
        device
            .with_gl(move |g| {
                let mut out = vec![0u8; 256];
                unsafe {
                    (g.ReadPixels)(0, 0, 4, 4, format, type_, out.as_mut_ptr().cast());
                    (g.GetError)()
                }
            })
            .unwrap()
    };
    match device.read_pixels(0, 0, 4, 4, 0x1234, gl::UNSIGNED_BYTE) {
        Err(e @ glcmd::Error::PixelFormat { .. }) => {
            assert_eq!(e.gl_error(), Some(direct(0x1234, gl::UNSIGNED_BYTE)));
            assert!(e.to_string().contains("glReadPixels"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    // A format and a type of the core profile that do not go together (the GL spec's
    // GL_INVALID_OPERATION for GL_DEPTH_STENCIL with a type other than the two packed ones).
    match device.read_pixels(0, 0, 4, 4, gl::DEPTH_STENCIL, gl::UNSIGNED_BYTE) {
        Err(e @ glcmd::Error::PixelFormat { .. }) => {
            assert_eq!(e.gl_error(), Some(direct(gl::DEPTH_STENCIL, gl::UNSIGNED_BYTE)))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR, "each error was the read's, and read once");
}
