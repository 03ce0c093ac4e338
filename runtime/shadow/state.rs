//! The shadow's state ([`Shadow`]): the context bindings, the vertex arrays, the known names,
//! the storage sizes and the draw cache, with how a shadow starts (`new`) and how it is read
//! back after arbitrary GL code (`refresh`). The rooms above add what changes it (`binds`,
//! `name_checks`) and what reads it (`checks`, `audit`).

use std::collections::HashMap;

use crate::vocab::hash::FastHash;

use crate::generated::{enums as gl, Gl};
use crate::vocab::class::CLASSES;

use super::names::Names;
use super::target::{read_binding, Target, MAX_ATTRIBS};
use super::vao::Vao;

/// The render thread's binding shadow.
pub struct Shadow {
    pub(super) context: [u32; 7],
    pub(super) current_vao: u32,
    pub(super) vaos: HashMap<u32, Vao, FastHash>,
    /// Known names of each class.
    pub(super) objects: [Names; CLASSES],
    pub(super) generation: u32,
    /// `GL_MAX_VERTEX_ATTRIBS` and `GL_MAX_VERTEX_ATTRIB_BINDINGS`, capped at `MAX_ATTRIBS`.
    pub(super) max_attribs: u32,
    pub(super) max_bindings: u32,
    /// `GL_MAX_VERTEX_ATTRIBS` as the GL gives it (not capped): an attribute index the GL
    /// refuses before any check of glcmd's.
    pub(super) gl_max_attribs: u32,
    /// `GL_MAX_VERTEX_STREAMS` (4 when the GL does not say): a stream the GL refuses first.
    pub(super) max_streams: u32,
    /// `GL_MAX_VERTEX_ATTRIB_STRIDE` (2048 when the GL does not say).
    pub(super) max_stride: i32,
    /// A core-profile context: vertex array object 0 cannot be drawn with.
    pub(super) core: bool,
    /// Context targets this context does not have (`GL_PARAMETER_BUFFER` before GL 4.6 without
    /// ARB_indirect_parameters, ...), one bit per `Target::slot`: a bind to one is refused by
    /// the GL, so the shadow never records it.
    pub(super) unsupported: u8,
    /// Whether the context has the query targets of ARB_pipeline_statistics_query and of
    /// ARB_transform_feedback_overflow_query (core in GL 4.6): a deferred query delete asks
    /// which query is active on each target the context has (`delete_effects.rs`), and asking
    /// one it lacks would raise an error.
    pub(crate) statistics_queries: bool,
    pub(crate) overflow_queries: bool,
    /// Storage sizes of buffers, as the GL reported them (`GL_BUFFER_SIZE`). Every call that may
    /// change a buffer's storage clears it, so a size is never older than the storage.
    pub(super) sizes: HashMap<u32, u64, FastHash>,
    /// The current vertex array's draw check, while nothing changed it. Draws take this fast
    /// path.
    pub(super) draw_cache: Option<DrawCache>,
}

/// What a draw needs to know of the current vertex array, computed once per change.
#[derive(Clone, Copy, Debug)]
pub(super) struct DrawCache {
    /// No enabled attribute reads a client array.
    pub(super) arrays_ok: bool,
    /// The element buffer (0: none) and the size of its storage.
    pub(super) element: u32,
    pub(super) element_size: u64,
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
        let gl_max_attribs = get(gl::MAX_VERTEX_ATTRIBS).max(16) as u32;
        let streams = get(gl::MAX_VERTEX_STREAMS);
        let stride = get(gl::MAX_VERTEX_ATTRIB_STRIDE);
        let core = get(gl::CONTEXT_PROFILE_MASK) as u32 & gl::CONTEXT_CORE_PROFILE_BIT != 0;
        let (unsupported, [statistics_queries, overflow_queries]) = unsupported_targets(gl_fns);
        let mut vaos = HashMap::default();
        vaos.insert(0, Vao::new());
        let mut shadow = Shadow {
            context: [0; 7],
            current_vao: 0,
            vaos,
            objects: Default::default(),
            generation: 1,
            max_attribs,
            max_bindings,
            gl_max_attribs,
            max_streams: if streams > 0 { streams as u32 } else { 4 },
            max_stride: if stride > 0 { stride } else { 2048 },
            core,
            unsupported,
            statistics_queries,
            overflow_queries,
            sizes: HashMap::default(),
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
/// by provoking errors, so an adopted context's pending errors stay the application's.) With
/// them, whether it has the pipeline-statistics and the transform-feedback-overflow queries.
fn unsupported_targets(gl_fns: &Gl) -> (u8, [bool; 2]) {
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
    let bits =
        needs.iter().filter(|(_, v, ext)| version < *v && !has(ext)).fold(0, |bits, (t, _, _)| bits | 1 << t.slot());
    let queries = ["GL_ARB_pipeline_statistics_query", "GL_ARB_transform_feedback_overflow_query"];
    (bits, queries.map(|ext| version >= (4, 6) || has(ext)))
}
