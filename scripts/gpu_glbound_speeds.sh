#!/usr/bin/env bash
# Issue 20, item 2: the GL-bound frame on the GPU machine, classified by the GPU's speed (see
# examples/bench/speeds.rs and BENCHMARKS.md, "The GL-bound frame by speed"). Carry `.gl`
# (glvnd's loader packages, see BENCHMARKS.md) and `.benchbin`, built here from the same commit:
#   cargo build --release --workspace --example bench
#   mkdir -p .benchbin && cp target/release/examples/bench .benchbin/
# then, with the `run` tool (carry [".gl", ".benchbin"]): bash scripts/gpu_glbound_speeds.sh
# Every variant runs in processes of its own, REPS rounds interleaved, each process timing
# SEGMENTS segments of FRAMES frames. Outputs go to $OUT (the device's return folder) or
# /tmp/gpu-speeds.
set -u
REPS=${REPS:-48}
SEGMENTS=${SEGMENTS:-3}
FRAMES=${FRAMES:-150}
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
O=${OUT:-/tmp/gpu-speeds}
mkdir -p "$O"
{ nproc; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,pstate --format=csv; } > "$O/machine.txt" 2>&1
start=$(date +%s)
BENCH_DRIVER=nvidia .benchbin/bench --only glbound --objects 2000 --frames "$FRAMES" --reps "$REPS" \
    --segments "$SEGMENTS" > "$O/glbound-speeds.md" 2> "$O/glbound-speeds.err"
echo "glbound exit $? after $(($(date +%s) - start)) s (REPS=$REPS SEGMENTS=$SEGMENTS FRAMES=$FRAMES)" >> "$O/times.txt"
