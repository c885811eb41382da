//===- TargetPresets.cpp - named #fuse.target presets ---------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The GPUs fuse knows by name, written as data. Sizes are in bytes, bandwidth
// in GB/s (10^9 B/s), peaks are dense (no sparsity) TFLOP/s or TOP/s; 0 means
// the GPU has no such arithmetic. Shared memory per block is the opt-in
// maximum (cudaFuncAttributeMaxDynamicSharedMemorySize), from the CUDA C++
// Programming Guide, "Technical Specifications per Compute Capability".
// Launch costs are order-of-magnitude estimates of one kernel launch's
// overhead (the cost model's unit for a saved launch), not vendor numbers;
// bench/ measures them where a GPU is available.
//
//===----------------------------------------------------------------------===//

#include "TargetPresets.h"

using namespace mlir::fuse;

static const TargetPreset kPresets[] = {
    // NVIDIA T4 (Turing TU104, 70 W). Source: NVIDIA T4 Tensor Core GPU data
    // sheet (320 GB/s GDDR6; 8.1 TFLOPS FP32; 65 TFLOPS FP16; 130 TOPS INT8);
    // CUDA guide CC 7.5: 64 KB shared memory per SM and per block, 4 MB L2.
    // FP64 is 1/32 of FP32.
    {"t4", "sm_75", 40, 65536, 65536, 4194304, 65536, 1024, 320.0, 4.0,
     /*f64=*/0.25, /*f32=*/8.1, /*tf32=*/0, /*f16=*/65.0, /*bf16=*/0,
     /*f8=*/0, /*i8=*/130.0},
    // NVIDIA V100 SXM2 (Volta GV100). Source: NVIDIA V100 data sheet
    // (900 GB/s HBM2; 7.8 TFLOPS FP64; 15.7 FP32; 125 Tensor FP16); 6 MB L2;
    // CUDA guide CC 7.0: 96 KB shared memory per SM and per block. INT8 via
    // dp4a at 4x the FP32 rate.
    {"v100", "sm_70", 80, 98304, 98304, 6291456, 65536, 1024, 900.0, 3.0,
     /*f64=*/7.8, /*f32=*/15.7, /*tf32=*/0, /*f16=*/125.0, /*bf16=*/0,
     /*f8=*/0, /*i8=*/62.8},
    // NVIDIA A100 SXM4 80 GB (Ampere GA100). Source: NVIDIA A100 data sheet
    // (2039 GB/s HBM2e; 19.5 TFLOPS FP64 Tensor and FP32; 156 TF32; 312
    // FP16/BF16; 624 TOPS INT8); 40 MB L2; CUDA guide CC 8.0: 164 KB shared
    // memory per SM, 163 KB per block.
    {"a100", "sm_80", 108, 166912, 167936, 41943040, 65536, 1024, 2039.0, 3.0,
     /*f64=*/19.5, /*f32=*/19.5, /*tf32=*/156.0, /*f16=*/312.0,
     /*bf16=*/312.0, /*f8=*/0, /*i8=*/624.0},
    // NVIDIA H100 SXM5 (Hopper GH100). Source: NVIDIA H100 data sheet
    // (3.35 TB/s HBM3; 67 TFLOPS FP64 Tensor and FP32; dense 494.7 TF32,
    // 989.4 FP16/BF16, 1978.9 FP8 and INT8); 50 MB L2; CUDA guide CC 9.0:
    // 228 KB shared memory per SM, 227 KB per block.
    {"h100", "sm_90", 132, 232448, 233472, 52428800, 65536, 1024, 3350.0, 3.0,
     /*f64=*/67.0, /*f32=*/67.0, /*tf32=*/494.7, /*f16=*/989.4,
     /*bf16=*/989.4, /*f8=*/1978.9, /*i8=*/1978.9},
    // NVIDIA H200 SXM (Hopper GH100 with 141 GB HBM3e). Source: NVIDIA H200
    // data sheet (4.8 TB/s; compute as H100 SXM).
    {"h200", "sm_90", 132, 232448, 233472, 52428800, 65536, 1024, 4800.0, 3.0,
     /*f64=*/67.0, /*f32=*/67.0, /*tf32=*/494.7, /*f16=*/989.4,
     /*bf16=*/989.4, /*f8=*/1978.9, /*i8=*/1978.9},
    // NVIDIA Jetson AGX Orin 64 GB (Ampere GA10B, 16 SMs, 2048 CUDA cores at
    // 1.3 GHz). Source: Jetson AGX Orin series data sheet (204.8 GB/s
    // LPDDR5; 170 sparse INT8 TOPS from the GPU, so 85 dense; FP16 and BF16
    // half of that; TF32 a quarter); 4 MB L2; CUDA guide CC 8.7: 164 KB
    // shared memory per SM, 163 KB per block. FP32 = 2048 x 2 x 1.3 GHz.
    {"orin", "sm_87", 16, 166912, 167936, 4194304, 65536, 1024, 204.8, 5.0,
     /*f64=*/0.083, /*f32=*/5.3, /*tf32=*/21.3, /*f16=*/42.5, /*bf16=*/42.5,
     /*f8=*/0, /*i8=*/85.0},
    // NVIDIA Jetson Nano (Maxwell GM20B, 1 SM of 128 cores at 921.6 MHz).
    // Source: Jetson Nano module data sheet (25.6 GB/s LPDDR4; 472 GFLOPS
    // FP16, so 236 FP32); 256 KB L2; CUDA guide CC 5.3: 64 KB shared memory
    // per SM, 48 KB per block.
    {"jetson-nano", "sm_53", 1, 49152, 65536, 262144, 65536, 1024, 25.6, 10.0,
     /*f64=*/0.0074, /*f32=*/0.236, /*tf32=*/0, /*f16=*/0.472, /*bf16=*/0,
     /*f8=*/0, /*i8=*/0},
};

llvm::ArrayRef<TargetPreset> mlir::fuse::getTargetPresets() { return kPresets; }

const TargetPreset *mlir::fuse::lookupTargetPreset(llvm::StringRef name) {
  for (const TargetPreset &preset : kPresets)
    if (preset.name == name)
      return &preset;
  return nullptr;
}
