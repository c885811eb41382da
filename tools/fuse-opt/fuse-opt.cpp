//===- fuse-opt.cpp - the fuse optimizer driver ---------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// mlir-opt with fuse's dialect, op classification models and passes added:
// every upstream dialect, extension and pass, plus the GPU-to-LLVM-IR
// translations that the NVVM pipeline needs to serialize kernels.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Utils/ToolFiles.h"
#include "fuse/Fusion/FusionEngine.h"
#include "fuse/InitAllDialects.h"
#include "fuse/InitAllPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::fuse::test {
void registerTestPasses();
} // namespace mlir::fuse::test

static llvm::cl::opt<bool>
    listRules("fuse-list-rules",
              llvm::cl::desc("Print fuse's fusion rules (name, kind, "
                             "priority, pattern, constraints) and exit"));

/// `--help`: what a fuse user needs on one screen (fuse's passes and
/// pipelines and the options that go with them); `--help-all` is
/// MlirOptMain's full list (every upstream pass and LLVM option).
static void printShortHelp() {
  llvm::outs() << "OVERVIEW: fuse optimizer driver\n\n"
               << "USAGE: fuse-opt [options] <input file>\n\n"
               << "fuse pipelines:\n";
  for (llvm::StringRef name :
       {"fuse-fusion-pipeline", "fuse-to-nvptx", "fuse-to-cpu"})
    if (const mlir::PassPipelineInfo *info =
            mlir::PassPipelineInfo::lookup(name))
      llvm::outs() << "  --" << llvm::left_justify(name, 28) << " "
                   << info->getPassDescription() << "\n";
  llvm::outs() << "\nfuse passes:\n";
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(FUSE_PASS_NAMES).split(names, ',', -1, false);
  for (llvm::StringRef name : names)
    if (const mlir::PassInfo *info = mlir::PassInfo::lookup(name))
      llvm::outs() << "  --" << llvm::left_justify(name, 28) << " "
                   << info->getPassDescription() << "\n";
  llvm::outs()
      << "\nA pass's options: --name=\"option=value ...\" (docs/generated).\n"
      << "  --fuse-list-rules              the fusion rules, in the order "
         "they run\n"
      << "  -o <file>                      output file\n"
      << "  --split-input-file             process each // ----- chunk on "
         "its own\n"
      << "  --verify-diagnostics           check expected-* lines\n"
      << "  --remarks-filter=fuse --remark-format=emitRemark\n"
      << "                                 print every fusion decision\n"
      << "  --mlir-print-ir-after-all      the IR after every pass\n"
      << "  --help-all                     every option, upstream passes "
         "and dialects included\n";
}

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

  std::vector<char *> args(argv, argv + argc);
  for (char *&arg : args) {
    llvm::StringRef flag(arg);
    if (flag == "--help" || flag == "-help" || flag == "-h") {
      printShortHelp();
      return 0;
    }
    if (flag == "--help-all" || flag == "-help-all")
      arg = const_cast<char *>("--help");
  }
  argc = args.size();
  argv = args.data();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  mlir::fuse::registerAllDialects(registry);

  llvm::InitLLVM init(argc, argv);
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "fuse optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // What answers without input is upstream's.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  // The input is read with a bound (an endless /dev/zero or pipe is an
  // error naming it), and a failed write of the output (a full disk) is an
  // error naming the file, not an abort when the stream closes.
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::fuse::readToolInput(inputFilename, &error);
  if (!input) {
    llvm::errs() << "error: " << error << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << "error: " << error << "\n";
    return 1;
  }
  bool ok = mlir::succeeded(
      mlir::MlirOptMain(output->os(), std::move(input), registry, config));
  if (std::error_code ec = mlir::fuse::keepToolOutput(*output, ok)) {
    llvm::errs() << "error: cannot write '" << outputFilename
                 << "': " << ec.message() << "\n";
    return 1;
  }
  return ok ? 0 : 1;
}
