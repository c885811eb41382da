// Inputs and outputs that cannot be read or written whole are one error
// naming the file, never an abort: a device (/dev/zero would be read without
// end), a directory, a missing file, an output device that is full. A pipe
// is read (with a bound).
// RUN: not fuse-opt /dev/zero 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: error: '/dev/zero' is not a regular file or a pipe (a device or a socket)
// RUN: not fuse-opt %S 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: error: '{{.*}}fuse-opt' is a directory, not an input file
// RUN: not fuse-opt %t.missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: cannot open '{{.*}}missing.mlir': {{[Nn]}}o such file
// RUN: not fuse-opt %s -o /dev/full 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: error: cannot write '/dev/full': No space left on device
// RUN: cat %s | fuse-opt | FileCheck %s
// RUN: fuse-opt %s -o %t.out.mlir && FileCheck %s < %t.out.mlir
// CHECK: func.func @f

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
