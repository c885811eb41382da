//===- TestPasses.cpp - register fuse's test-only passes ------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

namespace mlir::fuse::test {
/// Registers the test-only passes (fuse-test-*); fuse-opt calls it.
void registerTestPasses() { registerFuseTestPasses(); }
} // namespace mlir::fuse::test
