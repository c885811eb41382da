// Found by scripts/soak.py (seed 35), minimised. %v4 is inserted twice into
// one concat and also feeds the third branch (%v5 = tanh %v4), so it is no
// root of its own and its two insertions would stay outside the loop of the
// tanh root: fuse-lower-groups refuses such a group. The fusion pipeline
// tries the lowering and leaves the insertion out of the group (check
// "lowering"); every group then lowers.
// RUN: %check_equivalence %s --lower-groups --distribute-threads 96 | FileCheck %s
// CHECK: PASS
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 report=-" -o /dev/null \
// RUN:   | %python -c "import json, sys; [print(x['rule'], x['check'], x['candidate'].split('@')[0], '|', x['reason']) for f in json.load(sys.stdin)['functions'] for x in f['rejected'] if x['check'] == 'lowering']" \
// RUN:   | FileCheck %s --check-prefix=REPORT
// REPORT: concat_slices lowering {{.*}} | the group would not lower to one loop nest: group 0: 'linalg.generic' stays outside the tile loop of its roots ('linalg.generic'): the loop could not fuse it; the group would not be one kernel
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 check-lowering=false" | not fuse-opt --fuse-lower-groups 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: error: fuse-lower-groups: group 0: 'linalg.generic' stays outside the tile loop of its roots
func.func @random(%x: tensor<1x8x5x3xf32>) -> (tensor<1x8x5x9xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w1 = "tosa.const"() <{values = dense<"0x204F67BE4B9408BE8F8F5E3E"> : tensor<1x1x1x3xf32>}> : () -> tensor<1x1x1x3xf32>
  %v2 = tosa.add %x, %w1 : (tensor<1x8x5x3xf32>, tensor<1x1x1x3xf32>) -> tensor<1x8x5x3xf32>
  %v3 = tosa.tanh %x : (tensor<1x8x5x3xf32>) -> tensor<1x8x5x3xf32>
  %v4 = tosa.clamp %v2 {min_val = 0.0 : f32, max_val = 3.4e38 : f32} : (tensor<1x8x5x3xf32>) -> tensor<1x8x5x3xf32>
  %v5 = tosa.tanh %v4 : (tensor<1x8x5x3xf32>) -> tensor<1x8x5x3xf32>
  %v11 = tosa.concat %v4, %v4, %v5 {axis = 3 : i32} : (tensor<1x8x5x3xf32>, tensor<1x8x5x3xf32>, tensor<1x8x5x3xf32>) -> tensor<1x8x5x9xf32>
  return %v11 : tensor<1x8x5x9xf32>
}
