//===- ModelFile.cpp - a compiled model's file, checked before it is mapped
//===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "ModelFile.h"

#include "fuse-c/ModelAbi.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <new>

namespace fuse::runtime {

FuseStatusImpl outOfMemoryStatus{FUSE_STATUS_OUT_OF_MEMORY, "out of memory"};

FuseStatus makeStatus(FuseStatusCode code, const char *format, ...) {
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

/// `text` with its %XX escapes decoded; false on a bad escape.
bool decodeName(const std::string &text, std::string &name) {
  name.clear();
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      name += text[i];
      continue;
    }
    int high = i + 2 < text.size() ? hexValue(text[i + 1]) : -1;
    int low = i + 2 < text.size() ? hexValue(text[i + 2]) : -1;
    if (high < 0 || low < 0)
      return false;
    name += char(high * 16 + low);
    i += 2;
  }
  return true;
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

} // namespace

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
      if (!decodeName(fields[1], port.name))
        return where + "bad %-escape in the name '" + fields[1] + "'";
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
    } else if (key == "kernel" && fields.size() == 4) {
      if (signature.kernels.size() >= kMaxPorts)
        return where + "more than " + std::to_string(kMaxPorts) + " kernels";
      Kernel kernel;
      if (!decodeName(fields[1], kernel.name) || kernel.name.empty() ||
          (fields[2] != "-" && !decodeName(fields[2], kernel.rule)) ||
          (fields[3] != "-" && !decodeName(fields[3], kernel.nodes)) ||
          kernel.name.find('\0') != std::string::npos ||
          kernel.rule.find('\0') != std::string::npos ||
          kernel.nodes.find('\0') != std::string::npos)
        return where + "a malformed kernel line";
      signature.kernels.push_back(std::move(kernel));
    } else if (line == "profile 1" && !signature.profiled) {
      signature.profiled = true;
    } else if (line == "parallel 1" && !signature.parallel) {
      signature.parallel = true;
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

namespace {

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

} // namespace

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

} // namespace fuse::runtime
