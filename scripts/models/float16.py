#!/usr/bin/python3
"""Converts a float32 ONNX model to float16 (or bfloat16), as deployment tools
do before shipping a half-precision network.

Every FLOAT initializer, Constant and ConstantOfShape value, graph input,
graph output and value_info becomes FLOAT16 (BFLOAT16 with --bfloat16), and
each Cast to FLOAT casts to it instead. The inputs ONNX defines as float32
only (Resize's and Upsample's scales) stay float32. Values past the 16-bit
range become infinities, as a half-precision export's would; the script
names how many did.

usage: float16.py MODEL.onnx OUT.onnx [--bfloat16]
Needs Debian's python3-onnx and python3-numpy (/usr/bin/python3).
"""
import argparse
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

# (op type, input index) of the inputs that stay float32.
FLOAT32_ONLY = {("Resize", 2), ("Upsample", 1)}


def to_bfloat16_bits(a):
    """Float32 values rounded to nearest even bfloat16, as uint16 bits."""
    bits = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    nan = np.isnan(a)
    rounded[nan] = 0x7FC0
    return rounded.astype(np.uint16)


def convert_tensor(t, target, overflow):
    """A FLOAT TensorProto as `target` (FLOAT16 or BFLOAT16)."""
    a = numpy_helper.to_array(t).astype(np.float32)
    finite = np.isfinite(a)
    if target == TensorProto.FLOAT16:
        out = numpy_helper.from_array(a.astype(np.float16), t.name)
        overflow[0] += int(np.count_nonzero(finite & ~np.isfinite(a.astype(np.float16))))
        return out
    out = TensorProto()
    out.name = t.name
    out.data_type = TensorProto.BFLOAT16
    out.dims.extend(a.shape)
    out.raw_data = to_bfloat16_bits(a.reshape(-1)).tobytes()
    return out


def convert(model, target):
    graph = model.graph
    overflow = [0]
    keep = set()
    for node in graph.node:
        for k, name in enumerate(node.input):
            if (node.op_type, k) in FLOAT32_ONLY and name:
                keep.add(name)
    for k, t in enumerate(graph.initializer):
        if t.data_type == TensorProto.FLOAT and t.name not in keep:
            graph.initializer[k].CopyFrom(convert_tensor(t, target, overflow))
    for node in graph.node:
        for a in node.attribute:
            if node.op_type in ("Constant", "ConstantOfShape") and a.name == "value" \
                    and a.t.data_type == TensorProto.FLOAT and node.output[0] not in keep:
                a.t.CopyFrom(convert_tensor(a.t, target, overflow))
            elif node.op_type == "Constant" and a.name in ("value_float", "value_floats") \
                    and node.output[0] not in keep:
                values = [a.f] if a.name == "value_float" else list(a.floats)
                shape = [] if a.name == "value_float" else [len(values)]
                t = numpy_helper.from_array(np.array(values, dtype=np.float32).reshape(shape))
                a.CopyFrom(helper.make_attribute("value", convert_tensor(t, target, overflow)))
            elif node.op_type == "Cast" and a.name == "to" and a.i == TensorProto.FLOAT:
                a.i = target
    for v in list(graph.input) + list(graph.output) + list(graph.value_info):
        tt = v.type.tensor_type
        if tt.elem_type == TensorProto.FLOAT and v.name not in keep:
            tt.elem_type = target
    return overflow[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("out")
    parser.add_argument("--bfloat16", action="store_true", help="convert to BFLOAT16, not FLOAT16")
    args = parser.parse_args()
    model = onnx.load(args.model)
    target = TensorProto.BFLOAT16 if args.bfloat16 else TensorProto.FLOAT16
    overflow = convert(model, target)
    onnx.checker.check_model(model)
    onnx.save(model, args.out)
    if overflow:
        print(f"{args.model}: {overflow} values past the 16-bit range became infinities", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
