#!/usr/bin/env bash
# Installs glcmd's C library as C users expect it (cargo-c's layout, by hand):
#
#   PREFIX/lib/libglcmd.so.VERSION            the shared library (soname libglcmd.so.0.MINOR,
#   PREFIX/lib/libglcmd.so.0.MINOR -> it        libglcmd.so.MAJOR from 1.0 on: capi/build.rs)
#   PREFIX/lib/libglcmd.so -> the soname        for -lglcmd
#   PREFIX/lib/libglcmd.a                       static linking (pkg-config --static)
#   PREFIX/include/glcmd/glcmd.h
#   PREFIX/lib/pkgconfig/glcmd.pc               from glcmd.pc.in: version and prefix filled in
#
# Usage: install.sh [--lib-dir DIR] PREFIX
#   Builds `cargo build --release` of this crate first, unless --lib-dir names a directory that
#   already holds libglcmd_capi.so and libglcmd_capi.a (capi/tests/install.rs passes its own
#   build's). $DESTDIR is prepended to every installed path (for packagers), not to the .pc's
#   prefix. Works in the repository and in an unpacked glcmd-capi crate. Prints what it installs.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lib_dir=""
if [[ ${1:-} == --lib-dir ]]; then
    lib_dir="$2"
    shift 2
fi
if [[ $# -ne 1 ]]; then
    echo "usage: $0 [--lib-dir DIR] PREFIX" >&2
    exit 2
fi
prefix="$1"
[[ $prefix == /* ]] || prefix="$(pwd)/$prefix"

version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$here/Cargo.toml" | head -n 1)"
major="${version%%.*}"
minor="${version#*.}"
minor="${minor%%.*}"
if [[ $major == 0 ]]; then soname="libglcmd.so.0.$minor"; else soname="libglcmd.so.$major"; fi

if [[ -z $lib_dir ]]; then
    cargo build --release --manifest-path "$here/Cargo.toml"
    target="$(cargo metadata --format-version 1 --no-deps --manifest-path "$here/Cargo.toml" |
        grep -o '"target_directory":"[^"]*"' | sed 's/.*:"\(.*\)"/\1/')"
    lib_dir="$target/release"
fi
for f in libglcmd_capi.so libglcmd_capi.a; do
    [[ -f $lib_dir/$f ]] || { echo "install.sh: no $f in $lib_dir" >&2; exit 1; }
done

dest="${DESTDIR:-}$prefix"
install -d "$dest/lib/pkgconfig" "$dest/include/glcmd"
install -m 755 "$lib_dir/libglcmd_capi.so" "$dest/lib/libglcmd.so.$version"
ln -sfn "libglcmd.so.$version" "$dest/lib/$soname"
ln -sfn "$soname" "$dest/lib/libglcmd.so"
install -m 644 "$lib_dir/libglcmd_capi.a" "$dest/lib/libglcmd.a"
install -m 644 "$here/include/glcmd.h" "$dest/include/glcmd/glcmd.h"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" \
    -e "s|@URL@|$(sed -n 's/^repository = "\(.*\)"$/\1/p' "$here/../Cargo.toml" "$here/Cargo.toml" 2>/dev/null | head -n 1)|" \
    "$here/glcmd.pc.in" >"$dest/lib/pkgconfig/glcmd.pc"
# The dynamic linker's cache, where `make install` would refresh it: a system prefix, as root.
if [[ -z ${DESTDIR:-} && $(id -u) -eq 0 && ($prefix == /usr || $prefix == /usr/local) ]] &&
    command -v ldconfig >/dev/null; then
    ldconfig
fi
echo "install.sh: glcmd $version into $dest:"
echo "  lib/libglcmd.so.$version, lib/$soname, lib/libglcmd.so, lib/libglcmd.a"
echo "  include/glcmd/glcmd.h, lib/pkgconfig/glcmd.pc"
