#!/usr/bin/env bash
# Makes the build tree's C library usable without installing it, and prints the environment that
# finds it. Cargo names the library `target/<profile>/libglcmd_capi.so`, but capi/build.rs gives it
# the soname `libglcmd.so.0.MINOR` (`libglcmd.so.MAJOR` from 1.0 on), and a program linked to it
# asks the dynamic loader for that name, which the build tree does not have (only install.sh
# makes it, in a prefix). In target/<profile>/ this makes, as install.sh does in PREFIX/lib:
#
#   libglcmd.so.0.MINOR -> libglcmd_capi.so     what the loader looks for
#   libglcmd.so -> libglcmd.so.0.MINOR          for -lglcmd
#   pkgconfig/glcmd.pc                          from glcmd.pc.in: libdir target/<profile>,
#                                               Cflags -I capi/include
#
# Links, not copies: a later `cargo build` updates what they point at. Then it prints, on stdout,
# the exports of LD_LIBRARY_PATH and PKG_CONFIG_PATH (each prepended to what is there), for eval:
#
#   cargo build -p glcmd-capi && eval "$(capi/dev-env.sh)"
#   cc -std=c99 readme.c $(pkg-config --cflags --libs glcmd) -pthread -o readme && ./readme
#
# Usage: dev-env.sh [--release]   (target/release instead of target/debug; build it with
#   `cargo build --release -p glcmd-capi`). The target directory is the one cargo builds into,
#   as `cargo metadata` gives it (install.sh finds it so too): $CARGO_TARGET_DIR, a cargo
#   config's `build.target-dir`, or the workspace's target/. It builds nothing: run it after
#   cargo build (and run cargo build again after changing glcmd; the links stay).
#   capi/tests/install.rs runs the README's lines.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
profile=debug
case "${1:-}" in
    "") ;;
    --release) profile=release ;;
    *)
        echo "usage: $0 [--release]" >&2
        exit 2
        ;;
esac
target="$(cargo metadata --format-version 1 --no-deps --manifest-path "$here/Cargo.toml" |
    grep -o '"target_directory":"[^"]*"' | sed 's/.*:"\(.*\)"/\1/')"
dir="$target/$profile"
if [[ ! -f $dir/libglcmd_capi.so ]]; then
    flag=""
    [[ $profile == release ]] && flag=" --release"
    echo "dev-env.sh: no $dir/libglcmd_capi.so: run \`cargo build$flag -p glcmd-capi\` first" >&2
    exit 1
fi

version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$here/Cargo.toml" | head -n 1)"
major="${version%%.*}"
minor="${version#*.}"
minor="${minor%%.*}"
if [[ $major == 0 ]]; then soname="libglcmd.so.0.$minor"; else soname="libglcmd.so.$major"; fi

ln -sfn libglcmd_capi.so "$dir/$soname"
ln -sfn "$soname" "$dir/libglcmd.so"
mkdir -p "$dir/pkgconfig"
# The installed .pc with the build tree's directories: the header is capi/include/glcmd.h here,
# include/glcmd/glcmd.h in a prefix.
sed -e "s|@PREFIX@|$dir|" -e "s|@VERSION@|$version|" \
    -e "s|^libdir=.*|libdir=$dir|" -e "s|^includedir=.*|includedir=$here/include|" \
    -e 's|-I${includedir}/glcmd|-I${includedir}|' \
    -e "s|@URL@|$(sed -n 's/^repository = "\(.*\)"$/\1/p' "$here/../Cargo.toml" "$here/Cargo.toml" 2>/dev/null | head -n 1)|" \
    "$here/glcmd.pc.in" >"$dir/pkgconfig/glcmd.pc.tmp"
mv "$dir/pkgconfig/glcmd.pc.tmp" "$dir/pkgconfig/glcmd.pc"

quote() { printf %q "$1"; }
echo "dev-env.sh: $dir/$soname -> libglcmd_capi.so, libglcmd.so, pkgconfig/glcmd.pc" >&2
echo "export LD_LIBRARY_PATH=$(quote "$dir")\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
echo "export PKG_CONFIG_PATH=$(quote "$dir/pkgconfig")\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}"
