#!/usr/bin/python3
"""Runs a fused model on the GPU and compares every output with the CPU.

usage: gpu-check.py INPUT.mlir [--function F] [--target h200] [--block-size T]
                    [--seed S] [--rtol R] [--atol A] [--repeat N]
                    [--compile-only] [--keep DIR] [--report FILE]
                    [--profile FILE]

The function is compiled by fuse-compile into a GPU library for --target
(its kernels as cubin, or PTX where ptxas is missing) and, as the reference,
into an unfused CPU library (every op its own kernel, plain loops). Both run
through the fuse Python package (the runtime's C API) on the same seeded
random inputs, the GPU library on host arrays (the runtime copies them to
the device and the outputs back). Each output must agree within rtol
(relative to the output's largest magnitude) plus atol. Nothing reads IR.

--repeat N times N further calls after a first one (which loads the kernels
and uploads the weights) and prints "gpu ms per run": on device buffers on
PyTorch's current stream where PyTorch has CUDA, else on host arrays (the
copies included, and said so).
--compile-only builds the GPU library and stops (no GPU needed).
--report FILE writes the fusion report of the GPU build (its group ids are
the kernels' names: <function>__group<id>_kernel).
--profile FILE runs the library 1 + N more times (fuse-benchmark, in a
process of its own: one warm-up call, then --repeat N calls, at least one)
with every kernel launch timed on the device (FUSE_KERNEL_PROFILE, see
lib/Runtime) and writes one line per kernel: name, launches, median, minimum
and total ms.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
ce = __import__("check-equivalence")


def fail(message):
    sys.exit(f"gpu-check: {message}")


def run(cmd, what, env=None):
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", env=env)
    if proc.returncode != 0:
        fail(f"{what} failed: {' '.join(cmd)}\n{proc.stdout[-4000:]}{proc.stderr[-4000:]}")
    return proc


def time_calls(model, feeds, repeat):
    """ms per call of `repeat` calls, and how the buffers were given."""
    try:
        import torch
        cuda = torch.cuda.is_available()
    except ImportError:
        cuda = False
    if cuda:
        tensors = {name: torch.from_numpy(np.ascontiguousarray(a)).cuda() for name, a in feeds.items()}
        inputs = [tensors[info.name].data_ptr() for info in model.inputs]
        outs = [torch.empty(info.shape, dtype=getattr(torch, {"f32": "float32", "f16": "float16",
                                                                 "bf16": "bfloat16", "i64": "int64",
                                                                 "i32": "int32", "bool": "bool"}[info.dtype]),
                            device="cuda") for info in model.outputs]
        outputs = [o.data_ptr() for o in outs]
        stream = torch.cuda.current_stream().cuda_stream
        model.run_pointers(inputs, outputs, stream=stream)
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(repeat):
            model.run_pointers(inputs, outputs, stream=stream)
        torch.cuda.synchronize()
        return (time.perf_counter() - start) * 1e3 / repeat, "device buffers"
    start = time.perf_counter()
    for _ in range(repeat):
        model.run(feeds)
    return (time.perf_counter() - start) * 1e3 / repeat, "host arrays: the copies included"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("--function")
    parser.add_argument("--target", default="h200")
    parser.add_argument("--block-size", type=int, default=0,
                        help="threads per block of every kernel, its tiles chosen anew for it "
                             "(fuse-compile --block-size; default: each group's own)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-6)
    parser.add_argument("--repeat", type=int, default=0)
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--keep", help="keep the libraries (gpu.so, reference.so) in this directory")
    parser.add_argument("--report", help="write the GPU build's fusion report (JSON) here")
    parser.add_argument("--profile", help="time every kernel launch of a GPU run into this file")
    parser.add_argument("--fuse-compile", default=os.path.join(ROOT, "build", "bin", "fuse-compile"))
    args = parser.parse_args()
    if args.repeat < 0 or args.block_size < 0:
        fail("--repeat and --block-size must not be negative")

    work = args.keep or tempfile.mkdtemp(prefix="gpu-check-")
    os.makedirs(work, exist_ok=True)
    gpu_lib, ref_lib = os.path.join(work, "gpu.so"), os.path.join(work, "reference.so")
    report_path = os.path.abspath(args.report) if args.report else os.path.join(work, "report.json")
    entry = [f"--entry={args.function}"] if args.function else []
    cmd = [args.fuse_compile, args.input, f"--target={args.target}", "-q", "-o", gpu_lib,
           "--report", report_path] + entry
    if args.block_size:
        cmd.append(f"--block-size={args.block_size}")
    run(cmd, "compiling the GPU library")
    with open(report_path) as f:
        functions = json.load(f).get("functions", [])
    name = args.function or (functions[0]["name"] if len(functions) == 1 else "?")
    kernels = sum(fn["kernels_after"] for fn in functions if fn["name"] == name)
    threads = f"{args.block_size} threads per block" if args.block_size else "each group's threads per block"
    print(f"{os.path.basename(args.input)} @{name}: {kernels} kernel(s), {threads}, library {gpu_lib}")
    if args.compile_only:
        print("compiled (not run: --compile-only)")
        return 0

    run([args.fuse_compile, args.input, "--target=cpu", f"--fusion-target={args.target}", "-q",
         "-o", ref_lib, "--unfused", "--plan-buffers=false", "--cpu-vectorize=false",
         "--cpu-parallel=false"] + entry, "compiling the CPU reference")
    fuse = ce.import_fuse(args.fuse_compile)
    try:
        gpu, reference = fuse.load(gpu_lib), fuse.load(ref_lib)
        rng = random.Random(args.seed)
        feeds = {info.name: ce.random_input(info, rng) for info in reference.inputs}
        expected = reference.run(feeds)
        got = gpu.run(feeds)
        timing = time_calls(gpu, feeds, args.repeat) if args.repeat else None
    except fuse.FuseError as e:
        fail(f"the runtime failed: {e}")
    if args.profile:
        # A run of its own, timed per launch: the events around every launch
        # would slow the timed calls; the runtime writes the file at exit.
        env = dict(os.environ, FUSE_KERNEL_PROFILE=os.path.abspath(args.profile))
        run([os.path.join(os.path.dirname(os.path.abspath(args.fuse_compile)), "fuse-benchmark"), gpu_lib,
             "--seed", str(args.seed), "--warmup", "1", "--runs", str(max(args.repeat, 1))],
            "the profiled GPU run", env=env)
        print(f"kernel profile: {args.profile}")
    failed = 0
    for k, info in enumerate(reference.outputs):
        ref_k = ce.as_float32(expected[info.name], info).reshape(-1).astype(np.float64)
        gpu_k = ce.as_float32(got[gpu.outputs[k].name], gpu.outputs[k]).reshape(-1).astype(np.float64)
        if ref_k.size != gpu_k.size:
            fail(f"output {k}: {gpu_k.size} values on the GPU, {ref_k.size} on the CPU")
        scale = float(np.max(np.abs(ref_k))) if ref_k.size else 0.0
        err = np.abs(ref_k - gpu_k)
        err[np.isnan(err)] = np.inf
        worst_i = int(np.argmax(err)) if err.size else 0
        worst = float(err[worst_i]) if err.size else 0.0
        ok = worst <= args.rtol * scale + args.atol
        failed += not ok
        print(f"  output {k} {ce.type_text(info)}: max abs err {worst:.3g} (max |ref| {scale:.3g}), "
              f"worst at flat index {worst_i}: gpu {gpu_k[worst_i] if err.size else 0:.7g} vs cpu "
              f"{ref_k[worst_i] if err.size else 0:.7g}: {'PASS' if ok else 'FAIL'}")
    if timing is not None:
        print(f"gpu ms per run: {timing[0]:.4f} (mean of {args.repeat} runs, {timing[1]})")
    print("PASS" if not failed else f"FAIL: {failed} of {len(reference.outputs)} outputs differ")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
