// fuse-to-cpu{entry-abi=true}: the entry's results become the caller's
// buffers, its arena a trailing workspace argument, and fuse-emit-model-abi
// adds the three symbols a compiled model exports
// (include/fuse-c/ModelAbi.h): the ABI version, the signature and
// fuse_model_run, which expands each data pointer into the memref
// descriptor the lowered entry takes. Nothing else stays external.
// RUN: fuse-opt %s --fuse-fusion-pipeline --fuse-to-cpu="entry-abi=true" | FileCheck %s
// Without a planned arena the signature says "workspace 0" and the entry
// takes no workspace.
// RUN: fuse-opt %s --fuse-fusion-pipeline --fuse-to-cpu="entry-abi=true plan-buffers=false" | FileCheck %s --check-prefix=NOPLAN

// The entry: two inputs (rank 2 and rank 0), one output, the workspace
// (the first kernel's result; the second writes the output itself).
// CHECK: llvm.func internal @mlp(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-NOT: llvm.return %
// Each group stays a function of its own.
// CHECK: llvm.func internal @mlp_workspace_bytes
// CHECK: llvm.func internal @mlp__group1(
// CHECK-SAME: no_inline
// CHECK: llvm.func internal @mlp__group0(
// CHECK-SAME: no_inline
// CHECK: llvm.mlir.global external constant @fuse_model_signature("fuse-model 1\0Atarget cpu\0Aworkspace [[WS:[0-9]+]]\0Areentrant 1\0Ainput x f32 4x16\0Ainput scale%20/%20factor f32 scalar\0Aoutput output0 f32 4x32\0Akernel mlp__group0 contraction_epilogue -\0Akernel mlp__group1 - -\0A\00")
// CHECK: llvm.mlir.global external constant @fuse_model_abi_version(1 : i32)
// CHECK-NOT: fuse_model_profile_hook
// CHECK: llvm.func @fuse_model_run(%[[IN:.*]]: !llvm.ptr, %[[OUT:.*]]: !llvm.ptr, %[[WSP:.*]]: !llvm.ptr) -> i32
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64)
// CHECK-NEXT: %[[S0:.*]] = llvm.getelementptr %[[IN]][0]
// CHECK-NEXT: %[[X:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[X_SIZE0:.*]] = llvm.mlir.constant(4 : i64)
// CHECK-NEXT: %[[X_SIZE1:.*]] = llvm.mlir.constant(16 : i64)
// CHECK-NEXT: %[[X_STRIDE1:.*]] = llvm.mlir.constant(1 : i64)
// CHECK-NEXT: %[[X_STRIDE0:.*]] = llvm.mlir.constant(16 : i64)
// CHECK-NEXT: %[[S1:.*]] = llvm.getelementptr %[[IN]][1]
// CHECK-NEXT: %[[SCALE:.*]] = llvm.load %[[S1]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[S2:.*]] = llvm.getelementptr %[[OUT]][0]
// CHECK-NEXT: %[[Y:.*]] = llvm.load %[[S2]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[Y_SIZE0:.*]] = llvm.mlir.constant(4 : i64)
// CHECK-NEXT: %[[Y_SIZE1:.*]] = llvm.mlir.constant(32 : i64)
// CHECK-NEXT: %[[Y_STRIDE1:.*]] = llvm.mlir.constant(1 : i64)
// CHECK-NEXT: %[[Y_STRIDE0:.*]] = llvm.mlir.constant(32 : i64)
// CHECK-NEXT: %[[WS_SIZE:.*]] = llvm.mlir.constant([[WS]] : i64)
// CHECK-NEXT: %[[WS_STRIDE:.*]] = llvm.mlir.constant(1 : i64)
// CHECK-NEXT: llvm.call @mlp(%[[X]], %[[X]], %[[ZERO]], %[[X_SIZE0]], %[[X_SIZE1]], %[[X_STRIDE0]], %[[X_STRIDE1]], %[[SCALE]], %[[SCALE]], %[[ZERO]], %[[Y]], %[[Y]], %[[ZERO]], %[[Y_SIZE0]], %[[Y_SIZE1]], %[[Y_STRIDE0]], %[[Y_STRIDE1]], %[[WSP]], %[[WSP]], %[[ZERO]], %[[WS_SIZE]], %[[WS_STRIDE]])
// CHECK-NEXT: %[[OK:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-NEXT: llvm.return %[[OK]] : i32

// With profile=true the runtime's hook (NULL until the runtime sets it) is
// called around each kernel, and the signature says so.
// RUN: fuse-opt %s --fuse-fusion-pipeline --fuse-to-cpu="entry-abi=true profile=true" | FileCheck %s --check-prefix=PROFILE
// PROFILE: llvm.func internal @mlp(
// PROFILE: %[[K0:.*]] = llvm.mlir.constant(0 : i32)
// PROFILE-NEXT: %[[BEFORE:.*]] = llvm.mlir.constant(0 : i32)
// PROFILE-NEXT: llvm.call @__fuse_profile_event(%[[K0]], %[[BEFORE]])
// PROFILE-NEXT: llvm.call @mlp__group0(
// PROFILE-NEXT: %[[K1:.*]] = llvm.mlir.constant(0 : i32)
// PROFILE-NEXT: %[[AFTER:.*]] = llvm.mlir.constant(1 : i32)
// PROFILE-NEXT: llvm.call @__fuse_profile_event(%[[K1]], %[[AFTER]])
// PROFILE: @fuse_model_signature("{{.*}}\0Akernel mlp__group0 contraction_epilogue -\0Akernel mlp__group1 - -\0Aprofile 1\0A\00")
// PROFILE: llvm.mlir.global external @fuse_model_profile_hook() {{.*}} : !llvm.ptr {
// PROFILE-NEXT: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// PROFILE-NEXT: llvm.return %[[NULL]]
// PROFILE: llvm.func internal @__fuse_profile_event(%[[ID:.*]]: i32, %[[PHASE:.*]]: i32)
// PROFILE: %[[HOOK:.*]] = llvm.load
// PROFILE: llvm.cond_br
// PROFILE: llvm.call %[[HOOK]](%[[ID]], %[[PHASE]])

// NOPLAN: workspace 0\0A
// NOPLAN: llvm.call @mlp(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}) :

func.func @mlp(%x: tensor<4x16xf32> {onnx.name = "x"},
               %scale: tensor<f32> {onnx.name = "scale / factor"}) -> tensor<4x32xf32> {
  %w = arith.constant dense<0.5> : tensor<16x32xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4x32xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<4x32xf32>) -> tensor<4x32xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x32xf32>) outs(%fill : tensor<4x32xf32>) -> tensor<4x32xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%mm, %scale : tensor<4x32xf32>, tensor<f32>) outs(%init : tensor<4x32xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    %r = arith.maximumf %m, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x32xf32>
  %t = tosa.tanh %relu : (tensor<4x32xf32>) -> tensor<4x32xf32>
  %e = tosa.exp %t : (tensor<4x32xf32>) -> tensor<4x32xf32>
  // A second contraction: a kernel of its own, so the first one's result
  // is a buffer between kernels (in the workspace).
  %w2 = arith.constant dense<0.25> : tensor<32x32xf32>
  %mm2 = linalg.matmul ins(%e, %w2 : tensor<4x32xf32>, tensor<32x32xf32>) outs(%fill : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %mm2 : tensor<4x32xf32>
}
