#ifndef CREASE_SERVER_TLS_FILES_H_
#define CREASE_SERVER_TLS_FILES_H_

#include <string>

#include "absl/status/statusor.h"

namespace crease::server {

struct TlsPair {
  std::string certificate_chain;  // PEM
  std::string private_key;        // PEM
};

// Reads both files and checks them with OpenSSL before gRPC sees them: gRPC
// only fails to listen, with no reason given, when the key does not match
// the certificate or either is not PEM. Errors name the file and the problem.
absl::StatusOr<TlsPair> ReadTlsPair(const std::string& cert_file,
                                    const std::string& key_file);

}  // namespace crease::server

#endif  // CREASE_SERVER_TLS_FILES_H_
