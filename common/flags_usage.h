#ifndef CREASE_COMMON_FLAGS_USAGE_H_
#define CREASE_COMMON_FLAGS_USAGE_H_

// Header-only, shared by the command-line programs (no library to link).

#include <string>
#include <vector>

#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/match.h"
#include "absl/strings/string_view.h"

namespace crease {

// Sets the program's usage message, and makes --help (and --helpshort) list
// the flags defined in source files whose path contains one of `sources`
// (e.g. "server/main.cc", "client/cli/", and "wrinkle/io/animation_input.cc"
// for the programs that read an animation), with their defaults. absl's
// default lists only flags of a file named after the program
// (crease-server.cc), which none of ours is, so --help said "No flags
// matched". --helpfull still lists every flag, absl's own too.
inline void SetFlagsUsage(absl::string_view usage,
                          std::vector<std::string> sources) {
  absl::SetProgramUsageMessage(usage);
  absl::FlagsUsageConfig config;
  config.contains_help_flags = [sources](absl::string_view file) {
    for (const std::string& source : sources) {
      if (absl::StrContains(file, source)) return true;
    }
    return false;
  };
  config.contains_helpshort_flags = config.contains_help_flags;
  absl::SetFlagsUsageConfig(config);
}

}  // namespace crease

#endif  // CREASE_COMMON_FLAGS_USAGE_H_
