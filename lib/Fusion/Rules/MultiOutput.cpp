//===- MultiOutput.cpp - the multi_output rule ----------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

const FusionRule mlir::fuse::detail::kMultiOutputRule = {
    "multi_output", FusionKind::diagonal, 40,
    /*pattern=*/
    "a value computed inside a group is also returned to users outside it, "
    "instead of keeping producer and consumer apart",
    /*constraints=*/
    "allows merges whose intermediates have users outside the group",
    /*traits=*/FusionRule::None,
    /*propose=*/nullptr,
    /*where=*/"every merge whose group returns an intermediate"};
