//! Failure and shutdown.
//!
//! * A panic on the render thread (injected through `with_gl`) turns every waiting and every
//!   later call into `Error::DeviceLost`, within a bounded time; recording keeps working.
//! * Dropping the last device handle with work still queued replays all of it.
//!
//! How "everything ran" is observed after the device is gone: every list records a
//! `glDebugMessageInsert` marker whose id is the list's number. A KHR_debug callback, installed
//! through `with_gl` (synchronous output), pushes each marker id into a `Mutex<Vec<u32>>` owned
//! by the test. The callback runs on the render thread as each list replays, so the vector is a
//! record, made by the GL itself, of which lists reached the driver and in which order, and it
//! outlives the device: after `drop(device)` has returned (it joins the render thread) the test
//! reads it. The callback holds the render thread in the first marker until the test opens a
//! gate, so when the workers are done every list but the first is provably still queued (the
//! test asserts it), whatever the machine's speed; the gate opens as the device is dropped.

mod common;

use std::ffi::c_void;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use common::*;
use glcmd::types::{GLchar, GLenum, GLsizei, GLuint};
use glcmd::{gl, CommandList, Device, Error};

// ---------------------------------------------------------------------------------------------
// Marker log through KHR_debug
// ---------------------------------------------------------------------------------------------

struct Markers {
    ids: Mutex<Vec<u32>>,
    /// Marker 0's callback waits until this is true (a test that gates it opens it).
    gate: Mutex<bool>,
    opened: Condvar,
}

impl Markers {
    fn open(&self) {
        *self.gate.lock().unwrap() = true;
        self.opened.notify_all();
    }
}

extern "system" fn on_debug_message(
    source: GLenum,
    ty: GLenum,
    id: GLuint,
    _severity: GLenum,
    _length: GLsizei,
    _message: *const GLchar,
    user: *mut c_void,
) {
    if source != gl::DEBUG_SOURCE_APPLICATION || ty != gl::DEBUG_TYPE_MARKER {
        return;
    }
    // SAFETY: `user` is the Markers the test keeps alive until the device is dropped.
    let markers = unsafe { &*(user as *const Markers) };
    if id == 0 {
        // Bounded, so that a broken test fails in its `with_timeout` instead of hanging.
        if let Ok(open) = markers.gate.lock() {
            let _ = markers.opened.wait_timeout_while(open, Duration::from_secs(60), |open| !*open);
        }
    }
    // No panics here (this is an extern "system" callback): a poisoned lock is ignored.
    if let Ok(mut ids) = markers.ids.lock() {
        ids.push(id);
    }
}

/// `gated`: marker 0 holds the render thread until `Markers::open`.
fn install_markers(device: &Device, gated: bool) -> Arc<Markers> {
    let markers = Arc::new(Markers { ids: Mutex::new(Vec::new()), gate: Mutex::new(!gated), opened: Condvar::new() });
    let user = Arc::as_ptr(&markers) as usize;
    device
        .with_gl(move |gl_fns| unsafe {
            (gl_fns.Enable)(gl::DEBUG_OUTPUT);
            (gl_fns.Enable)(gl::DEBUG_OUTPUT_SYNCHRONOUS);
            (gl_fns.DebugMessageControl)(
                gl::DONT_CARE,
                gl::DONT_CARE,
                gl::DONT_CARE,
                0,
                std::ptr::null(),
                gl::TRUE as u8,
            );
            (gl_fns.DebugMessageCallback)(Some(on_debug_message), user as *const c_void);
        })
        .unwrap();
    markers
}

fn record_marker(list: &mut CommandList, id: u32) {
    list.debug_message_insert(
        gl::DEBUG_SOURCE_APPLICATION,
        gl::DEBUG_TYPE_MARKER,
        id,
        gl::DEBUG_SEVERITY_NOTIFICATION,
        "glcmd test marker",
    );
}

#[test]
fn markers_reach_the_callback() {
    // The observation mechanism itself works (else the drop tests would prove nothing).
    let device = device();
    let markers = install_markers(&device, false);
    let mut list = device.command_list();
    record_marker(&mut list, 7);
    record_marker(&mut list, 8);
    device.submit(list).unwrap();
    device.finish().unwrap();
    assert_eq!(*markers.ids.lock().unwrap(), vec![7, 8]);
}

// ---------------------------------------------------------------------------------------------
// Dropping the device runs everything submitted
// ---------------------------------------------------------------------------------------------

/// Opens the gate of marker 0 from another thread, a moment after the caller has (most likely)
/// entered `drop(device)`: if it had not yet, the test still holds, it only proves less.
fn open_gate_soon(markers: &Arc<Markers>) -> std::thread::JoinHandle<()> {
    let markers = markers.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        markers.open();
    })
}

const LISTS: u32 = 1000;
const THREADS: u32 = 8;

/// One frame of 1000 slots, filled by 8 threads (each its slots in descending order), then
/// every handle dropped while the render thread is still stalled in list 0.
#[test]
fn dropping_the_device_replays_1000_queued_lists_of_one_frame() {
    let markers = with_timeout("drop with 1000 slots", Duration::from_secs(15), || {
        let device = device();
        let markers = install_markers(&device, true);
        let frame = Arc::new(device.begin_frame(LISTS as usize).unwrap());
        let workers: Vec<_> = (0..THREADS)
            .map(|t| {
                let frame = frame.clone();
                std::thread::spawn(move || {
                    let mut slots: Vec<u32> = (t..LISTS).step_by(THREADS as usize).collect();
                    slots.reverse();
                    for slot in slots {
                        let mut list = frame.device().command_list();
                        record_marker(&mut list, slot);
                        frame.submit(slot as usize, list).unwrap();
                    }
                    // The worker's handles (frame and device clone) are dropped here.
                })
            })
            .collect();
        drop(frame);
        for w in workers {
            w.join().unwrap();
        }
        // Held in marker 0: nothing has reached the callback's log yet.
        assert_eq!(markers.ids.lock().unwrap().len(), 0);
        let start = Instant::now();
        let opener = open_gate_soon(&markers);
        drop(device); // the last handle: must replay everything, then return
        eprintln!("the drop took {:?}", start.elapsed());
        opener.join().unwrap();
        markers
    });
    let ids = markers.ids.lock().unwrap();
    assert_eq!(ids.len(), LISTS as usize, "lists replayed before the device was gone");
    assert!(ids.iter().copied().eq(0..LISTS), "lists replayed out of slot order: {:?}", &ids[..20.min(ids.len())]);
}

/// 1000 one-list frames (`Device::submit`) from 8 threads with their own device clones, queued
/// behind a first frame (marker 0) that stalls the render thread.
#[test]
fn dropping_the_device_replays_1000_queued_single_list_frames() {
    let markers = with_timeout("drop with 1000 frames", Duration::from_secs(15), || {
        let device = device();
        let markers = install_markers(&device, true);
        let mut stall = device.command_list();
        record_marker(&mut stall, 0);
        device.submit(stall).unwrap();
        let workers: Vec<_> = (0..THREADS)
            .map(|t| {
                let device = device.clone();
                std::thread::spawn(move || {
                    for id in (1 + t..=LISTS).step_by(THREADS as usize) {
                        let mut list = device.command_list();
                        record_marker(&mut list, id);
                        device.submit(list).unwrap();
                    }
                })
            })
            .collect();
        for w in workers {
            w.join().unwrap();
        }
        assert_eq!(markers.ids.lock().unwrap().len(), 0, "held in marker 0");
        let opener = open_gate_soon(&markers);
        drop(device);
        opener.join().unwrap();
        markers
    });
    let ids = markers.ids.lock().unwrap();
    assert_eq!(ids.first(), Some(&0));
    let mut sorted = ids.clone();
    sorted.sort();
    assert!(sorted.iter().copied().eq(0..=LISTS), "{} markers seen, expected each of 0..={LISTS} once", ids.len());
    // Each thread's frames replay in the order that thread submitted them.
    for t in 0..THREADS {
        let mine: Vec<u32> = ids.iter().copied().filter(|&id| id > 0 && (id - 1) % THREADS == t).collect();
        assert!(mine.windows(2).all(|w| w[0] < w[1]), "thread {t}'s frames replayed out of order");
    }
}

/// A frame dropped with a slot never submitted still runs its other slots, and the device
/// goes on.
#[test]
fn a_frame_dropped_with_a_missing_slot_runs_the_rest() {
    let markers = with_timeout("missing slot", Duration::from_secs(10), || {
        let device = device();
        let markers = install_markers(&device, false);
        let frame = device.begin_frame(3).unwrap();
        for slot in [2, 1] {
            let mut list = device.command_list();
            record_marker(&mut list, slot);
            frame.submit(slot as usize, list).unwrap();
        }
        assert!(matches!(
            frame.submit(2, device.command_list()),
            Err(glcmd::SubmitError { error: Error::SlotTaken { slot: 2 }, .. })
        ));
        assert!(matches!(
            frame.submit(3, device.command_list()),
            Err(glcmd::SubmitError { error: Error::SlotOutOfRange { slot: 3, slots: 3 }, .. })
        ));
        drop(frame); // slot 0 never came
        let mut list = device.command_list();
        record_marker(&mut list, 100);
        device.submit(list).unwrap();
        device.finish().unwrap();
        markers
    });
    assert_eq!(*markers.ids.lock().unwrap(), vec![1, 2, 100]);
}

// ---------------------------------------------------------------------------------------------
// A panic on the render thread
// ---------------------------------------------------------------------------------------------

fn is_lost<T: std::fmt::Debug>(r: &Result<T, Error>) -> bool {
    matches!(r, Err(Error::DeviceLost { .. }))
}

/// Panics inside a `with_gl` closure once `go` fires; returns when the closure has started.
fn inject_panic(device: &Device) -> (mpsc::Sender<()>, std::thread::JoinHandle<Result<(), Error>>) {
    let (running_tx, running_rx) = mpsc::channel();
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let device = device.clone();
    let handle = std::thread::spawn(move || {
        device.with_gl(move |_| {
            running_tx.send(()).unwrap();
            let _ = go_rx.recv_timeout(Duration::from_secs(3));
            panic!("injected");
        })
    });
    running_rx.recv().unwrap();
    (go_tx, handle)
}

/// What a later caller sees, and recording still works, once the render thread is gone.
fn check_after_loss(device: &Device) {
    assert!(is_lost(&device.get_error()), "get_error after the loss");
    assert!(is_lost(&device.create_textures(gl::TEXTURE_2D, 1)), "create after the loss");
    assert!(is_lost(&device.with_gl(|_| ())), "with_gl after the loss");
    assert!(is_lost(&device.begin_frame(1).map(|_| ())), "begin_frame after the loss");
    let mut list = device.command_list();
    for i in 0..1000 {
        list.viewport(0, 0, i, i);
        list.named_framebuffer_draw_buffers(0, &[gl::BACK_LEFT]);
        list.named_buffer_sub_data(1, 0, &[1u8, 2, 3, 4]);
    }
    assert_eq!(list.len(), 3000);
    assert!(is_lost(&device.submit(list).map_err(Error::from)), "submit after the loss");
    let mut list = CommandList::new();
    list.clear(gl::COLOR_BUFFER_BIT);
    assert_eq!(list.len(), 1);
}

/// The panic with nothing else waiting; later calls, made once the render thread has had time
/// to exit, all fail with DeviceLost; recording still works; dropping the device returns.
#[test]
fn panic_on_the_render_thread_fails_later_calls() {
    with_timeout("panic, later calls", Duration::from_secs(10), || {
        let device = device();
        let (go, panicking) = inject_panic(&device);
        go.send(()).unwrap();
        let r = panicking.join().unwrap();
        match &r {
            Err(Error::DeviceLost { reason }) => eprintln!("the panicking call returned DeviceLost: {reason}"),
            other => panic!("the panicking call returned {other:?}"),
        }
        // Give the render thread time to finish unwinding and exit.
        std::thread::sleep(Duration::from_secs(1));
        match device.get_error() {
            Err(Error::DeviceLost { reason }) => {
                assert!(reason.contains("injected"), "the reason does not name the panic: {reason}")
            }
            other => panic!("get_error after the loss returned {other:?}"),
        }
        check_after_loss(&device);
        drop(device);
    });
}

/// A call made immediately after the panicking call returned (the render thread may still be
/// unwinding) must fail too, not hang.
#[test]
fn a_call_right_after_the_panic_does_not_hang() {
    for round in 0..20 {
        with_timeout(&format!("call right after the panic, round {round}"), Duration::from_secs(5), move || {
            let device = device();
            let (go, panicking) = inject_panic(&device);
            go.send(()).unwrap();
            assert!(is_lost(&panicking.join().unwrap()));
            assert!(is_lost(&device.get_error()), "get_error right after the loss");
        });
    }
}

/// Threads blocked in every kind of call when the render thread panics: each call returns
/// DeviceLost within 5 s.
#[test]
fn panic_releases_every_waiting_call() {
    with_timeout("panic, waiting calls", Duration::from_secs(5), || {
        let device = device();
        let (go, panicking) = inject_panic(&device);
        let ready = Arc::new(std::sync::Barrier::new(6));
        let mut waiters: Vec<(&str, std::thread::JoinHandle<Result<String, Error>>)> = Vec::new();
        macro_rules! waiter {
            ($name:literal, |$d:ident| $body:expr) => {{
                let $d = device.clone();
                let ready = ready.clone();
                waiters.push((
                    $name,
                    std::thread::spawn(move || {
                        ready.wait();
                        $body
                    }),
                ));
            }};
        }
        waiter!("query", |d| d.get_integerv(gl::VIEWPORT).map(|v| format!("{v:?}")));
        waiter!("with_gl", |d| d.with_gl(|_| 1).map(|v| format!("{v}")));
        waiter!("create", |d| d.create_textures(gl::TEXTURE_2D, 1).map(|v| format!("{v:?}")));
        waiter!("query behind a frame waiting for slot 0", |d| {
            let frame = d.begin_frame(2)?;
            frame.submit(1, d.command_list())?;
            let r = d.get_error().map(|v| format!("{v:#x}"));
            drop(frame);
            r
        });
        waiter!("submitter", |d| {
            // Fills the channel, then blocks in send, until the device is lost.
            for i in 0..100_000 {
                let mut list = d.command_list();
                list.viewport(0, 0, i, i);
                d.submit(list)?;
            }
            Ok("100000 submits accepted".into())
        });
        ready.wait();
        std::thread::sleep(Duration::from_millis(200)); // let them block
        go.send(()).unwrap();
        assert!(is_lost(&panicking.join().unwrap()));
        let mut failures = Vec::new();
        for (name, h) in waiters {
            match h.join().unwrap() {
                Err(Error::DeviceLost { .. }) => {}
                other => failures.push(format!("{name}: {other:?}")),
            }
        }
        assert!(failures.is_empty(), "calls that did not report DeviceLost: {failures:?}");
        check_after_loss(&device);
    });
}
