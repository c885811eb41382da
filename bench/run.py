#!/usr/bin/python3
"""The benchmark suite: each model of the corpus (scripts/models/export.py,
the plain eval exports) through fuse, side by side with every op as its own
kernel and with upstream MLIR's own elementwise fusion.

Per model (all numbers measured here, null where not measured):
  nodes                      ONNX nodes
  kernels_unfused            every op its own kernel (fuse's groups with every rule off)
  kernels_upstream           tosa-to-linalg + linalg-fuse-elementwise-ops, then one kernel per op
  kernels_fuse               fuse-fusion-pipeline for an H200
  bytes_unfused/_upstream/_fuse  bytes read and written by all kernels between them
                             (each kernel's operand and result sizes, from the IR)
  arena_naive/planned, max_live  activation memory of the fused build (fuse-plan-buffers)
  compile_s                  import + fusion + fuse-to-nvptx (wall, median of 3)
  ptx_regs_max, ptx_spills   over all kernels (ptxas on the PTX; null without the CUDA toolkit)
  cpu_ms_unfused/_fuse       the CPU build, same input, median of --repeat runs (a ratio,
                             not an absolute claim: the CPU kernels are naive loops)
  max_rel_err                fused CPU output against PyTorch's
  by_rule                    kernels and bytes saved per fusion rule

Writes docs/benchmarks/results.json, docs/benchmarks.md (the table, the
per-rule breakdown, the plots and the command) and PNG plots into
docs/benchmarks/. The GPU section says "not measured" unless a GPU run's
results are given with --gpu-json (while measuring) or merged later with
--merge-gpu FILE (bench/gpu.py's JSON; nothing is measured again).

usage: bench/run.py [--models a,b] [--repeat 3] [--skip-cpu] [--models-dir build/models]
"""
import argparse
import collections
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "build", "bin")
MODELS = ["inception_block", "resnet50", "mobilenet_v2", "googlenet", "yolo", "bert_base"]
TARGET = "h200"


def run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:3])} ...: {proc.stderr.strip()[-800:]}")
    return proc.stdout


def all_rules():
    return [line.split()[0] for line in run([os.path.join(BIN, "fuse-opt"), "--fuse-list-rules"]).splitlines()
            if line.startswith("  ") and not line.startswith("    ")]


def report_of(path):
    r = json.load(open(path))
    return r["functions"][0]


def measure(name, args, tmp):
    import onnx
    onnx_path = os.path.join(args.models_dir, name + ".onnx")
    npz = os.path.join(args.models_dir, name + ".npz")
    row = {"model": name, "date": datetime.date.today().isoformat()}
    row["nodes"] = len(onnx.load(onnx_path, load_external_data=False).graph.node)
    mlir = os.path.join(tmp, name + ".mlir")
    fuse_opt, translate = os.path.join(BIN, "fuse-opt"), os.path.join(BIN, "fuse-translate")

    # Compile: import + fusion + PTX, three times; the median.
    times = []
    for _ in range(3):
        start = time.monotonic()
        run([translate, "--import-onnx", onnx_path, "-o", mlir])
        run([fuse_opt, mlir, f"--fuse-fusion-pipeline=target={TARGET} report={tmp}/fused.json",
             "-o", f"{tmp}/fused.mlir"])
        try:
            run([fuse_opt, f"{tmp}/fused.mlir", f"--fuse-to-nvptx=target={TARGET}", "-o", f"{tmp}/kernels.mlir"])
            ptx_ok = True
        except RuntimeError as e:
            ptx_ok = False
            lines = [l for l in str(e).splitlines() if "error:" in l] or str(e).splitlines()
            row["ptx_error"] = lines[0].split("error: ", 1)[-1][:300]
            break
        times.append(time.monotonic() - start)
    row["compile_s"] = round(statistics.median(times), 3) if ptx_ok else None
    fused = report_of(f"{tmp}/fused.json")
    row["kernels_fuse"], row["bytes_fuse"] = fused["kernels_after"], fused["bytes_after"]
    # Unfused: every rule off, graph rewrites included (no BN folding, no
    # merged GEMMs): each op of the imported graph its own kernel.
    rules = ",".join(all_rules())
    run([fuse_opt, mlir, f"--fuse-fusion-pipeline=target={TARGET} prune=false disable-rules={rules} "
         f"report={tmp}/unfused.json", "-o", "/dev/null"])
    unfused = report_of(f"{tmp}/unfused.json")
    row["kernels_unfused"], row["bytes_unfused"] = unfused["kernels_after"], unfused["bytes_after"]
    mem = fused.get("memory") or {}
    row["arena_naive"], row["arena_planned"], row["max_live"] = mem.get("naive"), mem.get("arena"), mem.get("max_live")
    by_rule = collections.defaultdict(lambda: {"groups": 0, "ops": 0, "bytes_saved": 0})
    for g in fused["groups"]:
        if g["rule"]:
            by_rule[g["rule"]]["groups"] += 1
            by_rule[g["rule"]]["ops"] += len(g["ops"])
            by_rule[g["rule"]]["bytes_saved"] += g["bytes_saved"]
    row["by_rule"] = dict(by_rule)

    # Upstream: MLIR's elementwise fusion on the same linalg, one kernel per op.
    run([fuse_opt, mlir, "--pass-pipeline=builtin.module(func.func(tosa-to-linalg-named,"
         "tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,"
         "func.func(linalg-fuse-elementwise-ops),canonicalize)", "-o", f"{tmp}/upstream.mlir"])
    run([fuse_opt, f"{tmp}/upstream.mlir",
         f"--fuse-fusion-pipeline=target={TARGET} prune=false disable-rules={rules} report={tmp}/up.json",
         "-o", "/dev/null"])
    up = report_of(f"{tmp}/up.json")
    row["kernels_upstream"], row["bytes_upstream"] = up["kernels_after"], up["bytes_after"]

    # ptxas statistics.
    row["ptx_regs_max"] = row["ptx_spills"] = None
    if ptx_ok:
        try:
            # ptx-stats exits 1 when a kernel spills; its JSON still lists
            # every kernel, so the spills are counted, not hidden.
            subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "ptx-stats.py"),
                            f"{tmp}/kernels.mlir", "--out", f"{tmp}/ptx", "--json", f"{tmp}/ptx.json"],
                           capture_output=True, text=True)
            stats = json.load(open(f"{tmp}/ptx.json"))
            kernels = stats if isinstance(stats, list) else stats.get("kernels", [])
            regs = [k.get("registers") for k in kernels if k.get("registers") is not None]
            spills = [k.get("spill_stores", 0) + k.get("spill_loads", 0) for k in kernels
                      if k.get("registers") is not None]
            if regs:
                row["ptx_regs_max"], row["ptx_spills"] = max(regs), sum(spills)
        except (RuntimeError, ValueError, KeyError, OSError):
            pass

    # CPU runs against PyTorch.
    row["cpu_ms_unfused"] = row["cpu_ms_fuse"] = row["max_rel_err"] = None
    if not args.skip_cpu:
        for variant, key in [("fused", "cpu_ms_fuse"), ("unfused", "cpu_ms_unfused")]:
            cmd = [sys.executable, os.path.join(ROOT, "scripts", "onnx-run.py"), onnx_path, "--npz", npz,
                   "--repeat", str(args.repeat)] + (["--unfused"] if variant == "unfused" else [])
            proc = subprocess.run(cmd, capture_output=True, text=True)
            m = re.search(r"cpu ms: (\S+)", proc.stdout)
            row[key] = float(m.group(1)) if m else None
            if variant == "fused":
                e = re.search(r"max rel err (\S+): (PASS|FAIL)", proc.stdout)
                row["max_rel_err"] = float(e.group(1)) if e else None
                row["matches_pytorch"] = bool(e and e.group(2) == "PASS")
    return row


def plots(rows, out_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [r["model"] for r in rows]
    x = range(len(rows))
    made = []
    for key, title, series in [
        ("kernels", "Kernels per network",
         [("unfused", "kernels_unfused"), ("upstream MLIR", "kernels_upstream"), ("fuse", "kernels_fuse")]),
        ("bytes", "MiB moved between kernels",
         [("unfused", "bytes_unfused"), ("upstream MLIR", "bytes_upstream"), ("fuse", "bytes_fuse")]),
        ("memory", "Activation memory, MiB",
         [("one buffer each", "arena_naive"), ("planned arena", "arena_planned"), ("max live", "max_live")]),
    ]:
        fig, ax = plt.subplots(figsize=(8, 3.6))
        width = 0.8 / len(series)
        for i, (label, k) in enumerate(series):
            vals = [(r.get(k) or 0) / (2 ** 20 if key != "kernels" else 1) for r in rows]
            ax.bar([p + i * width for p in x], vals, width, label=label)
        ax.set_xticks([p + width * (len(series) - 1) / 2 for p in x])
        ax.set_xticklabels(names, rotation=15)
        ax.set_title(title)
        ax.legend()
        fig.tight_layout()
        path = os.path.join(out_dir, f"{key}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        made.append(os.path.basename(path))
    return made


def mib(v):
    return "—" if v is None else f"{v / 2 ** 20:.1f}"


def fmt(v, spec="{}"):
    return "—" if v is None else spec.format(v)


def gpu_lines(gpu):
    """The GPU section: a GPU run's results (bench/gpu.py), or "not measured"."""
    if not gpu:
        return ["Not measured: no GPU was available to this run. fuse's GPU latency, PyTorch eager, "
                "`torch.compile` and achieved bandwidth of memory-bound groups need a GPU machine "
                "(`make bench-gpu` there runs bench/gpu.py; `bench/run.py --merge-gpu FILE` puts "
                "its results here)."]
    dash = lambda v, fmt="{}": "—" if v is None else fmt.format(v)
    models = [m for m, v in gpu.items() if isinstance(v, dict)]
    lines = [f"Measured by `make bench-gpu` (bench/gpu.py) on {gpu.get('gpu')} on {gpu.get('date')} at commit "
             f"`{gpu.get('commit')}`; device copy bandwidth {dash(gpu.get('copy_gbps'), '{} GB/s')}. "
             "fuse: the whole compiled program per call (mean over the timing loop), output checked "
             "against the CPU build; PyTorch: median per call, same weights. Bandwidth: the memory-bound "
             "groups' bytes over their kernels' median times (timed per launch on the device), as a "
             "fraction of the copy bandwidth.", "",
             "| model | fuse ms | fuse output | PyTorch eager ms | torch.compile ms | memory-bound groups | "
             "their bandwidth / copy | kernels predicted us | kernels measured us |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|"]
    for m in models:
        r = gpu[m]
        check = (r.get("fuse_check") or "—").split(":")[0]  # the details go to the notes
        lines.append(f"| {m} | {dash(r.get('fuse_ms'))} | {check} | {dash(r.get('torch_eager_ms'))} | "
                     f"{dash(r.get('torch_compile_ms'))} | {dash(len(r['bandwidth']) if r.get('bandwidth') else None)} | "
                     f"{dash(r.get('bandwidth_fraction'))} | {dash(r.get('predicted_us'))} | "
                     f"{dash(r.get('measured_kernel_us'))} |")
    worst = [(m, b) for m in models for b in sorted((b for b in gpu[m].get("bandwidth") or []
                                                       if b.get("fraction") is not None),
                                                      key=lambda b: b["fraction"])[:3]]
    if worst:
        lines += ["", "Slowest memory-bound groups (lowest fraction of the copy bandwidth, three per model):", "",
                  "| model | group | rule | bytes | FLOP/B | median ms | GB/s | fraction |",
                  "|---|---:|---|---:|---:|---:|---:|---:|"]
        for m, b in worst:
            lines.append(f"| {m} | {b['group']} | {b['rule']} | {b['bytes']} | {b['intensity']} | "
                         f"{b['median_ms']} | {b['gbps']} | {b['fraction']} |")
    notes = sorted({f"{m}: {n}" for m in models for n in gpu[m].get("notes") or []} | set(gpu.get("notes") or [])
                   | {f"{m}: fuse output {gpu[m]['fuse_check']}" for m in models
                      if (gpu[m].get("fuse_check") or "").startswith("FAIL")})
    if notes:
        lines += ["", "Notes:", ""] + [f"- {n}" for n in notes]
    return lines


def write_markdown(rows, pngs, args, commit, gpu):
    lines = ["# Benchmarks", "",
             f"Measured by `make bench` (`bench/run.py{' --skip-cpu' if args.skip_cpu else ''} "
             f"--repeat {args.repeat}`) at commit{'s' if len({r['commit'] for r in rows}) > 1 else ''} "
             f"{', '.join(sorted({'`' + r['commit'] + '`' for r in rows}))} (each row's in the JSON) "
             f"on {', '.join(sorted({r['date'] for r in rows}))}, "
             "on this repository's 2-core build machine, for an H200 target. JSON: "
             "[benchmarks/results.json](benchmarks/results.json). \"—\": not measured.", "",
             "| model | nodes | kernels unfused | kernels upstream | kernels fuse | MiB unfused | MiB upstream | "
             "MiB fuse | arena naive MiB | arena planned MiB | max-live MiB | compile s | ptxas regs max | spills | "
             "CPU ms unfused | CPU ms fuse | max rel err vs PyTorch |",
             "|---|" + "---:|" * 16]
    for r in rows:
        lines.append(
            f"| {r['model']} | {r['nodes']} | {r['kernels_unfused']} | {r['kernels_upstream']} | {r['kernels_fuse']} | "
            f"{mib(r['bytes_unfused'])} | {mib(r['bytes_upstream'])} | {mib(r['bytes_fuse'])} | "
            f"{mib(r['arena_naive'])} | {mib(r['arena_planned'])} | {mib(r['max_live'])} | "
            f"{fmt(r['compile_s'], '{:.2f}')} | {fmt(r['ptx_regs_max'])} | {fmt(r['ptx_spills'])} | "
            f"{fmt(r['cpu_ms_unfused'], '{:.1f}')} | {fmt(r['cpu_ms_fuse'], '{:.1f}')} | "
            f"{fmt(r['max_rel_err'], '{:.2g}')} |")
    lines += ["", "Bytes are those read and written by all kernels (each kernel's operands and results, "
              "from the IR). Compile time is import + fusion + `fuse-to-nvptx` (PTX), median of 3. CPU times "
              "are the CPU build as measured when the row was made (the rows' commits; before the vector "
              "micro-kernels, one loop nest per kernel). The CPU kernels against the machine's FMA peak and "
              "PyTorch, fused, unfused and at 1 and 2 threads: [benchmarks/cpu.md](benchmarks/cpu.md) "
              "(`make bench-cpu`). The memory planner on published and whole-network buffer traces: "
              "[benchmarks/memtraces.md](benchmarks/memtraces.md) (`make bench-memory`)."]
    failed = [r for r in rows if r.get("ptx_error")]
    if failed:
        lines += ["", "No PTX (the lowering refused a group, with this diagnostic):", ""]
        lines += [f"- {r['model']}: `{r['ptx_error']}`" for r in failed]
    lines += ["", "## Goals", "",
              "Where the table stands against the goals (from the same numbers):", ""]
    by = {r["model"]: r for r in rows}
    def goal(text, ok):
        lines.append(f"- {text}: {'met' if ok else 'NOT met'}")
    if "resnet50" in by:
        goal(f"ResNet-50 at most 56 kernels ({by['resnet50']['kernels_fuse']})", by["resnet50"]["kernels_fuse"] <= 56)
        c = by["resnet50"]["compile_s"]
        goal(f"ResNet-50 ONNX to PTX under 5 s on this machine ({fmt(c, '{:.2f}')} s)", c is not None and c < 5)
    if "bert_base" in by:
        goal(f"BERT-base at most 72 kernels ({by['bert_base']['kernels_fuse']})", by["bert_base"]["kernels_fuse"] <= 72)
    goal("fewer kernels than upstream on every model (" + ", ".join(
        f"{r['model']} {r['kernels_fuse']} vs {r['kernels_upstream']}" for r in rows) + ")",
        all(r["kernels_fuse"] < r["kernels_upstream"] for r in rows))
    goal("bytes between kernels at most 0.5x unfused on every model (" + ", ".join(
        f"{r['model']} {r['bytes_fuse'] / r['bytes_unfused']:.2f}" for r in rows) + ")",
        all(r["bytes_fuse"] <= 0.5 * r["bytes_unfused"] for r in rows))
    spills = [r["ptx_spills"] for r in rows if r["ptx_spills"] is not None]
    goal(f"0 spills ({len(spills)} of {len(rows)} models have ptxas numbers; spills {sum(spills)})",
         sum(spills) == 0 and len(spills) == len(rows))
    lines += ["", "## By rule", "", "Groups each rule formed, the ops in them and the bytes they keep on chip.", "",
              "| model | rule | groups | ops | MiB saved |", "|---|---|---:|---:|---:|"]
    for r in rows:
        for rule, v in sorted(r["by_rule"].items(), key=lambda kv: -kv[1]["bytes_saved"]):
            lines.append(f"| {r['model']} | {rule} | {v['groups']} | {v['ops']} | {mib(v['bytes_saved'])} |")
    lines += ["", "## Plots", ""] + [f"![{p}](benchmarks/{p})" for p in pngs]
    lines += ["", "## GPU", ""] + gpu_lines(gpu)
    with open(os.path.join(ROOT, "docs", "benchmarks.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--models-dir", default=os.path.join(ROOT, "build", "models"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-cpu", action="store_true")
    parser.add_argument("--gpu-json", help="results of a GPU run (bench/gpu.py) to merge")
    parser.add_argument("--merge-gpu", metavar="FILE",
                        help="merge a GPU run's results into the committed results.json and "
                             "docs/benchmarks.md without measuring again")
    parser.add_argument("--update", action="store_true",
                        help="keep the other models' rows of docs/benchmarks/results.json")
    args = parser.parse_args()
    out_dir = os.path.join(ROOT, "docs", "benchmarks")
    if args.merge_gpu:
        try:
            gpu = json.load(open(args.merge_gpu))
            rows = json.load(open(os.path.join(out_dir, "results.json")))
        except (OSError, ValueError) as e:
            sys.exit(f"bench/run.py: --merge-gpu: {e}")
        if not isinstance(gpu, dict) or "gpu" not in gpu:
            sys.exit(f"bench/run.py: --merge-gpu: {args.merge_gpu} is not bench/gpu.py's output (no 'gpu' key)")
        for row in rows:
            row["gpu"] = gpu.get(row["model"])
        with open(os.path.join(out_dir, "results.json"), "w") as f:
            json.dump(rows, f, indent=2)
        args.skip_cpu = all(r.get("cpu_ms_fuse") is None for r in rows)
        write_markdown(rows, plots(rows, out_dir), args, None, gpu)
        print("merged the GPU results into docs/benchmarks.md and docs/benchmarks/results.json")
        return
    names = args.models.split(",")
    missing = [n for n in names if not os.path.exists(os.path.join(args.models_dir, n + ".onnx"))]
    if missing:
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "models", "export.py"),
                        "--out", args.models_dir, "--only", ",".join(missing)], check=True)
    commit = run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).strip()
    rows = []
    for name in names:
        with tempfile.TemporaryDirectory() as tmp:
            start = time.monotonic()
            try:
                row = measure(name, args, tmp)
            except RuntimeError as e:
                print(f"{name}: ERROR {e}", file=sys.stderr)
                continue
            row["commit"] = commit
            rows.append(row)
            print(f"{name}: {row['kernels_unfused']} -> upstream {row['kernels_upstream']} -> fuse "
                  f"{row['kernels_fuse']} kernels, compile {row['compile_s']} s, cpu ms "
                  f"{row['cpu_ms_unfused']} -> {row['cpu_ms_fuse']} ({time.monotonic() - start:.0f} s)",
                  flush=True)
    gpu = json.load(open(args.gpu_json)) if args.gpu_json else None
    if args.update and os.path.exists(os.path.join(out_dir, "results.json")):
        measured = {r["model"] for r in rows}
        old = [r for r in json.load(open(os.path.join(out_dir, "results.json"))) if r["model"] not in measured]
        order = {n: i for i, n in enumerate(MODELS)}
        rows = sorted(old + rows, key=lambda r: order.get(r["model"], len(order)))
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        for row in rows:
            row["gpu"] = gpu.get(row["model"]) if gpu else None
        json.dump(rows, f, indent=2)
    pngs = plots(rows, out_dir)
    write_markdown(rows, pngs, args, commit, gpu)
    print(f"wrote docs/benchmarks.md, docs/benchmarks/results.json and {len(pngs)} plots")


if __name__ == "__main__":
    main()
