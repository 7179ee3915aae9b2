#include "renderer/uv_maps.h"

#include <cmath>

#include "absl/strings/str_format.h"

namespace crease::renderer {

absl::Status ValidateCornerUvs(absl::Span<const float> corner_uvs,
                               size_t num_triangles) {
  if (corner_uvs.size() != 6 * num_triangles) {
    return absl::InvalidArgumentError(
        absl::StrFormat("corner_uvs: %d floats, need 6 per triangle = %d",
                        corner_uvs.size(), 6 * num_triangles));
  }
  for (size_t i = 0; i < corner_uvs.size(); ++i) {
    if (!std::isfinite(corner_uvs[i])) {
      return absl::InvalidArgumentError(
          absl::StrFormat("corner_uvs: triangle %d corner %d is not finite",
                          i / 6, (i % 6) / 2));
    }
  }
  return absl::OkStatus();
}

namespace {}  // namespace

void CornerTangents(const RenderMesh& mesh,
                    const std::vector<float>& interleaved,
                    std::vector<float>* out) {
  TangentScratch scratch;
  CornerTangents(mesh, interleaved, out, &scratch);
}

void CornerTangents(const RenderMesh& mesh,
                    const std::vector<float>& interleaved,
                    std::vector<float>* out, TangentScratch* scratch) {
  crease::CornerTangents(mesh.triangles, mesh.welded, mesh.corner_uvs,
                         interleaved, out, scratch);
}

}  // namespace crease::renderer
