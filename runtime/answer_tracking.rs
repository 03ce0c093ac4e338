//! What a list tells its device's known answers (`known_answers.rs`) as it records: touches of
//! query objects and deletes of syncs, each before the GL sees it, so that nothing answers from
//! a result or fence state a recorded call has made stale. (Binds to `GL_QUERY_BUFFER` are told
//! by the bind tracking of `pixel_args.rs`, which sees every `glBindBuffer`.)

use crate::list::CommandList;

impl CommandList {
    /// Tracks recorded touches of queries (`glBeginQuery*`, `glQueryCounter`, `glDeleteQueries`):
    /// their kept results answer nothing until these replay (`known_answers.rs`).
    #[inline]
    pub(crate) fn track_query_touches(&mut self, ids: &[u32]) {
        if let Some(k) = &self.known {
            k.queries_touched(ids);
        }
    }

    /// Tracks a recorded `glDeleteSync`: the sync answers nothing from here on.
    #[inline]
    pub(crate) fn track_delete_sync(&mut self, sync: crate::SyncHandle) {
        if let Some(k) = &self.known {
            k.fence_deleted(sync.id());
        }
    }
}
