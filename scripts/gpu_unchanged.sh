#!/usr/bin/env bash
# Issue 18 on the GPU machine: (a) glcmd-run on NVIDIA: run/tests/c/plain.c (linked, and with
# libEGL opened by dlopen) directly and through glcmd-run, outputs compared; (b) the unmodified
# program benchmark (run/bench/frames.sh): direct, glcmd-run and __GL_THREADED_OPTIMIZATIONS=1,
# query-free and query-heavy frames. Carry `.gl` (see BENCHMARKS.md) and `.benchbin`, built here:
#   cargo build --release -p glcmd-run
#   cp target/release/{glcmd-run,libglcmd_preload.so} .benchbin/
#   cc -O2 -o .benchbin/frames-bench run/bench/frames.c -lEGL -lGL
#   cc -std=c99 -O1 -DWITH_GLX -o .benchbin/plain run/tests/c/plain.c -lEGL -lGL -lX11
#   cc -std=c99 -O1 -DVIA_DLOPEN -o .benchbin/plain-dlopen run/tests/c/plain.c -ldl
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
O=${OUT:-/tmp/gpu-unchanged}
B=$PWD/.benchbin
mkdir -p "$O"
nproc > "$O/machine.txt"; nvidia-smi -L >> "$O/machine.txt" 2>&1
for p in plain plain-dlopen; do
    "$B/$p" > "$O/$p-direct.txt" 2>&1
    "$B/glcmd-run" --stats -- "$B/$p" > "$O/$p-glcmd.txt" 2> "$O/$p-glcmd.err"
    if diff "$O/$p-direct.txt" "$O/$p-glcmd.txt" > "$O/$p-diff.txt"; then echo "$p: identical" >> "$O/summary.txt"; else echo "$p: DIFFERS" >> "$O/summary.txt"; fi
done
GLCMD_RUN=$B/glcmd-run FRAMES_EXE=$B/frames-bench GLCMD_BENCH_VARIANTS="direct glcmd nvidia" \
    bash run/bench/frames.sh "${RUNS:-8}" 2000 200 60 > "$O/frames.txt" 2>&1
tail -8 "$O/frames.txt" >> "$O/summary.txt"
cat "$O/summary.txt"
