#include "tests/renderer/uv_map_difference.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/str_format.h"
#include "tests/renderer/golden_image.h"

namespace crease::renderer {

std::string UvMapDifference::ToString() const {
  return absl::StrFormat(
      "normal max %d (%d texels), height max %d (%d texels; worst at column "
      "%d, row %d), %d texels wrinkled",
      normal_max, normal_texels, height_max, height_texels, worst_column,
      worst_row, wrinkled);
}

UvMapDifference CompareUvMaps(const UvMaps& expected, const UvMaps& actual) {
  UvMapDifference d;
  const size_t texels = expected.height.size();
  if (actual.height.size() != texels ||
      actual.normal.pixels.size() != expected.normal.pixels.size() ||
      expected.normal.pixels.size() != 4 * texels) {
    d.normal_texels = d.height_texels = static_cast<int>(texels);
    d.normal_max = 255;
    d.height_max = 65535;
    return d;
  }
  for (size_t i = 0; i < texels; ++i) {
    int texel_max = 0;
    for (int c = 0; c < 4; ++c) {
      texel_max =
          std::max(texel_max, std::abs(actual.normal.pixels[4 * i + c] -
                                       expected.normal.pixels[4 * i + c]));
    }
    d.normal_texels += texel_max > 0;
    d.normal_max = std::max(d.normal_max, texel_max);
    const int h = std::abs(actual.height[i] - expected.height[i]);
    d.height_texels += h > 0;
    if (h > d.height_max) {
      d.height_max = h;
      d.worst_column = static_cast<int>(i % expected.size);
      d.worst_row = static_cast<int>(i / expected.size);
    }
    d.wrinkled += expected.height[i] > 0;
  }
  return d;
}

image::RgbaImage UvMapDifferenceImage(const UvMaps& expected,
                                      const UvMaps& actual, int height_gain) {
  image::RgbaImage out;
  out.width = out.height = expected.size;
  const size_t texels = expected.height.size();
  out.pixels.assign(4 * texels, 0);
  if (actual.height.size() != texels) return out;
  for (size_t i = 0; i < texels; ++i) {
    int normal = 0;
    for (int c = 0; c < 3; ++c) {
      normal = std::max(normal, std::abs(actual.normal.pixels[4 * i + c] -
                                         expected.normal.pixels[4 * i + c]));
    }
    const int h = std::abs(actual.height[i] - expected.height[i]);
    out.pixels[4 * i + 0] =
        static_cast<uint8_t>(std::min(255, h * height_gain));
    out.pixels[4 * i + 1] = static_cast<uint8_t>(std::min(255, normal * 32));
    out.pixels[4 * i + 2] = expected.height[i] > 0 ? 64 : 0;
    out.pixels[4 * i + 3] = 255;
  }
  return out;
}

std::string SaveUvMapDifference(const std::string& name, const UvMaps& expected,
                                const UvMaps& actual) {
  SaveTestImage(expected.normal, name + ".expected_normal");
  SaveTestImage(actual.normal, name + ".actual_normal");
  return SaveTestImage(UvMapDifferenceImage(expected, actual), name + ".diff");
}

}  // namespace crease::renderer
