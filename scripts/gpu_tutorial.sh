#!/usr/bin/env bash
# Issue 31 on the GPU machine: run/bench/tutorial.sh (a frame of GL calls only, five kinds)
# directly, on a second thread without glcmd, through an earlier glcmd-run (`before`) and this
# one, and under __GL_THREADED_OPTIMIZATIONS=1, interleaved in ROUNDS rounds, each run its own
# process. Carry `.gl` (BENCHMARKS.md, "Reproducing the GPU figures") and `.benchbin`, built here:
#   cargo build --release -p glcmd-run --lib --bins        (at the commit to measure, and at the earlier one)
#   mkdir -p .benchbin/before .benchbin/after
#   cp target/release/{glcmd-run,libglcmd_preload.so} .benchbin/after/   (and the earlier build's into before/)
#   cc -O2 -o .benchbin/tutorial run/bench/tutorial.c -lEGL -lGL -lpthread
#
#   ROUNDS=8 OBJECTS=500 FRAMES=300 bash scripts/gpu_tutorial.sh
#
# SPLIT=N adds N rounds of the cached, lean and queries frames (direct, glcmd-run, NVIDIA's
# threading) with TUTORIAL_SPLIT=1: the time the program's thread spends inside glGetError
# against the frame (split.txt; two clock readings a call, so apart from the paired ratios).
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
O=${OUT:-/tmp/gpu-tutorial}
B=$PWD/.benchbin
mkdir -p "$O"
{ nproc; nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader; } > "$O/machine.txt" 2>&1
TUTORIAL_EXE=$B/tutorial GLCMD_RUN=$B/after/glcmd-run GLCMD_RUN_BEFORE=$B/before/glcmd-run \
    GLCMD_BENCH_VARIANTS="${VARIANTS:-direct thread before glcmd nvidia}" \
    bash run/bench/tutorial.sh "${ROUNDS:-8}" "${OBJECTS:-500}" "${FRAMES:-300}" > "$O/tutorial.txt" 2>&1
for ((r = 0; r < ${SPLIT:-0}; r++)); do
    for kind in cached lean queries; do
        a=("$B/tutorial" "$kind" "${OBJECTS:-500}" "${FRAMES:-300}")
        echo "split $r $kind direct $(TUTORIAL_SPLIT=1 "${a[@]}")"
        echo "split $r $kind glcmd $(TUTORIAL_SPLIT=1 "$B/after/glcmd-run" -- "${a[@]}")"
        echo "split $r $kind nvidia $(TUTORIAL_SPLIT=1 __GL_THREADED_OPTIMIZATIONS=1 "${a[@]}")"
    done
done > "$O/split.txt" 2>&1
cat "$O/machine.txt"
grep -v '^run ' "$O/tutorial.txt"
grep '^split' "$O/split.txt"
