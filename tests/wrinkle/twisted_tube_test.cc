// A tube twisted about its axis (wrinkle/core/synthetic_animations.h), a
// garment nobody tuned on, and the one whose compression runs diagonally to
// both the tube's axis and its mesh: the surface shears uniformly, so a person
// expects one family of parallel helical folds round the whole tube, along
// the diagonal the twist stretches, for as long as the twist is held, and
// nothing once it is undone.

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numbers>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/core/synthetic_animations.h"
#include "wrinkle/sca2015/session.h"
#include "wrinkle/sca2015/wrinkle_stats.h"

namespace crease {
namespace {

constexpr double kDegrees = 180.0 / std::numbers::pi;

// The schedule: still while resting, turning without a step to the full
// twist, held, turning back, still at the end.
TEST(TwistedTubeTest, TwistFollowsTheSchedule) {
  const TwistedTubeParams p;
  const RiseHoldFall& s = p.schedule;
  const double full = p.twist_degrees / kDegrees;
  const int held = s.held_from();
  const int untwist = s.held_to();
  const int end = s.frames();
  for (int f = 0; f <= s.rest; ++f) EXPECT_EQ(TubeTwistAngle(p, f), 0);
  for (int f = s.rest + 1; f < held; ++f) {
    EXPECT_GT(TubeTwistAngle(p, f), TubeTwistAngle(p, f - 1)) << f;
  }
  for (int f = held; f <= untwist; ++f) EXPECT_EQ(TubeTwistAngle(p, f), full);
  for (int f = untwist + s.fall; f < end; ++f) {
    EXPECT_EQ(TubeTwistAngle(p, f), 0) << f;
  }
  EXPECT_EQ(TwistedTubeAnimation(p).frames.size(), static_cast<size_t>(end));
}

// The twist by hand: the bottom ring stays, the top ring turns by the whole
// twist, every ring keeps its edges' lengths, and a column's edge (rest
// length h) becomes the hypotenuse of h and the arc r twist h / length.
TEST(TwistedTubeTest, RingsKeepTheirLengthAndColumnsShear) {
  const TwistedTubeParams p;
  const SyntheticAnimation animation = TwistedTubeAnimation(p);
  const std::vector<float>& rest = animation.rest.positions;
  const std::vector<float>& held = animation.frames[p.schedule.held_from()];
  const auto at = [&](const std::vector<float>& x, int ring, int k) {
    const int v = ring * p.around + k;
    return Eigen::Vector3d(x[3 * v], x[3 * v + 1], x[3 * v + 2]);
  };
  const double twist = p.twist_degrees / kDegrees;
  const double h = p.length / (p.rings - 1);
  for (int k = 0; k < p.around; ++k) {
    EXPECT_LT((at(held, 0, k) - at(rest, 0, k)).norm(), 1e-6);
    const Eigen::Vector3d top = at(rest, p.rings - 1, k);
    const Eigen::Vector3d turned =
        Eigen::AngleAxisd(twist, Eigen::Vector3d::UnitY()) * top;
    EXPECT_LT((at(held, p.rings - 1, k) - turned).norm(), 1e-6) << k;
  }
  for (int ring = 0; ring + 1 < p.rings; ++ring) {
    for (int k = 0; k < p.around; ++k) {
      const int next = (k + 1) % p.around;
      EXPECT_NEAR((at(held, ring, k) - at(held, ring, next)).norm(),
                  (at(rest, ring, k) - at(rest, ring, next)).norm(), 1e-6);
      // The chord of the arc the column's upper end turns through.
      const double chord = 2 * p.radius * std::sin(0.5 * twist * h / p.length);
      EXPECT_NEAR((at(held, ring + 1, k) - at(held, ring, k)).norm(),
                  std::hypot(h, chord), 1e-6);
    }
  }
}

// The folds' expected lean: simple shear of amount g stretches most along
// the direction at atan(2 / g) / 2 from the shear's own (the circumference),
// in the sheared shape; a fold runs along it.
double FoldLeanDegrees(const TwistedTubeParams& p) {
  const double shear =
      p.radius * std::abs(p.twist_degrees) / kDegrees / p.length;
  return 0.5 * std::atan(2.0 / shear) * kDegrees;
}

// On every frame of the hold from its tenth: at least six folds; every fold
// leans from the circumference by the stretched diagonal's angle (within 15
// degrees) and the same way as the twist; together they reach every quarter
// of the way round the tube; nine in ten of the tenth frame's folds last to
// the hold's end, and none is left once the tube is straight again. Both
// ways round: one lines the folds up with the mesh's diagonals, the other
// across them.
TEST(TwistedTubeTest, HelicalFoldsRoundTheWholeTubeWhileHeld) {
  for (const double degrees : {150.0, -150.0}) {
    TwistedTubeParams params;
    params.twist_degrees = degrees;
    const SyntheticAnimation animation = TwistedTubeAnimation(params);
    auto session = testing::NewSession(animation.rest);
    ASSERT_NE(session, nullptr);
    WrinkleStatistics stats;
    const int held_from = params.schedule.held_from();
    const int held_to = params.schedule.held_to();
    const double lean = FoldLeanDegrees(params);
    std::map<uint32_t, int> frames_held;
    std::vector<uint32_t> tenth;
    double lean_min = 90, lean_max = 0;
    size_t fewest = 1000;
    for (int f = 0; f < static_cast<int>(animation.frames.size()); ++f) {
      ASSERT_TRUE(session->ProcessFrame(animation.frames[f]).ok());
      stats.AddFrame(session->surface(), session->tracker());
      if (f < held_from + 10 || f >= held_to) continue;
      const WrinkleTracker& tracker = session->tracker();
      fewest = std::min(fewest, tracker.wrinkles().size());
      EXPECT_GE(tracker.wrinkles().size(), 6u)
          << degrees << " deg, frame " << f;
      bool quarter_reached[4] = {false, false, false, false};
      for (size_t w = 0; w < tracker.wrinkles().size(); ++w) {
        const uint32_t id = tracker.wrinkles()[w].id;
        ++frames_held[id];
        if (f == held_from + 10) tenth.push_back(id);
        const auto& refined = tracker.shapes()[w].refined;
        for (const RefinedPoint& p : refined) {
          const double around = std::atan2(p.position.z(), p.position.x());
          const int quarter = static_cast<int>(std::floor(
              (around + std::numbers::pi) / (0.5 * std::numbers::pi)));
          quarter_reached[std::clamp(quarter, 0, 3)] = true;
        }
        const auto mid = ArcLengthMiddle(refined);
        if (!mid) continue;
        // The tangent's rise along the axis, signed so that a turn of the
        // top anticlockwise seen from above (positive degrees: rest angle
        // a grows with height) leans each fold one way.
        const Eigen::Vector3d radial =
            Eigen::Vector3d(mid->point.x(), 0, mid->point.z()).normalized();
        const Eigen::Vector3d forward =
            Eigen::Vector3d::UnitY().cross(radial);  // a growing rest angle
        Eigen::Vector3d t = mid->tangent;
        if (t.dot(forward) < 0) t = -t;
        const double rise = std::asin(std::clamp(t.y(), -1.0, 1.0)) * kDegrees;
        // Carrying the rest angle a forward with height stretches the
        // diagonal that rises forward (the other one compresses), and folds
        // run along the stretched one.
        const double signed_lean = degrees > 0 ? rise : -rise;
        lean_min = std::min(lean_min, signed_lean);
        lean_max = std::max(lean_max, signed_lean);
        EXPECT_NEAR(signed_lean, lean, 15.0)
            << degrees << " deg, frame " << f << ", fold " << id;
      }
      for (int q = 0; q < 4; ++q) {
        EXPECT_TRUE(quarter_reached[q])
            << degrees << " deg, frame " << f << ", quarter " << q;
      }
    }
    int lasting = 0;
    for (uint32_t id : tenth) {
      lasting += frames_held[id] >= params.schedule.held - 10;
    }
    EXPECT_GE(lasting, 0.9 * tenth.size()) << lasting << " of " << tenth.size();
    EXPECT_TRUE(session->tracker().wrinkles().empty()) << degrees << " deg";
    const WrinkleStatsSummary s = stats.Summary();
    EXPECT_LE(s.median_neighbour_angle_in_cloth, 20.0) << degrees << " deg";
    EXPECT_LE(s.median_sharpest_turn_in_cloth, 20.0) << degrees << " deg";
    EXPECT_LE(s.churn(), 0.05) << degrees << " deg";
    std::printf(
        "twist %.0f deg: at least %zu folds a held frame, leaning %.1f-%.1f "
        "deg (the stretched diagonal: %.1f); neighbour angle within the "
        "cloth %.1f deg (3D %.1f), sharpest turn within the cloth %.1f deg "
        "(3D %.1f), %.2f per 100 triangles, churn %.3f\n",
        degrees, fewest, lean_min, lean_max, lean,
        s.median_neighbour_angle_in_cloth, s.median_neighbour_angle,
        s.median_sharpest_turn_in_cloth, s.median_sharpest_turn,
        s.wrinkles_per_100_triangles, s.churn());
  }
}

}  // namespace
}  // namespace crease
