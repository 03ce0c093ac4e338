#!/usr/bin/env bash
# Instruction counts per recorded and per replayed command (issue 20, item 5), compared with the
# committed baseline .ci/icount-baseline.txt: a figure more than 10 % above its baseline fails.
# A time measured on a shared machine moves by tens of per cent with the load; an instruction
# count under callgrind does not move at all, so a small regression in record or replay cost
# fails here, in review, instead of showing up later as a noisy benchmark round.
#
#   bash .ci/icount.sh            measure and compare (CI)
#   bash .ci/icount.sh --update   measure and rewrite the baseline: for a deliberate change of
#                                 cost (say why in the commit) or a new toolchain
#
# How: `bench --icount WORKLOAD REPS` (examples/bench/icount.rs) runs one workload of the micro
# benchmarks per process; callgrind counts only the instructions executed inside its measured
# function (--toggle-collect), so start-up and warm-up are not counted, and the count divided by
# the commands recorded or replayed is the cost per command. Two figures per workload: all
# instructions, and those in the program itself (glcmd and the benchmark, statically linked); the
# difference is libc, i.e. memcpy for the 1 KiB upload.
#
# glibc picks memcpy by CPU; the tunables below pin its SSE2 variant, which every x86-64 has, so
# that the count does not depend on the machine's vector extensions (natively, AVX copies 1 KiB
# in fewer instructions). The counts depend on the compiler: the baseline names the rustc that
# measured it, and a different one is said.
#
# The binary is the one `cargo run --release --example bench -- --quick` builds in .ci/run (same
# command, same features): nothing is compiled again.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind"; exit 1; }
baseline=.ci/icount-baseline.txt
update=false
[ "${1:-}" = "--update" ] && update=true
workloads=(record-bind-texture record-uniform-matrix4fv record-draw-elements-instanced
    record-named-buffer-sub-data-1k replay-bind-texture replay-object-stream)
reps=64 # counts are exact: more repetitions would only take longer
tolerance=10 # per cent

cargo build --release --example bench
exe=$(realpath "${CARGO_TARGET_DIR:-target}/release/examples/bench")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Instructions in callgrind output $1, printed as "TOTAL OWN": OWN is the self cost of the
# functions in the program's own object file ($exe). Each cost line's last field is its Ir; the
# line after a `calls=` line is the inclusive cost of that call, already counted in the callee,
# so it is skipped.
count() {
    awk -v exe="$exe" '
        /^ob=/ { ob = substr($0, 4); next }
        /^calls=/ { skip = 1; next }
        /^[0-9+*-]/ { if (skip) { skip = 0; next } if (ob == exe) own += $NF; next }
        /^totals:/ { total = $2 }
        END { printf "%d %d\n", total, own }' "$1"
}

# Measures workload $1; prints "TOTAL_PER_COMMAND OWN_PER_COMMAND".
measure() {
    local out="$tmp/$1.out" commands
    GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX_Fast_Unaligned_Load,-AVX512F,-ERMS,-FSRM \
        valgrind --tool=callgrind --callgrind-out-file="$out" --compress-strings=no --compress-pos=no \
        --toggle-collect='*icount*measured*' "$exe" --icount "$1" "$reps" >"$tmp/stdout" 2>"$tmp/stderr" ||
        { cat "$tmp/stderr" "$tmp/stdout" >&2; echo "icount: $1 failed under callgrind" >&2; exit 1; }
    commands=$(sed -n 's/^commands //p' "$tmp/stdout")
    [ -n "$commands" ] || { cat "$tmp/stdout" >&2; echo "icount: $1 printed no command count" >&2; exit 1; }
    count "$out" | awk -v n="$commands" '{ printf "%.2f %.2f\n", $1 / n, $2 / n }'
}

rustc=$(rustc --version)
start=$(date +%s)
declare -A total own
for w in "${workloads[@]}"; do
    figures=$(measure "$w") # a failure stops the script here (set -e)
    read -r "total[$w]" "own[$w]" <<<"$figures"
done

if $update; then
    {
        echo "# Instructions per command under callgrind, written by: bash .ci/icount.sh --update"
        echo "# $rustc; $(valgrind --version); memcpy pinned to SSE2 (see the script)"
        echo "# workload  all-instructions  in-the-program"
        for w in "${workloads[@]}"; do echo "$w ${total[$w]} ${own[$w]}"; done
    } >"$baseline"
    echo "icount: baseline rewritten ($baseline):"
    cat "$baseline"
    exit 0
fi

[ -f "$baseline" ] || { echo "icount: no $baseline; write it with: bash .ci/icount.sh --update"; exit 1; }
measured_by=$(sed -n 2p "$baseline" | sed 's/^# //; s/;.*//')
[ "$measured_by" = "$rustc" ] ||
    echo "icount: note: the baseline was measured with $measured_by, this is $rustc (counts move with the compiler)"

# The verdict on figure $1 against its baseline $2: FAIL (more than the tolerance above),
# better (more than 0.5 % below) or ok.
verdict() {
    awk -v now="$1" -v base="$2" -v tol="$tolerance" 'BEGIN {
        d = (now - base) / base * 100
        if (d > tol) print "FAIL"; else if (d < -0.5) print "better"; else print "ok" }'
}
# A table cell for figure $1 against its baseline $2.
cell() {
    awk -v now="$1" -v base="$2" -v v="$(verdict "$1" "$2")" 'BEGIN {
        printf "%.2f (baseline %.2f, %+.1f %%)%s", now, base, (now - base) / base * 100, v == "ok" ? "" : " " v }'
}

echo
echo "Instructions per command (callgrind; $reps repetitions per workload; more than $tolerance % above the baseline fails)"
echo
echo "| workload | all instructions | in the program (glcmd + bench) |"
echo "|---|---|---|"
failed=()
for w in "${workloads[@]}"; do
    read -r _ base_total base_own < <(grep "^$w " "$baseline") ||
        { echo "icount: $w is not in $baseline; rewrite it with: bash .ci/icount.sh --update"; exit 1; }
    printf '| %s | %s | %s |\n' "$w" "$(cell "${total[$w]}" "$base_total")" "$(cell "${own[$w]}" "$base_own")"
    [ "$(verdict "${total[$w]}" "$base_total")" != FAIL ] ||
        failed+=("$w: ${total[$w]} instructions per command, baseline $base_total")
    [ "$(verdict "${own[$w]}" "$base_own")" != FAIL ] ||
        failed+=("$w: ${own[$w]} instructions per command in the program, baseline $base_own")
done
echo
echo "icount: $(($(date +%s) - start)) s under callgrind"
if ((${#failed[@]})); then
    echo "icount: FAILED, more than $tolerance % above the baseline:"
    printf '  %s\n' "${failed[@]}"
    echo "A slower record or replay path is a regression to fix. If the cost is deliberate (say why in the"
    echo "commit) or the toolchain changed, rewrite the baseline with: bash .ci/icount.sh --update"
    exit 1
fi
echo "icount: every figure within $tolerance % of its baseline"
