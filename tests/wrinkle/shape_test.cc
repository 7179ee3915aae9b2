#include "wrinkle/shape.h"

#include <cmath>
#include <numbers>

#include "gtest/gtest.h"
#include "wrinkle/profile_shared.h"

namespace crease {
namespace {

TEST(ProfileTest, IsC1ZeroAtItsEndsAndPeaksAtH) {
  const float h = 0.7f;
  EXPECT_FLOAT_EQ(WrinkleProfile(0.0f, h), h);
  EXPECT_FLOAT_EQ(WrinkleProfile(1.0f, h), 0.0f);
  EXPECT_FLOAT_EQ(WrinkleProfile(-1.0f, h), 0.0f);
  EXPECT_FLOAT_EQ(WrinkleProfile(1.5f, h), 0.0f);
  EXPECT_FLOAT_EQ(WrinkleProfileSlope(1.0f, h), 0.0f);
  EXPECT_FLOAT_EQ(WrinkleProfileSlope(0.0f, h), 0.0f);
  // Both pieces meet with equal value (2h/3) and slope (-2h) at t = 1/3.
  const float k = 1.0f / 3.0f, eps = 1e-4f;
  EXPECT_NEAR(WrinkleProfile(k - eps, h), WrinkleProfile(k + eps, h),
              4.1 * eps * h);
  EXPECT_NEAR(WrinkleProfile(k, h), 2 * h / 3, 1e-6);
  EXPECT_NEAR(WrinkleProfileSlope(k - eps, h), WrinkleProfileSlope(k + eps, h),
              1e-3);
  // The slope is the derivative, and the profile never exceeds h.
  for (float t = -0.99f; t < 0.99f; t += 0.01f) {
    const float numeric =
        (WrinkleProfile(t + 1e-3f, h) - WrinkleProfile(t - 1e-3f, h)) / 2e-3f;
    EXPECT_NEAR(WrinkleProfileSlope(t, h), numeric, 5e-3) << t;
    EXPECT_LE(WrinkleProfile(t, h), h);
    EXPECT_GE(WrinkleProfile(t, h), 0.0f);
  }
}

TEST(ArcHeightTableTest, MatchesTheCircularArc) {
  const ArcHeightTable table;
  EXPECT_NEAR(table.max_half_angle(), 2.3137, 1e-4);  // sin(phi)/phi = 1/pi
  EXPECT_NEAR(table.HeightPerWidth(1.0), 0.0, 1e-12);
  EXPECT_NEAR(table.HeightPerWidth(2 / std::numbers::pi), 0.5,
              1e-4);  // semicircle
  EXPECT_NEAR(table.HeightPerWidth(1 / std::numbers::pi), 1.138, 1e-3);
  EXPECT_NEAR(table.HeightPerWidth(0.8), 0.317, 1e-3);
  EXPECT_NEAR(table.HeightPerWidth(0.9), 0.208, 1e-3);
  // Exact circle geometry: for any half-angle, chord / arc and height / chord.
  for (double phi = 0.1; phi < 2.3; phi += 0.1) {
    EXPECT_NEAR(table.HeightPerWidth(std::sin(phi) / phi),
                0.5 * std::tan(phi / 2), 2e-4);
  }
}

TEST(ShapeTest, MidWidthFollowsCompression) {
  const double l_min = 0.01, l_max = std::numbers::pi * l_min;
  EXPECT_DOUBLE_EQ(MidWidth(1.0, l_min), l_max);
  EXPECT_DOUBLE_EQ(MidWidth(2.0, l_min), l_max / 2);
  EXPECT_DOUBLE_EQ(MidWidth(100.0, l_min), l_min);
}

}  // namespace
}  // namespace crease
