#include "wrinkle/sca2015/reference.h"

#include <cmath>
#include <random>

#include "gtest/gtest.h"

namespace crease {
namespace {

using Eigen::Matrix2d;

Matrix2d RandomEdgeMatrix(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.5, 1.5), s(-0.5, 0.5);
  Matrix2d m;
  m << u(rng), s(rng), 0, u(rng);
  return m;
}

// Columns equal up to sign.
void ExpectSameAxes(const Matrix2d& a, const Matrix2d& b) {
  for (int k = 0; k < 2; ++k) {
    EXPECT_NEAR(std::abs(a.col(k).dot(b.col(k))), 1.0, 1e-9) << "column " << k;
  }
}

TEST(ReferenceTest, CompressRelaxesSingularValuesAndKeepsVectors) {
  std::mt19937 rng(1);
  const ReferenceParams params;
  for (int trial = 0; trial < 100; ++trial) {
    const Matrix2d current = RandomEdgeMatrix(rng);
    Matrix2d reference = RandomEdgeMatrix(rng);
    const Svd2 before = ClosedFormSvd(current * Inverse2(reference));
    if (before.s1 - before.s2 < 1e-3) continue;  // directions ill-defined
    Svd2 predicted;
    ASSERT_EQ(UpdateReference(Label::kCompress, current, before, params,
                              &reference, &predicted),
              ReferenceUpdate::kRelaxed);
    const Svd2 after = ClosedFormSvd(current * Inverse2(reference));
    EXPECT_NEAR(after.s1, 0.95 * before.s1 + 0.05, 1e-12);
    EXPECT_NEAR(after.s2, 0.95 * before.s2 + 0.05, 1e-12);
    EXPECT_NEAR(predicted.s1, after.s1, 1e-12);
    EXPECT_NEAR(predicted.s2, after.s2, 1e-12);
    ExpectSameAxes(after.u, before.u);
    ExpectSameAxes(after.v, before.v);
    // Each singular value moved toward 1 and by 5 % of its gap.
    EXPECT_NEAR(std::abs(after.s2 - 1), 0.95 * std::abs(before.s2 - 1), 1e-12);
  }
}

TEST(ReferenceTest, RepeatedCompressFramesDecayTheGapGeometrically) {
  Matrix2d reference = Matrix2d::Identity();
  Matrix2d current;
  current << 0.6, 0, 0, 1.0;  // compressed to 0.6 along x
  for (int frame = 1; frame <= 20; ++frame) {
    Svd2 updated;
    UpdateReference(Label::kCompress, current,
                    ClosedFormSvd(current * Inverse2(reference)), {},
                    &reference, &updated);
    EXPECT_NEAR(updated.s2, 1.0 - 0.4 * std::pow(0.95, frame), 1e-12) << frame;
  }
}

TEST(ReferenceTest, StretchReplacesOnlyWhenBothValuesExceedOne) {
  Matrix2d current;
  current << 1.2, 0.1, 0, 1.1;
  Matrix2d reference = Matrix2d::Identity();
  Svd2 updated;
  EXPECT_EQ(UpdateReference(Label::kStretch, current,
                            ClosedFormSvd(current * Inverse2(reference)), {},
                            &reference, &updated),
            ReferenceUpdate::kReplaced);
  EXPECT_EQ(reference, current);
  EXPECT_EQ(updated.s1, 1.0);
  EXPECT_EQ(updated.s2, 1.0);

  Matrix2d mixed;
  mixed << 1.3, 0, 0, 0.9;  // stretched one way, compressed the other
  reference = Matrix2d::Identity();
  EXPECT_EQ(UpdateReference(Label::kStretch, mixed, ClosedFormSvd(mixed), {},
                            &reference, &updated),
            ReferenceUpdate::kKept);
  EXPECT_EQ(reference, Matrix2d::Identity());
}

TEST(ReferenceTest, RestKeeps) {
  std::mt19937 rng(2);
  const Matrix2d current = RandomEdgeMatrix(rng);
  Matrix2d reference = RandomEdgeMatrix(rng);
  const Matrix2d original = reference;
  const Svd2 svd = ClosedFormSvd(current * Inverse2(reference));
  Svd2 updated;
  EXPECT_EQ(
      UpdateReference(Label::kRest, current, svd, {}, &reference, &updated),
      ReferenceUpdate::kKept);
  EXPECT_EQ(reference, original);
  EXPECT_EQ(updated.s2, svd.s2);
}

// Stretch replaces the reference only when the smaller singular value passes
// 1 + stretch_margin: a triangle stretched 2 % by jitter keeps it under a 3 %
// margin and loses it without one.
TEST(ReferenceTest, StretchMarginKeepsJitterFromReplacingTheReference) {
  Matrix2d current;
  current << 1.03, 0, 0, 1.02;
  const Matrix2d original = Matrix2d::Identity();
  const Svd2 svd = ClosedFormSvd(current * Inverse2(original));
  ASSERT_GT(svd.s2, 1.0);
  ASSERT_LT(svd.s2, 1.03);
  ReferenceParams params;
  params.stretch_margin = 0.03;
  Matrix2d reference = original;
  Svd2 updated;
  EXPECT_EQ(UpdateReference(Label::kStretch, current, svd, params, &reference,
                            &updated),
            ReferenceUpdate::kKept);
  EXPECT_EQ(reference, original);
  params.stretch_margin = 0;
  EXPECT_EQ(UpdateReference(Label::kStretch, current, svd, params, &reference,
                            &updated),
            ReferenceUpdate::kReplaced);
  EXPECT_EQ(reference, current);
}

// Rest within the noise band: the reference moves rest_averaging of the way
// to the current shape, and *updated is the decomposition against the moved
// reference. Outside the band, or with no band (the papers), Rest keeps it.
TEST(ReferenceTest, RestAveragesShapesWithinTheNoiseBand) {
  Matrix2d reference_before;
  reference_before << 1.0, 0.5, 0, 0.9;
  Matrix2d jittered;
  jittered << 1.02, 0.49, 0, 0.91;
  ReferenceParams params;
  params.rest_noise_band = 0.05;
  Matrix2d reference = reference_before;
  Svd2 updated;
  const Svd2 svd = ClosedFormSvd(jittered * Inverse2(reference));
  ASSERT_EQ(UpdateReference(Label::kRest, jittered, svd, params, &reference,
                            &updated),
            ReferenceUpdate::kRelaxed);
  const Matrix2d expected = 0.95 * reference_before + 0.05 * jittered;
  EXPECT_TRUE(reference.isApprox(expected, 1e-14));
  const Svd2 after = ClosedFormSvd(jittered * Inverse2(expected));
  EXPECT_NEAR(updated.s1, after.s1, 1e-14);
  EXPECT_NEAR(updated.s2, after.s2, 1e-14);
  // Closer than before: averaging pulls the reference towards the mean shape.
  EXPECT_LT(std::abs(after.s1 - 1.0), std::abs(svd.s1 - 1.0));

  Matrix2d squeezed;  // a 20 % squeeze is a deformation, not noise
  squeezed << 0.8, 0.5, 0, 0.9;
  reference = reference_before;
  EXPECT_EQ(UpdateReference(Label::kRest, squeezed,
                            ClosedFormSvd(squeezed * Inverse2(reference)),
                            params, &reference, &updated),
            ReferenceUpdate::kKept);
  EXPECT_EQ(reference, reference_before);
  params.rest_noise_band = 0;
  EXPECT_EQ(UpdateReference(Label::kRest, jittered, svd, params, &reference,
                            &updated),
            ReferenceUpdate::kKept);
  EXPECT_EQ(reference, reference_before);
}

}  // namespace
}  // namespace crease
