// The lowering check refuses a group where two members update one tensor in
// place (an init their payloads read, given from outside the group: a
// ScatterND's data, an accumulation into a given tensor). Each would need
// its own copy of the tensor before the kernel starts, and the kernel makes
// none: fuse-to-nvptx refused such a group ("works on the host besides its
// kernel"). A member that reads the tensor beside one that updates it, and
// two reductions that start from one fill, still merge.
// RUN: fuse-opt %s --fuse-form-groups="target=h200" | FileCheck %s
// RUN: fuse-opt %s --fuse-form-groups="target=h200" --remarks-filter-missed=fuse --remark-format=emitRemark -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED
// Fused against unfused (the groups tiled as their GPU kernels, emulated
// threads), and every group one GPU kernel.
// RUN: %check_equivalence %s --function two_updates --lower-groups --distribute-threads 32 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function read_beside_update --lower-groups --distribute-threads 32 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function one_fill --lower-groups --distribute-threads 32 | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function escaping_update --lower-groups --distribute-threads 32 | FileCheck %s --check-prefix=EXEC
// EXEC: PASS
// EXEC-NOT: FAIL
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 | fuse-opt --fuse-to-nvptx=target=h200 -o /dev/null

#red = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// Sum and maximum of the rows, each accumulated into %acc itself: the
// siblings are refused, two kernels.
// CHECK-LABEL: func @two_updates
// CHECK: fuse.group single
// CHECK: fuse.group single
// CHECK-NOT: fuse.group
// CHECK: return
// MISSED: Function=two_updates | {{.*}}both update the same tensor in place{{.*}}Remark="sibling_merge refused by lowering"
func.func @two_updates(%acc: tensor<4x8xf32>, %x: tensor<4x8x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = linalg.generic {indexing_maps = [#red, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x8x16xf32>) outs(%acc : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#red, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x8x16xf32>) outs(%acc : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %out, %in : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// The sum accumulated into %acc, then %acc read again beside it: one group.
// CHECK-LABEL: func @read_beside_update
// CHECK: fuse.group vertical
// CHECK-NOT: fuse.group
// CHECK: return
func.func @read_beside_update(%acc: tensor<4x8xf32>, %x: tensor<4x8x16xf32>) -> tensor<4x8xf32> {
  %0 = linalg.generic {indexing_maps = [#red, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x8x16xf32>) outs(%acc : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%0, %acc : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %d = arith.subf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// The sum and the sum of magnitudes start from one fill: one group.
// CHECK-LABEL: func @one_fill
// CHECK: fuse.group horizontal rule "sibling_merge"
// CHECK-NOT: fuse.group
// CHECK: return
func.func @one_fill(%x: tensor<4x8x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#red, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x8x16xf32>) outs(%f : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#red, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x8x16xf32>) outs(%f : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %q = math.absf %in : f32
    %s = arith.addf %out, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// Two concatenations that begin with the same slice of a convolution (one
// value after CSE): the insertion that completes the first updates that
// value in place, and the second's insertion outside the group reads it
// too. The convolution's group does not take the update in (its kernel
// would copy the value on the host first, and fuse-to-nvptx refused it).
// CHECK-LABEL: func @escaping_update
// CHECK: %[[A:.*]]:2 = fuse.group composite rule "shared_input_contractions" {{.*}} -> (tensor<1x4x4x2xf32>, tensor<1x4x4x4xf32>)
// CHECK: fuse.group single (%{{.*}} = %[[A]]#0 : tensor<1x4x4x2xf32>, %{{.*}} = %[[A]]#1 : tensor<1x4x4x4xf32>)
// CHECK: fuse.group single (%{{.*}} = %arg2 : tensor<1x4x4x2xf32>, %{{.*}} = %[[A]]#1 : tensor<1x4x4x4xf32>)
// CHECK-NOT: fuse.group
// CHECK: return
// MISSED: Function=escaping_update | {{.*}}updates in place a tensor of the group that 'tensor.insert_slice{{.*}}' outside it also reads
func.func @escaping_update(%x: tensor<1x6x6x8xf32>, %w: tensor<4x3x3x8xf32>, %y: tensor<1x4x4x2xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x6x6x8xf32>, tensor<4x3x3x8xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %s0 = tensor.extract_slice %c[0, 0, 0, 0] [1, 4, 4, 2] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x4x4x2xf32>
  %s1 = tensor.extract_slice %c[0, 0, 0, 2] [1, 4, 4, 2] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x4x4x2xf32>
  %e2 = tensor.empty() : tensor<1x4x4x2xf32>
  %n = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s1 : tensor<1x4x4x2xf32>) outs(%e2 : tensor<1x4x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.negf %in : f32
    linalg.yield %v : f32
  } -> tensor<1x4x4x2xf32>
  %i = tensor.insert_slice %s0 into %e[0, 0, 0, 0] [1, 4, 4, 2] [1, 1, 1, 1] : tensor<1x4x4x2xf32> into tensor<1x4x4x4xf32>
  %j = tensor.insert_slice %n into %i[0, 0, 0, 2] [1, 4, 4, 2] [1, 1, 1, 1] : tensor<1x4x4x2xf32> into tensor<1x4x4x4xf32>
  %k = tensor.insert_slice %y into %i[0, 0, 0, 2] [1, 4, 4, 2] [1, 1, 1, 1] : tensor<1x4x4x2xf32> into tensor<1x4x4x4xf32>
  return %j, %k : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
}
