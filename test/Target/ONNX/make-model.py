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


def conv3x3_same(x, w):
    """A 3x3 convolution of x (NCHW) by w (OIHW) with one pixel of zero
    padding, no bias, in float64."""
    n, _, h, wd = x.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    c = np.zeros((n, w.shape[0], h, wd))
    for i in range(3):
        for j in range(3):
            c += np.einsum("nchw,oc->nohw", xp[:, :, i:i + h, j:j + wd], w[:, :, i, j].astype(np.float64))
    return c


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
        helper.make_node("Unique", ["a"], ["v"], name="unique0"),
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


def resize_ops():
    """Resize in each mode against PyTorch's interpolate: bilinear
    (pytorch_half_pixel, and align_corners), bicubic (half_pixel, A =
    -0.75), nearest to a size that is no whole multiple, and a bilinear
    upsampling of a globally pooled 1x1 map (a broadcast); all of a
    convolution's NHWC output."""
    import torch
    import torch.nn.functional as F
    w = rand(4, 3, 1, 1)
    sizes = {"lin": [10, 12], "ac": [7, 9], "cub": [3, 4], "near": [8, 9], "pool": [5, 6]}
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"]),
             helper.make_node("Resize", ["c", "", "", "s_lin"], ["lin"], mode="linear",
                              coordinate_transformation_mode="pytorch_half_pixel"),
             helper.make_node("Resize", ["c", "", "", "s_ac"], ["ac"], mode="linear",
                              coordinate_transformation_mode="align_corners"),
             helper.make_node("Resize", ["c", "", "", "s_cub"], ["cub"], mode="cubic", cubic_coeff_a=-0.75),
             helper.make_node("Resize", ["c", "", "", "s_near"], ["near"], mode="nearest",
                              coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
             helper.make_node("GlobalAveragePool", ["c"], ["g"]),
             helper.make_node("Resize", ["g", "", "", "s_pool"], ["pool"], mode="linear")]
    inits = [init("w", w)] + [init("s_" + k, np.array([1, 4] + v, dtype=np.int64)) for k, v in sizes.items()]
    x = rand(1, 3, 5, 6)
    c = torch.from_numpy(np.einsum("nchw,oc->nohw", x, w[:, :, 0, 0]))
    ys = [F.interpolate(c, size=sizes["lin"], mode="bilinear", align_corners=False),
          F.interpolate(c, size=sizes["ac"], mode="bilinear", align_corners=True),
          F.interpolate(c, size=sizes["cub"], mode="bicubic", align_corners=False),
          F.interpolate(c, size=sizes["near"], mode="nearest"),
          F.interpolate(c.mean((2, 3), keepdim=True), size=sizes["pool"], mode="bilinear", align_corners=False)]
    outs = [vi(k, [1, 4] + v) for k, v in sizes.items()]
    return (model(nodes, [vi("x", [1, 3, 5, 6])], outs, inits), ([x], [y.numpy() for y in ys]))


def resize_error(kind):
    """Resize nodes fuse refuses, by name."""
    def make():
        scales = np.array([1, 1, 2, 2], dtype=np.float32)
        attrs, ins = {}, ["x", "", "s"]
        if kind == "area":
            attrs = {"mode": "area"}
        elif kind == "crop":
            attrs = {"mode": "linear", "coordinate_transformation_mode": "tf_crop_and_resize"}
        elif kind == "nn_linear":
            attrs = {"mode": "linear", "coordinate_transformation_mode": "tf_half_pixel_for_nn"}
        elif kind == "scales_count":
            scales = np.array([2, 2], dtype=np.float32)
        elif kind == "zero_scale":
            scales = np.array([1, 1, 0.1, 2], dtype=np.float32)
        elif kind == "taps":  # cubic over five axes: 4^5 taps
            nodes = [helper.make_node("Resize", ins, ["y"], name="resize", mode="cubic")]
            return model(nodes, [vi("x", [4, 4, 4, 4, 4])], [vi("y", [8, 8, 8, 8, 8])],
                         [init("s", np.full(5, 2, dtype=np.float32))]), None
        else:
            raise ValueError(kind)
        nodes = [helper.make_node("Resize", ins, ["y"], name="resize", **attrs)]
        return model(nodes, [vi("x", [1, 2, 4, 4])], [vi("y", [1, 2, 8, 8])], [init("s", scales)]), None
    return make


def topk_ops():
    """TopK: the 3 largest along the last axis of floats with ties (the lower
    index first), the smallest 2 along axis 0 of INT64 values, a whole
    sort (K = the axis), each with its INT64 indices; then the largest
    value's Softmax weight (TopK feeding float ops)."""
    x = (rng.integers(-4, 4, size=(3, 7)) / 2).astype(np.float32)
    ids = rng.integers(-50, 50, size=(5, 3)).astype(np.int64)
    nodes = [helper.make_node("TopK", ["x", "k3"], ["v", "i"], axis=-1),
             helper.make_node("TopK", ["ids", "k2"], ["sv", "si"], axis=0, largest=0),
             helper.make_node("TopK", ["x", "k7"], ["av", "ai"], axis=1),
             helper.make_node("Softmax", ["v"], ["w"], axis=-1)]
    inits = [init("k3", np.array([3], dtype=np.int64)), init("k2", np.array([2], dtype=np.int64)),
             init("k7", np.array([7], dtype=np.int64))]
    order = np.argsort(-x, axis=-1, kind="stable")
    small = np.argsort(ids, axis=0, kind="stable")[:2]
    v = np.take_along_axis(x, order[:, :3], axis=-1)
    e = np.exp(v - v.max(-1, keepdims=True))
    outs = [v, order[:, :3], np.take_along_axis(ids, small, axis=0), small,
            np.take_along_axis(x, order, axis=-1), order, e / e.sum(-1, keepdims=True)]
    i64 = TensorProto.INT64
    return (model(nodes, [vi("x", [3, 7]), vi("ids", [5, 3], i64)],
                  [vi("v", [3, 3]), vi("i", [3, 3], i64), vi("sv", [2, 3], i64), vi("si", [2, 3], i64),
                   vi("av", [3, 7]), vi("ai", [3, 7], i64), vi("w", [3, 3])], inits),
            ([x, ids], [o.astype(np.int64) if o.dtype.kind == "i" else o for o in outs]))


def topk_error(kind):
    """TopK nodes fuse refuses, by name."""
    def make():
        k, elem = 2, TensorProto.FLOAT
        if kind == "k_zero":
            k = 0
        elif kind == "k_large":
            k = 9
        elif kind == "bool":
            elem = TensorProto.BOOL
        nodes = [helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk")]
        return model(nodes, [vi("x", [2, 4], elem)], [vi("v", [2, k], elem), vi("i", [2, k], TensorProto.INT64)],
                     [init("k", np.array([k], dtype=np.int64))]), None
    return make


def sequence_ops(opset=13):
    """Sequences resolved at import time: SplitToSequence (parts of 2 along
    the last axis; the last part takes what is left), an insertion at the
    front and an erasure, SequenceAt with a negative position, the length,
    ConcatFromSequence along an axis and stacked on a new one, and
    SplitToSequence without sizes, keepdims=0 (rows, the axis dropped),
    read back by SequenceAt and added to a run-time tensor. At opset 11
    (Split takes its sizes as an attribute) or 13 (as an input)."""
    x = rng.standard_normal((2, 3, 5)).astype(np.float32)
    y = rng.standard_normal((2, 3, 1)).astype(np.float32)
    r = rng.standard_normal((3, 5)).astype(np.float32)
    nodes = [helper.make_node("SplitToSequence", ["x", "two"], ["parts"], axis=-1),
             helper.make_node("SequenceInsert", ["parts", "y", "zero"], ["ins"]),
             helper.make_node("SequenceErase", ["ins", "one"], ["era"]),
             helper.make_node("SequenceAt", ["era", "minus1"], ["last"]),
             helper.make_node("SequenceLength", ["era"], ["len"]),
             helper.make_node("ConcatFromSequence", ["era"], ["cat"], axis=2),
             helper.make_node("SequenceConstruct", ["x", "x"], ["pair"]),
             helper.make_node("ConcatFromSequence", ["pair"], ["stack"], axis=-1, new_axis=1),
             helper.make_node("SplitToSequence", ["x"], ["rows"], axis=0, keepdims=0),
             helper.make_node("SequenceAt", ["rows", "one"], ["row1"]),
             helper.make_node("Add", ["row1", "r"], ["sum"]),
             helper.make_node("SequenceEmpty", [], ["empty"]),
             helper.make_node("SequenceInsert", ["empty", "r"], ["single"]),
             helper.make_node("ConcatFromSequence", ["single"], ["only"], axis=0)]
    inits = [init(name, np.array(v, dtype=np.int64))
             for name, v in [("two", 2), ("zero", 0), ("one", 1), ("minus1", -1)]]
    # parts: [0:2], [2:4], [4:5]; y inserted first; erase position 1 ([0:2]).
    seq = [y, x[:, :, 2:4], x[:, :, 4:5]]
    outs = [seq[-1], np.array(len(seq), dtype=np.int64), np.concatenate(seq, axis=2),
            np.stack([x, x], axis=-1), x[1] + r, r]
    return (model(nodes, [vi("x", [2, 3, 5]), vi("y", [2, 3, 1]), vi("r", [3, 5])],
                  [vi("last", [2, 3, 1]), vi("len", [], TensorProto.INT64), vi("cat", [2, 3, 4]),
                   vi("stack", [2, 3, 5, 2]), vi("sum", [3, 5]), vi("only", [3, 5])], inits, opset),
            ([x, y, r], outs))


def sequence_error(kind):
    """Sequence misuse fuse refuses, by name."""
    def make():
        x = vi("x", [2, 3])
        pos = TensorProto.INT64
        inits = []
        inputs = [x]
        outputs = [vi("out", [2, 3])]
        if kind == "position":
            nodes = [helper.make_node("SequenceConstruct", ["x", "x"], ["s"]),
                     helper.make_node("SequenceAt", ["s", "p"], ["out"], name="at")]
            inits = [init("p", np.array(2, dtype=np.int64))]
        elif kind == "runtime_position":
            nodes = [helper.make_node("SequenceConstruct", ["x", "x"], ["s"]),
                     helper.make_node("SequenceAt", ["s", "p"], ["out"], name="at")]
            inputs = [x, vi("p", [], pos)]
        elif kind == "output":
            nodes = [helper.make_node("SequenceConstruct", ["x"], ["out"], name="make")]
            outputs = [helper.make_tensor_sequence_value_info("out", TensorProto.FLOAT, [2, 3])]
        elif kind == "tensor_op":
            nodes = [helper.make_node("SequenceConstruct", ["x"], ["s"]),
                     helper.make_node("Relu", ["s"], ["out"], name="relu")]
        elif kind == "not_sequence":
            nodes = [helper.make_node("SequenceLength", ["x"], ["out"], name="len")]
            outputs = [vi("out", [], pos)]
        elif kind == "erase_empty":
            nodes = [helper.make_node("SequenceEmpty", [], ["s"]),
                     helper.make_node("SequenceErase", ["s"], ["e"], name="erase"),
                     helper.make_node("SequenceLength", ["e"], ["out"])]
            outputs = [vi("out", [], pos)]
        elif kind == "split_sizes":
            nodes = [helper.make_node("SplitToSequence", ["x", "sz"], ["s"], axis=1, name="split"),
                     helper.make_node("SequenceAt", ["s", "z"], ["out"])]
            inits = [init("sz", np.array([1, 1], dtype=np.int64)), init("z", np.array(0, dtype=np.int64))]
        return model(nodes, inputs, outputs, inits), None
    return make


def scatternd_ops():
    """ScatterND: a cache update (known indices [[0, 3], [1, 5]] write two
    rows of a [2, 8, 4] FLOAT tensor), run-time INT64 indices with a negative
    one and a duplicate summed (reduction add) into INT64 data, and a
    product (reduction mul) of whole rows; then a float op on the result."""
    cache = rand(2, 8, 4)
    rows = rand(2, 4)
    counts = rng.integers(-9, 9, size=6).astype(np.int64)
    where = np.array([[1], [-1], [1]], dtype=np.int64)
    adds = rng.integers(-9, 9, size=3).astype(np.int64)
    scale_in = rand(3, 4)
    scale = rand(2, 4)
    nodes = [helper.make_node("ScatterND", ["cache", "pos", "rows"], ["c"]),
             helper.make_node("Relu", ["c"], ["y"]),
             helper.make_node("ScatterND", ["counts", "where", "adds"], ["n"], reduction="add"),
             helper.make_node("ScatterND", ["scale_in", "which", "scale"], ["s"], reduction="mul")]
    inits = [init("pos", np.array([[0, 3], [1, 5]], dtype=np.int64)),
             init("which", np.array([[2], [0]], dtype=np.int64))]
    y = cache.copy()
    y[0, 3], y[1, 5] = rows[0], rows[1]
    n = counts.copy()
    for w, a in zip(where[:, 0], adds):
        n[w] += a
    s = scale_in.copy()
    s[2] *= scale[0]
    s[0] *= scale[1]
    i64 = TensorProto.INT64
    return (model(nodes, [vi("cache", [2, 8, 4]), vi("rows", [2, 4]), vi("counts", [6], i64),
                          vi("where", [3, 1], i64), vi("adds", [3], i64), vi("scale_in", [3, 4]),
                          vi("scale", [2, 4])],
                  [vi("y", [2, 8, 4]), vi("n", [6], i64), vi("s", [3, 4])], inits, opset=16),
            ([cache, rows, counts, where, adds, scale_in, scale], [np.maximum(y, 0), n, s]))


def scatternd_error(kind):
    """ScatterND nodes fuse refuses, by name."""
    def make():
        idx, upd = np.array([[0]], dtype=np.int64), [1, 4]
        if kind == "updates_shape":
            upd = [1, 3]
        elif kind == "k_rank":
            idx = np.zeros((1, 3), dtype=np.int64)
            upd = [1]
        attrs = {"reduction": "max"} if kind == "reduction_max" else {}
        nodes = [helper.make_node("ScatterND", ["x", "i", "u"], ["y"], name="scatter", **attrs)]
        return model(nodes, [vi("x", [2, 4]), vi("u", upd)], [vi("y", [2, 4])], [init("i", idx)],
                     opset=16 if attrs else 13), None
    return make


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


def reshape_opset(opset, with_shape=True):
    """Reshape [2, 3, 2] -> [3, 4] then Relu; before opset 5 the target shape
    is the attribute `shape`, from opset 5 on the input `s`."""
    def build():
        x = rand(2, 3, 2)
        if opset < 5:
            attrs = {"shape": [3, -1]} if with_shape else {}
            nodes = [helper.make_node("Reshape", ["x"], ["r"], name="reshape", **attrs)]
            inits = []
        else:
            nodes = [helper.make_node("Reshape", ["x", "s"], ["r"], name="reshape")]
            inits = [init("s", np.array([3, -1], dtype=np.int64))]
        nodes.append(helper.make_node("Relu", ["r"], ["y"], name="relu"))
        return (model(nodes, [vi("x", [2, 3, 2])], [vi("y", [3, 4])], inits, opset=opset),
                ([x], [np.maximum(x.reshape(3, 4), 0)]))
    return build


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


def activations(opset=17):
    """Conv -> each activation fuse spells with other elementwise ops, and
    the same activations on a second input over [-100, 100] (where a naive
    Softplus overflows); numpy references in float64."""
    w = rand(8, 4, 3, 3, lo=-0.4, hi=0.4)
    slope = rand(8, 1, 1, lo=0.0, hi=0.5)
    acts = [("LeakyRelu", dict(alpha=0.1)), ("Elu", dict(alpha=0.7)), ("Selu", {}), ("Celu", dict(alpha=2.0)),
            ("Softplus", {}), ("Softsign", {}), ("HardSigmoid", dict(alpha=0.3, beta=0.4)), ("HardSwish", {}),
            ("LogSoftmax", dict(axis=1))]
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1], name="conv"),
             helper.make_node("PRelu", ["c", "slope"], ["y_prelu"], name="prelu")]
    outs_c, outs_z = [vi("y_prelu", [2, 8, 6, 6])], []
    for k, (op, attrs) in enumerate(acts):
        nodes.append(helper.make_node(op, ["c"], [f"y{k}"], name=f"{op.lower()}{k}", **attrs))
        nodes.append(helper.make_node(op, ["z"], [f"z{k}"], name=f"{op.lower()}{k}_z", **attrs))
        outs_c.append(vi(f"y{k}", [2, 8, 6, 6]))
        outs_z.append(vi(f"z{k}", [4, 50]))
    x, z = rand(2, 4, 6, 6, lo=-2.0, hi=2.0), rand(4, 50, lo=-100.0, hi=100.0)
    z[0, :9] = [0.0, -0.0, 1e-30, -1e-30, 20.0, -20.0, 88.0, -88.0, 3.0]
    c = conv3x3_same(x, w)

    def ref(op, a, attrs):
        if op == "LeakyRelu":
            return np.where(a >= 0, a, attrs["alpha"] * a)
        if op in ("Elu", "Selu"):
            al = attrs.get("alpha", 1.0 if op == "Elu" else 1.67326319217681884765625)
            y = np.where(a > 0, a, al * (np.exp(a) - 1.0))
            return y * (1.05070102214813232421875 if op == "Selu" else 1.0)
        if op == "Celu":
            al = attrs["alpha"]
            return np.maximum(0, a) + np.minimum(0, al * (np.exp(a / al) - 1.0))
        if op == "Softplus":
            return np.logaddexp(0.0, a)
        if op == "Softsign":
            return a / (1.0 + np.abs(a))
        if op == "HardSigmoid":
            return np.clip(attrs["alpha"] * a + attrs["beta"], 0.0, 1.0)
        if op == "HardSwish":
            return a * np.clip(a / 6.0 + 0.5, 0.0, 1.0)
        if op == "LogSoftmax":
            m = a.max(axis=1, keepdims=True)
            return a - m - np.log(np.exp(a - m).sum(axis=1, keepdims=True))
        raise ValueError(op)

    ys = [np.where(c >= 0, c, slope.astype(np.float64) * c)]
    ys += [ref(op, c, attrs) for op, attrs in acts]
    zs = [ref(op, z.astype(np.float64), attrs) for op, attrs in acts]
    outputs, refs = [], []
    for k in range(len(acts)):
        outputs += [outs_c[k + 1], outs_z[k]]
        refs += [ys[k + 1], zs[k]]
    return (model(nodes, [vi("x", [2, 4, 6, 6]), vi("z", [4, 50])], [outs_c[0]] + outputs,
                  [init("w", w), init("slope", slope)], opset=opset),
            ([x, z], [ys[0]] + refs))


def opset18_ops():
    """The opset-18 versions libonnx 1.12's checker does not know (it holds
    a node to the op's opset-17 schema): GroupNormalization and Mish (new),
    ReduceMean/Max/Min with the axes as an input, Pad with the axes input,
    Split with num_outputs (uneven: the last part smaller), Resize with axes
    and antialias (upscaling, where it has no effect), ScatterND with the
    reductions max and min. numpy references in float64."""
    w = rand(8, 8, 3, 3, lo=-0.3, hi=0.3)
    gs, gb = rand(2, lo=0.5, hi=1.5), rand(2)
    gs4, gb4 = rand(4, lo=0.5, hi=1.5), rand(4)
    x = rand(2, 8, 5, 6, lo=-2.0, hi=2.0)
    z = rand(3, 4)
    upd = rand(3, 4)
    i64 = lambda v: np.array(v, dtype=np.int64)
    f32 = lambda v: np.array(v, dtype=np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1], name="conv"),
        helper.make_node("GroupNormalization", ["c", "gs", "gb"], ["g"], num_groups=2, epsilon=1e-5, name="gn"),
        helper.make_node("Mish", ["g"], ["y_mish"], name="mish"),
        helper.make_node("GroupNormalization", ["x", "gs4", "gb4"], ["y_gn4"], num_groups=4, name="gn4"),
        helper.make_node("ReduceMean", ["c", "hw"], ["y_mean"], name="mean"),
        helper.make_node("ReduceMax", ["x", "ch"], ["y_max"], keepdims=0, name="max"),
        helper.make_node("ReduceMin", ["x"], ["noop"], noop_with_empty_axes=1, name="min_noop"),
        helper.make_node("Relu", ["noop"], ["y_noop"], name="relu"),
        helper.make_node("Pad", ["x", "pads_w", "half", "last"], ["y_pad"], name="pad"),
        helper.make_node("Pad", ["c", "pads_h", "", "h"], ["y_reflect"], mode="reflect", name="reflect"),
        helper.make_node("Split", ["x"], ["s0", "s1", "s2"], axis=1, num_outputs=3, name="split"),
        helper.make_node("Resize", ["c", "", "two"], ["y_resize"], mode="linear", axes=[2, 3], name="resize"),
        helper.make_node("Resize", ["x", "", "one_half"], ["y_aa"], mode="linear", axes=[-1], antialias=1,
                         name="resize_aa"),
        helper.make_node("Resize", ["c", "", "", "box8"], ["y_fit"], mode="linear", axes=[2, 3],
                         keep_aspect_ratio_policy="not_larger", name="resize_fit"),
        helper.make_node("Resize", ["c", "", "", "box7"], ["y_fill"], axes=[3, 2],
                         keep_aspect_ratio_policy="not_smaller", name="resize_fill"),
        helper.make_node("ScatterND", ["z", "idx", "upd"], ["y_smax"], reduction="max", name="scatter_max"),
        helper.make_node("ScatterND", ["z", "idx", "upd"], ["y_smin"], reduction="min", name="scatter_min"),
    ]
    inits = [init("w", w), init("gs", gs), init("gb", gb), init("gs4", gs4), init("gb4", gb4),
             init("hw", i64([2, 3])), init("ch", i64([1])), init("pads_w", i64([1, 2])), init("half", f32(0.5)),
             init("last", i64([-1])), init("pads_h", i64([2, 1])), init("h", i64([2])),
             init("two", f32([2.0, 2.0])), init("one_half", f32([1.5])), init("idx", i64([[0], [2], [0]])),
             init("box8", i64([8, 8])), init("box7", i64([7, 7])),
             init("upd", upd)]

    xd = x.astype(np.float64)
    c = conv3x3_same(x, w)

    def group_norm(a, groups, scale, bias):
        n, ch = a.shape[:2]
        r = a.reshape(n, groups, -1)
        r = (r - r.mean(axis=2, keepdims=True)) / np.sqrt(r.var(axis=2, keepdims=True) + 1e-5)
        per = np.repeat(scale.astype(np.float64), ch // groups).reshape(1, ch, 1, 1)
        off = np.repeat(bias.astype(np.float64), ch // groups).reshape(1, ch, 1, 1)
        return r.reshape(a.shape) * per + off

    def linear(a, axis, scale, out=None):
        n = a.shape[axis]
        out = int(np.floor(n * scale)) if out is None else out
        pos = np.clip((np.arange(out) + 0.5) / scale - 0.5, 0, n - 1)
        lo = np.floor(pos).astype(int)
        hi = np.minimum(lo + 1, n - 1)
        t = (pos - lo).reshape([-1 if d == axis else 1 for d in range(a.ndim)])
        return np.take(a, lo, axis=axis) * (1 - t) + np.take(a, hi, axis=axis) * t

    def nearest(a, axis, scale, out):
        # half_pixel, round_prefer_floor
        pos = (np.arange(out) + 0.5) / scale - 0.5
        idx = np.clip(np.ceil(pos - 0.5), 0, a.shape[axis] - 1).astype(int)
        return np.take(a, idx, axis=axis)

    # keep_aspect_ratio_policy: one scale for both axes, each size that
    # scale times the input's, rounded half up. not_larger in an 8x8 box:
    # min(8/5, 8/6) = 4/3, sizes 7 and 8; not_smaller of 7x7 (axes given
    # as W, H): max(7/6, 7/5) = 1.4, sizes 7 and 8.
    fit = linear(linear(c, 2, 8 / 6, 7), 3, 8 / 6, 8)
    fill = nearest(nearest(c, 2, 1.4, 7), 3, 1.4, 8)
    g = group_norm(c, 2, gs, gb)
    mish = g * np.tanh(np.logaddexp(0.0, g))
    smax, smin = z.astype(np.float64).copy(), z.astype(np.float64).copy()
    for k, row in enumerate([0, 2, 0]):
        smax[row] = np.maximum(smax[row], upd[k])
        smin[row] = np.minimum(smin[row], upd[k])
    outs = [("y_mish", mish), ("y_gn4", group_norm(xd, 4, gs4, gb4)),
            ("y_mean", c.mean(axis=(2, 3), keepdims=True)), ("y_max", xd.max(axis=1)),
            ("y_noop", np.maximum(xd, 0)),
            ("y_pad", np.pad(xd, ((0, 0), (0, 0), (0, 0), (1, 2)), constant_values=0.5)),
            ("y_reflect", np.pad(c, ((0, 0), (0, 0), (2, 1), (0, 0)), mode="reflect")),
            ("s0", xd[:, 0:3]), ("s1", xd[:, 3:6]), ("s2", xd[:, 6:8]),
            ("y_resize", linear(linear(c, 2, 2.0), 3, 2.0)), ("y_aa", linear(xd, 3, 1.5)),
            ("y_fit", fit), ("y_fill", fill),
            ("y_smax", smax), ("y_smin", smin)]
    return (model(nodes, [vi("x", [2, 8, 5, 6]), vi("z", [3, 4])], [vi(n, list(a.shape)) for n, a in outs],
                  inits, opset=18),
            ([x, z], [a for _, a in outs]))


def opset18_error(kind):
    """Opset-18 nodes fuse refuses, by name: what its own schema of the
    version finds (ONNX's checker does not know it), and values it does not
    take."""
    def make():
        attrs, ins, op, outs, opset = {}, ["x"], "Mish", ["y"], 18
        inits = []
        if kind == "mish_attr":
            attrs = {"alpha": 1.0}
        elif kind == "reduce_inputs":
            op, ins = "ReduceMean", ["x", "ax", "ax"]
            inits = [init("ax", np.array([1], dtype=np.int64))]
        elif kind == "gn_groups":
            op, ins, attrs = "GroupNormalization", ["x", "s", "b"], {"num_groups": 3}
            inits = [init("s", rand(3)), init("b", rand(3))]
        elif kind == "gn_scale":
            op, ins, attrs = "GroupNormalization", ["x", "s", "b"], {"num_groups": 2}
            inits = [init("s", rand(4)), init("b", rand(4))]
        elif kind == "split_both":
            op, ins, outs, attrs = "Split", ["x", "sp"], ["y", "y2"], {"axis": 1, "num_outputs": 2}
            inits = [init("sp", np.array([2, 2], dtype=np.int64))]
        elif kind == "resize_policy":
            op, ins, attrs = "Resize", ["x", "", "", "sz"], {"keep_aspect_ratio_policy": "keep",
                                                             "axes": [2, 3]}
            inits = [init("sz", np.array([3, 3], dtype=np.int64))]
        elif kind == "resize_antialias":
            op, ins, attrs = "Resize", ["x", "", "sc"], {"mode": "linear", "antialias": 1}
            inits = [init("sc", np.array([1, 1, 0.5, 0.5], dtype=np.float32))]
        elif kind == "pad_axes":
            op, ins = "Pad", ["x", "p", "", "ax"]
            inits = [init("p", np.array([1, 1, 1, 1], dtype=np.int64)), init("ax", np.array([2, -2], dtype=np.int64))]
        elif kind == "opset17_reduce_input":
            op, ins, opset = "ReduceMean", ["x", "ax"], 17
            inits = [init("ax", np.array([1], dtype=np.int64))]
        nodes = [helper.make_node(op, ins, outs, name="node", **attrs)]
        return model(nodes, [vi("x", [1, 4, 4, 4])], [vi(o, ["a", "b", "c", "d"]) for o in outs], inits,
                     opset=opset), None
    return make


def opset21_ops():
    """Opsets 19 to 21 (opset 21, IR version 10): Gelu (opset 20; erf and
    tanh forms), GroupNormalization-21 (one scale and bias per channel,
    stash_type), Cast with saturate (opset 19), AveragePool-19 with unit
    dilations, QuantizeLinear-21/DequantizeLinear-21 (saturate, no blocks),
    ReduceMax and Pad in their opset-18 forms, and Flatten, Transpose,
    Unsqueeze, Squeeze, Reshape, Shape, whose newer versions only add
    element types (ONNX's checker holds them to their older schemas).
    numpy references in float64."""
    import math
    w = rand(8, 4, 3, 3, lo=-0.4, hi=0.4)
    gs, gb = rand(8, lo=0.5, hi=1.5), rand(8)
    x = rand(2, 4, 6, 6, lo=-3.0, hi=3.0)
    i64 = lambda v: np.array(v, dtype=np.int64)
    f32 = lambda v: np.array(v, dtype=np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1], name="conv"),
        helper.make_node("Gelu", ["c"], ["y_gelu"], name="gelu"),
        helper.make_node("Gelu", ["x"], ["y_gelu_tanh"], approximate="tanh", name="gelu_tanh"),
        helper.make_node("GroupNormalization", ["c", "gs", "gb"], ["y_gn"], num_groups=2, stash_type=1,
                         name="gn"),
        helper.make_node("Cast", ["x"], ["h"], to=TensorProto.FLOAT16, saturate=1, name="to_half"),
        helper.make_node("Cast", ["h"], ["y_half"], to=TensorProto.FLOAT, name="to_float"),
        helper.make_node("AveragePool", ["x"], ["y_pool"], kernel_shape=[3, 3], strides=[1, 1],
                         dilations=[1, 1], name="pool"),
        helper.make_node("QuantizeLinear", ["x", "qs", "qz"], ["q"], saturate=1, name="quant"),
        helper.make_node("DequantizeLinear", ["q", "qs", "qz"], ["y_qdq"], name="dequant"),
        helper.make_node("ReduceMax", ["c", "hw"], ["y_max"], keepdims=0, name="max"),
        helper.make_node("Pad", ["x", "pads", "", "ax"], ["y_pad"], mode="edge", name="pad"),
        helper.make_node("Flatten", ["c"], ["f"], axis=2, name="flatten"),
        helper.make_node("Transpose", ["f"], ["ft"], perm=[1, 0], name="transpose"),
        helper.make_node("Unsqueeze", ["ft", "zero"], ["u"], name="unsqueeze"),
        helper.make_node("Squeeze", ["u", "zero"], ["sq"], name="squeeze"),
        helper.make_node("Shape", ["x"], ["shape"], name="shape"),
        helper.make_node("Reshape", ["sq", "target"], ["y_reshape"], name="reshape"),
    ]
    inits = [init("w", w), init("gs", gs), init("gb", gb), init("qs", f32(0.05)),
             init("qz", np.array(3, dtype=np.int8)), init("hw", i64([2, 3])), init("pads", i64([2, 1])),
             init("ax", i64([-2])), init("zero", i64([0])), init("target", i64([36, 16]))]
    xd = x.astype(np.float64)
    c = conv3x3_same(x, w)
    erf = np.vectorize(math.erf)
    gelu = 0.5 * c * (1.0 + erf(c / math.sqrt(2.0)))
    gelu_tanh = 0.5 * xd * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (xd + 0.044715 * xd ** 3)))
    r = c.reshape(2, 2, -1)
    r = (r - r.mean(axis=2, keepdims=True)) / np.sqrt(r.var(axis=2, keepdims=True) + 1e-5)
    gn = r.reshape(c.shape) * gs.reshape(1, 8, 1, 1) + gb.reshape(1, 8, 1, 1)
    pool = np.zeros((2, 4, 4, 4))
    for i in range(3):
        for j in range(3):
            pool += xd[:, :, i:i + 4, j:j + 4] / 9.0
    q = np.clip(np.rint(x / np.float32(0.05)) + 3, -128, 127)
    qdq = (q - 3) * np.float32(0.05)
    outs = [("y_gelu", gelu), ("y_gelu_tanh", gelu_tanh), ("y_gn", gn),
            ("y_half", x.astype(np.float16).astype(np.float64)), ("y_pool", pool), ("y_qdq", qdq),
            ("y_max", c.max(axis=(2, 3))), ("y_pad", np.pad(xd, ((0, 0), (0, 0), (2, 1), (0, 0)), mode="edge")),
            ("y_reshape", c.reshape(16, 36).T)]
    outputs = [vi(n, list(a.shape)) for n, a in outs] + [vi("shape", [4], TensorProto.INT64)]
    m = model(nodes, [vi("x", [2, 4, 6, 6])], outputs, inits, opset=21)
    m.ir_version = 10
    return m, ([x], [a for _, a in outs] + [i64([2, 4, 6, 6])])


def opset21_error(kind):
    """Opset 19-21 nodes fuse refuses, by name."""
    def make():
        attrs, ins, op, opset = {}, ["x"], "Gelu", 21
        inits = []
        if kind == "gelu_approximate":
            attrs = {"approximate": "fast"}
        elif kind == "gn_scale":
            op, ins, attrs = "GroupNormalization", ["x", "s", "b"], {"num_groups": 2}
            inits = [init("s", rand(2)), init("b", rand(2))]
        elif kind == "blocked":
            op, ins, attrs = "QuantizeLinear", ["x", "s"], {"block_size": 2, "axis": 1}
            inits = [init("s", rand(1, 2, 4, 4, lo=0.1, hi=0.2))]
        elif kind == "dilated_pool":
            op, attrs, opset = "AveragePool", {"kernel_shape": [2, 2], "dilations": [2, 2]}, 19
        elif kind == "opset22":
            opset = 22
        nodes = [helper.make_node(op, ins, ["y"], name="node", **attrs)]
        m = model(nodes, [vi("x", [1, 4, 4, 4])], [vi("y", ["a", "b", "c", "d"])], inits, opset=opset)
        m.ir_version = 10
        return m, None
    return make


def wide_conv():
    """Conv (16 -> 32 channels, 3x3, bias) -> Relu with every tensor a graph
    input: the ONNX twin of test/Preprocessing/nhwc-layout.mlir's @wide,
    whose NCHW linalg must fuse to the same groups."""
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv"),
             helper.make_node("Relu", ["c"], ["y"], name="relu")]
    return model(nodes, [vi("x", [1, 16, 28, 28]), vi("w", [32, 16, 3, 3]), vi("b", [32])],
                 [vi("y", [1, 32, 26, 26])], name="wide"), None


def linalg_twin(kind):
    """The ONNX twins of test/Pipelines/Fusion/frontend-linalg.mlir's
    functions (linalg as torch-mlir writes it), whose groups must be the
    same: LayerNormalization, Softmax, attention (MatMul, scale, Softmax,
    MatMul), Conv + Relu with the bias, three 1x1
    convolutions with biases and ReLUs into a Concat, three 1x1
    convolutions straight into a Concat. The weights are the .mlir file's
    (seeded here and there)."""
    def make():
        rng = np.random.default_rng(7)
        vi_x = vi("x", [1, 8, 6, 6])
        if kind == "layernorm":
            nodes = [helper.make_node("LayerNormalization", ["x", "g", "b"], ["y"], axis=-1, epsilon=1e-5)]
            return model(nodes, [vi("x", [2, 8, 64]), vi("g", [64]), vi("b", [64])], [vi("y", [2, 8, 64])],
                         opset=17, name=kind), None
        if kind == "softmax":
            return model([helper.make_node("Softmax", ["x"], ["y"], axis=-1)], [vi("x", [16, 128])],
                         [vi("y", [16, 128])], name=kind), None
        if kind == "attention":
            nodes = [helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
                     helper.make_node("MatMul", ["q", "kt"], ["s"]),
                     helper.make_node("Mul", ["s", "scale"], ["ss"]),
                     helper.make_node("Softmax", ["ss"], ["p"], axis=-1),
                     helper.make_node("MatMul", ["p", "v"], ["y"])]
            qkv = [vi(n, [4, 64, 32]) for n in "qkv"]
            return model(nodes, qkv, [vi("y", [4, 64, 32])],
                         [init("scale", np.array(0.176776695, dtype=np.float32))], name=kind), None
        if kind == "conv_bias":
            nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"]), helper.make_node("Relu", ["c"], ["y"])]
            return model(nodes, [vi("x", [1, 16, 28, 28]), vi("w", [32, 16, 3, 3]), vi("b", [32])],
                         [vi("y", [1, 32, 26, 26])], name=kind), None
        nodes, inits = [], []
        for i in range(3):
            w = rng.uniform(-1, 1, (4, 8, 1, 1)).astype(np.float32)
            b = rng.uniform(-1, 1, (4,)).astype(np.float32)
            inits.append(init(f"w{i}", w))
            if kind == "branches":
                inits.append(init(f"b{i}", b))
                nodes += [helper.make_node("Conv", ["x", f"w{i}", f"b{i}"], [f"c{i}"]),
                          helper.make_node("Relu", [f"c{i}"], [f"r{i}"])]
            else:
                nodes.append(helper.make_node("Conv", ["x", f"w{i}"], [f"r{i}"]))
        nodes.append(helper.make_node("Concat", ["r0", "r1", "r2"], ["y"], axis=1))
        return model(nodes, [vi_x], [vi("y", [1, 12, 6, 6])], inits, name=kind), None
    return make


def window_ops():
    """Conv1d -> MaxPool1d (1-D ops as their 2-D forms), reflect and edge
    Pad, dilated MaxPool, Tile, and Sign / Shrink / ThresholdedRelu on
    values with 0, -0, +-inf and NaN; numpy references in float64."""
    w1 = rand(6, 4, 3, lo=-0.5, hi=0.5)
    nodes = [
        helper.make_node("Conv", ["a", "w1"], ["a1"], pads=[2, 1], strides=[2], dilations=[2],
                         name="conv1d"),
        helper.make_node("MaxPool", ["a1"], ["y_pool1d"], kernel_shape=[3], pads=[1, 1], strides=[2],
                         name="pool1d"),
        helper.make_node("Pad", ["b", "pads_r"], ["y_reflect"], mode="reflect", name="reflect"),
        helper.make_node("Pad", ["b", "pads_e"], ["y_edge"], mode="edge", name="edge"),
        helper.make_node("MaxPool", ["b"], ["y_dilated"], kernel_shape=[2, 3], dilations=[3, 2], pads=[1, 2, 2, 0],
                         strides=[1, 2], name="dilated"),
        helper.make_node("Tile", ["b", "reps"], ["y_tile"], name="tile"),
        helper.make_node("Sign", ["e"], ["y_sign"], name="sign"),
        helper.make_node("Shrink", ["e"], ["y_shrink"], lambd=0.6, bias=0.25, name="shrink"),
        helper.make_node("ThresholdedRelu", ["e"], ["y_thresh"], alpha=0.3, name="thresh"),
    ]
    pads_r = np.array([0, 0, 2, 3, 0, 1, 1, 4], dtype=np.int64)
    pads_e = np.array([1, 0, 0, 5, 0, 0, 3, 0], dtype=np.int64)
    reps = np.array([2, 1, 3, 1], dtype=np.int64)
    a, bb, e = rand(2, 4, 11), rand(2, 3, 7, 9), rand(3, 20, lo=-2.0, hi=2.0)
    e[0, :7] = [0.0, -0.0, np.inf, -np.inf, np.nan, 0.6, -0.6]
    ad, bd, ed = a.astype(np.float64), bb.astype(np.float64), e.astype(np.float64)
    ap = np.pad(ad, ((0, 0), (0, 0), (2, 1)))
    lout = (ap.shape[2] - (2 * 2 + 1)) // 2 + 1
    a1 = np.zeros((2, 6, lout))
    for o in range(6):
        for t in range(3):
            a1[:, o, :] += np.einsum("ncl,c->nl", ap[:, :, t * 2:t * 2 + 2 * lout:2][:, :, :lout],
                                     w1[o, :, t].astype(np.float64))
    a1p = np.pad(a1, ((0, 0), (0, 0), (1, 1)), constant_values=-np.inf)
    pout = (a1p.shape[2] - 3) // 2 + 1
    pool1d = np.stack([a1p[:, :, 2 * i:2 * i + 3].max(axis=2) for i in range(pout)], axis=2)
    reflect = np.pad(bd, [(0, 0), (0, 1), (2, 1), (3, 4)], mode="reflect")
    edge = np.pad(bd, [(1, 0), (0, 0), (0, 3), (5, 0)], mode="edge")
    bp = np.pad(bd, ((0, 0), (0, 0), (1, 2), (2, 0)), constant_values=-np.inf)
    oh = (bp.shape[2] - (3 * 1 + 1)) // 1 + 1
    ow = (bp.shape[3] - (2 * 2 + 1)) // 2 + 1
    dil = np.full((2, 3, oh, ow), -np.inf)
    for i in range(2):
        for j in range(3):
            dil = np.maximum(dil, bp[:, :, 3 * i:3 * i + oh, 2 * j:2 * j + 2 * ow:2][:, :, :oh, :ow])
    tile = np.tile(bd, reps)
    with np.errstate(invalid="ignore"):
        sign = np.sign(ed)
        # The bounds are float32 attributes.
        lam, alpha = float(np.float32(0.6)), float(np.float32(0.3))
        shrink = np.where(ed < -lam, ed + 0.25, np.where(ed > lam, ed - 0.25, 0.0))
        thresh = np.where(ed > alpha, ed, 0.0)
    outs = [("y_pool1d", pool1d), ("y_reflect", reflect), ("y_edge", edge), ("y_dilated", dil), ("y_tile", tile),
            ("y_sign", sign), ("y_shrink", shrink), ("y_thresh", thresh)]
    return (model(nodes, [vi("a", [2, 4, 11]), vi("b", [2, 3, 7, 9]), vi("e", [3, 20])],
                  [vi(n, list(r.shape)) for n, r in outs],
                  [init("w1", w1), init("pads_r", pads_r), init("pads_e", pads_e), init("reps", reps)]),
            ([a, bb, e], [r for _, r in outs]))


def volume_ops():
    """3-D Conv (plain, and grouped with stride and dilation), MaxPool
    (dilated, ceil_mode), AveragePool with and without the pads counted, and
    GlobalAveragePool on [N, C, D, H, W]; numpy references in float64."""
    w = rand(6, 4, 2, 3, 2, lo=-0.4, hi=0.4)
    wg = rand(6, 2, 2, 2, 2, lo=-0.4, hi=0.4)
    bias = rand(6)
    nodes = [
        helper.make_node("Conv", ["x", "w", "bias"], ["c"], pads=[1, 1, 0, 0, 1, 1], name="conv3d"),
        helper.make_node("Relu", ["c"], ["y_conv"], name="relu"),
        helper.make_node("Conv", ["x", "wg"], ["y_group"], group=2, strides=[2, 1, 2], dilations=[1, 2, 1],
                         pads=[0, 1, 1, 1, 0, 0], name="conv3d_grouped"),
        helper.make_node("MaxPool", ["c"], ["y_max"], kernel_shape=[2, 2, 3], strides=[2, 2, 2], dilations=[1, 2, 1],
                         pads=[1, 0, 1, 0, 1, 1], ceil_mode=1, name="maxpool3d"),
        helper.make_node("AveragePool", ["x"], ["y_avg"], kernel_shape=[3, 2, 3], strides=[1, 2, 2],
                         pads=[1, 1, 1, 1, 0, 1], name="avgpool3d"),
        helper.make_node("AveragePool", ["x"], ["y_avg_pad"], kernel_shape=[2, 3, 2], pads=[1, 1, 0, 0, 1, 1],
                         count_include_pad=1, name="avgpool3d_pad"),
        helper.make_node("GlobalAveragePool", ["c"], ["y_gap"], name="gap3d"),
    ]
    x = rand(2, 4, 5, 6, 7)
    xd = x.astype(np.float64)

    def conv(inp, wt, pads, strides=(1, 1, 1), dil=(1, 1, 1), groups=1):
        ip = np.pad(inp, [(0, 0), (0, 0)] + [(pads[d], pads[d + 3]) for d in range(3)])
        o, cg = wt.shape[0], wt.shape[1]
        outs = [(ip.shape[2 + d] - dil[d] * (wt.shape[2 + d] - 1) - 1) // strides[d] + 1 for d in range(3)]
        y = np.zeros((inp.shape[0], o, *outs))
        og = o // groups
        for f in range(o):
            g = f // og
            for a in range(wt.shape[2]):
                for b_ in range(wt.shape[3]):
                    for c_ in range(wt.shape[4]):
                        patch = ip[:, g * cg:(g + 1) * cg,
                                   a * dil[0]:a * dil[0] + strides[0] * outs[0]:strides[0],
                                   b_ * dil[1]:b_ * dil[1] + strides[1] * outs[1]:strides[1],
                                   c_ * dil[2]:c_ * dil[2] + strides[2] * outs[2]:strides[2]]
                        y[:, f] += np.einsum("ncdhw,c->ndhw", patch, wt[f, :, a, b_, c_].astype(np.float64))
        return y

    def pool(inp, k, st, pads, dil=(1, 1, 1), ceil=False, kind="max", count_pad=False):
        sp = inp.shape[2:]
        outs = []
        for d in range(3):
            span = sp[d] + pads[d] + pads[d + 3] - dil[d] * (k[d] - 1) - 1
            o = (-(-span // st[d]) if ceil else span // st[d]) + 1
            if ceil and (o - 1) * st[d] >= sp[d] + pads[d]:
                o -= 1
            outs.append(o)
        y = np.zeros((inp.shape[0], inp.shape[1], *outs))
        for i in np.ndindex(*outs):
            vals, cnt = [], 0
            for kk in np.ndindex(*k):
                pos = [i[d] * st[d] + kk[d] * dil[d] - pads[d] for d in range(3)]
                if all(0 <= pos[d] < sp[d] for d in range(3)):
                    vals.append(inp[:, :, pos[0], pos[1], pos[2]])
            if kind == "max":
                y[:, :, i[0], i[1], i[2]] = np.max(vals, axis=0)
            else:
                y[:, :, i[0], i[1], i[2]] = np.sum(vals, axis=0) / (np.prod(k) if count_pad else len(vals))
        return y

    c = conv(xd, w.astype(np.float64), [1, 1, 0, 0, 1, 1]) + bias.astype(np.float64)[None, :, None, None, None]
    outs = [
        ("y_conv", np.maximum(c, 0.0)),
        ("y_group", conv(xd, wg.astype(np.float64), [0, 1, 1, 1, 0, 0], (2, 1, 2), (1, 2, 1), groups=2)),
        ("y_max", pool(c, (2, 2, 3), (2, 2, 2), [1, 0, 1, 0, 1, 1], (1, 2, 1), ceil=True)),
        ("y_avg", pool(xd, (3, 2, 3), (1, 2, 2), [1, 1, 1, 1, 0, 1], kind="avg")),
        ("y_avg_pad", pool(xd, (2, 3, 2), (1, 1, 1), [1, 1, 0, 0, 1, 1], kind="avg", count_pad=True)),
        ("y_gap", c.mean(axis=(2, 3, 4), keepdims=True)),
    ]
    return (model(nodes, [vi("x", [2, 4, 5, 6, 7])], [vi(nm, list(r.shape)) for nm, r in outs],
                  [init("w", w), init("wg", wg), init("bias", bias)]),
            ([x], [r for _, r in outs]))


def decoder_ops():
    """ConvTranspose (strided with pads and output_padding; grouped and
    dilated; 1-D with output_shape; SAME_UPPER) and InstanceNormalization
    (NCHW after a ConvTranspose, and on a 3-D input); numpy references in
    float64 (the transposed convolution as a scatter of each input element
    times the kernel)."""
    w1 = rand(4, 3, 3, 3, lo=-0.4, hi=0.4)
    b1 = rand(3)
    w2 = rand(4, 2, 2, 3, lo=-0.4, hi=0.4)  # 2 groups: 2 in, 2 out each
    w3 = rand(3, 2, 4, lo=-0.4, hi=0.4)
    w4 = rand(4, 2, 3, 3, lo=-0.4, hi=0.4)
    scale, bias = rand(3, lo=0.5, hi=1.5), rand(3)
    s3, b3 = rand(3, lo=0.5, hi=1.5), rand(3)
    nodes = [
        helper.make_node("ConvTranspose", ["x", "w1", "b1"], ["t1"], strides=[2, 2], pads=[1, 0, 0, 1],
                         output_padding=[1, 0], name="up"),
        helper.make_node("InstanceNormalization", ["t1", "scale", "bias"], ["n1"], epsilon=1e-3, name="inorm"),
        helper.make_node("Relu", ["n1"], ["y_up"], name="relu"),
        helper.make_node("ConvTranspose", ["x", "w2"], ["y_grouped"], group=2, dilations=[2, 1], strides=[1, 2],
                         pads=[0, 1, 1, 0], name="grouped"),
        helper.make_node("ConvTranspose", ["v", "w3"], ["y_1d"], strides=[3], output_shape=[20], name="up1d"),
        helper.make_node("ConvTranspose", ["x", "w4"], ["y_same"], strides=[2, 2], auto_pad="SAME_UPPER",
                         name="same"),
        helper.make_node("InstanceNormalization", ["v", "s3", "b3"], ["y_in3"], name="inorm3"),
    ]
    x, v = rand(2, 4, 5, 6), rand(2, 3, 7)

    def convt(inp, wt, strides, pads, dil, out_pad, groups=1):
        nd = inp.ndim - 2
        cin, og = wt.shape[0], wt.shape[1]
        k = wt.shape[2:]
        full = [strides[d] * (inp.shape[2 + d] - 1) + out_pad[d] + (k[d] - 1) * dil[d] + 1 for d in range(nd)]
        y = np.zeros((inp.shape[0], og * groups, *full))
        cg = cin // groups
        for ci in range(cin):
            g = ci // cg
            for pos in np.ndindex(*inp.shape[2:]):
                for kk in np.ndindex(*k):
                    o = tuple(pos[d] * strides[d] + kk[d] * dil[d] for d in range(nd))
                    y[(slice(None), slice(g * og, (g + 1) * og)) + o] += \
                        inp[(slice(None), ci) + pos][:, None] * wt[(ci, slice(None)) + kk][None, :]
        sl = tuple(slice(pads[d], full[d] - pads[d + nd]) for d in range(nd))
        return y[(slice(None), slice(None)) + sl]

    def inorm(a, sc, bi, eps):
        axes = tuple(range(2, a.ndim))
        mu = a.mean(axis=axes, keepdims=True)
        var = ((a - mu) ** 2).mean(axis=axes, keepdims=True)
        shp = (1, -1) + (1,) * (a.ndim - 2)
        return (a - mu) / np.sqrt(var + eps) * sc.reshape(shp) + bi.reshape(shp)

    xd, vd = x.astype(np.float64), v.astype(np.float64)
    t1 = convt(xd, w1.astype(np.float64), (2, 2), (1, 0, 0, 1), (1, 1), (1, 0)) + \
        b1.astype(np.float64)[None, :, None, None]
    up = np.maximum(inorm(t1, scale.astype(np.float64), bias.astype(np.float64), 1e-3), 0.0)
    grouped = convt(xd, w2.astype(np.float64), (1, 2), (0, 1, 1, 0), (2, 1), (0, 0), groups=2)
    # output_shape 20 from a full output of 3 * 6 + 4 = 22: 2 pads, split
    # (NOTSET) as 1 at the start and 1 at the end.
    y1d = convt(vd, w3.astype(np.float64), (3,), (1, 1), (1,), (0,))
    # SAME_UPPER: output = input * stride (10 x 12 of a full 11 x 13), the
    # extra pad at the end.
    same = convt(xd, w4.astype(np.float64), (2, 2), (0, 0, 1, 1), (1, 1), (0, 0))
    in3 = inorm(vd, s3.astype(np.float64), b3.astype(np.float64), 1e-5)
    outs = [("y_up", up), ("y_grouped", grouped), ("y_1d", y1d), ("y_same", same), ("y_in3", in3)]
    return (model(nodes, [vi("x", [2, 4, 5, 6]), vi("v", [2, 3, 7])], [vi(nm, list(r.shape)) for nm, r in outs],
                  [init("w1", w1), init("b1", b1), init("w2", w2), init("w3", w3), init("w4", w4),
                   init("scale", scale), init("bias", bias), init("s3", s3), init("b3", b3)]),
            ([x, v], [r for _, r in outs]))


def grouped_conv():
    """Grouped convolutions (ResNeXt's 3x3 with 4 groups, strided and
    padded, then BatchNormalization and Relu; a 1-D one with 2 groups): one
    convolution each, never one per group; numpy references in float64."""
    w = rand(8, 2, 3, 3, lo=-0.4, hi=0.4)
    bias = rand(8)
    mean, var = rand(8, lo=-0.2, hi=0.2), rand(8, lo=0.5, hi=1.5)
    gamma, beta = rand(8, lo=0.5, hi=1.5), rand(8)
    w1 = rand(6, 2, 3, lo=-0.4, hi=0.4)
    nodes = [
        helper.make_node("Conv", ["x", "w", "bias"], ["c"], group=4, strides=[2, 2], pads=[1, 1, 1, 1],
                         name="conv_g4"),
        helper.make_node("BatchNormalization", ["c", "gamma", "beta", "mean", "var"], ["bn"], epsilon=1e-5,
                         name="bn"),
        helper.make_node("Relu", ["bn"], ["y"], name="relu"),
        helper.make_node("Conv", ["a", "w1"], ["y1d"], group=2, pads=[1, 1], name="conv1d_g2"),
    ]
    x, a = rand(2, 8, 9, 10), rand(2, 4, 11)

    def conv(inp, wt, stride, pad, groups):
        nd = inp.ndim - 2
        ip = np.pad(inp, [(0, 0), (0, 0)] + [(pad, pad)] * nd)
        k = wt.shape[2:]
        outs = [(ip.shape[2 + d] - k[d]) // stride + 1 for d in range(nd)]
        o, cg = wt.shape[0], wt.shape[1]
        og = o // groups
        y = np.zeros((inp.shape[0], o, *outs))
        for f in range(o):
            g = f // og
            for kk in np.ndindex(*k):
                sl = tuple(slice(kk[d], kk[d] + stride * outs[d], stride) for d in range(nd))
                y[:, f] += np.einsum("nc...,c->n...", ip[(slice(None), slice(g * cg, (g + 1) * cg)) + sl],
                                     wt[(f, slice(None)) + kk].astype(np.float64))
        return y

    c = conv(x.astype(np.float64), w, 2, 1, 4) + bias.astype(np.float64)[None, :, None, None]
    sh = (1, -1, 1, 1)
    bn = (c - mean.reshape(sh)) / np.sqrt(var.reshape(sh) + 1e-5) * gamma.reshape(sh) + beta.reshape(sh)
    y = np.maximum(bn, 0.0)
    y1d = conv(a.astype(np.float64), w1, 1, 1, 2)
    return (model(nodes, [vi("x", [2, 8, 9, 10]), vi("a", [2, 4, 11])],
                  [vi("y", list(y.shape)), vi("y1d", list(y1d.shape))],
                  [init("w", w), init("bias", bias), init("gamma", gamma), init("beta", beta), init("mean", mean),
                   init("var", var), init("w1", w1)]),
            ([x, a], [y, y1d]))


def decoder_error(kind):
    """ConvTranspose, InstanceNormalization and 3-D window ops fuse
    refuses, by name."""
    def make():
        if kind == "output_padding":
            nodes = [helper.make_node("ConvTranspose", ["x", "w"], ["y"], strides=[2, 2], output_padding=[2, 0],
                                      name="up")]
            return model(nodes, [vi("x", [1, 2, 3, 3])], [vi("y", [1, 1, 9, 7])], [init("w", rand(2, 1, 3, 3))]), None
        if kind == "crop_all":
            nodes = [helper.make_node("ConvTranspose", ["x", "w"], ["y"], pads=[3, 0, 3, 0], name="up")]
            return model(nodes, [vi("x", [1, 2, 3, 3])], [vi("y", [1, 1, 0, 5])], [init("w", rand(2, 1, 3, 3))]), None
        if kind == "inorm_scale":
            nodes = [helper.make_node("InstanceNormalization", ["x", "s", "b"], ["y"], name="inorm")]
            return model(nodes, [vi("x", [1, 3, 4, 4])], [vi("y", [1, 3, 4, 4])],
                         [init("s", rand(4)), init("b", rand(4))]), None
        if kind == "conv3d_weight":
            nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="conv3d")]
            return model(nodes, [vi("x", [1, 3, 4, 4, 4])], [vi("y", [1, 2, 2, 2, 2])],
                         [init("w", rand(2, 3, 3, 3))]), None
        if kind == "pool3d_pads":
            nodes = [helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[1, 1, 1],
                                      pads=[2 ** 30] * 6, name="pool3d")]
            return model(nodes, [vi("x", [1, 3, 4, 4, 4])], [vi("y", [1, 3, 4, 4, 4])]), None
        if kind == "pool3d_kernel":
            nodes = [helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], name="pool3d")]
            return model(nodes, [vi("x", [1, 3, 4, 4, 4])], [vi("y", [1, 3, 3, 3, 3])]), None
        raise ValueError(kind)
    return make


def class_token():
    """A vision transformer's class token as PyTorch exports
    cls_token.expand(B, -1, -1): a shape subgraph with ConstantOfShape,
    Equal and Where feeding Expand, then Concat with the patch tokens. Also
    Range, Less, Not and And building a mask that Where turns into an
    additive bias (all at import time), Where choosing between run-time
    tokens and a constant by a known mask, and Expand of a run-time value."""
    cls, pos = rand(1, 1, 8), rand(1, 5, 8)
    i64 = lambda v: init(v[0], np.array(v[1], dtype=np.int64))
    nodes = [
        helper.make_node("Shape", ["x"], ["shp"]),
        helper.make_node("Gather", ["shp", "zero"], ["b"], axis=0),
        helper.make_node("Unsqueeze", ["b", "axes0"], ["b1"]),
        helper.make_node("Concat", ["b1", "minus1", "minus1"], ["want"], axis=0),
        helper.make_node("ConstantOfShape", ["three"], ["ones"],
                         value=numpy_helper.from_array(np.array([1], dtype=np.int64))),
        helper.make_node("Equal", ["want", "minus1_3"], ["is_m1"]),
        helper.make_node("Where", ["is_m1", "ones", "want"], ["shape2"]),
        helper.make_node("Expand", ["cls", "shape2"], ["cls_b"], name="expand_cls"),
        helper.make_node("Concat", ["cls_b", "x"], ["tok"], axis=1, name="concat_cls"),
        helper.make_node("Add", ["tok", "pos"], ["tokp"], name="add_pos"),
        # mask over 5 positions: keep positions < 4 that are not 2.
        helper.make_node("Range", ["r0", "r5", "r1"], ["idx"]),
        helper.make_node("Less", ["idx", "r4"], ["lt"]),
        helper.make_node("Equal", ["idx", "r2"], ["eq2"]),
        helper.make_node("Not", ["eq2"], ["ne2"]),
        helper.make_node("And", ["lt", "ne2"], ["keep"]),
        helper.make_node("Unsqueeze", ["keep", "axes1"], ["keep2"]),
        helper.make_node("Where", ["keep2", "fzero", "fneg"], ["bias"]),
        helper.make_node("Add", ["tokp", "bias"], ["y_bias"], name="add_bias"),
        helper.make_node("Where", ["keep2", "tokp", "fhalf"], ["y_where"], name="where_rt"),
        helper.make_node("ReduceMean", ["x"], ["xm"], axes=[1], keepdims=1, name="mean"),
        helper.make_node("Expand", ["xm", "shape3"], ["y_expand"], name="expand_rt"),
    ]
    inits = [init("cls", cls), init("pos", pos), i64(("zero", 0)), i64(("axes0", [0])),
             i64(("minus1", [-1])), i64(("three", [3])), i64(("minus1_3", [-1, -1, -1])),
             i64(("r0", 0)), i64(("r5", 5)), i64(("r1", 1)), i64(("r4", 4)), i64(("r2", 2)), i64(("axes1", [1])),
             init("fzero", np.array(0.0, dtype=np.float32)), init("fneg", np.array(-100.0, dtype=np.float32)),
             init("fhalf", np.array(0.5, dtype=np.float32)), i64(("shape3", [3, 1, 4, 1]))]
    x = rand(2, 4, 8)
    tok = np.concatenate([np.broadcast_to(cls, (2, 1, 8)), x], axis=1).astype(np.float64) + pos
    keep = (np.arange(5) < 4) & (np.arange(5) != 2)
    y_bias = tok + np.where(keep[:, None], 0.0, -100.0)
    y_where = np.where(keep[:, None], tok, 0.5)
    # Bidirectional: [2, 1, 8] and [3, 1, 4, 1] give [3, 2, 4, 8].
    y_expand = np.broadcast_to(x.astype(np.float64).mean(axis=1, keepdims=True), (3, 2, 4, 8))
    outs = [("y_bias", y_bias), ("y_where", y_where), ("y_expand", y_expand)]
    return (model(nodes, [vi("x", [2, 4, 8])], [vi(nm, list(r.shape)) for nm, r in outs], inits),
            ([x], [r for _, r in outs]))


def token_encoder():
    """A text encoder's front as PyTorch exports it, from token ids: word
    embeddings gathered by run-time INT64 ids (a negative id counts from the
    end), constant position and token-type embeddings, LayerNorm, and one
    self-attention whose additive bias comes from the INT64 attention mask
    (Unsqueeze, Cast, Sub, Mul). Also RoBERTa-style positions from the ids
    (Equal to the pad id, Not, Cast to INT64, Mul, Add: an INT64 output) and
    the BOOL mask of real tokens as an output."""
    vocab, d, seq, pad = 30, 16, 7, 1
    emb, pos, typ = rand(vocab, d), rand(seq, d), rand(2, d)
    g, beta = rand(d, lo=0.5, hi=1.5), rand(d)
    wq, wk = rand(d, d, lo=-0.5, hi=0.5), rand(d, d, lo=-0.5, hi=0.5)
    i64 = lambda n, v: init(n, np.array(v, dtype=np.int64))
    nodes = [
        helper.make_node("Gather", ["emb", "ids"], ["we"], axis=0, name="word_embeddings"),
        helper.make_node("Range", ["r0", "rs", "r1"], ["pos_ids"]),
        helper.make_node("Gather", ["pos", "pos_ids"], ["pe"], axis=0, name="position_embeddings"),
        helper.make_node("Gather", ["typ", "zero"], ["te"], axis=0, name="token_type"),
        helper.make_node("Add", ["we", "pe"], ["e1"]),
        helper.make_node("Add", ["e1", "te"], ["e2"]),
        helper.make_node("LayerNormalization", ["e2", "g", "beta"], ["h"], axis=-1, epsilon=1e-5),
        helper.make_node("MatMul", ["h", "wq"], ["q"]),
        helper.make_node("MatMul", ["h", "wk"], ["k"]),
        helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
        helper.make_node("MatMul", ["q", "kt"], ["s0"]),
        helper.make_node("Mul", ["s0", "scale"], ["s1"]),
        helper.make_node("Unsqueeze", ["mask", "ax1"], ["m3"], name="mask_unsqueeze"),
        helper.make_node("Cast", ["m3"], ["mf"], to=TensorProto.FLOAT, name="mask_cast"),
        helper.make_node("Sub", ["one", "mf"], ["inv"]),
        helper.make_node("Mul", ["inv", "big"], ["bias"]),
        helper.make_node("Add", ["s1", "bias"], ["s2"]),
        helper.make_node("Softmax", ["s2"], ["p"], axis=-1),
        helper.make_node("MatMul", ["p", "h"], ["y"]),
        helper.make_node("Equal", ["ids", "padid"], ["is_pad"], name="is_pad"),
        helper.make_node("Not", ["is_pad"], ["real"], name="real"),
        helper.make_node("Cast", ["real"], ["real_i"], to=TensorProto.INT64),
        helper.make_node("Mul", ["real_i", "pos_ids"], ["p1"], name="positions_mul"),
        helper.make_node("Add", ["p1", "padid"], ["positions"], name="positions_add"),
    ]
    inits = [init("emb", emb), init("pos", pos), init("typ", typ), init("g", g), init("beta", beta),
             init("wq", wq), init("wk", wk), i64("r0", 0), i64("rs", seq), i64("r1", 1), i64("zero", 0),
             i64("ax1", [1]), i64("padid", pad),
             init("scale", np.array(0.25, dtype=np.float32)), init("one", np.array(1.0, dtype=np.float32)),
             init("big", np.array(-10000.0, dtype=np.float32))]
    ids = np.array([[3, 7, -1, 12, 1, 1, 1], [0, 29, 5, 5, -30, 8, 2]], dtype=np.int64)
    mask = (ids != pad).astype(np.int64)
    e = emb[np.where(ids < 0, ids + vocab, ids)].astype(np.float64) + pos + typ[0]
    mu = e.mean(-1, keepdims=True)
    h = (e - mu) / np.sqrt(((e - mu) ** 2).mean(-1, keepdims=True) + 1e-5) * g + beta
    s2 = (h @ wq) @ (h @ wk).transpose(0, 2, 1) * 0.25 + (1.0 - mask[:, None, :]) * -10000.0
    p = np.exp(s2 - s2.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    y = (p @ h).astype(np.float32)
    real = ids != pad
    positions = real.astype(np.int64) * np.arange(seq) + pad
    outs = [("y", y, TensorProto.FLOAT), ("positions", positions, TensorProto.INT64),
            ("real", real, TensorProto.BOOL)]
    return (model(nodes, [vi("ids", [2, seq], TensorProto.INT64), vi("mask", [2, seq], TensorProto.INT64)],
                  [vi(n, list(r.shape), t) for n, r, t in outs], inits, opset=17),
            ([ids, mask], [r for _, r, _ in outs]))


def typed_ops():
    """Run-time integers and booleans through every op that takes them:
    comparisons of floats and of integers, And/Or/Xor, Where on a run-time
    condition (floats and integers), Cast among FLOAT, INT64, INT32 and BOOL
    (floats truncate toward zero), Concat/Slice/Transpose/Reshape/Expand/
    Tile of integers, integer Max/Min/Sub/Sum, a Gather of INT32 indices on
    axis 1 of run-time integer data, and a Gather of 100 known indices."""
    x = rand(3, 4, lo=-3.0, hi=3.0)
    ids = np.array([[1, -2, 0, 3], [2, 2, -1, 0], [3, 1, 0, -4]], dtype=np.int64)
    sel = np.array([[0, 3], [-1, 1]], dtype=np.int32)
    table = rand(120, 3)
    many = np.arange(100, dtype=np.int64)[::-1] % 120
    i64 = lambda n, v: init(n, np.array(v, dtype=np.int64))
    nodes = [
        helper.make_node("Less", ["x", "fzero"], ["neg"]),
        helper.make_node("GreaterOrEqual", ["ids", "i1"], ["big"]),
        helper.make_node("LessOrEqual", ["x", "fone"], ["le1"]),
        helper.make_node("Greater", ["ids", "sel0"], ["gt"]),
        helper.make_node("And", ["neg", "big"], ["a"]),
        helper.make_node("Or", ["a", "gt"], ["o"]),
        helper.make_node("Xor", ["o", "le1"], ["flags"]),
        helper.make_node("Where", ["neg", "x", "fhalf"], ["w_f"]),
        helper.make_node("Where", ["big", "ids", "i1"], ["w_i"]),
        helper.make_node("Cast", ["x"], ["x_i"], to=TensorProto.INT64),
        helper.make_node("Cast", ["x"], ["x_b"], to=TensorProto.BOOL),
        helper.make_node("Cast", ["ids32"], ["ids32_64"], to=TensorProto.INT64),
        helper.make_node("Max", ["x_i", "w_i", "ids32_64"], ["mx"]),
        helper.make_node("Min", ["mx", "i1"], ["mn"]),
        helper.make_node("Sub", ["mx", "mn"], ["d"]),
        helper.make_node("Sum", ["d", "ids", "i1"], ["sm"]),
        helper.make_node("Concat", ["sm", "row"], ["cat"], axis=0),
        helper.make_node("Slice", ["cat", "st", "en", "axs", "steps"], ["sl"]),
        helper.make_node("Transpose", ["sl"], ["tr"], perm=[1, 0]),
        helper.make_node("Reshape", ["tr", "shp"], ["ints"]),
        helper.make_node("Expand", ["x_b", "eshape"], ["xb2"]),
        helper.make_node("Tile", ["xb2", "reps"], ["xb3"]),
        helper.make_node("Cast", ["xb3"], ["bools"], to=TensorProto.INT32),
        helper.make_node("Gather", ["ids", "sel"], ["g"], axis=1, name="gather_axis1"),
        helper.make_node("Gather", ["table", "many"], ["g_many"], axis=0, name="gather_many"),
    ]
    inits = [init("fzero", np.array(0.0, dtype=np.float32)), init("fone", np.array(1.0, dtype=np.float32)),
             init("fhalf", np.array(0.5, dtype=np.float32)), i64("i1", 1), i64("sel0", [0, 1, 0, 1]),
             i64("row", [[9, 8, 7, 6]]), i64("st", [0, 3]), i64("en", [4, -5]), i64("axs", [0, 1]),
             i64("steps", [2, -1]), i64("shp", [2, 4]), i64("eshape", [2, 3, 4]), i64("reps", [1, 1, 2]),
             init("table", table), i64("many", many)]
    ids32 = np.array([[4, -4, 0, 1], [-1, 2, 7, 0], [0, 0, 5, -9]], dtype=np.int32)
    neg, big, le1 = x < 0, ids >= 1, x <= 1
    gt = ids > np.array([0, 1, 0, 1])
    flags = ((neg & big) | gt) ^ le1
    w_f = np.where(neg, x, np.float32(0.5))
    w_i = np.where(big, ids, 1)
    x_i = np.trunc(x).astype(np.int64)
    mx = np.maximum(np.maximum(x_i, w_i), ids32.astype(np.int64))
    mn = np.minimum(mx, 1)
    sm = (mx - mn) + ids + 1
    cat = np.concatenate([sm, [[9, 8, 7, 6]]], axis=0)
    ints = cat[0:4:2, 3:-5:-1].T.reshape(2, 4)
    bools = np.tile(np.broadcast_to(x != 0, (2, 3, 4)), (1, 1, 2)).astype(np.int32)
    g = ids[:, np.where(sel < 0, sel + 4, sel)]
    outs = [("flags", flags, TensorProto.BOOL), ("w_f", w_f, TensorProto.FLOAT),
            ("ints", ints, TensorProto.INT64), ("bools", bools, TensorProto.INT32),
            ("g", g, TensorProto.INT64), ("g_many", table[many], TensorProto.FLOAT)]
    return (model(nodes, [vi("x", [3, 4]), vi("ids", [3, 4], TensorProto.INT64),
                          vi("ids32", [3, 4], TensorProto.INT32), vi("sel", [2, 2], TensorProto.INT32)],
                  [vi(n, list(r.shape), t) for n, r, t in outs], inits),
            ([x, ids, ids32, sel], [r for _, r, _ in outs]))


def bind_shape():
    """Reshape and Slice whose shape and starts come from graph inputs: a
    static-shape compiler needs them at import time (fuse-compile
    --onnx-bind); x stays a run-time input."""
    x = rand(2, 6)
    shape = np.array([3, 4], dtype=np.int64)
    starts = np.array([1], dtype=np.int64)
    nodes = [helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape"),
             helper.make_node("Slice", ["r", "starts", "ends"], ["y"], name="slice")]
    y = x.reshape(3, 4)[1:]
    return (model(nodes, [vi("x", [2, 6]), vi("shape", [2], TensorProto.INT64),
                          vi("starts", [1], TensorProto.INT64)], [vi("y", [2, 4])],
                  [init("ends", np.array([3], dtype=np.int64))]),
            ([x, shape, starts], [y]))


def index_ops():
    """GatherElements, CumSum (plain, exclusive, reverse; float and INT64),
    ArgMax/ArgMin (keepdims, select_last_index, ties) and Pow by an INT64
    exponent, on run-time values."""
    x = np.round(rand(3, 5, lo=-2.0, hi=2.0) * 2) / 2  # halves: ties for ArgMax
    idx = np.array([[0, 4, -1], [2, 2, 1], [-5, 3, 0]], dtype=np.int64)
    ids = np.array([[3, 0, 2, 7], [1, 1, 0, 5]], dtype=np.int64)
    e = np.array([2, 3, 0, 1, 2], dtype=np.int64)
    nodes = [
        helper.make_node("GatherElements", ["x", "idx"], ["ge"], axis=1, name="gather_elements"),
        helper.make_node("CumSum", ["x", "ax1"], ["cs"], name="cumsum"),
        helper.make_node("CumSum", ["x", "ax0"], ["cs_er"], exclusive=1, reverse=1, name="cumsum_er"),
        helper.make_node("CumSum", ["ids", "ax1"], ["cs_i"], name="cumsum_int"),
        helper.make_node("ArgMax", ["x"], ["amax"], axis=1, keepdims=1, name="argmax"),
        helper.make_node("ArgMax", ["x"], ["amax_last"], axis=1, keepdims=0, select_last_index=1, name="argmax_last"),
        helper.make_node("ArgMin", ["x"], ["amin"], axis=0, keepdims=0, name="argmin"),
        helper.make_node("ArgMax", ["ids"], ["amax_i"], axis=-1, keepdims=1, name="argmax_int"),
        helper.make_node("Pow", ["x", "e"], ["pw"], name="pow_int_exponent"),
    ]
    inits = [init("ax1", np.array(1, dtype=np.int64)), init("ax0", np.array(0, dtype=np.int32))]
    rows = np.arange(3)[:, None]
    ge = x[rows, np.where(idx < 0, idx + 5, idx)]
    cs = np.cumsum(x.astype(np.float64), axis=1)
    rev = np.flip(x.astype(np.float64), 0)
    cs_er = np.flip(np.cumsum(rev, axis=0) - rev, 0)
    amax_last = x.shape[1] - 1 - np.argmax(np.flip(x, 1), axis=1)
    outs = [("ge", ge, TensorProto.FLOAT), ("cs", cs, TensorProto.FLOAT), ("cs_er", cs_er, TensorProto.FLOAT),
            ("cs_i", np.cumsum(ids, axis=1), TensorProto.INT64),
            ("amax", np.argmax(x, axis=1)[:, None], TensorProto.INT64),
            ("amax_last", amax_last, TensorProto.INT64), ("amin", np.argmin(x, axis=0), TensorProto.INT64),
            ("amax_i", np.argmax(ids, axis=-1)[:, None], TensorProto.INT64),
            ("pw", x.astype(np.float64) ** e, TensorProto.FLOAT)]
    return (model(nodes, [vi("x", [3, 5]), vi("idx", [3, 3], TensorProto.INT64),
                          vi("ids", [2, 4], TensorProto.INT64), vi("e", [5], TensorProto.INT64)],
                  [vi(n, list(r.shape), t) for n, r, t in outs], inits),
            ([x, idx, ids, e], [r.astype(np.int64) if t == TensorProto.INT64 else r for n, r, t in outs]))


def index_vector_ops():
    """ArgMin and ArgMax over a vector (ties included), keepdims 1 and 0:
    the extreme of the whole input is 0-d."""
    v = np.array([1.5, -2.0, 3.0, -2.0, 3.0], dtype=np.float32)
    nodes = [
        helper.make_node("ArgMin", ["v"], ["amin"], axis=0, keepdims=1, name="argmin_vector"),
        helper.make_node("ArgMax", ["v"], ["amax"], axis=0, keepdims=0, name="argmax_vector"),
        helper.make_node("ArgMax", ["v"], ["amax_last"], axis=-1, keepdims=0, select_last_index=1,
                         name="argmax_vector_last"),
    ]
    outs = [("amin", np.array([np.argmin(v)], dtype=np.int64)), ("amax", np.array(np.argmax(v), dtype=np.int64)),
            ("amax_last", np.array(len(v) - 1 - np.argmax(v[::-1]), dtype=np.int64))]
    return (model(nodes, [vi("v", [5])], [vi(n, list(r.shape), TensorProto.INT64) for n, r in outs]),
            ([v], [r for n, r in outs]))


def half_ops():
    """A FLOAT16 graph: a MatMul by a FLOAT16 weight stored in int32_data
    (one element's bits each), a Softmax (computed in f32), a Cast back to
    FLOAT; and a BFLOAT16 branch: Cast, Relu, Mul by a BFLOAT16 constant,
    Cast to FLOAT16. References in float64 from the 16-bit values."""
    x = rand(4, 8).astype(np.float16)
    w = rand(8, 16).astype(np.float16)
    w_t = helper.make_tensor("w", TensorProto.FLOAT16, [8, 16], w.reshape(-1).tolist())
    assert not w_t.HasField("raw_data") and len(w_t.int32_data) == w.size
    def bf16(a):
        bits = a.astype(np.float32).view(np.uint32).astype(np.uint64)
        return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    def from_bf16(bits):
        return (bits.astype(np.uint32) << 16).view(np.float32)
    scale = np.array([0.5, -2.0, 3.0, 0.25, 1.5, -1.0, 2.0, 0.75], dtype=np.float32)
    scale_t = helper.make_tensor("scale", TensorProto.BFLOAT16, [8], bf16(scale).tobytes(), raw=True)
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["y"], name="matmul"),
        helper.make_node("Softmax", ["y"], ["p"], axis=-1, name="softmax"),
        helper.make_node("Cast", ["p"], ["p32"], to=TensorProto.FLOAT, name="cast_out"),
        helper.make_node("Cast", ["x"], ["xb"], to=TensorProto.BFLOAT16, name="cast_bf16"),
        helper.make_node("Relu", ["xb"], ["rb"], name="relu"),
        helper.make_node("Mul", ["rb", "scale"], ["mb"], name="mul"),
        helper.make_node("Cast", ["mb"], ["m16"], to=TensorProto.FLOAT16, name="cast_f16"),
    ]
    y = x.astype(np.float64) @ w.astype(np.float64)
    e = np.exp(y - y.max(axis=-1, keepdims=True))
    p = (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)
    xb = from_bf16(bf16(x.astype(np.float32)))
    mb = from_bf16(bf16(np.maximum(xb, 0) * from_bf16(bf16(scale))))
    m16 = mb.astype(np.float16)
    return (model(nodes, [vi("x", [4, 8], TensorProto.FLOAT16)],
                  [vi("p32", [4, 16]), vi("m16", [4, 8], TensorProto.FLOAT16)], [w_t, scale_t]),
            ([x], [p, m16]))


def qdq_ops():
    """A QDQ-quantized conv block and MatMul as quantization tools write
    them: UINT8 activations (QuantizeLinear -> DequantizeLinear), INT8
    weights with per-channel scales (axis 0) and INT32 biases dequantized
    at import time, a Relu between. References follow ONNX's definitions
    (round half to even, saturation) in float32."""
    x = rand(1, 4, 6, 6, lo=-2.0, hi=2.0)
    wq = rng.integers(-127, 128, size=(8, 4, 3, 3)).astype(np.int8)
    ws = rng.uniform(0.002, 0.01, size=8).astype(np.float32)
    sx, zx = np.float32(0.02), np.uint8(128)
    bq = rng.integers(-2000, 2000, size=8).astype(np.int32)
    bs = (sx * ws).astype(np.float32)
    sy, zy = np.float32(0.05), np.uint8(3)
    mq = rng.integers(-127, 128, size=(6, 5)).astype(np.int8)
    ms, mz = np.float32(0.01), np.int8(-2)
    sa, za = np.float32(0.03), np.int8(5)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"], name="q_x"),
        helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"], name="dq_x"),
        helper.make_node("DequantizeLinear", ["wq", "ws"], ["wd"], axis=0, name="dq_w"),
        helper.make_node("DequantizeLinear", ["bq", "bs"], ["bd"], axis=0, name="dq_b"),
        helper.make_node("Conv", ["xd", "wd", "bd"], ["c"], pads=[1, 1, 1, 1], name="conv"),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("QuantizeLinear", ["r", "sy", "zy"], ["rq"], name="q_r"),
        helper.make_node("DequantizeLinear", ["rq", "sy", "zy"], ["y"], name="dq_r"),
        helper.make_node("QuantizeLinear", ["y", "sa", "za"], ["aq"], name="q_a"),
        helper.make_node("DequantizeLinear", ["aq", "sa", "za"], ["ad"], name="dq_a"),
        helper.make_node("DequantizeLinear", ["mq", "ms", "mz"], ["md"], name="dq_m"),
        helper.make_node("MatMul", ["ad", "md"], ["z"], name="matmul"),
    ]
    inits = [init("sx", sx), init("zx", zx), init("wq", wq), init("ws", ws), init("bq", bq), init("bs", bs),
             init("sy", sy), init("zy", zy), init("sa", sa), init("za", za), init("mq", mq), init("ms", ms),
             init("mz", mz)]
    def quant(v, s, z, lo, hi):
        return np.clip(np.rint(v.astype(np.float32) / s) + np.float32(z), lo, hi)
    def dequant(q, s, z):
        return ((q.astype(np.int64) - int(z)).astype(np.float32) * s).astype(np.float32)
    xd = dequant(quant(x, sx, zx, 0, 255), sx, zx)
    wd = dequant(wq, ws[:, None, None, None], 0)
    bd = dequant(bq, bs, 0)
    xp = np.pad(xd.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    c = np.zeros((1, 8, 6, 6))
    for i in range(3):
        for j in range(3):
            c += np.einsum("nchw,oc->nohw", xp[:, :, i:i + 6, j:j + 6], wd[:, :, i, j].astype(np.float64))
    c = (c + bd[None, :, None, None]).astype(np.float32)
    y = dequant(quant(np.maximum(c, 0), sy, zy, 0, 255), sy, zy)
    ad = dequant(quant(y, sa, za, -128, 127), sa, za)
    z = (ad.astype(np.float64) @ dequant(mq, ms, mz).astype(np.float64)).astype(np.float32)
    return (model(nodes, [vi("x", [1, 4, 6, 6])], [vi("y", [1, 8, 6, 6]), vi("z", [1, 8, 6, 5])], inits),
            ([x], [y, z]))


def qdq_error(kind):
    """QuantizeLinear / DequantizeLinear models fuse refuses, by name."""
    def make():
        x = vi("x", [2, 3])
        s = init("s", np.float32(0.1))
        if kind == "uint8_output":
            nodes = [helper.make_node("QuantizeLinear", ["x", "s"], ["y"], name="q")]
            return model(nodes, [x], [vi("y", [2, 3], TensorProto.UINT8)], [s]), None
        if kind == "zero_scale":
            nodes = [helper.make_node("QuantizeLinear", ["x", "z"], ["q"], name="q"),
                     helper.make_node("DequantizeLinear", ["q", "z"], ["y"], name="dq")]
            return model(nodes, [x], [vi("y", [2, 3])], [init("z", np.float32(0.0))]), None
        if kind == "axis":
            nodes = [helper.make_node("QuantizeLinear", ["x", "s4"], ["q"], axis=1, name="q"),
                     helper.make_node("DequantizeLinear", ["q", "s4"], ["y"], axis=1, name="dq")]
            return model(nodes, [x], [vi("y", [2, 3])], [init("s4", np.full(4, 0.1, np.float32))]), None
        if kind == "runtime_scale":
            nodes = [helper.make_node("QuantizeLinear", ["x", "sr"], ["q"], name="q"),
                     helper.make_node("DequantizeLinear", ["q", "sr"], ["y"], name="dq")]
            return model(nodes, [x, vi("sr", [])], [vi("y", [2, 3])]), None
        if kind == "add":
            nodes = [helper.make_node("QuantizeLinear", ["x", "s"], ["q"], name="q"),
                     helper.make_node("Add", ["q", "q"], ["a"], name="add"),
                     helper.make_node("DequantizeLinear", ["a", "s"], ["y"], name="dq")]
            return model(nodes, [x], [vi("y", [2, 3])], [s]), None
        if kind == "float_input":
            nodes = [helper.make_node("DequantizeLinear", ["x", "s"], ["y"], name="dq")]
            return model(nodes, [x], [vi("y", [2, 3])], [s]), None
        raise ValueError(kind)
    return make


def half_error(kind):
    """16-bit float models fuse refuses, by name."""
    def make():
        x16 = vi("x", [2, 3], TensorProto.FLOAT16)
        if kind == "mixed":
            nodes = [helper.make_node("Add", ["x", "y"], ["z"], name="add")]
            return model(nodes, [x16, vi("y", [2, 3])], [vi("z", [2, 3], TensorProto.FLOAT16)]), None
        if kind == "bytes":
            t = onnx.TensorProto(name="w", data_type=TensorProto.FLOAT16, dims=[2, 3], raw_data=b"\0" * 10)
            nodes = [helper.make_node("Add", ["x", "w"], ["z"], name="add")]
            return model(nodes, [x16], [vi("z", [2, 3], TensorProto.FLOAT16)], [t]), None
        if kind == "output_type":
            nodes = [helper.make_node("Relu", ["x"], ["z"], name="relu")]
            return model(nodes, [x16], [vi("z", [2, 3])]), None
        raise ValueError(kind)
    return make


def index_error(kind):
    """GatherElements, CumSum, ArgMax and Pow models fuse refuses, by name."""
    def make():
        x = vi("x", [2, 3])
        if kind == "ge_rank":
            nodes = [helper.make_node("GatherElements", ["x", "i"], ["y"], axis=0, name="ge")]
            return model(nodes, [x, vi("i", [2], TensorProto.INT64)], [vi("y", [2])]), None
        if kind == "ge_size":
            nodes = [helper.make_node("GatherElements", ["x", "i"], ["y"], axis=0, name="ge")]
            return model(nodes, [x, vi("i", [2, 4], TensorProto.INT64)], [vi("y", [2, 4])]), None
        if kind == "cumsum_axis":
            nodes = [helper.make_node("CumSum", ["x", "a"], ["y"], name="cumsum")]
            return model(nodes, [x, vi("a", [], TensorProto.INT64)], [vi("y", [2, 3])]), None
        if kind == "argmax_axis":
            nodes = [helper.make_node("ArgMax", ["x"], ["y"], axis=2, name="argmax")]
            return model(nodes, [x], [vi("y", [2, 3, 1], TensorProto.INT64)]), None
        if kind == "pow_int_base":
            nodes = [helper.make_node("Pow", ["i", "i"], ["y"], name="pow")]
            return model(nodes, [vi("i", [2], TensorProto.INT64)], [vi("y", [2], TensorProto.INT64)]), None
        raise ValueError(kind)
    return make


def einsum_ops():
    """Einsum in the forms networks export: attention scores, a projection
    by a constant weight, an ellipsis batch, a transpose, a sum, a row-wise
    dot product, an outer product, an implicit output and an index summed
    out of one operand."""
    q, k = rand(2, 3, 4, 5), rand(2, 3, 6, 5)
    x, w = rand(2, 4, 5), rand(7, 5)
    a, c = rand(3, 2, 4, 5), rand(3, 2, 5, 6)
    m = rand(4, 6)
    u, v = rand(4), rand(3)
    forms = [("scores", "bhqd,bhkd->bhqk", ["q", "k"], np.einsum("bhqd,bhkd->bhqk", q, k)),
             ("proj", "bid,jd->bij", ["x", "w"], np.einsum("bid,jd->bij", x, w)),
             ("ell", "...ij,...jk->...ik", ["a", "c"], np.einsum("...ij,...jk->...ik", a, c)),
             ("tr", "ij->ji", ["m"], m.T),
             ("rowsum", "bij->bj", ["x"], x.sum(1)),
             ("dot", "ij,ij->i", ["m", "m"], (m * m).sum(1)),
             ("outer", "i,j->ij", ["u", "v"], np.outer(u, v)),
             ("implicit", "ij,jk", ["m", "m6"], m @ rand(6, 3, lo=0, hi=0) if False else None),
             ("summed", "bid,de->be", ["x", "e"], None)]
    m6, e = rand(6, 3), rand(5, 2)
    forms[7] = ("implicit", "ij,jk", ["m", "m6"], m @ m6)
    forms[8] = ("summed", "bid,de->be", ["x", "e"], x.sum(1) @ e)
    nodes = [helper.make_node("Einsum", ins, [name], equation=eq, name=name) for name, eq, ins, _ in forms]
    inputs = [vi("q", [2, 3, 4, 5]), vi("k", [2, 3, 6, 5]), vi("x", [2, 4, 5]), vi("a", [3, 2, 4, 5]),
              vi("c", [3, 2, 5, 6]), vi("m", [4, 6]), vi("u", [4]), vi("v", [3])]
    outs = [(name, ref.astype(np.float32)) for name, _, _, ref in forms]
    return (model(nodes, inputs, [vi(n, list(r.shape)) for n, r in outs],
                  [init("w", w), init("m6", m6), init("e", e)]),
            ([q, k, x, a, c, m, u, v], [r for _, r in outs]))


def einsum_diagonals():
    """Einsum where an index repeats in one term: a diagonal, a batch of
    them, the trace (a scalar), a diagonal then a product, a diagonal of the
    second operand, and one under an ellipsis."""
    s, t = rand(3, 3), rand(2, 3, 3)
    p, w = rand(3, 3, 4), rand(4, 5)
    m = rand(4, 3)
    forms = [("diag", "ii->i", ["s"], np.einsum("ii->i", s)),
             ("bdiag", "bii->bi", ["t"], np.einsum("bii->bi", t)),
             ("trace", "ii", ["s"], np.einsum("ii", s)),
             ("diagmm", "iij,jk->ik", ["p", "w"], np.einsum("iij,jk->ik", p, w)),
             ("rdiag", "ij,jj->i", ["m", "s"], np.einsum("ij,jj->i", m, s)),
             ("ediag", "...ii->...i", ["t"], np.einsum("...ii->...i", t))]
    nodes = [helper.make_node("Einsum", ins, [name], equation=eq, name=name) for name, eq, ins, _ in forms]
    inputs = [vi("s", [3, 3]), vi("t", [2, 3, 3]), vi("p", [3, 3, 4]), vi("m", [4, 3])]
    outs = [(name, np.asarray(ref, np.float32)) for name, _, _, ref in forms]
    return (model(nodes, inputs, [vi(n, list(r.shape)) for n, r in outs], [init("w", w)]),
            ([s, t, p, m], [r for _, r in outs]))


def einsum_error(kind):
    """Einsum equations fuse refuses, by name."""
    def make():
        eq, shapes = {"diagonal": ("ii->i", [[3, 4]]), "sizes": ("ij,jk->ik", [[2, 3], [4, 5]]),
                      "three": ("i,i,i->i", [[3], [3], [3]]), "rank": ("ijk->i", [[2, 3]]),
                      "chars": ("i1->i", [[2, 3]])}[kind]
        names = [f"x{k}" for k in range(len(shapes))]
        nodes = [helper.make_node("Einsum", names, ["y"], equation=eq, name="einsum")]
        return model(nodes, [vi(nm, s) for nm, s in zip(names, shapes)], [vi("y", ["n"])]), None
    return make


def typed_pad():
    """Pad of INT64 data: a constant pad value (exact: 2^40 + 1), edge and
    reflect."""
    ids = np.array([[1, -2, 3], [4, 5, -6]], dtype=np.int64)
    big = (1 << 40) + 1
    pads = np.array([1, 0, 0, 2], dtype=np.int64)
    nodes = [helper.make_node("Pad", ["ids", "pads", "cv"], ["pc"], mode="constant", name="pad_constant"),
             helper.make_node("Pad", ["ids", "pads"], ["pe"], mode="edge", name="pad_edge"),
             helper.make_node("Pad", ["ids", "pads"], ["pr"], mode="reflect", name="pad_reflect")]
    pw = ((1, 0), (0, 2))
    outs = [("pc", np.pad(ids, pw, constant_values=big)), ("pe", np.pad(ids, pw, mode="edge")),
            ("pr", np.pad(ids, pw, mode="reflect"))]
    return (model(nodes, [vi("ids", [2, 3], TensorProto.INT64)],
                  [vi(n, list(r.shape), TensorProto.INT64) for n, r in outs],
                  [init("pads", pads), init("cv", np.array(big, dtype=np.int64))]),
            ([ids], [r for _, r in outs]))


def typed_error(kind):
    """Models with run-time integers fuse refuses, by name."""
    def make():
        ids = vi("ids", [2, 3], TensorProto.INT64)
        i64 = lambda n, v: init(n, np.array(v, dtype=np.int64))
        if kind == "relu":
            nodes = [helper.make_node("Relu", ["ids"], ["y"], name="relu")]
            return model(nodes, [ids], [vi("y", [2, 3], TensorProto.INT64)]), None
        if kind == "mixed":
            nodes = [helper.make_node("Equal", ["ids", "x"], ["y"], name="equal")]
            return model(nodes, [ids, vi("x", [2, 3])], [vi("y", [2, 3], TensorProto.BOOL)]), None
        if kind == "less_bool":
            nodes = [helper.make_node("Cast", ["ids"], ["b"], to=TensorProto.BOOL),
                     helper.make_node("Less", ["b", "b"], ["y"], name="less")]
            return model(nodes, [ids], [vi("y", [2, 3], TensorProto.BOOL)]), None
        if kind == "div":
            nodes = [helper.make_node("Div", ["ids", "two"], ["y"], name="div")]
            return model(nodes, [ids], [vi("y", [2, 3], TensorProto.INT64)], [i64("two", 2)]), None
        if kind == "float_indices":
            nodes = [helper.make_node("Gather", ["t", "x"], ["y"], name="gather")]
            return model(nodes, [vi("x", [2])], [vi("y", [2, 3])], [init("t", rand(4, 3))]), None
        if kind == "cast_f64":
            nodes = [helper.make_node("Cast", ["ids"], ["y"], to=TensorProto.DOUBLE, name="cast")]
            return model(nodes, [ids], [vi("y", [2, 3], TensorProto.DOUBLE)]), None
        if kind == "uint8_input":
            nodes = [helper.make_node("Cast", ["u"], ["y"], to=TensorProto.FLOAT, name="cast")]
            return model(nodes, [vi("u", [2], TensorProto.UINT8)], [vi("y", [2])]), None
        if kind == "float_condition":
            nodes = [helper.make_node("Where", ["x", "x", "x"], ["y"], name="where")]
            return model(nodes, [vi("x", [2])], [vi("y", [2])]), None
        if kind == "output_type":
            nodes = [helper.make_node("Add", ["ids", "one"], ["y"], name="add")]
            return model(nodes, [ids], [vi("y", [2, 3])], [i64("one", 1)]), None
        if kind == "known_index":
            nodes = [helper.make_node("Gather", ["t", "many"], ["y"], name="gather")]
            return model(nodes, [vi("t", [4, 3])], [vi("y", [70, 3])],
                         [i64("many", [0] * 69 + [4])]), None
        raise ValueError(kind)
    return make


def logic_error(kind):
    """Logic, Where, Expand and Range models fuse refuses, by name."""
    def make():
        i64 = lambda n, v: init(n, np.array(v, dtype=np.int64))
        if kind == "range_zero":
            nodes = [helper.make_node("Range", ["a", "b", "d"], ["r"], name="range"),
                     helper.make_node("Cast", ["r"], ["rf"], to=TensorProto.FLOAT),
                     helper.make_node("Add", ["x", "rf"], ["y"], name="add")]
            return model(nodes, [vi("x", [3])], [vi("y", [3])],
                         [i64("a", 0), i64("b", 3), i64("d", 0)]), None
        if kind == "expand_shape":
            nodes = [helper.make_node("Expand", ["x", "s"], ["y"], name="expand")]
            return model(nodes, [vi("x", [2, 3])], [vi("y", [4, 3])], [i64("s", [4, 3])]), None
        raise ValueError(kind)
    return make


def window_error(kind):
    """Window and pad ops fuse refuses, by name."""
    def make():
        if kind == "reflect_too_wide":
            nodes = [helper.make_node("Pad", ["x", "p"], ["y"], mode="reflect", name="pad")]
            return model(nodes, [vi("x", [2, 3])], [vi("y", [2, 9])],
                         [init("p", np.array([0, 3, 0, 3], dtype=np.int64))]), None
        if kind == "wrap":
            nodes = [helper.make_node("Pad", ["x", "p"], ["y"], mode="wrap", name="pad")]
            return model(nodes, [vi("x", [2, 3])], [vi("y", [2, 5])],
                         [init("p", np.array([0, 1, 0, 1], dtype=np.int64))], opset=18), None
        if kind == "tile_reps":
            nodes = [helper.make_node("Tile", ["x", "r"], ["y"], name="tile")]
            return model(nodes, [vi("x", [2, 3])], [vi("y", [2, 3])],
                         [init("r", np.array([1, 0], dtype=np.int64))]), None
        raise ValueError(kind)
    return make


def activation_error(kind):
    """An activation with an attribute or input fuse refuses."""
    def make():
        if kind == "prelu_slope":
            nodes = [helper.make_node("PRelu", ["x", "s"], ["y"], name="prelu")]
            return model(nodes, [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])],
                         [init("s", rand(3, 4, 2))], opset=16), None
        if kind == "prelu_channels":
            nodes = [helper.make_node("PRelu", ["x", "s"], ["y"], name="prelu")]
            return model(nodes, [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])], [init("s", rand(5))], opset=6), None
        if kind == "celu_zero":
            nodes = [helper.make_node("Celu", ["x"], ["y"], name="celu", alpha=0.0)]
        elif kind == "elu_inf":
            nodes = [helper.make_node("Elu", ["x"], ["y"], name="elu", alpha=float("inf"))]
        else:
            raise ValueError(kind)
        return model(nodes, [vi("x", [2, 3])], [vi("y", [2, 3])], opset=17), None
    return make


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
        "activations": activations,
        "opset18_ops": opset18_ops,
        "opset21_ops": opset21_ops,
        "wide_conv": wide_conv,
        **{f"twin_{k}": linalg_twin(k) for k in ["layernorm", "softmax", "attention", "conv_bias", "branches",
                                                  "reassembled"]},
        **{f"opset21_{k}": opset21_error(k) for k in ["gelu_approximate", "gn_scale", "blocked", "dilated_pool",
                                                       "opset22"]},
        **{f"opset18_{k}": opset18_error(k) for k in ["mish_attr", "reduce_inputs", "gn_groups", "gn_scale",
                                                       "split_both", "resize_policy", "resize_antialias",
                                                       "pad_axes", "opset17_reduce_input"]},
        "window_ops": window_ops,
        "volume_ops": volume_ops,
        "decoder_ops": decoder_ops,
        "grouped_conv": grouped_conv,
        "resize_ops": resize_ops,
        "topk_ops": topk_ops,
        "sequence_ops": sequence_ops,
        "sequence_ops_opset11": lambda: sequence_ops(11),
        **{f"sequence_{k}": sequence_error(k) for k in
           ["position", "runtime_position", "output", "tensor_op", "not_sequence",
            "erase_empty", "split_sizes"]},
        "scatternd_ops": scatternd_ops,
        **{f"scatternd_{k}": scatternd_error(k) for k in ["updates_shape", "k_rank", "reduction_max"]},
        **{f"topk_{k}": topk_error(k) for k in ["k_zero", "k_large", "bool"]},
        **{f"resize_{k}": resize_error(k) for k in ["area", "crop", "nn_linear", "scales_count", "zero_scale",
                                                     "taps"]},
        "class_token": class_token,
        **{f"logic_{k}": logic_error(k) for k in ["range_zero", "expand_shape"]},
        "token_encoder": token_encoder,
        "typed_ops": typed_ops,
        "typed_pad": typed_pad,
        "bind_shape": bind_shape,
        "index_ops": index_ops,
        "index_vector_ops": index_vector_ops,
        "half_ops": half_ops,
        "qdq_ops": qdq_ops,
        "reshape_opset4": reshape_opset(4),
        "reshape_opset4_no_shape": reshape_opset(4, with_shape=False),
        "reshape_opset13": reshape_opset(13),
        **{f"qdq_{k}": qdq_error(k) for k in ["uint8_output", "zero_scale", "axis", "runtime_scale", "add",
                                               "float_input"]},
        **{f"half_{k}": half_error(k) for k in ["mixed", "bytes", "output_type"]},
        "einsum_ops": einsum_ops,
        "einsum_diagonals": einsum_diagonals,
        **{f"einsum_{k}": einsum_error(k) for k in ["diagonal", "sizes", "three", "rank", "chars"]},
        **{f"index_{k}": index_error(k) for k in ["ge_rank", "ge_size", "cumsum_axis", "argmax_axis",
                                                   "pow_int_base"]},
        **{f"typed_{k}": typed_error(k) for k in ["relu", "mixed", "less_bool", "div", "float_indices",
                                                   "cast_f64", "uint8_input", "float_condition",
                                                   "output_type", "known_index"]},
        **{f"decoder_{k}": decoder_error(k) for k in ["output_padding", "crop_all", "inorm_scale", "conv3d_weight",
                                                       "pool3d_kernel", "pool3d_pads"]},
        **{f"window_{k}": window_error(k) for k in ["reflect_too_wide", "wrap", "tile_reps"]},
        **{f"activation_{k}": activation_error(k) for k in ["prelu_slope", "prelu_channels", "celu_zero",
                                                             "elu_inf"]},
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
                 **{f"output_{k}": a if a.dtype in (np.int64, np.int32, np.bool_) else a.astype(np.float32)
                    for k, a in enumerate(outs)})


if __name__ == "__main__":
    main()
