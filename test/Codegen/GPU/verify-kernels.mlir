// fuse-verify-kernels: no kernel allocates memory at run time, and each
// outlined group function launches exactly one kernel (its work must not
// stay on the host).
// RUN: fuse-opt %s -split-input-file --fuse-verify-kernels -verify-diagnostics

module attributes {gpu.container_module} {
  // expected-error @below {{group function 'f__group0' launches 0 kernels; a group must be exactly one (it computes on the host instead)}}
  func.func private @f__group0(%x: memref<4xf32>) attributes {fuse.kind = "single"} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %z, %x[%i] : memref<4xf32>
    }
    return
  }
  // A group that only forwards a value launches nothing, which is fine.
  func.func private @f__group1(%x: memref<4xf32>) -> memref<4xf32> attributes {fuse.kind = "single"} {
    return %x : memref<4xf32>
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<4xf32>) kernel {
      // expected-error @below {{kernel 'k' allocates a buffer of type 'memref<4xf32>' at run time (a device-side malloc); its tile should have a static shape}}
      %a = memref.alloc() : memref<4xf32>
      gpu.return
    }
  }
  // expected-error @below {{group function 'g__group0' launches 2 kernels; a group must be exactly one}}
  func.func private @g__group0(%x: memref<4xf32>) attributes {fuse.kind = "single"} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    return
  }
}

// -----

// A kernel plus host code over its buffers (a copy lowered to loops on the
// CPU): refused, the group is not one kernel.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<4xf32>) kernel {
      gpu.return
    }
  }
  // expected-note @below {{the group function is here}}
  func.func private @h__group0(%x: memref<4xf32>, %y: memref<4xf32>) attributes {fuse.kind = "diagonal"} {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xf32>)
    // expected-error @below {{group function 'h__group0' works on the host besides its kernel: 'scf.for' runs on the CPU over the kernel's buffers}}
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %x[%i] : memref<4xf32>
      memref.store %v, %y[%i] : memref<4xf32>
    }
    return
  }
}

// -----

// A kernel given a buffer on the host's stack, directly or through a view.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<4xf32, strided<[1], offset: ?>>) kernel {
      gpu.return
    }
  }
  func.func private @s__group0() attributes {fuse.kind = "single"} {
    %c1 = arith.constant 1 : index
    %a = memref.alloca() : memref<2x4xf32>
    %v = memref.subview %a[1, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1], offset: 4>>
    %w = memref.cast %v : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32, strided<[1], offset: ?>>
    // expected-error @below {{kernel 'k' is given a buffer on the host's stack (memref.alloca of 'memref<2x4xf32>'), which the device cannot reach}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%w : memref<4xf32, strided<[1], offset: ?>>)
    return
  }
}

// -----

// cp.async reads global memory only: a copy from a shared-memory buffer
// (here through a generic view of it) is refused.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<4xf32>) workgroup(%t : memref<4xf32, #gpu.address_space<workgroup>>, %s : memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %g = memref.memory_space_cast %t : memref<4xf32, #gpu.address_space<workgroup>> to memref<4xf32>
      // expected-error @below {{kernel 'k' copies from shared memory with cp.async ('memref<4xf32>'), which reads only global memory}}
      %0 = nvgpu.device_async_copy %g[%c0], %s[%c0], 4 : memref<4xf32> to memref<4xf32, #gpu.address_space<workgroup>>
      // From global memory: fine.
      %1 = nvgpu.device_async_copy %x[%c0], %s[%c0], 4 : memref<4xf32> to memref<4xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
