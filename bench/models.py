#!/usr/bin/python3
"""Whole networks through the fusion pipeline: kernels, bytes between kernels
and activation memory, unfused and fused, written to
docs/benchmarks/models.md.

The networks are generated here as TOSA the way an ONNX importer emits them
(BatchNorm as per-channel subtract/multiply/add, erf-GELU, decomposed
softmax and LayerNorm), with splat weights: the fusion decisions and the
memory plan depend on shapes, not on weight values.

- ResNet-50 (bottleneck v1.5, stages 3-4-6-3), input 193x193 so that every
  strided window divides evenly (TOSA requires it; 97-49-25-13-7 instead of
  112-56-28-14-7), global average pool and the 1000-way classifier;
- MobileNetV2 (inverted residuals with depthwise 3x3), input 225x225;
- YOLOv5s-style backbone (C3 blocks 1-2-3-1, SPPF), input 321x321;
- BERT-base encoder (12 layers, hidden 768, 12 heads, FFN 3072), sequence 128.

For each: the fusion pipeline with every rule off (each op its own kernel)
and with the default rules, for an H200, timing fuse-opt, and the report's
memory section (the buffers between kernels planned into one arena).

usage: bench/models.py [--fuse-opt build/bin/fuse-opt] [--out FILE] [--keep DIR]
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "Models"))
from gen_blocks import Block, T  # noqa: E402
import importlib  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "scripts"))
model_blocks = importlib.import_module("model-blocks")


# --- CNNs ------------------------------------------------------------------

def resnet50():
    b = Block()
    shape = (1, 193, 193, 3)
    y, s = b.conv("x", shape, 64, 7, stride=2)
    y = b.relu(y, s)
    y, s = b.maxpool(y, s, 3, stride=2)
    for stage, (width, blocks) in enumerate([(64, 3), (128, 4), (256, 6), (512, 3)]):
        for i in range(blocks):
            stride = 2 if (i == 0 and stage > 0) else 1
            a, sa = b.conv(y, s, width, 1)
            a = b.relu(a, sa)
            a, sa = b.conv(a, sa, width, 3, stride=stride)
            a = b.relu(a, sa)
            a, sa = b.conv(a, sa, width * 4, 1)
            if i == 0:
                sc, _ = b.conv(y, s, width * 4, 1, stride=stride)
            else:
                sc = y
            y = b.add(a, sc, sa)
            y = b.relu(y, sa)
            s = sa
    return classifier(b, "resnet50", shape, y, s, 1000)


def classifier(b, name, inshape, y, s, classes):
    n, h, w, c = s
    r1 = b.fresh("gap")
    b.emit(f"%{r1} = tosa.reduce_sum %{y} {{axis = 1 : i32}} : ({T(*s)}) -> {T(n, 1, w, c)}")
    r2 = b.fresh("gap")
    b.emit(f"%{r2} = tosa.reduce_sum %{r1} {{axis = 2 : i32}} : ({T(n, 1, w, c)}) -> {T(n, 1, 1, c)}")
    inv = b.const((1, 1, 1, 1), splat=1.0 / (h * w))
    m = b.fresh("gap")
    b.emit(f"%{m} = tosa.mul %{r2}, %{inv}, %shift : ({T(n, 1, 1, c)}, {T(1, 1, 1, 1)}, tensor<1xi8>) -> {T(n, 1, 1, c)}")
    sh = b.fresh("s")
    b.emit(f"%{sh} = tosa.const_shape {{values = dense<[1, 1, {c}]> : tensor<3xindex>}} : () -> !tosa.shape<3>")
    flat = b.fresh("flat")
    b.emit(f"%{flat} = tosa.reshape %{m}, %{sh} : ({T(n, 1, 1, c)}, !tosa.shape<3>) -> {T(1, 1, c)}")
    wfc = b.const((1, c, classes), splat=0.001)
    fc = b.fresh("fc")
    b.emit(f"%{fc} = tosa.matmul %{flat}, %{wfc}, %zp, %zp : ({T(1, 1, c)}, {T(1, c, classes)}, "
           f"tensor<1xf32>, tensor<1xf32>) -> {T(1, 1, classes)}")
    bias = b.const((1, 1, classes), splat=0.0)
    out = b.fresh("logits")
    b.emit(f"%{out} = tosa.add %{fc}, %{bias} : ({T(1, 1, classes)}, {T(1, 1, classes)}) -> {T(1, 1, classes)}")
    return b.function(name, inshape, out, (1, 1, classes))


def relu6(b, x, shape):
    y = b.fresh("relu6")
    b.emit(f"%{y} = tosa.clamp %{x} {{min_val = 0.0 : f32, max_val = 6.0 : f32}} : ({T(*shape)}) -> {T(*shape)}")
    return y


def depthwise(b, x, shape, stride):
    n, h, w, c = shape
    oh, ow = (h + 2 - 3) // stride + 1, (w + 2 - 3) // stride + 1
    wt = b.const((3, 3, c, 1), splat=0.02)
    bias = b.const((c,), splat=0.0)
    y = b.fresh("dw")
    b.emit(f"%{y} = tosa.depthwise_conv2d %{x}, %{wt}, %{bias}, %zp, %zp {{acc_type = f32, "
           f"dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: {stride}, {stride}>}} "
           f": ({T(*shape)}, {T(3, 3, c, 1)}, {T(c)}, tensor<1xf32>, tensor<1xf32>) -> {T(n, oh, ow, c)}")
    s = (n, oh, ow, c)
    return b.batchnorm(y, s), s


def mobilenetv2():
    b = Block()
    shape = (1, 225, 225, 3)
    y, s = b.conv("x", shape, 32, 3, stride=2)
    y = relu6(b, y, s)
    cin = 32
    for t, c, n, first_stride in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                                  (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]:
        for i in range(n):
            stride = first_stride if i == 0 else 1
            a, sa = y, s
            if t != 1:
                a, sa = b.conv(a, sa, cin * t, 1)
                a = relu6(b, a, sa)
            a, sa = depthwise(b, a, sa, stride)
            a = relu6(b, a, sa)
            a, sa = b.conv(a, sa, c, 1)
            if stride == 1 and cin == c:
                a = b.add(a, y, sa)
            y, s, cin = a, sa, c
    y, s = b.conv(y, s, 1280, 1)
    y = relu6(b, y, s)
    return classifier(b, "mobilenetv2", shape, y, s, 1000)


def c3(b, x, shape, cout, n):
    h = cout // 2
    a, sa = b.conv(x, shape, h, 1)
    a = b.silu(a, sa)
    for _ in range(n):
        m, sm = b.conv(a, sa, h, 1)
        m = b.silu(m, sm)
        m, sm = b.conv(m, sm, h, 3)
        m = b.silu(m, sm)
        a = b.add(m, a, sm)
    c, sc = b.conv(x, shape, h, 1)
    c = b.silu(c, sc)
    cat, scat = b.concat([a, c], [sa, sc])
    y, sy = b.conv(cat, scat, cout, 1)
    return b.silu(y, sy), sy


def sppf(b, x, shape, cout):
    h = shape[-1] // 2
    a, sa = b.conv(x, shape, h, 1)
    a = b.silu(a, sa)
    p1, s1 = b.maxpool(a, sa, 5)
    p2, s2 = b.maxpool(p1, s1, 5)
    p3, s3 = b.maxpool(p2, s2, 5)
    cat, scat = b.concat([a, p1, p2, p3], [sa, s1, s2, s3])
    y, sy = b.conv(cat, scat, cout, 1)
    return b.silu(y, sy), sy


def yolov5s_backbone():
    b = Block()
    shape = (1, 321, 321, 3)
    y, s = b.conv("x", shape, 32, 3, stride=2)
    y = b.silu(y, s)
    for c, n in [(64, 1), (128, 2), (256, 3), (512, 1)]:
        y, s = b.conv(y, s, c, 3, stride=2)
        y = b.silu(y, s)
        y, s = c3(b, y, s, c, n)
    y, s = sppf(b, y, s, 512)
    return b.function("yolov5s_backbone", shape, y, s)


# --- BERT ------------------------------------------------------------------

def bert_base(layers=12, S=128, H=768, NH=12, F=3072):
    DH = H // NH
    x = lambda *d: T(*d)
    L = []
    e = L.append
    e(f"func.func @bert_base(%x: {x(1, S, H)}, %mask: {x(1, 1, S)}) -> {x(1, S, H)} {{")
    e('  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>')
    e('  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>')
    for name, v in [("scale", 1.0 / DH ** 0.5), ("invd", 1.0 / H), ("eps", 1e-5),
                    ("rsqrt2", 0.70710677), ("one", 1.0), ("half", 0.5)]:
        e(f'  %{name} = "tosa.const"() <{{values = dense<{v:.9e}> : {x(1, 1, 1)}}}> : () -> {x(1, 1, 1)}')
    e(f"  %s_heads = tosa.const_shape {{values = dense<[{S}, {NH}, {DH}]> : tensor<3xindex>}} : () -> !tosa.shape<3>")
    e(f"  %s_model = tosa.const_shape {{values = dense<[1, {S}, {H}]> : tensor<3xindex>}} : () -> !tosa.shape<3>")
    mm = lambda a, ta, w, tw, to: f"tosa.matmul %{a}, %{w}, %zp, %zp : ({ta}, {tw}, tensor<1xf32>, tensor<1xf32>) -> {to}"
    cur = "x"

    def const(name, shape, v):
        e(f'  %{name} = "tosa.const"() <{{values = dense<{v:.9e}> : {x(*shape)}}}> : () -> {x(*shape)}')

    def layernorm(p, inp, g, be):
        t, r = x(1, S, H), x(1, S, 1)
        e(f"  %{p}_s = tosa.reduce_sum %{inp} {{axis = 2 : i32}} : ({t}) -> {r}")
        e(f"  %{p}_mean = tosa.mul %{p}_s, %invd, %shift : ({r}, {x(1, 1, 1)}, tensor<1xi8>) -> {r}")
        e(f"  %{p}_xc = tosa.sub %{inp}, %{p}_mean : ({t}, {r}) -> {t}")
        e(f"  %{p}_sq = tosa.mul %{p}_xc, %{p}_xc, %shift : ({t}, {t}, tensor<1xi8>) -> {t}")
        e(f"  %{p}_vs = tosa.reduce_sum %{p}_sq {{axis = 2 : i32}} : ({t}) -> {r}")
        e(f"  %{p}_var = tosa.mul %{p}_vs, %invd, %shift : ({r}, {x(1, 1, 1)}, tensor<1xi8>) -> {r}")
        e(f"  %{p}_ve = tosa.add %{p}_var, %eps : ({r}, {x(1, 1, 1)}) -> {r}")
        e(f"  %{p}_rstd = tosa.rsqrt %{p}_ve : ({r}) -> {r}")
        e(f"  %{p}_n = tosa.mul %{p}_xc, %{p}_rstd, %shift : ({t}, {r}, tensor<1xi8>) -> {t}")
        e(f"  %{p}_g = tosa.mul %{p}_n, %{g}, %shift : ({t}, {x(1, 1, H)}, tensor<1xi8>) -> {t}")
        e(f"  %{p} = tosa.add %{p}_g, %{be} : ({t}, {x(1, 1, H)}) -> {t}")

    for l in range(layers):
        p = f"l{l}_"
        t, th, tw = x(1, S, H), x(S, NH, DH), x(1, H, H)
        for w, v in [("wq", 0.01), ("wk", 0.02), ("wv", 0.03), ("wo", 0.04)]:
            const(p + w, (1, H, H), v)
        const(p + "w1", (1, H, F), 0.05)
        const(p + "w2", (1, F, H), 0.06)
        for bname in ["bq", "bk", "bv", "bo", "b2", "g1", "be1", "g2", "be2"]:
            const(p + bname, (1, 1, H), 1.0 if bname.startswith("g") else 0.0)
        const(p + "b1", (1, 1, F), 0.0)
        for q in "qkv":
            e(f"  %{p}{q}0 = " + mm(cur, t, p + "w" + q, tw, t))
            e(f"  %{p}{q} = tosa.add %{p}{q}0, %{p}b{q} : ({t}, {x(1, 1, H)}) -> {t}")
            e(f"  %{p}{q}r = tosa.reshape %{p}{q}, %s_heads : ({t}, !tosa.shape<3>) -> {th}")
        ha, hk = x(NH, S, DH), x(NH, DH, S)
        e(f"  %{p}qh = tosa.transpose %{p}qr {{perms = array<i32: 1, 0, 2>}} : ({th}) -> {ha}")
        e(f"  %{p}kh = tosa.transpose %{p}kr {{perms = array<i32: 1, 2, 0>}} : ({th}) -> {hk}")
        e(f"  %{p}vh = tosa.transpose %{p}vr {{perms = array<i32: 1, 0, 2>}} : ({th}) -> {ha}")
        ts, tr = x(NH, S, S), x(NH, S, 1)
        e(f"  %{p}scores = " + mm(p + "qh", ha, p + "kh", hk, ts))
        e(f"  %{p}scaled = tosa.mul %{p}scores, %scale, %shift : ({ts}, {x(1, 1, 1)}, tensor<1xi8>) -> {ts}")
        e(f"  %{p}masked = tosa.add %{p}scaled, %mask : ({ts}, {x(1, 1, S)}) -> {ts}")
        e(f"  %{p}smax = tosa.reduce_max %{p}masked {{axis = 2 : i32}} : ({ts}) -> {tr}")
        e(f"  %{p}sd = tosa.sub %{p}masked, %{p}smax : ({ts}, {tr}) -> {ts}")
        e(f"  %{p}se = tosa.exp %{p}sd : ({ts}) -> {ts}")
        e(f"  %{p}ssum = tosa.reduce_sum %{p}se {{axis = 2 : i32}} : ({ts}) -> {tr}")
        e(f"  %{p}sinv = tosa.reciprocal %{p}ssum : ({tr}) -> {tr}")
        e(f"  %{p}probs = tosa.mul %{p}se, %{p}sinv, %shift : ({ts}, {tr}, tensor<1xi8>) -> {ts}")
        e(f"  %{p}ctx = " + mm(p + "probs", ts, p + "vh", ha, ha))
        e(f"  %{p}ctxt = tosa.transpose %{p}ctx {{perms = array<i32: 1, 0, 2>}} : ({ha}) -> {th}")
        e(f"  %{p}ctxm = tosa.reshape %{p}ctxt, %s_model : ({th}, !tosa.shape<3>) -> {t}")
        e(f"  %{p}o0 = " + mm(p + "ctxm", t, p + "wo", tw, t))
        e(f"  %{p}o1 = tosa.add %{p}o0, %{p}bo : ({t}, {x(1, 1, H)}) -> {t}")
        e(f"  %{p}o2 = tosa.add %{p}o1, %{cur} : ({t}, {t}) -> {t}")
        layernorm(p + "h", p + "o2", p + "g1", p + "be1")
        tf = x(1, S, F)
        e(f"  %{p}f0 = " + mm(p + "h", t, p + "w1", x(1, H, F), tf))
        e(f"  %{p}f1 = tosa.add %{p}f0, %{p}b1 : ({tf}, {x(1, 1, F)}) -> {tf}")
        e(f"  %{p}ga = tosa.mul %{p}f1, %rsqrt2, %shift : ({tf}, {x(1, 1, 1)}, tensor<1xi8>) -> {tf}")
        e(f"  %{p}gb = tosa.erf %{p}ga : ({tf}) -> {tf}")
        e(f"  %{p}gc = tosa.add %{p}gb, %one : ({tf}, {x(1, 1, 1)}) -> {tf}")
        e(f"  %{p}gd = tosa.mul %{p}f1, %{p}gc, %shift : ({tf}, {tf}, tensor<1xi8>) -> {tf}")
        e(f"  %{p}gelu = tosa.mul %{p}gd, %half, %shift : ({tf}, {x(1, 1, 1)}, tensor<1xi8>) -> {tf}")
        e(f"  %{p}f2 = " + mm(p + "gelu", tf, p + "w2", x(1, F, H), t))
        e(f"  %{p}f3 = tosa.add %{p}f2, %{p}b2 : ({t}, {x(1, 1, H)}) -> {t}")
        e(f"  %{p}f4 = tosa.add %{p}f3, %{p}h : ({t}, {t}) -> {t}")
        layernorm(p + "out", p + "f4", p + "g2", p + "be2")
        cur = p + "out"
    e(f"  return %{cur} : {x(1, S, H)}")
    e("}")
    return "\n".join(L) + "\n"


MODELS = {
    "ResNet-50": resnet50,
    "MobileNetV2": mobilenetv2,
    "YOLOv5s backbone": yolov5s_backbone,
    "BERT-base": bert_base,
}


all_rules = model_blocks.all_rules


def fuse(fuse_opt, path, target, disabled=()):
    """The fusion report for `path` and the wall time of fuse-opt."""
    start = time.monotonic()
    report = model_blocks.run(fuse_opt, path, target, disabled)
    return report, time.monotonic() - start


def plan_buffers(fuse_compile, path, target, name):
    """The fused network compiled for the GPU target (fuse-compile, PTX
    kernels): the arena fuse-plan-buffers builds for the host function, from
    the report, and the pass's time."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        proc = subprocess.run([fuse_compile, path, f"--target={target}", "--gpu-format=isa", f"--entry={name}",
                               "--pass-timing", "-q", "--report", report, "-o", os.path.join(tmp, "model.mlir")],
                              check=True, capture_output=True, text=True)
        with open(report) as f:
            functions = json.load(f)["functions"]
    ms = None
    for line in proc.stderr.splitlines():
        if line.strip().endswith("FusePlanBuffers"):
            ms = float(line.split()[0]) * 1000.0
    m = next((fn["memory"].get("workspace_plan") for fn in functions if fn["name"] == name), None)
    if not m or ms is None:
        sys.exit(f"no workspace plan or timing for @{name}")
    return m["arena"], m["in_place_bytes"], m["max_live"], m["naive"], ms


def mib(n):
    return f"{n / 2**20:.1f}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fuse-opt", default=os.path.join(ROOT, "build", "bin", "fuse-opt"))
    parser.add_argument("--target", default="h200")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "benchmarks", "models.md"))
    parser.add_argument("--keep", help="keep the generated networks in this folder")
    parser.add_argument("--only", help="one network by name")
    args = parser.parse_args()
    rules = all_rules(args.fuse_opt)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    rows = []
    workdir = args.keep or tempfile.mkdtemp()
    os.makedirs(workdir, exist_ok=True)
    for name, make in MODELS.items():
        if args.only and args.only != name:
            continue
        path = os.path.join(workdir, name.lower().replace(" ", "-") + ".mlir")
        with open(path, "w") as f:
            f.write(make())
        unfused, _ = fuse(args.fuse_opt, path, args.target, rules)
        fused, seconds = fuse(args.fuse_opt, path, args.target)
        u, t = unfused["totals"], fused["totals"]
        m = fused["memory"]
        fn = fused["functions"][0]["name"]
        arena, in_place, max_live, naive, ms = plan_buffers(
            os.path.join(os.path.dirname(os.path.abspath(args.fuse_opt)), "fuse-compile"), path, args.target, fn)
        row = (name, u["kernels_after"], t["kernels_after"], mib(u["bytes_after"]), mib(t["bytes_after"]),
               mib(m["unfused_naive"]), mib(m["naive"]), mib(m["arena"]), f"{m['ratio']:.4f}",
               mib(naive), mib(arena), f"{arena / max_live:.4f}", mib(in_place), f"{ms:.1f}",
               f"{seconds:.2f}")
        print(" | ".join(map(str, row)), flush=True)
        rows.append(row)
    if args.only:
        return 0
    with open(args.out, "w") as f:
        f.write("# Whole networks: kernels, traffic and activation memory\n\n")
        f.write(f"Produced by `python3 bench/models.py` (`make bench-models`) on "
                f"{datetime.date.today()} at commit {commit}, target {args.target}, on the 2-core "
                "development machine. The networks are generated by the script (see its header for "
                "the exact shapes). Unfused: every fusion rule off, each op its own kernel. Memory: "
                "the report's memory section, buffers between kernels planned into one arena with "
                "256 B alignment; `unfused naive` is every intermediate of the unfused graph in its "
                "own buffer, `fused naive` every buffer between fused kernels in its own (report: planned "
                "on the fusion plan, elementwise in-place only; pass: `fuse-plan-buffers` on the "
                "bufferized host function in `fuse-to-cpu`, which also reuses inputs of non-elementwise "
                "groups whose bodies allow it). MiB = 2^20 bytes. `plan ms` is the time of the "
                "`fuse-plan-buffers` pass (`--mlir-timing`); `fuse-opt s` the wall time of the whole "
                "fusion pipeline with the report.\n\n")
        f.write("| network | kernels unfused | kernels fused | traffic unfused MiB | traffic fused MiB | "
                "unfused naive MiB | report: fused naive MiB | report: arena MiB | report: arena/max-live | "
                "pass: naive MiB | pass: arena MiB | pass: arena/max-live | pass: in place MiB | "
                "plan ms | fuse-opt s |\n")
        f.write("|" + "---|" * 15 + "\n")
        for row in rows:
            f.write("| " + " | ".join(map(str, row)) + " |\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
