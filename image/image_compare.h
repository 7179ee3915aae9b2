#ifndef CREASE_IMAGE_IMAGE_COMPARE_H_
#define CREASE_IMAGE_IMAGE_COMPARE_H_

// Aliasing measurements without GL: an image against a supersampled reference
// of the same view, box-downsampled (tests, crease-aliasing).

#include <array>
#include <cstdint>

#include "image/rgba_image.h"

namespace crease::image {

// Averages each factor x factor block (the image's size must be a multiple).
RgbaImage BoxDownsample(const RgbaImage& image, int factor);

struct InteriorDifference {
  double mean = 0;  // mean |difference| per RGB channel, 0-255
  int pixels = 0;   // pixels compared
};

// Compares `image` with `high` (`factor` times larger, the same view) box-
// downsampled, over the subject's interior: pixels whose own factor x factor
// block of `high`, and those of their 8 neighbours, hold no `background`
// pixel. Silhouettes alias by design (MSAA resolves them); this measures the
InteriorDifference CompareInterior(const RgbaImage& image,
                                   const RgbaImage& high, int factor,
                                   const std::array<uint8_t, 4>& background);

}  // namespace crease::image

#endif  // CREASE_IMAGE_IMAGE_COMPARE_H_
