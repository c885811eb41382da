//===- TestClassify.cpp - annotate ops with their classification ----------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSETESTCLASSIFY
#include "TestPasses.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {
struct TestClassifyPass
    : public fuse::impl::FuseTestClassifyBase<TestClassifyPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    Builder b(&getContext());
    root->walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
      if (op == root)
        return WalkResult::advance();
      bool classified = isa<FusibleOpInterface>(op);
      // Functions, modules, fuse.group and other containers: look inside.
      if (!classified && op->getNumRegions() > 0)
        return WalkResult::advance();
      // Unclassified placeholders (tensor.empty, shape arithmetic) and
      // constants say nothing about fusion.
      if (op->hasTrait<OpTrait::ConstantLike>() ||
          op->hasTrait<OpTrait::IsTerminator>() ||
          (!classified && !isComputeOp(op)))
        return WalkResult::skip();
      OpClassification c = classifyOp(op);
      FuseDialect::CategoryAttrHelper(&getContext())
          .setAttr(op, OpCategoryAttr::get(&getContext(), c.category));
      if (c.flops)
        FuseDialect::FlopsAttrHelper(&getContext())
            .setAttr(op, b.getI64IntegerAttr(*c.flops));
      if (c.bytesRead)
        FuseDialect::BytesReadAttrHelper(&getContext())
            .setAttr(op, b.getI64IntegerAttr(*c.bytesRead));
      if (c.bytesWritten)
        FuseDialect::BytesWrittenAttrHelper(&getContext())
            .setAttr(op, b.getI64IntegerAttr(*c.bytesWritten));
      // The payload of a classified op belongs to it.
      return WalkResult::skip();
    });
  }
};
} // namespace
