#include "wrinkle/fold_directions.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <numbers>

namespace crease {
namespace {

// How much a triangle's direction counts: none when resting, degenerate or
// isotropic (its direction is arbitrary there).
double DirectionWeight(const StretchTensor& t) {
  if (t.degenerate || !(t.lambda_max > 0)) return 0.0;
  return std::max(t.compression - 1.0, 0.0) *
         std::max(1.0 - t.lambda_min / t.lambda_max, 0.0);
}

}  // namespace

void SmoothFoldDirections(const MeshTopology& topology,
                          absl::Span<const LocalFrame> frames,
                          double min_compression,
                          const FoldDirectionParams& params,
                          FoldDirectionScratch* scratch,
                          std::vector<StretchTensor>* field) {
  const int32_t n = topology.num_triangles();
  std::vector<StretchTensor>& tensors = *field;
  const double min_cos =
      std::cos(params.max_crease_degrees * std::numbers::pi / 180.0);
  scratch->directions.resize(n);
  for (int pass = 0; pass < params.passes; ++pass) {
    for (int32_t f = 0; f < n; ++f) {
      const StretchTensor& t = tensors[f];
      scratch->directions[f] = t.wrinkle_dir;
      if (t.degenerate || t.compression <= min_compression ||
          t.wrinkle_dir.squaredNorm() == 0) {
        continue;
      }
      const LocalFrame& frame = frames[f];
      const Eigen::Vector3d normal = frame.x_axis.cross(frame.y_axis);
      // The directions have no sign: average their outer products (a 2x2
      // structure tensor in the triangle's plane) and take its main axis.
      Eigen::Matrix2d sum = Eigen::Matrix2d::Zero();
      auto add = [&](int32_t g) {
        const double w = DirectionWeight(tensors[g]);
        if (w <= 0) return;
        const LocalFrame& other = frames[g];
        if (other.x_axis.cross(other.y_axis).dot(normal) < min_cos) return;
        const Eigen::Vector2d d(tensors[g].wrinkle_dir.dot(frame.x_axis),
                                tensors[g].wrinkle_dir.dot(frame.y_axis));
        const double length2 = d.squaredNorm();
        if (length2 == 0) return;
        sum += (w / length2) * d * d.transpose();
      };
      add(f);
      for (int32_t g : topology.face_neighbors(f)) {
        if (g >= 0) add(g);
      }
      if (sum.trace() <= 0) continue;
      const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eigen(sum);
      const Eigen::Vector2d main = eigen.eigenvectors().col(1);  // largest
      scratch->directions[f] = frame.Lift(main).normalized();
    }
    for (int32_t f = 0; f < n; ++f) {
      StretchTensor& t = tensors[f];
      if (t.degenerate || t.compression <= min_compression) continue;
      const Eigen::Vector3d& d = scratch->directions[f];
      if (d.squaredNorm() == 0) continue;
      const Eigen::Vector3d normal = frames[f].x_axis.cross(frames[f].y_axis);
      // Keep the old sign, so directions do not flip from frame to frame.
      t.wrinkle_dir = d.dot(t.wrinkle_dir) < 0 ? Eigen::Vector3d(-d) : d;
      t.compression_dir = normal.cross(t.wrinkle_dir).normalized();
    }
  }
}

}  // namespace crease
