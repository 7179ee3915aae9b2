#ifndef CREASE_WRINKLE_DATA_SMOOTH_NORMALS_H_
#define CREASE_WRINKLE_DATA_SMOOTH_NORMALS_H_

// The one smooth-normal rule of the renderer and the wrinkled mesh: per welded
// vertex the sum of its triangles' area vectors, so vertices split at UV seams
// or given as a triangle soup shade and displace as one surface.

#include <array>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace crease {

// Per welded id w (ids below welded.size()), into (*sums)[3 w .. 3 w + 2]: the
// sum over the triangles with a corner of id w of (b - a) x (c - a), twice the
// area times the unit normal (area-weighted; not normalised). `positions` are
// packed xyz per vertex; `welded` maps each vertex to its id
// (MeshTopology::weld_map, WeldVertices). Storage is reused.
void SumWeldedNormals(absl::Span<const float> positions,
                      absl::Span<const std::array<int32_t, 3>> triangles,
                      absl::Span<const int32_t> welded,
                      std::vector<float>* sums);

}  // namespace crease

#endif  // CREASE_WRINKLE_DATA_SMOOTH_NORMALS_H_
