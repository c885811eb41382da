#!/usr/bin/python3
"""End to end over the model corpus: for each exported model (both
variants, and a FLOAT16 conversion of some: scripts/models/float16.py,
compared at rtol 1e-2), import -> fuse -> CPU -> compare with PyTorch's saved output
(scripts/onnx-run.py), then the same model compiled to a GPU library
(fuse-compile --target=h200: kernels through ptxas to cubin; not run
without a GPU), and one line per model:

  | model | nodes | kernels | MB fused / unfused | max rel err | result | gpu library | seconds |

Exports missing models first (scripts/models/export.py). Exit 1 when any
model does not match.

usage: e2e.py [--dir build/models] [--only NAME,...] [--rtol 1e-4] [--out FILE] [--no-gpu]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = ["inception_block", "yolo_tiny", "bert_tiny", "text_encoder_tiny", "mobilenet_v2", "googlenet",
          "yolo", "resnet50", "bert_base", "bert_base_op17", "text_encoder", "resnext50", "mobilenet_v3",
          "vit_b_16", "deeplabv3"]
# Models also run as FLOAT16 (converted from the float32 export, compared
# with its float32 reference at HALF_RTOL): a half-precision deployment.
HALF_MODELS = ["bert_tiny", "mobilenet_v2", "resnet50", "bert_base", "vit_b_16"]
HALF_RTOL, HALF_ATOL = 1e-2, 1e-3


def half_model(directory, name):
    """The FLOAT16 conversion of `name`'s export (made when missing or older)."""
    source = os.path.join(directory, name + ".onnx")
    path = os.path.join(directory, name + "-fp16.onnx")
    if not os.path.exists(path) or os.path.getmtime(path) < os.path.getmtime(source):
        subprocess.run([sys.executable, os.path.join(HERE, "float16.py"), source, path], check=True)
    return path


def gpu_library(path):
    """('cubin', the fusion report's totals) where fuse-compile builds the
    model's GPU library, else (its first error line, None)."""
    out = os.path.join(os.path.dirname(path), "e2e-gpu.so")
    report = os.path.join(os.path.dirname(path), "e2e-report.json")
    proc = subprocess.run([os.path.join(ROOT, "build", "bin", "fuse-compile"), path, "--target=h200",
                           "-o", out, "--report=" + report], capture_output=True, text=True)
    totals = None
    if os.path.exists(report):
        with open(report) as f:
            totals = json.load(f).get("totals")
        os.remove(report)
    if os.path.exists(out):
        os.remove(out)
    if proc.returncode == 0:
        return "cubin", totals
    errors = [l for l in proc.stderr.splitlines() if "error" in l] or proc.stderr.splitlines() or ["?"]
    return "ERROR: " + errors[0][-100:].replace("|", "/"), None


def megabytes(totals):
    """Bytes between kernels, fused / unfused, from the report's totals."""
    if not totals:
        return "–"
    return f"{totals['bytes_after'] / 1e6:.1f} / {totals['bytes_before'] / 1e6:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=os.path.join(ROOT, "build", "models"))
    parser.add_argument("--only", default="")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--out", help="also write the table here")
    parser.add_argument("--no-gpu", action="store_true", help="skip the GPU library")
    parser.add_argument("--update", action="store_true",
                        help="keep the rows of models not run from the --out file")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else MODELS
    missing = [n for n in names if not os.path.exists(os.path.join(args.dir, n + ".npz"))]
    if missing:
        subprocess.run([sys.executable, os.path.join(HERE, "export.py"), "--out", args.dir,
                        "--only", ",".join(missing)], check=True)
    rows = ["| model | nodes | kernels | MB fused / unfused | max rel err | result | gpu library | seconds |",
            "|---|---:|---:|---:|---:|---|---|---:|"]
    print("\n".join(rows), flush=True)
    failed = 0
    for name in names:
        for suffix in ["", "-bn"] + (["-fp16"] if name in HALF_MODELS else []):
            half = suffix == "-fp16"
            path = half_model(args.dir, name) if half else os.path.join(args.dir, name + suffix + ".onnx")
            if not os.path.exists(path):
                continue
            start = time.time()
            tolerances = ["--rtol", str(max(args.rtol, HALF_RTOL)), "--atol", str(HALF_ATOL)] if half \
                else ["--rtol", str(args.rtol)]
            proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "onnx-run.py"), path,
                                   "--npz", os.path.join(args.dir, name + ".npz")] + tolerances,
                                  capture_output=True, text=True)
            seconds = time.time() - start
            gpu, totals = ("–", None) if args.no_gpu else gpu_library(path)
            failed += gpu.startswith("ERROR")
            last = (proc.stdout.strip().splitlines() or ["?"])[-1]
            m = re.search(r"nodes (\d+), kernels (\d+), max rel err (\S+): (PASS|FAIL)", last)
            if m:
                row = (f"| {name + suffix} | {m.group(1)} | {m.group(2)} | {megabytes(totals)} | {m.group(3)} "
                       f"| {m.group(4)} | {gpu} | {seconds:.1f} |")
                failed += m.group(4) != "PASS"
            else:
                row = f"| {name + suffix} | | | {megabytes(totals)} | | ERROR: {last[:120]} | {gpu} | {seconds:.1f} |"
                failed += 1
            rows.append(row)
            print(row, flush=True)
    if args.out:
        body = rows[2:]
        if args.update and os.path.exists(args.out):
            measured = {r.split("|")[1].strip() for r in body}
            kept = [l for l in open(args.out).read().splitlines()
                    if l.startswith("| ") and not l.startswith("| model")
                    and l.split("|")[1].strip() not in measured]
            order = {}
            for i, n in enumerate(MODELS):
                order[n], order[n + "-bn"], order[n + "-fp16"] = 3 * i, 3 * i + 1, 3 * i + 2
            body = sorted(kept + body, key=lambda r: order.get(r.split("|")[1].strip(), 99))
        with open(args.out, "w") as f:
            f.write("# End to end against PyTorch\n\n"
                    "`make e2e` (`scripts/models/e2e.py`): each model of the corpus, both export variants, "
                    "imported, fused for an H200, run on the CPU and compared with PyTorch's output "
                    f"(rtol {args.rtol:g} against the output's scale; see [Onnx.md](../Onnx.md); a `-fp16` row "
                    f"is the model converted to FLOAT16 by `scripts/models/float16.py`, compared with the float32 "
                    f"reference at rtol {HALF_RTOL:g}, atol {HALF_ATOL:g}), then "
                    "compiled to a GPU library (`fuse-compile --target=h200`: every kernel through ptxas "
                    "to a cubin; `cubin` where that succeeds; not run here, no GPU). MB: bytes read and written in "
                    "global memory between kernels, fused and unfused, from that compile's fusion report "
                    "(`totals`, batch of the export, in the model's element type). "
                    "Seconds: the whole `onnx-run.py` (`fuse-compile` to a CPU library, then one run through the runtime). `--update` reruns some models and keeps the other rows.\n\n"
                    + "\n".join(rows[:2] + body) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
