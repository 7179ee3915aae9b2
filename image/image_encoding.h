#ifndef CREASE_IMAGE_IMAGE_ENCODING_H_
#define CREASE_IMAGE_IMAGE_ENCODING_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "image/rgba_image.h"

namespace crease::image {

// PNG, lossless (RGBA, 8 bits), through libpng. `compression_level` 0-9 (1:
// fast).
absl::StatusOr<std::string> EncodePng(const RgbaImage& image,
                                      int compression_level = 1);
// JPEG through libturbojpeg, 4:2:0, alpha dropped. `quality` 1-100.
absl::StatusOr<std::string> EncodeJpeg(const RgbaImage& image,
                                       int quality = 90);

// Decoders, for tests and golden images.
absl::StatusOr<RgbaImage> DecodePng(std::string_view bytes);
absl::StatusOr<RgbaImage> DecodeJpeg(std::string_view bytes);

}  // namespace crease::image

#endif  // CREASE_IMAGE_IMAGE_ENCODING_H_
