#!/usr/bin/env bash
# Real programs from Debian's packages, directly and through glcmd-run (issue 35's judge): the
# same picture, exit status and stderr both ways, over repeated rounds; then paired timings of
# mpv's and Godot's playback directly, through glcmd-run and with Mesa's glthread. Outside CI
# (the packages are large: apt-get install mpv godot3 blender xvfb).
#
#   scripts/apps_compare.sh [GLCMD_RUN] [ROUNDS (3)] [TIMED_ROUNDS (5)]
#
# The cases (each under a fresh Xvfb, with its own HOME and TMPDIR, so no run sees another's
# files; scripts/apps/ holds their inputs):
#
# * blender-render: `blender -b` renders the default scene with Eevee (160x120) to a PNG;
# * blender-window: Blender's window, screenshot after 2 s (bpy.ops.screen.screenshot);
# * godot: a Godot 3 GLES3 project that draws a fixed picture and saves the viewport at frame 20;
# * mpv: mpv (--vo=gpu, EGL on X11) paused on frame 30 of lavfi's testsrc2, screenshot of the
#   window.
#
# Pictures compare by their decoded pixels (scripts/apps/png_pixels.py: Blender stamps a date
# into its PNGs); stderr compares with glcmd-run's own lines ("glcmd-run: ...", GLCMD_RUN_STATS=1)
# left out, which say which contexts it served (a device line each) and which it left to the
# driver (a share group it does not serve whole, issue 35 item 3). Exits 1 on any difference.
#
# Timings: mpv plays 300 frames of testsrc2 untimed (`--untimed --frames=300`) and Godot runs
# 300 frames (FRAMES=300), each variant in its own process, the variants interleaved in every
# round; the medians and each round's ratios to direct are printed. Absolute times from this
# machine (llvmpipe) say nothing about a GPU; the ratios are the figures.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=${1:-$root/target/debug/glcmd-run}
rounds=${2:-3}
timed_rounds=${3:-5}
apps=$root/scripts/apps
out=${APPS_OUT:-${TMPDIR:-/tmp}/glcmd-apps}
for tool in blender godot3 mpv xvfb-run python3; do
    command -v "$tool" >/dev/null || { echo "apps_compare: $tool is not installed (apt-get install mpv godot3 blender xvfb)" >&2; exit 1; }
done
[[ -x $run ]] || { echo "apps_compare: $run is not built (cargo build -p glcmd-run --lib --bins)" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out"

# The command of each case; $SHOT is the picture it writes.
case_command() {
    case $1 in
        blender-render) echo blender -b --factory-startup -noaudio --python "$apps/blender_render.py" ;;
        blender-window) echo blender --factory-startup -noaudio --window-geometry 0 0 800 600 --python "$apps/blender_window.py" ;;
        godot) echo godot3 --path "$apps/godot" --fixed-fps 60 --resolution 320x240 ;;
        mpv) echo mpv --no-config --really-quiet --vo=gpu --gpu-api=opengl --gpu-context=x11egl --geometry=320x240 \
            --pause --start=1 --script="$apps/mpv_shot.lua" "av://lavfi:testsrc2=size=320x240:rate=30:duration=3" ;;
    esac
}

# One run: run_case CASE SIDE ROUND [VAR=VALUE ...]; SIDE is direct, glcmd or glthread. Writes
# $out/CASE-SIDE-ROUND.{png,err,status,time}.
run_case() {
    local name=$1 side=$2 round=$3
    shift 3
    local base=$out/$name-$side-$round prefix=()
    mkdir -p "$base.home" "$base.tmp"
    case $side in
        glcmd) prefix=(env GLCMD_RUN_STATS=1 "$run" --) ;;
        glthread) prefix=(env mesa_glthread=true) ;;
    esac
    local t0
    t0=$(date +%s%N)
    # shellcheck disable=SC2046 # the case's command is words
    HOME=$base.home TMPDIR=$base.tmp SHOT=$base.png timeout 300 xvfb-run -a -s "-screen 0 1024x768x24" \
        env "$@" "${prefix[@]}" $(case_command "$name") >"$base.out" 2>"$base.err"
    echo $? >"$base.status"
    echo $(($(date +%s%N) - t0)) >"$base.time"
}

# The comparable outcome of a run: status, picture, stderr without glcmd-run's lines.
outcome() {
    local base=$1
    echo "status $(cat "$base.status")"
    if [[ -s $base.png ]]; then echo "picture $(python3 "$apps/png_pixels.py" "$base.png")"; else echo "picture none"; fi
    grep -v '^glcmd-run' "$base.err"
}

differences=0
printf '%-16s %-6s %-8s %-8s %-10s %s\n' case round status picture stderr "contexts glcmd served, and left to the driver"
for round in $(seq 1 "$rounds"); do
    for name in blender-render blender-window godot mpv; do
        run_case "$name" direct "$round"
        run_case "$name" glcmd "$round"
        d=$out/$name-direct-$round g=$out/$name-glcmd-$round
        same() { [[ "$(outcome "$d" | grep "^$1")" == "$(outcome "$g" | grep "^$1")" ]] && echo same || echo DIFFERS; }
        status=$(same status) picture=$(same picture)
        if diff <(outcome "$d" | grep -v '^status\|^picture') <(outcome "$g" | grep -v '^status\|^picture') >/dev/null; then
            stderr=same
        else
            stderr=DIFFERS
        fi
        served=$(grep -c '^glcmd-run: device' "$g.err")
        direct=$(grep -c '^glcmd-run: context .* runs directly' "$g.err")
        printf '%-16s %-6s %-8s %-8s %-10s %s served, %s left\n' "$name" "$round" "$status" "$picture" "$stderr" "$served" "$direct"
        [[ $status$picture$stderr == samesamesame ]] || differences=$((differences + 1))
        [[ $(cat "$d.status") == 0 ]] || echo "  $name exits $(cat "$d.status") directly: $(tail -2 "$d.err")"
    done
done
echo "apps_compare: $differences differences over $rounds rounds (runs in $out)"

# Paired timings: mpv playback and Godot frames, three variants interleaved per round.
timed() {
    case $1 in
        mpv) echo mpv --no-config --really-quiet --vo=gpu --gpu-api=opengl --gpu-context=x11egl --geometry=320x240 \
            --untimed --frames=300 --no-audio "av://lavfi:testsrc2=size=320x240:rate=30:duration=20" ;;
        godot) echo godot3 --path "$apps/godot" --fixed-fps 60 --resolution 320x240 ;;
    esac
}
if ((timed_rounds > 0)); then
    for name in mpv godot; do
        for round in $(seq 1 "$timed_rounds"); do
            for side in direct glcmd glthread; do
                base=$out/timed-$name-$side-$round
                mkdir -p "$base.home" "$base.tmp"
                prefix=()
                [[ $side == glcmd ]] && prefix=("$run" --)
                [[ $side == glthread ]] && prefix=(env mesa_glthread=true)
                t0=$(date +%s%N)
                # shellcheck disable=SC2046
                HOME=$base.home TMPDIR=$base.tmp SHOT=$base.png FRAMES=300 timeout 300 \
                    xvfb-run -a -s "-screen 0 1024x768x24" "${prefix[@]}" $(timed "$name") >/dev/null 2>"$base.err"
                echo $(($(date +%s%N) - t0)) >"$base.time"
            done
        done
        python3 - "$out" "$name" "$timed_rounds" <<'EOF'
import statistics, sys
out, name, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
t = {s: [int(open(f"{out}/timed-{name}-{s}-{r}.time").read()) / 1e9 for r in range(1, rounds + 1)] for s in ("direct", "glcmd", "glthread")}
for s in ("glcmd", "glthread"):
    ratios = sorted(t[s][i] / t["direct"][i] for i in range(rounds))
    print(f"{name}: {s}/direct median {statistics.median(ratios):.3f}, range {ratios[0]:.3f}-{ratios[-1]:.3f} "
          f"(median {statistics.median(t[s]):.2f} s against {statistics.median(t['direct']):.2f} s, {rounds} rounds; "
          "each run includes Xvfb's start)")
# Issue 35's goal is glcmd-run against the driver's own threading, paired in the same round.
ratios = sorted(t["glcmd"][i] / t["glthread"][i] for i in range(rounds))
print(f"{name}: glcmd/glthread median {statistics.median(ratios):.3f}, range {ratios[0]:.3f}-{ratios[-1]:.3f}")
EOF
    done
fi
((differences == 0))
