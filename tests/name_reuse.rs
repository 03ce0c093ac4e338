//! Seed 000: GL reuses object names. A delete recorded in a frame must not run before every list
//! of that frame has run, or a name created in between (immediately, by another thread) can
//! alias an object a waiting list still uses, and that list then draws the wrong content.
//!
//! Mesa hands out fresh names by default and reuses freed ones only with its driconf option
//! `force_gl_names_reuse`; these tests run in a child process with `force_gl_names_reuse=true`
//! so that GL really reuses names (the tests assert that it did).
//!
//! Checked by content: every texture holds a colour that is unique over the whole test and is
//! drawn into a pixel of its own; the framebuffer read back must show, pixel for pixel, the
//! colour of the texture that pixel's draw was recorded with.

mod common;

use std::collections::{HashMap, HashSet};
use std::sync::{mpsc, Arc, Barrier};
use std::time::{Duration, Instant};

use common::*;
use glcmd::{gl, Bytes, CommandList, Device, Frame};

const W: i32 = 32;
const H: i32 = 32;
const WORKERS: usize = 3;
const FRAMES: usize = 300;

const TEX_FS: &str = "#version 450 core
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 out_color;
void main() { out_color = texelFetch(tex, ivec2(0, 0), 0); }
";

/// Unique for every region index below 65536.
fn color_of(i: usize) -> [u8; 4] {
    [(i % 256) as u8, (i / 256 + 16) as u8, 200, 255]
}

#[derive(Clone, Copy)]
struct Target {
    fbo: u32,
    program: u32,
    vao: u32,
}

impl Target {
    fn new(device: &Device) -> Target {
        let program = device_program(device, &[(gl::VERTEX_SHADER, QUAD_VS), (gl::FRAGMENT_SHADER, TEX_FS)]);
        let t =
            Target { fbo: device_fbo_rgba8(device, W, H), program, vao: device.create_vertex_arrays(1).unwrap()[0] };
        let mut list = device.command_list();
        list.bind_framebuffer(gl::FRAMEBUFFER, t.fbo);
        list.disable(gl::SCISSOR_TEST);
        list.clear_color(0.0, 0.0, 0.0, 0.0);
        list.clear(gl::COLOR_BUFFER_BIT);
        device.submit(list).unwrap();
        t
    }

    /// Fills `tex` (a fresh 1x1 texture) with `color` and draws it into pixel `region`.
    fn record_fill_and_draw(&self, list: &mut CommandList, tex: u32, color: [u8; 4], region: usize) {
        list.texture_storage_2d(tex, 1, gl::RGBA8, 1, 1);
        list.texture_sub_image_2d(tex, 0, 0, 0, 1, 1, gl::RGBA, gl::UNSIGNED_BYTE, Bytes::Slice(&color));
        self.record_draw(list, tex, region);
    }

    fn record_draw(&self, list: &mut CommandList, tex: u32, region: usize) {
        list.bind_framebuffer(gl::FRAMEBUFFER, self.fbo);
        list.viewport(0, 0, W, H);
        list.disable(gl::BLEND);
        list.use_program(self.program);
        list.bind_vertex_array(self.vao);
        list.uniform2f(LOC_SIZE, W as f32, H as f32);
        list.bind_texture_unit(0, tex);
        let (x, y) = ((region % W as usize) as f32, (region / W as usize) as f32);
        list.uniform4f(LOC_RECT, x, y, x + 1.0, y + 1.0);
        list.draw_arrays(gl::TRIANGLE_STRIP, 0, 4);
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Deleter {
    /// Each worker deletes its texture in its own list, right after the draw.
    SameList,
    /// Slot 0 of the frame deletes every texture the frame's workers (slots 1..) draw with:
    /// at replay the delete comes *before* the uses, legal because deletes run at frame end.
    LowerSlot,
}

/// 300 frames of `WORKERS` workers plus a slot-0 "janitor" list, pipelined: the main thread
/// begins every frame at once, so the workers create textures for frame f+1 while frame f may
/// still be waiting for lists.
///
/// Each worker creates its own texture. The workers and the janitor meet at a barrier between
/// creating and submitting, so no list of a frame (or of a later frame) is submitted before all
/// the frame's textures exist. Without it the runtime deadlocks: a create waits for the latest
/// list received, even a higher slot or a later frame's list that itself waits for the
/// creating worker's own slot (see `create_on_a_worker_after_a_higher_slot_was_submitted`).
fn run(deleter: Deleter) {
    let device = device();
    let target = Target::new(&device);
    let start = Instant::now();

    let (name_tx, name_rx) = mpsc::channel::<(usize, u32)>();
    let created = Arc::new(Barrier::new(WORKERS + 1));
    let mut worker_txs = Vec::new();
    let mut handles = Vec::new();
    for k in 0..WORKERS {
        let (tx, rx) = mpsc::channel::<(usize, Arc<Frame>)>();
        worker_txs.push(tx);
        let (name_tx, created) = (name_tx.clone(), created.clone());
        handles.push(std::thread::spawn(move || {
            let mut used = Vec::new();
            for (f, frame) in rx {
                let device = frame.device().clone();
                // At most three frames in flight when a name is taken: the deletes of frame
                // f - 3 have run, so the GL has freed names by the name pool's next refill and
                // reuses them, whatever the machine's speed. (Unthrottled, a slow first replay,
                // such as llvmpipe compiling the shader, lets every frame be recorded first.)
                if f >= 3 {
                    device.wait_frames(frame.number() - 2).unwrap();
                }
                let tex = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
                let _ = name_tx.send((f, tex)); // only the LowerSlot janitor listens
                let region = f * WORKERS + k;
                let mut list = device.command_list();
                target.record_fill_and_draw(&mut list, tex, color_of(region), region);
                if deleter == Deleter::SameList {
                    list.delete_textures(&[tex]);
                }
                created.wait();
                frame.submit(k + 1, list).unwrap();
                drop(frame);
                used.push(tex);
            }
            used
        }));
    }
    drop(name_tx);
    let created = created.clone();
    let (janitor_tx, janitor_rx) = mpsc::channel::<(usize, Arc<Frame>)>();
    let janitor = std::thread::spawn(move || {
        let mut names: HashMap<usize, Vec<u32>> = HashMap::new();
        for (f, frame) in janitor_rx {
            created.wait();
            let mut list = frame.device().command_list();
            if deleter == Deleter::LowerSlot {
                while names.get(&f).map_or(0, Vec::len) < WORKERS {
                    let (g, tex) = name_rx.recv().unwrap();
                    names.entry(g).or_default().push(tex);
                }
                list.delete_textures(&names.remove(&f).unwrap());
            }
            frame.submit(0, list).unwrap();
        }
    });

    for f in 0..FRAMES {
        let frame = Arc::new(device.begin_frame(WORKERS + 1).unwrap());
        for tx in &worker_txs {
            tx.send((f, frame.clone())).unwrap();
        }
        janitor_tx.send((f, frame)).unwrap();
    }
    drop(worker_txs);
    drop(janitor_tx);
    let used: Vec<u32> = handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
    janitor.join().unwrap();

    assert_eq!(device.get_error().unwrap(), gl::NO_ERROR, "{deleter:?}: GL error");
    let pixels = device_read_rgba8(&device, target.fbo, W, H);
    let mut wrong = Vec::new();
    for region in 0..(W * H) as usize {
        let expected = if region < FRAMES * WORKERS { color_of(region) } else { [0; 4] };
        let got: [u8; 4] = pixels[region * 4..region * 4 + 4].try_into().unwrap();
        if got != expected {
            wrong.push((region, got, expected));
        }
    }
    assert!(
        wrong.is_empty(),
        "{deleter:?}: {} pixels show the wrong texture; first (region, got, expected): {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
    // Every texture was deleted in the end (deferred deletes did run). A name the GL made
    // again for the device's name pool after its delete is alive without being handed out; a
    // pool holds it, so no more are alive than the pools hold.
    let distinct: HashSet<u32> = used.iter().copied().collect();
    let alive = distinct.iter().filter(|&&t| device.is_texture(t).unwrap()).count();
    assert!(
        alive <= device.stats().pooled_names,
        "{deleter:?}: {alive} of {} textures are still alive: deferred deletes did not run",
        distinct.len()
    );
    eprintln!("{deleter:?}: {} textures created, {} distinct names, {:?}", used.len(), distinct.len(), start.elapsed());
    assert!(distinct.len() < used.len(), "GL never reused a name; the test did not exercise reuse");
}

/// Mesa's switch for reusing freed names (off by default).
const REUSE: &[(&str, &str)] = &[("force_gl_names_reuse", "true")];

#[test]
fn textures_deleted_in_the_drawing_list_over_300_frames() {
    if !rerun_in_child("textures_deleted_in_the_drawing_list_over_300_frames", REUSE) {
        return;
    }
    with_timeout("name reuse, same list", Duration::from_secs(60), || run(Deleter::SameList));
}

#[test]
fn textures_deleted_by_a_lower_slot_over_300_frames() {
    if !rerun_in_child("textures_deleted_by_a_lower_slot_over_300_frames", REUSE) {
        return;
    }
    with_timeout("name reuse, lower slot", Duration::from_secs(60), || run(Deleter::LowerSlot));
}

/// The exact seed-000 interleaving, step by step: slot 0 deletes texture A (red); a texture is
/// created before slot 1, which still draws with A, has arrived; slot 1 fills the new texture
/// green and then draws A. With an immediate delete the new texture would get A's name and the
/// draw would be green.
#[test]
fn a_name_deleted_earlier_in_the_frame_is_not_handed_out_again() {
    if !rerun_in_child("a_name_deleted_earlier_in_the_frame_is_not_handed_out_again", REUSE) {
        return;
    }
    with_timeout("seed 000 interleaving", Duration::from_secs(20), || {
        let device = device();
        let target = Target::new(&device);
        let a = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
        let mut list = device.command_list();
        target.record_fill_and_draw(&mut list, a, [255, 0, 0, 255], 0);
        device.submit(list).unwrap();

        let frame = device.begin_frame(2).unwrap();
        let mut slot0 = device.command_list();
        slot0.delete_textures(&[a]);
        frame.submit(0, slot0).unwrap();
        // Runs after slot 0 (submitted before it), before slot 1 (not submitted yet).
        let b = device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0];
        assert_ne!(b, a, "the name of a texture whose delete is still deferred was handed out again");
        assert!(device.is_texture(a).unwrap(), "texture {a} was deleted before its frame ended");

        let mut slot1 = device.command_list();
        target.record_fill_and_draw(&mut slot1, b, [0, 255, 0, 255], 2);
        target.record_draw(&mut slot1, a, 1);
        frame.submit(1, slot1).unwrap();
        drop(frame);

        let pixels = device_read_rgba8(&device, target.fbo, 3, 1);
        assert_eq!(&pixels[4..8], &[255, 0, 0, 255], "the draw with the deleted-in-frame texture A");
        assert_eq!(&pixels[8..12], &[0, 255, 0, 255], "the draw with the new texture B");
        assert!(!device.is_texture(a).unwrap(), "A is deleted at the end of its frame");
        assert!(device.is_texture(b).unwrap());
        assert_eq!(device.get_error().unwrap(), gl::NO_ERROR);

        // After the frame the name is free again, and GL does hand it out (to the name pool's
        // next refill): so the check above was not passing merely because GL never reuses
        // names.
        let reused =
            (0..4 * glcmd::pools::POOL_SIZE).any(|_| device.create_textures(gl::TEXTURE_2D, 1).unwrap()[0] == a);
        assert!(reused, "GL did not reuse the freed name; the test did not exercise reuse");
    });
}

/// Creation is immediate by design ("runs on the render thread at once and returns the real
/// names"). A worker that still has to submit slot 0 creates a texture after another worker
/// submitted slot 1 of the same frame: the create must return, not wait for slot 1, which
/// itself waits for slot 0.
#[test]
fn create_on_a_worker_after_a_higher_slot_was_submitted() {
    let device = device();
    let frame = Arc::new(device.begin_frame(2).unwrap());
    let higher = {
        let frame = frame.clone();
        std::thread::spawn(move || frame.submit(1, frame.device().command_list()).unwrap())
    };
    higher.join().unwrap();
    let names = with_timeout("create while slot 0 is outstanding", Duration::from_secs(5), {
        let device = device.clone();
        move || device.create_textures(gl::TEXTURE_2D, 1)
    });
    assert!(names.is_ok());
    frame.submit(0, device.command_list()).unwrap();
}
