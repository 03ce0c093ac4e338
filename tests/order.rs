//! Replay order: lists replay in (frame, slot) order whatever order the workers submit them in,
//! frames in the order they were begun, and round trips at their place in submission order.
//!
//! The order is observed exactly with a "shift register" in a GL buffer: every list pushes its
//! id by copying `log[0..N-1]` to `log[1..N]` (through a scratch buffer, GL forbids overlapping
//! copies within a buffer) and writing its id into `log[0]`. Reading the buffer back gives the
//! ids newest first, so the full replay sequence, not just the last writer. Each list also
//! clears a framebuffer to its own colour, so the picture shows which list replayed last.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::*;
use glcmd::{gl, CommandList, Device, Frame};

const LOG_LEN: usize = 64;
const EMPTY: u32 = 0xFFFF_FFFF;

#[derive(Clone, Copy)]
struct Log {
    log: u32,
    tmp: u32,
    fbo: u32,
}

impl Log {
    fn new(device: &Device) -> Log {
        let b = device.create_buffers(2).unwrap();
        // Storage set up through the raw table (setup only; what is tested is recorded below).
        let (log, tmp) = (b[0], b[1]);
        device
            .with_gl(move |gl_fns| {
                let init = vec![0xFFu8; LOG_LEN * 4];
                for buffer in [log, tmp] {
                    // SAFETY: `init` holds the `size` bytes the call reads.
                    unsafe {
                        (gl_fns.NamedBufferStorage)(
                            buffer,
                            init.len() as isize,
                            init.as_ptr().cast(),
                            gl::DYNAMIC_STORAGE_BIT,
                        )
                    };
                }
            })
            .unwrap();
        Log { log: b[0], tmp: b[1], fbo: device_fbo_rgba8(device, 2, 2) }
    }

    /// Records: push `id` into the log, and clear the framebuffer to `id`'s colour.
    fn record(&self, list: &mut CommandList, id: u32) {
        let n = (LOG_LEN * 4) as isize;
        list.copy_named_buffer_sub_data(self.log, self.tmp, 0, 0, n);
        list.copy_named_buffer_sub_data(self.tmp, self.log, 0, 4, n - 4);
        list.named_buffer_sub_data(self.log, 0, &id.to_le_bytes());
        list.bind_framebuffer(gl::FRAMEBUFFER, self.fbo);
        list.disable(gl::SCISSOR_TEST);
        list.color_mask(true, true, true, true);
        let c = color_of(id);
        list.clear_color(c[0] as f32 / 255.0, c[1] as f32 / 255.0, c[2] as f32 / 255.0, 1.0);
        list.clear(gl::COLOR_BUFFER_BIT);
    }

    /// The ids pushed so far, oldest first (a query: runs after everything submitted before).
    fn read(&self, device: &Device) -> Vec<u32> {
        read_log(device, self.log)
    }

    /// Empties the log.
    fn reset(&self, device: &Device) {
        let mut list = device.command_list();
        list.named_buffer_sub_data(self.log, 0, &vec![0xFFu8; LOG_LEN * 4]);
        device.submit(list).unwrap();
    }

    fn last_color(&self, device: &Device) -> [u8; 4] {
        device_read_rgba8(device, self.fbo, 1, 1).try_into().unwrap()
    }
}

fn read_log(device: &Device, log: u32) -> Vec<u32> {
    let bytes = device.get_named_buffer_sub_data(log, 0, (LOG_LEN * 4) as isize).unwrap();
    let mut ids: Vec<u32> =
        bytes.chunks_exact(4).map(|b| u32::from_le_bytes(b.try_into().unwrap())).take_while(|&v| v != EMPTY).collect();
    assert!(ids.len() < LOG_LEN, "the log overflowed");
    ids.reverse();
    ids
}

fn color_of(id: u32) -> [u8; 4] {
    [(id * 37 % 256) as u8, (255 - id * 11 % 256) as u8, (id * 101 % 256) as u8, 255]
}

#[test]
fn workers_finishing_in_reverse_keep_slot_order() {
    with_timeout("reverse workers", Duration::from_secs(30), || {
        let device = device();
        let log = Log::new(&device);
        for round in 0..20u32 {
            log.reset(&device);
            let frame = Arc::new(device.begin_frame(4).unwrap());
            let submitted = Arc::new(Mutex::new(Vec::new()));
            // done[k] fires when slot k has been submitted; worker k waits for done[k + 1].
            let (txs, rxs): (Vec<_>, Vec<_>) = (0..5).map(|_| signal()).unzip();
            let mut rxs: Vec<_> = rxs.into_iter().map(Some).collect();
            txs[4].send(()).unwrap();
            let mut handles = Vec::new();
            for slot in 0..4u32 {
                let frame = frame.clone();
                let submitted = submitted.clone();
                let wait_for = rxs[slot as usize + 1].take().unwrap();
                let done = txs[slot as usize].clone();
                handles.push(std::thread::spawn(move || {
                    let mut list = frame.device().command_list();
                    log.record(&mut list, round * 4 + slot);
                    wait_for.recv().unwrap();
                    submitted.lock().unwrap().push(slot);
                    frame.submit(slot as usize, list).unwrap();
                    drop(frame);
                    done.send(()).unwrap();
                }));
            }
            drop(frame);
            for h in handles {
                h.join().unwrap();
            }
            assert_eq!(*submitted.lock().unwrap(), vec![3, 2, 1, 0], "the workers did not finish in reverse");
            let expected: Vec<u32> = (0..4).map(|s| round * 4 + s).collect();
            assert_eq!(log.read(&device), expected, "round {round}: replay order");
            assert_eq!(log.last_color(&device), color_of(round * 4 + 3), "round {round}: the last list's colour");
        }
        assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    });
}

/// A one-shot signal between two worker threads.
fn signal() -> (std::sync::mpsc::Sender<()>, std::sync::mpsc::Receiver<()>) {
    std::sync::mpsc::channel()
}

/// Frames begun back to back; their lists submitted in a scrambled order across frames. Each
/// `Frame` is dropped as soon as its last slot is submitted.
fn run_scrambled(device: &Device, log: &Log, frames: usize, slots: usize, order: &[(usize, usize)], threaded: bool) {
    let handles: Vec<Frame> = (0..frames).map(|_| device.begin_frame(slots).unwrap()).collect();
    let handles: Vec<Mutex<Option<(Frame, usize)>>> = handles.into_iter().map(|f| Mutex::new(Some((f, 0)))).collect();
    let submit = |f: usize, s: usize| {
        let mut list = device.command_list();
        log.record(&mut list, (f * slots + s) as u32);
        let mut guard = handles[f].lock().unwrap();
        let (frame, count) = guard.as_mut().unwrap();
        frame.submit(s, list).unwrap();
        *count += 1;
        if *count == slots {
            *guard = None; // drops the Frame: closes it
        }
    };
    if threaded {
        // One thread per list; a turnstile makes them submit in `order`.
        let turn = Mutex::new(0usize);
        let cv = std::sync::Condvar::new();
        std::thread::scope(|sc| {
            for (pos, &(f, s)) in order.iter().enumerate() {
                let (turn, cv, submit) = (&turn, &cv, &submit);
                sc.spawn(move || {
                    let mut t = turn.lock().unwrap();
                    while *t != pos {
                        t = cv.wait(t).unwrap();
                    }
                    submit(f, s);
                    *t += 1;
                    cv.notify_all();
                });
            }
        });
    } else {
        for &(f, s) in order {
            submit(f, s);
        }
    }
    assert!(handles.iter().all(|h| h.lock().unwrap().is_none()));
}

#[test]
fn frames_begun_back_to_back_replay_in_begin_order() {
    with_timeout("scrambled frames", Duration::from_secs(30), || {
        let device = device();
        let log = Log::new(&device);
        let (frames, slots) = (4, 3);
        let expected: Vec<u32> = (0..(frames * slots) as u32).collect();
        // Completely reversed: the last slot of the last frame first.
        let mut reversed: Vec<(usize, usize)> = (0..frames).flat_map(|f| (0..slots).map(move |s| (f, s))).collect();
        reversed.reverse();
        for threaded in [false, true] {
            log.reset(&device);
            run_scrambled(&device, &log, frames, slots, &reversed, threaded);
            assert_eq!(log.read(&device), expected, "reversed submission (threaded: {threaded})");
        }
        for seed in 0..30u64 {
            let mut order: Vec<(usize, usize)> = (0..frames).flat_map(|f| (0..slots).map(move |s| (f, s))).collect();
            Rng::new(seed).shuffle(&mut order);
            log.reset(&device);
            run_scrambled(&device, &log, frames, slots, &order, seed % 2 == 1);
            assert_eq!(log.read(&device), expected, "seed {seed}: submission order {order:?}");
            assert_eq!(log.last_color(&device), color_of(expected[expected.len() - 1]), "seed {seed}");
        }
        assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
    });
}

/// A query runs after every list submitted before it, including lower slots still to arrive,
/// and before any list submitted after it.
#[test]
fn query_waits_for_a_lower_slot_and_precedes_later_lists() {
    with_timeout("query barrier", Duration::from_secs(30), || {
        let device = device();
        let log = Log::new(&device);
        let frame = device.begin_frame(2).unwrap();
        let mut l1 = device.command_list();
        log.record(&mut l1, 1);
        frame.submit(1, l1).unwrap();

        let query = {
            let device = device.clone();
            let buffer = log.log;
            std::thread::spawn(move || read_log(&device, buffer))
        };
        std::thread::sleep(Duration::from_millis(300));
        assert!(!query.is_finished(), "the query ran before slot 0 of the frame it waits on was submitted");

        // Submitted after the query: must not be visible to it.
        let later_frame = device.begin_frame(1).unwrap();
        let mut l9 = device.command_list();
        log.record(&mut l9, 9);
        later_frame.submit(0, l9).unwrap();
        drop(later_frame);

        let mut l0 = device.command_list();
        log.record(&mut l0, 0);
        frame.submit(0, l0).unwrap();
        drop(frame);
        assert_eq!(query.join().unwrap(), vec![0, 1], "what the query saw");
        assert_eq!(log.read(&device), vec![0, 1, 9], "the final order");
    });
}

/// Frame::drop sends "close" to the render thread. When every slot of the frame has already
/// been replayed (for instance because a query waited for it), the render thread has ended the
/// frame before the close arrives. That late close must be ignored; the device must live on.
/// (Regression: the render thread used to panic on it, underflowing `id - first` in
/// `Scheduler::frame_mut`, and the next query hung.)
#[test]
fn frame_dropped_after_its_lists_ran_keeps_the_device_alive() {
    let device = device();
    let result = with_timeout("late close", Duration::from_secs(5), move || {
        let frame = device.begin_frame(1).unwrap();
        let mut list = device.command_list();
        list.clear_color(0.0, 0.0, 0.0, 0.0);
        frame.submit(0, list).unwrap();
        // Waits until slot 0 ran, so the frame has ended on the render thread.
        assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);
        drop(frame);
        // The device must still work.
        let next = device.get_error();
        let submit = device.submit(device.command_list());
        (next.map_err(|e| e.to_string()), submit.map_err(|e| e.to_string()))
    });
    assert_eq!(result, (Ok(gl::NO_ERROR), Ok(())));
}

/// `wait_frames` returns once the frame has ended: its deletes have run and its lists are back
/// in the pool; it does not make a round trip.
#[test]
fn wait_frames_returns_when_the_frame_has_ended() {
    let device = glcmd::Device::headless().unwrap();
    let texture = device.create_textures(glcmd::gl::TEXTURE_2D, 1).unwrap()[0];
    let round_trips = device.stats().round_trips;
    let frame = device.begin_frame(2).unwrap();
    for slot in [1, 0] {
        let mut list = device.command_list();
        list.bind_texture(glcmd::gl::TEXTURE_2D, texture);
        if slot == 1 {
            list.delete_textures(&[texture]);
        }
        frame.submit(slot, list).unwrap();
    }
    drop(frame);
    let stats = device.wait_frames(1).unwrap();
    assert_eq!((stats.frames, stats.lists, stats.commands), (1, 2, 3));
    assert_eq!(stats.round_trips, round_trips, "wait_frames made a round trip");
    assert!(!device.is_texture(texture).unwrap(), "the frame's delete has run");
}

/// Issue 20, item 4: with one worker, replay overlaps recording. Each slot replays as soon as
/// it and the slots before it are submitted, while the worker still records the later slots
/// of the same frame; and the next frame's first slot replays once every slot of this frame
/// is submitted, while its `Frame` handle is still held. Seen by content: the log read back
/// after each submit holds exactly the slots submitted so far.
#[test]
fn each_slot_replays_while_the_later_slots_are_still_recorded() {
    with_timeout("slot-by-slot replay", Duration::from_secs(30), || {
        let device = device();
        let log = Log::new(&device);
        let slots = 4;
        let frame = device.begin_frame(slots).unwrap();
        let next = device.begin_frame(1).unwrap();
        let ended = next.number() + 1;
        // The worker: submits slot k, then records nothing more until the test thread has
        // seen slot k in the log.
        let (seen_tx, seen_rx) = std::sync::mpsc::channel::<()>();
        let (submitted_tx, submitted_rx) = std::sync::mpsc::channel::<u32>();
        let worker = {
            let device = device.clone();
            std::thread::spawn(move || {
                for k in 0..slots {
                    let mut list = device.command_list();
                    log.record(&mut list, k as u32);
                    frame.submit(k, list).unwrap();
                    submitted_tx.send(k as u32).unwrap();
                    seen_rx.recv().unwrap();
                }
                // Every slot is in, the handle still held: the next frame may start.
                let mut list = device.command_list();
                log.record(&mut list, 10);
                next.submit(0, list).unwrap();
                submitted_tx.send(10).unwrap();
                seen_rx.recv().unwrap();
                drop((frame, next));
            })
        };
        let mut expected = Vec::new();
        for id in submitted_rx.iter() {
            expected.push(id);
            assert_eq!(log.read(&device), expected, "the log after slot {id} was submitted");
            let _ = seen_tx.send(());
        }
        worker.join().unwrap();
        assert_eq!(device.wait_frames(ended).unwrap().frames, ended);
        assert_eq!(log.last_color(&device), color_of(10), "the next frame's list replayed last");
    });
}
