#!/usr/bin/python3
"""Writes an ONNX model whose graph is a chain of N unary nodes (Relu,
Sigmoid, Neg, Abs, repeating) on a 4-element input: the stress input for
"no input-controlled recursion" (make stress).

usage: chain.py N OUT.onnx
"""
import sys

from onnx import TensorProto, helper


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    ops = ["Relu", "Sigmoid", "Neg", "Abs"]
    nodes, prev = [], "x"
    for i in range(n):
        name = f"v{i}" if i < n - 1 else "y"
        nodes.append(helper.make_node(ops[i % 4], [prev], [name]))
        prev = name
    graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    with open(out, "wb") as f:
        f.write(model.SerializeToString())


if __name__ == "__main__":
    main()
