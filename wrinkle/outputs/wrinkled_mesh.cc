#include "wrinkle/outputs/wrinkled_mesh.h"

#include <Eigen/Core>

#include "common/status_macros.h"
#include "wrinkle/data/smooth_normals.h"

namespace crease {
void WrinkledMeshBuilder::Compute(const RefinedTopology& topology,
                                  absl::Span<const float> positions,
                                  absl::Span<const int32_t> welded,
                                  const FrameWrinkles& wrinkles,
                                  WrinkledMeshFrame* out) {
  CREASE_DCHECK(positions.size() ==
                3 * static_cast<size_t>(topology.num_coarse_vertices));
  CREASE_DCHECK(welded.size() ==
                static_cast<size_t>(topology.num_coarse_vertices));
  SumWeldedNormals(positions, topology.coarse_triangles, welded, &normal_sums_);
  lookup_.Prepare(wrinkles);
  const size_t n = topology.vertices.size();
  out->positions.resize(3 * n);
  out->normals.resize(3 * n);
  for (size_t v = 0; v < n; ++v) {
    const RefinedVertex& vertex = topology.vertices[v];
    Eigen::Vector3f p, normal;
    PlaceRefinedVertex(vertex, positions, welded, normal_sums_, &p, &normal);
    if (vertex.triangle >= 0 && lookup_.Lists(vertex.triangle)) {
      const WrinkleSample sample = lookup_.Evaluate(vertex.triangle, p, normal);
      p += sample.offset * normal;
      normal = sample.normal;
    }
    for (int c = 0; c < 3; ++c) {
      out->positions[3 * v + c] = p[c];
      out->normals[3 * v + c] = normal[c];
    }
  }
}

size_t WrinkledMeshBuilder::capacity_bytes() const {
  return normal_sums_.capacity() * sizeof(float) + lookup_.capacity_bytes();
}

}  // namespace crease
