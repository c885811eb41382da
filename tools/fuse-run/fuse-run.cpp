//===- fuse-run.cpp - run a compiled model once ---------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// fuse-run MODEL.so [--input NAME=FILE.npy | --input FILE.npy |
//                    --input FILE.npz]... [--seed N] [--output DIR]
//                   [--compare REF.npz] [--rtol R] [--atol A] [--info] [-q]
//
// Loads a compiled model through the runtime's C API (include/fuse-c/
// Runtime.h), feeds it NumPy arrays (inputs not given are seeded random
// values), runs it once, prints each output's shape and checksum, writes
// the outputs as DIR/<name>.npy, and compares them with reference arrays.
// An output passes when every element satisfies
//   |out - ref| <= atol + rtol * (|ref| + max |ref|)
// (the criterion of scripts/onnx-run.py). Exit status: 0 ok, 1 a mismatch,
// 2 a usage, file or runtime error.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"
#include "RunnerCommon.h"

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace fuse::npy;
using namespace fuse::runner;

namespace {

void usage() {
  std::fprintf(
      stderr,
      "usage: fuse-run MODEL.so [--input NAME=FILE.npy | --input FILE.npy | "
      "--input FILE.npz]...\n"
      "                [--seed N] [--output DIR] [--compare REF.npz]\n"
      "                [--rtol R] [--atol A] [--threads N] [--info] [-q]\n"
      "  --input      an input: NAME=FILE.npy, or FILE.npy for the next "
      "input in order, or\n"
      "               FILE.npz (members named as the inputs, or input_K)\n"
      "  --seed       seed of the random values of inputs not given "
      "(default 0)\n"
      "  --output     write each output as DIR/<name>.npy\n"
      "  --compare    reference outputs: a .npz (members named as the "
      "outputs, or output_K)\n"
      "  --rtol/--atol  the comparison's tolerances (default 1e-4, 1e-5)\n"
      "  --threads    threads of a CPU model's call (default: "
      "FUSE_NUM_THREADS, else\n"
      "               the CPUs this process may use)\n"
      "  --info       print the model's inputs, outputs and workspace, and "
      "exit\n"
      "  -q           print only errors and the comparison's verdict\n");
}

} // namespace

int main(int argc, char **argv) {
  std::string modelPath, outputDir, comparePath;
  std::vector<std::string> inputArgs;
  uint64_t seed = 0;
  double rtol = 1e-4, atol = 1e-5;
  bool info = false, quiet = false;
  uint64_t threads = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *flag) {
      return optionValue(argc, argv, i, flag);
    };
    if (arg == "-h" || arg == "--help") {
      usage();
      return 0;
    }
    if (const char *v = value("--input")) {
      inputArgs.push_back(v);
    } else if (const char *v = value("--output")) {
      outputDir = v;
    } else if (const char *v = value("--compare")) {
      comparePath = v;
    } else if (const char *v = value("--seed")) {
      if (!parseCount(v, &seed))
        return fail(std::string("--seed: not a number: ") + v);
    } else if (const char *v = value("--rtol")) {
      if (!parseTolerance(v, &rtol))
        return fail(std::string("--rtol: not a tolerance: ") + v);
    } else if (const char *v = value("--atol")) {
      if (!parseTolerance(v, &atol))
        return fail(std::string("--atol: not a tolerance: ") + v);
    } else if (const char *v = value("--threads")) {
      if (!parseCount(v, &threads) || threads < 1 || threads > 1024)
        return fail(std::string("--threads: expected 1 to 1024, got ") + v);
    } else if (arg == "--info") {
      info = true;
    } else if (arg == "-q") {
      quiet = true;
    } else if (!arg.empty() && arg[0] == '-') {
      usage();
      return fail("unknown option '" + arg + "'");
    } else if (modelPath.empty()) {
      modelPath = arg;
    } else {
      usage();
      return fail("more than one model given ('" + modelPath + "', '" + arg +
                  "')");
    }
  }
  if (modelPath.empty()) {
    usage();
    return fail("no model given");
  }

  LoadedModel model;
  if (!model.load(modelPath))
    return 2;
  if (info) {
    printSignature(model.get(), stdout);
    return 0;
  }

  Buffers buffers;
  if (!buffers.prepareInputs(model.get(), inputArgs, seed, quiet))
    return 2;
  buffers.prepareOutputs(model.get());
  FuseRunOptions options = {};
  options.struct_size = sizeof(FuseRunOptions);
  options.memory = FUSE_MEMORY_HOST;
  options.threads = int32_t(threads);
  if (!buffers.run(model.get(), &options))
    return 2;

  int32_t outputs = fuseModelNumOutputs(model.get());
  if (!outputDir.empty()) {
    if (mkdir(outputDir.c_str(), 0777) != 0 && errno != EEXIST)
      return fail("cannot create '" + outputDir + "': " + std::strerror(errno));
  }
  std::map<std::string, Array> references;
  if (!comparePath.empty())
    if (std::string error = readNpz(comparePath, references); !error.empty())
      return fail(error);
  bool allPass = true;
  for (int32_t k = 0; k < outputs; ++k) {
    FuseTensorInfo port;
    fuseModelOutput(model.get(), k, &port);
    const std::vector<char> &data = buffers.outputs[size_t(k)];
    if (!quiet) {
      Checksum sum = checksum(data.data(), port.dtype, port.num_elements);
      std::printf("output %s %s %s: sum %.9g, sum |x| %.9g, min %.9g, max "
                  "%.9g\n",
                  port.name, fuseDTypeName(port.dtype),
                  shapeText(port.dims, port.rank).c_str(), sum.sum, sum.absSum,
                  sum.min, sum.max);
    }
    if (!outputDir.empty()) {
      Array array;
      array.descr = descrOf(port.dtype);
      array.shape.assign(port.dims, port.dims + port.rank);
      array.data = data;
      std::string path = outputDir + "/" + fileNameOf(port.name) + ".npy";
      if (std::string error = writeNpy(path, array); !error.empty())
        return fail(error);
    }
    if (comparePath.empty())
      continue;
    auto found = references.find(port.name);
    if (found == references.end())
      found = references.find("output_" + std::to_string(k));
    if (found == references.end())
      return fail("'" + comparePath + "' has no array '" + port.name +
                  "' or 'output_" + std::to_string(k) + "'");
    const Array &ref = found->second;
    if (ref.elements() != port.num_elements)
      return fail("the reference of output '" + std::string(port.name) +
                  "' has " + std::to_string(ref.elements()) +
                  " elements, the output " + std::to_string(port.num_elements));
    Comparison result;
    if (std::string error =
            compare(data.data(), port.dtype, ref, rtol, atol, result);
        !error.empty())
      return fail("output '" + std::string(port.name) + "': " + error);
    std::printf("compare %s: max abs err %.3g, max rel err %.3g (of max "
                "|ref| %.3g), %lld of %lld outside: %s\n",
                port.name, result.maxAbs, result.maxRel, result.maxRef,
                (long long)result.failures, (long long)port.num_elements,
                result.failures ? "FAIL" : "PASS");
    allPass = allPass && result.failures == 0;
  }
  if (!comparePath.empty())
    std::printf("%s: %s\n", modelPath.c_str(), allPass ? "PASS" : "FAIL");
  return allPass ? 0 : 1;
}
const char *fuseRunnerName = "fuse-run";
