// fuse-nhwc-layout: NCHW linalg (another front end's, or hand-written) runs
// channels last, as fuse's ONNX importer lays out the same network. The
// convolutions and pools become their NHWC forms between transposes, the
// transposes back to NCHW move below the elementwise ops that read them
// (and into the reductions), and the transposes of neighbours cancel: one
// transpose in per input, one back per NCHW result.
// RUN: fuse-opt %s --fuse-nhwc-layout --canonicalize --cse | FileCheck %s
// Fused (with the pass) against unfused (the NCHW ops as written), on the
// CPU and through the emulated GPU schedule. The convolutions sum in
// another order channels last: outputs near 0 between terms of about 20
// differ by a few ulps of 20, so the absolute bound is 1e-6 of that scale.
// RUN: %check_equivalence %s --function block --atol 2e-5 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function block --atol 2e-5 --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function wide --atol 2e-5 --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function bias_init --atol 2e-5 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function bias_init --atol 2e-5 --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function slices --atol 2e-5 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function slices --atol 2e-5 --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// Kept NCHW, @slices' two concatenations begin with the same slice (one
// value after CSE): the insertion that updates it in place stays out of
// the group that yields it (the kernel would have copied it on the host).
// RUN: %check_equivalence %s --function slices --atol 2e-5 --fused-options nhwc-layout=false --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// EXEC: PASS
// EXEC-NOT: FAIL
// Channels last, the convolution reaches the tensor cores; as NCHW
// (nhwc-layout=false) it runs on SIMT.
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 | fuse-opt --fuse-to-nvptx=target=h200 -o /dev/null 2>&1 | FileCheck %s --check-prefix=TC --allow-empty
// TC-NOT: runs on SIMT
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 nhwc-layout=false" | fuse-opt --fuse-to-nvptx=target=h200 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIMT
// SIMT: 'linalg.conv_2d_nchw_fchw' runs on SIMT, not tensor cores
// @wide fuses to the groups of the same Conv + Relu imported from ONNX: the
// convolution with its epilogue (input and filter transposes as its
// prologue), then the transpose of its result back to NCHW.
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 | FileCheck %s --check-prefix=GROUPS
// RUN: %onnx_model wide_conv %t.onnx
// RUN: fuse-translate --import-onnx %t.onnx | fuse-opt --fuse-fusion-pipeline=target=h200 | FileCheck %s --check-prefix=GROUPS
// GROUPS-LABEL: func.func @wide
// GROUPS: fuse.group vertical rule "contraction_epilogue" (%{{.*}} = %arg0 : tensor<1x16x28x28xf32>, %{{.*}} = %arg1 : tensor<32x16x3x3xf32>, %{{.*}} = %arg2 : tensor<32xf32>) -> tensor<1x26x26x32xf32>
// GROUPS: fuse.group single (%{{.*}} = %0 : tensor<1x26x26x32xf32>) -> tensor<1x32x26x26xf32>
// GROUPS-NOT: fuse.group
// GROUPS: return

#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#chan = affine_map<(n, c, h, w) -> (c)>
#pool = affine_map<(n, c, h, w) -> (n, c)>

// A residual block: conv + bias + ReLU (plus the channel index, which the
// renamed loops must keep reading), a 1x1 conv with a constant filter, the
// residual sum (returned in NCHW), a max pool and a global sum.
// CHECK-LABEL: func @block
// CHECK-DAG: %[[W2:.*]] = arith.constant dense<{{.*}}> : tensor<8x1x1x8xf32>
// CHECK: %[[X:.*]] = linalg.transpose ins(%arg0 : tensor<1x8x12x12xf32>) {{.*}} permutation = [0, 2, 3, 1]
// CHECK: %[[W1:.*]] = linalg.transpose ins(%arg1 : tensor<8x8x3x3xf32>) {{.*}} permutation = [0, 2, 3, 1]
// CHECK: %[[C1:.*]] = linalg.conv_2d_nhwc_fhwc {{.*}} ins(%[[X]], %[[W1]] : tensor<1x12x12x8xf32>, tensor<8x3x3x8xf32>)
// CHECK: %[[R1:.*]] = linalg.generic {{.*}} ins(%[[C1]], %arg2 : tensor<1x10x10x8xf32>, tensor<8xf32>)
// CHECK: linalg.index 3 : index
// CHECK: %[[C2:.*]] = linalg.conv_2d_nhwc_fhwc {{.*}} ins(%[[R1]], %[[W2]] : tensor<1x10x10x8xf32>, tensor<8x1x1x8xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ID:.*]], #[[ID]], #[[ID]]], {{.*}} ins(%[[C2]], %[[R1]] : tensor<1x10x10x8xf32>, tensor<1x10x10x8xf32>)
// CHECK: %[[BACK:.*]] = linalg.transpose ins(%[[SUM]] : tensor<1x10x10x8xf32>) {{.*}} permutation = [0, 3, 1, 2]
// CHECK: %[[P:.*]] = linalg.pooling_nhwc_max {{.*}} ins(%[[SUM]], %{{.*}} : tensor<1x10x10x8xf32>, tensor<2x2xf32>)
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[NHWC:.*]], #{{.*}}], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[P]] : tensor<1x5x5x8xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: return %[[BACK]], %[[G]]
func.func @block(%x: tensor<1x8x12x12xf32>, %w1: tensor<8x8x3x3xf32>, %b1: tensor<8xf32>) -> (tensor<1x8x10x10xf32>, tensor<1x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.40282347E+38 : f32
  %w2 = arith.constant dense<[[[[-0.414]],[[-0.263]],[[0.301]],[[0.082]],[[-0.406]],[[-0.067]],[[-0.021]],[[-0.34]]],[[[0.235]],[[-0.386]],[[-0.109]],[[0.017]],[[-0.069]],[[0.087]],[[0.238]],[[0.456]]],[[[-0.216]],[[0.149]],[[0.196]],[[-0.207]],[[-0.499]],[[0.473]],[[-0.202]],[[-0.186]]],[[[0.392]],[[0.085]],[[-0.029]],[[0.273]],[[-0.47]],[[0.207]],[[-0.126]],[[-0.409]]],[[[0.161]],[[0.431]],[[-0.293]],[[0.13]],[[-0.202]],[[0.242]],[[0.222]],[[-0.281]]],[[[0.33]],[[0.158]],[[0.183]],[[0.32]],[[-0.071]],[[0.259]],[[0.378]],[[-0.398]]],[[[0.35]],[[-0.106]],[[-0.02]],[[-0.354]],[[0.198]],[[-0.208]],[[0.371]],[[-0.225]]],[[[0.062]],[[-0.1]],[[0.113]],[[-0.303]],[[-0.32]],[[0.247]],[[0.252]],[[0.067]]]]> : tensor<8x8x1x1xf32>
  %e = tensor.empty() : tensor<1x8x10x10xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x10x10xf32>) -> tensor<1x8x10x10xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : tensor<1x8x12x12xf32>, tensor<8x8x3x3xf32>) outs(%f : tensor<1x8x10x10xf32>) -> tensor<1x8x10x10xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1, %b1 : tensor<1x8x10x10xf32>, tensor<8xf32>) outs(%e : tensor<1x8x10x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = linalg.index 1 : index
    %ci = arith.index_cast %c : index to i32
    %cf = arith.sitofp %ci : i32 to f32
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %cf : f32
    %m = arith.maximumf %t, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x10x10xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%r1, %w2 : tensor<1x8x10x10xf32>, tensor<8x8x1x1xf32>) outs(%f : tensor<1x8x10x10xf32>) -> tensor<1x8x10x10xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2, %r1 : tensor<1x8x10x10xf32>, tensor<1x8x10x10xf32>) outs(%e : tensor<1x8x10x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x10x10xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x8x5x5xf32>
  %pf = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%sum, %win : tensor<1x8x10x10xf32>, tensor<2x2xf32>) outs(%pf : tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  %ge = tensor.empty() : tensor<1x8xf32>
  %gf = linalg.fill ins(%zero : f32) outs(%ge : tensor<1x8xf32>) -> tensor<1x8xf32>
  %g = linalg.generic {indexing_maps = [#id, #pool], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%p : tensor<1x8x5x5xf32>) outs(%gf : tensor<1x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  return %sum, %g : tensor<1x8x10x10xf32>, tensor<1x8xf32>
}

// A convolution wide enough for the tensor cores, with its bias and ReLU.
// CHECK-LABEL: func @wide
// CHECK: linalg.conv_2d_nhwc_fhwc
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @wide(%x: tensor<1x16x28x28xf32>, %w: tensor<32x16x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x26x26xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x26x26xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x26x26xf32>) -> tensor<1x32x26x26xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x16x28x28xf32>, tensor<32x16x3x3xf32>) outs(%f : tensor<1x32x26x26xf32>) -> tensor<1x32x26x26xf32>
  %r = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %b : tensor<1x32x26x26xf32>, tensor<32xf32>) outs(%e : tensor<1x32x26x26xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %s = arith.addf %a, %bb : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x32x26x26xf32>
  return %r : tensor<1x32x26x26xf32>
}

// Left alone: a transpose of another permutation, and a convolution of
// dynamic size.
// CHECK-LABEL: func @left_alone
// CHECK: linalg.transpose {{.*}} permutation = [0, 2, 1, 3]
// CHECK: linalg.generic
// CHECK: linalg.conv_2d_nchw_fchw
func.func @left_alone(%x: tensor<1x8x6x6xf32>, %d: tensor<?x8x6x6xf32>, %w: tensor<4x8x3x3xf32>, %init: tensor<?x4x4x4xf32>) -> (tensor<1x6x8x6xf32>, tensor<?x4x4x4xf32>) {
  %e = tensor.empty() : tensor<1x6x8x6xf32>
  %t = linalg.transpose ins(%x : tensor<1x8x6x6xf32>) outs(%e : tensor<1x6x8x6xf32>) permutation = [0, 2, 1, 3]
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t : tensor<1x6x8x6xf32>) outs(%e : tensor<1x6x8x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.negf %a : f32
    linalg.yield %z : f32
  } -> tensor<1x6x8x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%d, %w : tensor<?x8x6x6xf32>, tensor<4x8x3x3xf32>) outs(%init : tensor<?x4x4x4xf32>) -> tensor<?x4x4x4xf32>
  return %n, %c : tensor<1x6x8x6xf32>, tensor<?x4x4x4xf32>
}

// A convolution whose initial value is its bias broadcast (as torch-mlir
// writes it): the broadcast is made channels last, no transpose of it.
// A broadcast that something else reads too is transposed.
// CHECK-LABEL: func @bias_init
// CHECK: %[[B:.*]] = linalg.generic {indexing_maps = [#[[LAST:.*]], #[[ID4:.*]]], {{.*}} ins(%arg2 : tensor<4xf32>) outs(%{{.*}} : tensor<1x4x4x4xf32>)
// CHECK: linalg.conv_2d_nhwc_fhwc {{.*}} outs(%[[B]] : tensor<1x4x4x4xf32>)
// CHECK: %[[SHARED:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<4xf32>) outs(%{{.*}} : tensor<1x4x4x4xf32>)
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[SHARED]] : tensor<1x4x4x4xf32>) {{.*}} permutation = [0, 2, 3, 1]
// CHECK: linalg.conv_2d_nhwc_fhwc {{.*}} outs(%[[T]] : tensor<1x4x4x4xf32>)
func.func @bias_init(%x: tensor<1x8x6x6xf32>, %w: tensor<4x8x3x3xf32>, %b: tensor<4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %bias = linalg.generic {indexing_maps = [#chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>) outs(%bias : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %shared = linalg.generic {indexing_maps = [#chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x4x4x4xf32>
  %d = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>) outs(%shared : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %c, %d, %shared : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}

// The transpose back to NCHW moves through a slice (offsets and sizes
// permuted) and a concatenation of transposes (along the permuted
// dimension), past the elementwise op between them: one transpose at the
// end. A concatenation with an operand in NCHW is left alone.
// CHECK-LABEL: func @slices
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_fhwc
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[C]][0, 0, 0, 0] [1, 4, 4, 2] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x4x4x2xf32>
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[C]][0, 0, 0, 2] [1, 4, 4, 2] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x4x4x2xf32>
// CHECK: %[[N:.*]] = linalg.generic {{.*}} ins(%[[S1]] : tensor<1x4x4x2xf32>)
// CHECK: %[[CAT:.*]] = tensor.concat dim(3) %[[S0]], %[[N]] : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x4xf32>
// CHECK: %[[OUT:.*]] = linalg.transpose ins(%[[CAT]] : tensor<1x4x4x4xf32>) {{.*}} permutation = [0, 3, 1, 2]
// CHECK: %[[MIXED:.*]] = tensor.concat dim(1) %{{.*}}, %arg2 : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK: return %[[OUT]], %[[MIXED]]
func.func @slices(%x: tensor<1x8x6x6xf32>, %w: tensor<4x8x3x3xf32>, %y: tensor<1x2x4x4xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %s0 = tensor.extract_slice %c[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
  %s1 = tensor.extract_slice %c[0, 2, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x2x4x4xf32>
  %e2 = tensor.empty() : tensor<1x2x4x4xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s1 : tensor<1x2x4x4xf32>) outs(%e2 : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %v = arith.negf %in : f32
    linalg.yield %v : f32
  } -> tensor<1x2x4x4xf32>
  %cat = tensor.concat dim(1) %s0, %n : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %mixed = tensor.concat dim(1) %s0, %y : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %cat, %mixed : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}
