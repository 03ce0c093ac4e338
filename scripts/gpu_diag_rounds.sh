#!/usr/bin/env bash
# Issue 20, item 1 on the GPU machine: what each diagnostics level costs per replayed command,
# judged over many processes. `diag_cost` replays the levels interleaved frame by frame in one
# process, so each process's ratios (level / off) are paired within a moment of the machine's
# speed; ROUNDS processes give ROUNDS ratios per level, summarised by scripts/diag_rounds.py as
# their median with a 95 % bootstrap interval. Carry `.gl` (see BENCHMARKS.md) and `.benchbin`,
# built here from the same commit:
#   cargo build --release --workspace --example diag_cost && mkdir -p .benchbin && cp target/release/examples/diag_cost .benchbin/
# then, with the `run` tool (carry [".gl", ".benchbin"]): bash scripts/gpu_diag_rounds.sh
# and here: python3 scripts/diag_rounds.py docs/gpu-runs/data/.../diag_cost.jsonl (the returned
# folder kept with scripts/keep_gpu_run.sh)
# (.benchbin/diag_cost-old, a binary of an earlier commit, runs interleaved into
# diag_cost-old.jsonl when it is there.)
set -u
ROUNDS=${ROUNDS:-32}
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
O=${OUT:-/tmp/gpu-diag}
mkdir -p "$O"
{ nproc; nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.sm,pstate --format=csv; } > "$O/machine.txt" 2>&1
start=$(date +%s)
for i in $(seq 1 "$ROUNDS"); do
    # One file for all runs (the device returns a handful of files, not one per run).
    .benchbin/diag_cost > "$O/run.txt" 2>&1
    { echo "## process $i"; cat "$O/run.txt"; } >> "$O/diag_cost-all.txt"
    tail -1 "$O/run.txt" >> "$O/diag_cost.jsonl"
    # A before/after comparison: a binary of an earlier commit, if carried, interleaved.
    if [ -x .benchbin/diag_cost-old ]; then
        .benchbin/diag_cost-old 2>/dev/null | tail -1 >> "$O/diag_cost-old.jsonl"
    fi
done
rm -f "$O/run.txt"
echo "diag_cost x$ROUNDS after $(($(date +%s) - start)) s" >> "$O/times.txt"
