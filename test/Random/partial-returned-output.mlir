// A conv epilogue whose intermediate is also returned, while the group's
// root reads the epilogue only through a slice (found by scripts/soak.py,
// seed 5061, and reduced by hand). Fused without tiling, the results are
// right; tiled, the returned intermediate would be computed only for the
// tiles the slice needs, so fuse-lower-groups refuses such a group with a
// diagnostic (it once returned a partly uninitialised tensor). The fusion
// pipeline tries the lowering on each group and takes the slice back out
// (check "lowering"), so the groups it forms do lower.
// RUN: %check_equivalence %s | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --lower-groups --distribute-threads 96 | FileCheck %s --check-prefix=EQUIV
// EQUIV: PASS
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null \
// RUN:   | %python -c "import json, sys; [print(x['rule'], x['check'], x['candidate'].split('@')[0], '|', x['reason']) for f in json.load(sys.stdin)['functions'] for x in f['rejected'] if x['check'] == 'lowering']" \
// RUN:   | FileCheck %s --check-prefix=REPORT
// REPORT: contraction_epilogue lowering tensor.extract_slice | the group would not lower to one loop nest: group 0: its output 'linalg.generic' also feeds 'linalg.copy' through 'tensor.extract_slice' (a slice smaller than the value), so the tile loop would compute only part of it
// Without that check the lowering's own diagnostic stops the group.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 check-lowering=false" | not fuse-opt --fuse-lower-groups 2>&1 | FileCheck %s
// CHECK: error: fuse-lower-groups: group 0: its output 'linalg.generic' also feeds 'linalg.generic' through 'tensor.extract_slice' (a slice smaller than the value), so the tile loop would compute only part of it
func.func @partial(%x: tensor<1x7x2x16xf32>) -> (tensor<1x7x2x3xf32>, tensor<1x7x2x8xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w = "tosa.const"() <{values = dense<0.02> : tensor<8x3x3x16xf32>}> : () -> tensor<8x3x3x16xf32>
  %b = "tosa.const"() <{values = dense<0.1> : tensor<8xf32>}> : () -> tensor<8xf32>
  %c = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %d = "tosa.const"() <{values = dense<0.25> : tensor<1x1x2x8xf32>}> : () -> tensor<1x1x2x8xf32>
  %v14 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x7x2x16xf32>, tensor<8x3x3x16xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x7x2x8xf32>
  %v16 = tosa.mul %v14, %c, %shift : (tensor<1x7x2x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x7x2x8xf32>
  %v18 = tosa.add %v16, %d : (tensor<1x7x2x8xf32>, tensor<1x1x2x8xf32>) -> tensor<1x7x2x8xf32>
  %v19 = tosa.mul %v18, %v14, %shift : (tensor<1x7x2x8xf32>, tensor<1x7x2x8xf32>, tensor<1xi8>) -> tensor<1x7x2x8xf32>
  %s0 = tosa.const_shape {values = dense<[0, 0, 0, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s1 = tosa.const_shape {values = dense<[1, 7, 2, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %v25 = tosa.slice %v19, %s0, %s1 : (tensor<1x7x2x8xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x7x2x3xf32>
  %v26 = tosa.clamp %v25 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x7x2x3xf32>) -> tensor<1x7x2x3xf32>
  return %v26, %v16 : tensor<1x7x2x3xf32>, tensor<1x7x2x8xf32>
}
