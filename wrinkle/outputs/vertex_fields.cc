#include "wrinkle/outputs/vertex_fields.h"

#include <Eigen/Geometry>
#include <cmath>

#include "common/status_macros.h"

namespace crease {
namespace {

Eigen::Vector3d At(absl::Span<const float> xyz, int32_t v) {
  return {xyz[3 * v], xyz[3 * v + 1], xyz[3 * v + 2]};
}

// Unit n (or zero) and an orthonormal basis of the plane perpendicular to it,
// a function of n alone: t1 across n and the axis n is least along, t2 = n x
// t1.
std::array<Eigen::Vector3d, 3> TangentFrame(const Eigen::Vector3d& normal_sum) {
  if (!(normal_sum.squaredNorm() > 0)) {
    return {Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(),
            Eigen::Vector3d::Zero()};
  }
  const Eigen::Vector3d n = normal_sum.normalized();
  int axis = 0;
  n.cwiseAbs().minCoeff(&axis);
  const Eigen::Vector3d t1 = n.cross(Eigen::Vector3d::Unit(axis)).normalized();
  return {n, t1, n.cross(t1)};
}

// w (perpendicular to unit a) turned by the smallest rotation taking a to
// unit b: w + v x w + v x (v x w) / (1 + c), v = a x b, c = a . b. Facing
// opposite ways (c near -1, a fold back), a half turn about w itself: w.
inline Eigen::Vector3d TurnInto(const Eigen::Vector3d& v, double c,
                                const Eigen::Vector3d& w) {
  if (c < -1 + 1e-9) return w;
  const Eigen::Vector3d vw = v.cross(w);
  return w + vw + v.cross(vw) / (1 + c);
}

// The eigenvector of the smaller eigenvalue mu of symmetric [[a, b], [b, c]]:
// of the two forms (b, mu - a) and (mu - c, b) the longer (the better
// conditioned); not normalised.
Eigen::Vector2d SmallerEigenvector(double a, double b, double c, double mu) {
  const Eigen::Vector2d u(b, mu - a), v(mu - c, b);
  return u.squaredNorm() >= v.squaredNorm() ? u : v;
}

// d or -d, whichever has its largest component positive.
Eigen::Vector3d Canonical(const Eigen::Vector3d& d) {
  int axis = 0;
  d.cwiseAbs().maxCoeff(&axis);
  return d[axis] < 0 ? Eigen::Vector3d(-d) : d;
}

}  // namespace

void VertexFieldBuilder::Compute(
    absl::Span<const float> positions,
    absl::Span<const std::array<int32_t, 3>> triangles,
    absl::Span<const int32_t> welded, absl::Span<const StretchTensor> field,
    absl::Span<const Label> labels, VertexFields* out) {
  CREASE_DCHECK(positions.size() == 3 * welded.size());
  CREASE_DCHECK(field.size() == triangles.size());
  CREASE_DCHECK(labels.size() == triangles.size());
  SumNormalsAndLabels(positions, triangles, welded, labels);
  SumTensors(triangles, welded, field);
  WriteFields(welded, out);
}

void VertexFieldBuilder::SumNormalsAndLabels(
    absl::Span<const float> positions,
    absl::Span<const std::array<int32_t, 3>> triangles,
    absl::Span<const int32_t> welded, absl::Span<const Label> labels) {
  const size_t num_vertices = welded.size();
  sums_.assign(num_vertices * kStride, 0.0);  // welded ids < vertex count
  face_normals_.resize(triangles.size());
  for (size_t f = 0; f < triangles.size(); ++f) {
    const auto& [a, b, c] = triangles[f];
    const Eigen::Vector3d pa = At(positions, a);
    const Eigen::Vector3d cross =
        (At(positions, b) - pa).cross(At(positions, c) - pa);
    face_normals_[f] = cross;
    const double area = 0.5 * cross.norm();
    for (int32_t v : triangles[f]) {
      double* s = &sums_[welded[v] * kStride];
      for (int k = 0; k < 3; ++k) s[k] += cross[k];
      s[7 + LabelIndex(labels[f])] += area;
    }
  }
  frames_.resize(num_vertices);
  for (size_t id = 0; id < num_vertices; ++id) {
    const double* s = &sums_[id * kStride];
    frames_[id] = TangentFrame(Eigen::Vector3d(s[0], s[1], s[2]));
  }
}

void VertexFieldBuilder::SumTensors(
    absl::Span<const std::array<int32_t, 3>> triangles,
    absl::Span<const int32_t> welded, absl::Span<const StretchTensor> field) {
  // Each triangle's tensor turned into each corner's tangent plane (the
  // smallest rotation taking the triangle's normal to the vertex's), in that
  // plane's basis.
  for (size_t f = 0; f < triangles.size(); ++f) {
    const StretchTensor& t = field[f];
    const double twice_area = face_normals_[f].norm();
    if (t.degenerate || !(twice_area > 0)) continue;
    const Eigen::Vector3d face = face_normals_[f] / twice_area;
    const double area = 0.5 * twice_area;
    const double gap = t.lambda_max - t.lambda_min;
    for (int32_t v : triangles[f]) {
      const auto& [n, t1, t2] = frames_[welded[v]];
      // In the plane the tensor is lambda_min I + (lambda_max - lambda_min)
      // w w^T for its unit wrinkle direction w, so w alone carries it.
      const Eigen::Vector3d w =
          TurnInto(face.cross(n), face.dot(n), t.wrinkle_dir);
      const double x = w.dot(t1), y = w.dot(t2);
      double* s = &sums_[welded[v] * kStride];
      s[3] += area * (t.lambda_min + gap * x * x);
      s[4] += area * gap * x * y;
      s[5] += area * (t.lambda_min + gap * y * y);
      s[6] += area;
    }
  }
}

void VertexFieldBuilder::WriteFields(absl::Span<const int32_t> welded,
                                     VertexFields* out) const {
  const size_t num_vertices = welded.size();
  out->compression.resize(num_vertices);
  out->directions.resize(3 * num_vertices);
  out->label_weights.resize(3 * num_vertices);
  for (size_t v = 0; v < num_vertices; ++v) {
    const double* s = &sums_[welded[v] * kStride];
    const auto& [n, t1, t2] = frames_[welded[v]];
    Eigen::Vector3d direction = Eigen::Vector3d::Zero();
    double compression = 1;
    if (s[6] > 0) {
      const double xx = s[3] / s[6], xy = s[4] / s[6], yy = s[5] / s[6];
      const double mid = 0.5 * (xx + yy);
      const double half_gap = 0.5 * (xx - yy);
      const double radius = std::sqrt(half_gap * half_gap + xy * xy);
      const double mu_min = mid - radius, mu_max = mid + radius;
      if (mu_min > 0) compression = 1 / mu_min;
      if (mu_max - mu_min > 1e-6 * mu_max) {
        const Eigen::Vector2d e = SmallerEigenvector(xx, xy, yy, mu_min);
        direction = Canonical((e.x() * t1 + e.y() * t2).normalized());
      }
    }
    out->compression[v] = static_cast<float>(compression);
    const double label_area = s[7] + s[8] + s[9];
    for (int k = 0; k < 3; ++k) {
      out->directions[3 * v + k] = static_cast<float>(direction[k]);
      out->label_weights[3 * v + k] = static_cast<float>(
          label_area > 0 ? s[7 + k] / label_area : (k == 1 ? 1.0 : 0.0));
    }
  }
}

}  // namespace crease
