// fuse-relayout-weights: a convolution with a constant FHWC filter becomes
// the HWCF convolution with the filter permuted at compile time, so that
// the threads of a kernel (one output channel each) read neighbouring
// filter elements.
// RUN: fuse-opt %s -split-input-file --fuse-relayout-weights | FileCheck %s
// A group on tensor cores keeps its FHWC filter (its B fragments load by
// ldmatrix along K): by its config, or every group with tensor-cores=always;
// tensor-cores=never re-lays out every one.
// RUN: fuse-opt %s -split-input-file --fuse-relayout-weights=tensor-cores=always | FileCheck %s --check-prefix=ALWAYS
// RUN: fuse-opt %s -split-input-file --fuse-relayout-weights=tensor-cores=never | FileCheck %s --check-prefix=NEVER
// RUN: not fuse-opt %s -split-input-file --fuse-relayout-weights=tensor-cores=sometimes 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: fuse-relayout-weights: option 'tensor-cores' must be keep, always or never, got 'sometimes'
// Fused, re-laid out, tiled and spread over threads: same results as the
// unfused model, on a model with real (random) weights in resource blobs.
// RUN: fuse-translate --import-onnx %fuse_src_root/test/Models/onnx/yolo_tiny.onnx -o %t.yolo.mlir
// RUN: %check_equivalence %t.yolo.mlir --relayout-weights --lower-groups --distribute-threads 128 | FileCheck %s --check-prefix=EQUIV
// In fuse-to-nvptx (on by default), and the report lists each re-layout.
// RUN: fuse-opt %fuse_src_root/test/Models/resnet-bottleneck.mlir --fuse-fusion-pipeline="report=%t.json" -o %t.fused.mlir
// Two of its three convolution groups run on tensor cores (the fusion's
// configs) and keep their filters by default; the SIMT one (group 2) is
// re-laid out; with tensor-cores=never all three are.
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx | FileCheck %s --check-prefix=KEEP
// KEEP: llvm.func @resnet_bottleneck({{.*}}fuse.relayouts = [{bytes = 4096 : i64, from = "FHWC", group = 2 : i64, op = "linalg.conv_2d_nhwc_fhwc@{{[^"]*}}", to = "HWCF"}]
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="tensor-cores=always" | FileCheck %s --check-prefix=OFF
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="tensor-cores=never" | FileCheck %s --check-prefix=PIPE
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="tensor-cores=never relayout-weights=false" | FileCheck %s --check-prefix=OFF
// RUN: fuse-opt %t.fused.mlir --fuse-to-nvptx="tensor-cores=never" -o %t.kernels.mlir
// RUN: %ptx_stats %t.kernels.mlir --out %t.ptx --report %t.json | FileCheck %s --check-prefix=STATS
// RUN: %python -c "import json; print(json.load(open('%t.json'))['relayouts'])" | FileCheck %s --check-prefix=REPORT
// STATS: 3 weight re-layout(s), {{[0-9]+}} bytes: linalg.conv_2d_nhwc_fhwc@
// REPORT: [{'function': 'resnet_bottleneck', 'op': 'linalg.conv_2d_nhwc_fhwc@{{.*}}', 'from': 'FHWC', 'to': 'HWCF', 'bytes': 20480, 'group': 0}
// EQUIV: filters re-laid out
// EQUIV-NOT: FAIL
// EQUIV: PASS
// PIPE: llvm.func @resnet_bottleneck({{.*}}fuse.relayouts = [{bytes = 20480 : i64, from = "FHWC", group = 0 : i64, op = "linalg.conv_2d_nhwc_fhwc@
// OFF-NOT: fuse.relayouts

// CHECK-LABEL: func @grouped
// ALWAYS-LABEL: func @grouped
// ALWAYS-NOT: fuse.relayouts
// ALWAYS: linalg.conv_2d_nhwc_fhwc
// NEVER-LABEL: func @grouped
// NEVER: linalg.conv_2d_nhwc_hwcf
// CHECK-SAME: fuse.relayouts = [{bytes = 432 : i64, from = "FHWC", group = 7 : i64, op = "linalg.conv_2d_nhwc_fhwc@relayout-weights.mlir:{{[0-9]+}}:10", to = "HWCF"}]
// The filter [4, 3, 3, 3] as [3, 3, 3, 4]: element (f, y, x, c) moves to
// (y, x, c, f). Filter values 0..107 in FHWC order: HWCF starts with
// f = 0..3 at y = x = c = 0, that is 0, 27, 54, 81, then c = 1: 1, 28 (the
// constant prints as little-endian f32 hex: 0x00000000, 0x41D80000, ...).
// CHECK: %[[W:.*]] = arith.constant dense<"0x000000000000D841000058420000A2420000803F0000E041
// CHECK-SAME: tensor<3x3x3x4xf32>
// CHECK: fuse.group single ({{.*}}%[[F:.*]] = %[[W]] : tensor<3x3x3x4xf32>)
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.*}}, %[[F]] : tensor<1x9x9x3xf32>, tensor<3x3x3x4xf32>)
// CHECK-NOT: conv_2d_nhwc_fhwc
func.func @grouped(%x: tensor<1x9x9x3xf32>) -> tensor<1x4x4x4xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]], [[9.0, 10.0, 11.0], [12.0, 13.0, 14.0], [15.0, 16.0, 17.0]], [[18.0, 19.0, 20.0], [21.0, 22.0, 23.0], [24.0, 25.0, 26.0]]], [[[27.0, 28.0, 29.0], [30.0, 31.0, 32.0], [33.0, 34.0, 35.0]], [[36.0, 37.0, 38.0], [39.0, 40.0, 41.0], [42.0, 43.0, 44.0]], [[45.0, 46.0, 47.0], [48.0, 49.0, 50.0], [51.0, 52.0, 53.0]]], [[[54.0, 55.0, 56.0], [57.0, 58.0, 59.0], [60.0, 61.0, 62.0]], [[63.0, 64.0, 65.0], [66.0, 67.0, 68.0], [69.0, 70.0, 71.0]], [[72.0, 73.0, 74.0], [75.0, 76.0, 77.0], [78.0, 79.0, 80.0]]], [[[81.0, 82.0, 83.0], [84.0, 85.0, 86.0], [87.0, 88.0, 89.0]], [[90.0, 91.0, 92.0], [93.0, 94.0, 95.0], [96.0, 97.0, 98.0]], [[99.0, 100.0, 101.0], [102.0, 103.0, 104.0], [105.0, 106.0, 107.0]]]]> : tensor<4x3x3x3xf32>
  %r = fuse.group single (%a = %x : tensor<1x9x9x3xf32>, %f = %w : tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> attributes {fuse.id = 7 : i64} {
    %e = tensor.empty() : tensor<1x4x4x4xf32>
    %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%a, %f : tensor<1x9x9x3xf32>, tensor<4x3x3x3xf32>) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    fuse.yield %c : tensor<1x4x4x4xf32>
  }
  return %r : tensor<1x4x4x4xf32>
}

// -----

// A filter that is an argument, or a constant with two users, stays.
// CHECK-LABEL: func @kept
// CHECK-NOT: fuse.relayouts
// CHECK-COUNT-3: linalg.conv_2d_nhwc_fhwc
func.func @kept(%x: tensor<1x4x4x3xf32>, %w: tensor<2x1x1x3xf32>) -> (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) {
  %k = arith.constant dense<0.5> : tensor<2x1x1x3xf32>
  %e = tensor.empty() : tensor<1x4x4x2xf32>
  %a = linalg.conv_2d_nhwc_fhwc ins(%x, %w : tensor<1x4x4x3xf32>, tensor<2x1x1x3xf32>) outs(%e : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %b = linalg.conv_2d_nhwc_fhwc ins(%x, %k : tensor<1x4x4x3xf32>, tensor<2x1x1x3xf32>) outs(%e : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %c = linalg.conv_2d_nhwc_fhwc ins(%x, %k : tensor<1x4x4x3xf32>, tensor<2x1x1x3xf32>) outs(%e : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %a, %b, %c : tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>
}

// -----

// A group whose config says mma_sync keeps its filter (tensor-cores=keep,
// the default); never re-lays it out.
// CHECK-LABEL: func @tensor_cores
// CHECK-NOT: fuse.relayouts
// CHECK: linalg.conv_2d_nhwc_fhwc
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// ALWAYS-LABEL: func @tensor_cores
// ALWAYS: linalg.conv_2d_nhwc_fhwc
// NEVER-LABEL: func @tensor_cores
// NEVER-SAME: fuse.relayouts
// NEVER: linalg.conv_2d_nhwc_hwcf
func.func @tensor_cores(%x: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %w = arith.constant dense<0.25> : tensor<16x1x1x16xf32>
  %r = fuse.group single (%a = %x : tensor<1x8x8x16xf32>, %f = %w : tensor<16x1x1x16xf32>) -> tensor<1x8x8x16xf32> attributes {fuse.id = 3 : i64, fuse.lowering_config = #fuse.lowering_config<schedule = "convolution", tile = [1, 8, 8, 16], threads = 128, instruction = "mma_sync", precision = "fp32">} {
    %e = tensor.empty() : tensor<1x8x8x16xf32>
    %c = linalg.conv_2d_nhwc_fhwc ins(%a, %f : tensor<1x8x8x16xf32>, tensor<16x1x1x16xf32>) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
    fuse.yield %c : tensor<1x8x8x16xf32>
  }
  return %r : tensor<1x8x8x16xf32>
}
