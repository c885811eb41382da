// fuse-attach-nvvm-target compiles every gpu.module for the chip of the
// module's fuse.target (h200's sm_90 without one), or for `chip`.
// RUN: fuse-opt %s --fuse-attach-nvvm-target | FileCheck %s --check-prefix=H200
// RUN: fuse-opt %s --fuse-attach-target=target=t4 --fuse-attach-nvvm-target | FileCheck %s --check-prefix=T4
// RUN: fuse-opt %s --fuse-attach-nvvm-target="chip=sm_80 O=1 features=+ptx81" | FileCheck %s --check-prefix=CHIP
// RUN: not fuse-opt %s --fuse-attach-nvvm-target="O=5" 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not fuse-opt %s --fuse-attach-nvvm-target="chip=80" 2>&1 | FileCheck %s --check-prefix=BADCHIP
// H200: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">]
// T4: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_75", features = "+ptx80">]
// CHIP: gpu.module @kernels [#nvvm.target<O = 1, chip = "sm_80", features = "+ptx81">]
// OPT: error: fuse-attach-nvvm-target: option 'O' must be in [0, 3], got 5
// BADCHIP: error: fuse-attach-nvvm-target: option 'chip' must be sm_NN with NN at least 20 (sm_80, sm_90, sm_90a), got '80'
module attributes {gpu.container_module} {
  gpu.module @kernels {
  }
}
