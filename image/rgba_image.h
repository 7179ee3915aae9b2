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

// Borrowed 8-bit RGBA rows, packed (width * 4 bytes each): an RgbaImage's, or
// pixels read back from the GPU, whose rows run bottom to top as GL's blit
// resolves them (top to bottom where a compute pass resolved them). Encoders
// take either order, so a read-back frame is never flipped on the CPU.
struct RgbaRows {
  int width = 0;
  int height = 0;
  const uint8_t* data = nullptr;  // width * height * 4 bytes
  bool bottom_up = false;         // data's first row is the image's last

  static RgbaRows Of(const RgbaImage& image) {
    return {image.width, image.height, image.pixels.data(), false};
  }
};

}  // namespace crease::image

#endif  // CREASE_IMAGE_RGBA_IMAGE_H_
