//===- PlanBuffers.cpp - buffers between kernels in one arena -------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "AliasOps.h"

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "fuse/Memory/MemoryPlanner.h"
#include "fuse/Memory/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEPLANBUFFERS
#include "fuse/Memory/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;
using mlir::fuse::detail::isAliasOp;

namespace {

/// An allocation the pass may place, with its live interval in steps (the
/// index of the ops of the block).
struct Candidate {
  memref::AllocOp alloc;
  int64_t start = 0, end = 0, bytes = 0;
  /// Deallocations of the buffer or of a view of it; they go with it.
  SmallVector<Operation *> deallocs;
};

/// How an op of a group function touches one of its memref arguments.
enum class Access { none, read, write, other };

/// The access of `op` to `arg` when `op` is a linalg op whose loops are all
/// parallel and whose indexing map for `arg` is the identity (element i is
/// read or written only at iteration i), or a whole-buffer `memref.copy`.
Access elementwiseAccess(Operation *op, Value arg) {
  if (!llvm::is_contained(op->getOperands(), arg))
    return Access::none;
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    if (copy.getTarget() == arg && copy.getSource() != arg)
      return Access::write;
    if (copy.getSource() == arg && copy.getTarget() != arg)
      return Access::read;
    return Access::other;
  }
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumLoops() != linalgOp.getNumParallelLoops())
    return Access::other;
  Access access = Access::none;
  for (OpOperand &operand : op->getOpOperands()) {
    if (operand.get() != arg)
      continue;
    if (!linalgOp.getMatchingIndexingMap(&operand).isIdentity())
      return Access::other;
    bool init = linalgOp.isDpsInit(&operand);
    if (init && linalgOp.payloadUsesValueFromOperand(&operand))
      return Access::other;
    Access here = init ? Access::write : Access::read;
    if (access != Access::none && access != here)
      return Access::other;
    access = here;
  }
  return access;
}

/// Whether the group function `callee` may write its argument `out` over
/// its argument `in`: every use of both is a top-level op of its body that
/// reads `in` or writes `out` element by element, and no op reads `in` after
/// one that writes `out` (so an element is always read before the same
/// element is overwritten, and never read again afterwards).
bool mayWriteInPlace(func::FuncOp callee, unsigned in, unsigned out) {
  if (callee.isExternal() || !callee.getBody().hasOneBlock() ||
      in >= callee.getNumArguments() || out >= callee.getNumArguments())
    return false;
  Block &body = callee.getBody().front();
  Value input = body.getArgument(in), output = body.getArgument(out);
  for (Value v : {input, output})
    for (Operation *user : v.getUsers())
      if (user->getBlock() != &body)
        return false;
  bool written = false;
  for (Operation &op : body) {
    Access reads = elementwiseAccess(&op, input);
    Access writes = elementwiseAccess(&op, output);
    if (reads == Access::other || writes == Access::other ||
        reads == Access::write || writes == Access::read)
      return false;
    // Reading `in` and writing `out` in one op is fine for an all-parallel
    // op with identity maps (each iteration reads before it writes), but a
    // copy that does both would be copying `in` onto itself.
    if (reads == Access::read && written)
      return false;
    if (reads == Access::read && writes == Access::write &&
        isa<memref::CopyOp>(op))
      return false;
    written |= writes == Access::write;
  }
  return true;
}

struct PlanBuffersPass
    : public mlir::fuse::impl::FusePlanBuffersBase<PlanBuffersPass> {
  using FusePlanBuffersBase::FusePlanBuffersBase;

  void runOnOperation() override {
    if (workspace != "alloc" && workspace != "argument") {
      getOperation()->emitError()
          << "fuse-plan-buffers: workspace must be 'alloc' or 'argument', "
             "got '"
          << workspace << "'";
      return signalPassFailure();
    }
    if (alignment < 1) {
      getOperation()->emitError()
          << "fuse-plan-buffers: alignment must be at least 1";
      return signalPassFailure();
    }
    SymbolTable symbols(getOperation());
    SmallVector<func::FuncOp> functions;
    for (func::FuncOp fn : getOperation().getOps<func::FuncOp>())
      if (!fn.isExternal() && fn.getBody().hasOneBlock() &&
          !FuseDialect::NoPlanAttrHelper(fn->getContext()).isAttrPresent(fn) &&
          !FuseDialect::KindAttrHelper(fn->getContext()).isAttrPresent(fn))
        functions.push_back(fn);
    for (func::FuncOp fn : functions)
      planFunction(fn, symbols);
  }

  void planFunction(func::FuncOp fn, SymbolTable &symbols) {
    Block &block = fn.getBody().front();
    llvm::DenseMap<Operation *, int64_t> step;
    int64_t index = 0;
    for (Operation &op : block)
      step[&op] = index++;

    // Candidates and their intervals, following views.
    SmallVector<Candidate> candidates;
    llvm::DenseMap<Value, unsigned> candidateOf;
    SmallVector<memref::AllocOp> results;
    for (Operation &op : block) {
      auto alloc = dyn_cast<memref::AllocOp>(op);
      if (!alloc || !alloc.getType().hasStaticShape() ||
          !alloc.getType().getLayout().isIdentity() ||
          alloc.getType().getMemorySpace())
        continue;
      std::optional<int64_t> bytes = getShapedTypeBytes(alloc.getType());
      if (!bytes)
        continue;
      Candidate c{alloc, step[alloc], step[alloc], *bytes, {}};
      bool escapes = false;
      SmallVector<Value> worklist = {alloc.getResult()};
      while (!worklist.empty() && !escapes) {
        Value value = worklist.pop_back_val();
        for (Operation *user : value.getUsers()) {
          Operation *top = block.findAncestorOpInBlock(*user);
          // Leaves through a terminator (return, yield, branch) or a region
          // this function does not own: not ours to place.
          if (!top || user->hasTrait<OpTrait::IsTerminator>()) {
            escapes = true;
            break;
          }
          // Deallocations go with the buffer; they do not extend its life.
          if (isa<memref::DeallocOp>(user)) {
            c.deallocs.push_back(user);
            continue;
          }
          c.end = std::max(c.end, step[top]);
          if (isAliasOp(user)) {
            for (Value result : user->getResults())
              if (isa<BaseMemRefType>(result.getType()))
                worklist.push_back(result);
            continue;
          }
          // Any other op that makes a memref out of this one could keep the
          // memory alive in ways this pass does not follow.
          if (llvm::any_of(user->getResultTypes(),
                           [](Type t) { return isa<BaseMemRefType>(t); })) {
            escapes = true;
            break;
          }
        }
      }
      if (escapes) {
        results.push_back(alloc);
        continue;
      }
      candidateOf[alloc.getResult()] = candidates.size();
      candidates.push_back(c);
    }
    // What leaves the function (its results) is allocated before any
    // kernel runs: an allocation between launches would make the host wait
    // for the kernels queued before it (gpu-async-region).
    for (memref::AllocOp alloc : llvm::reverse(results))
      alloc->moveBefore(&block, block.begin());
    if (candidates.empty())
      return;

    // In-place reuse: a group whose call reads a buffer for the last time
    // writes its output there when its body provably reads every element
    // before it overwrites it (see mayWriteInPlace).
    llvm::EquivalenceClasses<unsigned> same;
    for (unsigned i = 0; i < candidates.size(); ++i)
      same.insert(i);
    int64_t inPlaceBytes = 0;
    llvm::DenseSet<unsigned> reused; // inputs already given to an output
    if (inPlace) {
      for (Operation &op : block) {
        auto call = dyn_cast<func::CallOp>(op);
        if (!call)
          continue;
        auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
        if (!callee)
          continue;
        int64_t at = step[call];
        auto passedOnce = [&](Value v) {
          return llvm::count(call.getOperands(), v) == 1;
        };
        for (auto [outPos, out] : llvm::enumerate(call.getOperands())) {
          auto outIt = candidateOf.find(out);
          // An output: allocated just for this call.
          if (outIt == candidateOf.end() || !passedOnce(out))
            continue;
          Candidate &o = candidates[outIt->second];
          if (o.alloc->getNextNode() != call.getOperation())
            continue;
          for (auto [inPos, in] : llvm::enumerate(call.getOperands())) {
            auto inIt = candidateOf.find(in);
            if (in == out || inIt == candidateOf.end() || !passedOnce(in))
              continue;
            Candidate &i = candidates[inIt->second];
            if (i.end != at || i.alloc.getType() != o.alloc.getType() ||
                reused.contains(inIt->second) ||
                same.isEquivalent(inIt->second, outIt->second) ||
                !mayWriteInPlace(callee, inPos, outPos))
              continue;
            same.unionSets(inIt->second, outIt->second);
            reused.insert(inIt->second);
            inPlaceBytes += o.bytes;
            break;
          }
        }
      }
    }

    // One place in the arena per equivalence class.
    std::vector<::fuse::planner::Buffer> intervals;
    std::vector<size_t> placeOf;
    for (auto [i, c] : llvm::enumerate(candidates)) {
      intervals.push_back({c.start, c.end, c.bytes});
      placeOf.push_back(same.getLeaderValue(i));
    }
    std::vector<::fuse::planner::Buffer> places =
        ::fuse::planner::mergePlaces(intervals, placeOf);
    ::fuse::planner::Options options;
    options.alignment = alignment;
    options.searchBudget = searchBudget;
    ::fuse::planner::Plan plan = ::fuse::planner::plan(places, options);
    std::string error;
    if (!::fuse::planner::verify(places, plan, alignment, &error)) {
      fn.emitError() << "fuse-plan-buffers: internal error: " << error;
      return signalPassFailure();
    }
    int64_t naive = ::fuse::planner::computeNaive(intervals, alignment);

    // The arena.
    MLIRContext *ctx = &getContext();
    OpBuilder builder(ctx);
    auto arenaType = MemRefType::get({plan.arena}, builder.getI8Type());
    Value arena;
    if (workspace == "argument") {
      unsigned position = fn.getNumArguments();
      if (failed(fn.insertArgument(position, arenaType, {}, fn.getLoc()))) {
        fn.emitError() << "fuse-plan-buffers: cannot add the workspace "
                          "argument";
        return signalPassFailure();
      }
      arena = fn.getArgument(position);
      builder.setInsertionPointAfter(fn);
      auto query = func::FuncOp::create(
          builder, fn.getLoc(), (fn.getName() + "_workspace_bytes").str(),
          builder.getFunctionType({}, {builder.getIndexType()}));
      OpBuilder body = OpBuilder::atBlockBegin(query.addEntryBlock());
      Value size =
          arith::ConstantIndexOp::create(body, fn.getLoc(), plan.arena);
      func::ReturnOp::create(body, fn.getLoc(), size);
    } else {
      builder.setInsertionPointToStart(&block);
      auto alloc = memref::AllocOp::create(builder, fn.getLoc(), arenaType);
      alloc.setAlignment(alignment);
      arena = alloc;
      fn.walk([&](func::ReturnOp ret) {
        OpBuilder b(ret);
        memref::DeallocOp::create(b, ret.getLoc(), arena);
      });
    }

    // Every planned allocation becomes a view of the arena.
    for (auto [i, c] : llvm::enumerate(candidates)) {
      OpBuilder b(c.alloc);
      Value offset = arith::ConstantIndexOp::create(b, c.alloc.getLoc(),
                                                    plan.offsets[placeOf[i]]);
      Value view = memref::ViewOp::create(
          b, c.alloc.getLoc(), c.alloc.getType(), arena, offset, ValueRange());
      for (Operation *dealloc : c.deallocs)
        dealloc->erase();
      c.alloc.replaceAllUsesWith(view);
      c.alloc.erase();
    }
    Builder b(ctx);
    FuseDialect::MemoryAttrHelper(ctx).setAttr(
        fn,
        b.getDictionaryAttr({
            b.getNamedAttr("naive", b.getI64IntegerAttr(naive)),
            b.getNamedAttr("arena", b.getI64IntegerAttr(plan.arena)),
            b.getNamedAttr("max_live", b.getI64IntegerAttr(plan.maxLive)),
            b.getNamedAttr("in_place_bytes", b.getI64IntegerAttr(inPlaceBytes)),
            b.getNamedAttr("strategy", b.getStringAttr(plan.strategy)),
        }));
  }
};

} // namespace
