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
//! * this file: the tracked targets, the shadow's state, reading it back (`refresh`);
//! * [`names`]: which object names exist (created, generated, seen bound, deleted);
//! * [`binds`]: what binds, multi-binds, attribute calls and deletes change, applied only when
//!   the GL is sure to accept the call;
//! * [`checks`]: what draws, dispatches and offset arguments need (bindings, and ranges inside
//!   the bound buffer's storage);
//! * [`audit`]: the shadow compared with the GL's own bindings, for tests and bug reports;
//! * [`refusal`]: why a command was not passed to the GL;
//! * [`guards`]: stateless checks of arguments drivers mishandle (ranges that wrap, NaN,
//!   `first + count`, texture levels, pinned memory).

mod audit;
mod binds;
mod checks;
mod guards;
mod names;
mod refusal;

use std::collections::HashMap;

use crate::generated::{enums as gl, types::*, Gl};

pub use crate::vocab::class::Class;
use crate::vocab::class::CLASSES;

pub use binds::AttribKind;
use binds::{read_current_vao, Vao};
pub use guards::{
    check_first_count, check_not_nan, check_not_nan_slice, check_not_pinned, check_ranges, check_texture_level,
};
use names::Names;
pub use refusal::Refusal;

/// Attributes and binding points tracked per vertex array (the GL's limits are at most this on
/// every implementation glcmd knows; indices at or past the context's own limit are refused by
/// the GL and change nothing).
pub const MAX_ATTRIBS: usize = 32;

/// A buffer target whose binding the shadow tracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Array,
    ElementArray,
    PixelPack,
    PixelUnpack,
    DrawIndirect,
    DispatchIndirect,
    Parameter,
    Query,
}

impl Target {
    pub fn from_gl(target: GLenum) -> Option<Target> {
        Some(match target {
            gl::ARRAY_BUFFER => Target::Array,
            gl::ELEMENT_ARRAY_BUFFER => Target::ElementArray,
            gl::PIXEL_PACK_BUFFER => Target::PixelPack,
            gl::PIXEL_UNPACK_BUFFER => Target::PixelUnpack,
            gl::DRAW_INDIRECT_BUFFER => Target::DrawIndirect,
            gl::DISPATCH_INDIRECT_BUFFER => Target::DispatchIndirect,
            gl::PARAMETER_BUFFER => Target::Parameter,
            gl::QUERY_BUFFER => Target::Query,
            _ => return None,
        })
    }

    pub fn gl_name(self) -> &'static str {
        match self {
            Target::Array => "GL_ARRAY_BUFFER",
            Target::ElementArray => "GL_ELEMENT_ARRAY_BUFFER",
            Target::PixelPack => "GL_PIXEL_PACK_BUFFER",
            Target::PixelUnpack => "GL_PIXEL_UNPACK_BUFFER",
            Target::DrawIndirect => "GL_DRAW_INDIRECT_BUFFER",
            Target::DispatchIndirect => "GL_DISPATCH_INDIRECT_BUFFER",
            Target::Parameter => "GL_PARAMETER_BUFFER",
            Target::Query => "GL_QUERY_BUFFER",
        }
    }

    pub fn gl_enum(self) -> GLenum {
        match self {
            Target::Array => gl::ARRAY_BUFFER,
            Target::ElementArray => gl::ELEMENT_ARRAY_BUFFER,
            Target::PixelPack => gl::PIXEL_PACK_BUFFER,
            Target::PixelUnpack => gl::PIXEL_UNPACK_BUFFER,
            Target::DrawIndirect => gl::DRAW_INDIRECT_BUFFER,
            Target::DispatchIndirect => gl::DISPATCH_INDIRECT_BUFFER,
            Target::Parameter => gl::PARAMETER_BUFFER,
            Target::Query => gl::QUERY_BUFFER,
        }
    }

    /// The `glGetIntegerv` pname of the binding.
    fn binding_pname(self) -> GLenum {
        match self {
            Target::Array => gl::ARRAY_BUFFER_BINDING,
            Target::ElementArray => gl::ELEMENT_ARRAY_BUFFER_BINDING,
            Target::PixelPack => gl::PIXEL_PACK_BUFFER_BINDING,
            Target::PixelUnpack => gl::PIXEL_UNPACK_BUFFER_BINDING,
            Target::DrawIndirect => gl::DRAW_INDIRECT_BUFFER_BINDING,
            Target::DispatchIndirect => gl::DISPATCH_INDIRECT_BUFFER_BINDING,
            Target::Parameter => gl::PARAMETER_BUFFER_BINDING,
            Target::Query => gl::QUERY_BUFFER_BINDING,
        }
    }

    const CONTEXT: [Target; 7] = [
        Target::Array,
        Target::PixelPack,
        Target::PixelUnpack,
        Target::DrawIndirect,
        Target::DispatchIndirect,
        Target::Parameter,
        Target::Query,
    ];

    fn slot(self) -> usize {
        match self {
            Target::Array => 0,
            Target::PixelPack => 1,
            Target::PixelUnpack => 2,
            Target::DrawIndirect => 3,
            Target::DispatchIndirect => 4,
            Target::Parameter => 5,
            Target::Query => 6,
            Target::ElementArray => unreachable!("vertex-array state"),
        }
    }
}

/// The render thread's binding shadow.
pub struct Shadow {
    context: [u32; 7],
    current_vao: u32,
    vaos: HashMap<u32, Vao>,
    /// Known names of each class.
    objects: [Names; CLASSES],
    generation: u32,
    /// `GL_MAX_VERTEX_ATTRIBS` and `GL_MAX_VERTEX_ATTRIB_BINDINGS`, capped at `MAX_ATTRIBS`.
    max_attribs: u32,
    max_bindings: u32,
    /// `GL_MAX_VERTEX_ATTRIB_STRIDE` (2048 when the GL does not say).
    max_stride: i32,
    /// A core-profile context: vertex array object 0 cannot be drawn with.
    core: bool,
    /// Context targets this context does not have (`GL_PARAMETER_BUFFER` before GL 4.6 without
    /// ARB_indirect_parameters, ...), one bit per `Target::slot`: a bind to one is refused by
    /// the GL, so the shadow never records it.
    unsupported: u8,
    /// Storage sizes of buffers, as the GL reported them (`GL_BUFFER_SIZE`). Every call that may
    /// change a buffer's storage clears it, so a size is never older than the storage.
    sizes: HashMap<u32, u64>,
    /// The current vertex array's draw check, while nothing changed it. Draws take this fast
    /// path.
    draw_cache: Option<DrawCache>,
}

/// What a draw needs to know of the current vertex array, computed once per change.
#[derive(Clone, Copy, Debug)]
struct DrawCache {
    /// No enabled attribute reads a client array.
    arrays_ok: bool,
    /// The element buffer (0: none) and the size of its storage.
    element: u32,
    element_size: u64,
}

impl Shadow {
    /// The shadow of a new context (nothing bound), with the context's limits.
    pub(crate) fn new(gl_fns: &Gl) -> Shadow {
        let get = |pname| {
            let mut v = 0;
            // SAFETY: each pname is a single-integer query.
            unsafe { (gl_fns.GetIntegerv)(pname, &mut v) };
            v
        };
        let max_attribs = (get(gl::MAX_VERTEX_ATTRIBS).max(16) as u32).min(MAX_ATTRIBS as u32);
        let max_bindings = (get(gl::MAX_VERTEX_ATTRIB_BINDINGS).max(16) as u32).min(MAX_ATTRIBS as u32);
        let stride = get(gl::MAX_VERTEX_ATTRIB_STRIDE);
        let core = get(gl::CONTEXT_PROFILE_MASK) as u32 & gl::CONTEXT_CORE_PROFILE_BIT != 0;
        let unsupported = unsupported_targets(gl_fns);
        let mut vaos = HashMap::new();
        vaos.insert(0, Vao::new());
        let mut shadow = Shadow {
            context: [0; 7],
            current_vao: 0,
            vaos,
            objects: Default::default(),
            generation: 1,
            max_attribs,
            max_bindings,
            max_stride: if stride > 0 { stride } else { 2048 },
            core,
            unsupported,
            sizes: HashMap::new(),
            draw_cache: None,
        };
        // A context handed over by the application (a window) may have state already.
        shadow.refresh(gl_fns);
        shadow
    }
    // ---- refresh -----------------------------------------------------------------------

    /// After arbitrary GL code ran (`with_gl`, `post`, a call that resets client state): read the
    /// context bindings back, mark every vertex array stale and every name unverified.
    pub fn refresh(&mut self, gl_fns: &Gl) {
        self.draw_cache = None;
        self.generation = self.generation.wrapping_add(1).max(1);
        self.sizes.clear();
        for t in Target::CONTEXT {
            // A target the context lacks is never bound (and asking would raise an error).
            self.context[t.slot()] = if self.unsupported & 1 << t.slot() != 0 { 0 } else { read_binding(gl_fns, t) };
        }
        let mut v = 0;
        // SAFETY: a single-integer query.
        unsafe { (gl_fns.GetIntegerv)(gl::VERTEX_ARRAY_BINDING, &mut v) };
        self.current_vao = v as u32;
        for vao in self.vaos.values_mut() {
            vao.stale = true;
        }
        self.vaos.entry(self.current_vao).or_insert_with(Vao::stale);
    }
}

/// The context targets (as `Target::slot` bits) this context lacks, from its version and
/// extensions: a bind to one raises `GL_INVALID_ENUM` and changes nothing. (Asked this way, not
/// by provoking errors, so an adopted context's pending errors stay the application's.)
fn unsupported_targets(gl_fns: &Gl) -> u8 {
    let (mut major, mut minor, mut count) = (0, 0, 0);
    // SAFETY: single-integer queries.
    unsafe {
        (gl_fns.GetIntegerv)(gl::MAJOR_VERSION, &mut major);
        (gl_fns.GetIntegerv)(gl::MINOR_VERSION, &mut minor);
        (gl_fns.GetIntegerv)(gl::NUM_EXTENSIONS, &mut count);
    }
    let has = |wanted: &str| {
        (0..count.max(0) as u32).any(|i| {
            // SAFETY: `i` is below GL_NUM_EXTENSIONS; the GL returns a static NUL-terminated
            // string (or null).
            let s = unsafe { (gl_fns.GetStringi)(gl::EXTENSIONS, i) };
            !s.is_null() && unsafe { std::ffi::CStr::from_ptr(s.cast()) }.to_bytes() == wanted.as_bytes()
        })
    };
    let version = (major, minor);
    let needs = [
        (Target::DrawIndirect, (4, 0), "GL_ARB_draw_indirect"),
        (Target::DispatchIndirect, (4, 3), "GL_ARB_compute_shader"),
        (Target::Query, (4, 4), "GL_ARB_query_buffer_object"),
        (Target::Parameter, (4, 6), "GL_ARB_indirect_parameters"),
    ];
    needs.iter().filter(|(_, v, ext)| version < *v && !has(ext)).fold(0, |bits, (t, _, _)| bits | 1 << t.slot())
}

pub(super) fn read_binding(gl_fns: &Gl, target: Target) -> u32 {
    let mut v = 0;
    // SAFETY: a single-integer query.
    unsafe { (gl_fns.GetIntegerv)(target.binding_pname(), &mut v) };
    v as u32
}
