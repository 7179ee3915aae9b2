#ifndef CREASE_IMAGE_IMAGE_ENCODING_H_
#define CREASE_IMAGE_IMAGE_ENCODING_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "image/rgba_image.h"

namespace crease::image {

// Which PNG row filters libpng tries. kAdaptive (libpng's default) picks one
// per row out of five and suits rendered frames (flat backgrounds); kSub
// alone, deflated with run-length matches only (zlib's Z_RLE), suits smooth
// maps: on a 1024² normal + height map pair it encodes about 4× faster and a
// quarter smaller, while a 1080p frame comes out 35 % bigger (render_bench,
// docs/benchmarks.md).
enum class PngFilter { kAdaptive, kSub };

// PNG, lossless (RGBA, 8 bits), through libpng. `compression_level` 0-9 (1:
// fast).
absl::StatusOr<std::string> EncodePng(const RgbaImage& image,
                                      int compression_level = 1,
                                      PngFilter filter = PngFilter::kAdaptive);
// The same from borrowed rows in either order (a GPU read-back's bottom-up
// rows are written top row first without a flipped copy).
absl::StatusOr<std::string> EncodePng(const RgbaRows& rows,
                                      int compression_level = 1,
                                      PngFilter filter = PngFilter::kAdaptive);
// PNG of one 16-bit gray channel (a height map), `values` row by row, top
// first.
absl::StatusOr<std::string> EncodePngGray16(
    int width, int height, absl::Span<const uint16_t> values,
    int compression_level = 1, PngFilter filter = PngFilter::kAdaptive);
// JPEG through libturbojpeg, 4:2:0, alpha dropped. `quality` 1-100.
absl::StatusOr<std::string> EncodeJpeg(const RgbaImage& image,
                                       int quality = 90);
// The same from borrowed rows in either order (libturbojpeg reads bottom-up
// rows itself).
absl::StatusOr<std::string> EncodeJpeg(const RgbaRows& rows, int quality = 90);

// Decoders. The header's size is checked before anything is allocated or
// decoded: an image wider or taller than `max_side` pixels is refused with
// InvalidArgument naming its size (a 130 KB PNG can claim 32767² pixels, 4 GB
// decoded). Callers that decode what a client sent pass their own limit.
inline constexpr int kDefaultMaxDecodeSide = 8192;
absl::StatusOr<RgbaImage> DecodePng(std::string_view bytes,
                                    int max_side = kDefaultMaxDecodeSide);
absl::StatusOr<RgbaImage> DecodeJpeg(std::string_view bytes,
                                     int max_side = kDefaultMaxDecodeSide);
// Caution: libpng's simplified reader treats 8-bit files as sRGB and converts
// them to linear; for files written by EncodePngGray16 the values come back
// exactly.
absl::StatusOr<std::vector<uint16_t>> DecodePngGray16(
    std::string_view bytes, int* width, int* height,
    int max_side = kDefaultMaxDecodeSide);

}  // namespace crease::image

#endif  // CREASE_IMAGE_IMAGE_ENCODING_H_
