#ifndef CREASE_SERVER_AUTH_H_
#define CREASE_SERVER_AUTH_H_

#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "grpcpp/server_context.h"

namespace crease::server {

// Bearer tokens a server accepts. Empty: every caller is let in.
class TokenSet {
 public:
  TokenSet() = default;
  // One token per line; blank lines and lines starting with '#' are skipped.
  // NotFound / InvalidArgument (an empty file) name the file.
  static absl::StatusOr<TokenSet> FromFile(const std::string& path);

  bool enabled() const { return !tokens_.empty(); }
  // OK, or UNAUTHENTICATED saying what was wrong with the call's
  // "authorization: Bearer <token>" metadata.
  absl::Status Check(const grpc::ServerContextBase& context) const;
  // The same, giving the call's token (empty when tokens are off): who the
  // caller is, for the per-token session quota.
  absl::StatusOr<std::string> Authenticate(
      const grpc::ServerContextBase& context) const;

 private:
  absl::flat_hash_set<std::string> tokens_;
};

}  // namespace crease::server

#endif  // CREASE_SERVER_AUTH_H_
