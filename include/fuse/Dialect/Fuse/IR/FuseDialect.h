//===- FuseDialect.h - the fuse dialect -------------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEDIALECT_H
#define FUSE_DIALECT_FUSE_IR_FUSEDIALECT_H

#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "mlir/IR/Dialect.h"

#include "fuse/Dialect/Fuse/IR/FuseOpsDialect.h.inc"

#endif // FUSE_DIALECT_FUSE_IR_FUSEDIALECT_H
