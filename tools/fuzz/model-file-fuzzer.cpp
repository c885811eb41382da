//===- model-file-fuzzer.cpp - libFuzzer: a compiled model's file ---------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The runtime's checks of a compiled model before the dynamic loader maps it
// (lib/Runtime/ModelFile.cpp), on any bytes: the bytes as a model file
// (ELF header, section headers, dynamic symbols, the ABI version and the
// signature symbol's data), and the bytes as signature text. Nothing is
// ever mapped or run. What is accepted must hold together: every port
// named, names unique, ranks and sizes within the limits, bytes = elements
// x element size.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Runtime/ModelFile.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

using namespace fuse::runtime;

namespace {

void checkConsistent(const Signature &signature) {
  std::set<std::string> names;
  for (const std::vector<Port> *list : {&signature.inputs, &signature.outputs})
    for (const Port &port : *list) {
      if (port.name.empty() || !names.insert(port.name).second ||
          port.dims.size() > size_t(kMaxRank) ||
          port.dtype == FUSE_DTYPE_INVALID)
        std::abort();
      int64_t elements = 1;
      for (int64_t d : port.dims) {
        if (d < 0)
          std::abort();
        elements *= d;
      }
      if (elements != port.elements || elements > kMaxElements ||
          port.bytes != size_t(elements) * fuseDTypeSize(port.dtype))
        std::abort();
    }
  if (signature.outputs.empty())
    std::abort();
}

std::string &modelPath() {
  static std::string path = [] {
    char name[] = "/tmp/model-file-fuzzer-XXXXXX";
    int fd = mkstemp(name);
    if (fd < 0)
      std::abort();
    close(fd);
    return std::string(name);
  }();
  return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string bytes(reinterpret_cast<const char *>(data), size);
  // As signature text.
  Signature direct;
  if (parseSignature(bytes, direct).empty())
    checkConsistent(direct);
  // As a model file.
  FILE *file = std::fopen(modelPath().c_str(), "wb");
  if (!file)
    std::abort();
  std::fwrite(data, 1, size, file);
  std::fclose(file);
  FileCheck check;
  FuseStatus status = checkFile(modelPath().c_str(), check);
  if (status) {
    if (fuseStatusCode(status) == FUSE_STATUS_OK)
      std::abort();
    fuseStatusFree(status);
    return 0;
  }
  Signature signature;
  if (parseSignature(check.signature, signature).empty())
    checkConsistent(signature);
  return 0;
}
