//! The short fuzz round CI runs: mutations of a real capture (made here, on llvmpipe) fed to
//! the loader and validator; inputs that still load are replayed on a real device. No input
//! may panic the loader, kill the device, or make the loader allocate more than a small
//! multiple of its size. The long round is `examples/fuzz.rs` (see BENCHMARKS.md).
//!
//! `GLCMD_FUZZ_ITERATIONS` and `GLCMD_FUZZ_SEED` change the round.

use glcmd_replay::fuzz::{self, CountingAlloc, Seed};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn a_short_fuzz_round_finds_no_crash() {
    let dir = std::env::temp_dir().join(format!("glcmd-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("seed.glcap");
    fuzz::seed_capture(&path).unwrap();
    let seed = Seed::new(std::fs::read(&path).unwrap()).unwrap();
    let device = glcmd_replay::replay_device().unwrap();
    assert!(device.robust_access(), "llvmpipe offers robust buffer access");
    let config = fuzz::Config::new(env("GLCMD_FUZZ_SEED", 1), env("GLCMD_FUZZ_ITERATIONS", 20_000))
        .replay(Some((&device, 200)))
        .alloc_factor(Some(16));
    let out = fuzz::run(&[seed], &config);
    eprintln!(
        "{} inputs of {} bytes in {:.1} s: {} loaded ({} replayed, {} replay errors, {} over budget), {} crashes; largest allocation {} bytes (input {}); refused: {:?}",
        out.tried,
        std::fs::metadata(&path).unwrap().len(),
        out.elapsed.as_secs_f64(),
        out.loaded,
        out.replayed,
        out.replay_errors,
        out.over_budget,
        out.crashes.len(),
        out.largest_alloc.0,
        out.largest_alloc.1,
        out.refused
    );
    for (i, c) in out.crashes.iter().enumerate() {
        let file = dir.join(format!("crash-{i}.glcap"));
        std::fs::write(&file, &c.input).unwrap();
        eprintln!("crash (seed {}, iteration {}): {} -> {}", c.seed, c.iteration, c.message, file.display());
    }
    assert!(out.crashes.is_empty(), "{} crashes", out.crashes.len());
    assert_eq!(out.over_alloc, 0, "inputs made the loader allocate more than 16 times their size");
    // The mutations reach the packet checks, not only the framing.
    for kind in ["Truncated", "Malformed", "Packet/OutOfRange", "Packet/UnknownOpcode"] {
        assert!(out.refused.contains_key(kind), "no input was refused as {kind}: {:?}", out.refused);
    }
    assert!(out.loaded > 0 && out.replayed > 0);
}
