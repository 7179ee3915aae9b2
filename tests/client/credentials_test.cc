// --token_file and --tls_ca as crease-client and crease-preview read them.

#include "client/cli/credentials.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "common/file_util.h"
#include "tests/testing/temp_path.h"

namespace crease::client {
namespace {

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = testing::TempPath(name);
  EXPECT_TRUE(files::WriteStringToFile(path, text).ok());
  return path;
}

TEST(CredentialsTest, TheTokenIsTheFirstLineStrippedAndThePemAsItIs) {
  ClientOptions options;
  ASSERT_TRUE(ReadCredentials(Write("token", "  s3cret \nsecond line\n"),
                              Write("ca.pem", "-----BEGIN-----\nx\n"), &options)
                  .ok());
  EXPECT_EQ(options.token, "s3cret");
  EXPECT_EQ(options.tls_root_certificates, "-----BEGIN-----\nx\n");
  ClientOptions none;
  ASSERT_TRUE(ReadCredentials("", "", &none).ok());
  EXPECT_EQ(none.token, "");
  EXPECT_EQ(none.tls_root_certificates, "");
}

TEST(CredentialsTest, AnEmptyTokenOrAMissingFileIsAnError) {
  ClientOptions options;
  const std::string empty = Write("empty_token", " \n");
  EXPECT_THAT(ReadCredentials(empty, "", &options).message(),
              ::testing::HasSubstr("no token"));
  EXPECT_FALSE(
      ReadCredentials(testing::TempPath("no_such_file"), "", &options).ok());
  EXPECT_FALSE(
      ReadCredentials("", testing::TempPath("no_such_pem"), &options).ok());
}

}  // namespace
}  // namespace crease::client
