#ifndef CREASE_IMAGE_RGBA_IMAGE_H_
#define CREASE_IMAGE_RGBA_IMAGE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace crease::image {

// 8-bit RGBA pixels, rows top to bottom.
struct RgbaImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> pixels;  // width * height * 4

  std::array<uint8_t, 4> At(int x, int y) const {
    const uint8_t* p = &pixels[(static_cast<size_t>(y) * width + x) * 4];
    return {p[0], p[1], p[2], p[3]};
  }
};

}  // namespace crease::image

#endif  // CREASE_IMAGE_RGBA_IMAGE_H_
