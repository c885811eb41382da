#!/usr/bin/env bash
# Resource bounds of the compiler (make stress):
#   0. fuse-plan-memory on 10^5 buffers alive together, a 10^6 chain and
#      10^7 random buffers (scripts/planner-traces.py): under 60 s and 2 GiB
#      each;
#   1. a generated ONNX model with a chain of 10^4, 10^5 and CHAIN (default
#      10^6) unary nodes compiles to a CPU library (fuse-compile, one
#      process) without a stack overflow (no input-controlled recursion):
#      exit status, time and peak RSS, each stage's time, and the library's
#      output against NumPy; the CHAIN-node compile in 60 s and 3 GiB; then
#      the CHAIN-node chain imported and fused by fuse-translate and
#      fuse-opt (verified after every pass);
#   2. BERT-base (scripts/models/export.py) imported and fused: peak RSS of
#      each step, which must stay under 2 GB; and compiled to a CPU library
#      in one fuse-compile process, under 1.5 GiB.
# Prints one line per step; exit 1 if any step fails or exceeds its bound.
set -uo pipefail
BUILD=${1:-build}
CHAIN=${CHAIN:-1000000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
OUT="$BUILD/stress"
mkdir -p "$OUT"
status=0

# step NAME LIMIT_KB CMD...: runs CMD, prints wall time and peak RSS.
# LIMIT_S (environment, default none) bounds the wall time.
step() {
  local name=$1 limit=$2; shift 2
  /usr/bin/time -f "%e %M" -o "$OUT/time" "$@" >"$OUT/$name.log" 2>&1
  local rc=$? secs kb
  read -r secs kb <"$OUT/time"
  local verdict=ok
  if [ "$rc" -ne 0 ]; then verdict="FAILED (exit $rc, see $OUT/$name.log)"; status=1; fi
  if [ "$limit" -gt 0 ] && [ "$kb" -gt "$limit" ]; then verdict="OVER $((limit / 1024)) MiB"; status=1; fi
  if [ -n "${LIMIT_S:-}" ] && [ "${secs%.*}" -ge "$LIMIT_S" ]; then verdict="OVER $LIMIT_S s"; status=1; fi
  printf '%-28s %8.1f s %8d MiB peak RSS  %s\n' "$name" "$secs" "$((kb / 1024))" "$verdict"
}

PLAN_LIMIT=$((2 * 1024 * 1024))
for trace in "identical 100000" "chain 1000000" "random 10000000"; do
  set -- $trace
  /usr/bin/python3 scripts/planner-traces.py "$1" "$2" "$OUT/trace-$1.csv"
  LIMIT_S=60 step "plan-memory $1 $2" "$PLAN_LIMIT" "$BUILD/bin/fuse-plan-memory" "$OUT/trace-$1.csv"
  rm -f "$OUT/trace-$1.csv"
done

# The chain through the whole compile (fuse-compile to a CPU library, one
# process) at 10^4, 10^5 and CHAIN nodes: each stage's wall time (its
# progress lines) and the peak RSS, then the library's output against NumPy.
# The largest must compile in 60 s and 3 GiB.
CHAIN_LIMIT_KB=$((3 * 1024 * 1024))
for n in 10000 100000 "$CHAIN"; do
  [ "$n" -gt "$CHAIN" ] && continue
  /usr/bin/python3 scripts/models/chain.py "$n" "$OUT/chain.onnx"
  limit=0 limit_s=
  if [ "$n" = "$CHAIN" ]; then limit=$CHAIN_LIMIT_KB limit_s=60; fi
  LIMIT_S=$limit_s step "chain $n: fuse-compile" "$limit" "$BUILD/bin/fuse-compile" "$OUT/chain.onnx" \
    -o "$OUT/chain.so"
  sed -n 's/^fuse-compile: \(import\|fusion\|codegen\|llvm\|object\|link\) */    \1 /p' \
    "$OUT/chain $n: fuse-compile.log"
  /usr/bin/python3 - "$n" "$OUT" <<'PY'
import sys
import numpy as np
n, out = int(sys.argv[1]), sys.argv[2]
x = np.array([-1.5, 0.3, 2.0, -0.2], np.float32)
np.savez(f"{out}/chain-x.npz", x=x)
for i in range(n):
    x = (np.maximum(x, 0), (1 / (1 + np.exp(-x))).astype(np.float32), -x, np.abs(x))[i % 4]
np.savez(f"{out}/chain-y.npz", y=x)
PY
  step "chain $n: run" 0 "$BUILD/bin/fuse-run" -q "$OUT/chain.so" --input "$OUT/chain-x.npz" \
    --compare "$OUT/chain-y.npz"
  rm -f "$OUT/chain.so" "$OUT/chain.onnx"
done
# The fusion pipeline alone (fuse-opt, verifying after every pass) on the
# largest chain.
/usr/bin/python3 scripts/models/chain.py "$CHAIN" "$OUT/chain.onnx"
step "chain $CHAIN: import" 0 "$BUILD/bin/fuse-translate" --import-onnx "$OUT/chain.onnx" -o "$OUT/chain.mlir"
step "chain $CHAIN: fusion" 0 "$BUILD/bin/fuse-opt" "$OUT/chain.mlir" \
  --fuse-fusion-pipeline=target=h200 -o "$OUT/chain.fused.mlir"
rm -f "$OUT/chain.mlir" "$OUT/chain.fused.mlir"

MODELS="$BUILD/models"
[ -f "$MODELS/bert_base.onnx" ] || /usr/bin/python3 scripts/models/export.py --out "$MODELS" --only bert_base
LIMIT=$((2 * 1024 * 1024))
step "bert_base: import" "$LIMIT" "$BUILD/bin/fuse-translate" --import-onnx "$MODELS/bert_base.onnx" \
  -o "$OUT/bert.mlir"
step "bert_base: fusion" "$LIMIT" "$BUILD/bin/fuse-opt" "$OUT/bert.mlir" \
  --fuse-fusion-pipeline=target=h200 -o "$OUT/bert.fused.mlir"
step "bert_base: fuse-compile" $((1536 * 1024)) "$BUILD/bin/fuse-compile" -q "$MODELS/bert_base.onnx" \
  -o "$OUT/bert.so"
exit $status
