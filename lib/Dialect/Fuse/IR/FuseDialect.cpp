//===- FuseDialect.cpp - the fuse dialect ---------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"

using namespace mlir;
using namespace mlir::fuse;

#include "fuse/Dialect/Fuse/IR/FuseOpsDialect.cpp.inc"

void FuseDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "fuse/Dialect/Fuse/IR/FuseOps.cpp.inc"
      >();
  registerAttributes();
}
