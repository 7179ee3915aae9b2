#include "image/image_compare.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace crease::image {

RgbaImage BoxDownsample(const RgbaImage& image, int factor) {
  RgbaImage out;
  out.width = image.width / factor;
  out.height = image.height / factor;
  out.pixels.assign(static_cast<size_t>(out.width) * out.height * 4, 0);
  const int n = factor * factor;
  for (int y = 0; y < out.height; ++y) {
    for (int x = 0; x < out.width; ++x) {
      for (int c = 0; c < 4; ++c) {
        int sum = 0;
        for (int dy = 0; dy < factor; ++dy) {
          for (int dx = 0; dx < factor; ++dx) {
            sum += image.At(x * factor + dx, y * factor + dy)[c];
          }
        }
        out.pixels[(static_cast<size_t>(y) * out.width + x) * 4 + c] =
            static_cast<uint8_t>((sum + n / 2) / n);
      }
    }
  }
  return out;
}

InteriorDifference CompareInterior(const RgbaImage& image,
                                   const RgbaImage& high, int factor,
                                   const std::array<uint8_t, 4>& background) {
  InteriorDifference result;
  if (high.width != image.width * factor ||
      high.height != image.height * factor) {
    return result;
  }
  // Per low-resolution pixel: whether its block is all subject.
  std::vector<uint8_t> full(static_cast<size_t>(image.width) * image.height);
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      bool all = true;
      for (int dy = 0; dy < factor && all; ++dy) {
        for (int dx = 0; dx < factor && all; ++dx) {
          all = high.At(x * factor + dx, y * factor + dy) != background;
        }
      }
      full[static_cast<size_t>(y) * image.width + x] = all;
    }
  }
  const RgbaImage low = BoxDownsample(high, factor);
  double sum = 0;
  for (int y = 1; y + 1 < image.height; ++y) {
    for (int x = 1; x + 1 < image.width; ++x) {
      bool interior = true;
      for (int dy = -1; dy <= 1 && interior; ++dy) {
        for (int dx = -1; dx <= 1 && interior; ++dx) {
          interior = full[static_cast<size_t>(y + dy) * image.width + x + dx];
        }
      }
      if (!interior) continue;
      const auto a = image.At(x, y), b = low.At(x, y);
      for (int c = 0; c < 3; ++c) sum += std::abs(a[c] - b[c]);
      ++result.pixels;
    }
  }
  if (result.pixels > 0) result.mean = sum / (3.0 * result.pixels);
  return result;
}

double VisibleChange(const RgbaImage& a, const RgbaImage& b,
                     const std::array<uint8_t, 4>& background, int threshold) {
  const auto differs = [threshold](const uint8_t* p, const uint8_t* q) {
    for (int c = 0; c < 3; ++c) {
      if (std::abs(int{p[c]} - int{q[c]}) > threshold) return true;
    }
    return false;
  };
  int64_t subject = 0, changed = 0;
  const size_t pixels = std::min(a.pixels.size(), b.pixels.size()) / 4;
  for (size_t i = 0; i < pixels; ++i) {
    const uint8_t* p = &a.pixels[4 * i];
    const uint8_t* q = &b.pixels[4 * i];
    if (!differs(p, background.data()) && !differs(q, background.data())) {
      continue;
    }
    ++subject;
    if (differs(p, q)) ++changed;
  }
  return subject == 0 ? 0.0 : static_cast<double>(changed) / subject;
}

}  // namespace crease::image
