//! Diagnostics against a real driver: GL errors, uses after delete and stalls are reported with
//! the line and column that recorded them.

use std::time::Duration;

use glcmd::{gl, Device, DiagnosticOptions, Options, Report, ReportKind};

fn device(diagnostics: DiagnosticOptions) -> Device {
    Device::with_options(Options::default().track_sites(true).diagnostics(diagnostics)).expect("headless device")
}

fn drain(device: &Device) -> Vec<Report> {
    // A round trip waits for every earlier list, so their reports are already sent.
    device.get_error().unwrap();
    device.reports().try_iter().collect()
}

#[test]
fn invalid_enum_names_the_recording_line_from_a_worker_in_a_later_list() {
    let device = device(DiagnosticOptions::default().debug_output(true));
    let frame = device.begin_frame(3).unwrap();
    let expected = std::thread::scope(|s| {
        for slot in [0, 2] {
            let (device, frame) = (&device, &frame);
            s.spawn(move || {
                let mut list = device.command_list();
                list.set_label(&format!("fine {slot}"));
                list.enable(gl::BLEND);
                list.disable(gl::BLEND);
                frame.submit(slot, list).unwrap();
            });
        }
        s.spawn(|| {
            let mut list = device.command_list();
            list.set_label("worker 1");
            list.enable(gl::DEPTH_TEST);
            let line = line!() + 1;
            list.enable(0x1234);
            list.disable(gl::DEPTH_TEST);
            frame.submit(1, list).unwrap();
            (line, 18)
        })
        .join()
        .unwrap()
    });
    drop(frame);
    let reports = drain(&device);
    let errors: Vec<&Report> = reports.iter().filter(|r| r.kind == ReportKind::DebugMessage).collect();
    assert_eq!(errors.len(), 1, "{reports:#?}");
    let r = errors[0];
    let site = r.site.expect("site");
    assert!(site.file().ends_with("tests/diagnostics.rs"), "{}", site.file());
    assert_eq!((site.line(), site.column()), expected);
    assert_eq!(r.call, "glEnable(0x1234)");
    assert_eq!(r.list.as_deref(), Some("worker 1"));
    assert_eq!(r.index, Some(1));
    assert!(r.message.contains("GL_INVALID_ENUM") || r.message.to_lowercase().contains("enum"), "{}", r.message);
    let text = r.to_string();
    assert!(text.contains(&format!("tests/diagnostics.rs:{}:18", expected.0)), "{text}");
}

#[test]
fn strict_mode_reports_gl_errors_without_debug_output() {
    let device = device(DiagnosticOptions::default().strict(true));
    let mut list = device.command_list();
    let line = line!() + 1;
    list.blend_func(gl::ONE, 0x9999);
    device.submit(list).unwrap();
    // Reporting the error does not clear it: the application's glGetError still sees it (and,
    // a round trip, it waits for the list, whose report is then sent).
    assert_eq!(device.get_error().unwrap(), gl::INVALID_ENUM);
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    let reports: Vec<Report> = device.reports().try_iter().collect();
    assert_eq!(reports.len(), 1, "{reports:#?}");
    assert_eq!(reports[0].kind, ReportKind::GlError);
    assert_eq!(reports[0].message, "GL_INVALID_ENUM");
    assert_eq!(reports[0].call, "glBlendFunc(GL_ONE, 0x9999)");
    assert_eq!(reports[0].site.unwrap().line(), line);
}

#[test]
fn use_after_delete_names_both_lines() {
    let device = device(DiagnosticOptions::default().track_deletes(true));
    let buffer = device.create_buffers(1).unwrap()[0];
    let mut first = device.command_list();
    first.named_buffer_data(buffer, 16, Some(&[0u8; 16]), gl::STATIC_DRAW);
    let delete_line = line!() + 1;
    first.delete_buffers(&[buffer]);
    device.submit(first).unwrap();

    let mut second = device.command_list();
    second.set_label("late user");
    let use_line = line!() + 1;
    second.bind_buffer(gl::ARRAY_BUFFER, buffer);
    device.submit(second).unwrap();

    let reports = drain(&device);
    let uses: Vec<&Report> = reports.iter().filter(|r| r.kind == ReportKind::UseAfterDelete).collect();
    assert_eq!(uses.len(), 1, "{reports:#?}");
    let r = uses[0];
    assert_eq!(r.site.unwrap().line(), use_line);
    let (call, site) = r.deleted_by.clone().unwrap();
    assert_eq!(call, format!("glDeleteBuffers(1, {{{buffer}}})"));
    assert_eq!(site.unwrap().line(), delete_line);
    let text = r.to_string();
    assert!(text.contains(&format!(":{use_line}:")) && text.contains(&format!(":{delete_line}:")), "{text}");

    // A create that hands the name out again makes it live: no report.
    let again = device.create_buffers(1).unwrap()[0];
    let mut third = device.command_list();
    third.bind_buffer(gl::ARRAY_BUFFER, again);
    device.submit(third).unwrap();
    let reports = drain(&device);
    assert!(reports.iter().all(|r| r.kind != ReportKind::UseAfterDelete), "{reports:#?}");
}

/// The watchdog names the command in flight, its list, its recording site and the commands
/// completed before it. The stall is made deterministic, independent of how fast the machine
/// is: the command in flight is a `glDebugMessageInsert`, whose synchronous debug callback
/// blocks until the test has received the watchdog's report. (An earlier version stalled on a
/// slow draw and failed when a loaded machine made an ordinary command slow too.)
#[test]
fn watchdog_reports_the_command_in_flight() {
    let device = device(DiagnosticOptions::default().watchdog(Some(Duration::from_millis(50))));
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let release_rx = std::sync::Mutex::new(release_rx);
    device
        .set_debug_callback(move |m| {
            if m.id == 4242 {
                // Held until the test has seen the report (a minute at most, so a broken
                // watchdog fails the test instead of hanging it).
                let _ = release_rx.lock().unwrap().recv_timeout(Duration::from_secs(60));
            }
        })
        .unwrap();
    let mut list = device.command_list();
    list.set_label("stalling list");
    list.enable(gl::BLEND);
    list.blend_func(gl::ONE, gl::ONE);
    let line = line!() + 1;
    list.debug_message_insert(
        gl::DEBUG_SOURCE_APPLICATION,
        gl::DEBUG_TYPE_MARKER,
        4242,
        gl::DEBUG_SEVERITY_NOTIFICATION,
        "hold",
    );
    list.disable(gl::BLEND);
    device.submit(list).unwrap();
    let reports = device.reports();
    let stall = loop {
        let r = reports.recv_timeout(Duration::from_secs(60)).expect("the watchdog reports the stall");
        if r.kind == ReportKind::Stall && r.call == "glDebugMessageInsert" {
            break r;
        }
    };
    release_tx.send(()).unwrap();
    device.get_error().unwrap();
    assert_eq!(stall.list.as_deref(), Some("stalling list"));
    assert_eq!(stall.index, Some(2));
    let site = stall.site.unwrap();
    assert!(site.file().ends_with("tests/diagnostics.rs"));
    assert_eq!(site.line(), line);
    // The breadcrumbs end with the commands completed just before.
    assert_eq!(stall.breadcrumbs.last().map(|b| b.starts_with("glBlendFunc")), Some(true), "{:?}", stall.breadcrumbs);
    assert!(stall.breadcrumbs.iter().any(|b| b.starts_with("glEnable")), "{:?}", stall.breadcrumbs);
    // One stall is reported once.
    let more = reports.try_iter().filter(|r| r.kind == ReportKind::Stall && r.call == "glDebugMessageInsert").count();
    assert_eq!(more, 0);
}

#[test]
fn device_lost_error_carries_the_breadcrumbs() {
    let device = device(DiagnosticOptions::default().debug_output(true));
    let mut list = device.command_list();
    list.set_label("before the crash");
    list.enable(gl::BLEND);
    list.blend_func(gl::ONE, gl::ONE);
    device.submit(list).unwrap();
    device.get_error().unwrap();
    let lost = device.with_gl(|_| panic!("injected for the test"));
    let reason = match lost {
        Err(glcmd::Error::DeviceLost { reason }) => reason,
        other => panic!("expected DeviceLost, got {other:?}"),
    };
    assert!(reason.contains("injected for the test"), "{reason}");
    assert!(reason.contains("last completed: glEnable (") && reason.contains("glBlendFunc ("), "{reason}");
    assert!(reason.contains("tests/diagnostics.rs"), "{reason}");
    assert!(matches!(device.get_error(), Err(glcmd::Error::DeviceLost { .. })));
}

/// Issue 30, item 7 (b): `glGetPointerv(GL_DEBUG_CALLBACK_FUNCTION / _USER_PARAM)` answers what
/// the program gave, never glcmd's own trampoline and context: NULL before any callback, with
/// glcmd's diagnostics' own callback installed, and for a Rust closure (no C function); the
/// function and pointer a C program passed (`set_program_debug_callback`, the C ABI's path).
#[test]
fn the_debug_callback_pointers_are_the_programs() {
    for options in [DiagnosticOptions::default(), DiagnosticOptions::default().debug_output(true)] {
        let device = device(options);
        let pointers = |device: &Device| {
            (
                device.get_pointerv(gl::DEBUG_CALLBACK_FUNCTION).unwrap(),
                device.get_pointerv(gl::DEBUG_CALLBACK_USER_PARAM).unwrap(),
            )
        };
        assert_eq!(pointers(&device), (0, 0));
        device.set_debug_callback(|_| {}).unwrap();
        assert_eq!(pointers(&device), (0, 0), "a closure is no C function");
        // glcmd calls the closure, never `function` itself: any value is safe here.
        device.set_program_debug_callback(0x1000, 0x2000, |_| {}).unwrap();
        assert_eq!(pointers(&device), (0x1000, 0x2000));
        assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    }
}
