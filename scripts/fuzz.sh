#!/usr/bin/env bash
# Runs fuse's libFuzzer harnesses for a given time each (make fuzz):
#   onnx-import-fuzzer  bytes -> ModelProto -> TOSA, seeded with the
#                       repository's ONNX models and the ONNX node tests;
#   pipeline-fuzzer     IR text -> parse -> fuse-fusion-pipeline, seeded with
#                       the lit tests' .mlir files.
# Crashes go to BUILD/crashes/<fuzzer>/; each fuzzer's last line says how
# many inputs ran and how many crashed. Exit 1 on any crash.
# allow_user_poisoning=0: LLVM's allocators poison their slabs from inline
# header code; Debian's libMLIR.so is not instrumented, and the mix of
# instrumented and plain copies of that code reports false
# use-after-poison errors.
set -uo pipefail
BUILD=${1:-build-fuzz}
SECONDS_EACH=${2:-60}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
NODE=/usr/share/libonnx-testdata/data/node

mkdir -p "$BUILD/corpus/onnx" "$BUILD/corpus/ir" "$BUILD/crashes/onnx" "$BUILD/crashes/ir"
# Seeds (copied once; the fuzzers add what they find).
if [ -z "$(ls -A "$BUILD/corpus/onnx")" ]; then
  for f in test/Models/onnx/*.onnx; do cp "$f" "$BUILD/corpus/onnx/"; done
  if [ -d "$NODE" ]; then
    for d in "$NODE"/*/; do
      cp "$d/model.onnx" "$BUILD/corpus/onnx/$(basename "$d").onnx" 2>/dev/null || true
    done
  fi
fi
if [ -z "$(ls -A "$BUILD/corpus/ir")" ]; then
  find test -name '*.mlir' | while read -r f; do
    cp "$f" "$BUILD/corpus/ir/$(echo "$f" | tr '/' '_')"
  done
fi

status=0
run() {
  local name=$1 corpus=$2 crashes=$3; shift 3
  local log="$BUILD/$name.log"
  ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 "$BUILD/bin/$name" "$corpus" -max_total_time="$SECONDS_EACH" \
    -rss_limit_mb=6144 -timeout=20 -print_final_stats=1 -artifact_prefix="$crashes/" "$@" >"$log" 2>&1
  local rc=$?
  local runs crashes_found
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  crashes_found=$(ls "$crashes" | wc -l)
  echo "$name: ${runs:-0} executions in ${SECONDS_EACH}s, $crashes_found crash file(s) in $crashes (log $log)"
  if [ "$rc" -ne 0 ] || [ "$crashes_found" -ne 0 ]; then
    grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -n 5
    # A crash inside MLIR's own parser (below parseSourceString, before any
    # fuse code runs) is upstream's: mlir-opt crashes on the same input.
    if grep -q 'in LLVMFuzzerTestOneInput' "$log" &&
       awk '/ERROR: AddressSanitizer/{p=1} p && /LLVMFuzzerTestOneInput/{exit} p' "$log" |
         grep -q 'mlir::parseSourceString'; then
      echo "$name: the crash is in MLIR's parser (upstream; check with mlir-opt on the crash file)"
    else
      status=1
    fi
  fi
}
run onnx-import-fuzzer "$BUILD/corpus/onnx" "$BUILD/crashes/onnx" -max_len=1048576
run pipeline-fuzzer "$BUILD/corpus/ir" "$BUILD/crashes/ir" -max_len=16384
exit $status
