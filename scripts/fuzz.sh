#!/usr/bin/env bash
# Runs fuse's libFuzzer harnesses for a given time each (make fuzz):
#   onnx-import-fuzzer  bytes -> ModelProto -> TOSA, seeded with the
#                       repository's ONNX models and the ONNX node tests;
#   pipeline-fuzzer     IR text -> parse -> fuse-fusion-pipeline, seeded with
#                       the lit tests' .mlir files;
#   compile-fuzzer      a command line and a model -> fuse-compile's
#                       option parse, checks, pipelines and input read,
#                       seeded with command lines over the lit tests' and
#                       the repository's models;
#   model-file-fuzzer   bytes -> the runtime's checks of a compiled model's
#                       file and signature (nothing loaded), seeded with
#                       compiled models and signatures;
#   runtime-api-fuzzer  bytes -> fuseModelRun's arguments (counts, pointers,
#                       element types, shapes, options, thread counts) on
#                       two compiled models (the main build's fuse-compile
#                       makes them; skipped without it).
# Usage: fuzz.sh BUILD [SECONDS] [RUNS]. Each fuzzer runs SECONDS (default
# 60); with RUNS, until RUNS inputs have run or SECONDS have passed,
# whichever comes first, and a fuzzer that ran fewer than RUNS is reported
# SHORT. Crashes go to BUILD/crashes/<fuzzer>/; each fuzzer's line says how
# many inputs ran and how many crashed. Exit 1 on any crash in fuse's code
# or a SHORT fuzzer.
# allow_user_poisoning=0: LLVM's allocators poison their slabs from inline
# header code; Debian's libMLIR.so is not instrumented, and the mix of
# instrumented and plain copies of that code reports false
# use-after-poison errors.
set -uo pipefail
BUILD=${1:-build-fuzz}
SECONDS_EACH=${2:-60}
RUNS=${3:-0}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
NODE=/usr/share/libonnx-testdata/data/node

mkdir -p "$BUILD/corpus/onnx" "$BUILD/corpus/ir" "$BUILD/corpus/compile" "$BUILD/corpus/model" \
  "$BUILD/corpus/api" "$BUILD/crashes/onnx" "$BUILD/crashes/ir" "$BUILD/crashes/compile" \
  "$BUILD/crashes/model" "$BUILD/crashes/api" \
  "$BUILD/api-models"
# Seeds (copied once; the fuzzers add what they find).
if [ -z "$(ls -A "$BUILD/corpus/onnx")" ]; then
  for f in test/Models/onnx/*.onnx; do cp "$f" "$BUILD/corpus/onnx/"; done
  if [ -d "$NODE" ]; then
    for d in "$NODE"/*/; do
      cp "$d/model.onnx" "$BUILD/corpus/onnx/$(basename "$d").onnx" 2>/dev/null || true
    done
  fi
fi
# Seeds whose external data names each entry of the fuzzer's hostile model
# directory (onnx-import-fuzzer.cpp: a FIFO, links out of it, devices).
if [ ! -e "$BUILD/corpus/onnx/external-weights-bin.onnx" ]; then
  /usr/bin/python3 - "$BUILD/corpus/onnx" <<'PY'
import sys
from onnx import TensorProto, helper
for location in ["weights.bin", "fifo", "sub", "passwd", "root/etc/passwd", "zero", "sub/zero",
                 "loop", "dangling", "inside", "../weights.bin", "/etc/passwd"]:
    t = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4, 4])
    t.data_location = TensorProto.EXTERNAL
    for k, v in [("location", location), ("offset", "16"), ("length", "64")]:
        e = t.external_data.add()
        e.key, e.value = k, v
    g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])], [t])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    name = location.replace("/", "_").replace(".", "-")
    open(f"{sys.argv[1]}/external-{name}.onnx", "wb").write(m.SerializeToString())
PY
fi
if [ -z "$(ls -A "$BUILD/corpus/ir")" ]; then
  find test -name '*.mlir' | while read -r f; do
    cp "$f" "$BUILD/corpus/ir/$(echo "$f" | tr '/' '_')"
  done
fi

# Command lines (one argument a line), a NUL, then the model the harness
# writes to model.onnx, model.mlir and model.mlirbc: each command line over
# a few models of each kind (compile-fuzzer.cpp).
if [ -z "$(ls -A "$BUILD/corpus/compile")" ]; then
  i=0
  seed() { # seed MODEL ARG...
    local model=$1; shift
    i=$((i + 1))
    { printf '%s\n' "$@"; printf '\0'; cat "$model"; } > "$BUILD/corpus/compile/seed-$i"
  }
  for m in test/Runtime/Inputs/api-model.mlir test/Export/mark-entry-named.mlir \
    test/Pipelines/Fusion/*.mlir; do
    [ -e "$m" ] || continue
    seed "$m" model.mlir -o m.so
    seed "$m" model.mlir -o m.mlir --entry second --unfused --fusion-options="precision=tf32 split-k=2"
    seed "$m" model.mlir -o m.ll --target=h200 --gpu-format=isa --share-kernels=false -O1
    seed "$m" model.mlirbc -o m.o --cpu-target=avx2 --fusion-target=a100 --cpu=generic
  done
  for m in test/Models/onnx/*.onnx "$BUILD"/corpus/onnx/external-*.onnx; do
    [ -e "$m" ] || continue
    seed "$m" model.onnx -o m.so
    seed "$m" model.onnx -o m.so --onnx-batch=2 --onnx-dim=S=4 --onnx-resource-threshold=0
    seed "$m" model.onnx -o m.so --target=h100 --report=r.json --graph=g.dot --emit-ir=ir
    seed "$m" model.onnx -o m.so --onnx-bind=x=weights.bin --onnx-bind=y=zero --onnx-bind=z=passwd
  done
fi

# Compiled models (the main build's fuse-compile, when there is one) and
# signature texts.
if [ -z "$(ls -A "$BUILD/corpus/model")" ]; then
  if [ -x build/bin/fuse-compile ]; then
    build/bin/fuse-compile -q test/Runtime/Inputs/api-model.mlir -o "$BUILD/corpus/model/api.so" || true
    build/bin/fuse-compile -q test/Export/mark-entry-named.mlir --entry second \
      -o "$BUILD/corpus/model/named.so" || true
  fi
  printf 'fuse-model 1\ntarget cpu\nworkspace 256\nreentrant 1\ninput x f32 2x3\ninput b%%20c bf16 scalar\noutput y i64 0x4\nkernel f__group0 row_reduction Conv_1%%20+%%20Relu_2\nprofile 1\n' \
    > "$BUILD/corpus/model/signature.txt"
fi

status=0

# parser_crash FUZZER FILE: whether FILE crashes FUZZER inside an upstream
# op's parser: the innermost `::parse(` frame of the crash's stack belongs to
# an MLIR dialect (linalg, say), not to fuse, and the crash happens while
# parsing. Those are upstream's bugs (Debian's mlir-opt crashes on the same
# op text); fuse's own parsers and passes get no such pass.
parser_crash() {
  local report
  report=$(ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 "$1" "$2" 2>&1)
  echo "$report" | grep -qE 'parseSource(String|File)' || return 1
  local first
  first=$(echo "$report" | grep -E '^ *#[0-9]+ ' | grep -m1 '::parse(')
  [ -n "$first" ] && ! echo "$first" | grep -q 'fuse::'
}

# Fork mode with ignore_crashes: a crash is saved and fuzzing goes on, so a
# crash in upstream code does not end the run.
run() {
  local name=$1 corpus=$2 crashes=$3; shift 3
  local log="$BUILD/$name.log" start=$SECONDS
  ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 "$BUILD/bin/$name" "$corpus" \
    -max_total_time="$SECONDS_EACH" $([ "$RUNS" -gt 0 ] && echo "-runs=$RUNS") -fork=1 -ignore_crashes=1 -rss_limit_mb=6144 -timeout=20 \
    -artifact_prefix="$crashes/" "$@" >"$log" 2>&1
  local last runs ours=0 upstream=0
  last=$(grep -E '^#[0-9]+:' "$log" | tail -n 1)
  runs=$(echo "$last" | sed -E 's/^#([0-9]+):.*/\1/')
  for f in "$crashes"/*; do
    [ -e "$f" ] || continue
    # An input of IR that Debian's own mlir-opt cannot parse without
    # crashing is an upstream parser bug, not fuse's.
    if { [ "$name" = pipeline-fuzzer ] || [ "$name" = compile-fuzzer ]; } &&
      parser_crash "$BUILD/bin/$name" "$f"; then
      upstream=$((upstream + 1))
      continue
    fi
    ours=$((ours + 1))
    echo "  crash: $f"
  done
  local short=""
  if [ "$RUNS" -gt 0 ] && [ "${runs:-0}" -lt "$RUNS" ]; then
    short=" SHORT of $RUNS"
    status=1
  fi
  echo "$name: ${runs:-0} executions in $((SECONDS - start))s$short; crashes: $ours in fuse, $upstream in upstream MLIR parsers; files in $crashes, log $log"
  [ "$ours" -eq 0 ] || status=1
}
run onnx-import-fuzzer "$BUILD/corpus/onnx" "$BUILD/crashes/onnx" -max_len=1048576
run pipeline-fuzzer "$BUILD/corpus/ir" "$BUILD/crashes/ir" -max_len=16384
run compile-fuzzer "$BUILD/corpus/compile" "$BUILD/crashes/compile" -max_len=65536
run model-file-fuzzer "$BUILD/corpus/model" "$BUILD/crashes/model" -max_len=262144
if [ -x build/bin/fuse-compile ] &&
  build/bin/fuse-compile -q test/Runtime/Inputs/api-model.mlir -o "$BUILD/api-models/api.so" &&
  build/bin/fuse-compile -q test/Runtime/Inputs/parallel-model.mlir -o "$BUILD/api-models/parallel.so"; then
  [ -n "$(ls -A "$BUILD/corpus/api")" ] || head -c 64 /dev/zero > "$BUILD/corpus/api/zeros"
  export FUSE_FUZZ_MODELS="$BUILD/api-models"
  run runtime-api-fuzzer "$BUILD/corpus/api" "$BUILD/crashes/api" -max_len=512
else
  echo "runtime-api-fuzzer: skipped (no build/bin/fuse-compile to compile its models: make build first)"
fi
exit $status
