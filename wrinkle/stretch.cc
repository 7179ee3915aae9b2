#include "wrinkle/stretch.h"

#include <algorithm>
#include <cmath>

namespace crease {

Eigen::Matrix2d EdgeMatrix(const Eigen::Vector3d& x0, const Eigen::Vector3d& x1,
                           const Eigen::Vector3d& x2, LocalFrame* frame) {
  const Eigen::Vector3d e1 = x1 - x0;
  const Eigen::Vector3d e2 = x2 - x0;
  const double len1 = e1.norm();
  const Eigen::Vector3d normal = e1.cross(e2);
  const double normal_len = normal.norm();
  Eigen::Matrix2d m = Eigen::Matrix2d::Zero();
  if (len1 == 0.0 || normal_len == 0.0) {
    *frame = LocalFrame{};
    m(0, 0) = len1;
    return m;
  }
  frame->x_axis = e1 / len1;
  frame->y_axis = (normal / normal_len).cross(frame->x_axis);
  m(0, 0) = len1;
  m(0, 1) = e2.dot(frame->x_axis);
  m(1, 1) = e2.dot(frame->y_axis);
  return m;
}

bool IsDegenerate(const Eigen::Matrix2d& m, double relative_area) {
  const double det = m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0);
  const double len1_sq = m(0, 0) * m(0, 0) + m(1, 0) * m(1, 0);
  const double len2_sq = m(0, 1) * m(0, 1) + m(1, 1) * m(1, 1);
  const Eigen::Vector2d e3 = m.col(1) - m.col(0);
  const double longest_sq = std::max({len1_sq, len2_sq, e3.squaredNorm()});
  return !(std::abs(det) > relative_area * longest_sq) || !std::isfinite(det);
}

Svd2 ClosedFormSvd(const Eigen::Matrix2d& f) {
  Svd2 out;
  const double a = f(0, 0), b = f(0, 1), c = f(1, 0), d = f(1, 1);
  // Singular values from the rotation/reflection split of F.
  const double e = 0.5 * (a + d), g = 0.5 * (a - d);
  const double h = 0.5 * (c + b), k = 0.5 * (c - b);
  const double q = std::hypot(e, k), r = std::hypot(g, h);
  out.s1 = q + r;
  if (!(out.s1 > 0.0)) {
    out.s1 = out.s2 = 0.0;
    return out;
  }
  // Dominant eigenvector of F F^T = [[p, m], [m, n]]: either row of (F F^T - s1^2 I),
  // rotated by 90 degrees, whichever is longer.
  const double p = a * a + b * b, m = a * c + b * d, n = c * c + d * d;
  const double s1_sq = out.s1 * out.s1;
  Eigen::Vector2d u1(m, s1_sq - p);
  const Eigen::Vector2d alt(s1_sq - n, m);
  if (alt.squaredNorm() > u1.squaredNorm()) u1 = alt;
  const double u1_len = u1.norm();
  if (u1_len > 1e-300 * s1_sq) {
    u1 /= u1_len;
  } else {
    u1 = Eigen::Vector2d::UnitX();  // F is a scaled rotation: any direction works
  }
  const Eigen::Vector2d u2(-u1.y(), u1.x());
  const Eigen::Vector2d v1 = (f.transpose() * u1).normalized();
  const Eigen::Vector2d v2(-v1.y(), v1.x());
  out.s2 = u2.dot(f * v2);
  out.u.col(0) = u1;
  out.u.col(1) = u2;
  out.v.col(0) = v1;
  out.v.col(1) = v2;
  return out;
}

StretchTensor MakeStretchTensor(const Svd2& svd, const LocalFrame& current) {
  if (!(svd.s2 > 0.0) || !std::isfinite(svd.s1)) return StretchTensor::Degenerate();
  StretchTensor t;
  t.lambda_max = svd.s1;
  t.lambda_min = svd.s2;
  t.compression = 1.0 / svd.s2;
  t.compression_dir = current.Lift(svd.u.col(1));
  t.wrinkle_dir = current.Lift(svd.u.col(0));
  return t;
}

}  // namespace crease
