#ifndef CREASE_RENDERER_CONTACT_SHEET_H_
#define CREASE_RENDERER_CONTACT_SHEET_H_

#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "renderer/rgba_image.h"

namespace crease::renderer {

// One image of rows of image pairs side by side (e.g. plain | wrinkled), on
// white. All images must have the same size; InvalidArgument otherwise.
absl::StatusOr<RgbaImage> ContactSheet(
    const std::vector<std::pair<const RgbaImage*, const RgbaImage*>>& rows);

}  // namespace crease::renderer

#endif  // CREASE_RENDERER_CONTACT_SHEET_H_
