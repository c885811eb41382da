//===- PackWeights.cpp - constant weights packed for the micro-kernels ----===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// A group's function receives its weights as arguments, and a function
// several groups share receives each group's own: fuse-cpu-vectorize, a
// pass on one function, packs the panels of such an argument with a
// marked linalg.generic at the function's start; these module passes find
// the arguments every call passes a constant for (before it) and pack the
// callers' constants at compile time in place of the generic (after it).
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/CPU/Passes.h"

#include "PackedWeights.h"

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Utils/ConstantData.h"
#include "fuse/Dialect/Fuse/Utils/Describe.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSECPUMARKCONSTANTARGUMENTS
#define GEN_PASS_DEF_FUSECPUPACKWEIGHTS
#include "fuse/Codegen/CPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// The calls of each function of a module, and the functions used other
/// than by a call.
struct CallSites {
  llvm::DenseMap<StringAttr, SmallVector<func::CallOp>> calls;
  llvm::DenseSet<StringAttr> otherUses;

  explicit CallSites(ModuleOp module) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(&module.getBodyRegion());
    if (!uses)
      return;
    for (const SymbolTable::SymbolUse &use : *uses) {
      StringAttr name = use.getSymbolRef().getRootReference();
      auto call = dyn_cast<func::CallOp>(use.getUser());
      if (call && call.getCalleeAttr() == use.getSymbolRef())
        calls[name].push_back(call);
      else
        otherUses.insert(name);
    }
  }

  /// The calls of private function `fn`, if every use of it is one that
  /// passes all its arguments.
  std::optional<ArrayRef<func::CallOp>> of(func::FuncOp fn) const {
    if (!fn.isPrivate() || fn.isExternal() ||
        otherUses.contains(fn.getSymNameAttr()))
      return std::nullopt;
    auto it = calls.find(fn.getSymNameAttr());
    if (it == calls.end())
      return ArrayRef<func::CallOp>();
    if (llvm::any_of(it->second, [&](func::CallOp call) {
          return call.getNumOperands() != fn.getNumArguments();
        }))
      return std::nullopt;
    return ArrayRef<func::CallOp>(it->second);
  }
};

/// A statically shaped tensor constant.
arith::ConstantOp tensorConstant(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return {};
  return value.getDefiningOp<arith::ConstantOp>();
}

struct MarkConstantArgumentsPass
    : public fuse::impl::FuseCpuMarkConstantArgumentsBase<
          MarkConstantArgumentsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto marks = FuseDialect::ConstantArgumentsAttrHelper(&getContext());
    CallSites sites(module);
    for (auto fn : module.getOps<func::FuncOp>()) {
      marks.removeAttr(fn);
      std::optional<ArrayRef<func::CallOp>> calls = sites.of(fn);
      if (!calls || calls->empty())
        continue;
      SmallVector<int64_t> constant;
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        if (llvm::all_of(*calls, [&](func::CallOp call) {
              return bool(tensorConstant(call.getOperand(i)));
            }))
          constant.push_back(i);
      if (!constant.empty())
        marks.setAttr(fn, DenseI64ArrayAttr::get(&getContext(), constant));
    }
  }
};

struct PackWeightsPass
    : public fuse::impl::FuseCpuPackWeightsBase<PackWeightsPass> {
  unsigned counter = 0;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    auto marks = FuseDialect::PackArgumentAttrHelper(context);
    CallSites sites(module);
    for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      SmallVector<linalg::GenericOp> packs;
      fn.walk([&](linalg::GenericOp generic) {
        if (marks.isAttrPresent(generic))
          packs.push_back(generic);
      });
      for (linalg::GenericOp pack : packs) {
        if (failed(packCallers(sites, fn, pack)))
          marks.removeAttr(pack); // it packs on every call
      }
    }
    for (auto fn : module.getOps<func::FuncOp>())
      FuseDialect::ConstantArgumentsAttrHelper(context).removeAttr(fn);
  }

  /// Replaces `pack` (which packs an argument of `fn`) by the packed
  /// constants of `fn`'s callers, when each passes one.
  LogicalResult packCallers(const CallSites &sites, func::FuncOp fn,
                            linalg::GenericOp pack) {
    MLIRContext *context = &getContext();
    if (pack.getNumDpsInputs() != 1 || pack->getNumResults() != 1)
      return failure();
    auto argument = dyn_cast<BlockArgument>(pack.getDpsInputs()[0]);
    if (!argument || argument.getOwner() != &fn.getBody().front() ||
        !argument.hasOneUse())
      return failure();
    auto from = dyn_cast<RankedTensorType>(argument.getType());
    auto to = dyn_cast<RankedTensorType>(pack->getResult(0).getType());
    if (!from || !to || !from.hasStaticShape() || !to.hasStaticShape() ||
        to.getRank() != 2 * from.getRank())
      return failure();
    ArrayRef<int64_t> tile = to.getShape().drop_front(from.getRank());
    if (fuse::detail::tiledShape(from.getShape(), tile) !=
        ArrayRef<int64_t>(to.getShape()))
      return failure();
    std::optional<ArrayRef<func::CallOp>> calls = sites.of(fn);
    if (!calls || calls->empty())
      return failure();
    unsigned index = argument.getArgNumber();
    // Each constant once, however many calls pass it.
    llvm::MapVector<Operation *, ElementsAttr> packed;
    for (func::CallOp call : *calls) {
      arith::ConstantOp constant = tensorConstant(call.getOperand(index));
      if (!constant)
        return failure();
      if (packed.count(constant))
        continue;
      std::string blob = llvm::formatv("fuse_packed_{0}", counter++);
      ElementsAttr attr =
          fuse::detail::packConstantTiles(constant.getResult(), tile, blob);
      if (!attr)
        return failure();
      packed[constant] = attr;
    }
    // All packed: the callers pass the packed constants, the function
    // takes them as they are.
    llvm::DenseMap<Operation *, Value> replacements;
    for (auto &[constant, attr] : packed) {
      OpBuilder b(constant);
      b.setInsertionPointAfter(constant);
      replacements[constant] = arith::ConstantOp::create(b, constant->getLoc(),
                                                         cast<TypedAttr>(attr))
                                   .getResult();
    }
    for (func::CallOp call : *calls)
      call->setOperand(
          index, replacements.lookup(call.getOperand(index).getDefiningOp()));
    for (auto &[constant, attr] : packed)
      if (constant->use_empty())
        constant->erase();
    argument.setType(to);
    SmallVector<Type> inputs(fn.getArgumentTypes());
    inputs[index] = to;
    fn.setType(FunctionType::get(context, inputs, fn.getResultTypes()));
    std::string op = FuseDialect::PackArgumentAttrHelper(context)
                         .getAttr(pack)
                         .getValue()
                         .str();
    Value empty = pack.getDpsInits()[0];
    pack->getResult(0).replaceAllUsesWith(argument);
    pack->erase();
    if (Operation *init = empty.getDefiningOp())
      if (isa<tensor::EmptyOp>(init) && init->use_empty())
        init->erase();

    recordPackedWeights(fn, op, from.getShape(), to.getShape(),
                        int64_t(packed.size()) * from.getNumElements() *
                            from.getElementTypeBitWidth() / 8);
    return success();
  }
};

} // namespace

void mlir::fuse::recordPackedWeights(Operation *fn, StringRef op,
                                     ArrayRef<int64_t> from,
                                     ArrayRef<int64_t> to, int64_t bytes) {
  MLIRContext *context = fn->getContext();
  NamedAttrList record;
  record.append("op", StringAttr::get(context, op));
  record.append("from", StringAttr::get(context, describeShape(from)));
  record.append("to", StringAttr::get(context, describeShape(to)));
  record.append("bytes",
                IntegerAttr::get(IntegerType::get(context, 64), bytes));
  auto relayouts = FuseDialect::RelayoutsAttrHelper(context);
  SmallVector<Attribute> records;
  if (ArrayAttr earlier = relayouts.getAttr(fn))
    llvm::append_range(records, earlier.getValue());
  records.push_back(record.getDictionary(context));
  relayouts.setAttr(fn, ArrayAttr::get(context, records));
}
