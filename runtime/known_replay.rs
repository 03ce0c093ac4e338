//! The render thread's side of the known answers (`known_answers.rs`): what replay tells them.
//!
//! The generated execute functions of the calls that end, count or touch a query, and of fences
//! and their deletes, call the hooks here. Each asks the GL only what the GL answers without an
//! error on this context (a query target's `GL_CURRENT_QUERY` for the targets its version has),
//! and the one check that needs the error flag (whether the GL accepted a `glQueryCounter`) first
//! keeps the program's pending errors for it, in their order, so that nothing the program would
//! see changes.

use std::sync::Arc;

use crate::generated::{enums as gl, types::*, Gl};
use crate::replay::Replayer;

impl Replayer<'_> {
    /// A touch of queries replayed (`glBeginQuery*`, `glDeleteQueries`; `glQueryCounter` through
    /// [`Replayer::query_counter`]). Counted when the list was recorded through this device.
    pub fn queries_touched(&mut self, ids: &[GLuint]) {
        let (state, list) = self.state_and_list();
        if let Some(k) = &state.known {
            let counted = list.known.as_ref().is_some_and(|l| Arc::ptr_eq(l, &k.answers));
            k.answers.queries_touch_replayed(ids, counted);
        }
    }

    /// Before a `glEndQuery(target)` (`index` 0) or `glEndQueryIndexed`: the query it will end,
    /// if glcmd notes this target (stream 0 only).
    pub fn query_ending(&mut self, target: GLenum, index: GLuint) -> Option<GLuint> {
        let raw = self.raw;
        let (state, _) = self.state_and_list();
        let k = state.known.as_ref()?;
        if index != 0 || !k.targets.contains(&target) {
            return None;
        }
        let mut id = 0;
        // SAFETY: one integer written; the target is one this context's version has, so the GL
        // raises no error.
        unsafe { (raw.GetQueryiv)(target, gl::CURRENT_QUERY, &mut id) };
        (id > 0).then_some(id as GLuint)
    }

    /// After the end [`Replayer::query_ending`] looked at: the query's result is polled.
    pub fn query_ended(&mut self, id: Option<GLuint>) {
        let (state, _) = self.state_and_list();
        if let (Some(id), Some(k)) = (id, &state.known) {
            k.answers.query_ended(id);
        }
    }

    /// `glQueryCounter(id, ...)`, made by `call`: a touch of `id`, and where the GL accepts it, a
    /// result to poll. The program's pending errors are kept for it first (in glcmd's flags,
    /// which `glGetError` returns first), so the error read after the call is this call's; it is
    /// kept for the program too.
    pub fn query_counter(&mut self, id: GLuint, call: impl FnOnce(&Gl)) {
        self.queries_touched(&[id]);
        let (gl, raw) = (self.gl, self.raw);
        let (state, _) = self.state_and_list();
        if !state.known.as_ref().is_some_and(|k| k.keeps_results()) {
            call(gl);
            return;
        }
        state.keep_pending_errors(raw);
        call(gl);
        // SAFETY: no arguments.
        let error = unsafe { (raw.GetError)() };
        if error != gl::NO_ERROR {
            state.raise(error);
        } else if let Some(k) = &state.known {
            k.answers.query_ended(id);
        }
    }
}
