// fuse-lower-groups=reconfigure=true (and fuse-configure-groups) chooses each group's config again from
// its options; when the config it chooses does not tile all of the group's
// ops into one loop (here tensor-cores=always gives the batch_matmul an
// mma_sync tile of 7x9 rows, which the expand_shape between it and its
// concat slice cannot carry), the group keeps the config it was formed
// with, which the fusion lowered, and says so in a remark, instead of
// failing the lowering. With tensor-cores=never the config chosen again
// lowers and no remark is emitted. Both lowerings compute what the unfused
// function computes.
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 | fuse-opt --fuse-lower-groups="reconfigure=true tensor-cores=always" 2>&1 | FileCheck %s
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 | fuse-opt --fuse-configure-groups="reconfigure=true tensor-cores=always" 2>&1 | FileCheck %s --check-prefix=CONFIGURE
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 | fuse-opt --fuse-configure-groups="reconfigure=true tensor-cores=always" 2>/dev/null | fuse-opt --fuse-lower-groups | FileCheck %s --check-prefix=LOWERED
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 | fuse-opt --fuse-lower-groups="reconfigure=true tensor-cores=never" 2>&1 | FileCheck %s --check-prefix=NEVER
// RUN: fuse-opt %s --fuse-fusion-pipeline=target=h200 | not fuse-opt --fuse-lower-groups="reconfigure=true tensor-cores=always tile-sizes=1,7,9,8" 2>&1 | FileCheck %s --check-prefix=SIZES
// RUN: %check_equivalence %s --lower-groups --distribute-threads config --tensor-cores always | FileCheck %s --check-prefix=EQUIV
// RUN: %check_equivalence %s --lower-groups --distribute-threads config --tensor-cores never | FileCheck %s --check-prefix=EQUIV

// CHECK: remark: fuse-lower-groups: group 0 keeps its own lowering config: the one chosen again (#fuse.lowering_config<schedule = "contraction", tile = [1, 7, 9, 8], {{.*}}instruction = "mma_sync"{{.*}}) does not tile all of its ops into one loop
// CHECK-LABEL: func.func @matmul_into_concat
// CHECK: scf.forall
// CHECK: fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [1, 1, 3, 16], {{.*}}instruction = "simt"

// CONFIGURE: remark: fuse-configure-groups: group 0 keeps its own lowering config
// CONFIGURE: fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [1, 1, 3, 16], {{.*}}instruction = "simt"
// LOWERED: scf.forall

// NEVER-NOT: remark
// NEVER: scf.forall

// Tile sizes the user gives are not replaced: the group's tile is refused.
// SIZES-NOT: keeps its own
// SIZES: error: fuse-lower-groups: group 0: 'linalg.batch_matmul' stays outside the tile loop

// EQUIV: PASS
func.func @matmul_into_concat(%x: tensor<1x63x33xf32>, %w: tensor<1x33x16xf32>, %y: tensor<1x7x9x45xf32>) -> tensor<1x7x9x61xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x63x33xf32>, tensor<1x33x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x63x16xf32>
  %s = tosa.const_shape {values = dense<[1, 7, 9, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r = tosa.reshape %m, %s : (tensor<1x63x16xf32>, !tosa.shape<4>) -> tensor<1x7x9x16xf32>
  %c = tosa.concat %r, %y {axis = 3 : i32} : (tensor<1x7x9x16xf32>, tensor<1x7x9x45xf32>) -> tensor<1x7x9x61xf32>
  return %c : tensor<1x7x9x61xf32>
}
