#!/usr/bin/python3
"""Runs an ONNX model through fuse on the CPU and compares its outputs with
reference outputs.

fuse-compile (import -> fusion for --target's cost model, or every rule off
with --unfused -> the CPU library) -> the fuse Python package (the runtime's
C API) on the given inputs -> compared here with NumPy. An output passes when
every element satisfies
  |out - ref| <= atol + rtol * (|ref| + max |ref|)
(a NaN where the reference has a NaN, or the same infinity, matches):
the error is judged relative to the output's own scale as well as the
element's, since an element that sums large terms to a small value (a logit
near 0 in a ResNet with random weights) has no meaningful elementwise
relative error in fp32. "max rel err" is max |out - ref| / max |ref|.

Inputs and references come from either
  --data DIR          an ONNX test-data directory (input_K.pb, output_K.pb), or
  --npz FILE          a .npz with arrays input_K and output_K (scripts/models/export.py).

Prints one line per output and a summary line
  <model>: nodes N, kernels K, max rel err E: PASS|FAIL
(K from the fusion report) and exits 1 on a mismatch (or when the thread
counts of --threads, 1 and 2 by default, give different bits), 2 when the model
cannot be compiled or run. --repeat N also times N more calls of the
compiled library ("cpu ms: X", the median). Needs Debian's python3-onnx and
python3-numpy (/usr/bin/python3).

usage: onnx-run.py MODEL.onnx (--data DIR | --npz FILE) [--target h200]
         [--rtol 1e-4] [--atol 1e-5] [--unfused] [--repeat N] [--threads 1,2]
         [--import-options "..."] [--fuse-compile PATH] [--keep DIR] [--bind NAME]...
         [--gpu-compile TARGET]
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# The element types a compiled model's inputs and outputs have.
RUNTIME_TYPES = (np.float32, np.float16, np.int64, np.int32, np.bool_)


class RunError(Exception):
    pass


def bind_inputs(args, model, inputs, work):
    """The inputs left to feed, and the fuse-compile options that bind the
    ones --bind names to their test data (each written as a TensorProto)."""
    if not args.bind:
        return inputs, []
    inits = {t.name for t in model.graph.initializer}
    names = [v.name for v in model.graph.input if v.name not in inits]
    options, left = [], []
    for name in args.bind:
        if name not in names:
            raise RunError(f"--bind {name}: the model has no input '{name}' (its inputs: {', '.join(names)})")
    for name, array in zip(names, inputs):
        if name not in args.bind:
            left.append(array)
            continue
        path = os.path.join(work, f"bound-{len(options)}.pb")
        with open(path, "wb") as f:
            f.write(numpy_helper.from_array(array, name).SerializeToString())
        options.append(f"--onnx-bind={name}={path}")
    return left, options


def load_data(args, model):
    if args.npz:
        data = np.load(args.npz)
        ins = [data[k] for k in sorted((k for k in data if k.startswith("input_")),
                                       key=lambda k: int(k.split("_")[1]))]
        outs = [data[k] for k in sorted((k for k in data if k.startswith("output_")),
                                        key=lambda k: int(k.split("_")[1]))]
        return ins, outs
    def read(kind):
        files = sorted(glob.glob(os.path.join(args.data, f"{kind}_*.pb")),
                       key=lambda p: int(re.search(r"_(\d+)\.pb$", p).group(1)))
        arrays = []
        for path in files:
            t = onnx.TensorProto()
            with open(path, "rb") as f:
                t.ParseFromString(f.read())
            arrays.append(numpy_helper.to_array(t))
        return arrays
    ins = read("input")
    # Inputs that are initializers too are not function arguments.
    inits = {t.name for t in model.graph.initializer}
    real = [v.name for v in model.graph.input if v.name not in inits]
    if len(ins) > len(real):
        ins = ins[:len(real)]
    return ins, read("output")


def to_input(a, info):
    if a.dtype != np.float32 or info.dtype == "f32":
        return a
    if info.dtype == "f16":
        return a.astype(np.float16)
    if info.dtype == "bf16":
        return fuse.bfloat16_bits(a)
    return a


def from_output(a, info):
    """bfloat16 bits as float32; anything else as it is."""
    if info.dtype == "bf16":
        return fuse.bfloat16_values(a)
    return a


# The build's fuse package (import_fuse), for the helpers below.
fuse = None


def import_fuse(fuse_compile):
    """The fuse Python package of the build that `fuse_compile` belongs to."""
    global fuse
    python_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(fuse_compile))), "python")
    if not os.path.isdir(os.path.join(python_dir, "fuse")):
        raise RunError(f"no fuse Python package in {python_dir} (build fuse first)")
    sys.path.insert(0, python_dir)
    import fuse as package
    fuse = package
    return package


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--data", help="ONNX test-data directory (input_K.pb, output_K.pb)")
    src.add_argument("--npz", help=".npz with input_K and output_K arrays")
    parser.add_argument("--target", default="h200", help="the GPU whose cost model decides the groups")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-5)
    parser.add_argument("--unfused", action="store_true",
                        help="every fusion rule off: each op its own kernel")
    parser.add_argument("--import-options", default="",
                        help="extra fuse-compile import options, e.g. --onnx-batch=2")
    parser.add_argument("--fuse-compile", default=os.path.join(ROOT, "build", "bin", "fuse-compile"))
    parser.add_argument("--keep", help="keep the compiled library and the fusion report here")
    parser.add_argument("--gpu-compile", metavar="TARGET",
                        help="also compile the model as a GPU library for TARGET (PTX, not run); "
                             "a failure is an ERROR")
    parser.add_argument("--bind", action="append", default=[], metavar="NAME",
                        help="compile graph input NAME as the constant its test data holds "
                             "(fuse-compile --onnx-bind; repeatable): for inputs that carry "
                             "shapes, axes or sizes")
    parser.add_argument("--threads", default="1,2",
                        help="thread counts to run the compiled model with (comma-separated); "
                             "each run is compared with the reference, and all must give the "
                             "same bits")
    parser.add_argument("--repeat", type=int, default=0,
                        help="also time N more calls of the compiled model and print "
                             "their median as 'cpu ms: X'")
    args = parser.parse_args()

    try:
        thread_counts = [int(t) for t in args.threads.split(",")]
        if not thread_counts or any(not 1 <= t <= 1024 for t in thread_counts):
            raise ValueError
    except ValueError:
        parser.error(f"--threads: expected counts from 1 to 1024 separated by commas, got {args.threads!r}")
    name = os.path.basename(args.model)
    work = tempfile.mkdtemp(prefix="onnx-run-")
    try:
        model = onnx.load(args.model, load_external_data=False)
        inputs, expected = load_data(args, model)
        inputs, bind_options = bind_inputs(args, model, inputs, work)
        for a in inputs + expected:
            if a.dtype not in RUNTIME_TYPES:
                raise RunError(f"only float32, float16, int64, int32 and bool data are supported, got {a.dtype}")
        fuse = import_fuse(args.fuse_compile)
        library = os.path.join(work, "model.so")
        report_path = os.path.join(work, "report.json")
        cmd = [args.fuse_compile, args.model, "--target=cpu", f"--fusion-target={args.target}", "-q",
               "-o", library, "--report", report_path] + (["--unfused"] if args.unfused else []) \
            + args.import_options.split() + bind_options
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
        if proc.returncode != 0:
            raise RunError(f"fuse-compile failed:\n{proc.stderr.strip()}")
        with open(report_path) as f:
            kernels = sum(fn["kernels_after"] for fn in json.load(f)["functions"])
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            for path in (library, report_path):
                shutil.copy(path, args.keep)
        compiled = fuse.load(library)
        if len(inputs) != len(compiled.inputs):
            raise RunError(f"{len(inputs)} inputs given, the model takes {len(compiled.inputs)}")
        if len(expected) != len(compiled.outputs):
            raise RunError(f"{len(expected)} reference outputs, the model has {len(compiled.outputs)}")
        # A float16 model (scripts/models/float16.py) takes its float32
        # model's inputs rounded to its type; bfloat16 travels as its bits.
        feeds = {info.name: to_input(a, info) for info, a in zip(compiled.inputs, inputs)}
        # Every thread count gives the same bits (each loop iteration
        # writes its own elements; no sum is split between threads).
        outputs = compiled.run(feeds, threads=thread_counts[0])
        differ = []
        for count in thread_counts[1:]:
            other = compiled.run(feeds, threads=count)
            if any(not np.array_equal(outputs[k], other[k], equal_nan=True) for k in outputs):
                differ.append(count)
        # The same model (and bound inputs) as a GPU library: the check
        # that whatever runs on the CPU also lowers for the GPU (PTX; no
        # device needed).
        if args.gpu_compile:
            gpu = [args.fuse_compile, args.model, f"--target={args.gpu_compile}", "--gpu-format=isa",
                   "-q", "-o", os.path.join(work, "model-gpu.so")] \
                + (["--unfused"] if args.unfused else []) + args.import_options.split() + bind_options
            proc = subprocess.run(gpu, capture_output=True, text=True, errors="replace")
            if proc.returncode != 0:
                first = next((l for l in proc.stderr.splitlines() if "error:" in l), proc.stderr.strip())
                raise RunError(f"the GPU library (--target={args.gpu_compile}) failed: "
                               f"{first.split('error: ', 1)[-1]}")
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            compiled.run(feeds, threads=thread_counts[0])
            times.append(time.perf_counter() - start)
    except (RunError, OSError, ValueError, KeyError, AttributeError) as e:
        print(f"{name}: ERROR: {e}")
        return 2
    except Exception as e:  # the runtime's FuseError
        if type(e).__name__ != "FuseError":
            raise
        print(f"{name}: ERROR: {e}")
        return 2
    finally:
        shutil.rmtree(work, ignore_errors=True)
    failed = 0
    worst = 0.0
    for k, (info, ref) in enumerate(zip(compiled.outputs, expected)):
        got = from_output(outputs[info.name], info)
        # A 16-bit float model's outputs are compared with its float32
        # model's (at the tolerances the caller gives).
        sixteen = got.dtype in (np.float16, np.float32) and ref.dtype == np.float32
        if got.dtype != ref.dtype and not sixteen:
            print(f"{name}: ERROR: output {k} is {got.dtype}, the reference {ref.dtype}")
            return 2
        out = got.astype(np.float64).reshape(-1)
        ref = ref.astype(np.float64).reshape(-1)
        if out.shape != ref.shape:
            print(f"{name}: ERROR: output {k} has {out.size} elements, the reference {ref.size}")
            return 2
        if not np.issubdtype(got.dtype, np.floating):
            # Integers and booleans are exact.
            bad = np.flatnonzero(out != ref)
            ok = not bad.size
            failed += not ok
            at = int(bad[0]) if bad.size else 0
            shape = "x".join(str(d) for d in info.shape)
            print(f"  output {k} tensor<{shape}{'x' if shape else ''}{info.dtype}>: {bad.size} elements differ"
                  + (f", first at flat index {at}: got {out[at]:.0f} vs ref {ref[at]:.0f}" if bad.size else "")
                  + f": {'PASS' if ok else 'FAIL'}")
            continue
        # A NaN where the reference has one, or the same infinity, is a
        # match (the ONNX backend's equal_nan); the scale is the finite
        # reference's.
        same = (np.isnan(out) & np.isnan(ref)) | ((out == ref) & np.isinf(ref))
        with np.errstate(invalid="ignore"):
            err = np.where(same, 0.0, np.abs(out - ref))
        finite = ref[np.isfinite(ref)]
        max_ref = float(np.abs(finite).max()) if finite.size else 0.0
        bad = ~(err <= args.atol + args.rtol * (np.where(np.isfinite(ref), np.abs(ref), 0.0) + max_ref))
        ok = not bad.any()
        failed += not ok
        max_err = float(np.nanmax(err)) if err.size and not np.isnan(err).all() else float("nan")
        rel = max_err / max_ref if max_ref else max_err
        worst = max(worst, rel) if not np.isnan(rel) else float("nan")
        at = int(np.argmax(np.where(np.isnan(err), np.inf, err))) if err.size else 0
        shape = "x".join(str(d) for d in info.shape)
        print(f"  output {k} tensor<{shape}{'x' if shape else ''}{info.dtype}>: max abs err {max_err:.3g}, max rel err {rel:.3g} "
              f"(of max |ref| {max_ref:.3g}), worst at flat index {at}: "
              f"got {out[at] if out.size else 0:.7g} vs ref {ref[at] if ref.size else 0:.7g}: {'PASS' if ok else 'FAIL'}")
    if len(thread_counts) > 1 and compiled.parallel:
        counts = ", ".join(str(t) for t in thread_counts)
        if differ:
            print(f"  threads {counts}: outputs differ with {', '.join(map(str, differ))} threads: FAIL")
            failed += 1
        else:
            print(f"  threads {counts}: same outputs")
    if times:
        print(f"cpu ms: {sorted(times)[len(times) // 2] * 1000.0:.3f} (median of {len(times)})")
    print(f"{name}: nodes {len(model.graph.node)}, kernels {kernels}, max rel err {worst:.3g}: "
          f"{'PASS' if not failed else 'FAIL'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
