#!/usr/bin/env python3
"""The whole quick profile through glcmd-run against the same tests directly (scripts/piglit_quick.sh).

    quick_compare.py --not-passed GLCMD[:RETRY...]     names of the tests that did not pass through glcmd-run
    quick_compare.py GLCMD[:RETRY...] [DIRECT[:RETRY...]]

A side given as `DIR:RETRY` reads RETRY's results over DIR's (the reruns of X-connection flakes).
The direct side holds only the tests that did not pass through glcmd-run: a test that passes through
glcmd-run is no regression whatever it does directly.

Each test is sorted by the context glcmd-run found on its stderr (GLCMD_RUN_STATS=1 makes an adopted
context's device print its line): adopted core, compatibility or GLES run directly, other run directly
(an older core version, a share group, a probe that failed), or no context seen (a test that skips
before making one, or whose adopted context crashed before its device's line). Prints a table per
kind (results through glcmd-run; regressions), then each regression: a test that passes directly
and not through glcmd-run, or crashes or times out through it and not directly. Exits 1 if any.
"""
import bz2
import glob
import json
import sys

KINDS = ["pass", "fail", "skip", "crash", "timeout", "warn", "dmesg-warn"]
CONTEXTS = ["adopted core", "compatibility, direct", "GLES, direct", "other, direct", "no context seen"]


def load_one(directory):
    paths = glob.glob(directory + "/results.json*")
    if not paths:
        return {}
    with (bz2.open(paths[0]) if paths[0].endswith(".bz2") else open(paths[0])) as f:
        return json.load(f)["tests"]


def load(spec):
    tests = {}
    for directory in filter(None, spec.split(":")):
        tests.update(load_one(directory))
    return tests


def context_of(test):
    err = test.get("err") or ""
    if "glcmd-run: device " in err or "glcmd-run: adopted" in err:
        return "adopted core"
    if "runs directly" in err:
        if "OpenGL ES" in err:
            return "GLES, direct"
        if "compatibility-profile" in err:
            return "compatibility, direct"
        return "other, direct"
    return "no context seen"


def main(argv):
    if argv[:1] == ["--not-passed"]:
        for name, t in sorted(load(argv[1]).items()):
            if t.get("result") != "pass":
                print(name)
        return 0
    glcmd = load(argv[0])
    direct = load(argv[1]) if len(argv) > 1 else {}
    table = {c: dict.fromkeys(KINDS + ["regressions"], 0) for c in CONTEXTS}
    bad = []
    for name, t in sorted(glcmd.items()):
        kind = context_of(t)
        result = t.get("result", "fail")
        table[kind][result if result in KINDS else "fail"] += 1
        if result == "pass":
            continue
        d = direct.get(name, {}).get("result", "not run")
        if d == "pass" or (result in ("crash", "timeout") and d not in (result, "not run")):
            table[kind]["regressions"] += 1
            bad.append(f"{name} [{kind}]: {d} directly, {result} through glcmd-run")
        elif d == "not run":
            bad.append(f"{name} [{kind}]: {result} through glcmd-run, not run directly (list the direct side)")
    columns = KINDS + ["regressions"]
    width = max(len(c) for c in CONTEXTS) + 2
    print(f"{'context (through glcmd-run)':<{width}}" + "".join(f"{k:>12}" for k in columns))
    for c in CONTEXTS:
        print(f"{c:<{width}}" + "".join(f"{table[c][k]:>12}" for k in columns))
    total = {k: sum(table[c][k] for c in CONTEXTS) for k in columns}
    print(f"{'all ' + str(len(glcmd)) + ' tests':<{width}}" + "".join(f"{total[k]:>12}" for k in columns))
    for line in bad:
        print("REGRESSION " + line)
    if bad:
        print(f"{len(bad)} tests do worse through glcmd-run (their output: the results.json files of {argv[0]})")
        return 1
    print("every test passes through glcmd-run wherever it passes directly; no crash or timeout of glcmd's own")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
