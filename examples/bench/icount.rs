//! Instruction counts (issue 20, item 5): the record and replay workloads of the micro
//! benchmarks, run one per process so that `valgrind --tool=callgrind` can count the
//! instructions each costs. Unlike a time, a count does not depend on the machine's load, so a
//! regression of a few per cent shows in one CI run (`.ci/icount.sh` compares with a committed
//! baseline).
//!
//! `bench --icount WORKLOAD REPS` warms the workload up (the list's buffers grown, the replay
//! state's first pass made), then calls [`measured`] once, which runs it `REPS` times, and
//! prints how many commands that recorded or replayed. `callgrind --toggle-collect` on
//! [`measured`] counts the instructions executed inside it and nothing else (start-up, warm-up
//! and printing are outside), so the count divided by the commands is the cost per command.
//!
//! The loops are those the timed benchmarks run ([`micro::record_batch`] into a warm list, with
//! its `clear_commands` per batch; [`Standalone::replay`] of the same two streams on the no-op
//! table), so that a count and a time speak of the same code.

use std::hint::black_box;

use glcmd::replay::Standalone;
use glcmd::CommandList;

use crate::micro::{self, Cmd};
use crate::scene;

/// The workloads, by the name the command line takes.
pub const WORKLOADS: [&str; 6] = [
    "record-bind-texture",
    "record-uniform-matrix4fv",
    "record-draw-elements-instanced",
    "record-named-buffer-sub-data-1k",
    "replay-bind-texture",
    "replay-object-stream",
];

/// Commands in each replayed list (the same length as the dispatch benchmark's).
const STREAM: u32 = 4096;

/// The measured region: `reps` runs of `f`. Never inlined, so that callgrind sees it as a
/// function of its own (`--toggle-collect=*icount*measured*`); `f` is a closure, so the one
/// copy of this function per workload holds the whole workload.
#[inline(never)]
fn measured<F: FnMut()>(reps: u32, mut f: F) {
    for _ in 0..reps {
        f();
    }
}

/// Runs workload `name` `reps` times; returns the commands recorded or replayed in
/// [`measured`], or `None` for a name that is not in [`WORKLOADS`].
pub fn run(name: &str, reps: u32) -> Option<u64> {
    let cmd = match name {
        "record-bind-texture" => Some(Cmd::BindTexture),
        "record-uniform-matrix4fv" => Some(Cmd::UniformMatrix4fv),
        "record-draw-elements-instanced" => Some(Cmd::DrawElementsInstanced),
        "record-named-buffer-sub-data-1k" => Some(Cmd::NamedBufferSubData1K),
        _ => None,
    };
    if let Some(c) = cmd {
        return Some(record(c, reps));
    }
    match name {
        "replay-bind-texture" => Some(replay(micro::bind_stream(STREAM), STREAM, reps)),
        "replay-object-stream" => Some(replay(micro::object_stream(STREAM / 4), 3 * (STREAM / 4), reps)),
        _ => None,
    }
}

/// `reps` batches of command `c` recorded into a warm list, as `micro::record_ns` times them.
fn record(c: Cmd, reps: u32) -> u64 {
    let mats = micro::matrices();
    let n = c.batch();
    let mut list = CommandList::new();
    micro::record_batch(&mut list, c, n, &mats); // grow the buffers once: the list is warm
    measured(reps, || {
        list.clear_commands();
        micro::record_batch(&mut list, c, n, &mats);
        black_box(&list);
    });
    u64::from(reps) * u64::from(n)
}

/// `reps` replays of `list` (`commands` long) on the no-op table, after one unmeasured replay.
fn replay(list: CommandList, commands: u32, reps: u32) -> u64 {
    let table = scene::noop_gl();
    let g = black_box(&*table);
    let mut state: Standalone = micro::replay_state(g);
    // SAFETY: the no-op table, a list recorded by glcmd.
    unsafe { state.replay(g, &list) };
    measured(reps, || {
        // SAFETY: as above.
        unsafe { state.replay(g, black_box(&list)) };
    });
    u64::from(reps) * u64::from(commands)
}

/// `bench --icount WORKLOAD REPS`: runs the workload and prints `commands N`. Exits with status
/// 2 and a usage line on bad arguments.
pub fn main(args: &[String]) {
    let usage = || -> ! {
        eprintln!("usage: bench --icount WORKLOAD REPS, WORKLOAD one of: {}", WORKLOADS.join(", "));
        std::process::exit(2)
    };
    let (Some(name), Some(reps)) = (args.first(), args.get(1).and_then(|r| r.parse().ok())) else { usage() };
    match run(name, reps) {
        Some(commands) => println!("commands {commands}"),
        None => usage(),
    }
}
