#ifndef CREASE_IMAGE_CONTACT_SHEET_H_
#define CREASE_IMAGE_CONTACT_SHEET_H_

#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "image/rgba_image.h"

namespace crease::image {

// One image of rows of images side by side (e.g. plain | SCA 2015 | wrinkle
// maps), on white. Every row must have as many images, all of one size;
// InvalidArgument otherwise.
absl::StatusOr<RgbaImage> ContactSheet(
    const std::vector<std::vector<const RgbaImage*>>& rows);
// Rows of pairs (plain | wrinkled).
absl::StatusOr<RgbaImage> ContactSheet(
    const std::vector<std::pair<const RgbaImage*, const RgbaImage*>>& rows);

}  // namespace crease::image

#endif  // CREASE_IMAGE_CONTACT_SHEET_H_
