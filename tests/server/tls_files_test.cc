// ReadTlsPair (server/tls_files.h): a matching pair is read as it is; a
// missing file, a file that is not a PEM certificate, a key file with no key
// and a key of another certificate are each refused, naming the file.

#include "server/tls_files.h"

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "absl/strings/str_format.h"
#include "common/file_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace crease::server {
namespace {

using ::testing::HasSubstr;

class TlsFilesTest : public ::testing::Test {
 protected:
  // Two self-signed pairs, "a" and "b", made once by openssl (skipped
  // without it or a temporary directory), in a directory of this process's own:
  // ctest runs each test as a process of its own, in parallel, and two
  // processes writing the same files made one read a certificate with the
  // other's key.
  static void SetUpTestSuite() {
    std::string pattern = ::testing::TempDir() + "/tls_files_test_XXXXXX";
    made_ = mkdtemp(pattern.data()) != nullptr;
    dir_ = pattern;
    for (const char* name : {"a", "b"}) {
      const std::string command = absl::StrFormat(
          "openssl req -x509 -newkey rsa:2048 -nodes -days 1 "
          "-subj /CN=localhost -keyout %s/tls_test_%s_key.pem "
          "-out %s/tls_test_%s_cert.pem 2>/dev/null",
          dir_, name, dir_, name);
      made_ = made_ && std::system(command.c_str()) == 0;
    }
  }
  static void TearDownTestSuite() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  void SetUp() override {
    if (!made_)
      GTEST_SKIP()
          << "no certificates: openssl or a temporary directory missing";
  }
  static std::string Path(const char* name) { return dir_ + "/" + name; }

  static inline std::string dir_;
  static inline bool made_ = true;
};

TEST_F(TlsFilesTest, AMatchingPairIsReadAsItIs) {
  absl::StatusOr<TlsPair> pair =
      ReadTlsPair(Path("tls_test_a_cert.pem"), Path("tls_test_a_key.pem"));
  ASSERT_TRUE(pair.ok()) << pair.status();
  absl::StatusOr<std::string> cert =
      files::ReadFileToString(Path("tls_test_a_cert.pem"));
  ASSERT_TRUE(cert.ok());
  EXPECT_EQ(pair->certificate_chain, *cert);
  EXPECT_THAT(pair->private_key, HasSubstr("PRIVATE KEY"));
}

TEST_F(TlsFilesTest, EachBadFileIsRefusedNamingIt) {
  ASSERT_TRUE(
      files::WriteStringToFile(Path("tls_test_junk.pem"), "not a PEM\n").ok());
  const struct {
    const char* cert;
    const char* key;
    const char* says;
  } cases[] = {
      {"tls_test_missing.pem", "tls_test_a_key.pem", "tls_test_missing.pem"},
      {"tls_test_a_cert.pem", "tls_test_missing.pem", "tls_test_missing.pem"},
      {"tls_test_junk.pem", "tls_test_a_key.pem",
       "tls_test_junk.pem: no PEM certificate in it"},
      {"tls_test_a_cert.pem", "tls_test_a_cert.pem",
       "tls_test_a_cert.pem: no PEM private key in it"},
      {"tls_test_a_cert.pem", "tls_test_b_key.pem",
       "tls_test_b_key.pem does not match the certificate in"},
  };
  for (const auto& c : cases) {
    const absl::StatusOr<TlsPair> pair = ReadTlsPair(Path(c.cert), Path(c.key));
    ASSERT_FALSE(pair.ok()) << c.says;
    EXPECT_THAT(std::string(pair.status().message()), HasSubstr(c.says));
  }
}

}  // namespace
}  // namespace crease::server
