#!/usr/bin/env bash
# Makes scripts/piglit/core-tests.txt: the tests of piglit's `quick` profile in the groups of
# groups.txt that ask for a core-profile context, i.e. those glcmd-run adopts. Runs every test of
# the groups through glcmd-run (under Xvfb, x11_egl), reruns the X-connection flakes (which fail
# before they create a context, so say nothing of it), and keeps the tests whose output has no
# "glcmd-run: context … runs directly" line (compatibility-profile and GLES tests, which
# glcmd-run leaves to the driver), minus scripts/piglit/excluded.txt. Needs piglit, waffle-utils,
# xvfb and a built glcmd-run; rerun it when Debian's piglit changes.
#
#   scripts/piglit/discover.sh [GLCMD_RUN]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
run=${1:-$root/target/debug/glcmd-run}
dir=$root/scripts/piglit
out=${TMPDIR:-/tmp}/glcmd-piglit-discover
rm -rf "$out" "$out-retry"
args=()
while read -r group; do
    [[ -z $group || $group == \#* ]] && continue
    args+=(-t "^$(sed 's/[.]/[.]/g' <<<"$group")@")
done <"$dir/groups.txt"
export PIGLIT_PLATFORM=x11_egl
xvfb-run -a -s "-screen 0 1024x768x24" "$run" -- piglit run -p x11_egl quick "${args[@]}" --timeout 300 "$out" \
    >"$out.log" 2>&1
python3 "$dir/flakes.py" "$out" >"$out-flakes.txt"
if [[ -s $out-flakes.txt ]]; then
    xvfb-run -a -s "-screen 0 1024x768x24" "$run" -- piglit run -p x11_egl quick --test-list "$out-flakes.txt" \
        --timeout 300 "$out-retry" >"$out-retry.log" 2>&1
fi
python3 "$dir/core_list.py" "$out:$out-retry" "$dir/groups.txt" "$dir/excluded.txt" >"$dir/core-tests.txt"
