#include "renderer/closest_point.h"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <random>

#include "wrinkle/data/projection_shared.h"

namespace crease::renderer {
namespace {

using Eigen::Vector3f;

// The nearest of a barycentric grid over abc (steps of 1 / n).
float BruteTriangleDistance(const Vector3f& p, const Vector3f& a,
                            const Vector3f& b, const Vector3f& c, int n) {
  float best = 1e30f;
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; i + j <= n; ++j) {
      const Vector3f q = a + (static_cast<float>(i) / n) * (b - a) +
                         (static_cast<float>(j) / n) * (c - a);
      best = std::min(best, (q - p).norm());
    }
  }
  return best;
}

// The nearest over `samples` + 1 points along p0 p1.
template <typename Distance>
float AlongSegment(const Vector3f& p0, const Vector3f& p1, int samples,
                   Distance distance) {
  float best = 1e30f;
  for (int k = 0; k <= samples; ++k) {
    best = std::min(
        best, distance(p0 + (static_cast<float>(k) / samples) * (p1 - p0)));
  }
  return best;
}

Vector3f RandomPoint(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  return Vector3f(u(rng), u(rng), u(rng));
}

TEST(ClosestPointTest, PointOnTriangleIsTheNearestOfADenseGrid) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const Vector3f a = RandomPoint(rng), b = RandomPoint(rng),
                   c = RandomPoint(rng), p = 2.0f * RandomPoint(rng);
    const float exact = (ClosestPointOnTriangle(p, a, b, c) - p).norm();
    // Every point of the triangle is within a cell's two sides of the grid.
    const float brute = BruteTriangleDistance(p, a, b, c, 400);
    EXPECT_LE(exact, brute + 1e-5f) << trial;
    EXPECT_GE(exact, brute - ((b - a).norm() + (c - a).norm()) / 400) << trial;
  }
}

TEST(ClosestPointTest, SegmentSegmentIsTheNearestOfDenseSamples) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const Vector3f p0 = RandomPoint(rng), q0 = RandomPoint(rng);
    // Every fifth pair parallel, every seventh first segment a point.
    Vector3f p1 = RandomPoint(rng), q1 = RandomPoint(rng);
    if (trial % 5 == 0) q1 = q0 + 0.7f * (p1 - p0);
    if (trial % 7 == 0) p1 = p0;
    const float exact = std::sqrt(SegmentSegmentDistanceSq(p0, p1, q0, q1));
    const float brute = AlongSegment(p0, p1, 400, [&](const Vector3f& x) {
      return AlongSegment(q0, q1, 400,
                          [&](const Vector3f& y) { return (x - y).norm(); });
    });
    // Samples a step apart miss the nearest pair by half a step on each.
    EXPECT_LE(exact, brute + 1e-5f) << trial;
    EXPECT_GE(exact, brute - ((p1 - p0).norm() + (q1 - q0).norm()) / 800)
        << trial;
  }
}

TEST(ClosestPointTest, SegmentTriangleIsTheNearestOfDenseSamples) {
  std::mt19937 rng(13);
  int crossing = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Vector3f a = RandomPoint(rng), b = RandomPoint(rng),
                   c = RandomPoint(rng);
    Vector3f p0 = 1.5f * RandomPoint(rng), p1 = 1.5f * RandomPoint(rng);
    if (trial % 6 == 0) {  // in the triangle's plane
      p0 = a + 1.2f * (b - a) - 0.3f * (c - a);
      p1 = a + 0.2f * (b - a) + 0.9f * (c - a);
    }
    if (trial % 9 == 0) p1 = p0;  // a point
    const float exact = std::sqrt(SegmentTriangleDistanceSq(p0, p1, a, b, c));
    const float brute = AlongSegment(p0, p1, 4000, [&](const Vector3f& x) {
      return (ClosestPointOnTriangle(x, a, b, c) - x).norm();
    });
    if (brute < 1e-3f) ++crossing;
    // Never more than a point of the segment shows (the pieces rely on it).
    EXPECT_LE(exact, brute + 1e-5f) << trial;
    EXPECT_GE(exact, brute - (p1 - p0).norm() / 8000 - 1e-5f) << trial;
  }
  EXPECT_GT(crossing, 20);  // the crossing case is exercised
}

TEST(ClosestPointTest, SegmentTriangleFarFromTheOriginAndDegenerate) {
  // A segment through a small triangle's inside, 1000 units out: zero (a
  // distance tolerance on the crossing would not follow the magnitude).
  std::mt19937 rng(17);
  for (int trial = 0; trial < 200; ++trial) {
    const Vector3f offset = 1000.0f * Vector3f::Ones() + RandomPoint(rng);
    const Vector3f a = offset, b = offset + Vector3f(0.3f, 0.01f, 0),
                   c = offset + Vector3f(0.02f, 0.29f, 0.001f);
    const Vector3f inside = (a + b + c) / 3.0f;
    const Vector3f normal = (b - a).cross(c - a).normalized();
    const Vector3f tilt = 0.2f * RandomPoint(rng);
    EXPECT_EQ(SegmentTriangleDistanceSq(inside - 0.3f * normal + tilt,
                                        inside + 0.3f * normal - tilt, a, b, c),
              0.0f)
        << trial;
  }
  // Coincident corners and a triangle with no area: their edges, finite.
  const Vector3f a(0, 0, 0), b(1, 0, 0);
  const Vector3f p0(0.5f, 1, 0), p1(0.5f, 2, 0);
  EXPECT_FLOAT_EQ(SegmentTriangleDistanceSq(p0, p1, a, a, b), 1.0f);
  EXPECT_FLOAT_EQ(SegmentTriangleDistanceSq(p0, p1, a, b, 2.0f * b), 1.0f);
  EXPECT_FLOAT_EQ(SegmentTriangleDistanceSq(p0, p1, a, a, a), 1.25f);
  EXPECT_TRUE(std::isfinite(
      (ClosestPointOnTriangle(Vector3f(0.3f, 0.2f, 0), a, a, b)).norm()));
  // Points as either segment.
  EXPECT_FLOAT_EQ(SegmentSegmentDistanceSq(p0, p0, a, b), 1.0f);
  EXPECT_FLOAT_EQ(SegmentSegmentDistanceSq(a, b, p0, p0), 1.0f);
  EXPECT_FLOAT_EQ(SegmentSegmentDistanceSq(p0, p0, p1, p1), 1.0f);
}

TEST(ClosestPointTest, SegmentAboveATriangleParallelToIt) {
  const Vector3f a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  // Over the inside: the height; past the hypotenuse: to its nearest point.
  EXPECT_FLOAT_EQ(
      SegmentTriangleDistanceSq(Vector3f(0.1f, 0.1f, 0.5f),
                                Vector3f(0.2f, 0.3f, 0.5f), a, b, c),
      0.25f);
  EXPECT_NEAR(
      SegmentTriangleDistanceSq(Vector3f(1, 1, 0), Vector3f(2, 2, 0), a, b, c),
      0.5f, 1e-6f);
  // Through the inside: zero.
  EXPECT_EQ(SegmentTriangleDistanceSq(Vector3f(0.2f, 0.2f, -1),
                                      Vector3f(0.2f, 0.2f, 1), a, b, c),
            0.0f);
}

// The cell test never says no where a point of the triangle lies in the
// cell (VoronoiAlpha, the shaders' own test, finds an alpha), checked on a
// dense barycentric grid over random segments, bisectors and triangles; and
// it does say no for most triangles wholly before or past the segment.
TEST(ClosestPointTest, SegmentCellTestKeepsEveryTriangleTheCellMeets) {
  std::mt19937 rng(11);
  int excluded = 0, beside = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const Vector3f v0 = 0.3f * RandomPoint(rng), v1 = 0.3f * RandomPoint(rng);
    const Vector3f along = (v1 - v0).normalized();
    // Bisectors within about 45 degrees of the segment, as a path's are.
    const Vector3f s0 = (along + 0.5f * RandomPoint(rng)).normalized();
    const Vector3f s1 = (along + 0.5f * RandomPoint(rng)).normalized();
    const Vector3f a = RandomPoint(rng), b = RandomPoint(rng),
                   c = RandomPoint(rng);
    bool meets = false;
    constexpr int kSteps = 60;
    for (int i = 0; i <= kSteps && !meets; ++i) {
      for (int j = 0; i + j <= kSteps && !meets; ++j) {
        const Vector3f p = a + (static_cast<float>(i) / kSteps) * (b - a) +
                           (static_cast<float>(j) / kSteps) * (c - a);
        const Vector3f z0 = v1 - v0, z1 = v0 - p, ds = s1 - s0;
        meets = VoronoiAlpha(z0.dot(ds), z0.dot(s0) + z1.dot(ds), z1.dot(s0)) >=
                0.0f;
      }
    }
    const bool may = SegmentCellMayMeetTriangle(v0, s0, v1, s1, a, b, c, 2.0f);
    if (meets) {
      EXPECT_TRUE(may) << trial;
    } else {
      ++beside;
      excluded += !may;
    }
  }
  EXPECT_GT(beside, 40);
  EXPECT_GT(excluded, beside / 2);
}

}  // namespace
}  // namespace crease::renderer
