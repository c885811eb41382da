#!/usr/bin/python3
"""Fused ≡ unfused on the CPU.

Compiles one function twice with fuse-compile into compiled-model libraries:
unfused (every fusion rule and graph rewrite off, so each op is its own
kernel; plain loops, one buffer per value) and fused (the fusion pipeline
for a target, its buffers planned; with --lower-groups each group tiled as
its GPU kernel, fuse-compile --gpu-schedules). Both run through the fuse
Python package (the runtime's C API) on the same seeded random inputs, and
every output element is compared: |fused - unfused| <= atol + rtol * |unfused|.
The libraries say what their inputs and outputs are; nothing reads IR.

Prints, per output: the largest absolute error, the largest relative error,
the first worst element (flat index, fused and unfused values) and
PASS/FAIL; exits 1 on any failure. A NaN anywhere in the comparison is a
failure: pick inputs (or functions) whose results are finite.

usage: check-equivalence.py INPUT.mlir [--function NAME] [--target h200] [--seed 0]
         [--rtol 1e-5] [--atol 1e-6] [--fused-options "..."] [--keep DIR]
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def threads_arg(text):
    """--distribute-threads: a positive count, or 'config' (-1: emulate-threads=-1)."""
    if text == "config":
        return -1
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a thread count or 'config', got {text!r}")
    if value < 0:
        raise argparse.ArgumentTypeError(f"the thread count must be positive, got {value}")
    return value


def fail(message):
    sys.exit(f"check-equivalence: {message}")


def run(cmd, stdin=None):
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        fail(f"command failed: {' '.join(cmd)}\n{proc.stderr}")
    return proc.stdout


# The build's fuse package (import_fuse), for the helpers below.
fuse = None


def import_fuse(fuse_compile):
    """The fuse Python package of the build that `fuse_compile` belongs to."""
    global fuse
    python_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(fuse_compile))), "python")
    if not os.path.isdir(os.path.join(python_dir, "fuse")):
        fail(f"no fuse Python package in {python_dir} (build fuse first)")
    sys.path.insert(0, python_dir)
    import fuse as package
    fuse = package
    return package


def type_text(info):
    """An input's or output's type as MLIR writes it (tensor<2x3xf32>)."""
    elem = "i1" if info.dtype == "bool" else info.dtype
    return "tensor<" + "".join(f"{d}x" for d in info.shape) + elem + ">"


def random_input(info, rng):
    """Seeded random contents for a library input: floats in [-1, 1) (f16
    and bf16 rounded to nearest even), integers in [-8, 8) (as ids,
    positions or indices: a negative or too-large index exercises the
    clamping), booleans as 0 or 1. bf16 travels as its bits."""
    if any(d < 0 for d in info.shape):
        fail(f"input '{info.name}' has a dynamic shape {type_text(info)}: only static shapes are supported")
    n = 1
    for d in info.shape:
        n *= d
    if info.dtype == "bool":
        values = np.array([rng.random() < 0.5 for _ in range(n)], dtype=np.bool_)
    elif info.dtype in ("f32", "f16", "f64", "bf16"):
        draws = np.array([rng.uniform(-1.0, 1.0) for _ in range(n)], dtype=np.float64)
        if info.dtype == "bf16":
            values = fuse.bfloat16_bits(draws)
        else:
            values = draws.astype(info.numpy_dtype)
    else:
        values = np.array([rng.randrange(-8, 8) for _ in range(n)], dtype=info.numpy_dtype)
    return values.reshape(info.shape)


def as_float32(array, info):
    """An output as float32: bf16 from its bits, anything else converted
    (exactly, for the values a model computes)."""
    if info.dtype == "bf16":
        return fuse.bfloat16_values(array)
    return array.astype(np.float32)


# Default tolerances by the narrowest float type the module computes in: a
# fused kernel reduces in another order than the unfused one, and the
# difference is a few units in the last place of that type (f16: 2^-10
# relative, bf16: 2^-7), times the growth of a long sum.
TOLERANCES = {"f32": (1e-5, 1e-6), "f16": (1e-2, 1e-3), "bf16": (8e-2, 1e-2)}
# Default tolerances of an f32 module whose tensor-core products take
# 16-bit operands (--precision): each operand rounded to 8 (bf16) or 11
# (fp16) significant bits, the products' error grows with the sum.
PRODUCT_TOLERANCES = {"bf16": (5e-2, 2e-2), "fp16": (1e-2, 3e-3)}


def choose_tolerances(args):
    """Fills args.rtol/args.atol that the user left out from the narrowest
    float type the input mentions; returns a note for the report line (""
    for f32)."""
    try:
        text = open(args.input, errors="replace").read()
    except OSError as e:
        fail(f"cannot read '{args.input}': {e.strerror}")
    kind = "f32"
    if re.search(r"(?:\b|[\d?]x)bf16\b", text):
        kind = "bf16"
    elif re.search(r"(?:\b|[\d?]x)f16\b", text):
        kind = "f16"
    rtol, atol = TOLERANCES[kind]
    note = ""
    if kind != "f32" and (args.rtol is None or args.atol is None):
        note = f" ({kind} arithmetic in the module: {kind} tolerances)"
    elif getattr(args, "precision", None) in PRODUCT_TOLERANCES and \
            (args.rtol is None or args.atol is None):
        rtol, atol = PRODUCT_TOLERANCES[args.precision]
        note = f" ({args.precision} tensor-core products: {args.precision} tolerances)"
    if args.rtol is None:
        args.rtol = rtol
    if args.atol is None:
        args.atol = atol
    return note


def schedule_options(args):
    """fuse-lower-groups' options the flags ask for ("": each group's own
    lowering config)."""
    options = []
    if args.tensor_cores or args.precision or args.stages or args.split_k:
        options += [f"tensor-cores={args.tensor_cores or 'auto'}", f"precision={args.precision or 'fp32'}",
                    f"stages={args.stages or 0}", f"split-k={args.split_k or 0}"]
    if args.key_chunk:
        options.append(f"key-chunk={args.key_chunk}")
    if args.tile_sizes:
        if not re.fullmatch(r"\d+(,\d+)*", args.tile_sizes):
            fail(f"--tile-sizes must be comma-separated sizes, got '{args.tile_sizes}'")
        options.append(f"tile-sizes={args.tile_sizes}")
    return " ".join(options)


def compile_library(args, path, output, fused, report=None):
    """fuse-compile `path` into the CPU library `output`: the fused build
    as the flags ask, or the unfused reference."""
    cmd = [args.fuse_compile, path, "--target=cpu", f"--fusion-target={args.target}", "-q", "-o", output]
    if args.function:
        cmd.append(f"--entry={args.function}")
    if report:
        cmd += ["--report", report]
    if not fused:
        # The reference: each op its own kernel, plain loops on one
        # thread, one buffer per value.
        cmd += ["--unfused", "--plan-buffers=false", "--cpu-vectorize=false", "--cpu-parallel=false"]
        return run(cmd)
    if args.fused_options:
        cmd.append(f"--fusion-options={args.fused_options}")
    if args.lower_groups:
        cmd.append("--gpu-schedules")
        options = schedule_options(args)
        if options:
            cmd.append(f"--schedule-options={options}")
        if args.distribute_threads:
            cmd.append(f"--emulate-threads={args.distribute_threads}")
        if args.relayout_weights:
            cmd.append("--relayout-weights")
    return run(cmd)


def compare(k, info, fused, unfused, rtol, atol, perturb):
    """One output's comparison line and whether it passed."""
    u = as_float32(unfused, info).reshape(-1)
    f = as_float32(fused, info).reshape(-1)
    if perturb and k == 0:
        # Test hook: a wrong "fused" result, to show that the check fails.
        f = f + np.float32(perturb)
    with np.errstate(invalid="ignore", over="ignore"):
        ad = np.abs(f - u)
        au = np.abs(u)
        violation = ad - np.float32(rtol) * au
    if u.size == 0:
        return f"  output {k} {type_text(info)}: empty: PASS", True
    worst = int(np.argmax(violation))
    max_ad, max_au, max_v = np.max(ad), np.max(au), np.max(violation)
    # A NaN anywhere is a failure (NaN compares false).
    ok = bool(max_v <= atol) and not np.isnan(ad).any()
    rel = max_ad / max_au if max_au else 0.0
    return (f"  output {k} {type_text(info)}: max abs err {max_ad:.3g}, "
            f"max rel err {rel:.3g} (of max |ref| {max_au:.3g}), worst at flat index "
            f"{worst}: fused {f[worst]:.7g} vs unfused {u[worst]:.7g}: "
            f"{'PASS' if ok else 'FAIL'}"), ok


def check_groups(args):
    """Checks every group of the fused function on its own: each group,
    outlined into a module of its own (fuse-opt's fuse-test-write-groups),
    fused against the same ops unfused."""
    fused_opts = f"target={args.target} {args.fused_options}".strip()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        write = f"dir={tmp}" + (f" function={args.function}" if args.function else "")
        run([args.fuse_opt, args.input, f"--fuse-fusion-pipeline={fused_opts}", "--fuse-outline-groups",
             f"--fuse-test-write-groups={write}", "-o", os.devnull])
        with open(os.path.join(tmp, "groups.txt")) as f:
            names = f.read().split()
        for name in names:
            cmd = [sys.executable, os.path.abspath(__file__), os.path.join(tmp, name + ".mlir"),
                   "--target", args.target, "--seed", str(args.seed), "--rtol", str(args.rtol),
                   "--atol", str(args.atol), "--fuse-opt", args.fuse_opt, "--fuse-compile", args.fuse_compile]
            if args.lower_groups:
                cmd.append("--lower-groups")
            if args.tensor_cores:
                cmd += ["--tensor-cores", args.tensor_cores]
            if args.precision:
                cmd += ["--precision", args.precision]
            if args.stages:
                cmd += ["--stages", str(args.stages)]
            if args.split_k:
                cmd += ["--split-k", str(args.split_k)]
            if args.key_chunk:
                cmd += ["--key-chunk", str(args.key_chunk)]
            if args.distribute_threads:
                cmd += ["--distribute-threads", str(args.distribute_threads)]
            if args.relayout_weights:
                cmd.append("--relayout-weights")
            proc = subprocess.run(cmd, capture_output=True, text=True)
            ok = proc.returncode == 0
            failed += not ok
            print(f"group {name}: {'PASS' if ok else 'FAIL'}")
            if not ok:
                print(proc.stdout + proc.stderr)
    print("PASS" if not failed else f"FAIL: {failed} of {len(names)} groups differ")
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("--target", default="h200")
    parser.add_argument("--function", help="the function to check, if the file has several")
    parser.add_argument("--lower-groups", action="store_true",
                        help="tile each fused group into one loop nest as its GPU kernel "
                             "(fuse-compile --gpu-schedules) first")
    parser.add_argument("--relayout-weights", action="store_true",
                        help="with --lower-groups: every constant conv filter permuted as for SIMT "
                             "GPU kernels (fuse-compile --relayout-weights) first")
    parser.add_argument("--distribute-threads", type=threads_arg, default=0, metavar="T",
                        help="with --lower-groups: spread each tile's ops over T emulated threads, as the "
                             "GPU kernels do (fuse-compile --emulate-threads); 'config': each group's "
                             "own block size (its lowering config's threads, as on the GPU)")
    parser.add_argument("--tensor-cores", choices=["auto", "always", "never"],
                        help="with --lower-groups: the groups configured anew with fuse-lower-groups' "
                             "tensor-cores option (always: every contraction the mma_sync schedule "
                             "computes runs on the emulated tensor cores)")
    parser.add_argument("--precision", choices=["fp32", "tf32", "bf16", "fp16"],
                        help="with --lower-groups: the precision of tensor-core products (fp32: three "
                             "TF32 products; tf32: one, about 1e-3 relative: pass a --rtol to match; "
                             "bf16, fp16: one product of operands rounded to 16 bits, checked at "
                             "their own default tolerances)")
    parser.add_argument("--stages", type=int, choices=[2, 3, 4],
                        help="with --lower-groups: the K chunks every tensor-core kernel stages in "
                             "shared memory at once (default: the cost model's choice)")
    parser.add_argument("--split-k", type=int, choices=range(1, 17), metavar="{1..16}",
                        help="with --lower-groups: the blocks every tensor-core kernel splits its "
                             "reduction over where its group allows (split-K; 1: never; default: "
                             "the cost model's choice)")
    parser.add_argument("--key-chunk", type=int,
                        help="with --lower-groups: the keys per chunk every attention tile streams "
                             "its keys and values in (an online softmax; -1: never; default: the "
                             "cost model's choice)")
    parser.add_argument("--tile-sizes",
                        help="with --lower-groups: every group's tile sizes (fuse-lower-groups' "
                             "tile-sizes, comma-separated), instead of its config's")
    parser.add_argument("--fused-options", default="",
                        help="extra fuse-fusion-pipeline options for the fused build")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rtol", type=float,
                        help="relative tolerance (default 1e-5; 1e-2 when the module computes in f16, "
                             "8e-2 in bf16: fused and unfused reduce in different orders)")
    parser.add_argument("--atol", type=float,
                        help="absolute tolerance (default 1e-6; 1e-3 with f16, 1e-2 with bf16)")
    parser.add_argument("--fuse-opt", default=os.path.join(ROOT, "build", "bin", "fuse-opt"),
                        help="fuse-opt (--per-group outlines the groups with it)")
    parser.add_argument("--fuse-compile",
                        help="fuse-compile (default: the one next to --fuse-opt); its build's "
                             "Python package runs the libraries")
    parser.add_argument("--keep", help="keep the two libraries and the fused build's report here")
    parser.add_argument("--per-group", action="store_true",
                        help="also check every fused group on its own: the group's ops, fused, "
                             "against the same ops unfused, on random inputs of the group's own")
    parser.add_argument("--perturb", type=float, default=0.0,
                        help="add this to the fused build's first output (tests the check itself)")
    args = parser.parse_args()
    if args.fuse_compile is None:
        args.fuse_compile = os.path.join(os.path.dirname(os.path.abspath(args.fuse_opt)), "fuse-compile")
    tolerance_note = choose_tolerances(args)

    if (args.tensor_cores or args.precision or args.stages or args.split_k or args.tile_sizes
            or args.key_chunk) and not args.lower_groups:
        fail("--tensor-cores, --precision, --stages, --split-k, --key-chunk and --tile-sizes need "
             "--lower-groups (they configure the tiles)")
    if args.distribute_threads and not args.lower_groups:
        fail("--distribute-threads needs --lower-groups (it spreads the tile loops' ops)")
    if args.relayout_weights and not args.lower_groups:
        fail("--relayout-weights needs --lower-groups (it lays filters out for the GPU kernels)")
    if args.per_group:
        return check_groups(args)

    fuse = import_fuse(args.fuse_compile)
    work = tempfile.mkdtemp(prefix="check-equivalence-")
    try:
        unfused_lib, fused_lib = os.path.join(work, "unfused.so"), os.path.join(work, "fused.so")
        report_path = os.path.join(work, "fused.json")
        compile_library(args, args.input, unfused_lib, fused=False)
        compile_library(args, args.input, fused_lib, fused=True, report=report_path)
        with open(report_path) as f:
            report = json.load(f)
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            for path in (unfused_lib, fused_lib, report_path):
                shutil.copy(path, args.keep)
        try:
            unfused, fused = fuse.load(unfused_lib), fuse.load(fused_lib)
        except fuse.FuseError as e:
            fail(f"cannot load a compiled library: {e}")
        signature = lambda m: [(i.dtype, i.shape) for i in m.inputs + m.outputs]
        if signature(unfused) != signature(fused):
            fail(f"the fused library takes {fused.inputs} -> {fused.outputs}, "
                 f"the unfused one {unfused.inputs} -> {unfused.outputs}")
        rng = random.Random(args.seed)
        feeds = {info.name: random_input(info, rng) for info in unfused.inputs}
        try:
            reference = unfused.run(feeds)
            results = fused.run(feeds)
        except fuse.FuseError as e:
            fail(f"a run failed: {e}")
    finally:
        shutil.rmtree(work, ignore_errors=True)

    names = [fn["name"] for fn in report.get("functions", [])]
    name = args.function or (names[0] if len(names) == 1 else "?")
    fused_opts = f"target={args.target} {args.fused_options}".strip()
    lowered_note = ", groups tiled" if args.lower_groups else ""
    if args.tensor_cores or args.precision or args.stages or args.split_k:
        lowered_note += (f", tensor cores {args.tensor_cores or 'auto'}, "
                         f"precision {args.precision or 'fp32'}")
        if args.stages:
            lowered_note += f", {args.stages} stages"
        if args.split_k:
            lowered_note += f", split-k {args.split_k}"
    if args.distribute_threads:
        lowered_note += (", each group's configured threads per tile" if args.distribute_threads < 0
                         else f", {args.distribute_threads} threads per tile")
    if args.relayout_weights:
        lowered_note += ", filters re-laid out"
    if args.tile_sizes:
        lowered_note += f", tile sizes {args.tile_sizes}"
    if args.key_chunk:
        lowered_note += f", key chunk {args.key_chunk}"
    print(f"{os.path.basename(args.input)} @{name}: fused ({fused_opts}{lowered_note}) vs unfused, seed {args.seed}, "
          f"rtol {args.rtol:g}, atol {args.atol:g}{tolerance_note}")
    plan = next((fn["memory"].get("workspace_plan") for fn in report.get("functions", [])
                 if fn["name"] == name and "memory" in fn), None)
    if plan:
        print(f"  memory: arena {plan['arena']} bytes for buffers of {plan['naive']} bytes one by one "
              f"({plan['in_place_bytes']} bytes written in place, planner strategy {plan['strategy']})")
    failed = 0
    for k, info in enumerate(unfused.outputs):
        line, ok = compare(k, info, results[fused.outputs[k].name], reference[info.name],
                           args.rtol, args.atol, args.perturb)
        failed += not ok
        print(line)
    n = len(unfused.outputs)
    print("PASS" if not failed else f"FAIL: {failed} of {n} outputs differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
