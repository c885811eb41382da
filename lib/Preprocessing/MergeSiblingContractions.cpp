//===- MergeSiblingContractions.cpp - one GEMM for same-input siblings ----===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Utils/ConstantData.h"

#include "fuse/Preprocessing/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"

#include <map>
#include <numeric>

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEMERGESIBLINGCONTRACTIONS
#include "fuse/Preprocessing/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// Concatenates constants of the same element type along `axis`.
std::vector<char> concat(ArrayRef<fuse::detail::ConstantData> parts,
                         int64_t axis, SmallVectorImpl<int64_t> &shape) {
  shape.assign(parts.front().type.getShape().begin(),
               parts.front().type.getShape().end());
  shape[axis] = 0;
  for (const fuse::detail::ConstantData &part : parts)
    shape[axis] += part.type.getDimSize(axis);
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  std::vector<char> out;
  for (int64_t o = 0; o < outer; ++o)
    for (const fuse::detail::ConstantData &part : parts) {
      int64_t chunk = int64_t(part.bytes.size()) / outer;
      out.insert(out.end(), part.bytes.begin() + o * chunk,
                 part.bytes.begin() + (o + 1) * chunk);
    }
  return out;
}

/// The siblings' weights (or biases) concatenated along `axis`, as one
/// constant (a dense_resource blob where `resource`).
ElementsAttr concatWeights(ArrayRef<fuse::detail::ConstantData> weights,
                           int64_t axis, bool resource) {
  SmallVector<int64_t> shape;
  std::vector<char> bytes = concat(weights, axis, shape);
  auto type =
      RankedTensorType::get(shape, weights.front().type.getElementType());
  return fuse::detail::makeElementsAttr(type, bytes, resource,
                                        "fuse_merged_weights");
}

/// What must agree between siblings: everything but the weights and bias.
std::string siblingKey(Operation *op) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << op->getName() << '|' << op->getAttrDictionary();
  auto weight = cast<RankedTensorType>(op->getOperand(1).getType());
  // Everything but the output-channel dimension must match.
  bool isConv = isa<tosa::Conv2DOp>(op);
  for (auto [d, size] : llvm::enumerate(weight.getShape()))
    os << '|'
       << ((isConv && d == 0) || (!isConv && int64_t(d) + 1 == weight.getRank())
               ? -1
               : size);
  os << '|' << weight.getElementType();
  // Zero points must be the same values.
  for (unsigned i = isConv ? 3 : 2; i < op->getNumOperands(); ++i) {
    std::optional<fuse::detail::ConstantData> zp =
        fuse::detail::getConstantData(op->getOperand(i));
    if (!zp)
      return "";
    os << '|' << zp->type << ':'
       << llvm::toHex(StringRef(zp->bytes.data(), zp->bytes.size()));
  }
  return key;
}

bool isCandidate(Operation *op) {
  if (!isa<tosa::MatMulOp, tosa::Conv2DOp>(op))
    return false;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result || !result.hasStaticShape() ||
      !fuse::detail::getConstantData(op->getOperand(1)))
    return false;
  if (isa<tosa::Conv2DOp>(op) &&
      !fuse::detail::getConstantData(op->getOperand(2)))
    return false;
  return true;
}

/// A !tosa.shape constant.
Value makeShape(ImplicitLocOpBuilder &b, ArrayRef<int64_t> values) {
  auto attrType =
      RankedTensorType::get({int64_t(values.size())}, b.getIndexType());
  auto attr = DenseIntElementsAttr::get(attrType, values);
  return tosa::ConstShapeOp::create(
      b, tosa::shapeType::get(b.getContext(), values.size()), attr);
}

void mergeSiblings(ArrayRef<Operation *> siblings) {
  Operation *first = siblings.front();
  bool isConv = isa<tosa::Conv2DOp>(first);
  auto resultType = cast<RankedTensorType>(first->getResult(0).getType());
  int64_t rank = resultType.getRank();
  int64_t weightAxis = isConv ? 0 : rank - 1;

  SmallVector<fuse::detail::ConstantData> weights, biases;
  SmallVector<Location> locs;
  int64_t channels = 0;
  bool resource = false;
  for (Operation *op : siblings) {
    weights.push_back(*fuse::detail::getConstantData(op->getOperand(1)));
    resource |= weights.back().fromResource;
    int64_t n =
        cast<RankedTensorType>(op->getResult(0).getType()).getShape().back();
    if (isConv) {
      fuse::detail::ConstantData bias =
          *fuse::detail::getConstantData(op->getOperand(2));
      // A bias of one value broadcasts: expand it to the channels.
      if (bias.type.getNumElements() != n) {
        std::vector<char> one = bias.bytes;
        bias.bytes.clear();
        for (int64_t i = 0; i < n; ++i)
          bias.bytes.insert(bias.bytes.end(), one.begin(), one.end());
        bias.type = RankedTensorType::get({n}, bias.type.getElementType());
      }
      biases.push_back(std::move(bias));
    }
    channels += n;
    locs.push_back(op->getLoc());
  }

  OpBuilder builder(first);
  MLIRContext *ctx = first->getContext();
  // The merged op stands for all of them: its location names each one.
  Location loc = FusedLoc::get(ctx, locs);
  ImplicitLocOpBuilder b(loc, builder);
  ElementsAttr weightAttr = concatWeights(weights, weightAxis, resource);
  Value weightConst =
      tosa::ConstOp::create(b, weightAttr.getType(), weightAttr);
  Value biasConst;
  if (isConv) {
    ElementsAttr biasAttr = concatWeights(biases, /*axis=*/0,
                                          /*resource=*/false);
    biasConst = tosa::ConstOp::create(b, biasAttr.getType(), biasAttr);
  }
  Operation *merged = b.clone(*first);
  merged->setLoc(loc);
  merged->setOperand(1, weightConst);
  if (biasConst)
    merged->setOperand(2, biasConst);
  SmallVector<int64_t> shape(resultType.getShape());
  shape.back() = channels;
  merged->getResult(0).setType(
      RankedTensorType::get(shape, resultType.getElementType()));

  // The siblings are erased below: insert after the merged op.
  b.setInsertionPointAfter(merged);
  int64_t offset = 0;
  for (Operation *op : siblings) {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<int64_t> start(rank, 0), size(type.getShape());
    start.back() = offset;
    offset += type.getShape().back();
    Value slice = tosa::SliceOp::create(
        b, type, merged->getResult(0), makeShape(b, start), makeShape(b, size));
    slice.getDefiningOp()->setLoc(op->getLoc());
    op->getResult(0).replaceAllUsesWith(slice);
  }
  // Only now: the insertion point sits in front of the first sibling.
  for (Operation *op : siblings)
    op->erase();
}

//===----------------------------------------------------------------------===//
// The same on linalg (another front end's, or written by hand)
//===----------------------------------------------------------------------===//

/// How a linalg contraction holds its weights: the operand, the weights'
/// output-channel axis, and the result's.
struct LinalgWeights {
  int64_t weightAxis = 0, resultAxis = 0;
};

/// The broadcast of a constant vector along `resultAxis` into an empty
/// tensor that `init` is, if it is one: the initial value torch-mlir gives
/// a convolution or matmul with a bias.
linalg::GenericOp biasInit(Value init, int64_t resultAxis) {
  auto g = init.getDefiningOp<linalg::GenericOp>();
  if (!g || g.getNumDpsInputs() != 1 || g.getNumResults() != 1 ||
      !g.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>() ||
      g.getNumParallelLoops() != g.getNumLoops())
    return {};
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  if (!maps[1].isIdentity() || maps[0].getNumResults() != 1 ||
      maps[0].getResult(0) != getAffineDimExpr(resultAxis, g.getContext()))
    return {};
  auto yield = cast<linalg::YieldOp>(g.getBody()->getTerminator());
  if (yield.getValues()[0] != g.getBody()->getArgument(0) ||
      !fuse::detail::getConstantData(g.getInputs()[0]))
    return {};
  return g;
}

/// A linalg matmul (plain, or with B transposed: `[N, K]`) or an NHWC /
/// NCHW convolution with a constant weight operand, static shapes and an
/// init that is a fill of an empty tensor with a constant or the broadcast
/// of a constant bias (biasInit): what merging needs to know of it.
std::optional<LinalgWeights> linalgCandidate(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      linalgOp.getNumDpsInputs() != 2 || linalgOp.getNumDpsInits() != 1)
    return std::nullopt;
  LinalgWeights w;
  if (auto matmul = dyn_cast<linalg::MatmulOp>(op)) {
    MLIRContext *ctx = op->getContext();
    AffineExpr m, n, k;
    bindDims(ctx, m, n, k);
    auto maps = [&](AffineExpr bm, AffineExpr bn) {
      return SmallVector<AffineMap>{AffineMap::get(3, 0, {m, k}, ctx),
                                    AffineMap::get(3, 0, {bm, bn}, ctx),
                                    AffineMap::get(3, 0, {m, n}, ctx)};
    };
    SmallVector<AffineMap> actual = matmul.getIndexingMapsArray();
    if (actual == maps(k, n))
      w = {1, 1};
    else if (actual == maps(n, k))
      w = {0, 1};
    else
      return std::nullopt;
  } else if (isa<linalg::Conv2DNhwcFhwcOp>(op)) {
    w = {0, 3};
  } else if (isa<linalg::Conv2DNhwcHwcfOp>(op)) {
    w = {3, 3};
  } else if (isa<linalg::Conv2DNchwFchwOp>(op)) {
    w = {0, 1};
  } else {
    return std::nullopt;
  }
  auto fill = linalgOp.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  bool filled = fill && fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>() &&
                matchPattern(fill.getInputs()[0], m_Constant());
  if (!filled && !biasInit(linalgOp.getDpsInits()[0], w.resultAxis))
    return std::nullopt;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result || !result.hasStaticShape() ||
      !fuse::detail::getConstantData(linalgOp.getDpsInputs()[1]))
    return std::nullopt;
  return w;
}

/// What must agree between linalg siblings: the op and its attributes, the
/// weights' shape but for the output channels, the element types, and the
/// fill's value (or that the init is a bias, and the bias's type).
std::string linalgSiblingKey(Operation *op, const LinalgWeights &w) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << op->getName() << '|' << op->getAttrDictionary();
  auto linalgOp = cast<linalg::LinalgOp>(op);
  auto weight = cast<RankedTensorType>(linalgOp.getDpsInputs()[1].getType());
  for (auto [d, size] : llvm::enumerate(weight.getShape()))
    os << '|' << (int64_t(d) == w.weightAxis ? -1 : size);
  os << '|' << weight.getElementType() << '|'
     << cast<ShapedType>(op->getResult(0).getType()).getElementType() << '|';
  if (auto fill = linalgOp.getDpsInits()[0].getDefiningOp<linalg::FillOp>()) {
    Attribute value;
    matchPattern(fill.getInputs()[0], m_Constant(&value));
    os << value;
  } else {
    Value bias =
        biasInit(linalgOp.getDpsInits()[0], w.resultAxis).getInputs()[0];
    os << "bias " << cast<ShapedType>(bias.getType()).getElementType();
  }
  return key;
}

/// One linalg contraction on the weights concatenated along their output
/// channels, and a slice of its result per sibling.
void mergeLinalgSiblings(ArrayRef<Operation *> siblings,
                         const LinalgWeights &w) {
  Operation *first = siblings.front();
  auto firstOp = cast<linalg::LinalgOp>(first);
  auto resultType = cast<RankedTensorType>(first->getResult(0).getType());
  int64_t rank = resultType.getRank();
  SmallVector<fuse::detail::ConstantData> weights;
  SmallVector<Location> locs;
  int64_t channels = 0;
  bool resource = false;
  for (Operation *op : siblings) {
    weights.push_back(*fuse::detail::getConstantData(
        cast<linalg::LinalgOp>(op).getDpsInputs()[1]));
    resource |= weights.back().fromResource;
    channels += cast<RankedTensorType>(op->getResult(0).getType())
                    .getDimSize(w.resultAxis);
    locs.push_back(op->getLoc());
  }
  OpBuilder b(first);
  Location loc = FusedLoc::get(first->getContext(), locs);
  Value weightConst = arith::ConstantOp::create(
      b, loc, concatWeights(weights, w.weightAxis, resource));
  SmallVector<int64_t> shape(resultType.getShape());
  shape[w.resultAxis] = channels;
  Value empty =
      tensor::EmptyOp::create(b, loc, shape, resultType.getElementType());
  Value init;
  if (auto fill = firstOp.getDpsInits()[0].getDefiningOp<linalg::FillOp>()) {
    init = linalg::FillOp::create(b, loc, fill.getInputs(), empty).getResult(0);
  } else {
    // The biases concatenated, broadcast as the first sibling's was.
    SmallVector<fuse::detail::ConstantData> biases;
    bool biasResource = false;
    for (Operation *op : siblings) {
      biases.push_back(*fuse::detail::getConstantData(
          biasInit(cast<linalg::LinalgOp>(op).getDpsInits()[0], w.resultAxis)
              .getInputs()[0]));
      biasResource |= biases.back().fromResource;
    }
    linalg::GenericOp broadcast =
        biasInit(firstOp.getDpsInits()[0], w.resultAxis);
    IRMapping bias;
    bias.map(broadcast.getInputs()[0],
             arith::ConstantOp::create(
                 b, loc, concatWeights(biases, /*axis=*/0, biasResource)));
    bias.map(broadcast.getDpsInits()[0], empty);
    Operation *merged = b.clone(*broadcast, bias);
    merged->getResult(0).setType(cast<RankedTensorType>(empty.getType()));
    init = merged->getResult(0);
  }
  IRMapping mapping;
  mapping.map(firstOp.getDpsInputs()[1], weightConst);
  mapping.map(firstOp.getDpsInits()[0], init);
  Operation *merged = b.clone(*first, mapping);
  merged->setLoc(loc);
  merged->getResult(0).setType(init.getType());
  int64_t offset = 0;
  for (Operation *op : siblings) {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes,
        strides(rank, b.getIndexAttr(1));
    for (int64_t size : type.getShape())
      sizes.push_back(b.getIndexAttr(size));
    offsets[w.resultAxis] = b.getIndexAttr(offset);
    offset += type.getDimSize(w.resultAxis);
    Value slice = tensor::ExtractSliceOp::create(
        b, op->getLoc(), type, merged->getResult(0), offsets, sizes, strides);
    op->getResult(0).replaceAllUsesWith(slice);
  }
  for (Operation *op : siblings)
    op->erase();
}

struct MergeSiblingContractionsPass
    : public fuse::impl::FuseMergeSiblingContractionsBase<
          MergeSiblingContractionsPass> {
  void runOnOperation() override {
    getOperation()->walk([&](Block *block) {
      // Siblings keyed by input, attributes and weight shape, in program
      // order; the merged op goes where the first one was.
      std::map<std::pair<const void *, std::string>, size_t> index;
      std::vector<SmallVector<Operation *>> buckets;
      for (Operation &op : *block) {
        if (!isCandidate(&op))
          continue;
        std::string key = siblingKey(&op);
        if (key.empty())
          continue;
        auto [it, inserted] = index.try_emplace(
            {op.getOperand(0).getAsOpaquePointer(), key}, buckets.size());
        if (inserted)
          buckets.emplace_back();
        buckets[it->second].push_back(&op);
      }
      for (SmallVector<Operation *> &siblings : buckets)
        if (siblings.size() > 1)
          mergeSiblings(siblings);
      // linalg contractions, keyed the same way by their input.
      index.clear();
      std::vector<std::pair<LinalgWeights, SmallVector<Operation *>>> groups;
      for (Operation &op : *block) {
        std::optional<LinalgWeights> w = linalgCandidate(&op);
        if (!w)
          continue;
        auto [it, inserted] = index.try_emplace(
            {op.getOperand(0).getAsOpaquePointer(), linalgSiblingKey(&op, *w)},
            groups.size());
        if (inserted)
          groups.push_back({*w, {}});
        groups[it->second].second.push_back(&op);
      }
      for (auto &[w, siblings] : groups)
        if (siblings.size() > 1)
          mergeLinalgSiblings(siblings, w);
    });
  }
};

} // namespace
