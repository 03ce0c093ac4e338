//! The runtime's messages in C terms. A `glcmd::Error` or report says what to do in the words
//! of the Rust API (`Device::with_gl`, `Frame::list`, `Options::wait_limit`, "drop the
//! Frame"); a C programmer has none of those, so every runtime text that reaches C (the message
//! of a failure, `glcmdLastError`, the error callback; the strings of a `GlcmdReport`) passes
//! through [`translate`], which names the C call or field that does the same thing.
//!
//! The runtime's wording is its own (and stays Rust: it is the Rust API's documentation too), so
//! the translation is a table of its phrases, longest first. The unit tests below build every
//! runtime error that names Rust API and check that no Rust name survives: a phrase the runtime
//! rewords or adds fails them here, not in a C program's log.

/// Rust-API phrases of the runtime's messages and their C equivalents, in the order they are
/// replaced (a phrase before any phrase it contains).
const PHRASES: &[(&str, &str)] = &[
    ("use Device::with_gl for vendor pnames", "call the GL yourself in glcmdRunOnRenderThread for vendor pnames"),
    ("or Device::with_gl", "or in glcmdRunOnRenderThread"),
    ("(inside with_gl, post or a callback)", "(inside glcmdRunOnRenderThread or a GL debug callback)"),
    ("(Frame::list)", "(glcmdListBeginSlot)"),
    ("(drop the Frame to skip it)", "(glcmdFrameEnd skips it)"),
    ("or drop the frame to skip it", "or end the frame (glcmdFrameEnd) to skip it"),
    ("(a leaked Frame,", "(a frame never ended with glcmdFrameEnd,"),
    ("Options::wait_limit", "GlcmdDeviceOptions.wait_limit_ms"),
    ("Create a new Device", "Create a new device (glcmdDeviceCreateHeadless)"),
    (
        "or create the device on a window (Device::with_window) or adopt a context with a draw surface (Device::adopt_egl / adopt_glx)",
        "or create the device with glcmdDeviceAdoptEGL / glcmdDeviceAdoptGLX on a context with a draw surface",
    ),
    // The name of the waiting call: `wait_frames(3)`, `wait_frames`, `with_gl`.
    ("wait_frames(", "glcmdDeviceWaitFrames(device, "),
    ("wait_frames", "glcmdDeviceWaitFrames"),
    ("with_gl", "glcmdRunOnRenderThread"),
];

/// `text`, a message of the runtime, with its Rust API names replaced by C calls and fields.
pub fn translate(text: &str) -> String {
    let mut out = text.to_string();
    for (rust, c) in PHRASES {
        if out.contains(rust) {
            out = out.replace(rust, c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glcmd::Error as E;

    /// Names only the Rust API has.
    const RUST_NAMES: &[&str] =
        &["Device::", "Frame::", "Options::", "with_gl", "wait_frames", "the Frame", "new Device", "leaked Frame"];

    fn c_only(text: &str) {
        let c = translate(text);
        for name in RUST_NAMES {
            assert!(!c.contains(name), "`{name}` left in {c:?} (from {text:?}); add its C wording to PHRASES");
        }
    }

    /// Every runtime error whose text names Rust API, built as the runtime builds it.
    #[test]
    fn runtime_errors_name_c_calls() {
        let errors = [
            E::DeviceLost { reason: "the render thread panicked".into() },
            E::UnknownPname { function: "glGetIntegerv", pname: 0x1234 },
            E::SlotClaimed { slot: 1 },
            E::ClaimMismatch { frame: 1, claimed: 0, target_frame: 1, slot: 1 },
            E::FrameEnded { frame: 2, slot: 0 },
            E::OutOfMemory { function: "glGetBufferSubData", bytes: 1 << 40 },
            E::WouldDeadlock {
                what: "wait_frames(1)".into(),
                frame: 1,
                slot: 0,
                reason: "this thread claimed (Frame::list) and has not submitted",
            },
            E::WouldDeadlock {
                what: "with_gl".into(),
                frame: 1,
                slot: 0,
                reason: "is unsubmitted in a frame this thread began and still holds open (drop the Frame to skip it)",
            },
            E::Blocked { what: "wait_frames(2)".into(), frame: 1, slot: 0, waited_ms: 10 },
            E::OnRenderThread { what: "wait_frames" },
            E::Present(glcmd::ContextError::NothingToPresent { what: "a headless (surfaceless) device" }),
            E::OnRenderThread { what: "with_gl" },
        ];
        for e in errors {
            c_only(&e.to_string());
        }
        let t = translate(&E::FrameEnded { frame: 2, slot: 0 }.to_string());
        assert!(t.contains("GlcmdDeviceOptions.wait_limit_ms"), "{t}");
        let t = translate(&E::Blocked { what: "wait_frames(2)".into(), frame: 1, slot: 0, waited_ms: 10 }.to_string());
        assert!(t.starts_with("glcmdDeviceWaitFrames(device, 2) waited 10 ms"), "{t}");
        assert!(t.contains("end the frame (glcmdFrameEnd)"), "{t}");
    }

    /// The runtime's report of an abandoned frame (render.rs), as it words it.
    #[test]
    fn the_abandoned_frame_report_names_c_calls() {
        let report = "frame 3 held later frames back for 10000 ms (Options::wait_limit) waiting for slot 1; it was \
                      given up and its unsubmitted slots [1] skipped (a leaked Frame, or a worker that never submitted)";
        c_only(report);
        assert!(translate(report).contains("(a frame never ended with glcmdFrameEnd, or a worker"));
    }

    #[test]
    fn other_text_is_unchanged() {
        let text = "glDrawElements: no GL_ELEMENT_ARRAY_BUFFER is bound";
        assert_eq!(translate(text), text);
    }
}
