#!/usr/bin/env python3
"""Compares two piglit result directories, direct GL and through glcmd-run (issue 19's judge).

    compare.py DIRECT[:RETRY] GLCMD[:RETRY] GROUPS_FILE [UNSERVED_FILE [DIRECT_BY_DESIGN_FILE]]

A side given as `DIR:RETRY` reads RETRY's results over DIR's (the rerun of X-connection flakes).

Prints one line per group of GROUPS_FILE (pass / fail / skip / crash / timeout, direct and
through glcmd), then every test that passes directly and does not pass through glcmd, and every
test that crashes or times out through glcmd. Exits 1 if there is any such test, or if a test of
the run was not adopted by glcmd (the preload library ran it directly: it asked for a context
glcmd does not serve, so the list of core-profile tests is stale). UNSERVED_FILE names tests that
need an extension glcmd does not list: for those alone, a skip through glcmd saying piglit's
"Test requires <that extension>" is accepted (and printed). DIRECT_BY_DESIGN_FILE names tests whose
contexts glcmd-run leaves to the driver (OpenGL ES, compatibility profile): for them "runs directly" is
expected, and they must pass through glcmd-run wherever they pass directly (glcmd-run's own look at a
context leaves no trace in it, issue 34 item 1).
"""
import bz2
import glob
import json
import sys


def load_one(directory):
    paths = glob.glob(directory + "/results.json*")
    if not paths:
        return {}
    with (bz2.open(paths[0]) if paths[0].endswith(".bz2") else open(paths[0])) as f:
        return json.load(f)["tests"]


def load(spec):
    tests = {}
    for directory in spec.split(":"):
        tests.update(load_one(directory))
    return tests


def group_of(test, groups):
    # The longest group name the test's name starts with (spec@!opengl 3.1 before spec@!opengl 3).
    best = None
    for g in groups:
        if test.startswith(g + "@") and (best is None or len(g) > len(best)):
            best = g
    return best or test.split("@")[0]


def main():
    direct, glcmd, groups_file = sys.argv[1:4]
    unserved = {}
    if len(sys.argv) > 4:
        for line in open(sys.argv[4]):
            if line.strip() and not line.startswith("#"):
                test, extension = line.rstrip("\n").rsplit("  ", 1)
                unserved[test.strip()] = extension.strip()
    direct_by_design = set()
    if len(sys.argv) > 5:
        direct_by_design = {line.strip() for line in open(sys.argv[5]) if line.strip() and not line.startswith("#")}
    groups = [g.strip() for g in open(groups_file) if g.strip() and not g.startswith("#")]
    d, c = load(direct), load(glcmd)
    kinds = ["pass", "fail", "skip", "crash", "timeout"]
    rows = {}
    for name in sorted(set(d) | set(c)):
        g = group_of(name, groups)
        row = rows.setdefault(g, {"direct": dict.fromkeys(kinds, 0), "glcmd": dict.fromkeys(kinds, 0)})
        for side, results in (("direct", d), ("glcmd", c)):
            r = results.get(name, {}).get("result", "missing")
            row[side][r if r in kinds else "fail"] += 1
    width = max(len(g) for g in rows)
    print(f"{'group':<{width}}  direct: pass/fail/skip/crash/timeout   glcmd: pass/fail/skip/crash/timeout")
    totals = {"direct": dict.fromkeys(kinds, 0), "glcmd": dict.fromkeys(kinds, 0)}
    for g in sorted(rows):
        cells = []
        for side in ("direct", "glcmd"):
            for k in kinds:
                totals[side][k] += rows[g][side][k]
            cells.append("/".join(str(rows[g][side][k]) for k in kinds))
        print(f"{g:<{width}}  {cells[0]:<34}  {cells[1]}")
    print(f"{'all ' + str(len(set(d) | set(c))) + ' tests':<{width}}  "
          f"{'/'.join(str(totals['direct'][k]) for k in kinds):<34}  "
          f"{'/'.join(str(totals['glcmd'][k]) for k in kinds)}")

    bad = []
    for name in sorted(set(d) | set(c)):
        dr = d.get(name, {}).get("result")
        cr = c.get(name, {}).get("result")
        err = c.get(name, {}).get("err") or ""
        if "runs directly" in err and "glcmd-run" in err and name not in direct_by_design:
            bad.append(f"{name}: not adopted by glcmd (it ran directly): the core-profile list is stale")
        elif dr == "pass" and cr == "skip" and name in unserved and \
                f"Test requires {unserved[name]}" in (c[name].get("out") or ""):
            print(f"UNSERVED {name}: passes directly, skips through glcmd: needs {unserved[name]}, "
                  f"which glcmd does not serve")
        elif dr == "pass" and cr != "pass":
            bad.append(f"{name}: passes directly, {cr} through glcmd")
        elif cr in ("crash", "timeout") and dr != cr:
            bad.append(f"{name}: {cr} through glcmd ({dr} directly)")
    for line in bad:
        print("REGRESSION " + line)
    if bad:
        print(f"{len(bad)} tests do worse through glcmd (their output: piglit summary console -l regressions, "
              f"or the results.json of {glcmd})")
        return 1
    print("every test that passes directly passes through glcmd; no crash or timeout of glcmd's own")
    return 0


if __name__ == "__main__":
    sys.exit(main())
