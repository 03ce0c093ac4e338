//! Where the render thread's time goes (`Stats::render`, issue 20): every moment of the thread
//! lies in exactly one phase, so between two frame ends the phases add up to the thread's clock
//! exactly, and a wait is charged to what it waited for.
//!
//! Nothing here depends on the machine's speed. The identities are exact (whole nanoseconds);
//! the counters are checked against each other (the list replay time `Stats::replay` has, the
//! parks `FrameStats` counts) and against the test's own clock readings, which bound when a
//! frame could end (not before its last list was submitted, not after `wait_frames` saw it);
//! a wait the test makes on purpose (a sleep, which lasts at least as long as asked, however
//! slow the machine) must be found in the phases the render thread can be in meanwhile. The
//! lists clear a framebuffer to their own colour, and the picture read back shows the last one
//! replayed.

mod common;

use std::time::{Duration, Instant};

use common::*;
use glcmd::{gl, CommandList, Device, RenderTimes, Stats};

const W: i32 = 4;

/// Records: clear the framebuffer to the colour of `id`.
fn clear_to(list: &mut CommandList, fbo: u32, id: u32) {
    list.bind_framebuffer(gl::FRAMEBUFFER, fbo);
    list.viewport(0, 0, W, W);
    let c = colour(id);
    list.clear_color(c[0] as f32 / 255.0, c[1] as f32 / 255.0, c[2] as f32 / 255.0, 1.0);
    list.clear(gl::COLOR_BUFFER_BIT);
}

fn colour(id: u32) -> [u8; 3] {
    [(id * 40 % 256) as u8, (255 - id * 30 % 256) as u8, (id * 70 % 256) as u8]
}

/// The first pixel of `fbo`, RGB.
fn first_pixel(device: &Device, fbo: u32) -> [u8; 3] {
    let p = device_read_rgba8(device, fbo, W, W);
    [p[0], p[1], p[2]]
}

/// The breakdown of the frames ended between two readings, checked against itself and the
/// other counters of the same two readings.
fn breakdown(before: &Stats, after: &Stats) -> RenderTimes {
    let d = after.render.since(&before.render);
    assert_eq!(
        d.sum(),
        d.clock,
        "the phases {:?} must add up to the render thread's clock between the two frame ends",
        d.phases()
    );
    let (b, a) = (before.render.at.expect("a frame had ended"), after.render.at.expect("a frame had ended"));
    assert_eq!(a - b, d.clock, "the clock and the instants of the two frame ends must agree");
    // `Stats::replay` is the lists' replay (the same readings as the replay phase) plus the
    // part of each frame end up to the present: at least the phase, at most with the frame ends.
    let replay = after.replay - before.replay;
    assert!(d.replay <= replay, "replay phase {:?} > Stats::replay {:?}", d.replay, replay);
    assert!(
        replay <= d.replay + d.frame_end,
        "Stats::replay {replay:?} > replay {:?} + frame end {:?}",
        d.replay,
        d.frame_end
    );
    d
}

#[test]
fn the_render_phases_add_up_to_its_clock_frame_by_frame() {
    let device = device();
    let fbo = device_fbo_rgba8(&device, W, W);
    let (workers, slots, frames) = (3usize, 7usize, 12u64);
    device.finish().unwrap();
    let base = device.stats().frames;
    let mut previous = device.wait_frames(base).unwrap();
    for i in 0..frames {
        let frame = device.begin_frame(slots).unwrap();
        let mut last_submit = Vec::new();
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..workers)
                .map(|w| {
                    let (device, frame) = (&device, &frame);
                    s.spawn(move || {
                        let mut latest = None;
                        for slot in (w..slots).step_by(workers) {
                            let mut list = device.command_list();
                            clear_to(&mut list, fbo, slot as u32);
                            latest = Some(Instant::now());
                            frame.submit(slot, list).unwrap();
                        }
                        latest
                    })
                })
                .collect();
            last_submit = handles.into_iter().filter_map(|h| h.join().unwrap()).collect();
        });
        drop(frame);
        let after = device.wait_frames(base + i + 1).unwrap();
        let seen = Instant::now();
        assert_eq!(after.frames, base + i + 1, "one frame ends at a time here");
        let d = breakdown(&previous, &after);
        let ended = after.render.at.unwrap();
        let latest = *last_submit.iter().max().unwrap();
        assert!(ended >= latest, "frame {i} ended before its last list was submitted");
        assert!(ended <= seen, "frame {i} ended after wait_frames returned");
        assert_eq!(after.lists - previous.lists, slots as u64, "frame {i} replayed every slot");
        // A park between the frame's first list and its end waits for a later slot.
        assert!(
            after.last_frame.parked <= d.wait_later,
            "frame {i}: parked {:?} while waiting for later slots {:?}",
            after.last_frame.parked,
            d.wait_later
        );
        assert!(d.replay > Duration::ZERO, "frame {i}: seven lists replayed in no time");
        previous = after;
    }
    // Slot order: the last slot's colour is what the frames leave.
    assert_eq!(first_pixel(&device, fbo), colour(slots as u32 - 1));
}

/// How late the late list of the two tests below comes.
const LATE: Duration = Duration::from_millis(30);

/// A device, its framebuffer, and a two-slot frame begun once every earlier frame has ended,
/// with the counters read at that point.
struct TwoSlots {
    device: Device,
    fbo: u32,
    base: u64,
    before: Stats,
    frame: glcmd::Frame,
}

fn two_slot_frame() -> TwoSlots {
    let device = device();
    let fbo = device_fbo_rgba8(&device, W, W);
    device.finish().unwrap();
    let base = device.stats().frames;
    let before = device.wait_frames(base).unwrap();
    let frame = device.begin_frame(2).unwrap();
    TwoSlots { device, fbo, base, before, frame }
}

/// The slot-0 list comes last, long after the frame was begun: the render thread waits for the
/// frame's first list, and never for a later one (slot 1 is there when slot 0 has replayed).
#[test]
fn a_late_first_list_is_a_wait_for_the_first() {
    let TwoSlots { device, fbo, base, before, frame } = two_slot_frame();
    let begun = Instant::now();
    let mut list = device.command_list();
    clear_to(&mut list, fbo, 1);
    frame.submit(1, list).unwrap();
    std::thread::sleep(LATE);
    let mut list = device.command_list();
    clear_to(&mut list, fbo, 0);
    let held = begun.elapsed();
    frame.submit(0, list).unwrap();
    drop(frame);
    let after = device.wait_frames(base + 1).unwrap();
    let d = breakdown(&before, &after);
    assert_eq!(d.wait_later, Duration::ZERO, "slot 1 was there before slot 0: {:?}", d.phases());
    // From `begun` to slot 0's submit the thread can only finish the previous frame's end, wait
    // (nothing begun yet, or the first list missing) or handle messages.
    assert!(
        d.wait_first + d.idle + d.other + d.frame_end >= held,
        "the {held:?} before slot 0 came must be waiting or message handling: {:?}",
        d.phases()
    );
    assert_eq!(after.last_frame.parked, Duration::ZERO, "no park after the first list");
    assert_eq!(first_pixel(&device, fbo), colour(1));
}

/// Slot 0 replays (a query after it returns), then slot 1 comes late: the render thread waits
/// for a later slot.
#[test]
fn a_late_later_list_is_a_wait_for_a_later_slot() {
    let TwoSlots { device, fbo, base, before, frame } = two_slot_frame();
    let mut list = device.command_list();
    clear_to(&mut list, fbo, 0);
    frame.submit(0, list).unwrap();
    // A query runs after every list submitted before it: slot 0 has replayed when it returns.
    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    let replayed = Instant::now();
    std::thread::sleep(LATE);
    let mut list = device.command_list();
    clear_to(&mut list, fbo, 1);
    let held = replayed.elapsed();
    frame.submit(1, list).unwrap();
    drop(frame);
    let after = device.wait_frames(base + 1).unwrap();
    let d = breakdown(&before, &after);
    assert!(d.wait_later > Duration::ZERO, "{:?}", d.phases());
    assert!(d.round_trips > Duration::ZERO, "the query ran: {:?}", d.phases());
    // From the query's answer to slot 1's submit the thread can only finish the round trip,
    // handle messages, or wait for slot 1.
    assert!(
        d.wait_later + d.other + d.round_trips >= held,
        "the {held:?} before slot 1 came must be waiting for it or message handling: {:?}",
        d.phases()
    );
    assert!(after.last_frame.parked <= d.wait_later);
    assert_eq!(first_pixel(&device, fbo), colour(1));
}
