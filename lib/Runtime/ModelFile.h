//===- ModelFile.h - a compiled model's file, checked before it is mapped -===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The runtime's reading of a compiled model before the dynamic loader maps
// it: the ELF file's dynamic symbols, the ABI version and the signature
// text (include/fuse-c/ModelAbi.h). Separate from the loader so that
// tools/fuzz/model-file-fuzzer.cpp can run it on any bytes.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_LIB_RUNTIME_MODELFILE_H
#define FUSE_LIB_RUNTIME_MODELFILE_H

#include "fuse-c/Runtime.h"

#include <cstdint>
#include <string>
#include <vector>

struct FuseStatusImpl {
  FuseStatusCode code;
  std::string message;
};

namespace fuse::runtime {

/// The status returned when allocating a status fails; never freed.
extern FuseStatusImpl outOfMemoryStatus;

/// A status with a printf-formatted message (or outOfMemoryStatus).
__attribute__((format(printf, 2, 3))) FuseStatus makeStatus(FuseStatusCode code,
                                                            const char *format,
                                                            ...);

/// Limits on what a signature may describe.
constexpr int32_t kMaxRank = 32;
constexpr size_t kMaxPorts = 1 << 16;
constexpr size_t kMaxSignatureBytes = 16 << 20;
constexpr int64_t kMaxElements = int64_t(1) << 46;

struct Port {
  std::string name;
  FuseDType dtype = FUSE_DTYPE_INVALID;
  std::vector<int64_t> dims;
  int64_t elements = 1;
  size_t bytes = 0;
};

struct Kernel {
  std::string name, rule, nodes;
};

struct Signature {
  std::string target;
  uint64_t workspace = 0;
  bool reentrant = false;
  bool profiled = false;
  /// The library exports fuse_model_parallel_hook.
  bool parallel = false;
  std::vector<Port> inputs, outputs;
  std::vector<Kernel> kernels;
};

/// Parses the signature text into `signature`; "" or why not.
std::string parseSignature(const std::string &text, Signature &signature);

/// What the file says before anything of it is mapped.
struct FileCheck {
  int32_t version = 0;
  std::string signature;
  bool hasRun = false;
};

/// Checks the file at `path`: a regular file, a 64-bit ELF shared library
/// for this machine whose dynamic symbols define the ABI's three symbols,
/// of this ABI version. Fills `check`; NULL or why not.
FuseStatus checkFile(const char *path, FileCheck &check);

} // namespace fuse::runtime

#endif // FUSE_LIB_RUNTIME_MODELFILE_H
