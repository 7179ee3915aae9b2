#include "wrinkle/sca2015/shape.h"

#include <cmath>
#include <numbers>

#include "gtest/gtest.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/data/frame_wrinkles.h"
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
  // The slope is the derivative (C1: no jump anywhere, at t = 1 neither),
  // and the profile never exceeds h nor dips below its valley.
  for (float t = -1.05f; t < 1.05f; t += 0.01f) {
    const float numeric =
        (WrinkleProfile(t + 1e-3f, h) - WrinkleProfile(t - 1e-3f, h)) / 2e-3f;
    EXPECT_NEAR(WrinkleProfileSlope(t, h), numeric, 5e-3) << t;
    EXPECT_LE(WrinkleProfile(t, h), h);
    EXPECT_GE(WrinkleProfile(t, h), -h * 32.0f / 243.0f - 1e-6f);
    EXPECT_GE(WrinkleEnvelope(t), 0.0f);
  }
  // The ridge meets the surface at the fold's half-width (t = 1/sqrt(3) of
  // the support), and the valley is 32/243 h deep at t = sqrt(5/9).
  EXPECT_NEAR(WrinkleProfile(1.0f / static_cast<float>(kSupportPerWidth), h),
              0.0f, 1e-6);
  EXPECT_GT(WrinkleProfile(0.57f, h), 0.0f);
  EXPECT_LT(WrinkleProfile(0.58f, h), 0.0f);
  EXPECT_NEAR(WrinkleProfile(std::sqrt(5.0f / 9.0f), h), -h * 32.0f / 243.0f,
              1e-6);
  EXPECT_NEAR(WrinkleProfileSlope(std::sqrt(5.0f / 9.0f), h), 0.0f, 1e-5);
}

// The closed-form integrals the shaders box-filter with, against the
// midpoint rule, from inside and outside the support.
TEST(ProfileTest, IntegralsAreTheProfilesAreas) {
  for (const float t :
       {-1.3f, -0.8f, -0.3f, 0.0f, 0.2f, 0.577f, 0.9f, 1.0f, 1.7f}) {
    constexpr int kSteps = 20000;
    double p = 0, envelope = 0, p2 = 0, slope2 = 0;
    for (int i = 0; i < kSteps; ++i) {
      const float x = static_cast<float>(t * (i + 0.5) / kSteps);
      const double dx = static_cast<double>(t) / kSteps;
      const double value = WrinkleProfile(x, 1.0f);
      const double slope = WrinkleProfileSlope(x, 1.0f);
      p += value * dx;
      envelope += WrinkleEnvelope(x) * dx;
      p2 += value * value * dx;
      slope2 += slope * slope * dx;
    }
    EXPECT_NEAR(WrinkleProfileArea(t), p, 1e-5) << t;
    EXPECT_NEAR(WrinkleEnvelopeArea(t), envelope, 1e-5) << t;
    EXPECT_NEAR(WrinkleProfileSquareArea(t), p2, 1e-5) << t;
    EXPECT_NEAR(WrinkleSlopeSquareArea(t), slope2, 1e-4) << t;
  }
  // Whole areas: the valleys hold part of the ridge's cloth.
  EXPECT_NEAR(WrinkleProfileArea(1.0f), 8.0 / 15 - 3 * 8.0 / 105, 1e-6);
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

TEST(FoldAtMiddleTest, WithoutABandItIsTheThesis) {
  const double l_min = 0.01, l_max = std::numbers::pi * l_min;
  for (double c : {1.0, 1.3, 2.0, 5.0}) {
    const FoldSection fold = FoldAtMiddle(c, l_min, 0.0);
    EXPECT_DOUBLE_EQ(fold.width, MidWidth(c, l_min));
    EXPECT_DOUBLE_EQ(fold.arc, l_max);
  }
}

TEST(FoldAtMiddleTest, HoldsItsBandsSlackInAnArcOfTheLimit) {
  const double l_min = 0.01, l_max = std::numbers::pi * l_min;
  const FoldLimits limits;                  // L_max = pi L_min, 120 degrees
  const double phi = std::numbers::pi / 3;  // half of 120 degrees
  const double ratio = std::sin(phi) / phi;
  // A band slack small enough to leave the width under both caps: the arc is
  // exactly 120 degrees, and it holds the slack (arc - width).
  const double c = 1.2, band = 0.03;  // slack 0.006, the thesis's 0.0052
  const FoldSection fold = FoldAtMiddle(c, l_min, band, limits);
  EXPECT_NEAR(fold.arc - fold.width, band * (c - 1), 1e-12);
  EXPECT_NEAR(fold.width / fold.arc, ratio, 1e-12);
  EXPECT_GT(fold.width, MidWidth(c, l_min));
  EXPECT_LT(fold.width, std::min(band, l_max));
  // A wide band: L_max wide, holding what a 120 degree arc holds, less
  // than its band's slack (the rest would be further folds, not a taller one).
  const FoldSection wide = FoldAtMiddle(1.2, l_min, 0.2, limits);
  EXPECT_NEAR(wide.width, l_max, 1e-12);
  EXPECT_NEAR(wide.width / wide.arc, ratio, 1e-12);
  // Never less cloth than the thesis's fold (at c = 2 that arc is wider than
  // the limit's).
  const FoldSection squeezed = FoldAtMiddle(2.0, l_min, 0.2, limits);
  EXPECT_NEAR(squeezed.width, l_max, 1e-12);
  EXPECT_NEAR(squeezed.arc - squeezed.width, l_max / 2, 1e-12);
  // A narrow band caps the width at the band.
  const FoldSection narrow = FoldAtMiddle(3.0, l_min, 0.02, limits);
  EXPECT_NEAR(narrow.width, 0.02, 1e-12);
  // Less slack in the band than in the fold's own width: the thesis's arc,
  // and never narrower than its width.
  for (double b : {1e-4, 1e-3, 0.005}) {
    const FoldSection thin = FoldAtMiddle(1.3, l_min, b, limits);
    EXPECT_GE(thin.width, MidWidth(1.3, l_min)) << b;
    EXPECT_GE(thin.arc - thin.width, l_max - MidWidth(1.3, l_min) - 1e-12);
  }
  // No compression, no slack beyond the thesis's.
  const FoldSection rest = FoldAtMiddle(1.0, l_min, 0.1, limits);
  EXPECT_DOUBLE_EQ(rest.width, l_max);
  EXPECT_DOUBLE_EQ(rest.arc, l_max);
}

}  // namespace
}  // namespace crease

namespace crease {
namespace {

TEST(BandExtentTest, IsTheTrianglesExtentAlongCompressionSharedByItsWrinkles) {
  // A 4 x 4 sheet of unit cells squeezed to 0.5 along x: every triangle is
  // compressed along x, where each spans one cell (0.5 after the squeeze).
  const io::TriangleMesh sheet = MakeGridSheet(4, 4, 4.0f, 4.0f);
  auto session = *Session::Create(sheet.triangles, sheet.positions, {});
  std::vector<float> squeezed = sheet.positions;
  for (int v = 0; v < sheet.num_vertices(); ++v) squeezed[3 * v] *= 0.5f;
  ASSERT_TRUE(session->ProcessFrame(sheet.positions).ok());
  ASSERT_TRUE(session->ProcessFrame(squeezed).ok());
  const SurfaceFrame& surface = session->surface();
  WrinklePath path;
  for (int32_t f = 0; f < session->num_triangles(); ++f) {
    ASSERT_GT(surface.field[f].compression, 1.5) << f;
    if (path.faces.size() < 3) path.faces.push_back(f);
  }
  std::vector<int32_t> wrinkles_in_face(session->num_triangles(), 1);
  EXPECT_NEAR(BandExtent(surface, path, wrinkles_in_face), 0.5, 1e-9);
  for (int32_t f : path.faces) wrinkles_in_face[f] = 2;
  EXPECT_NEAR(BandExtent(surface, path, wrinkles_in_face), 0.25, 1e-9);
  // Uncompressed triangles give no band.
  ASSERT_TRUE(session->ProcessFrame(sheet.positions).ok());
  std::vector<int32_t> one(session->num_triangles(), 1);
  EXPECT_EQ(BandExtent(session->surface(), path, one), 0.0);
}

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
