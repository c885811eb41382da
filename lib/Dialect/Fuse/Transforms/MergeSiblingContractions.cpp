//===- MergeSiblingContractions.cpp - one GEMM for same-input siblings ----===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Transforms/FusionEngine.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/Matchers.h"

#include <map>
#include <numeric>

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEMERGESIBLINGCONTRACTIONS
#include "fuse/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {


/// The dense constant behind `value`, if its elements are whole bytes.
DenseElementsAttr getDenseConstant(Value value) {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return {};
  Type elem = attr.getElementType();
  if (!elem.isIntOrFloat() || elem.getIntOrFloatBitWidth() % 8 != 0)
    return {};
  return attr;
}

/// Raw bytes of `attr`, splats expanded.
std::vector<char> getBytes(DenseElementsAttr attr) {
  ArrayRef<char> raw = attr.getRawData();
  if (!attr.isSplat())
    return std::vector<char>(raw.begin(), raw.end());
  std::vector<char> out;
  out.reserve(raw.size() * attr.getNumElements());
  for (int64_t i = 0; i < attr.getNumElements(); ++i)
    out.insert(out.end(), raw.begin(), raw.end());
  return out;
}

/// Concatenates constants of the same element type along `axis`.
DenseElementsAttr concat(ArrayRef<DenseElementsAttr> parts, int64_t axis) {
  auto first = cast<RankedTensorType>(parts.front().getType());
  int64_t elemBytes = first.getElementTypeBitWidth() / 8;
  SmallVector<int64_t> shape(first.getShape());
  shape[axis] = 0;
  for (DenseElementsAttr part : parts)
    shape[axis] += cast<RankedTensorType>(part.getType()).getDimSize(axis);
  int64_t outer = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= shape[d];
  std::vector<std::vector<char>> bytes;
  SmallVector<int64_t> chunk; // bytes of one slice of each part per outer index
  for (DenseElementsAttr part : parts) {
    bytes.push_back(getBytes(part));
    chunk.push_back(int64_t(bytes.back().size()) / outer);
  }
  std::vector<char> out;
  out.reserve(outer * std::accumulate(chunk.begin(), chunk.end(), int64_t(0)));
  for (int64_t o = 0; o < outer; ++o)
    for (auto [b, c] : llvm::zip(bytes, chunk))
      out.insert(out.end(), b.begin() + o * c, b.begin() + (o + 1) * c);
  (void)elemBytes;
  auto type = RankedTensorType::get(shape, first.getElementType());
  return DenseElementsAttr::getFromRawBuffer(type, out);
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
    DenseElementsAttr zp = getDenseConstant(op->getOperand(i));
    if (!zp)
      return "";
    os << '|' << zp;
  }
  return key;
}

bool isCandidate(Operation *op) {
  if (!isa<tosa::MatMulOp, tosa::Conv2DOp>(op))
    return false;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!result || !result.hasStaticShape() || !getDenseConstant(op->getOperand(1)))
    return false;
  if (isa<tosa::Conv2DOp>(op) && !getDenseConstant(op->getOperand(2)))
    return false;
  return true;
}

/// A !tosa.shape constant.
Value makeShape(ImplicitLocOpBuilder &b, ArrayRef<int64_t> values) {
  auto attrType = RankedTensorType::get({int64_t(values.size())},
                                        b.getIndexType());
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

  SmallVector<DenseElementsAttr> weights, biases;
  SmallVector<Location> locs;
  int64_t channels = 0;
  for (Operation *op : siblings) {
    weights.push_back(getDenseConstant(op->getOperand(1)));
    if (isConv) {
      DenseElementsAttr bias = getDenseConstant(op->getOperand(2));
      int64_t n = cast<RankedTensorType>(op->getResult(0).getType())
                      .getShape()
                      .back();
      // A bias of one value broadcasts: expand it to the channels.
      if (bias.getNumElements() != n)
        bias = DenseElementsAttr::get(
            RankedTensorType::get({n}, bias.getElementType()),
            bias.getSplatValue<Attribute>());
      biases.push_back(bias);
    }
    channels += cast<RankedTensorType>(op->getResult(0).getType())
                    .getShape()
                    .back();
    locs.push_back(op->getLoc());
  }

  OpBuilder builder(first);
  MLIRContext *ctx = first->getContext();
  Location loc =
      FusedLoc::get(ctx, locs, StringAttr::get(ctx, fuse::kSharedInputContractionsMarker));
  ImplicitLocOpBuilder b(loc, builder);
  DenseElementsAttr weight = concat(weights, weightAxis);
  Value weightConst = tosa::ConstOp::create(b, weight.getType(), weight);
  Value biasConst;
  if (isConv) {
    DenseElementsAttr bias = concat(biases, 0);
    biasConst = tosa::ConstOp::create(b, bias.getType(), bias);
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
    Value slice = tosa::SliceOp::create(b, type, merged->getResult(0),
                                        makeShape(b, start),
                                        makeShape(b, size));
    slice.getDefiningOp()->setLoc(op->getLoc());
    op->getResult(0).replaceAllUsesWith(slice);
  }
  // Only now: the insertion point sits in front of the first sibling.
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
    });
  }
};

} // namespace
