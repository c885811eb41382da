//===- OutlineParallel.cpp - fuse-cpu-outline-parallel --------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// A parallel loop becomes a function over a range of its linearized
// iterations, called once over all of them; fuse-cpu-dispatch-parallel
// later hands that call to the runtime's threads.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/CPU/Passes.h"

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECPUOUTLINEPARALLEL
#include "fuse/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// One parallel loop nest: its dimensions (outermost first), the
/// operation that holds them all, and the block run per iteration.
struct ParallelNest {
  Operation *root = nullptr;
  SmallVector<Value> lowerBounds, upperBounds, steps;
  SmallVector<Value> inductionVars;
  /// Trailing dimensions of an scf.parallel that stay loops inside each
  /// iteration (so the contiguous one still vectorizes), outermost first.
  SmallVector<Value> innerLowerBounds, innerUpperBounds, innerSteps;
  SmallVector<Value> innerInductionVars;
  Block *body = nullptr;
};

/// The iterations an scf.parallel's outer dimensions should at least give
/// the threads before the rest stay loops.
constexpr int64_t kOuterIterations = 256;

/// max(0, ceil((ub - lb) / step)) when all three are constants (and the
/// step positive).
std::optional<int64_t> constantTripCount(Value lb, Value ub, Value step) {
  std::optional<int64_t> l = getConstantIntValue(lb),
                         u = getConstantIntValue(ub),
                         s = getConstantIntValue(step);
  if (!l || !u || !s || *s <= 0)
    return std::nullopt;
  return std::max<int64_t>(0, llvm::divideCeil(*u - *l, *s));
}

/// The trip count for estimates: 16 for a loop that is not static.
int64_t staticTripCount(Value lb, Value ub, Value step) {
  return constantTripCount(lb, ub, step).value_or(16);
}

/// Non-negative counts that stop at the largest int64_t.
int64_t addCounts(int64_t a, int64_t b) {
  int64_t sum;
  return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
}
int64_t multiplyCounts(int64_t a, int64_t b) {
  int64_t product;
  return __builtin_mul_overflow(a, b, &product) ? INT64_MAX : product;
}

/// Operations the nest runs per iteration, counted through the loops in it
/// (static trip counts; 16 for one that is not static).
int64_t workOf(Block &block) {
  int64_t work = 0;
  for (Operation &op : block) {
    int64_t inner = 0;
    for (Region &region : op.getRegions())
      for (Block &b : region)
        inner += workOf(b);
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      inner = multiplyCounts(inner, staticTripCount(loop.getLowerBound(),
                                                    loop.getUpperBound(),
                                                    loop.getStep()));
    } else if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      for (auto [l, u, s] : llvm::zip(loop.getLowerBound(),
                                      loop.getUpperBound(), loop.getStep()))
        inner = multiplyCounts(inner, staticTripCount(l, u, s));
    }
    work = addCounts(work, std::max<int64_t>(inner, 1));
  }
  return work;
}

bool isParallelTiles(scf::ForOp loop) {
  return loop.getInitArgs().empty() &&
         FuseDialect::ParallelTilesAttrHelper(loop->getContext())
             .isAttrPresent(loop);
}

/// The nest rooted at `op`, if it is one this pass outlines.
std::optional<ParallelNest> nestAt(Operation *op) {
  ParallelNest nest;
  nest.root = op;
  if (auto parallel = dyn_cast<scf::ParallelOp>(op)) {
    if (parallel.getNumResults() != 0)
      return std::nullopt;
    // The fewest outer dimensions that give kOuterIterations (all but the
    // innermost at most): those are spread, the rest stay loops.
    unsigned rank = parallel.getNumLoops(), outer = 0;
    int64_t iterations = 1;
    while (outer < std::max(rank, 2u) - 1 && iterations < kOuterIterations) {
      iterations = multiplyCounts(
          iterations, staticTripCount(parallel.getLowerBound()[outer],
                                      parallel.getUpperBound()[outer],
                                      parallel.getStep()[outer]));
      ++outer;
    }
    auto split = [&](auto range, SmallVector<Value> &head,
                     SmallVector<Value> &tail) {
      for (auto [d, value] : llvm::enumerate(range))
        (d < outer ? head : tail).push_back(value);
    };
    split(parallel.getLowerBound(), nest.lowerBounds, nest.innerLowerBounds);
    split(parallel.getUpperBound(), nest.upperBounds, nest.innerUpperBounds);
    split(parallel.getStep(), nest.steps, nest.innerSteps);
    split(parallel.getInductionVars(), nest.inductionVars,
          nest.innerInductionVars);
    nest.body = parallel.getBody();
    return nest;
  }
  auto loop = dyn_cast<scf::ForOp>(op);
  if (!loop || !isParallelTiles(loop))
    return std::nullopt;
  // The chain of marked loops, each the only operation of its parent's
  // body, with bounds from outside the whole chain.
  while (true) {
    nest.lowerBounds.push_back(loop.getLowerBound());
    nest.upperBounds.push_back(loop.getUpperBound());
    nest.steps.push_back(loop.getStep());
    nest.inductionVars.push_back(loop.getInductionVar());
    nest.body = loop.getBody();
    if (nest.body->getOperations().size() != 2)
      break;
    auto inner = dyn_cast<scf::ForOp>(nest.body->front());
    if (!inner || !isParallelTiles(inner) ||
        !llvm::all_of(inner->getOperands(), [&](Value v) {
          return cast<scf::ForOp>(op).isDefinedOutsideOfLoop(v);
        }))
      break;
    loop = inner;
  }
  return nest;
}

/// Values the outlined function clones rather than takes.
bool isCloneable(Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
         (def->hasTrait<OpTrait::ConstantLike>() ||
          isa<memref::GetGlobalOp>(def));
}

bool isPassable(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return memref.getMemorySpace() == nullptr;
  return isa<IndexType, IntegerType, FloatType, VectorType>(type);
}

/// max(0, ceil((ub - lb) / step)), folded where static.
Value iterationCount(OpBuilder &b, Location loc, Value lb, Value ub,
                     Value step) {
  if (std::optional<int64_t> count = constantTripCount(lb, ub, step))
    return arith::ConstantIndexOp::create(b, loc, *count);
  Value span = arith::SubIOp::create(b, loc, ub, lb);
  Value count = arith::CeilDivSIOp::create(b, loc, span, step);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  return arith::MaxSIOp::create(b, loc, count, zero);
}

struct FuseCpuOutlineParallelPass
    : public fuse::impl::FuseCpuOutlineParallelBase<
          FuseCpuOutlineParallelPass> {
  using FuseCpuOutlineParallelBase::FuseCpuOutlineParallelBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (minWork < 0) {
      module.emitError() << "fuse-cpu-outline-parallel: option 'min-work' "
                            "must be at least 0, got "
                         << minWork.getValue();
      return signalPassFailure();
    }
    SymbolTable symbols(module);
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (func.isExternal())
        continue;
      std::vector<ParallelNest> nests;
      func.walk<WalkOrder::PreOrder>([&](Operation *op) {
        std::optional<ParallelNest> nest = nestAt(op);
        if (!nest)
          return WalkResult::advance();
        nests.push_back(std::move(*nest));
        // Loops inside it stay loops of its body.
        return WalkResult::skip();
      });
      unsigned index = 0;
      for (ParallelNest &nest : nests)
        if (outline(symbols, func, nest, index))
          ++index;
    }
  }

  /// Outlines `nest` of `func`; false when it stays.
  bool outline(SymbolTable &symbols, func::FuncOp func, ParallelNest &nest,
               unsigned index) {
    Operation *root = nest.root;
    int64_t iterations = 1;
    for (auto [l, u, s] :
         llvm::zip(nest.lowerBounds, nest.upperBounds, nest.steps)) {
      int64_t trip = staticTripCount(l, u, s);
      iterations = multiplyCounts(iterations, trip);
    }
    // Work per iteration: the innermost body without its terminator, times
    // the dimensions that stay loops.
    int64_t perIteration = workOf(*nest.body) - 1;
    for (auto [l, u, s] : llvm::zip(nest.innerLowerBounds,
                                    nest.innerUpperBounds, nest.innerSteps))
      perIteration = multiplyCounts(perIteration, staticTripCount(l, u, s));
    if (iterations < 2 ||
        multiplyCounts(iterations, std::max<int64_t>(perIteration, 1)) <
            minWork)
      return false;

    // What the nest uses from outside: its bounds and its regions' uses.
    llvm::SetVector<Value> used;
    for (auto values :
         {nest.lowerBounds, nest.upperBounds, nest.steps, nest.innerLowerBounds,
          nest.innerUpperBounds, nest.innerSteps})
      used.insert(values.begin(), values.end());
    getUsedValuesDefinedAbove(root->getRegions(), used);
    SmallVector<Value> arguments, cloned;
    for (Value value : used) {
      if (isCloneable(value))
        cloned.push_back(value);
      else if (isPassable(value.getType()))
        arguments.push_back(value);
      else
        return false;
    }

    MLIRContext *context = func.getContext();
    Location loc = root->getLoc();
    Type indexType = IndexType::get(context);
    SmallVector<Type> inputTypes = {indexType, indexType};
    for (Value value : arguments)
      inputTypes.push_back(value.getType());
    OpBuilder moduleBuilder(func);
    moduleBuilder.setInsertionPointAfter(func);
    auto body = func::FuncOp::create(
        moduleBuilder, loc,
        (func.getSymName() + "_parallel" + Twine(index)).str(),
        FunctionType::get(context, inputTypes, {}));
    body.setPrivate();
    FuseDialect::ParallelBodyAttrHelper(context).setAttr(
        body, UnitAttr::get(context));
    symbols.insert(body);

    Block *entry = body.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockBegin(entry);
    IRMapping mapping;
    for (auto [value, argument] :
         llvm::zip(arguments, entry->getArguments().drop_front(2)))
      mapping.map(value, argument);
    for (Value value : cloned)
      mapping.map(value,
                  b.clone(*value.getDefiningOp(), mapping)->getResult(0));
    auto mapped = [&](ArrayRef<Value> values) {
      return llvm::map_to_vector(
          values, [&](Value v) { return mapping.lookupOrDefault(v); });
    };
    SmallVector<Value> lbs = mapped(nest.lowerBounds),
                       ubs = mapped(nest.upperBounds),
                       steps = mapped(nest.steps);
    SmallVector<Value> counts;
    for (auto [l, u, s] : llvm::zip(lbs, ubs, steps))
      counts.push_back(iterationCount(b, loc, l, u, s));
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ForOp::create(b, loc, entry->getArgument(0),
                                   entry->getArgument(1), one);
    func::ReturnOp::create(b, loc);

    // Iteration `linear` of the nest: its indices innermost first.
    b.setInsertionPointToStart(loop.getBody());
    Value rest = loop.getInductionVar();
    SmallVector<Value> ivs(counts.size());
    for (int64_t d = counts.size() - 1; d >= 0; --d) {
      Value position = rest;
      if (d > 0) {
        position = arith::RemUIOp::create(b, loc, rest, counts[d]);
        rest = arith::DivUIOp::create(b, loc, rest, counts[d]);
      }
      Value scaled = arith::MulIOp::create(b, loc, position, steps[d]);
      ivs[d] = arith::AddIOp::create(b, loc, lbs[d], scaled);
    }
    for (auto [old, iv] : llvm::zip(nest.inductionVars, ivs))
      mapping.map(old, iv);
    // The dimensions that stay loops.
    for (auto [l, u, s, old] :
         llvm::zip(nest.innerLowerBounds, nest.innerUpperBounds,
                   nest.innerSteps, nest.innerInductionVars)) {
      auto inner = scf::ForOp::create(b, loc, mapping.lookupOrDefault(l),
                                      mapping.lookupOrDefault(u),
                                      mapping.lookupOrDefault(s));
      mapping.map(old, inner.getInductionVar());
      b.setInsertionPointToStart(inner.getBody());
    }
    for (Operation &op : nest.body->without_terminator())
      b.clone(op, mapping);

    // The call over all iterations, where the nest was.
    OpBuilder call(root);
    Value total = arith::ConstantIndexOp::create(call, loc, 1);
    for (auto [l, u, s] :
         llvm::zip(nest.lowerBounds, nest.upperBounds, nest.steps))
      total = arith::MulIOp::create(call, loc, total,
                                    iterationCount(call, loc, l, u, s));
    SmallVector<Value> operands = {arith::ConstantIndexOp::create(call, loc, 0),
                                   total};
    operands.append(arguments);
    func::CallOp::create(call, loc, body, operands);
    root->erase();
    return true;
  }
};

} // namespace
