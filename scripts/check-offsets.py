#!/usr/bin/python3
"""Checks a memory plan (CSV start,end,size,offset, as fuse-plan-memory
--offsets writes it) independently of the planner: no two buffers whose
inclusive lifetimes intersect may overlap in memory. Prints the arena and
max-live and exits 1 on any overlap.

usage: check-offsets.py PLAN.csv [--alignment N]"""
import argparse
import csv
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("plan")
    parser.add_argument("--alignment", type=int, default=1)
    args = parser.parse_args()
    rows = [tuple(int(r[k]) for k in ("start", "end", "size", "offset"))
            for r in csv.DictReader(open(args.plan))]
    bad = 0
    for i, (s1, e1, z1, o1) in enumerate(rows):
        if o1 % args.alignment:
            print(f"buffer {i}: offset {o1} not aligned to {args.alignment}")
            bad += 1
        for j in range(i + 1, len(rows)):
            s2, e2, z2, o2 = rows[j]
            if s1 <= e2 and s2 <= e1 and z1 and z2 and o1 < o2 + z2 and o2 < o1 + z1:
                print(f"buffers {i} and {j} are alive together and overlap")
                bad += 1
    arena = max((o + z for _, _, z, o in rows), default=0)
    steps = sorted({s for s, _, _, _ in rows})
    max_live = max((sum(z for s, e, z, _ in rows if s <= t <= e) for t in steps), default=0)
    print(f"buffers {len(rows)}, arena {arena}, max-live {max_live}, "
          f"ratio {arena / max_live if max_live else 1.0:.4f}, {'valid' if not bad else 'INVALID'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
