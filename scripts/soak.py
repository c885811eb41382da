#!/usr/bin/python3
"""Differential testing of fusion on random graphs.

For each seed, scripts/random-graphs.py makes a TOSA function; it must
parse and verify; then fused and unfused run on the CPU and must agree
(scripts/check-equivalence.py), once with the groups as they are, once
tiled into one loop nest each (--lower-groups) and spread over emulated
threads, and once with every contraction the tensor-core schedule computes
on emulated tensor cores (--tensor-cores always, each group's own block
size), all through fuse-to-cpu with the buffers planned into one arena. fuse-opt verifies the IR after
every pass.

With --allow-lowering-limits (what `make check` uses), a group that
fuse-lower-groups refuses with a diagnostic is reported apart and does not
fail the batch; a wrong result always does.

A failing graph is minimised (random steps dropped one at a time while the
same check still fails) and written as a lit test to --regressions
(default test/Random/), ready to commit. The last line is
`N passed, M failed`; the exit status is 1 when any graph failed.

usage: scripts/soak.py [--graphs 200] [--seed 1] [--ops 12] [--jobs N]
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import importlib  # noqa: E402

graphs = importlib.import_module("random-graphs")


THREADS = 96
TENSOR_CORES = ["--lower-groups", "--distribute-threads", "config", "--tensor-cores", "always"]


def check(fuse_opt, text):
    """None when the graph passes, else (check name, output)."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        proc = subprocess.run([fuse_opt, path, "-o", os.devnull], capture_output=True, text=True)
        if proc.returncode:
            return "invalid-input", proc.stderr
        # The tiled variant also spreads each tile over emulated threads as the
        # GPU kernels do (not a multiple of the tile sizes on purpose).
        lowered = ["--lower-groups"] + (["--distribute-threads", str(THREADS)] if THREADS else [])
        for name, extra in [("fused", []), ("lowered", lowered), ("tensor-cores", TENSOR_CORES)]:
            proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "check-equivalence.py"), path,
                                   "--fuse-opt", fuse_opt] + extra, capture_output=True, text=True)
            if proc.returncode:
                out = proc.stdout + proc.stderr
                # fuse-lower-groups refusing a group with a diagnostic is a
                # known limit (the group would not be one kernel), not a
                # wrong result.
                if name != "fused" and "command failed" in out and "error: fuse-lower-groups:" in out:
                    return "lowering-limit", out
                return name, out
        return None
    finally:
        os.unlink(path)


def minimise(fuse_opt, seed, ops, kind):
    _, keep = graphs.make_graph(seed, ops)
    keep = set(keep)
    changed = True
    while changed:
        changed = False
        for step in sorted(keep, reverse=True):
            trial = keep - {step}
            graph = graphs.make_graph(seed, ops, trial)
            if graph is None:
                continue
            result = check(fuse_opt, graph[0])
            if result and result[0] == kind:
                keep = trial
                changed = True
    return graphs.make_graph(seed, ops, keep)[0]


def run_one(fuse_opt, seed, ops):
    graph = graphs.make_graph(seed, ops)
    if graph is None:
        return seed, None
    return seed, check(fuse_opt, graph[0])


def main():
    global THREADS
    parser = argparse.ArgumentParser()
    parser.add_argument("--graphs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ops", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--fuse-opt", default=os.path.join(ROOT, "build", "bin", "fuse-opt"))
    parser.add_argument("--regressions", default=os.path.join(ROOT, "test", "Random"))
    parser.add_argument("--no-minimise", action="store_true")
    parser.add_argument("--allow-lowering-limits", action="store_true",
                        help="count groups that fuse-lower-groups refuses with a diagnostic apart, not as "
                             "failures (wrong results always fail)")
    parser.add_argument("--threads", type=int, default=96,
                        help="emulated threads per tile in the tiled variant (0: tiles run on one thread)")
    args = parser.parse_args()
    # Out-of-range values would make every graph fail on the option itself,
    # and those failures would be written as "regressions".
    if not 0 <= args.threads <= 1024:
        parser.error(f"--threads must be 0 to 1024 (a GPU block's most threads), got {args.threads}")
    for name in ("graphs", "ops", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be positive, got {getattr(args, name)}")
    THREADS = args.threads
    seeds = range(args.seed, args.seed + args.graphs)
    failed = []
    limits = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for seed, result in pool.map(lambda s: run_one(args.fuse_opt, s, args.ops), seeds):
            if result and result[0] == "lowering-limit" and args.allow_lowering_limits:
                limits.append(seed)
                error = next((l for l in result[1].splitlines() if "error:" in l), "")
                print(f"seed {seed}: lowering limit: {error.strip()}", flush=True)
            elif result:
                failed.append((seed, result))
                print(f"seed {seed}: FAIL ({result[0]})\n{result[1]}", flush=True)
    for seed, (kind, _) in failed:
        if args.no_minimise:
            continue
        text = minimise(args.fuse_opt, seed, args.ops, kind)
        os.makedirs(args.regressions, exist_ok=True)
        path = os.path.join(args.regressions, f"soak-{seed}.mlir")
        run = {"invalid-input": "// RUN: fuse-opt %s -o /dev/null",
               "fused": "// RUN: %check_equivalence %s",
               "lowered": "// RUN: %check_equivalence %s --lower-groups"
                          + (f" --distribute-threads {THREADS}" if THREADS else ""),
               "tensor-cores": "// RUN: %check_equivalence %s " + " ".join(TENSOR_CORES),
               "lowering-limit": "// RUN: %check_equivalence %s --lower-groups"}[kind]
        with open(path, "w") as f:
            f.write(f"// Found by scripts/soak.py (seed {seed}, --ops {args.ops}), minimised: the {kind} check\n"
                    f"// failed on it.\n{run}\n{text}")
        print(f"seed {seed}: minimised to {path}")
    if limits:
        print(f"{len(limits)} graph(s) hit a lowering limit (a diagnostic, not a wrong result): "
              f"seeds {', '.join(map(str, limits))}")
    print(f"{args.graphs - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
