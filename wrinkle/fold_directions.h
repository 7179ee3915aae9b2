#ifndef CREASE_WRINKLE_FOLD_DIRECTIONS_H_
#define CREASE_WRINKLE_FOLD_DIRECTIONS_H_

// Fold families (docs/algorithm.md, "Fold directions"): the field has one
// tensor per coarse triangle, and its directions scatter from triangle to
// triangle with the coarse mesh's noise, so wrinkles traced along them came
// out as scratches at random angles. Each compressed triangle's wrinkle
// direction is made the compression-weighted mean of its own and its
// compressed neighbours', in its plane, across edges where the surface does
// not fold sharply.

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "wrinkle/mesh.h"
#include "wrinkle/stretch.h"

namespace crease {

struct FoldDirectionParams {
  // Passes over the edge neighbours (each reaches one ring further); 0: the
  // field's own directions.
  int passes = 2;
  // Neighbours whose planes turn by more than this (degrees) are a crease
  // of the surface: folds on its two sides need not run alike.
  double max_crease_degrees = 45.0;
};

// Reused between frames so smoothing does not allocate once warm.
struct FoldDirectionScratch {
  std::vector<Eigen::Vector3d> directions;
};

// Smooths the wrinkle directions (and the compression directions, kept
// perpendicular in each triangle's plane) of the triangles compressed beyond
// `min_compression`, in place. A neighbour's direction is weighted by how
// compressed (c - 1) and how anisotropic (1 - lambda_min / lambda_max) it is,
// so an isotropic or resting neighbour has no say; the compression values
// themselves are not changed. `frames` are the triangles' current planes.
void SmoothFoldDirections(const MeshTopology& topology,
                          absl::Span<const LocalFrame> frames,
                          double min_compression,
                          const FoldDirectionParams& params,
                          FoldDirectionScratch* scratch,
                          std::vector<StretchTensor>* field);

}  // namespace crease

#endif  // CREASE_WRINKLE_FOLD_DIRECTIONS_H_
