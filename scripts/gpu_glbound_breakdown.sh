#!/usr/bin/env bash
# Issue 20, item 3: where the GL-bound frame's time goes, per variant (examples/bench/breakdown.rs:
# the render thread's phases from Stats::render, and the harness's hand-off on the recording
# side). Carry `.gl` (glvnd's loader packages, see BENCHMARKS.md) and `.benchbin`, built here
# from the same commit:
#   cargo build --release --workspace --example bench
#   mkdir -p .benchbin && cp target/release/examples/bench .benchbin/
# then, with the `run` tool (carry [".gl", ".benchbin"]): bash scripts/gpu_glbound_breakdown.sh
# REPS rounds of every variant, interleaved, each process timing SEGMENTS segments of FRAMES
# frames (the breakdown is the first segment's). About 30 s of device time with the defaults.
# Prints the breakdown table; every table goes to $OUT/glbound-breakdown.md (the device's return
# folder) or /tmp/gpu-breakdown, the raw segments to glbound-breakdown.err.
set -u
REPS=${REPS:-12}
SEGMENTS=${SEGMENTS:-1}
FRAMES=${FRAMES:-300}
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
O=${OUT:-/tmp/gpu-breakdown}
mkdir -p "$O"
{ nproc; cat /sys/devices/system/clocksource/clocksource0/current_clocksource; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,pstate --format=csv; } > "$O/machine.txt" 2>&1
start=$(date +%s)
BENCH_DRIVER=nvidia .benchbin/bench --only glbound --objects 2000 --frames "$FRAMES" --reps "$REPS" \
    --segments "$SEGMENTS" > "$O/glbound-breakdown.md" 2> "$O/glbound-breakdown.err"
status=$?
echo "glbound exit $status after $(($(date +%s) - start)) s (REPS=$REPS SEGMENTS=$SEGMENTS FRAMES=$FRAMES)" | tee -a "$O/times.txt"
# The first table (throughput and ratios to direct GL, per run), then the breakdown.
sed -n '/^| variant | workers | throughput/,/^$/p' "$O/glbound-breakdown.md"
sed -n '/^Where the frame goes/,$p' "$O/glbound-breakdown.md"
