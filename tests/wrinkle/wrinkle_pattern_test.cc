#include "wrinkle/wrinkle_maps/wrinkle_pattern.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace crease {
namespace {

using ::testing::HasSubstr;

// 4 x 2 texels, one channel: row 0 is 0 1 2 3 (scaled to [-1, 1] by / 4),
// row 1 the same plus 0.5 / 4.
WrinklePattern Ramp() {
  WrinklePattern p;
  p.width = 4;
  p.height = 2;
  p.channels = 1;
  p.samples = {0.0f, 0.25f, 0.5f, 0.75f, 0.125f, 0.375f, 0.625f, 0.875f};
  return p;
}

TEST(WrinklePatternTest, ValidPatternPasses) {
  EXPECT_TRUE(ValidatePattern(Ramp()).ok());
}

TEST(WrinklePatternTest, ValidationNamesFieldAndNumbers) {
  WrinklePattern p = Ramp();
  p.width = 0;
  EXPECT_THAT(ValidatePattern(p).message(), HasSubstr("size 0 x 2"));
  p = Ramp();
  p.height = kMaxPatternSize + 1;
  EXPECT_THAT(ValidatePattern(p).message(), HasSubstr("4097"));
  p = Ramp();
  p.channels = 4;
  EXPECT_THAT(ValidatePattern(p).message(), HasSubstr("4 channels"));
  p = Ramp();
  p.samples.pop_back();
  EXPECT_THAT(ValidatePattern(p).message(), HasSubstr("7 samples, expected 8"));
  p = Ramp();
  p.samples[5] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_THAT(ValidatePattern(p).message(), HasSubstr("texel (1, 1)"));
  p = Ramp();
  p.samples[2] = 1.5f;
  EXPECT_THAT(ValidatePattern(p).message(), HasSubstr("is 1.5"));
  EXPECT_EQ(ValidatePattern(p).code(), absl::StatusCode::kInvalidArgument);
}

TEST(WrinklePatternTest, BilinearBetweenTexelCentres) {
  const WrinklePattern p = Ramp();
  // Texel (x, y) is centred at ((x + 0.5) / 4, (y + 0.5) / 2).
  EXPECT_FLOAT_EQ(SamplePattern(p, 0, {0.125f, 0.25f}), 0.0f);
  EXPECT_FLOAT_EQ(SamplePattern(p, 0, {0.625f, 0.75f}), 0.625f);
  // Halfway between texels (1, 0), (2, 0), (1, 1), (2, 1).
  EXPECT_FLOAT_EQ(SamplePattern(p, 0, {0.5f, 0.5f}),
                  (0.25f + 0.5f + 0.375f + 0.625f) / 4);
  // A quarter of the way from texel 1 to texel 2 in row 0.
  EXPECT_FLOAT_EQ(SamplePattern(p, 0, {0.375f + 0.0625f, 0.25f}), 0.3125f);
}

TEST(WrinklePatternTest, RepeatWrapsAndClampExtends) {
  WrinklePattern p = Ramp();
  // u = 0 is halfway between the last texel (0.75) and the first (0).
  EXPECT_FLOAT_EQ(SamplePattern(p, 0, {0.0f, 0.25f}), 0.375f);
  EXPECT_FLOAT_EQ(SamplePattern(p, 0, {2.375f, -0.75f}),
                  SamplePattern(p, 0, {0.375f, 0.25f}));
  p.wrap = PatternWrap::kClampToEdge;
  EXPECT_FLOAT_EQ(SamplePattern(p, 0, {0.0f, 0.25f}), 0.0f);
  EXPECT_FLOAT_EQ(SamplePattern(p, 0, {5.0f, 0.25f}), 0.75f);
}

TEST(WrinklePatternTest, SinusoidFrequenciesAreWholeCycles) {
  EXPECT_EQ(SinusoidFrequency(1.0 / 16, 0), Eigen::Vector2i(16, 0));
  EXPECT_EQ(SinusoidFrequency(1.0 / 16, 1), Eigen::Vector2i(8, 14));
  EXPECT_EQ(SinusoidFrequency(1.0 / 16, 2), Eigen::Vector2i(-8, 14));
  // The rounded 60 degree wave: 60.3 degrees, wavelength 0.0620 (asked 0.0625).
  const Eigen::Vector2d f = SinusoidFrequency(1.0 / 16, 1).cast<double>();
  EXPECT_NEAR(std::atan2(f.y(), f.x()) * 180 / std::numbers::pi, 60.26, 0.01);
  EXPECT_NEAR(1 / f.norm(), 0.06202, 1e-5);
  // The longest wavelength still has whole cycles, never none.
  EXPECT_EQ(SinusoidFrequency(1.0, 0), Eigen::Vector2i(1, 0));
  for (int c = 0; c < 3; ++c) EXPECT_FALSE(SinusoidFrequency(1.0, c).isZero());
}

TEST(WrinklePatternTest, SinusoidSamplesAndSeamlessTile) {
  SinusoidPatternParams params;
  params.wavelength = 1.0 / 8;
  params.resolution = 256;
  auto pattern = MakeSinusoidPattern(params);
  ASSERT_TRUE(pattern.ok()) << pattern.status();
  ASSERT_TRUE(ValidatePattern(*pattern).ok());
  EXPECT_EQ(pattern->channels, 3);
  // Texel (5, 9), channel 1 (frequency (4, 7)).
  const double u = 5.5 / 256, v = 9.5 / 256;
  EXPECT_NEAR(pattern->samples[(9 * 256 + 5) * 3 + 1],
              std::sin(2 * std::numbers::pi * (4 * u + 7 * v)), 1e-6);
  // Across the tile's edge the sinusoid continues: at u = 0 (between the
  // last and first texel columns) each channel is its sinusoid up to the
  // bilinear error of 32 texels per wavelength (< 0.01), and is the same one
  // tile further.
  for (int c = 0; c < 3; ++c) {
    const Eigen::Vector2i f = SinusoidFrequency(params.wavelength, c);
    for (float s : {0.0f, 0.3f, 0.71f}) {
      const Eigen::Vector2f uv(s, 0.0f);
      const double expected = std::sin(2 * std::numbers::pi * f.x() * s);
      EXPECT_NEAR(SamplePattern(*pattern, c, uv), expected, 0.01) << c;
      EXPECT_NEAR(SamplePattern(*pattern, c, uv + Eigen::Vector2f(1, 1)),
                  SamplePattern(*pattern, c, uv), 1e-5);
    }
  }
}

TEST(WrinklePatternTest, SinusoidRejectsBadParams) {
  const auto message = [](SinusoidPatternParams p) {
    return std::string(MakeSinusoidPattern(p).status().message());
  };
  SinusoidPatternParams p;
  p.wavelength = 0;
  EXPECT_THAT(message(p), HasSubstr("wavelength 0"));
  p.wavelength = 2;
  EXPECT_THAT(message(p), HasSubstr("wavelength 2"));
  p = {};
  p.resolution = 3;
  EXPECT_THAT(message(p), HasSubstr("resolution 3"));
  p = {};
  p.resolution = 32;  // 2 texels per wavelength 1/16
  EXPECT_THAT(message(p), HasSubstr("is 2 texels"));
  p = {};
  p.channels = 0;
  EXPECT_THAT(message(p), HasSubstr("0 channels"));
  p.channels = 4;
  EXPECT_THAT(message(p), HasSubstr("4 channels"));
  p.channels = 1;
  auto one = MakeSinusoidPattern(p);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->samples.size(), 256u * 256u);
}

}  // namespace
}  // namespace crease
