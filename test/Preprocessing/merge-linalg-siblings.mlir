// fuse-merge-sibling-contractions on linalg (another front end's, or
// written by hand), as on TOSA: contractions that read one input with
// constant weights and the same attributes, each starting from a fill of
// the same value (or each from its constant bias broadcast), become one contraction on the weights concatenated along
// the output channels, and a slice of its result per sibling.
// RUN: fuse-opt %s --fuse-merge-sibling-contractions | FileCheck %s
// Fused (merged) against unfused (every rule off: the contractions as
// written), on the CPU and through the emulated GPU schedule.
// RUN: %check_equivalence %s --function qkv | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function qkv --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function convs --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function bias_inits | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function bias_inits --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// EXEC: PASS
// EXEC-NOT: FAIL
// The merged projections and their bias adds are one kernel, as the same
// projections imported through TOSA.
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 | FileCheck %s --check-prefix=GROUPS
// GROUPS-LABEL: func.func @qkv
// GROUPS: fuse.group horizontal rule "shared_input_contractions"
// GROUPS-NOT: fuse.group
// GROUPS: return

#row = affine_map<(m, n) -> (m, n)>
#bias = affine_map<(m, n) -> (n)>

// Three projections of %x (the third of another width), each plus its bias.
// CHECK-LABEL: func @qkv
// CHECK: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<8x14xf32>
// CHECK: %[[F:.*]] = linalg.fill {{.*}} -> tensor<16x14xf32>
// CHECK: %[[M:.*]] = linalg.matmul ins(%arg0, %[[W]] : tensor<16x8xf32>, tensor<8x14xf32>) outs(%[[F]] : tensor<16x14xf32>)
// CHECK: tensor.extract_slice %[[M]][0, 0] [16, 4] [1, 1]
// CHECK: tensor.extract_slice %[[M]][0, 4] [16, 4] [1, 1]
// CHECK: tensor.extract_slice %[[M]][0, 8] [16, 6] [1, 1]
// CHECK-NOT: linalg.matmul
// CHECK: return
func.func @qkv(%x: tensor<16x8xf32>, %bq: tensor<4xf32>, %bk: tensor<4xf32>, %bv: tensor<6xf32>) -> (tensor<16x4xf32>, tensor<16x4xf32>, tensor<16x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %wq = arith.constant dense<[[-0.371,-0.001,0.101,-0.471],[-0.352,0.428,-0.43,-0.37],[0.448,0.122,-0.131,0.011],[0.163,-0.225,-0.362,0.288],[0.17,0.012,0.317,0.049],[0.481,-0.295,0.054,-0.016],[-0.147,0.092,-0.265,0.302],[0.367,-0.371,-0.033,-0.223]]> : tensor<8x4xf32>
  %wk = arith.constant dense<[[-0.417,0.396,-0.07,-0.352],[0.173,-0.298,0.401,-0.283],[-0.467,-0.299,-0.154,-0.031],[0.406,0.197,-0.161,-0.483],[-0.34,0.496,-0.04,0.191],[-0.445,-0.466,0.346,0.088],[-0.191,-0.183,-0.411,-0.327],[-0.475,0.339,-0.034,-0.373]]> : tensor<8x4xf32>
  %wv = arith.constant dense<[[0.239,-0.304,-0.438,0.098,0.396,-0.473],[0.305,-0.31,-0.407,-0.482,-0.207,0.227],[-0.007,0.353,-0.283,-0.185,-0.242,0.478],[0.441,-0.159,-0.064,-0.186,0.247,-0.46],[-0.433,-0.096,-0.255,0.345,0.242,0.046],[0.161,0.192,0.281,0.428,-0.35,0.126],[-0.356,-0.057,0.286,0.395,0.259,-0.465],[-0.141,-0.337,0.499,-0.356,-0.256,-0.143]]> : tensor<8x6xf32>
  %e4 = tensor.empty() : tensor<16x4xf32>
  %e6 = tensor.empty() : tensor<16x6xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %f6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<16x6xf32>) -> tensor<16x6xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<16x8xf32>, tensor<8x4xf32>) outs(%f4 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<16x8xf32>, tensor<8x4xf32>) outs(%f4 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %v = linalg.matmul ins(%x, %wv : tensor<16x8xf32>, tensor<8x6xf32>) outs(%f6 : tensor<16x6xf32>) -> tensor<16x6xf32>
  %qb = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]} ins(%q, %bq : tensor<16x4xf32>, tensor<4xf32>) outs(%e4 : tensor<16x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x4xf32>
  %kb = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]} ins(%k, %bk : tensor<16x4xf32>, tensor<4xf32>) outs(%e4 : tensor<16x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x4xf32>
  %vb = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]} ins(%v, %bv : tensor<16x6xf32>, tensor<6xf32>) outs(%e6 : tensor<16x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<16x6xf32>
  return %qb, %kb, %vb : tensor<16x4xf32>, tensor<16x4xf32>, tensor<16x6xf32>
}

// Two 1x1 convolutions of one NHWC input (an Inception block's): one
// convolution on 10 filters, sliced along the channels.
// CHECK-LABEL: func @convs
// CHECK: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<10x1x1x8xf32>
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_fhwc {{.*}} ins(%arg0, %[[W]] : tensor<1x6x6x8xf32>, tensor<10x1x1x8xf32>)
// CHECK: tensor.extract_slice %[[C]][0, 0, 0, 0] [1, 6, 6, 4] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %[[C]][0, 0, 0, 4] [1, 6, 6, 6] [1, 1, 1, 1]
// CHECK-NOT: linalg.conv_2d
// CHECK: return
func.func @convs(%x: tensor<1x6x6x8xf32>) -> (tensor<1x6x6x4xf32>, tensor<1x6x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[[-0.439,0.37,0.136,-0.34,-0.002,-0.421,0.111,-0.268]]],[[[-0.461,-0.385,0.055,0.137,-0.175,0.143,-0.148,-0.369]]],[[[-0.185,-0.105,0.413,-0.384,-0.414,0.062,0.463,0.407]]],[[[0.2,-0.433,0.306,0.183,-0.356,-0.035,-0.451,0.302]]]]> : tensor<4x1x1x8xf32>
  %w2 = arith.constant dense<[[[[0.219,0.305,0.26,-0.233,0.29,-0.251,-0.362,-0.11]]],[[[-0.002,-0.214,0.106,0.103,-0.26,0.123,-0.143,0.235]]],[[[-0.21,0.299,-0.085,0.053,0.173,0.018,-0.242,0.479]]],[[[-0.404,-0.175,0.049,-0.471,-0.345,0.299,0.284,0.137]]],[[[0.402,0.256,-0.201,0.145,-0.16,0.25,-0.115,-0.347]]],[[[0.376,0.19,0.245,0.06,0.283,-0.052,0.066,-0.437]]]]> : tensor<6x1x1x8xf32>
  %e4 = tensor.empty() : tensor<1x6x6x4xf32>
  %e6 = tensor.empty() : tensor<1x6x6x6xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %f6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<1x6x6x6xf32>) -> tensor<1x6x6x6xf32>
  %a = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : tensor<1x6x6x8xf32>, tensor<4x1x1x8xf32>) outs(%f4 : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  %b = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w2 : tensor<1x6x6x8xf32>, tensor<6x1x1x8xf32>) outs(%f6 : tensor<1x6x6x6xf32>) -> tensor<1x6x6x6xf32>
  return %a, %b : tensor<1x6x6x4xf32>, tensor<1x6x6x6xf32>
}

// Not merged: a weight that is no constant; fills of different values; a
// matmul of other indexing maps (A transposed).
// CHECK-LABEL: func @apart
// CHECK-COUNT-4: linalg.matmul
// CHECK-NOT: tensor.extract_slice
// CHECK: return
func.func @apart(%x: tensor<8x8xf32>, %w: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %wc = arith.constant dense<[[-0.371,-0.001,0.101,-0.471],[-0.352,0.428,-0.43,-0.37],[0.448,0.122,-0.131,0.011],[0.163,-0.225,-0.362,0.288],[0.17,0.012,0.317,0.049],[0.481,-0.295,0.054,-0.016],[-0.147,0.092,-0.265,0.302],[0.367,-0.371,-0.033,-0.223]]> : tensor<8x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %f1 = linalg.fill ins(%one : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %a = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x4xf32>) outs(%f0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %b = linalg.matmul ins(%x, %wc : tensor<8x8xf32>, tensor<8x4xf32>) outs(%f0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %c = linalg.matmul ins(%x, %wc : tensor<8x8xf32>, tensor<8x4xf32>) outs(%f1 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %d = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %wc : tensor<8x8xf32>, tensor<8x4xf32>) outs(%f0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %a, %b, %c, %d : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}

// Two NCHW 1x1 convolutions that start from their constant biases
// broadcast along the channels (as torch-mlir writes a convolution with a
// bias): one convolution starting from the concatenated biases broadcast.
// CHECK-LABEL: func @bias_inits
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<5x4x1x1xf32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[1.000000e-01, 2.000000e-01, 3.000000e-01, 4.000000e-01, 5.000000e-01]> : tensor<5xf32>
// CHECK: %[[I:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<5xf32>) outs(%{{.*}} : tensor<1x5x3x3xf32>)
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%arg0, %[[W]] : tensor<1x4x3x3xf32>, tensor<5x4x1x1xf32>) outs(%[[I]] : tensor<1x5x3x3xf32>)
// CHECK: tensor.extract_slice %[[C]][0, 0, 0, 0] [1, 2, 3, 3] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %[[C]][0, 2, 0, 0] [1, 3, 3, 3] [1, 1, 1, 1]
// CHECK-NOT: linalg.conv_2d
// CHECK: return
func.func @bias_inits(%x: tensor<1x4x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x3x3x3xf32>) {
  %w1 = arith.constant dense<[[[[0.3]], [[-0.2]], [[0.1]], [[0.4]]], [[[-0.1]], [[0.25]], [[-0.35]], [[0.15]]]]> : tensor<2x4x1x1xf32>
  %w2 = arith.constant dense<[[[[0.2]], [[0.1]], [[-0.3]], [[0.05]]], [[[0.45]], [[-0.15]], [[0.2]], [[-0.4]]], [[[-0.25]], [[0.3]], [[0.1]], [[0.2]]]]> : tensor<3x4x1x1xf32>
  %b1 = arith.constant dense<[0.1, 0.2]> : tensor<2xf32>
  %b2 = arith.constant dense<[0.3, 0.4, 0.5]> : tensor<3xf32>
  %e2 = tensor.empty() : tensor<1x2x3x3xf32>
  %e3 = tensor.empty() : tensor<1x3x3x3xf32>
  %i1 = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b1 : tensor<2xf32>) outs(%e2 : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x3x3xf32>
  %i2 = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b2 : tensor<3xf32>) outs(%e3 : tensor<1x3x3x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x3x3x3xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : tensor<1x4x3x3xf32>, tensor<2x4x1x1xf32>) outs(%i1 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w2 : tensor<1x4x3x3xf32>, tensor<3x4x1x1xf32>) outs(%i2 : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %a, %b : tensor<1x2x3x3xf32>, tensor<1x3x3x3xf32>
}

// Not merged: one starting from a bias, one from a fill; and a bias that
// is no constant.
// CHECK-LABEL: func @bias_apart
// CHECK-COUNT-3: linalg.matmul
// CHECK-NOT: tensor.extract_slice
// CHECK: return
func.func @bias_apart(%x: tensor<8x8xf32>, %bx: tensor<4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %wc = arith.constant dense<[[-0.371,-0.001,0.101,-0.471],[-0.352,0.428,-0.43,-0.37],[0.448,0.122,-0.131,0.011],[0.163,-0.225,-0.362,0.288],[0.17,0.012,0.317,0.049],[0.481,-0.295,0.054,-0.016],[-0.147,0.092,-0.265,0.302],[0.367,-0.371,-0.033,-0.223]]> : tensor<8x4xf32>
  %bc = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %ic = linalg.generic {indexing_maps = [#bias, #row], iterator_types = ["parallel", "parallel"]} ins(%bc : tensor<4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<8x4xf32>
  %ix = linalg.generic {indexing_maps = [#bias, #row], iterator_types = ["parallel", "parallel"]} ins(%bx : tensor<4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<8x4xf32>
  %a = linalg.matmul ins(%x, %wc : tensor<8x8xf32>, tensor<8x4xf32>) outs(%ic : tensor<8x4xf32>) -> tensor<8x4xf32>
  %b = linalg.matmul ins(%x, %wc : tensor<8x8xf32>, tensor<8x4xf32>) outs(%f0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %c = linalg.matmul ins(%x, %wc : tensor<8x8xf32>, tensor<8x4xf32>) outs(%ix : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %a, %b, %c : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}
