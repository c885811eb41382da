//===- Npy.cpp - NumPy .npy / .npz files for the runtime tools ------------===//
//
// Part of fuse, an MLIR-based operator-fusion compiler.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include <sys/stat.h>
#include <zlib.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace fuse::npy;

namespace {

constexpr uint64_t kMaxFileBytes = uint64_t(4) << 30;

std::string readFile(const std::string &path, std::string &bytes) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0)
    return "cannot read '" + path + "': " + std::strerror(errno);
  if (!S_ISREG(info.st_mode))
    return "'" + path + "' is not a regular file";
  if (uint64_t(info.st_size) > kMaxFileBytes)
    return "'" + path + "' is larger than 4 GiB";
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return "cannot read '" + path + "'";
  bytes.resize(size_t(info.st_size));
  in.read(bytes.data(), std::streamsize(bytes.size()));
  if (size_t(in.gcount()) != bytes.size())
    return "cannot read all of '" + path + "'";
  return "";
}

uint64_t little(const std::string &bytes, size_t at, int width) {
  uint64_t value = 0;
  for (int i = width - 1; i >= 0; --i)
    value = (value << 8) | uint8_t(bytes[at + size_t(i)]);
  return value;
}

size_t descrSize(const std::string &descr) {
  if (descr.size() < 3)
    return 0;
  char kind = descr[1];
  if (!std::strchr("fiub", kind))
    return 0;
  std::string digits = descr.substr(2);
  if (digits != "1" && digits != "2" && digits != "4" && digits != "8")
    return 0;
  return size_t(digits[0] - '0');
}

/// The value of `key` in a .npy header dict ("'descr': '<f4', ...").
std::string headerValue(const std::string &header, const std::string &key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos)
    return "";
  at = header.find(':', at);
  if (at == std::string::npos)
    return "";
  ++at;
  while (at < header.size() && header[at] == ' ')
    ++at;
  if (at >= header.size())
    return "";
  if (header[at] == '\'') {
    size_t end = header.find('\'', at + 1);
    return end == std::string::npos ? "" : header.substr(at + 1, end - at - 1);
  }
  if (header[at] == '(') {
    size_t end = header.find(')', at);
    return end == std::string::npos ? "" : header.substr(at, end - at + 1);
  }
  size_t end = header.find_first_of(",}", at);
  return end == std::string::npos ? "" : header.substr(at, end - at);
}

std::string inflateRaw(const std::string &in, size_t outBytes,
                       std::string &out) {
  out.resize(outBytes);
  z_stream stream;
  std::memset(&stream, 0, sizeof(stream));
  if (inflateInit2(&stream, -MAX_WBITS) != Z_OK)
    return "zlib cannot start";
  stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
  stream.avail_in = uInt(in.size());
  stream.next_out = reinterpret_cast<Bytef *>(out.data());
  stream.avail_out = uInt(out.size());
  int result = inflate(&stream, Z_FINISH);
  size_t produced = out.size() - stream.avail_out;
  inflateEnd(&stream);
  if (result != Z_STREAM_END || produced != outBytes)
    return "a deflated member is corrupt";
  return "";
}

} // namespace

int64_t Array::elements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string fuse::npy::parseNpy(const std::string &bytes,
                                const std::string &name, Array &array) {
  auto bad = [&](const std::string &why) {
    return "'" + name + "' is not a usable .npy file: " + why;
  };
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    return bad("no .npy magic");
  int major = uint8_t(bytes[6]);
  size_t headerBytes, start;
  if (major == 1) {
    headerBytes = size_t(little(bytes, 8, 2));
    start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return bad("truncated");
    headerBytes = size_t(little(bytes, 8, 4));
    start = 12;
  } else {
    return bad("format version " + std::to_string(major));
  }
  if (headerBytes > bytes.size() - start)
    return bad("truncated header");
  std::string header = bytes.substr(start, headerBytes);
  array.descr = headerValue(header, "descr");
  if (array.descr.size() >= 2 && array.descr[0] == '>' &&
      array.descr.substr(1) != "i1" && array.descr.substr(1) != "u1" &&
      array.descr.substr(1) != "b1")
    return bad("big-endian data (" + array.descr + ")");
  size_t elementBytes = descrSize(array.descr);
  if (!elementBytes)
    return bad("element type '" + array.descr + "' is not supported");
  std::string order = headerValue(header, "fortran_order");
  if (order != "False")
    return bad(order == "True" ? "Fortran order" : "no fortran_order");
  std::string shape = headerValue(header, "shape");
  if (shape.size() < 2)
    return bad("no shape");
  array.shape.clear();
  std::stringstream dims(shape.substr(1, shape.size() - 2));
  std::string dim;
  uint64_t elements = 1;
  while (std::getline(dims, dim, ',')) {
    size_t first = dim.find_first_not_of(' ');
    if (first == std::string::npos)
      continue;
    dim = dim.substr(first, dim.find_last_not_of(' ') - first + 1);
    if (dim.empty() || dim.size() > 15 ||
        dim.find_first_not_of("0123456789") != std::string::npos)
      return bad("shape " + shape);
    uint64_t size = std::stoull(dim);
    if (size && elements > (uint64_t(1) << 46) / size)
      return bad("too many elements");
    elements *= size;
    array.shape.push_back(int64_t(size));
  }
  uint64_t dataBytes = elements * elementBytes;
  if (dataBytes != bytes.size() - start - headerBytes)
    return bad("the data is " +
               std::to_string(bytes.size() - start - headerBytes) +
               " bytes, its shape needs " + std::to_string(dataBytes));
  array.data.assign(bytes.begin() + long(start + headerBytes), bytes.end());
  return "";
}

std::string fuse::npy::readNpy(const std::string &path, Array &array) {
  std::string bytes;
  if (std::string error = readFile(path, bytes); !error.empty())
    return error;
  return parseNpy(bytes, path, array);
}

std::string fuse::npy::readNpz(const std::string &path,
                               std::map<std::string, Array> &arrays) {
  std::string bytes;
  if (std::string error = readFile(path, bytes); !error.empty())
    return error;
  auto bad = [&](const std::string &why) {
    return "'" + path + "' is not a usable .npz file: " + why;
  };
  // The end of the central directory, within the last 64 KiB + 22 bytes.
  if (bytes.size() < 22)
    return bad("too short");
  size_t eocd = std::string::npos;
  size_t lowest = bytes.size() > 65557 ? bytes.size() - 65557 : 0;
  for (size_t at = bytes.size() - 22 + 1; at-- > lowest;)
    if (little(bytes, at, 4) == 0x06054b50) {
      eocd = at;
      break;
    }
  if (eocd == std::string::npos)
    return bad("no zip directory");
  uint64_t entries = little(bytes, eocd + 10, 2);
  uint64_t directory = little(bytes, eocd + 16, 4);
  if (directory > bytes.size())
    return bad("the directory lies outside the file");
  size_t at = size_t(directory);
  for (uint64_t e = 0; e < entries; ++e) {
    if (at + 46 > bytes.size() || little(bytes, at, 4) != 0x02014b50)
      return bad("a directory entry is corrupt");
    uint64_t method = little(bytes, at + 10, 2);
    uint64_t packed = little(bytes, at + 20, 4);
    uint64_t unpacked = little(bytes, at + 24, 4);
    size_t nameBytes = size_t(little(bytes, at + 28, 2));
    size_t extraBytes = size_t(little(bytes, at + 30, 2));
    size_t commentBytes = size_t(little(bytes, at + 32, 2));
    uint64_t local = little(bytes, at + 42, 4);
    if (at + 46 + nameBytes + extraBytes + commentBytes > bytes.size())
      return bad("a directory entry is truncated");
    std::string name = bytes.substr(at + 46, nameBytes);
    // ZIP64 sizes and offset, in the extra field.
    size_t extra = at + 46 + nameBytes;
    size_t extraEnd = extra + extraBytes;
    while (extra + 4 <= extraEnd) {
      uint64_t id = little(bytes, extra, 2);
      size_t size = size_t(little(bytes, extra + 2, 2));
      if (extra + 4 + size > extraEnd)
        break;
      if (id == 1) {
        size_t field = extra + 4;
        auto take = [&](uint64_t &value) {
          if (value == 0xffffffff && field + 8 <= extra + 4 + size) {
            value = little(bytes, field, 8);
            field += 8;
          }
        };
        take(unpacked);
        take(packed);
        take(local);
      }
      extra += 4 + size;
    }
    at += 46 + nameBytes + extraBytes + commentBytes;
    if (local + 30 > bytes.size() ||
        little(bytes, size_t(local), 4) != 0x04034b50)
      return bad("the member '" + name + "' is corrupt");
    size_t data = size_t(local) + 30 +
                  size_t(little(bytes, size_t(local) + 26, 2)) +
                  size_t(little(bytes, size_t(local) + 28, 2));
    if (data > bytes.size() || packed > bytes.size() - data)
      return bad("the member '" + name + "' is truncated");
    if (unpacked > kMaxFileBytes)
      return bad("the member '" + name + "' is larger than 4 GiB");
    std::string member;
    if (method == 0) {
      if (packed != unpacked)
        return bad("the member '" + name + "' has inconsistent sizes");
      member = bytes.substr(data, size_t(packed));
    } else if (method == 8) {
      if (std::string error = inflateRaw(bytes.substr(data, size_t(packed)),
                                         size_t(unpacked), member);
          !error.empty())
        return bad(error);
    } else {
      return bad("the member '" + name + "' uses compression method " +
                 std::to_string(method));
    }
    std::string key = name;
    if (key.size() > 4 && key.compare(key.size() - 4, 4, ".npy") == 0)
      key.resize(key.size() - 4);
    Array array;
    if (std::string error = parseNpy(member, path + ":" + name, array);
        !error.empty())
      return error;
    arrays[key] = std::move(array);
  }
  return "";
}

std::string fuse::npy::writeNpy(const std::string &path, const Array &array) {
  std::string header =
      "{'descr': '" + array.descr + "', 'fortran_order': False, 'shape': (";
  for (size_t d = 0; d < array.shape.size(); ++d)
    header += (d ? ", " : "") + std::to_string(array.shape[d]);
  if (array.shape.size() == 1)
    header += ",";
  header += ")";
  header += ", }";
  // Data starts at a multiple of 64 bytes.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out)
    return "cannot write '" + path + "'";
  out.write("\x93NUMPY\x01\x00", 8);
  char length[2] = {char(header.size() & 0xff), char(header.size() >> 8)};
  out.write(length, 2);
  out << header;
  out.write(array.data.data(), std::streamsize(array.data.size()));
  out.close();
  if (!out)
    return "cannot write '" + path + "'";
  return "";
}

std::string fuse::npy::descrOf(FuseDType dtype) {
  switch (dtype) {
  case FUSE_DTYPE_F16:
    return "<f2";
  case FUSE_DTYPE_BF16:
    return "<u2";
  case FUSE_DTYPE_F32:
    return "<f4";
  case FUSE_DTYPE_F64:
    return "<f8";
  case FUSE_DTYPE_BOOL:
    return "|b1";
  case FUSE_DTYPE_I8:
    return "|i1";
  case FUSE_DTYPE_I16:
    return "<i2";
  case FUSE_DTYPE_I32:
    return "<i4";
  case FUSE_DTYPE_I64:
    return "<i8";
  case FUSE_DTYPE_INVALID:
    break;
  }
  return "";
}

bool fuse::npy::descrFits(const std::string &descr, FuseDType dtype) {
  auto same = [](const std::string &a, const std::string &b) {
    // '<', '|' and '=' all mean little-endian or byte-sized here.
    return a.size() == b.size() && a.substr(1) == b.substr(1);
  };
  if (dtype == FUSE_DTYPE_BF16)
    return same(descr, "<u2") || same(descr, "<i2");
  return same(descr, descrOf(dtype));
}

double fuse::npy::elementAsDouble(const char *data, FuseDType dtype,
                                  int64_t index) {
  auto load = [&](auto value) {
    std::memcpy(&value, data + index * int64_t(sizeof(value)), sizeof(value));
    return value;
  };
  switch (dtype) {
  case FUSE_DTYPE_F16: {
    uint16_t h = load(uint16_t());
    int exponent = (h >> 10) & 31, mantissa = h & 1023;
    double sign = (h >> 15) ? -1.0 : 1.0;
    if (exponent == 0)
      return sign * mantissa * (1.0 / (1 << 24));
    if (exponent == 31)
      return mantissa ? NAN : sign * INFINITY;
    return sign * (1.0 + mantissa / 1024.0) * std::ldexp(1.0, exponent - 15);
  }
  case FUSE_DTYPE_BF16: {
    uint32_t bits = uint32_t(load(uint16_t())) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  case FUSE_DTYPE_F32:
    return load(float());
  case FUSE_DTYPE_F64:
    return load(double());
  case FUSE_DTYPE_BOOL:
  case FUSE_DTYPE_I8:
    return load(int8_t());
  case FUSE_DTYPE_I16:
    return load(int16_t());
  case FUSE_DTYPE_I32:
    return load(int32_t());
  case FUSE_DTYPE_I64:
    return double(load(int64_t()));
  case FUSE_DTYPE_INVALID:
    break;
  }
  return 0;
}
