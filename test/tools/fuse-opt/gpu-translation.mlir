// The GPU-to-LLVM-IR translations are registered: a gpu.module with an NVVM
// target serializes to PTX (no ptxas needed for format=isa).
// RUN: fuse-opt %s --gpu-module-to-binary="format=isa" | FileCheck %s

// CHECK: gpu.binary @kernels
// CHECK: .entry noop
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @noop() attributes {nvvm.kernel} {
      llvm.return
    }
  }
}
