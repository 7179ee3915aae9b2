#ifndef CREASE_IMAGE_IMAGE_COMPARE_H_
#define CREASE_IMAGE_IMAGE_COMPARE_H_

// Image measurements without GL: an image against a supersampled reference
// of the same view, box-downsampled (tests, crease-aliasing), and how much
// two renderings of one view differ (crease-client's contact sheet).

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

// How much of the subject two renderings of one view tell apart (a plain
// and a wrinkled frame): of the pixels where either image differs from
// `background` by more than `threshold` levels in a colour channel (the
// subject), the fraction where the two differ from each other by more than
// `threshold` in a channel. 0 when there is no subject; the images must have
// the same size.
// A change a viewer sees at once: more than this many levels of 255 (the
// threshold crease-client and crease-render report VisibleChange at).
inline constexpr int kVisibleLevels = 12;

double VisibleChange(const RgbaImage& a, const RgbaImage& b,
                     const std::array<uint8_t, 4>& background, int threshold);

}  // namespace crease::image

#endif  // CREASE_IMAGE_IMAGE_COMPARE_H_
