//===- OutlineGroups.cpp - one function per fuse.group --------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <numeric>

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEOUTLINEGROUPS
#include "fuse/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {
struct OutlineGroupsPass
    : public fuse::impl::FuseOutlineGroupsBase<OutlineGroupsPass> {
  using FuseOutlineGroupsBase::FuseOutlineGroupsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp fn : functions) {
      SmallVector<GroupOp> groups;
      // Outermost groups only; nested ones go with their parent.
      fn.walk<WalkOrder::PreOrder>([&](GroupOp group) {
        groups.push_back(group);
        return WalkResult::skip();
      });
      // Each group's first group that is the same kernel: its function
      // serves both.
      SmallVector<unsigned> first(groups.size());
      if (shareKernels)
        first = findSameKernels(groups);
      else
        std::iota(first.begin(), first.end(), 0);
      SmallVector<func::FuncOp> callees(groups.size());
      // Per function made: the ids of the groups it serves.
      SmallVector<SmallVector<int64_t>> sharedIds(groups.size());
      for (auto [index, group] : llvm::enumerate(groups)) {
        int64_t id = index;
        if (auto attr =
                FuseDialect::IdAttrHelper(group->getContext()).getAttr(group))
          id = attr.getInt();
        sharedIds[first[index]].push_back(id);
        if (first[index] != index) {
          func::FuncOp callee = callees[first[index]];
          OpBuilder at(group);
          auto call = func::CallOp::create(at, group.getLoc(), callee,
                                           group.getInputs());
          group.replaceAllUsesWith(call.getResults());
          group.erase();
          continue;
        }
        OpBuilder builder(module.getBodyRegion());
        builder.setInsertionPointAfter(fn);
        auto type = builder.getFunctionType(group.getInputs().getTypes(),
                                            group.getResultTypes());
        auto callee = func::FuncOp::create(
            builder, group.getLoc(),
            (fn.getName() + "__group" + Twine(id)).str(), type);
        callee.setPrivate();
        // Plain strings: the lowered module must parse without the dialect.
        FuseDialect::KindAttrHelper(builder.getContext())
            .setAttr(callee, builder.getStringAttr(
                                 stringifyFusionKind(group.getKind())));
        if (group.getRuleAttr())
          FuseDialect::RuleAttrHelper(builder.getContext())
              .setAttr(callee, group.getRuleAttr());
        // The group's schedule: the passes after outlining read it here.
        if (LoweringConfigAttr config =
                FuseDialect::LoweringConfigAttrHelper(builder.getContext())
                    .getAttr(group))
          FuseDialect::LoweringConfigAttrHelper(builder.getContext())
              .setAttr(callee, config);
        if (FuseDialect::NoPlanAttrHelper(builder.getContext())
                .isAttrPresent(fn))
          FuseDialect::NoPlanAttrHelper(builder.getContext())
              .setAttr(callee, builder.getUnitAttr());
        if (FuseDialect::NoVectorizeAttrHelper(builder.getContext())
                .isAttrPresent(fn))
          FuseDialect::NoVectorizeAttrHelper(builder.getContext())
              .setAttr(callee, builder.getUnitAttr());
        symbols.insert(callee); // renames on a clash
        callees[index] = callee;
        callee.getBody().takeBody(group.getBody());
        Block &body = callee.getBody().front();
        auto yield = cast<YieldOp>(body.getTerminator());
        OpBuilder inner(yield);
        func::ReturnOp::create(inner, yield.getLoc(), yield.getValues());
        yield.erase();
        OpBuilder at(group);
        auto call =
            func::CallOp::create(at, group.getLoc(), callee, group.getInputs());
        group.replaceAllUsesWith(call.getResults());
        group.erase();
      }
      for (auto [index, ids] : llvm::enumerate(sharedIds))
        if (ids.size() > 1)
          FuseDialect::GroupsAttrHelper(&getContext())
              .setAttr(callees[index],
                       DenseI64ArrayAttr::get(&getContext(), ids));
    }
  }
};
} // namespace
