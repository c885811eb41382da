// fuse-kernel-noalias, after the kernels' NVVM lowering: the aligned
// pointers fuse-kernel-arg-attrs recorded become llvm.noalias where the
// function has the argument count that assumed and each is a pointer;
// otherwise no mark. The recording attributes go either way.
// RUN: fuse-opt %s -split-input-file --fuse-kernel-noalias | FileCheck %s

// CHECK-LABEL: llvm.func @expanded
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-NOT: fuse.
// CHECK: llvm.return
llvm.func @expanded(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64, %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64) attributes {fuse.llvm_arg_count = 10 : i64, fuse.noalias_args = array<i64: 1, 6>} {
  llvm.return
}

// -----

// Bare pointers (two arguments, not ten): nothing is marked.
// CHECK-LABEL: llvm.func @bare
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-NOT: noalias
// CHECK-NOT: fuse.
// CHECK: llvm.return
llvm.func @bare(%a: !llvm.ptr, %b: !llvm.ptr) attributes {fuse.llvm_arg_count = 10 : i64, fuse.noalias_args = array<i64: 1, 6>} {
  llvm.return
}

// -----

// A recorded position that is not a pointer: nothing is marked.
// CHECK-LABEL: llvm.func @not_pointer
// CHECK-NOT: noalias
// CHECK-NOT: fuse.
// CHECK: llvm.return
llvm.func @not_pointer(%a: !llvm.ptr, %b: i64) attributes {fuse.llvm_arg_count = 2 : i64, fuse.noalias_args = array<i64: 0, 1>} {
  llvm.return
}

