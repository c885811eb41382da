//===- FuseOps.cpp - fuse operations --------------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

#include <unordered_map>

using namespace mlir;
using namespace mlir::fuse;

#define GET_OP_CLASSES
#include "fuse/Dialect/Fuse/IR/FuseOps.cpp.inc"

//===----------------------------------------------------------------------===//
// GroupOp: construction, printing, parsing
//===----------------------------------------------------------------------===//

void GroupOp::build(OpBuilder &builder, OperationState &state,
                    TypeRange resultTypes, ValueRange inputs, FusionKind kind,
                    StringRef rule) {
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  state.addAttribute(getKindAttrName(state.name),
                     FusionKindAttr::get(builder.getContext(), kind));
  if (!rule.empty())
    state.addAttribute(getRuleAttrName(state.name),
                       builder.getStringAttr(rule));
  Region *body = state.addRegion();
  auto *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(input.getType(), input.getLoc());
}

YieldOp GroupOp::getYield() {
  return dyn_cast<YieldOp>(getBodyBlock().getTerminator());
}

SmallVector<Operation *> GroupOp::getComputeOps(unsigned limit) {
  SmallVector<Operation *> ops;
  // Nested groups and loops are walked with a worklist, not recursion: the
  // nesting depth comes from the input. Inside a loop (a lowered group's
  // tile loop), slicing is data access, not work: only classified ops that
  // are not data movement count.
  SmallVector<std::pair<Block *, bool>> worklist = {{&getBodyBlock(), false}};
  while (!worklist.empty()) {
    auto [block, inLoop] = worklist.pop_back_val();
    for (Operation &op : *block) {
      if (auto nested = dyn_cast<GroupOp>(op)) {
        worklist.push_back({&nested.getBodyBlock(), inLoop});
        continue;
      }
      if (op.getNumRegions() > 0 && !isa<FusibleOpInterface>(op) &&
          !op.hasTrait<OpTrait::IsTerminator>()) {
        for (Region &region : op.getRegions())
          for (Block &inner : region)
            worklist.push_back({&inner, true});
        continue;
      }
      if (!isComputeOp(&op))
        continue;
      if (inLoop) {
        OpClassification c = classifyOp(&op);
        if (!isa<FusibleOpInterface>(op) ||
            c.category == OpCategory::injective || c.flops == 0)
          continue;
      }
      ops.push_back(&op);
      if (ops.size() == limit)
        return ops;
    }
  }
  return ops;
}

/// The discardable attributes of `group` that make it the kernel it is:
/// all but its `fuse.id`, which only names it.
static SmallVector<NamedAttribute> kernelAttributes(GroupOp group) {
  StringAttr id = FuseDialect::IdAttrHelper(group->getContext()).getName();
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : group->getDiscardableAttrs())
    if (attr.getName() != id)
      attrs.push_back(attr);
  return attrs;
}

bool mlir::fuse::isSameOpSequence(
    ArrayRef<Operation *> lhs, ArrayRef<Operation *> rhs,
    llvm::DenseMap<Value, Value> &values,
    llvm::function_ref<bool(Value, Value)> pairOutside) {
  if (lhs.size() != rhs.size())
    return false;
  llvm::DenseMap<Block *, Block *> blocks;
  // Compares one op and pairs its results; its regions wait in `regions`.
  SmallVector<std::pair<Region *, Region *>> regions;
  auto sameOp = [&](Operation &l, Operation &r) {
    if (l.getName() != r.getName() ||
        l.getRawDictionaryAttrs() != r.getRawDictionaryAttrs() ||
        l.getNumOperands() != r.getNumOperands() ||
        l.getNumResults() != r.getNumResults() ||
        l.getNumRegions() != r.getNumRegions() ||
        l.getNumSuccessors() != r.getNumSuccessors() ||
        !l.getName().compareOpProperties(l.getPropertiesStorage(),
                                         r.getPropertiesStorage()))
      return false;
    for (auto [lv, rv] : llvm::zip(l.getOperands(), r.getOperands())) {
      auto it = values.find(lv);
      if (it != values.end()) {
        if (it->second != rv)
          return false;
        continue;
      }
      if (!pairOutside || !pairOutside(lv, rv))
        return false;
      values[lv] = rv;
    }
    for (auto [ls, rs] : llvm::zip(l.getSuccessors(), r.getSuccessors()))
      if (blocks.lookup(ls) != rs)
        return false;
    for (auto [lv, rv] : llvm::zip(l.getResults(), r.getResults())) {
      if (lv.getType() != rv.getType())
        return false;
      values[lv] = rv;
    }
    for (auto [lr, rr] : llvm::zip(l.getRegions(), r.getRegions()))
      regions.push_back({&lr, &rr});
    return true;
  };
  for (auto [l, r] : llvm::zip(lhs, rhs))
    if (!sameOp(*l, *r))
      return false;
  // A region's blocks and arguments are paired before its ops, and nested
  // regions wait until the enclosing region is paired, so every value an
  // op may use (one that dominates it) is paired first.
  while (!regions.empty()) {
    auto [lr, rr] = regions.pop_back_val();
    if (lr->getBlocks().size() != rr->getBlocks().size())
      return false;
    for (auto [lb, rb] : llvm::zip(*lr, *rr)) {
      if (lb.getNumArguments() != rb.getNumArguments())
        return false;
      blocks[&lb] = &rb;
      for (auto [la, ra] : llvm::zip(lb.getArguments(), rb.getArguments())) {
        if (la.getType() != ra.getType())
          return false;
        values[la] = ra;
      }
    }
    for (auto [lb, rb] : llvm::zip(*lr, *rr)) {
      if (lb.getOperations().size() != rb.getOperations().size())
        return false;
      for (auto [l, r] : llvm::zip(lb, rb))
        if (!sameOp(l, r))
          return false;
    }
  }
  return true;
}

bool GroupOp::isSameKernel(GroupOp other) {
  if (*this == other)
    return true;
  if (getKind() != other.getKind() || getRuleAttr() != other.getRuleAttr() ||
      getResultTypes() != other.getResultTypes() ||
      kernelAttributes(*this) != kernelAttributes(other))
    return false;
  // The bodies (one block each), their arguments paired by position: the
  // groups' own operands (the inputs) are not compared, only how the
  // bodies use them.
  Block &lb = getBodyBlock(), &rb = other.getBodyBlock();
  if (lb.getNumArguments() != rb.getNumArguments())
    return false;
  llvm::DenseMap<Value, Value> values;
  for (auto [la, ra] : llvm::zip(lb.getArguments(), rb.getArguments())) {
    if (la.getType() != ra.getType())
      return false;
    values[la] = ra;
  }
  SmallVector<Operation *> lhsOps, rhsOps;
  for (Operation &op : lb)
    lhsOps.push_back(&op);
  for (Operation &op : rb)
    rhsOps.push_back(&op);
  return isSameOpSequence(lhsOps, rhsOps, values, nullptr);
}

llvm::hash_code GroupOp::hashKernel() {
  llvm::hash_code hash = llvm::hash_combine(
      getKind(), getRuleAttr(), llvm::hash_combine_range(getResultTypes()));
  for (NamedAttribute attr : kernelAttributes(*this))
    hash = llvm::hash_combine(hash, attr.getName(), attr.getValue());
  for (Type type : getBodyBlock().getArgumentTypes())
    hash = llvm::hash_combine(hash, type);
  getBody().walk([&](Operation *op) {
    hash = llvm::hash_combine(hash, op->getName(), op->getRawDictionaryAttrs(),
                              op->hashProperties(), op->getNumOperands(),
                              llvm::hash_combine_range(op->getResultTypes()));
  });
  return hash;
}

SmallVector<unsigned> mlir::fuse::findSameKernels(ArrayRef<GroupOp> groups) {
  SmallVector<unsigned> first(groups.size());
  std::unordered_map<size_t, SmallVector<unsigned, 1>> byHash;
  for (auto [i, g] : llvm::enumerate(groups)) {
    GroupOp group = g;
    first[i] = i;
    SmallVector<unsigned, 1> &candidates =
        byHash[static_cast<size_t>(group.hashKernel())];
    for (unsigned c : candidates)
      if (GroupOp(groups[c]).isSameKernel(group)) {
        first[i] = c;
        break;
      }
    if (first[i] == i)
      candidates.push_back(i);
  }
  return first;
}

void GroupOp::print(OpAsmPrinter &p) {
  p << ' ' << stringifyFusionKind(getKind());
  if (std::optional<StringRef> rule = getRule()) {
    p << " rule ";
    p.printString(*rule);
  }
  p << " (";
  llvm::interleaveComma(
      llvm::zip(getBodyBlock().getArguments(), getInputs()), p, [&](auto pair) {
        auto [arg, input] = pair;
        p << arg << " = " << input << " : " << input.getType();
      });
  p << ')';
  if (getNumResults())
    p.printArrowTypeList(getResultTypes());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {getKindAttrName(), getRuleAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

ParseResult GroupOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  SMLoc kindLoc = parser.getCurrentLocation();
  StringRef kindName;
  if (parser.parseKeyword(&kindName))
    return failure();
  std::optional<FusionKind> kind = symbolizeFusionKind(kindName);
  if (!kind)
    return parser.emitError(kindLoc)
           << "unknown fusion kind '" << kindName
           << "'; expected single, vertical, horizontal, diagonal or "
              "composite";
  result.addAttribute(getKindAttrName(result.name),
                      FusionKindAttr::get(ctx, *kind));

  if (succeeded(parser.parseOptionalKeyword("rule"))) {
    std::string rule;
    if (parser.parseString(&rule))
      return failure();
    result.addAttribute(getRuleAttrName(result.name),
                        StringAttr::get(ctx, rule));
  }

  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> types;
  SMLoc operandsLoc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
            OpAsmParser::Argument arg;
            OpAsmParser::UnresolvedOperand operand;
            if (parser.parseArgument(arg) || parser.parseEqual() ||
                parser.parseOperand(operand) || parser.parseColonType(arg.type))
              return failure();
            args.push_back(arg);
            operands.push_back(operand);
            types.push_back(arg.type);
            return success();
          }))
    return failure();
  if (parser.resolveOperands(operands, types, operandsLoc, result.operands))
    return failure();
  if (parser.parseOptionalArrowTypeList(result.types) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  SMLoc bodyLoc = parser.getCurrentLocation();
  if (parser.parseRegion(*body, args, /*enableNameShadowing=*/false))
    return failure();
  if (body->empty())
    return parser.emitError(bodyLoc) << "needs a body ending in 'fuse.yield'";
  return success();
}

//===----------------------------------------------------------------------===//
// GroupOp: verification
//===----------------------------------------------------------------------===//

LogicalResult GroupOp::verify() {
  // A group is part of a function's body: directly in a module (a symbol
  // table) nothing would call it, and it would vanish as dead code.
  if (Operation *parent = (*this)->getParentOp();
      parent && parent->hasTrait<OpTrait::SymbolTable>())
    return emitOpError() << "is directly in '" << parent->getName()
                         << "': a group belongs in a function's body (put "
                            "it in a func.func)";
  Block &block = getBodyBlock();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError() << "expects its body to take one argument per input ("
                         << getInputs().size() << "), but it takes "
                         << block.getNumArguments();
  for (auto [i, arg, input] :
       llvm::enumerate(block.getArguments(), getInputs()))
    if (arg.getType() != input.getType())
      return emitOpError() << "body argument #" << i << " has type "
                           << arg.getType() << ", but input #" << i
                           << " has type " << input.getType();
  if (block.empty() || !isa<YieldOp>(block.back()))
    return emitOpError() << "expects its body to end with 'fuse.yield'";
  if (std::optional<StringRef> rule = getRule(); rule && rule->empty())
    return emitOpError() << "has an empty 'rule' name";
  return success();
}

LogicalResult GroupOp::verifyRegions() {
  // A lowered group holds its tile loop; the kind records the decision that
  // formed it, and tiling may leave fewer ops that count as compute.
  if (llvm::any_of(getBodyBlock(), [](Operation &op) {
        return op.getNumRegions() > 0 && !isa<GroupOp>(op) &&
               !isa<FusibleOpInterface>(op);
      }))
    return success();
  // Counted to two: classifying every op of every group would be a large
  // graph's slowest verifier.
  SmallVector<Operation *> compute = getComputeOps(/*limit=*/2);
  if (getKind() == FusionKind::single && compute.size() > 1) {
    compute = getComputeOps();
    InFlightDiagnostic diag = emitOpError()
                              << "has kind 'single' but its body holds "
                              << compute.size() << " compute ops (";
    llvm::interleaveComma(compute, diag,
                          [&](Operation *op) { diag << op->getName(); });
    return diag << "); a group of several ops needs a fused kind";
  }
  if (getKind() != FusionKind::single && compute.size() < 2)
    return emitOpError() << "has kind '" << stringifyFusionKind(getKind())
                         << "' but its body holds " << compute.size()
                         << " compute op(s); a fused kind needs at least two "
                            "(use 'single')";
  return success();
}

LogicalResult YieldOp::verify() {
  auto group = cast<GroupOp>((*this)->getParentOp());
  if (getValues().size() != group.getNumResults())
    return emitOpError() << "yields " << getValues().size()
                         << " value(s), but the enclosing 'fuse.group' has "
                         << group.getNumResults() << " result(s)";
  for (auto [i, value, result] :
       llvm::enumerate(getValues(), group.getResults()))
    if (value.getType() != result.getType())
      return emitOpError() << "yields a value of type " << value.getType()
                           << " as result #" << i
                           << ", but the enclosing 'fuse.group' declares "
                           << result.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Merging groups
//===----------------------------------------------------------------------===//

bool mlir::fuse::isElementwiseGroup(GroupOp group) {
  SmallVector<Operation *> ops = group.getComputeOps();
  return !ops.empty() && llvm::all_of(ops, [](Operation *op) {
    OpCategory category = classifyOp(op).category;
    return category == OpCategory::elementwise ||
           category == OpCategory::broadcast;
  });
}

GroupOp mlir::fuse::mergeFuseGroups(RewriterBase &rewriter, GroupOp first,
                                    GroupOp second, FusionKind kind,
                                    StringRef rule, GroupOp insertBefore) {
  // Inputs: first's, then second's that first does not produce.
  llvm::SetVector<Value> inputs(first.getInputs().begin(),
                                first.getInputs().end());
  for (Value input : second.getInputs())
    if (input.getDefiningOp() != first.getOperation())
      inputs.insert(input);
  // Results: first's still used by someone other than second, then all of
  // second's.
  SmallVector<Value> oldResults;
  for (OpResult result : first.getResults())
    if (llvm::any_of(result.getUsers(), [&](Operation *user) {
          return user != second.getOperation();
        }))
      oldResults.push_back(result);
  llvm::append_range(oldResults, second.getResults());

  rewriter.setInsertionPoint(insertBefore);
  auto merged = GroupOp::create(rewriter, insertBefore.getLoc(),
                                ValueRange(oldResults).getTypes(),
                                inputs.getArrayRef(), kind, rule);
  Block &body = merged.getBodyBlock();
  IRMapping mapping;
  for (auto [input, arg] : llvm::zip(inputs, body.getArguments()))
    mapping.map(input, arg);
  rewriter.setInsertionPointToEnd(&body);
  auto cloneBody = [&](GroupOp group) {
    Block &old = group.getBodyBlock();
    for (auto [arg, input] : llvm::zip(old.getArguments(), group.getInputs()))
      mapping.map(arg, mapping.lookup(input));
    for (Operation &op : old.without_terminator())
      rewriter.clone(op, mapping);
    // The group's results become its yielded values inside the new body.
    for (auto [result, yielded] :
         llvm::zip(group.getResults(), group.getYield().getValues()))
      mapping.map(result, mapping.lookup(yielded));
  };
  cloneBody(first);
  cloneBody(second);
  SmallVector<Value> yielded;
  for (Value result : oldResults)
    yielded.push_back(mapping.lookup(result));
  YieldOp::create(rewriter, merged.getLoc(), yielded);

  for (auto [old, replacement] : llvm::zip(oldResults, merged.getResults()))
    rewriter.replaceAllUsesWith(old, replacement);
  rewriter.eraseOp(second);
  rewriter.eraseOp(first);
  return merged;
}

std::optional<ArrayRef<int64_t>>
mlir::fuse::getCommonResultShape(GroupOp group) {
  std::optional<ArrayRef<int64_t>> shape;
  for (Type type : group.getResultTypes()) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (!ranked || !ranked.hasStaticShape() ||
        (shape && *shape != ranked.getShape()))
      return std::nullopt;
    shape = ranked.getShape();
  }
  return shape;
}

GroupOp
mlir::fuse::findMergeableSibling(GroupOp first,
                                 llvm::function_ref<bool(GroupOp)> accept) {
  std::optional<ArrayRef<int64_t>> shape = getCommonResultShape(first);
  if (!shape)
    return {};
  for (Value input : first.getInputs())
    for (Operation *user : input.getUsers()) {
      auto second = dyn_cast<GroupOp>(user);
      if (!second || second == first ||
          second->getBlock() != first->getBlock() ||
          !first->isBeforeInBlock(second) ||
          getCommonResultShape(second) != shape)
        continue;
      bool definedBefore = llvm::all_of(second.getInputs(), [&](Value v) {
        Operation *def = v.getDefiningOp();
        return !def || def->getBlock() != first->getBlock() ||
               def->isBeforeInBlock(first);
      });
      if (definedBefore && accept(second))
        return second;
    }
  return {};
}

//===----------------------------------------------------------------------===//
// GroupOp: canonicalization (cost-free cleanups only)
//===----------------------------------------------------------------------===//

namespace {

/// Moves the body of `group` in front of it, replaces the group's results with
/// what it yielded and erases the group.
void inlineGroup(PatternRewriter &rewriter, GroupOp group) {
  YieldOp yield = group.getYield();
  SmallVector<Value> yielded(yield.getValues());
  rewriter.inlineBlockBefore(&group.getBodyBlock(), group, group.getInputs());
  rewriter.replaceOp(group, yielded);
  rewriter.eraseOp(yield);
}

/// Inputs: drops block arguments without uses and merges inputs that pass the
/// same value twice. Results: drops unused ones, replaces results that just
/// forward an input by that input, and merges results that yield the same
/// value.
struct SimplifyGroupInterface : OpRewritePattern<GroupOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GroupOp group,
                                PatternRewriter &rewriter) const override {
    Block &block = group.getBodyBlock();
    bool changed = false;

    // Old block argument i becomes new input argMap[i], or is dropped (-1).
    SmallVector<Value> newInputs;
    SmallVector<int64_t> argMap;
    llvm::DenseMap<Value, int64_t> firstUse;
    for (auto [arg, input] :
         llvm::zip(block.getArguments(), group.getInputs())) {
      if (arg.use_empty()) {
        argMap.push_back(-1);
        changed = true;
        continue;
      }
      auto [it, inserted] = firstUse.try_emplace(input, newInputs.size());
      if (inserted)
        newInputs.push_back(input);
      else
        changed = true;
      argMap.push_back(it->second);
    }

    // For each old result: the new result it becomes, or the outside value
    // that replaces it.
    YieldOp yield = group.getYield();
    SmallVector<Value> newYielded;
    SmallVector<int64_t> resultMap; // index into newYielded, or -1
    SmallVector<Value> forwarded;   // outside replacement when resultMap = -1
    llvm::DenseMap<Value, int64_t> firstYield;
    for (auto [result, value] :
         llvm::zip(group.getResults(), yield.getValues())) {
      if (result.use_empty()) {
        resultMap.push_back(-1);
        forwarded.push_back({});
        changed = true;
        continue;
      }
      if (auto arg = dyn_cast<BlockArgument>(value);
          arg && arg.getOwner() == &block) {
        resultMap.push_back(-1);
        forwarded.push_back(group.getInputs()[arg.getArgNumber()]);
        changed = true;
        continue;
      }
      auto [it, inserted] = firstYield.try_emplace(value, newYielded.size());
      if (inserted)
        newYielded.push_back(value);
      else
        changed = true;
      resultMap.push_back(it->second);
      forwarded.push_back({});
    }
    if (!changed)
      return failure();

    rewriter.setInsertionPoint(group);
    auto newGroup = GroupOp::create(
        rewriter, group.getLoc(), ValueRange(newYielded).getTypes(), newInputs,
        group.getKind(), group.getRule().value_or(""));
    newGroup->setDiscardableAttrs(group->getDiscardableAttrDictionary());
    Block &newBlock = newGroup.getBodyBlock();

    rewriter.setInsertionPoint(yield);
    rewriter.replaceOpWithNewOp<YieldOp>(yield, newYielded);
    SmallVector<Value> argReplacements;
    for (int64_t index : argMap)
      argReplacements.push_back(index < 0 ? Value()
                                          : newBlock.getArgument(index));
    rewriter.mergeBlocks(&block, &newBlock, argReplacements);

    for (auto [i, result] : llvm::enumerate(group.getResults())) {
      if (result.use_empty())
        continue;
      Value replacement =
          resultMap[i] < 0 ? forwarded[i] : newGroup.getResult(resultMap[i]);
      rewriter.replaceAllUsesWith(result, replacement);
    }
    rewriter.eraseOp(group);
    return success();
  }
};

/// A group without compute ops (only constants, placeholders and forwarding)
/// is no kernel: inline it.
struct InlineGroupWithoutComputeOps : OpRewritePattern<GroupOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GroupOp group,
                                PatternRewriter &rewriter) const override {
    if (!group.getComputeOps().empty())
      return failure();
    inlineGroup(rewriter, group);
    return success();
  }
};

/// A group directly inside another group adds nothing: merge it into the
/// enclosing one.
struct MergeNestedGroup : OpRewritePattern<GroupOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GroupOp group,
                                PatternRewriter &rewriter) const override {
    auto parent = dyn_cast_or_null<GroupOp>(group->getParentOp());
    if (!parent)
      return failure();
    if (parent.getKind() == FusionKind::single &&
        group.getKind() != FusionKind::single)
      rewriter.modifyOpInPlace(parent, [&] {
        parent.setKindAttr(FusionKindAttr::get(getContext(), group.getKind()));
      });
    inlineGroup(rewriter, group);
    return success();
  }
};

/// After other cleanups removed ops, a fused kind with fewer than two compute
/// ops is a single-op group.
struct DemoteToSingle : OpRewritePattern<GroupOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GroupOp group,
                                PatternRewriter &rewriter) const override {
    if (group.getKind() == FusionKind::single ||
        group.getComputeOps().size() != 1)
      return failure();
    rewriter.modifyOpInPlace(group, [&] {
      group.setKindAttr(FusionKindAttr::get(getContext(), FusionKind::single));
    });
    return success();
  }
};

} // namespace

void GroupOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<SimplifyGroupInterface, InlineGroupWithoutComputeOps,
              MergeNestedGroup, DemoteToSingle>(context);
}
