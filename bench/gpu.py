#!/usr/bin/env python3
"""The GPU half of the benchmark suite: one script to run on a GPU machine.

usage: bench/gpu.py [--models a,b] [--models-dir DIR] [--repeat N] [--out FILE]
                    [--compile-only]

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
and, once per run, the device's copy bandwidth (copy_gbps: a device-to-device
copy of 1 GiB through PyTorch). Everything not measurable here is null, with
the reason in "notes"; nothing is estimated. The JSON goes to --out; merge it
with `bench/run.py --gpu-json FILE`.

--compile-only builds every model's GPU program and stops (no GPU needed):
the check that the script itself works on a machine without one.
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


def fuse_latency(name, onnx_path, args, work):
    mlir = os.path.join(work, name + ".mlir")
    subprocess.run([os.path.join(args.bin, "fuse-translate"), "--import-onnx", onnx_path, "-o", mlir], check=True)
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "gpu-check.py"), mlir,
           "--fuse-opt", os.path.join(args.bin, "fuse-opt"),
           "--runtime", os.path.join(os.path.dirname(os.path.abspath(args.bin)), "lib", "libfuse_cuda_runtime.so")]
    cmd += ["--compile-only"] if args.compile_only else ["--repeat", str(args.repeat)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    if args.compile_only:
        return None, ("compiled" if proc.returncode == 0 else "FAIL: " + out[-500:]), out
    m = re.search(r"gpu ms per run: ([0-9.]+)", out)
    check = "PASS" if proc.returncode == 0 and out.rstrip().endswith("PASS") else "FAIL"
    return (float(m.group(1)) if m else None), check, out


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
    args = parser.parse_args()
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
            row = {"fuse_ms": None, "fuse_check": None, "torch_eager_ms": None, "torch_compile_ms": None,
                   "bandwidth_fraction": None,
                   "notes": ["achieved bandwidth per memory-bound group needs per-kernel timing, "
                             "which this script does not take yet"]}
            row["fuse_ms"], row["fuse_check"], log = fuse_latency(model, os.path.join(models_dir, model + ".onnx"),
                                                                  args, work)
            if torch:
                eager, compiled, note = torch_latency(torch, model, args.repeat)
                row["torch_eager_ms"], row["torch_compile_ms"] = eager, compiled
                if note:
                    row["notes"].append(note)
            result[model] = row
            print(f"{model}: fuse {row['fuse_ms']} ms ({row['fuse_check']}), torch eager "
                  f"{row['torch_eager_ms']} ms, torch.compile {row['torch_compile_ms']} ms", flush=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print(f"wrote {args.out}")
    failed = [m for m in names if result[m]["fuse_check"] not in ("PASS", "compiled")]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
