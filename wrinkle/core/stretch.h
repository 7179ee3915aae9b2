#ifndef CREASE_WRINKLE_CORE_STRETCH_H_
#define CREASE_WRINKLE_CORE_STRETCH_H_

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "absl/types/span.h"

namespace crease {

// Orthonormal in-plane axes of one triangle in 3D: X along edge x1 - x0,
// Y = N x X with N the triangle's unit normal.
struct LocalFrame {
  Eigen::Vector3d x_axis = Eigen::Vector3d::UnitX();
  Eigen::Vector3d y_axis = Eigen::Vector3d::UnitY();

  Eigen::Vector3d Lift(const Eigen::Vector2d& v) const {
    return v.x() * x_axis + v.y() * y_axis;
  }
};

// The 2x2 edge matrix M = [u1 u2] of a triangle in its own frame:
// M = [[|e1|, e2.X], [0, e2.Y]] with e1 = x1 - x0, e2 = x2 - x0. Upper
// triangular with det M = twice the area >= 0, so a deformation gradient
// between two such matrices never reflects. Writes the frame to *frame (the
// default axes for a zero-length e1 or collinear corners, where M is singular).
Eigen::Matrix2d EdgeMatrix(const Eigen::Vector3d& x0, const Eigen::Vector3d& x1,
                           const Eigen::Vector3d& x2, LocalFrame* frame);

// EdgeMatrix of many triangles (corner indices into `positions`), two at a
// time: the same arithmetic in two lanes, so within rounding of it.
// `matrices` and `frames` have the size of `triangles`.
void EdgeMatricesOfMany(absl::Span<const Eigen::Vector3d> positions,
                        absl::Span<const std::array<int32_t, 3>> triangles,
                        absl::Span<Eigen::Matrix2d> matrices,
                        absl::Span<LocalFrame> frames);

// True when the triangle of edge matrix m has (almost) no area: twice its area
// is at most `relative_area` times its longest edge squared (or an edge has
// zero length).
// Inline: called twice per triangle per frame.
inline bool IsDegenerate(const Eigen::Matrix2d& m, double relative_area) {
  const double det = m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0);
  const double len1_sq = m(0, 0) * m(0, 0) + m(1, 0) * m(1, 0);
  const double len2_sq = m(0, 1) * m(0, 1) + m(1, 1) * m(1, 1);
  const double e3x = m(0, 1) - m(0, 0), e3y = m(1, 1) - m(1, 0);
  const double longest_sq =
      std::max(std::max(len1_sq, len2_sq), e3x * e3x + e3y * e3y);
  // Both tests computed first, so the compiler need not branch between
  // them (a NaN fails the first, an infinite area the second).
  const bool small = !(std::abs(det) > relative_area * longest_sq);
  const bool infinite = !std::isfinite(det);
  return small || infinite;
}

// F = U diag(s1, s2) V^T with U, V rotations and s1 >= |s2|. s2 is negative
// only when det F < 0 (never for F between two edge matrices).
struct Svd2 {
  Eigen::Matrix2d u = Eigen::Matrix2d::Identity();
  Eigen::Matrix2d v = Eigen::Matrix2d::Identity();
  double s1 = 1.0;
  double s2 = 1.0;
};

// Closed-form 2x2 SVD without trigonometry: u1 is the dominant eigenvector of F
// F^T, v1 = F^T u1 / s1, and the second columns are their 90-degree rotations.
Svd2 ClosedFormSvd(const Eigen::Matrix2d& f);

// ClosedFormSvd of many matrices, two at a time (the same arithmetic in two
// lanes, so within rounding of it). `svds` has the size of `fs`.
void ClosedFormSvdOfMany(absl::Span<const Eigen::Matrix2d> fs,
                         absl::Span<Svd2> svds);

// Singular values of F only (s1 >= |s2|, s2 < 0 iff det F < 0): for the
// inter-frame tensors, where the labeling needs magnitudes and no directions.
void SingularValues(const Eigen::Matrix2d& f, double* s1, double* s2);

// SingularValues of many matrices, two at a time (within rounding of it).
void SingularValuesOfMany(absl::Span<const Eigen::Matrix2d> fs,
                          absl::Span<double> s1, absl::Span<double> s2);

// The magnitudes of a stretch tensor.
struct StretchRatios {
  double lambda_max = 1.0;
  double lambda_min = 1.0;
  double compression = 1.0;  // 1 / lambda_min
  bool degenerate = false;

  static StretchRatios Degenerate() { return {1.0, 1.0, 1.0, true}; }
};
StretchRatios MakeStretchRatios(double s1, double s2);

// In-plane stretch of one triangle against a reference shape, F = M R^-1.
struct StretchTensor {
  double lambda_max = 1.0;   // s1: largest stretch ratio
  double lambda_min = 1.0;   // s2: smallest stretch ratio
  double compression = 1.0;  // c = 1 / lambda_min (the papers' lambda~_min)
  // Unit 3D directions on the *current* mesh: the left singular vectors of F
  // for s2 (most compressed) and s1 (the wrinkle runs along it). Zero when
  // degenerate.
  Eigen::Vector3d compression_dir = Eigen::Vector3d::Zero();
  Eigen::Vector3d wrinkle_dir = Eigen::Vector3d::Zero();
  bool degenerate = false;  // identity tensor stands in for an undefined one

  static StretchTensor Degenerate() {
    StretchTensor t;
    t.degenerate = true;
    return t;
  }
};

// Builds the tensor from the SVD of F, lifting directions through the current
// frame.
StretchTensor MakeStretchTensor(const Svd2& svd, const LocalFrame& current);

// 2x2 inverse of an edge matrix; the caller checks IsDegenerate first.
inline Eigen::Matrix2d Inverse2(const Eigen::Matrix2d& m) {
  const double inv_det = 1.0 / (m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0));
  Eigen::Matrix2d r;
  r << m(1, 1) * inv_det, -m(0, 1) * inv_det, -m(1, 0) * inv_det,
      m(0, 0) * inv_det;
  return r;
}

}  // namespace crease

#endif  // CREASE_WRINKLE_CORE_STRETCH_H_
