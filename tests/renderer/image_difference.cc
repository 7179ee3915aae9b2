#include "tests/renderer/image_difference.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/str_format.h"

namespace crease::renderer {

PixelMask SubjectInterior(const image::RgbaImage& a,
                          const image::RgbaImage& b) {
  const int w = a.width, h = a.height;
  PixelMask opaque(static_cast<size_t>(w) * h, 0);
  for (size_t i = 0; i < opaque.size(); ++i) {
    opaque[i] = a.pixels[4 * i + 3] == 255 && b.pixels[4 * i + 3] == 255;
  }
  PixelMask interior(opaque.size(), 0);
  for (int y = 1; y + 1 < h; ++y) {
    for (int x = 1; x + 1 < w; ++x) {
      bool all = true;
      for (int dy = -1; dy <= 1 && all; ++dy) {
        for (int dx = -1; dx <= 1 && all; ++dx) {
          all = opaque[static_cast<size_t>(y + dy) * w + x + dx] != 0;
        }
      }
      interior[static_cast<size_t>(y) * w + x] = all;
    }
  }
  return interior;
}

PixelMask Differing(const image::RgbaImage& a, const image::RgbaImage& b,
                    int threshold) {
  PixelMask out(a.pixels.size() / 4, 0);
  for (size_t i = 0; i < out.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      out[i] |= std::abs(a.pixels[4 * i + c] - b.pixels[4 * i + c]) > threshold;
    }
  }
  return out;
}

PixelMask Intersect(const PixelMask& a, const PixelMask& b) {
  PixelMask out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = a[i] && b[i];
  return out;
}

PixelMask Subtract(const PixelMask& a, const PixelMask& b) {
  PixelMask out(a.size());
  for (size_t i = 0; i < a.size(); ++i) out[i] = a[i] && !b[i];
  return out;
}

PixelMask Dilate(const PixelMask& mask, int width, int height, int rings) {
  PixelMask out = mask;
  for (int ring = 0; ring < rings; ++ring) {
    const PixelMask in = out;
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            const int nx = x + dx, ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
            if (in[static_cast<size_t>(ny) * width + nx]) {
              out[static_cast<size_t>(y) * width + x] = 1;
            }
          }
        }
      }
    }
  }
  return out;
}

int Count(const PixelMask& mask) {
  return static_cast<int>(std::count_if(mask.begin(), mask.end(),
                                        [](uint8_t m) { return m != 0; }));
}

std::string ImageDifference::ToString() const {
  return absl::StrFormat("mean %.2f, p99 %d, max %d over %d pixels", mean, p99,
                         max, pixels);
}

ImageDifference Difference(const image::RgbaImage& a, const image::RgbaImage& b,
                           const PixelMask& mask) {
  ImageDifference d;
  std::vector<int> largest;
  double sum = 0;
  for (size_t i = 0; i < mask.size(); ++i) {
    if (!mask[i]) continue;
    int pixel_max = 0;
    for (int c = 0; c < 3; ++c) {
      const int diff = std::abs(a.pixels[4 * i + c] - b.pixels[4 * i + c]);
      sum += diff;
      pixel_max = std::max(pixel_max, diff);
    }
    largest.push_back(pixel_max);
  }
  d.pixels = static_cast<int>(largest.size());
  if (largest.empty()) return d;
  d.mean = sum / (3.0 * largest.size());
  std::sort(largest.begin(), largest.end());
  d.p99 = largest[std::min(largest.size() - 1, largest.size() * 99 / 100)];
  d.max = largest.back();
  return d;
}

image::RgbaImage DifferenceImage(const image::RgbaImage& a,
                                 const image::RgbaImage& b,
                                 const PixelMask& mask, int gain) {
  image::RgbaImage out = a;
  for (size_t i = 0; i < mask.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      const int diff = std::abs(a.pixels[4 * i + c] - b.pixels[4 * i + c]);
      out.pixels[4 * i + c] =
          mask[i] ? static_cast<uint8_t>(std::min(255, gain * diff))
                  : (c == 2 ? 40 : 0);
    }
    out.pixels[4 * i + 3] = 255;
  }
  return out;
}

}  // namespace crease::renderer
