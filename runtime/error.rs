//! Runtime errors. Each says what happened and what to do about it.

/// An error of a `Device` call or submission.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("could not create the GL context: {0}")]
    Context(#[from] crate::context::ContextError),

    #[error(
        "the render thread is gone ({reason}); everything submitted after that point was not run. Create a new Device"
    )]
    DeviceLost { reason: String },

    #[error("{function}: pname 0x{pname:04X} is not in glcmd's pname tables, so the size of its result is unknown; use Device::with_gl for vendor pnames, or add it to codegen/src/pname_tables.rs")]
    UnknownPname { function: &'static str, pname: u32 },

    #[error("{function}: pname 0x{pname:04X}: {reason}")]
    UnsupportedQuery { function: &'static str, pname: u32, reason: &'static str },

    #[error("{function}: sync handle {id} does not name a GL sync object: its fence has not been replayed yet, or it was deleted")]
    UnknownSync { function: &'static str, id: u32 },

    #[error("slot {slot} is out of range: this frame was begun with {slots} slot(s)")]
    SlotOutOfRange { slot: usize, slots: usize },

    #[error("slot {slot} of this frame was already submitted; each slot takes one list")]
    SlotTaken { slot: usize },
}
