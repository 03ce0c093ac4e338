#!/usr/bin/env python3
"""Prints the core-profile tests of a glcmd-run piglit run (see discover.sh).

    core_list.py RUN[:RETRY] GROUPS_FILE EXCLUDED_FILE

A test is core-profile when glcmd-run adopted its context: its output has no "glcmd-run: context
... runs directly" line and it reached the X server (an X-connection flake says nothing of its
context; one that flaked in the retry too is left out, and named on stderr).
"""
import sys

from compare import load
from flakes import X_FLAKE


def main():
    run, groups_file, excluded_file = sys.argv[1:4]
    tests = load(run)
    groups = [g.strip() for g in open(groups_file) if g.strip() and not g.startswith("#")]
    excluded = {l.split("  #")[0].strip() for l in open(excluded_file) if l.strip() and not l.startswith("#")}
    core, unknown = [], []
    for name, t in tests.items():
        text = (t.get("out") or "") + (t.get("err") or "")
        if not any(name.startswith(g + "@") for g in groups) or name in excluded:
            continue
        if X_FLAKE.search(text):
            unknown.append(name)
        elif "runs directly" not in text:
            core.append(name)
    print("\n".join(sorted(core)))
    print(f"{len(tests)} tests run, {len(core)} ask for a core-profile context; "
          f"{len(unknown)} never reached the X server: {unknown}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
