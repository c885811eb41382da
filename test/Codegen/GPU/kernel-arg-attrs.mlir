// fuse-kernel-arg-attrs: a kernel's buffer is llvm.readonly where the kernel
// only reads it, and its aligned pointer is recorded for noalias
// (fuse.noalias_args, LLVM argument positions after the descriptor
// expansion: a rank-r buffer takes 3 + 2r arguments, its aligned pointer
// the second) where no launch passes an overlapping buffer that either
// side writes. Each case below breaks one condition.
// RUN: fuse-opt %s -split-input-file --fuse-kernel-arg-attrs | FileCheck %s

// Arena buffers at disjoint byte ranges, and a global: all unaliased; the
// input and the weight read only. Positions: %in 0-4 (aligned 1), %w 5-9
// (aligned 6), %out 10-14 (aligned 11).
// CHECK-LABEL: gpu.module @disjoint
// CHECK: gpu.func @k(%{{.*}}: memref<64xf32> {llvm.readonly}, %{{.*}}: memref<64xf32> {llvm.readonly}, %{{.*}}: memref<64xf32>) kernel
// CHECK-SAME: fuse.llvm_arg_count = 15 : i64, fuse.noalias_args = array<i64: 1, 6, 11>
module attributes {gpu.container_module} {
  memref.global "private" constant @w : memref<64xf32> = dense<1.0>
  gpu.module @disjoint {
    gpu.func @k(%in: memref<64xf32>, %w: memref<64xf32>, %out: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %a = memref.load %in[%i] : memref<64xf32>
      %b = memref.load %w[%i] : memref<64xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func private @group(%in: memref<64xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %w = memref.get_global @w : memref<64xf32>
    gpu.launch_func @disjoint::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<64xf32>, %w : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main(%x: memref<64xf32>) -> memref<64xf32> {
    %c0 = arith.constant 0 : index
    %c256 = arith.constant 256 : index
    %arena = memref.alloc() : memref<512xi8>
    %a = memref.view %arena[%c0][] : memref<512xi8> to memref<64xf32>
    %b = memref.view %arena[%c256][] : memref<512xi8> to memref<64xf32>
    call @group(%a, %b) : (memref<64xf32>, memref<64xf32>) -> ()
    %r = memref.cast %b : memref<64xf32> to memref<64xf32>
    return %r : memref<64xf32>
  }
}

// -----

// The input's bytes overlap the output's (views 128 bytes apart of 256-byte
// buffers): neither is unaliased; the input is still read only.
// CHECK-LABEL: gpu.module @overlap
// CHECK: gpu.func @k(%{{.*}}: memref<64xf32> {llvm.readonly}, %{{.*}}: memref<64xf32>) kernel
// CHECK-NOT: fuse.noalias_args
// CHECK: func.func
module attributes {gpu.container_module} {
  gpu.module @overlap {
    gpu.func @k(%in: memref<64xf32>, %out: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %a = memref.load %in[%i] : memref<64xf32>
      memref.store %a, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %arena = memref.alloc() : memref<512xi8>
    %a = memref.view %arena[%c0][] : memref<512xi8> to memref<64xf32>
    %b = memref.view %arena[%c128][] : memref<512xi8> to memref<64xf32>
    gpu.launch_func @overlap::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64xf32>, %b : memref<64xf32>)
    return
  }
}

// -----

// Subviews narrow the bytes: rows 0-1 and rows 2-3 of one buffer are
// disjoint (both unaliased), whatever the view chain.
// CHECK-LABEL: gpu.module @rows
// CHECK: gpu.func @k(%{{.*}}: memref<2x16xf32, strided<[16, 1]>> {llvm.readonly}, %{{.*}}: memref<2x16xf32, strided<[16, 1], offset: 32>>) kernel
// CHECK-SAME: fuse.noalias_args = array<i64: 1, 8>
module attributes {gpu.container_module} {
  gpu.module @rows {
    gpu.func @k(%in: memref<2x16xf32, strided<[16, 1]>>, %out: memref<2x16xf32, strided<[16, 1], offset: 32>>) kernel {
      %c0 = arith.constant 0 : index
      %i = gpu.thread_id x
      %a = memref.load %in[%c0, %i] : memref<2x16xf32, strided<[16, 1]>>
      memref.store %a, %out[%c0, %i] : memref<2x16xf32, strided<[16, 1], offset: 32>>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %buf = memref.alloc() : memref<4x16xf32>
    %top = memref.subview %buf[0, 0] [2, 16] [1, 1] : memref<4x16xf32> to memref<2x16xf32, strided<[16, 1]>>
    %bottom = memref.subview %buf[2, 0] [2, 16] [1, 1] : memref<4x16xf32> to memref<2x16xf32, strided<[16, 1], offset: 32>>
    gpu.launch_func @rows::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%top : memref<2x16xf32, strided<[16, 1]>>, %bottom : memref<2x16xf32, strided<[16, 1], offset: 32>>)
    return
  }
}

// -----

// Two arguments of the public function may be the same buffer: the one
// read and the one written are not unaliased. An allocation never aliases
// them.
// CHECK-LABEL: gpu.module @external
// CHECK: gpu.func @k(%{{.*}}: memref<64xf32> {llvm.readonly}, %{{.*}}: memref<64xf32> {llvm.readonly}, %{{.*}}: memref<64xf32>) kernel
// CHECK-SAME: fuse.noalias_args = array<i64: 6>
module attributes {gpu.container_module} {
  gpu.module @external {
    gpu.func @k(%in: memref<64xf32>, %tmp: memref<64xf32>, %out: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %a = memref.load %in[%i] : memref<64xf32>
      %b = memref.load %tmp[%i] : memref<64xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<64xf32>, %y: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %t = memref.alloc() : memref<64xf32>
    gpu.launch_func @external::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>, %t : memref<64xf32>, %y : memref<64xf32>)
    return
  }
}

// -----

// A private function called twice: at the second call its input is its
// output's buffer, so neither argument is unaliased.
// CHECK-LABEL: gpu.module @calls
// CHECK: gpu.func @k(%{{.*}}: memref<64xf32> {llvm.readonly}, %{{.*}}: memref<64xf32>) kernel
// CHECK-NOT: fuse.noalias_args
// CHECK: func.func
module attributes {gpu.container_module} {
  gpu.module @calls {
    gpu.func @k(%in: memref<64xf32>, %out: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %a = memref.load %in[%i] : memref<64xf32>
      memref.store %a, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func private @group(%in: memref<64xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @calls::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%in : memref<64xf32>, %out : memref<64xf32>)
    return
  }
  func.func @main() {
    %a = memref.alloc() : memref<64xf32>
    %b = memref.alloc() : memref<64xf32>
    call @group(%a, %b) : (memref<64xf32>, memref<64xf32>) -> ()
    call @group(%b, %b) : (memref<64xf32>, memref<64xf32>) -> ()
    return
  }
}

// -----

// Where the bytes cannot be known (a view at a run-time byte shift, a
// buffer a call returns) nothing is unaliased; a buffer the kernel writes
// through a view, or hands to an op that is not a read, is not read only.
// CHECK-LABEL: gpu.module @unknown
// CHECK: gpu.func @k(%{{.*}}: memref<64xf32> {llvm.readonly}, %{{.*}}: memref<64xf32>, %{{.*}}: memref<64xf32>, %{{.*}}: memref<64xf32>) kernel
// CHECK-NOT: fuse.noalias_args
// CHECK: func.func
module attributes {gpu.container_module} {
  gpu.module @unknown {
    gpu.func @k(%in: memref<64xf32>, %out: memref<64xf32>, %sub: memref<64xf32>, %atomic: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %a = memref.load %in[%i] : memref<64xf32>
      memref.store %a, %out[%i] : memref<64xf32>
      %v = memref.subview %sub[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
      memref.store %a, %v[%i] : memref<32xf32, strided<[1]>>
      %r = memref.atomic_rmw addf %a, %atomic[%i] : (f32, memref<64xf32>) -> f32
      gpu.return
    }
  }
  func.func private @make() -> memref<64xf32>
  func.func @main(%shift: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %arena = memref.alloc() : memref<1024xi8>
    %a = memref.view %arena[%shift][] : memref<1024xi8> to memref<64xf32>
    %b = memref.view %arena[%c0][] : memref<1024xi8> to memref<64xf32>
    %c = call @make() : () -> memref<64xf32>
    %d = memref.alloc() : memref<64xf32>
    gpu.launch_func @unknown::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64xf32>, %b : memref<64xf32>, %c : memref<64xf32>, %d : memref<64xf32>)
    return
  }
}

// -----

// One buffer passed twice and only read: unaliased both times (noalias
// concerns memory something writes); the output lies elsewhere.
// CHECK-LABEL: gpu.module @twice
// CHECK: gpu.func @k(%{{.*}}: memref<64xf32> {llvm.readonly}, %{{.*}}: memref<64xf32> {llvm.readonly}, %{{.*}}: memref<64xf32>) kernel
// CHECK-SAME: fuse.noalias_args = array<i64: 1, 6, 11>
module attributes {gpu.container_module} {
  gpu.module @twice {
    gpu.func @k(%p: memref<64xf32>, %q: memref<64xf32>, %out: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %a = memref.load %p[%i] : memref<64xf32>
      %b = memref.load %q[%i] : memref<64xf32>
      %s = arith.mulf %a, %b : f32
      memref.store %s, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %o = memref.alloc() : memref<64xf32>
    gpu.launch_func @twice::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>, %x : memref<64xf32>, %o : memref<64xf32>)
    return
  }
}

// -----

// A reinterpret_cast can reach past its source's bytes: the output, recast
// from the upper half of a buffer at a run-time offset, may overlap the
// lower half the input reads, so nothing is unaliased.
// CHECK-LABEL: gpu.module @reinterpret
// CHECK: gpu.func @k(%{{.*}}: memref<16xf32, strided<[1]>> {llvm.readonly}, %{{.*}}: memref<16xf32, strided<[1], offset: ?>>) kernel
// CHECK-NOT: fuse.noalias_args
// CHECK: func.func
module attributes {gpu.container_module} {
  gpu.module @reinterpret {
    gpu.func @k(%in: memref<16xf32, strided<[1]>>, %out: memref<16xf32, strided<[1], offset: ?>>) kernel {
      %i = gpu.thread_id x
      %a = memref.load %in[%i] : memref<16xf32, strided<[1]>>
      memref.store %a, %out[%i] : memref<16xf32, strided<[1], offset: ?>>
      gpu.return
    }
  }
  func.func @main(%offset: index) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %buf = memref.alloc() : memref<32xf32>
    %low = memref.subview %buf[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
    %high = memref.subview %buf[16] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1], offset: 16>>
    %out = memref.reinterpret_cast %high to offset: [%offset], sizes: [16], strides: [1] : memref<16xf32, strided<[1], offset: 16>> to memref<16xf32, strided<[1], offset: ?>>
    gpu.launch_func @reinterpret::@k blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%low : memref<16xf32, strided<[1]>>, %out : memref<16xf32, strided<[1], offset: ?>>)
    return
  }
}

// -----

// Workgroup buffers start on a 16-byte boundary (cp.async's 16-byte copies
// and ldmatrix's rows need it): a buffer without an alignment, or with a
// smaller one, gets llvm.align = 16; a larger one is kept.
// CHECK-LABEL: gpu.module @workgroup
// CHECK: gpu.func @k(%{{.*}}: memref<64xf32>) workgroup(%{{.*}} : memref<64xf32, 3> {llvm.align = 16 : i64}, %{{.*}} : memref<8xf32, 3> {llvm.align = 16 : i64}, %{{.*}} : memref<16xf32, 3> {llvm.align = 64 : i64}) kernel
module attributes {gpu.container_module} {
  gpu.module @workgroup {
    gpu.func @k(%out: memref<64xf32>) workgroup(%a : memref<64xf32, 3>, %b : memref<8xf32, 3> {llvm.align = 4 : i64}, %c : memref<16xf32, 3> {llvm.align = 64 : i64}) kernel {
      %i = gpu.thread_id x
      %v = memref.load %a[%i] : memref<64xf32, 3>
      memref.store %v, %out[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @workgroup::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
}
