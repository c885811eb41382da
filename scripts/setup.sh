#!/usr/bin/env bash
# Installs everything fuse needs from Debian 12's repositories. Idempotent:
# packages already present are not touched, and apt-get runs only when
# something is missing. Reports (but does not require) the CUDA toolkit.
set -euo pipefail

PACKAGES=(
  # LLVM/MLIR 22: headers, libMLIR.so, mlir-opt/mlir-runner, lit, FileCheck
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22
  # build
  cmake ninja-build lld ccache
  # ONNX front end (C++), the ONNX backend node tests, PyTorch for the model
  # corpus and its reference outputs
  libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata
  # C++ unit tests
  libgtest-dev
  # NumPy .npz members (fuse-run)
  zlib1g-dev
  # the compiler tools' allocator (FUSE_ALLOCATOR, docs/Building.md)
  libmimalloc-dev
  # sanitizer and libFuzzer runtimes (make check-asan, make fuzz)
  libclang-rt-22-dev
  # formatting (make format, the format check)
  clang-format-22
  python3-onnx python3-numpy python3-torch python3-torchvision
  # plots of the benchmark suite
  python3-matplotlib
  # pictures of fused graphs
  graphviz
  # lit
  python3
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$pkg")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi

# Check the tools the test suite calls.
for tool in /usr/lib/llvm-22/bin/FileCheck /usr/lib/llvm-22/bin/not /usr/lib/llvm-22/bin/mlir-opt; do
  [ -x "$tool" ] || { echo "setup: missing $tool" >&2; exit 1; }
done
if ! [ -x /usr/lib/llvm-22/bin/lit ] && ! command -v lit >/dev/null; then
  echo "setup: no lit found (expected /usr/lib/llvm-22/bin/lit)" >&2
  exit 1
fi

if [ -x /usr/local/cuda/bin/ptxas ] || command -v ptxas >/dev/null 2>&1; then
  ptxas_bin=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
  echo "setup: CUDA toolkit found: $("$ptxas_bin" --version | tail -n 1)"
else
  echo "setup: CUDA toolkit not found (optional: PTX is produced without it; cubin needs ptxas)"
fi
