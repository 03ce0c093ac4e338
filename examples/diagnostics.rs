//! Diagnostics on purpose: three classic mistakes of deferred GL, each reported against the
//! line of this file that recorded it.
//!
//! ```sh
//! cargo run --example diagnostics
//! ```
//!
//! 1. an invalid enum (`glEnable(0x1234)`), recorded on a worker thread;
//! 2. a use after delete: a buffer deleted in one frame and bound in a later frame (within one
//!    frame that is legal: deletes run at the end of the frame);
//! 3. a draw with no program bound.
//!
//! With diagnostics on, the render thread attributes every KHR_debug message to the packet in
//! flight, and every packet carries the `#[track_caller]` location that recorded it.

use glcmd::{gl, Device, DiagnosticOptions, Options, ReportKind};

fn main() -> Result<(), glcmd::Error> {
    env_logger::init(); // glcmd's warnings go to `log` (and to Device::reports); RUST_LOG=warn shows them
    let options = Options::default().track_sites(true).diagnostics(DiagnosticOptions::all());
    let device = Device::with_options(options)?;
    let vao = device.create_vertex_arrays(1)?[0];
    let buffer = device.create_buffers(1)?[0];
    // A complete framebuffer, so the draw below fails for its own reason only.
    let fbo = device.create_framebuffers(1)?[0];
    let color = device.create_renderbuffers(1)?[0];
    let mut setup = device.command_list();
    setup.named_renderbuffer_storage(color, gl::RGBA8, 16, 16);
    setup.named_framebuffer_renderbuffer(fbo, gl::COLOR_ATTACHMENT0, gl::RENDERBUFFER, color);
    device.submit(setup)?;
    let frame = device.begin_frame(2)?;

    let (enum_line, delete_line) = std::thread::scope(|s| {
        // Slot 0: a worker records an invalid enum.
        let a = s.spawn(|| {
            let mut list = device.command_list();
            list.set_label("worker: state");
            list.enable(gl::DEPTH_TEST);
            list.enable(0x1234); // mistake 1: not a capability
            let line = line!() - 1;
            frame.submit(0, list).expect("submit");
            line
        });
        // Slot 1: fill a buffer, then delete it.
        let b = s.spawn(|| {
            let mut list = device.command_list();
            list.set_label("worker: upload");
            list.named_buffer_data(buffer, 64, Some(&[0u8; 64]), gl::STATIC_DRAW);
            list.delete_buffers(&[buffer]);
            let line = line!() - 1;
            frame.submit(1, list).expect("submit");
            line
        });
        (a.join().expect("worker"), b.join().expect("worker"))
    });
    drop(frame);
    // The next frame uses the deleted buffer, and draws with no program.
    let frame = device.begin_frame(1)?;
    let mut list = device.command_list();
    list.set_label("main: draw");
    list.bind_buffer(gl::ARRAY_BUFFER, buffer); // mistake 2: deleted in the frame before
    let use_line = line!() - 1;
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.bind_vertex_array(vao);
    list.use_program(0);
    list.draw_arrays(gl::TRIANGLES, 0, 3); // mistake 3: no program bound
    let draw_line = line!() - 1;
    frame.submit(0, list)?;
    drop(frame);

    // A query waits for every list submitted before it, so the reports are in.
    device.get_error()?;
    let reports: Vec<_> = device.reports().try_iter().collect();
    println!("{} reports:", reports.len());
    for r in &reports {
        println!("- {r}");
    }
    // Each mistake is reported once, at the line that recorded it. (The bind of the deleted
    // name also raises the GL's own GL_INVALID_OPERATION, a debug message at the same line.)
    let expect = [
        (ReportKind::DebugMessage, enum_line),
        (ReportKind::UseAfterDelete, use_line),
        (ReportKind::Validation, draw_line),
    ];
    for (kind, line) in expect {
        let found: Vec<_> = reports
            .iter()
            .filter(|r| {
                r.kind == kind
                    && r.site.is_some_and(|s| s.file().ends_with("examples/diagnostics.rs") && s.line() == line)
            })
            .collect();
        assert_eq!(found.len(), 1, "one {kind:?} report at line {line} expected");
    }
    for r in &reports {
        let site = r.site.expect("every report has a recording site");
        assert!([enum_line, use_line, draw_line].contains(&site.line()), "unexpected report at {site}: {r}");
    }
    let deleted_at =
        reports.iter().find_map(|r| r.deleted_by.as_ref()).and_then(|(_, site)| *site).expect("delete site");
    assert_eq!(deleted_at.line(), delete_line);
    println!("all {} reports point at the right lines of examples/diagnostics.rs", reports.len());
    Ok(())
}
