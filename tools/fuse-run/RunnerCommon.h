//===- RunnerCommon.h - what fuse-run and fuse-benchmark share --*- C++ -*-===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_TOOLS_RUNNERCOMMON_H
#define FUSE_TOOLS_RUNNERCOMMON_H

#include "Npy.h"
#include "fuse-c/Runtime.h"

#include <cstdio>
#include <string>
#include <vector>

namespace fuse::runner {

/// Prints "<tool>: error: message" and returns 2.
int fail(const std::string &message);

/// The value of option `flag` at argv[i], as "--flag=value" or "--flag
/// value" (then `i` moves past the value); null when argv[i] is not `flag`.
const char *optionValue(int argc, char **argv, int &i, const char *flag);

bool parseCount(const char *text, uint64_t *value);
bool parseTolerance(const char *text, double *value);

std::string shapeText(const int64_t *dims, int32_t rank);

/// `name` usable as a file name (every byte outside [A-Za-z0-9_.-] as _).
std::string fileNameOf(const std::string &name);

/// A loaded model, released at the end of its scope.
class LoadedModel {
public:
  ~LoadedModel() { fuseModelRelease(model); }
  /// Loads `path`; prints the status and returns false on failure.
  bool load(const std::string &path);
  FuseModel *get() const { return model; }

private:
  FuseModel *model = nullptr;
};

/// The model's inputs, outputs and workspace, as --info prints them.
void printSignature(FuseModel *model, FILE *out);

/// Host buffers for one model's inputs and outputs.
struct Buffers {
  std::vector<std::vector<char>> inputs, outputs;
  /// Fills the inputs from `--input` arguments (NAME=FILE.npy, FILE.npy in
  /// order, FILE.npz) and seeded random values; prints why not and returns
  /// false on a bad argument or file.
  bool prepareInputs(FuseModel *model, const std::vector<std::string> &args,
                     uint64_t seed, bool quiet);
  void prepareOutputs(FuseModel *model);
  /// One run; prints the status and returns false on failure.
  bool run(FuseModel *model, const FuseRunOptions *options = nullptr);
};

struct Checksum {
  double sum = 0, absSum = 0, min = 0, max = 0;
};
Checksum checksum(const char *data, FuseDType dtype, int64_t elements);

struct Comparison {
  double maxAbs = 0, maxRel = 0, maxRef = 0;
  int64_t failures = 0;
};
/// Compares `data` with `ref` (any numeric .npy type of as many elements):
/// |out - ref| <= atol + rtol * (|ref| + max |ref|) per element; a NaN on
/// one side only fails.
std::string compare(const char *data, FuseDType dtype, const npy::Array &ref,
                    double rtol, double atol, Comparison &result);

} // namespace fuse::runner

#endif // FUSE_TOOLS_RUNNERCOMMON_H
