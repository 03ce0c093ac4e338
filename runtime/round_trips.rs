//! Round trips seen from the calling thread: how many it made, and a scope in which it makes
//! none.
//!
//! A caller that must know whether an answer came from glcmd's own knowledge (the limits cache,
//! a name pool, the program cache) or from the GL after the stream (the C ABI's immediate
//! threads and deferred lists, the Rust immediate context's counters) runs the query in
//! `Device::refusing_round_trips` ([`refusing`]) or reads `Device::thread_round_trips`
//! ([`made`]). `device.rs`'s round
//! trip asks [`round_trip_refused`] first, which also counts it.

use crate::Error;

thread_local! {
    /// Round trips this thread made, and whether it refuses them now (`Some(refused)`: it does,
    /// and `refused` says whether one was refused).
    static THREAD_ROUND_TRIPS: std::cell::Cell<(u64, Option<bool>)> = const { std::cell::Cell::new((0, None)) };
}

/// Counts a round trip of this thread; an error instead if the thread refuses them now.
pub(crate) fn round_trip_refused(function: &'static str) -> Option<Error> {
    THREAD_ROUND_TRIPS
        .try_with(|c| match c.get() {
            (n, None) => {
                c.set((n + 1, None));
                None
            }
            (n, Some(_)) => {
                c.set((n, Some(true)));
                Some(Error::Unavailable {
                    function,
                    reason: "a round trip to the render thread was refused (Device::refusing_round_trips)".into(),
                })
            }
        })
        .unwrap_or(None)
}

/// Runs `f` on this thread with every round trip refused: a create or query that would
/// ask the render thread fails at once (`Error::Unavailable`) instead, and the answer says
/// whether one did. Answers glcmd gives from its own knowledge (limits, name pools, the
/// program cache) are unaffected. Not nested: an inner call ends the refusal.
pub fn refusing<R>(f: impl FnOnce() -> R) -> (R, bool) {
    fn set(v: Option<bool>) {
        let _ = THREAD_ROUND_TRIPS.try_with(|c| c.set((c.get().0, v)));
    }
    /// Ends the refusal however `f` returns (a panic too).
    struct End;
    impl Drop for End {
        fn drop(&mut self) {
            set(None);
        }
    }
    set(Some(false));
    let end = End;
    let r = f();
    let refused = THREAD_ROUND_TRIPS.try_with(|c| c.get().1 == Some(true)).unwrap_or(false);
    drop(end);
    (r, refused)
}

/// The round trips (creates and queries that asked the render thread) the calling thread
/// has made, over all devices.
pub fn made() -> u64 {
    THREAD_ROUND_TRIPS.try_with(|c| c.get().0).unwrap_or(0)
}
