#include "wrinkle/core/stretch.h"

#include <algorithm>
#include <cmath>

#include "wrinkle/core/double2.h"

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
  // One division each, not one per coordinate.
  frame->x_axis = e1 * (1.0 / len1);
  frame->y_axis = (normal * (1.0 / normal_len)).cross(frame->x_axis);
  m(0, 0) = len1;
  m(0, 1) = e2.dot(frame->x_axis);
  m(1, 1) = e2.dot(frame->y_axis);
  return m;
}

namespace {

// A 3D vector in two lanes: one triangle's in each.
struct Vector3x2 {
  Double2 x, y, z;
};

Vector3x2 Minus(const Eigen::Vector3d& a0, const Eigen::Vector3d& a1,
                const Eigen::Vector3d& b0, const Eigen::Vector3d& b1) {
  return {Double2{a0.x() - b0.x(), a1.x() - b1.x()},
          Double2{a0.y() - b0.y(), a1.y() - b1.y()},
          Double2{a0.z() - b0.z(), a1.z() - b1.z()}};
}

Double2 Dot(const Vector3x2& a, const Vector3x2& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

Vector3x2 Cross(const Vector3x2& a, const Vector3x2& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

Vector3x2 Scaled(const Vector3x2& a, Double2 s) {
  return {a.x * s, a.y * s, a.z * s};
}

// Two 2x2 matrices [a b; c d], one to each lane: fs[i] and fs[j].
struct Matrix2x2 {
  Double2 a, b, c, d;
};

Matrix2x2 Lanes(absl::Span<const Eigen::Matrix2d> fs, size_t i, size_t j) {
  return {Double2{fs[i](0, 0), fs[j](0, 0)}, Double2{fs[i](0, 1), fs[j](0, 1)},
          Double2{fs[i](1, 0), fs[j](1, 0)}, Double2{fs[i](1, 1), fs[j](1, 1)}};
}

// SingularValues' s1: |rotation part| + |reflection part|.
Double2 LargestSingularValue(const Matrix2x2& m) {
  const Double2 e = 0.5 * (m.a + m.d), g = 0.5 * (m.a - m.d);
  const Double2 h = 0.5 * (m.c + m.b), k = 0.5 * (m.c - m.b);
  return Sqrt(e * e + k * k) + Sqrt(g * g + h * h);
}

}  // namespace

void EdgeMatricesOfMany(absl::Span<const Eigen::Vector3d> positions,
                        absl::Span<const std::array<int32_t, 3>> triangles,
                        absl::Span<Eigen::Matrix2d> matrices,
                        absl::Span<LocalFrame> frames) {
  const size_t count = triangles.size();
  for (size_t i = 0; i < count; i += 2) {
    // An odd count's last triangle fills both lanes.
    const size_t j = std::min(i + 1, count - 1);
    const std::array<int32_t, 3>& t = triangles[i];
    const std::array<int32_t, 3>& u = triangles[j];
    const Vector3x2 e1 = Minus(positions[t[1]], positions[u[1]],
                               positions[t[0]], positions[u[0]]);
    const Vector3x2 e2 = Minus(positions[t[2]], positions[u[2]],
                               positions[t[0]], positions[u[0]]);
    const Double2 len1 = Sqrt(Dot(e1, e1));
    const Vector3x2 normal = Cross(e1, e2);
    const Double2 normal_len = Sqrt(Dot(normal, normal));
    const Vector3x2 x_axis = Scaled(e1, 1.0 / len1);
    const Vector3x2 y_axis = Cross(Scaled(normal, 1.0 / normal_len), x_axis);
    const Double2 m01 = Dot(e2, x_axis), m11 = Dot(e2, y_axis);
    for (size_t lane = 0; lane < 2 && i + lane < count; ++lane) {
      Eigen::Matrix2d& m = matrices[i + lane];
      LocalFrame& frame = frames[i + lane];
      m.setZero();
      m(0, 0) = len1[lane];
      if (len1[lane] == 0.0 || normal_len[lane] == 0.0) {
        frame = LocalFrame{};
        continue;
      }
      frame.x_axis = {x_axis.x[lane], x_axis.y[lane], x_axis.z[lane]};
      frame.y_axis = {y_axis.x[lane], y_axis.y[lane], y_axis.z[lane]};
      m(0, 1) = m01[lane];
      m(1, 1) = m11[lane];
    }
  }
}

void SingularValuesOfMany(absl::Span<const Eigen::Matrix2d> fs,
                          absl::Span<double> s1, absl::Span<double> s2) {
  const size_t count = fs.size();
  for (size_t i = 0; i < count; i += 2) {
    const size_t j = std::min(i + 1, count - 1);
    const Matrix2x2 m = Lanes(fs, i, j);
    const Double2 first = LargestSingularValue(m);
    const Double2 second =
        first > 0.0 ? (m.a * m.d - m.b * m.c) / first : Broadcast(0.0);
    for (size_t lane = 0; lane < 2 && i + lane < count; ++lane) {
      s1[i + lane] = first[lane];
      s2[i + lane] = second[lane];
    }
  }
}

void SingularValues(const Eigen::Matrix2d& f, double* s1, double* s2) {
  const double a = f(0, 0), b = f(0, 1), c = f(1, 0), d = f(1, 1);
  // F = rotation part (e, k) + reflection part (g, h); s1 = |rot| + |ref|,
  // s2 = |rot| - |ref| = det F / s1 (the quotient avoids cancellation when s2
  // << s1).
  const double e = 0.5 * (a + d), g = 0.5 * (a - d);
  const double h = 0.5 * (c + b), k = 0.5 * (c - b);
  *s1 = std::sqrt(e * e + k * k) + std::sqrt(g * g + h * h);
  *s2 = *s1 > 0.0 ? (a * d - b * c) / *s1 : 0.0;
}

Svd2 ClosedFormSvd(const Eigen::Matrix2d& f) {
  Svd2 out;
  SingularValues(f, &out.s1, &out.s2);
  if (!(out.s1 > 0.0)) {
    out.s1 = out.s2 = 0.0;
    return out;
  }
  const double a = f(0, 0), b = f(0, 1), c = f(1, 0), d = f(1, 1);
  // Dominant eigenvector of F F^T = [[p, m], [m, n]]: the null vector of
  // either row of F F^T - s1^2 I, (m, s1^2 - p) and (s1^2 - n, m), parallel
  // (either may vanish). Both diagonal terms are >= 0, so with the second's
  // sign made that of m they point the same way and their sum never cancels:
  // no branch on which is longer, which the predictor could not guess.
  const double p = a * a + b * b, m = a * c + b * d, n = c * c + d * d;
  const double s1_sq = out.s1 * out.s1;
  double ux = m + std::copysign(s1_sq - n, m);
  double uy = (s1_sq - p) + std::abs(m);
  const double u_len_sq = ux * ux + uy * uy;
  if (u_len_sq > 1e-300 * s1_sq * s1_sq) {
    const double inv = 1.0 / std::sqrt(u_len_sq);
    ux *= inv;
    uy *= inv;
  } else {
    ux = 1.0;  // F is a scaled rotation: any direction is singular
    uy = 0.0;
  }
  // v1 = F^T u1 / |F^T u1|; u2, v2 are u1, v1 turned by 90 degrees.
  double vx = a * ux + c * uy, vy = b * ux + d * uy;
  const double v_inv = 1.0 / std::sqrt(vx * vx + vy * vy);
  vx *= v_inv;
  vy *= v_inv;
  // s2 = u2 . F v2 carries the sign of det F.
  out.s2 = -uy * (a * -vy + b * vx) + ux * (c * -vy + d * vx);
  out.u << ux, -uy, uy, ux;
  out.v << vx, -vy, vy, vx;
  return out;
}

void ClosedFormSvdOfMany(absl::Span<const Eigen::Matrix2d> fs,
                         absl::Span<Svd2> svds) {
  const size_t count = fs.size();
  for (size_t i = 0; i < count; i += 2) {
    // An odd count's last matrix fills both lanes.
    const size_t j = std::min(i + 1, count - 1);
    const Matrix2x2 f = Lanes(fs, i, j);
    const Double2 a = f.a, b = f.b, c = f.c, d = f.d;
    const Double2 s1 = LargestSingularValue(f);
    // The rest as ClosedFormSvd, both of its branches taken.
    const Double2 p = a * a + b * b, m = a * c + b * d, n = c * c + d * d;
    const Double2 s1_sq = s1 * s1;
    Double2 ux = m + CopySign(s1_sq - n, m);
    Double2 uy = (s1_sq - p) + Abs(m);
    const Double2 u_len_sq = ux * ux + uy * uy;
    const Double2 u_inv = 1.0 / Sqrt(u_len_sq);
    const auto directed = u_len_sq > 1e-300 * s1_sq * s1_sq;
    ux = directed ? ux * u_inv : Broadcast(1.0);
    uy = directed ? uy * u_inv : Broadcast(0.0);
    Double2 vx = a * ux + c * uy, vy = b * ux + d * uy;
    const Double2 v_inv = 1.0 / Sqrt(vx * vx + vy * vy);
    vx *= v_inv;
    vy *= v_inv;
    const Double2 s2 = -uy * (a * -vy + b * vx) + ux * (c * -vy + d * vx);
    for (size_t lane = 0; lane < 2 && i + lane < count; ++lane) {
      Svd2& out = svds[i + lane];
      if (!(s1[lane] > 0.0)) {  // as ClosedFormSvd: no singular values
        out = Svd2{};
        out.s1 = out.s2 = 0.0;
        continue;
      }
      out.s1 = s1[lane];
      out.s2 = s2[lane];
      out.u << ux[lane], -uy[lane], uy[lane], ux[lane];
      out.v << vx[lane], -vy[lane], vy[lane], vx[lane];
    }
  }
}

StretchRatios MakeStretchRatios(double s1, double s2) {
  if (!(s2 > 0.0) || !std::isfinite(s1)) return StretchRatios::Degenerate();
  return StretchRatios{s1, s2, 1.0 / s2, false};
}

StretchTensor MakeStretchTensor(const Svd2& svd, const LocalFrame& current) {
  if (!(svd.s2 > 0.0) || !std::isfinite(svd.s1))
    return StretchTensor::Degenerate();
  StretchTensor t;
  t.lambda_max = svd.s1;
  t.lambda_min = svd.s2;
  t.compression = 1.0 / svd.s2;
  t.compression_dir = current.Lift(svd.u.col(1));
  t.wrinkle_dir = current.Lift(svd.u.col(0));
  return t;
}

}  // namespace crease
