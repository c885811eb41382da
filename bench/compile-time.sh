#!/bin/bash
# One fuse-compile process against the same compile done by hand in separate
# steps (IR printed and parsed between them), in one run, for each model
# given (default: BERT-base and ResNet-50 from `make models`):
#   steps:   fuse-translate --import-onnx | fuse-opt --fuse-fusion-pipeline |
#            fuse-opt --fuse-to-cpu{entry-abi} | mlir-translate --mlir-to-llvmir |
#            opt -O3 (no unrolling, as fuse-compile) | llc -O3 | clang -shared
#   one:     fuse-compile MODEL --target=cpu -o MODEL.so
# Prints wall seconds of each (median of REPEAT runs, default 1) and peak
# resident memory of the one-process compile.
# usage: bench/compile-time.sh [MODEL.onnx ...]   (BUILD_DIR, REPEAT, LLVM_PREFIX)
set -euo pipefail
BUILD_DIR=${BUILD_DIR:-build}
LLVM_PREFIX=${LLVM_PREFIX:-/usr/lib/llvm-22}
REPEAT=${REPEAT:-1}
BIN=$BUILD_DIR/bin
models=("$@")
[ ${#models[@]} -gt 0 ] || models=("$BUILD_DIR/models/bert_base.onnx" "$BUILD_DIR/models/resnet50.onnx")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds() { local start=$(date +%s.%N); "$@" >/dev/null; echo "$(date +%s.%N) - $start" | bc; }

steps() {
  local model=$1
  "$BIN/fuse-translate" --import-onnx "$model" -o "$work/1.mlir"
  "$BIN/fuse-opt" "$work/1.mlir" --fuse-fusion-pipeline=target=h200 -o "$work/2.mlir"
  "$BIN/fuse-opt" "$work/2.mlir" --fuse-to-cpu=entry-abi=true -o "$work/3.mlir"
  "$LLVM_PREFIX/bin/mlir-translate" --mlir-to-llvmir "$work/3.mlir" -o "$work/4.ll"
  "$LLVM_PREFIX/bin/opt" -O3 -disable-loop-unrolling -mcpu=native "$work/4.ll" -o "$work/4.bc"
  "$LLVM_PREFIX/bin/llc" -O3 -mcpu=native -relocation-model=pic -filetype=obj "$work/4.bc" -o "$work/5.o"
  "$LLVM_PREFIX/bin/clang" -shared -fuse-ld=lld "$work/5.o" -lm -o "$work/steps.so"
}

printf "%-16s %10s %12s %14s %8s\n" model "steps s" "fuse-compile s" "peak RSS MiB" ratio
for model in "${models[@]}"; do
  [ -f "$model" ] || { echo "missing $model (make models)" >&2; exit 1; }
  s=(); o=()
  for _ in $(seq "$REPEAT"); do
    s+=("$(seconds steps "$model")")
    o+=("$(seconds /usr/bin/time -f %M -o "$work/rss" "$BIN/fuse-compile" -q "$model" --target=cpu -o "$work/one.so")")
  done
  st=$(printf '%s\n' "${s[@]}" | median)
  on=$(printf '%s\n' "${o[@]}" | median)
  rss=$(( $(cat "$work/rss") / 1024 ))
  printf "%-16s %10.2f %12.2f %14d %8.2f\n" "$(basename "$model" .onnx)" "$st" "$on" "$rss" "$(echo "$on / $st" | bc -l)"
done
