#ifndef CREASE_WRINKLE_IO_BINARY_APPEND_H_
#define CREASE_WRINKLE_IO_BINARY_APPEND_H_

// Writing little-endian binary files (PC2, binary PLY) on a little-endian
// host: a value's bytes as they are in memory.

#include <cstring>
#include <string>

namespace crease::io {

template <typename T>
void AppendBinary(std::string& out, T value) {
  char raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  out.append(raw, sizeof(T));
}

}  // namespace crease::io

#endif  // CREASE_WRINKLE_IO_BINARY_APPEND_H_
