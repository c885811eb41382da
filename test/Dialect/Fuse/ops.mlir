// RUN: fuse-opt %s | FileCheck %s
// Round trip: the printed form parses back to the same IR.
// RUN: fuse-opt %s | fuse-opt | FileCheck %s
// RUN: fuse-opt %s --mlir-print-op-generic | fuse-opt | FileCheck %s

// CHECK-LABEL: func @vertical
// CHECK-SAME: (%[[X:.*]]: tensor<16x32xf32>, %[[W:.*]]: tensor<32x64xf32>)
func.func @vertical(%x: tensor<16x32xf32>, %w: tensor<32x64xf32>) -> tensor<16x64xf32> {
  // CHECK: %[[R:.*]] = fuse.group vertical rule "matmul_relu" (%[[A:.*]] = %[[X]] : tensor<16x32xf32>, %[[B:.*]] = %[[W]] : tensor<32x64xf32>) -> tensor<16x64xf32> {
  %r = fuse.group vertical rule "matmul_relu" (%a = %x : tensor<16x32xf32>, %b = %w : tensor<32x64xf32>) -> tensor<16x64xf32> {
    // CHECK: %[[E:.*]] = tensor.empty() : tensor<16x64xf32>
    %e = tensor.empty() : tensor<16x64xf32>
    // CHECK: %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[E]] : {{.*}})
    %m = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
    %zero = arith.constant dense<0.0> : tensor<16x64xf32>
    // CHECK: %[[Y:.*]] = arith.maximumf %[[M]]
    %y = arith.maximumf %m, %zero : tensor<16x64xf32>
    // CHECK: fuse.yield %[[Y]] : tensor<16x64xf32>
    fuse.yield %y : tensor<16x64xf32>
  }
  // CHECK: return %[[R]]
  return %r : tensor<16x64xf32>
}

// A single op, no rule, several results and extra attributes.
// CHECK-LABEL: func @single_multi_result
func.func @single_multi_result(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK: %{{.*}}:2 = fuse.group single (%{{.*}} = %{{.*}} : tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {note = "kept"} {
  %r:2 = fuse.group single (%a = %x : tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {note = "kept"} {
    %y = arith.negf %a : tensor<8xf32>
    fuse.yield %y, %a : tensor<8xf32>, tensor<8xf32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}

// Every kind parses and prints; groups may take no inputs and return nothing.
// CHECK-LABEL: func @kinds
func.func @kinds(%x: tensor<4xf32>) {
  // CHECK: fuse.group horizontal (
  %h:2 = fuse.group horizontal (%a = %x : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %p = arith.negf %a : tensor<4xf32>
    %q = math.exp %a : tensor<4xf32>
    fuse.yield %p, %q : tensor<4xf32>, tensor<4xf32>
  }
  // CHECK: fuse.group diagonal (
  %d = fuse.group diagonal (%a = %h#0 : tensor<4xf32>, %b = %h#1 : tensor<4xf32>) -> tensor<4xf32> {
    %p = arith.addf %a, %b : tensor<4xf32>
    %q = math.exp %p : tensor<4xf32>
    fuse.yield %q : tensor<4xf32>
  }
  // CHECK: fuse.group composite (
  %c = fuse.group composite (%a = %d : tensor<4xf32>) -> tensor<4xf32> {
    %p = math.exp %a : tensor<4xf32>
    %q = arith.mulf %p, %a : tensor<4xf32>
    fuse.yield %q : tensor<4xf32>
  }
  // CHECK: fuse.group single () {
  // CHECK-NEXT: arith.constant
  // CHECK-NEXT: fuse.yield
  // CHECK-NEXT: }
  fuse.group single () {
    %cst = arith.constant 1.0 : f32
    fuse.yield
  }
  return
}

// The enum attributes on their own.
// CHECK-LABEL: func @enum_attrs
// CHECK-SAME: category = #fuse.category<contraction>
// CHECK-SAME: kind = #fuse.kind<vertical>
func.func @enum_attrs() attributes {kind = #fuse.kind<vertical>, category = #fuse.category<contraction>} {
  return
}

// A group's tile loop carries #fuse.tile mappings (fuse-lower-groups).
// CHECK-LABEL: func @tile_mapping
// CHECK: scf.forall
// CHECK: } {mapping = [#fuse.tile<0>, #fuse.tile<1>]}
func.func @tile_mapping(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = scf.forall (%i, %j) in (2, 2) shared_outs(%o = %x) -> (tensor<8x8xf32>) {
    scf.forall.in_parallel {
    }
  } {mapping = [#fuse.tile<0>, #fuse.tile<1>]}
  return %r : tensor<8x8xf32>
}

// The lowering config's optional fields, in any order; printed stages
// first, absent where they are the default.
// CHECK-LABEL: func private @config_plain
// CHECK-SAME: c = #fuse.lowering_config<schedule = "contraction", tile = [64, 32], threads = 128, instruction = "mma_sync", precision = "fp32">
func.func private @config_plain() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [64, 32], threads = 128, instruction = "mma_sync", precision = "fp32">}
// CHECK-LABEL: func private @config_split
// CHECK-SAME: c = #fuse.lowering_config<schedule = "convolution", tile = [1, 7, 7, 32], threads = 64, instruction = "mma_sync", precision = "tf32", stages = 3, split_k = 4>
func.func private @config_split() attributes {c = #fuse.lowering_config<schedule = "convolution", tile = [1, 7, 7, 32], threads = 64, instruction = "mma_sync", precision = "tf32", split_k = 4, stages = 3>}
// CHECK-LABEL: func private @config_split_only
// CHECK-SAME: c = #fuse.lowering_config<schedule = "contraction", tile = [16, 0], threads = 32, instruction = "mma_sync", precision = "fp32", split_k = 2>
func.func private @config_split_only() attributes {c = #fuse.lowering_config<schedule = "contraction", tile = [16, 0], threads = 32, instruction = "mma_sync", precision = "fp32", split_k = 2>}
// The attention schedule runs both of its products on tensor cores.
// CHECK-LABEL: func private @config_attention
// CHECK-SAME: c = #fuse.lowering_config<schedule = "attention", tile = [1, 8, 1, 0], threads = 64, instruction = "mma_sync", precision = "fp32">
func.func private @config_attention() attributes {c = #fuse.lowering_config<schedule = "attention", tile = [1, 8, 1, 0], threads = 64, instruction = "mma_sync", precision = "fp32">}
