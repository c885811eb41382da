#!/usr/bin/python3
"""Every kernel of every model of the corpus through ptxas, for each chip given.

usage: ptxas-corpus.py [--nvptx OPTIONS] FUSE_BIN_DIR SRC_ROOT OUT_DIR CHIP...

Each model block of test/Models and each small ONNX model of
test/Models/onnx is fused for the H200 and compiled with fuse-to-nvptx for
each chip (with --nvptx, these fuse-to-nvptx options too: tensor-cores=always
puts every contraction the mma_sync schedule computes on the tensor cores);
scripts/ptx-stats.py runs ptxas on every kernel and fails on a spill. Prints
one line per model and chip: kernels, most registers, spills, and the
kernels with mma.sync.
"""
import glob
import json
import os
import subprocess
import sys


def run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        sys.exit(f"ptxas-corpus: {' '.join(cmd)} failed:\n{proc.stderr}{proc.stdout}")
    return proc.stdout


def main():
    argv = sys.argv[1:]
    nvptx = ""
    if argv[:1] == ["--nvptx"]:
        nvptx, argv = argv[1], argv[2:]
    bindir, root, out, *chips = argv
    os.makedirs(out, exist_ok=True)
    opt = os.path.join(bindir, "fuse-opt")
    translate = os.path.join(bindir, "fuse-translate")
    models = sorted(glob.glob(os.path.join(root, "test", "Models", "*.mlir")))
    onnx = sorted(m for m in glob.glob(os.path.join(root, "test", "Models", "onnx", "*.onnx"))
                  if not m.endswith("-bn.onnx"))
    for path in models + onnx:
        name = os.path.splitext(os.path.basename(path))[0]
        fused = os.path.join(out, name + ".fused.mlir")
        source = path
        if path.endswith(".onnx"):
            source = os.path.join(out, name + ".mlir")
            run([translate, "--import-onnx", path, "-o", source])
        run([opt, source, "--fuse-fusion-pipeline=target=h200", "-o", fused])
        for chip in chips:
            gpu = os.path.join(out, f"{name}.{chip}.mlir")
            run([opt, fused, f"--fuse-to-nvptx=chip={chip} {nvptx}".strip(), "-o", gpu])
            stats = os.path.join(out, f"{name}.{chip}.json")
            # ptx-stats exits non-zero on a spill.
            run(["/usr/bin/python3", os.path.join(root, "scripts", "ptx-stats.py"), gpu,
                 "--out", os.path.join(out, f"{name}.{chip}.ptx"), "--json", stats])
            kernels = json.load(open(stats))
            spills = sum(k.get("spill_stores", 0) + k.get("spill_loads", 0) for k in kernels)
            regs = max(k.get("registers", 0) for k in kernels)
            mma = sum("mma.sync" in open(k["ptx"]).read() for k in kernels)
            print(f"{name} {chip}: {len(kernels)} kernels, at most {regs} registers, {spills} spill bytes, "
                  f"{mma} with mma.sync")


if __name__ == "__main__":
    main()
