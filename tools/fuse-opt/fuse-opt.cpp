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
#include "llvm/Support/thread.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>

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
      << "  --remarks-filter=fuse --remark-format=emitRemark   every fusion "
         "decision\n"
      << "  --mlir-print-ir-after-all      the IR after every pass\n"
      << "  --help-all                     every option, upstream passes "
         "and dialects included\n";
}

/// The deepest nesting of brackets fuse-opt reads, and the stack its work
/// runs on (reserved, not committed: only the depth used is touched).
static constexpr int64_t kMaxNesting = 100000;
static constexpr unsigned kWorkerStackBytes = 1u << 30;

/// "LINE:COL: error: ..." where `text` first nests (, [, { or < more than
/// kMaxNesting deep, outside string literals and comments; nullopt if it
/// never does. `->` is an arrow, not a closing bracket.
static std::optional<std::string> findDeepNesting(llvm::StringRef text) {
  int64_t depth = 0, line = 1, column = 0;
  bool inString = false, inComment = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
      inComment = false;
      continue;
    }
    if (inComment)
      continue;
    if (inString) {
      if (c == '\\')
        ++i, ++column;
      else if (c == '"')
        inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      inComment = true;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > kMaxNesting)
        return std::to_string(line) + ":" + std::to_string(column) +
               ": error: the input nests brackets more than " +
               std::to_string(kMaxNesting) +
               " levels deep; fuse-opt refuses it (MLIR's parser recurses "
               "once per level)";
    } else if ((c == ')' || c == ']' || c == '}' ||
                (c == '>' && (i == 0 || text[i - 1] != '-'))) &&
               depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
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
  // MLIR's parser, verifier and printer recurse once per level of nesting.
  // Input nested deeper than kMaxNesting is refused with its place; up to
  // that, the work runs on a thread whose stack holds it (the main thread's
  // 8 MiB overflowed at a few thousand levels: a SIGSEGV, not an error).
  if (std::optional<std::string> deep = findDeepNesting(input->getBuffer())) {
    llvm::errs() << inputFilename << ":" << *deep << "\n";
    return 1;
  }
  bool ok = false;
  llvm::thread worker(std::optional<unsigned>(kWorkerStackBytes), [&] {
    ok = mlir::succeeded(
        mlir::MlirOptMain(output->os(), std::move(input), registry, config));
  });
  worker.join();
  if (std::error_code ec = mlir::fuse::keepToolOutput(*output, ok)) {
    llvm::errs() << "error: cannot write '" << outputFilename
                 << "': " << ec.message() << "\n";
    return 1;
  }
  return ok ? 0 : 1;
}
