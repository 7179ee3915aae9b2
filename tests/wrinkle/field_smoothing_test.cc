// The field smoothing (docs/algorithm.md, "Fold families") against its
// definition computed by brute force: on real animations' fields, the
// corner-summed kernel gives what summing every pair of triangles that share
// a corner gives.

#include "wrinkle/core/field_smoothing.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "tests/testing/bundled_data.h"
#include "tests/testing/session_runner.h"
#include "wrinkle/core/mesh.h"
#include "wrinkle/core/surface.h"
#include "wrinkle/sca2015/session.h"

namespace crease {
namespace {

// The corners triangles f and g share (welded vertices; 3 for f itself).
int SharedCorners(const MeshTopology& topology, int32_t f, int32_t g) {
  int shared = 0;
  for (int32_t a : topology.triangles()[f]) {
    for (int32_t b : topology.triangles()[g]) {
      shared += topology.welded_vertex(a) == topology.welded_vertex(b);
    }
  }
  return shared;
}

// The smoothing as its comment defines it, every directed triangle smoothed
// in every pass, each against every other triangle of the mesh; the main
// axis by an eigen solver.
std::vector<Eigen::Vector3d> BruteForce(const SurfaceFrame& surface,
                                        const FieldSmoothingParams& params) {
  const MeshTopology& topology = *surface.topology;
  const int32_t n = topology.num_triangles();
  std::vector<double> weight(n);
  std::vector<Eigen::Vector3d> normal(n), dir(n);
  for (int32_t f = 0; f < n; ++f) {
    const StretchTensor& t = surface.field[f];
    const Eigen::Matrix2d& m = surface.edge_matrices[f];
    normal[f] = surface.frames[f].x_axis.cross(surface.frames[f].y_axis);
    dir[f] = t.compression_dir;
    const bool directed =
        !t.degenerate && t.compression > 1.0 && t.lambda_max > t.lambda_min;
    weight[f] = directed ? (t.compression - 1.0) *
                               (1.0 - t.lambda_min / t.lambda_max) *
                               std::abs(m(0, 0) * m(1, 1))
                         : 0.0;
  }
  const double min_cos =
      std::cos(params.crease_degrees * std::numbers::pi / 180.0);
  for (int pass = 0; pass < params.passes; ++pass) {
    std::vector<Eigen::Vector3d> next = dir;
    for (int32_t f = 0; f < n; ++f) {
      if (weight[f] == 0.0) continue;
      const LocalFrame& frame = surface.frames[f];
      Eigen::Matrix2d tensor = Eigen::Matrix2d::Zero();
      for (int32_t g = 0; g < n; ++g) {
        const int k = SharedCorners(topology, f, g);
        if (k == 0 || weight[g] == 0.0 || normal[f].dot(normal[g]) < min_cos) {
          continue;
        }
        const Eigen::Vector2d d(dir[g].dot(frame.x_axis),
                                dir[g].dot(frame.y_axis));
        tensor += k * weight[g] * d * d.transpose();
      }
      const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> solver(tensor);
      const Eigen::Vector2d axis = solver.eigenvectors().col(1);
      next[f] = axis.x() * frame.x_axis + axis.y() * frame.y_axis;
    }
    dir = next;
  }
  return dir;
}

double AxisAngleDegrees(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return std::acos(std::min(1.0, std::abs(a.normalized().dot(b)))) * 180.0 /
         std::numbers::pi;
}

// With every ring that can reach them smoothed (rings = passes - 1), the
// triangles compressed beyond the bound end as the brute force has them;
// with the bound at no compression, every triangle does.
TEST(FieldSmoothingTest, CornerSumsAreTheKernelSummedPairByPair) {
  for (const char* name : {"fox_walk", "cesiumman_walk"}) {
    SCOPED_TRACE(name);
    const io::Animation anim = testing::LoadBundled(name);
    SessionParams raw_params;
    raw_params.field_smoothing.passes = 0;
    const auto session = testing::RunSessionTo(anim, 30, raw_params);
    ASSERT_NE(session, nullptr);
    const SurfaceFrame& surface = session->surface();
    const int32_t n = surface.topology->num_triangles();
    const FieldSmoothingParams params;  // the defaults: 4 passes, 45 degrees
    const std::vector<Eigen::Vector3d> expected = BruteForce(surface, params);
    for (const double bound : {1.0, 1.15}) {
      SCOPED_TRACE(bound);
      FieldSmoothingParams all_rings = params;
      all_rings.rings = bound == 1.0 ? 0 : params.passes - 1;
      std::vector<StretchTensor> field(surface.field.begin(),
                                       surface.field.end());
      FieldSmoothingScratch scratch;
      SmoothFieldDirections(*surface.topology, surface.frames,
                            surface.edge_matrices, all_rings, bound, scratch,
                            absl::MakeSpan(field));
      int compared = 0, moved = 0;
      double worst = 0;
      for (int32_t f = 0; f < n; ++f) {
        const StretchTensor& raw = surface.field[f];
        if (raw.degenerate || !(raw.compression > bound) ||
            !(raw.lambda_max > raw.lambda_min)) {
          continue;
        }
        ++compared;
        worst = std::max(
            worst, AxisAngleDegrees(field[f].compression_dir, expected[f]));
        moved += AxisAngleDegrees(raw.compression_dir, expected[f]) > 1.0;
      }
      EXPECT_GT(compared, 20);
      EXPECT_GT(moved, compared / 10);  // the smoothing does something
      EXPECT_LT(worst, 1e-4) << "degrees; rounding alone gives about 2e-6";
    }
  }
}

}  // namespace
}  // namespace crease
