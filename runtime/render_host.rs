//! Where a device's render thread runs: a thread of its own, or a host's.
//!
//! A device normally starts its render thread itself. A **render host** runs the render
//! thread's body on a thread it chose instead, and hands it jobs of its own to run there between
//! the device's work. `glcmd-run` is the host that needs this: a driver such as NVIDIA's runs
//! slower (1.3–1.7× in the issue-31 measurements) in any process whose EGL calls come from two
//! threads, so glcmd-run forwards every EGL call of the program to one *driver thread*, and the
//! render thread of the context it adopts must be that same thread. While the device lives, the
//! render loop runs the host's jobs (the program's forwarded EGL calls) whenever it would
//! otherwise wait, so a job waits at most for the list being replayed.
//!
//! ## Rules a host keeps
//!
//! * The body runs to its end on the thread the host's start function names, and nothing else runs
//!   on that thread meanwhile except the jobs the body takes from the receiver it was given.
//! * A job leaves the thread as it found it: the context current there and the EGL API bound
//!   there are the render loop's (a job that makes another context current restores the
//!   previous one before it returns). glcmd cannot check this; a job that breaks it breaks the
//!   replay after it.
//! * A job never waits for the device (a round trip, a present): the device's replay waits for
//!   the job, so that would never end.
//!
//! A device without a host is unchanged: its own thread, and no jobs.

use std::sync::Arc;
use std::thread::{JoinHandle, ThreadId};

/// Work a host runs on its render thread between the device's own work.
pub type HostJob = Box<dyn FnOnce() + Send>;

/// The render thread's body, given the receiver of the host's jobs (or `None`: no jobs). It
/// returns when the device is gone; the device's last handle waits until the host drops the
/// [`RenderEnd`] it returned.
pub type RenderBody = Box<dyn FnOnce(Option<crossbeam_channel::Receiver<HostJob>>) -> RenderEnd + Send>;

/// The end of a render thread's body: the device's last handle returns once this is dropped, so
/// a host that notes its thread free before dropping it is free for the next device.
pub struct RenderEnd {
    /// Held, not read: the device's handle waits for its channel to close.
    _alive: crossbeam_channel::Sender<()>,
}

impl RenderEnd {
    pub(crate) fn new(alive: crossbeam_channel::Sender<()>) -> Self {
        RenderEnd { _alive: alive }
    }
}

type Start = dyn Fn(RenderBody) -> Result<ThreadId, String> + Send + Sync;

/// A host for render threads (see the module's rules): a function that runs a [`RenderBody`] on
/// a thread named `glcmd-render` and returns that thread's id, or says why it cannot.
#[derive(Clone)]
pub struct RenderHost {
    start: Arc<Start>,
}

impl RenderHost {
    /// A host whose `start` runs each body it is given (see the module's rules).
    pub fn new(start: impl Fn(RenderBody) -> Result<ThreadId, String> + Send + Sync + 'static) -> Self {
        RenderHost { start: Arc::new(start) }
    }

    /// Runs `body` on the host's thread; that thread's id.
    pub(crate) fn start(&self, body: RenderBody) -> Result<ThreadId, String> {
        (self.start)(body)
    }
}

impl std::fmt::Debug for RenderHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RenderHost")
    }
}

/// Starts a render thread's body: on `host`'s thread if there is a host, else on a thread of its
/// own, returned to be joined. The thread's id.
pub(crate) fn start(host: Option<&RenderHost>, body: RenderBody) -> Result<(Option<JoinHandle<()>>, ThreadId), String> {
    if let Some(host) = host {
        return host.start(body).map(|id| (None, id));
    }
    let thread = std::thread::Builder::new()
        .name("glcmd-render".into())
        .spawn(move || drop(body(None)))
        .map_err(|e| e.to_string())?;
    let id = thread.thread().id();
    Ok((Some(thread), id))
}
