#!/usr/bin/python3
"""Writes large buffer traces for fuse-plan-memory (CSV, header
start,end,size), the shapes that once made the planner quadratic:

  identical N   N rows alive over the same steps, all the same size
  chain N       buffer i lives over steps i and i + 1 (each meets the next)
  disjoint N    buffer i lives at step i only (no two alive together)
  random N      random starts in [0, N / 10), lifetimes of 1 to 100 steps,
                sizes of 1 B to 1 MiB (seeded, the same file every run)
  sparse N      random starts in [0, N), lifetimes of 1 to 100 steps (about
                50 buffers alive at a step: few enough pairs that every
                search of the planner runs, also at 100,000 buffers),
                sizes of 1 B to 1 MiB (seeded)
  packing N     a perfect packing: a rectangle of N steps by 2^24 bytes cut
                into N pieces by random guillotine cuts (across time or
                memory); every step is covered to the full height, so
                max-live is 2^24 and a plan at max-live exists (seeded)

Sizes other than `identical` vary so the planner cannot take the
equal-sizes shortcut. Usage: planner-traces.py KIND N OUT.csv [--seed S]
"""
import argparse
import random
import sys


def write_packing(n, rng, out):
    pieces = [(0, n, 0, 1 << 24)]  # [start, end) x [bottom, top)
    tries = 0
    while len(pieces) < n and tries < 100 * n:
        tries += 1
        i = rng.randrange(len(pieces))
        start, end, bottom, top = pieces[i]
        across_time = rng.random() < 0.5
        extent = end - start if across_time else top - bottom
        if extent < 2:
            continue
        cut = rng.randrange(1, extent)
        if across_time:
            pieces[i] = (start, start + cut, bottom, top)
            pieces.append((start + cut, end, bottom, top))
        else:
            pieces[i] = (start, end, bottom, bottom + cut)
            pieces.append((start, end, bottom + cut, top))
    rng.shuffle(pieces)
    with open(out, "w") as f:
        f.write("start,end,size\n")
        f.writelines("%d,%d,%d\n" % (start, end - 1, top - bottom) for start, end, bottom, top in pieces)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["identical", "chain", "disjoint", "random", "sparse", "packing"])
    parser.add_argument("count", type=int)
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 1 <= args.count <= 1 << 24:
        sys.exit("planner-traces.py: the count must be in 1..%d, not %d" % (1 << 24, args.count))
    n = args.count
    rng = random.Random(args.seed)
    if args.kind == "packing":
        write_packing(n, rng, args.out)
        return
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
                start = rng.randrange(max(1, n // 10 if args.kind == "random" else n))
                row = "%d,%d,%d\n" % (start, start + rng.randrange(100), rng.randrange(1, 1 << 20))
            chunk.append(row)
            if len(chunk) == 65536:
                f.writelines(chunk)
                chunk = []
        f.writelines(chunk)


if __name__ == "__main__":
    main()
