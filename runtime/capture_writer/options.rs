//! What a capture is asked to keep: [`CaptureOptions`] (`Options::capture`), the set-up log's
//! rule ([`SetupLog`]) and the post-mortem ring ([`PostMortem`]). Plain options, read by the
//! recorder (`recorder.rs`) when a device starts; `#[non_exhaustive]` with builders, as every
//! options type of glcmd (`options.rs`).

use std::path::PathBuf;

/// Which lists the set-up log keeps, besides every create and program interface lookup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupLog {
    /// Lists of frames of one slot (`Device::submit`, `begin_frame(1)`): the loading and set-up
    /// work engines do outside the per-frame fan-out. Per-frame lists of multi-slot frames are
    /// not kept. The default.
    OneSlotFrames,
    /// Every list since the device started (exact, as apitrace is; grows with every frame until
    /// `setup_limit`).
    Everything,
}

/// A post-mortem capture: the last frames, written when the device is lost or stalls.
///
/// `#[non_exhaustive]`, with builder methods as every options type of glcmd (`options.rs`):
/// made with [`PostMortem::new`], since its fields have no default.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PostMortem {
    /// How many whole frames the ring keeps (and the frame in progress).
    pub frames: usize,
    /// Where the capture goes; later ones get `-2`, `-3`, ... before the extension (at most 8).
    pub path: PathBuf,
}

/// What `Options::capture` turns on. With it off (`None`, the default) capture costs nothing.
///
/// `#[non_exhaustive]`, with builder methods as every options type of glcmd (`options.rs`):
/// `CaptureOptions::default().setup(SetupLog::Everything).post_mortem(Some(PostMortem::new(3,
/// "hang.glcap")))`.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CaptureOptions {
    /// Which lists the set-up log keeps.
    pub setup: SetupLog,
    /// Bytes the set-up log may hold (default 256 MiB); past it, it stops growing and captures
    /// say their set-up is incomplete.
    pub setup_limit: usize,
    /// Keep the last frames in memory and write them when the device is lost or the watchdog
    /// reports a stall.
    pub post_mortem: Option<PostMortem>,
}

impl Default for CaptureOptions {
    fn default() -> Self {
        CaptureOptions { setup: SetupLog::OneSlotFrames, setup_limit: 256 << 20, post_mortem: None }
    }
}

crate::builders::builders!(CaptureOptions { setup: SetupLog, setup_limit: usize, post_mortem: Option<PostMortem> });

impl PostMortem {
    /// A ring of the last `frames` frames, written to `path`.
    pub fn new(frames: usize, path: impl Into<PathBuf>) -> PostMortem {
        PostMortem { frames, path: path.into() }
    }
}

crate::builders::builders!(PostMortem { frames: usize, path: PathBuf });
