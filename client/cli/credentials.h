#ifndef CREASE_CLIENT_CLI_CREDENTIALS_H_
#define CREASE_CLIENT_CLI_CREDENTIALS_H_

// What crease-client and crease-preview read for --token_file and --tls_ca:
// one rule for both.

#include <string>

#include "absl/status/status.h"
#include "client/crease_client.h"

namespace crease::client {

// Sets options->token to the first line of `token_file` (whitespace
// stripped; InvalidArgument when it is empty) and
// options->tls_root_certificates to the PEM in `tls_ca`; an empty path sets
// nothing. The file's read error otherwise.
absl::Status ReadCredentials(const std::string& token_file,
                             const std::string& tls_ca, ClientOptions* options);

}  // namespace crease::client

#endif  // CREASE_CLIENT_CLI_CREDENTIALS_H_
