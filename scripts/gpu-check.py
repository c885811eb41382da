#!/usr/bin/python3
"""Runs a fused model on the GPU and compares every output with the CPU.

usage: gpu-check.py INPUT.mlir [--function F] [--target h200] [--block-size T]
                    [--seed S] [--rtol R] [--atol A] [--repeat N]
                    [--compile-only] [--keep DIR] [--report FILE]
                    [--profile FILE]

The function (tensors of f32, static shapes) is fused and compiled by
fuse-to-nvptx (workspace=argument) into an object with its kernels; a host
`main` puts seeded random inputs and the workspace in CUDA managed memory
(gpu.alloc host_shared), calls it and prints every output bit-exactly; the
executable links fuse's CUDA runtime library. The reference is the unfused
function on the CPU (fuse-to-cpu), on the same inputs. Each output must agree
within rtol (relative to the output's largest magnitude) plus atol.

--repeat N times N further calls after a first one (which loads the kernels
and copies the weights) and prints "gpu ms per run".
--compile-only builds the executable and stops (no GPU needed): it checks
that the whole host + device program compiles and links.
--report FILE writes the fusion report of the fused build (its group ids are
the kernels' names: <function>__gpu__group<id>_kernel).
--profile FILE runs the program once more with every kernel launch timed on
the device (FUSE_KERNEL_PROFILE, see lib/Runtime) and writes one line per
kernel: name, launches, median, minimum and total ms.
"""
import argparse
import importlib.util
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM = os.environ.get("LLVM_PREFIX", "/usr/lib/llvm-22")

_spec = importlib.util.spec_from_file_location("check_equivalence",
                                               os.path.join(ROOT, "scripts", "check-equivalence.py"))
ce = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ce)


def fail(message):
    sys.exit(f"gpu-check: {message}")


def run(cmd, stdin=None, what=None):
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if proc.returncode != 0:
        fail(f"{what or 'command'} failed: {' '.join(cmd)}\n{proc.stdout[-4000:]}{proc.stderr[-4000:]}")
    return proc


def memref_of(tensor_type):
    return tensor_type.replace("tensor<", "memref<", 1)


def print_bits(value, shape, tag, tensor_level):
    """Lines that print `value` (f32, `shape`) as the i32 bit patterns of its
    elements (printMemrefI32), so nothing is lost to decimal printing."""
    rank = len(shape)
    dims = ", ".join(f"d{i}" for i in range(rank))
    ident = f"affine_map<({dims}) -> ({dims})>"
    iters = ", ".join(['"parallel"'] * rank)
    shape_text = "x".join(str(d) for d in shape) + ("x" if shape else "")
    kind = "tensor" if tensor_level else "memref"
    f32, i32 = f"{kind}<{shape_text}f32>", f"{kind}<{shape_text}i32>"
    # The bitcast, on tensors (a result) or on buffers (written in place).
    bitcast = lambda out: [
        f"    {'%b' + str(tag) + ' = ' if tensor_level else ''}linalg.generic "
        f"{{indexing_maps = [{ident}, {ident}], iterator_types = [{iters}]}} "
        f"ins({value} : {f32}) outs({out} : {i32}) {{",
        "    ^bb0(%x: f32, %unused: i32):",
        "      %i = arith.bitcast %x : f32 to i32",
        "      linalg.yield %i : i32",
        f"    }}{' -> ' + i32 if tensor_level else ''}"]
    if tensor_level:
        lines = [f"    %e{tag} = tensor.empty() : {i32}"] + bitcast(f"%e{tag}") + [
            f"    %m{tag} = bufferization.to_buffer %b{tag} : {i32} to memref<{shape_text}i32>"]
    else:
        lines = [f"    %m{tag} = memref.alloc() : {i32}"] + bitcast(f"%m{tag}")
    return lines + [
        f"    %u{tag} = memref.cast %m{tag} : memref<{shape_text}i32> to memref<*xi32>",
        f"    call @printMemrefI32(%u{tag}) : (memref<*xi32>) -> ()",
    ]


def read_outputs(output, count):
    """The outputs printed by printMemrefI32, as lists of floats."""
    parts = output.split("Unranked Memref")[1:]
    if len(parts) != count:
        fail(f"expected {count} printed outputs, got {len(parts)}:\n{output[-2000:]}")
    values = []
    for part in parts:
        data = part.split("data =", 1)[1]
        ints = [int(x) for x in re.findall(r"-?\d+", data)]
        values.append([struct.unpack("<f", struct.pack("<i", i))[0] for i in ints])
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("--function")
    parser.add_argument("--target", default="h200")
    parser.add_argument("--block-size", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-6)
    parser.add_argument("--repeat", type=int, default=0)
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--keep", help="keep the generated files in this directory")
    parser.add_argument("--report", help="write the fused build's fusion report (JSON) here")
    parser.add_argument("--profile", help="time every kernel launch of the GPU run into this file")
    parser.add_argument("--fuse-opt", default=os.path.join(ROOT, "build", "bin", "fuse-opt"))
    parser.add_argument("--runtime", default=os.path.join(ROOT, "build", "lib", "libfuse_cuda_runtime.so"))
    args = parser.parse_args()
    if not os.path.exists(args.runtime):
        fail(f"no CUDA runtime library at {args.runtime} (built when the CUDA toolkit is installed)")

    work = args.keep or tempfile.mkdtemp(prefix="gpu-check-")
    os.makedirs(work, exist_ok=True)
    fuse_opt = args.fuse_opt
    rules = [line.split()[0] for line in run([fuse_opt, "--fuse-list-rules"]).stdout.splitlines()
             if line.startswith("  ") and not line.startswith("    ")]
    blobs = {}
    name, arg_types, result_types, ref = ce.compile_variant(
        fuse_opt, args.input, "prune=false disable-rules=" + ",".join(rules), "ref", args.function, blobs=blobs)
    report = f" report={os.path.abspath(args.report)}" if args.report else ""
    _, _, _, fused = ce.compile_variant(fuse_opt, args.input, f"target={args.target}{report}", "gpu",
                                        args.function, blobs=blobs)
    shapes_in = [ce.shape_of(t) for t in arg_types]
    shapes_out = [ce.shape_of(t) for t in result_types]
    rng = random.Random(args.seed)
    inputs = [ce.hex_constant(s, rng) for s in shapes_in]
    resources = ce.resource_block(blobs)

    # The reference: unfused, on the CPU.
    lines = ["  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}",
             "  func.func @main() {"]
    for i, t in enumerate(arg_types):
        lines.append(f"    %in{i} = arith.constant dense<{inputs[i]}> : {t}")
    n = len(result_types)
    sig = f"({', '.join(arg_types)}) -> ({', '.join(result_types)})"
    lines.append(f"    {'%r' if n == 1 else f'%r:{n}'} = call @{name}__ref("
                 + ", ".join(f"%in{i}" for i in range(len(arg_types))) + f") : {sig}")
    for k, shape in enumerate(shapes_out):
        lines += print_bits("%r" if n == 1 else f"%r#{k}", shape, k, tensor_level=True)
    lines += ["    return", "  }"]
    cpu_module = "module {\n" + ref + "\n".join(lines) + "\n}\n" + resources
    open(os.path.join(work, "cpu.mlir"), "w").write(cpu_module)

    def cpu_reference():
        cpu_lowered = run([fuse_opt, "--fuse-to-cpu"], stdin=cpu_module, what="fuse-to-cpu").stdout
        cpu_out = run([os.path.join(LLVM, "bin", "mlir-runner"), "-e", "main", "-entry-point-result=void",
                       f"-shared-libs={LLVM}/lib/libmlir_runner_utils.so,{LLVM}/lib/libmlir_c_runner_utils.so"],
                      stdin=cpu_lowered, what="the CPU reference").stdout
        return read_outputs(cpu_out, n)

    # The fused function on the GPU: kernels + host code (fuse-to-nvptx).
    gpu_source = "module {\n" + fused + "}\n" + resources
    open(os.path.join(work, "fused.mlir"), "w").write(gpu_source)
    proc = run([fuse_opt, f"--fuse-to-nvptx=target={args.target} block-size={args.block_size} "
                "workspace=argument", "--mlir-print-ir-after=fuse-plan-buffers",
                "-o", os.path.join(work, "kernels.mlir")], stdin=gpu_source, what="fuse-to-nvptx")
    header = re.search(rf"func\.func @{name}__gpu\((.*?)\)(?: -> \(?(.*?)\)?)? (?:attributes|\{{)", proc.stderr)
    if not header:
        fail(f"cannot find the host function @{name}__gpu after fuse-plan-buffers")
    # Types only: argument attributes (an ONNX input's name) are dropped.
    params = [re.sub(r"\s*\{.*?\}", "", p.split(":", 1)[1]).strip()
              for p in re.split(r",\s*(?=%)", header.group(1)) if p]
    results = re.findall(r"memref<[^>]*>", header.group(2) or "")
    kernels = open(os.path.join(work, "kernels.mlir")).read()
    launches = kernels.count("gpu.launch_func")
    workspace = re.search(rf"llvm\.func @{name}__gpu_workspace_bytes\(\) -> i64 \{{\s*%\w+ = llvm\.mlir\.constant\((\d+)",
                          kernels)

    # Its host main: inputs and workspace in managed memory, outputs printed.
    lines = ["module attributes {gpu.container_module} {"]
    for i, t in enumerate(arg_types):
        lines.append(f'  memref.global "private" constant @in{i} : {memref_of(t)} = dense<{inputs[i]}>')
    ret = f" -> ({', '.join(results)})" if results else ""
    lines += [f"  func.func private @{name}__gpu({', '.join(params)}){ret}",
              "  func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}",
              "  func.func private @rtclock() -> f64",
              "  func.func private @printF64(f64)",
              "  func.func private @printNewline()",
              "  func.func @main() {"]
    call_args = []
    for i, t in enumerate(arg_types):
        m = memref_of(t)
        lines += [f"    %g{i} = memref.get_global @in{i} : {m}",
                  f"    %d{i} = gpu.alloc host_shared () : {m}",
                  f"    memref.copy %g{i}, %d{i} : {m} to {m}"]
        call_args.append(f"%d{i}")
    if len(params) == len(arg_types) + 1:
        if not workspace or params[-1] != f"memref<{workspace.group(1)}xi8>":
            fail(f"unexpected workspace parameter {params[-1]}")
        lines.append(f"    %ws = gpu.alloc host_shared () : {params[-1]}")
        call_args.append("%ws")
    elif len(params) != len(arg_types):
        fail(f"unexpected host signature ({', '.join(params)}){ret}")
    res = "" if not results else ("%o = " if len(results) == 1 else f"%o:{len(results)} = ")
    call = (f"{res}func.call @{name}__gpu({', '.join(call_args)}) : ({', '.join(params)}){ret}")
    lines.append("    " + call)
    if args.repeat:
        lines += ["    %c0 = arith.constant 0 : index", "    %c1 = arith.constant 1 : index",
                  f"    %cn = arith.constant {args.repeat} : index",
                  "    %t0 = call @rtclock() : () -> f64",
                  "    scf.for %it = %c0 to %cn step %c1 {",
                  "      " + call.replace("%o", "%again"),
                  # Each call's results go back (to the runtime's cache), as
                  # a program that calls the model again and again would.
                  *[f"      memref.dealloc {'%again' if len(results) == 1 else f'%again#{k}'} : {t}"
                    for k, t in enumerate(results)],
                  "    }",
                  "    %t1 = call @rtclock() : () -> f64",
                  "    %dt = arith.subf %t1, %t0 : f64",
                  f"    %nf = arith.constant {1000.0 / args.repeat:e} : f64",
                  "    %ms = arith.mulf %dt, %nf : f64",
                  "    call @printF64(%ms) : (f64) -> ()",
                  "    call @printNewline() : () -> ()"]
    if len(results) != n:
        fail(f"the host function returns {len(results)} buffers for {n} results")
    for k, shape in enumerate(shapes_out):
        lines += print_bits("%o" if n == 1 else f"%o#{k}", shape, k, tensor_level=False)
    lines += ["    return", "  }", "}"]
    main_mlir = "\n".join(lines) + "\n"
    open(os.path.join(work, "main.mlir"), "w").write(main_mlir)
    main_llvm = run([fuse_opt, "--pass-pipeline=builtin.module(func.func(convert-linalg-to-loops),"
                     "convert-scf-to-cf,gpu-to-llvm,expand-strided-metadata,finalize-memref-to-llvm,"
                     "convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,fuse-device-memory,"
                     "reconcile-unrealized-casts)"],
                    stdin=main_mlir, what="lowering the host main").stdout
    translate = os.path.join(LLVM, "bin", "mlir-translate")
    for stem, text in (("main", main_llvm), ("kernels", None)):
        source = os.path.join(work, f"{stem}.mlir") if text is None else None
        run([translate, "--mlir-to-llvmir", "-o", os.path.join(work, f"{stem}.ll")]
            + ([source] if source else []), stdin=text, what=f"translating {stem} to LLVM IR")
    exe = os.path.join(work, "run")
    runtime_dir = os.path.dirname(os.path.abspath(args.runtime))
    run([os.path.join(LLVM, "bin", "clang"), "-O2", "-fuse-ld=lld", os.path.join(work, "main.ll"),
         os.path.join(work, "kernels.ll"), "-o", exe, f"-L{runtime_dir}", "-lfuse_cuda_runtime",
         f"-L{LLVM}/lib", "-lmlir_c_runner_utils", "-lmlir_runner_utils", "-lm",
         f"-Wl,-rpath,{runtime_dir}", f"-Wl,-rpath,{LLVM}/lib"], what="linking")
    print(f"{os.path.basename(args.input)} @{name}: {launches} kernel launch(es), "
          f"{args.block_size} threads per block, executable {exe}")
    if args.compile_only:
        print("compiled (not run: --compile-only)")
        return 0

    reference = cpu_reference()
    out = run([exe], what="the GPU run").stdout
    if args.profile:
        # A second run, timed per launch: the events around every launch
        # would slow the first one's end-to-end time.
        env = dict(os.environ, FUSE_KERNEL_PROFILE=os.path.abspath(args.profile))
        proc = subprocess.run([exe], capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            fail(f"the profiled GPU run failed:\n{proc.stderr[-4000:]}")
        print(f"kernel profile: {args.profile}")
    timing = None
    if args.repeat:
        first = out.split("Unranked Memref", 1)[0]
        m = re.search(r"([0-9.eE+-]+)\s*$", first.strip())
        timing = float(m.group(1)) if m else None
    values = read_outputs(out, n)
    failed = 0
    for k, (ref_k, gpu_k) in enumerate(zip(reference, values)):
        if len(ref_k) != len(gpu_k):
            fail(f"output {k}: {len(gpu_k)} values on the GPU, {len(ref_k)} on the CPU")
        scale = max((abs(v) for v in ref_k), default=0.0)
        worst, worst_i = 0.0, 0
        for i, (a, b) in enumerate(zip(ref_k, gpu_k)):
            err = abs(a - b) if a == a and b == b else float("inf")
            if err > worst:
                worst, worst_i = err, i
        ok = worst <= args.rtol * scale + args.atol
        failed += not ok
        print(f"  output {k} {result_types[k]}: max abs err {worst:.3g} (max |ref| {scale:.3g}), "
              f"worst at flat index {worst_i}: gpu {gpu_k[worst_i]:.7g} vs cpu {ref_k[worst_i]:.7g}: "
              f"{'PASS' if ok else 'FAIL'}")
    if timing is not None:
        print(f"gpu ms per run: {timing:.4f} (median of one timing loop of {args.repeat} runs)")
    print("PASS" if not failed else f"FAIL: {failed} of {n} outputs differ")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
