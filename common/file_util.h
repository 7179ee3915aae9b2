#ifndef CREASE_COMMON_FILE_UTIL_H_
#define CREASE_COMMON_FILE_UTIL_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace crease::files {

// Reads a whole file. NotFound if it cannot be opened, DataLoss if reading
// fails.
absl::StatusOr<std::string> ReadFileToString(const std::string& path);

// Writes `contents` to `path` through a temporary file renamed into place, so a
// reader never sees a half-written file.
absl::Status WriteStringToFile(const std::string& path,
                               std::string_view contents);

}  // namespace crease::files

#endif  // CREASE_COMMON_FILE_UTIL_H_
