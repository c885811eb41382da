// Fusion on linalg as torch-mlir writes it: the same computations imported
// from ONNX (make-model.py's twin_* models) fuse to the same groups.
//  - @layernorm and @softmax: reductions written as linalg.generic with the
//    reduced dimension kept ((d0, d1, d2) -> (d0, d1, 0), torch's
//    keepdim=True): fuse-prune writes them without it, and each is one
//    row_reduction kernel (the constant index had made the reductions
//    untileable and the normalization four kernels).
//  - @attention: scores from a transposed K, scaled, the softmax in the
//    same kept-dimension generics, then the values: one attention kernel.
//  - @head (no twin): a classifier head, the global average pool a
//    kept-dimension sum over H and W of NCHW and a division, flattened,
//    then a linear layer on a transposed weight starting from its bias:
//    the pool one row_reduction kernel, the layer one contraction kernel.
//  - @conv_bias: an NCHW convolution whose initial value is its bias
//    broadcast: fuse-nhwc-layout broadcasts the bias channels last (it was
//    a kernel of its own, transposed).
//  - @branches: three 1x1 convolutions with biases and ReLUs into a
//    concatenation: merged into one convolution (biases included), the
//    transposes to NCHW sunk through the slices and the concatenation.
//  - @reassembled: three 1x1 convolutions straight into a concatenation of
//    their merged result's slices in order: the merged result itself.
// RUN: %onnx_model twin_layernorm %t.ln.onnx
// RUN: fuse-translate --import-onnx %t.ln.onnx | fuse-opt --fuse-fusion-pipeline=target=h200 | FileCheck %s --check-prefix=LN
// RUN: %onnx_model twin_softmax %t.sm.onnx
// RUN: fuse-translate --import-onnx %t.sm.onnx | fuse-opt --fuse-fusion-pipeline=target=h200 | FileCheck %s --check-prefix=SM
// RUN: %onnx_model twin_attention %t.at.onnx
// RUN: fuse-translate --import-onnx %t.at.onnx | fuse-opt --fuse-fusion-pipeline=target=h200 | FileCheck %s --check-prefix=AT
// RUN: %onnx_model twin_conv_bias %t.cb.onnx
// RUN: fuse-translate --import-onnx %t.cb.onnx | fuse-opt --fuse-fusion-pipeline=target=h200 | FileCheck %s --check-prefix=CB
// RUN: %onnx_model twin_branches %t.br.onnx
// RUN: fuse-translate --import-onnx %t.br.onnx | fuse-opt --fuse-fusion-pipeline=target=h200 | FileCheck %s --check-prefix=BR
// RUN: %onnx_model twin_reassembled %t.ra.onnx
// RUN: fuse-translate --import-onnx %t.ra.onnx | fuse-opt --fuse-fusion-pipeline=target=h200 | FileCheck %s --check-prefix=RA
// The same prefixes on this file's groups:
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 | FileCheck %s --check-prefixes=LN,SM,AT,HD,CB,BR,RA
// Every group compiles to a GPU kernel:
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 | fuse-opt --fuse-to-nvptx=target=h200 -o /dev/null
// Fused against unfused, on the CPU and through the emulated GPU schedule:
// RUN: %check_equivalence %s --function layernorm | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function layernorm --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function softmax | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function softmax --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function attention | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function attention --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function head | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function head --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function conv_bias --atol 2e-5 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function conv_bias --atol 2e-5 --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function branches | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function branches --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function reassembled | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function reassembled --lower-groups --distribute-threads 64 | FileCheck %s --check-prefix=EXEC
// EXEC: PASS
// EXEC-NOT: FAIL

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#kept3 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#last3 = affine_map<(d0, d1, d2) -> (d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#kept2 = affine_map<(d0, d1) -> (d0, 0)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d1)>

// LN-LABEL: func.func @layernorm
// LN: fuse.group vertical rule "row_reduction" (%{{.*}} = %arg0 : tensor<2x8x64xf32>, %{{.*}} = %arg1 : tensor<64xf32>, %{{.*}} = %arg2 : tensor<64xf32>) -> tensor<2x8x64xf32>
// LN-NOT: fuse.group
// LN: return
func.func @layernorm(%x: tensor<2x8x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<2x8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 64.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<2x8x1xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #kept3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<2x8x64xf32>) outs(%f1 : tensor<2x8x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x8x1xf32>
  %mean = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum : tensor<2x8x1xf32>) outs(%e1 : tensor<2x8x1xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<2x8x1xf32>
  %e3 = tensor.empty() : tensor<2x8x64xf32>
  %centred = linalg.generic {indexing_maps = [#id3, #kept3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mean : tensor<2x8x64xf32>, tensor<2x8x1xf32>) outs(%e3 : tensor<2x8x64xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<2x8x64xf32>
  %squares = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%centred : tensor<2x8x64xf32>) outs(%e3 : tensor<2x8x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %d = arith.mulf %a, %a : f32
    linalg.yield %d : f32
  } -> tensor<2x8x64xf32>
  %sum2 = linalg.generic {indexing_maps = [#id3, #kept3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%squares : tensor<2x8x64xf32>) outs(%f1 : tensor<2x8x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x8x1xf32>
  %rstd = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum2 : tensor<2x8x1xf32>) outs(%e1 : tensor<2x8x1xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %n : f32
    %v = arith.addf %d, %eps : f32
    %r = math.rsqrt %v : f32
    linalg.yield %r : f32
  } -> tensor<2x8x1xf32>
  %y = linalg.generic {indexing_maps = [#id3, #kept3, #last3, #last3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%centred, %rstd, %g, %b : tensor<2x8x64xf32>, tensor<2x8x1xf32>, tensor<64xf32>, tensor<64xf32>) outs(%e3 : tensor<2x8x64xf32>) {
  ^bb0(%a: f32, %r: f32, %gg: f32, %bb: f32, %o: f32):
    %m = arith.mulf %a, %r : f32
    %m2 = arith.mulf %m, %gg : f32
    %s = arith.addf %m2, %bb : f32
    linalg.yield %s : f32
  } -> tensor<2x8x64xf32>
  return %y : tensor<2x8x64xf32>
}

// SM-LABEL: func.func @softmax
// SM: fuse.group vertical rule "row_reduction" (%{{.*}} = %arg0 : tensor<16x128xf32>) -> tensor<16x128xf32>
// SM-NOT: fuse.group
// SM: return
func.func @softmax(%x: tensor<16x128xf32>) -> tensor<16x128xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16x1xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %max = linalg.generic {indexing_maps = [#id2, #kept2], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x128xf32>) outs(%f1 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.maximumf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16x1xf32>
  %e2 = tensor.empty() : tensor<16x128xf32>
  %exp = linalg.generic {indexing_maps = [#id2, #kept2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<16x128xf32>, tensor<16x1xf32>) outs(%e2 : tensor<16x128xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<16x128xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x1xf32>) -> tensor<16x1xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #kept2], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<16x128xf32>) outs(%f2 : tensor<16x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16x1xf32>
  %y = linalg.generic {indexing_maps = [#id2, #kept2, #id2], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<16x128xf32>, tensor<16x1xf32>) outs(%e2 : tensor<16x128xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<16x128xf32>
  return %y : tensor<16x128xf32>
}

// AT-LABEL: func.func @attention
// AT: fuse.group composite rule "attention" (%{{.*}} = %arg1 : tensor<4x64x32xf32>, %{{.*}} = %arg0 : tensor<4x64x32xf32>, %{{.*}} = %arg2 : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
// AT-NOT: fuse.group
// AT: return
func.func @attention(%q: tensor<4x64x32xf32>, %k: tensor<4x64x32xf32>, %v: tensor<4x64x32xf32>) -> tensor<4x64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.176776695 : f32
  %kt_e = tensor.empty() : tensor<4x32x64xf32>
  %kt = linalg.transpose ins(%k : tensor<4x64x32xf32>) outs(%kt_e : tensor<4x32x64xf32>) permutation = [0, 2, 1]
  %se = tensor.empty() : tensor<4x64x64xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x64x32xf32>, tensor<4x32x64xf32>) outs(%sf : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x64x64xf32>) outs(%se : tensor<4x64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %scale : f32
    linalg.yield %m : f32
  } -> tensor<4x64x64xf32>
  %me = tensor.empty() : tensor<4x64x1xf32>
  %mf = linalg.fill ins(%ninf : f32) outs(%me : tensor<4x64x1xf32>) -> tensor<4x64x1xf32>
  %max = linalg.generic {indexing_maps = [#id3, #kept3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ss : tensor<4x64x64xf32>) outs(%mf : tensor<4x64x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4x64x1xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #kept3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ss, %max : tensor<4x64x64xf32>, tensor<4x64x1xf32>) outs(%se : tensor<4x64x64xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x64x64xf32>
  %zf = linalg.fill ins(%zero : f32) outs(%me : tensor<4x64x1xf32>) -> tensor<4x64x1xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #kept3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<4x64x64xf32>) outs(%zf : tensor<4x64x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.addf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4x64x1xf32>
  %p = linalg.generic {indexing_maps = [#id3, #kept3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<4x64x64xf32>, tensor<4x64x1xf32>) outs(%se : tensor<4x64x64xf32>) {
  ^bb0(%a: f32, %s2: f32, %o: f32):
    %d = arith.divf %a, %s2 : f32
    linalg.yield %d : f32
  } -> tensor<4x64x64xf32>
  %oe = tensor.empty() : tensor<4x64x32xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x64x64xf32>, tensor<4x64x32xf32>) outs(%of : tensor<4x64x32xf32>) -> tensor<4x64x32xf32>
  return %o : tensor<4x64x32xf32>
}

// HD-LABEL: func.func @head
// HD: %[[P:.*]] = fuse.group vertical rule "row_reduction" (%{{.*}} = %arg0 : tensor<1x64x7x7xf32>) -> tensor<1x64x1x1xf32>
// HD: fuse.group vertical rule "contraction_epilogue" (%{{.*}} = %arg1 : tensor<10x64xf32>, %{{.*}} = %arg2 : tensor<10xf32>, %{{.*}} = %[[P]] : tensor<1x64x1x1xf32>) -> tensor<1x10xf32>
// HD-NOT: fuse.group
// HD: return
func.func @head(%x: tensor<1x64x7x7xf32>, %w: tensor<10x64xf32>, %b: tensor<10xf32>) -> tensor<1x10xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 49.0 : f32
  %e = tensor.empty() : tensor<1x64x1x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x1x1xf32>) -> tensor<1x64x1x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x64x7x7xf32>) outs(%f : tensor<1x64x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x64x1x1xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x64x1x1xf32>) outs(%e : tensor<1x64x1x1xf32>) {
  ^bb0(%in: f32, %o: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<1x64x1x1xf32>
  %flat = tensor.collapse_shape %m [[0], [1, 2, 3]] : tensor<1x64x1x1xf32> into tensor<1x64xf32>
  %wt_e = tensor.empty() : tensor<64x10xf32>
  %wt = linalg.transpose ins(%w : tensor<10x64xf32>) outs(%wt_e : tensor<64x10xf32>) permutation = [1, 0]
  %be = tensor.empty() : tensor<1x10xf32>
  %bi = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<10xf32>) outs(%be : tensor<1x10xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x10xf32>
  %y = linalg.matmul ins(%flat, %wt : tensor<1x64xf32>, tensor<64x10xf32>) outs(%bi : tensor<1x10xf32>) -> tensor<1x10xf32>
  return %y : tensor<1x10xf32>
}

// CB-LABEL: func.func @conv_bias
// CB: fuse.group vertical rule "contraction_epilogue" (%{{.*}} = %arg0 : tensor<1x16x28x28xf32>, %{{.*}} = %arg1 : tensor<32x16x3x3xf32>, %{{.*}} = %arg2 : tensor<32xf32>) -> tensor<1x26x26x32xf32>
// CB: fuse.group single (%{{.*}} = %0 : tensor<1x26x26x32xf32>) -> tensor<1x32x26x26xf32>
// CB-NOT: fuse.group
// CB: return
func.func @conv_bias(%x: tensor<1x16x28x28xf32>, %w: tensor<32x16x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x26x26xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x26x26xf32>
  %bias = linalg.generic {indexing_maps = [#chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<32xf32>) outs(%e : tensor<1x32x26x26xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x32x26x26xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x16x28x28xf32>, tensor<32x16x3x3xf32>) outs(%bias : tensor<1x32x26x26xf32>) -> tensor<1x32x26x26xf32>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x32x26x26xf32>) outs(%e : tensor<1x32x26x26xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x32x26x26xf32>
  return %r : tensor<1x32x26x26xf32>
}

// BR-LABEL: func.func @branches
// BR: fuse.group composite rule "shared_input_contractions" (%{{.*}} = %arg0 : tensor<1x8x6x6xf32>, %{{.*}} = %cst : tensor<12x1x1x8xf32>) -> (tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>, tensor<1x6x6x12xf32>)
// BR: fuse.group single (%{{.*}} = %0#0 : tensor<1x6x6x4xf32>, %{{.*}} = %0#2 : tensor<1x6x6x12xf32>) -> tensor<1x6x6x12xf32>
// BR: fuse.group single (%{{.*}} = %0#1 : tensor<1x6x6x4xf32>, %{{.*}} = %1 : tensor<1x6x6x12xf32>) -> tensor<1x6x6x12xf32>
// BR: fuse.group single (%{{.*}} = %2 : tensor<1x6x6x12xf32>) -> tensor<1x12x6x6xf32>
// BR-NOT: fuse.group
// BR: return
func.func @branches(%x: tensor<1x8x6x6xf32>) -> tensor<1x12x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %w0 = arith.constant dense<[[[[0.250191]], [[0.794428]], [[0.551371]], [[-0.549586]], [[-0.399667]], [[0.747107]], [[-0.989469]], [[0.642457]]], [[[0.594139]], [[-0.0641301]], [[-0.393935]], [[-0.443149]], [[-0.490261]], [[-0.109847]], [[0.00909652]], [[0.106995]]], [[[0.991001]], [[0.585324]], [[0.244358]], [[0.97792]], [[-0.569383]], [[-0.679576]], [[0.225079]], [[-0.912116]]], [[[-0.928639]], [[0.0297776]], [[-0.0675879]], [[0.834336]], [[0.258453]], [[0.0282353]], [[-0.00625313]], [[-0.50497]]]]> : tensor<4x8x1x1xf32>
  %b0 = arith.constant dense<[-0.976412, -0.615196, 0.384064, -0.598787]> : tensor<4xf32>
  %bias0 = linalg.generic {indexing_maps = [#chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b0 : tensor<4xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x6x6xf32>
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w0 : tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) outs(%bias0 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %r0 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0 : tensor<1x4x6x6xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  %w1 = arith.constant dense<[[[[-0.260927]], [[-0.992532]], [[0.660095]], [[-0.691078]], [[-0.464801]], [[0.760664]], [[0.0195816]], [[0.6943]]], [[[0.279434]], [[0.483542]], [[-0.817009]], [[0.0822876]], [[0.0155445]], [[0.742679]], [[-0.277472]], [[0.196368]]], [[[-0.881497]], [[-0.224736]], [[-0.353927]], [[-0.699601]], [[0.632676]], [[-0.241108]], [[0.957496]], [[0.179983]]], [[[0.210113]], [[0.275993]], [[0.3529]], [[-0.698424]], [[-0.119373]], [[-0.520872]], [[-0.195003]], [[-0.806592]]]]> : tensor<4x8x1x1xf32>
  %b1 = arith.constant dense<[0.935656, -0.569992, 0.34353, -0.39916]> : tensor<4xf32>
  %bias1 = linalg.generic {indexing_maps = [#chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b1 : tensor<4xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x6x6xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) outs(%bias1 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %r1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1 : tensor<1x4x6x6xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  %w2 = arith.constant dense<[[[[0.748154]], [[0.324429]], [[-0.736768]], [[0.690149]], [[0.889896]], [[0.807834]], [[0.139438]], [[-0.70908]]], [[[-0.615073]], [[0.855811]], [[0.104653]], [[-0.638895]], [[0.768114]], [[0.283143]], [[0.139389]], [[-0.247424]]], [[[-0.178089]], [[-0.521022]], [[-0.923885]], [[0.752438]], [[-0.0645396]], [[0.0952704]], [[-0.355673]], [[0.50265]]], [[[-0.949606]], [[-0.255629]], [[-0.939299]], [[-0.754216]], [[0.934296]], [[0.315521]], [[-0.14356]], [[0.0474802]]]]> : tensor<4x8x1x1xf32>
  %b2 = arith.constant dense<[0.745618, -0.311579, 0.180582, 0.367369]> : tensor<4xf32>
  %bias2 = linalg.generic {indexing_maps = [#chan, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b2 : tensor<4xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x6x6xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w2 : tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) outs(%bias2 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %r2 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2 : tensor<1x4x6x6xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  %y = tensor.concat dim(1) %r0, %r1, %r2 : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x12x6x6xf32>
  return %y : tensor<1x12x6x6xf32>
}

// RA-LABEL: func.func @reassembled
// RA: fuse.group vertical rule "transpose_prologue" (%{{.*}} = %arg0 : tensor<1x8x6x6xf32>, %{{.*}} = %cst : tensor<12x1x1x8xf32>) -> tensor<1x6x6x12xf32>
// RA: fuse.group single (%{{.*}} = %0 : tensor<1x6x6x12xf32>) -> tensor<1x12x6x6xf32>
// RA-NOT: fuse.group
// RA: return
func.func @reassembled(%x: tensor<1x8x6x6xf32>) -> tensor<1x12x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %w0 = arith.constant dense<[[[[0.250191]], [[0.794428]], [[0.551371]], [[-0.549586]], [[-0.399667]], [[0.747107]], [[-0.989469]], [[0.642457]]], [[[0.594139]], [[-0.0641301]], [[-0.393935]], [[-0.443149]], [[-0.490261]], [[-0.109847]], [[0.00909652]], [[0.106995]]], [[[0.991001]], [[0.585324]], [[0.244358]], [[0.97792]], [[-0.569383]], [[-0.679576]], [[0.225079]], [[-0.912116]]], [[[-0.928639]], [[0.0297776]], [[-0.0675879]], [[0.834336]], [[0.258453]], [[0.0282353]], [[-0.00625313]], [[-0.50497]]]]> : tensor<4x8x1x1xf32>
  %r0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w0 : tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) outs(%f : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %w1 = arith.constant dense<[[[[-0.260927]], [[-0.992532]], [[0.660095]], [[-0.691078]], [[-0.464801]], [[0.760664]], [[0.0195816]], [[0.6943]]], [[[0.279434]], [[0.483542]], [[-0.817009]], [[0.0822876]], [[0.0155445]], [[0.742679]], [[-0.277472]], [[0.196368]]], [[[-0.881497]], [[-0.224736]], [[-0.353927]], [[-0.699601]], [[0.632676]], [[-0.241108]], [[0.957496]], [[0.179983]]], [[[0.210113]], [[0.275993]], [[0.3529]], [[-0.698424]], [[-0.119373]], [[-0.520872]], [[-0.195003]], [[-0.806592]]]]> : tensor<4x8x1x1xf32>
  %r1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) outs(%f : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %w2 = arith.constant dense<[[[[0.748154]], [[0.324429]], [[-0.736768]], [[0.690149]], [[0.889896]], [[0.807834]], [[0.139438]], [[-0.70908]]], [[[-0.615073]], [[0.855811]], [[0.104653]], [[-0.638895]], [[0.768114]], [[0.283143]], [[0.139389]], [[-0.247424]]], [[[-0.178089]], [[-0.521022]], [[-0.923885]], [[0.752438]], [[-0.0645396]], [[0.0952704]], [[-0.355673]], [[0.50265]]], [[[-0.949606]], [[-0.255629]], [[-0.939299]], [[-0.754216]], [[0.934296]], [[0.315521]], [[-0.14356]], [[0.0474802]]]]> : tensor<4x8x1x1xf32>
  %r2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w2 : tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) outs(%f : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %y = tensor.concat dim(1) %r0, %r1, %r2 : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x12x6x6xf32>
  return %y : tensor<1x12x6x6xf32>
}
