#!/usr/bin/env python3
"""Summarises `diag_cost` runs (issue 20, item 1): one JSON line per process (the last line
`diag_cost` prints), each with the ratios diagnostics on / off measured in that process with the
levels interleaved frame by frame. Prints, per level, the median of the per-process ratios with
a 95 % percentile-bootstrap interval (2000 resamples, fixed seed) and the goal it is held to.

    python3 scripts/diag_rounds.py FILE.jsonl
"""
import json
import random
import statistics
import sys

LEVELS = [
    ("diag_ratio_attribution", "attribution + breadcrumbs + watchdog", 1.10),
    ("diag_ratio_all", "all (attribution, use-after-delete, watchdog)", 1.25),
    ("diag_ratio_strict", "strict (glGetError per command)", 2.0),
]


def interval(values, resamples=2000, seed=0x5EED2020):
    rng = random.Random(seed)
    meds = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(resamples))
    return statistics.median(values), meds[int(0.025 * resamples)], meds[min(int(0.975 * resamples), resamples - 1)]


def main(path):
    runs = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                runs.append(json.loads(line))
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{n}: not a JSON line ({e}); is it the last line of diag_cost's output?")
    if not runs:
        sys.exit(f"{path}: no runs")
    off = [r["replay_ns_off"] for r in runs]
    print(f"{len(runs)} processes; off: median {statistics.median(off):.1f} ns per command "
          f"(range {min(off):.1f}-{max(off):.1f})\n")
    print("| diagnostics | on / off, median over processes (95 % interval) | goal | met |")
    print("| --- | ---: | ---: | --- |")
    for key, label, goal in LEVELS:
        m, lo, hi = interval([r[key] for r in runs])
        verdict = "yes" if hi <= goal else ("no" if lo > goal else "not resolved")
        print(f"| {label} | **{m:.3f}** ({lo:.3f}-{hi:.3f}) | <= {goal:.2f} | {verdict} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
