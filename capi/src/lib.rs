//! # glcmd-capi: the C ABI of glcmd
//!
//! C and C++ engines record GL from worker threads through the loader they already use: they
//! point it (glad, GLEW, SDL_GL_GetProcAddress, their own table) at [`glcmdGetProcAddress`], and
//! their ordinary `glBindTexture(...)`, `glDrawElements(...)` calls record into the calling
//! thread's current list. `include/glcmd.h` is the header; README.md, "C and C++", the guide.
//!
//! ## Design
//!
//! * **The Rust API does the work.** Every entry point (generated, `generated.rs`, from the same
//!   model as the Rust API by glcmd-codegen's `capi` emitter) converts its C arguments and calls
//!   the generated `CommandList` or `Device` method, so a C caller gets exactly a Rust caller's
//!   checks: the same length rules, the same binding-shadow checks at replay, the same errors.
//!   The C to Rust conversions are in [`conv`]; arrays are borrowed for the call and copied by
//!   the recording method.
//! * **A thread-local current list** ([`current`]), as a GL context is current on a thread: that
//!   is what lets unchanged GL calls record. Creates and queries go through the thread's current
//!   device (the device of its list, or one made current without a list), as round trips.
//!   An **immediate thread** ([`immediate`], `glcmdThreadMakeImmediate`) records into an
//!   implicit list that glcmd submits for it before every answer that needs it, so unchanged
//!   single-threaded GL code gets a GL context's semantics; a query that could depend on an
//!   unsubmitted explicit list fails instead of answering stale.
//! * **Lengths the GL derives from state** (pixel data) are computed at the boundary: uploads
//!   from the list's own pixel-store state, which is recorded before the first upload so it is
//!   the state the GL uses ([`pixels`]); reads from the render thread's real state in the same
//!   round trip ([`sizes`]). The few functions whose lengths cannot be computed (vendor path
//!   rendering, performance counters) have entry points that report `GLCMD_ERROR_UNSUPPORTED`.
//! * **Errors are values** ([`error`]): a status code and a message, through `glcmdLastError`, a
//!   KHR_debug-style callback, and for GL entry points the GL error `glGetError` returns. Every
//!   entry point and function catches panics: a Rust panic never unwinds into C, whatever the
//!   panic strategy. Handles are registry numbers, not pointers ([`handles`]): a destroyed or
//!   forged handle is an error, not a use after free.
//!
//! ## Files
//!
//! | module | what |
//! | --- | --- |
//! | [`api`] | the exported `glcmd*` functions |
//! | [`adopt`] | an application's own EGL or GLX context as a device (also for Rust callers, with full `glcmd::Options`) |
//! | [`generated`] | the generated entry points and tables; [`lookup`], names to entry points |
//! | [`special`] | the hand-written special functions |
//! | [`elements`] | element draws with indices in client memory: what the thread knows of element buffers, the draw from copied indices |
//! | [`call`] | what each entry point calls: recording, round trips, panics caught |
//! | [`fast_answers`] | the lookup entry points' fast path: answers from the thread's copy of the interface cache |
//! | [`pixels`], [`sizes`] | pixel and uniform lengths |
//! | [`immediate`] | immediate threads (`glcmdThreadMakeImmediate`), the deferred-list rule, their counters |
//! | [`current`] | the thread's current list and device |
//! | [`handles`] | device and frame handles: the registry |
//! | [`recording`] | a list being recorded, with its pixel-store state |
//! | [`conv`] | C values to Rust values and back |
//! | [`reports`] | diagnostic reports as C structs |
//! | [`error`] | a status code and a message; `glcmdLastError`, the callback, `glGetError` |
//! | [`c_terms`] | the runtime's messages with C calls for its Rust names |
//! | [`types`] | the C types and constants (with [`api`], what the header is generated from) |
//!
//! The table is the floor plan: a module imports only modules below it (or beside it, on the
//! same row), never one above, so there is no import circle (`tests/layering.rs` checks).

pub mod adopt;
pub mod api;
pub mod c_terms;
pub mod call;
pub mod conv;
pub mod current;
pub mod debug_sync;
pub mod elements;
pub mod error;
pub mod fast_answers;
pub mod generated;
pub mod handles;
pub mod immediate;
pub mod lookup;
pub mod pixels;
pub mod recording;
pub mod reports;
pub mod sizes;
pub mod special;
pub mod types;

pub use api::*;
pub use types::*;

/// The workspace README's code blocks as doc-tests: the Rust ones compile and run (the Usage
/// program on a headless device, the glow switch), here because this crate sees both glcmd and
/// glcmd-capi (glcmd's own doc-tests would not, once packaging strips its path dev-dependency
/// on this crate). `README.md` beside `Cargo.toml` is a link to the workspace's in the
/// repository and a copy in the package. The C block is `tests/c/readme.c`, compiled by
/// `tests/install.rs`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
