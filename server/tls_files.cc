#include "server/tls_files.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <memory>

#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "common/status_macros.h"

namespace crease::server {
namespace {

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};

std::unique_ptr<BIO, BioFree> MemoryBio(const std::string& bytes) {
  return std::unique_ptr<BIO, BioFree>(
      BIO_new_mem_buf(bytes.data(), static_cast<int>(bytes.size())));
}

}  // namespace

absl::StatusOr<TlsPair> ReadTlsPair(const std::string& cert_file,
                                    const std::string& key_file) {
  TlsPair pair;
  CREASE_ASSIGN_OR_RETURN(std::string cert, files::ReadFileToString(cert_file));
  CREASE_ASSIGN_OR_RETURN(std::string key, files::ReadFileToString(key_file));
  std::unique_ptr<X509, X509Free> x509(
      PEM_read_bio_X509(MemoryBio(cert).get(), nullptr, nullptr, nullptr));
  if (x509 == nullptr) {
    ERR_clear_error();
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: no PEM certificate in it", cert_file));
  }
  std::unique_ptr<EVP_PKEY, KeyFree> private_key(
      PEM_read_bio_PrivateKey(MemoryBio(key).get(), nullptr, nullptr, nullptr));
  if (private_key == nullptr) {
    ERR_clear_error();
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: no PEM private key in it (or it needs a passphrase)", key_file));
  }
  if (X509_check_private_key(x509.get(), private_key.get()) != 1) {
    ERR_clear_error();
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s does not match the certificate in %s (TLS)", key_file, cert_file));
  }
  pair.certificate_chain = std::move(cert);
  pair.private_key = std::move(key);
  return pair;
}

}  // namespace crease::server
