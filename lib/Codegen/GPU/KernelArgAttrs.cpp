//===- KernelArgAttrs.cpp - read-only and unaliased kernel buffers --------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Marks a kernel's buffer arguments `llvm.readonly` where the kernel only
// reads them and `llvm.noalias` where no launch passes an overlapping buffer
// that either side writes. The NVPTX backend reads a read-only, unaliased
// global pointer through the non-coherent path (ld.global.nc). Workgroup
// buffers are aligned to 16 bytes.
//
//===----------------------------------------------------------------------===//

#include "TransitiveUses.h"
#include "fuse/Codegen/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::fuse {
#define GEN_PASS_DEF_FUSEKERNELARGATTRS
#define GEN_PASS_DEF_FUSEKERNELNOALIAS
#include "fuse/Codegen/GPU/Passes.h.inc"
} // namespace mlir::fuse

using namespace mlir;

namespace {

/// Whether a kernel only reads `arg`: every use (through views) is a read
/// or a query of its size or address.
bool onlyRead(Value arg) {
  using fuse::detail::UseVerdict;
  return fuse::detail::allUsesAccepted(arg, [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (isa<memref::LoadOp, vector::LoadOp, vector::TransferReadOp,
            vector::MaskedLoadOp, vector::GatherOp, memref::DimOp,
            memref::ExtractAlignedPointerAsIndexOp,
            memref::ExtractStridedMetadataOp, nvgpu::LdMatrixOp>(user))
      return UseVerdict::accept;
    if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(user))
      return use.getOperandNumber() == copy.getSrcMutable().getOperandNumber()
                 ? UseVerdict::accept
                 : UseVerdict::reject;
    if (auto copy = dyn_cast<memref::CopyOp>(user))
      return use.getOperandNumber() ==
                     copy.getSourceMutable().getOperandNumber()
                 ? UseVerdict::accept
                 : UseVerdict::reject;
    if (isa<memref::SubViewOp, memref::ViewOp, memref::CastOp,
            memref::ReinterpretCastOp, memref::ExpandShapeOp,
            memref::CollapseShapeOp, memref::TransposeOp,
            memref::MemorySpaceCastOp>(user))
      return UseVerdict::follow;
    return UseVerdict::reject;
  });
}

/// Where a launch operand's memory lies.
struct Place {
  enum Kind { Object, External, Unknown } kind = Unknown;
  /// The allocation, or the global's name (Object).
  const void *object = nullptr;
  /// The bytes it reaches from the object's start, where known.
  std::optional<std::pair<int64_t, int64_t>> bytes;
};

/// The byte range a memref of static layout reaches from its aligned
/// pointer, or nothing.
std::optional<std::pair<int64_t, int64_t>> staticBytes(MemRefType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  unsigned bits = type.getElementTypeBitWidth();
  if (bits == 0 || bits % 8)
    return std::nullopt;
  int64_t element = bits / 8;
  if (type.getNumElements() == 0)
    return std::make_pair(offset * element, offset * element);
  int64_t last = offset;
  for (auto [size, stride] : llvm::zip(type.getShape(), strides))
    last += (size - 1) * stride;
  int64_t lo = std::min(offset, last), hi = std::max(offset, last);
  return std::make_pair(lo * element, (hi + 1) * element);
}

/// The calls of a function in the module, and whether anything else
/// refers to it (then its arguments may come from anywhere).
struct CallSites {
  SmallVector<func::CallOp> calls;
  bool otherUses = false;
};

/// The call sites of every function `module` refers to, from one walk of
/// its symbol uses.
llvm::DenseMap<StringAttr, CallSites> callSitesOf(ModuleOp module) {
  llvm::DenseMap<StringAttr, CallSites> sites;
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(&module.getBodyRegion());
  if (!uses)
    return sites;
  for (const SymbolTable::SymbolUse &use : *uses) {
    SymbolRefAttr ref = use.getSymbolRef();
    CallSites &entry = sites[ref.getRootReference()];
    auto call = dyn_cast<func::CallOp>(use.getUser());
    if (call && ref.getNestedReferences().empty())
      entry.calls.push_back(call);
    else
      entry.otherUses = true;
  }
  return sites;
}

/// Every place `value` can lie at: through views to an allocation, a
/// global or a public function's argument, and through a private
/// function's arguments to each call's operand (`sites`).
SmallVector<Place>
placesOf(Value value, const llvm::DenseMap<StringAttr, CallSites> &sites) {
  struct Item {
    Value value;
    /// The bytes reached, relative to `value`'s aligned pointer.
    std::optional<std::pair<int64_t, int64_t>> bytes;
    /// Whether the views so far only narrow (a reinterpret_cast can widen).
    bool narrowing = true;
  };
  SmallVector<Place> places;
  SmallVector<Item> work{{value, std::nullopt, true}};
  auto unknown = [&] { places.push_back(Place{}); };
  // Bounded: a call graph with cycles, or very many call sites, ends in an
  // unknown place.
  unsigned steps = 0;
  while (!work.empty() && places.size() < 64 && ++steps < 4096) {
    Item item = work.pop_back_val();
    if (!item.bytes && item.narrowing)
      if (auto type = dyn_cast<MemRefType>(item.value.getType()))
        item.bytes = staticBytes(type);
    auto shifted = [&](int64_t by) {
      if (item.bytes) {
        item.bytes->first += by;
        item.bytes->second += by;
      }
    };
    if (auto arg = dyn_cast<BlockArgument>(item.value)) {
      auto fn = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
      if (!fn || arg.getOwner() != &fn.getBody().front()) {
        unknown();
        continue;
      }
      if (fn.isPublic()) {
        places.push_back(Place{Place::External, nullptr, std::nullopt});
        continue;
      }
      auto site = sites.find(fn.getSymNameAttr());
      if (site == sites.end() || site->second.otherUses ||
          site->second.calls.empty()) {
        unknown();
        continue;
      }
      for (func::CallOp call : site->second.calls) {
        if (call.getNumOperands() != fn.getNumArguments()) {
          unknown();
          continue;
        }
        work.push_back(Item{call.getOperand(arg.getArgNumber()), item.bytes,
                            item.narrowing});
      }
      continue;
    }
    Operation *def = item.value.getDefiningOp();
    if (isa<memref::AllocOp, memref::AllocaOp>(def)) {
      places.push_back(Place{Place::Object, def, item.bytes});
      continue;
    }
    if (auto global = dyn_cast<memref::GetGlobalOp>(def)) {
      places.push_back(Place{
          Place::Object, global.getNameAttr().getAttr().getAsOpaquePointer(),
          item.bytes});
      continue;
    }
    if (auto view = dyn_cast<memref::ViewOp>(def)) {
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      if (!shift) {
        item.bytes.reset();
        item.narrowing = false;
      } else {
        shifted(*shift);
      }
      work.push_back(Item{view.getSource(), item.bytes, item.narrowing});
      continue;
    }
    if (isa<memref::SubViewOp, memref::CastOp, memref::ExpandShapeOp,
            memref::CollapseShapeOp, memref::TransposeOp,
            memref::MemorySpaceCastOp>(def)) {
      work.push_back(Item{def->getOperand(0), item.bytes, item.narrowing});
      continue;
    }
    if (auto cast = dyn_cast<memref::ReinterpretCastOp>(def)) {
      // The same aligned pointer; the bytes reached are the result's own
      // (its type), not a part of the source's.
      work.push_back(Item{cast.getSource(), item.bytes, false});
      continue;
    }
    unknown();
  }
  if (!work.empty())
    unknown();
  return places;
}

bool disjoint(ArrayRef<Place> a, ArrayRef<Place> b) {
  for (const Place &p : a)
    for (const Place &q : b) {
      if (p.kind == Place::Unknown || q.kind == Place::Unknown)
        return false;
      if (p.kind == Place::External && q.kind == Place::External)
        return false;
      if (p.kind != q.kind || p.object != q.object)
        continue;
      if (!p.bytes || !q.bytes)
        return false;
      bool empty = p.bytes->first == p.bytes->second ||
                   q.bytes->first == q.bytes->second;
      if (!empty && p.bytes->first < q.bytes->second &&
          q.bytes->first < p.bytes->second)
        return false;
    }
  return true;
}

/// The LLVM arguments (aligned pointers) to mark noalias after the NVVM
/// lowering, and the number of LLVM arguments that assumes.
constexpr StringLiteral kNoAliasArgs = "fuse.noalias_args";
constexpr StringLiteral kLLVMArgCount = "fuse.llvm_arg_count";

struct KernelArgAttrsPass
    : public fuse::impl::FuseKernelArgAttrsBase<KernelArgAttrsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    llvm::DenseMap<StringAttr, CallSites> sites = callSitesOf(module);
    // Per kernel and argument: whether every launch allows noalias.
    llvm::DenseMap<Operation *, SmallVector<bool>> noalias;
    llvm::DenseMap<Operation *, SmallVector<bool>> readonly;
    llvm::DenseSet<Operation *> launchedOther;
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernel());
      if (!kernel || kernel.isExternal() ||
          kernel.getNumArguments() != launch.getNumKernelOperands()) {
        if (kernel)
          launchedOther.insert(kernel);
        return;
      }
      unsigned n = kernel.getNumArguments();
      auto [readIt, fresh] = readonly.try_emplace(kernel);
      if (fresh) {
        readIt->second.assign(n, false);
        for (unsigned i = 0; i < n; ++i)
          readIt->second[i] =
              isa<MemRefType>(kernel.getArgument(i).getType()) &&
              onlyRead(kernel.getArgument(i));
        noalias[kernel].assign(n, true);
      }
      SmallVector<bool> &ro = readIt->second;
      SmallVector<bool> &na = noalias[kernel];
      SmallVector<SmallVector<Place>> places(n);
      for (unsigned i = 0; i < n; ++i) {
        Value operand = launch.getKernelOperand(i);
        auto type = dyn_cast<MemRefType>(operand.getType());
        if (!type)
          continue;
        // Only global memory: the attribute means nothing elsewhere.
        auto space = dyn_cast_or_null<IntegerAttr>(type.getMemorySpace());
        if (type.getMemorySpace() && (!space || space.getInt() > 1)) {
          na[i] = false;
          continue;
        }
        places[i] = placesOf(operand, sites);
      }
      for (unsigned i = 0; i < n; ++i) {
        if (!na[i] || !isa<MemRefType>(kernel.getArgument(i).getType()))
          continue;
        if (places[i].empty()) {
          na[i] = false;
          continue;
        }
        for (unsigned j = 0; j < n && na[i]; ++j) {
          if (j == i || !isa<MemRefType>(kernel.getArgument(j).getType()))
            continue;
          if (ro[i] && ro[j])
            continue;
          if (places[j].empty() || !disjoint(places[i], places[j]))
            na[i] = false;
        }
      }
    });
    MLIRContext *ctx = module.getContext();
    auto unit = UnitAttr::get(ctx);
    // Workgroup buffers start on a 16-byte boundary: cp.async's 16-byte
    // copies and ldmatrix's rows need it, and the lowering otherwise gives
    // a buffer only its element's alignment.
    auto sixteen = IntegerAttr::get(IntegerType::get(ctx, 64), 16);
    module.walk([&](gpu::GPUFuncOp kernel) {
      for (unsigned i = 0, e = kernel.getNumWorkgroupAttributions(); i < e;
           ++i) {
        auto align =
            dyn_cast_or_null<IntegerAttr>(kernel.getWorkgroupAttributionAttr(
                i, LLVM::LLVMDialect::getAlignAttrName()));
        if (!align || align.getInt() < 16)
          kernel.setWorkgroupAttributionAttr(
              i, LLVM::LLVMDialect::getAlignAttrName(), sixteen);
      }
    });
    for (auto &[op, ro] : readonly) {
      if (launchedOther.contains(op))
        continue;
      auto kernel = cast<gpu::GPUFuncOp>(op);
      SmallVector<bool> &na = noalias[op];
      // The NVVM lowering expands a memref argument into its descriptor's
      // fields (allocated pointer, aligned pointer, offset, sizes, strides)
      // and drops `llvm.noalias` there: record which LLVM arguments are the
      // aligned pointers to mark (fuse-kernel-noalias, after the lowering).
      SmallVector<int64_t> alignedPointers;
      int64_t position = 0;
      bool countable = true;
      for (unsigned i = 0, e = ro.size(); i < e; ++i) {
        Type type = kernel.getArgument(i).getType();
        auto memref = dyn_cast<MemRefType>(type);
        if (!memref) {
          countable &= type.isIntOrIndexOrFloat();
          ++position;
          continue;
        }
        if (ro[i])
          kernel.setArgAttr(i, LLVM::LLVMDialect::getReadonlyAttrName(), unit);
        if (na[i])
          alignedPointers.push_back(position + 1);
        position += 3 + 2 * memref.getRank();
      }
      if (countable && !alignedPointers.empty()) {
        kernel->setAttr(kNoAliasArgs,
                        DenseI64ArrayAttr::get(ctx, alignedPointers));
        kernel->setAttr(kLLVMArgCount,
                        IntegerAttr::get(IntegerType::get(ctx, 64), position));
      }
    }
  }
};

struct KernelNoAliasPass
    : public fuse::impl::FuseKernelNoAliasBase<KernelNoAliasPass> {
  void runOnOperation() override {
    getOperation()->walk([&](LLVM::LLVMFuncOp fn) {
      auto pointers = fn->getAttrOfType<DenseI64ArrayAttr>(kNoAliasArgs);
      auto count = fn->getAttrOfType<IntegerAttr>(kLLVMArgCount);
      fn->removeAttr(kNoAliasArgs);
      fn->removeAttr(kLLVMArgCount);
      if (!pointers || !count || fn.isExternal())
        return;
      // Marked only where the lowering expanded the arguments as counted.
      if (static_cast<int64_t>(fn.getNumArguments()) != count.getInt())
        return;
      for (int64_t index : pointers.asArrayRef())
        if (index < 0 || index >= count.getInt() ||
            !isa<LLVM::LLVMPointerType>(fn.getArgument(index).getType()))
          return;
      auto unit = UnitAttr::get(fn.getContext());
      for (int64_t index : pointers.asArrayRef())
        fn.setArgAttr(index, LLVM::LLVMDialect::getNoAliasAttrName(), unit);
    });
  }
};

} // namespace
