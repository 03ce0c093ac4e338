//! What diagnostics cost, side by side in one run (issue: "Measure what diagnostics cost when
//! off and when on").
//!
//! ```sh
//! cargo run --release --example diag_cost [-- --quick]
//! ```
//!
//! * Recording: ns per recorded command into a warm list, with recording sites off and on
//!   (`CommandList::track_sites`), for a 2-argument command and a 64-byte matrix upload.
//! * Replay: a frame of cheap state commands on a real headless device (llvmpipe here),
//!   replayed with diagnostics off, with KHR_debug attribution, with everything (attribution,
//!   use-after-delete tracking, watchdog breadcrumbs) and in strict mode (`glGetError` after
//!   every command); median replay time per command and the overhead over "off" in percent.

use std::hint::black_box;
use std::time::{Duration, Instant};

use glcmd::{gl, CommandList, Device, DiagnosticOptions, Options};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// ns per command of `record` (which records `per_call` commands) into a warm list.
fn record_ns(sites: bool, rounds: usize, n: usize, record: impl Fn(&mut CommandList, usize)) -> f64 {
    let mut list = CommandList::new();
    list.track_sites(sites);
    let mut samples = Vec::new();
    for _ in 0..rounds {
        list.clear_commands();
        let t = Instant::now();
        for i in 0..n {
            record(&mut list, i);
        }
        samples.push(t.elapsed().as_nanos() as f64 / n as f64);
        black_box(&list);
    }
    median(samples)
}

fn replay_ns(options: DiagnosticOptions, frames: usize, commands: usize) -> f64 {
    let device = Device::with_options(Options { track_sites: false, diagnostics: options, ..Default::default() })
        .expect("headless device");
    let textures = device.create_textures(gl::TEXTURE_2D, 4).expect("textures");
    let mut samples = Vec::new();
    for frame in 0..frames + 2 {
        let mut list = device.command_list();
        for i in 0..commands / 2 {
            list.bind_texture(gl::TEXTURE_2D, textures[i % 4]);
            list.blend_func(gl::ONE, gl::ZERO);
        }
        device.submit(list).expect("submit");
        device.get_error().expect("wait for the frame");
        if frame >= 2 {
            // The first frames warm up the pool and the driver.
            samples.push(device.stats().last_frame.replay.as_nanos() as f64 / commands as f64);
        }
    }
    median(samples)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (rounds, n, frames, commands) = if quick { (20, 20_000, 5, 20_000) } else { (100, 100_000, 15, 100_000) };

    let bind_off = record_ns(false, rounds, n, |l, i| l.bind_texture(gl::TEXTURE_2D, i as u32));
    let bind_on = record_ns(true, rounds, n, |l, i| l.bind_texture(gl::TEXTURE_2D, i as u32));
    let m = [1.0f32; 16];
    let mat_off = record_ns(false, rounds, n, |l, i| l.uniform_matrix4fv(i as i32, false, &[m]));
    let mat_on = record_ns(true, rounds, n, |l, i| l.uniform_matrix4fv(i as i32, false, &[m]));

    println!("## Diagnostics: recording cost (ns per command, warm list, median of {rounds} rounds of {n})\n");
    println!("| command | sites off | sites on | added |");
    println!("| --- | ---: | ---: | ---: |");
    println!("| bind_texture | {bind_off:.2} | {bind_on:.2} | {:.2} |", bind_on - bind_off);
    println!("| uniform_matrix4fv (64 B) | {mat_off:.2} | {mat_on:.2} | {:.2} |", mat_on - mat_off);

    let configs = [
        ("off", DiagnosticOptions::default()),
        ("KHR_debug attribution", DiagnosticOptions { debug_output: true, ..Default::default() }),
        ("all (attribution, use-after-delete, watchdog)", DiagnosticOptions::all()),
        ("strict (glGetError per command)", DiagnosticOptions { strict: true, ..Default::default() }),
    ];
    let results: Vec<(&str, f64)> =
        configs.iter().map(|(name, o)| (*name, replay_ns(o.clone(), frames, commands))).collect();
    let base = results[0].1;
    println!("\n## Diagnostics: replay cost (ns per command on the render thread, {commands} cheap state commands per frame, median of {frames} frames)\n");
    println!("| diagnostics | ns/command | vs off |");
    println!("| --- | ---: | ---: |");
    for (name, ns) in &results {
        println!("| {name} | {ns:.1} | {:+.0}% |", (ns / base - 1.0) * 100.0);
    }
    let _ = Duration::ZERO;
    println!(
        "{{\"record_ns_sites_off\":{bind_off:.3},\"record_ns_sites_on\":{bind_on:.3},\"replay_ns_off\":{base:.2},\"replay_ns_attribution\":{:.2},\"replay_ns_all\":{:.2},\"replay_ns_strict\":{:.2}}}",
        results[1].1, results[2].1, results[3].1
    );
}
