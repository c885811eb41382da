#!/usr/bin/python3
"""Runs the fusion pipeline on the hand-written model blocks in test/Models
for one or more targets and prints a Markdown table: kernels and bytes
between kernels, unfused (every rule off: each op of the graph its own
kernel) and fused, and the groups by kind.

usage: scripts/model-blocks.py [--fuse-opt build/bin/fuse-opt] [TARGET ...]
"""
import argparse
import collections
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def all_rules(fuse_opt):
    out = subprocess.run([fuse_opt, "--fuse-list-rules"], check=True,
                         capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines()
            if line.startswith("  ") and not line.startswith("    ")]


def run(fuse_opt, path, target, disabled=()):
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        options = f"target={target} report={report.name}"
        if disabled:
            options += " disable-rules=" + ",".join(disabled)
        subprocess.run([fuse_opt, path, "-o", os.devnull,
                        f"--fuse-fusion-pipeline={options}"], check=True)
        return json.load(open(report.name))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fuse-opt", default=os.path.join(ROOT, "build", "bin", "fuse-opt"))
    parser.add_argument("targets", nargs="*", default=["h200"])
    args = parser.parse_args()
    blocks = sorted(glob.glob(os.path.join(ROOT, "test", "Models", "*.mlir")))
    rules = all_rules(args.fuse_opt)
    print("| block | target | kernels unfused | kernels fused | bytes unfused | bytes fused | groups by kind |")
    print("|---|---|---|---|---|---|---|")
    for path in blocks:
        for target in args.targets:
            report = run(args.fuse_opt, path, target)
            # Unfused: every rule off, graph rewrites included, so each op of
            # the imported graph is its own kernel.
            unfused = run(args.fuse_opt, path, target, rules)["totals"]
            t = report["totals"]
            kinds = collections.Counter(g["kind"] for fn in report["functions"] for g in fn["groups"])
            kinds_text = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
            print(f"| {os.path.basename(path)[:-5]} | {target} | {unfused['kernels_after']} | {t['kernels_after']} "
                  f"| {unfused['bytes_after']} | {t['bytes_after']} | {kinds_text} |")


if __name__ == "__main__":
    sys.exit(main())
