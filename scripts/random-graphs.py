#!/usr/bin/python3
"""Seeded random TOSA graphs for differential testing of fusion.

Each graph is one function on NHWC f32 tensors that mixes elementwise and
broadcast ops, reductions along every axis (re-joined with their input, as
softmax and LayerNorm do), 1x1 and 3x3 convolutions with strides and pads,
matmuls, concats, slices, transposes, reshapes and pools, with values used
several times, branches that re-join and one to three outputs. Shapes
include 1, primes and sizes that are not multiples of any tile size.
Weights are random (not splats), so a wrong index shows in the result.

usage: random-graphs.py SEED [--ops N]            # one graph to stdout
   or: import it and call make_graph(seed, ops) -> (text, ops_list)
"""
import argparse
import random
import struct


def T(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


class Graph:
    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.n = 0
        self.pool = []  # (name, shape)
        self.ops = []   # one entry per emitted op group, for minimisation

    def fresh(self, base="v"):
        self.n += 1
        return f"%{base}{self.n}"

    def const(self, shape, scale=0.5):
        count = 1
        for d in shape:
            count *= d
        data = b"".join(struct.pack("<f", self.rng.uniform(-scale, scale)) for _ in range(count))
        name = self.fresh("w")
        self.lines.append(f'  {name} = "tosa.const"() <{{values = dense<"0x{data.hex().upper()}"> : {T(shape)}}}> : () -> {T(shape)}')
        return name

    def shape_const(self, dims):
        name = self.fresh("s")
        self.lines.append(f"  {name} = tosa.const_shape {{values = dense<[{', '.join(map(str, dims))}]> : tensor<{len(dims)}xindex>}} : () -> !tosa.shape<{len(dims)}>")
        return name

    def emit(self, text, shape):
        name = self.fresh()
        self.lines.append(f"  {name} = {text}")
        self.pool.append((name, shape))
        return name

    def binary_op(self, op, x, s, y, ys):
        """`x op y`, y broadcast to x's shape `s` (tosa.mul takes a shift)."""
        shift, shift_t = (", %shift", ", tensor<1xi8>") if op == "mul" else ("", "")
        return self.emit(f"tosa.{op} {x}, {y}{shift} : ({T(s)}, {T(ys)}{shift_t}) -> {T(s)}", s)

    def pick(self, pred=lambda s: True):
        # Prefer recent values (deep chains), sometimes reuse an old one
        # (branches that re-join, values with many uses).
        cands = [v for v in self.pool if pred(v[1])]
        if not cands:
            return None
        if self.rng.random() < 0.6:
            return cands[-1 - min(len(cands) - 1, int(self.rng.expovariate(1.0)))]
        return self.rng.choice(cands)

    # --- ops -------------------------------------------------------------

    def unary(self):
        x, s = self.pick()
        op = self.rng.choice(["tanh", "sigmoid", "abs", "erf", "sin", "relu", "scale"])
        if op == "relu":
            return self.emit(f"tosa.clamp {x} {{min_val = 0.0 : f32, max_val = 3.4e38 : f32}} : ({T(s)}) -> {T(s)}", s)
        if op == "scale":
            return self.binary_op("mul", x, s, self.const((1,) * len(s)), (1,) * len(s))
        return self.emit(f"tosa.{op} {x} : ({T(s)}) -> {T(s)}", s)

    def binary(self):
        x, s = self.pick()
        same = [v for v in self.pool if v[1] == s and v[0] != x]
        op = self.rng.choice(["add", "sub", "mul", "maximum"])
        if same and self.rng.random() < 0.6:
            y, _ = self.rng.choice(same)
            ys = s
        else:
            # Broadcast along the last axis or a random other one.
            ys = tuple(d if (i == len(s) - 1 or self.rng.random() < 0.3) else 1 for i, d in enumerate(s))
            y = self.const(ys)
        return self.binary_op(op, x, s, y, ys)

    def reduce_join(self):
        x, s = self.pick()
        axis = self.rng.randrange(len(s))
        kind = self.rng.choice(["sum", "max"])
        rs = tuple(1 if i == axis else d for i, d in enumerate(s))
        r = self.emit(f"tosa.reduce_{kind} {x} {{axis = {axis} : i32}} : ({T(s)}) -> {T(rs)}", rs)
        if self.rng.random() < 0.8:
            # Re-join with the input (x - max, x * 1/sum ...).
            if kind == "max":
                return self.binary_op("sub", x, s, r, rs)
            inv = self.emit(f"tosa.sigmoid {r} : ({T(rs)}) -> {T(rs)}", rs)
            return self.binary_op("mul", x, s, inv, rs)
        return r

    def conv(self):
        v = self.pick(lambda s: len(s) == 4)
        if v is None:
            return self.unary()
        x, (n, h, w, c) = v
        k = self.rng.choice([1, 1, 3])
        pad = self.rng.choice([0, k // 2]) if k == 3 else 0
        stride = self.rng.choice([1, 1, 2])
        if (h + 2 * pad - k) % stride or (w + 2 * pad - k) % stride or h + 2 * pad < k or w + 2 * pad < k:
            stride = 1
        if h + 2 * pad < k or w + 2 * pad < k:
            k, pad = 1, 0
        oh, ow = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
        cout = self.rng.choice([1, 2, 3, 5, 8, 13, 16])
        wt = self.const((cout, k, k, c), scale=1.0 / (k * k * c) ** 0.5)
        b = self.const((cout,), scale=0.1)
        y = self.emit(f"tosa.conv2d {x}, {wt}, {b}, %zp, %zp {{acc_type = f32, dilation = array<i64: 1, 1>, "
                      f"pad = array<i64: {pad}, {pad}, {pad}, {pad}>, stride = array<i64: {stride}, {stride}>}} : "
                      f"({T((n, h, w, c))}, {T((cout, k, k, c))}, {T((cout,))}, tensor<1xf32>, tensor<1xf32>) -> "
                      f"{T((n, oh, ow, cout))}", (n, oh, ow, cout))
        if self.rng.random() < 0.5:
            # BatchNorm as an importer writes it.
            s = (n, oh, ow, cout)
            cs = (1, 1, 1, cout)
            for op, scale in [("sub", 0.2), ("mul", 1.0), ("add", 0.2)]:
                y = self.binary_op(op, y, s, self.const(cs, scale), cs)
        return y

    def matmul(self):
        v = self.pick(lambda s: len(s) == 4)
        if v is None:
            return self.unary()
        x, (n, h, w, c) = v
        k = self.rng.choice([1, 3, 4, 7, 16])
        flat = self.shape_const([1, n * h * w, c])
        f = self.emit(f"tosa.reshape {x}, {flat} : ({T((n, h, w, c))}, !tosa.shape<3>) -> {T((1, n * h * w, c))}",
                      (1, n * h * w, c))
        wt = self.const((1, c, k), scale=1.0 / c ** 0.5)
        m = self.emit(f"tosa.matmul {f}, {wt}, %zp, %zp : ({T((1, n * h * w, c))}, {T((1, c, k))}, tensor<1xf32>, "
                      f"tensor<1xf32>) -> {T((1, n * h * w, k))}", (1, n * h * w, k))
        back = self.shape_const([n, h, w, k])
        return self.emit(f"tosa.reshape {m}, {back} : ({T((1, n * h * w, k))}, !tosa.shape<4>) -> {T((n, h, w, k))}",
                         (n, h, w, k))

    def concat(self):
        v = self.pick(lambda s: len(s) == 4)
        if v is None:
            return self.unary()
        x, s = v
        others = [u for u in self.pool if len(u[1]) == 4 and u[1][:3] == s[:3]]
        parts = [(x, s)] + [self.rng.choice(others) for _ in range(self.rng.randint(1, 2))]
        cs = s[:3] + (sum(p[1][3] for p in parts),)
        ins = ", ".join(p[0] for p in parts)
        tys = ", ".join(T(p[1]) for p in parts)
        return self.emit(f"tosa.concat {ins} {{axis = 3 : i32}} : ({tys}) -> {T(cs)}", cs)

    def slice(self):
        v = self.pick(lambda s: len(s) == 4 and s[3] > 1)
        if v is None:
            return self.unary()
        x, s = v
        size = self.rng.randint(1, s[3] - 1)
        start = self.rng.randint(0, s[3] - size)
        st = self.shape_const([0, 0, 0, start])
        sz = self.shape_const(list(s[:3]) + [size])
        os_ = s[:3] + (size,)
        return self.emit(f"tosa.slice {x}, {st}, {sz} : ({T(s)}, !tosa.shape<4>, !tosa.shape<4>) -> {T(os_)}", os_)

    def transpose(self):
        v = self.pick(lambda s: len(s) == 4)
        if v is None:
            return self.unary()
        x, (n, h, w, c) = v
        return self.emit(f"tosa.transpose {x} {{perms = array<i32: 0, 2, 1, 3>}} : ({T((n, h, w, c))}) -> "
                         f"{T((n, w, h, c))}", (n, w, h, c))

    def maxpool(self):
        v = self.pick(lambda s: len(s) == 4)
        if v is None:
            return self.unary()
        x, s = v
        return self.emit(f"tosa.max_pool2d {x} {{kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, "
                         f"stride = array<i64: 1, 1>}} : ({T(s)}) -> {T(s)}", s)


KINDS = [("unary", 4), ("binary", 4), ("reduce_join", 2), ("conv", 3), ("matmul", 1), ("concat", 1),
         ("slice", 1), ("transpose", 1), ("maxpool", 1)]


def make_graph(seed, ops=12, keep=None):
    """The graph for `seed` with `ops` random steps; `keep` (a set of step
    indices) drops the other steps, for minimisation: a step is generated
    either way (same random stream), but only kept steps are written."""
    rng = random.Random(seed)
    g = Graph(rng)
    shape = (1, rng.choice([1, 3, 5, 7, 8]), rng.choice([1, 2, 5, 6, 9]), rng.choice([1, 3, 4, 8, 13]))
    g.pool.append(("%x", shape))
    inputs = [("%x", shape)]
    if rng.random() < 0.5:
        g.pool.append(("%y", shape))
        inputs.append(("%y", shape))
    kinds = [k for k, w in KINDS for _ in range(w)]
    written = []
    for i in range(ops):
        before_lines, before_pool = len(g.lines), len(g.pool)
        getattr(g, rng.choice(kinds))()
        if keep is not None and i not in keep:
            # Undo the text but keep the random stream; its values leave
            # the pool, so later steps that would use them use others.
            del g.lines[before_lines:]
            del g.pool[before_pool:]
        else:
            written.append(i)
    produced = [v for v in g.pool if v[0] not in ("%x", "%y")]
    if not produced:
        return None
    outs = [produced[-1]]
    for _ in range(rng.randint(0, 2)):
        cand = rng.choice(produced)
        if cand not in outs:
            outs.append(cand)
    args = ", ".join(f"{n}: {T(s)}" for n, s in inputs)
    results = ", ".join(T(s) for _, s in outs)
    text = [f"func.func @random(%s) -> ({results}) {{" % args,
            '  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>',
            '  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>']
    text += g.lines
    text.append(f"  return {', '.join(n for n, _ in outs)} : {results}")
    text.append("}")
    return "\n".join(text) + "\n", written


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("seed", type=int)
    parser.add_argument("--ops", type=int, default=12)
    args = parser.parse_args()
    graph = make_graph(args.seed, args.ops)
    if graph is None:
        raise SystemExit("empty graph")
    print(graph[0], end="")


if __name__ == "__main__":
    main()
