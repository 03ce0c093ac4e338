#!/usr/bin/env bash
# Issue 16 (soundness, round 2): what the new range checks and the shadow's new rule cost per
# replayed command, on the GPU machine. Replay dispatch with a no-op GL table (`bench --only
# dispatch`), the binary of the commit before the round (5e4f3e4, `bench-old`) and the new one run
# alternately, 8 pairs. Carry `.gl` (glvnd's loader packages, see BENCHMARKS.md) and `.benchbin`,
# built here:
#   cargo build --release --example bench && cp target/release/examples/bench .benchbin/
#   (at 5e4f3e4, in a worktree) cargo build --release --example bench, copied as .benchbin/bench-old
# Outputs go to $OUT (the device's return folder) or /tmp/gpu-soundness2.
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
O=${OUT:-/tmp/gpu-soundness2}
B=.benchbin
mkdir -p "$O"
nproc > "$O/machine.txt"; nvidia-smi -L >> "$O/machine.txt" 2>&1
for i in 1 2 3 4 5 6 7 8; do
    $B/bench-old --only dispatch >> "$O/dispatch-old.txt" 2>&1
    $B/bench --only dispatch >> "$O/dispatch-new.txt" 2>&1
done
