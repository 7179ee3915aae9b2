#ifndef CREASE_WRINKLE_IO_GLTF_WRITE_H_
#define CREASE_WRINKLE_IO_GLTF_WRITE_H_

// glTF 2.0 out: a mesh animation of fixed triangles with per-frame positions,
// normals and tangent-space normal maps, as one binary .glb (JSON chunk, then
// one BIN chunk holding every accessor and every PNG) that Blender and browser
// viewers open. wrinkle/io/README.md, "glTF 2.0 out", gives the layout:
//
// * One node per frame under a root node, each with its own mesh (POSITION,
//   NORMAL per frame; TEXCOORD_0 and the indices shared by all) and, when the
//   frame has a normal map, its own material with that map as normalTexture.
// * One animation, "frames": per frame node a STEP `scale` channel, 1 during
//   its frame [f / fps, (f + 1) / fps) and 0 otherwise (the last frame stays
//   shown to the clip's end, N / fps). Without playback node 0 shows.
// * glTF's UVs are per vertex: a vertex is split per distinct UV of its
//   corners, and v is stored flipped (v_glTF = 1 - v).
// * TANGENT when the frame gives tangents (with its normal map): the frame the
//   map was baked in (crease::CornerTangents), so a viewer need not make its
//   own MikkTSpace frame. With tangents a vertex is also split by which way
//   its corners' UV triangles turn (mirrored halves, degenerate UVs), and a
//   split vertex takes its first corner's tangent.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease::io {

struct GltfFrame {
  std::vector<float> positions;  // xyz per vertex: 3 * vertex_count floats
  // xyz per vertex (normalised on write), or empty: viewers then shade flat.
  std::vector<float> normals;
  // A tangent-space normal map (green +Y, glTF's) as PNG bytes, or empty.
  // Needs corner_uvs.
  std::string normal_map_png;
  // Per triangle corner x y z w (4 floats): the tangent along +u (normalised
  // on write) and the bitangent's sign, ±1; or empty. Needs normals and
  // corner_uvs.
  std::vector<float> tangents;
};

struct GltfMeshAnimation {
  int vertex_count = 0;
  std::vector<Triangle> triangles;  // fixed for every frame
  // u v per triangle corner (6 floats per triangle), v up as in OBJ, or empty.
  std::vector<float> corner_uvs;
  std::vector<GltfFrame> frames;  // at least one
  double fps = 30.0;              // > 0
  std::string name = "crease";    // the root node's, and the prefix of others
};

// The .glb bytes. InvalidArgument, naming the field, frame and vertex, when
// the sizes disagree, an index is out of range, a value is not finite, a
// normal is zero, a normal map is not PNG or has no UVs to lie on, tangents
// come without normals or UVs, are zero or have a w other than ±1, or the
// file would pass glTF's 4 GiB.
absl::StatusOr<std::string> FormatGlb(const GltfMeshAnimation& animation);

// FormatGlb written to `path` (atomically: a temporary file, then renamed).
absl::Status WriteGlb(const std::string& path,
                      const GltfMeshAnimation& animation);

}  // namespace crease::io

#endif  // CREASE_WRINKLE_IO_GLTF_WRITE_H_
