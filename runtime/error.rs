//! Runtime errors. Each says what happened and what to do about it.
//!
//! All of glcmd's error types live here, at the ground floor beside the shared vocabulary,
//! because every part returns them: [`Error`], and the two it wraps, [`ContextError`] (making a
//! GL context) and [`CaptureError`] (writing a capture). (`context` and `capture` re-export
//! their own.)

use std::fmt;
use std::path::PathBuf;

use crate::vocab::{Check, Class, EnumName};

/// An error of a `Device` call or submission.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    Context(ContextError),

    Present(ContextError),

    DeviceLost {
        reason: String,
    },

    UnknownPname {
        function: &'static str,
        pname: u32,
    },

    UnsupportedQuery {
        function: &'static str,
        pname: u32,
        reason: &'static str,
    },

    UnknownSync {
        function: &'static str,
        id: u32,
    },

    SlotOutOfRange {
        slot: usize,
        slots: usize,
    },

    TooManySlots {
        slots: usize,
        max: usize,
    },

    SlotTaken {
        slot: usize,
    },

    SlotClaimed {
        slot: usize,
    },

    ClaimMismatch {
        frame: u64,
        claimed: u32,
        target_frame: u64,
        slot: usize,
    },

    FrameEnded {
        frame: u64,
        slot: usize,
    },

    Unavailable {
        function: &'static str,
        reason: String,
    },

    InvalidArgument {
        function: &'static str,
        argument: &'static str,
        value: i64,
    },

    /// A pixel transfer whose format/type pair glcmd cannot size (no pair of the core profile):
    /// the query is not made. `gl_error` is the GL's error for the pair (`GL_INVALID_ENUM`, or
    /// `GL_INVALID_OPERATION` for a format and a type that do not go together).
    PixelFormat {
        function: &'static str,
        format: u32,
        type_: u32,
        gl_error: u32,
    },

    OutOfMemory {
        function: &'static str,
        bytes: u128,
    },

    WouldDeadlock {
        what: String,
        frame: u64,
        slot: u32,
        reason: &'static str,
    },

    Blocked {
        what: String,
        frame: u64,
        slot: u32,
        waited_ms: u128,
    },

    OnRenderThread {
        what: &'static str,
    },

    NoSuchObject {
        function: &'static str,
        class: &'static str,
        name: u32,
    },

    OtherClass {
        function: &'static str,
        class: &'static str,
        name: u32,
    },

    Refused {
        function: &'static str,
        error: u32,
    },

    LinkNotSubmitted {
        program: u32,
    },

    /// An output of a query that the GL takes as an offset into the buffer bound to `target`
    /// when one is bound (`GL_QUERY_BUFFER` for `glGetQueryObject*v`): NULL with none bound
    /// (`offset: None`: the GL would write to address 0), or `len` bytes at `offset` past the end
    /// of the bound buffer's `size` bytes of storage. The query is not made.
    OutputOffset {
        function: &'static str,
        argument: &'static str,
        target: &'static str,
        offset: Option<u64>,
        len: u64,
        size: u64,
    },

    Capture(CaptureError),
}

impl Error {
    /// The GL error the GL raises for the same call, for errors that stand for one (a GL context
    /// would have put it in `glGetError`): the error the specification gives when the error's
    /// function fails the check (`crate::vocab::check`: the function's row of `SPEC_ERRORS` or
    /// the check's usual error: `GL_INVALID_VALUE` for an argument out of its range, a sync
    /// handle that names no sync object and a name that is no program or shader,
    /// `GL_INVALID_OPERATION` for a name of another class that does not exist or a name of the
    /// other of program and shader, `GL_INVALID_ENUM` for a pname glcmd does not know,
    /// `GL_OUT_OF_MEMORY`); for a query the GL itself refused (`Error::Refused`), the GL's error,
    /// which `get_error` also returns, as the GL's flag would. `None` for glcmd's own conditions (frames, slots, waits, a lost
    /// device) that no GL call raises.
    pub fn gl_error(&self) -> Option<u32> {
        if let Error::Refused { error, .. } | Error::PixelFormat { gl_error: error, .. } = *self {
            return Some(error);
        }
        let (function, check) = self.check()?;
        Some(crate::vocab::check::gl_error(function, check))
    }

    /// The function and the kind of check behind an error that stands for a GL error.
    pub fn check(&self) -> Option<(&'static str, Check)> {
        Some(match *self {
            Error::InvalidArgument { function, .. } => (function, Check::InvalidArgument),
            Error::UnknownSync { function, .. } => (function, Check::UnknownSync),
            Error::NoSuchObject { function, class, .. } => (function, Check::NoSuchObject(Class::from_xml(class)?)),
            Error::OtherClass { function, class, .. } => (function, Check::OtherClass(Class::from_xml(class)?)),
            Error::UnknownPname { function, .. } => (function, Check::UnknownPname),
            Error::OutOfMemory { function, .. } => (function, Check::OutOfMemory),
            Error::OutputOffset { function, offset: None, .. } => (function, Check::NullPointer),
            Error::OutputOffset { function, .. } => (function, Check::Overrun),
            _ => return None,
        })
    }
}

/// The error of the platform layer below glcmd (EGL through glutin), as a [`ContextError`]'s
/// source: its text and kind, without making glutin's error type part of glcmd's API (a glutin
/// upgrade is then not a breaking change of glcmd's).
pub struct PlatformError(pub(crate) glutin::error::Error);

impl std::fmt::Debug for PlatformError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.0, f)
    }
}

impl std::fmt::Display for PlatformError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

impl std::error::Error for PlatformError {}

impl From<glutin::error::Error> for PlatformError {
    fn from(e: glutin::error::Error) -> Self {
        PlatformError(e)
    }
}

/// Why a GL context could not be created or used.
#[derive(Debug)]
#[non_exhaustive]
pub enum ContextError {
    /// libEGL is not installed.
    EglNotFound {
        /// The platform's error.
        source: PlatformError,
    },

    /// The EGL implementation cannot list devices or open a display on one.
    NoDeviceSupport {
        /// The platform's error.
        source: PlatformError,
    },

    /// EGL lists no device at all.
    NoDevice,

    /// `GLCMD_EGL_DEVICE` is not an index of a listed device.
    BadDeviceIndex {
        /// The variable's value.
        value: String,
        /// How many devices EGL listed.
        count: usize,
    },

    /// Devices exist, but none gave an OpenGL 4.5 core surfaceless context.
    NoUsableDevice {
        /// Each device tried and why it failed.
        tried: String,
        /// The platform's error for the last device tried.
        source: PlatformError,
    },

    /// The window's context and surface belong to different GL APIs.
    ApiMismatch {
        /// The context's API.
        context: &'static str,
        /// The surface's API.
        surface: &'static str,
    },

    /// Making the context current on the calling thread failed.
    MakeCurrent {
        /// The platform's error.
        source: PlatformError,
    },

    /// A context was asked for on a glcmd render thread.
    OnRenderThread,

    /// `swap_buffers` failed.
    Present {
        /// The platform's error.
        source: PlatformError,
    },
    /// The get-proc-address function given with an adopted context returned NULL for an EGL or
    /// GLX function the render thread needs.
    MissingFunction {
        /// "EGL" or "GLX".
        platform: &'static str,
        /// The function's name.
        name: String,
    },

    /// An EGL or GLX call on an adopted context failed.
    Adopt {
        /// "EGL" or "GLX".
        platform: &'static str,
        /// The call that failed.
        step: &'static str,
        /// The platform's error and what to do.
        detail: String,
    },

    /// A present was asked of a context that has no surface.
    NothingToPresent {
        /// Which kind of context it is.
        what: &'static str,
    },
}

/// Why a capture could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CaptureError {
    Off,
    Busy,
    NoFrames,
    Io { path: PathBuf, message: String },
    Timeout { waited_ms: u128, first: u64, frames: u64 },
    DeviceGone,
}

// The impls below are written by hand rather than derived (Cargo.toml says why: no proc-macro
// chain in dependents' builds); `error_messages.rs` pins every message to the byte.

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Context(e) => write!(f, "could not create the GL context: {e}"),
            Error::Present(e) => write!(f, "present failed: {e}"),
            Error::DeviceLost { reason } => write!(
                f,
                "the render thread is gone ({reason}); everything submitted after that point was not run. Create a \
                 new Device"
            ),
            Error::UnknownPname { function, pname } => write!(
                f,
                "{function}: pname {} is not in glcmd's pname tables, so the size of its result is unknown; use \
                 Device::with_gl for vendor pnames, or add it to codegen/src/pname_tables.rs",
                EnumName(*pname)
            ),
            Error::UnsupportedQuery { function, pname, reason } => {
                write!(f, "{function}: pname {}: {reason}", EnumName(*pname))
            }
            Error::UnknownSync { function, id } => write!(
                f,
                "{function}: sync handle {id} does not name a GL sync object: its fence has not been replayed yet, \
                 or it was deleted"
            ),
            Error::SlotOutOfRange { slot, slots } => {
                write!(f, "slot {slot} is out of range: this frame was begun with {slots} slot(s)")
            }
            Error::TooManySlots { slots, max } => write!(
                f,
                "a frame of {slots} slots was asked for; a frame holds at most {max} lists (split the work over \
                 several frames)"
            ),
            Error::SlotTaken { slot } => {
                write!(f, "slot {slot} of this frame was already submitted; each slot takes one list")
            }
            Error::SlotClaimed { slot } => write!(
                f,
                "slot {slot} of this frame is already claimed by another list (Frame::list); submit that list"
            ),
            Error::ClaimMismatch { frame, claimed, target_frame, slot } => write!(
                f,
                "this list was claimed for slot {claimed} of frame {frame} (Frame::list) and cannot be submitted \
                 to slot {slot} of frame {target_frame}"
            ),
            Error::FrameEnded { frame, slot } => write!(
                f,
                "frame {frame} has already ended (its slots were skipped after it stalled the device longer than \
                 Options::wait_limit); slot {slot} was not replayed"
            ),
            Error::Unavailable { function, reason } => write!(
                f,
                "{function}: the GL context does not provide this function ({reason}); check the GL version or \
                 extension before calling it"
            ),
            Error::InvalidArgument { function, argument, value } => {
                write!(f, "{function}: `{argument}` is {value}, which is not a valid size (it must be 0 or more)")
            }
            Error::PixelFormat { function, format, type_, gl_error } => write!(
                f,
                "{function}: `format` {} with `type` {} is no pixel format/type pair glcmd knows, so it cannot \
                 size the result (the GL raises {})",
                EnumName(*format),
                EnumName(*type_),
                EnumName(*gl_error)
            ),
            Error::OutOfMemory { function, bytes } => write!(
                f,
                "{function}: will not allocate {bytes} bytes for the result (a query allocates at most 1 GiB, and \
                 this one could not have more): ask for less, or read large data through a pixel-pack buffer or \
                 Device::with_gl"
            ),
            Error::WouldDeadlock { what, frame, slot, reason } => write!(
                f,
                "{what} would wait for frame {frame} slot {slot}, which {reason}: it could only arrive after this \
                 call returns, so the call fails instead of waiting for ever"
            ),
            Error::Blocked { what, frame, slot, waited_ms } => write!(
                f,
                "{what} waited {waited_ms} ms for frame {frame} slot {slot}, which has not been submitted \
                 (Options::wait_limit); submit it, or drop the frame to skip it"
            ),
            Error::OnRenderThread { what } => write!(
                f,
                "{what} was called on the render thread (inside with_gl, post or a callback), where waiting would \
                 wait for the render thread itself"
            ),
            Error::NoSuchObject { function, class, name } => {
                write!(f, "{function}: {name} is not the name of an existing {class}; the call was not made")
            }
            Error::OtherClass { function, class, name } => write!(
                f,
                "{function}: {name} is not the name of a {class} but of a {}; the call was not made",
                if *class == "program" { "shader" } else { "program" }
            ),
            Error::Refused { function, error } => {
                write!(f, "{function}: the GL refused the call ({}); its outputs were not written", EnumName(*error))
            }
            Error::OutputOffset { function, argument, target, offset: None, .. } => write!(
                f,
                "{function}: `{argument}` is NULL and no buffer is bound to {target}, so the GL would write to \
                 address 0; the query was not made"
            ),
            Error::OutputOffset { function, argument, target, offset: Some(offset), len, size } => write!(
                f,
                "{function}: `{argument}` is offset {offset} into the buffer bound to {target}, and the {len} bytes \
                 written there would pass the end of its {size} bytes of storage; the query was not made"
            ),
            Error::LinkNotSubmitted { program } => write!(
                f,
                "program {program}: its link is recorded in a list that has not been submitted, so the link has \
                 not run; submit that list first"
            ),
            Error::Capture(e) => write!(f, "capture: {e}"),
        }
    }
}

/// The wrapped error of [`Error::Context`] and [`Error::Capture`] is the source; a failed
/// present's error is part of the message only.
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Context(e) => Some(e),
            Error::Capture(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ContextError> for Error {
    fn from(e: ContextError) -> Self {
        Error::Context(e)
    }
}

impl From<CaptureError> for Error {
    fn from(e: CaptureError) -> Self {
        Error::Capture(e)
    }
}

impl fmt::Display for ContextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContextError::EglNotFound { .. } => f.write_str(
                "libEGL.so.1 could not be loaded: install libegl1 (the glvnd loader) with a vendor library, \
                 libegl-mesa0 + libgl1-mesa-dri (Mesa) or the NVIDIA driver's EGL",
            ),
            ContextError::NoDeviceSupport { .. } => f.write_str(
                "the EGL library cannot enumerate devices (EGL_EXT_device_enumeration / EGL_EXT_platform_device \
                 missing): install libegl-mesa0 (Mesa >= 20.3) or the NVIDIA driver's EGL vendor library",
            ),
            ContextError::NoDevice => f.write_str(
                "no EGL device found: install libegl-mesa0 (Mesa) or the NVIDIA driver's EGL vendor library",
            ),
            ContextError::BadDeviceIndex { value, count } => write!(
                f,
                "GLCMD_EGL_DEVICE={value:?} is not the index of an EGL device (there are {count}, 0..{count}): \
                 unset it or pick an index from the log"
            ),
            ContextError::NoUsableDevice { tried, .. } => write!(
                f,
                "no EGL device gave an OpenGL 4.5 core surfaceless context (tried {tried}): needs Mesa >= 20.3 \
                 with libgl1-mesa-dri (llvmpipe) or the NVIDIA driver; run with EGL_LOG_LEVEL=debug for EGL's \
                 reasons"
            ),
            ContextError::ApiMismatch { context, surface } => write!(
                f,
                "the window's context is {context} but its surface is {surface}: create both from the same glutin \
                 Display"
            ),
            ContextError::MakeCurrent { .. } => f.write_str(
                "could not make the GL context current on the render thread: it must not be current on any other \
                 thread (hand over a NotCurrentContext) and its surface must still exist",
            ),
            ContextError::OnRenderThread => f.write_str(
                "a GL context cannot be created on a glcmd render thread (inside with_gl, post or a callback): it \
                 would replace the render thread's own context; create it on a thread of your own",
            ),
            ContextError::Present { .. } => f.write_str(
                "presenting the frame (swap_buffers) failed: the window may have been closed or the display \
                 connection lost",
            ),
            ContextError::MissingFunction { platform, name } => write!(
                f,
                "the get-proc-address function given with the adopted {platform} context returned NULL for {name}, \
                 which the render thread needs: pass the platform's own lookup (eglGetProcAddress / \
                 glXGetProcAddressARB of libglvnd or the driver), which returns {platform} functions too"
            ),
            ContextError::Adopt { platform, step, detail } => {
                write!(f, "adopted {platform} context: {step} failed: {detail}")
            }
            ContextError::NothingToPresent { what } => write!(
                f,
                "there is nothing to present on {what}: it has no default framebuffer; render into framebuffer \
                 objects and read them back, or create the device on a window (Device::with_window) or adopt a \
                 context with a draw surface (Device::adopt_egl / adopt_glx)"
            ),
        }
    }
}

/// The platform's error, where there is one, is the source.
impl std::error::Error for ContextError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ContextError::EglNotFound { source }
            | ContextError::NoDeviceSupport { source }
            | ContextError::NoUsableDevice { source, .. }
            | ContextError::MakeCurrent { source }
            | ContextError::Present { source } => Some(source),
            _ => None,
        }
    }
}

impl fmt::Display for CaptureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaptureError::Off => f.write_str("capture is off: create the device with Options::capture set"),
            CaptureError::Busy => f.write_str("a capture is already being written; wait for it first"),
            CaptureError::NoFrames => f.write_str("a capture of 0 frames was asked for"),
            CaptureError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            CaptureError::Timeout { waited_ms, first, frames } => write!(
                f,
                "waited {waited_ms} ms for frames {first}..{} to end; the capture is still being written",
                first + frames
            ),
            CaptureError::DeviceGone => f.write_str("the device is gone and its capture thread with it"),
        }
    }
}

impl std::error::Error for CaptureError {}
