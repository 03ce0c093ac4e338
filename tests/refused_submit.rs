//! A refused submit gives its list back (issue 16, item 11): `Frame::submit` and
//! `Device::submit` return a `SubmitError` holding the list, unchanged, for every refusal (a
//! slot out of range, a slot taken, a claim for another slot, a frame that has ended, a lost
//! device). The list that comes back has the same commands (its dump is the same text) and
//! submitted again it replays: its deferred deletes run at the end of the frame it replays in.
//! `?` still converts the error into `glcmd::Error`.

mod common;

use std::time::Duration;

use common::*;
use glcmd::{gl, CommandList, Device, Error, Options, ReportKind, SubmitError};

/// A list that draws nothing but sets state and deletes `texture` (a deferred delete).
fn list_deleting(device: &Device, texture: u32) -> CommandList {
    let mut list = device.command_list();
    list.set_label("refused");
    list.clear_color(0.25, 0.5, 0.75, 1.0);
    list.viewport(1, 2, 3, 4);
    list.delete_textures(&[texture]);
    list
}

/// The refused list is the list that was handed in: same label, same commands.
fn check_intact(refused: SubmitError, before: &str) -> CommandList {
    eprintln!("refused: {refused}");
    let list = refused.into_list();
    assert_eq!(list.to_string(), before, "the list came back with the same commands");
    assert_eq!(list.len(), 3);
    assert_eq!(list.label(), Some("refused"));
    list
}

/// Submitted again as a frame of its own, the list replays and its delete runs.
fn resubmit_and_check(device: &Device, list: CommandList, texture: u32) {
    assert!(device.is_texture(texture).unwrap(), "the refused list's delete did not run");
    device.submit(list).unwrap();
    device.finish().unwrap();
    assert!(!device.is_texture(texture).unwrap(), "the delete recorded in the refused list ran");
    assert_eq!(device.get_integerv(gl::VIEWPORT).unwrap(), vec![1, 2, 3, 4]);
}

#[test]
fn a_slot_out_of_range_gives_the_list_back() {
    let device = device();
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let list = list_deleting(&device, texture);
    let text = list.to_string();
    let frame = device.begin_frame(2).unwrap();
    let refused = frame.submit(2, list).unwrap_err();
    assert!(matches!(refused.error, Error::SlotOutOfRange { slot: 2, slots: 2 }), "{refused}");
    let list = check_intact(refused, &text);
    frame.submit(0, device.command_list()).unwrap();
    frame.submit(1, list).unwrap();
    drop(frame);
    device.finish().unwrap();
    assert!(!device.is_texture(texture).unwrap(), "the delete ran when the list was submitted again");
}

#[test]
fn a_slot_taken_gives_the_list_back() {
    let device = device();
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let list = list_deleting(&device, texture);
    let text = list.to_string();
    let frame = device.begin_frame(1).unwrap();
    frame.submit(0, device.command_list()).unwrap();
    let refused = frame.submit(0, list).unwrap_err();
    assert!(matches!(refused.error, Error::SlotTaken { slot: 0 }), "{refused}");
    let list = check_intact(refused, &text);
    drop(frame);
    resubmit_and_check(&device, list, texture);
}

#[test]
fn a_claim_for_another_slot_gives_the_list_back() {
    let device = device();
    let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
    let frame = device.begin_frame(2).unwrap();
    let mut list = frame.list(0).unwrap();
    list.set_label("refused");
    list.clear_color(0.25, 0.5, 0.75, 1.0);
    list.viewport(1, 2, 3, 4);
    list.delete_textures(&[texture]);
    let text = list.to_string();
    let refused = frame.submit(1, list).unwrap_err();
    assert!(matches!(refused.error, Error::ClaimMismatch { claimed: 0, slot: 1, .. }), "{refused}");
    let list = check_intact(refused, &text);
    // Its own slot takes it.
    frame.submit(0, list).unwrap();
    frame.submit(1, device.command_list()).unwrap();
    drop(frame);
    device.finish().unwrap();
    assert!(!device.is_texture(texture).unwrap());
}

/// A frame given up after holding later work back for `wait_limit` (rule 4): its late slot is
/// refused, and the list (claimed for that slot) comes back free of its claim.
#[test]
fn an_ended_frame_gives_the_list_back() {
    with_timeout("ended frame", Duration::from_secs(120), || {
        let device = Device::with_options(Options::default().wait_limit(Duration::from_millis(300))).unwrap();
        let texture = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
        let reports = device.reports();
        let frame = device.begin_frame(1).unwrap();
        let mut list = frame.list(0).unwrap();
        list.set_label("refused");
        list.clear_color(0.25, 0.5, 0.75, 1.0);
        list.viewport(1, 2, 3, 4);
        list.delete_textures(&[texture]);
        let text = list.to_string();
        // Later work, held back by slot 0, until the frame is given up.
        let later = device.begin_frame(1).unwrap();
        later.submit(0, device.command_list()).unwrap();
        loop {
            let r = reports.recv_timeout(Duration::from_secs(100)).expect("the frame is given up");
            if r.kind == ReportKind::AbandonedFrame {
                break;
            }
        }
        let refused = frame.submit(0, list).unwrap_err();
        assert!(matches!(refused.error, Error::FrameEnded { slot: 0, .. }), "{refused}");
        let list = check_intact(refused, &text);
        drop(frame);
        drop(later);
        resubmit_and_check(&device, list, texture);
    });
}

/// A lost device: `Device::submit` and `Frame::submit` of a frame begun before the loss both
/// give the list back; it replays on another device.
#[test]
fn a_lost_device_gives_the_list_back() {
    with_timeout("lost device", Duration::from_secs(60), || {
        let survivor = device();
        let texture = survivor.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
        let lost = device();
        let frame = lost.begin_frame(1).unwrap();
        let _ = lost.with_gl(|_| panic!("injected"));
        assert!(matches!(lost.get_error(), Err(Error::DeviceLost { .. })));
        let list = list_deleting(&lost, texture);
        let text = list.to_string();
        let refused = lost.submit(list).unwrap_err();
        assert!(matches!(refused.error, Error::DeviceLost { .. }), "{refused}");
        let list = check_intact(refused, &text);
        let refused = frame.submit(0, list).unwrap_err();
        assert!(matches!(refused.error, Error::DeviceLost { .. }), "{refused}");
        let list = check_intact(refused, &text);
        resubmit_and_check(&survivor, list, texture);
    });
}

/// A refused list that links a program keeps the link recorded: lookups say so until it is
/// submitted, then wait for it and answer.
#[test]
fn a_refused_link_stays_recorded_until_the_list_is_submitted() {
    let device = device();
    let vs = device.create_shader(gl::VERTEX_SHADER).unwrap();
    let program = device.create_program().unwrap();
    let mut list = device.command_list();
    list.shader_source(vs, &[QUAD_VS]);
    list.compile_shader(vs);
    list.attach_shader(program, vs);
    list.link_program(program);
    let frame = device.begin_frame(1).unwrap();
    frame.submit(0, device.command_list()).unwrap();
    let list = frame.submit(0, list).unwrap_err().into_list();
    drop(frame);
    let r = device.get_programiv(program, gl::LINK_STATUS);
    assert!(matches!(r, Err(Error::LinkNotSubmitted { .. })), "{r:?}");
    device.submit(list).unwrap();
    assert_eq!(device.get_programiv(program, gl::LINK_STATUS).unwrap(), vec![1]);
}

/// `?` converts a refusal into `glcmd::Error`.
#[test]
fn question_mark_still_gives_a_glcmd_error() {
    fn submit_twice(device: &Device) -> Result<(), Error> {
        let frame = device.begin_frame(1)?;
        frame.submit(0, device.command_list())?;
        frame.submit(0, device.command_list())?;
        Ok(())
    }
    let device = device();
    assert!(matches!(submit_twice(&device), Err(Error::SlotTaken { slot: 0 })));
}
