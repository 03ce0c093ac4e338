#!/usr/bin/env bash
# Issues 17 and 20 (item 1) on the GPU machine: (a) the restructured runtime against the commit
# before it (0b4e660, `bench-old17`): the quick bench's JSON figures (record, replay overhead,
# allocations), 3 interleaved pairs; (b) the diagnostics cost, `diag_cost`, levels side by side
# in one run, 2 runs. Carry `.gl` (see BENCHMARKS.md) and `.benchbin`, built here:
#   cargo build --release --example bench --example diag_cost
#   cp target/release/examples/{bench,diag_cost} .benchbin/
#   (at 0b4e660, in a worktree) cargo build --release --example bench -> .benchbin/bench-old17
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
O=${OUT:-/tmp/gpu-house}
B=.benchbin
mkdir -p "$O"
nproc > "$O/machine.txt"; nvidia-smi -L >> "$O/machine.txt" 2>&1
for i in 1 2 3; do
    $B/bench-old17 --quick 2>/dev/null | tail -1 >> "$O/quick-old.jsonl"
    $B/bench --quick 2>/dev/null | tail -1 >> "$O/quick-new.jsonl"
done
for i in 1 2; do
    $B/diag_cost > "$O/diag_cost-$i.txt" 2>&1
done
