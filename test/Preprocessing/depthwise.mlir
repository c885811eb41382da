// A depthwise convolution with channel multiplier 1 (MobileNet's) lowers
// from TOSA to linalg.depthwise_conv_2d_nhwc_hwcm and a collapse of its
// [N, H, W, C, 1] result. fuse-prune makes it depthwise_conv_2d_nhwc_hwc
// on the collapsed filter and init, so that no reshape stands between the
// convolution and its bias and activation: they fuse into its kernel
// (contraction_epilogue) instead of a kernel of their own.
// RUN: fuse-opt %s -split-input-file --fuse-prune | FileCheck %s --check-prefix=PRUNE
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline="report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: fuse-opt %s -split-input-file --fuse-fusion-pipeline | FileCheck %s --check-prefix=FUSED
// Fused and unfused agree, also tiled and spread over emulated threads.
// RUN: %check_equivalence %s --function dw_block | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function dw_block --lower-groups --distribute-threads 128 | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function dw_block_strided --lower-groups --distribute-threads 100 | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function dw_block_f16 | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --function dw_block_f16 --lower-groups --distribute-threads 128 | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

// PRUNE-LABEL: func @multiplier_one
// PRUNE-DAG: %[[F:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<3x3x4x1xf32> into tensor<3x3x4xf32>
// PRUNE-DAG: %[[I:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2], [3, 4]] : tensor<1x6x6x4x1xf32> into tensor<1x6x6x4xf32>
// PRUNE: %[[C:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %[[F]] : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>) outs(%[[I]] : tensor<1x6x6x4xf32>)
// PRUNE-NOT: hwcm
// PRUNE: return %[[C]]
func.func @multiplier_one(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x1xf32>, %init: tensor<1x6x6x4x1xf32>) -> tensor<1x6x6x4xf32> {
  %c = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4x1xf32>) outs(%init : tensor<1x6x6x4x1xf32>) -> tensor<1x6x6x4x1xf32>
  %r = tensor.collapse_shape %c [[0], [1], [2], [3, 4]] : tensor<1x6x6x4x1xf32> into tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}

// -----

// A 16-bit model's convolution sums in f32 and converts its result back
// before the collapse: the conversion moves onto the collapsed result.
// PRUNE-LABEL: func @multiplier_one_converted
// PRUNE: %[[C:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x8x4xf16>, tensor<3x3x4xf16>) outs(%{{.*}} : tensor<1x6x6x4xf32>)
// PRUNE: %[[T:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<1x6x6x4xf32>) outs(%{{.*}} : tensor<1x6x6x4xf16>)
// PRUNE: arith.truncf
// PRUNE-NOT: hwcm
// PRUNE: return %[[T]]
func.func @multiplier_one_converted(%x: tensor<1x8x8x4xf16>, %w: tensor<3x3x4x1xf16>, %init: tensor<1x6x6x4x1xf32>) -> tensor<1x6x6x4xf16> {
  %c = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x8x8x4xf16>, tensor<3x3x4x1xf16>) outs(%init : tensor<1x6x6x4x1xf32>) -> tensor<1x6x6x4x1xf32>
  %e = tensor.empty() : tensor<1x6x6x4x1xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x6x6x4x1xf32>) outs(%e : tensor<1x6x6x4x1xf16>) {
  ^bb0(%in: f32, %out: f16):
    %r = arith.truncf %in : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1x6x6x4x1xf16>
  %r = tensor.collapse_shape %t [[0], [1], [2], [3, 4]] : tensor<1x6x6x4x1xf16> into tensor<1x6x6x4xf16>
  return %r : tensor<1x6x6x4xf16>
}

// -----

// A multiplier of 2 has no hwc form: unchanged.
// PRUNE-LABEL: func @multiplier_two
// PRUNE: linalg.depthwise_conv_2d_nhwc_hwcm
// PRUNE: tensor.collapse_shape
func.func @multiplier_two(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x2xf32>, %init: tensor<1x6x6x4x2xf32>) -> tensor<1x6x6x8xf32> {
  %c = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>) outs(%init : tensor<1x6x6x4x2xf32>) -> tensor<1x6x6x4x2xf32>
  %r = tensor.collapse_shape %c [[0], [1], [2], [3, 4]] : tensor<1x6x6x4x2xf32> into tensor<1x6x6x8xf32>
  return %r : tensor<1x6x6x8xf32>
}

// -----

// The five-dimensional result is also used as it is: unchanged.
// PRUNE-LABEL: func @other_use
// PRUNE: linalg.depthwise_conv_2d_nhwc_hwcm
func.func @other_use(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x1xf32>, %init: tensor<1x6x6x4x1xf32>) -> (tensor<1x6x6x4xf32>, tensor<1x6x6x4x1xf32>) {
  %c = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x8x8x4xf32>, tensor<3x3x4x1xf32>) outs(%init : tensor<1x6x6x4x1xf32>) -> tensor<1x6x6x4x1xf32>
  %r = tensor.collapse_shape %c [[0], [1], [2], [3, 4]] : tensor<1x6x6x4x1xf32> into tensor<1x6x6x4xf32>
  return %r, %c : tensor<1x6x6x4xf32>, tensor<1x6x6x4x1xf32>
}

// -----

// A MobileNet block: depthwise 3x3 (padded) + bias + ReLU6 is one kernel.
// FUSED-LABEL: func @dw_block
// FUSED: fuse.group vertical rule "contraction_epilogue"
// FUSED: tensor.pad
// FUSED: linalg.depthwise_conv_2d_nhwc_hwc
// FUSED: arith.minimumf
// FUSED: fuse.yield
// FUSED-NOT: fuse.group
// REPORT: "name": "dw_block"
// REPORT: "kernels_after": 1
func.func @dw_block(%x: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<"0x2F6534BEE6C3B2BE918E1A3EA2E9DABE02F9123DD88809BEF74DE2BE73A7F33B5ECDECBEC6E487BDE93BDCBE108ED1BEAF959ABD2959A73E089DC0BE9FB38DBEDB7D023E1B3AE53E27E89D3D3099D3BDB6D7F33E5126E8BE2E89B73EAA7057BE3324B6BEBCB0C3BE571D44BE50DBA13ED577A3BEFD1DA73D553F0E3E38AA02BEB38F433D20DADFBEF57BE1BE948C96BEC5BA383E7C4A94BD34503EBE0F3BAF3DBDC13FBDE1094DBEE8B8963E32C54B3EC80583BE756B983DE668CE3C0612C03EB5F36A3ED82659BE7AD9F53EE28CC3BE39AFA7BDFAA7833E152FB2BE1DD434BC07EDEBBEC7402C3ED575873EA08E953DA13EC03EF9B83EBE82FB473EFE44C13D19A0A33D0A6233BD4210AE3E3EADE33EB92FD4BC8417283EF0EFE0BEED534E3EF2A8163E1277FC3E53D3A43EFD925CBE2DE6E9BD4CB32C3EA272F4BE67E51CBD90F5A9BE050CC4BEBAD0E1BED655893E1EC7BDBEA13881BEC355DFBD052BBE3E0CBED6BEDF2050BD81814A3DE34AC43EA678A33E2C5CBA3E97E562BE0579ADBD4B9E10BEECB4C43EBF5BEA3E7FBAB2BECAC6A5BEF33C89BE2C8888BEE15E76BC6286B63D8DF272BE71E7FDBE60FFA5BD64E205BEE8DD873D74FCE73EC510433EC8CF7D3C78D4F03DCB6D343E0B5BE4BE978FCC3E29588F3E31C0BF3ED382983E7368DCBD30E4CEBD30FDCABE3483093E0E21E0BE9D84DDBEFE1C95BE99E6ACBEFAC823BECF14E5BE6CE1FFBE678DB2BEDD0CCCBED7A90BBE8CF1F2BE7EA8BF3E009DE93D31F1B3BE25B07DBEEA451CBEBD180BBED31AC1BEDCA7B23EF677FC3E"> : tensor<3x3x16x1xf32>}> : () -> tensor<3x3x16x1xf32>
  %b = "tosa.const"() <{values = dense<[0.1, -0.2, 0.3, -0.05, 0.0, 0.2, -0.1, 0.15, 0.05, -0.3, 0.25, 0.0, -0.15, 0.1, 0.2, -0.25]> : tensor<16xf32>}> : () -> tensor<16xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<3x3x16x1xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

// Stride 2 (MobileNet's downsampling blocks), asymmetric padding.
// FUSED-LABEL: func @dw_block_strided
// FUSED: fuse.group vertical rule "contraction_epilogue"
// FUSED: linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// FUSED-NOT: fuse.group
func.func @dw_block_strided(%x: tensor<1x8x8x8xf32>) -> tensor<1x4x4x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %w = "tosa.const"() <{values = dense<"0xA34E0BBD2F6D84BCED06D4BE11AECBBE122421BE92E370BEBB5FA83EEB57ADBECC2CF4BE95E7E63E0D7CE73C83F0B4BE92D5303D7D27F2BEC545E63C1DFEF43EBD05BA3ECFE7483E389E74BEDA7F08BE7779AABE723B8B3E9B7F053D48E08E3E4D6C2EBE7BCD8DBE677E9F3E3A48F83EC38BB43E55B69C3E89FCA23E46A1753ECDE88BBE167F903C6AE713BE8429F1BE3BB2F1BE1BE061BEFF9A76BE7924453E58BCE93ECA2758BD3EC1DF3E20E0F93ED8F5E83EE49C0ABE901F8FBEDDDA8BBE54499BBE605C97BE8616FE3D37F5CC3E914DAE3E5827A8BC47A61C3EE86A993EEA97D4BE9170243E4FCED13E018A903E6912803EACF4B3BCCD98A4BE8F09943E9C802BBE8C059A3E107DF13EA152D5BDB5F5C9BD94C2E43E9F31663E48F5A8BE"> : tensor<3x3x8x1xf32>}> : () -> tensor<3x3x8x1xf32>
  %b = "tosa.const"() <{values = dense<[0.1, -0.2, 0.3, -0.05, 0.0, 0.2, -0.1, 0.15]> : tensor<8xf32>}> : () -> tensor<8xf32>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x8x8x8xf32>, tensor<3x3x8x1xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x8xf32>
  %r = tosa.clamp %c {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %r : tensor<1x4x4x8xf32>
}

// -----

// The same block in f16 (f32 sums): still one kernel.
// FUSED-LABEL: func @dw_block_f16
// FUSED: fuse.group vertical rule "contraction_epilogue"
// FUSED: linalg.depthwise_conv_2d_nhwc_hwc
// FUSED: arith.truncf
// FUSED: arith.minimumf
// FUSED-NOT: fuse.group
func.func @dw_block_f16(%x: tensor<1x8x8x16xf16>) -> tensor<1x8x8x16xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %w = "tosa.const"() <{values = dense<0.125> : tensor<3x3x16x1xf16>}> : () -> tensor<3x3x16x1xf16>
  %b = "tosa.const"() <{values = dense<[0.1, -0.2, 0.3, -0.05, 0.0, 0.2, -0.1, 0.15, 0.05, -0.3, 0.25, 0.0, -0.15, 0.1, 0.2, -0.25]> : tensor<16xf16>}> : () -> tensor<16xf16>
  %c = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x16xf16>, tensor<3x3x16x1xf16>, tensor<16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x8x16xf16>
  %r = tosa.clamp %c {min_val = 0.0 : f16, max_val = 6.0 : f16} : (tensor<1x8x8x16xf16>) -> tensor<1x8x8x16xf16>
  return %r : tensor<1x8x8x16xf16>
}
