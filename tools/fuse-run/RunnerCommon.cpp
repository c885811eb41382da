//===- RunnerCommon.cpp - what fuse-run and fuse-benchmark share ----------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "RunnerCommon.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <random>

using namespace fuse;
using namespace fuse::runner;

extern const char *fuseRunnerName;

int runner::fail(const std::string &message) {
  std::fprintf(stderr, "%s: error: %s\n", fuseRunnerName, message.c_str());
  return 2;
}

const char *runner::optionValue(int argc, char **argv, int &i,
                                const char *flag) {
  std::string arg = argv[i];
  std::string prefix = std::string(flag) + "=";
  if (arg.compare(0, prefix.size(), prefix) == 0)
    return argv[i] + prefix.size();
  if (arg == flag && i + 1 < argc)
    return argv[++i];
  return nullptr;
}

bool runner::parseCount(const char *text, uint64_t *value) {
  char *end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(text, &end, 10);
  if (!*text || *end || errno || text[0] == '-')
    return false;
  *value = v;
  return true;
}

bool runner::parseTolerance(const char *text, double *value) {
  char *end = nullptr;
  double v = std::strtod(text, &end);
  if (!*text || *end || !(v >= 0) || !std::isfinite(v))
    return false;
  *value = v;
  return true;
}

std::string runner::shapeText(const int64_t *dims, int32_t rank) {
  if (rank == 0)
    return "scalar";
  std::string text;
  for (int32_t d = 0; d < rank; ++d)
    text += (d ? "x" : "") + std::to_string(dims[d]);
  return text;
}

std::string runner::fileNameOf(const std::string &name) {
  std::string text;
  for (char c : name)
    text +=
        std::isalnum(uint8_t(c)) || c == '_' || c == '-' || c == '.' ? c : '_';
  if (text.empty() || text[0] == '.')
    text.insert(text.begin(), '_');
  return text;
}

bool LoadedModel::load(const std::string &path) {
  if (FuseStatus status = fuseModelLoad(path.c_str(), &model)) {
    fail(std::string(fuseStatusMessage(status)) + " (" +
         fuseStatusCodeName(fuseStatusCode(status)) + ")");
    fuseStatusFree(status);
    return false;
  }
  return true;
}

void runner::printSignature(FuseModel *model, FILE *out) {
  std::fprintf(out, "target %s\n", fuseModelTarget(model));
  for (int32_t k = 0; k < fuseModelNumInputs(model); ++k) {
    FuseTensorInfo info;
    fuseModelInput(model, k, &info);
    std::fprintf(out, "input %d: %s %s %s\n", int(k), info.name,
                 fuseDTypeName(info.dtype),
                 shapeText(info.dims, info.rank).c_str());
  }
  for (int32_t k = 0; k < fuseModelNumOutputs(model); ++k) {
    FuseTensorInfo info;
    fuseModelOutput(model, k, &info);
    std::fprintf(out, "output %d: %s %s %s\n", int(k), info.name,
                 fuseDTypeName(info.dtype),
                 shapeText(info.dims, info.rank).c_str());
  }
  for (int32_t k = 0; k < fuseModelNumKernels(model); ++k) {
    FuseKernelInfo kernel;
    fuseModelKernel(model, k, &kernel);
    std::fprintf(out, "kernel %d: %s%s%s%s%s\n", int(k), kernel.name,
                 *kernel.rule ? " (" : "", kernel.rule, *kernel.rule ? ")" : "",
                 *kernel.nodes ? (std::string(": ") + kernel.nodes).c_str()
                               : "");
  }
  std::fprintf(out, "workspace %zu bytes\n", fuseModelWorkspaceSize(model));
  std::fprintf(out, "reentrant %s\n",
               fuseModelIsReentrant(model) ? "yes" : "no");
  std::fprintf(out, "profiled %s\n", fuseModelIsProfiled(model) ? "yes" : "no");
  std::fprintf(out, "parallel %s\n", fuseModelIsParallel(model) ? "yes" : "no");
}

namespace {

uint16_t toHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint32_t sign = (bits >> 16) & 0x8000;
  int exponent = int((bits >> 23) & 255) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffff;
  if (exponent <= 0)
    return uint16_t(sign); // the random values never underflow in practice
  if (exponent >= 31)
    return uint16_t(sign | 0x7c00);
  uint32_t half = sign | uint32_t(exponent) << 10 | mantissa >> 13;
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return uint16_t(half);
}

uint16_t toBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  bits += 0x7fff + ((bits >> 16) & 1);
  return uint16_t(bits >> 16);
}

void randomFill(std::vector<char> &data, FuseDType dtype, int64_t elements,
                std::mt19937_64 &rng) {
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  std::uniform_int_distribution<int> small(0, 9);
  for (int64_t i = 0; i < elements; ++i) {
    char *at = data.data() + i * int64_t(fuseDTypeSize(dtype));
    auto store = [&](auto value) { std::memcpy(at, &value, sizeof(value)); };
    switch (dtype) {
    case FUSE_DTYPE_F16:
      store(toHalf(real(rng)));
      break;
    case FUSE_DTYPE_BF16:
      store(toBf16(real(rng)));
      break;
    case FUSE_DTYPE_F32:
      store(real(rng));
      break;
    case FUSE_DTYPE_F64:
      store(double(real(rng)));
      break;
    case FUSE_DTYPE_BOOL:
      store(int8_t(small(rng) & 1));
      break;
    case FUSE_DTYPE_I8:
      store(int8_t(small(rng)));
      break;
    case FUSE_DTYPE_I16:
      store(int16_t(small(rng)));
      break;
    case FUSE_DTYPE_I32:
      store(int32_t(small(rng)));
      break;
    case FUSE_DTYPE_I64:
      store(int64_t(small(rng)));
      break;
    case FUSE_DTYPE_INVALID:
      break;
    }
  }
}

} // namespace

bool Buffers::prepareInputs(FuseModel *model,
                            const std::vector<std::string> &args, uint64_t seed,
                            bool quiet) {
  int32_t count = fuseModelNumInputs(model);
  std::vector<FuseTensorInfo> ports(static_cast<size_t>(count));
  std::map<std::string, int32_t> byName;
  for (int32_t k = 0; k < count; ++k) {
    fuseModelInput(model, k, &ports[size_t(k)]);
    byName[ports[size_t(k)].name] = k;
  }
  std::vector<bool> given(static_cast<size_t>(count), false);
  inputs.assign(size_t(count), {});
  // Takes `array` for input `k`, checked against the model.
  auto take = [&](int32_t k, npy::Array &&array, const std::string &from) {
    const FuseTensorInfo &port = ports[size_t(k)];
    if (given[size_t(k)]) {
      fail("input '" + std::string(port.name) + "' is given twice");
      return false;
    }
    if (!npy::descrFits(array.descr, port.dtype)) {
      fail("input '" + std::string(port.name) + "' is " +
           fuseDTypeName(port.dtype) + " (NumPy '" + npy::descrOf(port.dtype) +
           "'); " + from + " holds '" + array.descr + "'");
      return false;
    }
    std::vector<int64_t> dims(port.dims, port.dims + port.rank);
    if (array.shape != dims) {
      fail("input '" + std::string(port.name) + "' has shape " +
           shapeText(port.dims, port.rank) + "; " + from + " has shape " +
           shapeText(array.shape.data(), int32_t(array.shape.size())));
      return false;
    }
    inputs[size_t(k)] = std::move(array.data);
    given[size_t(k)] = true;
    return true;
  };
  int32_t next = 0;
  for (const std::string &arg : args) {
    size_t eq = arg.find('=');
    std::string path = eq == std::string::npos ? arg : arg.substr(eq + 1);
    bool npz = path.size() > 4 && path.compare(path.size() - 4, 4, ".npz") == 0;
    if (npz && eq == std::string::npos) {
      std::map<std::string, npy::Array> arrays;
      if (std::string error = npy::readNpz(path, arrays); !error.empty()) {
        fail(error);
        return false;
      }
      int32_t used = 0;
      for (int32_t k = 0; k < count; ++k) {
        auto found = arrays.find(ports[size_t(k)].name);
        if (found == arrays.end())
          found = arrays.find("input_" + std::to_string(k));
        if (found == arrays.end())
          continue;
        if (!take(k, std::move(found->second), "'" + path + "'"))
          return false;
        ++used;
      }
      if (used == 0) {
        fail("'" + path +
             "' holds none of the model's inputs (by name or "
             "as input_K)");
        return false;
      }
      continue;
    }
    int32_t k;
    if (eq != std::string::npos) {
      auto found = byName.find(arg.substr(0, eq));
      if (found == byName.end()) {
        fail("the model has no input '" + arg.substr(0, eq) + "'");
        return false;
      }
      k = found->second;
    } else {
      while (next < count && given[size_t(next)])
        ++next;
      if (next >= count) {
        fail("more inputs given than the model has (" + std::to_string(count) +
             ")");
        return false;
      }
      k = next;
    }
    npy::Array array;
    if (std::string error = npy::readNpy(path, array); !error.empty()) {
      fail(error);
      return false;
    }
    if (!take(k, std::move(array), "'" + path + "'"))
      return false;
  }
  std::mt19937_64 rng(seed);
  for (int32_t k = 0; k < count; ++k) {
    if (given[size_t(k)])
      continue;
    const FuseTensorInfo &port = ports[size_t(k)];
    inputs[size_t(k)].assign(port.bytes, 0);
    randomFill(inputs[size_t(k)], port.dtype, port.num_elements, rng);
    if (!quiet)
      std::fprintf(stderr,
                   "%s: input '%s' not given: random values (seed %llu)\n",
                   fuseRunnerName, port.name, (unsigned long long)seed);
  }
  return true;
}

void Buffers::prepareOutputs(FuseModel *model) {
  int32_t count = fuseModelNumOutputs(model);
  outputs.assign(size_t(count), {});
  for (int32_t k = 0; k < count; ++k) {
    FuseTensorInfo port;
    fuseModelOutput(model, k, &port);
    outputs[size_t(k)].assign(port.bytes, 0);
  }
}

bool Buffers::run(FuseModel *model, const FuseRunOptions *options) {
  std::vector<FuseTensor> in, out;
  for (int32_t k = 0; k < fuseModelNumInputs(model); ++k) {
    FuseTensorInfo port;
    fuseModelInput(model, k, &port);
    in.push_back({inputs[size_t(k)].data(), port.dtype, port.rank, port.dims});
  }
  for (int32_t k = 0; k < fuseModelNumOutputs(model); ++k) {
    FuseTensorInfo port;
    fuseModelOutput(model, k, &port);
    out.push_back(
        {outputs[size_t(k)].data(), port.dtype, port.rank, port.dims});
  }
  if (FuseStatus status =
          fuseModelRun(model, in.data(), int32_t(in.size()), out.data(),
                       int32_t(out.size()), options)) {
    fail(std::string("the run failed: ") + fuseStatusMessage(status));
    fuseStatusFree(status);
    return false;
  }
  return true;
}

Checksum runner::checksum(const char *data, FuseDType dtype, int64_t elements) {
  Checksum sum;
  sum.min = std::numeric_limits<double>::infinity();
  sum.max = -sum.min;
  for (int64_t i = 0; i < elements; ++i) {
    double v = npy::elementAsDouble(data, dtype, i);
    sum.sum += v;
    sum.absSum += std::fabs(v);
    sum.min = std::fmin(sum.min, v);
    sum.max = std::fmax(sum.max, v);
  }
  if (elements == 0)
    sum.min = sum.max = 0;
  return sum;
}

std::string runner::compare(const char *data, FuseDType dtype,
                            const npy::Array &ref, double rtol, double atol,
                            Comparison &result) {
  FuseDType refType = FUSE_DTYPE_INVALID;
  for (FuseDType t :
       {FUSE_DTYPE_F16, FUSE_DTYPE_F32, FUSE_DTYPE_F64, FUSE_DTYPE_BOOL,
        FUSE_DTYPE_I8, FUSE_DTYPE_I16, FUSE_DTYPE_I32, FUSE_DTYPE_I64})
    if (npy::descrFits(ref.descr, t))
      refType = t;
  if (refType == FUSE_DTYPE_INVALID)
    return "the reference's element type '" + ref.descr +
           "' cannot be compared";
  int64_t n = ref.elements();
  for (int64_t i = 0; i < n; ++i)
    result.maxRef =
        std::fmax(result.maxRef,
                  std::fabs(npy::elementAsDouble(ref.data.data(), refType, i)));
  for (int64_t i = 0; i < n; ++i) {
    double out = npy::elementAsDouble(data, dtype, i);
    double expected = npy::elementAsDouble(ref.data.data(), refType, i);
    if (std::isnan(out) || std::isnan(expected)) {
      if (std::isnan(out) != std::isnan(expected))
        ++result.failures;
      continue;
    }
    double err = std::fabs(out - expected);
    if (out == expected)
      err = 0; // equal infinities
    result.maxAbs = std::fmax(result.maxAbs, err);
    if (!(err <= atol + rtol * (std::fabs(expected) + result.maxRef)))
      ++result.failures;
  }
  result.maxRel =
      result.maxRef > 0 ? result.maxAbs / result.maxRef : result.maxAbs;
  return "";
}
