//===- FuseAttrs.cpp - fuse attributes ------------------------------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseAttrs.h"
#include "TargetPresets.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Host.h"

#include <charconv>
#include <cmath>

using namespace mlir;
using namespace mlir::fuse;

#include "fuse/Dialect/Fuse/IR/FuseEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "fuse/Dialect/Fuse/IR/FuseAttrs.cpp.inc"

void FuseDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "fuse/Dialect/Fuse/IR/FuseAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Target fields
//===----------------------------------------------------------------------===//

namespace {
/// Architectures fuse accepts, oldest first.
constexpr llvm::StringLiteral kKnownArchs[] = {
    "sm_50",  "sm_52",  "sm_53",  "sm_60",  "sm_61",   "sm_62",
    "sm_70",  "sm_72",  "sm_75",  "sm_80",  "sm_86",   "sm_87",
    "sm_89",  "sm_90",  "sm_90a", "sm_100", "sm_100a", "sm_101",
    "sm_103", "sm_110", "sm_120", "sm_121"};

/// Keys of `peak_tflops`.
constexpr llvm::StringLiteral kPeakKeys[] = {"f64",  "f32", "tf32", "f16",
                                             "bf16", "f8",  "i8"};

/// Field keys of the textual form, in printing order.
enum class Field {
  Arch,
  SMs,
  SmemPerBlock,
  SmemPerSM,
  L2Bytes,
  RegsPerSM,
  MaxThreads,
  DramGBps,
  LaunchUs,
  Peak,
  Count
};
constexpr llvm::StringLiteral kFieldNames[] = {
    "arch",      "sms",         "smem_per_block",        "smem_per_sm",
    "l2_bytes",  "regs_per_sm", "max_threads_per_block", "dram_gbps",
    "launch_us", "peak_tflops"};
static_assert(std::size(kFieldNames) == size_t(Field::Count));

/// The values of a target while it is parsed or printed.
struct TargetFields {
  std::string name;
  std::string arch;
  int64_t ints[6] = {0, 0, 0, 0, 0, 0}; // SMs .. MaxThreads
  double dramGBps = 0, launchUs = 0;
  DictionaryAttr peak;

  int64_t &intField(Field f) { return ints[size_t(f) - size_t(Field::SMs)]; }
  static bool isInt(Field f) {
    return f >= Field::SMs && f <= Field::MaxThreads;
  }

  static TargetFields fromPreset(MLIRContext *ctx, const TargetPreset &p) {
    TargetFields f;
    f.name = p.name.str();
    f.arch = p.arch.str();
    f.ints[0] = p.numSMs;
    f.ints[1] = p.sharedMemPerBlock;
    f.ints[2] = p.sharedMemPerSM;
    f.ints[3] = p.l2Bytes;
    f.ints[4] = p.registersPerSM;
    f.ints[5] = p.maxThreadsPerBlock;
    f.dramGBps = p.dramGBps;
    f.launchUs = p.launchMicros;
    Builder b(ctx);
    SmallVector<NamedAttribute> peaks;
    double values[] = {p.f64, p.f32, p.tf32, p.f16, p.bf16, p.f8, p.i8};
    for (auto [key, value] : llvm::zip(kPeakKeys, values))
      if (value > 0)
        peaks.push_back(b.getNamedAttr(key, b.getF64FloatAttr(value)));
    f.peak = b.getDictionaryAttr(peaks);
    return f;
  }

  static TargetFields fromAttr(TargetAttr a) {
    TargetFields f;
    f.name = a.getName().str();
    f.arch = a.getArch().str();
    f.ints[0] = a.getNumSMs();
    f.ints[1] = a.getSharedMemPerBlock();
    f.ints[2] = a.getSharedMemPerSM();
    f.ints[3] = a.getL2Bytes();
    f.ints[4] = a.getRegistersPerSM();
    f.ints[5] = a.getMaxThreadsPerBlock();
    f.dramGBps = a.getDramGBps().convertToDouble();
    f.launchUs = a.getLaunchMicros().convertToDouble();
    f.peak = a.getPeakTflops();
    return f;
  }

  TargetAttr getChecked(llvm::function_ref<InFlightDiagnostic()> emitError,
                        MLIRContext *ctx) const {
    return TargetAttr::getChecked(
        emitError, ctx, name, arch, ints[0], ints[1], ints[2], ints[3], ints[4],
        ints[5], llvm::APFloat(dramGBps), llvm::APFloat(launchUs), peak);
  }

  /// Whether field `f` holds the same value in both.
  bool same(const TargetFields &o, Field f) const {
    switch (f) {
    case Field::Arch:
      return arch == o.arch;
    case Field::DramGBps:
      return dramGBps == o.dramGBps;
    case Field::LaunchUs:
      return launchUs == o.launchUs;
    case Field::Peak:
      return peak == o.peak;
    default:
      return ints[size_t(f) - size_t(Field::SMs)] ==
             o.ints[size_t(f) - size_t(Field::SMs)];
    }
  }
};
} // namespace

/// Prints `value` so that it parses back to the same double, always with a
/// decimal point or exponent.
static void printExactDouble(llvm::raw_ostream &os, double value) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), value);
  std::string text(buf, res.ptr);
  if (text.find_first_of(".eEn") == std::string::npos)
    text += ".0";
  os << text;
}

static std::string joinNames(llvm::ArrayRef<llvm::StringLiteral> names) {
  std::string out;
  llvm::raw_string_ostream os(out);
  llvm::interleaveComma(names, os);
  return out;
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

Attribute TargetAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  SMLoc startLoc = parser.getCurrentLocation();
  std::string name;
  if (parser.parseLess() || parser.parseString(&name))
    return {};

  TargetFields fields;
  const TargetPreset *preset = lookupTargetPreset(name);
  if (preset)
    fields = TargetFields::fromPreset(ctx, *preset);
  fields.name = name;

  bool seen[size_t(Field::Count)] = {};
  unsigned numSeen = 0;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return {};
    const auto *it = llvm::find(kFieldNames, key);
    if (it == std::end(kFieldNames)) {
      parser.emitError(keyLoc)
          << "unknown #fuse.target field '" << key
          << "'; expected one of: " << joinNames(kFieldNames);
      return {};
    }
    auto field = Field(it - std::begin(kFieldNames));
    if (seen[size_t(field)]) {
      parser.emitError(keyLoc)
          << "#fuse.target field '" << key << "' is given twice";
      return {};
    }
    seen[size_t(field)] = true;
    ++numSeen;
    if (parser.parseEqual())
      return {};
    if (field == Field::Arch) {
      if (parser.parseString(&fields.arch))
        return {};
    } else if (TargetFields::isInt(field)) {
      if (parser.parseInteger(fields.intField(field)))
        return {};
    } else if (field == Field::Peak) {
      if (parser.parseAttribute(fields.peak))
        return {};
    } else {
      // Accept `936` as well as `936.0`.
      SMLoc valueLoc = parser.getCurrentLocation();
      Attribute number;
      if (parser.parseAttribute(number))
        return {};
      double value;
      if (auto f = dyn_cast<FloatAttr>(number)) {
        value = f.getValueAsDouble();
      } else if (auto i = dyn_cast<IntegerAttr>(number)) {
        value = double(i.getInt());
      } else {
        parser.emitError(valueLoc)
            << "#fuse.target field '" << key << "' expects a number";
        return {};
      }
      (field == Field::DramGBps ? fields.dramGBps : fields.launchUs) = value;
    }
  }
  if (parser.parseGreater())
    return {};

  if (!preset) {
    if (numSeen == 0) {
      SmallVector<StringRef> names(TargetAttr::getPresetNames());
      std::string list;
      llvm::raw_string_ostream os(list);
      llvm::interleaveComma(names, os);
      parser.emitError(startLoc)
          << "unknown #fuse.target preset '" << name << "'; presets are "
          << list << " (a custom target sets every field)";
      return {};
    }
    SmallVector<StringRef> missing;
    for (size_t i = 0; i < size_t(Field::Count); ++i)
      if (!seen[i])
        missing.push_back(kFieldNames[i]);
    if (!missing.empty()) {
      auto diag = parser.emitError(startLoc)
                  << "custom #fuse.target '" << name
                  << "' must set every field; missing: ";
      llvm::interleaveComma(missing, diag);
      return {};
    }
  }
  return fields.getChecked([&] { return parser.emitError(startLoc); }, ctx);
}

void TargetAttr::print(AsmPrinter &printer) const {
  TargetFields fields = TargetFields::fromAttr(*this);
  printer << "<\"";
  llvm::printEscapedString(fields.name, printer.getStream());
  printer << '"';
  std::optional<TargetFields> base;
  if (const TargetPreset *preset = lookupTargetPreset(fields.name))
    base = TargetFields::fromPreset(getContext(), *preset);
  for (size_t i = 0; i < size_t(Field::Count); ++i) {
    auto field = Field(i);
    if (base && fields.same(*base, field))
      continue;
    printer << ", " << kFieldNames[i] << " = ";
    switch (field) {
    case Field::Arch:
      printer << '"' << fields.arch << '"';
      break;
    case Field::DramGBps:
      printExactDouble(printer.getStream(), fields.dramGBps);
      break;
    case Field::LaunchUs:
      printExactDouble(printer.getStream(), fields.launchUs);
      break;
    case Field::Peak:
      printer << '{';
      llvm::interleaveComma(fields.peak, printer, [&](NamedAttribute entry) {
        printer << entry.getName().getValue() << " = ";
        if (auto f = dyn_cast<FloatAttr>(entry.getValue()))
          printExactDouble(printer.getStream(), f.getValueAsDouble());
        else
          printer.printAttribute(entry.getValue());
      });
      printer << '}';
      break;
    default:
      printer << fields.intField(field);
      break;
    }
  }
  printer << '>';
}

LogicalResult
TargetAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                   StringRef name, StringRef arch, int64_t numSMs,
                   int64_t sharedMemPerBlock, int64_t sharedMemPerSM,
                   int64_t l2Bytes, int64_t registersPerSM,
                   int64_t maxThreadsPerBlock, llvm::APFloat dramGBps,
                   llvm::APFloat launchMicros, DictionaryAttr peakTflops) {
  if (name.empty())
    return emitError() << "#fuse.target needs a non-empty name";
  if (!llvm::is_contained(kKnownArchs, arch))
    return emitError() << "#fuse.target '" << name << "': unknown arch '"
                       << arch << "'; expected one of "
                       << joinNames(kKnownArchs);
  int64_t ints[] = {numSMs,  sharedMemPerBlock, sharedMemPerSM,
                    l2Bytes, registersPerSM,    maxThreadsPerBlock};
  for (auto [i, value] : llvm::enumerate(ints))
    if (value <= 0)
      return emitError() << "#fuse.target '" << name << "': '"
                         << kFieldNames[i + 1] << "' must be positive, got "
                         << value;
  if (sharedMemPerBlock > sharedMemPerSM)
    return emitError() << "#fuse.target '" << name << "': 'smem_per_block' ("
                       << sharedMemPerBlock << ") exceeds 'smem_per_sm' ("
                       << sharedMemPerSM << ")";
  if (maxThreadsPerBlock > 1024 || maxThreadsPerBlock % 32 != 0)
    return emitError() << "#fuse.target '" << name
                       << "': 'max_threads_per_block' must be a multiple of "
                          "32 and at most 1024, got "
                       << maxThreadsPerBlock;
  double dram = dramGBps.convertToDouble();
  if (!(dram > 0) || !std::isfinite(dram))
    return emitError() << "#fuse.target '" << name
                       << "': 'dram_gbps' must be a positive finite number";
  double launch = launchMicros.convertToDouble();
  if (!(launch >= 0) || !std::isfinite(launch))
    return emitError() << "#fuse.target '" << name
                       << "': 'launch_us' must be a finite number >= 0";
  if (!peakTflops)
    return emitError() << "#fuse.target '" << name
                       << "': 'peak_tflops' is missing";
  for (NamedAttribute entry : peakTflops) {
    if (!llvm::is_contained(kPeakKeys, entry.getName().getValue()))
      return emitError() << "#fuse.target '" << name
                         << "': unknown 'peak_tflops' key '"
                         << entry.getName().getValue() << "'; expected one of "
                         << joinNames(kPeakKeys);
    double value = -1;
    if (auto f = dyn_cast<FloatAttr>(entry.getValue()))
      value = f.getValueAsDouble();
    else if (auto i = dyn_cast<IntegerAttr>(entry.getValue()))
      value = double(i.getInt());
    if (!(value > 0) || !std::isfinite(value))
      return emitError() << "#fuse.target '" << name << "': 'peak_tflops' "
                         << entry.getName().getValue()
                         << " must be a positive number, got "
                         << entry.getValue();
  }
  return success();
}

TargetAttr TargetAttr::getPreset(MLIRContext *context, StringRef name) {
  const TargetPreset *preset = lookupTargetPreset(name);
  if (!preset)
    return {};
  return TargetFields::fromPreset(context, *preset)
      .getChecked([context] { return emitError(UnknownLoc::get(context)); },
                  context);
}

TargetAttr TargetAttr::parseFromOption(MLIRContext *context, StringRef text,
                                       std::string &error) {
  text = text.trim();
  context->getOrLoadDialect<FuseDialect>();
  if (!text.starts_with("#")) {
    if (!isTargetPreset(text, &error))
      return {};
    return getPreset(context, text);
  }
  // Collect the parser's diagnostics instead of printing them.
  std::string diagnostics;
  Attribute attr;
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
      diagnostics += diag.str();
      return success();
    });
    attr = parseAttribute(text, context);
  }
  if (auto target = dyn_cast_or_null<TargetAttr>(attr))
    return target;
  error = "cannot parse target '" + text.str() + "'" +
          (diagnostics.empty() ? std::string(": not a #fuse.target")
                               : ": " + diagnostics);
  return {};
}

ArrayRef<StringRef> TargetAttr::getPresetNames() {
  static const SmallVector<StringRef> names = [] {
    SmallVector<StringRef> out;
    for (const TargetPreset &preset : getTargetPresets())
      out.push_back(preset.name);
    return out;
  }();
  return names;
}

int64_t TargetAttr::getComputeCapability() const {
  StringRef digits = getArch().drop_front(3).take_while(
      [](char c) { return c >= '0' && c <= '9'; });
  int64_t cc = 0;
  digits.getAsInteger(10, cc);
  return cc;
}

double TargetAttr::getDramBytesPerSecond() const {
  return getDramGBps().convertToDouble() * 1e9;
}

double TargetAttr::getLaunchSeconds() const {
  return getLaunchMicros().convertToDouble() * 1e-6;
}

/// The `peak_tflops` key for an element type, or "" when there is none.
static StringRef getPeakKey(Type type) {
  return llvm::TypeSwitch<Type, StringRef>(type)
      .Case<Float64Type>([](auto) { return "f64"; })
      .Case<Float32Type>([](auto) { return "f32"; })
      .Case<FloatTF32Type>([](auto) { return "tf32"; })
      .Case<Float16Type>([](auto) { return "f16"; })
      .Case<BFloat16Type>([](auto) { return "bf16"; })
      .Case<Float8E4M3FNType, Float8E5M2Type, Float8E4M3Type,
            Float8E4M3FNUZType, Float8E5M2FNUZType, Float8E4M3B11FNUZType,
            Float8E3M4Type, Float8E8M0FNUType>([](auto) { return "f8"; })
      .Case<IntegerType>([](IntegerType t) {
        return t.getWidth() <= 8 ? StringRef("i8") : StringRef();
      })
      .Default([](Type) { return StringRef(); });
}

std::optional<double> TargetAttr::getPeakFlops(Type elementType) const {
  StringRef key = getPeakKey(getElementTypeOrSelf(elementType));
  if (key.empty())
    return std::nullopt;
  Attribute value = getPeakTflops().get(key);
  if (auto f = dyn_cast_or_null<FloatAttr>(value))
    return f.getValueAsDouble() * 1e12;
  if (auto i = dyn_cast_or_null<IntegerAttr>(value))
    return double(i.getInt()) * 1e12;
  return std::nullopt;
}

double TargetAttr::getPeakFlopsOrF32(Type elementType) const {
  return getPeakFlops(elementType)
      .value_or(getPeakFlops(Float32Type::get(getContext())).value_or(1e12));
}

double TargetAttr::getRidgeFlopsPerByte(Type elementType) const {
  return getPeakFlopsOrF32(elementType) / getDramBytesPerSecond();
}

bool TargetAttr::supportsElementType(Type elementType,
                                     std::string *reason) const {
  Type type = getElementTypeOrSelf(elementType);
  int64_t needed = 0;
  StringRef what;
  if (isa<Float16Type>(type)) {
    needed = 53;
    what = "f16";
  } else if (isa<BFloat16Type>(type)) {
    needed = 80;
    what = "bf16";
  } else if (isa<FloatTF32Type>(type)) {
    needed = 80;
    what = "tf32";
  } else if (getPeakKey(type) == "f8") {
    needed = 89;
    what = "fp8";
  } else if (auto f = dyn_cast<FloatType>(type); f && f.getWidth() < 8) {
    needed = 100;
    what = "fp4/fp6";
  }
  if (needed == 0 || getComputeCapability() >= needed)
    return true;
  if (reason) {
    llvm::raw_string_ostream os(*reason);
    os << what << " arithmetic (" << type << ") needs sm_" << needed
       << " or newer; target '" << getName() << "' is " << getArch();
  }
  return false;
}

//===----------------------------------------------------------------------===//
// TileMappingAttr
//===----------------------------------------------------------------------===//

LogicalResult
TileMappingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t dim) {
  if (dim < 0)
    return emitError() << "#fuse.tile: the tile dimension must be "
                          "non-negative, got "
                       << dim;
  return success();
}

int64_t TileMappingAttr::getMappingId() const { return getDim(); }

bool TileMappingAttr::isLinearMapping() const { return false; }

int64_t TileMappingAttr::getRelativeIndex() const { return getDim(); }

//===----------------------------------------------------------------------===//
// LoweringConfigAttr
//===----------------------------------------------------------------------===//

ArrayRef<StringRef> LoweringConfigAttr::getSchedules() {
  static const StringRef schedules[] = {"elementwise", "reduction",
                                        "contraction", "convolution",
                                        "depthwise",   "attention"};
  return schedules;
}

ArrayRef<StringRef> LoweringConfigAttr::getInstructions() {
  static const StringRef instructions[] = {"simt", "mma_sync"};
  return instructions;
}

ArrayRef<StringRef> LoweringConfigAttr::getPrecisions() {
  static const StringRef precisions[] = {"fp32", "tf32", "bf16", "fp16"};
  return precisions;
}

Attribute LoweringConfigAttr::parse(AsmParser &parser, Type) {
  SMLoc startLoc = parser.getCurrentLocation();
  std::string schedule, instruction, precision;
  SmallVector<int64_t> tile;
  int64_t threads = 0;
  auto field = [&](StringRef name) -> ParseResult {
    return ParseResult(
        failure(parser.parseKeyword(name) || parser.parseEqual()));
  };
  if (parser.parseLess() || field("schedule") ||
      parser.parseString(&schedule) || parser.parseComma() || field("tile") ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square,
          [&] { return parser.parseInteger(tile.emplace_back()); }) ||
      parser.parseComma() || field("threads") || parser.parseInteger(threads) ||
      parser.parseComma() || field("instruction") ||
      parser.parseString(&instruction) || parser.parseComma() ||
      field("precision") || parser.parseString(&precision))
    return {};
  // The optional fields, in any order, each at most once.
  int64_t stages = 0, splitK = 0, keyChunk = 0;
  CpuScheduleAttr cpu;
  llvm::StringSet<> seen;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return {};
    if (key != "stages" && key != "split_k" && key != "key_chunk" &&
        key != "cpu") {
      parser.emitError(keyLoc) << "unknown #fuse.lowering_config field '" << key
                               << "'; the optional fields are 'stages', "
                                  "'split_k', 'key_chunk' and 'cpu'";
      return {};
    }
    if (!seen.insert(key).second) {
      parser.emitError(keyLoc)
          << "#fuse.lowering_config field '" << key << "' is given twice";
      return {};
    }
    if (parser.parseEqual())
      return {};
    if (key == "cpu") {
      SMLoc cpuLoc = parser.getCurrentLocation();
      Attribute attr;
      if (parser.parseAttribute(attr))
        return {};
      cpu = dyn_cast<CpuScheduleAttr>(attr);
      if (!cpu) {
        parser.emitError(cpuLoc) << "#fuse.lowering_config field 'cpu' must "
                                    "be a #fuse.cpu_schedule, got "
                                 << attr;
        return {};
      }
    } else if (parser.parseInteger(key == "stages"    ? stages
                                   : key == "split_k" ? splitK
                                                      : keyChunk)) {
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(startLoc); },
                    parser.getContext(), schedule, tile, threads, instruction,
                    precision, stages, splitK, keyChunk, cpu);
}

void LoweringConfigAttr::print(AsmPrinter &printer) const {
  printer << "<schedule = \"" << getSchedule() << "\", tile = [";
  llvm::interleaveComma(getTile(), printer);
  printer << "], threads = " << getThreads() << ", instruction = \""
          << getInstruction() << "\", precision = \"" << getPrecision() << '"';
  if (getStages())
    printer << ", stages = " << getStages();
  if (getSplitK())
    printer << ", split_k = " << getSplitK();
  if (getKeyChunk())
    printer << ", key_chunk = " << getKeyChunk();
  if (getCpu())
    printer << ", cpu = " << Attribute(getCpu());
  printer << '>';
}

LogicalResult
LoweringConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           StringRef schedule, ArrayRef<int64_t> tile,
                           int64_t threads, StringRef instruction,
                           StringRef precision, int64_t stages, int64_t splitK,
                           int64_t keyChunk, CpuScheduleAttr) {
  auto oneOf = [&](StringRef field, StringRef value,
                   ArrayRef<StringRef> accepted) -> LogicalResult {
    if (llvm::is_contained(accepted, value))
      return success();
    return emitError() << "#fuse.lowering_config: '" << field << "' must be "
                       << (accepted.size() == 1 ? "" : "one of ") << "'"
                       << llvm::join(accepted, "', '") << "', got '" << value
                       << "'";
  };
  if (failed(oneOf("schedule", schedule, getSchedules())) ||
      failed(oneOf("instruction", instruction, getInstructions())) ||
      failed(oneOf("precision", precision, getPrecisions())))
    return failure();
  if (llvm::any_of(tile, [](int64_t size) { return size < 0; }))
    return emitError() << "#fuse.lowering_config: tile sizes must be "
                          "non-negative (0: the loop stays whole)";
  if (llvm::all_of(tile, [](int64_t size) { return size == 0; }))
    return emitError() << "#fuse.lowering_config: the tile must tile at "
                          "least one loop";
  if (threads < 1 || threads > 1024)
    return emitError() << "#fuse.lowering_config: 'threads' must be in "
                          "[1, 1024], got "
                       << threads;
  if (instruction == "mma_sync") {
    if (schedule != "contraction" && schedule != "convolution" &&
        schedule != "attention")
      return emitError() << "#fuse.lowering_config: instruction = "
                            "\"mma_sync\" needs schedule \"contraction\", "
                            "\"convolution\" or \"attention\", got '"
                         << schedule << "'";
    if (threads % 32 != 0)
      return emitError() << "#fuse.lowering_config: instruction = "
                            "\"mma_sync\" needs whole warps (threads a "
                            "multiple of 32), got "
                         << threads;
  }
  if (precision != "fp32" && instruction != "mma_sync")
    return emitError() << "#fuse.lowering_config: precision = \"" << precision
                       << "\" needs instruction = \"mma_sync\" (SIMT "
                          "kernels compute in fp32)";
  if (stages != 0 && instruction != "mma_sync")
    return emitError() << "#fuse.lowering_config: 'stages' needs "
                          "instruction = \"mma_sync\" (SIMT kernels stage "
                          "no K chunks)";
  if (stages != 0 && (stages < 2 || stages > 4))
    return emitError() << "#fuse.lowering_config: 'stages' must be in "
                          "[2, 4], got "
                       << stages;
  if (splitK != 0 && instruction != "mma_sync")
    return emitError() << "#fuse.lowering_config: 'split_k' needs "
                          "instruction = \"mma_sync\" (only the tensor-core "
                          "schedule splits a reduction over blocks)";
  if (splitK != 0 && (splitK < 2 || splitK > kMaxSplitK))
    return emitError() << "#fuse.lowering_config: 'split_k' must be in "
                          "[2, "
                       << kMaxSplitK << "], got " << splitK;
  if (keyChunk != 0 && schedule != "attention")
    return emitError() << "#fuse.lowering_config: 'key_chunk' needs "
                          "schedule = \"attention\" (only the attention "
                          "tile streams its keys), got '"
                       << schedule << "'";
  if (keyChunk < 0)
    return emitError() << "#fuse.lowering_config: 'key_chunk' must be "
                          "positive, got "
                       << keyChunk;
  return success();
}

//===----------------------------------------------------------------------===//
// CpuTargetAttr, CpuScheduleAttr
//===----------------------------------------------------------------------===//

namespace {
/// A CPU preset: vector bits and registers, L1/L2/L3 bytes.
struct CpuPreset {
  StringRef name;
  int64_t vectorBits, vectorRegisters, l1, l2, l3;
};
constexpr CpuPreset kCpuPresets[] = {
    {"avx512", 512, 32, 32 * 1024, 1024 * 1024, 32 * 1024 * 1024},
    {"avx2", 256, 16, 32 * 1024, 256 * 1024, 8 * 1024 * 1024},
    {"neon", 128, 32, 64 * 1024, 1024 * 1024, 0},
};

/// This machine's data cache of `level` in bytes from sysfs (0 when the
/// system does not say).
int64_t hostCacheBytes(int level) {
  for (int index = 0; index < 8; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    // (sysfs files say they are a page long: read them as streams.)
    auto read = [&](StringRef file) -> std::string {
      auto buffer = llvm::MemoryBuffer::getFileAsStream(dir + "/" + file.str());
      if (!buffer)
        return "";
      return (*buffer)->getBuffer().trim().str();
    };
    std::string levelText = read("level");
    if (levelText.empty())
      break;
    std::string type = read("type");
    if (levelText != std::to_string(level) ||
        (type != "Data" && type != "Unified"))
      continue;
    std::string sizeText = read("size");
    StringRef size = sizeText;
    int64_t scale = 1;
    if (size.consume_back("K"))
      scale = 1024;
    else if (size.consume_back("M"))
      scale = 1024 * 1024;
    int64_t value = 0;
    if (size.getAsInteger(10, value) || value <= 0)
      return 0;
    return value * scale;
  }
  return 0;
}
} // namespace

ArrayRef<StringRef> CpuTargetAttr::getPresetNames() {
  static const StringRef names[] = {"host", "avx512", "avx2", "neon"};
  return names;
}

CpuTargetAttr CpuTargetAttr::getPreset(MLIRContext *context, StringRef name) {
  for (const CpuPreset &preset : kCpuPresets)
    if (preset.name == name)
      return get(context, preset.name, preset.vectorBits,
                 preset.vectorRegisters, preset.l1, preset.l2, preset.l3);
  if (name != "host")
    return {};
  // The widest vector extension LLVM sees on this machine.
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  auto has = [&](StringRef feature) { return features.lookup(feature); };
  int64_t bits = 128, registers = 16;
  if (has("avx512f")) {
    bits = 512;
    registers = 32;
  } else if (has("avx2") || has("avx")) {
    bits = 256;
  } else if (has("neon") || has("sve")) {
    registers = 32;
  }
  const CpuPreset &fallback = kCpuPresets[0];
  auto orDefault = [](int64_t value, int64_t otherwise) {
    return value > 0 ? value : otherwise;
  };
  return get(context, "host", bits, registers,
             orDefault(hostCacheBytes(1), fallback.l1),
             orDefault(hostCacheBytes(2), fallback.l2), hostCacheBytes(3));
}

CpuTargetAttr CpuTargetAttr::parseFromOption(MLIRContext *context,
                                             StringRef text,
                                             std::string &error) {
  text = text.trim();
  if (text.starts_with("#")) {
    // Errors of the attribute's own parser name the problem.
    std::string diagnostics;
    Attribute attr;
    {
      ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
        if (!diagnostics.empty())
          diagnostics += "; ";
        diagnostics += diag.str();
        return success();
      });
      attr = parseAttribute(text, context);
    }
    if (auto target = dyn_cast_or_null<CpuTargetAttr>(attr))
      return target;
    error = "'" + text.str() + "' is not a #fuse.cpu_target" +
            (diagnostics.empty() ? "" : " (" + diagnostics + ")") +
            "; one sets name, vector_bits, vector_registers, l1_bytes, "
            "l2_bytes and l3_bytes";
    return {};
  }
  if (CpuTargetAttr preset = getPreset(context, text))
    return preset;
  llvm::raw_string_ostream os(error);
  os << "unknown CPU target '" << text << "'; presets are ";
  llvm::interleaveComma(getPresetNames(), os);
  os << ", or give a #fuse.cpu_target<...> attribute";
  return {};
}

LogicalResult
CpuTargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringRef name, int64_t vectorBits,
                      int64_t vectorRegisters, int64_t l1, int64_t l2,
                      int64_t l3) {
  if (name.empty())
    return emitError() << "#fuse.cpu_target: 'name' must not be empty";
  if (vectorBits != 128 && vectorBits != 256 && vectorBits != 512)
    return emitError() << "#fuse.cpu_target: 'vector_bits' must be 128, "
                          "256 or 512, got "
                       << vectorBits;
  if (vectorRegisters < 8 || vectorRegisters > 64)
    return emitError() << "#fuse.cpu_target: 'vector_registers' must be in "
                          "[8, 64], got "
                       << vectorRegisters;
  if (l1 < 1024 || l2 < l1 || l3 < 0)
    return emitError() << "#fuse.cpu_target: cache sizes must be "
                          "l1_bytes >= 1024, l2_bytes >= l1_bytes and "
                          "l3_bytes >= 0, got "
                       << l1 << ", " << l2 << " and " << l3;
  return success();
}

ArrayRef<StringRef> CpuScheduleAttr::getKinds() {
  static const StringRef kinds[] = {"register_tiles", "channel_tiles", "loops"};
  return kinds;
}

LogicalResult
CpuScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        StringRef kind, int64_t mr, int64_t nr, int64_t kc,
                        int64_t kBlock) {
  if (!llvm::is_contained(getKinds(), kind))
    return emitError() << "#fuse.cpu_schedule: 'kind' must be one of '"
                       << llvm::join(getKinds(), "', '") << "', got '" << kind
                       << "'";
  if (kind == "loops") {
    if (mr || nr || kc || kBlock)
      return emitError() << "#fuse.cpu_schedule: kind \"loops\" has no "
                            "register tile (mr, nr, kc and k_block 0)";
    return success();
  }
  if (mr < 1 || nr < 1 || kc < 1 || kBlock < 0)
    return emitError() << "#fuse.cpu_schedule: 'mr', 'nr' and 'kc' must be "
                          "at least 1 and 'k_block' at least 0, got "
                       << mr << ", " << nr << ", " << kc << " and " << kBlock;
  if (kBlock % kc != 0)
    return emitError() << "#fuse.cpu_schedule: 'k_block' (" << kBlock
                       << ") must be a multiple of 'kc' (" << kc << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// The target of a module
//===----------------------------------------------------------------------===//

bool mlir::fuse::isTargetPreset(StringRef name, std::string *why) {
  if (llvm::is_contained(TargetAttr::getPresetNames(), name))
    return true;
  if (why) {
    llvm::raw_string_ostream os(*why);
    os << "unknown target '" << name << "'; presets are ";
    llvm::interleaveComma(TargetAttr::getPresetNames(), os);
    os << ", or give a #fuse.target<...> attribute";
  }
  return false;
}

TargetAttr mlir::fuse::getModuleTarget(Operation *op) {
  ModuleOp module = dyn_cast<ModuleOp>(op);
  if (!module)
    module = op->getParentOfType<ModuleOp>();
  if (!module)
    return {};
  return FuseDialect::TargetAttrHelper(op->getContext()).getAttr(module);
}

InFlightDiagnostic mlir::fuse::emitOptionError(MLIRContext *context,
                                               StringRef pass) {
  InFlightDiagnostic diag = emitError(UnknownLoc::get(context));
  diag << pass << ": ";
  return diag;
}

FailureOr<TargetAttr> mlir::fuse::parseTargetOption(MLIRContext *context,
                                                    StringRef option,
                                                    StringRef pass) {
  if (option.trim().empty())
    return TargetAttr();
  std::string error;
  TargetAttr target = TargetAttr::parseFromOption(context, option, error);
  if (!target)
    return emitOptionError(context, pass) << "option 'target': " << error;
  return target;
}

FailureOr<CpuTargetAttr> mlir::fuse::parseCpuTargetOption(MLIRContext *context,
                                                          StringRef option,
                                                          StringRef pass) {
  if (option.trim().empty())
    return CpuTargetAttr();
  std::string error;
  CpuTargetAttr target = CpuTargetAttr::parseFromOption(context, option, error);
  if (!target)
    return emitOptionError(context, pass) << "option 'cpu-target': " << error;
  return target;
}

FailureOr<TargetAttr>
mlir::fuse::resolveTarget(Operation *op, TargetAttr requested, StringRef pass) {
  TargetAttr carried = getModuleTarget(op);
  if (carried && requested && carried != requested)
    return emitOptionError(op->getContext(), pass)
           << "target=" << requested
           << " differs from the module's fuse.target = " << carried
           << " (the IR was fused for that target; drop the option or "
              "re-run the fusion for the other one)";
  if (carried)
    return carried;
  if (requested)
    return requested;
  return TargetAttr::getPreset(op->getContext(), kDefaultTargetPreset);
}
