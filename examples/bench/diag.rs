//! What diagnostics cost on replay, side by side in one run (issue 20, item 1), shared by the
//! quick bench (its `diag_ratio_*` keys) and `examples/diag_cost.rs`.
//!
//! One headless device per diagnostics level, all alive at once; each round replays the same
//! list of cheap state commands (`glBindTexture`, `glBlendFunc`) on every device in turn, so a
//! change in the machine's load touches every level alike. The figure is the render thread's
//! replay time per command (`Stats::last_frame.replay`), median over the rounds.

use glcmd::{gl, Device, DiagnosticOptions, Options};
use std::time::Duration;

/// A diagnostics level measured.
pub struct Level {
    pub name: &'static str,
    pub options: DiagnosticOptions,
}

/// Off; attribution with breadcrumbs and a watchdog (the level meant to stay on); everything;
/// strict (`glGetError` per command). `with_attribution_only` adds KHR_debug attribution alone.
pub fn levels(with_attribution_only: bool) -> Vec<Level> {
    let watchdog = Some(Duration::from_secs(2));
    let mut v = vec![
        Level { name: "off", options: DiagnosticOptions::default() },
        Level {
            name: "attribution + breadcrumbs + watchdog",
            options: DiagnosticOptions::default().debug_output(true).watchdog(watchdog),
        },
        Level { name: "all (attribution, use-after-delete, watchdog)", options: DiagnosticOptions::all() },
        Level { name: "strict (glGetError per command)", options: DiagnosticOptions::default().strict(true) },
    ];
    if with_attribution_only {
        let options = DiagnosticOptions::default().debug_output(true);
        v.insert(1, Level { name: "KHR_debug attribution alone", options });
    }
    v
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// ns per replayed command for each level: `rounds` frames of `commands` commands each (after
/// two rounds of warm-up), interleaved across the levels.
pub fn replay_ns(levels: &[Level], rounds: usize, commands: usize) -> Vec<f64> {
    let devices: Vec<(Device, Vec<u32>)> = levels
        .iter()
        .map(|l| {
            let options = Options::default().track_sites(false).diagnostics(l.options.clone());
            let device = Device::with_options(options).expect("headless device");
            let textures = device.create_textures(gl::TEXTURE_2D, 4).expect("textures");
            (device, textures)
        })
        .collect();
    let mut samples = vec![Vec::new(); levels.len()];
    for round in 0..rounds + 2 {
        for ((device, textures), samples) in devices.iter().zip(&mut samples) {
            let mut list = device.command_list();
            for i in 0..commands / 2 {
                list.bind_texture(gl::TEXTURE_2D, textures[i % 4]);
                list.blend_func(gl::ONE, gl::ZERO);
            }
            device.submit(list).expect("submit");
            device.get_error().expect("wait for the frame");
            if round >= 2 {
                // The first rounds warm up the pool and the driver.
                samples.push(device.stats().last_frame.replay.as_nanos() as f64 / commands as f64);
            }
        }
    }
    samples.into_iter().map(median).collect()
}
