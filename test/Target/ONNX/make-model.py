#!/usr/bin/python3
"""Writes the small ONNX models the importer's lit tests read.

usage: make-model.py NAME OUT.onnx

Models with a numpy reference also write OUT.npz (input_K, output_K) for
scripts/onnx-run.py. Deterministic: fixed seeds.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(7)


def rand(*shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, size=shape).astype(np.float32)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def vi(name, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def model(nodes, inputs, outputs, inits=(), opset=13, name="test_graph"):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def conv_bn_relu():
    """Conv -> BN -> Relu -> Conv -> Add(residual) -> Relu: NHWC throughout."""
    w1, w2 = rand(8, 4, 3, 3, lo=-0.3, hi=0.3), rand(8, 8, 1, 1, lo=-0.3, hi=0.3)
    bn = [rand(8, lo=0.5, hi=1.5), rand(8), rand(8, lo=-0.2, hi=0.2), rand(8, lo=0.5, hi=1.5)]
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c1", "g", "b", "m", "v"], ["n1"], name="bn1",
                         epsilon=1e-5),
        helper.make_node("Relu", ["n1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2"], ["c2"], name="conv2"),
        helper.make_node("Add", ["c2", "r1"], ["s"], name="add"),
        helper.make_node("Relu", ["s"], ["y"], name="relu2"),
    ]
    inits = [init("w1", w1), init("w2", w2)] + [init(n, a) for n, a in zip("gbmv", bn)]
    return model(nodes, [vi("x", [1, 4, 8, 8])], [vi("y", [1, 8, 8, 8])], inits), None


def unsupported():
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="ok"),
        helper.make_node("TopK", ["a", "k"], ["v", "i"], name="topk0"),
        helper.make_node("Foo", ["v"], ["f"], name="foo0", domain="com.example"),
        helper.make_node("NonZero", ["a"], ["n1"], name="nz0"),
        helper.make_node("NonZero", ["f"], ["y"], name="nz1"),
    ]
    return model(nodes, [vi("x", [4])], [vi("y", [1, 4], TensorProto.INT64)],
                 [init("k", np.array([2], dtype=np.int64))]), None


def matmul_mismatch():
    nodes = [helper.make_node("MatMul", ["x", "w"], ["y"], name="proj")]
    return model(nodes, [vi("x", [2, 3])], [vi("y", [2, 5])], [init("w", rand(4, 5))]), None


def shape_fold():
    """Shape -> Gather -> Unsqueeze -> Concat -> Reshape, all at import time."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
        helper.make_node("Unsqueeze", ["n", "axes"], ["n1"]),
        helper.make_node("Concat", ["n1", "minus1"], ["shape"], axis=0),
        helper.make_node("Reshape", ["x", "shape"], ["y"], name="flatten"),
    ]
    inits = [init("zero", np.array(0, dtype=np.int64)), init("axes", np.array([0], dtype=np.int64)),
             init("minus1", np.array([-1], dtype=np.int64))]
    x = rand(2, 3, 4, 4)
    return (model(nodes, [vi("x", [2, 3, 4, 4])], [vi("y", [2, 48])], inits),
            ([x], [x.reshape(2, 48)]))


def gemm_gelu_layernorm():
    """Gemm, erf-GELU spelt out, LayerNormalization (opset 17), Softmax."""
    w, c = rand(16, 32, lo=-0.3, hi=0.3), rand(32)
    g, b = rand(32, lo=0.5, hi=1.5), rand(32)
    nodes = [
        helper.make_node("Gemm", ["x", "w", "c"], ["h"], name="fc"),
        helper.make_node("Div", ["h", "sqrt2"], ["h1"]),
        helper.make_node("Erf", ["h1"], ["h2"]),
        helper.make_node("Add", ["h2", "one"], ["h3"]),
        helper.make_node("Mul", ["h", "h3"], ["h4"]),
        helper.make_node("Mul", ["h4", "half"], ["gelu"]),
        helper.make_node("LayerNormalization", ["gelu", "g", "b"], ["ln"], axis=-1, epsilon=1e-5),
        helper.make_node("Softmax", ["ln"], ["y"], axis=-1),
    ]
    inits = [init("w", w), init("c", c), init("g", g), init("b", b),
             init("sqrt2", np.array(np.sqrt(2.0), dtype=np.float32)),
             init("one", np.array(1.0, dtype=np.float32)), init("half", np.array(0.5, dtype=np.float32))]
    x = rand(8, 16)
    from math import erf
    h = x @ w + c
    gelu = 0.5 * h * (1.0 + np.vectorize(erf)(h / np.sqrt(2.0)))
    mu = gelu.mean(-1, keepdims=True)
    var = ((gelu - mu) ** 2).mean(-1, keepdims=True)
    ln = (gelu - mu) / np.sqrt(var + 1e-5) * g + b
    e = np.exp(ln - ln.max(-1, keepdims=True))
    y = (e / e.sum(-1, keepdims=True)).astype(np.float32)
    return (model(nodes, [vi("x", [8, 16])], [vi("y", [8, 32])], inits, opset=17),
            ([x], [y]))


def resize_flatten():
    """Conv -> nearest Resize x2 (one tosa.resize) and x3 (reshape + tile),
    then a detection head's reshape to [N, C, H*W] of NHWC values,
    concatenated."""
    w = rand(4, 3, 1, 1)
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"]),
        helper.make_node("Resize", ["c", "", "s2"], ["u2"], mode="nearest",
                         coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
        helper.make_node("Resize", ["c", "", "s3"], ["u3"], mode="nearest",
                         coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
        helper.make_node("Reshape", ["u2", "shape"], ["f2"]),
        helper.make_node("Reshape", ["u3", "shape"], ["f3"]),
        helper.make_node("Concat", ["f2", "f3"], ["y"], axis=2),
    ]
    inits = [init("w", w), init("s2", np.array([1, 1, 2, 2], dtype=np.float32)),
             init("s3", np.array([1, 1, 3, 3], dtype=np.float32)),
             init("shape", np.array([1, 4, -1], dtype=np.int64))]
    x = rand(1, 3, 2, 3)
    c = np.einsum("nchw,oc->nohw", x, w[:, :, 0, 0])
    up = lambda t, f: t.repeat(f, axis=2).repeat(f, axis=3)
    y = np.concatenate([up(c, 2).reshape(1, 4, -1), up(c, 3).reshape(1, 4, -1)], axis=2)
    return (model(nodes, [vi("x", [1, 3, 2, 3])], [vi("y", [1, 4, 24 + 54])], inits), ([x], [y]))


def symbolic():
    nodes = [helper.make_node("Relu", ["x"], ["y"])]
    return model(nodes, [vi("x", ["N", 3, "S"])], [vi("y", ["N", 3, "S"])]), None


def bad_attr():
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="conv", strides=[1.5, 1.5])]
    return model(nodes, [vi("x", [1, 1, 4, 4])], [vi("y", [1, 1, 4, 4])],
                 [init("w", rand(1, 1, 1, 1))]), None


def opset99():
    nodes = [helper.make_node("Relu", ["x"], ["y"])]
    return model(nodes, [vi("x", [4])], [vi("y", [4])], opset=99), None


def names():
    nodes = [helper.make_node("Add", ["input.1", "mask"], ["logits:0"])]
    return model(nodes, [vi("input.1", [2, 4]), vi("mask", [1, 4])], [vi("logits:0", [2, 4])]), None


def bad_weights():
    """An initializer whose raw data is shorter than its shape says."""
    t = init("w", rand(4, 4))
    t.raw_data = t.raw_data[:20]
    nodes = [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")]
    return model(nodes, [vi("x", [2, 4])], [vi("y", [2, 4])], [t]), None


def external(location, length=None):
    def build():
        w = rand(4, 4)
        t = init("w", w)
        t.ClearField("raw_data")
        t.data_location = TensorProto.EXTERNAL
        for k, v in [("location", location), ("offset", "16")] + (
                [("length", str(length))] if length is not None else []):
            e = t.external_data.add()
            e.key, e.value = k, v
        nodes = [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")]
        x = rand(2, 4)
        return model(nodes, [vi("x", [2, 4])], [vi("y", [2, 4])], [t]), ([x], [x @ w]), w
    return build


def batchnorm(opset, outputs=1, **attrs):
    """Conv -> BatchNormalization -> Relu, the BN with `outputs` outputs (only
    Y read) and the given attributes: the inference form, or one of the
    training forms the importer must refuse."""
    def build():
        w = rand(4, 3, 1, 1)
        bn = [rand(4, lo=0.5, hi=1.5), rand(4), rand(4, lo=-0.2, hi=0.2), rand(4, lo=0.5, hi=1.5)]
        outs = ["n"] + [f"stat{k}" for k in range(1, outputs)]
        nodes = [
            helper.make_node("Conv", ["x", "w"], ["c"], name="conv"),
            helper.make_node("BatchNormalization", ["c", "g", "b", "m", "v"], outs, name="bn", **attrs),
            helper.make_node("Relu", ["n"], ["y"], name="relu"),
        ]
        inits = [init("w", w)] + [init(n, a) for n, a in zip("gbmv", bn)]
        return model(nodes, [vi("x", [1, 3, 4, 4])], [vi("y", [1, 4, 4, 4])], inits, opset=opset), None
    return build


def dropout(opset, training=None, runtime=False, **attrs):
    """Relu -> Dropout -> Relu; from opset 12 `training` is the constant (or,
    with `runtime`, a graph input) training_mode input."""
    def build():
        ins = ["r"]
        inputs, inits = [vi("x", [2, 8])], []
        if training is not None or runtime:
            ins += ["", "t"]
            if runtime:
                inputs.append(vi("t", [], TensorProto.BOOL))
            else:
                inits.append(init("t", np.array(training, dtype=np.bool_)))
        nodes = [
            helper.make_node("Relu", ["x"], ["r"], name="relu1"),
            helper.make_node("Dropout", ins, ["d"], name="drop", **attrs),
            helper.make_node("Relu", ["d"], ["y"], name="relu2"),
        ]
        return model(nodes, inputs, [vi("y", [2, 8])], inits, opset=opset), None
    return build


def reshape_overflow():
    """A Reshape whose target dimensions multiply past 2^63 (valid for ONNX's
    checker, which does not infer shapes)."""
    nodes = [helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")]
    inits = [init("s", np.array([2**31, 2**31, 4], dtype=np.int64))]
    return model(nodes, [vi("x", [2, 2])], [vi("y", [4])], inits), None


def clip_inverted():
    """Clip with min above max (constant bounds): every element becomes max,
    as numpy's clip and ONNX define it."""
    x = rand(2, 3)
    nodes = [helper.make_node("Clip", ["x", "lo", "hi"], ["y"], name="clip")]
    inits = [init("lo", np.array(0.5, dtype=np.float32)), init("hi", np.array(-0.25, dtype=np.float32))]
    return (model(nodes, [vi("x", [2, 3])], [vi("y", [2, 3])], inits),
            ([x], [np.clip(x, np.float32(0.5), np.float32(-0.25))]))


def invalid(kind):
    """Models ONNX's checker refuses: a missing required attribute, an input
    too many, an unknown attribute, opset 0, no opset import, two graph
    inputs of one name."""
    def build():
        x = vi("x", [2, 2])
        opset = 13
        if kind == "concat_no_axis":
            nodes, ins, out = [helper.make_node("Concat", ["x", "x"], ["y"], name="cat")], [x], [4, 2]
        elif kind == "extra_input":
            nodes, ins, out = [helper.make_node("Relu", ["x", "x"], ["y"], name="relu")], [x], [2, 2]
        elif kind == "unknown_attr":
            nodes, ins, out = [helper.make_node("Relu", ["x"], ["y"], name="relu", alpha=1.0)], [x], [2, 2]
        elif kind == "duplicate_input":
            nodes, ins, out = [helper.make_node("Add", ["x", "x"], ["y"], name="add")], [x, vi("x", [2, 2])], [2, 2]
        else:
            nodes, ins, out = [helper.make_node("Relu", ["x"], ["y"], name="relu")], [x], [2, 2]
            opset = 0
        m = model(nodes, ins, [vi("y", out)], opset=opset)
        if kind == "no_opset":
            del m.opset_import[:]
        return m, None
    return build


def mistyped(kind):
    """Models ONNX's checker passes but its type rules refuse (or whose
    folding ONNX leaves undefined): an INT8 or BOOL initializer added to
    float data, float Gather indices, a float or 2-D Reshape shape, a vector
    Pad value, an integer division by zero or INT64_MIN / -1 at import time,
    a graph output declared with another shape or type than it has, an
    integer graph output."""
    def build():
        x = vi("x", [2, 2])
        nodes, inits, out = [], [], vi("y", [2, 2])
        if kind in ("add_int8", "add_bool"):
            dtype = np.int8 if kind == "add_int8" else np.bool_
            nodes = [helper.make_node("Add", ["x", "b"], ["y"], name="add")]
            inits = [init("b", np.ones((2, 2), dtype=dtype))]
        elif kind == "gather_float":
            nodes = [helper.make_node("Gather", ["x", "i"], ["y"], name="gather")]
            inits = [init("i", np.array([1.0, 0.0], dtype=np.float32))]
        elif kind in ("reshape_float", "reshape_2d"):
            shape = (np.array([4, 1], dtype=np.float32) if kind == "reshape_float"
                     else np.array([[4], [1]], dtype=np.int64))
            nodes = [helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")]
            inits, out = [init("s", shape)], vi("y", [4, 1])
        elif kind == "pad_vector":
            nodes = [helper.make_node("Pad", ["x", "p", "v"], ["y"], name="pad")]
            inits = [init("p", np.array([0, 0, 1, 1], dtype=np.int64)),
                     init("v", np.array([1.0, 2.0, 3.0], dtype=np.float32))]
            out = vi("y", [2, 4])
        elif kind in ("div_zero", "div_overflow"):
            a, c = (7, 0) if kind == "div_zero" else (-2**63, -1)
            nodes = [helper.make_node("Div", ["a", "c"], ["q"], name="div"),
                     helper.make_node("Reshape", ["x", "q"], ["y"], name="reshape")]
            inits = [init("a", np.array([a], dtype=np.int64)), init("c", np.array([c], dtype=np.int64))]
            out = vi("y", [4])
        elif kind in ("output_shape", "output_type"):
            nodes = [helper.make_node("Relu", ["x"], ["y"], name="relu")]
            out = vi("y", [2, 3]) if kind == "output_shape" else vi("y", [2, 2], TensorProto.INT64)
        elif kind == "input_initializer":
            nodes = [helper.make_node("Add", ["x", "b"], ["y"], name="add")]
            inits = [init("b", np.ones((2, 2), dtype=np.float32))]
            m = model(nodes, [x, vi("b", [2, 2])], [out], inits)
            return m, ([np.ones((2, 2), np.float32)], [np.full((2, 2), 2, np.float32)])
        elif kind == "output_int":
            nodes = [helper.make_node("Shape", ["x"], ["y"], name="shape")]
            out = vi("y", [2], TensorProto.INT64)
        return model(nodes, [x], [out], inits), None
    return build


def nested_ifs(depth=60):
    """A valid model whose If nests `depth` deep (then-branch in then-branch):
    it parses (protobuf's default limit of 100 levels refused it) and is
    refused as an unsupported op."""
    def leaf(d):
        return helper.make_graph([helper.make_node("Identity", ["x"], ["o%d" % d])], "l%d" % d, [],
                                 [vi("o%d" % d, [2])])
    def nest(d):
        if d == 0:
            return leaf(0)
        return helper.make_graph([helper.make_node("If", ["c"], ["o%d" % d], then_branch=nest(d - 1),
                                                   else_branch=leaf(d), name="if%d" % d)],
                                 "g%d" % d, [], [vi("o%d" % d, [2])])
    top = nest(depth)
    return model(list(top.node), [vi("x", [2]), vi("c", [], TensorProto.BOOL)], [vi("o%d" % depth, [2])]), None


def too_large(kind):
    """Tensors past the limits, named at import: a graph input of 2 GiB
    (TOSA's bound), a node output of 2 GiB, a ConstantOfShape fill of 2^40
    elements and one with a negative dimension."""
    def build():
        if kind == "input":
            x = vi("x", [1 << 29])
            return model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [x], [vi("y", [1 << 29])]), None
        if kind == "output":
            return model([helper.make_node("Reshape", ["x", "s"], ["r"], name="reshape"),
                          helper.make_node("Concat", ["r", "r"], ["y"], name="concat", axis=0)],
                         [vi("x", [1 << 28])], [vi("y", [1 << 29])],
                         [init("s", np.array([1 << 28], dtype=np.int64))]), None
        dims = [1 << 20, 1 << 20] if kind == "fill" else [4, -2]
        nodes = [helper.make_node("ConstantOfShape", ["s"], ["c"], name="fill"),
                 helper.make_node("Add", ["x", "c"], ["y"], name="add")]
        return model(nodes, [vi("x", [1])], [vi("y", [1])],
                     [init("s", np.array(dims, dtype=np.int64))]), None
    return build


def main():
    name, out = sys.argv[1], sys.argv[2]
    makers = {
        "conv_bn_relu": conv_bn_relu, "unsupported": unsupported, "matmul_mismatch": matmul_mismatch,
        "shape_fold": shape_fold, "gemm_gelu_layernorm": gemm_gelu_layernorm, "symbolic": symbolic,
        "bad_attr": bad_attr, "resize_flatten": resize_flatten, "opset99": opset99, "names": names, "bad_weights": bad_weights,
        "bn_inference": batchnorm(9), "bn_five_outputs": batchnorm(9, outputs=5),
        "bn_training_mode": batchnorm(15, outputs=3, training_mode=1),
        "bn_training_mode_y": batchnorm(15, training_mode=1),
        "bn_is_test_default": batchnorm(6), "bn_is_test": batchnorm(6, is_test=1),
        "dropout_inference": dropout(13, training=False), "dropout_training": dropout(13, training=True),
        "dropout_training_runtime": dropout(13, runtime=True),
        "dropout_is_test_default": dropout(6), "dropout_is_test": dropout(6, is_test=1),
        "reshape_overflow": reshape_overflow, "clip_inverted": clip_inverted,
        "rank7_input": lambda: (model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                                      [vi("x", [1, 2, 1, 2, 1, 2, 2])], [vi("y", [1, 2, 1, 2, 1, 2, 2])]), None),
        "rank7_reshape": lambda: (model([helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
                                        [vi("x", [2, 8])], [vi("y", [1, 2, 1, 2, 1, 2, 2])],
                                        [init("s", np.array([1, 2, 1, 2, 1, 2, 2], dtype=np.int64))]), None),
        "unknown_dtype": lambda: (model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                                        [vi("x", [2], 99)], [vi("y", [2])]), None),
        "zero_dim": lambda: (model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                                   [vi("x", [2, 0])], [vi("y", [2, 0])]), None),
        "negative_dim": lambda: (model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                                       [vi("x", [-3, 2])], [vi("y", [3, 2])]), None),
        **{f"invalid_{k}": invalid(k) for k in ["concat_no_axis", "extra_input", "unknown_attr",
                                                 "duplicate_input", "opset0", "no_opset"]},
        **{f"mistyped_{k}": mistyped(k) for k in ["add_int8", "add_bool", "gather_float", "reshape_float",
                                                   "reshape_2d", "pad_vector", "div_zero", "div_overflow",
                                                   "output_shape", "output_type", "output_int",
                                                   "input_initializer"]},
        "nested_ifs": nested_ifs,
        **{f"too_large_{k}": too_large(k) for k in ["input", "output", "fill", "negative_fill"]},
    }
    ext = {"external": external("weights.bin"), "external_escape": external("../weights.bin"),
           "external_sub": external("sub/weights.bin"), "external_long": external("weights.bin", length=32),
           "external_short": external("weights.bin", length=4096)}
    if name in ext:
        m, data, w = ext[name]()
        with open(os.path.join(os.path.dirname(os.path.abspath(out)), "weights.bin"), "wb") as f:
            f.write(b"\0" * 16 + w.astype("<f4").tobytes())
    elif name in makers:
        m, data = makers[name]()
    else:
        sys.exit(f"make-model: unknown model {name}; one of {sorted(makers) + sorted(ext)}")
    with open(out, "wb") as f:
        f.write(m.SerializeToString())
    if data:
        ins, outs = data
        np.savez(os.path.splitext(out)[0] + ".npz",
                 **{f"input_{k}": a for k, a in enumerate(ins)},
                 **{f"output_{k}": a.astype(np.float32) for k, a in enumerate(outs)})


if __name__ == "__main__":
    main()
