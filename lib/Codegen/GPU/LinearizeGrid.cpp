//===- LinearizeGrid.cpp - every tile dimension in the grid ---------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// gpu-map-parallel-loops gives a tile loop's first three dimensions the
// grid's x, y and z and runs the rest sequentially inside each block. This
// pass collapses the leading dimensions of a deeper tile loop into one, so
// no kernel runs tiles one after the other.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSELINEARIZEGRID
#include "fuse/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// The grid's limit on its y and z dimensions.
constexpr int64_t kMaxGridYZ = 65535;

/// The number of iterations of `loop`'s dimension `d`, when static.
std::optional<int64_t> tripCount(scf::ParallelOp loop, unsigned d) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[d]);
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound()[d]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[d]);
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return llvm::divideCeil(std::max<int64_t>(*ub - *lb, 0), *step);
}

struct LinearizeGridPass
    : public fuse::impl::FuseLinearizeGridBase<LinearizeGridPass> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>())
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops) {
      unsigned rank = loop.getNumLoops();
      // The dimensions that would map to y and z must fit their limit; a
      // dynamic one might not.
      bool fits = true;
      for (unsigned d = rank > 3 ? rank - 2 : 1; d < rank; ++d) {
        std::optional<int64_t> count = tripCount(loop, d);
        fits &= count && *count <= kMaxGridYZ;
      }
      if (rank <= 3 && fits)
        continue;
      std::vector<unsigned> all(rank);
      std::iota(all.begin(), all.end(), 0);
      SmallVector<std::vector<unsigned>> combined;
      if (fits) {
        combined.push_back(std::vector<unsigned>(all.begin(), all.end() - 2));
        combined.push_back({rank - 2});
        combined.push_back({rank - 1});
      } else {
        combined.push_back(all);
      }
      rewriter.setInsertionPoint(loop);
      collapseParallelLoops(rewriter, loop, combined);
    }
  }
};

} // namespace
