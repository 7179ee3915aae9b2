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
    const std::vector<std::vector<const RgbaImage*>>& rows) {
  if (rows.empty() || rows[0].empty()) {
    return absl::InvalidArgumentError("contact sheet: no rows");
  }
  const size_t columns = rows[0].size();
  const int width = rows[0][0]->width, height = rows[0][0]->height;
  for (const std::vector<const RgbaImage*>& row : rows) {
    if (row.size() != columns) {
      return absl::InvalidArgumentError(
          absl::StrFormat("contact sheet: a row of %d images among rows of %d",
                          row.size(), columns));
    }
    for (const RgbaImage* image : row) {
      if (image->width != width || image->height != height ||
          image->pixels.size() != static_cast<size_t>(width) * height * 4) {
        return absl::InvalidArgumentError(
            absl::StrFormat("contact sheet: a %dx%d image among %dx%d ones",
                            image->width, image->height, width, height));
      }
    }
  }
  RgbaImage sheet;
  sheet.width = static_cast<int>(columns) * width;
  sheet.height = static_cast<int>(rows.size()) * height;
  sheet.pixels.assign(static_cast<size_t>(sheet.width) * sheet.height * 4, 255);
  for (size_t r = 0; r < rows.size(); ++r) {
    for (size_t c = 0; c < columns; ++c) {
      Blit(*rows[r][c], static_cast<int>(c) * width,
           static_cast<int>(r) * height, &sheet);
    }
  }
  return sheet;
}

absl::StatusOr<RgbaImage> ContactSheet(
    const std::vector<std::pair<const RgbaImage*, const RgbaImage*>>& rows) {
  std::vector<std::vector<const RgbaImage*>> columns;
  for (const auto& [left, right] : rows) columns.push_back({left, right});
  return ContactSheet(columns);
}

}  // namespace crease::image
