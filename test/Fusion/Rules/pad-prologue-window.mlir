// pad_prologue's window check: a pad joins its consumer only where the
// padded input window of one output point (each dimension's span over the
// whole reduction loops) fits the target's shared memory per block, since
// the kernel keeps the pad's tile in a shared buffer (a larger one would be
// a device-side malloc, which fuse-to-nvptx refuses).
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s -split-input-file --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED
// Both compile for the GPU, and run the same fused and unfused (also through
// the emulated GPU schedule; @dilated_window's outputs are 800-term sums
// of magnitude up to 12, added in different orders: absolute tolerance
// 2e-5, 2e-6 of that).
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 | fuse-opt --fuse-to-nvptx=target=h200 -o /dev/null
// RUN: %check_equivalence %s --function dilated_window --atol 2e-5 | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function dilated_window --atol 2e-5 --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function small_window --lower-groups --distribute-threads config | FileCheck %s --check-prefix=EQUIV
// EQUIV: PASS

// A dilated 5x5 convolution (rate 12 on a 16x16 map) over 32 channels: one
// output point's window is 49x49x32 floats (300 KiB), more than an H200
// block's 227 KiB, so the pad stays a kernel of its own and the
// convolution reads the padded tensor from global memory.
// CHECK-LABEL: func @dilated_window
// CHECK: fuse.group single
// CHECK-NEXT: arith.constant
// CHECK-NEXT: tensor.pad
// CHECK: fuse.group single
// CHECK-NOT: tensor.pad
// CHECK: linalg.conv_2d_nhwc_fhwc
// MISSED: remark: [Missed] refused | Category:fuse:memory | Function=dilated_window | Reason="the padded input window of one output point of 'linalg.conv_2d_nhwc_fhwc@{{.*}}' takes 307328 B, more than shared memory per block (232448 B on target 'h200'): the pad is kept a kernel of its own", {{.*}}check=memory, rule=pad_prologue{{$}}
// MISSED-NOT: [Missed] refused
func.func @dilated_window(%arg0: tensor<1x16x16x32xf32>, %w: tensor<16x5x5x32xf32>) -> tensor<1x16x16x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %arg0 low[0, 24, 24, 0] high[0, 24, 24, 0] {
  ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
    tensor.yield %cst : f32
  } : tensor<1x16x16x32xf32> to tensor<1x64x64x32xf32>
  %0 = tensor.empty() : tensor<1x16x16x16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %2 = linalg.conv_2d_nhwc_fhwc {dilations = dense<12> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %w : tensor<1x64x64x32xf32>, tensor<16x5x5x32xf32>) outs(%1 : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  return %2 : tensor<1x16x16x16xf32>
}

// -----

// A 3x3 convolution with dilation 2: a 5x5x32 window (3200 B) fits, and
// the pad joins.
// CHECK-LABEL: func @small_window
// CHECK: fuse.group vertical rule "pad_prologue"
// CHECK: tensor.pad
// CHECK: linalg.conv_2d_nhwc_fhwc
// CHECK-NOT: fuse.group
func.func @small_window(%arg0: tensor<1x16x16x32xf32>, %w: tensor<16x3x3x32xf32>) -> tensor<1x16x16x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %arg0 low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
    tensor.yield %cst : f32
  } : tensor<1x16x16x32xf32> to tensor<1x20x20x32xf32>
  %0 = tensor.empty() : tensor<1x16x16x16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %2 = linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%padded, %w : tensor<1x20x20x32xf32>, tensor<16x3x3x32xf32>) outs(%1 : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  return %2 : tensor<1x16x16x16xf32>
}
