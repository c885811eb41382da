//===- Npy.h - NumPy .npy / .npz files for the runtime tools ----*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// Reads and writes NumPy's .npy format (versions 1-3, little-endian, C
// order) and reads .npz archives (stored or deflated members), for
// fuse-run and fuse-benchmark. Every malformed file is an error message,
// never a crash: sizes are checked against the file before anything is
// read.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_TOOLS_NPY_H
#define FUSE_TOOLS_NPY_H

#include "fuse-c/Runtime.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fuse::npy {

struct Array {
  /// NumPy's descr ("<f4", "|b1", ...).
  std::string descr;
  std::vector<int64_t> shape;
  std::vector<char> data;
  int64_t elements() const;
};

/// Parses the .npy bytes `bytes` (named `name` in messages) into `array`;
/// returns "" or why not.
std::string parseNpy(const std::string &bytes, const std::string &name,
                     Array &array);

/// Reads a .npy file.
std::string readNpy(const std::string &path, Array &array);

/// Reads every member of a .npz archive, keyed by name without ".npy".
std::string readNpz(const std::string &path,
                    std::map<std::string, Array> &arrays);

/// Writes `array` as a version-1 .npy file.
std::string writeNpy(const std::string &path, const Array &array);

/// NumPy's descr for a runtime element type; bf16 has none and is written
/// as its bit patterns ("<u2").
std::string descrOf(FuseDType dtype);

/// Whether an array of `descr` can feed a port of `dtype` (bf16 takes
/// "<u2"/"<i2" bit patterns).
bool descrFits(const std::string &descr, FuseDType dtype);

/// The element of `array` (of runtime type `dtype`) at `index` as a double.
double elementAsDouble(const char *data, FuseDType dtype, int64_t index);

} // namespace fuse::npy

#endif // FUSE_TOOLS_NPY_H
