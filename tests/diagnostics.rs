//! Diagnostics against a real driver: GL errors, uses after delete and stalls are reported with
//! the line and column that recorded them.

use std::time::Duration;

use glcmd::{gl, Device, DiagnosticOptions, Options, Report, ReportKind};

fn device(diagnostics: DiagnosticOptions) -> Device {
    Device::with_options(Options { track_sites: true, diagnostics, ..Default::default() }).expect("headless device")
}

fn drain(device: &Device) -> Vec<Report> {
    // A round trip waits for every earlier list, so their reports are already sent.
    device.get_error().unwrap();
    device.reports().try_iter().collect()
}

#[test]
fn invalid_enum_names_the_recording_line_from_a_worker_in_a_later_list() {
    let device = device(DiagnosticOptions { debug_output: true, ..Default::default() });
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
    let device = device(DiagnosticOptions { strict: true, ..Default::default() });
    let mut list = device.command_list();
    let line = line!() + 1;
    list.blend_func(gl::ONE, 0x9999);
    device.submit(list).unwrap();
    let reports = drain(&device);
    assert_eq!(reports.len(), 1, "{reports:#?}");
    assert_eq!(reports[0].kind, ReportKind::GlError);
    assert_eq!(reports[0].message, "GL_INVALID_ENUM");
    assert_eq!(reports[0].call, "glBlendFunc(GL_ONE, 0x9999)");
    assert_eq!(reports[0].site.unwrap().line(), line);
}

#[test]
fn use_after_delete_names_both_lines() {
    let device = device(DiagnosticOptions { track_deletes: true, ..Default::default() });
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

/// A program whose fragment shader spins `iterations` times per pixel: slow on purpose.
/// (llvmpipe caps any loop at 65535 iterations, so the test multiplies with instances.)
fn slow_program(device: &Device) -> (u32, i32) {
    const VS: &str = "#version 450 core\nvoid main() { vec2 p = vec2((gl_VertexID & 1) * 4 - 1, (gl_VertexID & 2) * 2 - 1); gl_Position = vec4(p, 0, 1); }";
    const FS: &str = "#version 450 core\nuniform int iterations; out vec4 color;\nvoid main() { float x = gl_FragCoord.x; for (int i = 0; i < iterations; i++) { x = fract(x * 1.0001 + 0.1); } color = vec4(x, 0, 0, 1); }";
    let program = device.create_program().unwrap();
    let mut list = device.command_list();
    for (kind, source) in [(gl::VERTEX_SHADER, VS), (gl::FRAGMENT_SHADER, FS)] {
        let shader = device.create_shader(kind).unwrap();
        list.shader_source(shader, &[source]);
        list.compile_shader(shader);
        list.attach_shader(program, shader);
    }
    list.link_program(program);
    device.submit(list).unwrap();
    assert_eq!(
        device.get_programiv(program, gl::LINK_STATUS).unwrap(),
        vec![1],
        "{}",
        device.get_program_info_log(program, 4096).unwrap()
    );
    let location = device.get_uniform_location(program, "iterations").unwrap();
    (program, location)
}

#[test]
fn watchdog_reports_the_command_in_flight() {
    let device = device(DiagnosticOptions { watchdog: Some(Duration::from_millis(100)), ..Default::default() });
    let (program, iterations) = slow_program(&device);
    let fbo = device.create_framebuffers(1).unwrap()[0];
    let rb = device.create_renderbuffers(1).unwrap()[0];
    let vao = device.create_vertex_arrays(1).unwrap()[0];

    let mut list = device.command_list();
    list.set_label("stalling list");
    list.named_renderbuffer_storage(rb, gl::RGBA8, 32, 32);
    list.named_framebuffer_renderbuffer(fbo, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, rb);
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.viewport(0, 0, 32, 32);
    list.use_program(program);
    list.uniform1i(iterations, 60_000);
    list.bind_vertex_array(vao);
    // 40 full-viewport instances x 1024 pixels x 60000 iterations: seconds of llvmpipe time,
    // far longer than the 400 ms wait below.
    list.draw_arrays_instanced(gl::TRIANGLES, 0, 3, 40);
    let sync = list.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
    // Blocks replay until the slow draw finishes or 400 ms pass: the stall under test.
    let line = line!() + 1;
    list.client_wait_sync(sync, gl::SYNC_FLUSH_COMMANDS_BIT, 400_000_000);
    list.delete_sync(sync);
    device.submit(list).unwrap();
    device.get_error().unwrap();
    let stalls: Vec<Report> = device.reports().try_iter().filter(|r| r.kind == ReportKind::Stall).collect();
    assert_eq!(stalls.len(), 1, "{stalls:#?}");
    let r = &stalls[0];
    assert_eq!(r.call, "glClientWaitSync");
    assert_eq!(r.list.as_deref(), Some("stalling list"));
    assert_eq!(r.index, Some(9));
    let site = r.site.unwrap();
    assert!(site.file().ends_with("tests/diagnostics.rs"));
    assert_eq!(site.line(), line);
    // The breadcrumbs end with the commands completed just before the wait.
    assert_eq!(r.breadcrumbs.last().map(|b| b.starts_with("glFenceSync")), Some(true), "{:?}", r.breadcrumbs);
    assert!(r.breadcrumbs.iter().any(|b| b.starts_with("glDrawArraysInstanced")), "{:?}", r.breadcrumbs);
}

#[test]
fn device_lost_error_carries_the_breadcrumbs() {
    let device = device(DiagnosticOptions { debug_output: true, ..Default::default() });
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
