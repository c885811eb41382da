//===- WarpMma.cpp - contractions on warp-level tensor-core MMA -----------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// See WarpMma.h. The code a lane runs (its share of each copy into shared
// memory, the fragments it loads, the accumulators it stores) is the same
// on the GPU and emulated; only the instruction differs: nvgpu.mma.sync
// (TF32, m16n8k8) or nvvm.mma.sync (bf16/fp16, m16n8k16) on the GPU, and
// emulated, a loop that gathers the 32 lanes' fragments into the
// instruction's A (16xK) and B (Kx8) by the PTX ISA's fragment layouts and
// adds A * B to the lanes' accumulators by the same layouts.
//
//===----------------------------------------------------------------------===//

#include "WarpMma.h"

#include "fuse/Codegen/CostModel/KernelCost.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>

using namespace mlir;
using namespace mlir::fuse::detail;
using mlir::fuse::chooseMmaWarps;
using mlir::fuse::MmaWarpGrid;

void mlir::fuse::detail::emitPhase(
    OpBuilder &b, Location loc, bool emulate, int64_t threads, Value tid,
    llvm::function_ref<void(OpBuilder &, Value)> body, bool barrier) {
  if (emulate) {
    auto loop =
        scf::ForOp::create(b, loc, arith::ConstantIndexOp::create(b, loc, 0),
                           arith::ConstantIndexOp::create(b, loc, threads),
                           arith::ConstantIndexOp::create(b, loc, 1));
    OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
    body(lb, loop.getInductionVar());
    return;
  }
  body(b, tid);
  if (barrier)
    gpu::BarrierOp::create(b, loc);
}

namespace {

/// Fragments of mma.sync.m16n8k8 with .tf32 A and B and .f32 C/D (PTX ISA,
/// "Matrix Fragments for mma.m16n8k8", .tf32): with groupID = lane / 4 and
/// threadID_in_group = lane % 4,
///  A (16x8, row-major) a0..a3: row groupID (a0, a2) or groupID + 8 (a1,
///    a3), column threadID_in_group (a0, a1) or + 4 (a2, a3);
///  B (8x8, column-major) b0, b1: row threadID_in_group (b0) or + 4 (b1),
///    column groupID;
///  C/D (16x8) c0..c3: row groupID (c0, c1) or groupID + 8 (c2, c3),
///    column threadID_in_group * 2 + (i & 1).
struct Fragment {
  /// Row and column of register `r` of lane `lane` (Values, built at `b`).
  static std::pair<Value, Value> a(OpBuilder &b, Location loc, Value lane,
                                   int64_t r);
  static std::pair<Value, Value> bRowCol(OpBuilder &b, Location loc, Value lane,
                                         int64_t r);
  static std::pair<Value, Value> c(OpBuilder &b, Location loc, Value lane,
                                   int64_t r);
};

Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value add(OpBuilder &b, Location loc, Value x, int64_t v) {
  return v == 0 ? x : b.createOrFold<arith::AddIOp>(loc, x, cst(b, loc, v));
}

Value add(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::AddIOp>(loc, x, y);
}

Value mul(OpBuilder &b, Location loc, Value x, int64_t v) {
  return v == 1 ? x : b.createOrFold<arith::MulIOp>(loc, x, cst(b, loc, v));
}

Value div(OpBuilder &b, Location loc, Value x, int64_t v) {
  return v == 1 ? x : b.createOrFold<arith::DivUIOp>(loc, x, cst(b, loc, v));
}

Value rem(OpBuilder &b, Location loc, Value x, int64_t v) {
  return b.createOrFold<arith::RemUIOp>(loc, x, cst(b, loc, v));
}

Value groupId(OpBuilder &b, Location loc, Value lane) {
  return div(b, loc, lane, 4);
}

Value inGroup(OpBuilder &b, Location loc, Value lane) {
  return rem(b, loc, lane, 4);
}

std::pair<Value, Value> Fragment::a(OpBuilder &b, Location loc, Value lane,
                                    int64_t r) {
  return {add(b, loc, groupId(b, loc, lane), (r & 1) ? 8 : 0),
          add(b, loc, inGroup(b, loc, lane), (r & 2) ? 4 : 0)};
}

std::pair<Value, Value> Fragment::bRowCol(OpBuilder &b, Location loc,
                                          Value lane, int64_t r) {
  return {add(b, loc, inGroup(b, loc, lane), r ? 4 : 0), groupId(b, loc, lane)};
}

std::pair<Value, Value> Fragment::c(OpBuilder &b, Location loc, Value lane,
                                    int64_t r) {
  return {add(b, loc, groupId(b, loc, lane), (r & 2) ? 8 : 0),
          add(b, loc, mul(b, loc, inGroup(b, loc, lane), 2), r & 1)};
}

/// Fragments of mma.sync.m16n8k16 with .bf16 or .f16 A and B (PTX ISA,
/// "Matrix Fragments for mma.m16n8k16 with floating point type"): A's 4
/// registers and B's 2 hold two elements each; element i (of 8 for A, 4
/// for B) is register i / 2's half i % 2:
///  A (16x16) a0..a7: row groupID, + 8 for (i / 2) odd; column
///    threadID_in_group * 2 + (i & 1), + 8 for i >= 4;
///  B (16x8) b0..b3: row threadID_in_group * 2 + (i & 1), + 8 for i >= 2,
///    column groupID.
std::pair<Value, Value> halfFragmentA(OpBuilder &b, Location loc, Value lane,
                                      int64_t i) {
  int64_t r = i / 2;
  return {add(b, loc, groupId(b, loc, lane), (r & 1) ? 8 : 0),
          add(b, loc, mul(b, loc, inGroup(b, loc, lane), 2),
              (i & 1) + ((r & 2) ? 8 : 0))};
}

std::pair<Value, Value> halfFragmentB(OpBuilder &b, Location loc, Value lane,
                                      int64_t i) {
  return {add(b, loc, mul(b, loc, inGroup(b, loc, lane), 2),
              (i & 1) + (i >= 2 ? 8 : 0)),
          groupId(b, loc, lane)};
}

/// `x` rounded to bfloat16 (7 explicit mantissa bits, to nearest with ties
/// to even, as cvt.rn.bf16.f32; past the largest finite value to
/// infinity), as an f32 whose low 16 bits are 0. The same integer code on
/// the GPU and emulated, so both round alike; the GPU then converts the
/// (exactly representable) value to bf16.
Value roundToBf16(OpBuilder &b, Location loc, Value x) {
  Type i32 = b.getI32Type();
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value lsb = arith::AndIOp::create(
      b, loc,
      arith::ShRUIOp::create(b, loc, bits,
                             arith::ConstantIntOp::create(b, loc, 16, 32)),
      arith::ConstantIntOp::create(b, loc, 1, 32));
  bits = arith::AddIOp::create(
      b, loc, bits,
      arith::AddIOp::create(
          b, loc, arith::ConstantIntOp::create(b, loc, 0x7FFF, 32), lsb));
  bits = arith::AndIOp::create(
      b, loc, bits,
      arith::ConstantIntOp::create(b, loc, int64_t(0xFFFF0000u), 32));
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
}

/// `x` rounded to IEEE half (to nearest, ties to even, as cvt.rn.f16.f32):
/// 10 explicit mantissa bits from 2^-14 up (past 65504 to infinity),
/// multiples of 2^-24 below, as an f32. Integer and exact float code, the
/// same on the GPU and emulated.
Value roundToF16(OpBuilder &b, Location loc, Value x) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto i32c = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 32);
  };
  auto f32c = [&](double v) {
    return arith::ConstantFloatOp::create(b, loc, cast<FloatType>(f32),
                                          APFloat(float(v)));
  };
  // Normal range: the mantissa to 10 bits.
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value lsb = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, i32c(13)), i32c(1));
  Value normalBits = arith::AndIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, bits,
                            arith::AddIOp::create(b, loc, i32c(0xFFF), lsb)),
      i32c(int64_t(0xFFFFE000u)));
  Value normal = arith::BitcastOp::create(b, loc, f32, normalBits);
  Value magnitude = math::AbsFOp::create(b, loc, normal);
  Value infinity = arith::SelectOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, f32c(0.0)),
      f32c(-INFINITY), f32c(INFINITY));
  normal = arith::SelectOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, magnitude,
                            f32c(65504.0)),
      infinity, normal);
  // Below 2^-14: multiples of 2^-24 (scaled by 2^24, rounded to an integer
  // by adding and subtracting 1.5 * 2^23, scaled back; all exact).
  Value scaled = arith::MulFOp::create(b, loc, x, f32c(16777216.0));
  Value magic = f32c(12582912.0);
  Value rounded = arith::SubFOp::create(
      b, loc, arith::AddFOp::create(b, loc, scaled, magic), magic);
  Value subnormal =
      arith::MulFOp::create(b, loc, rounded, f32c(1.0 / 16777216.0));
  Value small = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                      math::AbsFOp::create(b, loc, x),
                                      f32c(1.0 / 16384.0));
  return arith::SelectOp::create(b, loc, small, subnormal, normal);
}

/// `x` rounded to TF32 (10 explicit mantissa bits, to nearest with ties
/// away from zero, as cvt.rna.tf32.f32), as an f32 whose low 13 bits are 0.
Value roundToTf32(OpBuilder &b, Location loc, Value x) {
  Type i32 = b.getI32Type();
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  bits = arith::AddIOp::create(
      b, loc, bits, arith::ConstantIntOp::create(b, loc, 0x1000, 32));
  bits = arith::AndIOp::create(
      b, loc, bits,
      arith::ConstantIntOp::create(b, loc, int64_t(0xFFFFE000u), 32));
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
}

/// The phases of the schedule (emitPhase).
void phase(OpBuilder &b, Location loc, bool emulate, int64_t threads, Value tid,
           llvm::function_ref<void(OpBuilder &, Value)> body,
           bool barrier = true) {
  emitPhase(b, loc, emulate, threads, tid, body, barrier);
}

/// Loop indices of `dims` (extents `sizes`) from `linear`, the last fastest.
void delinearize(OpBuilder &b, Location loc, Value linear,
                 ArrayRef<unsigned> dims, ArrayRef<int64_t> sizes,
                 MutableArrayRef<Value> ivs) {
  for (unsigned d : llvm::reverse(dims)) {
    ivs[d] = rem(b, loc, linear, sizes[d]);
    linear = div(b, loc, linear, sizes[d]);
  }
}

/// `ok` and `next` as one condition (null: true).
Value both(OpBuilder &b, Location loc, Value ok, Value next) {
  if (!ok)
    return next;
  if (!next)
    return ok;
  return arith::AndIOp::create(b, loc, ok, next);
}

/// `x < bound`, or null when `x` < `limit` <= `bound` always holds.
Value lessThan(OpBuilder &b, Location loc, Value x, int64_t bound,
               int64_t limit) {
  if (limit <= bound)
    return Value();
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x,
                               cst(b, loc, bound));
}

/// `load()` where `ok` holds (null: always), else 0.0.
Value loadIf(OpBuilder &b, Location loc, Value ok,
             llvm::function_ref<Value(OpBuilder &)> load, Type type = Type()) {
  if (!ok)
    return load(b);
  if (!type)
    type = b.getF32Type();
  SmallVector<Type, 1> types = {type};
  auto ifOp = scf::IfOp::create(b, loc, TypeRange(types), ok,
                                /*withElseRegion=*/true);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  scf::YieldOp::create(tb, loc, load(tb));
  OpBuilder eb = ifOp.getElseBodyBuilder();
  Value zero = arith::ConstantOp::create(eb, loc, eb.getZeroAttr(type));
  scf::YieldOp::create(eb, loc, ValueRange{zero});
  return ifOp.getResult(0);
}

/// The element of `memref` at `indices` as f32 (a 16-bit operand's
/// extended: exactly).
Value loadAsF32(OpBuilder &b, Location loc, Value memref, ValueRange indices) {
  Value v = memref::LoadOp::create(b, loc, memref, indices);
  if (v.getType().isF32())
    return v;
  return arith::ExtFOp::create(b, loc, b.getF32Type(), v);
}

/// `store(b)` where `ok` holds (null: always).
void storeIf(OpBuilder &b, Location loc, Value ok,
             llvm::function_ref<void(OpBuilder &)> store) {
  if (!ok) {
    store(b);
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  store(tb);
}

} // namespace

namespace {
/// Whether `type` is a memref in the workgroup address space.
bool inWorkgroupSpace(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  auto space =
      memref ? dyn_cast_or_null<gpu::AddressSpaceAttr>(memref.getMemorySpace())
             : nullptr;
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// The buffer `memref` views (through views and address-space casts):
/// the first value in the workgroup address space on the way, else the
/// value no view defines.
Value viewedBuffer(Value memref) {
  Value value = memref;
  while (!inWorkgroupSpace(value.getType())) {
    Operation *def = value.getDefiningOp();
    if (auto cast = dyn_cast_or_null<memref::MemorySpaceCastOp>(def)) {
      value = cast.getSource();
      continue;
    }
    auto view = dyn_cast_or_null<ViewLikeOpInterface>(def);
    if (!view)
      break;
    value = view.getViewSource();
  }
  return value;
}
} // namespace

bool mlir::fuse::detail::isInSharedMemory(Value memref) {
  Value buffer = viewedBuffer(memref);
  return inWorkgroupSpace(buffer.getType()) ||
         buffer.getDefiningOp<memref::AllocaOp>();
}

bool mlir::fuse::detail::isTileBuffer(Value memref, Operation *user) {
  Value buffer = viewedBuffer(memref);
  if (inWorkgroupSpace(buffer.getType()))
    return true;
  Operation *def = buffer.getDefiningOp();
  return isa_and_nonnull<memref::AllocaOp, memref::AllocOp>(def) &&
         def->getParentRegion()->isAncestor(user->getParentRegion());
}

Value mlir::fuse::detail::emitAlignedTo(OpBuilder &b, Location loc,
                                        Value memref, int64_t unit) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  (void)type.getStridesAndOffset(strides, offset);
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value pointer =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  // The first element's address, and every stride but the innermost (1),
  // in whole units (static ones checked here).
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  int64_t perUnit = unit / bytes;
  Value zero = cst(b, loc, 0);
  for (int64_t d = 0; d + 1 < type.getRank(); ++d)
    if (!ShapedType::isDynamic(strides[d]) && strides[d] % perUnit != 0)
      return arith::ConstantIntOp::create(b, loc, 0, 1);
  Value first = ShapedType::isDynamic(offset)
                    ? mul(b, loc, metadata.getOffset(), bytes)
                    : cst(b, loc, offset * bytes);
  Value ok = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      rem(b, loc, add(b, loc, pointer, first), unit), zero);
  for (int64_t d = 0; d + 1 < type.getRank(); ++d)
    if (ShapedType::isDynamic(strides[d]))
      ok = arith::AndIOp::create(
          b, loc, ok,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                rem(b, loc, metadata.getStrides()[d], perUnit),
                                zero));
  return ok;
}

/// Most 16x8 accumulator tiles a warp holds (4 registers each per lane).
constexpr int64_t kMaxWarpTiles = 16;

std::optional<WarpMma> WarpMma::plan(const MmaContraction &c, int64_t threads,
                                     bool emulate, MmaPrecision precision,
                                     int64_t stages, int64_t slices,
                                     std::string *why) {
  WarpMma s(c);
  s.stages = std::clamp<int64_t>(stages, 2, 4);
  s.split = std::max<int64_t>(slices, 1);
  s.threads = threads;
  s.emulate = emulate;
  s.precision = precision;
  s.tilesM = llvm::divideCeil(c.mPoints, 16);
  s.tilesN = llvm::divideCeil(c.nPoints, 8);
  int64_t warps = threads / 32;
  if (warps < 1) {
    if (why)
      *why =
          llvm::formatv("the block's {0} threads are not a whole warp", threads)
              .str();
    return std::nullopt;
  }
  MmaWarpGrid grid = chooseMmaWarps(s.tilesM, s.tilesN, warps);
  s.warpsM = grid.warpsM;
  s.warpsN = grid.warpsN;
  s.warpTilesM = s.tilesM / s.warpsM;
  s.warpTilesN = s.tilesN / s.warpsN;
  if (s.warpTilesM * s.warpTilesN > kMaxWarpTiles) {
    if (why)
      *why = llvm::formatv("each of its {0} warps would hold {1} accumulator "
                           "tiles of 16x8, more than {2}",
                           s.warpsM * s.warpsN, s.warpTilesM * s.warpTilesN,
                           kMaxWarpTiles)
                 .str();
    return std::nullopt;
  }
  // An operand the kernel computed into a tile buffer is read in place
  // when each of its dimensions is one loop's (a matmul's operand): the
  // fragments' indices stay simple. A convolution's windowed input (a
  // padded tile) is staged, its window indices computed once per copy.
  linalg::LinalgOp op = c.op;
  auto direct = [&](OpOperand *operand) {
    return isTileBuffer(operand->get(), op) &&
           op.getMatchingIndexingMap(operand).isProjectedPermutation();
  };
  s.directA = direct(c.a);
  s.directB = direct(c.b);
  s.stagedA = cast<ShapedType>(c.a->get().getType()).getElementType();
  s.stagedB = cast<ShapedType>(c.b->get().getType()).getElementType();
  s.chunk = mmaChunk(c.kPoints, mmaKStep(precision));
  // Each slice takes the same whole number of chunks (the last may reach
  // past K, whose points read as 0.0).
  int64_t chunks = llvm::divideCeil(c.kPoints, s.chunk);
  s.sliceK = llvm::divideCeil(chunks, s.split) * s.chunk;
  s.paddedK = s.sliceK * s.split;
  return s;
}

int64_t WarpMma::partialElements(int64_t tiles) const {
  return tiles * split * warpTilesM * warpTilesN * 4 * warpsM * warpsN * 32;
}

SplitKBuffers mlir::fuse::detail::createSplitKBuffers(OpBuilder &b,
                                                      OpBuilder &after,
                                                      Location loc,
                                                      int64_t partialElements,
                                                      int64_t tiles) {
  MLIRContext *ctx = b.getContext();
  auto helper = fuse::FuseDialect::SplitKBufferAttrHelper(ctx);
  auto make = [&](Type element, int64_t elements, StringRef role) {
    auto alloc =
        memref::AllocOp::create(b, loc, MemRefType::get({elements}, element));
    helper.setAttr(alloc, StringAttr::get(ctx, role));
    memref::DeallocOp::create(after, loc, alloc);
    return alloc.getResult();
  };
  SplitKBuffers buffers;
  buffers.partials = make(b.getF32Type(), partialElements, "partials");
  buffers.counters = make(b.getI32Type(), tiles, "counters");
  // Zero where fuse-split-k-buffers does not place them in a zeroed
  // global (on the GPU the host loop is refused by fuse-verify-kernels).
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
  linalg::FillOp::create(b, loc, zero, buffers.counters);
  return buffers;
}

namespace {
/// Rows of a side's block tile in shared memory: its points padded to
/// whole accumulator tiles.
int64_t paddedPoints(int64_t points, int64_t tile) {
  return llvm::alignTo(points, tile);
}
} // namespace

void WarpMma::allocate(OpBuilder &b, Operation *end) {
  Location loc = c.op.getLoc();
  Type f32 = b.getF32Type();
  int64_t rowsA = paddedPoints(c.mPoints, 16),
          rowsB = paddedPoints(c.nPoints, 8);
  auto make = [&](ArrayRef<int64_t> shape, bool isShared,
                  Type element = Type()) -> Value {
    auto type = MemRefType::get(shape, element ? element : f32);
    if (!emulate) {
      auto alloca = memref::AllocaOp::create(b, loc, type);
      if (isShared)
        shared.push_back(alloca);
      created.push_back(alloca);
      return alloca;
    }
    // Emulated: heap buffers freed at the tile's end (a tile loop's
    // allocas would pile up on the stack).
    auto alloc = memref::AllocOp::create(b, loc, type);
    created.push_back(alloc);
    OpBuilder eb(end);
    created.push_back(memref::DeallocOp::create(eb, loc, alloc));
    return alloc;
  };
  auto staged = [&](SmallVector<int64_t> shape) {
    shape.insert(shape.begin(), stages);
    return shape;
  };
  auto bytes = [](Type t) { return int64_t(t.getIntOrFloatBitWidth() / 8); };
  if (!directA)
    sharedA = make(
        staged(mmaBlockTileShape(rowsA, chunk, c.aKFastest, bytes(stagedA))),
        true, stagedA);
  if (!directB)
    sharedB = make(
        staged(mmaBlockTileShape(rowsB, chunk, c.bKFastest, bytes(stagedB))),
        true, stagedB);
  if (!emulate) {
    if (split > 1)
      lastFlag = make({1}, true, b.getI32Type());
    return;
  }
  int64_t parts = precision == MmaPrecision::fp32 ? 2 : 1;
  int64_t kStep = mmaKStep(precision);
  int64_t perRegister = isHalfPrecision(precision) ? 2 : 1;
  accs = make({threads, warpTilesM * warpTilesN, 4}, false);
  fragA = make({threads, warpTilesM, parts, 4 * perRegister}, false);
  fragB = make({threads, warpTilesN, parts, 2 * perRegister}, false);
  tileA = make({16, kStep}, false);
  tileB = make({kStep, 8}, false);
}

void WarpMma::drop() {
  for (Operation *op : llvm::reverse(created))
    op->erase();
  created.clear();
  shared.clear();
  initializer = nullptr;
  epilogue.clear();
  stored.clear();
  views.clear();
  folded.clear();
  deadBuffers.clear();
}

namespace {
/// Whether `op` computes each element of its one output at the same point
/// of `shape` (empty: of its own static loops) from its operands: every
/// loop parallel and static, the output's map the identity.
bool isPointwiseOver(linalg::LinalgOp op, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != op.getNumParallelLoops() ||
      ShapedType::isDynamicShape(ranges) ||
      (!shape.empty() && ArrayRef<int64_t>(ranges) != shape) ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return false;
  // The payload: one result, no nested regions.
  Block *body = op.getBlock();
  return body && body->getTerminator()->getNumOperands() == 1 &&
         llvm::all_of(body->without_terminator(), [](Operation &inner) {
           return inner.getNumRegions() == 0;
         });
}

/// A tile buffer a folded chain may drop: a tile buffer of `user`'s
/// kernel (isTileBuffer) that is its alloca or alloc itself, not a view.
bool isDroppableBuffer(Value buffer, Operation *user) {
  return isa_and_nonnull<memref::AllocaOp, memref::AllocOp>(
             buffer.getDefiningOp()) &&
         isTileBuffer(buffer, user);
}

/// Whether `value` is available before `op` (in its block), moving the
/// side-effect-free ops that compute it there (views of operands, index
/// math, static tile buffers) when they come after it.
bool availableBefore(Value value, Operation *op, int depth = 0) {
  Operation *def = value.getDefiningOp();
  Block *block = op->getBlock();
  if (!def)
    return cast<BlockArgument>(value).getOwner()->findAncestorOpInBlock(*op) !=
           nullptr;
  if (def->getBlock() != block)
    return def->getBlock()->findAncestorOpInBlock(*op) != nullptr;
  if (def->isBeforeInBlock(op))
    return true;
  // A static tile buffer may be made earlier too.
  bool staticAlloca = isa<memref::AllocaOp>(def) && def->getNumOperands() == 0;
  if (depth > 16 || def->getNumRegions() != 0 ||
      (!isMemoryEffectFree(def) && !staticAlloca))
    return false;
  for (Value operand : def->getOperands())
    if (!availableBefore(operand, op, depth + 1))
      return false;
  def->moveBefore(op);
  return true;
}

/// Whether the ops between `first` and `last` (in one block) leave the
/// buffers `first` reads and writes alone, and read nothing it writes:
/// free of side effects, or linalg ops on other buffers (compared by the
/// buffers their operands view).
bool nothingWritesBetween(linalg::LinalgOp first, Operation *last) {
  SmallVector<Value> touched, written;
  for (OpOperand &operand : first->getOpOperands())
    if (isa<MemRefType>(operand.get().getType())) {
      touched.push_back(viewedBuffer(operand.get()));
      if (first.isDpsInit(&operand))
        written.push_back(viewedBuffer(operand.get()));
    }
  for (Operation *op = first->getNextNode(); op && op != last;
       op = op->getNextNode()) {
    if (op->getNumRegions() == 0 && isMemoryEffectFree(op))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || !linalgOp.hasPureBufferSemantics())
      return false;
    for (OpOperand &operand : linalgOp->getOpOperands()) {
      if (!isa<MemRefType>(operand.get().getType()))
        continue;
      Value viewed = viewedBuffer(operand.get());
      if (linalgOp.isDpsInit(&operand) ? llvm::is_contained(touched, viewed)
                                       : llvm::is_contained(written, viewed))
        return false;
    }
  }
  return true;
}

/// `op`'s payload at the output point `indices` (its loops are the
/// output's dimensions): the operands whose buffers the lanes hold
/// (`held`) read from there, the others loaded at their maps' indices
/// (scalars as they are).
Value evaluateAt(OpBuilder &b, Location loc, linalg::LinalgOp op,
                 ArrayRef<Value> indices, const DenseMap<Value, Value> &held) {
  IRMapping map;
  Block *body = op.getBlock();
  SmallVector<OpFoldResult> point = getAsOpFoldResult(indices);
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (auto it = held.find(operand.get()); it != held.end()) {
      map.map(arg, it->second);
      continue;
    }
    if (!isa<MemRefType>(operand.get().getType())) {
      map.map(arg, operand.get());
      continue;
    }
    if (op.isDpsInit(&operand) && !op.payloadUsesValueFromOperand(&operand))
      continue;
    AffineMap m = op.getMatchingIndexingMap(&operand);
    SmallVector<Value> at;
    for (unsigned r = 0; r < m.getNumResults(); ++r)
      at.push_back(
          affine::makeComposedAffineApply(b, loc, m.getSubMap({r}), point));
    map.map(arg, memref::LoadOp::create(b, loc, operand.get(), at));
  }
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      map.map(index.getResult(), indices[index.getDim()]);
      continue;
    }
    b.clone(inner, map);
  }
  return map.lookupOrDefault(body->getTerminator()->getOperand(0));
}
} // namespace

void WarpMma::foldElementwise() {
  linalg::LinalgOp op = c.op;
  Value out = op.getDpsInitOperand(0)->get();
  auto outType = dyn_cast<MemRefType>(out.getType());
  // The output may be the group's own (a root contraction writing global
  // memory): its initializer still folds, and the accumulators are stored
  // to it.
  if (!outType || !outType.hasStaticShape())
    return;
  ArrayRef<int64_t> shape = outType.getShape();
  Block *block = op->getBlock();
  // Every user of a buffer in the contraction's block (deallocations
  // aside), in order; false when one is nested in another op.
  std::function<bool(Value, SmallVectorImpl<Operation *> &)> usersInBlock =
      [&](Value buffer, SmallVectorImpl<Operation *> &users) {
        for (Operation *user : buffer.getUsers()) {
          if (isa<memref::DeallocOp>(user))
            continue;
          if (block->findAncestorOpInBlock(*user) != user)
            return false;
          users.push_back(user);
          // A reshape the epilogue reads through: its users are the buffer's.
          if (llvm::is_contained(views, user) &&
              !usersInBlock(user->getResult(0), users))
            return false;
        }
        llvm::sort(users, [](Operation *x, Operation *y) {
          return x->isBeforeInBlock(y);
        });
        return true;
      };
  SmallVector<Operation *> outUsers;
  if (!usersInBlock(out, outUsers))
    return;
  // The initializer: the output's first user, just before the contraction,
  // an elementwise op that writes it without reading it.
  auto self = llvm::find(outUsers, op.getOperation());
  if (self != outUsers.begin() && std::prev(self) == outUsers.begin()) {
    auto init = dyn_cast<linalg::LinalgOp>(outUsers.front());
    if (init && isPointwiseOver(init, shape) &&
        init.getDpsInitOperand(0)->get() == out &&
        !init.payloadUsesValueFromOperand(init.getDpsInitOperand(0)) &&
        llvm::none_of(init.getDpsInputs(),
                      [&](Value v) { return viewedBuffer(v) == out; }) &&
        init.getBlock()->getTerminator()->getOperand(0).getType() ==
            outType.getElementType() &&
        nothingWritesBetween(init, op))
      initializer = init;
  }
  // The epilogue: elementwise ops over the output's shape that read the
  // buffers whose elements the lanes hold (`live`: the output, and what
  // each folded op writes) element for element; other buffers are loaded.
  SmallVector<Value> live = {out};
  // Where each is written (an operand that follows the buffer wherever it
  // is moved: shared memory replaces tile buffers before emit).
  SmallVector<OpOperand *> writtenAt = {op.getDpsInitOperand(0)};
  llvm::SmallPtrSet<Operation *, 8> chain = {op.getOperation()};
  // A held buffer read through a reshape (an expand_shape or
  // collapse_shape of static shape: the same elements in the same
  // row-major order) is held as well; the op reading it runs over its
  // shape, the element at the same linear position.
  auto heldSource = [&](Value v) -> Value {
    while (Operation *def = v.getDefiningOp()) {
      if (!isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(def) ||
          !cast<MemRefType>(v.getType()).hasStaticShape())
        break;
      v = def->getOperand(0);
    }
    return v;
  };
  auto isLive = [&](Value v) {
    return llvm::is_contained(live, heldSource(v));
  };
  int64_t elements = outType.getNumElements();
  for (Operation *cursor = op->getNextNode(); cursor;
       cursor = cursor->getNextNode()) {
    auto g = dyn_cast<linalg::LinalgOp>(cursor);
    if (!g) {
      // Views, index math and tile buffers' allocations may lie between.
      if (cursor->getNumRegions() == 0 &&
          (isMemoryEffectFree(cursor) || isa<memref::AllocaOp>(cursor)))
        continue;
      break;
    }
    if (!isPointwiseOver(g, {}) ||
        ShapedType::getNumElements(g.getStaticLoopRanges()) != elements)
      break;
    Value next = g.getDpsInitOperand(0)->get();
    // The buffer written is the held one itself or a new one, not a view,
    // and not one the contraction reads (other warps may still read it
    // when a lane stores).
    if (isLive(next) && !llvm::is_contained(live, next))
      break;
    if (llvm::any_of(op.getDpsInputs(), [&](Value in) {
          return viewedBuffer(in) == viewedBuffer(next);
        }))
      break;
    bool readsLive = false, ok = true;
    for (OpOperand &operand : g->getOpOperands()) {
      Value v = operand.get();
      if (!isa<MemRefType>(v.getType()))
        continue;
      bool identity = g.getMatchingIndexingMap(&operand).isIdentity();
      if (isLive(v)) {
        readsLive |=
            g.isDpsInput(&operand) || g.payloadUsesValueFromOperand(&operand);
        ok &= identity;
        // The reshapes between it and the held buffer, innermost first.
        SmallVector<Operation *> through;
        for (Value x = v; x != heldSource(x);
             x = x.getDefiningOp()->getOperand(0))
          through.push_back(x.getDefiningOp());
        for (Operation *view : llvm::reverse(through))
          if (!llvm::is_contained(views, view))
            views.push_back(view);
        continue;
      }
      // No other view of a held buffer; the buffer written (an input
      // written in place) only element for element.
      Value viewed = viewedBuffer(v);
      if (llvm::any_of(live,
                       [&](Value x) { return viewedBuffer(x) == viewed; }) ||
          (v != next && viewed == viewedBuffer(next)) ||
          (v == next && !identity))
        ok = false;
    }
    if (!ok || !readsLive)
      break;
    // What it reads from memory must be there before the contraction.
    if (!llvm::all_of(
            g->getOperands(),
            [&](Value v) { return isLive(v) || availableBefore(v, op); }) ||
        !availableBefore(next, op))
      break;
    epilogue.push_back(g);
    chain.insert(g);
    if (!isLive(next)) {
      live.push_back(next);
      writtenAt.push_back(g.getDpsInitOperand(0));
    }
  }
  // The reshapes of held buffers that folded ops read: not users of their
  // own (their users are the buffer's).
  for (Operation *view : views)
    chain.insert(view);
  // Nothing folded: the accumulators go to the output as before.
  if (epilogue.empty() && !initializer)
    return;
  if (initializer)
    folded.push_back(initializer);
  for (linalg::LinalgOp g : epilogue)
    folded.push_back(g);
  // A held buffer is stored where it is seen: it is not the tile's own,
  // or an op that did not fold uses it (for the output, after the
  // contraction: before it only its initializer writes it). The tile's own
  // others are dropped, never allocated (the output too, when its
  // initializer folded; else the accumulators load it): a buffer an
  // unfolded op uses, even before the contraction, is not one of them.
  if (initializer)
    chain.insert(initializer);
  for (auto [buffer, at] : llvm::zip(live, writtenAt)) {
    SmallVector<Operation *> users;
    bool seen = !isDroppableBuffer(buffer, op) ||
                !usersInBlock(buffer, users) ||
                llvm::any_of(users, [&](Operation *u) {
                  return !chain.contains(u) &&
                         (buffer != out || !u->isBeforeInBlock(op));
                });
    if (seen)
      stored.push_back(at);
    else if (buffer != out || initializer)
      deadBuffers.push_back(buffer.getDefiningOp());
  }
}

namespace mlir::fuse::detail {
/// The code of one WarpMma.
class WarpMmaEmitter {
public:
  WarpMmaEmitter(WarpMma &s) : s(s), c(s.c), loc(s.c.op.getLoc()) {}

  void emit(Value tid, bool barrier);

private:
  /// Whether side point `p` (of `sidePoints`, padded to `paddedSide`) and
  /// K point `k` are in the operand (null: always).
  Value inRange(OpBuilder &b, int64_t sidePoints, int64_t paddedSide, Value p,
                Value k);
  /// The indices of `operand` (A or B) at side point `p`, K point `k` of
  /// batch point `batchIvs`.
  SmallVector<Value> operandIndices(OpBuilder &b, OpOperand *operand,
                                    ArrayRef<unsigned> side, Value p, Value k,
                                    ArrayRef<Value> batchIvs);
  /// A lane's share of the copy of a block tile of `operand` at K chunk
  /// `kc` into stage `stage` of `dest`, 0.0 outside the operand: on the
  /// GPU cp.async (the caller commits and waits), emulated a load and a
  /// store.
  void copyTile(OpBuilder &b, Value thread, OpOperand *operand,
                ArrayRef<unsigned> side, int64_t sidePoints, int64_t rows,
                bool kFastest, Value dest, Value stage, Value kc,
                ArrayRef<Value> batchIvs);
  /// Whether the copy of `operand`'s block tile can move runs of 16 bytes
  /// (runWidth consecutive elements): unit innermost stride indexed by the
  /// tile's contiguous loop (the fastest K loop for a K-fastest tile, else
  /// the fastest side loop), whose extent, like the run's bounds, is a
  /// multiple of the run (a run is all in the operand or all out).
  bool copiesBy16Bytes(OpOperand *operand, ArrayRef<unsigned> side,
                       int64_t sidePoints, int64_t rows, bool kFastest) const;
  /// Elements of `operand`'s staged type in 16 bytes: 4 (f32) or 8 (a
  /// 16-bit model's f16 or bf16).
  int64_t runWidth(OpOperand *operand) const;
  /// The copy of copyTile in runs of `width` (1 or runWidth) elements.
  void copyElements(OpBuilder &b, Value thread, OpOperand *operand,
                    ArrayRef<unsigned> side, int64_t sidePoints, int64_t rows,
                    bool kFastest, Value dest, Value stage, Value kc,
                    ArrayRef<Value> batchIvs, int64_t width);
  /// Element (row p, K column kk) of the current stage of a block tile in
  /// shared memory.
  Value loadShared(OpBuilder &b, Value tile, bool kFastest, Value p, Value kk);
  /// Lane `lane`'s fragment at K step `step` of operand A (accumulator
  /// row tile `tile` of the block) or B (column tile `tile`).
  SmallVector<Value> fragment(OpBuilder &b, bool isA, Value lane, Value tile,
                              Value step);
  /// The fragment of `fragment` by ldmatrix (loadsWithLdmatrix): on the
  /// GPU the instruction, emulated its effect.
  SmallVector<Value> ldmatrixFragment(OpBuilder &b, bool isA, Value lane,
                                      Value tile, Value step);
  /// The row (point, K column) of the block tile whose 16 bytes (4 TF32
  /// elements) lane `lane` addresses for ldmatrix: for A (.x4) matrix
  /// lane / 8 of rows 0-7 and 8-15 of the tile at K columns 0-3, then at
  /// 4-7 (a0..a3); for B (.x2) matrix (lane / 8) % 2 of the tile's 8
  /// columns at K 0-3 and 4-7 (b0, b1; lanes 16-31 repeat 0-15), its row
  /// lane % 8.
  std::pair<Value, Value> ldmatrixRow(OpBuilder &b, bool isA, Value lane,
                                      Value tile, Value step);
  /// The output indices of point (m, n) of the tile.
  SmallVector<Value> outputIndices(OpBuilder &b, Value m, Value n,
                                   ArrayRef<Value> batchIvs);
  /// Lane `lane`'s accumulators of tile (i, j): loaded from the output, or
  /// stored to it (outside the output's points, 0.0 and nothing).
  SmallVector<Value> loadAccumulators(OpBuilder &b, Value lane, Value i,
                                      Value j, ArrayRef<Value> batchIvs);
  /// `fn(r, m, n, ok)` for register r of lane `lane`'s accumulators of tile
  /// (i, j): its point (m, n) of the tile and whether that is an output
  /// point (null: always).
  void
  forEachAccumulator(OpBuilder &b, Value lane, Value i, Value j,
                     llvm::function_ref<void(int64_t, Value, Value, Value)> fn);
  void storeAccumulators(OpBuilder &b, Value lane, Value i, Value j,
                         ArrayRef<Value> values, ArrayRef<Value> batchIvs);
  /// Elements of a lane's A or B fragment per instruction: 4 and 2
  /// registers of one TF32 element, or of two 16-bit elements.
  int64_t fragmentElements(bool isA) const {
    return (isA ? 4 : 2) * (isHalfPrecision(s.precision) ? 2 : 1);
  }
  /// Where element `r` of lane `lane`'s A or B fragment lies in the
  /// instruction's operand, by the precision's fragment layout: A's (row,
  /// K column) or B's (K row, column).
  std::pair<Value, Value> elementAt(OpBuilder &b, bool isA, Value lane,
                                    int64_t r) const {
    if (isHalfPrecision(s.precision))
      return isA ? halfFragmentA(b, loc, lane, r)
                 : halfFragmentB(b, loc, lane, r);
    return isA ? Fragment::a(b, loc, lane, r)
               : Fragment::bRowCol(b, loc, lane, r);
  }
  /// The (one or two) parts each product is formed from: {value} (tf32,
  /// bf16, fp16: rounded) or {big, small} (fp32).
  SmallVector<Value> split(OpBuilder &b, Value x);
  /// The (a part, b part) pairs whose products are accumulated, smallest
  /// first.
  SmallVector<std::pair<int, int>> products() const {
    if (s.precision != MmaPrecision::fp32)
      return {{0, 0}};
    return {{1, 0}, {0, 1}, {0, 0}};
  }

  /// Before the K loop: the first `stages - 1` chunks (those below `kEnd`)
  /// copied by `copyChunk(builder, stage, k)` into stages 0, 1, ...; after
  /// each, `commit` (when given: one cp.async group per chunk, empty past
  /// the end, so that the groups count chunks).
  void
  copyFirstChunks(OpBuilder &b, int64_t kEnd,
                  llvm::function_ref<void(OpBuilder &, Value, Value)> copyChunk,
                  llvm::function_ref<void(OpBuilder &)> commit);
  /// In the K loop's body at chunk `kc` (chunk i): the current `stage`
  /// (i mod stages), and chunk i + stages - 1 (if below `kEnd`) copied by
  /// `copyChunk` into the stage chunk i - 1 was computed from.
  void
  copyNextChunk(OpBuilder &kb, Value kc, int64_t kEnd,
                llvm::function_ref<void(OpBuilder &, Value, Value)> copyChunk);
  void emitGpu(OpBuilder &b, Value tid, ArrayRef<Value> batchIvs);
  /// On the GPU, one K step of 16 of the warp's tiles with 16-bit operands:
  /// each lane's fragments rounded (split), packed two to a register and
  /// multiplied into `accs` (warp tile order) by mma.sync.m16n8k16.
  void emitHalfStep(OpBuilder &b, Value lane, Value step,
                    SmallVectorImpl<Value> &accs,
                    llvm::function_ref<Value(OpBuilder &, int64_t)> tileRow,
                    llvm::function_ref<Value(OpBuilder &, int64_t)> tileCol);
  void emitEmulated(OpBuilder &b, ArrayRef<Value> batchIvs);
  /// The K point of chunk offset `kc` within the block's slice.
  Value sliceToK(OpBuilder &b, Value kc) {
    return kStart ? add(b, loc, kStart, kc) : kc;
  }
  /// Split-K: the index in the partials of register `reg` (of the lane's
  /// warpTiles x 4) of computing thread `thread` of slice `slice`, for the
  /// block's tile: the slice's registers of one index side by side over
  /// the threads (coalesced).
  Value partialIndex(OpBuilder &b, Value slice, Value reg, Value thread);
  /// Split-K: thread `thread`'s accumulators (warp tile order, 4 each)
  /// into the block's slice of the partials.
  void storePartials(OpBuilder &b, Value thread, ArrayRef<Value> values);
  /// Split-K: thread `thread`'s accumulators summed over the slices of the
  /// partials, in slice order.
  SmallVector<Value> sumPartials(OpBuilder &b, Value thread);
  /// Split-K: the block's arrival at its tile's counter (one thread's
  /// code): whether it is the last of the tile's blocks, which then resets
  /// the counter for the next launch.
  Value arrive(OpBuilder &b);
  /// Emulated mma.sync of warp `warp`'s tile (ii, jj) with the parts
  /// (pa, pb).
  void emulateInstruction(OpBuilder &b, Value warp, Value ii, Value jj, int pa,
                          int pb);

  WarpMma &s;
  MmaContraction &c;
  Location loc;
  /// The stage of the block tiles the fragments are loaded from; the K
  /// point of the chunk (operands read in place), and the batch point.
  Value stage, chunkStart;
  SmallVector<Value> fragmentBatch;
  /// Whether A's and B's block tiles copy 16 bytes at a time (null: never,
  /// copiesBy16Bytes; else the run-time alignment check).
  Value alignedA, alignedB;
  /// Split-K: the first K point of the block's slice, and whether the
  /// block computes the first slice (null: unsplit).
  Value kStart, firstSlice;
};
} // namespace mlir::fuse::detail

Value WarpMmaEmitter::inRange(OpBuilder &b, int64_t sidePoints,
                              int64_t paddedSide, Value p, Value k) {
  return both(b, loc, lessThan(b, loc, p, sidePoints, paddedSide),
              lessThan(b, loc, k, c.kPoints, s.paddedK));
}

SmallVector<Value> WarpMmaEmitter::operandIndices(OpBuilder &b,
                                                  OpOperand *operand,
                                                  ArrayRef<unsigned> side,
                                                  Value p, Value k,
                                                  ArrayRef<Value> batchIvs) {
  SmallVector<Value> ivs(c.sizes.size());
  for (auto [d, iv] : llvm::zip(c.batch, batchIvs))
    ivs[d] = iv;
  delinearize(b, loc, p, side, c.sizes, ivs);
  delinearize(b, loc, k, c.k, c.sizes, ivs);
  Value zero = cst(b, loc, 0);
  for (Value &iv : ivs)
    if (!iv)
      iv = zero;
  AffineMap map = c.op.getMatchingIndexingMap(operand);
  SmallVector<Value> indices;
  for (unsigned r = 0; r < map.getNumResults(); ++r)
    indices.push_back(affine::makeComposedAffineApply(
        b, loc, map.getSubMap({r}), getAsOpFoldResult(ivs)));
  return indices;
}

bool mlir::fuse::detail::hasContiguousFloatLoop(linalg::LinalgOp op,
                                                OpOperand *operand,
                                                unsigned loop) {
  auto type = dyn_cast<MemRefType>(operand->get().getType());
  if (!type || type.getRank() == 0 ||
      !isa<Float32Type, Float16Type, BFloat16Type>(type.getElementType()))
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return false;
  AffineMap map = op.getMatchingIndexingMap(operand);
  return map.getResults().back() == getAffineDimExpr(loop, map.getContext());
}

bool WarpMmaEmitter::copiesBy16Bytes(OpOperand *operand,
                                     ArrayRef<unsigned> side,
                                     int64_t sidePoints, int64_t rows,
                                     bool kFastest) const {
  // The loop whose consecutive points are consecutive elements: the
  // fastest K loop (K-fastest tile) or the fastest side loop.
  unsigned fastest = kFastest ? c.k.back() : side.back();
  auto type = dyn_cast<MemRefType>(operand->get().getType());
  if (!type || type.getRank() == 0)
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return false;
  AffineMap map = c.op.getMatchingIndexingMap(operand);
  if (map.getResults().back() != getAffineDimExpr(fastest, map.getContext()))
    return false;
  // A run's consecutive points share the other loops' indices, and are all
  // in the operand or all outside it.
  int64_t w = runWidth(operand);
  if (c.sizes[fastest] % w != 0)
    return false;
  if (kFastest)
    return s.chunk % w == 0 && c.kPoints % w == 0;
  return rows % w == 0 && sidePoints % w == 0;
}

int64_t WarpMmaEmitter::runWidth(OpOperand *operand) const {
  Type staged = operand == c.a ? s.stagedA : s.stagedB;
  return 16 / (staged.getIntOrFloatBitWidth() / 8);
}

void WarpMmaEmitter::copyTile(OpBuilder &b, Value thread, OpOperand *operand,
                              ArrayRef<unsigned> side, int64_t sidePoints,
                              int64_t rows, bool kFastest, Value dest,
                              Value stage, Value kc, ArrayRef<Value> batchIvs) {
  // A tile buffer is read in place.
  if ((operand == c.a && s.directA) || (operand == c.b && s.directB))
    return;
  auto copy = [&](OpBuilder &ob, int64_t width) {
    copyElements(ob, thread, operand, side, sidePoints, rows, kFastest, dest,
                 stage, kc, batchIvs, width);
  };
  Value aligned = operand == c.a ? alignedA : alignedB;
  if (!aligned) {
    copy(b, 1);
    return;
  }
  // 16-byte copies where the operand's first element and rows are 16-byte
  // aligned (a uniform branch), else one element at a time.
  auto ifOp = scf::IfOp::create(b, loc, aligned, /*withElseRegion=*/true);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  copy(tb, runWidth(operand));
  OpBuilder eb = ifOp.getElseBodyBuilder();
  copy(eb, 1);
}

void WarpMmaEmitter::copyElements(OpBuilder &b, Value thread,
                                  OpOperand *operand, ArrayRef<unsigned> side,
                                  int64_t sidePoints, int64_t rows,
                                  bool kFastest, Value dest, Value stage,
                                  Value kc, ArrayRef<Value> batchIvs,
                                  int64_t width) {
  int64_t total = rows * s.chunk / width;
  auto loop = scf::ForOp::create(b, loc, thread, cst(b, loc, total),
                                 cst(b, loc, s.threads));
  OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
  Value e = loop.getInductionVar();
  // Neighbouring threads on neighbouring elements (runs of `width`) of the
  // input.
  int64_t perRow = kFastest ? s.chunk / width : rows / width;
  Value p = kFastest ? div(lb, loc, e, perRow)
                     : mul(lb, loc, rem(lb, loc, e, perRow), width);
  Value kk = kFastest ? mul(lb, loc, rem(lb, loc, e, perRow), width)
                      : div(lb, loc, e, perRow);
  Value k = add(lb, loc, kc, kk);
  // The run is in the operand or outside it as a whole (copiesBy16Bytes).
  Value ok = inRange(lb, sidePoints, rows, p, k);
  auto destAt = [&](OpBuilder &ob, int64_t j) {
    Value pj = kFastest ? p : add(ob, loc, p, j);
    Value kj = kFastest ? add(ob, loc, kk, j) : kk;
    return kFastest ? SmallVector<Value>{stage, pj, kj}
                    : SmallVector<Value>{stage, kj, pj};
  };
  // Emulated, from a tile buffer in shared memory (a padded A tile), or
  // single 16-bit elements: loads and stores (cp.async reads global memory
  // only, and copies 4, 8 or 16 bytes), of the staged type (the operand's
  // own: a 16-bit value is copied as it is).
  Type staged = operand == c.a ? s.stagedA : s.stagedB;
  int64_t runBytes = width * (staged.getIntOrFloatBitWidth() / 8);
  if (s.emulate || isInSharedMemory(operand->get()) || runBytes < 4) {
    for (int64_t j = 0; j < width; ++j) {
      Value v = loadIf(
          lb, loc, ok,
          [&](OpBuilder &ib) -> Value {
            Value pj = kFastest ? p : add(ib, loc, p, j);
            Value kj = kFastest ? add(ib, loc, k, j) : k;
            return memref::LoadOp::create(
                ib, loc, operand->get(),
                operandIndices(ib, operand, side, pj, kj, batchIvs));
          },
          staged);
      memref::StoreOp::create(lb, loc, v, dest, destAt(lb, j));
    }
    return;
  }
  // cp.async of `width` elements (16 bytes bypass L1: .cg); outside the
  // operand (padding rows, K past its end) it reads nothing and writes
  // 0.0, from an index that is in range (the first element's).
  Value srcElements;
  if (ok) {
    Value zero = cst(lb, loc, 0);
    p = arith::SelectOp::create(lb, loc, ok, p, zero);
    k = arith::SelectOp::create(lb, loc, ok, k, zero);
    srcElements =
        arith::SelectOp::create(lb, loc, ok, cst(lb, loc, width), zero);
  }
  nvgpu::DeviceAsyncCopyOp::create(
      lb, loc, dest, destAt(lb, 0), operand->get(),
      operandIndices(lb, operand, side, p, k, batchIvs), lb.getIndexAttr(width),
      srcElements, runBytes == 16 ? lb.getUnitAttr() : UnitAttr());
}

Value WarpMmaEmitter::loadShared(OpBuilder &b, Value tile, bool kFastest,
                                 Value p, Value kk) {
  SmallVector<Value> at = kFastest ? SmallVector<Value>{stage, p, kk}
                                   : SmallVector<Value>{stage, kk, p};
  // A 16-bit staged element extended (exactly) for the fragment.
  return loadAsF32(b, loc, tile, at);
}

SmallVector<Value> WarpMmaEmitter::split(OpBuilder &b, Value x) {
  if (s.precision == MmaPrecision::bf16)
    return {roundToBf16(b, loc, x)};
  if (s.precision == MmaPrecision::fp16)
    return {roundToF16(b, loc, x)};
  Value big = roundToTf32(b, loc, x);
  if (s.precision == MmaPrecision::tf32)
    return {big};
  Value rest = arith::SubFOp::create(b, loc, x, big);
  return {big, roundToTf32(b, loc, rest)};
}

bool WarpMma::loadsWithLdmatrix(bool isA) const {
  // ldmatrix moves 32-bit words of f32 block tiles.
  if (!ldmatrix ||
      (precision != MmaPrecision::fp32 && precision != MmaPrecision::tf32) ||
      !(isA ? stagedA : stagedB).isF32())
    return false;
  return isA ? !directA && c.aKFastest : !directB && c.bKFastest;
}

std::pair<Value, Value> WarpMmaEmitter::ldmatrixRow(OpBuilder &b, bool isA,
                                                    Value lane, Value tile,
                                                    Value step) {
  Value matrix = div(b, loc, lane, 8), row = rem(b, loc, lane, 8);
  Value point, k;
  if (isA) {
    point = add(b, loc, add(b, loc, mul(b, loc, tile, 16), row),
                mul(b, loc, rem(b, loc, matrix, 2), 8));
    k = mul(b, loc, div(b, loc, matrix, 2), 4);
  } else {
    point = add(b, loc, mul(b, loc, tile, 8), row);
    k = mul(b, loc, rem(b, loc, matrix, 2), 4);
  }
  return {point, add(b, loc, mul(b, loc, step, 8), k)};
}

SmallVector<Value> WarpMmaEmitter::ldmatrixFragment(OpBuilder &b, bool isA,
                                                    Value lane, Value tile,
                                                    Value step) {
  Value shared = isA ? s.sharedA : s.sharedB;
  int64_t registers = isA ? 4 : 2;
  SmallVector<Value> values;
  if (!s.emulate) {
    auto [point, k] = ldmatrixRow(b, isA, lane, tile, step);
    Type f32 = b.getF32Type();
    Value loaded = nvgpu::LdMatrixOp::create(
        b, loc, VectorType::get({registers, 1}, f32), shared,
        ValueRange{stage, point, k}, /*transpose=*/false, registers);
    for (int64_t r = 0; r < registers; ++r)
      values.push_back(
          vector::ExtractOp::create(b, loc, loaded, ArrayRef<int64_t>{r, 0}));
    return values;
  }
  // PTX ISA, ldmatrix: register r of lane l holds row l / 4 of matrix r,
  // its 32-bit word l % 4; matrix r's rows are the addresses of lanes
  // 8r .. 8r + 7.
  Value within = rem(b, loc, lane, 4);
  for (int64_t r = 0; r < registers; ++r) {
    Value source = add(b, loc, div(b, loc, lane, 4), r * 8);
    auto [point, k] = ldmatrixRow(b, isA, source, tile, step);
    values.push_back(loadShared(b, shared, /*kFastest=*/true, point,
                                add(b, loc, k, within)));
  }
  return values;
}

SmallVector<Value> WarpMmaEmitter::fragment(OpBuilder &b, bool isA, Value lane,
                                            Value tile, Value step) {
  if (s.loadsWithLdmatrix(isA))
    return ldmatrixFragment(b, isA, lane, tile, step);
  SmallVector<Value> values;
  for (int64_t r = 0, e = fragmentElements(isA); r < e; ++r) {
    // The element's point of its side (A's row, B's column) and its K.
    auto [p, k] = elementAt(b, isA, lane, r);
    if (!isA)
      std::swap(p, k);
    Value point = add(b, loc, mul(b, loc, tile, isA ? 16 : 8), p);
    Value kk = add(b, loc, mul(b, loc, step, mmaKStep(s.precision)), k);
    if (isA ? s.directA : s.directB) {
      // From the tile buffer itself: the chunk's K point, 0.0 outside the
      // operand (padding rows, K past its end).
      OpOperand *operand = isA ? c.a : c.b;
      ArrayRef<unsigned> side = isA ? c.m : c.n;
      int64_t sidePoints = isA ? c.mPoints : c.nPoints;
      int64_t padded = isA ? s.tilesM * 16 : s.tilesN * 8;
      Value kAt = add(b, loc, chunkStart, kk);
      values.push_back(
          loadIf(b, loc, inRange(b, sidePoints, padded, point, kAt),
                 [&](OpBuilder &lb) -> Value {
                   return loadAsF32(lb, loc, operand->get(),
                                    operandIndices(lb, operand, side, point,
                                                   kAt, fragmentBatch));
                 }));
      continue;
    }
    values.push_back(loadShared(b, isA ? s.sharedA : s.sharedB,
                                isA ? c.aKFastest : c.bKFastest, point, kk));
  }
  return values;
}

SmallVector<Value> WarpMmaEmitter::outputIndices(OpBuilder &b, Value m, Value n,
                                                 ArrayRef<Value> batchIvs) {
  SmallVector<Value> ivs(c.sizes.size());
  for (auto [d, iv] : llvm::zip(c.batch, batchIvs))
    ivs[d] = iv;
  delinearize(b, loc, m, c.m, c.sizes, ivs);
  delinearize(b, loc, n, c.n, c.sizes, ivs);
  AffineMap map = c.op.getMatchingIndexingMap(c.op.getDpsInitOperand(0));
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults())
    indices.push_back(ivs[cast<AffineDimExpr>(e).getPosition()]);
  return indices;
}

void WarpMmaEmitter::forEachAccumulator(
    OpBuilder &b, Value lane, Value i, Value j,
    llvm::function_ref<void(int64_t, Value, Value, Value)> fn) {
  for (int64_t r = 0; r < 4; ++r) {
    std::pair<Value, Value> rowCol = Fragment::c(b, loc, lane, r);
    Value m = add(b, loc, mul(b, loc, i, 16), rowCol.first);
    Value n = add(b, loc, mul(b, loc, j, 8), rowCol.second);
    Value ok = both(b, loc, lessThan(b, loc, m, c.mPoints, s.tilesM * 16),
                    lessThan(b, loc, n, c.nPoints, s.tilesN * 8));
    fn(r, m, n, ok);
  }
}

SmallVector<Value> WarpMmaEmitter::loadAccumulators(OpBuilder &b, Value lane,
                                                    Value i, Value j,
                                                    ArrayRef<Value> batchIvs) {
  Value out = c.op.getDpsInitOperand(0)->get();
  SmallVector<Value> values;
  forEachAccumulator(b, lane, i, j, [&](int64_t, Value m, Value n, Value ok) {
    // Split-K: the other slices start from zero.
    values.push_back(loadIf(
        b, loc, both(b, loc, ok, firstSlice), [&](OpBuilder &lb) -> Value {
          SmallVector<Value> indices = outputIndices(lb, m, n, batchIvs);
          // A folded initializer (a fill, a bias) computes the value.
          if (s.initializer)
            return evaluateAt(lb, loc, s.initializer, indices,
                              DenseMap<Value, Value>());
          return memref::LoadOp::create(lb, loc, out, indices);
        }));
  });
  return values;
}

void WarpMmaEmitter::storeAccumulators(OpBuilder &b, Value lane, Value i,
                                       Value j, ArrayRef<Value> values,
                                       ArrayRef<Value> batchIvs) {
  Value out = c.op.getDpsInitOperand(0)->get();
  forEachAccumulator(b, lane, i, j, [&](int64_t r, Value m, Value n, Value ok) {
    storeIf(b, loc, ok, [&](OpBuilder &sb) {
      SmallVector<Value> indices = outputIndices(sb, m, n, batchIvs);
      if (s.stored.empty()) {
        memref::StoreOp::create(sb, loc, values[r], out, indices);
        return;
      }
      // The folded epilogue on the register (and the values it makes),
      // then one store per buffer seen after it. An op over another shape
      // (behind a reshape) takes the point at the same linear position.
      auto outShape = cast<MemRefType>(out.getType()).getShape();
      Value linear;
      SmallVector<std::pair<SmallVector<int64_t>, SmallVector<Value>>> points;
      auto indicesIn = [&](ArrayRef<int64_t> shape) -> SmallVector<Value> {
        if (shape == outShape)
          return indices;
        for (auto &[known, at] : points)
          if (ArrayRef<int64_t>(known) == shape)
            return at;
        if (!linear)
          linear = affine::AffineLinearizeIndexOp::create(
              sb, loc, indices, outShape, /*disjoint=*/true);
        auto split = affine::AffineDelinearizeIndexOp::create(
            sb, loc, linear, shape, /*hasOuterBound=*/true);
        points.push_back(
            {llvm::to_vector(shape), SmallVector<Value>(split.getResults())});
        return points.back().second;
      };
      DenseMap<Value, Value> held = {{out, values[r]}};
      auto seeViews = [&] {
        for (Operation *view : s.views)
          if (auto it = held.find(view->getOperand(0)); it != held.end()) {
            // A copy first: inserting may grow the map under `it`.
            Value value = it->second;
            held[view->getResult(0)] = value;
          }
      };
      seeViews();
      for (linalg::LinalgOp op : s.epilogue) {
        held[op.getDpsInitOperand(0)->get()] =
            evaluateAt(sb, loc, op, indicesIn(op.getStaticLoopRanges()), held);
        seeViews();
      }
      for (OpOperand *at : s.stored) {
        Value buffer = at->get();
        memref::StoreOp::create(
            sb, loc, held.lookup(buffer), buffer,
            indicesIn(cast<MemRefType>(buffer.getType()).getShape()));
      }
    });
  });
}

Value WarpMmaEmitter::partialIndex(OpBuilder &b, Value slice, Value reg,
                                   Value thread) {
  int64_t regs = s.warpTilesM * s.warpTilesN * 4;
  int64_t computing = s.warpsM * s.warpsN * 32;
  Value block = add(b, loc, mul(b, loc, s.tileIndex, s.split), slice);
  Value row = add(b, loc, mul(b, loc, block, regs), reg);
  return add(b, loc, mul(b, loc, row, computing), thread);
}

void WarpMmaEmitter::storePartials(OpBuilder &b, Value thread,
                                   ArrayRef<Value> values) {
  for (auto [reg, v] : llvm::enumerate(values))
    memref::StoreOp::create(
        b, loc, v, s.splitBuffers.partials,
        partialIndex(b, s.sliceIndex, cst(b, loc, reg), thread));
}

SmallVector<Value> WarpMmaEmitter::sumPartials(OpBuilder &b, Value thread) {
  int64_t regs = s.warpTilesM * s.warpTilesN * 4;
  auto load = [&](OpBuilder &ob, Value slice, int64_t reg) -> Value {
    return memref::LoadOp::create(
        ob, loc, s.splitBuffers.partials,
        partialIndex(ob, slice, cst(ob, loc, reg), thread));
  };
  SmallVector<Value> first;
  for (int64_t reg = 0; reg < regs; ++reg)
    first.push_back(load(b, cst(b, loc, 0), reg));
  auto loop = scf::ForOp::create(b, loc, cst(b, loc, 1), cst(b, loc, s.split),
                                 cst(b, loc, 1), first);
  OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
  SmallVector<Value> next;
  for (int64_t reg = 0; reg < regs; ++reg)
    next.push_back(
        arith::AddFOp::create(lb, loc, loop.getRegionIterArg(reg),
                              load(lb, loop.getInductionVar(), reg)));
  scf::YieldOp::create(lb, loc, next);
  return SmallVector<Value>(loop.getResults());
}

Value WarpMmaEmitter::arrive(OpBuilder &b) {
  Value counters = s.splitBuffers.counters;
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  Value before =
      memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi, one,
                                  counters, ValueRange{s.tileIndex});
  Value last = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, before,
      arith::ConstantIntOp::create(b, loc, s.split - 1, 32));
  storeIf(b, loc, last, [&](OpBuilder &lb) {
    Value zero = arith::ConstantIntOp::create(lb, loc, 0, 32);
    memref::AtomicRMWOp::create(lb, loc, arith::AtomicRMWKind::assign, zero,
                                counters, ValueRange{s.tileIndex});
  });
  return last;
}

void WarpMma::enclosePastSplit() {
  if (!lastCheck)
    return;
  auto check = cast<scf::IfOp>(lastCheck);
  Block *block = check->getBlock();
  Operation *yield = check.thenBlock()->getTerminator();
  SmallVector<Operation *> moved;
  for (Operation *op = check->getNextNode(); op && op != block->getTerminator();
       op = op->getNextNode()) {
    // Buffers made before the check are freed by every block.
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      Operation *def = dealloc.getMemref().getDefiningOp();
      if (!def || def->getBlock() != block || def->isBeforeInBlock(check))
        continue;
    }
    moved.push_back(op);
  }
  for (Operation *op : moved)
    op->moveBefore(yield);
}

void WarpMmaEmitter::emit(Value tid, bool barrier) {
  OpBuilder b(c.op);
  if (s.split > 1) {
    kStart = mul(b, loc, s.sliceIndex, s.sliceK);
    firstSlice = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       s.sliceIndex, cst(b, loc, 0));
  }
  // Whether each operand's block tiles copy 16 bytes at a time: decided
  // once, before every loop. On the GPU cp.async needs 16-byte aligned
  // addresses (checked at run time); emulated, loads have no such need,
  // so every run the schedule can copy by four is copied by four (the
  // runs' indexing is what the CPU checks).
  int64_t rowsA = s.tilesM * 16, rowsB = s.tilesN * 8;
  auto alignment = [&](Value memref) -> Value {
    if (s.emulate)
      return arith::ConstantIntOp::create(b, loc, 1, 1);
    return emitAlignedTo(b, loc, memref, 16);
  };
  if (!s.directA && copiesBy16Bytes(c.a, c.m, c.mPoints, rowsA, c.aKFastest))
    alignedA = alignment(c.a->get());
  if (!s.directB && copiesBy16Bytes(c.b, c.n, c.nPoints, rowsB, c.bKFastest))
    alignedB = alignment(c.b->get());
  auto body = [&](OpBuilder &bb, ArrayRef<Value> batchIvs) {
    if (s.emulate)
      emitEmulated(bb, batchIvs);
    else
      emitGpu(bb, tid, batchIvs);
  };
  if (c.batchPoints == 1) {
    SmallVector<Value> zeros(c.batch.size(), cst(b, loc, 0));
    body(b, zeros);
  } else {
    auto loop = scf::ForOp::create(b, loc, cst(b, loc, 0),
                                   cst(b, loc, c.batchPoints), cst(b, loc, 1));
    OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
    SmallVector<Value> ivs(c.sizes.size());
    delinearize(lb, loc, loop.getInductionVar(), c.batch, c.sizes, ivs);
    SmallVector<Value> batchIvs;
    for (unsigned d : c.batch)
      batchIvs.push_back(ivs[d]);
    body(lb, batchIvs);
  }
  if (!s.emulate && barrier)
    gpu::BarrierOp::create(b, loc);
  c.op->erase();
  // The folded ops, then the buffers only they used.
  for (Operation *op : llvm::reverse(s.folded))
    op->erase();
  for (Operation *view : llvm::reverse(s.views))
    if (view->use_empty())
      view->erase();
  for (Operation *buffer : s.deadBuffers) {
    for (Operation *user : llvm::make_early_inc_range(buffer->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    if (buffer->use_empty())
      buffer->erase();
  }
}

void WarpMmaEmitter::copyFirstChunks(
    OpBuilder &b, int64_t kEnd,
    llvm::function_ref<void(OpBuilder &, Value, Value)> copyChunk,
    llvm::function_ref<void(OpBuilder &)> commit) {
  for (int64_t j = 0; j + 1 < s.stages; ++j) {
    if (j * s.chunk < kEnd)
      copyChunk(b, cst(b, loc, j), cst(b, loc, j * s.chunk));
    if (commit)
      commit(b);
  }
}

void WarpMmaEmitter::copyNextChunk(
    OpBuilder &kb, Value kc, int64_t kEnd,
    llvm::function_ref<void(OpBuilder &, Value, Value)> copyChunk) {
  Value index = div(kb, loc, kc, s.chunk);
  stage = rem(kb, loc, index, s.stages);
  // Chunk i + S - 1 into the stage chunk i - 1 was computed from.
  Value nextK = add(kb, loc, kc, (s.stages - 1) * s.chunk);
  Value into = rem(kb, loc, add(kb, loc, index, s.stages - 1), s.stages);
  auto more = scf::IfOp::create(
      kb, loc,
      arith::CmpIOp::create(kb, loc, arith::CmpIPredicate::ult, nextK,
                            cst(kb, loc, kEnd)),
      /*withElseRegion=*/false);
  OpBuilder mb = more.getThenBodyBuilder();
  copyChunk(mb, into, nextK);
}

void WarpMmaEmitter::emitGpu(OpBuilder &b, Value tid,
                             ArrayRef<Value> batchIvs) {
  Type f32 = b.getF32Type();
  auto accType = VectorType::get({2, 2}, f32);
  int64_t warps = s.warpsM * s.warpsN;
  Value warp = div(b, loc, tid, 32), lane = rem(b, loc, tid, 32);
  Value wm = div(b, loc, warp, s.warpsN), wn = rem(b, loc, warp, s.warpsN);
  // Threads past the warps the tiles need copy but do not compute.
  Value active = warps * 32 < s.threads
                     ? arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                             warp, cst(b, loc, warps))
                           .getResult()
                     : Value();
  auto tileRow = [&](OpBuilder &ob, int64_t ii) {
    return add(ob, loc, mul(ob, loc, wm, s.warpTilesM), ii);
  };
  auto tileCol = [&](OpBuilder &ob, int64_t jj) {
    return add(ob, loc, mul(ob, loc, wn, s.warpTilesN), jj);
  };
  // Runs `fn` where the thread computes; else yields `otherwise`.
  auto ifActive = [&](OpBuilder &ob, ValueRange otherwise,
                      llvm::function_ref<SmallVector<Value>(OpBuilder &)> fn)
      -> SmallVector<Value> {
    if (!active)
      return fn(ob);
    auto ifOp = scf::IfOp::create(ob, loc, otherwise.getTypes(), active,
                                  /*withElseRegion=*/true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    scf::YieldOp::create(tb, loc, fn(tb));
    OpBuilder eb = ifOp.getElseBodyBuilder();
    scf::YieldOp::create(eb, loc, otherwise);
    return SmallVector<Value>(ifOp.getResults());
  };

  // The accumulators, from the output's initial values.
  Value zeroAcc = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(accType, b.getF32FloatAttr(0.0)));
  int64_t warpTiles = s.warpTilesM * s.warpTilesN;
  SmallVector<Value> zeros(warpTiles, zeroAcc);
  SmallVector<Value> init = ifActive(b, zeros, [&](OpBuilder &ob) {
    SmallVector<Value> accs;
    for (int64_t ii = 0; ii < s.warpTilesM; ++ii)
      for (int64_t jj = 0; jj < s.warpTilesN; ++jj) {
        SmallVector<Value> v = loadAccumulators(ob, lane, tileRow(ob, ii),
                                                tileCol(ob, jj), batchIvs);
        accs.push_back(vector::FromElementsOp::create(ob, loc, accType, v));
      }
    return accs;
  });

  int64_t rowsA = s.tilesM * 16, rowsB = s.tilesN * 8;
  // The block's chunks: all of K, or its slice's (split-K).
  int64_t kEnd = s.sliceK;
  auto copyChunk = [&](OpBuilder &ob, Value stageV, Value kc) {
    Value k = sliceToK(ob, kc);
    copyTile(ob, tid, c.a, c.m, c.mPoints, rowsA, c.aKFastest, s.sharedA,
             stageV, k, batchIvs);
    copyTile(ob, tid, c.b, c.n, c.nPoints, rowsB, c.bKFastest, s.sharedB,
             stageV, k, batchIvs);
  };
  // The first stages - 1 chunks' copies in flight before the loop, one
  // cp.async group each. Iteration i waits for chunk i (all but the
  // newest stages - 2 groups), and after a barrier (chunk i visible to
  // every warp, and every warp done with chunk i - 1) puts chunk
  // i + stages - 1 in flight into the stage of chunk i - 1 before its
  // products.
  // Operands that are both tile buffers are read in place: nothing to
  // stage, no copies to wait for.
  bool staged = !s.directA || !s.directB;
  fragmentBatch.assign(batchIvs.begin(), batchIvs.end());
  Value group;
  // Within a loop over batch points, the previous point's last products
  // may still read a stage the first copies overwrite: wait for every
  // warp first (the K loop itself ends without a barrier).
  if (staged && c.batchPoints > 1)
    gpu::BarrierOp::create(b, loc);
  if (staged)
    copyFirstChunks(b, kEnd, copyChunk, [&](OpBuilder &ob) {
      group = nvgpu::DeviceAsyncCreateGroupOp::create(ob, loc, ValueRange());
    });
  auto kLoop = scf::ForOp::create(b, loc, cst(b, loc, 0), cst(b, loc, kEnd),
                                  cst(b, loc, s.chunk), init);
  OpBuilder kb = OpBuilder::atBlockBegin(kLoop.getBody());
  Value kc = kLoop.getInductionVar();
  chunkStart = sliceToK(kb, kc);
  if (staged) {
    nvgpu::DeviceAsyncWaitOp::create(kb, loc, group,
                                     kb.getI32IntegerAttr(s.stages - 2));
    gpu::BarrierOp::create(kb, loc);
    copyNextChunk(kb, kc, kEnd, copyChunk);
    nvgpu::DeviceAsyncCreateGroupOp::create(kb, loc, ValueRange());
  }
  SmallVector<Value> carried(kLoop.getRegionIterArgs());
  SmallVector<Value> next = ifActive(kb, carried, [&](OpBuilder &ob) {
    SmallVector<Value> accs = carried;
    for (int64_t step = 0; step < s.chunk / mmaKStep(s.precision); ++step) {
      Value stepV = cst(ob, loc, step);
      if (isHalfPrecision(s.precision)) {
        emitHalfStep(ob, lane, stepV, accs, tileRow, tileCol);
        continue;
      }
      // parts[tile][part]: a tile's fragment as the instruction takes it,
      // one vector per product part.
      auto fragments = [&](bool isA, int64_t tiles, auto tileOf) {
        VectorType type = VectorType::get({isA ? 4 : 2, 1}, f32);
        SmallVector<SmallVector<Value>> parts;
        for (int64_t t = 0; t < tiles; ++t) {
          SmallVector<SmallVector<Value>> regs;
          for (Value v : fragment(ob, isA, lane, tileOf(ob, t), stepV))
            regs.push_back(split(ob, v));
          SmallVector<Value> perPart;
          for (size_t part = 0; part < regs.front().size(); ++part) {
            SmallVector<Value> elems;
            for (auto &reg : regs)
              elems.push_back(reg[part]);
            perPart.push_back(
                vector::FromElementsOp::create(ob, loc, type, elems));
          }
          parts.push_back(perPart);
        }
        return parts;
      };
      SmallVector<SmallVector<Value>> partsA =
          fragments(true, s.warpTilesM, tileRow);
      SmallVector<SmallVector<Value>> partsB =
          fragments(false, s.warpTilesN, tileCol);
      for (auto [pa, pb] : products())
        for (int64_t ii = 0; ii < s.warpTilesM; ++ii)
          for (int64_t jj = 0; jj < s.warpTilesN; ++jj) {
            Value &acc = accs[ii * s.warpTilesN + jj];
            acc = nvgpu::MmaSyncOp::create(ob, loc, partsA[ii][pa],
                                           partsB[jj][pb], acc,
                                           ArrayRef<int64_t>{16, 8, 8},
                                           /*tf32Enabled=*/true);
          }
    }
    return accs;
  });
  scf::YieldOp::create(kb, loc, next);

  SmallVector<Value> results(kLoop.getResults());
  auto store = [&](OpBuilder &ob) {
    for (int64_t ii = 0; ii < s.warpTilesM; ++ii)
      for (int64_t jj = 0; jj < s.warpTilesN; ++jj) {
        Value acc = results[ii * s.warpTilesN + jj];
        SmallVector<Value> values;
        for (int64_t r = 0; r < 4; ++r)
          values.push_back(vector::ExtractOp::create(
              ob, loc, acc, ArrayRef<int64_t>{r / 2, r % 2}));
        storeAccumulators(ob, lane, tileRow(ob, ii), tileCol(ob, jj), values,
                          batchIvs);
      }
  };
  if (s.split == 1) {
    storeIf(b, loc, active, store);
    return;
  }
  // Split-K: the block's partials out (visible device-wide before its
  // arrival), thread 0 arrives and tells the block whether it is the
  // tile's last; that block alone sums the partials into the accumulators.
  storeIf(b, loc, active, [&](OpBuilder &ob) {
    SmallVector<Value> values;
    for (Value acc : results)
      for (int64_t r = 0; r < 4; ++r)
        values.push_back(vector::ExtractOp::create(
            ob, loc, acc, ArrayRef<int64_t>{r / 2, r % 2}));
    storePartials(ob, tid, values);
  });
  NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::GPU);
  gpu::BarrierOp::create(b, loc);
  Value zero = cst(b, loc, 0);
  Value first =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero);
  storeIf(b, loc, first, [&](OpBuilder &ob) {
    Value flag = arith::ExtUIOp::create(ob, loc, ob.getI32Type(), arrive(ob));
    memref::StoreOp::create(ob, loc, flag, s.lastFlag, ValueRange{zero});
  });
  gpu::BarrierOp::create(b, loc);
  Value flag = memref::LoadOp::create(b, loc, s.lastFlag, ValueRange{zero});
  Value last =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, flag,
                            arith::ConstantIntOp::create(b, loc, 0, 32));
  auto check = scf::IfOp::create(b, loc, last, /*withElseRegion=*/false);
  s.lastCheck = check;
  OpBuilder lb = check.getThenBodyBuilder();
  // The other blocks' partials are read after their arrivals.
  NVVM::MembarOp::create(lb, loc, NVVM::MemScopeKind::GPU);
  storeIf(lb, loc, active, [&](OpBuilder &ob) {
    SmallVector<Value> sums = sumPartials(ob, tid);
    for (int64_t ii = 0; ii < s.warpTilesM; ++ii)
      for (int64_t jj = 0; jj < s.warpTilesN; ++jj) {
        int64_t t = ii * s.warpTilesN + jj;
        storeAccumulators(ob, lane, tileRow(ob, ii), tileCol(ob, jj),
                          ArrayRef(sums).slice(t * 4, 4), batchIvs);
      }
  });
}

void WarpMmaEmitter::emitHalfStep(
    OpBuilder &b, Value lane, Value step, SmallVectorImpl<Value> &accs,
    llvm::function_ref<Value(OpBuilder &, int64_t)> tileRow,
    llvm::function_ref<Value(OpBuilder &, int64_t)> tileCol) {
  bool bf16 = s.precision == MmaPrecision::bf16;
  Type half = bf16 ? Type(b.getBF16Type()) : Type(b.getF16Type());
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  auto pairType = VectorType::get({2}, half);
  // A tile's registers: its elements rounded (exactly representable now),
  // converted and packed two to a register (bf16 pairs as i32, which the
  // instruction takes for .bf16).
  auto registers = [&](bool isA, Value tile) {
    SmallVector<Value> elements;
    for (Value v : fragment(b, isA, lane, tile, step))
      elements.push_back(
          arith::TruncFOp::create(b, loc, half, split(b, v).front()));
    SmallVector<Value> regs;
    for (size_t i = 0; i < elements.size(); i += 2) {
      Value pair = vector::FromElementsOp::create(
          b, loc, pairType, ValueRange{elements[i], elements[i + 1]});
      regs.push_back(bf16 ? LLVM::BitcastOp::create(b, loc, i32, pair) : pair);
    }
    return regs;
  };
  SmallVector<SmallVector<Value>> regsA, regsB;
  for (int64_t ii = 0; ii < s.warpTilesM; ++ii)
    regsA.push_back(registers(true, tileRow(b, ii)));
  for (int64_t jj = 0; jj < s.warpTilesN; ++jj)
    regsB.push_back(registers(false, tileCol(b, jj)));
  auto result = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                 SmallVector<Type>(4, f32));
  NVVM::MMATypes type = bf16 ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  for (int64_t ii = 0; ii < s.warpTilesM; ++ii)
    for (int64_t jj = 0; jj < s.warpTilesN; ++jj) {
      Value &acc = accs[ii * s.warpTilesN + jj];
      SmallVector<Value> c;
      for (int64_t r = 0; r < 4; ++r)
        c.push_back(vector::ExtractOp::create(b, loc, acc,
                                              ArrayRef<int64_t>{r / 2, r % 2}));
      auto mma = NVVM::MmaOp::create(
          b, loc, result, regsA[ii], regsB[jj], c, ArrayRef<int64_t>{16, 8, 16},
          std::nullopt, std::nullopt, std::array<NVVM::MMATypes, 2>{type, type},
          std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                         NVVM::MMALayout::col});
      SmallVector<Value> d;
      for (int64_t r = 0; r < 4; ++r)
        d.push_back(LLVM::ExtractValueOp::create(b, loc, mma.getResult(), r));
      acc = vector::FromElementsOp::create(b, loc, VectorType::get({2, 2}, f32),
                                           d);
    }
}

void WarpMmaEmitter::emulateInstruction(OpBuilder &b, Value warp, Value ii,
                                        Value jj, int pa, int pb) {
  Value base = mul(b, loc, warp, 32);
  auto lanes = [&](llvm::function_ref<void(OpBuilder &, Value, Value)> fn) {
    auto loop = scf::ForOp::create(b, loc, cst(b, loc, 0), cst(b, loc, 32),
                                   cst(b, loc, 1));
    OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
    Value lane = loop.getInductionVar();
    fn(lb, lane, add(lb, loc, base, lane));
  };
  Value tile = add(b, loc, mul(b, loc, ii, s.warpTilesN), jj);
  // The instruction's A and B from the 32 lanes' fragments.
  lanes([&](OpBuilder &lb, Value lane, Value thread) {
    for (bool isA : {true, false})
      for (int64_t r = 0, e = fragmentElements(isA); r < e; ++r) {
        std::pair<Value, Value> at = elementAt(lb, isA, lane, r);
        Value v = memref::LoadOp::create(lb, loc, isA ? s.fragA : s.fragB,
                                         ValueRange{thread, isA ? ii : jj,
                                                    cst(lb, loc, isA ? pa : pb),
                                                    cst(lb, loc, r)});
        memref::StoreOp::create(lb, loc, v, isA ? s.tileA : s.tileB,
                                ValueRange{at.first, at.second});
      }
  });
  // D = A * B + C, each lane's accumulators in place.
  lanes([&](OpBuilder &lb, Value lane, Value thread) {
    for (int64_t r = 0; r < 4; ++r) {
      std::pair<Value, Value> rowCol = Fragment::c(lb, loc, lane, r);
      Value row = rowCol.first, col = rowCol.second;
      SmallVector<Value> at = {thread, tile, cst(lb, loc, r)};
      Value start = memref::LoadOp::create(lb, loc, s.accs, at);
      auto kLoop = scf::ForOp::create(
          lb, loc, cst(lb, loc, 0), cst(lb, loc, mmaKStep(s.precision)),
          cst(lb, loc, 1), ValueRange{start},
          [&](OpBuilder &kb, Location, Value k, ValueRange sum) {
            Value x =
                memref::LoadOp::create(kb, loc, s.tileA, ValueRange{row, k});
            Value y =
                memref::LoadOp::create(kb, loc, s.tileB, ValueRange{k, col});
            Value p = arith::MulFOp::create(kb, loc, x, y);
            scf::YieldOp::create(
                kb, loc, ValueRange{arith::AddFOp::create(kb, loc, sum[0], p)});
          });
      memref::StoreOp::create(lb, loc, kLoop.getResult(0), s.accs, at);
    }
  });
}

void WarpMmaEmitter::emitEmulated(OpBuilder &b, ArrayRef<Value> batchIvs) {
  int64_t warps = s.warpsM * s.warpsN;
  auto lanePosition = [&](OpBuilder &ob, Value thread) {
    Value warp = div(ob, loc, thread, 32), lane = rem(ob, loc, thread, 32);
    return std::make_tuple(warp, lane, div(ob, loc, warp, s.warpsN),
                           rem(ob, loc, warp, s.warpsN));
  };
  // The body of a phase for the threads that compute.
  auto computing =
      [&](llvm::function_ref<void(OpBuilder &, Value, Value, Value, Value)>
              fn) {
        return [=](OpBuilder &ob, Value thread) {
          Value warp, lane, wm, wn;
          std::tie(warp, lane, wm, wn) = lanePosition(ob, thread);
          storeIf(ob, loc,
                  warps * 32 < s.threads
                      ? arith::CmpIOp::create(ob, loc,
                                              arith::CmpIPredicate::ult, warp,
                                              cst(ob, loc, warps))
                            .getResult()
                      : Value(),
                  [&](OpBuilder &ib) { fn(ib, thread, lane, wm, wn); });
        };
      };
  auto tileRow = [&](OpBuilder &ob, Value wm, int64_t ii) {
    return add(ob, loc, mul(ob, loc, wm, s.warpTilesM), ii);
  };
  auto tileCol = [&](OpBuilder &ob, Value wn, int64_t jj) {
    return add(ob, loc, mul(ob, loc, wn, s.warpTilesN), jj);
  };

  phase(b, loc, true, s.threads, Value(),
        computing([&](OpBuilder &ob, Value thread, Value lane, Value wm,
                      Value wn) {
          for (int64_t ii = 0; ii < s.warpTilesM; ++ii)
            for (int64_t jj = 0; jj < s.warpTilesN; ++jj) {
              SmallVector<Value> v = loadAccumulators(
                  ob, lane, tileRow(ob, wm, ii), tileCol(ob, wn, jj), batchIvs);
              for (int64_t r = 0; r < 4; ++r)
                memref::StoreOp::create(
                    ob, loc, v[r], s.accs,
                    ValueRange{thread, cst(ob, loc, ii * s.warpTilesN + jj),
                               cst(ob, loc, r)});
            }
        }));

  int64_t rowsA = s.tilesM * 16, rowsB = s.tilesN * 8;
  int64_t kEnd = s.sliceK;
  // The GPU's order: the first stages - 1 chunks before the loop, chunk
  // i + stages - 1 before the products of chunk i.
  auto copyChunk = [&](OpBuilder &ob, Value stageV, Value kc) {
    Value k = sliceToK(ob, kc);
    phase(ob, loc, true, s.threads, Value(), [&](OpBuilder &pb, Value thread) {
      copyTile(pb, thread, c.a, c.m, c.mPoints, rowsA, c.aKFastest, s.sharedA,
               stageV, k, batchIvs);
      copyTile(pb, thread, c.b, c.n, c.nPoints, rowsB, c.bKFastest, s.sharedB,
               stageV, k, batchIvs);
    });
  };
  // Both operands tile buffers: read in place (as on the GPU).
  bool staged = !s.directA || !s.directB;
  fragmentBatch.assign(batchIvs.begin(), batchIvs.end());
  if (staged)
    copyFirstChunks(b, kEnd, copyChunk, nullptr);
  auto kLoop = scf::ForOp::create(b, loc, cst(b, loc, 0), cst(b, loc, kEnd),
                                  cst(b, loc, s.chunk));
  OpBuilder kb = OpBuilder::atBlockBegin(kLoop.getBody());
  Value kc = kLoop.getInductionVar();
  chunkStart = sliceToK(kb, kc);
  if (staged)
    copyNextChunk(kb, kc, kEnd, copyChunk);
  auto stepLoop = scf::ForOp::create(
      kb, loc, cst(kb, loc, 0), cst(kb, loc, s.chunk / mmaKStep(s.precision)),
      cst(kb, loc, 1));
  OpBuilder sb = OpBuilder::atBlockBegin(stepLoop.getBody());
  Value step = stepLoop.getInductionVar();
  // Each lane's fragments (the GPU's registers) into memory.
  phase(sb, loc, true, s.threads, Value(),
        computing([&](OpBuilder &ob, Value thread, Value lane, Value wm,
                      Value wn) {
          auto store = [&](bool isA, int64_t tiles, Value buffer) {
            for (int64_t t = 0; t < tiles; ++t) {
              Value tile = isA ? tileRow(ob, wm, t) : tileCol(ob, wn, t);
              for (auto [r, v] :
                   llvm::enumerate(fragment(ob, isA, lane, tile, step)))
                for (auto [part, p] : llvm::enumerate(split(ob, v)))
                  memref::StoreOp::create(ob, loc, p, buffer,
                                          ValueRange{thread, cst(ob, loc, t),
                                                     cst(ob, loc, part),
                                                     cst(ob, loc, r)});
            }
          };
          store(/*isA=*/true, s.warpTilesM, s.fragA);
          store(/*isA=*/false, s.warpTilesN, s.fragB);
        }));
  // Each warp's instructions, in the GPU's order.
  auto warpLoop = scf::ForOp::create(sb, loc, cst(sb, loc, 0),
                                     cst(sb, loc, warps), cst(sb, loc, 1));
  OpBuilder wb = OpBuilder::atBlockBegin(warpLoop.getBody());
  Value warp = warpLoop.getInductionVar();
  for (auto [pa, pb] : products())
    for (int64_t ii = 0; ii < s.warpTilesM; ++ii)
      for (int64_t jj = 0; jj < s.warpTilesN; ++jj)
        emulateInstruction(wb, warp, cst(wb, loc, ii), cst(wb, loc, jj), pa,
                           pb);

  auto accumulators = [&](OpBuilder &ob, Value thread) {
    SmallVector<Value> values;
    for (int64_t t = 0; t < s.warpTilesM * s.warpTilesN; ++t)
      for (int64_t r = 0; r < 4; ++r)
        values.push_back(memref::LoadOp::create(
            ob, loc, s.accs,
            ValueRange{thread, cst(ob, loc, t), cst(ob, loc, r)}));
    return values;
  };
  auto storeAll = [&](OpBuilder &ob, Value lane, Value wm, Value wn,
                      ArrayRef<Value> values) {
    for (int64_t ii = 0; ii < s.warpTilesM; ++ii)
      for (int64_t jj = 0; jj < s.warpTilesN; ++jj) {
        int64_t t = ii * s.warpTilesN + jj;
        storeAccumulators(ob, lane, tileRow(ob, wm, ii), tileCol(ob, wn, jj),
                          values.slice(t * 4, 4), batchIvs);
      }
  };
  if (s.split == 1) {
    phase(b, loc, true, s.threads, Value(),
          computing(
              [&](OpBuilder &ob, Value thread, Value lane, Value wm, Value wn) {
                storeAll(ob, lane, wm, wn, accumulators(ob, thread));
              }));
    return;
  }
  // Split-K, in the GPU's order: the partials, the arrival, and in the
  // tile's last block the sums.
  phase(b, loc, true, s.threads, Value(),
        computing([&](OpBuilder &ob, Value thread, Value, Value, Value) {
          storePartials(ob, thread, accumulators(ob, thread));
        }));
  auto check = scf::IfOp::create(b, loc, arrive(b), /*withElseRegion=*/false);
  s.lastCheck = check;
  OpBuilder lb = check.getThenBodyBuilder();
  phase(lb, loc, true, s.threads, Value(),
        computing(
            [&](OpBuilder &ob, Value thread, Value lane, Value wm, Value wn) {
              storeAll(ob, lane, wm, wn, sumPartials(ob, thread));
            }));
}

void WarpMma::emit(Value tid, bool barrier) {
  WarpMmaEmitter(*this).emit(tid, barrier);
}
