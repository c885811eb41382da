#!/usr/bin/env bash
# Runs fuse's whole test suite against a build directory and ends with one
# summary line, "fuse: N passed, M failed, K skipped":
#   1. the lit suite (test/), FileCheck and -verify-diagnostics tests;
#   2. the install check: `cmake --install`, then the out-of-tree drivers
#      of examples/embed built with find_package(Fuse) and run (one with
#      every stage, one with the fusion stage alone), and the deployment
#      side from the prefix (fuse-compile, fuse-run, the C API through
#      find_package(FuseRuntime) without MLIR, the Python package);
#      docs/generated compared with what the .td files generate;
#   3. differential testing on a fixed-seed batch of random graphs
#      (scripts/soak.py): each graph's check counts as one test;
#   4. the ONNX backend node tests of the ops the importer claims
#      (scripts/onnx-conformance.py --check), each also compiled as an H200
#      library (--gpu-target h200): each test counts as one; a
#      test listed there as known not to pass counts as skipped.
set -uo pipefail
BUILD_DIR=${1:-build}
LLVM_PREFIX=${LLVM_PREFIX:-/usr/lib/llvm-22}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

passed=0 failed=0 skipped=0

# --- 1. lit ---
xml="$BUILD_DIR/test-results.xml"
rm -f "$xml"
"$LLVM_PREFIX/bin/lit" -sv "$BUILD_DIR/test" --xunit-xml-output "$xml"
if [ -f "$xml" ]; then
  read -r p f s < <(/usr/bin/python3 - "$xml" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
tests = fails = skips = 0
for case in root.iter("testcase"):
    tests += 1
    if case.find("failure") is not None or case.find("error") is not None:
        fails += 1
    elif case.find("skipped") is not None:
        skips += 1
print(tests - fails - skips, fails, skips)
PY
)
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
else
  echo "run-tests: lit produced no results" >&2
  failed=$((failed + 1))
fi

# --- 2. install + find_package(Fuse) ---
install_check() {
  local prefix="$BUILD_DIR/install-check" embed="$BUILD_DIR/embed-check"
  rm -rf "$prefix" "$embed"
  cmake --install "$BUILD_DIR" --prefix "$prefix" >/dev/null || return 1
  [ -f "$prefix/lib/cmake/fuse/FuseConfig.cmake" ] || { echo "no FuseConfig.cmake installed"; return 1; }
  [ -f "$prefix/include/fuse/Dialect/Fuse/IR/FuseOps.h.inc" ] || { echo "generated headers not installed"; return 1; }
  cmake -G Ninja -S examples/embed -B "$embed" \
    -DCMAKE_PREFIX_PATH="$ROOT/$prefix" \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DCMAKE_CXX_COMPILER="$LLVM_PREFIX/bin/clang++" \
    -DCMAKE_EXE_LINKER_FLAGS="-fuse-ld=lld ${FUSE_EMBED_LDFLAGS:-}" >/dev/null || return 1
  cmake --build "$embed" >/dev/null || return 1
  local input out tool
  input=$(printf '%s\n' \
    'func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {' \
    '  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>' \
    '  %e = tensor.empty() : tensor<4x2xf32>' \
    '  %1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],' \
    '      iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x2xf32>) outs(%e : tensor<4x2xf32>) {' \
    '  ^bb0(%x: f32, %y: f32):' \
    '    %r = arith.maximumf %x, %x : f32' \
    '    linalg.yield %r : f32' \
    '  } -> tensor<4x2xf32>' \
    '  return %1 : tensor<4x2xf32>' '}')
  # my-opt: everything; fusion-opt: the fusion stage alone (its CMake
  # configuration refuses a link closure with GPU or LLVM-dialect code).
  for tool in my-opt fusion-opt; do
    out=$("$embed/$tool" --fuse-form-groups <<<"$input") || return 1
    grep -q 'fuse.group vertical rule "contraction_epilogue"' <<<"$out" || { echo "$tool: $out"; return 1; }
  done
  # The help text is read whole first: grep -q stops at its match, and the
  # tool writing the rest would die of SIGPIPE (a failure under pipefail).
  local help
  help=$("$embed/my-opt" --help) || return 1
  grep -q -- '--fuse-to-nvptx' <<<"$help" || { echo "my-opt: no fuse-to-nvptx"; return 1; }
  help=$("$embed/fusion-opt" --help) || return 1
  if grep -q -- '--fuse-to-nvptx' <<<"$help"; then
    echo "fusion-opt registers GPU code generation"; return 1
  fi
}
# counted_check DESCRIPTION FUNCTION: one test, PASS or FAIL with what the
# function printed.
counted_check() {
  local output
  if output=$("$2" 2>&1); then
    echo "PASS: $1"
    passed=$((passed + 1))
  else
    echo "FAIL: $1"
    echo "$output"
    failed=$((failed + 1))
  fi
}
counted_check "install: find_package(Fuse) + downstream drivers (examples/embed: all stages, fusion only)" install_check

# --- 2a. the installed deployment tools: fuse-compile, fuse-run, the C API
# (examples/run_model.c against the installed header and library) and the
# Python package, from the install prefix alone ---
deploy_check() {
  local prefix="$BUILD_DIR/install-check" work="$BUILD_DIR/deploy-check"
  rm -rf "$work" && mkdir -p "$work"
  "$prefix/bin/fuse-compile" -q test/Models/onnx/inception_block.onnx -o "$work/model.so" || return 1
  "$prefix/bin/fuse-run" -q "$work/model.so" --input test/Models/onnx/inception_block.npz \
    --compare test/Models/onnx/inception_block.npz | grep -q ": PASS$" || { echo "fuse-run: no PASS"; return 1; }
  "$LLVM_PREFIX/bin/clang" examples/run_model.c -I "$prefix/include" -L "$prefix/lib" -lfuse_runtime \
    -Wl,-rpath,"$ROOT/$prefix/lib" -o "$work/run_model" || return 1
  "$work/run_model" "$work/model.so" | grep -q "^ran$" || { echo "run_model did not run"; return 1; }
  # The same program as a deployment project builds it: find_package
  # (FuseRuntime) from the prefix, with MLIR and LLVM made unfindable.
  cmake -G Ninja -S examples/deploy -B "$work/deploy" -DCMAKE_PREFIX_PATH="$ROOT/$prefix" \
    -DCMAKE_C_COMPILER="$LLVM_PREFIX/bin/clang" -DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON \
    -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON >"$work/deploy.log" 2>&1 \
    || { echo "examples/deploy: configure failed"; cat "$work/deploy.log"; return 1; }
  cmake --build "$work/deploy" >>"$work/deploy.log" 2>&1 \
    || { echo "examples/deploy: build failed"; cat "$work/deploy.log"; return 1; }
  "$work/deploy/run_model" "$work/model.so" | grep -q "^ran$" \
    || { echo "examples/deploy's run_model did not run"; return 1; }
  PYTHONPATH="$prefix/lib/python3/dist-packages" /usr/bin/python3 -c "
import fuse, numpy as np
m = fuse.load('$work/model.so')
z = np.load('test/Models/onnx/inception_block.npz')
assert np.abs(m(z['input_0']) - z['output_0']).max() < 1e-4
" || { echo "the installed Python package failed"; return 1; }
}
counted_check "install: fuse-compile, fuse-run, the C API (also through find_package(FuseRuntime), no MLIR) and the Python package from the prefix" deploy_check

# --- 2b. docs/generated is what the .td files generate now ---
docs_check() {
  cmake --build "$BUILD_DIR" --target fuse-doc >/dev/null || return 1
  local gen="$BUILD_DIR/docs" stale=0 f
  for f in "$gen"/Dialects/*.md "$gen"/Interfaces/*.md "$gen"/Passes/*.md; do
    cmp -s "$f" "docs/generated/$(basename "$f")" || { echo "stale: docs/generated/$(basename "$f")"; stale=1; }
  done
  for f in docs/generated/*.md; do
    ls "$gen"/*/"$(basename "$f")" >/dev/null 2>&1 || { echo "no longer generated: $f"; stale=1; }
  done
  [ "$stale" -eq 0 ] || { echo "run 'make docs' and commit docs/generated"; return 1; }
}
counted_check "docs/generated is up to date" docs_check

# --- 2c. the C++ sources are formatted (.clang-format; make format) ---
format_check() {
  local cf="$LLVM_PREFIX/bin/clang-format"
  [ -x "$cf" ] || { echo "no $cf (scripts/setup.sh installs clang-format-22)"; return 1; }
  local out
  out=$(git ls-files '*.cpp' '*.h' '*.c' | xargs "$cf" --dry-run -Werror 2>&1) && return 0
  echo "$out" | head -20
  echo "run 'make format'"
  return 1
}
counted_check "the C++ sources are clang-formatted" format_check

# --- 3. random graphs: fused == unfused, with the groups as they are and
# tiled + spread over emulated threads; strict: a group the lowering
# refuses fails too (the fusion pipeline only forms groups that lower) ---
SOAK_GRAPHS=${SOAK_GRAPHS:-100}
soak_out=$(/usr/bin/python3 scripts/soak.py --graphs "$SOAK_GRAPHS" --seed 1 --no-minimise \
  --fuse-opt "$BUILD_DIR/bin/fuse-opt" 2>&1)
soak_rc=$?
echo "$soak_out" | tail -n 30
last=$(echo "$soak_out" | tail -n 1)
if [[ "$last" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
  echo "random graphs (seeds 1..$SOAK_GRAPHS): $last"
  passed=$((passed + BASH_REMATCH[1])); failed=$((failed + BASH_REMATCH[2]))
else
  echo "FAIL: random graphs: no summary line"
  failed=$((failed + 1))
fi
[ "$soak_rc" -eq 0 ] || [ "$failed" -gt 0 ] || failed=$((failed + 1))

# --- 4. ONNX backend node tests ---
conf_out=$(/usr/bin/python3 scripts/onnx-conformance.py --check -j "$(nproc)" --gpu-target h200 \
  --fuse-compile "$BUILD_DIR/bin/fuse-compile" --fuse-translate "$BUILD_DIR/bin/fuse-translate" 2>&1)
conf_rc=$?
echo "$conf_out" | grep -E '^UNEXPECTED' | tail -n 30
last=$(echo "$conf_out" | tail -n 1)
echo "$last"
if [[ "$last" =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ errors,\ ([0-9]+)\ skipped.*\;\ ([0-9]+)\ unexpected$ ]]; then
  known=$((BASH_REMATCH[2] + BASH_REMATCH[3] - BASH_REMATCH[5]))
  passed=$((passed + BASH_REMATCH[1])); failed=$((failed + BASH_REMATCH[5]))
  skipped=$((skipped + BASH_REMATCH[4] + known))
else
  echo "FAIL: onnx conformance: no summary line"
  failed=$((failed + 1))
fi
[ "$conf_rc" -eq 0 ] || [ "$failed" -gt 0 ] || failed=$((failed + 1))

echo "fuse: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
