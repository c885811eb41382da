//===- LowerGroups.cpp - one tile loop nest per fuse.group ----------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/Tiling/LowerGroups.h"
#include "fuse/Codegen/Tiling/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/TensorTilingInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSELOWERGROUPS
#include "fuse/Codegen/Tiling/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// The value a yielded value stands for: an insertion into a slice of a
/// larger tensor (a branch of a concat) stands for what it inserts.
Value lookThroughInsertions(Value value) {
  while (auto insert = value.getDefiningOp<tensor::InsertSliceOp>())
    value = insert.getSource();
  return value;
}

/// How `user` reads `value` when it may read only part of it: an
/// extract_slice smaller than its source, or a window op (convolution,
/// pooling) striding by more than 1. Null when it reads all of it.
const char *partialRead(Operation *user, Value value) {
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user))
    return slice.getSourceType() != slice.getResultType()
               ? "a slice smaller than the value"
               : nullptr;
  if (auto strides = user->getAttrOfType<DenseIntElementsAttr>("strides"))
    for (const APInt &stride : strides.getValues<APInt>())
      if (stride.getSExtValue() > 1)
        return "a window op striding by more than 1";
  return nullptr;
}

/// A value the group returns whose op feeds a root is computed inside the
/// root's tile loop, tile by tile, and leaves the loop whole only if the
/// root's tiles read all of it. The first op of the group on a path from
/// `value` that reads only part of what it gets, or null.
Operation *partiallyCovered(Value value, Block &body, const char **why) {
  SmallVector<Value> worklist = {value};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      if (user->getBlock() != &body || isa<YieldOp>(user))
        continue;
      if ((*why = partialRead(user, v)))
        return user;
      for (Value result : user->getResults())
        worklist.push_back(result);
    }
  }
  return nullptr;
}

/// The group's roots: the ops behind its yielded values that no other
/// yielded value's op depends on, in program order.
SmallVector<Operation *> findRoots(GroupOp group) {
  Block &body = group.getBodyBlock();
  llvm::SetVector<Operation *> outputs;
  for (Value value : group.getYield().getValues())
    if (Operation *def = lookThroughInsertions(value).getDefiningOp())
      if (def->getBlock() == &body)
        outputs.insert(def);
  // Producers (transitively, within the body) of each output.
  llvm::DenseSet<Operation *> feeding;
  for (Operation *output : outputs) {
    SmallVector<Operation *> worklist = {output};
    llvm::DenseSet<Operation *> seen;
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (def->getBlock() == &body && seen.insert(def).second) {
            feeding.insert(def);
            worklist.push_back(def);
          }
    }
  }
  SmallVector<Operation *> roots;
  for (Operation *output : outputs)
    if (!feeding.contains(output))
      roots.push_back(output);
  llvm::sort(roots,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return roots;
}

/// When the root's result is inserted into a slice of a larger tensor, the
/// root writes straight into that slice: its fresh init becomes the slice
/// of the destination, so bufferization writes in place and no copy
/// remains.
void writeIntoDestination(RewriterBase &rewriter, Operation *root) {
  auto dps = dyn_cast<DestinationStyleOpInterface>(root);
  if (!dps || root->getNumResults() != 1 || !root->hasOneUse())
    return;
  auto insert = dyn_cast<tensor::InsertSliceOp>(*root->getUsers().begin());
  if (!insert || insert.getSource() != root->getResult(0))
    return;
  OpOperand *init = dps.getDpsInitOperand(0);
  // The init is a fresh tensor, or a fill of one that only the root reads
  // (a max-pool's -inf): then the fill writes the slice.
  if (auto fill = init->get().getDefiningOp<linalg::FillOp>())
    if (fill->hasOneUse() && fill.getNumDpsInits() == 1)
      init = fill.getDpsInitOperand(0);
  if (!init->get().getDefiningOp<tensor::EmptyOp>() ||
      init->get().getType() != insert.getSourceType())
    return;
  // The destination must exist where the root is: an earlier branch's
  // insertion placed after the root (its source computed later) leaves the
  // root writing its own tensor, and the lowering then reports the
  // insertion it could not fuse instead of building IR that uses a value
  // before it is defined.
  Operation *writer = init->getOwner();
  if (Operation *def = insert.getDest().getDefiningOp())
    if (def->getBlock() == writer->getBlock() && !def->isBeforeInBlock(writer))
      return;
  rewriter.setInsertionPoint(writer);
  Value slice = tensor::ExtractSliceOp::create(
      rewriter, insert.getLoc(), insert.getSourceType(), insert.getDest(),
      insert.getMixedOffsets(), insert.getMixedSizes(),
      insert.getMixedStrides());
  rewriter.modifyOpInPlace(writer, [&] { init->set(slice); });
}

/// A linalg.copy of `value` into a fresh tensor, at the insertion point: a
/// root the kernel computes and stores where the value itself is not one.
Value copyIntoNewTensor(RewriterBase &rewriter, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  Value init = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                       type.getElementType());
  return linalg::CopyOp::create(rewriter, loc, value, init).getResult(0);
}

/// Default tile sizes for `root` (see the pass description).
SmallVector<OpFoldResult> defaultTileSizes(OpBuilder &b, TilingInterface root,
                                           bool keepRows, int64_t threads) {
  SmallVector<utils::IteratorType> iterators = root.getLoopIteratorTypes();
  SmallVector<Range> domain = root.getIterationDomain(b);
  SmallVector<OpFoldResult> sizes(iterators.size(), b.getIndexAttr(0));
  int parallelSeen = 0;
  for (int64_t i = int64_t(iterators.size()) - 1; i >= 0; --i) {
    if (iterators[i] != utils::IteratorType::parallel)
      continue;
    int64_t tile = parallelSeen == 0   ? (keepRows ? 0 : 32)
                   : parallelSeen == 1 ? (keepRows ? 1 : 8)
                                       : 1;
    ++parallelSeen;
    if (tile == 0)
      continue;
    // Tiles divide the dimension: every tile then has the same static
    // shape (no partial tiles, no dynamically sized buffers in a kernel).
    std::optional<int64_t> extent = getConstantIntValue(domain[i].size);
    if (extent) {
      tile = std::min<int64_t>(tile, *extent);
      while (tile > 1 && *extent % tile != 0)
        --tile;
    }
    sizes[i] = b.getIndexAttr(tile);
  }
  // A tile should give every thread of a block a point: while it has fewer
  // points than `threads`, the outer tiled loops (inner first) take twice
  // as many iterations per tile, as long as that still divides them.
  if (!keepRows && threads > 1) {
    auto points = [&] {
      int64_t n = 1;
      for (auto [i, iterator] : llvm::enumerate(iterators))
        if (iterator == utils::IteratorType::parallel)
          if (std::optional<int64_t> size = getConstantIntValue(sizes[i]))
            n *=
                *size ? *size : getConstantIntValue(domain[i].size).value_or(1);
      return n;
    };
    int seen = 0;
    for (int64_t i = int64_t(iterators.size()) - 1; i >= 0; --i) {
      if (iterators[i] != utils::IteratorType::parallel || seen++ == 0)
        continue;
      std::optional<int64_t> extent = getConstantIntValue(domain[i].size);
      std::optional<int64_t> tile = getConstantIntValue(sizes[i]);
      if (!extent || !tile || *tile == 0)
        continue;
      while (points() < threads && *tile * 2 <= *extent &&
             *extent % (*tile * 2) == 0) {
        *tile *= 2;
        sizes[i] = b.getIndexAttr(*tile);
      }
    }
  }
  // Only one parallel loop, kept whole: tile it by 1 instead, so the nest
  // still runs one tile per row.
  if (llvm::all_of(sizes, isZeroInteger))
    for (auto [i, iterator] : llvm::enumerate(iterators))
      if (iterator == utils::IteratorType::parallel) {
        sizes[i] = b.getIndexAttr(1);
        break;
      }
  return sizes;
}

/// Whether two loops have the same bounds and steps.
bool sameSpace(scf::ForallOp a, scf::ForallOp b) {
  auto equal = [](ArrayRef<OpFoldResult> x, ArrayRef<OpFoldResult> y) {
    return x.size() == y.size() && llvm::all_of(llvm::zip(x, y), [](auto pair) {
             return isEqualConstantIntOrValue(std::get<0>(pair),
                                              std::get<1>(pair));
           });
  };
  return equal(a.getMixedLowerBound(), b.getMixedLowerBound()) &&
         equal(a.getMixedUpperBound(), b.getMixedUpperBound()) &&
         equal(a.getMixedStep(), b.getMixedStep());
}

LogicalResult lowerGroup(RewriterBase &rewriter, GroupOp group,
                         ArrayRef<int64_t> tileOverride, int64_t threads) {
  int64_t id = -1;
  if (auto attr = FuseDialect::IdAttrHelper(group->getContext()).getAttr(group))
    id = attr.getInt();
  auto groupName = [&] {
    return id >= 0 ? "group " + std::to_string(id) : std::string("a group");
  };
  // A result that is only a slice of another op of the group (one output of
  // a merged contraction) gets a copy as its root: the kernel stores it.
  for (OpOperand &result : group.getYield()->getOpOperands()) {
    auto slice = result.get().getDefiningOp<tensor::ExtractSliceOp>();
    if (!slice || slice->getBlock() != &group.getBodyBlock())
      continue;
    rewriter.setInsertionPoint(group.getYield());
    Value copy = copyIntoNewTensor(rewriter, slice.getLoc(), slice);
    rewriter.modifyOpInPlace(group.getYield(), [&] { result.set(copy); });
  }
  // A concat branch that no op of the group computes (an input, a reshape
  // or a slice of a value), or that the group also returns or reads
  // elsewhere (a pooling chain whose every stage joins the concat), gets a
  // copy into its slice as its root: the kernel stores it there, and
  // writes the value itself to its own output.
  for (Value value : group.getYield().getValues()) {
    while (auto insert = value.getDefiningOp<tensor::InsertSliceOp>()) {
      value = insert.getDest();
      if (insert->getBlock() != &group.getBodyBlock())
        break;
      Value source = insert.getSource();
      Operation *def = source.getDefiningOp();
      bool direct = def && def->getBlock() == &group.getBodyBlock() &&
                    isa<TilingInterface>(def) && source.hasOneUse();
      if (direct)
        continue;
      rewriter.setInsertionPoint(insert);
      Value copy = copyIntoNewTensor(rewriter, insert.getLoc(), source);
      rewriter.modifyOpInPlace(insert,
                               [&] { insert.getSourceMutable().set(copy); });
    }
  }
  SmallVector<Operation *> roots = findRoots(group);
  if (roots.empty())
    return success(); // forwards inputs only: nothing to compute
  for (Operation *rootOp : roots)
    if (!isa<TilingInterface>(rootOp))
      return rootOp->emitError()
             << "fuse-lower-groups: " << groupName() << " ("
             << stringifyFusionKind(group.getKind()) << "): its root '"
             << rootOp->getName() << "' cannot be tiled (no TilingInterface)";

  Block &body = group.getBodyBlock();
  llvm::DenseSet<Value> yielded(group.getYield().getValues().begin(),
                                group.getYield().getValues().end());
  bool hasReduction = llvm::any_of(group.getComputeOps(), [](Operation *op) {
    return classifyOp(op).category == OpCategory::reduction;
  });
  // Roots are replaced by tiling: keep their names for diagnostics.
  std::string rootNames;
  for (Operation *rootOp : roots)
    rootNames += (rootNames.empty() ? "'" : ", '") +
                 rootOp->getName().getStringRef().str() + "'";

  // A returned value that also feeds a root through a partial read would
  // leave the loop with only the tiles the root needed: refuse.
  for (Value value : yielded) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != &body || llvm::is_contained(roots, def))
      continue;
    const char *why = nullptr;
    if (Operation *user = partiallyCovered(value, body, &why))
      return def->emitError()
             << "fuse-lower-groups: " << groupName() << ": its output '"
             << def->getName() << "' also feeds " << rootNames << " through '"
             << user->getName() << "' (" << why
             << "), so the tile loop would compute only part of it";
  }

  // Independent roots share one loop: a loop dimension whose extent
  // differs between them (the channels of differently sized outputs of a
  // merged contraction) stays whole, so every root has the same tiles.
  SmallVector<bool> keepWhole;
  if (roots.size() > 1) {
    SmallVector<SmallVector<int64_t>> extents;
    for (Operation *rootOp : roots) {
      OpBuilder b(rootOp);
      SmallVector<int64_t> dims;
      for (Range range : cast<TilingInterface>(rootOp).getIterationDomain(b)) {
        std::optional<int64_t> size = getConstantIntValue(range.size);
        dims.push_back(size ? *size : ShapedType::kDynamic);
      }
      extents.push_back(std::move(dims));
    }
    keepWhole.assign(extents.front().size(), false);
    for (const SmallVector<int64_t> &dims : extents) {
      if (dims.size() != extents.front().size())
        return roots.front()->emitError()
               << "fuse-lower-groups: " << groupName()
               << ": its independent outputs (roots " << rootNames
               << ") have loop nests of different depths, so they cannot "
                  "share one loop nest";
      for (auto [d, size] : llvm::enumerate(dims))
        keepWhole[d] = keepWhole[d] || size != extents.front()[d] ||
                       ShapedType::isDynamic(size);
    }
  }

  // One tile loop per root; independent roots over the same tiles then
  // become one loop.
  SmallVector<scf::ForallOp> loops;
  for (Operation *rootOp : roots) {
    writeIntoDestination(rewriter, rootOp);
    auto root = cast<TilingInterface>(rootOp);
    rewriter.setInsertionPoint(rootOp);
    SmallVector<OpFoldResult> sizes;
    if (!tileOverride.empty()) {
      for (size_t i = 0; i < root.getLoopIteratorTypes().size(); ++i)
        sizes.push_back(rewriter.getIndexAttr(
            i < tileOverride.size() ? tileOverride[i] : 0));
    } else {
      // Several roots share one loop nest: their tiles stay the plain
      // defaults, which the roots have in common.
      sizes = defaultTileSizes(rewriter, root, hasReduction,
                               roots.size() == 1 ? threads : 0);
    }
    for (auto [d, whole] : llvm::enumerate(keepWhole))
      if (whole && d < sizes.size())
        sizes[d] = rewriter.getIndexAttr(0);
    // Nothing left in common to tile: one tile covering the outermost
    // parallel dimension, so each root still runs as one loop iteration.
    if (!keepWhole.empty() && llvm::all_of(sizes, isZeroInteger)) {
      SmallVector<Range> domain = root.getIterationDomain(rewriter);
      for (auto [d, iterator] : llvm::enumerate(root.getLoopIteratorTypes()))
        if (iterator == utils::IteratorType::parallel) {
          sizes[d] = domain[d].size;
          break;
        }
    }
    if (llvm::all_of(sizes, isZeroInteger))
      return rootOp->emitError()
             << "fuse-lower-groups: " << groupName() << ": its root '"
             << rootOp->getName()
             << "' has no parallel loop to tile (a full reduction to a "
                "scalar needs a split reduction, not supported yet)";
    scf::SCFTilingOptions tiling;
    tiling.setTileSizes(sizes);
    tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
    // Each tile is a block of the kernel. The mapping also keeps the loop
    // when it has one iteration (canonicalization would otherwise inline
    // its body into the host code, and the group would launch no kernel).
    SmallVector<Attribute> blocks;
    for (OpFoldResult size : sizes)
      if (!isZeroInteger(size))
        blocks.push_back(
            TileMappingAttr::get(rewriter.getContext(), blocks.size()));
    tiling.setMapping(blocks);
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(tiling);
    // A slice of a slice (a merged contraction's output slice, then its
    // tile) becomes one slice of the producer, which the loop can fuse; a
    // slice of a reshape becomes a reshape of a slice, so the producer
    // behind the reshape (a reduction that kept its dims) fuses too.
    RewritePatternSet cleanup(rewriter.getContext());
    tensor::populateMergeConsecutiveInsertExtractSlicePatterns(cleanup);
    tensor::populateBubbleUpExtractSliceOpPatterns(cleanup);
    options.cleanupPatterns = FrozenRewritePatternSet(std::move(cleanup));
    options.setFusionControlFn(
        [&](tensor::ExtractSliceOp, OpResult producer, bool)
            -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
          if (producer.getOwner()->getBlock() != &body)
            return std::nullopt;
          scf::SCFTileAndFuseOptions::ControlFnResult result;
          // A value the group also returns leaves the loop as a result.
          result.yieldProducerReplacement = yielded.contains(producer);
          return result;
        });
    std::string rootName = rootOp->getName().getStringRef().str();
    FailureOr<scf::SCFTileAndFuseResult> tiled =
        scf::tileConsumerAndFuseProducersUsingSCF(rewriter, root, options);
    if (failed(tiled))
      return rootOp->emitError()
             << "fuse-lower-groups: " << groupName() << ": tiling its root '"
             << rootName << "' failed";
    for (auto [original, replacement] : tiled->replacements)
      rewriter.replaceAllUsesWith(original, replacement);
    auto forall = cast<scf::ForallOp>(tiled->loops.front().getOperation());
    // Zero-based unit-step loops: roots whose tiles line up by count share
    // one loop even when their tile sizes differ.
    if (roots.size() > 1) {
      FailureOr<scf::ForallOp> normalized = normalizeForallOp(rewriter, forall);
      if (succeeded(normalized))
        forall = *normalized;
    }
    loops.push_back(forall);
  }
  // Independent roots: their loops become one when they cover the same
  // tiles.
  scf::ForallOp loop = loops.front();
  for (scf::ForallOp other : llvm::drop_begin(loops)) {
    if (!sameSpace(loop, other))
      return other.emitError()
             << "fuse-lower-groups: " << groupName()
             << ": its independent outputs (roots " << rootNames
             << ") tile differently, so they cannot share one loop nest";
    // A root that reads a value an earlier root's loop returns (an output
    // both compute from) would read it inside the merged loop before the
    // loop has written it all.
    bool readsLoop = false;
    other.walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        readsLoop |= operand.getDefiningOp() == loop.getOperation();
    });
    if (readsLoop)
      return other.emitError()
             << "fuse-lower-groups: " << groupName() << ": the loop of one of "
             << "its roots (" << rootNames
             << ") reads an output another root's loop computes, so they "
                "cannot share one loop nest";
    loop = fuseIndependentSiblingForallLoops(loop, other, rewriter);
    // The merged loop stands where the later loop stood: what used the
    // earlier loop's results in between (the insertion of a concat branch
    // into its slice) moves after it, in order.
    SmallVector<Operation *> early;
    for (Operation *user : loop->getUsers())
      if (user->getBlock() == loop->getBlock() && user->isBeforeInBlock(loop) &&
          !llvm::is_contained(early, user))
        early.push_back(user);
    llvm::sort(early, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    Operation *after = loop;
    for (Operation *user : early) {
      user->moveAfter(after);
      after = user;
    }
  }

  // Slices tiling made and did not use keep the untiled ops alive: sweep
  // dead code inside and outside the loop. What is left besides the loop
  // must be free.
  (void)runRegionDCE(rewriter, group->getRegions());
  for (Operation &op : body) {
    if (&op == loop.getOperation() || !isComputeOp(&op))
      continue;
    // The slice of a concat's destination the loop writes into.
    if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op);
        slice && llvm::all_of(slice->getUsers(), [&](Operation *user) {
          return user == loop.getOperation();
        }))
      continue;
    // The loop's result inserted into its slice of a concat: in place.
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(op);
        insert && insert.getSource().getDefiningOp() == loop.getOperation())
      continue;
    return op.emitError() << "fuse-lower-groups: " << groupName() << ": '"
                          << op.getName()
                          << "' stays outside the tile loop of its roots ("
                          << rootNames
                          << "): the loop could not fuse it; the group "
                             "would not be one kernel";
  }
  return success();
}

struct LowerGroupsPass
    : public fuse::impl::FuseLowerGroupsBase<LowerGroupsPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    fuse::registerTilingDependencies(registry);
  }

  using FuseLowerGroupsBase::FuseLowerGroupsBase;

  TargetAttr requestedTarget;

  LogicalResult initialize(MLIRContext *context) override {
    FailureOr<TargetAttr> parsed =
        parseTargetOption(context, target, getArgument());
    if (failed(parsed))
      return failure();
    requestedTarget = *parsed;
    if (threads < 1)
      return emitOptionError(context, getArgument())
             << "option 'threads' must be positive, got " << threads.getValue();
    if (llvm::any_of(tileSizes, [](int64_t size) { return size < 0; }))
      return emitOptionError(context, getArgument())
             << "option 'tile-sizes' must not be negative";
    return success();
  }

  void runOnOperation() override {
    SmallVector<GroupOp> groups;
    getOperation()->walk([&](GroupOp group) { groups.push_back(group); });
    IRRewriter rewriter(&getContext());
    SmallVector<int64_t> sizes(tileSizes.begin(), tileSizes.end());
    bool failedAny = false;
    FailureOr<TargetAttr> resolved =
        resolveTarget(getOperation(), requestedTarget, getArgument());
    if (failed(resolved))
      return signalPassFailure();
    TargetAttr targetAttr = *resolved;
    int64_t blockThreads =
        std::min<int64_t>(threads, targetAttr.getMaxThreadsPerBlock());
    for (GroupOp group : groups)
      failedAny |= failed(lowerGroup(rewriter, group, sizes, blockThreads));
    if (failedAny)
      return signalPassFailure();
    // Fusing a producer into each of its consumers' tiles clones it once per
    // use; the clones of one tile read the same slices, so one computation
    // serves them all (a layernorm's statistics and its normalization do
    // not recompute the matmul they read).
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
  }
};

} // namespace

LogicalResult mlir::fuse::lowerFusionGroup(RewriterBase &rewriter,
                                           GroupOp group,
                                           ArrayRef<int64_t> tileSizes,
                                           int64_t threads) {
  return lowerGroup(rewriter, group, tileSizes, threads);
}

void mlir::fuse::registerTilingDependencies(DialectRegistry &registry) {
  linalg::registerTilingInterfaceExternalModels(registry);
  tensor::registerTilingInterfaceExternalModels(registry);
}
