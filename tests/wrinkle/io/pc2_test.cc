#include "wrinkle/io/pc2.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/bundled_data.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/io/obj.h"

namespace crease::io {
namespace {

using ::testing::HasSubstr;

PointCache TwoByTwo() {
  PointCache cache;
  cache.num_points = 2;
  cache.num_samples = 2;
  cache.start_frame = 0;
  cache.sample_rate = 1;
  cache.positions = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11.5f};
  return cache;
}

void ExpectInvalid(const std::string& bytes, const std::string& message,
                   int expected_points = -1) {
  const auto cache = ParsePc2(bytes, "anim.pc2", expected_points);
  ASSERT_FALSE(cache.ok());
  EXPECT_EQ(cache.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(cache.status().message(), HasSubstr(message));
}

TEST(Pc2Test, RoundTrips) {
  const std::string bytes = FormatPc2(TwoByTwo());
  EXPECT_EQ(bytes.size(), 32u + 12u * 2 * 2);
  const auto cache = ParsePc2(bytes, "anim.pc2", 2);
  ASSERT_TRUE(cache.ok()) << cache.status();
  EXPECT_EQ(cache->num_points, 2);
  EXPECT_EQ(cache->num_samples, 2);
  EXPECT_EQ(cache->positions, TwoByTwo().positions);
  EXPECT_FLOAT_EQ(cache->Sample(1)[5], 11.5f);
}

TEST(Pc2Test, WrongMagic) {
  std::string bytes = FormatPc2(TwoByTwo());
  bytes[0] = 'X';
  ExpectInvalid(bytes, "anim.pc2: offset 0: bad magic");
}

TEST(Pc2Test, WrongVersion) {
  std::string bytes = FormatPc2(TwoByTwo());
  bytes[12] = 2;
  ExpectInvalid(bytes, "anim.pc2: offset 12: unsupported version 2");
}

TEST(Pc2Test, TruncatedHeader) {
  ExpectInvalid(FormatPc2(TwoByTwo()).substr(0, 20),
                "anim.pc2: offset 20: truncated header");
}

TEST(Pc2Test, TruncatedData) {
  const std::string bytes = FormatPc2(TwoByTwo());
  ExpectInvalid(
      bytes.substr(0, bytes.size() - 3),
      "anim.pc2: offset 77: truncated: 2 points x 2 samples need 80 bytes");
}

TEST(Pc2Test, TrailingBytes) {
  ExpectInvalid(FormatPc2(TwoByTwo()) + "xx",
                "anim.pc2: offset 80: 2 trailing bytes");
}

TEST(Pc2Test, BadCounts) {
  PointCache cache = TwoByTwo();
  cache.num_points = 0;
  ExpectInvalid(FormatPc2(cache), "offset 16: numPoints is 0");
  cache = TwoByTwo();
  cache.num_samples = -1;
  ExpectInvalid(FormatPc2(cache), "offset 28: numSamples is -1");
  ExpectInvalid(FormatPc2(TwoByTwo()),
                "numPoints is 2 but the mesh has 3 vertices", 3);
}

TEST(Pc2Test, NonFiniteValueNamesItsOffset) {
  PointCache cache = TwoByTwo();
  cache.positions[10] = std::numeric_limits<float>::quiet_NaN();
  ExpectInvalid(
      FormatPc2(cache),
      "anim.pc2: offset 72: non-finite value (sample 1, point 1, axis y)");
}

TEST(Pc2Test, WriteRejectsInconsistentCache) {
  PointCache cache = TwoByTwo();
  cache.positions.pop_back();
  EXPECT_EQ(WritePc2("/tmp/unused.pc2", cache).code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(Pc2Test, BundledAnimationMatchesItsObj) {
  const auto anim = ReadAnimation(testing::BundledPath("cloth_pants_knee.obj"),
                                  testing::BundledPath("cloth_pants_knee.pc2"));
  ASSERT_TRUE(anim.ok()) << anim.status();
  EXPECT_EQ(anim->frames.num_points, 414);
  EXPECT_EQ(anim->num_frames(), 120);
  // Sample 0 equals the OBJ up to its 6-decimal rounding.
  const auto first = anim->frames.Sample(0);
  for (size_t i = 0; i < first.size(); ++i) {
    ASSERT_NEAR(first[i], anim->mesh.positions[i], 1e-5) << i;
  }
}

TEST(Pc2Test, AnimationWithMismatchedCountsFails) {
  const auto anim = ReadAnimation(testing::BundledPath("cloth_pants_knee.obj"),
                                  testing::BundledPath("cloth_skirt_walk.pc2"));
  ASSERT_FALSE(anim.ok());
  EXPECT_THAT(
      anim.status().message(),
      HasSubstr("cloth_skirt_walk.pc2: offset 16: numPoints is 416 but the "
                "mesh has 414 vertices"));
}

}  // namespace
}  // namespace crease::io
