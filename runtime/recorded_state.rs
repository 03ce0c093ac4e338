//! The state an immediate thread set, known when it records: `glGetIntegerv` and `glIsEnabled`
//! of that state without a round trip (issue 31's state shadow, first part).
//!
//! A program that saves and restores state around its UI pass (Dear ImGui's OpenGL 3 backend asks
//! for about 25 values a frame) or asks for the viewport after every draw asks about values only
//! its own calls set. A C immediate thread (every thread of a program under glcmd-run) records
//! those calls itself, in the order the GL will see them, so it can know the answers when it
//! records them, where the GL's acceptance is certain:
//!
//! * **Setters that glcmd models exactly** make a value known: `glViewport` (the GL clamps the
//!   size to `GL_MAX_VIEWPORT_DIMS` and the corner to `GL_VIEWPORT_BOUNDS_RANGE`; a negative size is
//!   refused and changes nothing), `glScissor`, `glEnable`/`glDisable` of the shadowed caps (and
//!   `glEnablei`/`glDisablei` of index 0 of the indexed ones), `glBlendFunc*`, `glBlendEquation*`
//!   of the factors and modes the GL accepts, `glActiveTexture` of a unit that exists,
//!   `glBindBuffer(GL_ARRAY_BUFFER, b)` of a buffer that exists (`buffer_names.rs`) and the delete
//!   that unbinds it, and binds of 0 (a vertex array, a 2D texture or sampler on the active unit).
//!   Anything else such a setter might do (an argument glcmd is not sure the GL accepts) makes the
//!   value unknown.
//! * **Answers the GL gave** are kept: a `glGetIntegerv` of a shadowed pname that went to the GL
//!   is the value until a recorded call changes it (the current program and vertex array, a
//!   texture binding, the polygon mode: values whose setters glcmd cannot check at record time).
//! * **Every other recorded call forgets everything**, unless the generator's table
//!   (`glcmd-codegen`'s `state_calls.rs`) lists it as changing none of the shadowed values (draws,
//!   uploads, uniforms, ...): a call nobody thought of cannot leave a stale answer. So does a
//!   closure run on the render thread (`with_gl`, `post`).
//!
//! Record order is the GL's order only for one thread's implicit lists. So the shadow belongs to
//! the first thread that records a shadowed call on the device; a second thread doing so, a
//! shadowed call in a list that is not an immediate thread's, or a list the device did not hand
//! out turns it off for good. Only that thread's immediate queries (a C immediate thread's, a
//! Rust `Immediate`'s `get_integerv` and `is_enabled`) are answered from it ([`answering`]);
//! every other query goes to the GL as before. The audit
//! (`tests/recorded_state.rs`) compares every answer with the GL's over adversarial calls.

use std::collections::{HashMap, HashSet};

use crate::vocab::hash::FastHash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread::ThreadId;

use crate::generated::{enums as gl, types::*};

/// The `glGetIntegerv` pnames the shadow answers.
pub const SHADOWED: [GLenum; 25] = [
    gl::VIEWPORT,
    gl::SCISSOR_BOX,
    gl::BLEND,
    gl::CULL_FACE,
    gl::DEPTH_TEST,
    gl::STENCIL_TEST,
    gl::SCISSOR_TEST,
    gl::PRIMITIVE_RESTART,
    gl::BLEND_SRC_RGB,
    gl::BLEND_DST_RGB,
    gl::BLEND_SRC_ALPHA,
    gl::BLEND_DST_ALPHA,
    gl::BLEND_EQUATION_RGB,
    gl::BLEND_EQUATION_ALPHA,
    gl::ACTIVE_TEXTURE,
    gl::ARRAY_BUFFER_BINDING,
    gl::CURRENT_PROGRAM,
    gl::VERTEX_ARRAY_BINDING,
    gl::TEXTURE_BINDING_2D,
    gl::SAMPLER_BINDING,
    gl::POLYGON_MODE,
    gl::CLIP_ORIGIN,
    gl::ELEMENT_ARRAY_BUFFER_BINDING,
    gl::UNPACK_ALIGNMENT,
    gl::PACK_ALIGNMENT,
];

/// The bindings whose names the GL once reported bound: a bind of such a name again is sure to
/// be accepted (the object exists and has the target), until a call that could delete it, relink
/// it or start transform feedback (which refuses `glUseProgram`) makes the list forgotten.
pub(crate) const REBINDABLE: [GLenum; 4] =
    [gl::CURRENT_PROGRAM, gl::VERTEX_ARRAY_BINDING, gl::TEXTURE_BINDING_2D, gl::SAMPLER_BINDING];

/// The caps whose `glEnable`/`glDisable` the shadow follows (a subset of [`SHADOWED`]).
pub const CAPS: [GLenum; 6] =
    [gl::BLEND, gl::CULL_FACE, gl::DEPTH_TEST, gl::STENCIL_TEST, gl::SCISSOR_TEST, gl::PRIMITIVE_RESTART];

/// The context's limits the setters clamp to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds {
    pub(crate) max_viewport: [i32; 2],
    /// `GL_VIEWPORT_BOUNDS_RANGE`, as the GL's integer clamp sees it.
    pub(crate) viewport_range: [f32; 2],
    pub(crate) texture_units: u32,
}

impl Bounds {
    /// The bounds from the context's limits, if it has them all.
    pub(crate) fn of(limits: &crate::limits::Limits) -> Option<Bounds> {
        let dims = limits.integerv(gl::MAX_VIEWPORT_DIMS)?;
        let range = limits.floatv(gl::VIEWPORT_BOUNDS_RANGE)?;
        let units = limits.integerv(gl::MAX_COMBINED_TEXTURE_IMAGE_UNITS)?;
        Some(Bounds {
            max_viewport: [*dims.first()?, *dims.get(1)?],
            viewport_range: [*range.first()?, *range.get(1)?],
            texture_units: (*units.first()?).max(0) as u32,
        })
    }
}

/// What a device's owning immediate thread set (see the module doc).
#[derive(Debug, Default)]
pub struct RecordedState {
    inner: Mutex<Inner>,
    off: AtomicBool,
}

#[derive(Debug, Default)]
struct Inner {
    owner: Option<ThreadId>,
    /// Counts every change, so that an answer the GL gave is kept only if nothing was recorded
    /// while it was asked.
    version: u64,
    /// (A fast hash: every recorded binding call probes these maps, under SipHash the larger
    /// part of recording one.)
    values: HashMap<GLenum, Vec<GLint>, FastHash>,
    /// Per [`REBINDABLE`] pname, the names known to bind without an error.
    rebindable: HashMap<GLenum, HashSet<GLint, FastHash>, FastHash>,
    /// Per vertex array (not 0), its element buffer binding, where known.
    elements: HashMap<GLint, GLint, FastHash>,
    /// A transform feedback was begun or resumed (from then on `glUseProgram` is never sure).
    feedback_begun: bool,
    /// Programs whose delete was recorded: a name the delete has not freed yet still links as
    /// before in the interface cache, but `glUseProgram` of it is refused from there on.
    deleted_programs: HashSet<GLuint, FastHash>,
    bounds: Option<Bounds>,
}

impl Inner {
    /// Whether binding `name` for `pname` (one of [`REBINDABLE`]) is sure to be accepted. A
    /// program is asked of the interface cache (`linked_now`: its latest link succeeded), not of
    /// what was current: a program whose relink failed stays current but cannot be bound again.
    fn bindable(&self, pname: GLenum, name: GLuint, programs: Option<&crate::programs::Programs>) -> bool {
        if pname == gl::CURRENT_PROGRAM {
            let usable = name == 0 || programs.is_some_and(|p| p.linked_now(name));
            return !self.feedback_begun && !self.deleted_programs.contains(&name) && usable;
        }
        name == 0 || self.rebindable.get(&pname).is_some_and(|s| s.contains(&(name as GLint)))
    }

    fn forget(&mut self) {
        self.version += 1;
        self.values.clear();
        self.rebindable.clear();
        self.elements.clear();
    }

    fn keep(&mut self, pname: GLenum, value: &[GLint]) {
        if REBINDABLE.contains(&pname) {
            self.rebindable.entry(pname).or_default().insert(value[0]);
        }
        // The element buffer binding is the bound vertex array's: remembered per array.
        let array = self.values.get(&gl::VERTEX_ARRAY_BINDING).map(|v| v[0]).filter(|&a| a != 0);
        match (pname, array) {
            (gl::ELEMENT_ARRAY_BUFFER_BINDING, Some(a)) => {
                self.elements.insert(a, value[0]);
            }
            (gl::VERTEX_ARRAY_BINDING, _) => {
                match self.elements.get(&value[0]) {
                    Some(&e) if value[0] != 0 => self.values.insert(gl::ELEMENT_ARRAY_BUFFER_BINDING, vec![e]),
                    _ => self.values.remove(&gl::ELEMENT_ARRAY_BUFFER_BINDING),
                };
            }
            _ => {}
        }
        // The value's own allocation is reused: a frame sets the same few values again and again.
        match self.values.get_mut(&pname) {
            Some(kept) => {
                kept.clear();
                kept.extend_from_slice(value);
            }
            None => {
                self.values.insert(pname, value.to_vec());
            }
        }
    }
}

thread_local! {
    /// Set while a C immediate thread asks ([`answering`]).
    static ANSWERING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` (a query of an immediate thread, whose answer must see every call it recorded,
/// submitted or not) with the shadow allowed to answer.
pub fn answering<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            let _ = ANSWERING.try_with(|a| a.set(self.0));
        }
    }
    let _reset = Reset(ANSWERING.try_with(|a| a.replace(true)).unwrap_or(false));
    f()
}

/// The calling thread's id, without `thread::current`'s reference count.
fn me() -> ThreadId {
    thread_local! {
        static ME: ThreadId = std::thread::current().id();
    }
    ME.with(|id| *id)
}

fn asking_immediately() -> bool {
    ANSWERING.try_with(|a| a.get()).unwrap_or(false)
}

/// A value a recorded setter leaves.
pub(crate) enum Set {
    /// Exactly this.
    To(Vec<GLint>),
    /// Something glcmd cannot be sure of.
    Unknown,
}

impl RecordedState {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The limits the setters clamp to (read by the render thread at start-up).
    pub(crate) fn set_bounds(&self, bounds: Option<Bounds>) {
        self.lock().bounds = bounds;
    }

    pub(crate) fn bounds(&self) -> Option<Bounds> {
        self.lock().bounds
    }

    /// Turns the shadow off for good.
    pub(crate) fn off(&self) {
        self.off.store(true, Ordering::Relaxed);
    }

    #[inline]
    pub(crate) fn is_off(&self) -> bool {
        self.off.load(Ordering::Relaxed)
    }

    /// Whether `pname` is known to be `value` already on the owner's side: a setter of that value
    /// changes nothing (the fast path of the recording side: one lock, no allocation).
    pub(crate) fn already(&self, immediate: bool, pname: GLenum, value: &[GLint]) -> bool {
        if !immediate {
            return false;
        }
        let inner = self.lock();
        inner.owner == Some(me()) && inner.values.get(&pname).is_some_and(|v| v.as_slice() == value)
    }

    /// The shadow, locked for a change recorded by the calling thread (`immediate`: in an
    /// immediate thread's list): the first thread to record one owns the shadow; a change from
    /// another thread, or from a list that is not an immediate thread's, turns it off (`None`).
    fn owned(&self, immediate: bool) -> Option<std::sync::MutexGuard<'_, Inner>> {
        if self.is_off() {
            return None;
        }
        if !immediate {
            self.off();
            return None;
        }
        let me = me();
        let mut inner = self.lock();
        match inner.owner {
            Some(owner) if owner != me => {
                drop(inner);
                self.off();
                None
            }
            _ => {
                inner.owner = Some(me);
                Some(inner)
            }
        }
    }

    /// A recorded call changed `changes` (`immediate`: in an immediate thread's list). The
    /// first thread to record one owns the shadow; another thread turns it off.
    pub(crate) fn record(&self, immediate: bool, changes: &[(GLenum, Set)]) {
        let Some(mut inner) = self.owned(immediate) else { return };
        inner.version += 1;
        for (pname, set) in changes {
            match set {
                Set::To(v) => inner.keep(*pname, v),
                Set::Unknown => {
                    inner.values.remove(pname);
                    if *pname == gl::ELEMENT_ARRAY_BUFFER_BINDING {
                        // The bound array's element binding changed in a way not known.
                        if let Some(a) = inner.values.get(&gl::VERTEX_ARRAY_BINDING).map(|v| v[0]) {
                            inner.elements.remove(&a);
                        }
                    }
                }
            };
        }
    }

    /// A recorded bind of `name` for `pname` (one of [`REBINDABLE`]), under one lock: known where
    /// the GL is sure to accept it ([`Inner::bindable`]), unknown otherwise. `unknown_too` are the
    /// values such a bind makes unknown with it (the element buffer binding, for a vertex array).
    ///
    /// Two binds change nothing and cost one lock and no write: a name already known bound there,
    /// and a bind glcmd cannot be sure of while the value is unknown already (a program that binds
    /// its one texture or vertex array per object, never asking: every bind after the first). Exact
    /// because such a record would leave every value, and the ownership, as they are; `version`
    /// guards answers against changes, and there is none.
    pub(crate) fn bind(
        &self,
        immediate: bool,
        pname: GLenum,
        name: GLuint,
        unknown_too: &[GLenum],
        programs: Option<&crate::programs::Programs>,
    ) {
        let Some(mut inner) = self.owned(immediate) else { return };
        let known = inner.values.get(&pname);
        if known.is_some_and(|v| v.as_slice() == [name as GLint]) {
            return;
        }
        let sure = inner.bindable(pname, name, programs);
        if !sure && known.is_none() && unknown_too.iter().all(|p| !inner.values.contains_key(p)) {
            return;
        }
        inner.version += 1;
        if sure {
            inner.keep(pname, &[name as GLint]);
        } else {
            inner.values.remove(&pname);
            for p in unknown_too {
                inner.values.remove(p);
            }
        }
    }

    /// A recorded `glDeleteBuffers` or `glVertexArrayElementBuffer`: remembered element bindings
    /// of other vertex arrays that name `buffers` (or of `array`) are forgotten.
    pub(crate) fn elements_changed(&self, buffers: &[GLuint], array: Option<GLuint>) {
        let mut inner = self.lock();
        inner.elements.retain(|&a, &mut e| !buffers.contains(&(e as GLuint)) && Some(a as GLuint) != array);
    }

    /// A recorded `glDeleteProgram`: every value is forgotten (the program may be current, and
    /// is freed when it is no longer), and the name is never taken as bindable again.
    pub(crate) fn program_deleted(&self, immediate: bool, program: GLuint) {
        self.forget_all(immediate);
        self.lock().deleted_programs.insert(program);
    }

    /// A recorded `glBeginTransformFeedback` or `glResumeTransformFeedback`.
    pub(crate) fn feedback_begun(&self, immediate: bool) {
        self.record(immediate, &[]);
        self.lock().feedback_begun = true;
    }

    /// A recorded call that may change any of the shadowed values.
    pub(crate) fn forget_all(&self, immediate: bool) {
        if self.is_off() {
            return;
        }
        self.record(immediate, &[]);
        self.lock().forget();
    }

    /// A closure ran on the render thread: nothing is known.
    pub(crate) fn forget_behind(&self) {
        self.lock().forget();
    }

    /// The value one of the shadowed values has now, if it is known.
    pub(crate) fn value(&self, pname: GLenum) -> Option<Vec<GLint>> {
        self.lock().values.get(&pname).cloned()
    }

    /// `glGetIntegerv(pname)` from the shadow, for the owning thread's immediate queries.
    pub fn integerv(&self, pname: GLenum) -> Option<Vec<GLint>> {
        self.integerv_with(pname, <[GLint]>::to_vec)
    }

    /// [`RecordedState::integerv`], handing the values to `f` under the lock instead of copying
    /// them out (the C ABI's `glGetIntegerv` writes them straight into the caller's array).
    pub fn integerv_with<R>(&self, pname: GLenum, f: impl FnOnce(&[GLint]) -> R) -> Option<R> {
        if self.is_off() || !asking_immediately() {
            return None;
        }
        let inner = self.lock();
        if inner.owner != Some(me()) {
            return None;
        }
        inner.values.get(&pname).map(|v| f(v))
    }

    /// `glIsEnabled(cap)` from the shadow.
    pub fn is_enabled(&self, cap: GLenum) -> Option<bool> {
        if !CAPS.contains(&cap) {
            return None;
        }
        self.integerv_with(cap, |v| v.first().is_some_and(|&on| on != 0))
    }

    /// Before asking the GL: the version its answer may be kept under ([`RecordedState::learn`]).
    pub fn version(&self) -> u64 {
        self.lock().version
    }

    /// The GL answered `glGetIntegerv(pname)` with `value` after everything this thread
    /// recorded: kept if nothing was recorded since `version` and this thread may own the shadow.
    pub fn learn(&self, pname: GLenum, value: &[GLint], version: u64) {
        if self.is_off() || !asking_immediately() || !SHADOWED.contains(&pname) || value.is_empty() {
            return;
        }
        let me = me();
        let mut inner = self.lock();
        if inner.version != version || inner.owner.is_some_and(|o| o != me) {
            return;
        }
        inner.owner = Some(me);
        inner.keep(pname, value);
    }
}
