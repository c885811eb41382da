// RUN: fuse-opt %s -fuse-test-classify -split-input-file | FileCheck %s

// CHECK-LABEL: func @concat
// CHECK: tensor.concat
// CHECK-SAME: fuse.bytes_read = 64 : i64, fuse.bytes_written = 64 : i64, fuse.category = #fuse.category<injective>, fuse.flops = 0 : i64
func.func @concat(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> tensor<4x4xf32> {
  %0 = tensor.concat dim(0) %a, %b : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// Slices move only the slice; reshapes move nothing; tensor.empty is no work.
// CHECK-LABEL: func @movement
// CHECK: tensor.empty() : tensor<8x8xf32>
// CHECK: tensor.extract_slice {{.*}}fuse.bytes_read = 16 : i64, fuse.bytes_written = 16 : i64, fuse.category = #fuse.category<injective>
// CHECK: tensor.insert_slice {{.*}}fuse.bytes_read = 16 : i64, fuse.bytes_written = 16 : i64, fuse.category = #fuse.category<injective>
// CHECK: tensor.collapse_shape {{.*}}fuse.bytes_read = 0 : i64, fuse.bytes_written = 0 : i64, fuse.category = #fuse.category<injective>
// CHECK: tensor.pad
// CHECK: } {fuse.bytes_read = 256 : i64, fuse.bytes_written = 400 : i64, fuse.category = #fuse.category<injective>, fuse.flops = 0 : i64} : tensor<8x8xf32> to tensor<10x10xf32>
func.func @movement(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<64xf32>, tensor<10x10xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %s = tensor.extract_slice %x[0, 0] [2, 2] [1, 1] : tensor<8x8xf32> to tensor<2x2xf32>
  %i = tensor.insert_slice %s into %e[4, 4] [2, 2] [1, 1] : tensor<2x2xf32> into tensor<8x8xf32>
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<8x8xf32> into tensor<64xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1, 1] high[1, 1] {
  ^bb0(%i0: index, %i1: index):
    tensor.yield %zero : f32
  } : tensor<8x8xf32> to tensor<10x10xf32>
  return %i, %c, %p : tensor<8x8xf32>, tensor<64xf32>, tensor<10x10xf32>
}

// -----

// arith and math on tensors are elementwise; casts compute nothing.
// CHECK-LABEL: func @arith_math
// CHECK: arith.addf {{.*}}fuse.bytes_read = 64 : i64, fuse.bytes_written = 32 : i64, fuse.category = #fuse.category<elementwise>, fuse.flops = 8 : i64
// CHECK: math.exp {{.*}}fuse.category = #fuse.category<elementwise>, fuse.flops = 8 : i64
// CHECK: arith.truncf {{.*}}fuse.bytes_read = 32 : i64, fuse.bytes_written = 16 : i64, fuse.category = #fuse.category<elementwise>, fuse.flops = 0 : i64
// CHECK: arith.select {{.*}}fuse.category = #fuse.category<elementwise>
func.func @arith_math(%x: tensor<8xf32>, %m: tensor<8xi1>) -> (tensor<8xf16>, tensor<8xf32>) {
  %0 = arith.addf %x, %x : tensor<8xf32>
  %1 = math.exp %0 : tensor<8xf32>
  %2 = arith.truncf %1 : tensor<8xf32> to tensor<8xf16>
  %3 = arith.select %m, %1, %x : tensor<8xi1>, tensor<8xf32>
  return %2, %3 : tensor<8xf16>, tensor<8xf32>
}

// -----

// Ops without the interface are opaque; inside fuse.group ops are classified
// too.
// CHECK-LABEL: func @in_group
// CHECK: fuse.group single
// CHECK: arith.negf {{.*}}fuse.category = #fuse.category<elementwise>
// CHECK: bufferization.alloc_tensor() {fuse.category = #fuse.category<opaque>}
func.func @in_group(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r = fuse.group single (%a = %x : tensor<4xf32>) -> tensor<4xf32> {
    %n = arith.negf %a : tensor<4xf32>
    fuse.yield %n : tensor<4xf32>
  }
  %t = bufferization.alloc_tensor() : tensor<4xf32>
  return %r, %t : tensor<4xf32>, tensor<4xf32>
}
