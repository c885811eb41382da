#!/usr/bin/python3
"""Runs an ONNX model through fuse on the CPU and compares its outputs with
reference outputs.

import (fuse-translate --import-onnx) -> fusion (fuse-opt
--fuse-fusion-pipeline, or every rule off with --unfused) -> fuse-to-cpu ->
mlir-runner, on the given inputs; the comparison happens inside the module,
as in check-equivalence.py. An output passes when every element satisfies
  |out - ref| <= atol + rtol * (|ref| + max |ref|):
the error is judged relative to the output's own scale as well as the
element's, since an element that sums large terms to a small value (a logit
near 0 in a ResNet with random weights) has no meaningful elementwise
relative error in fp32. "max rel err" is max |out - ref| / max |ref|.

Inputs and references come from either
  --data DIR          an ONNX test-data directory (input_K.pb, output_K.pb), or
  --npz FILE          a .npz with arrays input_K and output_K (scripts/models/export.py).

Prints one line per output and a summary line
  <model>: nodes N, kernels K, max rel err E: PASS|FAIL
and exits 1 on a mismatch, 2 when the model cannot be compiled or run.
Needs Debian's python3-onnx and python3-numpy (/usr/bin/python3).

usage: onnx-run.py MODEL.onnx (--data DIR | --npz FILE) [--target h200]
         [--rtol 1e-4] [--atol 1e-5] [--unfused] [--fuse-opt PATH]
         [--fuse-translate PATH] [--keep DIR]
"""
import argparse
import glob
import importlib
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
ce = importlib.import_module("check-equivalence")


class RunError(Exception):
    pass


def run(cmd, stdin=None):
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RunError(f"{os.path.basename(cmd[0])} failed:\n{proc.stderr.strip()}")
    return proc.stdout


def tensor_type(shape):
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def hex_array(a):
    return '"0x' + np.ascontiguousarray(a, dtype="<f4").tobytes().hex().upper() + '"'


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--data", help="ONNX test-data directory (input_K.pb, output_K.pb)")
    src.add_argument("--npz", help=".npz with input_K and output_K arrays")
    parser.add_argument("--target", default="h200")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-5)
    parser.add_argument("--unfused", action="store_true",
                        help="every fusion rule off: each op its own kernel")
    parser.add_argument("--import-options", default="",
                        help="extra fuse-translate options, e.g. --onnx-batch=2")
    parser.add_argument("--fuse-opt", default=os.path.join(ROOT, "build", "bin", "fuse-opt"))
    parser.add_argument("--fuse-translate",
                        default=os.path.join(ROOT, "build", "bin", "fuse-translate"))
    parser.add_argument("--keep", help="write the module and its output here")
    parser.add_argument("--repeat", type=int, default=0,
                        help="also time N more calls of the compiled model (rtclock) and print "
                             "their median as 'cpu ms: X'")
    args = parser.parse_args()

    name = os.path.basename(args.model)
    try:
        model = onnx.load(args.model, load_external_data=False)
        inputs, expected = load_data(args, model)
        for a in inputs + expected:
            if a.dtype != np.float32:
                raise RunError(f"only float32 data is supported, got {a.dtype}")
        imported = run([args.fuse_translate, "--import-onnx", args.model]
                       + args.import_options.split())
        if args.unfused:
            rules = [line.split()[0] for line in run([args.fuse_opt, "--fuse-list-rules"]).splitlines()
                     if line.startswith("  ") and not line.startswith("    ")]
            options = "prune=false disable-rules=" + ",".join(rules)
        else:
            options = f"target={args.target}"
        fused = run([args.fuse_opt, f"--fuse-fusion-pipeline={options}"], stdin=imported)
        kernels = len(re.findall(r"= fuse\.group |^\s*fuse\.group ", fused, re.M))
        blobs = {}
        body = ce.split_resources(fused, blobs)
        fn = re.search(r"func\.func @(\w+)\(", body).group(1)
        header = re.search(rf"func\.func @{fn}\((.*?)\) ->", body).group(1)
        if len(inputs) != header.count("%arg"):
            raise RunError(f"{len(inputs)} inputs given, @{fn} takes {header.count('%arg')}")
        arg_types = [tensor_type(a.shape) for a in inputs]
        res_types = [tensor_type(a.shape) for a in expected]
        lines = ["  func.func @main() {"]
        for k, a in enumerate(inputs):
            lines.append(f"    %in{k} = arith.constant dense<{hex_array(a)}> : {arg_types[k]}")
        for k, a in enumerate(expected):
            lines.append(f"    %ref{k} = arith.constant dense<{hex_array(a)}> : {res_types[k]}")
        n = len(expected)
        res = "%out" if n == 1 else f"%out:{n}"
        sig = f"({', '.join(arg_types)}) -> ({', '.join(res_types)})"
        lines.append(f"    {res} = call @{fn}({', '.join(f'%in{k}' for k in range(len(inputs)))}) : {sig}")
        lines.append("    %c0 = arith.constant 0 : index")
        for k, t in enumerate(res_types):
            out = "%out" if n == 1 else f"%out#{k}"
            lines += ce.compare_lines(k, t, out, f"%ref{k}", args.rtol)
        if args.repeat > 0:
            # Timed calls: the first call above compiled nothing lazily (the
            # module is JIT-compiled as a whole), so each is one execution.
            ins = ", ".join(f"%in{k}" for k in range(len(inputs)))
            lines += [f"    %reps = arith.constant {args.repeat} : index", "    %one = arith.constant 1 : index",
                      "    scf.for %i = %c0 to %reps step %one {",
                      "      %t0 = func.call @rtclock() : () -> f64",
                      f"      {res.replace('%out', '%again')} = func.call @{fn}({ins}) : {sig}",
                      "      %t1 = func.call @rtclock() : () -> f64",
                      "      %dt = arith.subf %t1, %t0 : f64",
                      '      vector.print str "time_s "', "      vector.print %dt : f64", "    }"]
            lines.insert(0, "  func.func private @rtclock() -> f64")
        lines += ["    return", "  }"]
        module = body[:body.rindex("}")] + "\n".join(lines) + "\n}\n" + ce.resource_block(blobs)
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            open(os.path.join(args.keep, "module.mlir"), "w").write(module)
        _, output = ce.execute_on_cpu(args.fuse_opt, module, runner=run)
    except (RunError, OSError, ValueError, KeyError, AttributeError) as e:
        print(f"{name}: ERROR: {e}")
        return 2
    values = ce.read_comparison(output)
    failed = 0
    worst = 0.0
    for k in range(len(expected)):
        v = values.get(k)
        if not v or len(v) != 6:
            print(f"{name}: ERROR: no comparison printed for output {k}")
            return 2
        ok = v["violation"] <= args.atol + args.rtol * v["max_abs_ref"] and not np.isnan(v["violation"])
        failed += not ok
        rel = v["max_abs_err"] / v["max_abs_ref"] if v["max_abs_ref"] else v["max_abs_err"]
        worst = max(worst, rel)
        print(f"  output {k} {res_types[k]}: max abs err {v['max_abs_err']:.3g}, max rel err {rel:.3g} "
              f"(of max |ref| {v['max_abs_ref']:.3g}), worst at flat index {int(v['worst_index'])}: "
              f"got {v['fused']:.7g} vs ref {v['unfused']:.7g}: {'PASS' if ok else 'FAIL'}")
    times = [float(t) for t in re.findall(r"^time_s (\S+)$", output, re.M)]
    if times:
        print(f"cpu ms: {sorted(times)[len(times) // 2] * 1000.0:.3f} (median of {len(times)})")
    print(f"{name}: nodes {len(model.graph.node)}, kernels {kernels}, max rel err {worst:.3g}: "
          f"{'PASS' if not failed else 'FAIL'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
