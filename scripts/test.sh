#!/usr/bin/env bash
# The README's test command, and what .ci/run calls: installs the system packages the tests need
# that are missing, then runs `cargo test --workspace` (extra arguments are passed on to it).
#
# * Installing: .ci/install-deps.sh (Debian and Ubuntu, apt), as root or through sudo; it names
#   every package it installs. Without apt, or without root and sudo, this says what it could
#   not install and goes on: the tests that need a missing tool are then skipped.
# * Skips: a test that needs an optional tool (a C compiler, pkg-config, apitrace, Xvfb) and
#   does not find it prints `SKIPPED: ...` and returns (tests/common/tools.rs). cargo counts it
#   as passed, so it also writes a line to $GLCMD_SKIPPED, and this script ends with "N tests
#   skipped" and the list: never a silent pass. Under CI=true a missing tool fails the test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
    if [[ $(id -u) -eq 0 ]] || command -v sudo >/dev/null 2>&1; then
        bash .ci/install-deps.sh
    else
        echo "test.sh: not root and no sudo: not installing; .ci/install-deps.sh lists the packages"
        bash .ci/install-deps.sh --check || true
    fi
else
    echo "test.sh: no apt-get: install by hand what .ci/install-deps.sh lists (EGL and Mesa, a C"
    echo "compiler, pkg-config, Xvfb, apitrace); the tests that need a missing tool are skipped"
fi

skipped="$(mktemp "${TMPDIR:-/tmp}/glcmd-skipped.XXXXXX")"
trap 'rm -f "$skipped"' EXIT
status=0
GLCMD_SKIPPED="$skipped" cargo test --workspace "$@" || status=$?

count=$(wc -l <"$skipped")
if ((count > 0)); then
    echo
    echo "test.sh: $count tests skipped (a tool missing; they tested nothing):"
    sed 's/^/  /' "$skipped"
else
    echo "test.sh: 0 tests skipped"
fi
exit "$status"
