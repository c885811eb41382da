// Q/K/V projections computed twice on the CPU: as three matmuls (weights
// passed as arguments, so fuse-merge-sibling-contractions leaves them), and
// as one matmul on concatenated weights plus slices. Every output element
// is the same dot product, so the results must be identical.
// RUN: fuse-opt %s --fuse-merge-sibling-contractions | FileCheck %s --check-prefix=MERGED
// RUN: fuse-opt %s --fuse-merge-sibling-contractions | fuse-opt --pass-pipeline="%cpu_pipeline" \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils \
// RUN:   | FileCheck %s

// MERGED-LABEL: func.func @reference
// MERGED-COUNT-3: tosa.matmul
// MERGED-LABEL: func.func @merged
// MERGED: tosa.matmul {{.*}} -> tensor<1x4x17xf32>
// MERGED-NOT: tosa.matmul
// MERGED-COUNT-3: tosa.slice

// CHECK: max abs difference
// CHECK-NEXT: 0
// CHECK-NEXT: max abs output
// CHECK-NEXT: {{[1-9][0-9.e+-]*}}

func.func @reference(%x: tensor<1x4x8xf32>, %wq: tensor<1x8x6xf32>, %wk: tensor<1x8x6xf32>, %wv: tensor<1x8x5xf32>) -> (tensor<1x4x6xf32>, tensor<1x4x6xf32>, tensor<1x4x5xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %q = tosa.matmul %x, %wq, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x6xf32>
  %k = tosa.matmul %x, %wk, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x6xf32>
  %v = tosa.matmul %x, %wv, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x5xf32>
  return %q, %k, %v : tensor<1x4x6xf32>, tensor<1x4x6xf32>, tensor<1x4x5xf32>
}

func.func @merged(%x: tensor<1x4x8xf32>) -> (tensor<1x4x6xf32>, tensor<1x4x6xf32>, tensor<1x4x5xf32>) {
  %wq = "tosa.const"() <{values = dense<[[[-0.0005, 0.3249, -0.0853, -0.4437, 0.9953, 0.9914], [0.6804, 0.4156, -0.3694, -0.5407, -0.4219, -0.8596], [0.5326, -0.1992, 0.6932, -0.227, 0.9161, 0.6946], [-0.9989, -0.5806, 0.8205, -0.06, 0.9607, -0.2052], [-0.8539, 0.2589, 0.557, -0.4604, -0.8257, -0.3348], [0.9282, 0.5161, -0.764, -0.5072, -0.7979, -0.8802], [0.594, -0.6446, 0.1186, -0.1052, -0.6186, 0.4638], [-0.7381, 0.2874, -0.767, -0.1585, -0.5743, -0.4604]]]> : tensor<1x8x6xf32>}> : () -> tensor<1x8x6xf32>
  %wk = "tosa.const"() <{values = dense<[[[0.9419, 0.6068, -0.3917, 0.7697, -0.5786, -0.2115], [0.7088, 0.2837, -0.7993, 0.9786, -0.5735, -0.4834], [0.5454, -0.3421, -0.4074, -0.8532, -0.8198, 0.1655], [-0.514, 0.2026, -0.2566, -0.0936, 0.9183, -0.0326], [0.1491, 0.7331, -0.6343, -0.6917, 0.8168, 0.6356], [-0.501, -0.6204, 0.4788, 0.8808, -0.6068, 0.9003], [0.7644, 0.2071, -0.1571, -0.7923, -0.9226, 0.9254], [-0.5232, 0.4092, -0.486, 0.6474, 0.1929, -0.4131]]]> : tensor<1x8x6xf32>}> : () -> tensor<1x8x6xf32>
  %wv = "tosa.const"() <{values = dense<[[[-0.6491, 0.4407, -0.8624, -0.5432, 0.1187], [0.7048, 0.2286, -0.4396, 0.8347, -0.592], [-0.9669, -0.4616, -0.1086, -0.8791, -0.6475], [-0.2624, 0.1443, -0.7368, -0.2757, 0.7819], [0.961, 0.3139, 0.3824, 0.1689, -0.7193], [-0.9298, -0.9642, 0.8204, 0.4019, 0.9255], [-0.9575, 0.2724, -0.0355, 0.461, -0.3622], [0.9987, -0.8495, 0.0922, 0.474, 0.8004]]]> : tensor<1x8x5xf32>}> : () -> tensor<1x8x5xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %q = tosa.matmul %x, %wq, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x6xf32>
  %k = tosa.matmul %x, %wk, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x6xf32>
  %v = tosa.matmul %x, %wv, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x5xf32>
  return %q, %k, %v : tensor<1x4x6xf32>, tensor<1x4x6xf32>, tensor<1x4x5xf32>
}

func.func @max_abs_diff6(%a: tensor<1x4x6xf32>, %b: tensor<1x4x6xf32>) -> f32 {
  %d = tosa.sub %a, %b : (tensor<1x4x6xf32>, tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
  %m = call @max_abs6(%d) : (tensor<1x4x6xf32>) -> f32
  return %m : f32
}

func.func @max_abs6(%t: tensor<1x4x6xf32>) -> f32 {
  %a = tosa.abs %t : (tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
  %r0 = tosa.reduce_max %a {axis = 2 : i32} : (tensor<1x4x6xf32>) -> tensor<1x4x1xf32>
  %r1 = tosa.reduce_max %r0 {axis = 1 : i32} : (tensor<1x4x1xf32>) -> tensor<1x1x1xf32>
  %i = arith.constant 0 : index
  %m = tensor.extract %r1[%i, %i, %i] : tensor<1x1x1xf32>
  return %m : f32
}

func.func @max_abs5(%t: tensor<1x4x5xf32>) -> f32 {
  %a = tosa.abs %t : (tensor<1x4x5xf32>) -> tensor<1x4x5xf32>
  %r0 = tosa.reduce_max %a {axis = 2 : i32} : (tensor<1x4x5xf32>) -> tensor<1x4x1xf32>
  %r1 = tosa.reduce_max %r0 {axis = 1 : i32} : (tensor<1x4x1xf32>) -> tensor<1x1x1xf32>
  %i = arith.constant 0 : index
  %m = tensor.extract %r1[%i, %i, %i] : tensor<1x1x1xf32>
  return %m : f32
}

func.func @main() {
  %x = arith.constant dense<[[[-0.0952, 0.1195, 0.8484, -0.0687, 0.0157, 0.1748, -0.6307, 0.0238], [0.2598, 0.586, -0.8118, -0.3932, -0.8187, 0.6193, 0.3869, -0.9162], [0.9644, 0.9295, 0.3078, 0.2311, -0.685, -0.97, 0.0568, -0.8809], [-0.6196, -0.5161, -0.9398, -0.0721, -0.1189, 0.6849, 0.0382, 0.2806]]]> : tensor<1x4x8xf32>
  %wq = arith.constant dense<[[[-0.0005, 0.3249, -0.0853, -0.4437, 0.9953, 0.9914], [0.6804, 0.4156, -0.3694, -0.5407, -0.4219, -0.8596], [0.5326, -0.1992, 0.6932, -0.227, 0.9161, 0.6946], [-0.9989, -0.5806, 0.8205, -0.06, 0.9607, -0.2052], [-0.8539, 0.2589, 0.557, -0.4604, -0.8257, -0.3348], [0.9282, 0.5161, -0.764, -0.5072, -0.7979, -0.8802], [0.594, -0.6446, 0.1186, -0.1052, -0.6186, 0.4638], [-0.7381, 0.2874, -0.767, -0.1585, -0.5743, -0.4604]]]> : tensor<1x8x6xf32>
  %wk = arith.constant dense<[[[0.9419, 0.6068, -0.3917, 0.7697, -0.5786, -0.2115], [0.7088, 0.2837, -0.7993, 0.9786, -0.5735, -0.4834], [0.5454, -0.3421, -0.4074, -0.8532, -0.8198, 0.1655], [-0.514, 0.2026, -0.2566, -0.0936, 0.9183, -0.0326], [0.1491, 0.7331, -0.6343, -0.6917, 0.8168, 0.6356], [-0.501, -0.6204, 0.4788, 0.8808, -0.6068, 0.9003], [0.7644, 0.2071, -0.1571, -0.7923, -0.9226, 0.9254], [-0.5232, 0.4092, -0.486, 0.6474, 0.1929, -0.4131]]]> : tensor<1x8x6xf32>
  %wv = arith.constant dense<[[[-0.6491, 0.4407, -0.8624, -0.5432, 0.1187], [0.7048, 0.2286, -0.4396, 0.8347, -0.592], [-0.9669, -0.4616, -0.1086, -0.8791, -0.6475], [-0.2624, 0.1443, -0.7368, -0.2757, 0.7819], [0.961, 0.3139, 0.3824, 0.1689, -0.7193], [-0.9298, -0.9642, 0.8204, 0.4019, 0.9255], [-0.9575, 0.2724, -0.0355, 0.461, -0.3622], [0.9987, -0.8495, 0.0922, 0.474, 0.8004]]]> : tensor<1x8x5xf32>
  %rq, %rk, %rv = call @reference(%x, %wq, %wk, %wv) : (tensor<1x4x8xf32>, tensor<1x8x6xf32>, tensor<1x8x6xf32>, tensor<1x8x5xf32>) -> (tensor<1x4x6xf32>, tensor<1x4x6xf32>, tensor<1x4x5xf32>)
  %mq, %mk, %mv = call @merged(%x) : (tensor<1x4x8xf32>) -> (tensor<1x4x6xf32>, tensor<1x4x6xf32>, tensor<1x4x5xf32>)
  %dq = call @max_abs_diff6(%rq, %mq) : (tensor<1x4x6xf32>, tensor<1x4x6xf32>) -> f32
  %dk = call @max_abs_diff6(%rk, %mk) : (tensor<1x4x6xf32>, tensor<1x4x6xf32>) -> f32
  %dvt = tosa.sub %rv, %mv : (tensor<1x4x5xf32>, tensor<1x4x5xf32>) -> tensor<1x4x5xf32>
  %dv = call @max_abs5(%dvt) : (tensor<1x4x5xf32>) -> f32
  %d0 = arith.maximumf %dq, %dk : f32
  %d = arith.maximumf %d0, %dv : f32
  %o = call @max_abs6(%rq) : (tensor<1x4x6xf32>) -> f32
  vector.print str "max abs difference\n"
  vector.print %d : f32
  vector.print str "max abs output\n"
  vector.print %o : f32
  return
}
