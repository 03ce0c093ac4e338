#!/usr/bin/env bash
# Build time of glcmd's library per opt-level (issue 21): a crate depending on glcmd by path,
# `[profile.dev] opt-level = N` (and the default release profile), dependencies built first, then
# `cargo clean -p glcmd` and a timed `cargo build` of glcmd's build script and library (default
# features), without incremental compilation. Prints a Markdown table.
#   scripts/build_time_per_opt_level.sh [SCRATCH_DIR]     # default /tmp/glcmd-opt-levels
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch="${1:-/tmp/glcmd-opt-levels}"
rm -rf "$scratch"
mkdir -p "$scratch/src"
echo "fn main() { let _ = glcmd::Options::default(); }" >"$scratch/src/main.rs"
export CARGO_INCREMENTAL=0
printf '| opt-level | builds | glcmd'"'"'s build (s) |\n|---|---|---|\n'
for level in 0 1 2 3 '"s"' release; do
    profile=""
    [ "$level" != release ] && profile="[profile.dev]
opt-level = $level"
    printf '[package]\nname = "opt_levels"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\nglcmd = { path = "%s" }\n\n%s\n[workspace]\n' \
        "$root" "$profile" >"$scratch/Cargo.toml"
    args=()
    [ "$level" = release ] && args=(--release)
    (cd "$scratch" && cargo build -q "${args[@]}" >/dev/null 2>&1 && cargo clean -q -p glcmd "${args[@]}")
    t0=$(date +%s.%N)
    if (cd "$scratch" && env -u RUST_MIN_STACK cargo build -q "${args[@]}" >/dev/null 2>&1); then ok=yes; else ok=NO; fi
    t=$(echo "$(date +%s.%N) - $t0" | bc)
    name="$level (debug)"
    [ "$level" = release ] && name='3 (`--release`)'
    printf '| %s | %s | %.0f |\n' "$name" "$ok" "$t"
done
