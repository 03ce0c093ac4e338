#!/usr/bin/env bash
# The crates as crates.io would get them: glcmd-codegen, glcmd, glcmd-capi, glcmd-replay and
# glcmd-run, published together in dependency order (`cargo publish --dry-run --workspace`).
# A dry run of one crate alone cannot resolve its siblings, which are not on crates.io yet;
# the workspace form packages them together and verifies each by building it from its .crate
# against the others' .crate files (a local registry overlay), as crates.io users will build
# them. Before that, the file lists: every package ships its licences and README, and none
# ships the repository's machinery (.ci/, scripts/, docs/gpu-runs/, BENCHMARKS.md, tests/;
# generated/ only in glcmd, which compiles it, with its licence texts). glcmd-sweep is a test
# crate (publish = false).
#
# Time: the verification builds glcmd twice from its .crate (default features for glcmd and
# glcmd-replay, ext and vendor for glcmd-capi and glcmd-run) in target/package/, with every
# dependency from clean: 14 min 50 s for this script on the 2-core development machine (shared),
# of which 12 min 45 s the verification; printed at the end.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

crates=(glcmd-codegen glcmd glcmd-capi glcmd-replay glcmd-run)
fail=0
for crate in "${crates[@]}"; do
    files="$(cargo package --list --allow-dirty -p "$crate" 2>/dev/null)"
    for required in Cargo.toml README.md LICENSE-MIT LICENSE-APACHE; do
        grep -qx "$required" <<<"$files" || { echo "package.sh: $crate does not ship $required"; fail=1; }
    done
    # glcmd compiles the committed generated/ for its default features, so it alone ships it.
    machinery='^(\.ci/|scripts/|docs/|tests/|generated/|BENCHMARKS\.md|target/)'
    [ "$crate" = glcmd ] && machinery='^(\.ci/|scripts/|docs/|tests/|BENCHMARKS\.md|target/)'
    if shipped="$(grep -E "$machinery" <<<"$files")"; then
        echo "package.sh: $crate ships files users do not need:"
        sed 's/^/  /' <<<"$shipped"
        fail=1
    fi
    echo "package.sh: $crate: $(wc -l <<<"$files") files"
done
codegen_files="$(cargo package --list --allow-dirty -p glcmd-codegen 2>/dev/null)"
for required in vendor/glcorearb.h vendor/gl.xml vendor/glcorearb.h.LICENSE-MIT vendor/gl.xml.LICENSE-APACHE; do
    grep -qx "$required" <<<"$codegen_files" || { echo "package.sh: glcmd-codegen does not ship $required"; fail=1; }
done
glcmd_files="$(cargo package --list --allow-dirty -p glcmd 2>/dev/null)"
for required in generated/commands.rs generated/loader.rs generated/gl.xml.LICENSE-APACHE generated/glcorearb.h.LICENSE-MIT; do
    grep -qx "$required" <<<"$glcmd_files" || { echo "package.sh: glcmd does not ship $required"; fail=1; }
done
capi_files="$(cargo package --list --allow-dirty -p glcmd-capi 2>/dev/null)"
for required in include/glcmd.h include/glcorearb.h.LICENSE-MIT glcmd.pc.in install.sh; do
    grep -qx "$required" <<<"$capi_files" || { echo "package.sh: glcmd-capi does not ship $required"; fail=1; }
done
((fail == 0)) || exit 1

start=$(date +%s)
# --allow-dirty: CI's checkout is clean, but the tests before this may leave untracked output.
# In a target directory of its own, removed afterwards: cargo verifies in the workspace's target
# directory otherwise, and the .crate builds of glcmd and glcmd-capi left there made later
# workspace builds link glcmd-run against the registry copy's types ("multiple different versions
# of crate `glcmd`").
verify_target=target/package-verify
# The dry run unpacks each .crate into cargo's registry cache (a source directory per version)
# and does not unpack it again while that directory exists, so an earlier run's copy of this
# version (older code) would be built instead of this one: remove the workspace's crates there.
for cached in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/{glcmd,glcmd-codegen,glcmd-capi,glcmd-replay,glcmd-run}-0.1.0; do
    [ -d "$cached" ] && rm -rf "$cached"
done
CARGO_TARGET_DIR=$verify_target cargo publish --dry-run --allow-dirty --workspace --exclude glcmd-sweep
rm -rf "$verify_target"
end=$(date +%s)
echo "package.sh: packaged and built from the .crate files in $((end - start)) s"
