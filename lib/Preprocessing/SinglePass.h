//===- SinglePass.h - one upstream pass on a function -----------*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//
//
// The passes here run an upstream pass on a function only where the
// function holds what it rewrites: as a dynamic pipeline of that one pass
// (Pass::runPipeline).
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_PREPROCESSING_SINGLEPASS_H
#define FUSE_LIB_PREPROCESSING_SINGLEPASS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::fuse::detail {

/// A pass manager on `func.func` that runs `pass` alone.
inline OpPassManager singlePassPipeline(std::unique_ptr<Pass> pass) {
  OpPassManager pm(func::FuncOp::getOperationName());
  pm.addPass(std::move(pass));
  return pm;
}

} // namespace mlir::fuse::detail

#endif // FUSE_LIB_PREPROCESSING_SINGLEPASS_H
