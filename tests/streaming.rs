//! The streaming example (issue 9): workers that look up uniform locations, read a limit and
//! create, fill, draw from and delete a buffer every frame make no round trip once the pools
//! are started; and what they streamed is what the image shows.

mod common;

#[allow(dead_code)]
#[path = "../examples/streaming.rs"]
mod streaming;

#[test]
fn streaming_workers_make_no_round_trips_in_steady_state() {
    let device = common::device();
    let run = streaming::run(&device, 8, 3).unwrap();
    assert!(run.round_trips[0] > 0, "the first frame starts the buffer pool with a round trip");
    assert_eq!(&run.round_trips[2..], &[0; 6], "round trips per frame: {:?}", run.round_trips);
    // Each worker's quad, in its colour, at its place on the middle row.
    let size = streaming::SIZE as usize;
    let pixel = |x: usize, y: usize| &run.pixels[(y * size + x) * 4..(y * size + x) * 4 + 4];
    for (w, x) in [(0, 13), (1, 32), (2, 51)] {
        let red = ((0.2 + 0.2 * w as f32) * 255.0).round() as u8;
        let expected = [red, 204, 77, 255];
        let got = pixel(x, size / 2);
        // Within one step of 255: the driver may round 0.3 * 255 = 76.5 either way.
        assert!(
            got.iter().zip(expected).all(|(&g, e)| g.abs_diff(e) <= 1),
            "worker {w}'s quad: {got:?}, expected {expected:?}"
        );
    }
    assert_eq!(pixel(0, 0), &[0, 0, 0, 255], "the background is cleared");
}
