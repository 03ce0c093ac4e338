#!/usr/bin/env bash
# The runtime's unsafe code (packet writes, parameter-buffer copies, replay dispatch, dumps,
# the binding shadow's checks) under valgrind memcheck, against the real driver. Miri cannot run
# here (no nightly toolchain, and it cannot call into a GL driver); memcheck can, and fails on
# any invalid read or write.
#
# The test binaries are those of the README's `cargo test --workspace`, listed by the same command
# with `--no-run` (nothing is rebuilt): a narrower build (`-p`, or `--test` alone) resolves other
# features and compiles glcmd again, which costs minutes and disk CI does not have.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind"; exit 1; }
built=$(cargo test --workspace --no-run 2>&1)
# The executable of test file $1 (e.g. tests/smoke.rs); each name is unique in the workspace.
exe_of() {
    local exe
    exe=$(printf '%s\n' "$built" | sed -n "s|.*Executable $1 (\(.*\))|\1|p" | tail -1)
    [ -n "$exe" ] || { echo "no test binary for $1 in:" >&2; printf '%s\n' "$built" >&2; exit 1; }
    realpath "$exe"
}
for t in smoke dump seed_regression order soundness diagnostics_forms callback_reentry; do
    exe=$(exe_of "tests/$t.rs")
    echo "memcheck: $t ($exe)"
    valgrind --quiet --error-exitcode=99 --leak-check=no --suppressions=.ci/valgrind.supp "$exe" --test-threads=1 -q
done
# The C ABI (crate glcmd-capi): its entry points called from Rust (pixel sizes, queries, errors),
# then the C programs: the misuse test (no current list, the wrong thread, a destroyed device,
# forged handles, NULL arrays) and the four-thread example. The C programs are compiled by their
# Rust test and run under memcheck through GLCMD_C_WRAPPER (the compiler and the test are not).
exe=$(exe_of tests/entry_points.rs)
echo "memcheck: the C entry points ($exe)"
valgrind --quiet --error-exitcode=99 --leak-check=no --suppressions=.ci/valgrind.supp "$exe" --test-threads=1 -q
echo "memcheck: the C programs (capi/tests/c/misuse.c, refused_submit.c and callback_reentry.c, examples/c/scene.c)"
exe=$(exe_of tests/c_programs.rs)
# Run from the crate's directory, as cargo runs its tests.
(cd capi && GLCMD_C_WRAPPER="valgrind --quiet --error-exitcode=99 --leak-check=no --suppressions=$PWD/../.ci/valgrind.supp" \
    "$exe" --test-threads=1)
# The soundness sweep (crate glcmd-sweep): every safe method with adversarial arguments, through
# the checking function table. Its test runs the sweep in a child process, which memcheck
# follows; a memcheck error in the child fails the child, which fails the test. It runs at every
# diagnostics level (one child each): level off with the full 6 argument variants, the other
# four (attribution, all, strict, capture) with 1 variant each, which still sends every method's
# every argument form through the dumps, attribution, strict checks, the object walk and the
# capture writer, at about a sixth of the time (natively, `cargo test` runs all 6 at every level).
exe=$(exe_of tests/sweep.rs)
echo "memcheck: the sweep at every diagnostics level ($exe)"
start=$(date +%s)
GLCMD_SWEEP_LEVEL_VARIANTS=1 \
valgrind --quiet --error-exitcode=99 --leak-check=no --trace-children=yes --suppressions=.ci/valgrind.supp \
    "$exe" --test-threads=1 --nocapture
echo "memcheck: the sweep took $(($(date +%s) - start)) s"
# The binding-shadow audit (sweep/tests/shadow_audit.rs): every safe method the shadow watches,
# with adversarial arguments in three binding states, the shadow compared with the GL after each
# call. 40 variants natively; 12 under memcheck (the refused-entry attack still occurs: variant
# 34 is the first of the default set to build it, so memcheck runs the invalid-access half of
# the proof and the native run its exactness half).
exe=$(exe_of tests/shadow_audit.rs)
echo "memcheck: the binding-shadow audit ($exe)"
start=$(date +%s)
GLCMD_AUDIT_VARIANTS=12 \
valgrind --quiet --error-exitcode=99 --leak-check=no --trace-children=yes --suppressions=.ci/valgrind.supp \
    "$exe" --test-threads=1 --nocapture
echo "memcheck: the audit took $(($(date +%s) - start)) s"
# Issue 30's and 34's classes through glcmd-run (the preload library, the C entry points and the
# render thread, followed into the launched program): the C programs run/tests/unchanged.rs
# compiled into target/debug/run-tests/ and compared with the direct runs, here under memcheck,
# each output again equal to the program's own direct run: reads into client memory and into
# bound buffers (sentinels around every read), pixel-buffer bindings and deletes, refused calls,
# NULL arguments, client-memory indices, debug output on the calling thread, EGL's entry points,
# query results and fences answered without a round trip (known.c).
run_tests=target/debug/run-tests
[ -x "$run_tests/reads" ] || { echo "memcheck: $run_tests/reads is missing (cargo test --workspace builds it)"; exit 1; }
start=$(date +%s)
for program in "reads" "bindings deletes" "bindings pixels" "bindings switch" "refusals-egl" "nulls-egl" \
    "client-indices-egl" "debug" "egl-entry" "known"; do
    read -r exe mode <<<"$program"
    echo "memcheck: $program through glcmd-run"
    direct=$("$run_tests/$exe" ${mode:+"$mode"} 2>/dev/null)
    through=$(valgrind --quiet --error-exitcode=99 --leak-check=no --trace-children=yes \
        --suppressions=.ci/valgrind.supp target/debug/glcmd-run -- "$run_tests/$exe" ${mode:+"$mode"})
    [ "$through" = "$direct" ] || { echo "memcheck: $program answers otherwise under memcheck"; diff <(echo "$direct") <(echo "$through") | head -20; exit 1; }
done
echo "memcheck: the C programs through glcmd-run took $(($(date +%s) - start)) s"
