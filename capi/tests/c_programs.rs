//! C programs against the C ABI, compiled with the system's C compiler (`$CC`, default `cc`)
//! and linked to this build's `libglcmd_capi.so`:
//!
//! * `examples/c/scene.c` renders its scene on four threads through `glcmdGetProcAddress`; its
//!   PNG must hold exactly the bytes of the same scene rendered through the Rust API;
//! * `tests/c/misuse.c` misuses the C ABI in every way the issue names; each must be an error,
//!   not a crash;
//! * `tests/c/refused_submit.c` makes every refused submit and resubmits the list it keeps;
//! * `tests/c/immediate.c` is plain single-threaded GL (status checks, lookups after a link,
//!   bind-then-map, reads after draws, glGetError, fences, deletes, pixel-store state across
//!   glFlush); it runs on a GL context of its own and through glcmd on an immediate thread
//!   (`glcmdThreadMakeImmediate`), and every answer and the pixels must be equal;
//! * `tests/c/deferred.c` checks the deferred-list rule and immediate threads' list rules;
//! * `tests/c/adopt_egl.c` hands glcmd an EGL context it made with raw EGL calls
//!   (`glcmdDeviceAdoptEGL`) and compares framebuffer 0 with the same clears called directly;
//! * `tests/c/callback_reentry.c` re-enters glcmd from the error callback and from a GL debug
//!   callback: served or an error, never a recursion.
//!   `GLCMD_C_WRAPPER` (e.g. `valgrind --error-exitcode=99`) runs them under a tool:
//!   `.ci/valgrind.sh` does.

use std::path::{Path, PathBuf};
use std::process::Command;

use glcmd::types::*;
use glcmd::{gl, Bytes, Device};

#[path = "../../tests/common/tools.rs"]
mod tools;

/// The directory of this test's libraries (`target/<profile>/deps`), where cargo put
/// `libglcmd_capi.so` for this build.
fn lib_dir() -> PathBuf {
    std::env::current_exe().unwrap().parent().unwrap().to_path_buf()
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Compiles C program `source` (C99, every warning an error) into `target/<profile>/c-tests/`.
fn compile(source: &Path, name: &str) -> PathBuf {
    compile_with(source, name, &[])
}

/// [`compile`], with `extra` arguments for the compiler (after the source: libraries).
fn compile_with(source: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let lib = lib_dir();
    assert!(lib.join("libglcmd_capi.so").exists(), "no libglcmd_capi.so in {}", lib.display());
    // The library's soname (build.rs), which the programs record and the loader looks for: a
    // link beside cargo's file name, as `install.sh` makes in a prefix.
    let soname = match env!("CARGO_PKG_VERSION_MAJOR") {
        "0" => format!("libglcmd.so.0.{}", env!("CARGO_PKG_VERSION_MINOR")),
        major => format!("libglcmd.so.{major}"),
    };
    if std::fs::read_link(lib.join(&soname)).is_err() {
        // Tests run in parallel: another may have made it first.
        let _ = std::os::unix::fs::symlink("libglcmd_capi.so", lib.join(&soname));
    }
    let out_dir = lib.parent().unwrap().join("c-tests");
    std::fs::create_dir_all(&out_dir).unwrap();
    let exe = out_dir.join(name);
    let cc = tools::cc();
    let output = Command::new(&cc)
        .args(["-std=c99", "-O1", "-g", "-Wall", "-Wextra", "-Werror"])
        .arg(format!("-I{}", root().join("capi/include").display()))
        .arg(source)
        .arg(format!("-L{}", lib.display()))
        .arg("-lglcmd_capi")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-pthread")
        .args(extra)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}` (install gcc, or set CC): {e}"));
    assert!(
        output.status.success(),
        "{cc} {} failed:\n{}{}",
        source.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    exe
}

/// Runs a compiled program, under `GLCMD_C_WRAPPER` if set; returns stdout, asserting success.
fn run(exe: &Path, args: &[&str]) -> String {
    let wrapper = std::env::var("GLCMD_C_WRAPPER").unwrap_or_default();
    let mut words = wrapper.split_whitespace();
    let mut command = match words.next() {
        Some(tool) => {
            let mut c = Command::new(tool);
            c.args(words).arg(exe);
            c
        }
        None => Command::new(exe),
    };
    // This build's library: cargo's LD_LIBRARY_PATH (searched before the rpath) may also name a
    // directory holding an older libglcmd_capi.so.
    let output = command.args(args).env("LD_LIBRARY_PATH", lib_dir()).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{} failed ({}):\n{stdout}{stderr}", exe.display(), output.status);
    print!("{stdout}{stderr}");
    stdout
}

const WIDTH: usize = 128;
const HEIGHT: usize = 128;
const VERTEX: &str = "#version 450 core\n\
    layout(location = 0) in vec2 a_pos;\n\
    uniform vec4 u_rect;\n\
    out vec2 v_uv;\n\
    void main() { v_uv = a_pos; gl_Position = vec4(u_rect.xy + a_pos * u_rect.zw, 0.0, 1.0); }\n";
const FRAGMENT: &str = "#version 450 core\n\
    in vec2 v_uv;\n\
    uniform vec4 u_color;\n\
    layout(binding = 0) uniform sampler2D u_tex;\n\
    out vec4 o_color;\n\
    void main() { o_color = texture(u_tex, v_uv) * u_color; }\n";

/// Object k of `examples/c/scene.c`: the same arithmetic in the same order.
fn object(k: i32) -> ([f32; 4], [f32; 4]) {
    (
        [
            -1.0 + (k % 8) as f32 * 0.25 + 0.03125,
            -1.0 + (k / 8) as f32 * 0.25 + 0.03125,
            0.25,
            0.125 + (k % 3) as f32 * 0.0625,
        ],
        [((k * 37) % 256) as f32 / 255.0, ((k * 91) % 256) as f32 / 255.0, ((k * 53) % 256) as f32 / 255.0, 0.75],
    )
}

/// The scene of `examples/c/scene.c`, through the Rust API: the pixels `glReadPixels` gives.
fn rust_scene() -> Vec<u8> {
    let device = Device::headless().unwrap();
    let program = device.create_program().unwrap();
    let vs = device.create_shader(gl::VERTEX_SHADER).unwrap();
    let fs = device.create_shader(gl::FRAGMENT_SHADER).unwrap();
    let buffers = device.create_buffers(2).unwrap();
    let vao = device.create_vertex_arrays(1).unwrap()[0];
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let fbo = device.create_framebuffers(1).unwrap()[0];
    let renderbuffer = device.create_renderbuffers(1).unwrap()[0];
    let quad: [f32; 8] = [0., 0., 1., 0., 1., 1., 0., 1.];
    let indices: [u16; 6] = [0, 1, 2, 0, 2, 3];
    let quad_bytes: Vec<u8> = quad.iter().flat_map(|f| f.to_ne_bytes()).collect();
    let index_bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_ne_bytes()).collect();
    let (row_length, skip_pixels, skip_rows) = (6usize, 1usize, 1usize);
    let needed = (skip_rows + 4 - 1) * row_length * 3 + (skip_pixels + 4) * 3;
    let image: Vec<u8> = (0..needed).map(|i| (i * 29 + 7) as u8).collect();

    let mut l = device.command_list();
    l.shader_source(vs, &[VERTEX]);
    l.shader_source(fs, &[FRAGMENT]);
    l.compile_shader(vs);
    l.compile_shader(fs);
    l.attach_shader(program, vs);
    l.attach_shader(program, fs);
    l.link_program(program);
    l.delete_shader(vs);
    l.delete_shader(fs);
    l.named_buffer_storage(buffers[0], 32, Some(&quad_bytes), 0);
    l.named_buffer_storage(buffers[1], 12, Some(&index_bytes), 0);
    l.vertex_array_vertex_buffer(vao, 0, buffers[0], 0, 8);
    l.vertex_array_element_buffer(vao, buffers[1]);
    l.vertex_array_attrib_format(vao, 0, 2, gl::FLOAT, false, 0);
    l.vertex_array_attrib_binding(vao, 0, 0);
    l.enable_vertex_array_attrib(vao, 0);
    l.texture_storage_2d(texture, 1, gl::RGB8, 4, 4);
    l.texture_parameteri(texture, gl::TEXTURE_MIN_FILTER, gl::NEAREST as GLint);
    l.texture_parameteri(texture, gl::TEXTURE_MAG_FILTER, gl::NEAREST as GLint);
    l.pixel_storei(gl::UNPACK_ALIGNMENT, 1);
    l.pixel_storei(gl::UNPACK_ROW_LENGTH, row_length as GLint);
    l.pixel_storei(gl::UNPACK_SKIP_PIXELS, skip_pixels as GLint);
    l.pixel_storei(gl::UNPACK_SKIP_ROWS, skip_rows as GLint);
    // `image` holds the bytes the GL reads under that unpack state (computed above).
    l.texture_sub_image_2d(texture, 0, 0, 0, 4, 4, gl::RGB, gl::UNSIGNED_BYTE, Bytes::Slice(&image));
    l.named_renderbuffer_storage(renderbuffer, gl::RGBA8, WIDTH as GLsizei, HEIGHT as GLsizei);
    l.named_framebuffer_renderbuffer(fbo, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, renderbuffer);
    device.submit(l).unwrap();
    assert_eq!(device.get_programiv(program, gl::LINK_STATUS).unwrap(), vec![1]);
    let u_rect = device.get_uniform_location(program, "u_rect").unwrap();
    let u_color = device.get_uniform_location(program, "u_color").unwrap();

    let frame = device.begin_frame(4).unwrap();
    std::thread::scope(|s| {
        for slot in 0..4 {
            let (device, frame) = (&device, &frame);
            s.spawn(move || {
                let mut l = device.command_list();
                l.bind_framebuffer(gl::FRAMEBUFFER, fbo);
                l.viewport(0, 0, WIDTH as GLsizei, HEIGHT as GLsizei);
                if slot == 0 {
                    l.clear_color(0.125, 0.25, 0.5, 1.0);
                    l.clear(gl::COLOR_BUFFER_BIT);
                }
                l.enable(gl::BLEND);
                l.blend_func(gl::SRC_ALPHA, gl::ONE_MINUS_SRC_ALPHA);
                l.use_program(program);
                l.bind_vertex_array(vao);
                l.bind_texture_unit(0, texture);
                for i in 0..16 {
                    let (r, c) = object(slot * 16 + i);
                    l.uniform4f(u_rect, r[0], r[1], r[2], r[3]);
                    l.uniform4f(u_color, c[0], c[1], c[2], c[3]);
                    l.draw_elements(gl::TRIANGLES, 6, gl::UNSIGNED_SHORT, 0);
                }
                frame.submit(slot as usize, l).unwrap();
            });
        }
    });
    drop(frame);
    let pixels = device
        .readn_pixels(
            0,
            0,
            WIDTH as GLsizei,
            HEIGHT as GLsizei,
            gl::RGBA,
            gl::UNSIGNED_BYTE,
            (WIDTH * HEIGHT * 4) as GLsizei,
        )
        .unwrap();
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    pixels
}

#[test]
fn the_c_example_renders_the_same_bytes_as_the_rust_api() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile(&root().join("examples/c/scene.c"), "scene_c");
    let png_path = exe.with_extension("png");
    let _ = std::fs::remove_file(&png_path);
    let stdout = run(&exe, &[png_path.to_str().unwrap()]);
    assert!(stdout.contains("64 objects recorded by 4 threads"));

    let decoder = png::Decoder::new(std::fs::File::open(&png_path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut from_c = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut from_c).unwrap();
    assert_eq!((info.width as usize, info.height as usize, info.color_type), (WIDTH, HEIGHT, png::ColorType::Rgba));

    // The PNG's rows are top first; glReadPixels' bottom first.
    let rust = rust_scene();
    let flipped: Vec<u8> = rust.chunks(WIDTH * 4).rev().flatten().copied().collect();
    let differing = from_c.iter().zip(&flipped).filter(|(a, b)| a != b).count();
    assert_eq!(differing, 0, "{differing} bytes differ between the C and the Rust rendering");
    let colours: std::collections::HashSet<&[u8]> = from_c.chunks(4).collect();
    assert!(colours.len() > 64, "a real picture, not a clear: {} colours", colours.len());
}

#[test]
fn misuse_gets_errors_not_crashes() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile(&root().join("capi/tests/c/misuse.c"), "misuse");
    let stdout = run(&exe, &[]);
    assert!(stdout.contains(", 0 failures,"), "{stdout}");
}

/// `tests/c/refused_submit.c`: every refused submit leaves the list current, unchanged, and the
/// list replays (its delete runs) when submitted again.
#[test]
fn a_refused_submit_leaves_the_list_current() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile(&root().join("capi/tests/c/refused_submit.c"), "refused_submit");
    let stdout = run(&exe, &[]);
    assert!(stdout.contains(", 0 failures"), "{stdout}");
}

/// `tests/c/callback_reentry.c`: an error callback whose own calls fail (GL entry points, glcmd
/// functions) is called once per outside failure, never from inside itself; one that replaces or
/// removes itself takes effect for the next failure; a GL debug callback on the render thread
/// may replace itself (issue 16, items 8 and 10).
#[test]
fn callbacks_that_re_enter_are_served_or_refused_never_recursed() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile(&root().join("capi/tests/c/callback_reentry.c"), "callback_reentry");
    let stdout = run(&exe, &[]);
    assert!(stdout.contains("callback_reentry: ") && stdout.contains(" checks, 0 failures"), "{stdout}");
}

/// Runs `tests/c/immediate.c` directly and through glcmd; returns both outputs.
fn immediate_outputs() -> (String, String) {
    let vendor = format!("-I{}", root().join("codegen/vendor").display());
    let exe = compile_with(&root().join("capi/tests/c/immediate.c"), "immediate", &[&vendor, "-lEGL"]);
    (run(&exe, &["direct"]), run(&exe, &["glcmd"]))
}

#[test]
fn an_unchanged_single_threaded_program_answers_as_on_its_own_context() {
    if !tools::require_cc() {
        return;
    }
    let (direct, through) = immediate_outputs();
    let (d, t): (Vec<&str>, Vec<&str>) = (direct.lines().collect(), through.lines().collect());
    for (i, (a, b)) in d.iter().zip(&t).enumerate() {
        assert_eq!(a, b, "line {} differs: direct `{a}`, through glcmd `{b}`", i + 1);
    }
    assert_eq!(d.len(), t.len(), "direct:\n{direct}\nthrough glcmd:\n{through}");
    // The direct answers are the GL's; a few checked by content, so two equal wrong runs fail.
    for expected in [
        "vertex shader compile status: 1, has a log: 0",
        "bad shader compile status: 0, has a log: 1",
        "link status: 1",
        "buffer 0: 0 0 0, buffer 1: -1 1 1",
        "pixel (2, 2): 255 102 51 255",
        "pixel (30, 30): 0 0 64 255",
        "glGetError after glEnable(0x1234): 0x0500",
        "glGetError after glEnable(0x1234), glShaderSource(.., NULL, ..): 0x0500",
        "current program is the program: 1",
        "array buffer binding is buffer 1: 1",
        "fence signaled: 1",
        "texture after glPixelStorei, glFlush, glTexSubImage2D: 10 11 12 255 20 21 22 255 30 31 32 255 40 41 42 255 50 51 52 255 60 61 62 255",
        "after the deletes: buffer 0, texture 0, buffer 1 1",
    ] {
        assert!(d.contains(&expected), "the direct run does not say `{expected}`:\n{direct}");
    }
}

#[test]
fn a_query_behind_an_unsubmitted_list_fails_and_immediate_threads_refuse_explicit_lists() {
    if !tools::require_cc() {
        return;
    }
    let vendor = format!("-I{}", root().join("codegen/vendor").display());
    let exe = compile_with(&root().join("capi/tests/c/deferred.c"), "deferred", &[&vendor]);
    let out = run(&exe, &[]);
    assert!(out.contains("checks passed"), "{out}");
}

/// `tests/c/adopt_egl.c`: an EGL pbuffer context made by the C program, adopted with
/// glcmdDeviceAdoptEGL: the initial viewport and scissor box are the pbuffer's size, framebuffer
/// 0 holds the same bytes as the same clears called directly, glcmdDevicePresent works, and
/// glcmdDeviceDestroy releases the context without destroying it (issue 18, part 2).
#[test]
fn an_adopted_egl_context_renders_framebuffer_zero_like_direct_gl() {
    if !tools::require_cc() {
        return;
    }
    let exe = compile_with(&root().join("capi/tests/c/adopt_egl.c"), "adopt_egl", &["-lEGL"]);
    let stdout = run(&exe, &[]);
    assert!(stdout.contains("adopt_egl: ") && stdout.contains(" checks, 0 failures"), "{stdout}");
}
