//! The long fuzz round of the capture loader (the tests run a short one):
//!
//! ```sh
//! cargo run --release -p glcmd-replay --example fuzz -- --iterations 1000000 --seed 7 [--minutes 30]
//!     [--replay 2000] [--trace FILE] [CAPTURE...]
//! ```
//!
//! Seeds are the given captures, or one made on the spot (`fuzz::seed_capture`). Prints the
//! figures (inputs tried, loaded, replayed, refusals by kind, crashes, time) and writes each
//! crashing input next to the first seed as `crash-<seed>-<iteration>.glcap`; exits non-zero if
//! there was one. `--trace FILE` writes every input to FILE before trying it (and the step to
//! FILE.step), to keep an input that kills the process.

use std::time::Duration;

use glcmd_replay::fuzz::{self, CountingAlloc, Seed};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut iterations, mut seed, mut minutes, mut replay) = (100_000u64, 1u64, None, 1000u64);
    let mut trace = None;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut num = || -> Result<u64, Box<dyn std::error::Error>> { Ok(args.next().ok_or("a value")?.parse()?) };
        match a.as_str() {
            "--iterations" => iterations = num()?,
            "--seed" => seed = num()?,
            "--minutes" => minutes = Some(num()?),
            "--replay" => replay = num()?,
            "--trace" => trace = Some(std::path::PathBuf::from(args.next().ok_or("--trace needs a path")?)),
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        let path = std::env::temp_dir().join("glcmd-fuzz-seed.glcap");
        fuzz::seed_capture(&path)?;
        files.push(path.display().to_string());
    }
    let seeds: Vec<Seed> = files
        .iter()
        .map(|f| Seed::new(std::fs::read(f)?).map_err(Into::into))
        .collect::<Result<_, Box<dyn std::error::Error>>>()?;
    let device = glcmd_replay::replay_device()?;
    eprintln!("robust buffer access: {}", device.robust_access());
    let out = fuzz::run(
        &seeds,
        &fuzz::Config::new(seed, iterations)
            .time_limit(minutes.map(|m| Duration::from_secs(m * 60)))
            .replay(Some((&device, replay)))
            .alloc_factor(Some(16))
            .trace(trace),
    );
    println!(
        "seed {seed}: {} inputs in {:.1} s ({:.0}/s), {} loaded, {} replayed ({} replay errors, {} over budget), {} \
         crashes, {} over the allocation bound; largest allocation {} bytes for an input of {}",
        out.tried,
        out.elapsed.as_secs_f64(),
        out.tried as f64 / out.elapsed.as_secs_f64(),
        out.loaded,
        out.replayed,
        out.replay_errors,
        out.over_budget,
        out.crashes.len(),
        out.over_alloc,
        out.largest_alloc.0,
        out.largest_alloc.1
    );
    for (kind, n) in &out.refused {
        println!("  refused {kind}: {n}");
    }
    let dir = std::path::Path::new(&files[0]).parent().unwrap_or(std::path::Path::new("."));
    for c in &out.crashes {
        let file = dir.join(format!("crash-{}-{}.glcap", c.seed, c.iteration));
        std::fs::write(&file, &c.input)?;
        println!("CRASH iteration {}: {} -> {}", c.iteration, c.message, file.display());
    }
    if !out.crashes.is_empty() || out.over_alloc > 0 {
        std::process::exit(1);
    }
    Ok(())
}
