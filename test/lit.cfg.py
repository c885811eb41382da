# -*- Python -*-
# lit configuration for fuse's regression tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "FUSE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fuse_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%fuse_src_root", config.fuse_src_root))
config.substitutions.append(("%fuse_bin_dir", config.fuse_tools_dir))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Tools come from the build tree first, then from LLVM's bin directory.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [config.fuse_tools_dir, config.llvm_tools_dir]
tools = ["fuse-opt", "fuse-translate", "fuse-compile", "fuse-run", "fuse-benchmark", "fuse-runtime-tests", "fuse-plan-memory", "fuse-planner-tests", "fuse-report-tests", "fuse-engine-tests", "fuse-driver-tests"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# CPU execution with upstream passes and mlir-runner (runner utils ship with
# Debian's libmlir-22-dev).
lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
config.substitutions.append(("%mlir_runner_utils", os.path.join(lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(("%mlir_c_runner_utils", os.path.join(lib_dir, "libmlir_c_runner_utils.so")))
config.substitutions.append(("%cpu_pipeline",
    "builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),"
    "canonicalize,one-shot-bufferize{bufferize-function-boundaries},"
    "func.func(convert-linalg-to-loops),convert-scf-to-cf,expand-strided-metadata,lower-affine,"
    "finalize-memref-to-llvm,convert-math-to-llvm,convert-vector-to-llvm,convert-arith-to-llvm,"
    "convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)"))
tools.append("mlir-runner")

# Python scripts run under Debian's interpreter (NumPy, PyTorch and onnx
# come from Debian); another python3 may come first on PATH.
config.substitutions.append(("%python", "/usr/bin/python3"))
# The C compiler fuse is built with (compiled-model libraries, C examples).
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(("%check_offsets",
    "/usr/bin/python3 " + os.path.join(config.fuse_src_root, "scripts", "check-offsets.py")))
config.substitutions.append(("%report_agrees",
    "/usr/bin/python3 " + os.path.join(config.fuse_src_root, "scripts", "report-agrees.py")))
config.substitutions.append(("%ptx_stats",
    "/usr/bin/python3 " + os.path.join(config.fuse_src_root, "scripts", "ptx-stats.py")))

# Fused vs unfused on the CPU (scripts/check-equivalence.py).
config.substitutions.append(("%check_equivalence",
    "/usr/bin/python3 " + os.path.join(config.fuse_src_root, "scripts", "check-equivalence.py")
    + " --fuse-opt " + os.path.join(config.fuse_tools_dir, "fuse-opt")))
llvm_config.add_tool_substitutions(["mlir-runner"], [config.llvm_tools_dir])

# The published buffer traces beside the checkout (shared/memtraces).
memtraces = os.path.join(os.path.dirname(config.fuse_src_root), "shared", "memtraces")
if os.path.isdir(memtraces):
    config.available_features.add("memtraces")
    config.substitutions.append(("%memtraces", memtraces))

# The tools linked against mimalloc (FUSE_ALLOCATOR).
if config.allocator_lib:
    config.available_features.add("mimalloc")

if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")

# ONNX: test models written by test/Target/ONNX/make-model.py, and whole
# models run against reference outputs (scripts/onnx-run.py). Both need
# Debian's python3-onnx, which lives with /usr/bin/python3.
config.substitutions.append(("%onnx_model",
    "/usr/bin/python3 " + os.path.join(config.fuse_src_root, "test", "Target", "ONNX", "make-model.py")))
config.substitutions.append(("%float16",
    "/usr/bin/python3 " + os.path.join(config.fuse_src_root, "scripts", "models", "float16.py")))
config.substitutions.append(("%onnx_run",
    "/usr/bin/python3 " + os.path.join(config.fuse_src_root, "scripts", "onnx-run.py")
    + " --fuse-compile " + os.path.join(config.fuse_tools_dir, "fuse-compile")))

# fuse's CUDA runtime library (lib/Runtime) and a GPU to run kernels on.
# Tests that execute on the GPU say `REQUIRES: cuda-device`; elsewhere lit
# reports them as unsupported.
if config.cuda_runtime and os.path.exists(config.cuda_runtime):
    config.available_features.add("cuda-runtime")
    config.substitutions.append(("%cuda_runtime", config.cuda_runtime))
    config.substitutions.append(("%gpu_check",
        "/usr/bin/python3 " + os.path.join(config.fuse_src_root, "scripts", "gpu-check.py")
        + " --fuse-compile " + os.path.join(config.fuse_tools_dir, "fuse-compile")))
    config.substitutions.append(("%fake_cuda_driver_dir",
        os.path.join(config.fuse_obj_root, "test", "Runtime", "fake-driver")))


def has_cuda_device():
    import shutil
    import subprocess
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return False
    return out.returncode == 0 and "GPU " in out.stdout


if "cuda-runtime" in config.available_features and has_cuda_device():
    config.available_features.add("cuda-device")
