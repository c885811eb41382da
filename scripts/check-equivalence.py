#!/usr/bin/python3
"""Fused ≡ unfused on the CPU.

Compiles one function twice with fuse-opt: unfused (every fusion rule and
graph rewrite off, so each op is its own group) and fused (the fusion
pipeline for a target). Both go into one module with a generated `main`
that feeds them the same seeded random inputs and compares every output
element inside the module: |fused - unfused| <= atol + rtol * |unfused|.
The module is lowered with fuse-to-cpu and run by mlir-runner.

Prints, per output: the largest absolute error, the largest relative error,
the first worst element (flat index, fused and unfused values) and
PASS/FAIL; exits 1 on any failure. A NaN anywhere in the comparison is a
failure: pick inputs (or functions) whose results are finite.

usage: check-equivalence.py INPUT.mlir [--function NAME] [--target h200] [--seed 0]
         [--rtol 1e-5] [--atol 1e-6] [--fused-options "..."] [--keep DIR]
"""
import argparse
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM = os.environ.get("LLVM_PREFIX", "/usr/lib/llvm-22")
TENSOR = re.compile(r"tensor<((?:\d+x)*)(f32|f16|bf16|i64|i32|i1)>")



def threads_arg(text):
    """--distribute-threads: a positive count, or 'config' (-1: emulate-threads=-1)."""
    if text == "config":
        return -1
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a thread count or 'config', got {text!r}")
    if value < 0:
        raise argparse.ArgumentTypeError(f"the thread count must be positive, got {value}")
    return value

def fail(message):
    sys.exit(f"check-equivalence: {message}")


def run(cmd, stdin=None):
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if proc.returncode != 0:
        fail(f"command failed: {' '.join(cmd)}\n{proc.stderr}")
    return proc.stdout


def shape_of(type_text):
    m = TENSOR.fullmatch(type_text.strip())
    if not m:
        fail(f"only statically shaped f32, f16, bf16, i64, i32 and i1 tensors are supported, got '{type_text}'")
    dims = m.group(1)
    return [int(d) for d in dims.split("x") if d]


def split_types(text):
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return [t.strip() for t in re.findall(r"tensor<[^>]*>", text)]


RESOURCES = re.compile(r"\n*\{-#\n  dialect_resources: \{\n    builtin: \{\n(.*?)\n    \}\n  \}\n#-\}\n*", re.S)


def drop_module_attributes(text):
    """The module's own attributes (the fuse.target the fusion recorded) are
    dropped: the functions taken out of it go into modules of their own."""
    return re.sub(r"^module attributes \{.*\} \{$", "module {", text, count=1, flags=re.M)


def run_keeping_resources(cmd, source, stdin=None, into=None):
    """run() for a fuse-opt command with --mlir-print-local-scope, which
    prints no dialect_resources block. When its input `source` (the text it
    reads) has dense_resource weights (as the ONNX importer writes them; the
    pipelines only make blobs from blobs), the command runs once without
    local scope, its blobs go into the dict `into`, and the result is
    printed again in local scope (parse and print, no passes)."""
    if into is None or "dense_resource<" not in source:
        return drop_module_attributes(run(cmd, stdin))
    local = "--mlir-print-local-scope"
    text = split_resources(run([c for c in cmd if c != local], stdin), into)
    return drop_module_attributes(run([cmd[0], local], stdin=text + resource_block(into)))


def split_resources(text, into):
    """Cuts the dialect_resources block off printed IR; its blobs go into the
    dict `into`."""
    m = RESOURCES.search(text)
    if not m:
        return text
    for key, blob in re.findall(r'^\s*([\w.$-]+): ("0x[0-9A-Fa-f]*")', m.group(1), re.M):
        into.setdefault(key, blob)
    return text[:m.start()] + "\n"


def resource_block(blobs):
    """The dialect_resources block holding `blobs`, or nothing."""
    if not blobs:
        return ""
    entries = ",\n".join(f"      {k}: {v}" for k, v in blobs.items())
    return "\n{-#\n  dialect_resources: {\n    builtin: {\n" + entries + "\n    }\n  }\n#-}\n"


def lower_pass(lower):
    """The fuse-lower-groups pass: as configured, or (a dict of options) configured anew."""
    if isinstance(lower, dict):
        options = " ".join(f"{k}={v}" for k, v in lower.items())
        return f"--fuse-lower-groups=reconfigure=true {options}"
    return "--fuse-lower-groups"


def compile_variant(fuse_opt, path, options, suffix, function, lower=False, blobs=None, relayout=False):
    blobs = {} if blobs is None else blobs
    text = run_keeping_resources([fuse_opt, path, "--mlir-print-local-scope",
                                  f"--fuse-fusion-pipeline={options}"], open(path).read(), into=blobs)
    funcs = re.findall(r"^  func\.func @(\w+)\(", text, re.M)
    if function:
        if function not in funcs:
            fail(f"no function @{function} in {path}; it has {funcs}")
        # Keep only that function.
        start = text.index(f"  func.func @{function}(")
        end = text.index("\n  }\n", start) + len("\n  }\n")
        text = "module {\n" + text[start:end] + "}\n"
        funcs = [function]
    if len(funcs) != 1:
        fail(f"{path} has several functions {funcs}: pick one with --function")
    name = funcs[0]
    if relayout:
        source = text + resource_block(blobs)
        text = run_keeping_resources([fuse_opt, "--mlir-print-local-scope",
                                      "--fuse-relayout-weights=tensor-cores=never"],
                                     source, stdin=source, into=blobs)
    if lower:
        source = text + resource_block(blobs)
        text = run_keeping_resources([fuse_opt, "--mlir-print-local-scope", lower_pass(lower)],
                                     source, stdin=source, into=blobs)
    header = re.search(rf"func\.func @{name}\((.*?)\) -> (.*?) (?:attributes .*?)?\{{$", text, re.M)
    if not header:
        fail("cannot read the function signature")
    args = [a.split(":", 1)[1] for a in re.split(r",\s*(?=%)", header.group(1)) if a]
    arg_types = [re.sub(r"\{.*\}", "", a).strip() for a in args]
    result_types = split_types(header.group(2))
    body = text[text.index("{") + 1: text.rindex("}")]
    body = body.replace(f"func.func @{name}(", f"func.func @{name}__{suffix}(", 1)
    if suffix == "unfused":
        # The reference keeps one buffer per value (no arena planning) and
        # its loops (no vector micro-kernels).
        body = re.sub(rf"(func\.func @{name}__unfused\([^{{]*?\)(?: -> [^{{]*?)?) \{{",
                      r"\1 attributes {fuse.no_plan, fuse.no_vectorize} {", body, count=1)
    return name, arg_types, result_types, body


def read_memory(lowered, function):
    """The `fuse.memory` numbers fuse-plan-buffers left on @function in
    LLVM-dialect text, as a dict (ints and the strategy name), or None."""
    m = re.search(rf"llvm\.func @{function}\(.*fuse\.memory = \{{arena = (\d+) : i64, "
                  r"in_place_bytes = (\d+) : i64, max_live = (\d+) : i64, naive = (\d+) : i64, "
                  r'strategy = "([\w-]+)"\}', lowered)
    if not m:
        return None
    keys = ("arena", "in_place_bytes", "max_live", "naive")
    memory = dict(zip(keys, map(int, m.groups()[:4])))
    memory["strategy"] = m.group(5)
    return memory


def element_type(type_text):
    return TENSOR.fullmatch(type_text.strip()).group(2)


def hex_constant(shape, rng, elem="f32"):
    """Seeded random contents: floats in [-1, 1) (f16 and bf16 rounded to
    nearest even), integers in [-8, 8) (as
    ids, positions or indices: a negative or too-large index exercises the
    clamping), booleans as 0 or 1."""
    n = 1
    for d in shape:
        n *= d
    if elem == "i1":
        def nested(dims):
            if not dims:
                return "true" if rng.random() < 0.5 else "false"
            return "[" + ", ".join(nested(dims[1:]) for _ in range(dims[0])) + "]"
        return nested(list(shape))
    if elem == "bf16":
        def pack(_fmt, v):
            bits = struct.unpack("<I", struct.pack("<f", v))[0]
            return struct.pack("<H", (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16)
    else:
        pack = struct.pack
    fmt = {"f32": "<f", "f16": "<e", "bf16": None, "i64": "<q", "i32": "<i"}[elem]
    floats = elem in ("f32", "f16", "bf16")
    draw = (lambda: rng.uniform(-1.0, 1.0)) if floats else (lambda: rng.randrange(-8, 8))
    data = b"".join(pack(fmt, draw()) for _ in range(n))
    return '"0x' + data.hex().upper() + '"'


def as_float_lines(name, value, t, ft):
    """MLIR lines converting 16-bit float, integer or boolean tensor
    `value` of type `t` to `name` of f32 type `ft` (one elementwise
    linalg.generic)."""
    rank = len(shape_of(t))
    dims = ", ".join(f"d{i}" for i in range(rank))
    identity = f"affine_map<({dims}) -> ({dims})>"
    elem = element_type(t)
    convert = {"i1": "arith.uitofp", "f16": "arith.extf", "bf16": "arith.extf"}.get(elem, "arith.sitofp")
    parallel = ", ".join(['"parallel"'] * rank)
    return [
        f"    {name}_init = tensor.empty() : {ft}",
        f"    {name} = linalg.generic {{indexing_maps = [{identity}, {identity}], iterator_types = [{parallel}]}} "
        f"ins({value} : {t}) outs({name}_init : {ft}) {{",
        f"    ^bb0(%x: {elem}, %o: f32):",
        f"      %y = {convert} %x : {elem} to f32",
        f"      linalg.yield %y : f32",
        f"    }} -> {ft}",
    ]


def compare_lines(k, t, f, u, rtol):
    """MLIR lines (inside a function with %c0 defined) that compare result
    `f` with reference `u`, both of type `t`, and print the largest absolute
    error, the largest |reference|, the largest violation |f - u| - rtol * |u|
    and where it is, as `out K <key> <value>` lines (read_comparison)."""
    shape = shape_of(t)
    size = 1
    for d in shape:
        size *= d
    flat = f"tensor<{size}xf32>"
    return [
        f"    %flat_shape{k} = tosa.const_shape {{values = dense<[{size}]> : tensor<1xindex>}} : () -> !tosa.shape<1>",
        f"    %uf{k} = tosa.reshape {u}, %flat_shape{k} : ({t}, !tosa.shape<1>) -> {flat}",
        f"    %ff{k} = tosa.reshape {f}, %flat_shape{k} : ({t}, !tosa.shape<1>) -> {flat}",
        f"    %d{k} = tosa.sub %ff{k}, %uf{k} : ({flat}, {flat}) -> {flat}",
        f"    %ad{k} = tosa.abs %d{k} : ({flat}) -> {flat}",
        f"    %au{k} = tosa.abs %uf{k} : ({flat}) -> {flat}",
        # violation = |d| - rtol * |u| (compared with atol below)
        f'    %rt{k} = "tosa.const"() <{{values = dense<{rtol:e}> : tensor<1xf32>}}> : () -> tensor<1xf32>',
        f'    %sh{k} = "tosa.const"() <{{values = dense<0> : tensor<1xi8>}}> : () -> tensor<1xi8>',
        f"    %tu{k} = tosa.mul %au{k}, %rt{k}, %sh{k} : ({flat}, tensor<1xf32>, tensor<1xi8>) -> {flat}",
        f"    %v{k} = tosa.sub %ad{k}, %tu{k} : ({flat}, {flat}) -> {flat}",
        f"    %mad{k} = tosa.reduce_max %ad{k} {{axis = 0 : i32}} : ({flat}) -> tensor<1xf32>",
        f"    %mau{k} = tosa.reduce_max %au{k} {{axis = 0 : i32}} : ({flat}) -> tensor<1xf32>",
        f"    %mv{k} = tosa.reduce_max %v{k} {{axis = 0 : i32}} : ({flat}) -> tensor<1xf32>",
        f"    %iv{k} = tosa.argmax %v{k} {{axis = 0 : i32}} : ({flat}) -> tensor<i32>",
        f"    %s_mad{k} = tensor.extract %mad{k}[%c0] : tensor<1xf32>",
        f"    %s_mau{k} = tensor.extract %mau{k}[%c0] : tensor<1xf32>",
        f"    %s_mv{k} = tensor.extract %mv{k}[%c0] : tensor<1xf32>",
        f"    %s_iv{k} = tensor.extract %iv{k}[] : tensor<i32>",
        f"    %idx{k} = arith.index_cast %s_iv{k} : i32 to index",
        f"    %s_f{k} = tensor.extract %ff{k}[%idx{k}] : {flat}",
        f"    %s_u{k} = tensor.extract %uf{k}[%idx{k}] : {flat}",
        f'    vector.print str "out {k} max_abs_err "',
        f"    vector.print %s_mad{k} : f32",
        f'    vector.print str "out {k} max_abs_ref "',
        f"    vector.print %s_mau{k} : f32",
        f'    vector.print str "out {k} violation "',
        f"    vector.print %s_mv{k} : f32",
        f'    vector.print str "out {k} worst_index "',
        f"    vector.print %s_iv{k} : i32",
        f'    vector.print str "out {k} fused "',
        f"    vector.print %s_f{k} : f32",
        f'    vector.print str "out {k} unfused "',
        f"    vector.print %s_u{k} : f32",
    ]


def execute_on_cpu(fuse_opt, module, runner=None, threads=0):
    """Lowers `module` (with a `main`) through fuse-to-cpu and runs it with
    mlir-runner and the upstream runner-utils libraries: (lowered IR, what
    it printed). `runner(cmd, stdin)` runs a command (default: run())."""
    runner = runner or run
    pipeline = f"--fuse-to-cpu=emulate-threads={threads}" if threads else "--fuse-to-cpu"
    lowered = runner([fuse_opt, pipeline], stdin=module)
    output = runner([os.path.join(LLVM, "bin", "mlir-runner"), "-e", "main", "-entry-point-result=void",
                     f"-shared-libs={LLVM}/lib/libmlir_runner_utils.so,{LLVM}/lib/libmlir_c_runner_utils.so"],
                    stdin=lowered)
    return lowered, output


def read_comparison(output):
    """{output index: {key: value}} from the lines compare_lines prints."""
    values = {}
    for line in output.splitlines():
        m = re.match(r"out (\d+) (\w+) (\S+)", line.strip())
        if m:
            values.setdefault(int(m.group(1)), {})[m.group(2)] = float(m.group(3))
    return values


# Default tolerances by the narrowest float type the module computes in: a
# fused kernel reduces in another order than the unfused one, and the
# difference is a few units in the last place of that type (f16: 2^-10
# relative, bf16: 2^-7), times the growth of a long sum.
TOLERANCES = {"f32": (1e-5, 1e-6), "f16": (1e-2, 1e-3), "bf16": (8e-2, 1e-2)}
# Default tolerances of an f32 module whose tensor-core products take
# 16-bit operands (--precision): each operand rounded to 8 (bf16) or 11
# (fp16) significant bits, the products' error grows with the sum.
PRODUCT_TOLERANCES = {"bf16": (5e-2, 2e-2), "fp16": (1e-2, 3e-3)}


def choose_tolerances(args):
    """Fills args.rtol/args.atol that the user left out from the module's
    narrowest float type; returns a note for the report line ("" for f32)."""
    try:
        text = open(args.input).read()
    except OSError as e:
        fail(f"cannot read '{args.input}': {e.strerror}")
    kind = "f32"
    if re.search(r"(?:\b|[\d?]x)bf16\b", text):
        kind = "bf16"
    elif re.search(r"(?:\b|[\d?]x)f16\b", text):
        kind = "f16"
    rtol, atol = TOLERANCES[kind]
    note = ""
    if kind != "f32" and (args.rtol is None or args.atol is None):
        note = f" ({kind} arithmetic in the module: {kind} tolerances)"
    elif getattr(args, "precision", None) in PRODUCT_TOLERANCES and \
            (args.rtol is None or args.atol is None):
        rtol, atol = PRODUCT_TOLERANCES[args.precision]
        note = f" ({args.precision} tensor-core products: {args.precision} tolerances)"
    if args.rtol is None:
        args.rtol = rtol
    if args.atol is None:
        args.atol = atol
    return note


def make_main(name, arg_types, result_types, rng, rtol, atol, perturb):
    lines = ["  func.func private @printMemrefF32(tensor<*xf32>)", "  func.func @main() {"]
    ins = []
    for i, t in enumerate(arg_types):
        lines.append(f"    %in{i} = arith.constant dense<{hex_constant(shape_of(t), rng, element_type(t))}> : {t}")
        ins.append(f"%in{i}")
    args = ", ".join(ins)
    sig = f"({', '.join(arg_types)}) -> ({', '.join(result_types)})"
    n = len(result_types)
    res = lambda tag: f"%{tag}" if n == 1 else f"%{tag}:{n}"
    ref = lambda tag, k: f"%{tag}" if n == 1 else f"%{tag}#{k}"
    lines.append(f"    {res('u')} = call @{name}__unfused({args}) : {sig}")
    lines.append(f"    {res('f')} = call @{name}__fused({args}) : {sig}")
    lines.append("    %c0 = arith.constant 0 : index")
    lines.append(f"    %rtol = arith.constant {rtol:e} : f32")
    lines.append(f"    %atol = arith.constant {atol:e} : f32")
    for k, t in enumerate(result_types):
        shape = shape_of(t)
        u, f = ref("u", k), ref("f", k)
        if perturb and k == 0:
            # Test hook: a wrong "fused" result, to show that the check fails.
            lines += [
                f'    %pert = "tosa.const"() <{{values = dense<{perturb:e}> : tensor<{"x".join(["1"] * len(shape))}xf32>}}> : () -> tensor<{"x".join(["1"] * len(shape))}xf32>',
                f"    %fp = tosa.add {f}, %pert : ({t}, tensor<{'x'.join(['1'] * len(shape))}xf32>) -> {t}",
            ]
            f = "%fp"
        if element_type(t) != "f32":
            # 16-bit floats, integers and booleans compare as f32 (exactly,
            # for the values a model computes).
            ft = t.replace(element_type(t) + ">", "f32>")
            for tag, v in (("u", u), ("f", f)):
                lines += as_float_lines(f"%{tag}float{k}", v, t, ft)
            u, f, t = f"%ufloat{k}", f"%ffloat{k}", ft
        lines += compare_lines(k, t, f, u, rtol)
    lines += ["    return", "  }"]
    return "\n".join(lines) + "\n"


def check_groups(args, rules):
    """Checks every group of the fused function on its own."""
    fused_opts = f"target={args.target} {args.fused_options}".strip()
    blobs = {}
    text = run_keeping_resources([args.fuse_opt, args.input, "--mlir-print-local-scope",
                                  f"--fuse-fusion-pipeline={fused_opts}"], open(args.input).read(), into=blobs)
    if args.function:
        start = text.index(f"  func.func @{args.function}(")
        end = text.index("\n  }\n", start) + len("\n  }\n")
        text = "module {\n" + text[start:end] + "}\n"
    source = text + resource_block(blobs)
    outlined = run_keeping_resources([args.fuse_opt, "--mlir-print-local-scope", "--fuse-outline-groups"],
                                     source, stdin=source, into=blobs)
    names = re.findall(r"^  func\.func private @(\w+__group\d+)\(", outlined, re.M)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            start = outlined.index(f"  func.func private @{name}(")
            end = outlined.index("\n  }\n", start) + len("\n  }\n")
            body = outlined[start:end].replace("func.func private @", "func.func @", 1)
            # Strip the group's attributes: it is an ordinary function now.
            body = re.sub(r" attributes \{fuse\.kind = [^}]*\}", "", body, count=1)
            # A concat branch inserts into a fresh tensor whose other slices
            # the group leaves undefined: start from zeros so that the
            # comparison sees defined values only.
            for var, ty in re.findall(r"(%[\w]+) = tensor\.empty\(\) : (tensor<[^>]*>)", body):
                if re.search(rf"into {re.escape(var)}\[", body):
                    body = body.replace(f"{var} = tensor.empty() : {ty}",
                                        f"{var} = arith.constant dense<0.000000e+00> : {ty}", 1)
            path = os.path.join(tmp, name + ".mlir")
            with open(path, "w") as f:
                f.write("module {\n" + body + "}\n" + resource_block(blobs))
            cmd = [sys.executable, os.path.abspath(__file__), path, "--target", args.target,
                   "--seed", str(args.seed), "--rtol", str(args.rtol), "--atol", str(args.atol),
                   "--fuse-opt", args.fuse_opt]
            if args.lower_groups:
                cmd.append("--lower-groups")
            if args.tensor_cores:
                cmd += ["--tensor-cores", args.tensor_cores]
            if args.precision:
                cmd += ["--precision", args.precision]
            if args.stages:
                cmd += ["--stages", str(args.stages)]
            if args.split_k:
                cmd += ["--split-k", str(args.split_k)]
            if args.key_chunk:
                cmd += ["--key-chunk", str(args.key_chunk)]
            if args.distribute_threads:
                cmd += ["--distribute-threads", str(args.distribute_threads)]
            if args.relayout_weights:
                cmd.append("--relayout-weights")
            proc = subprocess.run(cmd, capture_output=True, text=True)
            ok = proc.returncode == 0
            failed += not ok
            print(f"group {name}: {'PASS' if ok else 'FAIL'}")
            if not ok:
                print(proc.stdout + proc.stderr)
    print("PASS" if not failed else f"FAIL: {failed} of {len(names)} groups differ")
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input")
    parser.add_argument("--target", default="h200")
    parser.add_argument("--function", help="the function to check, if the file has several")
    parser.add_argument("--lower-groups", action="store_true",
                        help="tile each fused group into one loop nest (fuse-lower-groups) first")
    parser.add_argument("--relayout-weights", action="store_true",
                        help="every constant conv filter permuted as for SIMT GPU kernels "
                             "(fuse-relayout-weights tensor-cores=never) first")
    parser.add_argument("--distribute-threads", type=threads_arg, default=0, metavar="T",
                        help="with --lower-groups: spread each tile's ops over T emulated threads, as the "
                             "GPU kernels do (fuse-to-cpu emulate-threads); 'config': each group's "
                             "own block size (its lowering config's threads, as on the GPU)")
    parser.add_argument("--tensor-cores", choices=["auto", "always", "never"],
                        help="with --lower-groups: the groups configured anew with fuse-lower-groups' "
                             "tensor-cores option (always: every contraction the mma_sync schedule "
                             "computes runs on the emulated tensor cores)")
    parser.add_argument("--precision", choices=["fp32", "tf32", "bf16", "fp16"],
                        help="with --lower-groups: the precision of tensor-core products (fp32: three "
                             "TF32 products; tf32: one, about 1e-3 relative: pass a --rtol to match; "
                             "bf16, fp16: one product of operands rounded to 16 bits, checked at "
                             "their own default tolerances)")
    parser.add_argument("--stages", type=int, choices=[2, 3, 4],
                        help="with --lower-groups: the K chunks every tensor-core kernel stages in "
                             "shared memory at once (default: the cost model's choice)")
    parser.add_argument("--split-k", type=int, choices=range(1, 17), metavar="{1..16}",
                        help="with --lower-groups: the blocks every tensor-core kernel splits its "
                             "reduction over where its group allows (split-K; 1: never; default: "
                             "the cost model's choice)")
    parser.add_argument("--key-chunk", type=int,
                        help="with --lower-groups: the keys per chunk every attention tile streams "
                             "its keys and values in (an online softmax; -1: never; default: the "
                             "cost model's choice)")
    parser.add_argument("--tile-sizes",
                        help="with --lower-groups: every group's tile sizes (fuse-lower-groups' "
                             "tile-sizes, comma-separated), instead of its config's")
    parser.add_argument("--fused-options", default="",
                        help="extra fuse-fusion-pipeline options for the fused build")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rtol", type=float,
                        help="relative tolerance (default 1e-5; 1e-2 when the module computes in f16, "
                             "8e-2 in bf16: fused and unfused reduce in different orders)")
    parser.add_argument("--atol", type=float,
                        help="absolute tolerance (default 1e-6; 1e-3 with f16, 1e-2 with bf16)")
    parser.add_argument("--fuse-opt", default=os.path.join(ROOT, "build", "bin", "fuse-opt"))
    parser.add_argument("--keep", help="write the combined module and its output here")
    parser.add_argument("--per-group", action="store_true",
                        help="also check every fused group on its own: the group's ops, fused, "
                             "against the same ops unfused, on random inputs of the group's own")
    parser.add_argument("--perturb", type=float, default=0.0,
                        help="add this to the fused build's first output (tests the check itself)")
    args = parser.parse_args()
    tolerance_note = choose_tolerances(args)

    rules = [line.split()[0] for line in run([args.fuse_opt, "--fuse-list-rules"]).splitlines()
             if line.startswith("  ") and not line.startswith("    ")]
    if args.per_group:
        return check_groups(args, rules)
    unfused_opts = "prune=false disable-rules=" + ",".join(rules)
    fused_opts = f"target={args.target} {args.fused_options}".strip()
    blobs = {}
    name, arg_types, result_types, unfused = compile_variant(args.fuse_opt, args.input, unfused_opts, "unfused",
                                                             args.function, blobs=blobs)
    if (args.tensor_cores or args.precision or args.stages or args.split_k or args.tile_sizes
            or args.key_chunk) and not args.lower_groups:
        fail("--tensor-cores, --precision, --stages, --split-k, --key-chunk and --tile-sizes need "
             "--lower-groups (they configure the tiles)")
    lower = args.lower_groups
    if lower and (args.tensor_cores or args.precision or args.stages or args.split_k):
        lower = {"tensor-cores": args.tensor_cores or "auto", "precision": args.precision or "fp32",
                 "stages": args.stages or 0, "split-k": args.split_k or 0}
    if lower and args.key_chunk:
        lower = dict(lower) if isinstance(lower, dict) else {}
        lower["key-chunk"] = args.key_chunk
    if lower and args.tile_sizes:
        if not re.fullmatch(r"\d+(,\d+)*", args.tile_sizes):
            fail(f"--tile-sizes must be comma-separated sizes, got '{args.tile_sizes}'")
        lower = dict(lower) if isinstance(lower, dict) else {}
        lower["tile-sizes"] = args.tile_sizes
    _, _, _, fused = compile_variant(args.fuse_opt, args.input, fused_opts, "fused", args.function,
                                     lower, blobs=blobs, relayout=args.relayout_weights)
    for t in arg_types + result_types:
        shape_of(t)
    rng = random.Random(args.seed)
    module = "module {\n" + unfused + fused + make_main(name, arg_types, result_types, rng,
                                                        args.rtol, args.atol, args.perturb) + "}\n" + resource_block(blobs)
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        open(os.path.join(args.keep, "combined.mlir"), "w").write(module)
    if args.distribute_threads and not args.lower_groups:
        fail("--distribute-threads needs --lower-groups (it spreads the tile loops' ops)")
    lowered, output = execute_on_cpu(args.fuse_opt, module, threads=args.distribute_threads)
    if args.keep:
        open(os.path.join(args.keep, "output.txt"), "w").write(output)

    values = read_comparison(output)
    failed = 0
    lowered_note = ", groups tiled" if args.lower_groups else ""
    if args.tensor_cores or args.precision or args.stages or args.split_k:
        lowered_note += (f", tensor cores {args.tensor_cores or 'auto'}, "
                         f"precision {args.precision or 'fp32'}")
        if args.stages:
            lowered_note += f", {args.stages} stages"
        if args.split_k:
            lowered_note += f", split-k {args.split_k}"
    if args.distribute_threads:
        lowered_note += (", each group's configured threads per tile" if args.distribute_threads < 0
                         else f", {args.distribute_threads} threads per tile")
    if args.relayout_weights:
        lowered_note += ", filters re-laid out"
    if args.tile_sizes:
        lowered_note += f", tile sizes {args.tile_sizes}"
    if args.key_chunk:
        lowered_note += f", key chunk {args.key_chunk}"
    print(f"{os.path.basename(args.input)} @{name}: fused ({fused_opts}{lowered_note}) vs unfused, seed {args.seed}, "
          f"rtol {args.rtol:g}, atol {args.atol:g}{tolerance_note}")
    memory = read_memory(lowered, f"{name}__fused")
    if memory:
        print(f"  memory: arena {memory['arena']} bytes for buffers of {memory['naive']} bytes one by one "
              f"({memory['in_place_bytes']} bytes written in place, planner strategy {memory['strategy']})")
    for k in range(len(result_types)):
        v = values.get(k)
        if not v or len(v) != 6:
            fail(f"no comparison printed for output {k}:\n{output}")
        ok = v["violation"] <= args.atol
        failed += not ok
        rel = v["max_abs_err"] / v["max_abs_ref"] if v["max_abs_ref"] else 0.0
        print(f"  output {k} {result_types[k]}: max abs err {v['max_abs_err']:.3g}, "
              f"max rel err {rel:.3g} (of max |ref| {v['max_abs_ref']:.3g}), worst at flat index "
              f"{int(v['worst_index'])}: fused {v['fused']:.7g} vs unfused {v['unfused']:.7g}: "
              f"{'PASS' if ok else 'FAIL'}")
    print("PASS" if not failed else f"FAIL: {failed} of {len(result_types)} outputs differ")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
