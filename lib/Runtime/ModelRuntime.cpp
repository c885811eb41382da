//===- ModelRuntime.cpp - loading and running compiled models -------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
// The C API of include/fuse-c/Runtime.h. A compiled model is checked from
// its file before the dynamic loader maps it: an ELF shared library for
// this machine whose dynamic symbol table defines the symbols of
// include/fuse-c/ModelAbi.h, of this ABI version, with a signature that
// parses. Every failure is a status with a message; nothing exits.
//
//===----------------------------------------------------------------------===//

#include "fuse-c/ModelAbi.h"
#include "fuse-c/Runtime.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

struct FuseStatusImpl {
  FuseStatusCode code;
  std::string message;
};

namespace {

/// The status returned when allocating a status fails; never freed.
FuseStatusImpl outOfMemoryStatus{FUSE_STATUS_OUT_OF_MEMORY, "out of memory"};

__attribute__((format(printf, 2, 3))) FuseStatus makeStatus(FuseStatusCode code,
                                                            const char *format,
                                                            ...) {
  va_list args;
  va_start(args, format);
  char buffer[1024];
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  FuseStatusImpl *status = new (std::nothrow) FuseStatusImpl;
  if (!status)
    return &outOfMemoryStatus;
  status->code = code;
  try {
    status->message = buffer;
  } catch (...) {
    delete status;
    return &outOfMemoryStatus;
  }
  return status;
}

#if defined(__x86_64__)
constexpr uint16_t kHostMachine = EM_X86_64;
constexpr const char *kHostMachineName = "x86-64";
#elif defined(__aarch64__)
constexpr uint16_t kHostMachine = EM_AARCH64;
constexpr const char *kHostMachineName = "AArch64";
#else
#error "fuse's runtime knows x86-64 and AArch64 hosts"
#endif

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

struct Signature {
  std::string target;
  uint64_t workspace = 0;
  bool reentrant = false;
  std::vector<Port> inputs, outputs;
};

using RunFn = int32_t (*)(void *const *, void *const *, void *);

} // namespace

struct FuseModel {
  void *handle = nullptr;
  RunFn run = nullptr;
  Signature signature;
  std::mutex serial;
};

namespace {

FuseDType parseDType(const std::string &text) {
  static const struct {
    const char *name;
    FuseDType dtype;
  } table[] = {{"f16", FUSE_DTYPE_F16},   {"bf16", FUSE_DTYPE_BF16},
               {"f32", FUSE_DTYPE_F32},   {"f64", FUSE_DTYPE_F64},
               {"bool", FUSE_DTYPE_BOOL}, {"i8", FUSE_DTYPE_I8},
               {"i16", FUSE_DTYPE_I16},   {"i32", FUSE_DTYPE_I32},
               {"i64", FUSE_DTYPE_I64}};
  for (const auto &entry : table)
    if (text == entry.name)
      return entry.dtype;
  return FUSE_DTYPE_INVALID;
}

int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/// Splits `line` at single spaces.
std::vector<std::string> words(const std::string &line) {
  std::vector<std::string> list;
  size_t start = 0;
  while (start <= line.size()) {
    size_t end = line.find(' ', start);
    if (end == std::string::npos)
      end = line.size();
    list.push_back(line.substr(start, end - start));
    start = end + 1;
  }
  return list;
}

bool parseUnsigned(const std::string &text, uint64_t limit, uint64_t *value) {
  if (text.empty() || text.size() > 20)
    return false;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    if (v > (limit - (c - '0')) / 10)
      return false;
    v = v * 10 + (c - '0');
  }
  *value = v;
  return true;
}

/// Parses the signature text (ModelAbi.h) into `signature`; on failure
/// returns why.
std::string parseSignature(const std::string &text, Signature &signature) {
  size_t start = 0;
  int lineNumber = 0;
  bool sawHeader = false, sawTarget = false, sawWorkspace = false,
       sawReentrant = false;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      return "line " + std::to_string(lineNumber + 1) + " does not end";
    std::string line = text.substr(start, end - start);
    start = end + 1;
    ++lineNumber;
    std::string where = "line " + std::to_string(lineNumber) + ": ";
    std::vector<std::string> fields = words(line);
    const std::string &key = fields[0];
    if (!sawHeader) {
      if (key != "fuse-model" || fields.size() != 2)
        return where + "expected 'fuse-model <version>'";
      if (fields[1] != std::to_string(FUSE_MODEL_ABI_VERSION))
        return where + "signature version " + fields[1] + ", expected " +
               std::to_string(FUSE_MODEL_ABI_VERSION);
      sawHeader = true;
      continue;
    }
    if (key == "target" && fields.size() == 2 && !sawTarget) {
      signature.target = fields[1];
      sawTarget = true;
    } else if (key == "workspace" && fields.size() == 2 && !sawWorkspace) {
      if (!parseUnsigned(fields[1], uint64_t(1) << 48, &signature.workspace))
        return where + "bad workspace size '" + fields[1] + "'";
      sawWorkspace = true;
    } else if (key == "reentrant" && fields.size() == 2 && !sawReentrant &&
               (fields[1] == "0" || fields[1] == "1")) {
      signature.reentrant = fields[1] == "1";
      sawReentrant = true;
    } else if ((key == "input" || key == "output") && fields.size() == 4) {
      std::vector<Port> &list =
          key == "input" ? signature.inputs : signature.outputs;
      if (list.size() >= kMaxPorts)
        return where + "more than " + std::to_string(kMaxPorts) + " " + key +
               "s";
      Port port;
      const std::string &name = fields[1];
      for (size_t i = 0; i < name.size(); ++i) {
        if (name[i] != '%') {
          port.name += name[i];
          continue;
        }
        int high = i + 2 < name.size() ? hexValue(name[i + 1]) : -1;
        int low = i + 2 < name.size() ? hexValue(name[i + 2]) : -1;
        if (high < 0 || low < 0)
          return where + "bad %-escape in the name '" + name + "'";
        port.name += char(high * 16 + low);
        i += 2;
      }
      if (port.name.empty() || port.name.find('\0') != std::string::npos)
        return where + "the " + key + " has no usable name";
      port.dtype = parseDType(fields[2]);
      if (port.dtype == FUSE_DTYPE_INVALID)
        return where + "unknown element type '" + fields[2] + "'";
      if (fields[3] != "scalar") {
        std::vector<std::string> dims;
        size_t at = 0;
        while (true) {
          size_t x = fields[3].find('x', at);
          dims.push_back(fields[3].substr(
              at, x == std::string::npos ? std::string::npos : x - at));
          if (x == std::string::npos)
            break;
          at = x + 1;
        }
        if ((int32_t)dims.size() > kMaxRank)
          return where + "rank above " + std::to_string(kMaxRank);
        for (const std::string &dim : dims) {
          uint64_t size;
          if (!parseUnsigned(dim, uint64_t(kMaxElements), &size))
            return where + "bad shape '" + fields[3] + "'";
          port.dims.push_back(int64_t(size));
          if (size != 0 && port.elements > kMaxElements / int64_t(size))
            return where + "the " + key + " has too many elements";
          port.elements *= int64_t(size);
        }
      }
      port.bytes = size_t(port.elements) * fuseDTypeSize(port.dtype);
      for (const Port &other : signature.inputs)
        if (other.name == port.name)
          return where + "the name '" + port.name + "' is used twice";
      for (const Port &other : signature.outputs)
        if (other.name == port.name)
          return where + "the name '" + port.name + "' is used twice";
      list.push_back(std::move(port));
    } else {
      return where + "unexpected '" + line.substr(0, 64) + "'";
    }
  }
  if (!sawHeader || !sawTarget || !sawWorkspace || !sawReentrant)
    return "the target, workspace or reentrant line is missing";
  if (signature.outputs.empty())
    return "the model has no output";
  return "";
}

/// Reads `bytes` at `offset` of `fd`; false when the file is shorter.
bool readAt(int fd, uint64_t offset, void *out, size_t bytes) {
  char *to = static_cast<char *>(out);
  while (bytes > 0) {
    ssize_t got = pread(fd, to, bytes, off_t(offset));
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return false;
    to += got;
    offset += uint64_t(got);
    bytes -= size_t(got);
  }
  return true;
}

/// What the file says before anything of it is mapped: the ABI version and
/// the signature text (ModelAbi.h), from the dynamic symbol table.
struct FileCheck {
  int32_t version = 0;
  std::string signature;
  bool hasRun = false;
};

FuseStatus checkFile(const char *path, FileCheck &check) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return makeStatus(FUSE_STATUS_NOT_FOUND, "cannot open the model '%s': %s",
                      path, std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  struct stat info;
  if (fstat(fd, &info) != 0)
    return makeStatus(FUSE_STATUS_NOT_FOUND, "cannot read the model '%s': %s",
                      path, std::strerror(errno));
  if (!S_ISREG(info.st_mode))
    return makeStatus(FUSE_STATUS_INVALID_MODEL,
                      "the model '%s' is not a regular file", path);
  uint64_t size = uint64_t(info.st_size);
  auto invalid = [&](const char *why) {
    return makeStatus(FUSE_STATUS_INVALID_MODEL,
                      "'%s' is not a compiled fuse model: %s", path, why);
  };
  Elf64_Ehdr header;
  if (size < sizeof(header) || !readAt(fd, 0, &header, sizeof(header)))
    return invalid("too short for an ELF file");
  if (std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return invalid("not an ELF file");
  if (header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != ELFDATA2LSB)
    return invalid("not a 64-bit little-endian ELF file");
  if (header.e_machine != kHostMachine)
    return makeStatus(FUSE_STATUS_INVALID_MODEL,
                      "the model '%s' is built for another machine (ELF "
                      "machine %u; this runtime runs %s)",
                      path, unsigned(header.e_machine), kHostMachineName);
  if (header.e_type != ET_DYN)
    return invalid("not a shared library");
  if (header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shnum == 0 ||
      header.e_shoff > size ||
      uint64_t(header.e_shnum) * sizeof(Elf64_Shdr) > size - header.e_shoff)
    return invalid("its section headers are missing or truncated");
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  if (!readAt(fd, header.e_shoff, sections.data(),
              sections.size() * sizeof(Elf64_Shdr)))
    return invalid("its section headers are truncated");
  auto sectionBytes = [&](const Elf64_Shdr &section, uint64_t limit,
                          std::string &out) {
    if (section.sh_type == SHT_NOBITS || section.sh_offset > size ||
        section.sh_size > size - section.sh_offset || section.sh_size > limit)
      return false;
    out.resize(section.sh_size);
    return readAt(fd, section.sh_offset, out.data(), out.size());
  };
  const Elf64_Shdr *dynsym = nullptr;
  for (const Elf64_Shdr &section : sections)
    if (section.sh_type == SHT_DYNSYM)
      dynsym = &section;
  if (!dynsym || dynsym->sh_link >= sections.size() ||
      dynsym->sh_entsize != sizeof(Elf64_Sym))
    return invalid("it has no dynamic symbol table");
  std::string symbolBytes, names;
  if (!sectionBytes(*dynsym, uint64_t(256) << 20, symbolBytes) ||
      !sectionBytes(sections[dynsym->sh_link], uint64_t(256) << 20, names))
    return invalid("its dynamic symbol table is truncated");
  size_t count = symbolBytes.size() / sizeof(Elf64_Sym);
  // The bytes of a defined data symbol, from the section holding it.
  auto symbolData = [&](const Elf64_Sym &symbol, uint64_t limit,
                        std::string &out) {
    if (symbol.st_shndx == SHN_UNDEF || symbol.st_shndx >= sections.size() ||
        symbol.st_size > limit)
      return false;
    const Elf64_Shdr &section = sections[symbol.st_shndx];
    if (section.sh_type == SHT_NOBITS || symbol.st_value < section.sh_addr ||
        symbol.st_value - section.sh_addr > section.sh_size ||
        symbol.st_size > section.sh_size - (symbol.st_value - section.sh_addr))
      return false;
    uint64_t offset = section.sh_offset + (symbol.st_value - section.sh_addr);
    if (offset > size || symbol.st_size > size - offset)
      return false;
    out.resize(symbol.st_size);
    return readAt(fd, offset, out.data(), out.size());
  };
  bool sawVersion = false, sawSignature = false;
  for (size_t i = 0; i < count; ++i) {
    Elf64_Sym symbol;
    std::memcpy(&symbol, symbolBytes.data() + i * sizeof(Elf64_Sym),
                sizeof(symbol));
    if (symbol.st_name >= names.size())
      continue;
    const char *name = names.c_str() + symbol.st_name;
    size_t room = names.size() - symbol.st_name;
    if (strnlen(name, room) == room)
      continue;
    std::string data;
    if (std::strcmp(name, FUSE_MODEL_ABI_VERSION_SYMBOL) == 0) {
      if (!symbolData(symbol, 4, data) || data.size() != 4)
        return invalid("its ABI version symbol is malformed");
      std::memcpy(&check.version, data.data(), 4);
      sawVersion = true;
    } else if (std::strcmp(name, FUSE_MODEL_SIGNATURE_SYMBOL) == 0) {
      if (!symbolData(symbol, kMaxSignatureBytes, data) || data.empty() ||
          data.back() != '\0')
        return invalid("its signature symbol is malformed");
      data.pop_back();
      if (data.find('\0') != std::string::npos)
        return invalid("its signature symbol is malformed");
      check.signature = std::move(data);
      sawSignature = true;
    } else if (std::strcmp(name, FUSE_MODEL_RUN_SYMBOL) == 0) {
      check.hasRun = symbol.st_shndx != SHN_UNDEF &&
                     ELF64_ST_TYPE(symbol.st_info) == STT_FUNC;
    }
  }
  if (!sawVersion)
    return invalid("it exports no " FUSE_MODEL_ABI_VERSION_SYMBOL);
  if (check.version != FUSE_MODEL_ABI_VERSION)
    return makeStatus(FUSE_STATUS_VERSION_MISMATCH,
                      "the model '%s' has ABI version %d; this runtime runs "
                      "version %d (compile it again with this fuse)",
                      path, int(check.version), FUSE_MODEL_ABI_VERSION);
  if (!sawSignature)
    return invalid("it exports no " FUSE_MODEL_SIGNATURE_SYMBOL);
  if (!check.hasRun)
    return invalid("it defines no " FUSE_MODEL_RUN_SYMBOL " function");
  return nullptr;
}

std::string shapeText(const int64_t *dims, int32_t rank) {
  if (rank == 0)
    return "scalar";
  std::string text;
  for (int32_t d = 0; d < rank; ++d) {
    if (d)
      text += 'x';
    text += std::to_string(dims[d]);
  }
  return text;
}

FuseStatus describe(const FuseModel *model, int32_t index, bool input,
                    FuseTensorInfo *info) {
  if (!model || !info)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModel%s: the model and info must not be NULL",
                      input ? "Input" : "Output");
  const std::vector<Port> &list =
      input ? model->signature.inputs : model->signature.outputs;
  if (index < 0 || size_t(index) >= list.size())
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "%s %d: the model has %zu %ss",
                      input ? "input" : "output", int(index), list.size(),
                      input ? "input" : "output");
  const Port &port = list[size_t(index)];
  info->name = port.name.c_str();
  info->dtype = port.dtype;
  info->rank = int32_t(port.dims.size());
  info->dims = port.dims.data();
  info->num_elements = port.elements;
  info->bytes = port.bytes;
  return nullptr;
}

/// Checks one caller buffer against the model's port.
FuseStatus checkTensor(const FuseTensor &tensor, const Port &port,
                       const char *role, int32_t index) {
  if (tensor.dtype != port.dtype)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "%s %d ('%s'): element type %s given, the model's is %s",
                      role, int(index), port.name.c_str(),
                      fuseDTypeName(tensor.dtype), fuseDTypeName(port.dtype));
  bool sameShape = tensor.rank == int32_t(port.dims.size()) &&
                   (tensor.rank == 0 || tensor.dims);
  for (int32_t d = 0; sameShape && d < tensor.rank; ++d)
    sameShape = tensor.dims[d] == port.dims[size_t(d)];
  if (!sameShape) {
    std::string given =
        tensor.rank < 0 || tensor.rank > kMaxRank ||
                (tensor.rank && !tensor.dims)
            ? "rank " + std::to_string(tensor.rank) +
                  (tensor.rank > 0 && !tensor.dims ? " without dims" : "")
            : shapeText(tensor.dims, tensor.rank);
    return makeStatus(
        FUSE_STATUS_INVALID_ARGUMENT,
        "%s %d ('%s'): shape %s given, the model's is %s", role, int(index),
        port.name.c_str(), given.c_str(),
        shapeText(port.dims.data(), int32_t(port.dims.size())).c_str());
  }
  if (!tensor.data && port.bytes > 0)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "%s %d ('%s'): the data pointer is NULL", role,
                      int(index), port.name.c_str());
  size_t align = fuseDTypeSize(port.dtype);
  if (reinterpret_cast<uintptr_t>(tensor.data) % align != 0)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "%s %d ('%s'): the data pointer %p is not aligned to "
                      "its element size (%zu bytes)",
                      role, int(index), port.name.c_str(), tensor.data, align);
  return nullptr;
}

bool overlaps(const void *a, size_t aBytes, const void *b, size_t bBytes) {
  if (aBytes == 0 || bBytes == 0)
    return false;
  uintptr_t x = reinterpret_cast<uintptr_t>(a);
  uintptr_t y = reinterpret_cast<uintptr_t>(b);
  return x < y + bBytes && y < x + aBytes;
}

} // namespace

extern "C" {

FuseStatusCode fuseStatusCode(FuseStatus status) {
  return status ? status->code : FUSE_STATUS_OK;
}

const char *fuseStatusMessage(FuseStatus status) {
  return status ? status->message.c_str() : "";
}

void fuseStatusFree(FuseStatus status) {
  if (status != &outOfMemoryStatus)
    delete status;
}

const char *fuseStatusCodeName(FuseStatusCode code) {
  switch (code) {
  case FUSE_STATUS_OK:
    return "ok";
  case FUSE_STATUS_INVALID_ARGUMENT:
    return "invalid argument";
  case FUSE_STATUS_NOT_FOUND:
    return "not found";
  case FUSE_STATUS_INVALID_MODEL:
    return "invalid model";
  case FUSE_STATUS_VERSION_MISMATCH:
    return "version mismatch";
  case FUSE_STATUS_UNAVAILABLE:
    return "unavailable";
  case FUSE_STATUS_OUT_OF_MEMORY:
    return "out of memory";
  case FUSE_STATUS_INTERNAL:
    return "internal";
  }
  return "unknown";
}

size_t fuseDTypeSize(FuseDType dtype) {
  switch (dtype) {
  case FUSE_DTYPE_BOOL:
  case FUSE_DTYPE_I8:
    return 1;
  case FUSE_DTYPE_F16:
  case FUSE_DTYPE_BF16:
  case FUSE_DTYPE_I16:
    return 2;
  case FUSE_DTYPE_F32:
  case FUSE_DTYPE_I32:
    return 4;
  case FUSE_DTYPE_F64:
  case FUSE_DTYPE_I64:
    return 8;
  case FUSE_DTYPE_INVALID:
    break;
  }
  return 0;
}

const char *fuseDTypeName(FuseDType dtype) {
  switch (dtype) {
  case FUSE_DTYPE_F16:
    return "f16";
  case FUSE_DTYPE_BF16:
    return "bf16";
  case FUSE_DTYPE_F32:
    return "f32";
  case FUSE_DTYPE_F64:
    return "f64";
  case FUSE_DTYPE_BOOL:
    return "bool";
  case FUSE_DTYPE_I8:
    return "i8";
  case FUSE_DTYPE_I16:
    return "i16";
  case FUSE_DTYPE_I32:
    return "i32";
  case FUSE_DTYPE_I64:
    return "i64";
  case FUSE_DTYPE_INVALID:
    break;
  }
  return "invalid";
}

FuseStatus fuseModelLoad(const char *path, FuseModel **model) {
  if (!model)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelLoad: the model pointer must not be NULL");
  *model = nullptr;
  if (!path || !*path)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelLoad: no path given");
  FileCheck check;
  if (FuseStatus status = checkFile(path, check))
    return status;
  std::unique_ptr<FuseModel> loaded(new (std::nothrow) FuseModel);
  if (!loaded)
    return &outOfMemoryStatus;
  std::string error;
  try {
    error = parseSignature(check.signature, loaded->signature);
  } catch (...) {
    return &outOfMemoryStatus;
  }
  if (!error.empty())
    return makeStatus(FUSE_STATUS_INVALID_MODEL,
                      "the model '%s' has a malformed signature: %s", path,
                      error.c_str());
  if (loaded->signature.target != "cpu")
    return makeStatus(FUSE_STATUS_UNAVAILABLE,
                      "the model '%s' is compiled for '%s'; this runtime runs "
                      "models compiled for the host (--target=cpu)",
                      path, loaded->signature.target.c_str());
  // dlopen takes a path with a slash as a file, without one as a library
  // to search for: the model is always the file.
  std::string file = std::strchr(path, '/') ? path : std::string("./") + path;
  loaded->handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!loaded->handle) {
    const char *why = dlerror();
    return makeStatus(FUSE_STATUS_INVALID_MODEL,
                      "the dynamic loader refused the model '%s': %s", path,
                      why ? why : "no reason given");
  }
  auto *version = static_cast<const int32_t *>(
      dlsym(loaded->handle, FUSE_MODEL_ABI_VERSION_SYMBOL));
  auto *signature = static_cast<const char *>(
      dlsym(loaded->handle, FUSE_MODEL_SIGNATURE_SYMBOL));
  loaded->run =
      reinterpret_cast<RunFn>(dlsym(loaded->handle, FUSE_MODEL_RUN_SYMBOL));
  if (!version || !signature || !loaded->run ||
      *version != FUSE_MODEL_ABI_VERSION || check.signature != signature) {
    dlclose(loaded->handle);
    return makeStatus(FUSE_STATUS_INVALID_MODEL,
                      "the model '%s' changed while it was loaded, or its "
                      "symbols do not match its file",
                      path);
  }
  *model = loaded.release();
  return nullptr;
}

void fuseModelRelease(FuseModel *model) {
  if (!model)
    return;
  if (model->handle)
    dlclose(model->handle);
  delete model;
}

const char *fuseModelTarget(const FuseModel *model) {
  return model ? model->signature.target.c_str() : "";
}

int32_t fuseModelNumInputs(const FuseModel *model) {
  return model ? int32_t(model->signature.inputs.size()) : 0;
}

int32_t fuseModelNumOutputs(const FuseModel *model) {
  return model ? int32_t(model->signature.outputs.size()) : 0;
}

FuseStatus fuseModelInput(const FuseModel *model, int32_t index,
                          FuseTensorInfo *info) {
  return describe(model, index, /*input=*/true, info);
}

FuseStatus fuseModelOutput(const FuseModel *model, int32_t index,
                           FuseTensorInfo *info) {
  return describe(model, index, /*input=*/false, info);
}

size_t fuseModelWorkspaceSize(const FuseModel *model) {
  return model ? size_t(model->signature.workspace) : 0;
}

int fuseModelIsReentrant(const FuseModel *model) {
  return model && model->signature.reentrant ? 1 : 0;
}

FuseStatus fuseModelRun(FuseModel *model, const FuseTensor *inputs,
                        int32_t numInputs, const FuseTensor *outputs,
                        int32_t numOutputs, const FuseRunOptions *options) {
  if (!model)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: the model must not be NULL");
  const Signature &signature = model->signature;
  FuseRunOptions given = {sizeof(FuseRunOptions), FUSE_MEMORY_HOST, nullptr,
                          nullptr, 0};
  if (options) {
    if (options->struct_size < sizeof(FuseRunOptions))
      return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                        "fuseModelRun: options.struct_size is %zu; set it to "
                        "sizeof(FuseRunOptions) (%zu)",
                        options->struct_size, sizeof(FuseRunOptions));
    given = *options;
  }
  if (given.memory != FUSE_MEMORY_HOST)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: a %s model runs on host memory "
                      "(FUSE_MEMORY_HOST); memory kind %d given",
                      signature.target.c_str(), int(given.memory));
  if (given.stream)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: a %s model takes no stream",
                      signature.target.c_str());
  if (numInputs != int32_t(signature.inputs.size()) ||
      numOutputs != int32_t(signature.outputs.size()))
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: %d inputs and %d outputs given, the "
                      "model has %zu and %zu",
                      int(numInputs), int(numOutputs), signature.inputs.size(),
                      signature.outputs.size());
  if ((numInputs > 0 && !inputs) || !outputs)
    return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                      "fuseModelRun: the %s array is NULL",
                      !outputs ? "outputs" : "inputs");
  for (int32_t i = 0; i < numInputs; ++i)
    if (FuseStatus status =
            checkTensor(inputs[i], signature.inputs[size_t(i)], "input", i))
      return status;
  for (int32_t i = 0; i < numOutputs; ++i) {
    const Port &port = signature.outputs[size_t(i)];
    if (FuseStatus status = checkTensor(outputs[i], port, "output", i))
      return status;
    for (int32_t j = 0; j < numInputs; ++j)
      if (overlaps(outputs[i].data, port.bytes, inputs[j].data,
                   signature.inputs[size_t(j)].bytes))
        return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                          "output %d ('%s') overlaps input %d ('%s')", int(i),
                          port.name.c_str(), int(j),
                          signature.inputs[size_t(j)].name.c_str());
    for (int32_t j = 0; j < i; ++j)
      if (overlaps(outputs[i].data, port.bytes, outputs[j].data,
                   signature.outputs[size_t(j)].bytes))
        return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                          "output %d ('%s') overlaps output %d ('%s')", int(i),
                          port.name.c_str(), int(j),
                          signature.outputs[size_t(j)].name.c_str());
  }

  // The workspace: the caller's, or one for this call.
  void *workspace = given.workspace;
  struct Owned {
    void *memory = nullptr;
    ~Owned() { std::free(memory); }
  } owned;
  if (workspace) {
    if (given.workspace_bytes < signature.workspace)
      return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                        "fuseModelRun: the workspace has %zu bytes, the model "
                        "needs %llu",
                        given.workspace_bytes,
                        (unsigned long long)signature.workspace);
    if (reinterpret_cast<uintptr_t>(workspace) % FUSE_WORKSPACE_ALIGNMENT)
      return makeStatus(FUSE_STATUS_INVALID_ARGUMENT,
                        "fuseModelRun: the workspace %p is not aligned to %d "
                        "bytes",
                        workspace, FUSE_WORKSPACE_ALIGNMENT);
  } else if (signature.workspace > 0) {
    size_t bytes =
        (size_t(signature.workspace) + FUSE_WORKSPACE_ALIGNMENT - 1) /
        FUSE_WORKSPACE_ALIGNMENT * FUSE_WORKSPACE_ALIGNMENT;
    owned.memory = std::aligned_alloc(FUSE_WORKSPACE_ALIGNMENT, bytes);
    if (!owned.memory)
      return makeStatus(FUSE_STATUS_OUT_OF_MEMORY,
                        "fuseModelRun: cannot allocate the %llu-byte "
                        "workspace",
                        (unsigned long long)signature.workspace);
    workspace = owned.memory;
  }

  std::vector<void *> in, out;
  try {
    in.reserve(size_t(numInputs));
    out.reserve(size_t(numOutputs));
  } catch (...) {
    return &outOfMemoryStatus;
  }
  for (int32_t i = 0; i < numInputs; ++i)
    in.push_back(inputs[i].data);
  for (int32_t i = 0; i < numOutputs; ++i)
    out.push_back(outputs[i].data);
  int32_t result;
  if (signature.reentrant) {
    result = model->run(in.data(), out.data(), workspace);
  } else {
    std::lock_guard<std::mutex> lock(model->serial);
    result = model->run(in.data(), out.data(), workspace);
  }
  if (result != 0)
    return makeStatus(FUSE_STATUS_INTERNAL,
                      "the model's code failed (status %d)", int(result));
  return nullptr;
}

} // extern "C"
