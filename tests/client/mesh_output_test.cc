#include "client/cli/mesh_output.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "wrinkle/io/obj.h"

namespace crease::client {
namespace {

using ::testing::HasSubstr;

// Two refined triangles on four vertices.
v1::WrinkledMeshTopology Topology(bool uvs) {
  v1::WrinkledMeshTopology topology;
  topology.set_level(1);
  topology.set_vertex_count(4);
  for (uint32_t v : {0, 1, 2, 2, 1, 3}) topology.add_triangles(v);
  for (int i = 0; uvs && i < 12; ++i) topology.add_corner_uvs(0.125f * i);
  return topology;
}

v1::WrinkledMesh Mesh() {
  v1::WrinkledMesh mesh;
  const std::vector<float> positions = {0, 0, 0,    1, 0, 0.1f,
                                        0, 1, 0.2f, 1, 1, 1.0f / 3};
  mesh.mutable_positions()->Add(positions.begin(), positions.end());
  for (int v = 0; v < 4; ++v) {
    mesh.add_normals(0);
    mesh.add_normals(0);
    mesh.add_normals(1);
  }
  return mesh;
}

TEST(MeshOutputTest, ObjReadsBackAsTheMesh) {
  for (bool uvs : {false, true}) {
    const absl::StatusOr<std::string> obj =
        WrinkledMeshObj(Topology(uvs), Mesh());
    ASSERT_TRUE(obj.ok()) << obj.status();
    const absl::StatusOr<io::TriangleMesh> back = io::ParseObj(*obj, "mesh");
    ASSERT_TRUE(back.ok()) << back.status();
    const v1::WrinkledMesh mesh = Mesh();
    EXPECT_EQ(back->positions,
              std::vector<float>(mesh.positions().begin(),
                                 mesh.positions().end()));  // exact: %.9g
    EXPECT_EQ(back->triangles,
              (std::vector<io::Triangle>{{0, 1, 2}, {2, 1, 3}}));
    const std::vector<std::string> lines = absl::StrSplit(*obj, '\n');
    EXPECT_EQ(std::count_if(lines.begin(), lines.end(),
                            [](const std::string& l) {
                              return l.rfind("vn 0 0 1", 0) == 0;
                            }),
              4);
    if (uvs) {
      EXPECT_THAT(*obj, HasSubstr("vt 0.25 0.375\n"));  // corner 1
      EXPECT_THAT(*obj, HasSubstr("f 3/4/3 2/5/2 4/6/4\n"));
    } else {
      EXPECT_THAT(*obj, HasSubstr("f 1//1 2//2 3//3\n"));
    }
  }
}

TEST(MeshOutputTest, MismatchedSizesAreErrors) {
  v1::WrinkledMesh short_mesh = Mesh();
  short_mesh.mutable_normals()->RemoveLast();
  EXPECT_EQ(WrinkledMeshObj(Topology(false), short_mesh).status().message(),
            "frame_result.wrinkled_mesh: 12 positions and 11 normals, need 3 "
            "x 4 vertices = 12 each");
  v1::WrinkledMeshTopology bad = Topology(false);
  bad.set_triangles(5, 4);
  EXPECT_EQ(WrinkledMeshObj(bad, Mesh()).status().message(),
            "started.wrinkled_mesh.triangles: vertex 4 of 4");
  v1::VertexFields fields;
  fields.add_compression(1.5f);
  EXPECT_FALSE(VertexFieldsCsv(fields).ok());
}

TEST(MeshOutputTest, CsvHasOneRowPerVertex) {
  v1::VertexFields fields;
  for (int v = 0; v < 2; ++v) {
    fields.add_compression(1.25f + v);
    for (float d : {0.6f, 0.0f, 0.8f}) fields.add_directions(d);
    for (float w : {0.5f, 0.25f, 0.25f}) fields.add_label_weights(w);
  }
  const absl::StatusOr<std::string> csv = VertexFieldsCsv(fields);
  ASSERT_TRUE(csv.ok()) << csv.status();
  EXPECT_EQ(*csv,
            "vertex,compression,dir_x,dir_y,dir_z,compress,rest,stretch\n"
            "0,1.25,0.6,0,0.8,0.5,0.25,0.25\n"
            "1,2.25,0.6,0,0.8,0.5,0.25,0.25\n");
  // With UVs the tangent-frame direction follows.
  for (float t : {1.0f, 0.0f, 0.6f, -0.8f}) fields.add_tangent_directions(t);
  const absl::StatusOr<std::string> with_uvs = VertexFieldsCsv(fields);
  ASSERT_TRUE(with_uvs.ok()) << with_uvs.status();
  EXPECT_EQ(*with_uvs,
            "vertex,compression,dir_x,dir_y,dir_z,compress,rest,stretch,"
            "tangent_x,tangent_y\n"
            "0,1.25,0.6,0,0.8,0.5,0.25,0.25,1,0\n"
            "1,2.25,0.6,0,0.8,0.5,0.25,0.25,0.6,-0.8\n");
  fields.add_tangent_directions(0.0f);
  EXPECT_EQ(VertexFieldsCsv(fields).status().message(),
            "frame_result.vertex_fields: 5 tangent direction floats, need 2 x "
            "2");
}

TEST(MeshLevelTest, WarnsWithTheLevelThatWouldDo) {
  // Two edges across or more: no warning.
  EXPECT_EQ(CoarseLevelWarning(2, 4.0, 8.0), "");
  // 1.5 across at level 2: level 6 puts 4 across (edges of 2 / 3).
  EXPECT_THAT(
      CoarseLevelWarning(2, 2.0, 3.0),
      ::testing::AllOf(HasSubstr("--wrinkled_mesh_level 2 is too coarse"),
                       HasSubstr("1.5 across one"),
                       HasSubstr("--wrinkled_mesh_level 6 puts 4 across")));
  // The Fox at level 2: 4 across needs level 12; 2 across, level 6.
  EXPECT_THAT(CoarseLevelWarning(2, 4.16, 2.88),
              HasSubstr("--wrinkled_mesh_level 6 puts 2 across, the least "
                        "that reads as folds (4 would need level 12"));
  EXPECT_THAT(
      CoarseLevelWarning(1, 10.0, 1.0),
      HasSubstr("no level up to 8 puts 2 across: draw the normal maps"));
}

TEST(MeshLevelTest, MeasuresTheMeshAndTheWrinkles) {
  v1::Started started;
  v1::WrinkledMeshTopology* topology = started.mutable_wrinkled_mesh();
  topology->set_level(1);
  topology->set_vertex_count(3);
  for (uint32_t v : {0u, 1u, 2u}) topology->add_triangles(v);
  v1::FrameResult result;
  for (float x : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f}) {
    result.mutable_wrinkled_mesh()->add_positions(x);
  }
  for (float w : {0.2f, 0.3f, 0.4f}) result.add_wrinkles()->add_widths(w);
  MeshLevelCheck check;
  EXPECT_EQ(check.Warning(), "");  // nothing measured
  check.Add(started, result);
  // Edges 1, 1 and 1.41 (median 1); wrinkles 0.3 wide.
  EXPECT_THAT(check.Warning(), HasSubstr("they are 0.3 wide (median), its "
                                         "edges 1 long, 0.3 across one"));
  // The buckling model's own mesh (level 0) is not judged.
  topology->set_level(0);
  MeshLevelCheck buckling;
  buckling.Add(started, result);
  EXPECT_EQ(buckling.Warning(), "");
}

}  // namespace
}  // namespace crease::client
