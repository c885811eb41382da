"""The fuse Python package on the bundled models: compile, load, run,
compare with PyTorch's outputs; errors raise FuseError with the message."""
import os
import sys

import numpy as np

import fuse

models = sys.argv[1]
workdir = sys.argv[2]
for name, source in [("resnet_tiny", "resnet_tiny.onnx"), ("bert_tiny", "bert_tiny.onnx"),
                     ("yolo_tiny", "yolo_tiny-bn.onnx"), ("inception_block", "inception_block.onnx")]:
    ref = np.load(os.path.join(models, name + ".npz"))
    model = fuse.compile(os.path.join(models, source), target="cpu")
    assert model.report and model.report["functions"], "no fusion report"
    feeds = {info.name: ref[f"input_{k}"] for k, info in enumerate(model.inputs)}
    outputs = model.run(feeds)
    worst = 0.0
    for k, info in enumerate(model.outputs):
        expected = ref[f"output_{k}"]
        assert outputs[info.name].shape == expected.shape
        worst = max(worst, float(np.abs(outputs[info.name] - expected).max() / np.abs(expected).max()))
    print(f"{name}: {len(model.inputs)} inputs, {len(model.outputs)} outputs, max rel err {worst:.2e}:",
          "PASS" if worst < 1e-4 else "FAIL")

# A library written to a path, loaded again; positional and keyword calls.
path = os.path.join(workdir, "resnet.so")
fuse.compile(os.path.join(models, "resnet_tiny.onnx"), output=path)
model = fuse.load(path)
ref = np.load(os.path.join(models, "resnet_tiny.npz"))
a = model(ref["input_0"])
b = model(input=ref["input_0"].astype(np.float64))  # converted to f32
assert np.array_equal(a, b)
print("load:", model.target, model.inputs, model.outputs, model.workspace_size > 0)
# Threads: the same bits for any count.
one = model.run({"input": ref["input_0"]}, threads=1)["output"]
three = model.run({"input": ref["input_0"]}, threads=3)["output"]
print("threads:", model.parallel, np.array_equal(one, three), np.array_equal(one, a))

for call in [lambda: model(np.zeros((1, 3, 8, 8), np.float32)),
             lambda: model.run({"image": ref["input_0"]}),
             lambda: model.run({}),
             lambda: model(ref["input_0"], ref["input_0"]),
             lambda: model.run({"input": ref["input_0"]}, threads=0),
             lambda: fuse.load(os.path.join(workdir, "missing.so")),
             lambda: fuse.load(os.path.join(models, "resnet_tiny.npz")),
             lambda: fuse.compile(os.path.join(models, "resnet_tiny.npz"))]:
    try:
        call()
        print("error: none raised")
    except fuse.FuseError as e:
        print("error:", str(e).splitlines()[-1])

# bfloat16 as bits and back: rounded to nearest, ties to even (1 + 2^-8 and
# 1 + 3 * 2^-8 are ties), infinities kept, a NaN whose payload would round
# to infinity stays a NaN of its sign.
x = np.array([1.0, 1.00390625, 1.01171875, -2.5, np.inf, 3.0e38,
              np.uint32(0x7F800001).view(np.float32), np.uint32(0xFF800001).view(np.float32)],
             dtype=np.float32)
bits = fuse.bfloat16_bits(x)
print("bf16 bits:", " ".join(f"{v:04x}" for v in bits), bits.dtype, bits.shape)
print("bf16 values:", fuse.bfloat16_values(bits).tolist())
