#include "wrinkle/core/field_smoothing.h"

#include <cmath>
#include <numbers>

namespace crease {

void SmoothFieldDirections(const MeshTopology& topology,
                           absl::Span<const LocalFrame> frames,
                           absl::Span<const Eigen::Matrix2d> edge_matrices,
                           const FieldSmoothingParams& params,
                           FieldSmoothingScratch& scratch,
                           absl::Span<StretchTensor> field) {
  if (params.passes <= 0) return;
  const int32_t n = topology.num_triangles();
  scratch.compression_dir.resize(n);
  scratch.weight.resize(n);
  scratch.normal.resize(n);
  for (int32_t f = 0; f < n; ++f) {
    const StretchTensor& t = field[f];
    scratch.normal[f] = frames[f].x_axis.cross(frames[f].y_axis);
    // Twice the area: the edge matrix is upper triangular.
    const double area =
        std::abs(edge_matrices[f](0, 0) * edge_matrices[f](1, 1));
    const bool directed =
        !t.degenerate && t.compression > 1.0 && t.lambda_max > t.lambda_min;
    scratch.weight[f] =
        directed
            ? (t.compression - 1.0) * (1.0 - t.lambda_min / t.lambda_max) * area
            : 0.0;
  }
  const double min_cos =
      std::cos(params.crease_degrees * std::numbers::pi / 180);
  for (int pass = 0; pass < params.passes; ++pass) {
    for (int32_t f = 0; f < n; ++f)
      scratch.compression_dir[f] = field[f].compression_dir;
    for (int32_t f = 0; f < n; ++f) {
      StretchTensor& t = field[f];
      if (scratch.weight[f] == 0.0) continue;
      const LocalFrame& frame = frames[f];
      const Eigen::Vector3d& normal = scratch.normal[f];
      // The 2D structure tensor [xx xy; xy yy] in f's frame.
      double xx = 0, xy = 0, yy = 0;
      for (int32_t v : topology.triangles()[f]) {
        for (int32_t g : topology.vertex_faces(topology.welded_vertex(v))) {
          const double w = scratch.weight[g];
          if (w == 0.0 || normal.dot(scratch.normal[g]) < min_cos) continue;
          const Eigen::Vector3d& d = scratch.compression_dir[g];
          double x = d.dot(frame.x_axis), y = d.dot(frame.y_axis);
          const double len_sq = x * x + y * y;
          if (!(len_sq > 1e-24)) continue;
          xx += w * x * x / len_sq;
          xy += w * x * y / len_sq;
          yy += w * y * y / len_sq;
        }
      }
      // Main axis of the symmetric 2x2 tensor.
      const double angle = 0.5 * std::atan2(2.0 * xy, xx - yy);
      const Eigen::Vector3d compression_dir =
          std::cos(angle) * frame.x_axis + std::sin(angle) * frame.y_axis;
      if (!compression_dir.allFinite()) continue;
      t.compression_dir = compression_dir;
      t.wrinkle_dir = normal.cross(compression_dir);
    }
  }
}

}  // namespace crease
