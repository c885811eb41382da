//===- compile-fuzzer.cpp - libFuzzer harness for fuse-compile's options --===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse-compile's option and input handling, through the functions the tool
// runs (fuse/Driver/Compile.h): an input is a command line, one argument a
// line, then a NUL byte and the model's bytes. The model is written to
// model.onnx, model.mlir and model.mlirbc in a hostile working directory
// (as onnx-import-fuzzer's: a FIFO, links to /etc/passwd, / and /dev/zero,
// a link loop, a dangling link, a subdirectory), so that the command line's
// file names (the input, --onnx-bind's files) may name any of them. Each
// input runs
//   the command-line parse -> checkCompileOptions -> the pipelines built
//   from the options (not run) -> the model read (import or parse),
// and every step may refuse it with a message; none may crash, hang, exit
// or trip a sanitizer. Running the pipelines is pipeline-fuzzer's part.
//
// Arguments LLVM's parser handles before fuse sees them are left out: ones
// that are not fuse-compile options (LLVM's own, --help and --version,
// which print and exit as in every LLVM tool) and `@file` response files.
// So are arguments that name the FIFOs: a tool reads a FIFO it is given as
// a pipe and waits for a writer, as cat does (external data naming one is
// refused, and stays in). Standard input is /dev/null.
//
//===----------------------------------------------------------------------===//

#include "FuzzSupport.h"
#include "fuse/Driver/Compile.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

static bool ready = false;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  char pattern[] = "/tmp/fuse-compile-fuzz-XXXXXX";
  const char *dir = mkdtemp(pattern);
  if (!dir || chdir(dir) != 0 || !std::freopen("/dev/null", "r", stdin))
    return 0;
  if (FILE *f = std::fopen("weights.bin", "wb")) {
    for (int i = 0; i < 4096; ++i)
      std::fputc(i & 0xff, f);
    std::fclose(f);
  }
  mkfifo("fifo", 0600);
  mkdir("sub", 0700);
  mkdir("dir.onnx", 0700);
  symlink("/etc/passwd", "passwd");
  symlink("/etc/passwd", "passwd.mlir");
  symlink("/", "root");
  symlink("/dev/zero", "zero");
  symlink("/dev/zero", "zero.onnx");
  symlink("/dev/zero", "sub/zero");
  symlink("loop", "loop");
  symlink("loop.onnx", "loop.onnx");
  symlink("missing-target", "dangling");
  symlink("weights.bin", "inside");
  ready = true;
  return 0;
}

/// Whether LLVM's parser may see `arg`: a positional argument, `--`, or one
/// of fuse-compile's options (-O<n> included).
static bool isFuseArgument(llvm::StringRef arg) {
  if (arg.starts_with("@") || arg.contains("fifo"))
    return false;
  if (!arg.starts_with("-") || arg == "-" || arg == "--")
    return true;
  llvm::StringRef name = arg.ltrim('-').split('=').first;
  if (name.starts_with("O"))
    return true;
  return llvm::is_contained(mlir::fuse::getCompileOptionNames(), name);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!ready || size > 64 * 1024)
    return 0;
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  auto [head, model] = bytes.split('\0');

  // The command line.
  std::vector<std::string> args = {"fuse-compile"};
  llvm::SmallVector<llvm::StringRef> lines;
  head.split(lines, '\n');
  for (llvm::StringRef line : lines)
    if (args.size() < 64 && isFuseArgument(line))
      args.push_back(line.str());
  std::vector<const char *> argv;
  for (const std::string &arg : args)
    argv.push_back(arg.c_str());

  // The model, under each name a command line may give it.
  for (const char *name : {"model.onnx", "model.mlir", "model.mlirbc"})
    if (FILE *f = std::fopen(name, "wb")) {
      std::fwrite(model.data(), 1, model.size(), f);
      std::fclose(f);
    }

  mlir::fuse::CompileOptions options;
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!mlir::fuse::parseCompileCommandLine(argv.size(), argv.data(), options,
                                           errorStream))
    return 0;
  if (llvm::Error error = mlir::fuse::checkCompileOptions(options)) {
    llvm::consumeError(std::move(error));
    return 0;
  }

  mlir::MLIRContext &context = fuse_fuzz::context(/*renew=*/500);
  mlir::PassManager fusion(&context), lowering(&context);
  if (llvm::Error error = mlir::fuse::buildCompilePipelines(
          options, fusion, lowering,
          options.gpuFormat == "auto" ? "isa" : options.gpuFormat)) {
    llvm::consumeError(std::move(error));
    return 0;
  }
  llvm::SourceMgr sourceMgr;
  std::string error;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::fuse::readCompileInput(options, &context, sourceMgr, &error);
  // What the importer or parser returns verifies; without a module there
  // is a message.
  if (module ? mlir::failed(mlir::verify(*module)) : error.empty())
    std::abort();
  return 0;
}
