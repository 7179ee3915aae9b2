#include "tests/testing/temp_path.h"

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

#include "gtest/gtest.h"

namespace crease::testing {
namespace {

// Removes the folder of the process that exits, at normal exit. A forked
// child inherits this object but has another id: it removes its own folder,
// never its parent's.
class ProcessFolder {
 public:
  ~ProcessFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(Path(getpid()), ignored);
  }
  static std::filesystem::path Path(pid_t pid) {
    return std::filesystem::path(::testing::TempDir()) /
           ("crease_" + std::to_string(pid));
  }
};

}  // namespace

std::string TempPath(std::string_view name) {
  static ProcessFolder removed_at_exit;
  const std::filesystem::path folder = ProcessFolder::Path(getpid());
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  EXPECT_FALSE(error) << folder << ": " << error.message();
  return (folder / name).string();
}

}  // namespace crease::testing
