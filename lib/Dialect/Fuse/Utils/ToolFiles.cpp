//===- ToolFiles.cpp - how fuse's tools read inputs -----------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// A tool's input is read with a bound: an endless source (/dev/zero, a pipe
// that never ends) must end in a message that names it, not in an
// out-of-memory abort.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Utils/ToolFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

static std::string tooLarge(llvm::StringRef path, uint64_t maxBytes) {
  return ("'" + path + "' is larger than " + llvm::Twine(maxBytes >> 20) +
          " MiB, the most a fuse tool reads")
      .str();
}

/// checkToolInput's answer, and whether `path` is a regular file.
static std::string checkInput(llvm::StringRef path, uint64_t maxBytes,
                              bool &regular) {
  regular = false;
  if (path == "-")
    return "";
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return ("cannot open '" + path + "': " + ec.message()).str();
  switch (status.type()) {
  case llvm::sys::fs::file_type::regular_file:
    regular = true;
    return status.getSize() > maxBytes ? tooLarge(path, maxBytes) : "";
  case llvm::sys::fs::file_type::fifo_file:
    return "";
  case llvm::sys::fs::file_type::directory_file:
    return ("'" + path + "' is a directory, not an input file").str();
  default:
    return ("'" + path +
            "' is not a regular file or a pipe (a device or a socket)")
        .str();
  }
}

std::string fuse::checkToolInput(llvm::StringRef path, uint64_t maxBytes) {
  bool regular;
  return checkInput(path, maxBytes, regular);
}

std::unique_ptr<llvm::MemoryBuffer> fuse::readToolInput(llvm::StringRef path,
                                                        std::string *error,
                                                        uint64_t maxBytes) {
  bool regular;
  *error = checkInput(path, maxBytes, regular);
  if (!error->empty())
    return nullptr;
  if (regular) {
    auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/true);
    if (!file) {
      *error =
          ("cannot read '" + path + "': " + file.getError().message()).str();
      return nullptr;
    }
    return std::move(*file);
  }
  // A pipe: read in chunks, at most maxBytes.
  llvm::sys::fs::file_t fd = llvm::sys::fs::getStdinHandle();
  if (path != "-") {
    llvm::Expected<llvm::sys::fs::file_t> opened =
        llvm::sys::fs::openNativeFileForRead(path);
    if (!opened) {
      *error =
          ("cannot open '" + path + "': " + llvm::toString(opened.takeError()))
              .str();
      return nullptr;
    }
    fd = *opened;
  }
  std::string data;
  char chunk[1 << 16];
  while (true) {
    llvm::Expected<size_t> n = llvm::sys::fs::readNativeFile(fd, chunk);
    if (!n) {
      *error = ("cannot read '" + path + "': " + llvm::toString(n.takeError()))
                   .str();
      break;
    }
    if (*n == 0)
      break;
    if (data.size() + *n > maxBytes) {
      *error = tooLarge(path == "-" ? "<stdin>" : path, maxBytes);
      break;
    }
    data.append(chunk, *n);
  }
  if (path != "-")
    llvm::sys::fs::closeFile(fd);
  if (!error->empty())
    return nullptr;
  return llvm::MemoryBuffer::getMemBufferCopy(data,
                                              path == "-" ? "<stdin>" : path);
}

std::error_code fuse::keepToolOutput(llvm::ToolOutputFile &file, bool keep) {
  file.os().flush();
  std::error_code ec = file.os().error();
  if (ec)
    file.os().clear_error();
  else if (keep)
    file.keep();
  return ec;
}
