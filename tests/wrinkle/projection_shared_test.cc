#include "wrinkle/data/projection_shared.h"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <numbers>
#include <vector>

#include "gtest/gtest.h"

namespace crease {
namespace {

// The C++ twin of shaders/wrinkle_field.glsl's ProjectOntoWrinkle: the
// parameter along the whole polyline (segment index + alpha) of p's smooth
// projection, or the Euclidean one when p is in no cell.
struct Projection {
  Eigen::Vector3d point;
  double parameter;
  bool in_cell;
};

Projection Project(const std::vector<Eigen::Vector3d>& v,
                   const Eigen::Vector3d& p, bool voronoi) {
  const size_t n = v.size();
  std::vector<Eigen::Vector3d> s(n, Eigen::Vector3d::Zero());
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) s[i] += (v[i] - v[i - 1]).normalized();
    if (i + 1 < n) s[i] += (v[i + 1] - v[i]).normalized();
    s[i].normalize();
  }
  Projection best{Eigen::Vector3d::Zero(), -1, false};
  double best_d2 = 1e30;
  for (size_t i = 0; voronoi && i + 1 < n; ++i) {
    const Eigen::Vector3d z0 = v[i + 1] - v[i], z1 = v[i] - p,
                          ds = s[i + 1] - s[i];
    const float alpha =
        VoronoiAlpha(static_cast<float>(z0.dot(ds)),
                     static_cast<float>(z0.dot(s[i]) + z1.dot(ds)),
                     static_cast<float>(z1.dot(s[i])));
    if (alpha < 0) continue;
    const Eigen::Vector3d c = v[i] + alpha * z0;
    if ((p - c).squaredNorm() < best_d2) {
      best_d2 = (p - c).squaredNorm();
      best = {c, i + alpha, true};
    }
  }
  if (best.in_cell) return best;
  for (size_t i = 0; i + 1 < n; ++i) {
    const Eigen::Vector3d ab = v[i + 1] - v[i];
    const double t =
        std::clamp((p - v[i]).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
    const Eigen::Vector3d c = v[i] + t * ab;
    if ((p - c).squaredNorm() < best_d2) {
      best_d2 = (p - c).squaredNorm();
      best = {c, i + t, false};
    }
  }
  return best;
}

TEST(VoronoiAlphaTest, StraightSegmentIsTheOrthogonalProjection) {
  // Parallel bisectors (s0 = s1 = x): a = 0, root -c / b.
  const std::vector<Eigen::Vector3d> line = {{0, 0, 0}, {2, 0, 0}};
  for (double x : {0.0, 0.3, 1.0, 1.7, 2.0}) {
    const Projection q = Project(line, {x, 0.4, -0.2}, true);
    EXPECT_TRUE(q.in_cell);
    EXPECT_NEAR(q.parameter, x / 2, 1e-6);
  }
  // Past the ends: outside the cell.
  EXPECT_EQ(VoronoiAlpha(0.0f, 2.0f, 0.5f), -1.0f);
  EXPECT_EQ(VoronoiAlpha(0.0f, 2.0f, -2.5f), -1.0f);
}

TEST(VoronoiAlphaTest, RootSolvesTheQuadratic) {
  // Random coefficients with a sign change over [0, 1].
  uint64_t state = 7;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(state >> 11) / 9007199254740992.0 * 2 - 1;
  };
  int checked = 0;
  for (int k = 0; k < 10000; ++k) {
    const float a = static_cast<float>(next()), b = static_cast<float>(next()),
                c = static_cast<float>(next());
    const float alpha = VoronoiAlpha(a, b, c);
    if ((c > 0) == (a + b + c > 0)) {
      EXPECT_EQ(alpha, -1.0f);
      continue;
    }
    ASSERT_GE(alpha, 0.0f);
    ASSERT_LE(alpha, 1.0f);
    EXPECT_NEAR(a * alpha * alpha + b * alpha + c, 0.0, 1e-5)
        << a << " " << b << " " << c;
    ++checked;
  }
  EXPECT_GT(checked, 2500);  // about 3,000 of 10,000 change sign
}

// A path bent by 70 degrees: on the inside of the bend the Euclidean closest
// point jumps from one segment to the other at the medial axis (a seam in the
// offset); the Voronoi projection moves continuously. Sampled on a fine grid
// within half a width of the corner.
TEST(VoronoiAlphaTest, ProjectionIsContinuousAcrossTheInsideOfABend) {
  const double turn = 70.0 * std::numbers::pi / 180.0;
  const std::vector<Eigen::Vector3d> path = {
      {-1, 0, 0}, {0, 0, 0}, {std::cos(turn), std::sin(turn), 0}};
  const double h = 0.002;
  double worst_voronoi = 0, worst_euclid = 0;
  for (double y = h; y < 0.3; y += h) {
    for (double x = -0.3; x < 0.3; x += h) {
      const Eigen::Vector3d p(x, y, 0.01), right(x + h, y, 0.01);
      const double voronoi =
          (Project(path, right, true).point - Project(path, p, true).point)
              .norm();
      const double euclid =
          (Project(path, right, false).point - Project(path, p, false).point)
              .norm();
      worst_voronoi = std::max(worst_voronoi, voronoi / h);
      worst_euclid = std::max(worst_euclid, euclid / h);
    }
  }
  std::printf("max |dq| / |dp|: voronoi %.2f, euclidean %.2f\n", worst_voronoi,
              worst_euclid);
  EXPECT_GT(worst_euclid, 20.0);  // a jump of 0.04+ over one 0.002 step
  EXPECT_LT(worst_voronoi, 3.0);  // continuous (1.34 measured)
}

TEST(VoronoiAlphaTest, PointsOnABisectorProjectToItsVertex) {
  const std::vector<Eigen::Vector3d> path = {{-1, 0, 0}, {0, 0, 0}, {1, 1, 0}};
  // The bisector at the middle vertex has normal (1 + 1/sqrt2, 1/sqrt2):
  // points along its plane project onto (0, 0, 0) from either segment.
  const Eigen::Vector3d s =
      Eigen::Vector3d(1 + std::sqrt(0.5), std::sqrt(0.5), 0).normalized();
  const Eigen::Vector3d along = s.cross(Eigen::Vector3d::UnitZ());
  for (double t : {-0.2, -0.05, 0.05, 0.2}) {
    const Projection q = Project(path, t * along, true);
    EXPECT_TRUE(q.in_cell);
    EXPECT_NEAR(q.point.norm(), 0.0, 1e-5) << t;
  }
}

}  // namespace
}  // namespace crease
