//===- MmaContraction.cpp - a contraction as a GEMM -----------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/CostModel/MmaContraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// The loops `map` uses.
llvm::SmallBitVector usedDims(AffineMap map) {
  llvm::SmallBitVector used(map.getNumDims());
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    used[d] = map.isFunctionOfDim(d);
  return used;
}

/// Whether `value` is `arg` (a block argument of the payload).
bool is(Value value, BlockArgument arg) { return value == arg; }

} // namespace

std::optional<MmaContraction>
mlir::fuse::matchMmaContraction(linalg::LinalgOp op, std::string *why) {
  auto fail = [&](const char *reason) -> std::optional<MmaContraction> {
    if (why)
      *why = reason;
    return std::nullopt;
  };
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return fail("not two inputs and one output");
  Type f32 = Float32Type::get(op->getContext());
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type || !type.hasStaticShape())
      return fail("an operand that is not a static tensor or buffer");
  }
  auto elementOf = [&](unsigned k) {
    return cast<ShapedType>(op->getOperand(k).getType()).getElementType();
  };
  Type operandType = elementOf(0);
  bool sixteen = operandType.isF16() || operandType.isBF16();
  if (elementOf(2) != f32 || elementOf(1) != operandType ||
      !(operandType == f32 || sixteen))
    return fail("inputs that are not both f32, f16 or bf16, or an output "
                "that is not f32");
  // out + a * b (either order of each), 16-bit inputs each extended first.
  Block *body = op.getBlock();
  auto args = body->getArguments();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (body->getOperations().size() != (sixteen ? 5u : 3u) ||
      yield.getNumOperands() != 1)
    return fail("a payload other than out + a * b");
  // The value an input's argument is read as: itself, or its extension.
  auto read = [&](BlockArgument arg) -> Value {
    if (!sixteen)
      return arg;
    for (Operation *user : arg.getUsers())
      if (auto ext = dyn_cast<arith::ExtFOp>(user))
        if (ext.getType() == f32)
          return ext.getResult();
    return Value();
  };
  Value readA = read(args[0]), readB = read(args[1]);
  if (!readA || !readB)
    return fail("a payload other than out + a * b");
  auto addOp = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!addOp)
    return fail("a payload other than out + a * b");
  Value product = is(addOp.getLhs(), args[2])   ? addOp.getRhs()
                  : is(addOp.getRhs(), args[2]) ? addOp.getLhs()
                                                : Value();
  auto mulOp = product ? product.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mulOp || !((mulOp.getLhs() == readA && mulOp.getRhs() == readB) ||
                  (mulOp.getLhs() == readB && mulOp.getRhs() == readA)))
    return fail("a payload other than out + a * b");

  MmaContraction c;
  c.op = op;
  c.operandType = operandType;
  c.sizes = op.getStaticLoopRanges();
  if (llvm::any_of(c.sizes, ShapedType::isDynamic))
    return fail("a dynamic loop");
  OpOperand *in0 = op.getDpsInputOperand(0), *in1 = op.getDpsInputOperand(1);
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!outMap.isProjectedPermutation() || outMap.getNumResults() == 0)
    return fail("an output indexed other than by loops");
  llvm::SmallBitVector used0 = usedDims(op.getMatchingIndexingMap(in0)),
                       used1 = usedDims(op.getMatchingIndexingMap(in1)),
                       usedOut = usedDims(outMap);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  // The N side: the input the output's contiguous loop indexes.
  unsigned last = cast<AffineDimExpr>(outMap.getResults().back()).getPosition();
  bool firstIsN = used0[last] && !used1[last];
  c.a = firstIsN ? in1 : in0;
  c.b = firstIsN ? in0 : in1;
  llvm::SmallBitVector usedA = firstIsN ? used1 : used0,
                       usedB = firstIsN ? used0 : used1;
  for (AffineExpr e : outMap.getResults()) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    if (usedA[d] && !usedB[d])
      c.m.push_back(d);
    else if (usedB[d] && !usedA[d])
      c.n.push_back(d);
    else
      c.batch.push_back(d);
  }
  for (auto [d, iterator] : llvm::enumerate(iterators)) {
    if (iterator == utils::IteratorType::parallel) {
      if (!usedOut[d])
        return fail("a parallel loop the output does not index");
      continue;
    }
    if (!usedA[d] || !usedB[d])
      return fail("a reduction loop one input does not index");
  }
  // K in the order A's indices use them (its contiguous one fastest).
  AffineMap mapA = op.getMatchingIndexingMap(c.a);
  for (AffineExpr e : mapA.getResults())
    for (auto [d, iterator] : llvm::enumerate(iterators))
      if (iterator != utils::IteratorType::parallel && e.isFunctionOfDim(d) &&
          !llvm::is_contained(c.k, d))
        c.k.push_back(d);
  if (c.m.empty() || c.n.empty() || c.k.empty())
    return fail("no M, N or K loop");
  auto points = [&](ArrayRef<unsigned> dims) {
    int64_t n = 1;
    for (unsigned d : dims)
      n *= c.sizes[d];
    return n;
  };
  c.batchPoints = points(c.batch);
  c.mPoints = points(c.m);
  c.nPoints = points(c.n);
  c.kPoints = points(c.k);
  auto kFastest = [&](OpOperand *operand) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    AffineExpr inner = map.getResults().back();
    return llvm::any_of(c.k,
                        [&](unsigned d) { return inner.isFunctionOfDim(d); });
  };
  c.aKFastest = kFastest(c.a);
  c.bKFastest = kFastest(c.b);
  return c;
}
