#ifndef CREASE_IMAGE_CONTACT_SHEET_H_
#define CREASE_IMAGE_CONTACT_SHEET_H_

#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "image/rgba_image.h"

namespace crease::image {

// One image of rows of image pairs side by side (e.g. plain | wrinkled), on
// white. All images must have the same size; InvalidArgument otherwise.
absl::StatusOr<RgbaImage> ContactSheet(
    const std::vector<std::pair<const RgbaImage*, const RgbaImage*>>& rows);

}  // namespace crease::image

#endif  // CREASE_IMAGE_CONTACT_SHEET_H_
