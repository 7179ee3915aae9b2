#include "wrinkle/io/planar_uvs.h"

#include <algorithm>

namespace crease::io {

std::vector<float> PlanarUvs(const TriangleMesh& mesh) {
  float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
  for (int v = 0; v < mesh.num_vertices(); ++v) {
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], mesh.positions[3 * v + k]);
      hi[k] = std::max(hi[k], mesh.positions[3 * v + k]);
    }
  }
  float size[3];
  int skip = 0;
  for (int k = 0; k < 3; ++k) {
    size[k] = std::max(hi[k] - lo[k], 1e-12f);
    if (size[k] < size[skip]) skip = k;
  }
  const int a = skip == 0 ? 1 : 0;
  const int b = skip == 2 ? 1 : 2;
  std::vector<float> uvs;
  uvs.reserve(6 * mesh.triangles.size());
  for (const Triangle& t : mesh.triangles) {
    for (int32_t v : t) {
      uvs.push_back((mesh.positions[3 * v + a] - lo[a]) / size[a]);
      uvs.push_back((mesh.positions[3 * v + b] - lo[b]) / size[b]);
    }
  }
  return uvs;
}

}  // namespace crease::io
