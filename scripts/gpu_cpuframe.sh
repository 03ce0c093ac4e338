#!/usr/bin/env bash
# Issue 20, item 4: the CPU-bound frame with one worker on the GPU machine, every variant
# interleaved over ROUNDS rounds and judged by ratios within a round (see
# examples/bench/cpuframe.rs and BENCHMARKS.md, "The CPU-bound frame with one worker"). Carry
# `.gl` (glvnd's loader packages, see BENCHMARKS.md) and `.benchbin`, built here from the same
# commit:
#   cargo build --release --workspace --example bench
#   mkdir -p .benchbin && cp target/release/examples/bench .benchbin/
# then, with the `run` tool (carry [".gl", ".benchbin"]): bash scripts/gpu_cpuframe.sh
# A round is 6 variants × (FRAMES + warm-up) frames of about 100 ms: ROUNDS=16 FRAMES=20 takes
# about 5 minutes; the 2-worker line (WORKERS2=1) doubles that. Outputs go to $OUT (the device's
# return folder) or /tmp/gpu-cpuframe.
set -u
ROUNDS=${ROUNDS:-16}
FRAMES=${FRAMES:-20}
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
O=${OUT:-/tmp/gpu-cpuframe}
mkdir -p "$O"
{ nproc; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,pstate --format=csv; } > "$O/machine.txt" 2>&1
start=$(date +%s)
.benchbin/bench --only cpuframe --objects 2000 --frames "$FRAMES" --rounds "$ROUNDS" --workers 1 \
    > "$O/cpuframe-1.md" 2> "$O/cpuframe-1.err"
echo "cpuframe 1 worker exit $? after $(($(date +%s) - start)) s (ROUNDS=$ROUNDS FRAMES=$FRAMES)" >> "$O/times.txt"
if [ "${WORKERS2:-0}" = 1 ]; then
    .benchbin/bench --only cpuframe --objects 2000 --frames "$FRAMES" --rounds "$ROUNDS" --workers 2 \
        > "$O/cpuframe-2.md" 2> "$O/cpuframe-2.err"
    echo "cpuframe 2 workers exit $? after $(($(date +%s) - start)) s" >> "$O/times.txt"
fi
