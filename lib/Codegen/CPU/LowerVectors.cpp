//===- LowerVectors.cpp - vector ops to FMAs, loads and stores ------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse-cpu-lower-vectors: after bufferization, the vector contractions of
// fuse-cpu-vectorize become outer products and FMAs on 1-D vectors.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/CPU/Passes.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECPULOWERVECTORS
#include "fuse/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

struct FuseCpuLowerVectorsPass
    : public fuse::impl::FuseCpuLowerVectorsBase<FuseCpuLowerVectorsPass> {
  using FuseCpuLowerVectorsBase::FuseCpuLowerVectorsBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *context = &getContext();
    bool hasVectors = func.walk([](Operation *op) {
                            return isa<vector::VectorDialect>(op->getDialect())
                                       ? WalkResult::interrupt()
                                       : WalkResult::advance();
                          })
                          .wasInterrupted();
    if (!hasVectors)
      return;
    // Stale reads and writes of the same memory fold first.
    {
      IRRewriter rewriter(context);
      vector::transferOpflowOpt(rewriter, func);
    }
    auto apply = [&](auto populate) {
      RewritePatternSet patterns(context);
      populate(patterns);
      return applyPatternsGreedily(func, std::move(patterns));
    };
    // Contractions to outer products (one per reduction step), then FMAs
    // on the accumulator's rows; everything else towards 1-D vectors.
    if (failed(apply([&](RewritePatternSet &patterns) {
          vector::populateVectorContractLoweringPatterns(
              patterns, vector::VectorContractLowering::OuterProduct);
          vector::populateVectorTransferPermutationMapLoweringPatterns(
              patterns);
          vector::populateVectorReductionToContractPatterns(patterns);
          vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
          vector::populateVectorToVectorCanonicalizationPatterns(patterns);
        })) ||
        failed(apply([&](RewritePatternSet &patterns) {
          vector::populateVectorOuterProductLoweringPatterns(patterns);
          vector::populateVectorMultiReductionLoweringPatterns(
              patterns, vector::VectorMultiReductionLowering::InnerParallel);
          vector::populateVectorBroadcastLoweringPatterns(patterns);
          vector::populateVectorTransposeLoweringPatterns(
              patterns, vector::VectorTransposeLowering::EltWise);
          vector::populateVectorShapeCastLoweringPatterns(patterns);
          vector::populateVectorTransferLoweringPatterns(patterns,
                                                         /*maxTransferRank=*/1);
          vector::populateVectorToVectorCanonicalizationPatterns(patterns);
        })))
      return signalPassFailure();
    // Transfers of more than one dimension (and strided ones) to loops of
    // 1-D transfers, which become loads and stores.
    if (failed(apply([&](RewritePatternSet &patterns) {
          VectorTransferToSCFOptions options;
          options.enableFullUnroll();
          populateVectorToSCFConversionPatterns(patterns, options);
          vector::populateVectorTransferLoweringPatterns(patterns,
                                                         /*maxTransferRank=*/1);
          vector::populateVectorToVectorCanonicalizationPatterns(patterns);
        })))
      return signalPassFailure();
  }
};

} // namespace
