// fuse-cpu-dispatch-parallel: a call of a parallel body stores its
// arguments in a record on the caller's stack and goes through
// __fuse_parallel_for, which calls the runtime's hook
// (fuse_model_parallel_hook) or, while it is null, the task on this thread;
// the task reads the record back and calls the body.
// RUN: fuse-opt %s --split-input-file --fuse-cpu-dispatch-parallel --verify-diagnostics | FileCheck %s

// CHECK: llvm.func @caller(%[[P:.*]]: !llvm.ptr, %[[N:.*]]: i64)
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[REC:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(ptr, i64, f32)>
// CHECK: %[[F0:.*]] = llvm.getelementptr %[[REC]][0, 0]
// CHECK: llvm.store %[[P]], %[[F0]]
// CHECK: %[[F1:.*]] = llvm.getelementptr %[[REC]][0, 1]
// CHECK: llvm.store %[[N]], %[[F1]]
// CHECK: llvm.getelementptr %[[REC]][0, 2]
// CHECK: %[[TASK:.*]] = llvm.mlir.addressof @body_task
// CHECK: llvm.call @__fuse_parallel_for(%[[TASK]], %[[REC]], %{{.*}}, %[[N]])
// CHECK-NOT: llvm.call @body(
// CHECK: llvm.func @body(
// CHECK: llvm.func internal @body_task(%[[CTX:.*]]: !llvm.ptr, %[[B:.*]]: i64, %[[E:.*]]: i64)
// CHECK: %[[G0:.*]] = llvm.getelementptr %[[CTX]][0, 0]
// CHECK: %[[V0:.*]] = llvm.load %[[G0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[G1:.*]] = llvm.getelementptr %[[CTX]][0, 1]
// CHECK: %[[V1:.*]] = llvm.load %[[G1]] : !llvm.ptr -> i64
// CHECK: %[[V2:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: llvm.call @body(%[[B]], %[[E]], %[[V0]], %[[V1]], %[[V2]])
// CHECK: llvm.mlir.global external @fuse_model_parallel_hook() {{.*}} : !llvm.ptr
// CHECK: llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.func internal @__fuse_parallel_for(%[[T:.*]]: !llvm.ptr, %[[C:.*]]: !llvm.ptr, %[[LO:.*]]: i64, %[[HI:.*]]: i64)
// CHECK: %[[HOOK:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.icmp "eq" %[[HOOK]]
// CHECK: llvm.call %[[HOOK]](%[[T]], %[[C]], %[[LO]], %[[HI]])
// CHECK: llvm.call %[[T]](%[[C]], %[[LO]], %[[HI]])
llvm.func @caller(%p: !llvm.ptr, %n: i64) {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %x = llvm.mlir.constant(2.0 : f32) : f32
  llvm.call @body(%zero, %n, %p, %n, %x) : (i64, i64, !llvm.ptr, i64, f32) -> ()
  llvm.return
}
llvm.func @body(%lo: i64, %hi: i64, %p: !llvm.ptr, %n: i64, %x: f32) attributes {fuse.parallel_body} {
  llvm.return
}

// -----

// A module without parallel bodies is left alone (no hook).
// CHECK-LABEL: llvm.func @plain
// CHECK-NOT: fuse_model_parallel_hook
llvm.func @plain() {
  llvm.return
}

// -----

// expected-error @+1 {{fuse-cpu-dispatch-parallel: a parallel body takes (i64 begin, i64 end, ...) and returns nothing, got '!llvm.func<i32 (i64)>'}}
llvm.func @bad(%lo: i64) -> i32 attributes {fuse.parallel_body} {
  %c = llvm.mlir.constant(0 : i32) : i32
  llvm.return %c : i32
}
