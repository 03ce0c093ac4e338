#!/usr/bin/env bash
# Capture cost on the GPU machine (issue 13), the hand-off against the earlier copy, in one run.
# Carry `.gl` and `.benchbin`, built here:
#   cargo build --release -p glcmd --example scene && cargo build --release -p glcmd-replay
#   cp target/release/examples/scene target/release/glcmd-replay .benchbin/
#   .benchbin/scene-copy: examples/scene built at 98991ac (the render thread copied each list)
# Five rounds, each: plain, --capture (hand-off), plain and --capture of the copying build, 300
# frames each, a new capture file per run. Outputs go to $OUT or /tmp/gpu-capture.
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
O=${OUT:-/tmp/gpu-capture}
B=$PWD/.benchbin
mkdir -p "$O"
nvidia-smi -L > "$O/machine.txt" 2>&1
start=$(date +%s)
for i in 1 2 3 4 5; do
    for variant in scene scene-copy; do
        echo "== $variant plain $i" >> "$O/runs.txt"
        $B/$variant --frames 300 --out /tmp/plain.png 2>&1 | grep -E "frame_ms" >> "$O/runs.txt"
        echo "== $variant capture $i" >> "$O/runs.txt"
        $B/$variant --frames 300 --out /tmp/captured-$variant.png --capture /tmp/c-$variant-$i.glcap 2>&1 \
            | grep -E "captured|frame_ms" >> "$O/runs.txt"
        rm -f /tmp/c-$variant-$i.glcap
    done
done
echo "runs done $(($(date +%s) - start)) s" >> "$O/runs.txt"
# Fidelity of the hand-off build's capture on the GPU.
$B/scene --frames 100 --out "$O/scene.png" --capture /tmp/f.glcap > /dev/null 2>&1
$B/glcmd-replay /tmp/f.glcap --png "$O/replay.png" > "$O/replay.txt" 2>&1
echo "replay exit $?" >> "$O/replay.txt"
cmp "$O/scene.png" "$O/replay.png" >> "$O/replay.txt" 2>&1 && echo "PNG files identical" >> "$O/replay.txt"
echo "all done $(($(date +%s) - start)) s" >> "$O/runs.txt"
