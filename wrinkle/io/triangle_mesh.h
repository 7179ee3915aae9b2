#ifndef CREASE_WRINKLE_IO_TRIANGLE_MESH_H_
#define CREASE_WRINKLE_IO_TRIANGLE_MESH_H_

#include <array>
#include <cstdint>
#include <vector>

namespace crease::io {

// One triangle as three 0-based vertex indices, in the file's winding order.
using Triangle = std::array<int32_t, 3>;

// A triangle mesh as it comes from a file: packed xyz positions and 0-based
// triangles.
struct TriangleMesh {
  std::vector<float> positions;  // x0 y0 z0 x1 y1 z1 ...
  std::vector<Triangle> triangles;
  // Texture coordinates per triangle corner (u0 v0 u1 v1 u2 v2 per triangle,
  // in triangle order), or empty when the source has none. Per corner, not
  // per vertex, so UV seams and soups keep their own; v grows upwards as in
  // OBJ (glTF's v is flipped on read).
  std::vector<float> corner_uvs;
  // Faces with more than three vertices in the source, fan-triangulated on
  // read.
  int polygons_triangulated = 0;

  int num_vertices() const { return static_cast<int>(positions.size() / 3); }
  int num_triangles() const { return static_cast<int>(triangles.size()); }
  bool has_uvs() const { return !corner_uvs.empty(); }
};

}  // namespace crease::io

#endif  // CREASE_WRINKLE_IO_TRIANGLE_MESH_H_
