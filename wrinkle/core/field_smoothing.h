#ifndef CREASE_WRINKLE_CORE_FIELD_SMOOTHING_H_
#define CREASE_WRINKLE_CORE_FIELD_SMOOTHING_H_

#include <vector>

#include "absl/types/span.h"
#include "wrinkle/core/mesh.h"
#include "wrinkle/core/stretch.h"

namespace crease {

// How the compression field's directions are smoothed before wrinkles follow
// them (docs/algorithm.md, "Fold families").
struct FieldSmoothingParams {
  // Jacobi passes over each triangle's corner-sharing neighbours; 0: the raw
  // field, one direction per coarse triangle as the papers have it.
  int passes = 4;
  // Neighbours whose planes meet the triangle's at more than this are on the
  // other side of a crease (a collar, a hem, the model's own fold) and are
  // left out.
  double crease_degrees = 45.0;
};

struct FieldSmoothingScratch {
  std::vector<Eigen::Vector3d> compression_dir;  // the previous pass's
  std::vector<double> weight;                    // per triangle
  std::vector<Eigen::Vector3d> normal;           // per triangle
};

// Replaces the directions of every compressed, non-degenerate triangle of
// `field` by the main axis of the structure tensor sum w_g d_g d_g^T over the
// triangle and the triangles sharing a corner with it (each counted once per
// shared corner), the d_g projected into the triangle's plane, where
// w_g = (c_g - 1)(1 - lambda_min / lambda_max) * area_g: the more compressed
// and the more clearly directed a neighbour, the more it pulls. Magnitudes
// (lambda_min, lambda_max, c) are left as they are: only where a fold runs
// changes, not whether there is one. `frames` and `edge_matrices` are the
// triangles' current ones (normals and areas). Allocates only when the
// scratch must grow.
void SmoothFieldDirections(const MeshTopology& topology,
                           absl::Span<const LocalFrame> frames,
                           absl::Span<const Eigen::Matrix2d> edge_matrices,
                           const FieldSmoothingParams& params,
                           FieldSmoothingScratch& scratch,
                           absl::Span<StretchTensor> field);

}  // namespace crease

#endif  // CREASE_WRINKLE_CORE_FIELD_SMOOTHING_H_
