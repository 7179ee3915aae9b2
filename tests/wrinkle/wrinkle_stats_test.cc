// What a viewer sees of the wrinkles: the statistics themselves on hand-made
// cases, the scale-aware default width, the two thresholds, joining, and the
// targets on the bundled animations.

#include "wrinkle/sca2015/wrinkle_stats.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/bundled_data.h"
#include "tests/testing/session_runner.h"
#include "tests/wrinkle/wrinkle_sheet_test.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/io/animation.h"
#include "wrinkle/sca2015/metrics.h"
#include "wrinkle/sca2015/session.h"

namespace crease {
namespace {

using testing::NewSession;

// The edge whose midpoint is nearest to (x, 0, z) on the sheet.
EdgePoint EdgeNear(const SurfaceFrame& surface, double x, double z) {
  const Eigen::Vector3d target(x, 0, z);
  EdgePoint best{0, 0.5};
  double best_d = 1e30;
  for (int32_t e = 0; e < surface.topology->num_edges(); ++e) {
    const double d = (surface.Position({e, 0.5}) - target).norm();
    if (d < best_d) {
      best_d = d;
      best = {e, 0.5};
    }
  }
  return best;
}

// A straight "wrinkle" along Z at x from z0 to z1 (points only: the statistics
// read points, segment counts and shapes).
WrinklePath Line(const SurfaceFrame& surface, uint32_t id, double x, double z0,
                 double z1, int segments) {
  WrinklePath path;
  path.id = id;
  for (int i = 0; i <= segments; ++i) {
    path.points.push_back(EdgeNear(surface, x, z0 + (z1 - z0) * i / segments));
  }
  path.faces.assign(segments, 0);
  return path;
}

WrinkleShape ShapeOf(double mid_width, double length) {
  WrinkleShape shape;
  shape.mid_width = mid_width;
  shape.length = length;
  return shape;
}

TEST(WrinkleStatsTest, DensityMediansLifetimeAndChurnByHand) {
  const io::TriangleMesh sheet = MakeGridSheet(20, 20, 1.0f, 1.0f);
  auto session = NewSession(sheet);
  ASSERT_TRUE(session->ProcessFrame(sheet.positions).ok());
  const SurfaceFrame& s = session->surface();
  const WrinklePath a = Line(s, 1, 0.2, 0.2, 0.8, 6);
  const WrinklePath near_a = Line(s, 2, 0.25, 0.2, 0.8, 4);  // 0.05 from a
  const WrinklePath far = Line(s, 3, 0.8, 0.2, 0.8, 4);
  const WrinklePath late = Line(s, 4, 0.22, 0.3, 0.7, 4);
  const WrinkleShape w = ShapeOf(0.03, 0.6);  // two widths: 0.06
  WrinkleStatistics stats;
  // Frame 0 none; a lives on frames 1-3 and dies on 4; near_a and far are born
  // on 5 (near_a within two widths of a: churn); late is born near a on 10,
  // past the 5-frame window.
  for (int frame = 0; frame < 12; ++frame) {
    std::vector<WrinklePath> paths;
    std::vector<WrinkleShape> shapes;
    std::vector<WrinkleDeath> deaths;
    if (frame >= 1 && frame <= 3) paths.push_back(a);
    if (frame == 4) deaths.push_back({1, 3});
    if (frame >= 5) {
      paths.push_back(near_a);
      paths.push_back(far);
    }
    if (frame >= 10) paths.push_back(late);
    shapes.assign(paths.size(), w);
    stats.AddFrame(s, paths, shapes, deaths);
  }
  const WrinkleStatsSummary sum = stats.Summary();
  EXPECT_EQ(sum.frames, 12);
  EXPECT_EQ(sum.triangles, 800);
  // 3 + 7 * 2 + 2 = 19 wrinkle-frames over 12 frames and 800 triangles.
  EXPECT_NEAR(sum.wrinkles_per_100_triangles, 100.0 * 19 / 12 / 800, 1e-12);
  EXPECT_EQ(sum.median_segments, 4);  // 3 of 6, 16 of 4
  EXPECT_NEAR(sum.median_length_relative, 0.6 / std::sqrt(2.0), 1e-6);
  EXPECT_NEAR(sum.median_mid_width, 0.03, 1e-12);
  EXPECT_EQ(sum.ended, 1);
  EXPECT_EQ(sum.median_lifetime, 3);
  EXPECT_EQ(sum.births, 4);
  EXPECT_EQ(sum.churned_births, 1);
  EXPECT_DOUBLE_EQ(sum.churn(), 0.25);
}

TEST(WrinkleStatsTest, ChurnWindowIsTheDeathFrameAndTheFourBefore) {
  const io::TriangleMesh sheet = MakeGridSheet(20, 20, 1.0f, 1.0f);
  auto session = NewSession(sheet);
  ASSERT_TRUE(session->ProcessFrame(sheet.positions).ok());
  const SurfaceFrame& s = session->surface();
  const WrinklePath a = Line(s, 1, 0.5, 0.2, 0.8, 4);
  const WrinklePath b = Line(s, 2, 0.5, 0.2, 0.8, 4);  // the same place
  const std::vector<WrinkleShape> one = {ShapeOf(0.03, 0.6)};
  for (int gap : {0, 4, 5}) {
    // a lives on frame 0 and dies on frame 1; b is born `gap` frames later.
    WrinkleStatistics stats;
    stats.AddFrame(s, {a}, one, {});
    for (int frame = 1; frame <= 1 + gap; ++frame) {
      std::vector<WrinkleDeath> deaths;
      if (frame == 1) deaths.push_back({1, 1});
      if (frame == 1 + gap) {
        stats.AddFrame(s, {b}, one, deaths);
      } else {
        stats.AddFrame(s, {}, {}, deaths);
      }
    }
    EXPECT_EQ(stats.Summary().churned_births, gap < 5 ? 1 : 0) << gap;
  }
}

// Refined points along a polyline through `corners`, every `spacing`.
std::vector<RefinedPoint> Through(const std::vector<Eigen::Vector3d>& corners,
                                  double spacing) {
  std::vector<RefinedPoint> points;
  for (size_t i = 0; i + 1 < corners.size(); ++i) {
    const Eigen::Vector3d d = corners[i + 1] - corners[i];
    const int steps = static_cast<int>(std::round(d.norm() / spacing));
    for (int k = 0; k < steps; ++k) {
      points.push_back({corners[i] + d * (static_cast<double>(k) / steps)});
    }
  }
  points.push_back({corners.back()});
  return points;
}

// Straight refined lines from `a` to `b` (5 points), width `width`.
WrinkleShape Straight(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                      double width) {
  WrinkleShape shape;
  shape.mid_width = width;
  for (int i = 0; i <= 4; ++i) {
    shape.refined.push_back({a + (b - a) * (i / 4.0), width, 0.0});
  }
  return shape;
}

TEST(NeighbourAngleTest, MiddlesAndTheAnglesOfNearPairsOnly) {
  // An L: the middle of its arc length is on the first leg, 0.5 from the start.
  WrinkleShape ell;
  for (const Eigen::Vector3d& p :
       {Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1, 0, 0),
        Eigen::Vector3d(1, 0.5, 0)}) {
    ell.refined.push_back({p, 0.1, 0.0});
  }
  const std::optional<MidPoint> mid = ArcLengthMiddle(ell.refined);
  ASSERT_TRUE(mid.has_value());
  EXPECT_TRUE(mid->point.isApprox(Eigen::Vector3d(0.75, 0, 0)));
  EXPECT_TRUE(mid->tangent.isApprox(Eigen::Vector3d(1, 0, 0)));
  EXPECT_FALSE(ArcLengthMiddle({}).has_value());

  const io::TriangleMesh sheet = MakeGridSheet(4, 4, 1.0f, 1.0f);
  auto session = NewSession(sheet);
  ASSERT_TRUE(session->ProcessFrame(sheet.positions).ok());
  // Width 0.05: neighbours within 0.2. `a` and `b` parallel 0.1 apart (0
  // deg), `c` crossing `a`'s middle at 60 deg, `far` 0.5 away (no pair with
  // anyone), and a reversed copy of `a` (its tangent's sign does not count).
  const double w = 0.05;
  const std::vector<WrinkleShape> shapes = {
      Straight({0, 0, 0}, {1, 0, 0}, w), Straight({0, 0.1, 0}, {1, 0.1, 0}, w),
      Straight({0.5 - 0.25, -0.25 * std::sqrt(3.0), 0},
               {0.5 + 0.25, 0.25 * std::sqrt(3.0), 0}, w),
      Straight({0, 0.6, 0}, {1, 0.6, 0}, w),
      Straight({1, 0.05, 0}, {0, 0.05, 0}, w)};
  WrinkleStatistics stats;
  stats.AddFrame(session->surface(), std::vector<WrinklePath>(shapes.size()),
                 shapes, {});
  const WrinkleStatsSummary sum = stats.Summary();
  // Pairs: a-b 0, a-c 60, a-rev 0, b-c 60 (0.1 apart), b-rev 0, c-rev 60.
  EXPECT_EQ(sum.neighbour_pairs, 6);
  EXPECT_NEAR(sum.median_neighbour_angle, 30.0, 1e-6);  // of 0 0 0 60 60 60
}

// Folds in a ring around a tube (a sleeve's arcs at a bend) are parallel on
// the cloth, yet their tangents at two points of the tube differ in 3D by the
// angle around the tube between them. Carried into one tangent plane by the
// least rotation between the normals, they agree: exactly, as on any
// developable surface, and at a crease between two planes.
TEST(NeighbourAngleTest, WithinTheClothRingsAroundATubeAreParallel) {
  constexpr double kDegree = std::numbers::pi / 180.0;
  const auto normal = [](double azimuth) {
    return Eigen::Vector3d(std::cos(azimuth), std::sin(azimuth), 0.0);
  };
  // Along the ring at `azimuth`, tilted towards the tube's axis by `pitch`.
  const auto tangent = [](double azimuth, double pitch) {
    return Eigen::Vector3d(-std::sin(azimuth) * std::cos(pitch),
                           std::cos(azimuth) * std::cos(pitch),
                           std::sin(pitch));
  };
  const double apart = 50 * kDegree;
  const double in_3d =
      std::acos(std::abs(tangent(0, 0).dot(tangent(apart, 0))));
  EXPECT_NEAR(in_3d / kDegree, 50.0, 1e-9);
  EXPECT_NEAR(InClothAngleDegrees(tangent(0, 0), normal(0), tangent(apart, 0),
                                  normal(apart)),
              0.0, 1e-6);
  // A ring against a helix climbing at 30 degrees: 30 on the cloth, from
  // either side, with either sign of either tangent.
  EXPECT_NEAR(InClothAngleDegrees(tangent(0, 0), normal(0),
                                  tangent(apart, 30 * kDegree), normal(apart)),
              30.0, 1e-6);
  EXPECT_NEAR(InClothAngleDegrees(-tangent(apart, 30 * kDegree), normal(apart),
                                  tangent(0, 0), normal(0)),
              30.0, 1e-6);
  // Two planes meeting at 40 degrees on the x axis: along the crease on both
  // is parallel; along it on one and across it on the other is square.
  const Eigen::Vector3d up(0, 0, 1);
  const Eigen::Vector3d tilted(0, -std::sin(40 * kDegree),
                               std::cos(40 * kDegree));
  const Eigen::Vector3d across_tilted = tilted.cross(Eigen::Vector3d::UnitX());
  EXPECT_NEAR(InClothAngleDegrees(Eigen::Vector3d::UnitX(), up,
                                  Eigen::Vector3d::UnitX(), tilted),
              0.0, 1e-6);
  EXPECT_NEAR(
      InClothAngleDegrees(Eigen::Vector3d::UnitX(), up, across_tilted, tilted),
      90.0, 1e-6);
}

TEST(SharpestTurnTest, StraightLAndArcAgainstTheirAngles) {
  const Eigen::Vector3d o(0, 0, 0), x(1, 0, 0), xy(1, 1, 0);
  // Straight, sampled unevenly and with repeated points: no turn.
  std::vector<RefinedPoint> straight = Through({o, x}, 0.01);
  straight.insert(straight.begin() + 3, {Eigen::Vector3d(0.025, 0, 0)});
  straight.insert(straight.begin() + 10, straight[10]);
  straight.insert(straight.begin(), straight[0]);
  EXPECT_NEAR(SharpestTurnDegrees(straight, 0.1).value(), 0.0, 1e-6);
  // An L of legs 1 (length 2). Step 0.25 puts a sample on the corner: 90
  // degrees. Step 0.35 leaves 0.25, so samples start at 0.125: (0.825, 0),
  // (1, 0.175), (1, 0.525); the chord across the corner turns 45 degrees
  // from each leg.
  const std::vector<RefinedPoint> ell = Through({o, x, xy}, 0.01);
  EXPECT_NEAR(SharpestTurnDegrees(ell, 0.25).value(), 90.0, 1e-6);
  EXPECT_NEAR(SharpestTurnDegrees(ell, 0.35).value(), 45.0, 1e-6);
  // The same L walked the other way: the same samples, the same turn.
  const std::vector<RefinedPoint> back(ell.rbegin(), ell.rend());
  EXPECT_NEAR(SharpestTurnDegrees(back, 0.35).value(), 45.0, 1e-6);
  // A zigzag (amplitude 0.002 every 0.01) far finer than the step: its chords
  // turn less than 2 atan(0.004 / 0.1), about 4.6 degrees.
  std::vector<Eigen::Vector3d> zigzag;
  for (int i = 0; i <= 100; ++i) {
    zigzag.emplace_back(0.01 * i, i % 2 ? 0.002 : 0.0, 0);
  }
  EXPECT_LT(SharpestTurnDegrees(Through(zigzag, 0.001), 0.1).value(), 4.6);
  // A circular arc of radius r: chords of length ~s turn by s / r radians.
  std::vector<RefinedPoint> arc;
  const double r = 2.0, s = 0.1;
  for (int i = 0; i <= 2000; ++i) {
    const double a = 1e-3 * i;  // 2 radians
    arc.push_back({Eigen::Vector3d(r * std::cos(a), r * std::sin(a), 0)});
  }
  EXPECT_NEAR(SharpestTurnDegrees(arc, s).value(),
              s / r * 180 / std::numbers::pi, 0.01);
  // Too short for two chords, or no step: nothing to say.
  EXPECT_FALSE(SharpestTurnDegrees(ell, 1.01).has_value());
  EXPECT_FALSE(SharpestTurnDegrees(ell, 0.0).has_value());
  EXPECT_FALSE(SharpestTurnDegrees({}, 0.1).has_value());
}

// A path straight within the cloth over a crease: the 3D figure counts the
// crease, the figure within the cloth does not. Two planes meet at 60
// degrees on the z axis (plane A: y = 0, x < 0; plane B tilted up for x >
// 0); the path crosses the crease at 45 degrees to it, straight when the
// cloth is unfolded.
TEST(SharpestTurnTest, WithinTheClothAStraightPathOverACreaseDoesNotTurn) {
  const double tilt = std::numbers::pi / 3;  // B rises 60 degrees
  const Eigen::Vector3d across_b(std::cos(tilt), std::sin(tilt), 0);
  const Eigen::Vector3d along(0, 0, 1);
  const Eigen::Vector3d normal_a(0, 1, 0);
  const Eigen::Vector3d normal_b(-std::sin(tilt), std::cos(tilt), 0);
  // Unfolded, the path runs (1, 1) / sqrt 2 in (across, along).
  const Eigen::Vector3d start =
      -0.5 * Eigen::Vector3d(1, 0, 0) - 0.5 * along;  // in A
  const Eigen::Vector3d crease = Eigen::Vector3d::Zero();
  const Eigen::Vector3d end = 0.5 * across_b + 0.5 * along;  // in B
  const std::vector<RefinedPoint> path = Through({start, crease, end}, 0.01);
  std::vector<Eigen::Vector3d> normals;
  for (const RefinedPoint& p : path) {
    normals.push_back(p.position.x() < -1e-9 ? normal_a : normal_b);
  }
  // The two legs, each 45 degrees off the crease, meet at
  // acos(cos^2 45 + sin^2 45 cos 60) = 41.4 degrees in 3D.
  const double in_3d = SharpestTurnDegrees(path, 0.1).value();
  EXPECT_NEAR(in_3d, 41.41, 0.1);
  EXPECT_NEAR(SharpestTurnDegrees(path, 0.1, &normals).value(), 0.0, 1e-4);
  // A real turn within the cloth is still seen: an L on the flat plane A.
  const std::vector<RefinedPoint> ell =
      Through({Eigen::Vector3d(-1, 0, 0), Eigen::Vector3d(0, 0, 0),
               Eigen::Vector3d(0, 0, 1)},
              0.01);
  const std::vector<Eigen::Vector3d> flat(ell.size(), normal_a);
  EXPECT_NEAR(SharpestTurnDegrees(ell, 0.25, &flat).value(), 90.0, 1e-6);
}

// The same mesh turned onto its side and in other units gets the same
// wrinkles relative to its size.
TEST(DefaultMinWidthTest, IndependentOfOrientationAndUnits) {
  const io::Animation anim = testing::LoadBundled("cesiumman_walk");
  ASSERT_GT(anim.num_frames(), 0);
  auto width_of = [&](const Eigen::Matrix3d& transform) {
    std::vector<float> moved(anim.mesh.positions.size());
    for (size_t v = 0; v + 2 < moved.size(); v += 3) {
      const Eigen::Vector3d p(anim.mesh.positions[v],
                              anim.mesh.positions[v + 1],
                              anim.mesh.positions[v + 2]);
      const Eigen::Vector3d q = transform * p;
      for (int k = 0; k < 3; ++k) moved[v + k] = static_cast<float>(q[k]);
    }
    io::TriangleMesh mesh;
    mesh.positions = moved;
    mesh.triangles = anim.mesh.triangles;
    auto session = NewSession(mesh);
    EXPECT_TRUE(session->ProcessFrame(moved).ok());
    return session->tracker().min_width();
  };
  const double upright = width_of(Eigen::Matrix3d::Identity());
  const Eigen::Matrix3d z_up =
      Eigen::AngleAxisd(std::numbers::pi / 2, Eigen::Vector3d::UnitX())
          .toRotationMatrix();
  // Turned so that it is 10 % of its former height in Y: the old rule (0.5 %
  // of the Y extent) gave a sixth of the width.
  EXPECT_NEAR(width_of(z_up), upright, 1e-4 * upright);
  EXPECT_NEAR(width_of(100.0 * Eigen::Matrix3d::Identity()), 100.0 * upright,
              1e-4 * 100.0 * upright);
  // 0.5 % of the diagonal: 0.6 % of this standing character's height.
  EXPECT_NEAR(upright / 1.458, 0.0061, 0.0002);
}

TEST(DefaultMinWidthTest, AtLeastATenthOfTheMedianEdge) {
  // 2 x 2 quads: edges of 0.5 and 0.71 against a diagonal of 1.41.
  const io::TriangleMesh sheet = MakeGridSheet(2, 2, 1.0f, 1.0f);
  auto session = NewSession(sheet);
  ASSERT_TRUE(session->ProcessFrame(sheet.positions).ok());
  EXPECT_NEAR(session->tracker().min_width(), 0.05, 1e-9);
  EXPECT_NEAR(DefaultMinWidth(session->surface(), 0.1), 0.1 * std::sqrt(2.0),
              1e-9);
}

// A sheet squeezed along X by a factor that depends on z: c = 1.7 in the middle
// band, 1.2 (between the keep threshold and tau) elsewhere. Wrinkles run along
// Z: with two thresholds they run on through the gentler parts.
TEST(HysteresisTest, WrinklesRunOnWhereCompressionIsBelowTauButAboveKeep) {
  const io::TriangleMesh sheet = MakeGridSheet(24, 24, 1.0f, 1.0f);
  std::vector<float> squeezed = sheet.positions;
  for (size_t v = 0; v + 2 < squeezed.size(); v += 3) {
    const double z = squeezed[v + 2];
    const double c = std::abs(z - 0.5) < 0.15 ? 1.7 : 1.2;
    squeezed[v] = static_cast<float>(squeezed[v] / c);
  }
  auto extent_along_z = [&](double keep_fraction) {
    SessionParams params;
    params.wrinkles.tracing.keep_fraction = keep_fraction;
    params.wrinkles.min_seed_segments = 1;
    params.wrinkles.min_seed_aspect = 0;
    auto session = NewSession(sheet, params);
    EXPECT_TRUE(session->ProcessFrame(sheet.positions).ok());
    double longest = 0;
    for (int frame = 0; frame < 4; ++frame) {
      EXPECT_TRUE(session->ProcessFrame(squeezed).ok());
      for (const WrinklePath& path : session->tracker().wrinkles()) {
        EXPECT_EQ(CheckPath(session->topology(), path), "");
        double lo = 1, hi = 0;
        for (const EdgePoint& p : path.points) {
          lo = std::min(lo, session->surface().Position(p).z());
          hi = std::max(hi, session->surface().Position(p).z());
        }
        longest = std::max(longest, hi - lo);
      }
    }
    return longest;
  };
  const double one_threshold = extent_along_z(1.0);
  const double two_thresholds = extent_along_z(0.3);
  RecordProperty("one_threshold", std::to_string(one_threshold));
  RecordProperty("two_thresholds", std::to_string(two_thresholds));
  EXPECT_GT(one_threshold, 0.2);    // across the band
  EXPECT_LT(one_threshold, 0.4);    // but not beyond it
  EXPECT_GT(two_thresholds, 0.85);  // across the whole sheet
}

// The targets of the "wrinkles a person recognises" work, with the default
// parameters, on the bundled animations that compress. Other animations are
// used to check that the rules, not these numbers, were tuned.
struct TargetCase {
  const char* name;
  double min_length_relative;  // median path length / diagonal
  double min_lifetime;         // median, frames
  // Median over seeds 1-3 of the neighbour angle within the cloth, degrees.
  double max_neighbour_angle;
};

class BundledTargetsTest : public ::testing::TestWithParam<TargetCase> {};

TEST_P(BundledTargetsTest, FewLongLastingFolds) {
  const io::Animation anim = testing::LoadBundled(GetParam().name);
  WrinkleStatistics stats;
  const auto session = testing::RunSessionTo(
      anim, anim.num_frames() - 1, {},
      [&](int, const Session& s) { stats.AddFrame(s.surface(), s.tracker()); });
  ASSERT_NE(session, nullptr);
  const WrinkleStatsSummary s = stats.Summary();
  RecordProperty("per_100_triangles",
                 std::to_string(s.wrinkles_per_100_triangles));
  RecordProperty("median_segments", std::to_string(s.median_segments));
  RecordProperty("median_length_relative",
                 std::to_string(s.median_length_relative));
  RecordProperty("median_lifetime", std::to_string(s.median_lifetime));
  RecordProperty("churn", std::to_string(s.churn()));
  RecordProperty("median_sharpest_turn",
                 std::to_string(s.median_sharpest_turn));
  RecordProperty("median_sharpest_turn_in_cloth",
                 std::to_string(s.median_sharpest_turn_in_cloth));
  RecordProperty("median_neighbour_angle",
                 std::to_string(s.median_neighbour_angle));
  RecordProperty("median_neighbour_angle_same_side",
                 std::to_string(s.median_neighbour_angle_same_side));
  RecordProperty("median_neighbour_angle_in_cloth",
                 std::to_string(s.median_neighbour_angle_in_cloth));
  EXPECT_GT(s.wrinkles_per_100_triangles, 0.2);
  EXPECT_LE(s.wrinkles_per_100_triangles, 4.0);
  EXPECT_GE(s.median_segments, 4);
  EXPECT_GE(s.median_length_relative, GetParam().min_length_relative);
  EXPECT_GE(s.median_mid_width_relative, 0.006);
  EXPECT_GE(s.median_lifetime, GetParam().min_lifetime);
  EXPECT_LE(s.churn(), 0.05);
  // Folds bend smoothly within the cloth (the 3D figure also counts the
  // coarse surface's own bends; docs/algorithm.md, "Wrinkle statistics").
  EXPECT_LE(s.median_sharpest_turn_in_cloth, 20.0);
}

// Fold families: with the field smoothed, turns bounded and siblings seeded
// across the fold, neighbouring wrinkles facing the same way run closer to
// parallel than one fold per peak on the raw field, one direction per
// triangle, as the papers trace them (docs/algorithm.md, "Fold families").
// Which folds are born where turns on small differences, so the figure is
// the median over three seeds.
TEST_P(BundledTargetsTest, NeighboursRunTogether) {
  const io::Animation anim = testing::LoadBundled(GetParam().name);
  double angle[2] = {0, 0};
  double in_cloth = 0;
  for (bool families : {false, true}) {
    std::vector<double> angles, in_cloth_angles;
    for (uint64_t seed : {1, 2, 3}) {
      SessionParams params;
      params.wrinkles.seed = seed;
      if (!families) {
        params.field_smoothing.passes = 0;
        params.wrinkles.tracing.max_turn_degrees = 180.0;
        params.wrinkles.family_spacing_widths = 0.0;
        params.wrinkles.align_where_compressed = false;
      }
      WrinkleStatistics stats;
      const auto session = testing::RunSessionTo(
          anim, anim.num_frames() - 1, params, [&](int, const Session& s) {
            stats.AddFrame(s.surface(), s.tracker());
          });
      ASSERT_NE(session, nullptr);
      angles.push_back(stats.Summary().median_neighbour_angle_same_side);
      in_cloth_angles.push_back(
          stats.Summary().median_neighbour_angle_in_cloth);
    }
    std::sort(angles.begin(), angles.end());
    angle[families] = angles[1];
    std::sort(in_cloth_angles.begin(), in_cloth_angles.end());
    if (families) in_cloth = in_cloth_angles[1];
  }
  RecordProperty("same_side_angle_raw_field", std::to_string(angle[0]));
  RecordProperty("same_side_angle_families", std::to_string(angle[1]));
  RecordProperty("in_cloth_angle_families", std::to_string(in_cloth));
  // Measured (medians of seeds 1-3): Fox 41 -> 17 degrees, knee 31 -> 16,
  // Cesium Man 37 -> 31; within the cloth 12, 9 and 16.
  EXPECT_LT(angle[1], angle[0] - 3.0);
  EXPECT_LE(angle[1], 35.0);
  // The targets, on the angle within the cloth (the 3D one also
  // counts how far round a limb two parallel folds' middles lie).
  EXPECT_LE(in_cloth, GetParam().max_neighbour_angle);
}

// Paths smoothed every frame (WrinkleParams::smooth_each_frame) turn less
// sharply at the scale of their width than paths smoothed only when traced,
// which the persistence solve bends toward the per-triangle field over the
// frames (docs/algorithm.md, "Smoothing").
TEST(SmoothEachFrameTest, BundledPathsTurnLessSharply) {
  for (const char* name : {"cloth_pants_knee", "fox_walk"}) {
    const io::Animation anim = testing::LoadBundled(name);
    double turn[2] = {0, 0};
    for (bool smooth : {false, true}) {
      // On the raw field with unbounded turns (the papers' tracing), where
      // the solve's pull towards the field is what kinks the paths.
      SessionParams params;
      params.field_smoothing.passes = 0;
      params.wrinkles.tracing.max_turn_degrees = 180.0;
      params.wrinkles.family_spacing_widths = 0.0;
      params.wrinkles.align_where_compressed = false;
      params.wrinkles.smooth_each_frame = smooth;
      WrinkleStatistics stats;
      const auto session = testing::RunSessionTo(
          anim, anim.num_frames() - 1, params, [&](int, const Session& s) {
            stats.AddFrame(s.surface(), s.tracker());
          });
      ASSERT_NE(session, nullptr);
      turn[smooth] = stats.Summary().median_sharpest_turn;
    }
    // Measured: knee 48 -> 30 degrees, Fox 55 -> 38.
    EXPECT_LT(turn[1], turn[0] - 8.0) << name;
    EXPECT_LT(turn[1], 45.0) << name;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Data, BundledTargetsTest,
    ::testing::Values(TargetCase{"fox_walk", 0.06, 15, 20},
                      TargetCase{"cloth_pants_knee", 0.06, 20, 20},
                      TargetCase{"cesiumman_walk", 0.06, 20, 25}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace crease
