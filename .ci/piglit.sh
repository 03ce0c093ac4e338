#!/usr/bin/env bash
# Debian's piglit, the judge nobody here wrote (issue 19): the core-profile tests of the groups in
# scripts/piglit/groups.txt (the list is scripts/piglit/core-tests.txt, made by
# scripts/piglit/discover.sh), run directly and through glcmd-run on llvmpipe, `x11_egl` under
# Xvfb, side by side. Prints one line per group and fails if a test that passes directly does
# not pass through glcmd, or crashes or times out (a hang) through glcmd where it did not
# directly, or ran directly under glcmd-run (the list is stale).
#
#   .ci/piglit.sh [GLCMD_RUN]        (default target/debug/glcmd-run, built by cargo test)
#
# Only X-connection flakes are retried: under load Xvfb can refuse a connection before the test
# makes a GL call (scripts/piglit/flakes.py names the messages; about 2 % of the tests on a busy
# 2-core machine); those tests, and only those, run again (up to three times), and the script
# says which. A test's time limit is 300 s (the slowest listed test
# takes about 35 s directly on a loaded 2-core machine); one that reaches it is a `timeout`.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
run=${1:-$root/target/debug/glcmd-run}
dir=$root/scripts/piglit
out=${PIGLIT_OUT:-${TMPDIR:-/tmp}/glcmd-piglit}
if ! command -v piglit >/dev/null || ! command -v wflinfo >/dev/null || ! command -v xvfb-run >/dev/null; then
    echo "piglit: not installed (apt-get install piglit waffle-utils xvfb)" >&2
    exit 1
fi
[[ -x $run ]] || { echo "piglit: $run is not built (cargo build --workspace)" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out"
export PIGLIT_PLATFORM=x11_egl
# The core-profile tests of the groups, the instances of issue 34's classes (class-tests.txt:
# tests that failed or crashed through glcmd-run in the whole quick profile), and a sample of the
# tests whose contexts glcmd-run leaves to the driver (direct-tests.txt: OpenGL ES and
# compatibility contexts, which must stay as the program made them).
list=$out/tests.txt
cat "$dir/core-tests.txt" "$dir/class-tests.txt" "$dir/direct-tests.txt" | sort -u >"$list"
echo "piglit: $(grep -c . "$dir/core-tests.txt") core-profile tests of $(grep -vc '^#' "$dir/groups.txt") groups," \
    "$(grep -c . "$dir/class-tests.txt") instances of issue 34's classes and $(grep -c . "$dir/direct-tests.txt")" \
    "tests of contexts glcmd-run leaves to the driver, directly and through $(basename "$run")"

# One side's run: piglit under a fresh Xvfb, then up to three reruns of its X-connection flakes
# (each rerun only of the tests that flaked in the one before). Prints the directories to read,
# later ones over earlier ones, joined by ':'.
side() {
    local name=$1 dirs round list_in=$list
    shift
    dirs=$out/$name
    for round in 0 1 2 3; do
        local here=$out/$name-$round
        ((round == 0)) && here=$out/$name
        ((round > 0)) && dirs=$dirs:$here
        # Each side starts with an empty shader cache of its own, as on a fresh machine: with a
        # warm cache llvmpipe compiles nothing, and what happens while it compiles (at exit, say)
        # would go untested on every machine but the first.
        MESA_SHADER_CACHE_DIR=$out/$name-shader-cache \
            xvfb-run -a -s "-screen 0 1024x768x24" "$@" piglit run -p x11_egl quick --test-list "$list_in" \
            --timeout 300 "$here" >"$here.log" 2>&1 || {
            tail -20 "$here.log" >&2
            return 1
        }
        python3 "$dir/flakes.py" "$here" >"$here-flakes.txt"
        [[ -s $here-flakes.txt ]] || break
        ((round < 3)) || { echo "piglit ($name): still X-connection flakes after 3 reruns" >&2; break; }
        echo "piglit ($name): rerunning $(wc -l <"$here-flakes.txt") X-connection flakes (XOpenDisplay failed): $(tr '\n' ' ' <"$here-flakes.txt")" >&2
        list_in=$here-flakes.txt
    done
    echo "$dirs"
}

start=$SECONDS
direct=$(side direct env)
glcmd=$(side glcmd "$run" --)
echo "piglit: both runs took $((SECONDS - start)) s"
python3 "$dir/compare.py" "$direct" "$glcmd" "$dir/groups.txt" "$dir/unserved.txt" "$dir/direct-tests.txt"
