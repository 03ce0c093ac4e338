//! A counting global allocator: counts heap allocations (alloc, alloc_zeroed, realloc) made
//! through Rust's allocator while counting is switched on. Only Rust allocations are seen; the
//! GL driver's own `malloc`s are not (they do not go through `#[global_allocator]`).
//!
//! Counting is off by default, so that benchmarks that do not need it do not pay for a shared
//! atomic counter (a contended cache line) on every allocation; when off, an allocation costs one
//! relaxed load more than `System`'s.
//!
//! With `BENCH_TRACE_ALLOCS=1` in the environment, every allocation inside a steady-state window
//! (`steady(true)`) prints its backtrace to stderr (the first 16), to find where it comes from.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub struct Counting;

static ON: AtomicBool = AtomicBool::new(false);
static ALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);
static TRACE: AtomicBool = AtomicBool::new(false);
static STEADY: AtomicBool = AtomicBool::new(false);
static TRACED: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Set while this thread is tracing, so the tracer's own allocations are neither counted
    /// nor traced.
    static IN_TRACE: Cell<bool> = const { Cell::new(false) };
}

#[inline(always)]
fn note(size: usize) {
    if ON.load(Ordering::Relaxed) {
        if TRACE.load(Ordering::Relaxed) {
            trace(size);
        } else {
            ALLOCS.fetch_add(1, Ordering::Relaxed);
            BYTES.fetch_add(size as u64, Ordering::Relaxed);
        }
    }
}

#[cold]
fn trace(size: usize) {
    if IN_TRACE.with(|c| c.replace(true)) {
        return;
    }
    ALLOCS.fetch_add(1, Ordering::Relaxed);
    BYTES.fetch_add(size as u64, Ordering::Relaxed);
    if STEADY.load(Ordering::Relaxed) && TRACED.fetch_add(1, Ordering::Relaxed) < 16 {
        let bt = std::backtrace::Backtrace::force_capture();
        eprintln!(
            "allocation of {size} bytes in a steady-state window, thread {:?}:\n{bt}",
            std::thread::current().name()
        );
    }
    IN_TRACE.with(|c| c.set(false));
}

// SAFETY: forwards every call to `System` unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Reads `BENCH_TRACE_ALLOCS` (call once, at start-up).
pub fn init() {
    TRACE.store(std::env::var_os("BENCH_TRACE_ALLOCS").is_some_and(|v| v != "0"), Ordering::SeqCst);
}

/// Switches counting on or off.
pub fn counting(on: bool) {
    ON.store(on, Ordering::SeqCst);
}

/// Marks the start or end of a window that should make no allocation (for the tracer).
pub fn steady(on: bool) {
    STEADY.store(on, Ordering::SeqCst);
}

/// (allocations, bytes) counted so far.
pub fn snapshot() -> (u64, u64) {
    (ALLOCS.load(Ordering::SeqCst), BYTES.load(Ordering::SeqCst))
}
