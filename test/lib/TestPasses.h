//===- TestPasses.h - test-only passes --------------------------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_TEST_LIB_TESTPASSES_H
#define FUSE_TEST_LIB_TESTPASSES_H

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fuse {

#define GEN_PASS_DECL
#include "TestPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "TestPasses.h.inc"

} // namespace mlir::fuse

#endif // FUSE_TEST_LIB_TESTPASSES_H
