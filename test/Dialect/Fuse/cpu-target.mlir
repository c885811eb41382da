// RUN: fuse-opt %s | FileCheck %s
// RUN: fuse-opt %s | fuse-opt | FileCheck %s

// #fuse.cpu_target, #fuse.cpu_schedule and a lowering config's `cpu` field
// print back as they were written.
// CHECK-LABEL: func @attrs
// CHECK-SAME: config = #fuse.lowering_config<schedule = "contraction", tile = [8, 32, 0], threads = 128, instruction = "simt", precision = "fp32", cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 7, nr = 32, kc = 4, k_block = 64>>
// CHECK-SAME: gpu_and_cpu = #fuse.lowering_config<schedule = "contraction", tile = [16, 64, 0], threads = 128, instruction = "mma_sync", precision = "tf32", stages = 3, cpu = #fuse.cpu_schedule<kind = "loops", mr = 0, nr = 0, kc = 0, k_block = 0>>
// CHECK-SAME: pool = #fuse.cpu_schedule<kind = "channel_tiles", mr = 8, nr = 16, kc = 1, k_block = 0>
// CHECK-SAME: target = #fuse.cpu_target<name = "mycpu", vector_bits = 256, vector_registers = 16, l1_bytes = 49152, l2_bytes = 2097152, l3_bytes = 0>
func.func @attrs() attributes {
    target = #fuse.cpu_target<name = "mycpu", vector_bits = 256,
                              vector_registers = 16, l1_bytes = 49152,
                              l2_bytes = 2097152, l3_bytes = 0>,
    pool = #fuse.cpu_schedule<kind = "channel_tiles", mr = 8, nr = 16, kc = 1,
                              k_block = 0>,
    config = #fuse.lowering_config<schedule = "contraction", tile = [8, 32, 0],
        threads = 128, instruction = "simt", precision = "fp32",
        cpu = #fuse.cpu_schedule<kind = "register_tiles", mr = 7, nr = 32,
                                 kc = 4, k_block = 64>>,
    gpu_and_cpu = #fuse.lowering_config<schedule = "contraction",
        tile = [16, 64, 0], threads = 128, instruction = "mma_sync",
        precision = "tf32",
        cpu = #fuse.cpu_schedule<kind = "loops", mr = 0, nr = 0, kc = 0, k_block = 0>,
        stages = 3>} {
  return
}
