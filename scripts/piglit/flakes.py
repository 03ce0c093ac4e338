#!/usr/bin/env python3
"""Prints the tests of a piglit result directory that failed to reach the X server.

    flakes.py RESULTS_DIR

Under load, Xvfb sometimes refuses a connection and the test fails before it makes a GL call
("XOpenDisplay failed", waffle's "could not connect"). Only those are rerun by .ci/piglit.sh;
any other failure stands.
"""
import bz2
import glob
import json
import re
import sys

X_FLAKE = re.compile(r"XOpenDisplay failed|Failed to open X display|cannot open display|"
                     r"waffle_display_connect failed|Maximum number of clients reached")


def main():
    paths = glob.glob(sys.argv[1] + "/results.json*")
    if not paths:
        return 0
    with (bz2.open(paths[0]) if paths[0].endswith(".bz2") else open(paths[0])) as f:
        tests = json.load(f)["tests"]
    for name, t in sorted(tests.items()):
        text = (t.get("out") or "") + (t.get("err") or "")
        if t.get("result") != "pass" and X_FLAKE.search(text):
            print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
