//! Every way a call could wait for ever (issue 9) ends in an answer or a typed error. Each test
//! runs its scenario under `with_timeout` with a generous limit: the waits are bounded by
//! glcmd's own rules (an error at once, or `Options::wait_limit`), never by the machine's speed.
//! At commit 1d3b607 each of these hung.

mod common;

use std::time::{Duration, Instant};

use common::*;
use glcmd::{gl, Device, DiagnosticOptions, Error, Options, ReportKind};

const LIMIT: Duration = Duration::from_secs(120);

fn device_with_limit(wait_limit: Duration) -> Device {
    Device::with_options(Options::default().wait_limit(wait_limit)).unwrap()
}

#[test]
fn a_query_from_the_thread_that_claimed_a_lower_slot_fails_at_once() {
    with_timeout("claimed slot", LIMIT, || {
        let device = device();
        let frame = device.begin_frame(2).unwrap();
        std::thread::scope(|s| {
            let (device, frame) = (&device, &frame);
            // Slot 0's worker claims its slot, then (before submitting) makes a query.
            let mine = frame.list(0).unwrap();
            s.spawn(move || frame.submit(1, device.command_list()).unwrap()).join().unwrap();
            let start = Instant::now();
            let r = device.get_error();
            match r {
                Err(Error::WouldDeadlock { frame: f, slot: 0, .. }) => assert_eq!(f, frame.number()),
                other => panic!("expected WouldDeadlock for slot 0, got {other:?}"),
            }
            assert!(start.elapsed() < Duration::from_secs(30), "answered at once, not after a wait");
            frame.submit(0, mine).unwrap();
        });
        drop(frame);
        assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    });
}

#[test]
fn a_query_blocked_on_another_threads_slot_times_out_and_is_reported() {
    with_timeout("unclaimed slot", LIMIT, || {
        let device = Device::with_options(
            Options::default()
                .wait_limit(Duration::from_millis(500))
                .diagnostics(DiagnosticOptions::default().watchdog(Some(Duration::from_millis(100)))),
        )
        .unwrap();
        let frame = device.begin_frame(2).unwrap();
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        std::thread::scope(|s| {
            let (device, frame) = (&device, &frame);
            // One worker will submit slot 0, but only after the query has given up.
            let worker = s.spawn(move || {
                let list = device.command_list();
                let _ = done_rx.recv_timeout(LIMIT);
                frame.submit(0, list).unwrap();
            });
            // Another submits slot 1 and queries: the query waits for slot 0, which depends on
            // the first worker (neither claimed nor in a frame this thread holds).
            let r = s
                .spawn(move || {
                    frame.submit(1, device.command_list()).unwrap();
                    device.get_error()
                })
                .join()
                .unwrap();
            done_tx.send(()).unwrap();
            worker.join().unwrap();
            assert!(matches!(r, Err(Error::Blocked { slot: 0, .. })), "{r:?}");
        });
        drop(frame);
        assert_eq!(device.get_error().unwrap(), gl::NO_ERROR, "nothing was lost: slot 0 ran");
        let stalls: Vec<_> = device.reports().try_iter().filter(|r| r.kind == ReportKind::Stall).collect();
        assert!(!stalls.is_empty(), "the watchdog reported the blocked round trip");
        assert!(stalls[0].message.contains("slot 0") && stalls[0].call.contains("glGetError"), "{}", stalls[0]);
    });
}

/// `wait_frames` right after submitting a held frame's last slot: the render thread may not
/// have seen the submit yet, and the wait must not call that a deadlock. Timing decides the
/// race; 200 frames make a wrong check fail on any machine.
#[test]
fn wait_frames_right_after_the_last_submit_of_a_held_frame_waits() {
    with_timeout("wait after submit", LIMIT, || {
        let device = device();
        for round in 0..200u64 {
            let frame = device.begin_frame(2).unwrap();
            frame.submit(1, device.command_list()).unwrap();
            frame.submit(0, device.command_list()).unwrap();
            let r = device.wait_frames(round + 1);
            assert!(matches!(r, Ok(ref s) if s.frames == round + 1), "round {round}: {r:?}");
            drop(frame);
        }
    });
}

#[test]
fn a_query_while_this_thread_holds_an_earlier_frame_open_fails_at_once() {
    with_timeout("open frame", LIMIT, || {
        let device = device();
        let first = device.begin_frame(2).unwrap();
        first.submit(0, device.command_list()).unwrap();
        let second = device.begin_frame(1).unwrap();
        second.submit(0, device.command_list()).unwrap();
        drop(second);
        let r = device.get_error();
        assert!(matches!(r, Err(Error::WouldDeadlock { slot: 1, .. })), "{r:?}");
        let r = device.wait_frames(2);
        assert!(matches!(r, Err(Error::WouldDeadlock { .. })), "{r:?}");
        drop(first);
        assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
        assert_eq!(device.wait_frames(2).unwrap().frames, 2);
    });
}

#[test]
fn a_forgotten_frame_is_given_up_after_the_wait_limit() {
    with_timeout("forgotten frame", LIMIT, || {
        let device = device_with_limit(Duration::from_millis(300));
        let fbo = device_fbo_rgba8(&device, 2, 2);
        let frame = device.begin_frame(2).unwrap();
        frame.submit(0, device.command_list()).unwrap();
        std::mem::forget(frame);
        let mut list = device.command_list();
        list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
        list.clear_color(0.0, 1.0, 0.0, 1.0);
        list.clear(gl::COLOR_BUFFER_BIT);
        device.submit(list).unwrap();
        // This thread began the leaked frame: its waits fail at once, naming the frame...
        let r = device.get_error();
        assert!(matches!(r, Err(Error::WouldDeadlock { frame: 1, slot: 1, .. })), "{r:?}");
        // ...and another thread's wait ends when the frame is given up, with every later frame.
        let d = device.clone();
        let pixel = std::thread::spawn(move || device_read_rgba8(&d, fbo, 1, 1)).join().unwrap();
        assert_eq!(pixel, vec![0, 255, 0, 255]);
        let abandoned: Vec<_> = device.reports().try_iter().filter(|r| r.kind == ReportKind::AbandonedFrame).collect();
        assert_eq!(abandoned.len(), 1, "{abandoned:#?}");
        assert!(abandoned[0].message.contains("frame 1") && abandoned[0].message.contains("[1]"), "{}", abandoned[0]);
        // Once it is given up, this thread waits no more for it either.
        assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    });
}

#[test]
fn a_refused_frame_takes_no_frame_number() {
    with_timeout("refused frame", LIMIT, || {
        let device = device();
        assert!(matches!(device.begin_frame(1 << 32), Err(Error::TooManySlots { .. })));
        let frame = device.begin_frame(1).unwrap();
        assert_eq!(frame.number(), 0);
        frame.submit(0, device.command_list()).unwrap();
        drop(frame);
        assert_eq!(device.wait_frames(1).unwrap().frames, 1);
    });
}

/// `wait_frames` for a frame nobody has begun (a frame count read after the render thread had
/// already ended the frame, say) ends after the wait limit with an error naming the frame, and
/// a stall that has cleared is not reported in its place.
#[test]
fn waiting_for_a_frame_nobody_begins_ends_with_an_error() {
    with_timeout("wait_frames", LIMIT, || {
        let device = device_with_limit(Duration::from_millis(300));
        // A frame whose last slot comes late, so the render thread waits for it a while.
        let frame = device.begin_frame(2).unwrap();
        frame.submit(0, device.command_list()).unwrap();
        std::thread::sleep(Duration::from_millis(50));
        frame.submit(1, device.command_list()).unwrap();
        drop(frame);
        let ended = device.wait_frames(1).unwrap().frames;
        assert_eq!(ended, 1);
        let start = std::time::Instant::now();
        let r = device.wait_frames(ended + 1);
        match r {
            Err(Error::Blocked { what, frame: 1, .. }) => {
                assert!(what.contains("frame 1 has not been begun"), "{what}")
            }
            other => panic!("{other:?}"),
        }
        assert!(start.elapsed() >= Duration::from_millis(300));
    });
}

#[test]
fn waits_on_the_render_thread_fail_at_once() {
    with_timeout("render thread", LIMIT, || {
        let device = device();
        let d = device.clone();
        let r = device.with_gl(move |_| d.wait_frames(1).map(|_| ())).unwrap();
        assert!(matches!(r, Err(Error::OnRenderThread { what: "wait_frames" })), "{r:?}");
        // The same from a `post`, whose closure runs on the render thread with nobody waiting.
        let (tx, rx) = std::sync::mpsc::channel();
        let d = device.clone();
        device.post(move |_| tx.send(d.wait_frames(1).map(|_| ())).unwrap()).unwrap();
        let r = rx.recv_timeout(Duration::from_secs(60)).unwrap();
        assert!(matches!(r, Err(Error::OnRenderThread { what: "wait_frames" })), "{r:?}");
    });
}

#[test]
fn thousands_of_messages_from_the_render_thread_do_not_block_it() {
    with_timeout("render thread messages", LIMIT, || {
        let device = device();
        let counter = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (d, c) = (device.clone(), counter.clone());
        device
            .with_gl(move |_| {
                for _ in 0..10_000 {
                    let c = c.clone();
                    d.post(move |_| {
                        c.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    })
                    .unwrap();
                }
                for _ in 0..5_000 {
                    d.submit(d.command_list()).unwrap();
                }
            })
            .unwrap();
        device.get_error().unwrap();
        assert_eq!(counter.load(std::sync::atomic::Ordering::SeqCst), 10_000);
    });
}

#[test]
fn submit_while_a_frame_is_open_says_when_the_list_runs() {
    with_timeout("submit during frame", LIMIT, || {
        let device = device();
        let frame = device.begin_frame(1).unwrap();
        device.submit(device.command_list()).unwrap();
        device.submit(device.command_list()).unwrap();
        let reports: Vec<_> = device.reports().try_iter().filter(|r| r.kind == ReportKind::Submission).collect();
        assert_eq!(reports.len(), 1, "once per open frame: {reports:#?}");
        assert!(reports[0].message.contains("replays after frame 0"), "{}", reports[0]);
        frame.submit(0, device.command_list()).unwrap();
        drop(frame);
        device.get_error().unwrap();
    });
}

/// Warnings are reports, not only log lines (issue 11, item 5): a frame dropped with a slot
/// unsubmitted says which slot, on `device.reports()`, with no logger installed; a slot
/// submitted twice is refused at once with `SlotTaken`, and the first list stays.
#[test]
fn a_slot_never_submitted_is_a_report_and_a_second_submit_an_error() {
    with_timeout("never submitted", LIMIT, || {
        let device = device();
        let frame = device.begin_frame(3).unwrap();
        let n = frame.number();
        let mut list = device.command_list();
        list.clear_color(0.25, 0.5, 0.75, 1.0);
        frame.submit(0, list).unwrap();
        let r = frame.submit(0, device.command_list());
        assert!(matches!(r, Err(glcmd::SubmitError { error: Error::SlotTaken { slot: 0, .. }, .. })), "{r:?}");
        frame.submit(2, device.command_list()).unwrap();
        drop(frame);
        device.wait_frames(n + 1).unwrap();
        let reports: Vec<_> = device.reports().try_iter().filter(|r| r.kind == ReportKind::Submission).collect();
        assert_eq!(reports.len(), 1, "{reports:#?}");
        assert!(reports[0].message.contains(&format!("frame {n}: slot 1 was never submitted")), "{}", reports[0]);
        // The first list of slot 0 replayed: its clear colour is the GL state now.
        let mut color = [0.0f32; 4];
        color.copy_from_slice(&device.get_floatv(gl::COLOR_CLEAR_VALUE).unwrap());
        assert_eq!(color, [0.25, 0.5, 0.75, 1.0]);
    });
}
