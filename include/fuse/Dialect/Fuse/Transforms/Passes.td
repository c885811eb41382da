//===- Passes.td - fuse dialect passes ---------------------*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD
#define FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseTestClassify : Pass<"fuse-test-classify"> {
  let summary = "Annotate every op with its fusion category, FLOPs and bytes "
                "(for tests)";
  let description = [{
    Walks the IR and attaches what `FusibleOpInterface` says about each op as
    discardable attributes, so that lit tests can check the classification:
    `fuse.category` (a `#fuse.category`), and, where the shapes are static,
    `fuse.flops`, `fuse.bytes_read` and `fuse.bytes_written` (i64).

    Ops without the interface are annotated `#fuse.category<opaque>`.
    Constants, terminators and the payload of classified ops (e.g. the body of
    a `linalg.generic`) are left alone; ops with regions that are not
    classified themselves (functions, `fuse.group`) are entered.

    Before:
    ```mlir
    %0 = tosa.add %a, %b : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
    ```
    After:
    ```mlir
    %0 = tosa.add %a, %b {fuse.bytes_read = 160 : i64,
                          fuse.bytes_written = 128 : i64,
                          fuse.category = #fuse.category<broadcast>,
                          fuse.flops = 32 : i64}
        : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::fuse::FuseDialect"];
}

#endif // FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD
