// fuse-outline-groups: groups of one function that are the same kernel
// (GroupOp::isSameKernel: body, types, kind, rule and schedule; fuse.id and
// locations aside) call one function, named after the first, whose
// fuse.groups lists their ids. Anything that changes what a kernel computes
// keeps groups apart: a constant, an attribute of a body op, a type, the
// rule, the schedule, the use-def structure.
// RUN: fuse-opt %s --fuse-outline-groups --split-input-file | FileCheck %s
// RUN: fuse-opt %s --fuse-outline-groups=share-kernels=false --split-input-file | FileCheck %s --check-prefix=APART

#config = #fuse.lowering_config<schedule = "elementwise", tile = [32], threads = 32, instruction = "simt", precision = "fp32">

// CHECK-LABEL: func.func @same(
// CHECK: %[[A:.*]] = call @same__group0(%{{.*}}) : (tensor<64xf32>) -> tensor<64xf32>
// CHECK: %[[B:.*]] = call @same__group0(%[[A]]) : (tensor<64xf32>) -> tensor<64xf32>
// CHECK: %[[C:.*]] = call @same__group0(%[[B]]) : (tensor<64xf32>) -> tensor<64xf32>
// CHECK: return %[[C]]
// CHECK: func.func private @same__group0({{.*}}) -> tensor<64xf32> attributes {fuse.groups = array<i64: 0, 1, 7>, fuse.kind = "vertical"
// CHECK-NOT: func.func private @same__group
// APART-LABEL: func.func @same(
// APART: call @same__group0(
// APART: call @same__group1(
// APART: call @same__group7(
// APART-NOT: fuse.groups
func.func @same(%x: tensor<64xf32>) -> tensor<64xf32> {
  %0 = fuse.group vertical rule "elementwise_chain" (%a = %x : tensor<64xf32>) -> tensor<64xf32> attributes {fuse.id = 0 : i64, fuse.lowering_config = #config} {
    %c = arith.constant dense<2.0> : tensor<64xf32>
    %m = arith.mulf %a, %c : tensor<64xf32>
    %e = math.exp %m : tensor<64xf32>
    fuse.yield %e : tensor<64xf32>
  } loc("first")
  // The same kernel, from other ONNX nodes (other locations, value names).
  %1 = fuse.group vertical rule "elementwise_chain" (%b = %0 : tensor<64xf32>) -> tensor<64xf32> attributes {fuse.id = 1 : i64, fuse.lowering_config = #config} {
    %k = arith.constant dense<2.0> : tensor<64xf32> loc("Mul_7")
    %n = arith.mulf %b, %k : tensor<64xf32> loc("Mul_7")
    %f = math.exp %n : tensor<64xf32> loc("Exp_8")
    fuse.yield %f : tensor<64xf32>
  } loc("second")
  %2 = fuse.group vertical rule "elementwise_chain" (%b = %1 : tensor<64xf32>) -> tensor<64xf32> attributes {fuse.id = 7 : i64, fuse.lowering_config = #config} {
    %k = arith.constant dense<2.0> : tensor<64xf32>
    %n = arith.mulf %b, %k : tensor<64xf32>
    %f = math.exp %n : tensor<64xf32>
    fuse.yield %f : tensor<64xf32>
  }
  return %2 : tensor<64xf32>
}

// -----

#config = #fuse.lowering_config<schedule = "elementwise", tile = [32], threads = 32, instruction = "simt", precision = "fp32">
#other = #fuse.lowering_config<schedule = "elementwise", tile = [64], threads = 64, instruction = "simt", precision = "fp32">

// Each group differs from the first in one thing: seven functions.
// CHECK-LABEL: func.func @different(
// CHECK-COUNT-7: call @different__group{{[0-9]}}(
// CHECK-NOT: fuse.groups
// CHECK-DAG: func.func private @different__group0(
// CHECK-DAG: func.func private @different__group1(
// CHECK-DAG: func.func private @different__group2(
// CHECK-DAG: func.func private @different__group3(
// CHECK-DAG: func.func private @different__group4(
// CHECK-DAG: func.func private @different__group5(
// CHECK-DAG: func.func private @different__group6(
func.func @different(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %0 = fuse.group vertical rule "elementwise_chain" (%a = %x : tensor<64xf32>, %b = %y : tensor<64xf32>) -> tensor<64xf32> attributes {fuse.id = 0 : i64, fuse.lowering_config = #config} {
    %c = arith.constant dense<2.0> : tensor<64xf32>
    %m = arith.mulf %a, %c : tensor<64xf32>
    %s = arith.subf %m, %b : tensor<64xf32>
    fuse.yield %s : tensor<64xf32>
  }
  // Another constant.
  %1 = fuse.group vertical rule "elementwise_chain" (%a = %x : tensor<64xf32>, %b = %y : tensor<64xf32>) -> tensor<64xf32> attributes {fuse.id = 1 : i64, fuse.lowering_config = #config} {
    %c = arith.constant dense<3.0> : tensor<64xf32>
    %m = arith.mulf %a, %c : tensor<64xf32>
    %s = arith.subf %m, %b : tensor<64xf32>
    fuse.yield %s : tensor<64xf32>
  }
  // Another schedule.
  %2 = fuse.group vertical rule "elementwise_chain" (%a = %x : tensor<64xf32>, %b = %y : tensor<64xf32>) -> tensor<64xf32> attributes {fuse.id = 2 : i64, fuse.lowering_config = #other} {
    %c = arith.constant dense<2.0> : tensor<64xf32>
    %m = arith.mulf %a, %c : tensor<64xf32>
    %s = arith.subf %m, %b : tensor<64xf32>
    fuse.yield %s : tensor<64xf32>
  }
  // The operands of the subtraction swapped (use-def structure).
  %3 = fuse.group vertical rule "elementwise_chain" (%a = %x : tensor<64xf32>, %b = %y : tensor<64xf32>) -> tensor<64xf32> attributes {fuse.id = 3 : i64, fuse.lowering_config = #config} {
    %c = arith.constant dense<2.0> : tensor<64xf32>
    %m = arith.mulf %a, %c : tensor<64xf32>
    %s = arith.subf %b, %m : tensor<64xf32>
    fuse.yield %s : tensor<64xf32>
  }
  // The multiply of the other input.
  %4 = fuse.group vertical rule "elementwise_chain" (%a = %x : tensor<64xf32>, %b = %y : tensor<64xf32>) -> tensor<64xf32> attributes {fuse.id = 4 : i64, fuse.lowering_config = #config} {
    %c = arith.constant dense<2.0> : tensor<64xf32>
    %m = arith.mulf %b, %c : tensor<64xf32>
    %s = arith.subf %m, %b : tensor<64xf32>
    fuse.yield %s : tensor<64xf32>
  }
  // An attribute of a body op (fast-math flags).
  %5 = fuse.group vertical rule "elementwise_chain" (%a = %x : tensor<64xf32>, %b = %y : tensor<64xf32>) -> tensor<64xf32> attributes {fuse.id = 5 : i64, fuse.lowering_config = #config} {
    %c = arith.constant dense<2.0> : tensor<64xf32>
    %m = arith.mulf %a, %c fastmath<fast> : tensor<64xf32>
    %s = arith.subf %m, %b : tensor<64xf32>
    fuse.yield %s : tensor<64xf32>
  }
  // Another rule name.
  %6 = fuse.group vertical rule "other_rule" (%a = %x : tensor<64xf32>, %b = %y : tensor<64xf32>) -> tensor<64xf32> attributes {fuse.id = 6 : i64, fuse.lowering_config = #config} {
    %c = arith.constant dense<2.0> : tensor<64xf32>
    %m = arith.mulf %a, %c : tensor<64xf32>
    %s = arith.subf %m, %b : tensor<64xf32>
    fuse.yield %s : tensor<64xf32>
  }
  return %0, %1, %2, %3, %4, %5, %6 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// Nested regions compare too (a linalg.generic body); another input type
// is another kernel.
// CHECK-LABEL: func.func @regions(
// CHECK: call @regions__group0(
// CHECK: call @regions__group0(
// CHECK: call @regions__group2(
// CHECK: call @regions__group3(
// CHECK: func.func private @regions__group0({{.*}}) -> tensor<8xf32> attributes {fuse.groups = array<i64: 0, 1>
#map = affine_map<(d0) -> (d0)>
func.func @regions(%x: tensor<8xf32>, %h: tensor<8xf16>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = fuse.group single (%a = %x : tensor<8xf32>) -> tensor<8xf32> attributes {fuse.id = 0 : i64} {
    %e = tensor.empty() : tensor<8xf32>
    %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<8xf32>
    fuse.yield %g : tensor<8xf32>
  }
  %1 = fuse.group single (%a = %x : tensor<8xf32>) -> tensor<8xf32> attributes {fuse.id = 1 : i64} {
    %e = tensor.empty() : tensor<8xf32>
    %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %in : f32
      linalg.yield %t : f32
    } -> tensor<8xf32>
    fuse.yield %g : tensor<8xf32>
  }
  // The body's payload differs (the output instead of the input).
  %2 = fuse.group single (%a = %x : tensor<8xf32>) -> tensor<8xf32> attributes {fuse.id = 2 : i64} {
    %e = tensor.empty() : tensor<8xf32>
    %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %t = math.tanh %out : f32
      linalg.yield %t : f32
    } -> tensor<8xf32>
    fuse.yield %g : tensor<8xf32>
  }
  %3 = fuse.group single (%a = %h : tensor<8xf16>) -> tensor<8xf32> attributes {fuse.id = 3 : i64} {
    %e = tensor.empty() : tensor<8xf32>
    %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<8xf16>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f16, %out: f32):
      %w = arith.extf %in : f16 to f32
      %t = math.tanh %w : f32
      linalg.yield %t : f32
    } -> tensor<8xf32>
    fuse.yield %g : tensor<8xf32>
  }
  return %0, %1, %2, %3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
