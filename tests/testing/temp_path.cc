#include "tests/testing/temp_path.h"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>
#include <string>
#include <system_error>

#include "gtest/gtest.h"

namespace crease::testing {
namespace {

// The folder of the process that made it (mkdtemp: a fresh name, never a
// crashed process's leftover nor someone else's link), removed at normal
// exit by that process only. A forked child inherits this object with its
// parent's id: it makes a folder of its own on its first call and never
// removes its parent's.
class ProcessFolder {
 public:
  ~ProcessFolder() {
    if (owner_ != getpid() || path_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

  std::filesystem::path Get() {
    std::lock_guard<std::mutex> lock(mu_);
    if (owner_ != getpid() || path_.empty()) {
      std::string pattern = (std::filesystem::path(::testing::TempDir()) /
                             ("crease_" + std::to_string(getpid()) + "_XXXXXX"))
                                .string();
      if (mkdtemp(pattern.data()) == nullptr) {
        ADD_FAILURE() << "cannot make a folder like " << pattern;
        return ::testing::TempDir();
      }
      path_ = pattern;
      owner_ = getpid();
    }
    return path_;
  }

 private:
  std::mutex mu_;
  pid_t owner_ = 0;
  std::filesystem::path path_;
};

}  // namespace

std::string TempPath(std::string_view name) {
  static ProcessFolder folder;
  return (folder.Get() / name).string();
}

}  // namespace crease::testing
