// fuse-cpu-vectorize tiles a group's primary contraction by the CPU
// schedule of its #fuse.lowering_config (the `cpu` field the configuration
// step chose), other contractions by the module's fuse.cpu_target (else
// avx512); its size options, or a cpu-target other than the module's,
// replace both. A schedule that does not fit its op is an error.
// RUN: fuse-opt %s --split-input-file --fuse-cpu-vectorize --canonicalize --cse | FileCheck %s
// RUN: fuse-opt %s --split-input-file --fuse-cpu-vectorize="mr=4" --canonicalize --cse | FileCheck %s --check-prefix=OPTION
// RUN: fuse-opt %s --split-input-file --fuse-cpu-vectorize="cpu-target=avx2" --canonicalize --cse | FileCheck %s --check-prefix=AVX2
// RUN: fuse-opt %s --split-input-file --fuse-cpu-vectorize="cpu-target=neon" -verify-diagnostics -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEON --allow-empty
// NEON-NOT: error
// RUN: not fuse-opt %s --fuse-cpu-vectorize="cpu-target=avx9" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADOPT
// BADOPT: error: fuse-cpu-vectorize: option 'cpu-target': unknown CPU target 'avx9'

// The config's 2x16 register tile (the avx512 bounds would give 8x32).
// CHECK-LABEL: func.func @configured
// CHECK: vector.contract {{.*}} vector<2x16xf32>
// CHECK-NOT: vector<8x32xf32>
// A size option replaces the config: 4 rows by the avx512 bounds' 32.
// OPTION-LABEL: func.func @configured
// OPTION: vector.contract {{.*}} vector<4x32xf32>
// Another CPU than the module's (none here: avx512 by default): its bounds.
// AVX2-LABEL: func.func @configured
// AVX2: vector.contract {{.*}} vector<4x16xf32>
module {
func.func @configured(%a: tensor<8x64xf32>, %b: tensor<64x64xf32>) -> tensor<8x64xf32> attributes {
    fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [8, 32, 0], threads = 128, instruction = "simt", precision = "fp32",
                                                 cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 2, nr = 16, kc = 4, k_block = 0>>} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x64xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %m : tensor<8x64xf32>
}
}

// -----

// No config: the module's fuse.cpu_target (avx2: 16 wide; 4 of the 8
// rows, whose 8 accumulators fit its 12).
// CHECK-LABEL: func.func @module_target
// CHECK: vector.contract {{.*}} vector<4x16xf32>
module attributes {fuse.cpu_target = #fuse.cpu_target<name = "avx2", vector_bits = 256, vector_registers = 16, l1_bytes = 32768, l2_bytes = 262144, l3_bytes = 8388608>} {
func.func @module_target(%a: tensor<8x64xf32>, %b: tensor<64x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x64xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %m : tensor<8x64xf32>
}
}

// -----

// The config describes the larger of two products (the 8x64x64 one); the
// 2x16x8 one takes the target's bounds (2 rows, 16 wide). (One row of
// 64 loses its unit dimension.)
// CHECK-LABEL: func.func @two_products
// CHECK-NOT: vector<8x32xf32>
// CHECK-DAG: vector.contract {{.*}} vector<64xf32>
// CHECK-DAG: vector.contract {{.*}} vector<2x16xf32>
module {
func.func @two_products(%a: tensor<8x64xf32>, %b: tensor<64x64xf32>, %c: tensor<2x8xf32>, %d: tensor<8x16xf32>) -> (tensor<8x64xf32>, tensor<2x16xf32>) attributes {
    fuse.lowering_config = #fuse.lowering_config<schedule = "contraction", tile = [8, 32, 0], threads = 128, instruction = "simt", precision = "fp32",
                                                 cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 1, nr = 64, kc = 4, k_block = 0>>} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x64xf32>, tensor<64x64xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  %e2 = tensor.empty() : tensor<2x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x16xf32>) -> tensor<2x16xf32>
  %n = linalg.matmul ins(%c, %d : tensor<2x8xf32>, tensor<8x16xf32>) outs(%f2 : tensor<2x16xf32>) -> tensor<2x16xf32>
  return %m, %n : tensor<8x64xf32>, tensor<2x16xf32>
}
}
