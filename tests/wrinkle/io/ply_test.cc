#include "wrinkle/io/ply.h"

#include <cstring>
#include <string>

#include "common/file_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_path.h"

namespace crease::io {
namespace {

using ::testing::HasSubstr;

TEST(PlyTest, WritesBinaryFacesWithColorsAndScalars) {
  const float positions[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const Triangle triangles[] = {{0, 1, 2}};
  const Rgb colors[] = {{10, 20, 30}};
  const float compression[] = {1.5f};
  const FaceScalar scalars[] = {{"compression", compression}};
  const std::string path = testing::TempPath("one.ply");
  ASSERT_TRUE(
      WritePlyWithFaceColors(path, positions, triangles, colors, scalars).ok());
  const auto bytes = files::ReadFileToString(path);
  ASSERT_TRUE(bytes.ok());
  const size_t header_end = bytes->find("end_header\n");
  ASSERT_NE(header_end, std::string::npos);
  const std::string header = bytes->substr(0, header_end);
  EXPECT_THAT(header, HasSubstr("element vertex 3\n"));
  EXPECT_THAT(header, HasSubstr("element face 1\n"));
  EXPECT_THAT(header, HasSubstr("property float compression\n"));
  const std::string body = bytes->substr(header_end + 11);
  // 3 vertices * 12 bytes + (1 count + 3 * 4 indices + 3 colour + 4 scalar)
  // bytes.
  ASSERT_EQ(body.size(), 36u + 20u);
  EXPECT_EQ(static_cast<uint8_t>(body[36]), 3);
  EXPECT_EQ(static_cast<uint8_t>(body[36 + 13]), 10);
  float scalar;
  std::memcpy(&scalar, body.data() + 36 + 16, 4);
  EXPECT_FLOAT_EQ(scalar, 1.5f);
}

TEST(PlyTest, RejectsMismatchedArrays) {
  const float positions[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const Triangle triangles[] = {{0, 1, 2}};
  const Triangle bad_triangles[] = {{0, 1, 3}};
  const Rgb colors[] = {{10, 20, 30}};
  const std::string path = testing::TempPath("bad.ply");
  EXPECT_EQ(WritePlyWithFaceColors(path, positions, triangles, {}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      WritePlyWithFaceColors(path, positions, bad_triangles, colors).code(),
      absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace crease::io
