//! Recorded fences answered on the caller's side, and list labels as debug groups seen by an
//! application's own KHR_debug callback (chained behind glcmd's).

use std::sync::{Arc, Mutex};

use glcmd::{gl, Device, Error};

#[test]
fn a_recorded_fence_is_answered_by_later_waits_and_queries() {
    let device = Device::headless().unwrap();
    let mut list = device.command_list();
    list.clear_color(0.0, 0.0, 0.0, 1.0);
    let fence = list.fence_sync(gl::SYNC_GPU_COMMANDS_COMPLETE, 0);
    // Before its list replays, the handle names no GL object yet: glIsSync answers false, with no
    // error, as the GL does for a name that is no sync object.
    assert!(!device.is_sync(fence).unwrap());
    device.submit(list).unwrap();

    let status = device.client_wait_sync(fence, gl::SYNC_FLUSH_COMMANDS_BIT, 5_000_000_000).unwrap();
    assert!(status == gl::ALREADY_SIGNALED || status == gl::CONDITION_SATISFIED, "0x{status:X}");
    assert!(device.is_sync(fence).unwrap());
    let (len, values) = device.get_synciv(fence, gl::SYNC_STATUS, 1).unwrap();
    assert_eq!((len, values), (1, vec![gl::SIGNALED as i32]));
    let (_, kind) = device.get_synciv(fence, gl::OBJECT_TYPE, 1).unwrap();
    assert_eq!(kind, vec![gl::SYNC_FENCE as i32]);

    // A recorded delete runs at the end of its frame; the handle then names nothing: glIsSync
    // answers false, other uses are errors.
    let mut list = device.command_list();
    list.delete_sync(fence);
    device.submit(list).unwrap();
    assert!(!device.is_sync(fence).unwrap());
    assert!(
        matches!(device.get_synciv(fence, gl::SYNC_STATUS, 1), Err(Error::UnknownSync { id, .. }) if id == fence.id())
    );
}

#[test]
fn list_labels_reach_the_application_debug_callback_as_debug_groups() {
    let device = Device::headless().unwrap();
    let messages = Arc::new(Mutex::new(Vec::new()));
    let sink = messages.clone();
    device
        .set_debug_callback(move |m| {
            if m.kind == gl::DEBUG_TYPE_PUSH_GROUP || m.kind == gl::DEBUG_TYPE_POP_GROUP {
                sink.lock().unwrap().push((m.kind, m.message.clone()));
            }
        })
        .unwrap();
    let frame = device.begin_frame(2).unwrap();
    for (slot, label) in [(1, "shadow pass"), (0, "gbuffer pass")] {
        let mut list = device.command_list();
        list.set_label(label);
        list.enable(gl::DEPTH_TEST);
        frame.submit(slot, list).unwrap();
    }
    drop(frame);
    device.get_error().unwrap();
    let got = messages.lock().unwrap().clone();
    assert_eq!(
        got,
        vec![
            (gl::DEBUG_TYPE_PUSH_GROUP, "gbuffer pass".to_string()),
            (gl::DEBUG_TYPE_POP_GROUP, "gbuffer pass".to_string()),
            (gl::DEBUG_TYPE_PUSH_GROUP, "shadow pass".to_string()),
            (gl::DEBUG_TYPE_POP_GROUP, "shadow pass".to_string()),
        ]
    );
}
