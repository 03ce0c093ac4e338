//! Runtime errors. Each says what happened and what to do about it.

use crate::dump::EnumName;

/// An error of a `Device` call or submission.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("could not create the GL context: {0}")]
    Context(#[from] crate::context::ContextError),

    #[error(
        "the render thread is gone ({reason}); everything submitted after that point was not run. Create a new Device"
    )]
    DeviceLost { reason: String },

    #[error("{function}: pname {} is not in glcmd's pname tables, so the size of its result is unknown; use Device::with_gl for vendor pnames, or add it to codegen/src/pname_tables.rs", EnumName(*pname))]
    UnknownPname { function: &'static str, pname: u32 },

    #[error("{function}: pname {}: {reason}", EnumName(*pname))]
    UnsupportedQuery { function: &'static str, pname: u32, reason: &'static str },

    #[error("{function}: sync handle {id} does not name a GL sync object: its fence has not been replayed yet, or it was deleted")]
    UnknownSync { function: &'static str, id: u32 },

    #[error("slot {slot} is out of range: this frame was begun with {slots} slot(s)")]
    SlotOutOfRange { slot: usize, slots: usize },

    #[error("a frame of {slots} slots was asked for; a frame holds at most {max} lists (split the work over several frames)")]
    TooManySlots { slots: usize, max: usize },

    #[error("slot {slot} of this frame was already submitted; each slot takes one list")]
    SlotTaken { slot: usize },

    #[error("slot {slot} of this frame is already claimed by another list (Frame::list); submit that list")]
    SlotClaimed { slot: usize },

    #[error("this list was claimed for slot {claimed} of frame {frame} (Frame::list) and cannot be submitted to slot {slot} of frame {target_frame}")]
    ClaimMismatch { frame: u64, claimed: u32, target_frame: u64, slot: usize },

    #[error("frame {frame} has already ended (its slots were skipped after it stalled the device longer than Options::wait_limit); slot {slot} was not replayed")]
    FrameEnded { frame: u64, slot: usize },

    #[error("{function}: the GL context does not provide this function ({reason}); check the GL version or extension before calling it")]
    Unavailable { function: &'static str, reason: String },

    #[error("{function}: `{argument}` is {value}, which is not a valid size (it must be 0 or more)")]
    InvalidArgument { function: &'static str, argument: &'static str, value: i64 },

    #[error("{function}: will not allocate {bytes} bytes for the result (a query allocates at most 1 GiB, and this one could not have more): ask for less, or read large data through a pixel-pack buffer or Device::with_gl")]
    OutOfMemory { function: &'static str, bytes: u128 },

    #[error("{what} would wait for frame {frame} slot {slot}, which {reason}: it could only arrive after this call returns, so the call fails instead of waiting for ever")]
    WouldDeadlock { what: String, frame: u64, slot: u32, reason: &'static str },

    #[error("{what} waited {waited_ms} ms for frame {frame} slot {slot}, which has not been submitted (Options::wait_limit); submit it, or drop the frame to skip it")]
    Blocked { what: String, frame: u64, slot: u32, waited_ms: u128 },

    #[error("{what} was called on the render thread (inside with_gl, post or a callback), where waiting would wait for the render thread itself")]
    OnRenderThread { what: &'static str },

    #[error("{function}: {name} is not the name of an existing {class}; the call was not made")]
    NoSuchObject { function: &'static str, class: &'static str, name: u32 },

    #[error("program {program}: its link is recorded in a list that has not been submitted, so the link has not run; submit that list first")]
    LinkNotSubmitted { program: u32 },

    #[error("capture: {0}")]
    Capture(#[from] crate::capture::CaptureError),
}
