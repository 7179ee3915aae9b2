#ifndef CREASE_TESTS_RENDERER_IMAGE_DIFFERENCE_H_
#define CREASE_TESTS_RENDERER_IMAGE_DIFFERENCE_H_

// Image differences over a mask of pixels, for holding one renderer's image
// to another's of the same view (engine_outputs_test).

#include <cstdint>
#include <string>
#include <vector>

#include "image/rgba_image.h"

namespace crease::renderer {

// One byte per pixel, nonzero where set.
using PixelMask = std::vector<uint8_t>;

// The subject's interior in both images: pixels whose alpha, and every
// 8-neighbour's, is 255 in both (the background is cleared to alpha 0), so
// silhouettes, where the two may differ by design, are left out.
PixelMask SubjectInterior(const image::RgbaImage& a, const image::RgbaImage& b);

// Pixels where some RGB channel differs by more than `threshold`.
PixelMask Differing(const image::RgbaImage& a, const image::RgbaImage& b,
                    int threshold);

PixelMask Intersect(const PixelMask& a, const PixelMask& b);
PixelMask Subtract(const PixelMask& a, const PixelMask& b);  // a and not b
// Grows the mask by `rings` pixels (8-neighbourhood).
PixelMask Dilate(const PixelMask& mask, int width, int height, int rings);
int Count(const PixelMask& mask);

struct ImageDifference {
  double mean = 0;  // mean |difference| per RGB channel, 0-255
  int p99 = 0;      // 99th percentile of the pixels' largest channel difference
  int max = 0;
  int pixels = 0;  // pixels compared
  std::string ToString() const;
};
ImageDifference Difference(const image::RgbaImage& a, const image::RgbaImage& b,
                           const PixelMask& mask);

// |a - b| per channel times `gain` where `mask` is set, dark blue elsewhere:
// where two images part.
image::RgbaImage DifferenceImage(const image::RgbaImage& a,
                                 const image::RgbaImage& b,
                                 const PixelMask& mask, int gain = 4);

}  // namespace crease::renderer

#endif  // CREASE_TESTS_RENDERER_IMAGE_DIFFERENCE_H_
