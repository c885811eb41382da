//===- KernelCost.cpp - predicted time of one kernel ----------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Codegen/CostModel/KernelCost.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

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

bool mlir::fuse::schedulesMultiplyAdds(StringRef schedule) {
  return schedule == "contraction" || schedule == "convolution" ||
         schedule == "attention" || schedule == "depthwise";
}

KernelCost mlir::fuse::predictKernelCost(const KernelShape &shape,
                                         TargetAttr target) {
  KernelCost cost;
  int64_t sms = target.getNumSMs();
  int64_t blocks = std::max<int64_t>(shape.blocks, 1);
  int64_t threads = std::max<int64_t>(shape.threads, 1);
  cost.blocksPerSM = llvm::divideCeil(blocks, sms);
  // Resident blocks: bounded by threads and by the tile buffers in shared
  // memory.
  int64_t resident =
      std::min({cost.blocksPerSM, threadsPerSM(target.getArch()) / threads,
                maxBlocksPerSM(target.getArch())});
  if (shape.tileSharedBytes > 0)
    resident =
        std::min(resident, target.getSharedMemPerSM() / shape.tileSharedBytes);
  resident = std::max<int64_t>(resident, 1);
  cost.warpsPerSM = resident * llvm::divideCeil(threads, 32);
  int64_t lanes = fp32LanesPerSM(target.getArch());
  double peak = target.getPeakFlopsOrF32(Float32Type::get(target.getContext()));
  double clockHz = peak / double(sms * lanes * 2);
  double dram = target.getDramGBps().convertToDouble() * 1e9;
  // The busiest SM does its blocks' share of the multiply-adds.
  double macs = schedulesMultiplyAdds(shape.schedule) ? shape.macs : 0;
  double perSM = macs / double(blocks) * double(cost.blocksPerSM);
  // Threads with ceil(points / threads) points set a block's pace: as if
  // every thread had that many.
  int64_t points = std::max<int64_t>(shape.pointsPerBlock, 1);
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
  double issueSeconds = std::max(fmaSeconds, lsuSeconds);
  StringRef issueBound = lsuSeconds >= fmaSeconds ? "lsu" : "fma";
  if (cost.warpsPerSM < kWarpsToHideLatency && macs > 0) {
    issueSeconds *= double(kWarpsToHideLatency) / double(cost.warpsPerSM);
    issueBound = "latency";
  }
  cost.l2Bytes = shape.tileInputBytes * blocks;
  double l2Seconds = double(cost.l2Bytes) / (kL2OverDram * dram);
  double dramSeconds = double(shape.bytes) / dram;
  double seconds = dramSeconds;
  cost.bound = "dram";
  if (l2Seconds > seconds) {
    seconds = l2Seconds;
    cost.bound = "l2";
  }
  if (macs > 0 && issueSeconds > seconds) {
    seconds = issueSeconds;
    cost.bound = issueBound;
  }
  cost.us = seconds * 1e6 + target.getLaunchMicros().convertToDouble();
  return cost;
}
