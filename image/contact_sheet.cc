#include "image/contact_sheet.h"

#include <algorithm>

#include "absl/strings/str_format.h"

namespace crease::image {
namespace {

void Blit(const RgbaImage& from, int x0, int y0, RgbaImage* to) {
  for (int y = 0; y < from.height; ++y) {
    std::copy_n(
        from.pixels.data() + static_cast<size_t>(y) * from.width * 4,
        from.width * 4,
        to->pixels.data() + (static_cast<size_t>(y0 + y) * to->width + x0) * 4);
  }
}

}  // namespace

absl::StatusOr<RgbaImage> ContactSheet(
    const std::vector<std::pair<const RgbaImage*, const RgbaImage*>>& rows) {
  if (rows.empty()) return absl::InvalidArgumentError("contact sheet: no rows");
  const int width = rows[0].first->width, height = rows[0].first->height;
  for (const auto& [left, right] : rows) {
    for (const RgbaImage* image : {left, right}) {
      if (image->width != width || image->height != height ||
          image->pixels.size() != static_cast<size_t>(width) * height * 4) {
        return absl::InvalidArgumentError(
            absl::StrFormat("contact sheet: a %dx%d image among %dx%d ones",
                            image->width, image->height, width, height));
      }
    }
  }
  RgbaImage sheet;
  sheet.width = 2 * width;
  sheet.height = static_cast<int>(rows.size()) * height;
  sheet.pixels.assign(static_cast<size_t>(sheet.width) * sheet.height * 4, 255);
  for (size_t r = 0; r < rows.size(); ++r) {
    Blit(*rows[r].first, 0, static_cast<int>(r) * height, &sheet);
    Blit(*rows[r].second, width, static_cast<int>(r) * height, &sheet);
  }
  return sheet;
}

}  // namespace crease::image
