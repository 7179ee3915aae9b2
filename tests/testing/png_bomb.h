#ifndef CREASE_TESTS_TESTING_PNG_BOMB_H_
#define CREASE_TESTS_TESTING_PNG_BOMB_H_

// A decompression bomb for tests: a valid PNG of a few dozen bytes whose
// header claims `width` x `height` pixels.

#include <zlib.h>

#include <cstdint>
#include <string>

#include "image/image_encoding.h"

namespace crease::testing {

inline std::string PngClaiming(uint32_t width, uint32_t height) {
  image::RgbaImage tiny;
  tiny.width = 1;
  tiny.height = 1;
  tiny.pixels = {128, 128, 128, 255};
  std::string png = *image::EncodePng(tiny);
  // IHDR's width and height (big-endian) at bytes 16..23, its CRC (over the
  // chunk type and data, bytes 12..28) at 29..32.
  for (int k = 0; k < 4; ++k) {
    png[16 + k] = static_cast<char>(width >> (24 - 8 * k));
    png[20 + k] = static_cast<char>(height >> (24 - 8 * k));
  }
  const uint32_t crc = static_cast<uint32_t>(
      crc32(0, reinterpret_cast<const Bytef*>(png.data() + 12), 17));
  for (int k = 0; k < 4; ++k) {
    png[29 + k] = static_cast<char>(crc >> (24 - 8 * k));
  }
  return png;
}

}  // namespace crease::testing

#endif  // CREASE_TESTS_TESTING_PNG_BOMB_H_
