//! The render thread's polls for the known answers (`known_answers.rs`): after each list it
//! replays, the fences it created that were not signalled yet, and the queries whose end it
//! replayed whose results were not available yet, are asked once more, without waiting.
//!
//! A poll leaves nothing behind: the program's pending GL errors are kept for it first (in
//! glcmd's flags, returned first by `glGetError`), a buffer bound to `GL_QUERY_BUFFER` is
//! unbound around the query reads (their pointers stay pointers) and bound again, and an error a
//! poll itself raises (a query a `with_gl` closure left active or deleted) is dropped with the
//! query, which is not asked again. At most [`POLL_LIMIT`] fences and queries are asked per list,
//! so a program that never waits on its fences cannot make every list slower.

use crate::generated::{enums as gl, types::*, Gl};
use crate::known_answers::QueryPoll;
use crate::replay::ReplayState;
use crate::shadow::Target;

/// The most fences, and the most queries, one poll asks.
const POLL_LIMIT: usize = 16;

/// Polls what the device's known answers wait for, if anything.
pub(super) fn poll(raw: &Gl, state: &mut ReplayState) {
    let Some(known) = state.known.as_ref().map(|k| k.answers.clone()) else { return };
    if !known.wants_poll() {
        return;
    }
    state.keep_pending_errors(raw);
    let state = &*state;
    let fence = |id: u32| {
        let Some(&sync) = state.syncs.get(&id) else { return false };
        let mut status = 0;
        // SAFETY: `sync` is a sync object the GL made and has not deleted (a replayed delete
        // takes it out of `syncs`); one integer is written.
        unsafe { (raw.GetSynciv)(sync, gl::SYNC_STATUS, 1, std::ptr::null_mut(), &mut status) };
        status as GLenum == gl::SIGNALED
    };
    let query = |id: u32| crate::replay::without_buffer(raw, &state.shadow, Target::Query, || query_result(raw, id));
    known.poll(POLL_LIMIT, fence, query);
}

/// A query's result if it is available; `Refused` (its errors dropped) if the GL refuses it.
fn query_result(raw: &Gl, id: GLuint) -> QueryPoll {
    let mut available = 0;
    let mut result = 0;
    // SAFETY: one value written each; no buffer is bound to GL_QUERY_BUFFER (`without_buffer`).
    unsafe { (raw.GetQueryObjectiv)(id, gl::QUERY_RESULT_AVAILABLE, &mut available) };
    if drop_errors(raw) {
        return QueryPoll::Refused;
    }
    if available == 0 {
        return QueryPoll::NotYet;
    }
    // SAFETY: as above.
    unsafe { (raw.GetQueryObjectui64v)(id, gl::QUERY_RESULT, &mut result) };
    if drop_errors(raw) {
        return QueryPoll::Refused;
    }
    QueryPoll::Result(result)
}

/// Drops the errors glcmd's own call raised; whether there were any.
fn drop_errors(raw: &Gl) -> bool {
    let mut any = false;
    for _ in 0..8 {
        // SAFETY: no arguments.
        if unsafe { (raw.GetError)() } == gl::NO_ERROR {
            break;
        }
        any = true;
    }
    any
}
