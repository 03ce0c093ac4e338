#!/usr/bin/env bash
# Builds a crate that depends on glcmd with `[profile.dev.package."*"] opt-level = 1`, as game
# and graphics projects set for their dependencies, with no environment variable: at that
# opt-level a generated function once overflowed rustc's stack inside LLVM (issue 21), which
# the workspace's own builds (opt-level 0 for glcmd, 3 for release) never showed.
# Prints the build time. Its own target directory under target/, built from clean.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

crate=tests/opt_level_dependent
target_dir="$PWD/target/opt_level_dependent"
# The workspace's lock, so the dependent crate builds the dependency versions CI tested.
cp Cargo.lock "$crate/Cargo.lock"
rm -rf "$target_dir"
start=$(date +%s)
# No RUST_MIN_STACK or other setting: the compiler's default stack must do.
env -u RUST_MIN_STACK -u RUSTFLAGS CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$target_dir" \
    cargo build --manifest-path "$crate/Cargo.toml"
echo "opt-level 1 dependent build (glcmd and its dependencies, clean): $(($(date +%s) - start)) s"
"$target_dir/debug/glcmd-opt-level-dependent"
rm -rf "$target_dir"
