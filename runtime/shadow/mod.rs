//! The binding shadow: what the render thread knows about buffer bindings, so that no offset
//! reaches the GL as a pointer.
//!
//! In the core profile many pointer arguments are *offsets* into a buffer bound to some target:
//! `glDrawElements`' `indices` into the vertex array's element buffer, `glVertexAttribPointer`'s
//! `pointer` into `GL_ARRAY_BUFFER`, indirect draws into `GL_DRAW_INDIRECT_BUFFER`, pixel
//! transfers into `GL_PIXEL_PACK_BUFFER`/`GL_PIXEL_UNPACK_BUFFER`. With nothing bound, the very
//! same value is a *client pointer*, and the driver reads or writes process memory at that
//! address. Mesa does not refuse it (`glVertexAttribPointer` raises `GL_INVALID_OPERATION` but
//! keeps the pointer, and the next draw dereferences it), and no driver is obliged to. So the
//! render thread, which sees every bind in replay order, keeps a shadow of the bindings and
//! checks each offset-typed argument before the call: an offset with nothing bound is never
//! passed; the command is skipped and reported.
//!
//! Round trips read it too: a C caller's output pointer of `glGetQueryObject*v` is an offset
//! while a buffer is bound to `GL_QUERY_BUFFER` at that point of the stream, and the round trip
//! asks the shadow which it is (`RenderContext::buffer_output`, `client_out.rs`), checking an
//! offset against the bound buffer's storage as every offset.
//!
//! ## What is tracked
//!
//! * the context bindings of `GL_ARRAY_BUFFER`, `GL_PIXEL_PACK_BUFFER`,
//!   `GL_PIXEL_UNPACK_BUFFER`, `GL_DRAW_INDIRECT_BUFFER`, `GL_DISPATCH_INDIRECT_BUFFER`,
//!   `GL_PARAMETER_BUFFER` and `GL_QUERY_BUFFER`;
//! * the current vertex array object, and for each vertex array object its element buffer, the
//!   enable bit and binding index of each attribute and the buffer of each binding point. A draw
//!   is allowed only if every *enabled* attribute reads from a buffer (an enabled attribute
//!   without one is a client array: the pointer would be read as process memory), and an
//!   element draw only if the vertex array has an element buffer;
//! * which buffer and vertex-array names exist (created by glcmd, or seen bound), so that a bind
//!   the GL will refuse (a name that was never generated) is not mistaken for a bind.
//!
//! ## Exactness
//!
//! The shadow must never believe a buffer is bound when the GL has none. Each change is applied
//! only when glcmd can tell that the GL accepts the call: a bind of a known name, an attribute
//! index below the implementation's limit, the common size/type combinations. When it cannot
//! tell (a name it never saw, an unusual format, an EXT_direct_state_access call), it asks the
//! GL instead: a context binding is read back at once (`glGetIntegerv`), and a vertex array
//! object is marked *stale* and read back from the GL the next time a draw uses it. Offsets that
//! would be client pointers are refused at the source too: `glVertexAttribPointer` with no
//! `GL_ARRAY_BUFFER` and a non-zero pointer, and a vertex-buffer binding of buffer 0 with a
//! non-zero offset, are skipped, so no attribute ever holds a client address.
//!
//! `Device::with_gl` and `Device::post` may change anything behind the shadow's back; after them
//! the context bindings are read back, every vertex array is marked stale, and every name is
//! treated as unverified (its next bind is read back).
//!
//! ## Cost
//!
//! Only the commands that bind, enable, delete or use an offset do any of this (their generated
//! execute functions call into this module); every other command replays as before. A check is
//! a load of the current vertex array's precomputed flags; a bind is a bitset lookup.
//! BENCHMARKS.md gives the measured replay cost.

//!
//! ## The rooms
//!
//! * [`target`]: the tracked buffer targets (the floor the other rooms stand on);
//! * [`names`] and [`vao`]: the data of known names and of one vertex array;
//! * [`state`]: the shadow itself, how it starts and how it is read back (`refresh`);
//! * [`name_checks`]: which object names exist (created, generated, seen bound, deleted);
//! * [`binds`]: what binds, multi-binds, attribute calls and deletes change, applied only when
//!   the GL is sure to accept the call (a deferred buffer delete's unbinds at its place too,
//!   `Shadow::buffers_unbound`, made by `delete_effects.rs`);
//! * [`checks`]: what draws, dispatches and offset arguments need (bindings, and ranges inside
//!   the bound buffer's storage);
//! * [`storage`]: ranges of a buffer's storage that sub-data, copy, clear, invalidate, texture
//!   buffer, query-result and flush calls name, inside that storage (or mapping);
//! * [`audit`]: the shadow compared with the GL's own bindings, for tests and bug reports;
//! * [`refusal`]: why a command was not passed to the GL;
//! * [`bind_ranges`]: the range of an indexed buffer binding, refused after the GL's earlier
//!   checks (the buffer's name, the size, the target, an active transform feedback), and the
//!   entries of a multi-bind that reach the GL as an entry it refuses alone;
//! * [`guards`]: stateless checks of arguments drivers mishandle (ranges that wrap, NaN,
//!   `first + count`, texture levels, pinned memory).

mod audit;
mod bind_ranges;
mod binds;
mod checks;
mod guards;
mod name_checks;
mod names;
mod refusal;
mod state;
mod storage;
mod target;
mod vao;

pub use crate::vocab::class::Class;
pub use bind_ranges::multi_bind_ranges;
pub use binds::AttribKind;
pub use guards::{
    check_enum, check_first_count, check_not_nan, check_not_nan_slice, check_not_pinned, check_ranges,
    check_texture_level, framebuffer_first,
};
pub use refusal::Refusal;
pub use state::Shadow;
pub use storage::StorageOf;
pub use target::Target;
