#!/usr/bin/python3
"""Checks that the fusion report's memory section (planned from the fusion
plan, before bufferization) gives the arena that fuse-plan-buffers builds
after bufferization, function by function (or that the lowered plan is
smaller by no more than the bytes it writes in place beyond the report's).

usage: report-agrees.py REPORT.json LOWERED.mlir
Prints one line per function; exit 1 if any differ or none is found.
"""
import json
import re
import sys


def main():
    report, lowered = sys.argv[1], sys.argv[2]
    memory = {f["name"]: f["memory"] for f in json.load(open(report))["functions"]}
    functions = {name: m["arena"] for name, m in memory.items()}
    text = open(lowered).read()
    # fuse.memory = {arena = N : i64, ...} on the lowered host function (a
    # func.func, or an llvm.func of any linkage), on the line that opens it.
    planned, in_place = {}, {}
    for line in text.splitlines():
        m = re.search(r"(?:func\.func|llvm\.func)\s+(?:\w+\s+)*@([\w.$]+)\(.*fuse\.memory = \{arena = (\d+)"
                      r"(?: : i64)?, in_place_bytes = (\d+)", line)
        if m:
            planned[m.group(1)] = int(m.group(2))
            in_place[m.group(1)] = int(m.group(3))
    status = 0
    checked = 0
    for name, arena in functions.items():
        if arena == 0 and name not in planned:
            continue  # nothing between kernels to plan
        got = planned.get(name)
        verdict = "agree" if got == arena else "DIFFER"
        # A kernel whose lowered body reads an input whole before it writes
        # its output (a pooling's input copied into its padded buffer) may
        # write over that input, which the report (from the fusion plan)
        # cannot see: a smaller arena that those in-place bytes explain.
        extra = in_place.get(name, 0) - memory[name].get("in_place_bytes", 0)
        if got is not None and got < arena and arena - got <= extra:
            verdict = f"agree less {arena - got} B written in place after lowering"
        elif got != arena:
            status = 1
        checked += 1
        print(f"{name}: report {arena} B, fuse-plan-buffers {got} B: {verdict}")
    if not checked:
        print("no function with a planned arena")
        status = 1
    sys.exit(status)


if __name__ == "__main__":
    main()
