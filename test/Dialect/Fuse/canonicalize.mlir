// RUN: fuse-opt %s -canonicalize -split-input-file -allow-unregistered-dialect | FileCheck %s

// An unused result goes away, and with it the ops that only fed it.
// CHECK-LABEL: func @drop_unused_result
// CHECK: %[[R:.*]] = fuse.group vertical (%[[A:.*]] = %{{.*}} : tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[A]]
// CHECK-NEXT: %[[E:.*]] = math.exp %[[N]]
// CHECK-NEXT: fuse.yield %[[E]] : tensor<4xf32>
// CHECK: return %[[R]]
func.func @drop_unused_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = fuse.group vertical (%a = %x : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %n = arith.negf %a : tensor<4xf32>
    %e = math.exp %n : tensor<4xf32>
    %dead = math.sqrt %n : tensor<4xf32>
    fuse.yield %e, %dead : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0 : tensor<4xf32>
}

// -----

// A result that only forwards an input is replaced by that input.
// CHECK-LABEL: func @forwarded_input
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = fuse.group single (%{{.*}} = %[[X]] : tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[R]], %[[X]]
func.func @forwarded_input(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = fuse.group single (%a = %x : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %n = arith.negf %a : tensor<4xf32>
    fuse.yield %n, %a : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Two results yielding the same value become one.
// CHECK-LABEL: func @duplicate_results
// CHECK: %[[R:.*]] = fuse.group single (%{{.*}}) -> tensor<4xf32>
// CHECK: return %[[R]], %[[R]]
func.func @duplicate_results(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = fuse.group single (%a = %x : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %n = arith.negf %a : tensor<4xf32>
    fuse.yield %n, %n : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// The same value passed twice becomes one input; an unused input goes away.
// CHECK-LABEL: func @dedupe_and_drop_inputs
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK: fuse.group vertical (%[[A:.*]] = %[[X]] : tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[A]]
// CHECK-NEXT: math.exp %[[S]]
func.func @dedupe_and_drop_inputs(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r = fuse.group vertical (%a = %x : tensor<4xf32>, %b = %x : tensor<4xf32>, %c = %y : tensor<4xf32>) -> tensor<4xf32> {
    %s = arith.addf %a, %b : tensor<4xf32>
    %e = math.exp %s : tensor<4xf32>
    fuse.yield %e : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A group without compute ops is no kernel: its body is inlined.
// CHECK-LABEL: func @inline_group_without_compute
// CHECK-NOT: fuse.group
// CHECK: %[[C:.*]] = arith.constant dense<1.000000e+00>
// CHECK: return %[[C]]
func.func @inline_group_without_compute() -> tensor<4xf32> {
  %r = fuse.group single () -> tensor<4xf32> {
    %c = arith.constant dense<1.0> : tensor<4xf32>
    fuse.yield %c : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A group directly inside a group is merged into it.
// CHECK-LABEL: func @merge_nested
// CHECK: fuse.group vertical rule "outer" (%[[A:.*]] = %{{.*}} : tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[A]]
// CHECK-NEXT: %[[E:.*]] = math.exp %[[N]]
// CHECK-NEXT: %[[S:.*]] = math.sqrt %[[E]]
// CHECK-NEXT: fuse.yield %[[S]]
// CHECK-NOT: fuse.group
func.func @merge_nested(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = fuse.group vertical rule "outer" (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %n = arith.negf %a : tensor<4xf32>
    %inner = fuse.group vertical rule "inner" (%b = %n : tensor<4xf32>) -> tensor<4xf32> {
      %e = math.exp %b : tensor<4xf32>
      %s = math.sqrt %e : tensor<4xf32>
      fuse.yield %s : tensor<4xf32>
    }
    fuse.yield %inner : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Once a dead result took its op along, one compute op is left: the group is
// a single-op group again.
// CHECK-LABEL: func @demote_to_single
// CHECK: fuse.group single rule "pair" (
// CHECK-NEXT: arith.negf
// CHECK-NEXT: fuse.yield
func.func @demote_to_single(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = fuse.group horizontal rule "pair" (%a = %x : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %n = arith.negf %a : tensor<4xf32>
    %e = math.exp %a : tensor<4xf32>
    fuse.yield %n, %e : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0 : tensor<4xf32>
}

// -----

// Nothing to clean up: the group stays as it is.
// CHECK-LABEL: func @unchanged
// CHECK: %[[R:.*]]:2 = fuse.group horizontal (%{{.*}} = %{{.*}} : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @unchanged(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = fuse.group horizontal (%a = %x : tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %n = arith.negf %a : tensor<4xf32>
    %e = math.exp %a : tensor<4xf32>
    fuse.yield %n, %e : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Canonicalization never merges groups, not even an elementwise producer
// into its only user: merging is a decision under a target and its caps
// (fuse-form-groups, or the pattern sets of FusionPatterns.h).
// CHECK-LABEL: func @no_producer_merge
// CHECK-COUNT-2: fuse.group single
func.func @no_producer_merge(%x: tensor<4xf32>) -> tensor<4xf32> {
  %p = fuse.group single (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %n = arith.negf %a : tensor<4xf32>
    fuse.yield %n : tensor<4xf32>
  }
  %c = fuse.group single (%b = %p : tensor<4xf32>) -> tensor<4xf32> {
    %e = math.exp %b : tensor<4xf32>
    fuse.yield %e : tensor<4xf32>
  }
  return %c : tensor<4xf32>
}

// -----

// Not merged either: a producer whose result is also returned, shapes that
// differ, a producer that is not elementwise.
// CHECK-LABEL: func @keep_producers
// CHECK-COUNT-6: fuse.group single
func.func @keep_producers(%x: tensor<4xf32>, %y: tensor<4xf32>, %m: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %p = fuse.group single (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %n = arith.negf %a : tensor<4xf32>
    fuse.yield %n : tensor<4xf32>
  }
  %c = fuse.group single (%b = %p : tensor<4xf32>) -> tensor<4xf32> {
    %e = math.exp %b : tensor<4xf32>
    fuse.yield %e : tensor<4xf32>
  }
  %q = fuse.group single (%a = %y : tensor<4xf32>) -> tensor<4xf32> {
    %n = math.sqrt %a : tensor<4xf32>
    fuse.yield %n : tensor<4xf32>
  }
  %d = fuse.group single (%b = %q : tensor<4xf32>) -> tensor<4x4xf32> {
    %e = tensor.empty() : tensor<4x4xf32>
    %bc = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e : tensor<4x4xf32>) dimensions = [1]
    fuse.yield %bc : tensor<4x4xf32>
  }
  %mm = fuse.group single (%a = %m : tensor<4x8xf32>, %b = %w : tensor<8x4xf32>) -> tensor<4x4xf32> {
    %e = tensor.empty() : tensor<4x4xf32>
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    fuse.yield %r : tensor<4x4xf32>
  }
  %t = fuse.group single (%a = %mm : tensor<4x4xf32>) -> tensor<4x4xf32> {
    %r = math.tanh %a : tensor<4x4xf32>
    fuse.yield %r : tensor<4x4xf32>
  }
  return %p, %c, %d, %t : tensor<4xf32>, tensor<4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Nor two elementwise siblings on the same input.
// CHECK-LABEL: func @no_sibling_merge
// CHECK-COUNT-2: fuse.group single
func.func @no_sibling_merge(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = fuse.group single (%i = %x : tensor<4xf32>) -> tensor<4xf32> {
    %e = math.exp %i : tensor<4xf32>
    fuse.yield %e : tensor<4xf32>
  }
  %b = fuse.group single (%i = %x : tensor<4xf32>) -> tensor<4xf32> {
    %s = math.sqrt %i : tensor<4xf32>
    fuse.yield %s : tensor<4xf32>
  }
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// -----

// A sibling that needs a value computed after the first group stays apart.
// CHECK-LABEL: func @sibling_after_dependency
// CHECK-COUNT-2: fuse.group single
func.func @sibling_after_dependency(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = fuse.group single (%i = %x : tensor<4xf32>) -> tensor<4xf32> {
    %e = math.exp %i : tensor<4xf32>
    fuse.yield %e : tensor<4xf32>
  }
  %z = "test.opaque"(%y) : (tensor<4xf32>) -> tensor<4xf32>
  %b = fuse.group single (%i = %x : tensor<4xf32>, %j = %z : tensor<4xf32>) -> tensor<4xf32> {
    %s = arith.addf %i, %j : tensor<4xf32>
    fuse.yield %s : tensor<4xf32>
  }
  return %a, %b, %z : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
