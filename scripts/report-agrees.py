#!/usr/bin/python3
"""Checks that the fusion report's memory section (planned from the fusion
plan, before bufferization) gives the arena that fuse-plan-buffers builds
after bufferization, function by function (or that the lowered plan is
smaller by no more than the bytes it writes in place beyond the report's).

usage: report-agrees.py REPORT.json
REPORT.json is fuse-compile's --report: each function's `memory` is the
fusion's estimate, its `memory.workspace_plan` what fuse-plan-buffers built
at codegen. Prints one line per function; exit 1 if any differ or none is
found.
"""
import json
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    with open(sys.argv[1]) as f:
        functions = json.load(f)["functions"]
    status = 0
    checked = 0
    for fn in functions:
        name, memory = fn["name"], fn.get("memory", {})
        arena = memory.get("arena", 0)
        plan = memory.get("workspace_plan")
        if arena == 0 and plan is None:
            continue  # nothing between kernels to plan
        got = plan["arena"] if plan else None
        verdict = "agree" if got == arena else "DIFFER"
        # A kernel whose lowered body reads an input whole before it writes
        # its output (a pooling's input copied into its padded buffer) may
        # write over that input, which the report (from the fusion plan)
        # cannot see: a smaller arena that those in-place bytes explain.
        extra = (plan or {}).get("in_place_bytes", 0) - memory.get("in_place_bytes", 0)
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
