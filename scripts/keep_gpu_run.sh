#!/usr/bin/env bash
# Files a GPU run's returned folder (the `$OUT` of a scripts/gpu_*.sh run) into the repository:
# its tables (`*.md`) into docs/gpu-runs/NAME/, and everything else (raw segments, `.err`,
# `.jsonl`, bulk `.txt`, machine.txt, times.txt) into docs/gpu-runs/data/NAME/, as
# docs/gpu-runs/README.md describes. It refuses to write over a run already kept.
#
# Usage: keep_gpu_run.sh OUT NAME      (NAME like issue20/speeds-1110)
# Then add the run's line (command, machine, BENCHMARKS.md section) to docs/gpu-runs/README.md.
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 OUT NAME" >&2
    exit 2
fi
out="$1"
name="$2"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tables="$root/docs/gpu-runs/$name"
data="$root/docs/gpu-runs/data/$name"
[[ -d $out ]] || { echo "keep_gpu_run.sh: $out is not a folder" >&2; exit 1; }
case "$name" in
    "" | /* | *..* | data | data/*)
        echo "keep_gpu_run.sh: NAME $name: a relative name under docs/gpu-runs/, not data/" >&2
        exit 2
        ;;
esac
if [[ -e $tables || -e $data ]]; then
    echo "keep_gpu_run.sh: docs/gpu-runs/$name or docs/gpu-runs/data/$name exists already" >&2
    exit 1
fi
kept=0
while IFS= read -r -d '' f; do
    rel="${f#"$out"/}"
    if [[ $f == *.md ]]; then dest="$tables/$rel"; else dest="$data/$rel"; fi
    mkdir -p "$(dirname "$dest")"
    cp "$f" "$dest"
    echo "  ${dest#"$root"/}"
    kept=$((kept + 1))
done < <(find "$out" -type f -print0 | sort -z)
echo "keep_gpu_run.sh: $kept files of $out kept as $name"
