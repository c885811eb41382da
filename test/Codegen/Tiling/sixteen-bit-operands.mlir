// Contractions of a 16-bit model (f16 or bf16 operands, the products summed
// in f32) on tensor cores at their operands' precision: mma.sync.m16n8k16
// reads f16 and bf16 values exactly, at twice TF32's rate. The default
// precision (fp32) and tf32 lose nothing of such operands, so they take
// the operands' own; a narrower precision asked for (bf16 of f16 values)
// is kept. Operands of two types (f16 times f32) are no tensor-core
// contraction: SIMT.
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 split-k=1" | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 split-k=1 precision=tf32" | FileCheck %s --check-prefixes=CHECK,DEFAULT
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 split-k=1 precision=bf16" | FileCheck %s --check-prefixes=CHECK,NARROW

// CHECK-LABEL: func.func @matmul_f16
// DEFAULT: instruction = "mma_sync", precision = "fp16"
// NARROW: instruction = "mma_sync", precision = "bf16"
func.func @matmul_f16(%x: tensor<1x128x256xf16>) -> tensor<1x128x256xf16> {
  %w = "tosa.const"() {values = dense<0.01> : tensor<1x256x256xf16>} : () -> tensor<1x256x256xf16>
  %b = "tosa.const"() {values = dense<0.5> : tensor<1x1x256xf16>} : () -> tensor<1x1x256xf16>
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %m = tosa.matmul %x, %w, %z, %z : (tensor<1x128x256xf16>, tensor<1x256x256xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x128x256xf32>
  %c = tosa.cast %m : (tensor<1x128x256xf32>) -> tensor<1x128x256xf16>
  %a = tosa.add %c, %b : (tensor<1x128x256xf16>, tensor<1x1x256xf16>) -> tensor<1x128x256xf16>
  return %a : tensor<1x128x256xf16>
}

// CHECK-LABEL: func.func @matmul_bf16
// CHECK: instruction = "mma_sync", precision = "bf16"
func.func @matmul_bf16(%x: tensor<1x128x256xbf16>) -> tensor<1x128x256xbf16> {
  %w = "tosa.const"() {values = dense<0.01> : tensor<1x256x256xbf16>} : () -> tensor<1x256x256xbf16>
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xbf16>} : () -> tensor<1xbf16>
  %m = tosa.matmul %x, %w, %z, %z : (tensor<1x128x256xbf16>, tensor<1x256x256xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x128x256xf32>
  %c = tosa.cast %m : (tensor<1x128x256xf32>) -> tensor<1x128x256xbf16>
  return %c : tensor<1x128x256xbf16>
}

// A padded 3x3 convolution: its windowed input staged (extended to f32 as
// it is copied), the bias in the accumulators, ReLU on them.
// CHECK-LABEL: func.func @conv_f16
// DEFAULT: schedule = "convolution", {{.*}}instruction = "mma_sync", precision = "fp16"
// NARROW: schedule = "convolution", {{.*}}instruction = "mma_sync", precision = "bf16"
func.func @conv_f16(%x: tensor<1x28x28x64xf16>) -> tensor<1x28x28x64xf16> {
  %w = "tosa.const"() {values = dense<0.02> : tensor<64x3x3x64xf16>} : () -> tensor<64x3x3x64xf16>
  %b = "tosa.const"() {values = dense<0.25> : tensor<64xf16>} : () -> tensor<64xf16>
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %c = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x28x28x64xf16>, tensor<64x3x3x64xf16>, tensor<64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x28x28x64xf16>
  %r = tosa.clamp %c {min_val = 0.0 : f16, max_val = 65504.0 : f16} : (tensor<1x28x28x64xf16>) -> tensor<1x28x28x64xf16>
  return %r : tensor<1x28x28x64xf16>
}

// CHECK-LABEL: func.func @mixed
// CHECK: instruction = "simt"
// CHECK-NOT: mma_sync
// CHECK-LABEL: func.func @end
func.func @mixed(%a: tensor<128x256xf16>, %b: tensor<256x256xf32>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %m = linalg.matmul ins(%a, %b : tensor<128x256xf16>, tensor<256x256xf32>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %m : tensor<128x256xf32>
}

func.func @end() {
  return
}

// Each runs on the emulated tensor cores (the staged copies' conversion,
// the m16n8k16 fragments) and gives what the unfused loops do.
// RUN: %check_equivalence %s --function matmul_f16 --lower-groups --distribute-threads config --tensor-cores always | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function matmul_bf16 --lower-groups --distribute-threads config --tensor-cores always | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function conv_f16 --lower-groups --distribute-threads config --tensor-cores always | FileCheck %s --check-prefix=EXEC
// RUN: %check_equivalence %s --function conv_f16 --lower-groups --distribute-threads config --tensor-cores always --stages 2 | FileCheck %s --check-prefix=EXEC
// EXEC: PASS

// On the GPU: the 16-bit instruction, 0 spills (where ptxas is installed).
// RUN: fuse-opt %s --fuse-fusion-pipeline="target=h200 split-k=1" | fuse-opt --fuse-to-nvptx=target=h200 -o %t.kernels.mlir
// RUN: %ptx_stats %t.kernels.mlir --out %t.ptx > /dev/null
// RUN: cat %t.ptx/*.ptx | FileCheck %s --check-prefix=PTX
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
