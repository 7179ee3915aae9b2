#include "wrinkle/sca2015/shape.h"

#include <cmath>
#include <numbers>

#include "gtest/gtest.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/data/profile_shared.h"
#include "wrinkle/sca2015/session.h"

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

namespace crease {
namespace {

// Paths of no or one point have no shape (and sizing their samples first
// wrapped around to a huge count for an empty one).
TEST(ShapeTest, PathsOfFewerThanTwoPointsHaveNoShape) {
  const io::TriangleMesh sheet = MakeGridSheet(2, 2, 1.0f, 1.0f);
  auto session = *Session::Create(sheet.triangles, sheet.positions, {});
  ASSERT_TRUE(session->ProcessFrame(sheet.positions).ok());
  static const ArcHeightTable kTable;
  for (int points : {0, 1}) {
    WrinklePath path;
    for (int i = 0; i < points; ++i) {
      path.points.push_back({0, 0.5});
      path.faces.push_back(0);
    }
    WrinkleShape shape;
    shape.refined.resize(7);
    shape.length = 1;
    ShapePath(session->surface(), path, 0.01, kTable, 4, &shape);
    EXPECT_TRUE(shape.refined.empty()) << points << " points";
    EXPECT_EQ(shape.length, 0) << points << " points";
  }
}

TEST(TriangleRangesTest, EveryTriangleAWrinkleReachesListsIt) {
  // Wrinkles on a squeezed sheet; brute force: sample each triangle densely,
  // and where a sample lies within half a width of a refined point of a
  // wrinkle, the triangle's list must hold that wrinkle with a segment range
  // covering that point.
  const io::TriangleMesh sheet = MakeGridSheet(12, 12, 1.0f, 1.0f);
  SessionParams params;
  params.wrinkles.min_width =
      0.02;  // wide enough to spill into neighbouring triangles
  auto session = *Session::Create(sheet.triangles, sheet.positions, params);
  std::vector<float> squeezed = sheet.positions;
  for (int v = 0; v < sheet.num_vertices(); ++v) squeezed[3 * v] *= 0.59f;
  ASSERT_TRUE(session->ProcessFrame(sheet.positions).ok());
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(session->ProcessFrame(squeezed).ok());
  const WrinkleTracker& tracker = session->tracker();
  ASSERT_FALSE(tracker.wrinkles().empty());
  const SurfaceFrame& surface = session->surface();
  const int k = params.wrinkles.samples_per_segment;
  int checked = 0;
  for (int32_t f = 0; f < session->num_triangles(); ++f) {
    const auto begin = tracker.ranges().begin() + tracker.range_offsets()[f];
    const auto end = tracker.ranges().begin() + tracker.range_offsets()[f + 1];
    for (size_t w = 0; w < tracker.wrinkles().size(); ++w) {
      const auto& refined = tracker.shapes()[w].refined;
      for (size_t r = 0; r < refined.size(); ++r) {
        bool reaches = false;
        for (int a = 0; a <= 20 && !reaches; ++a) {
          for (int b = 0; a + b <= 20 && !reaches; ++b) {
            const Eigen::Vector3d x0 = surface.Corner(f, 0);
            const Eigen::Vector3d q = x0 +
                                      (a / 20.0) * (surface.Corner(f, 1) - x0) +
                                      (b / 20.0) * (surface.Corner(f, 2) - x0);
            reaches = (q - refined[r].position).norm() < 0.5 * refined[r].width;
          }
        }
        if (!reaches) continue;
        ++checked;
        // Refined point r belongs to segment r / k (and r / k - 1 at a joint).
        const int seg =
            std::min<int>(r / k, tracker.wrinkles()[w].num_segments() - 1);
        bool listed = false;
        for (auto it = begin; it != end; ++it) {
          listed |= it->wrinkle == static_cast<int32_t>(w) &&
                    ((it->first_segment <= seg && seg <= it->last_segment) ||
                     (r % k == 0 && seg > 0 && it->first_segment <= seg - 1 &&
                      seg - 1 <= it->last_segment));
        }
        ASSERT_TRUE(listed)
            << "triangle " << f << " wrinkle " << w << " point " << r;
      }
    }
  }
  EXPECT_GT(checked, 10);
}

}  // namespace
}  // namespace crease
