#ifndef CREASE_TESTS_RENDERER_UV_MAP_DIFFERENCE_H_
#define CREASE_TESTS_RENDERER_UV_MAP_DIFFERENCE_H_

// Two UV-map sets of one frame compared texel by texel, for holding one way
// of drawing the maps (pieces, pruned lists) to another (whole triangles).

#include <string>

#include "image/rgba_image.h"
#include "renderer/uv_maps.h"

namespace crease::renderer {

struct UvMapDifference {
  int normal_max = 0;     // largest channel difference, 0-255
  int normal_texels = 0;  // texels with any channel differing
  int height_max = 0;     // 0-65535
  int height_texels = 0;
  int wrinkled = 0;  // texels where `expected`'s height is above 0
  // The texel of the largest height difference (column, row from the top).
  int worst_column = -1, worst_row = -1;
  std::string ToString() const;
};

// Same-size maps; a size mismatch reports every texel as differing.
UvMapDifference CompareUvMaps(const UvMaps& expected, const UvMaps& actual);

// Where two map sets part, one texel per pixel: red the height difference
// (x `height_gain`), green the normal's (x 32), blue 64 where `expected` is
// wrinkled, so a difference can be placed against the wrinkles and the
// triangles' edges.
image::RgbaImage UvMapDifferenceImage(const UvMaps& expected,
                                      const UvMaps& actual,
                                      int height_gain = 8);

// Saves `actual`'s and `expected`'s normal maps and the difference image
// under CREASE_TEST_OUTPUT_DIR (or the test temp dir) as name.*.png;
// returns the difference image's path.
std::string SaveUvMapDifference(const std::string& name, const UvMaps& expected,
                                const UvMaps& actual);

}  // namespace crease::renderer

#endif  // CREASE_TESTS_RENDERER_UV_MAP_DIFFERENCE_H_
