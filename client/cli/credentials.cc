#include "client/cli/credentials.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "common/file_util.h"
#include "common/status_macros.h"

namespace crease::client {

absl::Status ReadCredentials(const std::string& token_file,
                             const std::string& tls_ca,
                             ClientOptions* options) {
  if (!token_file.empty()) {
    CREASE_ASSIGN_OR_RETURN(std::string text,
                            files::ReadFileToString(token_file));
    std::string line(
        absl::StripAsciiWhitespace(text.substr(0, text.find('\n'))));
    if (line.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(token_file, ": no token"));
    }
    options->token = std::move(line);
  }
  if (!tls_ca.empty()) {
    CREASE_ASSIGN_OR_RETURN(options->tls_root_certificates,
                            files::ReadFileToString(tls_ca));
  }
  return absl::OkStatus();
}

}  // namespace crease::client
