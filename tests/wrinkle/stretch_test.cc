#include "wrinkle/core/stretch.h"

#include <Eigen/Geometry>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace crease {
namespace {

using Eigen::Matrix2d;
using Eigen::Vector3d;

struct Tri {
  Vector3d x0, x1, x2;
};

Tri Transform(const Tri& t, const Eigen::Matrix3d& linear,
              const Vector3d& shift) {
  return {linear * t.x0 + shift, linear * t.x1 + shift, linear * t.x2 + shift};
}

// Tensor of `current` against `reference`, as the Session computes it.
StretchTensor TensorOf(const Tri& reference, const Tri& current) {
  LocalFrame ref_frame, cur_frame;
  const Matrix2d r =
      EdgeMatrix(reference.x0, reference.x1, reference.x2, &ref_frame);
  const Matrix2d m = EdgeMatrix(current.x0, current.x1, current.x2, &cur_frame);
  return MakeStretchTensor(ClosedFormSvd(m * Inverse2(r)), cur_frame);
}

Eigen::Matrix3d RandomRotation(std::mt19937& rng) {
  std::normal_distribution<double> normal;
  Eigen::Quaterniond q(normal(rng), normal(rng), normal(rng), normal(rng));
  return q.normalized().toRotationMatrix();
}

const Tri kTriangle{{0.1, 0.2, 0.3}, {1.3, 0.1, 0.2}, {0.4, 0.9, -0.5}};

TEST(StretchTest, EdgeMatrixIsUpperTriangularWithPositiveArea) {
  LocalFrame frame;
  const Matrix2d m =
      EdgeMatrix(kTriangle.x0, kTriangle.x1, kTriangle.x2, &frame);
  EXPECT_EQ(m(1, 0), 0.0);
  EXPECT_NEAR(m(0, 0), (kTriangle.x1 - kTriangle.x0).norm(), 1e-12);
  const double area2 =
      (kTriangle.x1 - kTriangle.x0).cross(kTriangle.x2 - kTriangle.x0).norm();
  EXPECT_NEAR(m.determinant(), area2, 1e-12);
  EXPECT_NEAR(frame.x_axis.dot(frame.y_axis), 0.0, 1e-12);
  // The lifted second edge is the 3D edge.
  EXPECT_NEAR((frame.Lift(m.col(1)) - (kTriangle.x2 - kTriangle.x0)).norm(), 0,
              1e-12);
}

TEST(StretchTest, RigidMotionsGiveTheIdentity) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 100; ++trial) {
    const Tri moved =
        Transform(kTriangle, RandomRotation(rng), Vector3d::Random() * 10);
    const StretchTensor t = TensorOf(kTriangle, moved);
    ASSERT_FALSE(t.degenerate);
    EXPECT_NEAR(t.lambda_max, 1.0, 1e-12);
    EXPECT_NEAR(t.lambda_min, 1.0, 1e-12);
    EXPECT_NEAR(t.compression, 1.0, 1e-12);
  }
}

TEST(StretchTest, UniaxialCompressionAlongTheRight3dDirection) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    // Reference in a random plane; squeeze to 0.7 along an in-plane direction
    // d.
    const Eigen::Matrix3d place = RandomRotation(rng);
    const Tri flat{{0, 0, 0}, {1, 0.1, 0}, {0.3, 0.8, 0}};
    const Tri reference = Transform(flat, place, Vector3d(1, 2, 3));
    const double angle = std::uniform_real_distribution<double>(0, M_PI)(rng);
    const Vector3d d_flat(std::cos(angle), std::sin(angle), 0);
    const Eigen::Matrix3d squeeze =
        Eigen::Matrix3d::Identity() - 0.3 * d_flat * d_flat.transpose();
    // Then move the squeezed triangle rigidly somewhere else.
    const Eigen::Matrix3d motion = RandomRotation(rng);
    const Tri current =
        Transform(flat, motion * place * squeeze, Vector3d(-4, 0, 2));
    const StretchTensor t = TensorOf(reference, current);
    EXPECT_NEAR(t.lambda_min, 0.7, 1e-12);
    EXPECT_NEAR(t.compression, 1.0 / 0.7, 1e-12);
    EXPECT_NEAR(t.lambda_max, 1.0, 1e-12);
    const Vector3d expected_dir = motion * place * d_flat;
    EXPECT_NEAR(std::abs(t.compression_dir.dot(expected_dir)), 1.0, 1e-9);
    EXPECT_NEAR(t.compression_dir.norm(), 1.0, 1e-12);
    EXPECT_NEAR(t.wrinkle_dir.dot(t.compression_dir), 0.0, 1e-12);
    // Both directions lie in the current triangle's plane.
    const Vector3d normal =
        (current.x1 - current.x0).cross(current.x2 - current.x0).normalized();
    EXPECT_NEAR(t.wrinkle_dir.dot(normal), 0.0, 1e-12);
  }
}

TEST(StretchTest, SimpleShearHasAnalyticSingularValues) {
  for (double k : {0.05, 0.3, 1.0, 2.5}) {
    Matrix2d f;
    f << 1, k, 0, 1;
    const Svd2 svd = ClosedFormSvd(f);
    const double root = std::sqrt(1 + k * k / 4);
    EXPECT_NEAR(svd.s1, root + k / 2, 1e-12) << k;
    EXPECT_NEAR(svd.s2, root - k / 2, 1e-12) << k;
    EXPECT_NEAR(svd.s1 * svd.s2, 1.0, 1e-12);  // shear keeps area
  }
}

TEST(StretchTest, SvdReconstructsRandomMatrices) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int trial = 0; trial < 1000; ++trial) {
    Matrix2d f;
    f << u(rng), u(rng), u(rng), u(rng);
    const Svd2 svd = ClosedFormSvd(f);
    const Matrix2d back = svd.u * Eigen::Vector2d(svd.s1, svd.s2).asDiagonal() *
                          svd.v.transpose();
    ASSERT_NEAR((back - f).norm(), 0.0, 1e-12 * (1 + f.norm())) << f;
    ASSERT_NEAR((svd.u.transpose() * svd.u - Matrix2d::Identity()).norm(), 0,
                1e-12);
    ASSERT_NEAR((svd.v.transpose() * svd.v - Matrix2d::Identity()).norm(), 0,
                1e-12);
    ASSERT_NEAR(svd.u.determinant(), 1.0, 1e-12);
    ASSERT_NEAR(svd.v.determinant(), 1.0, 1e-12);
    ASSERT_GE(svd.s1, std::abs(svd.s2) - 1e-12);
    ASSERT_EQ(svd.s2 < 0, f.determinant() < 0);
  }
}

// Two at a time, the same arithmetic: within rounding of one at a time, odd
// counts, scaled rotations (no dominant direction), the identity and a zero
// matrix (no singular values) included.
TEST(StretchTest, ManyAtOnceAreEachOnesDecomposition) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-2, 2);
  for (size_t count : {size_t{1}, size_t{2}, size_t{5}, size_t{400}}) {
    std::vector<Matrix2d> fs(count);
    for (Matrix2d& f : fs) f << u(rng), u(rng), u(rng), u(rng);
    if (count == 400) {
      fs[0] = Matrix2d::Identity();
      fs[1] = 0.7 * Eigen::Rotation2Dd(1.1).toRotationMatrix();
      fs[2] = Matrix2d::Zero();
      fs[3] << 2.0, 0.0, 0.0, 0.5;  // compression along y, exactly
    }
    std::vector<Svd2> many(count);
    ClosedFormSvdOfMany(fs, absl::MakeSpan(many));
    for (size_t i = 0; i < count; ++i) {
      const Svd2 one = ClosedFormSvd(fs[i]);
      EXPECT_NEAR(many[i].s1, one.s1, 1e-14 * (1 + one.s1)) << i;
      EXPECT_NEAR(many[i].s2, one.s2, 1e-14 * (1 + one.s1)) << i;
      EXPECT_NEAR((many[i].u - one.u).norm(), 0.0, 1e-12) << i;
      EXPECT_NEAR((many[i].v - one.v).norm(), 0.0, 1e-12) << i;
    }
  }
}

// Edge matrices and singular values two at a time: within rounding of one
// at a time, for odd counts and for triangles with a zero edge or no area.
TEST(StretchTest, ManyEdgeMatricesAndSingularValuesAreEachOnes) {
  std::mt19937 rng(6);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Vector3d> positions(60);
  for (Vector3d& p : positions) p = Vector3d(u(rng), u(rng), u(rng));
  positions[1] = positions[0];                       // a zero edge
  positions[2] = 2.0 * positions[0] - positions[3];  // collinear
  std::vector<std::array<int32_t, 3>> triangles = {{0, 1, 5}, {0, 3, 2}};
  for (int32_t i = 4; i + 2 < 60; i += 3)
    triangles.push_back({i, i + 1, i + 2});
  for (size_t count : {size_t{1}, size_t{2}, triangles.size()}) {
    const auto some = absl::MakeConstSpan(triangles).subspan(0, count);
    std::vector<Matrix2d> matrices(count);
    std::vector<LocalFrame> frames(count);
    EdgeMatricesOfMany(positions, some, absl::MakeSpan(matrices),
                       absl::MakeSpan(frames));
    std::vector<double> s1(count), s2(count);
    SingularValuesOfMany(matrices, absl::MakeSpan(s1), absl::MakeSpan(s2));
    for (size_t i = 0; i < count; ++i) {
      LocalFrame frame;
      const Matrix2d one =
          EdgeMatrix(positions[some[i][0]], positions[some[i][1]],
                     positions[some[i][2]], &frame);
      EXPECT_NEAR((matrices[i] - one).norm(), 0.0, 1e-14) << i;
      EXPECT_NEAR((frames[i].x_axis - frame.x_axis).norm(), 0.0, 1e-14) << i;
      EXPECT_NEAR((frames[i].y_axis - frame.y_axis).norm(), 0.0, 1e-14) << i;
      double one_s1, one_s2;
      SingularValues(one, &one_s1, &one_s2);
      EXPECT_NEAR(s1[i], one_s1, 1e-14) << i;
      EXPECT_NEAR(s2[i], one_s2, 1e-14) << i;
    }
  }
}

TEST(StretchTest, ScaledRotationsAndIdentityAreExact) {
  for (double angle : {0.0, 0.4, 2.0, -3.0}) {
    const Matrix2d f = 0.5 * Eigen::Rotation2Dd(angle).toRotationMatrix();
    const Svd2 svd = ClosedFormSvd(f);
    EXPECT_NEAR(svd.s1, 0.5, 1e-15);
    EXPECT_NEAR(svd.s2, 0.5, 1e-15);
    EXPECT_NEAR((svd.u * Eigen::Vector2d(svd.s1, svd.s2).asDiagonal() *
                     svd.v.transpose() -
                 f)
                    .norm(),
                0, 1e-15);
  }
}

TEST(StretchTest, DegenerateTrianglesNeverProduceNan) {
  const Vector3d a(0, 0, 0), b(1, 0, 0), c(2, 0, 0);  // collinear
  LocalFrame frame;
  const Matrix2d collinear = EdgeMatrix(a, b, c, &frame);
  EXPECT_TRUE(collinear.allFinite());
  EXPECT_TRUE(IsDegenerate(collinear, 1e-6));
  const Matrix2d point = EdgeMatrix(a, a, a, &frame);
  EXPECT_TRUE(point.allFinite());
  EXPECT_TRUE(IsDegenerate(point, 1e-6));
  EXPECT_TRUE(frame.x_axis.allFinite() && frame.y_axis.allFinite());
  const Matrix2d sliver = EdgeMatrix(a, b, Vector3d(0.5, 1e-9, 0), &frame);
  EXPECT_TRUE(IsDegenerate(sliver, 1e-6));
  EXPECT_FALSE(
      IsDegenerate(EdgeMatrix(a, b, Vector3d(0.5, 1e-2, 0), &frame), 1e-6));

  const Svd2 zero = ClosedFormSvd(Matrix2d::Zero());
  EXPECT_EQ(zero.s1, 0.0);
  EXPECT_TRUE(zero.u.allFinite() && zero.v.allFinite());
  const StretchTensor t = MakeStretchTensor(ClosedFormSvd(collinear), frame);
  EXPECT_TRUE(t.degenerate);
  EXPECT_EQ(t.compression, 1.0);
  EXPECT_TRUE(t.compression_dir.allFinite());
}

}  // namespace
}  // namespace crease
