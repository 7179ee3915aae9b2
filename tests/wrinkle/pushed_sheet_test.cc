// A flat sheet pushed together in its own plane, most in its middle
// (wrinkle/core/synthetic_animations.h), a garment nobody tuned on: one wide
// compressed region, uniform along the push's cross direction, with no fold
// of the coarse mesh's own. A person expects a family of parallel straight
// folds across the push, side by side over the compressed middle, for as long
// as it is held, and nothing once it is let go.

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/core/synthetic_animations.h"
#include "wrinkle/sca2015/session.h"
#include "wrinkle/sca2015/wrinkle_stats.h"

namespace crease {
namespace {

// On every frame of the hold from its tenth: at least five folds; each runs
// across the push (its chord within 10 degrees of the sheet's z axis) nearly
// the whole depth of the sheet (at least 80 %), with its middle in the
// compressed middle (where the squeeze exceeds tau: within 0.16 of the
// centre line at rest, less once squeezed); side by side, each within 4
// widths of the next across the push; none alive once let go.
TEST(PushedSheetTest, ParallelFoldsAcrossThePushFillTheMiddle) {
  const PushedSheetParams params;
  const SyntheticAnimation animation = PushedSheetAnimation(params);
  auto session = testing::NewSession(animation.rest);
  ASSERT_NE(session, nullptr);
  WrinkleStatistics stats;
  const int held_from = params.schedule.held_from();
  const int held_to = params.schedule.held_to();
  const double max_sideways = std::sin(10.0 * std::numbers::pi / 180.0);
  size_t fewest = 1000;
  double widest_gap = 0, shortest = 1;
  for (int f = 0; f < static_cast<int>(animation.frames.size()); ++f) {
    ASSERT_TRUE(session->ProcessFrame(animation.frames[f]).ok());
    stats.AddFrame(session->surface(), session->tracker());
    if (f < held_from + 10 || f >= held_to) continue;
    const WrinkleTracker& tracker = session->tracker();
    fewest = std::min(fewest, tracker.wrinkles().size());
    EXPECT_GE(tracker.wrinkles().size(), 5u) << "frame " << f;
    std::vector<std::pair<double, double>> across;  // mid x, width
    for (size_t w = 0; w < tracker.wrinkles().size(); ++w) {
      const auto& refined = tracker.shapes()[w].refined;
      ASSERT_GE(refined.size(), 2u);
      const Eigen::Vector3d chord =
          refined.back().position - refined.front().position;
      EXPECT_LE(std::abs(chord.x()), max_sideways * chord.norm())
          << "frame " << f << ", fold " << tracker.wrinkles()[w].id;
      shortest = std::min(shortest, std::abs(chord.z()));
      EXPECT_GE(std::abs(chord.z()), 0.8) << "frame " << f;
      const auto mid = ArcLengthMiddle(refined);
      ASSERT_TRUE(mid.has_value());
      EXPECT_LE(std::abs(mid->point.x() - 0.5), 0.16) << "frame " << f;
      across.push_back({mid->point.x(), tracker.shapes()[w].mid_width});
    }
    std::sort(across.begin(), across.end());
    for (size_t k = 1; k < across.size(); ++k) {
      const double gap = (across[k].first - across[k - 1].first) /
                         std::max(across[k].second, across[k - 1].second);
      widest_gap = std::max(widest_gap, gap);
      EXPECT_LE(gap, 4.0) << "frame " << f << ", after fold " << k - 1;
    }
  }
  EXPECT_TRUE(session->tracker().wrinkles().empty());
  const WrinkleStatsSummary s = stats.Summary();
  EXPECT_LE(s.median_neighbour_angle_in_cloth, 20.0);
  EXPECT_LE(s.median_sharpest_turn_in_cloth, 20.0);
  EXPECT_LE(s.churn(), 0.05);
  std::printf(
      "pushed sheet: at least %zu folds a held frame, at most %.1f widths "
      "apart, the shortest spanning %.2f of the sheet; neighbour angle %.1f "
      "deg, sharpest turn %.1f deg, mid width %.1f %% of the diagonal\n",
      fewest, widest_gap, shortest, s.median_neighbour_angle,
      s.median_sharpest_turn, 100 * s.median_mid_width_relative);
}

}  // namespace
}  // namespace crease
