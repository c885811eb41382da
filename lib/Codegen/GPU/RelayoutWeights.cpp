//===- RelayoutWeights.cpp - constant weights in the order kernels read ---===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// A GPU kernel spreads a convolution's output channels over neighbouring
// threads (fuse-distribute-threads: the contiguous output dimension is the
// fastest). With the filter as [F, KH, KW, C] (the ONNX/TOSA order),
// neighbouring threads read addresses KH*KW*C elements apart; as
// [KH, KW, C, F] they read neighbouring addresses. This pass rewrites a
// convolution with a constant FHWC filter into the HWCF form with the filter
// permuted at compile time, and records each re-layout on the function.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/GPU/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Dialect/Fuse/Utils/ConstantData.h"
#include "fuse/Dialect/Fuse/Utils/Describe.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSERELAYOUTWEIGHTS
#include "fuse/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

struct RelayoutWeightsPass
    : public fuse::impl::FuseRelayoutWeightsBase<RelayoutWeightsPass> {
  using FuseRelayoutWeightsBase::FuseRelayoutWeightsBase;

  void runOnOperation() override {
    func::FuncOp fn = getOperation();
    if (tensorCores != "keep" && tensorCores != "always" &&
        tensorCores != "never") {
      fn.emitError() << "fuse-relayout-weights: option 'tensor-cores' must "
                        "be keep, always or never, got '"
                     << tensorCores << "'";
      return signalPassFailure();
    }
    SmallVector<linalg::Conv2DNhwcFhwcOp> convs;
    // A linalg op's payload works on scalars: no convolution inside, and a
    // large graph's payloads are most of its ops.
    fn.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto conv = dyn_cast<linalg::Conv2DNhwcFhwcOp>(op))
        convs.push_back(conv);
      return isa<linalg::LinalgOp>(op) ? WalkResult::skip()
                                       : WalkResult::advance();
    });
    SmallVector<Attribute> records;
    unsigned counter = 0;
    for (linalg::Conv2DNhwcFhwcOp conv : convs)
      if (std::optional<DictionaryAttr> record = relayout(conv, counter))
        records.push_back(*record);
    if (!records.empty())
      FuseDialect::RelayoutsAttrHelper(fn.getContext())
          .setAttr(fn, ArrayAttr::get(fn.getContext(), records));
  }

  /// Whether `group`'s convolutions keep their FHWC filter: the group runs
  /// on tensor cores, whose B fragments load by ldmatrix along K.
  bool keepsFilter(GroupOp group) {
    if (tensorCores == "never")
      return false;
    if (tensorCores == "always")
      return true;
    LoweringConfigAttr config =
        FuseDialect::LoweringConfigAttrHelper(group->getContext())
            .getAttr(group);
    return config && config.getInstruction() == "mma_sync";
  }

  /// Rewrites `conv` when its filter is a constant used only by it (directly
  /// or through one fuse.group input); returns what was done.
  std::optional<DictionaryAttr> relayout(linalg::Conv2DNhwcFhwcOp conv,
                                         unsigned &counter) {
    Value filter = conv.getInputs()[1];
    if (!filter.hasOneUse())
      return std::nullopt;
    // Through the group boundary: the block argument's operand outside.
    GroupOp group;
    Value source = filter;
    if (auto arg = dyn_cast<BlockArgument>(filter)) {
      group = dyn_cast<GroupOp>(arg.getOwner()->getParentOp());
      if (!group || keepsFilter(group))
        return std::nullopt;
      source = group.getInputs()[arg.getArgNumber()];
      if (!source.hasOneUse())
        return std::nullopt;
    }
    auto constant = source.getDefiningOp<arith::ConstantOp>();
    if (!constant)
      return std::nullopt;
    std::optional<fuse::detail::ConstantData> data =
        fuse::detail::getConstantData(source);
    if (!data || data->type.getRank() != 4)
      return std::nullopt;
    ArrayRef<int64_t> shape = data->type.getShape(); // F, KH, KW, C
    int64_t f = shape[0], kh = shape[1], kw = shape[2], c = shape[3];
    size_t elem = data->bytes.size() / data->type.getNumElements();
    std::vector<char> permuted(data->bytes.size());
    for (int64_t o = 0; o < f; ++o)
      for (int64_t y = 0; y < kh; ++y)
        for (int64_t x = 0; x < kw; ++x)
          for (int64_t i = 0; i < c; ++i) {
            size_t from = (((o * kh + y) * kw + x) * c + i) * elem;
            size_t to = (((y * kw + x) * c + i) * f + o) * elem;
            std::memcpy(&permuted[to], &data->bytes[from], elem);
          }
    auto type =
        RankedTensorType::get({kh, kw, c, f}, data->type.getElementType());
    OpBuilder b(constant);
    std::string blob = llvm::formatv("fuse_hwcf_{0}", counter++).str();
    auto relaid = arith::ConstantOp::create(
        b, constant.getLoc(),
        cast<TypedAttr>(fuse::detail::makeElementsAttr(
            type, permuted, data->fromResource, blob)));
    Value newFilter = relaid.getResult();
    if (group) {
      auto arg = cast<BlockArgument>(filter);
      group->setOperand(arg.getArgNumber(), relaid.getResult());
      arg.setType(type);
      newFilter = arg;
    }
    b.setInsertionPoint(conv);
    auto replacement = linalg::Conv2DNhwcHwcfOp::create(
        b, conv.getLoc(), conv->getResultTypes(),
        ValueRange{conv.getInputs()[0], newFilter}, conv.getOutputs(),
        conv.getStrides(), conv.getDilations());
    std::string described = describeOp(conv);
    conv->replaceAllUsesWith(replacement);
    conv->erase();
    if (constant->use_empty())
      constant->erase();
    MLIRContext *ctx = &getContext();
    NamedAttrList record;
    record.append("op", StringAttr::get(ctx, described));
    record.append("from", StringAttr::get(ctx, "FHWC"));
    record.append("to", StringAttr::get(ctx, "HWCF"));
    record.append("bytes",
                  IntegerAttr::get(IntegerType::get(ctx, 64),
                                   static_cast<int64_t>(permuted.size())));
    if (group)
      if (auto id =
              FuseDialect::IdAttrHelper(group->getContext()).getAttr(group))
        record.append("group", id);
    return record.getDictionary(ctx);
  }
};

} // namespace
