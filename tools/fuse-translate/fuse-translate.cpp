//===- fuse-translate.cpp - fuse's front ends -----------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// mlir-translate with fuse's importers:
//   fuse-translate --import-onnx model.onnx [--onnx-batch=N]
//                  [--onnx-dim NAME=N] [-o model.mlir]
//   fuse-translate --onnx-list-ops    the ONNX ops the importer takes
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Utils/ToolFiles.h"
#include "fuse/Target/ONNX/Import.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

/// The output file named on the command line ("-o FILE"), for messages.
static std::string outputName = "-";

/// A pipe input (a FIFO, "-" or standard input) copied, with the bound every
/// fuse tool reads with, into this file, which the driver reads instead: the
/// driver itself would read a pipe without end.
static llvm::SmallString<128> spooledPath;

static void removeSpooled() {
  if (!spooledPath.empty())
    llvm::sys::fs::remove(spooledPath);
}

/// Copies the pipe `path` into spooledPath. On failure prints why.
static bool spool(llvm::StringRef path) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> data =
      mlir::fuse::readToolInput(path, &error);
  int fd;
  if (!data) {
    llvm::errs() << "error: " << error << "\n";
    return false;
  }
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
          "fuse-translate", "input", fd, spooledPath)) {
    llvm::errs() << "error: cannot copy '" << path
                 << "' to a temporary file: " << ec.message() << "\n";
    return false;
  }
  llvm::sys::RemoveFileOnSignal(spooledPath);
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << data->getBuffer();
  os.close();
  if (os.has_error()) {
    llvm::errs() << "error: cannot copy '" << path
                 << "' to a temporary file: " << os.error().message() << "\n";
    os.clear_error();
    removeSpooled();
    return false;
  }
  return true;
}

/// A failed write of the output (a full disk) ends the translation driver
/// when its stream closes; say which file, as an error, not an abort.
static void reportFatalError(void *, const char *reason, bool) {
  llvm::StringRef text(reason);
  if (text.consume_front("IO failure on output stream: "))
    llvm::errs() << "error: cannot write '" << outputName << "': " << text
                 << "\n";
  else
    llvm::errs() << "error: " << text << "\n";
  removeSpooled();
  llvm::sys::Process::Exit(1, /*NoCleanup=*/true);
}

int main(int argc, char **argv) {
  // --onnx-list-ops answers without reading any input.
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]) == "--onnx-list-ops") {
      for (const std::string &op : mlir::fuse::supportedOnnxOps())
        llvm::outs() << op << "\n";
      return 0;
    }
  // An input that is a device (/dev/zero) or larger than a tool reads is
  // refused before the driver reads it without end; a pipe is read with
  // that bound into a temporary file the driver reads instead, its messages
  // still naming the pipe. Arguments that name no existing file (option
  // values) are left to the driver.
  std::vector<char *> args(argv, argv + argc);
  std::string inputName;
  int inputs = 0;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if ((arg == "-o" || arg == "--o") && i + 1 < argc) {
      outputName = argv[++i];
      continue;
    }
    if (arg.consume_front("-o=") || arg.consume_front("--o=")) {
      outputName = arg.str();
      continue;
    }
    // The importer's options that take a value may take it as the next
    // argument; it is not an input.
    if (llvm::is_contained({"--onnx-dim", "-onnx-dim", "--onnx-batch",
                            "-onnx-batch", "--onnx-function", "-onnx-function",
                            "--onnx-resource-threshold",
                            "-onnx-resource-threshold"},
                           arg) &&
        i + 1 < argc) {
      ++i;
      continue;
    }
    if (arg.starts_with("-") && arg != "-")
      continue;
    ++inputs;
    llvm::sys::fs::file_status status;
    if (arg != "-" &&
        (llvm::sys::fs::status(arg, status) ||
         status.type() == llvm::sys::fs::file_type::directory_file))
      continue; // the driver says it cannot be read
    std::string why = mlir::fuse::checkToolInput(arg);
    if (!why.empty()) {
      llvm::errs() << "error: " << why << "\n";
      return 1;
    }
    if (arg == "-" || status.type() == llvm::sys::fs::file_type::fifo_file) {
      if (!spooledPath.empty()) {
        llvm::errs() << "error: more than one input\n";
        return 1;
      }
      if (!spool(arg))
        return 1;
      inputName = arg == "-" ? "<stdin>" : arg.str();
      args[i] = spooledPath.data();
    }
  }
  // No input named: the driver reads standard input, unless it is a
  // terminal (then it waits for the user, as every tool does) or the
  // command only asks for help.
  bool help = llvm::any_of(llvm::ArrayRef(argv + 1, argc - 1), [](char *a) {
    return llvm::StringRef(a).starts_with("--help") ||
           llvm::StringRef(a).starts_with("-help") ||
           llvm::StringRef(a) == "--version";
  });
  if (inputs == 0 && !help && !llvm::sys::Process::StandardInIsUserInput()) {
    if (!spool("-"))
      return 1;
    inputName = "<stdin>";
    args.push_back(spooledPath.data());
  }
  std::string nameOption = "--onnx-input-name=" + inputName;
  if (!inputName.empty())
    args.push_back(nameOption.data());
  args.push_back(nullptr);
  argc = int(args.size()) - 1;
  argv = args.data();
  llvm::install_fatal_error_handler(reportFatalError);
  mlir::fuse::registerOnnxImportTranslation();
  // --help shows the translation driver's and the importer's options, not
  // every option of the LLVM libraries linked in (--help-hidden has them).
  llvm::cl::HideUnrelatedOptions(mlir::fuse::getOnnxImportCategory());
  bool failed = mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "fuse translation driver\n"));
  removeSpooled();
  return failed;
}
