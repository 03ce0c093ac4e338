#!/usr/bin/env bash
# The batch run on the GPU machine behind BENCHMARKS.md's figures of 2026-12-01 (issues 8-13).
# Carry `.gl` (glvnd's loader packages, see BENCHMARKS.md) and `.benchbin`, built here from the
# same commit:
#   cargo build --release -p glcmd --example bench --example scene
#   cargo build --release -p glcmd-replay     # every family, as the examples (capi dev-dep) have
#   cp target/release/examples/{bench,scene} target/release/glcmd-replay .benchbin/
#   .benchbin/bench-old: examples/bench built at commit 1d3b607 (before issues 8-13)
# Outputs go to $OUT (the device's return folder) or /tmp/gpu-round.
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
O=${OUT:-/tmp/gpu-round}
B=.benchbin
mkdir -p "$O"
nproc > "$O/machine.txt"; nvidia-smi -L >> "$O/machine.txt" 2>&1
start=$(date +%s)
# Replay dispatch, old binary against new, interleaved: what the binding shadow and the
# offset checks cost per replayed command.
for i in 1 2 3; do
    $B/bench-old --only dispatch >> "$O/dispatch-old.txt" 2>&1
    $B/bench --only dispatch >> "$O/dispatch-new.txt" 2>&1
done
echo "dispatch done $(($(date +%s) - start)) s" >> "$O/times.txt"
# Full run: record, round trips, worker-side figures (pools, caches), frames.
$B/bench > "$O/full.md" 2>&1
echo "full done $(($(date +%s) - start)) s" >> "$O/times.txt"
# GL-bound frame, every variant alone in a process, 5 runs interleaved.
BENCH_DRIVER=nvidia $B/bench --only glbound --objects 2000 --frames 150 --reps 5 > "$O/glbound.md" 2>&1
echo "glbound done $(($(date +%s) - start)) s" >> "$O/times.txt"
# Capture cost: the scene with and without --capture, interleaved.
for i in 1 2 3; do
    $B/scene --frames 100 --out "$O/scene.png" > "$O/scene-plain-$i.txt" 2>&1
    $B/scene --frames 100 --out "$O/scene-captured.png" --capture /tmp/scene.glcap > "$O/scene-capture-$i.txt" 2>&1
done
ls -l /tmp/scene.glcap > "$O/replay.txt"
# Replay fidelity on the GPU: the capture replayed headless gives the scene's PNG.
$B/glcmd-replay /tmp/scene.glcap --png "$O/replay.png" >> "$O/replay.txt" 2>&1
echo "replay exit $?" >> "$O/replay.txt"
cmp "$O/scene-captured.png" "$O/replay.png" >> "$O/replay.txt" 2>&1 && echo "PNG files identical" >> "$O/replay.txt"
echo "all done $(($(date +%s) - start)) s" >> "$O/times.txt"
