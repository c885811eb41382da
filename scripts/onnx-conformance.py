#!/usr/bin/python3
"""ONNX backend node and model tests through fuse on the CPU.

Takes every node test of Debian's libonnx-testdata
(/usr/share/libonnx-testdata/data/node/<test>/model.onnx with
test_data_set_*/{input,output}_*.pb) whose op types the importer claims
(fuse-translate --onnx-list-ops), and every model test of its
pytorch-converted, pytorch-operator and simple directories whatever its ops
(an op the importer does not claim is an ERROR that names it), and runs each
with scripts/onnx-run.py:
import, fuse for an H200, lower to the CPU, execute, compare with the
expected outputs (rtol 1e-4, atol 1e-5 by default).

Every test ends PASS, FAIL (wrong numbers), ERROR (not imported or not
compiled: the message says why) or SKIP (data that is not float32, int64,
int32 or bool: the element types of the compiler's run-time values). Known non-passing tests are listed
in KNOWN with their reason; --check exits 1 when any other test does not
pass, or when a known one passes (so the list stays true).

--gpu-target TARGET also compiles each test as a GPU library for TARGET
(PTX, not run; onnx-run.py --gpu-compile): a test that runs on the CPU but
does not lower for the GPU is an ERROR that says so. make check passes h200.

--out writes the per-op table (docs/onnx-conformance.md).

usage: onnx-conformance.py [--check] [--out FILE] [--filter REGEX] [-j N]
         [--gpu-target TARGET]
"""
import argparse
import concurrent.futures
import datetime
import glob
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTDATA = "/usr/share/libonnx-testdata/data"
DATA = os.path.join(TESTDATA, "node")
MODEL_SUITES = ("pytorch-converted", "pytorch-operator", "simple")

# Tests of claimed ops that do not pass, and why. Kept exact by --check.
KNOWN = {
    "test_batchnorm_epsilon_training_mode": "training-mode BatchNormalization (batch statistics) is refused: fuse compiles inference graphs",
    "test_batchnorm_example_training_mode": "training-mode BatchNormalization (batch statistics) is refused: fuse compiles inference graphs",
    "test_dropout_default_mask": "Dropout's mask output is not supported",
    "test_dropout_default_mask_ratio": "Dropout's mask output is not supported",
    "test_maxpool_with_argmax_2d_precomputed_pads": "MaxPool's Indices output is not supported",
    "test_maxpool_with_argmax_2d_precomputed_strides": "MaxPool's Indices output is not supported",
    "test_reshape_allowzero_reordered": "an empty tensor (a dimension of 0) is not compiled",
    "test_split_zero_size_splits": "an empty tensor (a dimension of 0) is not compiled",
    "test_slice_start_out_of_bounds": "the slice is empty: an empty tensor is not compiled",
}
for _name in ["mean_weight_expanded", "none_no_weight_expanded"]:
    KNOWN["test_nllloss_NCd1d2d3d4d5_" + _name] = "a rank-7 input: at most 6 dimensions (TOSA's limit)"
for _name in ["float", "int32_float32", "int32_int32", "int64_float32", "int64_int64"]:
    KNOWN["test_pow_types_" + _name] = "Pow of an integer base is not supported (a FLOAT base, any exponent)"
for _name in ["", "_default", "_default_mask", "_mask", "_zero_ratio", "_zero_ratio_mask"]:
    KNOWN["test_training_dropout" + _name] = "training-mode Dropout is refused: fuse compiles inference graphs"
KNOWN["test_resize_tf_crop_and_resize"] = "coordinate_transformation_mode tf_crop_and_resize (a region of interest) is not supported"
KNOWN["test_convtranspose_3d"] = "3-D ConvTranspose is not supported (1-D and 2-D only)"
# Model tests (pytorch-converted, pytorch-operator, simple) that do not pass.
for _name in ["gradient_of_add", "gradient_of_add_and_mul"]:
    KNOWN["test_" + _name] = "the training op ai.onnx.preview.training::Gradient: fuse compiles inference graphs"
KNOWN["test_sequence_model8"] = "split sizes of 0 (empty parts of an empty input): an empty tensor is not compiled"


# Input slots that carry shapes, axes, sizes or counts: the output's shape
# depends on their values, so a static-shape compiler needs them at import
# time. A test that feeds one from a graph input has it bound to its test
# data at compile time (onnx-run.py --bind, fuse-compile --onnx-bind).
SHAPE_SLOTS = {
    "Reshape": (1,), "Slice": (1, 2, 3, 4), "Unsqueeze": (1,), "Squeeze": (1,), "Tile": (1,),
    "Split": (1,), "Expand": (1,), "Resize": (1, 2, 3), "Upsample": (1,), "Pad": (1, 2, 3),
    "ReduceSum": (1,), "ReduceMean": (1,), "ReduceMax": (1,), "ReduceMin": (1,), "ReduceProd": (1,),
    "ConstantOfShape": (0,), "TopK": (1,), "OneHot": (1,), "Range": (0, 1, 2),
    # A sequence's positions and split sizes say which tensors follow.
    "SequenceAt": (1,), "SequenceInsert": (2,), "SequenceErase": (1,), "SplitToSequence": (1,),
}


def shape_inputs(model):
    """Graph inputs that feed a shape slot (SHAPE_SLOTS)."""
    inputs = {v.name for v in model.graph.input} - {t.name for t in model.graph.initializer}
    bound = []
    for n in model.graph.node:
        for k in SHAPE_SLOTS.get(n.op_type, ()):
            if k < len(n.input) and n.input[k] in inputs and n.input[k] not in bound:
                bound.append(n.input[k])
    return bound


# The element types of run-time values (the rest are SKIPped).
RUNTIME_TYPES = (np.float32, np.float16, np.int64, np.int32, np.bool_)


def ops_of(model):
    return sorted({n.op_type for n in model.graph.node if n.op_type != "Constant"})


def data_types(test_dir):
    types = set()
    for path in glob.glob(os.path.join(test_dir, "test_data_set_0", "*.pb")):
        t = onnx.TensorProto()
        try:
            with open(path, "rb") as f:
                t.ParseFromString(f.read())
            types.add(numpy_helper.to_array(t).dtype)
        except Exception:  # a sequence or optional, not a tensor
            types.add(None)
    return types


def run_test(args, name, suite):
    test_dir = os.path.join(TESTDATA, suite, name)
    model_path = os.path.join(test_dir, "model.onnx")
    sets = sorted(glob.glob(os.path.join(test_dir, "test_data_set_*")))
    if not sets:
        return name, "SKIP", "no test data"
    other = [t for t in data_types(test_dir) if t not in RUNTIME_TYPES]
    if other:
        return name, "SKIP", f"{other[0] if other[0] is not None else 'non-tensor'} data"
    binds = [f"--bind={name}" for name in shape_inputs(onnx.load(model_path, load_external_data=False))]
    for data in sets:
        proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "onnx-run.py"), model_path,
                               "--data", data, "--rtol", str(args.rtol), "--atol", str(args.atol),
                               "--fuse-compile", args.fuse_compile] + binds
                              + (["--gpu-compile", args.gpu_target] if args.gpu_target else []),
                              capture_output=True, text=True)
        last = (proc.stdout.strip().splitlines() or [""])[-1]
        if proc.returncode == 2 or "ERROR" in last:
            reason = last.split("ERROR: ", 1)[-1]
            # The first diagnostic line says most.
            m = re.search(r"error: (.*)", proc.stdout)
            return name, "ERROR", (m.group(1) if m else reason)[:200]
        if proc.returncode != 0:
            worst = [l for l in proc.stdout.splitlines() if "FAIL" in l]
            return name, "FAIL", (worst[0].strip() if worst else last)[:200]
    return name, "PASS", ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--out")
    parser.add_argument("--filter", default="")
    parser.add_argument("--node-only", action="store_true", help="only the node tests")
    parser.add_argument("-j", type=int, default=os.cpu_count())
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-5)
    parser.add_argument("--fuse-compile", default=os.path.join(ROOT, "build", "bin", "fuse-compile"))
    parser.add_argument("--fuse-translate", default=os.path.join(ROOT, "build", "bin", "fuse-translate"))
    parser.add_argument("--gpu-target", metavar="TARGET",
                        help="also compile every test as a GPU library for TARGET (onnx-run.py "
                             "--gpu-compile): a test that runs on the CPU but does not lower for the "
                             "GPU is an ERROR")
    args = parser.parse_args()
    if not os.path.isdir(DATA):
        sys.exit(f"onnx-conformance: {DATA} not found (Debian package libonnx-testdata)")

    claimed = set(subprocess.run([args.fuse_translate, "--onnx-list-ops"], capture_output=True,
                                 text=True, check=True).stdout.split())
    tests = {}  # name -> (suite, ops)
    for suite in ("node",) + (MODEL_SUITES if not args.node_only else ()):
        for path in sorted(glob.glob(os.path.join(TESTDATA, suite, "*", "model.onnx"))):
            name = os.path.basename(os.path.dirname(path))
            if args.filter and not re.search(args.filter, name):
                continue
            try:
                model = onnx.load(path)
            except Exception:  # a test model that onnx cannot load is not ours to judge
                continue
            ops = ops_of(model)
            if suite != "node" or (ops and all(op in claimed for op in ops)):
                assert name not in tests, f"two tests named {name}"
                tests[name] = (suite, ops)

    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
        for name, status, reason in pool.map(lambda n: run_test(args, n, tests[n][0]), tests):
            results[name] = (status, reason)
            print(f"{status:5} {name}{': ' + reason if reason else ''}", flush=True)

    unexpected = []
    for name, (status, reason) in sorted(results.items()):
        if status in ("FAIL", "ERROR") and name not in KNOWN:
            unexpected.append(f"{name}: {status}: {reason}")
        if status == "PASS" and name in KNOWN:
            unexpected.append(f"{name}: passes now; remove it from KNOWN")

    counts = {s: sum(1 for st, _ in results.values() if st == s) for s in ("PASS", "FAIL", "ERROR", "SKIP")}
    if args.out:
        write_table(args, claimed, tests, results)
    for line in unexpected:
        print("UNEXPECTED " + line)
    nodes = sum(1 for n in results if tests[n][0] == "node")
    models = [n for n in results if tests[n][0] != "node"]
    if models:
        float32 = [n for n in models if is_float32(tests[n][0], n)]
        typed = [n for n in models if n not in float32 and results[n][0] != "SKIP"]
        print(f"model tests: {sum(results[n][0] == 'PASS' for n in float32)} of {len(float32)} float32 "
              f"models pass, {sum(results[n][0] == 'PASS' for n in typed)} of {len(typed)} with integer or "
              f"boolean data ({len(models) - len(float32) - len(typed)} skipped)")
    print(f"onnx conformance: {nodes} node tests of claimed ops and {len(models)} model tests: {counts['PASS']} passed, "
          f"{counts['FAIL']} failed, {counts['ERROR']} errors, {counts['SKIP']} skipped "
          f"(data of other types); {len(unexpected)} unexpected")
    return 1 if args.check and unexpected else 0


def is_float32(suite, name):
    """Whether every tensor of the test's data is float32."""
    return data_types(os.path.join(TESTDATA, suite, name)) == {np.dtype(np.float32)}


def write_table(args, claimed, tests, results):
    node_tests = {n: ops for n, (suite, ops) in tests.items() if suite == "node"}
    per_op = {op: {"PASS": [], "FAIL": [], "ERROR": [], "SKIP": []} for op in claimed}
    for name, ops in node_tests.items():
        status, _ = results[name]
        for op in ops:
            per_op[op][status].append(name)
    lines = [
        "# ONNX conformance",
        "",
        "Generated by `make onnx-conformance` (scripts/onnx-conformance.py) on "
        f"{datetime.date.today().isoformat()}. Each test is imported, fused for an H200, run on the "
        f"CPU and compared with the expected outputs (rtol {args.rtol:g}, atol {args.atol:g}; "
        "`scripts/onnx-run.py`). Run-time values are float32, int64, int32 or bool; SKIP: the "
        "test's data has another type (float16, double, uint8, strings, sequences). A graph input "
        "that carries a shape, axes, sizes or a count (Reshape's shape, Slice's starts, ...: "
        "`SHAPE_SLOTS` in the script) is bound to its test data at compile time "
        "(`fuse-compile --onnx-bind`), since the output's shape depends on it.",
        "",
        "## Backend node tests",
        "",
        "Every node test of Debian's libonnx-testdata whose ops the importer claims "
        "(`fuse-translate --onnx-list-ops`). A test counts for every op it contains (the "
        "`_expanded` tests spell an op with others).",
        "",
        "| op | tests | pass | fail | error | skip |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for op in sorted(per_op):
        r = per_op[op]
        total = sum(len(v) for v in r.values())
        lines.append(f"| {op} | {total} | {len(r['PASS'])} | {len(r['FAIL'])} | {len(r['ERROR'])} | "
                     f"{len(r['SKIP'])} |")
    lines += ["", "### Node tests that do not pass, and why", ""]
    for name in sorted(node_tests):
        status, reason = results[name]
        if status in ("FAIL", "ERROR"):
            why = KNOWN.get(name, reason)
            lines.append(f"- `{name}` ({', '.join(node_tests[name])}): {status}: {why}")
    lines += ["", "### Node tests skipped (data of other types)", ""]
    skipped = sorted(n for n in node_tests if results[n][0] == "SKIP")
    lines.append(", ".join(f"`{n}`" for n in skipped) if skipped else "none")

    model_tests = {n: v for n, v in tests.items() if v[0] != "node"}
    if model_tests:
        lines += ["", "## Model tests", "",
                  "Every model of Debian's libonnx-testdata directories "
                  f"{', '.join(f'`{m}`' for m in MODEL_SUITES)}, whatever its ops.", "",
                  "| directory | models | float32 | float32 pass | integer or bool data | pass | fail | error |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|"]
        def row(label, names):
            st = [results[n][0] for n in names]
            f32 = [n for n in names if is_float32(model_tests[n][0], n)]
            typed = [n for n in names if n not in f32 and results[n][0] != "SKIP"]
            return (f"| {label} | {len(names)} | {len(f32)} | {sum(results[n][0] == 'PASS' for n in f32)} | "
                    f"{len(typed)} | {st.count('PASS')} | {st.count('FAIL')} | {st.count('ERROR')} |")
        for suite in MODEL_SUITES:
            lines.append(row(suite, [n for n, (su, _) in model_tests.items() if su == suite]))
        lines.append(row("all", list(model_tests)))
        lines += ["", "### Model tests that do not pass, and why", ""]
        for name in sorted(model_tests):
            status, reason = results[name]
            if status in ("FAIL", "ERROR"):
                suite, ops = model_tests[name]
                lines.append(f"- `{suite}/{name}` ({', '.join(ops)}): {status}: {KNOWN.get(name, reason)}")
        lines += ["", "### Model tests skipped (data of other types)", ""]
        skipped = sorted(f"{model_tests[n][0]}/{n}" for n in model_tests if results[n][0] == "SKIP")
        lines.append(", ".join(f"`{n}`" for n in skipped) if skipped else "none")
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")

if __name__ == "__main__":
    sys.exit(main())
