//! # libglcmd_preload: an unmodified GL program, through glcmd
//!
//! `glcmd-run -- PROGRAM ARGS` (the launcher, `src/main.rs`) starts PROGRAM with this library in
//! `LD_PRELOAD`. Loaded before the system's GL libraries, it stands in front of what a program
//! uses to reach the GL:
//!
//! * every `gl*` function of glcorearb.h (`exports.rs`, generated), whether the program links
//!   it directly or gets it from a get-proc-address function: each jumps through the calling
//!   thread's table (`dispatch.rs`) to glcmd's C entry points or to the driver;
//! * `eglGetProcAddress`, `glXGetProcAddress(ARB)`, which hand out those symbols;
//! * making a context current, swapping, destroying, and the current-context queries of EGL
//!   (`egl.rs`) and GLX (`glx.rs`): a desktop GL 4.5 core context is adopted by a glcmd device
//!   whose render thread owns it, and the program's thread becomes an immediate glcmd thread
//!   (`contexts.rs`, `adopt.rs`); any other context runs directly;
//! * what ends a window-system object a context uses (`teardown.rs`, `x11.rs`): `XDestroyWindow`,
//!   `XCloseDisplay`, `eglTerminate`, `_exit`, ...: the contexts glcmd serves are handed back
//!   first, their work replayed and presented while the object is alive;
//! * glcmd's reports (a call refused for safety, and with the diagnostics options GL errors
//!   attributed to calls), printed on stderr (`reports.rs`);
//! * `dlopen` of the GL loader libraries (`dl.rs`: libEGL, libGL, libGLX, libOpenGL, libGLESv2,
//!   libGLESv1_CM), so programs that open one themselves (waffle, SDL, GLFW, piglit's dispatch)
//!   find the same stand-ins;
//! * every other EGL and GLX function (`egl_forward.rs`, `glx_forward.rs`, on `forward.rs`):
//!   with the ones above, each reaches the system on **one driver thread** (`driver.rs`), which
//!   is also the render thread of the context glcmd adopts, so the driver sees one thread as
//!   without glcmd (NVIDIA's runs GL 1.2-1.7× slower when two threads call EGL).
//!
//! This is Mesa's glthread for any driver: the program's GL calls are recorded on its own
//! threads and replayed on a render thread, and queries wait for the calls before them. glcmd's
//! options come from environment variables (`options.rs`). Child processes inherit
//! `LD_PRELOAD`, so a test runner's tests run through glcmd too.
//!
//! ## Floors
//!
//! `current` (what a thread made current), `real` (the system's functions), `native` (what is
//! known of the program's displays and windows), `reports` (printing glcmd's reports), `options`
//! and `lifetime` (the thread-exit, exit and fork hooks) at the bottom; `driver` (the driver
//! thread and its forwarding, on `real`, `options` and `lifetime`); `dispatch` (on `real` and
//! the generated `exports`); `adopt` (starting, presenting and destroying a device); `switch`
//! (the side effects of a switch between contexts); `contexts` (the registry of the program's
//! contexts, on adopt and switch; `contexts/hand_back.rs`: thread end, exit and fork); `forward`
//! (the forwarded functions' machinery, on `driver` and `contexts`); `egl`, `egl_forward`, `glx`,
//! `glx_forward`, `teardown`, `x11` and `dl`, the interposed functions, and `proc_address`
//! (which hands them out) at the top.

mod adopt;
mod contexts;
mod current;
mod dispatch;
mod dl;
mod driver;
mod egl;
mod egl_forward;
mod exports;
mod forward;
mod glx;
mod glx_forward;
mod lifetime;
mod native;
mod options;
mod proc_address;
mod real;
mod reports;
mod switch;
mod teardown;
mod x11;
