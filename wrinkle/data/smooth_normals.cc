#include "wrinkle/data/smooth_normals.h"

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace crease {
namespace {

Eigen::Vector3f Vertex(absl::Span<const float> positions, int32_t v) {
  return {positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]};
}

}  // namespace

void SumWeldedNormals(absl::Span<const float> positions,
                      absl::Span<const std::array<int32_t, 3>> triangles,
                      absl::Span<const int32_t> welded,
                      std::vector<float>* sums) {
  sums->assign(welded.size() * 3, 0.0f);
  for (const std::array<int32_t, 3>& t : triangles) {
    const Eigen::Vector3f a = Vertex(positions, t[0]);
    const Eigen::Vector3f normal =
        (Vertex(positions, t[1]) - a).cross(Vertex(positions, t[2]) - a);
    for (int32_t v : t) {
      float* sum = &(*sums)[3 * static_cast<size_t>(welded[v])];
      for (int c = 0; c < 3; ++c) sum[c] += normal[c];
    }
  }
}

}  // namespace crease
