//===- FuseExternalModels.h - FusibleOpInterface for upstream ops -*- C++
//-*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEEXTERNALMODELS_H
#define FUSE_DIALECT_FUSE_IR_FUSEEXTERNALMODELS_H

namespace mlir {
class DialectRegistry;
namespace fuse {

/// Attaches FusibleOpInterface to the ops of the linalg, tensor, tosa, arith
/// and math dialects when those dialects are loaded.
void registerFusibleOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace fuse
} // namespace mlir

#endif // FUSE_DIALECT_FUSE_IR_FUSEEXTERNALMODELS_H
