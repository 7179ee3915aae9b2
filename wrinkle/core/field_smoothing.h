#ifndef CREASE_WRINKLE_CORE_FIELD_SMOOTHING_H_
#define CREASE_WRINKLE_CORE_FIELD_SMOOTHING_H_

#include <array>
#include <cstdint>
#include <memory>
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
  // Rings of corner neighbours around the triangles a wrinkle may follow
  // that are smoothed too (at most passes - 1: all that can reach them);
  // triangles further out pull with their own directions. 1 costs a fifth
  // less than smoothing all that reach them (passes - 1) and changes no
  // statistic beyond the seeds' spread (docs/algorithm.md, "Fold
  // families").
  int rings = 1;
  // Neighbours whose planes meet the triangle's at more than this are on the
  // other side of a crease (a collar, a hem, the model's own fold) and are
  // left out.
  double crease_degrees = 45.0;
};

struct FieldSmoothingScratch {
  std::vector<Eigen::Vector3d> compression_dir;  // the previous pass's
  std::vector<double> weight;                    // per triangle
  std::vector<Eigen::Vector3d> normal;           // per triangle
  std::vector<int32_t> targets;    // the triangles smoothed, ring by ring
  std::vector<int32_t> ring_ends;  // targets.size() after each ring
  std::vector<uint8_t> ring;   // rings out from one compressed past the bound
  std::vector<int32_t> queue;  // FindTargets' breadth-first search
  // Each triangle's neighbours by corner, itself included, and the corners
  // each shares with it (SmoothFieldDirections' kernel), CSR, built on first
  // use.
  std::vector<int32_t> neighbour_offsets, neighbours;
  std::vector<uint8_t> shared_corners;
  // Per target, this frame: the neighbours that pull it, and how much, from
  // pair_offsets[t] to pair_offsets[t + 1] (the arrays hold a slot for every
  // neighbour of every triangle; SmoothFieldDirections writes them by index).
  std::vector<int32_t> pair_offsets;
  std::unique_ptr<int32_t[]> pair_faces;
  std::unique_ptr<double[]> pair_weights;
  // Per target, a pass's structure tensor in its frame: xx, xy, yy.
  std::vector<std::array<double, 3>> tensor;
  std::vector<std::array<double, 2>> axis;  // its main axis, in the frame
};

// Replaces the directions of every non-degenerate triangle of `field`
// compressed beyond `min_compression` (those a wrinkle may follow) by what
// `params.passes` Jacobi passes of this give every compressed triangle (the
// ones near them are smoothed as far as that needs, those further out are
// left as they are): the main axis of the structure tensor sum k_g w_g d_g
// d_g^T over the triangle and the triangles sharing a corner with it (k_g: the
// corners shared, 3 for itself, so the nearer pull more), the d_g projected
// into the triangle's plane and normalised, where w_g = (c_g - 1)(1 -
// lambda_min / lambda_max) * area_g: the more compressed and the more clearly
// directed a neighbour, the more it pulls. Magnitudes (lambda_min, lambda_max,
// c) are left as they are: only where a fold runs changes, not whether there is
// one. `frames` and `edge_matrices` are the triangles' current ones (normals
// and areas). The scratch keeps the neighbour lists of `topology` (one
// scratch per topology); allocates only on first use.
void SmoothFieldDirections(const MeshTopology& topology,
                           absl::Span<const LocalFrame> frames,
                           absl::Span<const Eigen::Matrix2d> edge_matrices,
                           const FieldSmoothingParams& params,
                           double min_compression,
                           FieldSmoothingScratch& scratch,
                           absl::Span<StretchTensor> field);

}  // namespace crease

#endif  // CREASE_WRINKLE_CORE_FIELD_SMOOTHING_H_
