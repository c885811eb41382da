#!/usr/bin/env python3
"""Extracts the PTX of every kernel from fuse-to-nvptx output (format=isa),
writes it to a directory (one .ptx per kernel) and, when ptxas is available,
compiles each for its chip with `ptxas -v` and prints registers, spill
stores/loads and shared memory per kernel.

usage: ptx-stats.py LOWERED.mlir [--out DIR] [--ptxas PATH] [--json FILE]
Exits 1 when a kernel spills (a spill is a failure for fuse's kernels).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

OBJECT = re.compile(r'gpu\.binary @(\w+)\s+\[#gpu\.object<#nvvm\.target<([^>]*)>[^\]]*?assembly = "((?:[^"\\]|\\.)*)"')


def unescape(text):
    # MLIR prints non-printable bytes as \XX (hex); quotes and backslashes too.
    return re.sub(r"\\([0-9A-Fa-f]{2}|\\|\")",
                  lambda m: chr(int(m.group(1), 16)) if len(m.group(1)) == 2 else m.group(1), text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("input")
    parser.add_argument("--out", default="ptx")
    parser.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    parser.add_argument("--json")
    args = parser.parse_args()
    text = open(args.input).read()
    kernels = OBJECT.findall(text)
    if not kernels:
        sys.exit("ptx-stats: no kernels with PTX (format=isa) in " + args.input)
    os.makedirs(args.out, exist_ok=True)
    have_ptxas = os.path.exists(args.ptxas)
    stats = []
    spilled = False
    for name, target, assembly in kernels:
        ptx = unescape(assembly)
        path = os.path.join(args.out, name + ".ptx")
        with open(path, "w") as f:
            f.write(ptx)
        chip = re.search(r'chip = "(sm_\w+)"', target).group(1)
        entry = {"kernel": name, "chip": chip, "ptx": path, "ptx_bytes": len(ptx),
                 "registers": None, "spill_stores": None, "spill_loads": None, "shared_bytes": None,
                 "local_bytes": None}
        if have_ptxas:
            proc = subprocess.run([args.ptxas, "-v", f"-arch={chip}", path, "-o", os.devnull],
                                  capture_output=True, text=True)
            log = proc.stdout + proc.stderr
            if proc.returncode != 0:
                sys.exit(f"ptx-stats: ptxas failed on {path}:\n{log}")
            if m := re.search(r"Used (\d+) registers", log):
                entry["registers"] = int(m.group(1))
            if m := re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log):
                entry["spill_stores"], entry["spill_loads"] = int(m.group(1)), int(m.group(2))
            if m := re.search(r"(\d+) bytes smem", log):
                entry["shared_bytes"] = int(m.group(1))
            if m := re.search(r"(\d+) bytes stack frame", log):
                entry["local_bytes"] = int(m.group(1))
            spilled |= bool(entry["spill_stores"] or entry["spill_loads"])
        stats.append(entry)
    print(f"{len(stats)} kernel(s), PTX in {args.out}/" + ("" if have_ptxas else " (no ptxas: no register counts)"))
    print(f"{'kernel':40} {'chip':7} {'regs':>5} {'spill st/ld':>12} {'stack B':>8} {'smem B':>7}")
    for e in stats:
        spills = "-" if e["spill_stores"] is None else f"{e['spill_stores']}/{e['spill_loads']}"
        fmt = lambda v: "-" if v is None else str(v)
        print(f"{e['kernel']:40} {e['chip']:7} {fmt(e['registers']):>5} {spills:>12} "
              f"{fmt(e['local_bytes']):>8} {fmt(e['shared_bytes']):>7}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(stats, f, indent=2)
    return 1 if spilled else 0


if __name__ == "__main__":
    sys.exit(main())
