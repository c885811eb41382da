// The rule families as patterns over fuse.group, for embedders.
// RUN: fuse-opt %s -split-input-file --fuse-test-fusion-patterns="family=vertical" | FileCheck %s --check-prefix=VERT
// RUN: fuse-opt %s -split-input-file --fuse-test-fusion-patterns="family=horizontal" | FileCheck %s --check-prefix=HORIZ
// RUN: fuse-opt %s -split-input-file --fuse-test-fusion-patterns="family=diagonal" | FileCheck %s --check-prefix=DIAG
// RUN: fuse-opt %s -split-input-file --fuse-test-fusion-patterns="family=vertical target=t4" | FileCheck %s --check-prefix=T4
// RUN: fuse-opt %s -split-input-file --fuse-test-fusion-patterns="family=vertical max-ops-per-group=2" | FileCheck %s --check-prefix=CAP
// RUN: not fuse-opt %s -split-input-file --fuse-test-fusion-patterns="family=sideways" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: fuse-test-fusion-patterns: unknown family 'sideways'; expected vertical, horizontal, diagonal or composite
// The patterns run the engine's checks (FusionCheck.h): on a target with
// 256 B of shared memory and L2 the matmul's smallest tile does not fit, so
// the memory check keeps its epilogue out (the elementwise ops still merge).
// RUN: fuse-opt %s -split-input-file --fuse-test-fusion-patterns='family=vertical target={#fuse.target<"h200", smem_per_block = 256, smem_per_sm = 256, l2_bytes = 256>}' | FileCheck %s --check-prefix=SMEM
// SMEM-LABEL: func @epilogue
// SMEM: fuse.group single
// SMEM-NEXT: tensor.empty
// SMEM-NEXT: linalg.matmul
// SMEM: fuse.group vertical rule "elementwise_chain"
// SMEM-NEXT: arith.addf
// SMEM-NEXT: math.tanh

// A matmul group and its epilogue groups become one (vertical). With a cap
// of two ops the greedy driver merges the two elementwise groups first and
// the matmul stays alone: these patterns decide locally, unlike the
// planning engine.
// VERT-LABEL: func @epilogue
// VERT: fuse.group vertical rule "contraction_epilogue"
// VERT: linalg.matmul
// VERT: arith.addf
// VERT: math.tanh
// VERT-NOT: fuse.group
// CAP-LABEL: func @epilogue
// CAP: fuse.group single
// CAP: fuse.group vertical rule "elementwise_chain"
// HORIZ-LABEL: func @epilogue
// HORIZ-COUNT-3: fuse.group single
func.func @epilogue(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %m = fuse.group single (%x = %a : tensor<4x8xf32>, %y = %b : tensor<8x4xf32>) -> tensor<4x4xf32> {
    %e = tensor.empty() : tensor<4x4xf32>
    %r = linalg.matmul ins(%x, %y : tensor<4x8xf32>, tensor<8x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    fuse.yield %r : tensor<4x4xf32>
  }
  %s = fuse.group single (%x = %m : tensor<4x4xf32>, %y = %c : tensor<4x4xf32>) -> tensor<4x4xf32> {
    %r = arith.addf %x, %y : tensor<4x4xf32>
    fuse.yield %r : tensor<4x4xf32>
  }
  %t = fuse.group single (%x = %s : tensor<4x4xf32>) -> tensor<4x4xf32> {
    %r = math.tanh %x : tensor<4x4xf32>
    fuse.yield %r : tensor<4x4xf32>
  }
  return %t : tensor<4x4xf32>
}

// -----

// bf16 on a T4 is refused by the hardware check; an H200 fuses it.
// VERT-LABEL: func @bf16
// VERT: fuse.group vertical rule "elementwise_chain"
// T4-LABEL: func @bf16
// T4-COUNT-2: fuse.group single
func.func @bf16(%a: tensor<8xbf16>) -> tensor<8xbf16> {
  %p = fuse.group single (%x = %a : tensor<8xbf16>) -> tensor<8xbf16> {
    %r = math.exp %x : tensor<8xbf16>
    fuse.yield %r : tensor<8xbf16>
  }
  %q = fuse.group single (%x = %p : tensor<8xbf16>) -> tensor<8xbf16> {
    %r = math.tanh %x : tensor<8xbf16>
    fuse.yield %r : tensor<8xbf16>
  }
  return %q : tensor<8xbf16>
}

// -----

// Horizontal: two groups on the same input; diagonal: a producer whose
// result is also returned after its consumer.
// HORIZ-LABEL: func @siblings_and_multi_output
// HORIZ: fuse.group horizontal rule "sibling_merge"
// DIAG-LABEL: func @siblings_and_multi_output
// DIAG: %[[G:.*]]:2 = fuse.group diagonal rule "multi_output"
// DIAG: math.exp
// DIAG: math.tanh
func.func @siblings_and_multi_output(%a: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %p = fuse.group single (%x = %a : tensor<8xf32>) -> tensor<8xf32> {
    %r = math.exp %x : tensor<8xf32>
    fuse.yield %r : tensor<8xf32>
  }
  %q = fuse.group single (%x = %a : tensor<8xf32>) -> tensor<8xf32> {
    %r = math.sqrt %x : tensor<8xf32>
    fuse.yield %r : tensor<8xf32>
  }
  %t = fuse.group single (%x = %p : tensor<8xf32>) -> tensor<8xf32> {
    %r = math.tanh %x : tensor<8xf32>
    fuse.yield %r : tensor<8xf32>
  }
  return %p, %q, %t : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
