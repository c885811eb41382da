#!/usr/bin/python3
"""The CPU benchmarks, measured in one run on this machine (make bench-cpu).

1. The FMA peak of one core, measured: a C loop of independent vector FMAs
   (16 accumulators of the widest vector the compiler targets on this CPU),
   compiled with clang -O3 -march=native.
2. GEMM micro-benchmarks: the largest contractions of ResNet-50 and
   BERT-base, each compiled alone by fuse-compile (CPU target) and timed by
   fuse-benchmark, next to PyTorch on the same shapes; GFLOP/s and the
   fraction of the measured peak.
3. Networks: fuse fused, fuse unfused (--unfused), fuse with the vector
   micro-kernels off (--cpu-vectorize=false), PyTorch eager and
   torch.jit.freeze + optimize_for_inference, interleaved (one round of every
   variant, then the next round); median of --rounds rounds per variant
   (a fuse round is the median of 5 calls after one warm-up call).
   fuse (fused and unfused) and PyTorch run at each of --threads; the GEMMs
   and fused_loops on one thread.

Writes docs/benchmarks/cpu.md and docs/benchmarks/cpu.json.

usage: bench/cpu.py [--models resnet50,mobilenet_v2,googlenet,yolo,bert_base] [--rounds 3]
                    [--threads 1,2] [--skip-models] [--models-dir build/models]
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "build", "bin")
CLANG = "/usr/lib/llvm-22/bin/clang"

PEAK_C = r"""
#include <immintrin.h>
#include <stdio.h>
#include <time.h>
#if defined(__AVX512F__)
typedef __m512 V;
#define W 16
#define SET1 _mm512_set1_ps
#define FMA _mm512_fmadd_ps
#define ADD _mm512_add_ps
#define SUM(v) _mm512_reduce_add_ps(v)
#else
typedef __m256 V;
#define W 8
#define SET1 _mm256_set1_ps
#define FMA _mm256_fmadd_ps
#define ADD _mm256_add_ps
static float SUM(V v) { float t[8]; _mm256_storeu_ps(t, v); float s = 0; for (int i = 0; i < 8; ++i) s += t[i]; return s; }
#endif
int main(void) {
  V acc[16];
  for (int i = 0; i < 16; ++i) acc[i] = SET1(1.0f + i * 1e-3f);
  V a = SET1(0.999999f), b = SET1(1e-7f);
  const long iters = 100000000;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  V a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3], a4 = acc[4], a5 = acc[5], a6 = acc[6], a7 = acc[7];
  V a8 = acc[8], a9 = acc[9], a10 = acc[10], a11 = acc[11], a12 = acc[12], a13 = acc[13], a14 = acc[14], a15 = acc[15];
  for (long k = 0; k < iters; ++k) {
    a0 = FMA(a0, a, b); a1 = FMA(a1, a, b); a2 = FMA(a2, a, b); a3 = FMA(a3, a, b);
    a4 = FMA(a4, a, b); a5 = FMA(a5, a, b); a6 = FMA(a6, a, b); a7 = FMA(a7, a, b);
    a8 = FMA(a8, a, b); a9 = FMA(a9, a, b); a10 = FMA(a10, a, b); a11 = FMA(a11, a, b);
    a12 = FMA(a12, a, b); a13 = FMA(a13, a, b); a14 = FMA(a14, a, b); a15 = FMA(a15, a, b);
    __asm__ volatile("" : "+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3), "+v"(a4), "+v"(a5), "+v"(a6), "+v"(a7));
  }
  acc[0] = a0; acc[1] = a1; acc[2] = a2; acc[3] = a3; acc[4] = a4; acc[5] = a5; acc[6] = a6; acc[7] = a7;
  acc[8] = a8; acc[9] = a9; acc[10] = a10; acc[11] = a11; acc[12] = a12; acc[13] = a13; acc[14] = a14; acc[15] = a15;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  V s = acc[0];
  for (int i = 1; i < 16; ++i) s = ADD(s, acc[i]);
  double secs = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
  printf("%d %.3f %g\n", W, 2.0 * W * 16 * iters / secs / 1e9, SUM(s));
  return 0;
}
"""


def run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        sys.exit(f"bench/cpu.py: command failed: {' '.join(cmd)}\n{proc.stderr[-2000:]}")
    return proc.stdout


def measure_peak(tmp):
    src = os.path.join(tmp, "peak.c")
    exe = os.path.join(tmp, "peak")
    with open(src, "w") as f:
        f.write(PEAK_C)
    run([CLANG, "-O3", "-march=native", src, "-o", exe])
    best = None
    for _ in range(3):
        width, gflops, _ = run([exe]).split()
        best = max(best or 0.0, float(gflops))
    return {"vector_width": int(width), "gflops": best}


def gemm_cases():
    """(name, MLIR text, FLOPs): the largest contractions of the corpus."""
    cases = []
    for name, m, k, n in [("bert_base ffn up (128x768 . 768x3072)", 128, 768, 3072),
                          ("bert_base ffn down (128x3072 . 3072x768)", 128, 3072, 768),
                          ("bert_base qkv (128x768 . 768x2304)", 128, 768, 2304)]:
        text = f"""func.func @gemm(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%f : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
"""
        cases.append((name, text, 2 * m * n * k, ("mm", m, k, n)))
    for name, h, c, f, kh, stride in [("resnet50 layer1 3x3 (56x56x64 -> 64)", 56, 64, 64, 3, 1),
                                      ("resnet50 layer3 3x3 (14x14x256 -> 256)", 14, 256, 256, 3, 1),
                                      ("resnet50 layer4 3x3 (7x7x512 -> 512)", 7, 512, 512, 3, 1),
                                      ("resnet50 layer1 1x1 (56x56x64 -> 256)", 56, 64, 256, 1, 1)]:
        pad = kh // 2
        hp = h + 2 * pad
        oh = (hp - kh) // stride + 1
        text = f"""func.func @conv(%x: tensor<1x{hp}x{hp}x{c}xf32>, %w: tensor<{kh}x{kh}x{c}x{f}xf32>) -> tensor<1x{oh}x{oh}x{f}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x{oh}x{oh}x{f}xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x{oh}x{oh}x{f}xf32>) -> tensor<1x{oh}x{oh}x{f}xf32>
  %r = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, strides = dense<{stride}> : tensor<2xi64>}}
      ins(%x, %w : tensor<1x{hp}x{hp}x{c}xf32>, tensor<{kh}x{kh}x{c}x{f}xf32>) outs(%z : tensor<1x{oh}x{oh}x{f}xf32>) -> tensor<1x{oh}x{oh}x{f}xf32>
  return %r : tensor<1x{oh}x{oh}x{f}xf32>
}}
"""
        cases.append((name, text, 2 * oh * oh * f * kh * kh * c, ("conv", hp, c, f, kh, stride)))
    return cases


def fuse_ms(library, runs, warmup=2, threads=1):
    out = os.path.join(os.path.dirname(library), os.path.basename(library) + ".json")
    run([os.path.join(BIN, "fuse-benchmark"), library, "--runs", str(runs), "--warmup", str(warmup),
         "--threads", str(threads), "--json", out])
    with open(out) as f:
        stats = json.load(f)
    return stats["median"]


def torch_ms(fn, runs, warmup=2):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def bench_gemms(tmp, peak, runs):
    import torch
    torch.set_num_threads(1)
    rows = []
    for name, text, flops, shape in gemm_cases():
        src = os.path.join(tmp, "case.mlir")
        with open(src, "w") as f:
            f.write(text)
        lib = os.path.join(tmp, "case.so")
        run([os.path.join(BIN, "fuse-compile"), src, "--target=cpu", "-q", "-o", lib])
        ms = fuse_ms(lib, runs)
        if shape[0] == "mm":
            _, m, k, n = shape
            a, b = torch.randn(m, k), torch.randn(k, n)
            tms = torch_ms(lambda: torch.mm(a, b), runs)
        else:
            _, hp, c, f_, kh, stride = shape
            x, w = torch.randn(1, c, hp, hp), torch.randn(f_, c, kh, kh)
            with torch.no_grad():
                tms = torch_ms(lambda: torch.nn.functional.conv2d(x, w, stride=stride), runs)
        gflops = flops / ms / 1e6
        rows.append({"case": name, "gflop": flops / 1e9, "fuse_ms": ms, "fuse_gflops": gflops,
                     "fraction_of_peak": gflops / peak["gflops"], "torch_ms": tms,
                     "torch_gflops": flops / tms / 1e6})
        print(f"{name}: fuse {ms:.3f} ms ({gflops:.1f} GFLOP/s, {gflops / peak['gflops']:.0%} of peak), "
              f"PyTorch {tms:.3f} ms", flush=True)
    return rows


def bench_models(args, tmp):
    import numpy as np
    import onnx  # noqa: F401  (the models were exported with it)
    import torch
    sys.path.insert(0, os.path.join(ROOT, "scripts", "models"))
    import export  # noqa: E402

    rows = []
    for model in args.models:
        onnx_path = os.path.join(args.models_dir, f"{model}.onnx")
        if not os.path.exists(onnx_path):
            sys.exit(f"bench/cpu.py: {onnx_path} is missing: run `make models` first")
        libs = {}
        for variant, flags in [("fused", []), ("unfused", ["--unfused"]),
                               ("fused_loops", ["--cpu-vectorize=false"])]:
            lib = os.path.join(tmp, f"{model}-{variant}.so")
            run([os.path.join(BIN, "fuse-compile"), onnx_path, "--target=cpu", "-q", "-o", lib] + flags)
            libs[variant] = lib
        reference = os.path.join(args.models_dir, f"{model}.npz")
        check = subprocess.run([os.path.join(BIN, "fuse-run"), libs["fused"], "--input", reference,
                                "--compare", reference, "-q"], capture_output=True, text=True)
        make, shape, _, _ = export.networks()[model]
        net, x = export.build(model, make, shape, export.seed_of(model))
        inputs = [x]
        with torch.no_grad():
            traced = torch.jit.trace(net, tuple(inputs), check_trace=False)
            frozen_net = torch.jit.optimize_for_inference(torch.jit.freeze(traced))
        times = {"fused_loops": []}
        for t in args.threads:
            times[f"fused_{t}t"] = []
            times[f"unfused_{t}t"] = []
            times[f"torch_eager_{t}t"] = []
            times[f"torch_jit_{t}t"] = []
        for _ in range(args.rounds):
            for t in args.threads:
                for variant in ["fused", "unfused"]:
                    times[f"{variant}_{t}t"].append(fuse_ms(libs[variant], runs=5, warmup=1, threads=t))
            if not args.skip_loops:
                times["fused_loops"].append(fuse_ms(libs["fused_loops"], runs=1, warmup=1))
            for t in args.threads:
                torch.set_num_threads(t)
                with torch.no_grad():
                    times[f"torch_eager_{t}t"].append(torch_ms(lambda: net(*inputs), runs=1, warmup=1))
                    times[f"torch_jit_{t}t"].append(torch_ms(lambda: frozen_net(*inputs), runs=1, warmup=1))
        row = {"model": model, "check": "PASS" if check.returncode == 0 else "FAIL"}
        for k, v in times.items():
            row[k] = statistics.median(v) if v else None
        rows.append(row)
        print(f"{model}: " + ", ".join(f"{k} {v:.1f} ms" for k, v in row.items()
                                       if isinstance(v, float)), flush=True)
    return rows


def blas_of(torch):
    """PyTorch's BLAS as its build configuration names it."""
    import re
    m = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
    name = m.group(1) if m else "unknown"
    return f"BLAS_INFO={name}" + (": the reference BLAS, so its matrix products are slow"
                                  if name == "generic" else "")


def write(args, peak, gemms, models):
    out_dir = os.path.join(ROOT, "docs", "benchmarks")
    os.makedirs(out_dir, exist_ok=True)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    import torch
    data = {"date": datetime.date.today().isoformat(), "commit": commit,
            "machine": platform.processor() or platform.machine(), "cores": os.cpu_count(),
            "torch": torch.__version__, "blas": blas_of(torch), "peak": peak,
            "gemms": gemms, "models": models, "threads": args.threads}
    with open(os.path.join(out_dir, "cpu.json"), "w") as f:
        json.dump(data, f, indent=1)
    lines = [f"# CPU benchmarks",
             "",
             f"Measured by `make bench-cpu` (`/usr/bin/python3 bench/cpu.py`) on {data['date']} at "
             f"{commit}, on this machine ({os.cpu_count()} cores), PyTorch {torch.__version__} "
             f"({blas_of(torch)}; convolutions through oneDNN). fp32 everywhere; `_Nt`: N threads "
             "(fuse: `fuse-benchmark --threads N`; PyTorch: `torch.set_num_threads(N)`). "
             "Every number is this run's; a ratio is between columns of the same run.",
             "",
             f"FMA peak of one core, measured (16 independent {peak['vector_width']}-wide FMA chains): "
             f"**{peak['gflops']:.1f} GFLOP/s**.",
             ""]
    if gemms:
        lines += ["## Contractions (one thread)", "",
                  "| contraction | GFLOP | fuse ms | fuse GFLOP/s | of peak | PyTorch ms | PyTorch GFLOP/s |",
                  "|---|---:|---:|---:|---:|---:|---:|"]
        for g in gemms:
            lines.append(f"| {g['case']} | {g['gflop']:.3f} | {g['fuse_ms']:.3f} | {g['fuse_gflops']:.1f} | "
                         f"{g['fraction_of_peak']:.0%} | {g['torch_ms']:.3f} | {g['torch_gflops']:.1f} |")
        lines.append("")
    if models:
        cols = [f"{kind}_{t}t" for t in args.threads for kind in ("fused", "unfused")] + ["fused_loops"] \
            + [f"torch_{kind}_{t}t" for t in args.threads for kind in ("eager", "jit")]
        lines += ["## Networks (batch 1, median ms of the interleaved rounds)", "",
                  "`fused_loops`: fused, with the vector micro-kernels off (`--cpu-vectorize=false`), one thread; "
                  "`torch_jit`: `torch.jit.freeze` + `optimize_for_inference`.", "",
                  "| model | check | " + " | ".join(cols) + " |",
                  "|---|---|" + "---:|" * len(cols)]
        for r in models:
            lines.append(f"| {r['model']} | {r['check']} | " +
                         " | ".join("-" if r.get(c) is None else f"{r[c]:.1f}" for c in cols) + " |")
        lines.append("")
    with open(os.path.join(out_dir, "cpu.md"), "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {os.path.join(out_dir, 'cpu.md')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default="resnet50,mobilenet_v2,googlenet,yolo,bert_base")
    parser.add_argument("--models-dir", default=os.path.join(ROOT, "build", "models"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=20, help="runs of each contraction")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--skip-models", action="store_true")
    parser.add_argument("--skip-loops", action="store_true",
                        help="do not time the fused build without vector micro-kernels (slow)")
    args = parser.parse_args()
    args.models = [m for m in args.models.split(",") if m]
    args.threads = [int(t) for t in args.threads.split(",") if t]
    with tempfile.TemporaryDirectory() as tmp:
        peak = measure_peak(tmp)
        print(f"FMA peak, one core: {peak['gflops']:.1f} GFLOP/s ({peak['vector_width']}-wide)", flush=True)
        gemms = bench_gemms(tmp, peak, args.runs)
        models = [] if args.skip_models else bench_models(args, tmp)
        write(args, peak, gemms, models)


if __name__ == "__main__":
    main()
