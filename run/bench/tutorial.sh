#!/usr/bin/env bash
# A tutorial-style program whose frame is GL calls (run/bench/tutorial.c, issue 31's shape), run
# directly, on a second thread without glcmd, through glcmd-run, and under the drivers' own
# threading, side by side. ROUNDS rounds; each round runs every frame kind with every variant
# once, each in its own process, interleaved (so a slow spell of a shared machine hits all of
# them). Prints each run, then per frame kind and variant the median of the ratios to direct
# paired within a round, with their range, and the ImGui frame's extra time over the cached
# frame (paired within a round and variant). Fails if a run's digest (pixels and answers) differs
# from the direct run's: a variant that draws something else is a defect, not a speed.
#
#   run/bench/tutorial.sh [ROUNDS] [OBJECTS] [FRAMES]
#
# GLCMD_RUN: the launcher (default target/release/glcmd-run; `cargo build --release -p
# glcmd-run`); GLCMD_RUN_BEFORE: another launcher (an earlier build), variant `before`.
# GLCMD_BENCH_VARIANTS chooses a subset of "direct thread moved before split glcmd batch spin mesa nvidia":
# moved = every EGL and GL call on one second thread, the main thread idle (what glcmd-run's driver
# thread does, without glcmd);
# split = glcmd-run with GLCMD_RUN_DRIVER_THREAD=0 (the program's EGL calls on its own thread, as
# before the one driver thread); thread = the frames on a second thread, context made on the first (the driver's cost of that
# arrangement, which glcmd-run's render thread has); batch = glcmd-run with GLCMD_BATCH_BYTES=
# $GLCMD_BENCH_BATCH (default 16384: calls handed over in smaller batches); spin = glcmd-run with
# GLCMD_SPIN_US=$GLCMD_BENCH_SPIN (default 100: the render thread and a waiting query spin longer
# before sleeping); mesa = mesa_glthread=true (Mesa drivers
# only); nvidia = __GL_THREADED_OPTIMIZATIONS=1 (NVIDIA only). GLCMD_BENCH_FRAMES chooses the
# frame kinds (default "cached lookups lean queries imgui"). Needs a C compiler.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-6} objects=${2:-500} frames=${3:-200}
run=${GLCMD_RUN:-$root/target/release/glcmd-run}
# TUTORIAL_EXE: a program built beforehand (on a machine without a C compiler); else built here.
exe=${TUTORIAL_EXE:-}
if [[ -z $exe ]]; then
    exe=${TMPDIR:-/tmp}/glcmd-tutorial-bench
    ${CC:-cc} -O2 -o "$exe" "$root/run/bench/tutorial.c" -lEGL -lGL -lpthread
fi
[[ -x $run ]] || { echo "tutorial.sh: $run is not built (cargo build --release -p glcmd-run)" >&2; exit 1; }
variants=${GLCMD_BENCH_VARIANTS:-direct thread glcmd mesa nvidia}
kinds=${GLCMD_BENCH_FRAMES:-cached lookups lean queries imgui}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "tutorial.sh: $rounds rounds, $objects objects, $frames frames; variants: $variants"
for ((r = 0; r < rounds; r++)); do
    for kind in $kinds; do
        for v in $variants; do
            case $v in
                direct) out=$("$exe" "$kind" "$objects" "$frames") ;;
                thread) out=$("$exe" "$kind" "$objects" "$frames" thread) ;;
                moved) out=$("$exe" "$kind" "$objects" "$frames" moved) ;;
                glcmd) out=$("$run" -- "$exe" "$kind" "$objects" "$frames") ;;
                before) out=$("$GLCMD_RUN_BEFORE" -- "$exe" "$kind" "$objects" "$frames") ;;
                split) out=$(GLCMD_RUN_DRIVER_THREAD=0 "$run" -- "$exe" "$kind" "$objects" "$frames") ;;
                batch) out=$(GLCMD_BATCH_BYTES=${GLCMD_BENCH_BATCH:-16384} "$run" -- "$exe" "$kind" "$objects" "$frames") ;;
                spin) out=$(GLCMD_SPIN_US=${GLCMD_BENCH_SPIN:-100} "$run" -- "$exe" "$kind" "$objects" "$frames") ;;
                mesa) out=$(mesa_glthread=true "$exe" "$kind" "$objects" "$frames" 2>/dev/null) ;;
                nvidia) out=$(__GL_THREADED_OPTIMIZATIONS=1 "$exe" "$kind" "$objects" "$frames") ;;
                *) echo "tutorial.sh: unknown variant $v" >&2; exit 1 ;;
            esac
            echo "run $r $kind $v $out" | tee -a "$log"
        done
    done
done
python3 - "$log" <<'PY'
import re, statistics, sys
runs, digests = {}, {}
for line in open(sys.argv[1]):
    m = re.match(r"run (\d+) (\w+) (\w+) frame_ms=([\d.]+) digest=(\w+)", line)
    if m:
        runs[(int(m[1]), m[2], m[3])] = float(m[4])
        digests.setdefault((m[2], m[3]), set()).add(m[5])
bad = [f"{k} {v}: digest {sorted(d)} against direct {sorted(digests.get((k, 'direct'), []))}"
       for (k, v), d in sorted(digests.items()) if v != "direct" and d != digests.get((k, "direct"))]
kinds = sorted({k[1] for k in runs}, key=["cached", "lookups", "lean", "queries", "imgui"].index)
variants = sorted({k[2] for k in runs}, key=["direct", "thread", "moved", "before", "split", "glcmd", "batch", "spin", "mesa", "nvidia"].index)
print(f"{'frame':8} {'variant':7} {'median ms':>10}  {'paired ratio to direct: median (min-max)':>42}")
for kind in kinds:
    for v in variants:
        times = [t for (r, k, w), t in runs.items() if k == kind and w == v]
        ratios = [t / runs[(r, k, "direct")] for (r, k, w), t in runs.items()
                  if k == kind and w == v and (r, k, "direct") in runs]
        cell = f"{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})" if ratios else "-"
        print(f"{kind:8} {v:7} {statistics.median(times):10.4f}  {cell:>42}")
if "imgui" in kinds and "cached" in kinds:
    for v in variants:
        extra = [(runs[(r, "imgui", v)] - runs[(r, "cached", v)]) * 1000 for (r, k, w) in runs
                 if k == "imgui" and w == v and (r, "cached", v) in runs]
        if extra:
            print(f"imgui - cached, {v:7}: {statistics.median(extra):+.1f} us a frame "
                  f"({min(extra):+.1f} to {max(extra):+.1f}) for 25 state queries and their restores")
for line in bad:
    print("MISMATCH " + line)
sys.exit(1 if bad else 0)
PY
