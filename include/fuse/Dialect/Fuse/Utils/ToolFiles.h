//===- ToolFiles.h - how fuse's tools read and write files -----*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_UTILS_TOOLFILES_H
#define FUSE_DIALECT_FUSE_UTILS_TOOLFILES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <system_error>

namespace llvm {
class MemoryBuffer;
class ToolOutputFile;
} // namespace llvm

namespace mlir::fuse {

/// The most bytes a tool reads as its input (4 GiB).
inline constexpr uint64_t kMaxToolInputBytes = uint64_t(4) << 30;

/// Why `path` cannot be a tool's input, or "" when it can: it must be a
/// regular file of at most `maxBytes` or a pipe ("-", standard input, or a
/// FIFO); a directory, a device (/dev/zero) or a socket is refused. A
/// missing file gives the system's message.
std::string checkToolInput(llvm::StringRef path,
                           uint64_t maxBytes = kMaxToolInputBytes);

/// Reads `path` ("-": standard input) as checkToolInput allows it, a pipe
/// at most `maxBytes` of it. The buffer is null-terminated. On failure
/// returns null and sets `error` to a message naming the file.
std::unique_ptr<llvm::MemoryBuffer>
readToolInput(llvm::StringRef path, std::string *error,
              uint64_t maxBytes = kMaxToolInputBytes);

/// Flushes `file` and, when `keep`, keeps it. A write that failed (a full
/// disk, /dev/full) is returned, with the stream's error cleared so that
/// closing the file does not end the process; the file is then not kept.
std::error_code keepToolOutput(llvm::ToolOutputFile &file, bool keep = true);

} // namespace mlir::fuse

#endif // FUSE_DIALECT_FUSE_UTILS_TOOLFILES_H
