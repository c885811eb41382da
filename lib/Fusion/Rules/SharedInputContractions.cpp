//===- SharedInputContractions.cpp - the shared_input_contractions rule ---===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Rules.h"

using namespace mlir;
using namespace mlir::fuse;
using namespace mlir::fuse::detail;

const FusionRule mlir::fuse::detail::kSharedInputContractionsRule = {
    "shared_input_contractions", FusionKind::horizontal, 110,
    /*pattern=*/
    "graph rewrite (fuse-merge-sibling-contractions): matmuls or convs that "
    "read the same input with constant weights become one contraction on "
    "concatenated weights; its slices and their epilogues join its group",
    /*constraints=*/
    "same input, attributes, kernel shape and zero points",
    /*traits=*/FusionRule::None,
    /*propose=*/nullptr,
    /*where=*/"fuse-merge-sibling-contractions"};
