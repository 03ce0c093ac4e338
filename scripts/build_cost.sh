#!/usr/bin/env bash
# Build cost of depending on glcmd, beside glow + glutin and gl + glutin (issue 11).
#
# Makes three empty binary crates in a scratch directory, each with one dependency set, and
# times a clean build of each, one after the other in the same run (debug, then release), so
# the ratios are comparable on a shared machine. Dependencies are fetched first, so the times
# are compile times only. For glcmd it also writes `cargo build --timings` reports.
#
#   scripts/build_cost.sh [SCRATCH_DIR]        # default /tmp/glcmd-build-cost
#   GLCMD_FEATURES="x11,glx" scripts/build_cost.sh   # the glcmd crate with extra features
set -euo pipefail
# A dependent gets glcmd from crates.io, and cargo never builds a registry dependency
# incrementally; a path dependency (how this script reaches the checkout) is built incrementally
# in debug, which costs a fifth more. So incremental compilation is off for every crate here, as
# for a user's dependencies; GLCMD_INCREMENTAL=1 measures the path dependency as it is.
if [ "${GLCMD_INCREMENTAL:-0}" = 1 ]; then export CARGO_INCREMENTAL=1; else export CARGO_INCREMENTAL=0; fi
# DEBUG_ONLY=1: the debug builds only (no release column, no --timings reports).
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch="${1:-/tmp/glcmd-build-cost}"
features="${GLCMD_FEATURES:-}"
rm -rf "$scratch"
mkdir -p "$scratch"

crate() { # name, [dependencies] lines
    mkdir -p "$scratch/$1/src"
    printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\n%s\n[workspace]\n' "$1" "$2" \
        >"$scratch/$1/Cargo.toml"
    echo "fn main() {}" >"$scratch/$1/src/main.rs"
}
crate glow_glutin 'glow = "0.16"
glutin = { version = "0.32", default-features = false, features = ["egl"] }'
crate gl_glutin 'gl = "0.14"
glutin = { version = "0.32", default-features = false, features = ["egl"] }'
if [ -n "$features" ]; then
    crate glcmd_dep "glcmd = { path = \"$root\", features = [$(echo "$features" | sed 's/[^,][^,]*/"&"/g')] }"
else
    crate glcmd_dep "glcmd = { path = \"$root\" }"
fi

for c in glow_glutin gl_glutin glcmd_dep; do (cd "$scratch/$c" && cargo fetch -q); done

secs() { # crate, cargo args...
    local c=$1; shift
    (cd "$scratch/$c" && rm -rf target && local t0=$(date +%s.%N) \
        && cargo build -q "$@" && echo "$(date +%s.%N) - $t0" | bc)
}
printf '| crate | clean debug build (s) | clean release build (s) |\n| --- | --- | --- |\n'
declare -A debug release
for c in glow_glutin gl_glutin glcmd_dep; do
    debug[$c]=$(secs $c)
    if [ "${DEBUG_ONLY:-0}" = 1 ]; then release[$c]=0; else release[$c]=$(secs $c --release); fi
    printf '| %s | %.1f | %.1f |\n' "$c" "${debug[$c]}" "${release[$c]}"
done
printf '\nglcmd / (glow + glutin): debug %.2fx, release %.2fx\n' \
    "$(echo "${debug[glcmd_dep]} / ${debug[glow_glutin]}" | bc -l)" \
    "$( [ "${DEBUG_ONLY:-0}" = 1 ] && echo 0 || echo "${release[glcmd_dep]} / ${release[glow_glutin]}" | bc -l)"

[ "${DEBUG_ONLY:-0}" = 1 ] && exit 0
# The breakdown: one more clean build of each profile with --timings (HTML in target/cargo-timings).
(cd "$scratch/glcmd_dep" && rm -rf target && cargo build -q --timings && cargo build -q --release --timings)
echo "timings: $scratch/glcmd_dep/target/cargo-timings/"
