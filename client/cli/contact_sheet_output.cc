#include "client/cli/contact_sheet_output.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "common/file_util.h"
#include "common/status_macros.h"
#include "image/contact_sheet.h"
#include "image/image_compare.h"
#include "image/image_encoding.h"
#include "image/rgba_image.h"

namespace crease::client {

std::vector<int> SheetFrames(int num_frames, int rows) {
  rows = std::clamp(rows, 1, num_frames);
  std::vector<int> sheet_frames;
  for (int r = 0; r < rows; ++r) {
    sheet_frames.push_back(rows == 1 ? 0 : r * (num_frames - 1) / (rows - 1));
  }
  return sheet_frames;
}

void KeepSheetImage(const std::string& image, int f,
                    const std::vector<int>& sheet_frames,
                    std::vector<std::string>* sheet_images) {
  for (size_t r = 0; r < sheet_frames.size(); ++r) {
    if (sheet_frames[r] == f) (*sheet_images)[r] = image;
  }
}

absl::StatusOr<std::vector<std::vector<double>>> WriteContactSheet(
    const std::vector<std::vector<std::string>>& columns, bool png,
    const std::string& out) {
  if (columns.empty()) return absl::InvalidArgumentError("no sheet columns");
  const size_t rows = columns[0].size();
  // decoded[c][r]: every image decoded before any pointer into it is taken.
  std::vector<std::vector<image::RgbaImage>> decoded(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    for (const std::string& bytes : columns[c]) {
      CREASE_ASSIGN_OR_RETURN(
          image::RgbaImage d,
          png ? image::DecodePng(bytes) : image::DecodeJpeg(bytes));
      decoded[c].push_back(std::move(d));
    }
  }
  std::vector<std::vector<const image::RgbaImage*>> sheet_rows(rows);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < columns.size(); ++c) {
      if (r >= decoded[c].size()) {
        return absl::InternalError("contact sheet: a column is short");
      }
      sheet_rows[r].push_back(&decoded[c][r]);
    }
  }
  CREASE_ASSIGN_OR_RETURN(image::RgbaImage sheet,
                          image::ContactSheet(sheet_rows));
  CREASE_ASSIGN_OR_RETURN(std::string encoded, image::EncodePng(sheet));
  CREASE_RETURN_IF_ERROR(
      files::WriteStringToFile(out + "/contact_sheet.png", encoded));
  std::vector<std::vector<double>> changed(columns.size() - 1);
  for (size_t c = 1; c < columns.size(); ++c) {
    for (size_t r = 0; r < rows; ++r) {
      changed[c - 1].push_back(
          image::VisibleChange(decoded[0][r], decoded[c][r],
                               {255, 255, 255, 255}, image::kVisibleLevels));
    }
  }
  return changed;
}

}  // namespace crease::client
