#!/usr/bin/python3
"""The GPU half of the benchmark suite: one script to run on a GPU machine.

usage: bench/gpu.py [--models a,b] [--models-dir DIR] [--repeat N] [--out FILE]
                    [--compile-only]
       bench/gpu.py --from-profile REPORT PROFILE --copy-gbps G

For each model of the corpus found in --models-dir (default build/models,
else the small committed ones in test/Models/onnx), it measures:
  fuse_ms            fuse's latency on the GPU: the whole compiled program
                     (every kernel, weights already on the device), mean of
                     --repeat calls after one warm-up call
                     (scripts/gpu-check.py --repeat), and whether the GPU
                     output matched the CPU build (fuse_check)
  torch_eager_ms     PyTorch eager on the same GPU, same seeded weights
                     (scripts/models/export.py's definitions), median of
                     --repeat calls
  torch_compile_ms   the same through torch.compile, where this PyTorch has it
  bandwidth          per memory-bound group (the fusion report's "bound",
                     on the target's roofline): its kernel's median time
                     over the --repeat calls, timed on the device per
                     launch (gpu-check.py --profile), the group's bytes
                     over that time (GB/s) and that as a fraction of
                     copy_gbps
  bandwidth_fraction all memory-bound groups together: their bytes over
                     their summed median times, as a fraction of copy_gbps
  library_ms         the GPU compiled-model library (fuse-compile
                     --target=h200) through the C API on CUDA tensors and
                     PyTorch's stream, median of --repeat calls, and whether
                     its outputs matched the exported reference
                     (library_check)
  library_graph_ms   the same calls as one CUDA graph each (run_pointers
                     cuda_graph=True: captured at the first call, replayed),
                     its outputs checked the same way (library_graph_check)
  kernels            every timed kernel: its median next to the fusion
                     report's predicted time for its group (bound, blocks,
                     measured / predicted); predicted_us and
                     measured_kernel_us sum them over the kernels
and, once per run, the device's copy bandwidth (copy_gbps: a device-to-device
copy of 1 GiB through PyTorch). Everything not measurable here is null, with
the reason in "notes"; nothing is estimated. The JSON goes to --out; merge it
with `bench/run.py --gpu-json FILE`.

--compile-only builds every model's GPU program and stops (no GPU needed):
the check that the script itself works on a machine without one.

--from-profile REPORT PROFILE prints the bandwidth table and the predicted
and measured time per kernel of one program from its fusion report and
kernel profile (gpu-check.py --report/--profile, or
any program run with FUSE_KERNEL_PROFILE), against --copy-gbps.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "build", "bin")
MODELS = ["inception_block", "resnet50", "mobilenet_v2", "googlenet", "yolo", "bert_base"]
SMALL = ["inception_block", "yolo_tiny", "bert_tiny", "resnet_tiny"]


def gpu_name():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    out = subprocess.run([smi, "--query-gpu=name", "--format=csv,noheader"], capture_output=True, text=True)
    return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() else None


def torch_cuda():
    try:
        import torch
    except ImportError:
        return None, "PyTorch is not installed"
    if not torch.cuda.is_available():
        return None, f"PyTorch {torch.__version__} sees no CUDA device"
    return torch, None


def time_torch(torch, fn, repeat):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def copy_bandwidth(torch):
    src = torch.empty(1 << 28, dtype=torch.float32, device="cuda")  # 1 GiB
    dst = torch.empty_like(src)
    ms = time_torch(torch, lambda: dst.copy_(src), 10)
    return round(2 * src.numel() * 4 / (ms * 1e-3) / 1e9, 1)  # read + write


KERNEL = re.compile(r"^(.*?)(?:__gpu)?__group(\d+)_kernel$")


def read_profile(path):
    """The kernel profile the runtime writes (FUSE_KERNEL_PROFILE): kernel
    name -> launches, median/min/total ms."""
    kernels = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 5:
                raise ValueError(f"{path}: not a kernel profile line: {line!r}")
            name, launches, median, minimum, total = fields
            kernels[name] = {"launches": int(launches), "median_ms": float(median),
                             "min_ms": float(minimum), "total_ms": float(total)}
    return kernels


def report_groups(report):
    """The fusion report's groups by (function, id)."""
    return {(fn["name"], g["id"]): g for fn in report["functions"] for g in fn["groups"]}


def group_of(report, groups, kernel):
    """The (function, id) key and the report group of a kernel named
    <function>__group<id>_kernel (the report's one function where the
    program's function is named otherwise), or (key, None)."""
    m = KERNEL.match(kernel)
    key = (m.group(1), int(m.group(2))) if m else None
    functions = report["functions"]
    if key not in groups and m and len(functions) == 1:
        key = (functions[0]["name"], int(m.group(2)))
    return key, groups.get(key)


def group_bandwidth(report, kernels, copy_gbps):
    """Achieved bandwidth of each memory-bound group: the report's bytes over
    the kernel's median time. Returns (rows, summary, notes)."""
    groups = report_groups(report)
    rows, notes, seen = [], [], set()
    for kernel, t in sorted(kernels.items(), key=lambda kv: kv[0]):
        key, group = group_of(report, groups, kernel)
        if group is None:
            notes.append(f"kernel {kernel} has no group in the report")
            continue
        seen.add(key)
        if group.get("bound") != "memory":
            continue
        ms = t["median_ms"]
        gbps = group["bytes"] / (ms * 1e-3) / 1e9 if ms > 0 else None
        rows.append({"group": key[1], "kernel": kernel, "rule": group["rule"] or "single",
                     "bytes": group["bytes"], "intensity": round(group["intensity"], 2),
                     "median_ms": ms, "gbps": round(gbps, 1) if gbps is not None else None,
                     "fraction": round(gbps / copy_gbps, 3) if gbps is not None and copy_gbps else None})
    rows.sort(key=lambda r: (r["kernel"].rsplit("__group", 1)[0], r["group"]))
    missing = sorted(k for k in groups if k not in seen)
    if missing:
        notes.append(f"{len(missing)} group(s) of the report launched no timed kernel: "
                     + ", ".join(f"{f}#{i}" for f, i in missing[:10]))
    timed = [r for r in rows if r["median_ms"] > 0]
    total_bytes = sum(r["bytes"] for r in timed)
    total_ms = sum(r["median_ms"] for r in timed)
    summary = None
    if timed and copy_gbps:
        summary = round(total_bytes / (total_ms * 1e-3) / 1e9 / copy_gbps, 3)
    return rows, summary, notes


def kernel_times(report, kernels):
    """Each timed kernel's median next to the report's prediction for its
    group (Lowering.md, "Predicted kernel time"). Returns (rows, totals):
    totals = (predicted us, measured us) over the kernels that have both."""
    groups = report_groups(report)
    rows = []
    for kernel, t in sorted(kernels.items(), key=lambda kv: kv[0]):
        key, group = group_of(report, groups, kernel)
        if group is None:
            continue
        predicted = group.get("predicted") or {}
        config = group.get("lowering_config") or {}
        measured = t["median_ms"] * 1e3
        us = predicted.get("us")
        flops = group.get("flops") or 0
        rows.append({"group": key[1], "kernel": kernel, "schedule": config.get("schedule"),
                     "instruction": config.get("instruction"), "precision": config.get("precision"),
                     "stages": config.get("stages"), "split_k": config.get("split_k"),
                     "tflops": round(flops / (measured * 1e-6) / 1e12, 3) if measured > 0 and flops else None,
                     "blocks": (config.get("blocks") or 0) * (config.get("split_k") or 1) or None,
                     "predicted_us": round(us, 3) if us is not None else None,
                     "bound": predicted.get("bound"), "measured_us": round(measured, 3),
                     "measured_over_predicted": round(measured / us, 3) if us else None})
    both = [r for r in rows if r["predicted_us"] is not None]
    totals = (round(sum(r["predicted_us"] for r in both), 3),
              round(sum(r["measured_us"] for r in both), 3)) if both else (None, None)
    return rows, totals


def print_kernel_times(rows, totals):
    print(f"{'group':>5} {'schedule':<12} {'instruction':<14} {'blocks':>7} {'bound':<8} {'predicted us':>13} "
          f"{'measured us':>12} {'ratio':>7} {'TFLOP/s':>8}")
    for r in rows:
        pred = f"{r['predicted_us']:.3f}" if r["predicted_us"] is not None else "-"
        ratio = f"{r['measured_over_predicted']:.2f}" if r["measured_over_predicted"] is not None else "-"
        inst = f"{r['instruction']}/{r['precision']}" if r.get("instruction") else "-"
        if r.get("stages"):
            inst += f"/{r['stages']}st"
        if r.get("split_k"):
            inst += f"/k{r['split_k']}"
        tflops = f"{r['tflops']:.3f}" if r.get("tflops") is not None else "-"
        print(f"{r['group']:>5} {str(r['schedule'] or '-'):<12} {inst:<14} {str(r['blocks'] or '-'):>7} "
              f"{str(r['bound'] or '-'):<8} {pred:>13} {r['measured_us']:>12.3f} {ratio:>7} {tflops:>8}")
    print(f"{len(rows)} kernel(s): predicted {totals[0]} us, measured {totals[1]} us in all")


def print_bandwidth(rows, summary, copy_gbps):
    print(f"{'group':>5} {'rule':<28} {'bytes':>12} {'FLOP/B':>7} {'median ms':>10} {'GB/s':>8} {'of copy':>8}")
    for r in rows:
        frac = f"{r['fraction']:.3f}" if r["fraction"] is not None else "-"
        print(f"{r['group']:>5} {r['rule']:<28} {r['bytes']:>12} {r['intensity']:>7} "
              f"{r['median_ms']:>10.6f} {r['gbps'] if r['gbps'] is not None else '-':>8} {frac:>8}")
    print(f"{len(rows)} memory-bound group(s); all together {summary if summary is not None else '-'} "
          f"of the copy bandwidth ({copy_gbps} GB/s)")


def fuse_latency(name, onnx_path, args, work):
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "gpu-check.py"), onnx_path,
           "--fuse-compile", os.path.join(args.bin, "fuse-compile")]
    report, profile = os.path.join(work, name + ".report.json"), os.path.join(work, name + ".profile.tsv")
    cmd += ["--report", report]
    cmd += ["--compile-only"] if args.compile_only else ["--repeat", str(args.repeat), "--profile", profile]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    if args.compile_only:
        return None, ("compiled" if proc.returncode == 0 else "FAIL: " + out[-500:]), report, None
    m = re.search(r"gpu ms per run: ([0-9.]+)", out)
    if proc.returncode == 0 and out.rstrip().endswith("PASS"):
        check = "PASS"
    else:  # the outputs that differ, or gpu-check's error
        lines = [l.strip() for l in out.splitlines() if l.rstrip().endswith("FAIL") or l.startswith("gpu-check:")]
        check = "FAIL: " + ("; ".join(lines) or out.strip()[-300:])[:500]
    return (float(m.group(1)) if m else None), check, report, (profile if os.path.exists(profile) else None)


def library_check(name, onnx_path, npz_path, args, work, torch):
    """The GPU compiled-model library (fuse-compile --target=h200) through the
    runtime's C API (the fuse package's run_pointers) on CUDA tensors and
    PyTorch's current stream, against the exported reference outputs
    (|out - ref| <= 1e-5 + 1e-4 (|ref| + max |ref|)); (ms per call over
    --repeat calls, PASS/FAIL/compiled, note)."""
    library = os.path.join(work, name + "-gpu.so")
    proc = subprocess.run([os.path.join(args.bin, "fuse-compile"), onnx_path, "--target=h200", "-q",
                           "-o", library], capture_output=True, text=True)
    if proc.returncode != 0:
        return None, "FAIL: fuse-compile: " + proc.stderr.strip()[-400:], None, None, None
    if args.compile_only:
        return None, "compiled", None, None, None
    if not torch or not os.path.exists(npz_path):
        return (None, None, "library not run: needs PyTorch with CUDA and " + os.path.basename(npz_path),
                None, None)
    import numpy as np
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(args.bin)), "python"))
    import fuse
    try:
        model = fuse.load(library)
        data = np.load(npz_path)
        ins = [torch.from_numpy(np.ascontiguousarray(data[f"input_{k}"])).cuda() for k in range(len(model.inputs))]
        outs = [torch.empty(o.shape, dtype=torch.float32, device="cuda") for o in model.outputs]
        stream = torch.cuda.current_stream().cuda_stream

        def call(graph=False):
            model.run_pointers([t.data_ptr() for t in ins], [t.data_ptr() for t in outs], stream=stream,
                               cuda_graph=graph)

        def check():
            for k, out in enumerate(outs):
                ref = data[f"output_{k}"].astype(np.float64)
                got = out.cpu().numpy().astype(np.float64).reshape(ref.shape)
                if not np.all(np.abs(got - ref) <= 1e-5 + 1e-4 * (np.abs(ref) + np.abs(ref).max())):
                    return f"FAIL: output {k}: max abs err {np.abs(got - ref).max():.3g}"
            return "PASS"
        call()
        torch.cuda.synchronize()
        verdict = check()
        if verdict != "PASS":
            return None, verdict, None, None, None
        ms = time_torch(torch, call, args.repeat)
        # The same as CUDA graphs: outputs cleared, captured, checked, timed.
        for out in outs:
            out.zero_()
        call(True)
        torch.cuda.synchronize()
        graph_verdict = check()
        graph_ms = time_torch(torch, lambda: call(True), args.repeat) if graph_verdict == "PASS" else None
        return round(ms, 4), "PASS", None, graph_ms and round(graph_ms, 4), graph_verdict
    except Exception as e:  # FuseError and friends: the check's result
        return None, f"FAIL: {type(e).__name__}: {str(e)[:400]}", None, None, None


def torch_latency(torch, name, repeat):
    """Eager and torch.compile latency of export.py's definition of `name`
    (same seed, so the same weights as the ONNX file)."""
    sys.path.insert(0, os.path.join(ROOT, "scripts", "models"))
    import importlib
    export = importlib.import_module("export")
    nets = export.networks()
    if name not in nets:
        return None, None, f"no PyTorch definition for {name}"
    make, shape, _, _ = nets[name]
    model, x = export.build(name, make, shape, export.seed_of(name))
    model, x = model.cuda(), x.cuda()
    with torch.no_grad():
        eager = time_torch(torch, lambda: model(x), repeat)
        compiled, note = None, None
        if hasattr(torch, "compile"):
            try:
                fast = torch.compile(model)
                compiled = time_torch(torch, lambda: fast(x), repeat)
            except Exception as e:  # a backend this machine lacks, say
                note = f"torch.compile failed: {type(e).__name__}: {str(e)[:200]}"
        else:
            note = f"PyTorch {torch.__version__} has no torch.compile"
    return round(eager, 4), (round(compiled, 4) if compiled is not None else None), note


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="")
    parser.add_argument("--models-dir", default=os.path.join(ROOT, "build", "models"))
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "bench-gpu.json"))
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--bin", default=BIN, help="the build's bin directory (its lib/ has the runtime)")
    parser.add_argument("--from-profile", nargs=2, metavar=("REPORT", "PROFILE"),
                        help="print one program's bandwidth table and stop")
    parser.add_argument("--copy-gbps", type=float, help="the device's copy bandwidth, for --from-profile")
    args = parser.parse_args()
    if args.from_profile:
        if not args.copy_gbps or args.copy_gbps <= 0:
            sys.exit("bench/gpu.py: --from-profile needs --copy-gbps G (G > 0), the device's measured copy bandwidth")
        report_path, profile_path = args.from_profile
        try:
            report, kernels = json.load(open(report_path)), read_profile(profile_path)
        except (OSError, ValueError) as e:
            sys.exit(f"bench/gpu.py: {e}")
        rows, summary, notes = group_bandwidth(report, kernels, args.copy_gbps)
        print_bandwidth(rows, summary, args.copy_gbps)
        print_kernel_times(*kernel_times(report, kernels))
        for note in notes:
            print("note:", note)
        return 0
    names = [n for n in (args.models.split(",") if args.models else MODELS)
             if os.path.exists(os.path.join(args.models_dir, n + ".onnx"))]
    models_dir = args.models_dir
    if not names:
        models_dir = os.path.join(ROOT, "test", "Models", "onnx")
        names = [n for n in (args.models.split(",") if args.models else SMALL)
                 if os.path.exists(os.path.join(models_dir, n + ".onnx"))]
    if not names:
        sys.exit("bench/gpu.py: no models found (run `make models`, or use the committed small ones)")
    name = gpu_name()
    if not name and not args.compile_only:
        sys.exit("bench/gpu.py: no GPU found (nvidia-smi); --compile-only checks the programs build")
    torch, torch_note = (None, "not measured: --compile-only") if args.compile_only else torch_cuda()
    result = {"gpu": name, "date": datetime.date.today().isoformat(),
              "commit": subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                       capture_output=True, text=True).stdout.strip() or None,
              "copy_gbps": copy_bandwidth(torch) if torch else None,
              "notes": [torch_note] if torch_note else []}
    with tempfile.TemporaryDirectory() as work:
        for model in names:
            row = {"fuse_ms": None, "fuse_check": None, "library_ms": None, "library_check": None,
                   "library_graph_ms": None, "library_graph_check": None,
                   "torch_eager_ms": None, "torch_compile_ms": None,
                   "bandwidth": None, "bandwidth_fraction": None, "kernels": None,
                   "predicted_us": None, "measured_kernel_us": None, "notes": []}
            row["fuse_ms"], row["fuse_check"], report, profile = fuse_latency(
                model, os.path.join(models_dir, model + ".onnx"), args, work)
            if profile:
                rows, summary, notes = group_bandwidth(json.load(open(report)), read_profile(profile),
                                                       result["copy_gbps"])
                row["bandwidth"], row["bandwidth_fraction"] = rows, summary
                row["notes"] += notes
                row["kernels"], (row["predicted_us"], row["measured_kernel_us"]) = kernel_times(
                    json.load(open(report)), read_profile(profile))
                if not result["copy_gbps"]:
                    row["notes"].append("no copy bandwidth measured (PyTorch with CUDA): fractions not computed")
            elif not args.compile_only:
                row["notes"].append("no kernel profile: the GPU run failed")
            (row["library_ms"], row["library_check"], note, row["library_graph_ms"],
             row["library_graph_check"]) = library_check(
                model, os.path.join(models_dir, model + ".onnx"), os.path.join(models_dir, model + ".npz"),
                args, work, torch)
            if note:
                row["notes"].append(note)
            if torch:
                eager, compiled, note = torch_latency(torch, model, args.repeat)
                row["torch_eager_ms"], row["torch_compile_ms"] = eager, compiled
                if note:
                    row["notes"].append(note)
            result[model] = row
            print(f"{model}: fuse {row['fuse_ms']} ms ({row['fuse_check']}), library "
                  f"{row['library_ms']} ms ({row['library_check']}), as a CUDA graph "
                  f"{row['library_graph_ms']} ms ({row['library_graph_check']}), torch eager "
                  f"{row['torch_eager_ms']} ms, torch.compile {row['torch_compile_ms']} ms, memory-bound groups at "
                  f"{row['bandwidth_fraction']} of copy bandwidth, kernels predicted {row['predicted_us']} us "
                  f"measured {row['measured_kernel_us']} us", flush=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print(f"wrote {args.out}")
    failed = [m for m in names if result[m]["fuse_check"] not in ("PASS", "compiled")
              or (result[m]["library_check"] or "").startswith("FAIL")]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
