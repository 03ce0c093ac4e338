#!/usr/bin/env bash
# The runtime's unsafe code (packet writes, parameter-buffer copies, replay dispatch, dumps,
# the binding shadow's checks) under valgrind memcheck, against the real driver. Miri cannot run
# here (no nightly toolchain, and it cannot call into a GL driver); memcheck can, and fails on
# any invalid read or write.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind"; exit 1; }
for t in smoke dump seed_regression order soundness; do
    exe=$(cargo test --test "$t" --no-run 2>&1 | sed -n "s/.*Executable .*(\(.*\))/\1/p" | tail -1)
    echo "memcheck: $t ($exe)"
    valgrind --quiet --error-exitcode=99 --leak-check=no --suppressions=.ci/valgrind.supp "$exe" --test-threads=1 -q
done
# The C ABI (crate glcmd-capi): its entry points called from Rust (pixel sizes, queries, errors),
# then the C programs: the misuse test (no current list, the wrong thread, a destroyed device,
# forged handles, NULL arrays) and the four-thread example. The C programs are compiled by their
# Rust test and run under memcheck through GLCMD_C_WRAPPER (the compiler and the test are not).
exe=$(cargo test -p glcmd-capi --test entry_points --no-run 2>&1 | sed -n "s/.*Executable .*(\(.*\))/\1/p" | tail -1)
echo "memcheck: the C entry points ($exe)"
valgrind --quiet --error-exitcode=99 --leak-check=no --suppressions=.ci/valgrind.supp "$exe" --test-threads=1 -q
echo "memcheck: the C programs (capi/tests/c/misuse.c, examples/c/scene.c)"
GLCMD_C_WRAPPER="valgrind --quiet --error-exitcode=99 --leak-check=no --suppressions=$PWD/.ci/valgrind.supp" \
    cargo test -p glcmd-capi --test c_programs -- --test-threads=1
# The soundness sweep (crate glcmd-sweep): every safe method with adversarial arguments, through
# the checking function table. Its test runs the sweep in a child process, which memcheck
# follows; a memcheck error in the child fails the child, which fails the test.
exe=$(cargo test -p glcmd-sweep --test sweep --no-run 2>&1 | sed -n "s/.*Executable .*(\(.*\))/\1/p" | tail -1)
echo "memcheck: the sweep ($exe)"
start=$(date +%s)
valgrind --quiet --error-exitcode=99 --leak-check=no --trace-children=yes --suppressions=.ci/valgrind.supp \
    "$exe" --test-threads=1 --nocapture
echo "memcheck: the sweep took $(($(date +%s) - start)) s"
