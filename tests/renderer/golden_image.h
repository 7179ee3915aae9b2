#ifndef CREASE_TESTS_RENDERER_GOLDEN_IMAGE_H_
#define CREASE_TESTS_RENDERER_GOLDEN_IMAGE_H_

#include <string>

#include "gtest/gtest.h"
#include "image/rgba_image.h"

namespace crease::renderer {

// Writes `image` as <name>.png into the test output directory
// ($CREASE_TEST_OUTPUT_DIR, else gtest's temporary directory); returns the
// path.
std::string SaveTestImage(const image::RgbaImage& image,
                          const std::string& name);

// How far an image may stray from its golden one: pixels whose largest channel
// difference exceeds `channel_tolerance` count as different, and at most
// `max_different_fraction` of the pixels may.
struct GoldenTolerance {
  int channel_tolerance = 12;
  double max_different_fraction = 0.002;
};

// Compares `image` with tests/renderer/golden/<name>.png. On failure writes
// <name>.actual.png and <name>.diff.png (different pixels red, the rest a faint
// grey copy) to the test's output directory and names them in the message.
// With CREASE_UPDATE_GOLDEN=1 in the environment it (re)writes the golden file
// instead and passes.
::testing::AssertionResult MatchesGolden(const image::RgbaImage& image,
                                         const std::string& name,
                                         const GoldenTolerance& tolerance = {});

}  // namespace crease::renderer

#endif  // CREASE_TESTS_RENDERER_GOLDEN_IMAGE_H_
