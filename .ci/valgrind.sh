#!/usr/bin/env bash
# The runtime's unsafe code (packet writes, parameter-buffer copies, replay dispatch, dumps)
# under valgrind memcheck, against the real driver. Miri cannot run here (no nightly toolchain,
# and it cannot call into a GL driver); memcheck can, and fails on any invalid read or write.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind"; exit 1; }
for t in smoke dump seed_regression order; do
    exe=$(cargo test --test "$t" --no-run 2>&1 | sed -n "s/.*Executable .*(\(.*\))/\1/p" | tail -1)
    echo "memcheck: $t ($exe)"
    valgrind --quiet --error-exitcode=99 --leak-check=no --suppressions=.ci/valgrind.supp "$exe" --test-threads=1 -q
done
