//! The exact text of every error glcmd returns, pinned.
//!
//! glcmd writes its `Display` and `std::error::Error` impls by hand (no derive macro: a derive
//! would put a proc-macro chain on the critical path of every dependent's build). Messages are
//! part of what users see, grep for and match on in logs, and the C ABI passes them on, so a
//! hand-written impl must not change a byte of them. This module builds a representative value
//! of every variant of every error type and compares its `to_string()` with the full expected
//! text, and checks that `source()` is there exactly where a cause is wrapped (the platform's
//! error under a `ContextError`, the wrapped error of `Error::Context`, `Error::Capture` and
//! `ReplayError::Device`) and absent elsewhere.
//!
//! The expected strings were taken from the messages as they stood when the impls were derived,
//! and the test passed against those before the impls were hand-written.

use std::error::Error as StdError;
use std::path::PathBuf;

use crate::{gl, CaptureError, CommandList, ContextError, Error, PlatformError, SubmitError};

/// Asserts the error's text and whether it has a source.
#[track_caller]
fn check(error: &dyn StdError, expected: &str, has_source: bool) {
    assert_eq!(error.to_string(), expected);
    assert_eq!(error.source().is_some(), has_source, "source() of {expected:?}");
}

fn platform() -> PlatformError {
    PlatformError(glutin::error::ErrorKind::NotFound.into())
}

#[test]
fn context_error_messages() {
    let platform_text = platform().to_string();
    check(
        &ContextError::EglNotFound { source: platform() },
        "libEGL.so.1 could not be loaded: install libegl1 (the glvnd loader) with a vendor library, libegl-mesa0 + \
         libgl1-mesa-dri (Mesa) or the NVIDIA driver's EGL",
        true,
    );
    let with_source = ContextError::EglNotFound { source: platform() };
    assert_eq!(with_source.source().map(|s| s.to_string()), Some(platform_text));
    check(
        &ContextError::NoDeviceSupport { source: platform() },
        "the EGL library cannot enumerate devices (EGL_EXT_device_enumeration / EGL_EXT_platform_device missing): \
         install libegl-mesa0 (Mesa >= 20.3) or the NVIDIA driver's EGL vendor library",
        true,
    );
    check(
        &ContextError::NoDevice,
        "no EGL device found: install libegl-mesa0 (Mesa) or the NVIDIA driver's EGL vendor library",
        false,
    );
    check(
        &ContextError::BadDeviceIndex { value: "7\"x".to_string(), count: 2 },
        "GLCMD_EGL_DEVICE=\"7\\\"x\" is not the index of an EGL device (there are 2, 0..2): unset it or pick an \
         index from the log",
        false,
    );
    check(
        &ContextError::NoUsableDevice { tried: "0: llvmpipe".to_string(), source: platform() },
        "no EGL device gave an OpenGL 4.5 core surfaceless context (tried 0: llvmpipe): needs Mesa >= 20.3 with \
         libgl1-mesa-dri (llvmpipe) or the NVIDIA driver; run with EGL_LOG_LEVEL=debug for EGL's reasons",
        true,
    );
    check(
        &ContextError::ApiMismatch { context: "EGL", surface: "GLX" },
        "the window's context is EGL but its surface is GLX: create both from the same glutin Display",
        false,
    );
    check(
        &ContextError::MakeCurrent { source: platform() },
        "could not make the GL context current on the render thread: it must not be current on any other thread \
         (hand over a NotCurrentContext) and its surface must still exist",
        true,
    );
    check(
        &ContextError::OnRenderThread,
        "a GL context cannot be created on a glcmd render thread (inside with_gl, post or a callback): it would \
         replace the render thread's own context; create it on a thread of your own",
        false,
    );
    check(
        &ContextError::Present { source: platform() },
        "presenting the frame (swap_buffers) failed: the window may have been closed or the display connection lost",
        true,
    );
    check(
        &ContextError::MissingFunction { platform: "GLX", name: "glXSwapBuffers".to_string() },
        "the get-proc-address function given with the adopted GLX context returned NULL for glXSwapBuffers, which \
         the render thread needs: pass the platform's own lookup (eglGetProcAddress / glXGetProcAddressARB of \
         libglvnd or the driver), which returns GLX functions too",
        false,
    );
    check(
        &ContextError::Adopt { platform: "EGL", step: "eglMakeCurrent", detail: "EGL_BAD_ACCESS".to_string() },
        "adopted EGL context: eglMakeCurrent failed: EGL_BAD_ACCESS",
        false,
    );
    check(
        &ContextError::NothingToPresent { what: "a headless device" },
        "there is nothing to present on a headless device: it has no default framebuffer; render into framebuffer \
         objects and read them back, or create the device on a window (Device::with_window) or adopt a context \
         with a draw surface (Device::adopt_egl / adopt_glx)",
        false,
    );
}

#[test]
fn capture_error_messages() {
    check(&CaptureError::Off, "capture is off: create the device with Options::capture set", false);
    check(&CaptureError::Busy, "a capture is already being written; wait for it first", false);
    check(&CaptureError::NoFrames, "a capture of 0 frames was asked for", false);
    check(
        &CaptureError::Io { path: PathBuf::from("/tmp/x.glcap"), message: "disk full".to_string() },
        "/tmp/x.glcap: disk full",
        false,
    );
    check(
        &CaptureError::Timeout { waited_ms: 1500, first: 3, frames: 2 },
        "waited 1500 ms for frames 3..5 to end; the capture is still being written",
        false,
    );
    check(&CaptureError::DeviceGone, "the device is gone and its capture thread with it", false);
}

/// The variants of `Error` about frames, slots and waits.
#[test]
fn error_messages_of_frames_and_waits() {
    check(
        &Error::DeviceLost { reason: "a panic".to_string() },
        "the render thread is gone (a panic); everything submitted after that point was not run. Create a new \
         Device",
        false,
    );
    check(
        &Error::SlotOutOfRange { slot: 4, slots: 2 },
        "slot 4 is out of range: this frame was begun with 2 slot(s)",
        false,
    );
    check(
        &Error::TooManySlots { slots: 99, max: 64 },
        "a frame of 99 slots was asked for; a frame holds at most 64 lists (split the work over several frames)",
        false,
    );
    check(&Error::SlotTaken { slot: 1 }, "slot 1 of this frame was already submitted; each slot takes one list", false);
    check(
        &Error::SlotClaimed { slot: 1 },
        "slot 1 of this frame is already claimed by another list (Frame::list); submit that list",
        false,
    );
    check(
        &Error::ClaimMismatch { frame: 5, claimed: 2, target_frame: 6, slot: 3 },
        "this list was claimed for slot 2 of frame 5 (Frame::list) and cannot be submitted to slot 3 of frame 6",
        false,
    );
    check(
        &Error::FrameEnded { frame: 8, slot: 0 },
        "frame 8 has already ended (its slots were skipped after it stalled the device longer than \
         Options::wait_limit); slot 0 was not replayed",
        false,
    );
    check(
        &Error::WouldDeadlock { what: "Device::finish".to_string(), frame: 2, slot: 1, reason: "is owed by it" },
        "Device::finish would wait for frame 2 slot 1, which is owed by it: it could only arrive after this call \
         returns, so the call fails instead of waiting for ever",
        false,
    );
    check(
        &Error::Blocked { what: "Device::finish".to_string(), frame: 2, slot: 1, waited_ms: 250 },
        "Device::finish waited 250 ms for frame 2 slot 1, which has not been submitted (Options::wait_limit); \
         submit it, or drop the frame to skip it",
        false,
    );
    check(
        &Error::OnRenderThread { what: "Device::finish" },
        "Device::finish was called on the render thread (inside with_gl, post or a callback), where waiting would \
         wait for the render thread itself",
        false,
    );
    check(
        &Error::LinkNotSubmitted { program: 3 },
        "program 3: its link is recorded in a list that has not been submitted, so the link has not run; submit \
         that list first",
        false,
    );
}

/// The variants of `Error` about a GL call or query.
#[test]
fn error_messages_of_calls() {
    check(
        &Error::UnknownPname { function: "glGetIntegerv", pname: 0x1234_5678 },
        "glGetIntegerv: pname 0x12345678 is not in glcmd's pname tables, so the size of its result is unknown; use \
         Device::with_gl for vendor pnames, or add it to codegen/src/pname_tables.rs",
        false,
    );
    check(
        &Error::UnsupportedQuery { function: "glGetIntegerv", pname: gl::VIEWPORT, reason: "not served" },
        "glGetIntegerv: pname GL_VIEWPORT: not served",
        false,
    );
    check(
        &Error::UnknownSync { function: "glClientWaitSync", id: 9 },
        "glClientWaitSync: sync handle 9 does not name a GL sync object: its fence has not been replayed yet, or it \
         was deleted",
        false,
    );
    check(
        &Error::Unavailable { function: "glSpecializeShader", reason: "needs GL 4.6".to_string() },
        "glSpecializeShader: the GL context does not provide this function (needs GL 4.6); check the GL version or \
         extension before calling it",
        false,
    );
    check(
        &Error::InvalidArgument { function: "glGenBuffers", argument: "n", value: -1 },
        "glGenBuffers: `n` is -1, which is not a valid size (it must be 0 or more)",
        false,
    );
    check(
        &Error::PixelFormat {
            function: "glReadPixels",
            format: gl::RGBA,
            type_: gl::UNSIGNED_SHORT_5_6_5,
            gl_error: gl::INVALID_OPERATION,
        },
        "glReadPixels: `format` GL_RGBA with `type` GL_UNSIGNED_SHORT_5_6_5 is no pixel format/type pair glcmd \
         knows, so it cannot size the result (the GL raises GL_INVALID_OPERATION)",
        false,
    );
    check(
        &Error::OutOfMemory { function: "glGetBufferSubData", bytes: 1 << 40 },
        "glGetBufferSubData: will not allocate 1099511627776 bytes for the result (a query allocates at most 1 GiB, \
         and this one could not have more): ask for less, or read large data through a pixel-pack buffer or \
         Device::with_gl",
        false,
    );
    check(
        &Error::NoSuchObject { function: "glGetBufferParameteriv", class: "buffer", name: 7 },
        "glGetBufferParameteriv: 7 is not the name of an existing buffer; the call was not made",
        false,
    );
    check(
        &Error::OtherClass { function: "glGetProgramiv", class: "program", name: 4 },
        "glGetProgramiv: 4 is not the name of a program but of a shader; the call was not made",
        false,
    );
    check(
        &Error::OtherClass { function: "glGetShaderiv", class: "shader", name: 4 },
        "glGetShaderiv: 4 is not the name of a shader but of a program; the call was not made",
        false,
    );
    check(
        &Error::Refused { function: "glGetTexImage", error: gl::INVALID_VALUE },
        "glGetTexImage: the GL refused the call (GL_INVALID_VALUE); its outputs were not written",
        false,
    );
}

/// The variants of `Error` that wrap another error, and `SubmitError`.
#[test]
fn wrapping_error_messages() {
    let context: Error = ContextError::NoDevice.into();
    check(
        &context,
        "could not create the GL context: no EGL device found: install libegl-mesa0 (Mesa) or the NVIDIA driver's \
         EGL vendor library",
        true,
    );
    assert_eq!(context.source().map(|s| s.to_string()), Some(ContextError::NoDevice.to_string()));
    check(
        &Error::Present(ContextError::NothingToPresent { what: "it" }),
        "present failed: there is nothing to present on it: it has no default framebuffer; render into framebuffer \
         objects and read them back, or create the device on a window (Device::with_window) or adopt a context \
         with a draw surface (Device::adopt_egl / adopt_glx)",
        false,
    );
    let capture: Error = CaptureError::Busy.into();
    check(&capture, "capture: a capture is already being written; wait for it first", true);
    let submit = SubmitError::new(Error::SlotTaken { slot: 0 }, CommandList::new());
    check(
        &submit,
        "slot 0 of this frame was already submitted; each slot takes one list (the list was not submitted; \
         SubmitError::into_list gives it back)",
        false,
    );
}

/// The errors of loading and replaying captures (the cargo feature `capture-replay`).
#[cfg(feature = "capture-replay")]
mod replay_messages {
    use super::check;
    use crate::capture::budget::{OverBudget, Resource};
    use crate::capture::calls::CallProblem;
    use crate::capture::load::LoadError;
    use crate::capture::player::ReplayError;
    use crate::capture::validate::PacketProblem;
    use crate::capture::wire::WireError;
    use crate::generated::OPCODE_COUNT;
    use crate::vocab::Class;
    use crate::Error;

    fn wire() -> WireError {
        WireError { at: 12, what: "a length past the end".to_string() }
    }

    #[test]
    fn capture_problem_messages() {
        check(
            &CallProblem::UnknownFunction(77),
            "function index 77 is no create or query this build can replay",
            false,
        );
        check(
            &CallProblem::Argument { param: "n", error: wire() },
            "argument `n` does not decode: a length past the end at byte 12",
            false,
        );
        check(
            &CallProblem::Answer { error: wire() },
            "the recorded answer does not decode: a length past the end at byte 12",
            false,
        );
        check(
            &CallProblem::UnknownName { param: "buffer", class: Class::Buffer, name: 5 },
            "argument `buffer` names Buffer 5, which no earlier create of the capture returned",
            false,
        );
        check(
            &CallProblem::CreateCount { param: "n", asked: 3, recorded: 2 },
            "the create asks for 3 names (`n`) but the capture recorded 2: a replayed create makes exactly the names its \
             record holds",
            false,
        );
        check(
            &PacketProblem::UnknownOpcode(9999),
            &format!("unknown opcode 9999 (this build has {OPCODE_COUNT})"),
            false,
        );
        check(
            &PacketProblem::PastEnd { function: "glDrawArrays", slots: 4, left: 2 },
            "glDrawArrays: the packet needs 4 slots, but the list ends after 2",
            false,
        );
        check(
            &PacketProblem::Refused { function: "glMapBuffer", reason: "it returns a pointer" },
            "glMapBuffer is not replayed from a capture: it returns a pointer",
            false,
        );
        check(
            &PacketProblem::OutOfRange { function: "glBufferData", param: "data", start: 8, end: 72, size: 64 },
            "glBufferData: `data` spans bytes 8..72 of a 64-byte parameter buffer",
            false,
        );
        check(
            &PacketProblem::NegativeCount { function: "glDeleteBuffers", param: "buffers", count: -2 },
            "glDeleteBuffers: `buffers` has a negative count (-2)",
            false,
        );
        check(
            &PacketProblem::CountMismatch { function: "glDeleteBuffers", param: "buffers", len: 8, count: 3 },
            "glDeleteBuffers: `buffers` holds 8 bytes, but its count argument says 3",
            false,
        );
        check(
            &PacketProblem::Unterminated { function: "glObjectLabel", param: "label" },
            "glObjectLabel: `label` has no NUL inside the parameter buffer",
            false,
        );
        check(
            &PacketProblem::Marker { function: "glDrawElements", param: "indices", marker: "a client pointer" },
            "glDrawElements: `indices` is marked as a client pointer, which this argument cannot be",
            false,
        );
        check(
            &PacketProblem::Name { function: "glBindBuffer", problem: CallProblem::UnknownFunction(1) },
            "glBindBuffer: function index 1 is no create or query this build can replay",
            false,
        );
    }

    #[test]
    fn load_error_messages() {
        let io = LoadError::Io { path: "a.glcap".to_string(), message: "not found".to_string() };
        check(&io, "a.glcap: not found", false);
        check(
            &LoadError::NotACapture { found: vec![0x7f, 0x45, 0x4c, 0x46, 0x02] },
            "not a glcmd capture: it starts with [7f, 45, 4c, 46, 02], not \"GLCMDCAP\"",
            false,
        );
        check(
            &LoadError::ByteOrder { machine: "little" },
            "the capture was written on a machine of the other byte order; this machine is little-endian",
            false,
        );
        check(
            &LoadError::Version { found: 9, supported: 4 },
            "capture format version 9; this build reads version 4",
            false,
        );
        check(
            &LoadError::Fingerprint { file: 0xabc, this_build: 0x1234_5678_9abc_def0 },
            "the capture was made by a glcmd build with another opcode table (fingerprint 0x0000000000000abc, this \
             build 0x123456789abcdef0); replay it with the glcmd version that wrote it",
            false,
        );
        check(
            &LoadError::Families { file: "ext".to_string(), this_build: "none".to_string() },
            "the capture was written by a glcmd build with the extension families ext (cargo features) and this build \
             has none: opcodes differ between the two. Build the replayer with the same features (glcmd-replay: \
             `--no-default-features --features \"ext\"`, or none for \"none\")",
            false,
        );
        check(
            &LoadError::Truncated { offset: 40, what: "a list record".to_string() },
            "truncated at byte 40: a list record",
            false,
        );
        check(
            &LoadError::Malformed { offset: 41, what: "a bad flag".to_string() },
            "malformed record at byte 41: a bad flag",
            false,
        );
        let packet = |label: &str| LoadError::Packet {
            frame: 2,
            list: 1,
            slot: 3,
            label: label.to_string(),
            command: 17,
            offset: 300,
            problem: PacketProblem::UnknownOpcode(9999),
        };
        check(
            &packet(""),
            &format!(
                "frame 2, list 1 (slot 3), command 17 at byte 300: unknown opcode 9999 (this build has {OPCODE_COUNT})"
            ),
            false,
        );
        check(
            &packet("shadows"),
            &format!(
                "frame 2, list 1 (slot 3, \"shadows\"), command 17 at byte 300: unknown opcode 9999 (this build has \
                 {OPCODE_COUNT})"
            ),
            false,
        );
        check(
            &LoadError::Call {
                offset: 64,
                function: "glGenBuffers".to_string(),
                problem: CallProblem::UnknownFunction(2),
            },
            "glGenBuffers at byte 64: function index 2 is no create or query this build can replay",
            false,
        );
    }

    #[test]
    fn replay_error_and_budget_messages() {
        let over = |resource| OverBudget { resource, used: 1_000_001, limit: 1_000_000 };
        check(
            &over(Resource::Objects),
            "the replay would use 1000001 live objects, past its budget of 1000000 (ReplayBudget::objects; raise it \
             with glcmd-replay --max-objects if you trust the capture)",
            false,
        );
        check(
            &over(Resource::StorageBytes),
            "the replay would use 1000001 bytes of buffer and texel storage, past its budget of 1000000 \
             (ReplayBudget::storage_bytes; raise it with glcmd-replay --max-storage if you trust the capture)",
            false,
        );
        check(
            &over(Resource::Vertices),
            "the replay would use 1000001 vertices drawn, past its budget of 1000000 (ReplayBudget::vertices; raise it \
             with glcmd-replay --max-vertices if you trust the capture)",
            false,
        );
        let device: ReplayError = Error::SlotTaken { slot: 2 }.into();
        check(
            &device,
            "the replaying device: slot 2 of this frame was already submitted; each slot takes one list",
            true,
        );
        check(
            &ReplayError::Translated { frame: 1, list: 0, problem: PacketProblem::UnknownOpcode(9999) },
            &format!("frame 1, list 0: after translating names: unknown opcode 9999 (this build has {OPCODE_COUNT})"),
            false,
        );
        check(
            &ReplayError::Call { function: "glGenTextures".to_string(), problem: CallProblem::UnknownFunction(3) },
            "glGenTextures: function index 3 is no create or query this build can replay",
            false,
        );
        check(&ReplayError::Frames { asked: 2..9, has: 4 }, "frames 2..9 asked for, the capture has 4", false);
        check(
            &ReplayError::Framebuffer("GL_INVALID_OPERATION".to_string()),
            "the final framebuffer: GL_INVALID_OPERATION",
            false,
        );
        check(
            &ReplayError::Budget {
                record: "frame 1, list 0, command 4".to_string(),
                problem: over(Resource::Vertices),
            },
            "frame 1, list 0, command 4: the replay would use 1000001 vertices drawn, past its budget of 1000000 \
             (ReplayBudget::vertices; raise it with glcmd-replay --max-vertices if you trust the capture)",
            false,
        );
    }
}
