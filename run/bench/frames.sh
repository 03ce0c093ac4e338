#!/usr/bin/env bash
# An unmodified single-threaded program (run/bench/frames.c) run directly, through glcmd-run,
# and under the driver's own threading, side by side: RUNS rounds, each running every variant
# once in turn (so a slow spell of a shared machine hits all of them), for a query-free frame and
# a query-heavy one. Prints each run's mean frame time, then per variant the median and its
# ratio to direct in the same frame kind.
#
#   run/bench/frames.sh [RUNS] [OBJECTS] [WORK] [FRAMES]
#
# Needs target/release/glcmd-run (cargo build --release -p glcmd-run) and a C compiler.
# Variants: direct; glcmd-run; glcmd-spin (glcmd-run --spin-us 500); mesa_glthread=true (Mesa's glthread; takes effect on Mesa
# drivers only); __GL_THREADED_OPTIMIZATIONS=1 (NVIDIA's; NVIDIA only). GLCMD_BENCH_VARIANTS
# chooses a subset ("direct glcmd mesa nvidia").
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-8} objects=${2:-2000} work=${3:-200} frames=${4:-60}
run=${GLCMD_RUN:-$root/target/release/glcmd-run}
exe=${FRAMES_EXE:-$root/target/release/frames-bench}
if [[ ! -x $exe ]]; then
    ${CC:-cc} -O2 -o "$exe" "$root/run/bench/frames.c" -lEGL -lGL
fi
variants=${GLCMD_BENCH_VARIANTS:-direct glcmd mesa nvidia}
declare -A times
runlog=$(mktemp)
for kind in free heavy; do
    queries=0
    [[ $kind == heavy ]] && queries=20
    for ((r = 0; r < runs; r++)); do
        for v in $variants; do
            case $v in
                direct) out=$("$exe" "$objects" "$work" "$frames" "$queries") ;;
                glcmd) out=$("$run" --stats -- "$exe" "$objects" "$work" "$frames" "$queries" 2>/tmp/glcmd-run-stats.$$) ;;
                glcmd-spin) out=$("$run" --spin-us 500 -- "$exe" "$objects" "$work" "$frames" "$queries") ;;
                mesa) out=$(mesa_glthread=true "$exe" "$objects" "$work" "$frames" "$queries" 2>/dev/null) ;;
                nvidia) out=$(__GL_THREADED_OPTIMIZATIONS=1 "$exe" "$objects" "$work" "$frames" "$queries") ;;
            esac
            ms=$(sed -n 's/^frame_ms=\([0-9.]*\).*/\1/p' <<<"$out")
            echo "run $r $kind $v frame_ms=$ms" | tee -a "$runlog"
            times[$kind.$v]+="$ms "
        done
    done
    [[ -f /tmp/glcmd-run-stats.$$ ]] && sed "s/^/$kind: /" /tmp/glcmd-run-stats.$$
done
rm -f /tmp/glcmd-run-stats.$$
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
for kind in free heavy; do
    d=$(median <<<"${times[$kind.direct]:-}")
    for v in $variants; do
        m=$(median <<<"${times[$kind.$v]}")
        awk -v k="$kind" -v v="$v" -v m="$m" -v d="$d" 'BEGIN {printf "%-5s %-6s median frame %.3f ms, %.3fx direct\n", k, v, m, m / d}'
    done
done
# Paired ratios: each variant against the direct run of the same round (minutes apart at most,
# so a slow spell of the machine hits both), with how many rounds it was below 1.
python3 - "$runlog" <<'PY'
import re, statistics, sys
d = {}
for line in open(sys.argv[1]):
    m = re.match(r"run (\d+) (\w+) ([\w-]+) frame_ms=([\d.]+)", line)
    if m:
        d[(int(m[1]), m[2], m[3])] = float(m[4])
for kind in ("free", "heavy"):
    for v in sorted({k[2] for k in d if k[2] != "direct"}):
        r = [d[k] / d[(k[0], kind, "direct")] for k in d if k[1] == kind and k[2] == v and (k[0], kind, "direct") in d]
        if r:
            print(f"{kind:5} {v:10} paired ratio median {statistics.median(r):.3f} (min {min(r):.3f}, max {max(r):.3f}), below 1 in {sum(x < 1 for x in r)}/{len(r)} rounds")
PY
rm -f "$runlog"
