//! The watchdog and the breadcrumbs (issue 20, item 1): a device with a watchdog drops at once,
//! whatever the watchdog's limit, and the breadcrumbs name recording sites also when only part
//! of a list tracked them.

mod common;

use std::time::Duration;

use glcmd::{gl, Device, DiagnosticOptions, Options};

/// The watchdog thread looks every eighth of its limit: 75 s here. It used to sleep through
/// its tick and the device's drop waited for it; now the drop wakes it. The bound (60 s) is
/// below the tick, so a drop that waits for the tick fails, and far above any drop that does
/// not, however loaded the machine.
#[test]
fn a_device_with_a_long_watchdog_drops_at_once() {
    let device = Device::with_options(
        Options::default().diagnostics(DiagnosticOptions::default().watchdog(Some(Duration::from_secs(600)))),
    )
    .expect("headless device");
    let mut list = device.command_list();
    list.enable(gl::BLEND);
    list.blend_func(gl::ONE, gl::ONE);
    device.submit(list).unwrap();
    // The list replayed under the watchdog, without error.
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    let blend = device.with_gl(|g| unsafe { (g.IsEnabled)(gl::BLEND) }).unwrap();
    assert_eq!(blend, gl::TRUE as u8);
    let dropped = common::with_timeout("drop a device with a 600 s watchdog", Duration::from_secs(60), move || {
        drop(device);
        true
    });
    assert!(dropped);
}

/// Sites tracked from the middle of a list on: the breadcrumbs (here, in a device-lost error)
/// give the site of each later command and no site for the earlier ones.
#[test]
fn breadcrumbs_name_the_sites_tracked_from_the_middle_of_a_list() {
    let device = Device::with_options(Options::default().diagnostics(DiagnosticOptions::default().debug_output(true)))
        .expect("headless device");
    let mut list = device.command_list();
    list.track_sites(false);
    list.enable(gl::BLEND);
    list.track_sites(true);
    let line = line!() + 1;
    list.blend_func(gl::ONE, gl::ONE);
    list.disable(gl::BLEND);
    device.submit(list).unwrap();
    device.get_error().unwrap();
    let reason = match device.with_gl(|_| panic!("injected for the test")) {
        Err(glcmd::Error::DeviceLost { reason }) => reason,
        other => panic!("expected DeviceLost, got {other:?}"),
    };
    let blend_func = format!("glBlendFunc ({}:{line}:", file!());
    let disable = format!("glDisable ({}:{}:", file!(), line + 1);
    assert!(reason.contains("last completed: glEnable (<unknown site>) <- "), "{reason}");
    assert!(reason.contains(&format!("<- {blend_func}")), "{reason}");
    assert!(reason.contains(&format!("<- {disable}")), "{reason}");
}
