//===- KernelCost.cpp - predicted time of one kernel ----------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/CostModel/KernelCost.h"

#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::fuse;

namespace {

/// FP32 lanes per SM of an architecture (64 on sm_60, sm_70, sm_72, sm_75
/// and sm_80; 128 on the others).
int64_t fp32LanesPerSM(StringRef arch) {
  return llvm::is_contained({"sm_60", "sm_70", "sm_72", "sm_75", "sm_80"}, arch)
             ? 64
             : 128;
}

/// Blocks an SM holds at once: 32 on sm_70, sm_80 and sm_90, 16 on the
/// others (the CUDA guide's table per compute capability; 24 on sm_89
/// counts as 16 here).
int64_t maxBlocksPerSM(StringRef arch) {
  return llvm::is_contained({"sm_70", "sm_80", "sm_90"}, arch) ? 32 : 16;
}

/// Lanes of loads an SM issues per cycle (one warp instruction).
constexpr int64_t kLoadLanesPerSM = 32;
/// L2 bandwidth as a multiple of DRAM bandwidth.
constexpr double kL2OverDram = 3.0;
/// Cycles of the mma_sync schedule that resident blocks do not hide from
/// each other: the latency of the global loads of a K chunk's block tiles
/// (cp.async; overlapped with the products of earlier chunks, shared by
/// the stages - 1 chunks in flight), and per K step and product one
/// dependent mma.sync on an accumulator.
constexpr double kGlobalLoadCycles = 600, kMmaCycles = 32;
/// Warps an SM needs resident to hide the latency of the scalar loads.
constexpr int64_t kWarpsToHideLatency = 16;
/// Threads an SM holds at once: 1024 on sm_75, 1536 on sm_86, sm_87 and
/// sm_89, 2048 on the others.
int64_t threadsPerSM(StringRef arch) {
  if (arch == "sm_75")
    return 1024;
  if (llvm::is_contained({"sm_86", "sm_87", "sm_89"}, arch))
    return 1536;
  return 2048;
}
/// Most points of one thread that share a reduction loop (the SIMT
/// schedule of fuse-distribute-threads).
constexpr int64_t kPointsPerThread = 8;

} // namespace

PointGrid mlir::fuse::choosePointGrid(int64_t perThread, int64_t threads,
                                      int64_t inner) {
  PointGrid best{perThread, 1};
  if (perThread < 2 || threads < 1 || inner < 1)
    return best;
  for (int64_t columns = 2; columns <= perThread; ++columns) {
    if (perThread % columns != 0 || inner % columns != 0 ||
        threads % (inner / columns) != 0)
      continue;
    int64_t rows = perThread / columns;
    if (rows + columns < best.rows + best.columns)
      best = {rows, columns};
  }
  return best;
}

MmaWarpGrid mlir::fuse::chooseMmaWarps(int64_t tilesM, int64_t tilesN,
                                       int64_t warps) {
  MmaWarpGrid best;
  int64_t bestWarps = 0, bestLoads = 0;
  for (int64_t wm = 1; wm <= tilesM; ++wm) {
    if (tilesM % wm)
      continue;
    for (int64_t wn = 1; wn <= tilesN && wm * wn <= warps; ++wn) {
      if (tilesN % wn)
        continue;
      int64_t loads = 4 * (tilesM / wm) + 2 * (tilesN / wn);
      if (wm * wn > bestWarps || (wm * wn == bestWarps && loads < bestLoads)) {
        bestWarps = wm * wn;
        bestLoads = loads;
        best = {wm, wn, tilesM / wm, tilesN / wn};
      }
    }
  }
  return best;
}

int64_t mlir::fuse::tf32MmaMacsPerSM(StringRef arch) {
  int64_t cc = 0;
  if (!arch.starts_with("sm_") ||
      arch.drop_front(3).take_while(llvm::isDigit).getAsInteger(10, cc) ||
      cc < 80)
    return 0;
  // GA10x and AD10x SMs (sm_86, sm_87, sm_89) run TF32 at a quarter of
  // GA100's rate; GH100's mma.sync (not wgmma) about GA100's.
  if (cc == 86 || cc == 87 || cc == 89)
    return 128;
  return 512;
}

int64_t mlir::fuse::mmaChunk(int64_t k, int64_t step) {
  return std::min<int64_t>(32, llvm::alignTo(std::max<int64_t>(k, 1), step));
}

SmallVector<int64_t> mlir::fuse::mmaBlockTileShape(int64_t points,
                                                   int64_t chunk, bool kFastest,
                                                   int64_t elementBytes) {
  if (kFastest)
    return {points, chunk + 16 / elementBytes};
  return {chunk, points + (8 - points % 32 + 32) % 32};
}

int64_t mlir::fuse::mmaStagingBytes(int64_t m, int64_t n, int64_t k,
                                    bool aKFastest, bool bKFastest,
                                    int64_t stages, int64_t step,
                                    int64_t elementBytes) {
  int64_t chunk = mmaChunk(k, step);
  auto bytes = [&](int64_t points, int64_t tile, bool kFastest) {
    int64_t elements = 1;
    for (int64_t size : mmaBlockTileShape(llvm::alignTo(points, tile), chunk,
                                          kFastest, elementBytes))
      elements *= size;
    // One buffer of `stages` tiles, 16-byte aligned (as the code
    // generator places tile buffers).
    return llvm::alignTo(stages * elements * elementBytes, 16);
  };
  return bytes(m, 16, aKFastest) + bytes(n, 8, bKFastest);
}

bool mlir::fuse::schedulesMultiplyAdds(StringRef schedule) {
  return schedule == "contraction" || schedule == "convolution" ||
         schedule == "attention" || schedule == "depthwise";
}

namespace {

/// The blocks of `blocks` (of `threads` each, `sharedBytes` of shared
/// memory each) resident at once on the busiest SM: bounded by its
/// blocks, by threads, by the architecture's blocks per SM and by shared
/// memory; at least 1. Sets `cost`'s blocksPerSM and warpsPerSM.
int64_t residentBlocks(KernelCost &cost, int64_t blocks, int64_t threads,
                       int64_t sharedBytes, TargetAttr target) {
  StringRef arch = target.getArch();
  cost.blocksPerSM = llvm::divideCeil(blocks, target.getNumSMs());
  int64_t resident = std::min(
      {cost.blocksPerSM, threadsPerSM(arch) / threads, maxBlocksPerSM(arch)});
  if (sharedBytes > 0)
    resident = std::min(resident, target.getSharedMemPerSM() / sharedBytes);
  resident = std::max<int64_t>(resident, 1);
  cost.warpsPerSM = resident * llvm::divideCeil(threads, 32);
  return resident;
}

/// The SM clock the model assumes: the target's f32 peak over its FP32
/// lanes, SMs and 2 FLOPs per multiply-add.
double smClockHz(TargetAttr target) {
  double peak = target.getPeakFlopsOrF32(Float32Type::get(target.getContext()));
  return peak /
         double(target.getNumSMs() * fp32LanesPerSM(target.getArch()) * 2);
}

/// The kernel's time and bound: the largest of its DRAM bytes, its L2
/// bytes (`cost.l2Bytes`, at kL2OverDram x DRAM) and its SMs' time
/// (`smSeconds`, bound `smBound`), plus the target's launch cost.
void finishCost(KernelCost &cost, const KernelShape &shape, TargetAttr target,
                double smSeconds, StringRef smBound) {
  double dram = target.getDramGBps().convertToDouble() * 1e9;
  double seconds = double(shape.bytes) / dram;
  cost.bound = "dram";
  double l2Seconds = double(cost.l2Bytes) / (kL2OverDram * dram);
  if (l2Seconds > seconds) {
    seconds = l2Seconds;
    cost.bound = "l2";
  }
  if (smSeconds > seconds) {
    seconds = smSeconds;
    cost.bound = smBound;
  }
  cost.us = seconds * 1e6 + target.getLaunchMicros().convertToDouble();
}

/// Cycles a phase of a block waits at its closing barrier and for its
/// first shared-memory results (not hidden within the block).
constexpr double kPhaseCycles = 64;
/// Cycles of one dependent FMA (a SIMT contraction's accumulator chain).
constexpr double kFmaCycles = 4;

/// The predicted time of a kernel of phases (KernelShape's
/// contractionPhases): each block runs its ops one after the other. Per
/// block, issue cycles (which the SM's resident blocks share): per
/// contraction the largest of its tensor-core (or FMA) issue, its
/// fragment (or operand) loads from shared memory and, on tensor cores,
/// the FP32 splitting of the fragments; a load and a store per copied
/// element and per point of the other ops. Latency (which resident
/// blocks hide from each other): a global load per copy phase, a barrier
/// per phase, and per contraction its accumulators' dependent chain. The
/// SM's time is the larger of its blocks' issue cycles together and, per
/// wave of resident blocks, one block's issue plus latency; the kernel's,
/// the larger of that and its DRAM and L2 traffic.
KernelCost predictPhasedCost(const KernelShape &shape, TargetAttr target) {
  KernelCost cost;
  StringRef arch = target.getArch();
  int64_t blocks = std::max<int64_t>(shape.blocks, 1);
  int64_t threads = std::max<int64_t>(shape.threads, 1);
  int64_t warps = llvm::divideCeil(threads, 32);
  int64_t resident =
      residentBlocks(cost, blocks, threads,
                     shape.tileSharedBytes + shape.stagingBytes, target);
  int64_t lanes = fp32LanesPerSM(arch);
  double clockHz = smClockHz(target);
  // 16-bit operands: twice TF32's multiply-adds per instruction.
  int64_t tensorRate = tf32MmaMacsPerSM(arch) * (shape.mmaK / 8);
  bool mma = shape.instruction == "mma_sync" && tensorRate > 0;
  int64_t products = mma ? std::max<int64_t>(shape.products, 1) : 1;

  double issue = 0, latency = 0, tensor = 0, loads = 0, fma = 0, macs = 0;
  for (const ContractionPhase &p : shape.contractionPhases) {
    double batch = double(std::max<int64_t>(p.batch, 1));
    double k = double(std::max<int64_t>(p.k, 1));
    macs += batch * double(p.m * p.n) * k;
    double phaseTensor = 0, phaseLoads = 0, phaseFma = 0;
    if (mma) {
      int64_t tilesM = llvm::divideCeil(p.m, 16),
              tilesN = llvm::divideCeil(p.n, 8);
      MmaWarpGrid grid = chooseMmaWarps(tilesM, tilesN, warps);
      double steps = std::ceil(k / 8);
      double fragmentLanes = batch * steps * double(grid.warpsM * grid.warpsN) *
                             32 * double(4 * grid.tilesM + 2 * grid.tilesN);
      // Staged operands: every element copied once into shared memory.
      double copyLanes =
          p.staged ? batch * 2 * k * double(tilesM * 16 + tilesN * 8) : 0;
      phaseTensor = batch * double(tilesM * 16 * tilesN * 8) * k *
                    double(products) / double(tensorRate);
      phaseLoads = (fragmentLanes + copyLanes) / double(kLoadLanesPerSM);
      phaseFma = fragmentLanes * (products > 1 ? 5.0 : 2.0) / double(lanes);
      // One instruction per K step of mmaK (8 or 16).
      latency += batch * std::ceil(k / double(shape.mmaK)) * double(products) *
                 kMmaCycles;
      if (p.staged)
        latency += kGlobalLoadCycles;
    } else {
      // fuse-distribute-threads' SIMT contraction: a thread's points of a
      // tile share a reduction loop (and their common operands).
      int64_t points = p.m * p.n;
      int64_t perThread = points % threads == 0 ? points / threads : 1;
      if (perThread > kPointsPerThread)
        perThread = 1;
      PointGrid grid = choosePointGrid(perThread, threads, p.n);
      double loadsPerMac =
          double(grid.rows + grid.columns) / double(grid.rows * grid.columns);
      double phaseMacs = batch * double(points) * k;
      phaseFma = phaseMacs / double(lanes);
      phaseLoads = phaseMacs * loadsPerMac / double(kLoadLanesPerSM);
      latency += batch * k * kFmaCycles *
                 std::ceil(double(points) / double(threads * perThread));
    }
    tensor += phaseTensor;
    loads += phaseLoads;
    fma += phaseFma;
    issue += std::max({phaseTensor, phaseLoads, phaseFma});
  }
  // The other ops: a load and a store per point (from and to tile buffers,
  // or from the inputs); on tensor cores, those folded into a contraction's
  // registers are neither phases nor tile-buffer traffic.
  int64_t phasePoints = shape.phasePoints - (mma ? shape.foldedPoints : 0);
  int64_t phaseCount = shape.phaseCount - (mma ? shape.foldedPhases : 0);
  double other =
      2 * double(phasePoints + shape.copyPoints) / double(kLoadLanesPerSM);
  loads += other;
  issue += other;
  latency += double(phaseCount) * kPhaseCycles +
             double(shape.copyPhases) * kGlobalLoadCycles;

  double waves = std::ceil(double(cost.blocksPerSM) / double(resident));
  double throughputCycles = double(cost.blocksPerSM) * issue;
  double latencyCycles = waves * (issue + latency);
  double smSeconds = std::max(throughputCycles, latencyCycles) / clockHz;
  StringRef issueBound = latencyCycles > throughputCycles ? "latency"
                         : tensor >= std::max(loads, fma) ? "tensor"
                         : loads >= fma                   ? "lsu"
                                                          : "fma";
  cost.loadsPerMac = macs > 0 ? loads * double(kLoadLanesPerSM) / macs : 0;
  cost.l2Bytes = shape.tileInputBytes * blocks;
  finishCost(cost, shape, target, smSeconds, issueBound);
  return cost;
}

} // namespace

KernelCost mlir::fuse::predictKernelCost(const KernelShape &shape,
                                         TargetAttr target) {
  if (!shape.contractionPhases.empty())
    return predictPhasedCost(shape, target);
  KernelCost cost;
  // Split-K: each tile's blocks share its reduction.
  bool mmaShape = shape.instruction == "mma_sync";
  int64_t slices = mmaShape ? std::max<int64_t>(shape.splitK, 1) : 1;
  int64_t tiles = std::max<int64_t>(shape.blocks, 1);
  int64_t blocks = tiles * slices;
  int64_t threads = std::max<int64_t>(shape.threads, 1);
  int64_t resident = residentBlocks(
      cost, blocks, threads,
      shape.tileSharedBytes +
          (shape.instruction == "mma_sync" ? shape.stagingBytes : 0),
      target);
  int64_t lanes = fp32LanesPerSM(target.getArch());
  double clockHz = smClockHz(target);
  // The busiest SM does its blocks' share of the multiply-adds.
  double macs = schedulesMultiplyAdds(shape.schedule) ? shape.macs : 0;
  double perSM = macs / double(blocks) * double(cost.blocksPerSM);
  // Threads with ceil(points / threads) points set a block's pace: as if
  // every thread had that many.
  int64_t points = std::max<int64_t>(shape.pointsPerBlock, 1);
  double rawPerSM = perSM;
  perSM *= double(llvm::divideCeil(points, threads) * threads) /
           double(std::max(points, threads));
  // Loads per multiply-add of the SIMT schedule: a thread's points share
  // one reduction loop (and the operand they have in common) when every
  // thread has the same 2 to 8 of them; a depthwise point shares nothing.
  int64_t perThread = 1;
  if (shape.pointsPerBlock % threads == 0)
    perThread = shape.pointsPerBlock / threads;
  if (perThread > kPointsPerThread)
    perThread = 1;
  PointGrid grid = choosePointGrid(perThread, threads, shape.innerPoints);
  cost.loadsPerMac =
      shape.schedule == "depthwise"
          ? 2.0
          : double(grid.rows + grid.columns) / double(grid.rows * grid.columns);
  double fmaSeconds = perSM / (double(lanes) * clockHz);
  double lsuSeconds =
      perSM * cost.loadsPerMac / (double(kLoadLanesPerSM) * clockHz);
  int64_t tensorRate = tf32MmaMacsPerSM(target.getArch()) * (shape.mmaK / 8);
  double tensorSeconds = 0, chunkSeconds = 0;
  int64_t splitBytes = 0;
  bool mma = shape.instruction == "mma_sync" && tensorRate > 0 && macs > 0;
  if (mma) {
    // The tile padded to whole 16x8 accumulator tiles; each K step a lane
    // loads 4 registers per A tile and 2 per B tile of its warp (and the
    // FP32 pipe splits each into TF32 parts), every operand element of the
    // block tile is copied once into shared memory (a load and a store).
    int64_t n = std::max<int64_t>(shape.innerPoints, 1);
    int64_t m = std::max<int64_t>(points / n, 1);
    int64_t tilesM = llvm::divideCeil(m, 16), tilesN = llvm::divideCeil(n, 8);
    MmaWarpGrid grid =
        chooseMmaWarps(tilesM, tilesN, std::max<int64_t>(threads / 32, 1));
    double padded = double(tilesM * 16 * tilesN * 8) / double(m * n);
    double k = shape.reductionPoints > 0 ? double(shape.reductionPoints)
                                         : macs / double(points * tiles);
    // A block's K: whole chunks of its slice.
    int64_t chunk = mmaChunk(int64_t(k), shape.mmaK);
    if (slices > 1)
      k = double(llvm::divideCeil(llvm::divideCeil(int64_t(k), chunk), slices) *
                 chunk);
    double warpSteps = k / 8 * double(grid.warpsM * grid.warpsN);
    double fragmentLanes =
        warpSteps * 32 * double(4 * grid.tilesM + 2 * grid.tilesN);
    double copyLanes = 2 * k * double(tilesM * 16 + tilesN * 8);
    double blocksHere = double(cost.blocksPerSM);
    tensorSeconds = rawPerSM * padded *
                    double(std::max<int64_t>(shape.products, 1)) /
                    (double(tensorRate) * clockHz);
    lsuSeconds = blocksHere * (fragmentLanes + copyLanes) /
                 (double(kLoadLanesPerSM) * clockHz);
    fmaSeconds = blocksHere * fragmentLanes * (shape.products > 1 ? 5.0 : 2.0) /
                 (double(lanes) * clockHz);
    cost.loadsPerMac = (fragmentLanes + copyLanes) /
                       std::max(1.0, rawPerSM / std::max(blocksHere, 1.0));
    // Each wave of resident blocks runs its K chunks one after the other.
    double chunks = std::ceil(k / double(std::max<int64_t>(chunk, 1)));
    double waves = std::ceil(double(cost.blocksPerSM) / double(resident));
    // The first chunk's loads are waited for whole; after that the loads
    // of the next S - 1 chunks (S stages) are in flight during a chunk's
    // products, so each later chunk takes the longer of its products and
    // its share of the load latency.
    double inFlight = double(std::max<int64_t>(shape.stages, 2) - 1);
    double productCycles = kMmaCycles * double(chunk / shape.mmaK) *
                           double(std::max<int64_t>(shape.products, 1));
    double blockCycles =
        kGlobalLoadCycles + productCycles +
        (chunks - 1) * std::max(kGlobalLoadCycles / inFlight, productCycles);
    // Split-K: the partials out and the arrival, and in the last block
    // the other slices' partials in: two more round trips to L2.
    if (slices > 1)
      blockCycles += 2 * kGlobalLoadCycles;
    chunkSeconds = waves * blockCycles / clockHz;
    // Each slice's partial tile (padded) written once and read once.
    splitBytes = 2 * slices * tiles * tilesM * 16 * tilesN * 8 * 4;
  }
  double issueSeconds = std::max({fmaSeconds, lsuSeconds, tensorSeconds});
  StringRef issueBound = tensorSeconds >= std::max(fmaSeconds, lsuSeconds)
                             ? "tensor"
                         : lsuSeconds >= fmaSeconds ? "lsu"
                                                    : "fma";
  if (mma && chunkSeconds > issueSeconds) {
    issueSeconds = chunkSeconds;
    issueBound = "latency";
  }
  if (!mma && cost.warpsPerSM < kWarpsToHideLatency && macs > 0) {
    issueSeconds *= double(kWarpsToHideLatency) / double(cost.warpsPerSM);
    issueBound = "latency";
  }
  // A tile's inputs are read once over its slices.
  cost.l2Bytes = shape.tileInputBytes * tiles + splitBytes;
  finishCost(cost, shape, target, macs > 0 ? issueSeconds : 0, issueBound);
  return cost;
}

std::optional<int64_t>
mlir::fuse::gatheredBytes(Value value,
                          llvm::function_ref<bool(Operation *)> counted) {
  auto type = dyn_cast<ShapedType>(value.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  int64_t elementBytes =
      std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
  int64_t bytes = 0;
  bool any = false;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (!counted(user))
      continue;
    auto extract = dyn_cast<tensor::ExtractOp>(user);
    auto around = user->getParentOfType<linalg::LinalgOp>();
    if (!extract || !around)
      return std::nullopt;
    int64_t points = 1;
    for (int64_t range : around.getStaticLoopRanges())
      points *= ShapedType::isDynamic(range) ? 1 : range;
    bytes += points * elementBytes;
    any = true;
  }
  if (!any)
    return std::nullopt;
  return std::min(bytes, getShapedTypeBytes(type).value_or(bytes));
}
