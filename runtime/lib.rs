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
//! ## The parts
//!
//! * **Generated** (`generated`, from `vendor/` by glcmd-codegen in `build.rs`): one recording
//!   method, packet and execute function per recorded GL function; `Device` methods for create
//!   and query functions; the function-pointer loader [`Gl`]; typedefs and enumerants.
//! * **Hand-written** (this crate's other modules): the list buffers ([`list`]), the replay loop
//!   ([`replay`]), the render thread, frames and round trips ([`device`]), the GL context
//!   ([`context`]), the few special functions ([`special`]), and capture files: writing them,
//!   checking them as untrusted input, and replaying them ([`capture`]).
//!
//! The hand-written runtime knows packets, opcodes, lists and threads, not GL function names;
//! `special` is the one documented exception.
//!
//! ## Kinds of GL function
//!
//! | kind | API | when it runs |
//! | --- | --- | --- |
//! | record | `CommandList` method | at replay, in list order |
//! | create (`glGen*`, `glCreate*`) | `Device` method returning names | at once: from a name pool, or a round trip that waits for no list |
//! | delete (`glDelete*`) | `CommandList` method | at the end of the frame it was replayed in |
//! | query (`glGet*`, `glIs*`, ...) | `Device` method returning a value | after every list submitted before it (limits and program lookups: from caches) |
//! | special | hand-written ([`special`]) | documented per function |
//!
//! ## What "safe" means here
//!
//! No safe function of glcmd can make the driver read or write memory it should not: every
//! pointer glcmd hands the driver points at memory of at least the size the GL will use (array
//! lengths come from gl.xml and glcmd's pname tables, sizes are checked and allocated
//! fallibly), and an offset reaches the GL only while a buffer is bound to its target (the
//! render thread's binding shadow checks every offset; see [`shadow`]). Arguments drivers are
//! known to mishandle are checked too: object names that do not exist, buffer ranges whose sum
//! overflows, functions the context does not provide. A command that fails a check is skipped,
//! reported on [`Device::reports`] and raises `GL_INVALID_OPERATION`. What glcmd cannot check
//! is `unsafe`, with the contract in its doc: pixel data whose size the GL derives from state,
//! GPU addresses and bindless handles, the function table itself ([`Gl`]) and
//! [`Device::with_gl`]'s closures. glcmd cannot guarantee against driver bugs reached with valid
//! arguments, GPU hangs caused by shader code, or reads past the end of a bound buffer (a draw
//! with more vertices than the buffer holds): `Options::robust_access` asks the driver to make
//! those defined.
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

pub mod arguments;
pub mod capture;
mod capture_writer;
mod channel;
#[cfg(feature = "checking")]
pub mod checked;
#[doc(hidden)]
pub mod context;
mod debug_groups;
pub mod device;
pub mod diagnostics;
pub mod dump;
mod error;
pub mod frame;
pub mod generated;
pub mod limits;
pub mod list;
pub mod loader;
mod open_frames;
mod options;
pub mod packet;
pub mod pools;
pub mod programs;
mod render;
pub mod replay;
pub mod shadow;
pub mod special;
mod sync;
pub mod vocab;

pub use device::{Device, FrameStats, Options, Stats};
pub use diagnostics::DiagnosticOptions;
pub use error::Error;
pub use frame::{Frame, SubmitError};
pub use generated::enums as gl;
pub use generated::types;
pub use generated::Gl;
pub use list::CommandList;
pub use render::RenderContext;
pub use sync::SyncHandle;
pub use vocab::{Report, ReportKind};

/// Array data for arguments whose length the GL derives from state (pixel data).
#[derive(Clone, Copy, Debug)]
pub enum Bytes<'a> {
    /// Bytes copied into the list. At replay they are client memory: if a buffer is bound to
    /// `GL_PIXEL_UNPACK_BUFFER` then, glcmd unbinds it for the call.
    Slice(&'a [u8]),
    /// An offset into the buffer bound to `GL_PIXEL_UNPACK_BUFFER` at replay. With no buffer
    /// bound the command is skipped and reported (the offset would be read as an address).
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
