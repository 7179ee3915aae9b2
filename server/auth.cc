#include "server/auth.h"

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/file_util.h"
#include "common/status_macros.h"

namespace crease::server {

absl::StatusOr<TokenSet> TokenSet::FromFile(const std::string& path) {
  CREASE_ASSIGN_OR_RETURN(std::string text, files::ReadFileToString(path));
  TokenSet set;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || absl::StartsWith(line, "#")) continue;
    set.tokens_.insert(std::string(line));
  }
  if (set.tokens_.empty()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: no tokens in the file", path));
  }
  return set;
}

absl::Status TokenSet::Check(const grpc::ServerContextBase& context) const {
  return Authenticate(context).status();
}

absl::StatusOr<std::string> TokenSet::Authenticate(
    const grpc::ServerContextBase& context) const {
  if (!enabled()) return std::string();
  const auto& metadata = context.client_metadata();
  const auto it = metadata.find("authorization");
  if (it == metadata.end()) {
    return absl::UnauthenticatedError(
        "missing 'authorization: Bearer <token>' metadata");
  }
  absl::string_view value(it->second.data(), it->second.size());
  if (!absl::ConsumePrefix(&value, "Bearer ")) {
    return absl::UnauthenticatedError(
        "authorization metadata is not 'Bearer <token>'");
  }
  if (!tokens_.contains(value)) {
    return absl::UnauthenticatedError("unknown bearer token");
  }
  return std::string(value);
}

}  // namespace crease::server
