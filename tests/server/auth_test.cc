// TokenSet::FromFile: one token a line, blank and '#' lines skipped, and the
// file named in its errors. (Calls with and without tokens against a real
// server: ServiceTest's token tests.)

#include "server/auth.h"

#include <string>

#include "common/file_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_path.h"

namespace crease::server {
namespace {

using ::testing::HasSubstr;

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = testing::TempPath(name);
  EXPECT_TRUE(files::WriteStringToFile(path, text).ok());
  return path;
}

TEST(TokenSetTest, ReadsOneTokenALineSkippingBlankAndCommentLines) {
  const std::string path =
      Write("auth_test_tokens.txt", "# the team\nalpha\n\n  beta  \n#gamma\n");
  absl::StatusOr<TokenSet> tokens = TokenSet::FromFile(path);
  ASSERT_TRUE(tokens.ok()) << tokens.status();
  EXPECT_TRUE(tokens->enabled());
  EXPECT_FALSE(TokenSet().enabled());  // no file: every caller is let in
}

TEST(TokenSetTest, AFileWithNoTokensOrNoFileIsRefusedNamingIt) {
  const std::string empty = Write("auth_test_empty.txt", "# none yet\n\n");
  absl::StatusOr<TokenSet> none = TokenSet::FromFile(empty);
  EXPECT_TRUE(absl::IsInvalidArgument(none.status())) << none.status();
  EXPECT_THAT(none.status().message(), HasSubstr(empty));
  const std::string missing = testing::TempPath("auth_test_missing.txt");
  absl::StatusOr<TokenSet> absent = TokenSet::FromFile(missing);
  EXPECT_FALSE(absent.ok());
  EXPECT_THAT(absent.status().message(), HasSubstr("auth_test_missing.txt"));
}

}  // namespace
}  // namespace crease::server
