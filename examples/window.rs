//! # window: glcmd rendering into a window (winit + glutin)
//!
//! The main thread owns the window and the event loop, as winit requires. It builds a GL 4.5
//! core context and a window surface with glutin, leaves the context **not current**, and hands
//! both to [`Device::with_window`]. From then on the context lives on glcmd's render thread:
//! the main thread only records and submits lists, and every frame ends with `swap_buffers` on
//! the render thread.
//!
//! Each frame clears to a known colour and draws a turning triangle. The last frame also reads
//! two pixels of the window back (the centre, inside the triangle, and a corner, cleared) and
//! prints them:
//!
//! ```text
//! PIXEL 255 204 0 255      centre: the triangle
//! CORNER 51 102 153 255    corner: the clear colour
//! ```
//!
//! Then it exits by itself. `tests/window.rs` runs it under Xvfb and checks both lines.
//!
//! ```sh
//! cargo run --example window -- --frames 5
//! cargo run --example window -- --egl      # EGL on X11 instead of GLX
//! cargo run --example window -- --immediate   # single-threaded style: Device::immediate, present
//! ```
//!
//! ## Reading the window back: when, and which buffer
//!
//! The window is double-buffered: the frame is drawn into the back buffer (`GL_BACK`, the
//! default read buffer of framebuffer 0), and `swap_buffers` presents it. *After* a swap, the
//! back buffer's content is undefined (EGL's default swap behaviour is
//! `EGL_BUFFER_DESTROYED`, GLX makes no promise either), and the front buffer may only be read
//! where the window is visible (the pixel ownership test). So the pixels are read from `GL_BACK`
//! *before* the last frame's swap. glcmd makes that a matter of order: the last frame has two
//! slots. Slot 0 draws; then `readn_pixels`, a query, runs on the render thread after slot 0 and
//! before slot 1; the frame, and so the swap, only ends once slot 1 has run.
//!
//! (Without blocking the main thread, the same readback can be recorded into slot 0 itself:
//! `read_pixels_to_buffer` into a `GL_PIXEL_PACK_BUFFER`, fetched later.)

use std::error::Error;

use glcmd::types::{GLint, GLuint};
use glcmd::{gl, Device};
use glutin::config::{Api, ConfigTemplateBuilder, GlConfig};
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile, Version};
use glutin::display::{GetGlDisplay, GlDisplay};
use glutin::surface::SurfaceAttributesBuilder;
use glutin_winit::{ApiPreference, DisplayBuilder, GlWindow};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::raw_window_handle::HasWindowHandle;
use winit::window::{Window, WindowId};

/// Window size in pixels (Xvfb has no window manager that could change it).
const WIDTH: u32 = 320;
const HEIGHT: u32 = 240;

/// Clear colour and triangle colour. Multiples of 0.2 convert to exact bytes (x * 255).
const CLEAR: [f32; 4] = [0.2, 0.4, 0.6, 1.0];
const TRIANGLE: [f32; 4] = [1.0, 0.8, 0.0, 1.0];

const VERTEX_SHADER: &str = r#"#version 450 core
uniform float u_angle;
void main() {
    // An equilateral triangle around the origin (circumradius 0.6), from gl_VertexID alone.
    float a = u_angle + float(gl_VertexID) * 2.0943951;
    gl_Position = vec4(0.6 * sin(a), 0.6 * cos(a), 0.0, 1.0);
}
"#;

const FRAGMENT_SHADER: &str = r#"#version 450 core
uniform vec4 u_color;
out vec4 o_color;
void main() { o_color = u_color; }
"#;

fn main() -> Result<(), Box<dyn Error>> {
    env_logger::init(); // glcmd's warnings go to `log` (and to Device::reports); RUST_LOG=warn shows them
    let (frames, preference, immediate) = parse_args()?;
    let event_loop = EventLoop::new()?;
    let mut app = App { frames, preference, immediate, state: None, frames_done: 0, result: None };
    event_loop.run_app(&mut app)?;
    app.result.unwrap_or_else(|| Err("the event loop ended before the last frame".into()))
}

fn parse_args() -> Result<(u32, ApiPreference, bool), Box<dyn Error>> {
    let mut frames = 3;
    let mut immediate = false;
    // glutin-winit's default on X11: GLX, with EGL as the fallback.
    let mut preference = ApiPreference::FallbackEgl;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--frames" => {
                let v = args.next().ok_or("--frames needs a value")?;
                frames = v.parse().ok().filter(|&n: &u32| n > 0).ok_or(format!("--frames: {v:?} is not positive"))?;
            }
            "--egl" => preference = ApiPreference::PreferEgl,
            "--immediate" => immediate = true,
            "-h" | "--help" => {
                println!("usage: window [--frames N (3)] [--egl (prefer EGL to GLX)] [--immediate (record with Device::immediate)]");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?}; try --help").into()),
        }
    }
    Ok((frames, preference, immediate))
}

struct App {
    frames: u32,
    preference: ApiPreference,
    /// Record with the immediate context (`--immediate`) instead of submitted lists.
    immediate: bool,
    /// Created on the first `resumed`.
    state: Option<State>,
    frames_done: u32,
    /// What `main` returns, set when the app stops.
    result: Option<Result<(), Box<dyn Error>>>,
}

/// Field order is drop order: the device (and with it the render thread and the GL context)
/// goes first, the window it draws into last.
struct State {
    device: Device,
    program: GLuint,
    vertex_array: GLuint,
    u_angle: GLint,
    u_color: GLint,
    /// Presents before the first immediate frame (`--immediate`).
    presents_before: std::cell::Cell<u64>,
    window: Window,
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.state.is_some() || self.result.is_some() {
            return;
        }
        match create(event_loop, self.preference) {
            Ok(state) => {
                state.window.request_redraw();
                self.state = Some(state);
            }
            Err(e) => self.stop(event_loop, Err(e)),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => self.stop(event_loop, Err("the window was closed".into())),
            WindowEvent::RedrawRequested => {
                let Some(state) = &self.state else { return };
                let last = self.frames_done + 1 == self.frames;
                let frame = match self.immediate {
                    true => state.immediate_frame(self.frames_done, last),
                    false => state.frame(self.frames_done, last),
                };
                match frame {
                    Ok(()) if last => self.stop(event_loop, Ok(())),
                    Ok(()) => {
                        self.frames_done += 1;
                        state.window.request_redraw();
                    }
                    Err(e) => self.stop(event_loop, Err(e)),
                }
            }
            _ => {}
        }
    }
}

impl App {
    fn stop(&mut self, event_loop: &ActiveEventLoop, result: Result<(), Box<dyn Error>>) {
        // Dropping the device replays what is still queued, presents, and destroys the context,
        // while the window still exists.
        self.state = None;
        self.result.get_or_insert(result);
        event_loop.exit();
    }
}

/// Window, GL context and surface (on this, the main thread), then the device.
fn create(event_loop: &ActiveEventLoop, preference: ApiPreference) -> Result<State, Box<dyn Error>> {
    let attributes = Window::default_attributes()
        .with_title("glcmd window example")
        .with_inner_size(PhysicalSize::new(WIDTH, HEIGHT))
        .with_resizable(false);
    // glutin-winit opens the platform's GL display (on X11: GLX or EGL, by `preference`) and
    // makes a window whose X visual matches the chosen config.
    let template = ConfigTemplateBuilder::new().with_api(Api::OPENGL);
    let builder = DisplayBuilder::new().with_preference(preference).with_window_attributes(Some(attributes));
    let (window, config) = builder.build(event_loop, template, |configs| {
        // The plainest config: no multisampling (so read-back pixels are exact), then the
        // smallest depth and stencil buffers (this example uses neither).
        configs
            .filter(|c| c.api().contains(Api::OPENGL))
            .min_by_key(|c| (c.num_samples(), c.depth_size(), c.stencil_size()))
            .expect("glutin returns at least one config, or an error")
    })?;
    let window = window.ok_or("glutin-winit made no window")?;
    let display = config.display();

    // OpenGL 4.5 core, nothing less: glcmd's generated code uses 4.5 entry points (DSA). If the
    // driver cannot, context creation fails here with the driver's reason.
    let context_attributes = ContextAttributesBuilder::new()
        .with_context_api(ContextApi::OpenGl(Some(Version::new(4, 5))))
        .with_profile(GlProfile::Core)
        .build(Some(window.window_handle()?.as_raw()));
    // SAFETY: the config comes from this display, and the window outlives the context (State
    // drops the device first).
    let context = unsafe { display.create_context(&config, &context_attributes) }
        .map_err(|e| format!("no OpenGL 4.5 core context on {}: {e}", display.version_string()))?;
    let surface_attributes = window.build_surface_attributes(SurfaceAttributesBuilder::new())?;
    // SAFETY: as above.
    let surface = unsafe { display.create_window_surface(&config, &surface_attributes) }?;

    // Not current: the render thread makes it current on itself.
    let device = Device::with_window(context, surface)?;

    // Trust, but verify: the context really is 4.5 core.
    let version = (device.get_integerv(gl::MAJOR_VERSION)?[0], device.get_integerv(gl::MINOR_VERSION)?[0]);
    let profile = device.get_integerv(gl::CONTEXT_PROFILE_MASK)?[0];
    if version < (4, 5) || profile & gl::CONTEXT_CORE_PROFILE_BIT as GLint == 0 {
        let (major, minor) = version;
        return Err(format!("got OpenGL {major}.{minor} (profile mask {profile:#x}); glcmd needs 4.5 core").into());
    }
    eprintln!(
        "window: {WIDTH}x{HEIGHT}, {}, OpenGL {}.{} core, {}",
        display.version_string(),
        version.0,
        version.1,
        device.get_string(gl::RENDERER)?.unwrap_or_default()
    );

    // The program and an empty vertex array (core profile needs one bound to draw).
    let program = device.create_program()?;
    let vertex_array = device.create_vertex_arrays(1)?[0];
    let mut setup = device.command_list();
    for (kind, source) in [(gl::VERTEX_SHADER, VERTEX_SHADER), (gl::FRAGMENT_SHADER, FRAGMENT_SHADER)] {
        let shader = device.create_shader(kind)?;
        setup.shader_source(shader, &[source]);
        setup.compile_shader(shader);
        setup.attach_shader(program, shader);
        setup.delete_shader(shader); // only flagged: the program keeps it until it goes
    }
    setup.link_program(program);
    device.submit(setup)?;
    if device.get_programiv(program, gl::LINK_STATUS)?[0] == 0 {
        return Err(format!("link: {}", device.get_program_info_log(program, 4096)?).into());
    }
    Ok(State {
        u_angle: device.get_uniform_location(program, "u_angle")?,
        u_color: device.get_uniform_location(program, "u_color")?,
        device,
        program,
        vertex_array,
        presents_before: std::cell::Cell::new(0),
        window,
    })
}

impl State {
    /// Records and submits frame `index`; the last one reads the window back before its swap.
    fn frame(&self, index: u32, last: bool) -> Result<(), Box<dyn Error>> {
        let size = self.window.inner_size();
        let (w, h) = (size.width as i32, size.height as i32);

        let mut list = self.device.command_list();
        list.bind_framebuffer(gl::FRAMEBUFFER, 0); // the window's default framebuffer
        list.viewport(0, 0, w, h);
        list.clear_color(CLEAR[0], CLEAR[1], CLEAR[2], CLEAR[3]);
        list.clear(gl::COLOR_BUFFER_BIT);
        list.use_program(self.program);
        list.bind_vertex_array(self.vertex_array);
        list.uniform1f(self.u_angle, index as f32 * 0.1);
        list.uniform4f(self.u_color, TRIANGLE[0], TRIANGLE[1], TRIANGLE[2], TRIANGLE[3]);
        list.draw_arrays(gl::TRIANGLES, 0, 3);

        if !last {
            // One slot; the frame ends (and swaps) when it has run.
            self.device.submit(list)?;
            return Ok(());
        }

        // The last frame: draw (slot 0), read back, then let the frame end (slot 1).
        list.read_buffer(gl::BACK); // framebuffer 0's back buffer: what this frame drew
        list.pixel_storei(gl::PACK_ALIGNMENT, 1);
        let frame = self.device.begin_frame(2)?;
        frame.submit(0, list)?;
        // Queries run after every list submitted before them (slot 0) and before the frame can
        // end, since slot 1 is not there yet: the back buffer still holds this frame.
        let centre = self.read_pixel(w / 2, h / 2)?;
        let corner = self.read_pixel(2, 2)?;
        frame.submit(1, self.device.command_list())?; // empty; the frame ends and swaps
        drop(frame);

        println!("PIXEL {} {} {} {}", centre[0], centre[1], centre[2], centre[3]);
        println!("CORNER {} {} {} {}", corner[0], corner[1], corner[2], corner[3]);
        let error = self.device.get_error()?;
        if error != gl::NO_ERROR {
            return Err(format!("GL error {error:#06x}").into());
        }
        Ok(())
    }

    /// Frame `index` with the immediate context, as single-threaded GL code would draw it: a
    /// query in the middle of the frame (an implicit hand-over to the render thread, which must
    /// not present the window), then a present. The last frame reads the back buffer before its
    /// present and prints how many presents the device made (one per frame).
    fn immediate_frame(&self, index: u32, last: bool) -> Result<(), Box<dyn Error>> {
        let size = self.window.inner_size();
        let (w, h) = (size.width as i32, size.height as i32);
        if index == 0 {
            // The set-up frame (one submitted list) has ended and presented, as a window
            // device's frames do: count from here.
            self.presents_before.set(self.device.wait_frames(1)?.presents);
        }
        let mut imm = self.device.immediate();
        imm.bind_framebuffer(gl::FRAMEBUFFER, 0);
        imm.viewport(0, 0, w, h);
        imm.clear_color(CLEAR[0], CLEAR[1], CLEAR[2], CLEAR[3]);
        imm.clear(gl::COLOR_BUFFER_BIT);
        if imm.get_error()? != gl::NO_ERROR {
            return Err("GL error after the clear".into());
        }
        imm.use_program(self.program);
        imm.bind_vertex_array(self.vertex_array);
        imm.uniform1f(self.u_angle, index as f32 * 0.1);
        imm.uniform4f(self.u_color, TRIANGLE[0], TRIANGLE[1], TRIANGLE[2], TRIANGLE[3]);
        imm.draw_arrays(gl::TRIANGLES, 0, 3);
        if last {
            imm.read_buffer(gl::BACK);
            imm.pixel_storei(gl::PACK_ALIGNMENT, 1);
            let centre = imm.readn_pixels(w / 2, h / 2, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, 4)?;
            let corner = imm.readn_pixels(2, 2, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, 4)?;
            println!("PIXEL {} {} {} {}", centre[0], centre[1], centre[2], centre[3]);
            println!("CORNER {} {} {} {}", corner[0], corner[1], corner[2], corner[3]);
        }
        imm.present()?;
        if last {
            let presents = self.device.stats().presents - self.presents_before.get();
            println!("PRESENTS {presents} FRAMES {}", index + 1);
        }
        Ok(())
    }

    fn read_pixel(&self, x: i32, y: i32) -> Result<[u8; 4], Box<dyn Error>> {
        let bytes = self.device.readn_pixels(x, y, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, 4)?;
        Ok(bytes.as_slice().try_into()?)
    }
}
