//===- FuseInterfaces.td - op classification interface -----*- tablegen -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEINTERFACES_TD
#define FUSE_DIALECT_FUSE_IR_FUSEINTERFACES_TD

include "mlir/IR/OpBase.td"

def Fuse_FusibleOpInterface : OpInterface<"FusibleOpInterface"> {
  let cppNamespace = "::mlir::fuse";
  let description = [{
    How the fusion engine sees an op: its category (see `#fuse.category`) and
    its cost, the arithmetic it does and the bytes it reads and writes when it
    runs as a kernel of its own. Costs are `std::nullopt` when a shape is
    dynamic.

    fuse attaches external models to linalg (named and generic ops, by iterator
    types, indexing maps and payload), tensor, tosa, and arith/math ops. Another
    dialect makes its ops fusible by implementing this interface; the helpers
    in `fuse/Dialect/Fuse/IR/FuseInterfaces.h` (`getShapedTypeBytes`,
    `sumShapedBytes`) compute the usual byte counts.

    Example (what `fuse-test-classify` prints):

    ```mlir
    %0 = linalg.matmul {fuse.category = #fuse.category<contraction>,
                        fuse.flops = 65536 : i64, ...}
           ins(%a, %b : tensor<16x32xf32>, tensor<32x64xf32>) ...
    ```
  }];
  let methods = [
    InterfaceMethod<
      /*desc=*/"Returns the fusion category of this op.",
      /*retTy=*/"::mlir::fuse::OpCategory",
      /*methodName=*/"getFusionCategory">,
    InterfaceMethod<
      /*desc=*/[{Returns the arithmetic operations this op performs (a
        multiply-accumulate counts 2), or std::nullopt for dynamic shapes.}],
      /*retTy=*/"std::optional<int64_t>",
      /*methodName=*/"getEstimatedFlops">,
    InterfaceMethod<
      /*desc=*/[{Returns the bytes this op reads from memory when it runs as a
        kernel of its own, or std::nullopt for dynamic shapes.}],
      /*retTy=*/"std::optional<int64_t>",
      /*methodName=*/"getBytesRead">,
    InterfaceMethod<
      /*desc=*/[{Returns the bytes this op writes to memory when it runs as a
        kernel of its own, or std::nullopt for dynamic shapes.}],
      /*retTy=*/"std::optional<int64_t>",
      /*methodName=*/"getBytesWritten">,
    InterfaceMethod<
      /*desc=*/[{Returns the category and the three costs at once (what
        `classifyOp` returns): an implementation that derives them together
        classifies the op once, not four times. By default, the four
        methods above.}],
      /*retTy=*/"::mlir::fuse::OpClassification",
      /*methodName=*/"getClassification",
      /*args=*/(ins),
      /*methodBody=*/"",
      /*defaultImplementation=*/[{
        return {$_op.getFusionCategory(), $_op.getEstimatedFlops(),
                $_op.getBytesRead(), $_op.getBytesWritten()};
      }]>,
  ];
}

#endif // FUSE_DIALECT_FUSE_IR_FUSEINTERFACES_TD
