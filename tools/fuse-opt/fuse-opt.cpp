//===- fuse-opt.cpp - the fuse optimizer driver ---------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// mlir-opt with fuse's dialect, op classification models and passes added:
// every upstream dialect, extension and pass, plus the GPU-to-LLVM-IR
// translations that the NVVM pipeline needs to serialize kernels.
//
//===----------------------------------------------------------------------===//

#include "fuse/Fusion/FusionEngine.h"
#include "fuse/InitAllDialects.h"
#include "fuse/InitAllPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::fuse::test {
void registerTestPasses();
} // namespace mlir::fuse::test

static llvm::cl::opt<bool>
    listRules("fuse-list-rules",
              llvm::cl::desc("Print fuse's fusion rules (name, kind, "
                             "priority, pattern, constraints) and exit"));

int main(int argc, char **argv) {
  // --fuse-list-rules answers without reading any input.
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]) == "--fuse-list-rules" ||
        llvm::StringRef(argv[i]) == "-fuse-list-rules") {
      mlir::fuse::printFusionRules(llvm::outs());
      return 0;
    }

  mlir::registerAllPasses();
  mlir::fuse::registerAllPasses();
  mlir::fuse::test::registerTestPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  mlir::fuse::registerAllDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "fuse optimizer driver\n", registry));
}
