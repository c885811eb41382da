//===- AffineFold.cpp - the affine_fold rule ------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

const FusionRule mlir::fuse::detail::kAffineFoldRule = {
    "affine_fold", FusionKind::vertical, 120,
    /*pattern=*/
    "graph rewrite (fuse-fold-affine): a per-channel constant scale or "
    "shift after a conv, depthwise conv or matmul (inference BatchNorm) "
    "goes into its weights and bias",
    /*constraints=*/
    "the contraction's result has no other user; f32 dense constants",
    /*traits=*/FusionRule::None,
    /*propose=*/nullptr,
    /*where=*/"fuse-fold-affine"};
