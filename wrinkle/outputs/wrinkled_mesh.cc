#include "wrinkle/outputs/wrinkled_mesh.h"

#include <Eigen/Core>

#include "common/status_macros.h"
#include "wrinkle/data/smooth_normals.h"

namespace crease {
namespace {

Eigen::Vector3f At(absl::Span<const float> xyz, int32_t i) {
  return {xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]};
}

// Refined vertex `vertex` on the undisplaced surface, as the renderer's
// evaluation stage places a tessellated vertex: the position interpolated
// linearly, and the sums of area vectors (smooth normals before
// normalisation) interpolated the same way, then normalised (+Z where they
// cancel). On an edge both from the edge's lower vertex id, so every
// triangle on it would compute the same bits.
void PlaceOnSurface(const RefinedVertex& vertex,
                    absl::Span<const float> positions,
                    absl::Span<const int32_t> welded,
                    absl::Span<const float> normal_sums, Eigen::Vector3f* p,
                    Eigen::Vector3f* n) {
  const auto& [a, b, c] = vertex.corners;
  const Eigen::Vector3f pa = At(positions, a), na = At(normal_sums, welded[a]);
  if (b < 0) {
    *p = pa;
    *n = na;
  } else if (c < 0) {
    const float t = vertex.weights[1];
    *p = pa + t * (At(positions, b) - pa);
    *n = na + t * (At(normal_sums, welded[b]) - na);
  } else {
    const std::array<float, 3>& w = vertex.weights;
    *p = w[0] * pa + w[1] * At(positions, b) + w[2] * At(positions, c);
    *n = w[0] * na + w[1] * At(normal_sums, welded[b]) +
         w[2] * At(normal_sums, welded[c]);
  }
  const float length = n->norm();
  *n = length > 0 ? Eigen::Vector3f(*n / length) : Eigen::Vector3f::UnitZ();
}

}  // namespace

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
    PlaceOnSurface(vertex, positions, welded, normal_sums_, &p, &normal);
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
