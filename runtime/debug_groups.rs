//! Each list's label as a KHR_debug group: replay pushes `glPushDebugGroup(label)` before a
//! labelled list and pops it after, so RenderDoc, apitrace and the driver's own messages show
//! which list a command came from.

use crate::generated::{enums as gl, types::*, Gl};
use crate::list::CommandList;
use crate::loader::ContextInfo;

/// Before a list replays: `glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, label)`, with the
/// label cut (at a character boundary) to fit `GL_MAX_LABEL_LENGTH`: a longer one would make the
/// push fail while the pop still ran, popping a group of the application's. Returns whether a
/// group was pushed.
pub(crate) fn begin_list(gl_fns: &Gl, info: &ContextInfo, list: &CommandList) -> bool {
    if list.label.is_empty() {
        return false;
    }
    let max = (info.max_label_length as usize).saturating_sub(1).max(1);
    let mut end = list.label.len().min(max);
    while !list.label.is_char_boundary(end) {
        end -= 1;
    }
    // `end` is at most GL_MAX_LABEL_LENGTH - 1, which is a GLsizei.
    let length = end as GLsizei;
    // SAFETY: the pointer and length describe `length` bytes of the list's label.
    unsafe { (gl_fns.PushDebugGroup)(gl::DEBUG_SOURCE_APPLICATION, 0, length, list.label.as_ptr().cast()) };
    true
}

/// After a list replays: the matching `glPopDebugGroup`, if `begin_list` pushed one.
pub(crate) fn end_list(gl_fns: &Gl, pushed: bool) {
    if pushed {
        // SAFETY: pops the group pushed by `begin_list`.
        unsafe { (gl_fns.PopDebugGroup)() };
    }
}
