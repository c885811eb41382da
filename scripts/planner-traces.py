#!/usr/bin/python3
"""Writes large buffer traces for fuse-plan-memory (CSV, header
start,end,size), the shapes that once made the planner quadratic:

  identical N   N rows alive over the same steps, all the same size
  chain N       buffer i lives over steps i and i + 1 (each meets the next)
  disjoint N    buffer i lives at step i only (no two alive together)
  random N      random starts in [0, N / 10), lifetimes of 1 to 100 steps,
                sizes of 1 B to 1 MiB (seeded, the same file every run)

Sizes other than `identical` vary so the planner cannot take the
equal-sizes shortcut. Usage: planner-traces.py KIND N OUT.csv [--seed S]
"""
import argparse
import random
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["identical", "chain", "disjoint", "random"])
    parser.add_argument("count", type=int)
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 1 <= args.count <= 1 << 24:
        sys.exit("planner-traces.py: the count must be in 1..%d, not %d" % (1 << 24, args.count))
    n = args.count
    rng = random.Random(args.seed)
    with open(args.out, "w") as f:
        f.write("start,end,size\n")
        chunk = []
        for i in range(n):
            if args.kind == "identical":
                row = "0,10,4096\n"
            elif args.kind == "chain":
                row = "%d,%d,%d\n" % (i, i + 1, 1024 + (i * 7919) % 4096)
            elif args.kind == "disjoint":
                row = "%d,%d,%d\n" % (i, i, 1024 + (i * 7919) % 4096)
            else:
                start = rng.randrange(max(1, n // 10))
                row = "%d,%d,%d\n" % (start, start + rng.randrange(100), rng.randrange(1, 1 << 20))
            chunk.append(row)
            if len(chunk) == 65536:
                f.writelines(chunk)
                chunk = []
        f.writelines(chunk)


if __name__ == "__main__":
    main()
