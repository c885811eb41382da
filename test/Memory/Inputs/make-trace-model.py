"""Writes the small ONNX model network-traces.test traces: y = relu(x) +
relu(x) * w, with a Constant node besides; --symbolic gives x a symbolic
batch dimension."""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

symbolic = "--symbolic" in sys.argv
batch = "batch" if symbolic else 1
w = numpy_helper.from_array(np.ones((1, 8), np.float32), "w")
nodes = [
    helper.make_node("Relu", ["x"], ["a"]),
    helper.make_node("Mul", ["a", "w"], ["b"]),
    helper.make_node("Add", ["a", "b"], ["y"]),
    helper.make_node("Constant", [], ["unused"], value=numpy_helper.from_array(np.zeros(4, np.float32))),
]
graph = helper.make_graph(nodes, "trace", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, 8])], [w])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
with open(sys.argv[1], "wb") as f:
    f.write(model.SerializeToString())
