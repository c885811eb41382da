#!/usr/bin/python3
"""Extracts the PTX of every kernel from fuse-to-nvptx output (format=isa),
writes it to a directory (one .ptx per kernel) and, when ptxas is available,
compiles each for its chip with `ptxas -v` and prints registers, spill
stores/loads and shared memory per kernel.

usage: ptx-stats.py LOWERED.mlir [--out DIR] [--ptxas PATH] [--json FILE] [--report REPORT.json]
       ptx-stats.py KERNELS_DIR [--ptxas PATH] [--json FILE] [--report REPORT.json]

The input is fuse-opt's fuse-to-nvptx output, or the directory
`fuse-compile --target=... --gpu-format=isa --kernels DIR` wrote (one .ptx per
kernel, its chip from the PTX's .target; the weight re-layouts then come
from fuse-compile's own report, which lists them already).

With --report, the statistics go into the fusion report (fuse-fusion-pipeline
report=FILE): each group gets a "ptxas" object (kernel, chip, registers,
spills, stack and shared bytes), keyed by the group's id through the kernel's
name (<function>__group<id>_kernel), and the report gets a "kernels" list
and a "relayouts" list (the constant weights fuse-relayout-weights permuted,
with their bytes).
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
    parser.add_argument("--report", help="fusion report (JSON) to add the statistics to, per group")
    args = parser.parse_args()
    text = None
    if os.path.isdir(args.input):
        kernels = read_kernel_dir(args.input)
        args.out = args.input
    else:
        text = open(args.input).read()
        kernels = OBJECT.findall(text)
    if not kernels:
        sys.exit("ptx-stats: no kernels with PTX (format=isa) in " + args.input)
    os.makedirs(args.out, exist_ok=True)
    have_ptxas = os.path.exists(args.ptxas)
    stats = []
    spilled = False
    for name, target, assembly in kernels:
        ptx = unescape(assembly) if text is not None else assembly
        path = os.path.join(args.out, name + ".ptx")
        if text is not None:
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
    if args.report:
        add_to_report(args.report, stats, read_relayouts(text) if text is not None else
                      [dict(function=fn["name"], **r) for fn in json.load(open(args.report))["functions"]
                       for r in fn.get("relayouts", [])])
    if spilled:
        print("ptx-stats: a kernel spills registers: " + ", ".join(
            e["kernel"] for e in stats if e["spill_stores"] or e["spill_loads"]), file=sys.stderr)
    return 1 if spilled else 0


def read_kernel_dir(path):
    """(name, target, PTX) of each .ptx file fuse-compile --kernels wrote;
    the target as the chip the PTX names (.target sm_90a)."""
    kernels = []
    for entry in sorted(os.listdir(path)):
        if not entry.endswith(".ptx"):
            continue
        with open(os.path.join(path, entry)) as f:
            ptx = f.read()
        m = re.search(r"^\s*\.target\s+(sm_\w+)", ptx, re.M)
        if not m:
            sys.exit(f"ptx-stats: {entry}: no .target line (not PTX?)")
        kernels.append((entry[:-4], f'chip = "{m.group(1)}"', ptx))
    return kernels


KERNEL_NAME = re.compile(r"^(.*)__group(\d+)_kernel$")


RELAYOUT = re.compile(r'\{bytes = (\d+) : i64, from = "(\w+)", (?:group = (\d+) : i64, )?op = "([^"]*)", to = "(\w+)"\}')


def read_relayouts(text):
    """The weight re-layouts fuse-relayout-weights recorded on the functions
    (fuse.relayouts), as report entries."""
    out = []
    for m in re.finditer(r"llvm\.func @(\w+)\([^\n]*?fuse\.relayouts = \[(.*?)\]", text):
        for r in RELAYOUT.finditer(m.group(2)):
            entry = {"function": m.group(1), "op": r.group(4), "from": r.group(2), "to": r.group(5),
                     "bytes": int(r.group(1))}
            if r.group(3) is not None:
                entry["group"] = int(r.group(3))
            out.append(entry)
    return out


def add_to_report(path, stats, relayouts=()):
    """Writes each kernel's statistics into its group of the fusion report,
    keyed by function name and group id; a kernel without a group in the
    report is an error (the report belongs to another module)."""
    with open(path) as f:
        report = json.load(f)
    groups = {}
    for fn in report.get("functions", []):
        for group in fn.get("groups", []):
            groups[(fn["name"], group["id"])] = group
    listed = []
    for e in stats:
        m = KERNEL_NAME.match(e["kernel"])
        if not m or (m.group(1), int(m.group(2))) not in groups:
            sys.exit(f"ptx-stats: kernel {e['kernel']} has no group in {path}")
        function, gid = m.group(1), int(m.group(2))
        fields = {k: e[k] for k in ("kernel", "chip", "registers", "spill_stores", "spill_loads",
                                    "local_bytes", "shared_bytes")}
        groups[(function, gid)]["ptxas"] = fields
        listed.append(dict(function=function, group=gid, **fields))
    report["kernels"] = sorted(listed, key=lambda k: (k["function"], k["group"]))
    report["relayouts"] = list(relayouts)
    with open(path, "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    print(f"statistics of {len(listed)} kernel(s) added to {path}")
    if relayouts:
        print(f"{len(relayouts)} weight re-layout(s), {sum(r['bytes'] for r in relayouts)} bytes: "
              + ", ".join(f"{r['op']} {r['from']}->{r['to']}" for r in relayouts))


if __name__ == "__main__":
    sys.exit(main())
