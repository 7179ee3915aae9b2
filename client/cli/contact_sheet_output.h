#ifndef CREASE_CLIENT_CLI_CONTACT_SHEET_OUTPUT_H_
#define CREASE_CLIENT_CLI_CONTACT_SHEET_OUTPUT_H_

// crease-client --contact_sheet: the plain and wrinkled images of a few
// frames side by side in one PNG.

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace crease::client {

// Decodes each row's plain and wrinkled image (PNG when `png`, else JPEG)
// and writes them side by side as out/contact_sheet.png.
absl::Status WriteContactSheet(const std::vector<std::string>& plain_images,
                               const std::vector<std::string>& wrinkled_images,
                               bool png, const std::string& out);

}  // namespace crease::client

#endif  // CREASE_CLIENT_CLI_CONTACT_SHEET_OUTPUT_H_
