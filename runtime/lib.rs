//! # glcmd: OpenGL command lists for many threads
//!
//! OpenGL lets one thread at a time use a context. glcmd lifts that limit the way Vulkan and
//! D3D12 engines do it: worker threads *record* GL calls into [`CommandList`]s, and one render
//! thread, which owns the context, *replays* them in an order the application fixes.
//!
//! ```no_run
//! # fn main() -> Result<(), glcmd::Error> {
//! use glcmd::{Device, gl};
//! let device = Device::headless()?;                 // render thread + EGL context
//! let fbo = device.create_framebuffers(1)?[0];      // creation is immediate
//! let frame = device.begin_frame(1)?;               // one list in this frame
//! let mut list = device.command_list();             // recorded on any thread
//! list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
//! list.clear_color(0.2, 0.3, 0.4, 1.0);
//! list.clear(gl::COLOR_BUFFER_BIT);
//! frame.submit(0, list)?;                           // replayed in slot order
//! drop(frame);
//! let err = device.get_error()?;                    // queries wait for earlier lists
//! # let _ = err; Ok(()) }
//! ```
//!
//! ## The house
//!
//! Floors, from the ground up; a module imports only from its own floor and the ones below
//! (`tests/layering.rs` fails on any import circle):
//!
//! | floor | modules | what they hold |
//! | --- | --- | --- |
//! | generated tables | `generated` (`types`, `enums`, `loader`, `pname`, `extensions`) | typedefs, enumerants, the function table [`Gl`], pname counts, what each extension and version requires: from glcmd-codegen's vendored inputs, in `build.rs` |
//! | vocabulary | `vocab`, `error`, `packet`, `builders` | what every part says: object classes, how a packet stores arrays, reports and their sink, enum names; all error types; the packet header; the rule for options and counters types and the macro of their builders |
//! | recording | `list`, `arguments` | the command list's two buffers; argument checks and conversions of the generated methods |
//! | render-thread state | `shadow`, `programs` (and each thread's copy of its answers, `recent_lookups`), `pools`, `limits`, `served`, `capture_writer`, `open_frames`, `options` | the binding shadow and the driver-bug guards; caches and name pools; the extensions and version this build serves; the capture writer; open frames; options and counters |
//! | replay | `replay`, `diagnostics`, `dump`, `debug_groups`, `checked` | the replay loop and its checks, diagnostics (attribution, breadcrumbs, watchdog), dumps, list labels as debug groups, the checking table |
//! | the channel | `channel` | the contract between application threads and the render thread: messages, round-trip jobs, the state both sides share |
//! | the thread | `adopt`, `context`, `render` (and its `scheduler`) | an application's own context as raw EGL/GLX handles; the GL context (EGL, windows, adopted); the render thread's body, [`RenderContext`] and the scheduler |
//! | the handle | `device`, `frame`, `immediate`, `present`, `special`, `sync`, `capture` | [`Device`] and its round trips, frames and slots, the immediate context ([`Immediate`]), presents (waited for or queued), the hand-written special functions, sync handles, capture files (load, check, replay: feature `capture-replay`) |
//! | generated methods | `generated` (`commands`, `device`, `immediate`, `inspect`, `capture`) | one recording method, packet and execute function per GL function; `Device` methods of creates and queries and their `Immediate` twins; dumps; capture tables. Committed for reading in `generated/` at the checkout's root |
//!
//! The hand-written runtime knows packets, opcodes, lists and threads, not GL function names;
//! `special` is the one documented exception.
//!
//! ## Which room to open for which change
//!
//! | change | where |
//! | --- | --- |
//! | how a GL function is recorded, replayed, classified, or which arguments it checks | the generator (`codegen/src`; `shadow_hooks.rs` says which calls touch the binding shadow), never `generated/` |
//! | what the render thread believes is bound, or a range or binding check | `shadow/` (`binds.rs`, `checks.rs`), stateless guards in `shadow/guards.rs` |
//! | the order in which lists and round trips run, waits and their limits | `render/scheduler.rs`, the rules in `frame.rs`'s essay |
//! | a new message between the handle and the render thread | `channel.rs` |
//! | a new kind of report | `vocab/report.rs`, then whoever reports it |
//! | diagnostics (attribution, breadcrumbs, watchdog, strict) | `diagnostics.rs` |
//! | a capture's file format or what it records | `capture_writer/`; loading, checking and replaying: `capture/` |
//! | a hand-written special function (`glFenceSync`'s handle, `glClientWaitSync`, ...) | `special.rs` |
//! | making or adopting a GL context | `context.rs`; raw EGL/GLX handles: `adopt.rs` |
//!
//! ## Kinds of GL function
//!
//! | kind | API | when it runs |
//! | --- | --- | --- |
//! | record | `CommandList` method | at replay, in list order |
//! | create (`glGen*`, `glCreate*`) | `Device` method returning names | at once: from a name pool, or a round trip that waits for no list |
//! | delete (`glDelete*`) | `CommandList` method | at the end of the frame it was replayed in; in place for an immediate context's list (`replay.rs`) |
//! | query (`glGet*`, `glIs*`, ...) | `Device` method returning a value | after every list submitted before it (limits and program lookups: from caches); calls in a list not yet submitted are not seen |
//! | any of the above, single-threaded semantics | [`Immediate`] ([`Device::immediate`]): a command list with the `Device` methods beside it | a query, special or flush submits the context's pending calls first, so it reads the context's own writes |
//! | special | hand-written ([`special`]) | documented per function |
//!
//! ## What "safe" means here
//!
//! No safe function of glcmd can make the driver read or write memory it should not: every
//! pointer glcmd hands the driver points at memory of at least the size the GL will use (array
//! lengths come from gl.xml and glcmd's pname tables, sizes are checked and allocated
//! fallibly), and an offset reaches the GL only while a buffer is bound to its target (the
//! render thread's binding shadow checks every offset; see the README's "What safe
//! guarantees"). Arguments drivers are known to mishandle are checked too: object names that do
//! not exist, buffer ranges whose sum overflows, functions the context does not provide. A
//! command that fails a check is skipped, reported on [`Device::reports`] and raises the error
//! the GL gives for the same mistake. Pixel uploads are sized from the list's own pixel-store
//! state (`CommandList::pixel_storei`), so they are safe too. What glcmd cannot check is `unsafe`, with the contract in
//! its doc: outputs whose size the driver decides, GPU addresses and bindless handles, the function table itself ([`Gl`]) and [`Device::with_gl`]'s closures. glcmd cannot
//! guarantee against driver bugs reached with valid arguments, GPU hangs caused by shader code,
//! or reads past the end of a bound buffer (a draw with more vertices than the buffer holds):
//! `Options::robust_access` asks the driver to make those defined.
//!
//! A loader fed by the caller is `unsafe` (it could hand replay any address):
//!
//! ```compile_fail
//! let gl = glcmd::Gl::load_with(|_| 0x1000 as *const std::ffi::c_void);
//! ```
//!
//! Replaying packets is not public (only lists recorded by glcmd's methods are replayed):
//!
//! ```compile_fail
//! fn replay(gl: &glcmd::Gl, state: &mut glcmd::replay::ReplayState, list: &glcmd::CommandList) {
//!     glcmd::replay::replay(gl, gl, state, list, 0);
//! }
//! ```
//!
//! Outputs whose size the driver decides (it ignores the size it is told) are `unsafe`:
//!
//! ```compile_fail
//! # fn f(device: &glcmd::Device) {
//! let data = device.get_perf_query_data_intel(1, 0, 16, 16);
//! # }
//! ```
//!
//! ```compile_fail
//! # fn f(device: &glcmd::Device) {
//! let commands = device.get_path_commands_nv(1, 64);
//! # }
//! ```
//!
//! ## State carries over
//!
//! GL state is global to the context, so whatever a list leaves bound or enabled is what the
//! next list starts with, in replay order. Lists that must not depend on each other should set
//! the state they use; [`CommandList::reset_state`] records a reset of the commonly used state
//! to GL defaults, a known starting point.

// What users reach: the types re-exported below, and the modules whose documentation they read
// (capture, diagnostics, special, checked). The rest is the house's inside; modules that sibling
// crates of this workspace (the C ABI, the sweep, the replayer, the benches and tests) need are
// public but hidden from the documentation.
mod adopt;
mod answer_tracking;
#[doc(hidden)]
pub mod arguments;
#[doc(hidden)]
pub mod buffer_names;
mod builders;
pub mod capture;
mod capture_writer;
mod channel;
#[cfg(feature = "checking")]
pub mod checked;
pub mod client_indices;
#[doc(hidden)]
pub mod client_out;
#[doc(hidden)]
pub mod context;
mod debug_groups;
mod delete_effects;
mod device;
pub mod diagnostics;
#[doc(hidden)]
pub mod dump;
mod error;
#[cfg(test)]
mod error_messages;
mod float_params;
mod frame;
#[doc(hidden)]
pub mod generated;
mod immediate;
#[doc(hidden)]
pub mod known_answers;
#[doc(hidden)]
pub mod known_errors;
mod known_replay;
mod limits;
mod list;
#[doc(hidden)]
pub mod loader;
mod open_frames;
mod options;
mod pack_range;
mod packet;
mod pixel_args;
#[doc(hidden)]
pub mod pixels;
mod pooled_create;
#[doc(hidden)]
pub mod pools;
mod present;
mod present_queue;
#[doc(hidden)]
pub mod programs;
pub mod query_out;
mod recent_lookups;
#[doc(hidden)]
pub mod recorded_state;
mod render;
pub mod render_host;
mod repeats;
#[doc(hidden)]
pub mod replay;
mod replay_quirks;
mod round_trips;
#[doc(hidden)]
pub mod served;
mod shadow;
pub mod special;
mod state_tracking;
mod sync;
mod vocab;

pub use adopt::{AdoptEgl, AdoptGlx, GetProcAddress};
pub use device::{Device, MAX_CREATE};
pub use diagnostics::DiagnosticOptions;
pub use error::{CaptureError, ContextError, Error, PlatformError};
pub use frame::{Frame, SubmitError, MAX_SLOTS};
pub use generated::enums as gl;
pub use generated::types;
pub use generated::Gl;
/// The glutin crate whose context and surface types [`Device::with_window`] takes: name them as
/// `glcmd::glutin::…` to get the exact version glcmd was built with.
pub use glutin;
pub use immediate::{HandOvers, Immediate};
pub use limits::Limits;
pub use list::CommandList;
pub use options::{FrameStats, Options, RenderTimes, Stats};
pub use present::FRAMES_IN_FLIGHT;
pub use render::RenderContext;
pub use sync::SyncHandle;
pub use vocab::check::{gl_error as spec_gl_error, Check, SpecError};
pub use vocab::{Class, DebugMessage, EnumName, Report, ReportKind, ReportWait, Reports};

/// Array data for arguments whose length the GL derives from state (pixel data): the pixels of
/// a texture upload, compressed image data, a clear value.
///
/// Any `&[T]`, `&[T; N]` or `&Vec<T>` of plain data converts into `Bytes::Slice`, and an
/// `Option<&[T]>` into a slice or `Bytes::None`, so an upload reads
/// `list.tex_sub_image_2d(gl::TEXTURE_2D, 0, 0, 0, w, h, gl::RGBA, gl::UNSIGNED_BYTE, &pixels)`.
/// The recording method checks the slice against the size the GL derives (for pixels: from the
/// list's own pixel-store state, see `CommandList::pixel_storei`) and panics if it is too short.
#[derive(Clone, Copy, Debug)]
pub enum Bytes<'a> {
    /// Bytes copied into the list. At replay they are client memory: if a buffer is bound to
    /// `GL_PIXEL_UNPACK_BUFFER` then, glcmd unbinds it for the call.
    Slice(&'a [u8]),
    /// An offset into the buffer bound to `GL_PIXEL_UNPACK_BUFFER` at replay. With no buffer
    /// bound, or with `offset + size` past the end of its storage, the command is skipped,
    /// reported and raises `GL_INVALID_OPERATION` (the GL's error for an overrun), so the GL
    /// never reads outside the buffer.
    BufferOffset(usize),
    /// No data: a null pointer, where the GL accepts one (`tex_image_2d` allocating storage
    /// without uploading). Elsewhere the recording method panics.
    None,
}

/// Any slice of plain data (`bytemuck::NoUninit`, implied by `Pod`): its bytes.
impl<'a, T: bytemuck::NoUninit> From<&'a [T]> for Bytes<'a> {
    fn from(s: &'a [T]) -> Self {
        Bytes::Slice(bytemuck::cast_slice(s))
    }
}

/// `Some(slice)`: its bytes; `None`: `Bytes::None`, no data (a null pointer, where the GL
/// accepts one: `tex_image_2d` allocating storage without uploading).
impl<'a, T: bytemuck::NoUninit> From<Option<&'a [T]>> for Bytes<'a> {
    fn from(s: Option<&'a [T]>) -> Self {
        s.map_or(Bytes::None, |s| Bytes::Slice(bytemuck::cast_slice(s)))
    }
}

impl<'a, T: bytemuck::NoUninit, const N: usize> From<&'a [T; N]> for Bytes<'a> {
    fn from(s: &'a [T; N]) -> Self {
        Bytes::Slice(bytemuck::cast_slice(s))
    }
}

impl<'a, T: bytemuck::NoUninit> From<&'a Vec<T>> for Bytes<'a> {
    fn from(s: &'a Vec<T>) -> Self {
        Bytes::Slice(bytemuck::cast_slice(s))
    }
}

/// Called by the loader's stub for a function the context does not provide (by its index in
/// the function table): reported on the render thread, logged elsewhere.
#[doc(hidden)]
pub fn missing_function(index: usize) {
    loader::missing(index);
}
