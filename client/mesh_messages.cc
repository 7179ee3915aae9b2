#include "client/mesh_messages.h"

namespace crease::client {

v1::Start StartForMesh(const io::TriangleMesh& mesh) {
  v1::Start start;
  v1::Topology* topology = start.mutable_topology();
  topology->set_vertex_count(static_cast<uint32_t>(mesh.num_vertices()));
  topology->mutable_triangles()->Reserve(
      3 * static_cast<int>(mesh.triangles.size()));
  for (const io::Triangle& t : mesh.triangles) {
    for (int32_t v : t) topology->add_triangles(static_cast<uint32_t>(v));
  }
  topology->mutable_rest_positions()->Assign(mesh.positions.begin(),
                                             mesh.positions.end());
  // Empty when the mesh has none: a Start as before UVs existed.
  topology->mutable_corner_uvs()->Assign(mesh.corner_uvs.begin(),
                                         mesh.corner_uvs.end());
  return start;
}

v1::Frame FrameOf(absl::Span<const float> positions, uint32_t index) {
  v1::Frame frame;
  frame.set_index(index);
  frame.mutable_positions()->Assign(positions.begin(), positions.end());
  return frame;
}

}  // namespace crease::client
