#ifndef CREASE_WRINKLE_DATA_WELD_H_
#define CREASE_WRINKLE_DATA_WELD_H_

// The one rule for which vertices are the same point: game meshes are split
// along UV seams or stored as triangle soups, and adjacency (MeshTopology),
// smooth normals and shared edges (the renderer) must all see one surface.

#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace crease {

// Vertices closer than this fraction of the bounding-box diagonal are one.
inline constexpr double kDefaultWeldRelativeTolerance = 1e-6;

// Welds coincident vertices: returns caller vertex -> welded id
// (first-appearance order) and sets *num_welded. Vertices within `tolerance`
// (absolute; negative: none) of an earlier representative join it; the
// earliest such representative wins.
std::vector<int32_t> WeldVertices(absl::Span<const float> positions,
                                  double tolerance, int* num_welded);

// WeldVertices with the tolerance a fraction of the positions' bounding-box
// diagonal (negative: no welding).
std::vector<int32_t> WeldVerticesRelative(absl::Span<const float> positions,
                                          double relative_tolerance,
                                          int* num_welded);

}  // namespace crease

#endif  // CREASE_WRINKLE_DATA_WELD_H_
