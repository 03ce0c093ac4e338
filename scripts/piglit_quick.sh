#!/usr/bin/env bash
# The whole of piglit's `quick` profile through glcmd-run, then directly only what did not pass
# through it (issue 34's judge: glcmd-run breaks nothing it touches). About 80 minutes on 2 cores
# for Debian 12's 42,874 tests; outside CI (CI runs .ci/piglit.sh, a sample of every group).
#
#   scripts/piglit_quick.sh [GLCMD_RUN] [piglit run options, e.g. -t spec@khr_debug]
#
# 1. `glcmd-run -- piglit run -p x11_egl quick` under a fresh Xvfb, GLCMD_RUN_STATS=1, so that
#    every test whose context glcmd adopted says so on its stderr (the device's line at its end),
#    and every test whose context ran directly says why ("runs directly ... it is an OpenGL ES
#    context"). That sorts each test into a context kind: adopted core, compatibility run
#    directly, GLES run directly, other run directly, no context.
# 2. Directly, only the tests that did not pass through glcmd-run (skips included): a test that
#    passes through glcmd-run is no regression, whatever it does directly.
# 3. On each side, tests that failed to reach the X server (scripts/piglit/flakes.py) run again
#    one at a time (`-1`), up to three times: under load Xvfb refuses connections.
# 4. scripts/piglit/quick_compare.py prints the table per context kind and every test that passes
#    directly and not through glcmd-run, or crashes or times out only through it; exits 1 if any.
#
# Each side starts with an empty Mesa shader cache of its own, as on a fresh machine. Output in
# $PIGLIT_OUT (default /tmp/glcmd-piglit-quick).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=$root/target/debug/glcmd-run
if [[ ${1:-} != -* && -n ${1:-} ]]; then
    run=$1
    shift
fi
filters=("$@")
dir=$root/scripts/piglit
out=${PIGLIT_OUT:-${TMPDIR:-/tmp}/glcmd-piglit-quick}
for tool in piglit wflinfo xvfb-run python3; do
    command -v "$tool" >/dev/null || { echo "piglit_quick: $tool is not installed (apt-get install piglit waffle-utils xvfb)" >&2; exit 1; }
done
[[ -x $run ]] || { echo "piglit_quick: $run is not built (cargo build -p glcmd-run --lib --bins)" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out"
export PIGLIT_PLATFORM=x11_egl

# The command before `piglit run` on each side.
glcmd_side=(env GLCMD_RUN_STATS=1 "$run" --)
direct_side=(env)

# piglit under a fresh Xvfb: piglit_run NAME SIDE piglit-options... (SIDE: glcmd or direct; the
# shader cache is the side's own)
piglit_run() {
    local name=$1 side=$2
    shift 2
    local -n prefix=${side}_side
    MESA_SHADER_CACHE_DIR=$out/$side-shader-cache \
        xvfb-run -a -s "-screen 0 1024x768x24" "${prefix[@]}" piglit run -p x11_egl quick \
        --timeout 300 "$@" >"$out/$name.log" 2>&1 || { tail -20 "$out/$name.log" >&2; return 1; }
}

# Reruns a side's X-connection flakes one test at a time; prints the result directories, later
# ones over earlier ones, joined by ':'.
rerun_flakes() {
    local name=$1 dirs=$out/$1 round
    for round in 1 2 3; do
        local last=${dirs##*:}
        python3 "$dir/flakes.py" "$last" >"$out/$name-flakes-$round.txt"
        [[ -s $out/$name-flakes-$round.txt ]] || break
        echo "piglit_quick ($name): $(wc -l <"$out/$name-flakes-$round.txt") X-connection flakes, rerun one at a time" >&2
        piglit_run "$name-$round" "$name" -1 --test-list "$out/$name-flakes-$round.txt" "$out/$name-$round"
        dirs=$dirs:$out/$name-$round
    done
    echo "$dirs"
}

start=$SECONDS
piglit_run glcmd glcmd "${filters[@]}" "$out/glcmd"
glcmd=$(rerun_flakes glcmd)
echo "piglit_quick: through glcmd-run: $((SECONDS - start)) s"
python3 "$dir/quick_compare.py" --not-passed "$glcmd" >"$out/not-passed.txt"
echo "piglit_quick: $(wc -l <"$out/not-passed.txt") tests did not pass through glcmd-run; running them directly"
if [[ -s $out/not-passed.txt ]]; then
    piglit_run direct direct --test-list "$out/not-passed.txt" "$out/direct"
    direct=$(rerun_flakes direct)
else
    direct=
fi
echo "piglit_quick: both sides took $((SECONDS - start)) s"
python3 "$dir/quick_compare.py" "$glcmd" "$direct"
