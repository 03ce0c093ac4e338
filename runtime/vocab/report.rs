//! Reports: what glcmd tells the application about a command or the device's life cycle
//! ([`Report`], [`ReportKind`]), where reports go (`Sink`), and the KHR_debug message an
//! application callback receives ([`DebugMessage`]).
//!
//! Every part that finds something to report (replay's checks, diagnostics, frames, the render
//! thread) makes a `Report` and hands it to the device's `Sink`; none of them needs another's
//! code to do so, which is why this vocabulary sits at the ground floor.

use std::fmt;
use std::panic::Location;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use crate::generated::types::*;

/// What a report is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportKind {
    /// A KHR_debug message of the driver.
    DebugMessage,
    /// `glGetError` returned an error (strict mode).
    GlError,
    /// A command named an object whose delete was recorded before it.
    UseAfterDelete,
    /// A replay step took longer than the watchdog allows.
    Stall,
    /// A command that is legal GL but almost surely a bug (a draw with no program bound).
    Validation,
    /// A command glcmd did not pass to the GL because an argument was unsafe: an offset with no
    /// buffer bound, a sync handle with no sync object, a client array in a draw. The command
    /// also raises the error the GL gives for the same mistake (`GL_INVALID_VALUE` for a
    /// negative range, a NaN, a level the texture cannot have, a name that is no program or
    /// shader; `GL_INVALID_OPERATION` otherwise; see `Device::get_error`).
    Skipped,
    /// A GL function the context does not provide was called (through a recorded command or the
    /// function table); the call did nothing and raised `GL_INVALID_OPERATION`.
    Unavailable,
    /// Submission and frame life cycle: a slot never submitted, a list submitted to a frame
    /// that had ended, `Device::submit` while an earlier frame is open.
    Submission,
    /// A frame held later work back longer than `Options::wait_limit` and was given up: its
    /// missing slots were skipped.
    AbandonedFrame,
    /// Presenting a frame (`swap_buffers` of a window context) failed.
    Present,
}

/// The device's queue of reports, as `Device::reports` hands it out.
///
/// Every clone reads from the same queue: each report is seen once between them. A thin
/// wrapper over the channel glcmd uses inside, so that glcmd's public API does not name a 0.x
/// crate's type (changing channel crates is not a breaking change for users).
#[derive(Clone, Debug)]
pub struct Reports(Receiver<Report>);

/// Why [`Reports::recv_timeout`] returned no report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportWait {
    /// No report arrived within the time given.
    Timeout,
    /// The device is gone and every report it made has been read.
    Closed,
}

impl Reports {
    pub(crate) fn new(receiver: Receiver<Report>) -> Reports {
        Reports(receiver)
    }

    /// The next report if one is queued, without waiting.
    pub fn try_recv(&self) -> Option<Report> {
        // Empty or disconnected: either way there is nothing to read now.
        self.0.try_recv().ok()
    }

    /// The next report, waiting at most `timeout` for one.
    pub fn recv_timeout(&self, timeout: std::time::Duration) -> Result<Report, ReportWait> {
        self.0.recv_timeout(timeout).map_err(|e| match e {
            RecvTimeoutError::Timeout => ReportWait::Timeout,
            RecvTimeoutError::Disconnected => ReportWait::Closed,
        })
    }

    /// The reports queued now, without waiting for more.
    pub fn try_iter(&self) -> impl Iterator<Item = Report> + '_ {
        self.0.try_iter()
    }

    /// How many reports are queued now.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no report is queued now.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One diagnostic, attributed to the command that caused it.
#[derive(Clone, Debug)]
pub struct Report {
    pub kind: ReportKind,
    /// The GL call with its arguments, apitrace style (`glEnable(0x1234)`), or the round trip.
    pub call: String,
    /// The label of the list, if it has one.
    pub list: Option<String>,
    /// Index of the command in its list.
    pub index: Option<usize>,
    /// Where the command was recorded.
    pub site: Option<&'static Location<'static>>,
    /// The GL's message (or glcmd's, for use after delete and stalls).
    pub message: String,
    /// For use after delete: the delete call and where it was recorded.
    pub deleted_by: Option<(String, Option<&'static Location<'static>>)>,
    /// For stalls: the last completed commands, oldest first (name and recording site).
    pub breadcrumbs: Vec<String>,
}

impl Report {
    /// A report about the device's life cycle, not about one command.
    pub(crate) fn lifecycle(kind: ReportKind, message: String) -> Report {
        Report {
            kind,
            call: String::new(),
            list: None,
            index: None,
            site: None,
            message,
            deleted_by: None,
            breadcrumbs: Vec::new(),
        }
    }
}

pub(crate) fn site_text(site: Option<&'static Location<'static>>) -> String {
    match site {
        Some(s) => format!("{}:{}:{}", s.file(), s.line(), s.column()),
        None => "<unknown site>".into(),
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            ReportKind::DebugMessage => "GL debug message",
            ReportKind::GlError => "GL error",
            ReportKind::UseAfterDelete => "use after delete",
            ReportKind::Stall => "stall",
            ReportKind::Validation => "validation",
            ReportKind::Skipped => "skipped",
            ReportKind::Unavailable => "unavailable function",
            ReportKind::Submission => "submission",
            ReportKind::AbandonedFrame => "abandoned frame",
            ReportKind::Present => "present",
        };
        if self.call.is_empty() {
            return write!(f, "{kind}: {}", self.message);
        }
        write!(f, "{}: {kind} in {}", site_text(self.site), self.call)?;
        match (&self.list, self.index) {
            (Some(l), Some(i)) => write!(f, " [list \"{l}\", command {i}]")?,
            (None, Some(i)) => write!(f, " [unlabelled list, command {i}]")?,
            _ => {}
        }
        write!(f, ": {}", self.message)?;
        if let Some((call, site)) = &self.deleted_by {
            write!(f, "; deleted by {call} recorded at {}", site_text(*site))?;
        }
        if !self.breadcrumbs.is_empty() {
            write!(f, "; last completed: {}", self.breadcrumbs.join(" <- "))?;
        }
        Ok(())
    }
}

/// Where reports go: the log, and the device's bounded report queue (a report that finds it
/// full is counted, not queued, so nobody reading `reports()` costs no memory).
#[derive(Clone)]
pub(crate) struct Sink {
    tx: Sender<Report>,
    dropped: Arc<AtomicU64>,
}

impl Sink {
    pub(crate) fn new(tx: Sender<Report>) -> Sink {
        Sink { tx, dropped: Arc::new(AtomicU64::new(0)) }
    }

    pub(crate) fn send(&self, report: Report) {
        match report.kind {
            ReportKind::DebugMessage
            | ReportKind::GlError
            | ReportKind::UseAfterDelete
            | ReportKind::Skipped
            | ReportKind::Unavailable
            | ReportKind::Present => log::error!("{report}"),
            ReportKind::Stall | ReportKind::Validation | ReportKind::Submission | ReportKind::AbandonedFrame => {
                log::warn!("{report}")
            }
        }
        if let Err(crossbeam_channel::TrySendError::Full(_)) = self.tx.try_send(report) {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Reports dropped because the queue was full.
    pub(crate) fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

/// A KHR_debug message as the application callback receives it.
#[derive(Clone, Debug)]
pub struct DebugMessage {
    pub source: GLenum,
    pub kind: GLenum,
    pub id: GLuint,
    pub severity: GLenum,
    pub message: String,
}
