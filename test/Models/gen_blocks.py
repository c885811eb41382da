#!/usr/bin/python3
"""Writes the hand-written model blocks of test/Models (ResNet bottleneck,
Inception block, YOLO C3 and SPPF) as TOSA, the way an ONNX importer emits
them: convolutions with BatchNorm as per-channel subtract/multiply/add,
activations, residual adds, pools and concats. The RUN/CHECK lines live in
the header of each generated file; run this script again after changing it.
Deterministic: fixed seed."""
import os
import random

random.seed(2026)
HERE = os.path.dirname(os.path.abspath(__file__))


def T(*d):
    return "tensor<" + "x".join(map(str, d)) + "xf32>"


class Block:
    def __init__(self):
        self.lines = []
        self.n = 0

    def fresh(self, base):
        self.n += 1
        return f"{base}{self.n}"

    def emit(self, line):
        self.lines.append("  " + line)

    def const(self, shape, values=None, splat=None):
        name = self.fresh("c")
        if splat is not None:
            lit = repr(splat)
        else:
            lit = "[" + ", ".join(f"{v:.4f}" for v in values) + "]"
            if len(shape) > 1:
                # per-channel: all leading dims 1
                lit = "[" * (len(shape) - 1) + lit + "]" * (len(shape) - 1)
        self.emit(f'%{name} = "tosa.const"() <{{values = dense<{lit}> : {T(*shape)}}}> : () -> {T(*shape)}')
        return name

    def conv(self, x, shape, cout, k, stride=1, pad=None, bn=True):
        n, h, w, cin = shape
        p = (k - 1) // 2 if pad is None else pad
        oh = (h + 2 * p - k) // stride + 1
        ow = (w + 2 * p - k) // stride + 1
        wt = self.const((cout, k, k, cin), splat=round(random.uniform(0.01, 0.05), 4))
        b = self.const((cout,), splat=0.0)
        out = self.fresh("conv")
        self.emit(f"%{out} = tosa.conv2d %{x}, %{wt}, %{b}, %zp, %zp {{acc_type = f32, "
                  f"dilation = array<i64: 1, 1>, pad = array<i64: {p}, {p}, {p}, {p}>, "
                  f"stride = array<i64: {stride}, {stride}>}} : ({T(*shape)}, {T(cout, k, k, cin)}, "
                  f"{T(cout)}, tensor<1xf32>, tensor<1xf32>) -> {T(n, oh, ow, cout)}")
        oshape = (n, oh, ow, cout)
        if bn:
            out = self.batchnorm(out, oshape)
        return out, oshape

    def batchnorm(self, x, shape):
        c = shape[-1]
        mean = self.const((1, 1, 1, c), [random.uniform(-0.2, 0.2) for _ in range(c)])
        scale = self.const((1, 1, 1, c), [random.uniform(0.5, 1.5) for _ in range(c)])
        beta = self.const((1, 1, 1, c), [random.uniform(-0.2, 0.2) for _ in range(c)])
        a = self.fresh("bn")
        self.emit(f"%{a} = tosa.sub %{x}, %{mean} : ({T(*shape)}, {T(1, 1, 1, c)}) -> {T(*shape)}")
        m = self.fresh("bn")
        self.emit(f"%{m} = tosa.mul %{a}, %{scale}, %shift : ({T(*shape)}, {T(1, 1, 1, c)}, tensor<1xi8>) -> {T(*shape)}")
        y = self.fresh("bn")
        self.emit(f"%{y} = tosa.add %{m}, %{beta} : ({T(*shape)}, {T(1, 1, 1, c)}) -> {T(*shape)}")
        return y

    def relu(self, x, shape):
        y = self.fresh("relu")
        self.emit(f"%{y} = tosa.clamp %{x} {{min_val = 0.0 : f32, max_val = 3.4e38 : f32}} : ({T(*shape)}) -> {T(*shape)}")
        return y

    def silu(self, x, shape):
        s = self.fresh("sig")
        self.emit(f"%{s} = tosa.sigmoid %{x} : ({T(*shape)}) -> {T(*shape)}")
        y = self.fresh("silu")
        self.emit(f"%{y} = tosa.mul %{x}, %{s}, %shift : ({T(*shape)}, {T(*shape)}, tensor<1xi8>) -> {T(*shape)}")
        return y

    def add(self, a, b, shape):
        y = self.fresh("add")
        self.emit(f"%{y} = tosa.add %{a}, %{b} : ({T(*shape)}, {T(*shape)}) -> {T(*shape)}")
        return y

    def maxpool(self, x, shape, k, stride=1):
        p = (k - 1) // 2
        n, h, w, c = shape
        oshape = (n, (h + 2 * p - k) // stride + 1, (w + 2 * p - k) // stride + 1, c)
        y = self.fresh("pool")
        self.emit(f"%{y} = tosa.max_pool2d %{x} {{kernel = array<i64: {k}, {k}>, pad = array<i64: {p}, {p}, {p}, {p}>, "
                  f"stride = array<i64: {stride}, {stride}>}} : ({T(*shape)}) -> {T(*oshape)}")
        return y, oshape

    def concat(self, parts, shapes):
        c = sum(s[-1] for s in shapes)
        oshape = shapes[0][:-1] + (c,)
        y = self.fresh("cat")
        ins = ", ".join(f"%{p}" for p in parts)
        tys = ", ".join(T(*s) for s in shapes)
        self.emit(f"%{y} = tosa.concat {ins} {{axis = 3 : i32}} : ({tys}) -> {T(*oshape)}")
        return y, oshape

    def function(self, name, inshape, out, oshape):
        head = [f"func.func @{name}(%x: {T(*inshape)}) -> {T(*oshape)} {{",
                '  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>',
                '  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>']
        return "\n".join(head + self.lines + [f"  return %{out} : {T(*oshape)}", "}"]) + "\n"


def resnet_bottleneck(size, stride):
    """torchvision's v1.5 bottleneck on a size x size x 64 input: the 3x3
    conv and the 1x1 downsample (conv + BN) stride by `stride`. With stride
    1 the downsample matches conv1. For stride 2 the size must be odd: TOSA
    needs strided windows to divide evenly (an importer trims the padding
    no window reads to get there)."""
    b = Block()
    shape = (1, size, size, 64)
    y1, s1 = b.conv("x", shape, 16, 1)
    y1 = b.relu(y1, s1)
    y2, s2 = b.conv(y1, s1, 16, 3, stride=stride)
    y2 = b.relu(y2, s2)
    y3, s3 = b.conv(y2, s2, 64, 1)
    ds, sd = b.conv("x", shape, 64, 1, stride=stride)
    y = b.add(y3, ds, s3)
    y = b.relu(y, s3)
    return b.function("resnet_bottleneck", shape, y, s3)


def inception():
    b = Block()
    shape = (1, 16, 16, 32)
    a, sa = b.conv("x", shape, 16, 1)
    a = b.relu(a, sa)
    c1, sc1 = b.conv("x", shape, 8, 1)
    c1 = b.relu(c1, sc1)
    c, sc = b.conv(c1, sc1, 16, 3)
    c = b.relu(c, sc)
    d1, sd1 = b.conv("x", shape, 8, 1)
    d1 = b.relu(d1, sd1)
    d, sd = b.conv(d1, sd1, 8, 5)
    d = b.relu(d, sd)
    p, sp = b.maxpool("x", shape, 3)
    e, se = b.conv(p, sp, 8, 1)
    e = b.relu(e, se)
    y, sy = b.concat([a, c, d, e], [sa, sc, sd, se])
    return b.function("inception", shape, y, sy)


def yolo_c3():
    b = Block()
    shape = (1, 16, 16, 32)
    a, sa = b.conv("x", shape, 16, 1)
    a = b.silu(a, sa)
    m, sm = b.conv(a, sa, 16, 1)
    m = b.silu(m, sm)
    m, sm = b.conv(m, sm, 16, 3)
    m = b.silu(m, sm)
    m = b.add(m, a, sm)
    c, sc = b.conv("x", shape, 16, 1)
    c = b.silu(c, sc)
    cat, scat = b.concat([m, c], [sm, sc])
    y, sy = b.conv(cat, scat, 32, 1)
    y = b.silu(y, sy)
    return b.function("yolo_c3", shape, y, sy)


def yolo_sppf():
    b = Block()
    shape = (1, 16, 16, 32)
    a, sa = b.conv("x", shape, 16, 1)
    a = b.silu(a, sa)
    p1, s1 = b.maxpool(a, sa, 5)
    p2, s2 = b.maxpool(p1, s1, 5)
    p3, s3 = b.maxpool(p2, s2, 5)
    cat, scat = b.concat([a, p1, p2, p3], [sa, s1, s2, s3])
    y, sy = b.conv(cat, scat, 32, 1)
    y = b.silu(y, sy)
    return b.function("yolo_sppf", shape, y, sy)


HEADERS = {
    "resnet-bottleneck.mlir": ("""// A ResNet-50 bottleneck block with BatchNorm after every conv (as in a
// training-mode export) and a 1x1 downsample branch.
// BN folds into the convs; when the downsample's stride equals the first
// conv's (stride 1 here) the two 1x1 convs on the block input become one
// GEMM, and the block is 3 kernels:
//   0 conv1 + downsample (one conv on concatenated weights), ReLU, slices;
//   1 pad + 3x3 conv + ReLU;
//   2 conv3 + residual add (reads the downsample slice) + ReLU.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// With stride 2 on both (the first block of a stage) they still merge; see
// resnet-bottleneck-ds.mlir for strides that differ.

// CHECK-LABEL: func @resnet_bottleneck
// CHECK-NOT: tosa.
// CHECK: fuse.group horizontal rule "shared_input_contractions"
// CHECK: linalg.conv_2d_nhwc_fhwc {{.*}} -> tensor<1x16x16x80xf32>
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK: tensor.pad
// CHECK: fuse.group diagonal rule "residual_join"
// CHECK-NOT: fuse.group
// REPORT: "kernels_after": 3
// REPORT: "left_alone": []
""", lambda: resnet_bottleneck(16, 1)),
    "resnet-bottleneck-ds.mlir": ("""// The first bottleneck of a ResNet-50 stage (torchvision's v1.5): the 3x3
// conv strides by 2, and so does the 1x1 downsample, while the first 1x1
// conv does not. The two 1x1 convs differ in stride and stay apart: 3
// groups for the block plus 1 for the downsample.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func @resnet_bottleneck
// CHECK-NOT: shared_input_contractions
// CHECK-COUNT-3: fuse.group vertical rule "contraction_epilogue"
// CHECK: fuse.group diagonal rule "residual_join"
// CHECK-NOT: fuse.group
// REPORT: "kernels_after": 4
// REPORT: "left_alone": []
""", lambda: resnet_bottleneck(17, 2)),
    "inception.mlir": ("""// An Inception block: a 1x1 branch, 1x1 -> 3x3, 1x1 -> 5x5, and
// 3x3 max pool -> 1x1, concatenated along channels. BN folds into the convs.
// The three 1x1 convs on the block input become one GEMM; every branch
// writes straight into its slice of the concat, so no copy kernel remains:
//   0 the three 1x1 convs (one conv) + ReLUs, branch 1 into its slice;
//   1 pad + 3x3 conv + ReLU into its slice;
//   2 pad + 5x5 conv + ReLU into its slice;
//   3 pad + max pool;
//   4 pool projection 1x1 conv + ReLU into its slice.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// Groups print in dataflow order: the pool first.
// CHECK-LABEL: func @inception
// CHECK: fuse.group vertical rule "pad_prologue"
// CHECK: fuse.group composite rule "shared_input_contractions"
// CHECK-COUNT-3: fuse.group diagonal rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// REPORT: "kernels_after": 5
// REPORT: "left_alone": []
""", inception),
    "yolo-c3.mlir": ("""// A YOLOv5 C3 block: two 1x1 convs on the input, a bottleneck
// (1x1, 3x3, residual) on the first, concat, 1x1 conv; SiLU everywhere.
//   0 the two 1x1 convs on the input (one conv) + SiLUs; the second branch
//     writes its slice of the concat;
//   1 bottleneck 1x1 conv + SiLU;
//   2 pad + 3x3 conv + SiLU + residual add, into its slice of the concat;
//   3 the last 1x1 conv + SiLU.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func @yolo_c3
// CHECK: fuse.group composite rule "shared_input_contractions"
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK: fuse.group diagonal rule "residual_join"
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// REPORT: "kernels_after": 4
// REPORT: "left_alone": []
""", yolo_c3),
    "yolo-sppf.mlir": ("""// YOLOv5 SPPF: 1x1 conv + SiLU, three chained 5x5 max pools, concat of
// all four, 1x1 conv + SiLU. Each pool writes its slice of the concat and
// also feeds the next pool (multi-output groups):
//   0 1x1 conv + SiLU, into slice 0 (and returned to the first pool);
//   1-3 pad + pool, into slices 1-3;
//   4 the last 1x1 conv + SiLU.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func @yolo_sppf
// CHECK: fuse.group diagonal rule "contraction_epilogue"
// CHECK: fuse.group diagonal rule "concat_slices"
// CHECK: tensor.pad
// CHECK: fuse.group diagonal rule "concat_slices"
// CHECK: fuse.group diagonal rule "concat_slices"
// CHECK: fuse.group vertical rule "contraction_epilogue"
// CHECK-NOT: fuse.group
// REPORT: "kernels_after": 5
// REPORT: "left_alone": []
""", yolo_sppf),
}

EQUIVALENCE = """// Fused and unfused give the same results on the CPU (seeded random input,
// 1e-5 relative), the fused build with the buffers between its kernels
// planned into one arena (fuse-plan-buffers).
// RUN: %check_equivalence %s | FileCheck %s --check-prefix=EQUIV
// EQUIV: memory: arena {{[0-9]+}} bytes for buffers of {{[0-9]+}} bytes
// EQUIV: output 0 {{.*}}: PASS
// EQUIV-NEXT: PASS
"""

LOWERED = """// Each group lowered to one tile loop nest (fuse-lower-groups) still gives
// the same results, and so does every group on its own (its ops fused and
// tiled against the same ops unfused).
// RUN: %check_equivalence %s --lower-groups | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --per-group --lower-groups | FileCheck %s --check-prefix=GROUPS
// GROUPS-NOT: FAIL
// GROUPS: PASS
"""


if __name__ == "__main__":
    for name, (header, make) in HEADERS.items():
        lowering = LOWERED
        with open(os.path.join(HERE, name), "w") as f:
            f.write(header + EQUIVALENCE + lowering + "\n" + make())
