// The predicted time of an embedding lookup (a gather: tensor.extract at a
// computed row in a linalg.generic, as ONNX Gather with run-time indices
// imports): a tile reads the rows it gathers, not the table. 128 tokens
// from a 30522 x 768 f32 table (BERT's, 94 MB): each 8 x 32 tile reads 8
// ids (64 bytes) and gathers 8 x 32 elements (1024): 1088 bytes a tile,
// 417792 through L2 for the 384 tiles; from DRAM the ids, the gathered
// rows and the result, 787456 bytes (0.16 us) plus the 3 us launch:
// 3.16 us, bound by DRAM. Counting the whole table per tile (36 GB through
// L2) predicted BERT-base's text encoder's embedding at 2503 us.
// The report's bytes count the same: 787456 for the group and the
// totals, unfused and fused.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null | FileCheck %s
// CHECK: "bytes": 787456,
// CHECK: "tile": [
// CHECK-NEXT: 8,
// CHECK-NEXT: 32
// CHECK: "tile_input_bytes": 1088,
// CHECK: "predicted": {
// CHECK-NEXT: "us": 3.16{{[0-9]*}},
// CHECK-NEXT: "bound": "dram",
// CHECK: "l2_bytes": 417792
// CHECK: "bytes_before": 787456,
// CHECK-NEXT: "bytes_after": 787456,
#map = affine_map<(d0, d1) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @embed(%ids: tensor<128xi64>, %table: tensor<30522x768xf32>) -> tensor<128x768xf32> {
  %e = tensor.empty() : tensor<128x768xf32>
  %r = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<128xi64>) outs(%e : tensor<128x768xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%i, %j] : tensor<30522x768xf32>
    linalg.yield %v : f32
  } -> tensor<128x768xf32>
  return %r : tensor<128x768xf32>
}
