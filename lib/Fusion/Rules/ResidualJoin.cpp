//===- ResidualJoin.cpp - the residual_join rule --------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

const FusionRule mlir::fuse::detail::kResidualJoinRule = {
    "residual_join", FusionKind::diagonal, 95,
    /*pattern=*/
    "an epilogue op that also reads another branch's result (residual add, "
    "then ReLU) joins the contraction's group; the other branch becomes an "
    "extra input",
    /*constraints=*/
    "no path from the group through the other branch back into it; all "
    "feasibility checks",
    /*traits=*/FusionRule::NamesGroup,
    /*propose=*/nullptr,
    /*where=*/"contraction_epilogue"};
