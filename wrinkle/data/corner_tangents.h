#ifndef CREASE_WRINKLE_DATA_CORNER_TANGENTS_H_
#define CREASE_WRINKLE_DATA_CORNER_TANGENTS_H_

// The one tangent-frame rule: the frame the UV-space normal maps are baked in
// (renderer/), the per-vertex fields' tangent directions (server/) and the
// glTF export's TANGENT (client/) all use it. Plain data, no GL.

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease {

// What CornerTangents keeps between frames: which corners share a (welded
// vertex, UV) key, numbered once while the triangles, the weld and the UVs
// stay (the only step that allocates), and the per-frame groups and sums in
// reused storage. A steady stream of frames allocates nothing.
struct TangentScratch {
  std::vector<io::Triangle> triangles;  // the mesh the keys were made for
  std::vector<int32_t> welded;
  std::vector<float> uvs;
  std::vector<int32_t> key;    // per corner
  int32_t num_keys = -1;       // -1: none made yet
  std::vector<int32_t> group;  // per corner: 2 key + right-handed, or -1
  std::vector<Eigen::Vector3f> sums;
  // Per face with a group: its normal (unnormalised) and whether its UV
  // triangle turns counter-clockwise, for the bitangent's sign.
  std::vector<Eigen::Vector3f> face_normals;
  std::vector<uint8_t> uv_counter_clockwise;
};

// Per triangle corner, the unit tangent along +u in the tangent plane of the
// smooth normal (from `interleaved`: position and normal per vertex, 6
// floats) and the bitangent's sign w (bitangent = w cross(n, t), along +v):
// 4 floats per corner. Corners that share a welded vertex (`welded`, per
// vertex), the same UV (`corner_uvs`, 6 floats per triangle) and the same
// handedness share one tangent, accumulated over their triangles weighted
// by the corner's angle, then made orthogonal to the normal (Gram-Schmidt):
// MikkTSpace's rule without its degenerate-case handling. Corners of
// triangles with degenerate UVs get a tangent perpendicular to the normal
// (any), w = 1. `out` storage is reused; the sizes are the caller's to get
// right (the renderer and the server validate them first).
void CornerTangents(absl::Span<const io::Triangle> triangles,
                    absl::Span<const int32_t> welded,
                    absl::Span<const float> corner_uvs,
                    const std::vector<float>& interleaved,
                    std::vector<float>* out, TangentScratch* scratch);

}  // namespace crease

#endif  // CREASE_WRINKLE_DATA_CORNER_TANGENTS_H_
