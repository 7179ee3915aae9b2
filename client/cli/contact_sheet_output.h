#ifndef CREASE_CLIENT_CLI_CONTACT_SHEET_OUTPUT_H_
#define CREASE_CLIENT_CLI_CONTACT_SHEET_OUTPUT_H_

// crease-client --contact_sheet: the plain and wrinkled images of a few
// frames (and with --compare_models the other model's) side by side in one
// PNG.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace crease::client {

// The frame on each row of the contact sheet: `rows` of them (at least 1, at
// most num_frames), evenly spread from the first frame to the last.
std::vector<int> SheetFrames(int num_frames, int rows);

// Keeps the image of frame `f` on each contact sheet row that shows it.
void KeepSheetImage(const std::string& image, int f,
                    const std::vector<int>& sheet_frames,
                    std::vector<std::string>* sheet_images);

// Decodes each column's image of each row (PNG when `png`, else JPEG;
// columns[c][r]) and writes them side by side as out/contact_sheet.png.
// Returns, for each column after the first (the plain one), each row's
// image::VisibleChange against the first column's (subject pixels changed
// by more than image::kVisibleLevels on a white background).
absl::StatusOr<std::vector<std::vector<double>>> WriteContactSheet(
    const std::vector<std::vector<std::string>>& columns, bool png,
    const std::string& out);

}  // namespace crease::client

#endif  // CREASE_CLIENT_CLI_CONTACT_SHEET_OUTPUT_H_
