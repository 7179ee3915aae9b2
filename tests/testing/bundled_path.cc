#include "tests/testing/bundled_path.h"

#include <string>
#include <string_view>

namespace crease::testing {

std::string BundledPath(std::string_view file) {
  std::string path = CREASE_DATA_DIR "/";
  path += file;
  return path;
}

}  // namespace crease::testing
