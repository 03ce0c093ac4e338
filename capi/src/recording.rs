//! A list being recorded on this thread.
//!
//! The pixel-store state and pixel-buffer bindings that size the list's pixel uploads are
//! tracked by the list itself (`glcmd::CommandList::pixel_state`, the runtime's `pixels.rs` says
//! how and why): the generated recording methods that the C entry points call update it, so the
//! C ABI and Rust share one implementation. `pixels.rs` here turns C pointers into slices of the
//! size the list computes.
//!
//! On an immediate thread (`immediate.rs`) the state carries from one implicit list to the next
//! (`CommandList::carry_pixel_state`): a `glPixelStorei` before an implicit submit applies to an
//! upload after it, and a pixel-buffer binding stays one.
//!
//! This module sits below both the thread's current list (`current.rs`, which holds a
//! `Recording`) and the pixel sizing (`pixels.rs`, which reads one), so neither imports the
//! other's floor.

use glcmd::CommandList;

/// A list being recorded on this thread.
pub struct Recording {
    pub list: CommandList,
}

impl Recording {
    pub fn new(mut list: CommandList) -> Recording {
        // A recording site would be glcmd's entry point, not the C caller: reports of C lists
        // name the list label and the command index instead.
        list.track_sites(false);
        Recording { list }
    }
}
