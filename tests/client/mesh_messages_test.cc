#include "client/mesh_messages.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "wrinkle/io/obj.h"

namespace crease::client {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

// Two triangles of a quad, split along a UV seam (vertex 0 and 2 have other
// UVs in the second triangle).
io::TriangleMesh SeamQuad() {
  io::TriangleMesh mesh;
  mesh.positions = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  mesh.triangles = {{0, 1, 2}, {0, 2, 3}};
  mesh.corner_uvs = {0,    0,    0.5f, 0,    0.5f, 1,  //
                     0.6f, 0.1f, 1,    0.9f, 0.6f, 0.9f};
  return mesh;
}

TEST(MeshMessagesTest, StartCarriesTopologyRestShapeAndCornerUvs) {
  const io::TriangleMesh mesh = SeamQuad();
  const v1::Start start = StartForMesh(mesh);
  const v1::Topology& topology = start.topology();
  EXPECT_EQ(topology.vertex_count(), 4u);
  EXPECT_THAT(topology.triangles(), ElementsAre(0, 1, 2, 0, 2, 3));
  EXPECT_THAT(topology.rest_positions(), ElementsAreArray(mesh.positions));
  ASSERT_EQ(topology.corner_uvs_size(), 2 * topology.triangles_size());
  EXPECT_THAT(topology.corner_uvs(), ElementsAreArray(mesh.corner_uvs));
}

TEST(MeshMessagesTest, MeshWithoutUvsSendsNone) {
  io::TriangleMesh mesh = SeamQuad();
  mesh.corner_uvs.clear();
  const v1::Start start = StartForMesh(mesh);
  EXPECT_EQ(start.topology().corner_uvs_size(), 0);
  EXPECT_EQ(start.topology().triangles_size(), 6);
  // Nothing on the wire for the field: the bytes an old client sends.
  v1::Start without_field = start;
  without_field.mutable_topology()->clear_corner_uvs();
  EXPECT_EQ(start.SerializeAsString(), without_field.SerializeAsString());
}

// What crease-client does with an OBJ: its vt reach the Start, per corner,
// through the fan triangulation of a quad.
TEST(MeshMessagesTest, ObjTextureCoordinatesReachTheStart) {
  const auto mesh = io::ParseObj(
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
      "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nf 1/1 2/2 3/3 4/4\n",
      "quad.obj");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  const v1::Start start = StartForMesh(*mesh);
  EXPECT_THAT(start.topology().triangles(), ElementsAre(0, 1, 2, 0, 2, 3));
  EXPECT_THAT(start.topology().corner_uvs(),
              ElementsAre(0, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1));
}

}  // namespace
}  // namespace crease::client
