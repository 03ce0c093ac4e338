//! Re-entry into glcmd from the application's debug callback (issue 16, item 10).
//!
//! The callback runs on the render thread, inside the GL call that raised the message, during a
//! list's replay. Every way it can call back into glcmd is made here from inside a callback
//! triggered by a real GL error (`glEnable(0x1234)`, `GL_INVALID_ENUM`, replayed from a list
//! with debug output on), and each is either served (the test checks the value) or refused with
//! a typed error (the test checks the variant). After each, the device must still answer a
//! query: no re-entry may panic the render thread, deadlock or recurse.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use glcmd::diagnostics::DebugMessage;
use glcmd::{gl, Device, DiagnosticOptions, Error, Options};

/// Guards a receive against a broken build hanging the test; never a timing assumption.
const HANG: Duration = Duration::from_secs(60);

/// A device with attributed debug output (replay goes through the diagnostics' path).
fn device() -> Device {
    Device::with_options(
        Options::default().track_sites(true).diagnostics(DiagnosticOptions::default().debug_output(true)),
    )
    .expect("headless device")
}

/// Submits a list whose replay raises `GL_INVALID_ENUM` after enabling `GL_BLEND` (so a query
/// from the callback sees the list's state as it is mid-replay).
fn raise_gl_error(device: &Device) {
    let mut list = device.command_list();
    list.set_label("raises");
    list.enable(gl::BLEND);
    list.enable(0x1234);
    device.submit(list).unwrap();
}

/// Runs `body` once, inside the debug callback of the first GL error, and returns its value.
/// The callback's clone of the device is dropped inside the callback right after `body`.
fn from_callback<T: Send + 'static>(device: &Device, body: impl FnOnce(&Device) -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let once = Mutex::new(Some((device.clone(), body, tx)));
    device
        .set_debug_callback(move |m| {
            if m.kind != gl::DEBUG_TYPE_ERROR {
                return;
            }
            if let Some((d, body, tx)) = once.lock().unwrap().take() {
                let _ = tx.send(body(&d));
            }
        })
        .unwrap();
    raise_gl_error(device);
    rx.recv_timeout(HANG).expect("the callback ran and returned")
}

/// The device still serves round trips, and the error that triggered the callback was raised.
fn assert_alive(device: &Device) {
    assert_eq!(device.get_integerv(gl::VIEWPORT).unwrap().len(), 4, "the device answers a query");
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    assert!(device.is_texture(texture).unwrap(), "the device creates");
}

/// A callback that counts the messages it gets into `count`.
fn counter(count: &Arc<AtomicUsize>) -> impl Fn(&DebugMessage) + Send + 'static {
    let count = count.clone();
    move |m: &DebugMessage| {
        if m.kind == gl::DEBUG_TYPE_ERROR {
            count.fetch_add(1, Ordering::SeqCst);
        }
    }
}

// ---- Device::set_debug_callback -------------------------------------------------------------

#[test]
fn a_callback_that_replaces_itself_is_replaced_for_the_next_message_of_the_same_list() {
    let device = device();
    let first = Arc::new(AtomicUsize::new(0));
    let second = Arc::new(AtomicUsize::new(0));
    let (f, s, d) = (first.clone(), second.clone(), Mutex::new(Some(device.clone())));
    let (tx, rx) = mpsc::channel();
    device
        .set_debug_callback(move |m| {
            if m.kind != gl::DEBUG_TYPE_ERROR {
                return;
            }
            f.fetch_add(1, Ordering::SeqCst);
            // Replaces the running callback (and drops its own device clone afterwards).
            if let Some(d) = d.lock().unwrap().take() {
                let _ = tx.send(d.set_debug_callback(counter(&s)).map_err(|e| e.to_string()));
            }
        })
        .unwrap();
    let mut list = device.command_list();
    list.enable(0x1234);
    list.enable(0x1235);
    device.submit(list).unwrap();
    assert_eq!(rx.recv_timeout(HANG).unwrap(), Ok(()), "served");
    device.get_error().unwrap();
    assert_eq!(first.load(Ordering::SeqCst), 1, "the replaced callback got the first message only");
    assert_eq!(second.load(Ordering::SeqCst), 1, "its replacement got the second");
    // And later lists.
    raise_gl_error(&device);
    device.get_error().unwrap();
    assert_eq!((first.load(Ordering::SeqCst), second.load(Ordering::SeqCst)), (1, 2));
    assert_alive(&device);
}

#[test]
fn a_callback_that_clears_itself_gets_no_later_message() {
    let device = device();
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let cleared = from_callback(&device, move |d| {
        c.fetch_add(1, Ordering::SeqCst);
        d.set_debug_callback(|_| {})
    });
    assert!(cleared.is_ok(), "{cleared:?}");
    raise_gl_error(&device);
    device.get_error().unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_alive(&device);
}

#[test]
fn a_callback_triggered_by_a_round_trip_can_replace_itself() {
    let device = device();
    let after = Arc::new(AtomicUsize::new(0));
    let (a, d) = (after.clone(), Mutex::new(Some(device.clone())));
    let (tx, rx) = mpsc::channel();
    device
        .set_debug_callback(move |_| {
            if let Some(d) = d.lock().unwrap().take() {
                let _ = tx.send(d.set_debug_callback(counter(&a)).is_ok());
            }
        })
        .unwrap();
    // The error is raised inside the query's round trip, not a replay.
    let _ = device.get_tex_parameteriv(0xBAD, gl::TEXTURE_MIN_FILTER);
    assert!(rx.recv_timeout(HANG).unwrap(), "served");
    raise_gl_error(&device);
    device.get_error().unwrap();
    assert_eq!(after.load(Ordering::SeqCst), 1);
    assert_alive(&device);
}

// ---- Round trips: queries, creates, with_gl -------------------------------------------------

#[test]
fn a_query_from_the_callback_is_served_with_the_state_as_it_is_mid_replay() {
    let device = device();
    let blend = from_callback(&device, |d| d.is_enabled(gl::BLEND).map_err(|e| e.to_string()));
    assert_eq!(blend, Ok(true), "the list enabled GL_BLEND before the failing command");
    assert_alive(&device);
}

#[test]
fn a_failing_query_from_the_callback_returns_its_error_and_does_not_recurse() {
    let device = device();
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let answer = from_callback(&device, move |d| {
        c.fetch_add(1, Ordering::SeqCst);
        // Raises GL_INVALID_ENUM inside the callback: not delivered again.
        d.get_tex_parameteriv(0xBAD, gl::TEXTURE_MIN_FILTER).map_err(|e| e.to_string())
    });
    assert!(answer.is_ok(), "the GL answered (with its error flag set): {answer:?}");
    device.get_error().unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_alive(&device);
}

#[test]
fn a_create_from_the_callback_is_served() {
    let device = device();
    let created = from_callback(&device, |d| d.create_textures(gl::TEXTURE_2D, 2).map_err(|e| e.to_string()));
    let names = created.expect("served");
    assert_eq!(names.len(), 2);
    for name in names {
        assert!(device.is_texture(name).unwrap(), "texture {name} exists");
    }
    let buffer = from_callback(&device, |d| d.create_buffers(1).map_err(|e| e.to_string())).expect("served")[0];
    assert!(device.is_buffer(buffer).unwrap());
    assert_alive(&device);
}

#[test]
fn with_gl_from_the_callback_is_served() {
    let device = device();
    let blend = from_callback(&device, |d| {
        d.with_gl(|g| {
            // SAFETY: glIsEnabled with a valid capability, on the render thread.
            unsafe { (g.IsEnabled)(gl::BLEND) }
        })
        .map_err(|e| e.to_string())
    });
    assert_eq!(blend, Ok(gl::TRUE as u8));
    assert_alive(&device);
}

#[test]
fn a_program_lookup_that_would_wait_for_a_later_link_is_on_render_thread() {
    let device = device();
    let program = device.create_program().unwrap();
    let (tx, rx) = mpsc::channel();
    let once = Mutex::new(Some((device.clone(), tx)));
    device
        .set_debug_callback(move |_| {
            if let Some((d, tx)) = once.lock().unwrap().take() {
                let _ = tx.send(d.get_programi(program, gl::LINK_STATUS));
            }
        })
        .unwrap();
    let mut list = device.command_list();
    list.enable(0x1234);
    // Replays after the callback: a lookup waiting for it would wait for the render thread.
    list.link_program(program);
    device.submit(list).unwrap();
    let answer = rx.recv_timeout(HANG).unwrap();
    assert!(matches!(answer, Err(Error::OnRenderThread { .. })), "{answer:?}");
    assert_eq!(device.get_programi(program, gl::LINK_STATUS).unwrap(), 0, "no shaders: the link failed");
    assert_alive(&device);
}

// ---- Submission and waits -------------------------------------------------------------------

#[test]
fn a_submit_from_the_callback_is_replayed_after_the_current_frame() {
    let device = device();
    let submitted = from_callback(&device, |d| {
        let mut list = d.command_list();
        list.clear_color(0.25, 0.5, 0.75, 1.0);
        d.submit(list).map_err(|e| e.to_string())
    });
    assert_eq!(submitted, Ok(()));
    // Sent after the callback's submit was numbered: its barrier includes it.
    assert_eq!(device.get_floatv(gl::COLOR_CLEAR_VALUE).unwrap(), vec![0.25, 0.5, 0.75, 1.0]);
    assert_alive(&device);
}

#[test]
fn a_frame_begun_in_the_callback_is_served() {
    let device = device();
    let submitted = from_callback(&device, |d| {
        let frame = d.begin_frame(2).map_err(|e| e.to_string())?;
        // Submitted out of order: slot 1's colour must still be the one left.
        for (slot, green) in [(1, 1.0), (0, 0.5)] {
            let mut list = d.command_list();
            list.clear_color(0.0, green, 0.0, 1.0);
            frame.submit(slot, list).map_err(|e| e.to_string())?;
        }
        Ok::<_, String>(())
    });
    assert_eq!(submitted, Ok(()));
    assert_eq!(device.get_floatv(gl::COLOR_CLEAR_VALUE).unwrap(), vec![0.0, 1.0, 0.0, 1.0], "slot 1 ran last");
    assert_alive(&device);
}

#[test]
fn wait_frames_from_the_callback_is_on_render_thread() {
    let device = device();
    let waited = from_callback(&device, |d| d.wait_frames(1_000).map(|_| ()));
    assert!(matches!(waited, Err(Error::OnRenderThread { what: "wait_frames" })), "{waited:?}");
    assert_alive(&device);
}

#[test]
fn a_post_from_the_callback_runs_later() {
    let device = device();
    let (ran_tx, ran_rx) = mpsc::channel();
    let posted = from_callback(&device, move |d| {
        d.post(move |g| {
            // SAFETY: glIsEnabled with a valid capability, on the render thread.
            let _ = ran_tx.send(unsafe { (g.IsEnabled)(gl::BLEND) });
        })
        .map_err(|e| e.to_string())
    });
    assert_eq!(posted, Ok(()));
    assert_eq!(ran_rx.recv_timeout(HANG).unwrap(), gl::TRUE as u8, "the posted closure ran");
    assert_alive(&device);
}

// ---- Dropping handles -----------------------------------------------------------------------

#[test]
fn dropping_a_clone_in_the_callback_is_harmless() {
    let device = device();
    let dropped = from_callback(&device, |d| {
        drop(d.clone());
        d.is_enabled(gl::BLEND).map_err(|e| e.to_string())
    });
    assert_eq!(dropped, Ok(true));
    assert_alive(&device);
}

#[test]
fn dropping_the_last_handle_in_the_callback_shuts_the_device_down() {
    let device = device();
    let reports = device.reports();
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let (done_tx, done_rx) = mpsc::channel();
    let last = Mutex::new(Some((device.clone(), go_rx)));
    device
        .set_debug_callback(move |_| {
            if let Some((d, go)) = last.lock().unwrap().take() {
                // Held until the test has dropped its own handle: this drop is of the last
                // handle, on the render thread.
                let _ = go.recv_timeout(HANG);
                drop(d);
                let _ = done_tx.send(());
            }
        })
        .unwrap();
    let mut list = device.command_list();
    list.enable(0x1234);
    device.submit(list).unwrap();
    drop(device);
    go_tx.send(()).unwrap();
    done_rx.recv_timeout(HANG).expect("the callback dropped the last handle");
    // The render thread exits after draining: its report sender goes and the receiver ends.
    loop {
        match reports.recv_timeout(HANG) {
            Ok(_) => continue,
            Err(e) => {
                assert_eq!(e, glcmd::ReportWait::Closed, "the render thread shut down");
                break;
            }
        }
    }
}

// ---- Without attributed debug output -------------------------------------------------------

#[test]
fn re_entry_works_with_debug_output_off_too() {
    let device = Device::headless().unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    let answer = from_callback(&device, move |d| {
        c.fetch_add(1, Ordering::SeqCst);
        let blend = d.is_enabled(gl::BLEND).map_err(|e| e.to_string());
        let replaced = d.set_debug_callback(|_| {}).map_err(|e| e.to_string());
        (blend, replaced, d.wait_frames(1_000).is_err())
    });
    assert_eq!(answer, (Ok(true), Ok(()), true));
    raise_gl_error(&device);
    device.get_error().unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_alive(&device);
}
