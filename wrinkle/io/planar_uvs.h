#ifndef CREASE_WRINKLE_IO_PLANAR_UVS_H_
#define CREASE_WRINKLE_IO_PLANAR_UVS_H_

#include <vector>

#include "wrinkle/io/triangle_mesh.h"

namespace crease::io {

// UVs for a mesh that has none: its positions projected on the two longest
// axes of their bounding box, scaled to [0, 1], per triangle corner (as
// TriangleMesh::corner_uvs). Front and back share UVs, and faces along the
// third axis get stretched ones: enough for a repeating wrinkle pattern
// (crease-client --planar_uvs), not for a texture.
std::vector<float> PlanarUvs(const TriangleMesh& mesh);

}  // namespace crease::io

#endif  // CREASE_WRINKLE_IO_PLANAR_UVS_H_
