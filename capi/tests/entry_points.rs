//! The C entry points, called from Rust through the `GlcmdGL` table (what a C program calls), on
//! a real context (llvmpipe): every function has one; recording through them gives the list the
//! Rust methods give; pixel transfers are sized by the GL's rules (checked by content);
//! queries, specials and errors behave as documented.

use std::ffi::{c_char, c_void, CStr};
use std::ptr::{null, null_mut};

use glcmd::gl;
use glcmd::types::*;
use glcmd_capi::generated::TABLE as GL;
use glcmd_capi::*;

fn check(status: GlcmdStatus) {
    if status != GLCMD_OK {
        panic!("{}: {}", unsafe { CStr::from_ptr(glcmdStatusName(status)) }.to_str().unwrap(), last().1);
    }
}

/// The thread's last error, cleared.
fn last() -> (GlcmdStatus, String) {
    let mut message: *const c_char = null();
    let status = unsafe { glcmdLastError(&mut message) };
    (status, unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned())
}

fn device() -> *mut GlcmdDevice {
    let mut d = null_mut();
    check(unsafe { glcmdDeviceCreateHeadless(null(), &mut d) });
    d
}

/// Compiles and links a program through the entry points (in a list submitted on its own).
fn program(d: *mut GlcmdDevice, vs: &str, fs: &str) -> GLuint {
    unsafe {
        check(glcmdListBegin(d));
        let p = (GL.CreateProgram)();
        for (kind, src) in [(gl::VERTEX_SHADER, vs), (gl::FRAGMENT_SHADER, fs)] {
            let s = (GL.CreateShader)(kind);
            let ptr = src.as_ptr() as *const GLchar;
            let len = src.len() as GLint;
            (GL.ShaderSource)(s, 1, &ptr, &len);
            (GL.CompileShader)(s);
            (GL.AttachShader)(p, s);
        }
        (GL.LinkProgram)(p);
        check(glcmdSubmit(d));
        let mut status = 0;
        (GL.GetProgramiv)(p, gl::LINK_STATUS, &mut status);
        assert_eq!(status, 1, "link: {}", last().1);
        p
    }
}

#[test]
fn every_function_has_an_entry_point_with_its_kind() {
    let count = glcmdFunctionCount();
    // The header's 1278 functions and the gl.xml-only ones glcmd generates (glClearColorIiEXT,
    // glClearColorIuiEXT: codegen/src/aliases.rs).
    assert_eq!(count as usize, 1278 + glcmd_codegen::aliases::REGISTRY_ONLY.len());
    let mut kinds = [0usize; 6];
    let mut unsupported = Vec::new();
    for i in 0..count {
        let (mut name, mut kind, mut flags) = (null(), 0, 0);
        check(unsafe { glcmdFunctionInfo(i, &mut name, &mut kind, &mut flags) });
        let p = unsafe { glcmdGetProcAddress(name) };
        assert!(!p.is_null(), "{:?}", unsafe { CStr::from_ptr(name) });
        kinds[kind as usize] += 1;
        if flags & GLCMD_FUNCTION_UNSUPPORTED != 0 {
            unsupported.push(unsafe { CStr::from_ptr(name) }.to_str().unwrap().to_string());
        }
    }
    assert!(unsafe { glcmdGetProcAddress(c"glBegin".as_ptr()) }.is_null(), "compatibility-only names are unknown");
    assert!(unsafe { glcmdGetProcAddress(null()) }.is_null());
    println!(
        "functions exported: {count} (record {}, create {}, delete {}, query {}, special {}); {} unsupported through C: {}",
        kinds[1],
        kinds[2],
        kinds[3],
        kinds[4],
        kinds[5],
        unsupported.len(),
        unsupported.join(" ")
    );
    assert_eq!(kinds[1..].iter().sum::<usize>(), count as usize);
    // An alias gets the entry point of the function it aliases, and is no function of its own.
    let alias = unsafe { glcmdGetProcAddress(c"glFramebufferTextureLayerEXT".as_ptr()) };
    assert_eq!(alias, unsafe { glcmdGetProcAddress(c"glFramebufferTextureLayer".as_ptr()) });
    assert!(!alias.is_null());
    // None of the core profile's functions is unsupported.
    assert!(!unsupported
        .iter()
        .any(|n| ["glTexImage2D", "glReadPixels", "glGetTexImage", "glGetUniformfv"].contains(&n.as_str())));
}

#[test]
fn entry_points_record_what_the_rust_methods_record() {
    let d = device();
    check(glcmdListBegin(d));
    let identity: [f32; 16] = [1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1., 0., 0., 0., 0., 1.];
    let kib: Vec<u8> = (0..1024).map(|i| i as u8).collect();
    let sources = ["#version 450 core\n", "void main() {}\n"];
    // NUL-terminated, as C strings are: read to the NUL when `length` is NULL.
    let c_sources = [c"#version 450 core\n", c"void main() {}\n"];
    let source_ptrs: Vec<*const GLchar> = c_sources.iter().map(|s| s.as_ptr()).collect();
    let lengths = [sources[0].len() as GLint, sources[1].len() as GLint];
    let sync = unsafe {
        (GL.BindTexture)(gl::TEXTURE_2D, 5);
        (GL.TexParameteriv)(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, &(gl::LINEAR as GLint));
        (GL.TexParameterfv)(gl::TEXTURE_2D, gl::TEXTURE_BORDER_COLOR, [0.0f32, 0.5, 1.0, 1.0].as_ptr());
        (GL.NamedFramebufferDrawBuffers)(3, 2, [gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT1].as_ptr());
        (GL.ShaderSource)(7, 2, source_ptrs.as_ptr(), lengths.as_ptr());
        (GL.ShaderSource)(7, 2, source_ptrs.as_ptr(), null());
        (GL.ObjectLabel)(gl::PROGRAM, 9, -1, c"tonemap".as_ptr());
        (GL.ObjectLabel)(gl::PROGRAM, 9, 4, c"tonemap".as_ptr());
        (GL.UniformMatrix4fv)(2, 1, gl::FALSE as GLboolean, identity.as_ptr());
        (GL.Uniform4f)(3, 1.0, 0.25, 0.0, 1.0);
        (GL.NamedBufferSubData)(4, 256, 1024, kib.as_ptr().cast());
        (GL.BindTextures)(0, 2, null());
        (GL.DrawElementsInstanced)(gl::TRIANGLES, 36, gl::UNSIGNED_SHORT, 128 as *const c_void, 10);
        let counts = [3, 6];
        let offsets = [null::<c_void>(), 64 as *const c_void];
        (GL.MultiDrawElements)(gl::TRIANGLES, counts.as_ptr(), gl::UNSIGNED_SHORT, offsets.as_ptr(), 2);
        (GL.BufferData)(gl::ARRAY_BUFFER, 64, null(), gl::STATIC_DRAW);
        (GL.VertexAttribPointer)(0, 3, gl::FLOAT, gl::FALSE as GLboolean, 12, 16 as *const c_void);
        (GL.ClearBufferfv)(gl::COLOR, 0, [0.1f32, 0.2, 0.3, 1.0].as_ptr());
        (GL.DebugMessageInsert)(
            gl::DEBUG_SOURCE_APPLICATION,
            gl::DEBUG_TYPE_MARKER,
            1,
            gl::DEBUG_SEVERITY_NOTIFICATION,
            -1,
            c"mark".as_ptr(),
        );
        (GL.PushDebugGroup)(gl::DEBUG_SOURCE_APPLICATION, 2, 5, c"group".as_ptr());
        (GL.PopDebugGroup)();
        (GL.DeleteTextures)(2, [5u32, 6].as_ptr());
        let sync = (GL.FenceSync)(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
        (GL.WaitSync)(sync, 0, gl::TIMEOUT_IGNORED);
        sync
    };
    assert_eq!(last().0, GLCMD_OK);
    let (c_dump, c_sizes) = glcmd_capi::current::inspect_list(|l| (l.to_string(), l.byte_sizes())).unwrap();
    check(glcmdListDiscard());

    let mut list = glcmd::CommandList::new();
    list.bind_texture(gl::TEXTURE_2D, 5);
    list.tex_parameteriv(gl::TEXTURE_2D, gl::TEXTURE_MIN_FILTER, &[gl::LINEAR as i32]);
    list.tex_parameterfv(gl::TEXTURE_2D, gl::TEXTURE_BORDER_COLOR, &[0.0, 0.5, 1.0, 1.0]);
    list.named_framebuffer_draw_buffers(3, &[gl::COLOR_ATTACHMENT0, gl::COLOR_ATTACHMENT1]);
    list.shader_source(7, &sources);
    list.shader_source(7, &sources);
    list.object_label(gl::PROGRAM, 9, "tonemap");
    list.object_label(gl::PROGRAM, 9, "tone");
    list.uniform_matrix4fv(2, false, &[identity]);
    list.uniform4f(3, 1.0, 0.25, 0.0, 1.0);
    list.named_buffer_sub_data(4, 256, &kib);
    list.bind_textures(0, 2, None);
    list.draw_elements_instanced(gl::TRIANGLES, 36, gl::UNSIGNED_SHORT, 128, 10);
    list.multi_draw_elements(gl::TRIANGLES, &[3, 6], gl::UNSIGNED_SHORT, &[0, 64]);
    list.buffer_data(gl::ARRAY_BUFFER, 64, None, gl::STATIC_DRAW);
    list.vertex_attrib_pointer(0, 3, gl::FLOAT, false, 12, 16);
    list.clear_bufferfv(gl::COLOR, 0, &[0.1, 0.2, 0.3, 1.0]);
    list.debug_message_insert(
        gl::DEBUG_SOURCE_APPLICATION,
        gl::DEBUG_TYPE_MARKER,
        1,
        gl::DEBUG_SEVERITY_NOTIFICATION,
        "mark",
    );
    list.push_debug_group(gl::DEBUG_SOURCE_APPLICATION, 2, "group");
    list.pop_debug_group();
    list.delete_textures(&[5, 6]);
    let rust_sync = list.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
    list.wait_sync(rust_sync, 0, gl::TIMEOUT_IGNORED);
    let rust_dump = list.to_string().replace(&format!("sync#{}", rust_sync.id()), "sync#N");
    let c_dump = c_dump.replace(&format!("sync#{}", sync as usize), "sync#N");
    assert_eq!(c_dump, rust_dump);
    assert_eq!(c_sizes, list.byte_sizes());
    check(glcmdDeviceDestroy(d));
}

/// A texture's level 0 as RGB bytes, rows of `w * 3` bytes (pack alignment 1).
fn texture_rgb(tex: GLuint, w: usize, h: usize) -> Vec<u8> {
    // 4 RGB pixels are 12 bytes: rows are 4-aligned already.
    let mut out = vec![0xEEu8; w * h * 3];
    unsafe { (GL.GetTextureImage)(tex, 0, gl::RGB, gl::UNSIGNED_BYTE, out.len() as GLsizei, out.as_mut_ptr().cast()) };
    out
}

#[test]
fn pixel_uploads_are_sized_by_the_lists_own_pixel_store_state() {
    let d = device();
    let (w, h) = (4usize, 4usize);
    let mut tex = [0u32; 2];
    check(glcmdDeviceMakeCurrent(d));
    unsafe { (GL.CreateTextures)(gl::TEXTURE_2D, 2, tex.as_mut_ptr()) };
    assert_eq!(last().0, GLCMD_OK);
    // A source image of 6 x 7 RGB pixels, each byte distinct.
    let (sw, sh) = (6usize, 7usize);
    let source: Vec<u8> = (0..sw * sh * 3).map(|i| (i * 7 + 3) as u8).collect();
    let (skip_pixels, skip_rows) = (1usize, 2usize);
    // Exactly the bytes the GL reads (alignment 1): the last row stops at its last pixel.
    let needed = (skip_rows + h - 1) * sw * 3 + (skip_pixels + w) * 3;
    let exact: Vec<u8> = source[..needed].to_vec();
    unsafe {
        // List A: storage, and a row length it leaves behind.
        check(glcmdListBegin(d));
        (GL.TextureStorage2D)(tex[0], 1, gl::RGB8, w as GLsizei, h as GLsizei);
        (GL.TextureStorage2D)(tex[1], 1, gl::RGB8, w as GLsizei, h as GLsizei);
        (GL.PixelStorei)(gl::UNPACK_ROW_LENGTH, 99);
        check(glcmdSubmit(d));
        // List B: its own unpack state, a sub-rectangle of the source.
        check(glcmdListBegin(d));
        (GL.PixelStorei)(gl::UNPACK_ALIGNMENT, 1);
        (GL.PixelStorei)(gl::UNPACK_ROW_LENGTH, sw as GLint);
        (GL.PixelStoref)(gl::UNPACK_SKIP_PIXELS, skip_pixels as f32);
        (GL.PixelStorei)(gl::UNPACK_SKIP_ROWS, skip_rows as GLint);
        (GL.TextureSubImage2D)(
            tex[0],
            0,
            0,
            0,
            w as GLsizei,
            h as GLsizei,
            gl::RGB,
            gl::UNSIGNED_BYTE,
            exact.as_ptr().cast(),
        );
        check(glcmdSubmit(d));
        // List C: no pixel-store calls: the defaults (alignment 4), whatever A and B left.
        check(glcmdListBegin(d));
        let tight: Vec<u8> = (0..w * h * 3).map(|i| (255 - i) as u8).collect();
        (GL.TextureSubImage2D)(
            tex[1],
            0,
            0,
            0,
            w as GLsizei,
            h as GLsizei,
            gl::RGB,
            gl::UNSIGNED_BYTE,
            tight.as_ptr().cast(),
        );
        check(glcmdSubmit(d));

        let got0 = texture_rgb(tex[0], w, h);
        let got1 = texture_rgb(tex[1], w, h);
        let mut want0 = Vec::new();
        for row in 0..h {
            let at = ((skip_rows + row) * sw + skip_pixels) * 3;
            want0.extend_from_slice(&source[at..at + w * 3]);
        }
        assert_eq!(got0, want0);
        assert_eq!(got1, tight, "12-byte rows are already 4-aligned: tightly packed");
        assert_eq!((GL.GetError)(), gl::NO_ERROR);
    }
    check(glcmdDeviceDestroy(d));
}

#[test]
fn pixel_reads_are_sized_on_the_render_thread() {
    let d = device();
    let (w, h) = (5usize, 3usize);
    let mut tex = 0;
    let mut fbo = 0;
    let mut pbo = 0;
    let texels: Vec<u8> = (0..w * h * 4).map(|i| (i * 3 + 1) as u8).collect();
    unsafe {
        check(glcmdListBegin(d));
        (GL.CreateTextures)(gl::TEXTURE_2D, 1, &mut tex);
        (GL.CreateFramebuffers)(1, &mut fbo);
        (GL.CreateBuffers)(1, &mut pbo);
        (GL.TextureStorage2D)(tex, 1, gl::RGBA8, w as GLsizei, h as GLsizei);
        (GL.TextureSubImage2D)(
            tex,
            0,
            0,
            0,
            w as GLsizei,
            h as GLsizei,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            texels.as_ptr().cast(),
        );
        (GL.NamedFramebufferTexture)(fbo, gl::COLOR_ATTACHMENT0, tex, 0);
        (GL.BindFramebuffer)(gl::READ_FRAMEBUFFER, fbo);
        (GL.NamedBufferStorage)(pbo, (w * h * 4) as GLsizeiptr, null(), 0);
        // The pack state a read will find: rows of 7 pixels, 1 pixel and 1 row skipped.
        (GL.PixelStorei)(gl::PACK_ROW_LENGTH, 7);
        (GL.PixelStorei)(gl::PACK_SKIP_PIXELS, 1);
        (GL.PixelStorei)(gl::PACK_SKIP_ROWS, 1);
        check(glcmdSubmit(d));

        // glReadPixels into client memory: exactly the bytes the GL writes, no more.
        let needed = (1 + h - 1) * 7 * 4 + (1 + w) * 4;
        let mut out = vec![0u8; needed];
        (GL.ReadPixels)(0, 0, w as GLsizei, h as GLsizei, gl::RGBA, gl::UNSIGNED_BYTE, out.as_mut_ptr().cast());
        assert_eq!(last().0, GLCMD_OK, "{}", last().1);
        for row in 0..h {
            let at = ((1 + row) * 7 + 1) * 4;
            assert_eq!(&out[at..at + w * 4], &texels[row * w * 4..(row + 1) * w * 4], "row {row}");
        }
        // glGetTexImage: sized from the level (5 x 3) and the same pack state.
        let mut image = vec![0u8; needed];
        check(glcmdListBegin(d));
        (GL.BindTexture)(gl::TEXTURE_2D, tex);
        check(glcmdSubmit(d));
        (GL.GetTexImage)(gl::TEXTURE_2D, 0, gl::RGBA, gl::UNSIGNED_BYTE, image.as_mut_ptr().cast());
        assert_eq!(image, out);

        // With a pixel-pack buffer bound in the list, the read is recorded into the buffer.
        check(glcmdListBegin(d));
        (GL.PixelStorei)(gl::PACK_ROW_LENGTH, 0);
        (GL.PixelStorei)(gl::PACK_SKIP_PIXELS, 0);
        (GL.PixelStorei)(gl::PACK_SKIP_ROWS, 0);
        (GL.BindBuffer)(gl::PIXEL_PACK_BUFFER, pbo);
        (GL.ReadPixels)(0, 0, w as GLsizei, h as GLsizei, gl::RGBA, gl::UNSIGNED_BYTE, null_mut());
        (GL.BindBuffer)(gl::PIXEL_PACK_BUFFER, 0);
        check(glcmdSubmit(d));
        let mut from_pbo = vec![0u8; w * h * 4];
        (GL.GetNamedBufferSubData)(pbo, 0, from_pbo.len() as GLsizeiptr, from_pbo.as_mut_ptr().cast());
        assert_eq!(from_pbo, texels);
        assert_eq!((GL.GetError)(), gl::NO_ERROR);
    }
    check(glcmdDeviceDestroy(d));
}

#[test]
fn queries_write_their_results_as_the_gl_does() {
    let d = device();
    let vs = "#version 450 core\nuniform mat4 u_m; uniform vec3 u_v[2];\nvoid main() { gl_Position = u_m * vec4(u_v[1], 1.0); }\n";
    let fs = "#version 450 core\nout vec4 c; uniform float u_f;\nvoid main() { c = vec4(u_f); }\n";
    let p = program(d, vs, fs);
    unsafe {
        // Limits, strings (which stay valid), lookups.
        let mut max = [0; 4];
        (GL.GetIntegerv)(gl::MAX_TEXTURE_SIZE, max.as_mut_ptr());
        assert!(max[0] >= 1024 && max[1] == 0);
        let version = (GL.GetString)(gl::VERSION);
        assert!(CStr::from_ptr(version.cast()).to_str().unwrap().starts_with("4."));
        assert_eq!((GL.GetString)(gl::VERSION), version, "the same pointer every time");
        let loc_m = (GL.GetUniformLocation)(p, c"u_m".as_ptr());
        let loc_v = (GL.GetUniformLocation)(p, c"u_v".as_ptr());
        assert!(loc_m >= 0 && loc_v >= 0);
        assert_eq!((GL.GetUniformLocation)(p, c"nothing".as_ptr()), -1);

        // Uniform values: as many as the uniform's type has, at the array element's location.
        check(glcmdListBegin(d));
        (GL.UseProgram)(p);
        let m: [f32; 16] = std::array::from_fn(|i| i as f32 + 0.5);
        (GL.UniformMatrix4fv)(loc_m, 1, gl::FALSE as GLboolean, m.as_ptr());
        (GL.Uniform3f)(loc_v + 1, 7.0, 8.0, 9.0);
        check(glcmdSubmit(d));
        let mut got = [-1.0f32; 20];
        (GL.GetUniformfv)(p, loc_m, got.as_mut_ptr());
        assert_eq!(&got[..16], &m);
        assert_eq!(got[16], -1.0, "nothing past the matrix");
        let mut v = [-1.0f32; 5];
        (GL.GetUniformfv)(p, loc_v + 1, v.as_mut_ptr());
        assert_eq!(v, [7.0, 8.0, 9.0, -1.0, -1.0]);

        // Strings: at most bufSize - 1 bytes and a NUL, the length without it.
        let (mut length, mut size, mut kind) = (0, 0, 0);
        let mut name = [0x55u8; 4];
        let mut index = 0;
        let mut count = 0;
        (GL.GetProgramiv)(p, gl::ACTIVE_UNIFORMS, &mut count);
        let mut found = false;
        for i in 0..count as GLuint {
            let mut full = [0u8; 32];
            (GL.GetActiveUniform)(p, i, 32, &mut length, &mut size, &mut kind, full.as_mut_ptr().cast());
            if &full[..length as usize] == b"u_m" {
                found = true;
                index = i;
                assert_eq!((size, kind), (1, gl::FLOAT_MAT4));
            }
        }
        assert!(found);
        (GL.GetActiveUniform)(p, index, 3, &mut length, &mut size, &mut kind, name.as_mut_ptr().cast());
        assert_eq!((length, &name), (2, b"u_\0\x55"));
        let mut log = [0u8; 64];
        (GL.GetProgramInfoLog)(p, 64, null_mut(), log.as_mut_ptr().cast());
        assert_eq!(last().0, GLCMD_OK, "a NULL length is allowed");

        // The hand-written program resource query: at most `count` values.
        let props = [gl::TYPE, gl::LOCATION];
        let mut values = [0; 1];
        let mut written = 0;
        (GL.GetProgramResourceiv)(p, gl::UNIFORM, index, 2, props.as_ptr(), 1, &mut written, values.as_mut_ptr());
        assert_eq!((written, values[0]), (1, gl::FLOAT_MAT4 as GLint));
        assert_eq!((GL.GetError)(), gl::NO_ERROR);
    }
    check(glcmdDeviceDestroy(d));
}

#[test]
fn specials_fences_maps_errors_and_the_debug_callback() {
    use std::sync::atomic::{AtomicU32, Ordering};
    static MESSAGES: AtomicU32 = AtomicU32::new(0);
    unsafe extern "system" fn on_message(
        _s: GLenum,
        _t: GLenum,
        id: GLuint,
        _sev: GLenum,
        _len: GLsizei,
        message: *const GLchar,
        user: *mut c_void,
    ) {
        let text = unsafe { CStr::from_ptr(message) }.to_string_lossy();
        if id == 42 && text == "from C" && user as usize == 7 {
            MESSAGES.fetch_add(1, Ordering::SeqCst);
        }
    }
    let d = device();
    let mut buf = 0;
    unsafe {
        check(glcmdDeviceMakeCurrent(d));
        (GL.DebugMessageCallback)(Some(on_message), 7 as *const c_void);
        (GL.CreateBuffers)(1, &mut buf);
        check(glcmdListBegin(d));
        // A context without the debug flag starts with its output off, as the GL's does.
        (GL.Enable)(gl::DEBUG_OUTPUT);
        (GL.NamedBufferStorage)(buf, 16, null(), gl::MAP_WRITE_BIT | gl::MAP_READ_BIT);
        (GL.DebugMessageInsert)(
            gl::DEBUG_SOURCE_APPLICATION,
            gl::DEBUG_TYPE_MARKER,
            42,
            gl::DEBUG_SEVERITY_NOTIFICATION,
            -1,
            c"from C".as_ptr(),
        );
        // A draw of elements with no element buffer: skipped at replay.
        (GL.DrawElements)(gl::TRIANGLES, 3, gl::UNSIGNED_INT, null());
        let fence = (GL.FenceSync)(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
        assert!(!fence.is_null());
        check(glcmdSubmit(d));
        let r = (GL.ClientWaitSync)(fence, gl::SYNC_FLUSH_COMMANDS_BIT, 1_000_000_000);
        assert!(r == gl::ALREADY_SIGNALED || r == gl::CONDITION_SATISFIED, "{r:#x}: {}", last().1);
        // The GL checks the draw framebuffer first, and the headless device's default
        // framebuffer is incomplete: its error is the GL's (docs/errors.md, `Framebuffer`).
        assert_eq!((GL.GetError)(), gl::INVALID_FRAMEBUFFER_OPERATION, "the skipped draw");
        assert_eq!((GL.GetError)(), gl::NO_ERROR);
        assert_eq!(MESSAGES.load(Ordering::SeqCst), 1);

        // A map is a round trip; the pointer is written from this thread.
        let p = (GL.MapNamedBufferRange)(buf, 0, 16, gl::MAP_WRITE_BIT) as *mut u8;
        assert!(!p.is_null(), "{}", last().1);
        for i in 0..16 {
            p.add(i).write(i as u8 * 3);
        }
        assert_eq!((GL.UnmapNamedBuffer)(buf), gl::TRUE as GLboolean);
        let mut back = [0u8; 16];
        (GL.GetNamedBufferSubData)(buf, 0, 16, back.as_mut_ptr().cast());
        assert_eq!(back, std::array::from_fn(|i| i as u8 * 3));
        assert!((GL.MapNamedBufferRange)(buf, i64::MAX as GLintptr, 16, gl::MAP_READ_BIT).is_null());
        assert_eq!(last().0, GLCMD_ERROR_INVALID_ARGUMENT, "an overflowing range is refused before the GL");
        (GL.DebugMessageCallback)(None, null());
    }
    check(glcmdDeviceDestroy(d));
}

#[test]
fn errors_are_codes_messages_callbacks_and_gl_errors() {
    use std::sync::atomic::{AtomicU32, Ordering};
    static CALLED: AtomicU32 = AtomicU32::new(0);
    unsafe extern "system" fn on_error(
        source: GLenum,
        kind: GLenum,
        id: GLuint,
        severity: GLenum,
        length: GLsizei,
        message: *const GLchar,
        _user: *const c_void,
    ) {
        let text = unsafe { CStr::from_ptr(message) };
        assert_eq!(text.to_bytes().len(), length as usize);
        assert_eq!(
            (source, kind, severity),
            (gl::DEBUG_SOURCE_THIRD_PARTY, gl::DEBUG_TYPE_ERROR, gl::DEBUG_SEVERITY_HIGH)
        );
        // The callback is process-wide: count only this test's thread.
        if std::thread::current().name().is_some_and(|n| n.contains("errors_are_codes")) {
            CALLED.store(id, Ordering::SeqCst);
        }
    }
    check(glcmdSetErrorCallback(Some(on_error), null()));
    unsafe {
        // No current list: nothing recorded, an error, GL_INVALID_OPERATION for glGetError.
        (GL.BindTexture)(gl::TEXTURE_2D, 1);
        let (status, message) = last();
        assert_eq!(status, GLCMD_ERROR_NO_CURRENT_LIST);
        assert!(message.starts_with("glBindTexture: no command list is current"), "{message}");
        assert_eq!(CALLED.load(Ordering::SeqCst), GLCMD_ERROR_NO_CURRENT_LIST as u32);
        assert_eq!(last().0, GLCMD_OK, "read once");
        assert_eq!((GL.GetError)(), gl::INVALID_OPERATION);
        // No device for a query either; glGetError then reports it but returns GL_NO_ERROR.
        let mut v = 0;
        (GL.GetIntegerv)(gl::MAX_TEXTURE_SIZE, &mut v);
        assert_eq!(last().0, GLCMD_ERROR_NO_CURRENT_DEVICE);
        assert_eq!((GL.GetError)(), gl::INVALID_OPERATION);
        assert_eq!((GL.GetError)(), gl::NO_ERROR);
        assert_eq!(last().0, GLCMD_ERROR_NO_CURRENT_DEVICE);

        let d = device();
        check(glcmdListBegin(d));
        assert_eq!(glcmdListBegin(d), GLCMD_ERROR_LIST_ACTIVE);
        // NULL where the GL reads: noted, and the call goes to the GL with zeros in its place,
        // so the GL answers it (issue 30 item 4; deleting the name 0 is no error).
        (GL.DeleteTextures)(2, null());
        assert_eq!(last().0, GLCMD_ERROR_NULL_POINTER);
        assert_eq!((GL.GetError)(), gl::NO_ERROR);
        (GL.DeleteTextures)(0, null());
        assert_eq!(last().0, GLCMD_OK, "NULL with nothing to read is fine");
        (GL.DeleteTextures)(-1, [1u32].as_ptr());
        assert_eq!(last().0, GLCMD_ERROR_INVALID_ARGUMENT);
        (GL.TexParameteriv)(gl::TEXTURE_2D, 0x1234, [1].as_ptr());
        assert_eq!(last().0, GLCMD_ERROR_UNKNOWN_PNAME);
        assert_eq!((GL.GetError)(), gl::INVALID_VALUE, "the first error is kept until read");
        (GL.ShaderSource)(1, 1, [c"\xff".as_ptr()].as_ptr(), null());
        assert_eq!(last().0, GLCMD_ERROR_INVALID_ARGUMENT, "not UTF-8");
        (GL.PathCommandsNV)(1, 0, null(), 0, 0, null());
        let (status, message) = last();
        assert_eq!(status, GLCMD_ERROR_UNSUPPORTED);
        assert!(message.contains("glcmdRunOnRenderThread"), "{message}");
        (GL.TexImage2D)(gl::TEXTURE_2D, 0, gl::RGBA8 as GLint, 4, 4, 0, gl::RGBA, 0x9999, [0u8; 64].as_ptr().cast());
        assert_eq!(last().0, GLCMD_ERROR_UNSUPPORTED, "a pixel type glcmd cannot size: noted");
        (GL.TexImage2D)(gl::TEXTURE_2D, 0, gl::RGBA8 as GLint, 4, 4, 0, gl::RGBA, gl::UNSIGNED_BYTE, null());
        assert_eq!(last().0, GLCMD_OK, "NULL pixels allocate");
        (GL.TexSubImage2D)(gl::TEXTURE_2D, 0, 0, 0, 4, 4, gl::RGBA, gl::UNSIGNED_BYTE, null());
        assert_eq!(last().0, GLCMD_OK, "NULL sub-image pixels: the GL checks the call and reads nothing");
        let n = glcmd_capi::current::inspect_list(|l| l.len()).unwrap();
        // The delete of two zeros, the empty delete, the texture parameter of an unknown pname
        // (16 zeros, for the GL to refuse), the upload of a type glcmd cannot size (as an
        // allocation with no data, for the GL to refuse), the allocation, the list's unpack state
        // (its 8 pixel-store values, recorded before its first upload from client memory) and the
        // empty sub-image; nothing of the failed calls.
        assert_eq!(n, 5 + 8 + 1);

        // Frames and handles.
        let mut frame = null_mut();
        check(glcmdFrameBegin(d, 2, &mut frame));
        assert_eq!(glcmdListSubmit(frame, 2), GLCMD_ERROR_SLOT);
        check(glcmdListSubmit(frame, 1));
        assert_eq!(glcmdListSubmit(frame, 0), GLCMD_ERROR_NO_CURRENT_LIST);
        // This thread began the frame and holds slot 0 unsubmitted, which slot 1 and so a query
        // would wait for: the query fails at once.
        let mut v = 0;
        (GL.GetQueryiv)(gl::SAMPLES_PASSED, gl::QUERY_COUNTER_BITS, &mut v);
        assert_eq!(last().0, GLCMD_ERROR_WOULD_DEADLOCK);
        check(glcmdFrameEnd(frame));
        assert_eq!(glcmdFrameEnd(frame), GLCMD_ERROR_INVALID_HANDLE);
        assert_eq!(glcmdListBeginSlot(frame, 0), GLCMD_ERROR_INVALID_HANDLE);
        check(glcmdListBegin(d));
        check(glcmdDeviceDestroy(d));
        assert_eq!(glcmdDeviceDestroy(d), GLCMD_ERROR_INVALID_HANDLE);
        assert_eq!(glcmdListBegin(d), GLCMD_ERROR_INVALID_HANDLE);
        assert_eq!(glcmdSubmit(d), GLCMD_ERROR_INVALID_HANDLE);
        last();
        (GL.Clear)(gl::COLOR_BUFFER_BIT); // records into the orphan list: harmless
        assert_eq!(last().0, GLCMD_OK);
        (GL.GetIntegerv)(gl::MAX_TEXTURE_SIZE, &mut v);
        assert_eq!(last().0, GLCMD_ERROR_INVALID_HANDLE, "the current device was destroyed");
        check(glcmdListDiscard());
        assert_eq!(glcmdDeviceMakeCurrent(0xdead0 as *mut GlcmdDevice), GLCMD_ERROR_INVALID_HANDLE);
    }
    check(glcmdSetErrorCallback(None, null()));
}

#[test]
fn uploads_from_a_pixel_unpack_buffer_and_clears_with_a_texel() {
    let d = device();
    let (w, h) = (4usize, 2usize);
    let rgba: Vec<u8> = (0..w * h * 4).map(|i| (i * 11 + 5) as u8).collect();
    let (mut tex, mut pbo) = ([0u32; 3], 0u32);
    unsafe {
        check(glcmdListBegin(d));
        (GL.CreateTextures)(gl::TEXTURE_2D, 3, tex.as_mut_ptr());
        (GL.CreateBuffers)(1, &mut pbo);
        for t in tex {
            (GL.TextureStorage2D)(t, 1, gl::RGBA8, w as GLsizei, h as GLsizei);
        }
        // 16 bytes of padding, then the image: an offset of 16 into the bound buffer.
        let mut data = vec![0xAAu8; 16];
        data.extend_from_slice(&rgba);
        (GL.NamedBufferStorage)(pbo, data.len() as GLsizeiptr, data.as_ptr().cast(), 0);
        (GL.BindBuffer)(gl::PIXEL_UNPACK_BUFFER, pbo);
        (GL.TextureSubImage2D)(
            tex[0],
            0,
            0,
            0,
            w as GLsizei,
            h as GLsizei,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            16 as *const c_void,
        );
        (GL.BindBuffer)(gl::PIXEL_UNPACK_BUFFER, 0);
        // A clear value is one texel of format/type; NULL clears to zero.
        (GL.ClearTexImage)(tex[1], 0, gl::RGBA, gl::UNSIGNED_BYTE, [1u8, 2, 3, 4].as_ptr().cast());
        (GL.ClearTexImage)(tex[2], 0, gl::RGBA, gl::FLOAT, null());
        check(glcmdSubmit(d));
        let read = |t: GLuint| {
            let mut out = vec![0x55u8; w * h * 4];
            (GL.GetTextureImage)(t, 0, gl::RGBA, gl::UNSIGNED_BYTE, out.len() as GLsizei, out.as_mut_ptr().cast());
            out
        };
        assert_eq!(read(tex[0]), rgba);
        assert_eq!(read(tex[1]), [1u8, 2, 3, 4].repeat(w * h));
        assert_eq!(read(tex[2]), vec![0u8; w * h * 4]);
        assert_eq!((GL.GetError)(), gl::NO_ERROR);
    }
    check(glcmdDeviceDestroy(d));
}

#[test]
fn a_thread_that_exits_with_a_current_list_drops_it() {
    let d = device() as usize;
    std::thread::spawn(move || unsafe {
        check(glcmdListBegin(d as *mut GlcmdDevice));
        (GL.Clear)(gl::COLOR_BUFFER_BIT);
        // Exits without submitting: the list is dropped with the thread's state.
    })
    .join()
    .unwrap();
    check(glcmdDeviceDestroy(d as *mut GlcmdDevice));
}

/// A real report through `glcmdGetReport`: an element draw with no element buffer, recorded in a
/// labelled list, is skipped on the render thread; the report names the call, the list's label,
/// the command's index and the missing binding, and after it the queue says NONE.
#[test]
fn reports_arrive_as_plain_structs_with_call_label_and_message() {
    let d = device();
    unsafe {
        let mut vao = 0;
        check(glcmdDeviceMakeCurrent(d));
        (GL.CreateVertexArrays)(1, &mut vao);
        check(glcmdListBegin(d));
        check(glcmdListSetLabel(c"no element buffer".as_ptr()));
        (GL.BindVertexArray)(vao);
        (GL.DrawElements)(gl::TRIANGLES, 3, gl::UNSIGNED_INT, 64 as *const c_void);
        check(glcmdSubmit(d));
        // The error the GL raises for the same draw: the headless device's default framebuffer is
        // incomplete, which the GL checks first (docs/errors.md, `Framebuffer`).
        assert_eq!((GL.GetError)(), gl::INVALID_FRAMEBUFFER_OPERATION, "a skipped command raises the GL's error");
        let mut r = std::mem::zeroed::<GlcmdReport>();
        let text = |p: *const c_char| {
            if p.is_null() {
                String::new()
            } else {
                CStr::from_ptr(p).to_string_lossy().into_owned()
            }
        };
        loop {
            check(glcmdGetReport(d, &mut r));
            assert_ne!(r.kind, GLCMD_REPORT_NONE, "the skipped draw was reported");
            if r.kind == GLCMD_REPORT_SKIPPED {
                break;
            }
        }
        assert!(text(r.call).starts_with("glDrawElements("), "{}", text(r.text));
        assert_eq!(text(r.list), "no element buffer");
        assert_eq!(r.index, 1, "the draw is the list's second command");
        assert!(text(r.message).contains("GL_ELEMENT_ARRAY_BUFFER"), "{}", text(r.message));
        assert!(text(r.text).contains("glDrawElements"), "{}", text(r.text));
        check(glcmdGetReport(d, &mut r));
        assert_eq!(r.kind, GLCMD_REPORT_NONE);
        check(glcmdDeviceDestroy(d));
    }
}

/// A runtime error through the C ABI names C calls, not the Rust API it comes from: a list
/// claimed for slot 0 (glcmdListBeginSlot) submitted to slot 1, and a glcmdDeviceWaitFrames that
/// would wait for that claimed slot, fail with messages that name glcmdListBeginSlot and
/// glcmdDeviceWaitFrames (the runtime says `Frame::list` and `wait_frames(1)`).
#[test]
fn runtime_errors_through_the_c_abi_name_c_calls() {
    let rust_names = ["Frame::", "Device::", "Options::", "wait_frames", "with_gl"];
    let d = device();
    let mut frame = null_mut();
    check(unsafe { glcmdFrameBegin(d, 2, &mut frame) });
    check(glcmdListBeginSlot(frame, 0));
    assert_eq!(glcmdListSubmit(frame, 1), GLCMD_ERROR_SLOT);
    let (_, claimed) = last();
    assert!(claimed.starts_with("glcmdListSubmit: ") && claimed.contains("(glcmdListBeginSlot)"), "{claimed}");
    assert_eq!(glcmdDeviceWaitFrames(d, 1), GLCMD_ERROR_WOULD_DEADLOCK);
    let (_, wait) = last();
    assert!(wait.starts_with("glcmdDeviceWaitFrames(device, 1) would wait"), "{wait}");
    assert!(wait.contains("this thread claimed (glcmdListBeginSlot)"), "{wait}");
    for message in [&claimed, &wait] {
        assert!(!rust_names.iter().any(|n| message.contains(n)), "a Rust name in {message}");
    }
    // The refused list is still current: submitted to its slot, the frame ends and replays.
    check(glcmdListSubmit(frame, 0));
    check(glcmdListBegin(d));
    check(glcmdListSubmit(frame, 1));
    check(glcmdFrameEnd(frame));
    check(glcmdDeviceWaitFrames(d, 1));
    check(glcmdDeviceDestroy(d));
}

/// Issue 19, class 1, through the C ABI: a sync handle that names no sync object. `glIsSync`
/// answers `GL_FALSE` with no error; `glClientWaitSync` and `glGetSynciv` fail with
/// `GL_INVALID_VALUE` (piglit's `arb_sync@clientwaitsync-errors`) and leave the output alone.
#[test]
fn a_sync_handle_that_names_nothing_gets_the_gls_answers() {
    let d = device();
    check(glcmdDeviceMakeCurrent(d));
    let bogus = 0xDEAD_BEEF_usize as GLsync;
    unsafe {
        assert_eq!((GL.IsSync)(bogus), 0);
        assert_eq!((GL.GetError)(), gl::NO_ERROR);
        (GL.ClientWaitSync)(bogus, 0, 0);
        assert_eq!(last().0, GLCMD_ERROR_UNKNOWN_SYNC);
        assert_eq!((GL.GetError)(), gl::INVALID_VALUE);
        let mut value = -7;
        (GL.GetSynciv)(bogus, gl::SYNC_STATUS, 1, null_mut(), &mut value);
        assert_eq!((GL.GetError)(), gl::INVALID_VALUE);
        assert_eq!(value, -7, "a failed query leaves its output unwritten");
        assert_eq!((GL.GetError)(), gl::NO_ERROR);
    }
    check(glcmdDeviceMakeCurrent(null_mut()));
    check(glcmdDeviceDestroy(d));
}

/// Issue 19, class 2, through the C ABI: `glCreateQueries` with a target that is no query target
/// raises `GL_INVALID_ENUM` and writes no name, as the GL does (glcmd's name pool must not hand
/// one out).
#[test]
fn a_pooled_create_with_a_bad_target_gets_the_gls_error() {
    let d = device();
    check(glcmdDeviceMakeCurrent(d));
    unsafe {
        let mut names = [77u32; 2];
        (GL.CreateQueries)(0x1234, 2, names.as_mut_ptr());
        assert_eq!((GL.GetError)(), gl::INVALID_ENUM);
        assert!(names.iter().all(|&n| n == 77 || n == 0), "no name is handed out: {names:?}");
        (GL.CreateQueries)(gl::SAMPLES_PASSED, 2, names.as_mut_ptr());
        assert_eq!((GL.GetError)(), gl::NO_ERROR);
        assert!(names.iter().all(|&n| n != 0 && n != 77), "{names:?}");
    }
    check(glcmdDeviceMakeCurrent(null_mut()));
    check(glcmdDeviceDestroy(d));
}

/// Issue 19, class 2: a query the GL refuses leaves the caller's output as it was (a C
/// `glReadPixels` with a format the GL refuses zeroed the caller's buffer).
#[test]
fn a_failed_read_leaves_the_callers_buffer_alone() {
    let d = device();
    check(glcmdDeviceMakeCurrent(d));
    unsafe {
        let mut pixels = [0xAAu8; 64];
        (GL.ReadPixels)(0, 0, 4, 4, 0x1234, gl::UNSIGNED_BYTE, pixels.as_mut_ptr().cast());
        let (status, message) = last();
        // The GL's answer, which glcmd asks it for (a pair glcmd cannot size reaches the GL as a
        // read of nothing): the headless device's context has no framebuffer to read, which the
        // GL checks before the format.
        assert_eq!((GL.GetError)(), gl::INVALID_FRAMEBUFFER_OPERATION, "{status}: {message}");
        assert!(pixels.iter().all(|&b| b == 0xAA), "{pixels:?}");
        let mut v = [-5i32; 4];
        (GL.GetIntegerv)(0x1234, v.as_mut_ptr());
        assert_eq!((GL.GetError)(), gl::INVALID_ENUM);
        assert_eq!(v, [-5; 4]);
    }
    check(glcmdDeviceMakeCurrent(null_mut()));
    check(glcmdDeviceDestroy(d));
}

/// Issue 19, class 1: a lookup in a name that is no program raises `GL_INVALID_VALUE`, as the GL
/// does for program and shader names (glcmd's own "no such object" gave `GL_INVALID_OPERATION`),
/// and leaves outputs as they were. Checked against the driver's own answer on a direct context.
#[test]
fn lookups_in_a_name_that_is_no_program_raise_invalid_value() {
    let d = device();
    check(glcmdDeviceMakeCurrent(d));
    unsafe {
        let index = (GL.GetUniformBlockIndex)(999_999, c"block".as_ptr());
        assert_eq!((GL.GetError)(), gl::INVALID_VALUE);
        assert_eq!(index, gl::INVALID_INDEX);
        let location = (GL.GetUniformLocation)(999_999, c"u".as_ptr());
        assert_eq!((GL.GetError)(), gl::INVALID_VALUE);
        assert_eq!(location, -1);
        let mut status = -3;
        (GL.GetProgramiv)(999_999, gl::LINK_STATUS, &mut status);
        assert_eq!((GL.GetError)(), gl::INVALID_VALUE);
        assert_eq!(status, -3, "a failed query leaves its output unwritten");
    }
    check(glcmdDeviceMakeCurrent(null_mut()));
    check(glcmdDeviceDestroy(d));
}

/// A device whose wait limit is 60 s, so a query that stalls until it would be obvious.
fn device_with_long_wait() -> *mut GlcmdDevice {
    let options = GlcmdDeviceOptions {
        size: std::mem::size_of::<GlcmdDeviceOptions>() as u32,
        flags: 0,
        wait_limit_ms: 60_000,
        watchdog_ms: 0,
    };
    let mut d = null_mut();
    check(unsafe { glcmdDeviceCreateHeadless(&options, &mut d) });
    d
}

/// A worker's query in the README's style: `glcmdListBegin`, a round-trip query, a call, then
/// `glcmdListSubmit(frame, slot)`. The query comes before the list holds a call: after one, the
/// deferred-list rule refuses it at once whatever the slots (`tests/c/deferred.c`).
/// Returns the query's status, message and duration.
fn readme_worker(
    d: usize,
    frame: usize,
    slot: u32,
    before_query: impl FnOnce(),
) -> (GlcmdStatus, String, std::time::Duration) {
    unsafe {
        check(glcmdListBegin(d as *mut GlcmdDevice));
        before_query();
        let started = std::time::Instant::now();
        let mut v = [0 as GLint; 4];
        (GL.GetIntegerv)(gl::CURRENT_PROGRAM, v.as_mut_ptr());
        let took = started.elapsed();
        let (status, message) = last();
        (GL.ClearColor)(slot as f32, 0.0, 0.0, 1.0);
        check(glcmdListSubmit(frame as *mut GlcmdFrame, slot));
        (status, message, took)
    }
}

/// Issue 18: a worker whose query lies behind slot 0 of a frame whose slot 1 another worker
/// submitted, while it holds the list it will submit to slot 0, fails at once naming frame and
/// slot (it waited the wait limit before).
#[test]
fn a_readme_style_worker_query_behind_its_own_slot_fails_at_once() {
    let d = device_with_long_wait();
    let mut frame = null_mut();
    check(unsafe { glcmdFrameBegin(d, 3, &mut frame) });
    let (du, fu) = (d as usize, frame as usize);
    let (tx, rx) = std::sync::mpsc::channel();
    let one = std::thread::spawn(move || readme_worker(du, fu, 1, || {}));
    let one = one.join().unwrap();
    tx.send(()).unwrap();
    let zero = std::thread::spawn(move || readme_worker(du, fu, 0, move || rx.recv().unwrap())).join().unwrap();
    let two = std::thread::spawn(move || readme_worker(du, fu, 2, || {})).join().unwrap();
    check(glcmdFrameEnd(frame));
    assert_eq!(one.0, GLCMD_OK, "slot 1's query waits for nothing: {}", one.1);
    assert!(zero.2 < std::time::Duration::from_secs(30), "failed at once, not after the wait limit: {:?}", zero.2);
    assert_eq!(zero.0, GLCMD_ERROR_WOULD_DEADLOCK, "{}", zero.1);
    assert!(zero.1.contains("frame 0 slot 0") && zero.1.contains("glcmdListBeginSlot"), "{}", zero.1);
    assert_eq!(two.0, GLCMD_OK, "slots 0 and 1 are in: {}", two.1);
    check(glcmdDeviceDestroy(d));
}

/// Three workers in the README's style, each asking a query before it submits, all at once:
/// every query returns at once (answered, or refused naming the slot its thread may owe).
#[test]
fn three_readme_style_workers_never_stall() {
    let d = device_with_long_wait();
    let mut frame = null_mut();
    check(unsafe { glcmdFrameBegin(d, 3, &mut frame) });
    let (du, fu) = (d as usize, frame as usize);
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(3));
    let workers: Vec<_> = (0..3)
        .map(|slot| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                readme_worker(du, fu, slot, move || {
                    barrier.wait();
                })
            })
        })
        .collect();
    for w in workers {
        let (status, message, took) = w.join().unwrap();
        assert!(took < std::time::Duration::from_secs(30), "{took:?}: {message}");
        assert!(status == GLCMD_OK || status == GLCMD_ERROR_WOULD_DEADLOCK, "{status}: {message}");
    }
    check(glcmdFrameEnd(frame));
    check(glcmdDeviceDestroy(d));
}

/// `docs/errors.md`, the `NullPointer` row of `glGetCompressedTextureImage`: NULL client memory
/// (no pack buffer) with a `bufSize` too small for the image raises `GL_INVALID_OPERATION`, as
/// the GL checks `bufSize` first (piglit's `arb_direct_state_access@getcompressedtextureimage`);
/// a NULL output of another query stays `GL_INVALID_VALUE`.
#[test]
fn null_compressed_image_is_invalid_operation() {
    let d = device();
    check(glcmdDeviceMakeCurrent(d));
    unsafe {
        let mut texture = 0;
        (GL.CreateTextures)(gl::TEXTURE_2D, 1, &mut texture);
        check(glcmdListBegin(d));
        (GL.TextureStorage2D)(texture, 1, gl::COMPRESSED_RED_RGTC1, 4, 4);
        check(glcmdSubmit(d));
        assert_eq!((GL.GetError)(), gl::NO_ERROR);
        (GL.GetCompressedTextureImage)(texture, 0, 0, null_mut());
        let (status, message) = last();
        assert_eq!((GL.GetError)(), gl::INVALID_OPERATION, "{status}: {message}");
        (GL.GetProgramiv)(0, gl::LINK_STATUS, null_mut());
        assert_eq!((GL.GetError)(), gl::INVALID_VALUE);
    }
    check(glcmdDeviceMakeCurrent(null_mut()));
    check(glcmdDeviceDestroy(d));
}

/// `docs/errors.md`, the `NullPointer` rows of `glCompressedTextureSubImage*D`: NULL data for a
/// name that is no texture raises the GL's `GL_INVALID_OPERATION` (the GL checks the texture
/// first: piglit's `arb_direct_state_access@getcompressedtextureimage`).
#[test]
fn null_compressed_upload_to_no_texture_is_invalid_operation() {
    let d = device();
    check(glcmdDeviceMakeCurrent(d));
    unsafe {
        check(glcmdListBegin(d));
        (GL.CompressedTextureSubImage2D)(250, 0, 0, 0, 4, 4, gl::COMPRESSED_RED_RGTC1, 8, null());
        check(glcmdSubmit(d));
        assert_eq!((GL.GetError)(), gl::INVALID_OPERATION);
    }
    check(glcmdDeviceMakeCurrent(null_mut()));
    check(glcmdDeviceDestroy(d));
}
