//===- FuseOps.h - fuse operations ------------------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEOPS_H
#define FUSE_DIALECT_FUSE_IR_FUSEOPS_H

#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::fuse {
class YieldOp;
} // namespace mlir::fuse

#define GET_OP_CLASSES
#include "fuse/Dialect/Fuse/IR/FuseOps.h.inc"

#endif // FUSE_DIALECT_FUSE_IR_FUSEOPS_H
