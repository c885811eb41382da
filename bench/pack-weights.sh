#!/bin/bash
# Compile-time weight packing on the CPU, measured: each corpus network
# compiled with and without it (fuse-compile --pack-weights=false), both
# timed interleaved by fuse-benchmark at 1 and 2 threads, 5 rounds; prints
# the median of the rounds' medians (ms) and packed / unpacked.
#   bench/pack-weights.sh [models-dir]   (default build/models; make models
#   or scripts/models/export.py --out build/models makes them)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=build/bin
MODELS=${1:-build/models}
OUT=build/bench-pack-weights
NETS="resnet50 mobilenet_v2 googlenet yolo bert_base"
mkdir -p "$OUT"
for m in $NETS; do
  [ -f "$MODELS/$m.onnx" ] || { echo "pack-weights.sh: no $MODELS/$m.onnx" >&2; exit 1; }
  "$BIN/fuse-compile" -q "$MODELS/$m.onnx" -o "$OUT/$m-packed.so"
  "$BIN/fuse-compile" -q "$MODELS/$m.onnx" -o "$OUT/$m-unpacked.so" --pack-weights=false
done
for round in 1 2 3 4 5; do
  for t in 1 2; do
    for m in $NETS; do
      for v in packed unpacked; do
        runs=20; [ "$m" = bert_base ] && runs=8
        "$BIN/fuse-benchmark" "$OUT/$m-$v.so" --threads "$t" --runs "$runs" --warmup 3 \
          --json "$OUT/$m-$v-t$t-r$round.json" > /dev/null
      done
    done
  done
done
/usr/bin/python3 - "$OUT" $NETS <<'PY'
import glob, json, statistics, sys
out, nets = sys.argv[1], sys.argv[2:]
print("| threads | network | packed (ms) | unpacked (ms) | packed / unpacked |")
print("|---|---|---|---|---|")
for t in (1, 2):
    for m in nets:
        ms = [statistics.median(json.load(open(f))["median"]
                                for f in sorted(glob.glob(f"{out}/{m}-{v}-t{t}-r*.json")))
              for v in ("packed", "unpacked")]
        print(f"| {t} | {m} | {ms[0]:.2f} | {ms[1]:.2f} | {ms[0] / ms[1]:.3f} |")
PY
