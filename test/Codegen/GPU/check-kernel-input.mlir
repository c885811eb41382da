// fuse-to-nvptx takes fused IR. Input that is not (TOSA, compute outside
// the groups, a loop over tensors) is refused by its first check with the
// cause and the fix, not deep in bufferization; elementwise arith/math on
// whole tensors inside a hand-written group (the README's example) become
// linalg.generic and compile.
// RUN: fuse-opt %s -split-input-file --fuse-to-nvptx=target=h200 -verify-diagnostics | FileCheck %s
// The pass alone changes nothing on fused IR.
// RUN: fuse-opt %s -split-input-file --fuse-check-kernel-input -verify-diagnostics -o /dev/null
// A loop over tensors runs on the CPU (a buffer per iteration), fused or not,
// and fuse-form-groups leaves it out of every group.
// RUN: %check_equivalence %S/Inputs/loop-over-tensors.mlir | FileCheck %s --check-prefix=LOOP
// RUN: fuse-opt %S/Inputs/loop-over-tensors.mlir --fuse-form-groups=target=h200 | FileCheck %s --check-prefix=LOOP-GROUPS
// RUN: fuse-opt %S/Inputs/loop-over-tensors.mlir --fuse-fusion-pipeline=target=h200 | not fuse-opt --fuse-to-nvptx 2>&1 | FileCheck %s --check-prefix=LOOP-NVPTX

// CHECK-LABEL: gpu.binary @readme__group0_kernel
func.func @readme(%x: tensor<16x32xf32>, %w: tensor<32x64xf32>) -> tensor<16x64xf32> {
  %r = fuse.group vertical rule "matmul_relu"
      (%a = %x : tensor<16x32xf32>, %b = %w : tensor<32x64xf32>) -> tensor<16x64xf32> {
    %e = tensor.empty() : tensor<16x64xf32>
    %m = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>)
                       outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
    %zero = arith.constant dense<0.0> : tensor<16x64xf32>
    %y = arith.maximumf %m, %zero : tensor<16x64xf32>
    fuse.yield %y : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

func.func @tosa(%x: tensor<16x32xf32>, %y: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{fuse-check-kernel-input: 'tosa.add' is a TOSA op: fuse-to-nvptx compiles fused IR; run --fuse-fusion-pipeline first}}
  %a = tosa.add %x, %y : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
  return %a : tensor<16x32xf32>
}

// -----

func.func @elementwise_outside(%x: tensor<16x32xf32>, %y: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{fuse-check-kernel-input: 'arith.addf' computes on tensors outside any fuse.group: fuse-to-nvptx runs only groups, each as one kernel; run --fuse-fusion-pipeline first (or put the op in a fuse.group)}}
  %a = arith.addf %x, %y : tensor<16x32xf32>
  return %a : tensor<16x32xf32>
}

// -----

func.func @linalg_outside(%x: tensor<16x32xf32>, %w: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  // expected-error @+1 {{fuse-check-kernel-input: 'linalg.matmul' computes on tensors outside any fuse.group}}
  %m = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %m : tensor<16x8xf32>
}

// -----

func.func @loop_in_group(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %r = fuse.group single (%a = %x : tensor<16x32xf32>) -> tensor<16x32xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{fuse-check-kernel-input: 'scf.for' is a loop over tensors inside a fuse.group: no kernel can be tiled from it (fuse-lower-groups tiles linalg and tensor ops); move it out of the group and express its body in linalg}}
    %l = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %a) -> tensor<16x32xf32> {
      %s = arith.addf %acc, %acc : tensor<16x32xf32>
      scf.yield %s : tensor<16x32xf32>
    }
    fuse.yield %l : tensor<16x32xf32>
  }
  return %r : tensor<16x32xf32>
}

// -----

// expected-error @+1 {{'fuse.group' op is directly in 'builtin.module': a group belongs in a function's body (put it in a func.func)}}
%x = fuse.group single () -> tensor<4xf32> {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %y = arith.addf %c, %c : tensor<4xf32>
  fuse.yield %y : tensor<4xf32>
}

// LOOP: PASS
// LOOP-GROUPS: scf.for
// LOOP-GROUPS-NOT: fuse.group single{{.*}}scf.for
// LOOP-GROUPS: fuse.group single
// LOOP-NVPTX: error: fuse-check-kernel-input: 'scf.for' is a loop over tensors: fuse compiles linalg, tensor and elementwise ops into kernels, not loops; express the loop's body in linalg (or unroll the loop)
