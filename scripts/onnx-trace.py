#!/usr/bin/python3
"""Writes the buffer-lifetime trace of an ONNX model in its node order: one
row per activation (a graph input or a tensor a node produces; initializers
and Constant nodes are weights and are left out), alive from the step of
the node that produces it (0 for a graph input) to the step of its last
reader (the last step for a graph output), its size the bytes of its
inferred shape (ONNX's shape inference with data propagation). The trace is the CSV fuse-plan-memory reads (header
`start,end,size`), the form of the published traces in ../shared/memtraces.

usage: onnx-trace.py MODEL.onnx OUT.csv [--batch N]

A tensor whose shape or element type shape inference cannot give is an
error naming it; a symbolic dimension is an error unless --batch sets the
value every symbolic dimension takes.
"""
import argparse
import sys

import onnx
from onnx import TensorProto, shape_inference

# Bytes per element of each ONNX element type a trace can hold.
ELEMENT_BYTES = {
    TensorProto.FLOAT: 4, TensorProto.DOUBLE: 8, TensorProto.FLOAT16: 2, TensorProto.BFLOAT16: 2,
    TensorProto.INT8: 1, TensorProto.UINT8: 1, TensorProto.INT16: 2, TensorProto.UINT16: 2,
    TensorProto.INT32: 4, TensorProto.UINT32: 4, TensorProto.INT64: 8, TensorProto.UINT64: 8,
    TensorProto.BOOL: 1,
}


def tensor_bytes(value_info, batch):
    """The bytes of a value_info's tensor, or raises ValueError naming it."""
    kind = value_info.type.WhichOneof("value")
    if kind != "tensor_type":
        raise ValueError("'%s' is not a tensor (%s)" % (value_info.name, kind))
    tensor = value_info.type.tensor_type
    if tensor.elem_type not in ELEMENT_BYTES:
        raise ValueError("'%s' has element type %s, which a trace cannot size"
                         % (value_info.name, TensorProto.DataType.Name(tensor.elem_type)))
    if not tensor.HasField("shape"):
        raise ValueError("shape inference gives no shape for '%s'" % value_info.name)
    count = 1
    for dim in tensor.shape.dim:
        if dim.HasField("dim_value"):
            count *= dim.dim_value
        elif batch is not None:
            count *= batch
        else:
            raise ValueError("'%s' has the symbolic dimension '%s' (give --batch)" % (value_info.name, dim.dim_param))
    return count * ELEMENT_BYTES[tensor.elem_type]


def trace(model, batch=None):
    """The rows (start, end, size) of `model`'s activations in node order."""
    graph = model.graph
    weights = {init.name for init in graph.initializer}
    infos = {}
    for value_info in list(graph.input) + list(graph.value_info) + list(graph.output):
        infos[value_info.name] = value_info
    last_step = max(len(graph.node) - 1, 0)
    start, end = {}, {}
    for value_info in graph.input:
        if value_info.name not in weights:
            start[value_info.name] = end[value_info.name] = 0
    for step, node in enumerate(graph.node):
        for name in node.input:
            if name in start:
                end[name] = max(end[name], step)
        if node.op_type == "Constant":
            weights.update(node.output)
            continue
        for name in node.output:
            if name:
                start[name] = end[name] = step
    for value_info in graph.output:
        if value_info.name in start:
            end[value_info.name] = last_step
    rows = []
    for name in start:
        if name not in infos:
            raise ValueError("shape inference gives no type for '%s'" % name)
        rows.append((start[name], end[name], tensor_bytes(infos[name], batch)))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("out")
    parser.add_argument("--batch", type=int, help="the value of every symbolic dimension")
    args = parser.parse_args()
    try:
        model = onnx.load(args.model)
        model = shape_inference.infer_shapes(model, data_prop=True)
        rows = trace(model, args.batch)
    except (ValueError, onnx.onnx_cpp2py_export.shape_inference.InferenceError) as error:
        print("onnx-trace: %s: %s" % (args.model, error), file=sys.stderr)
        return 1
    except Exception as error:  # a file that is not a model
        print("onnx-trace: %s: cannot read the model: %s" % (args.model, error), file=sys.stderr)
        return 1
    with open(args.out, "w") as f:
        f.write("start,end,size\n")
        for row in rows:
            f.write("%d,%d,%d\n" % row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
