//! Presenting: swapping the buffers of a window's or an adopted context's surface.
//!
//! A device on a window presents at the end of every frame (the render loop does it). An
//! adopted context presents only when asked, because the program that owns it decides what a
//! frame is: glcmd-run turns the program's `eglSwapBuffers` into a present, after a frame of
//! many implicit lists. Two ways to ask:
//!
//! * [`Device::present`] waits until the swap has been done, like a query: simple, but the
//!   calling thread and the render thread then take turns, and nothing overlaps.
//! * [`Device::queue_present`] queues the swap after every list submitted before it and returns
//!   at once, so the caller records the next frame while the render thread replays this one, as
//!   a GL driver's own swap does. It waits only while [`FRAMES_IN_FLIGHT`] presents are queued
//!   and not yet done (a program that records faster than the GPU draws would otherwise queue
//!   frames without bound, and its input latency with them). A queued present that fails is
//!   reported by the next call.
//!
//! Why a counter and not a channel per present: the count of queued and done presents is all
//! the pacing needs, and a done present is counted by the job's drop as well, so a job dropped
//! by a dying render thread cannot leave a caller waiting (the wait also watches the device's
//! liveness and `Options::wait_limit`).

use std::time::{Duration, Instant};

use crate::channel::CallKind;
use crate::device::{Device, Msg};
use crate::present_queue::{DoneOnDrop, PresentQueue};
use crate::Error;

/// Presents a [`Device::queue_present`] caller may have queued and not yet done.
pub const FRAMES_IN_FLIGHT: u64 = 2;

impl Device {
    /// Presents: swaps the buffers of the device's surface (`eglSwapBuffers`/`glXSwapBuffers`),
    /// after every list submitted before it, like a query, and returns once it has been done.
    /// A device on a window also presents at the end of every frame; an adopted one presents
    /// only when asked (here or [`Device::queue_present`]). [`Error::Present`] on a headless
    /// device, or an adopted one with no surface, naming why; or when the platform refuses the
    /// swap (with its error).
    pub fn present(&self) -> Result<(), Error> {
        self.call("present", present_now)
    }

    /// Queues a present after every list submitted before it and returns without waiting for
    /// it, unless [`FRAMES_IN_FLIGHT`] presents are already queued and not done: then it waits
    /// for the oldest (at most `Options::wait_limit`, then [`Error::Blocked`]). Returns the
    /// error of an earlier queued present that failed, if one did since the last call.
    pub fn queue_present(&self) -> Result<(), Error> {
        let queue = self.inner.presents.clone();
        self.wait_presents(&queue, FRAMES_IN_FLIGHT - 1)?;
        if let Some(e) = queue.counts().error.take() {
            return Err(e);
        }
        if self.is_render_thread() {
            return self.present();
        }
        queue.counts().queued += 1;
        let done = DoneOnDrop::new(queue);
        let job: crate::device::Job = Box::new(move |ctx| {
            // The whole guard moves into the job (not only the field it writes), so that it
            // counts the present done when the job ends, or when the job is dropped unrun.
            let mut done = done;
            done.error = ctx.and_then(present_now).err();
        });
        self.send(Msg::Call { name: "present", kind: CallKind::Query, thread: std::thread::current().id(), job })
    }

    /// Waits until at most `in_flight` queued presents are not done.
    fn wait_presents(&self, queue: &PresentQueue, in_flight: u64) -> Result<(), Error> {
        let limit = self.inner.shared.options.wait_limit;
        let started = Instant::now();
        let mut c = queue.counts();
        while c.queued - c.done > in_flight {
            if self.render_thread_gone() {
                return Err(self.lost());
            }
            if started.elapsed() > limit {
                return Err(Error::Blocked {
                    what: format!("queue_present: {} presents queued before it are not done", c.queued - c.done),
                    frame: self.inner.shared.next_frame.load(std::sync::atomic::Ordering::Relaxed),
                    slot: 0,
                    waited_ms: started.elapsed().as_millis(),
                });
            }
            c = queue.wait(c, Duration::from_millis(50));
        }
        Ok(())
    }
}

/// Swaps on the render thread, and counts it.
fn present_now(ctx: &crate::RenderContext) -> Result<(), Error> {
    ctx.present().map_err(Error::Present)?;
    ctx.shared.stats.lock().unwrap_or_else(|e| e.into_inner()).presents += 1;
    Ok(())
}
