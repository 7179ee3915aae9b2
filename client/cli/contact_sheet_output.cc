#include "client/cli/contact_sheet_output.h"

#include <utility>

#include "absl/status/statusor.h"
#include "common/file_util.h"
#include "common/status_macros.h"
#include "image/contact_sheet.h"
#include "image/image_encoding.h"
#include "image/rgba_image.h"

namespace crease::client {

absl::Status WriteContactSheet(const std::vector<std::string>& plain_images,
                               const std::vector<std::string>& wrinkled_images,
                               bool png, const std::string& out) {
  const int rows = static_cast<int>(plain_images.size());
  std::vector<image::RgbaImage> decoded;
  decoded.reserve(2 * rows);
  for (int r = 0; r < rows; ++r) {
    for (const std::string* bytes : {&plain_images[r], &wrinkled_images[r]}) {
      CREASE_ASSIGN_OR_RETURN(
          image::RgbaImage d,
          png ? image::DecodePng(*bytes) : image::DecodeJpeg(*bytes));
      decoded.push_back(std::move(d));
    }
  }
  std::vector<std::pair<const image::RgbaImage*, const image::RgbaImage*>>
      pairs;
  for (int r = 0; r < rows; ++r) {
    pairs.push_back({&decoded[2 * r], &decoded[2 * r + 1]});
  }
  CREASE_ASSIGN_OR_RETURN(image::RgbaImage sheet, image::ContactSheet(pairs));
  CREASE_ASSIGN_OR_RETURN(std::string encoded, image::EncodePng(sheet));
  return files::WriteStringToFile(out + "/contact_sheet.png", encoded);
}

}  // namespace crease::client
