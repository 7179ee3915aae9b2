// InputNoiseEstimate: white noise of a known deviation on edge lengths reads
// as that deviation; smooth deformation, a seam that jerks a few triangles
// and degenerate triangles do not read as noise.

#include "wrinkle/sca2015/input_noise.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "tests/testing/bundled_data.h"
#include "wrinkle/core/stretch.h"

namespace crease {
namespace {

using Eigen::Matrix2d;

constexpr int kTriangles = 1000;

// An upper-triangular edge matrix whose first edge has length a and second
// edge (column 1) length b, at 60 degrees.
Matrix2d EdgeMatrixOf(double a, double b) {
  Matrix2d m;
  m << a, 0.5 * b, 0, std::sqrt(0.75) * b;
  return m;
}

// Frames of kTriangles triangles: edge lengths from `length(triangle, frame,
// edge)`.
template <typename Length>
double EstimateAfter(int frames, Length length) {
  InputNoiseEstimate estimate(kTriangles);
  std::vector<Matrix2d> m(kTriangles);
  const std::vector<uint8_t> degenerate(kTriangles, 0);
  for (int t = 0; t < frames; ++t) {
    for (int f = 0; f < kTriangles; ++f) {
      m[f] = EdgeMatrixOf(length(f, t, 0), length(f, t, 1));
    }
    estimate.AddFrame(m, degenerate);
  }
  return estimate.sigma();
}

TEST(InputNoiseEstimateTest, ZeroUntilSevenFramesAndOnAStillMesh) {
  std::mt19937 rng(1);
  std::normal_distribution<double> noise(0.0, 0.05);
  const auto noisy = [&](int, int, int) { return std::exp(noise(rng)); };
  EXPECT_EQ(EstimateAfter(6, noisy), 0.0);
  EXPECT_GT(EstimateAfter(7, noisy), 0.0);
  // Up to rounding: the second edge's length comes back through a root.
  EXPECT_LT(EstimateAfter(30, [](int f, int, int e) { return 1.0 + f + e; }),
            1e-12);
}

// Log lengths jittered by white noise of deviation s read s within 10 %, for
// s from a tenth of a percent to 5 %.
TEST(InputNoiseEstimateTest, WhiteNoiseReadsItsDeviation) {
  for (const double s : {0.001, 0.01, 0.02, 0.05}) {
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0.0, s);
    const double sigma = EstimateAfter(40, [&](int f, int, int e) {
      return (1.0 + 0.01 * (f % 13) + e) * std::exp(noise(rng));
    });
    EXPECT_NEAR(sigma, s, 0.1 * s) << "s = " << s;
  }
}

// Every triangle squeezed and released by a third over 20 frames, each with
// its own phase: a fast, smooth deformation reads far below 1 % (the
// session's floor).
TEST(InputNoiseEstimateTest, SmoothDeformationIsNotNoise) {
  const double sigma = EstimateAfter(60, [](int f, int t, int e) {
    return 1.0 +
           0.33 * std::sin(2 * std::numbers::pi * t / 20.0 + 0.01 * f + e);
  });
  EXPECT_LT(sigma, 0.002);
}

// Every third frame a different twentieth of the triangles jumps by 20 % for
// one frame (seams, bad skinning weights), on top of noise of 0.5 %: up to a
// tenth of a frame's values are a jump's, and the median moves by about an
// eighth (a mean would read several times the noise).
TEST(InputNoiseEstimateTest, AFewJerkedTrianglesDoNotRaiseIt) {
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0.0, 0.005);
  double peak = 0;
  InputNoiseEstimate estimate(kTriangles);
  std::vector<Matrix2d> m(kTriangles);
  const std::vector<uint8_t> degenerate(kTriangles, 0);
  for (int t = 0; t < 60; ++t) {
    for (int f = 0; f < kTriangles; ++f) {
      const bool jerked = t % 3 == 0 && f % 20 == (t / 3) % 20;
      const double jump = jerked ? 1.2 : 1.0;
      m[f] = EdgeMatrixOf(jump * std::exp(noise(rng)), std::exp(noise(rng)));
    }
    estimate.AddFrame(m, degenerate);
    peak = std::max(peak, estimate.sigma());
  }
  EXPECT_NEAR(estimate.sigma(), 0.005, 0.001);
  EXPECT_LT(peak, 0.0065);
}

// Every triangle at once: a cut (all squeezed by a fifth from frame 20 on)
// and a bad frame (all stretched by a fifth on frame 40 only), on top of noise
// of 0.5 %; and a stream whose first frame is another pose (all squeezed
// from frame 1). Each moves every triangle for three or four frames; the
// estimate never reads them as noise.
TEST(InputNoiseEstimateTest, ACutOrABadFrameIsNotNoise) {
  std::mt19937 rng(11);
  std::normal_distribution<double> noise(0.0, 0.005);
  InputNoiseEstimate estimate(kTriangles);
  std::vector<Matrix2d> m(kTriangles);
  const std::vector<uint8_t> degenerate(kTriangles, 0);
  double peak = 0;
  for (int t = 0; t < 60; ++t) {
    const double scale = (t >= 20 ? 0.8 : 1.0) * (t == 40 ? 1.2 : 1.0);
    for (int f = 0; f < kTriangles; ++f) {
      m[f] = EdgeMatrixOf(scale * std::exp(noise(rng)),
                          scale * std::exp(noise(rng)));
    }
    estimate.AddFrame(m, degenerate);
    peak = std::max(peak, estimate.sigma());
  }
  EXPECT_LT(peak, 0.0065);
  EXPECT_NEAR(estimate.sigma(), 0.005, 0.001);
  const double posed = EstimateAfter(30, [&](int, int t, int) {
    return (t >= 1 ? 0.8 : 1.0) * std::exp(noise(rng));
  });
  EXPECT_NEAR(posed, 0.005, 0.001);
}

// A triangle degenerate every other frame never has four frames in a row: it
// adds nothing, and alone it leaves the estimate at 0.
TEST(InputNoiseEstimateTest, DegenerateTrianglesAreSkipped) {
  InputNoiseEstimate estimate(1);
  std::mt19937 rng(5);
  std::normal_distribution<double> noise(0.0, 0.05);
  for (int t = 0; t < 20; ++t) {
    const Matrix2d m = EdgeMatrixOf(std::exp(noise(rng)), 1.0);
    const std::vector<uint8_t> degenerate = {static_cast<uint8_t>(t % 2)};
    estimate.AddFrame({&m, 1}, degenerate);
  }
  EXPECT_EQ(estimate.sigma(), 0.0);
}

// The bundled animations (two skinned, three simulated) stay far below the
// session's 1 % floor on every frame, so the papers' rules apply to them
// unchanged (measured at most 0.3 %, the skirt).
TEST(InputNoiseEstimateTest, BundledAnimationsAreBelowTheFloor) {
  for (const char* name : {"fox_walk", "cloth_pants_knee", "cesiumman_walk",
                           "cloth_skirt_walk", "cloth_drape_sphere"}) {
    const io::Animation animation = testing::LoadBundled(name);
    ASSERT_GT(animation.num_frames(), 4) << name;
    const size_t n = animation.mesh.triangles.size();
    InputNoiseEstimate estimate(n);
    std::vector<Eigen::Vector3d> positions;
    std::vector<Matrix2d> m(n);
    std::vector<LocalFrame> frames(n);
    std::vector<uint8_t> degenerate(n);
    double peak = 0;
    for (int t = 0; t < animation.num_frames(); ++t) {
      const auto sample = animation.frames.Sample(t);
      positions.resize(sample.size() / 3);
      for (size_t v = 0; v < positions.size(); ++v) {
        positions[v] = Eigen::Vector3d(sample[3 * v], sample[3 * v + 1],
                                       sample[3 * v + 2]);
      }
      EdgeMatricesOfMany(positions, animation.mesh.triangles, absl::MakeSpan(m),
                         absl::MakeSpan(frames));
      for (size_t f = 0; f < n; ++f) degenerate[f] = IsDegenerate(m[f], 1e-6);
      estimate.AddFrame(m, degenerate);
      peak = std::max(peak, estimate.sigma());
    }
    EXPECT_LT(peak, 0.005) << name;
  }
}

}  // namespace
}  // namespace crease
