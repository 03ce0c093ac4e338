#!/usr/bin/env bash
# Debian's piglit, directly and through glcmd-run, on the same groups, side by side (issue 19's
# judge; issue 18's "glcmd-run on piglit binaries"). Needs `apt-get install piglit waffle-utils`
# and a built launcher (cargo build [--release] -p glcmd-run, or cargo test --workspace).
#
#   scripts/piglit_compare.sh [GLCMD_RUN] [-t GROUP ...]
#
# Runs `piglit run -p surfaceless_egl quick` (no X server: waffle's surfaceless EGL platform,
# tests with -fbo) into /tmp/piglit-compare/{direct,glcmd}, then prints both summaries and the
# tests whose result differs. Through glcmd-run, piglit's runner and every test it starts inherit
# the preload library; tests that ask for a compatibility-profile context (most of piglit's
# older ones) run directly and say so on stderr, so the count of those is printed too.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
run=${1:-$root/target/debug/glcmd-run}
shift || true
groups=("$@")
if ((${#groups[@]} == 0)); then
    groups=(-t arb_sync -t arb_texture_view -t arb_uniform_buffer_object -t arb_direct_state_access)
fi
out=/tmp/piglit-compare
rm -rf "$out" && mkdir -p "$out"
export PIGLIT_PLATFORM=surfaceless_egl
piglit run -p surfaceless_egl quick "${groups[@]}" "$out/direct" > "$out/direct.log" 2>&1
"$run" -- piglit run -p surfaceless_egl quick "${groups[@]}" "$out/glcmd" > "$out/glcmd.log" 2>&1
piglit summary console -d "$out/direct" "$out/glcmd"
python3 - "$out/glcmd" <<'PY'
import bz2, glob, json, sys
path = glob.glob(sys.argv[1] + "/results.json*")[0]
tests = json.load(bz2.open(path) if path.endswith(".bz2") else open(path))["tests"]
direct = sum(1 for t in tests.values() if "runs directly" in (t.get("err") or ""))
print(f"through glcmd-run: {len(tests) - direct} of {len(tests)} test runs adopted by glcmd, {direct} ran directly (compatibility or GLES contexts)")
PY
