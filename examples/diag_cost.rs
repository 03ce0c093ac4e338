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
//!   replayed with diagnostics off, with KHR_debug attribution alone, with attribution,
//!   breadcrumbs and a watchdog (the level meant to stay on), with everything (attribution,
//!   use-after-delete tracking, watchdog breadcrumbs) and in strict mode (`glGetError` after
//!   every command), one device per level, interleaved (`bench/diag.rs`); median replay time per
//!   command and the ratio on / off.

use std::hint::black_box;
use std::time::Instant;

use glcmd::{gl, CommandList};

#[path = "bench/diag.rs"]
mod diag;

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

    let levels = diag::levels(true);
    let results = diag::replay_ns(&levels, frames, commands);
    let base = results[0];
    println!("\n## Diagnostics: replay cost (ns per command on the render thread, {commands} cheap state commands per frame, median of {frames} frames, levels interleaved)\n");
    println!("| diagnostics | ns/command | on / off |");
    println!("| --- | ---: | ---: |");
    for (level, ns) in levels.iter().zip(&results) {
        println!("| {} | {ns:.1} | {:.2} |", level.name, ns / base);
    }
    println!(
        "{{\"record_ns_sites_off\":{bind_off:.3},\"record_ns_sites_on\":{bind_on:.3},\"replay_ns_off\":{base:.2},\"replay_ns_attribution_only\":{:.2},\"replay_ns_attribution\":{:.2},\"replay_ns_all\":{:.2},\"replay_ns_strict\":{:.2},\"diag_ratio_attribution\":{:.3},\"diag_ratio_all\":{:.3},\"diag_ratio_strict\":{:.3}}}",
        results[1], results[2], results[3], results[4], results[2] / base, results[3] / base, results[4] / base
    );
}
