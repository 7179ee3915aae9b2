#include "wrinkle/io/obj.h"

#include <cmath>
#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/bundled_data.h"

namespace crease::io {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ObjTest, ParsesVerticesAndTriangles) {
  const auto mesh = ParseObj(
      "# comment\nv 0 0 0\nv 1 0 0\nv 0 1 0  # trailing\nvn 0 0 1\nf 1 2 3\n",
      "t.obj");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->num_vertices(), 3);
  ASSERT_EQ(mesh->num_triangles(), 1);
  EXPECT_THAT(mesh->triangles[0], ElementsAre(0, 1, 2));
  EXPECT_EQ(mesh->polygons_triangulated, 0);
  EXPECT_FLOAT_EQ(mesh->positions[3], 1.0f);
}

TEST(ObjTest, FanTriangulatesPolygonsAndCountsThem) {
  const auto mesh = ParseObj(
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv -1 0 0\nf 1 2 3 4 5\n", "t.obj");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  ASSERT_EQ(mesh->num_triangles(), 3);
  EXPECT_THAT(mesh->triangles[0], ElementsAre(0, 1, 2));
  EXPECT_THAT(mesh->triangles[1], ElementsAre(0, 2, 3));
  EXPECT_THAT(mesh->triangles[2], ElementsAre(0, 3, 4));
  EXPECT_EQ(mesh->polygons_triangulated, 1);
}

TEST(ObjTest, AcceptsSlashesNegativeIndicesAndCrLf) {
  const auto mesh = ParseObj(
      "v 0 0 0\r\nv 1 0 0\r\nv 0 1 0 1.0\r\nvt 0 0\r\nvt 0.5 1\r\n"
      "f 1/1/1 2/2 -1/-2/1\r\n",
      "t.obj");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  ASSERT_EQ(mesh->num_triangles(), 1);
  EXPECT_THAT(mesh->triangles[0], ElementsAre(0, 1, 2));
  EXPECT_THAT(mesh->corner_uvs, ElementsAre(0, 0, 0.5f, 1, 0, 0));
}

TEST(ObjTest, FacesWithoutTextureIndicesGiveNoUvs) {
  // vt lines that no face uses, and normal-only corners.
  const auto mesh = ParseObj(
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 1\nvn 0 0 1\n"
      "f 1//1 2//1 3//1\nf 3 2 1\n",
      "t.obj");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->num_triangles(), 2);
  EXPECT_FALSE(mesh->has_uvs());
  EXPECT_TRUE(mesh->corner_uvs.empty());
}

// A quad whose corners each have their own vt, split as v0 v1 v2 / v0 v2 v3:
// each triangle carries its corners' UVs; a second face shares vertex 1 with
// a different UV (a seam) and uses relative texture indices.
TEST(ObjTest, CornerUvsFollowFanTriangulationAndSeams) {
  const auto mesh = ParseObj(
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
      "vt 0.1 0.2\nvt 0.3 0.4\nvt 0.5 0.6 0.9\nvt 0.7\n"
      "f 1/1 2/2 3/3 4/4\n"
      "vt 0.25 0.75\n"
      "f 2/-1 1/1/1 4/-2\n",
      "t.obj");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  ASSERT_EQ(mesh->num_triangles(), 3);
  EXPECT_EQ(mesh->polygons_triangulated, 1);
  EXPECT_THAT(mesh->triangles[2], ElementsAre(1, 0, 3));
  // vt 0.7 has v = 0 (the format's default); the third number of a vt is w.
  EXPECT_THAT(mesh->corner_uvs,
              ElementsAre(0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f,  //
                          0.1f, 0.2f, 0.5f, 0.6f, 0.7f, 0.0f,  //
                          0.25f, 0.75f, 0.1f, 0.2f, 0.7f, 0.0f));
}

struct BadObj {
  const char* text;
  const char* message;
};

class MalformedObjTest : public ::testing::TestWithParam<BadObj> {};

TEST_P(MalformedObjTest, NamesFileLineAndProblem) {
  const auto mesh = ParseObj(GetParam().text, "bad.obj");
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(mesh.status().message(), HasSubstr(GetParam().message));
}

INSTANTIATE_TEST_SUITE_P(
    AllCases, MalformedObjTest,
    ::testing::Values(
        BadObj{"v 0 0 0\nv 1 zero 0\n", "bad.obj:2: malformed number 'zero'"},
        BadObj{"v 0 0 nan\n", "bad.obj:1: non-finite coordinate 'nan'"},
        BadObj{"v 0 inf 0\n", "bad.obj:1: non-finite coordinate 'inf'"},
        BadObj{"v 0 1e999 0\n", "bad.obj:1: malformed number '1e999'"},
        BadObj{"v 0 0\n", "bad.obj:1: vertex has 2 coordinates, need 3"},
        BadObj{
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n",
            "bad.obj:4: face index 4 out of range (3 vertices defined so far)"},
        BadObj{"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n",
               "bad.obj:4: face index 0 (OBJ indices start at 1)"},
        BadObj{"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n",
               "bad.obj:4: face index -4"},
        BadObj{"v 0 0 0\nv 1 0 0\nf 1 2\n", "bad.obj:3: face has 2 corners"},
        BadObj{"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 x 3\n",
               "bad.obj:4: malformed face index 'x'"},
        // A face may only use vertices defined above it (as the format says).
        BadObj{"f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n",
               "bad.obj:1: face index 1"},
        BadObj{"vt 0 zero\n", "bad.obj:1: malformed number 'zero'"},
        BadObj{"vt 0.5 -inf\n", "bad.obj:1: non-finite coordinate '-inf'"},
        BadObj{"vt nan 0\n", "bad.obj:1: non-finite coordinate 'nan'"},
        BadObj{"vt\n", "bad.obj:1: texture coordinate has 0 numbers"},
        BadObj{"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/0 3/1\n",
               "bad.obj:5: face texture index 0 (OBJ indices start at 1)"},
        BadObj{"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nf 1/1 2/2 3/3\n",
               "bad.obj:6: face texture index 3 out of range (2 texture "
               "coordinates defined so far)"},
        BadObj{"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/1 3/-2\n",
               "bad.obj:5: face texture index -2 out of range"},
        BadObj{"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/t 3/1\n",
               "bad.obj:5: malformed face texture index '2/t'"},
        // Texture coordinates too must be defined above the face.
        BadObj{"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1 2/1 3/1\nvt 0 0\n",
               "bad.obj:4: face texture index 1 out of range (0 texture"},
        BadObj{"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2//1 3/1\n",
               "bad.obj:5: face mixes corners with and without texture "
               "indices"},
        BadObj{"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/1 3/1\n"
               "# another object, not unwrapped\nf 3 2 1\n",
               "bad.obj:7: face has no texture indices but the face on line 5 "
               "has them"},
        BadObj{"v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1 2 3\nf 3/1 2/1 1/1\n",
               "bad.obj:6: face has texture indices but the face on line 5 "
               "has none"}));

TEST(ObjTest, MissingFileIsNotFound) {
  const auto mesh = ReadObj("/nonexistent/mesh.obj");
  EXPECT_EQ(mesh.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(mesh.status().message(), HasSubstr("/nonexistent/mesh.obj"));
}

TEST(ObjTest, FormatRoundTripsExactly) {
  TriangleMesh mesh;
  mesh.positions = {0.1f, -2.5e-7f, 3.0f, 1.0f / 3.0f, 1e6f, -0.0f, 7, 8, 9};
  mesh.triangles = {{0, 1, 2}, {2, 1, 0}};
  const auto back = ParseObj(FormatObj(mesh), "roundtrip");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->positions, mesh.positions);
  EXPECT_EQ(back->triangles, mesh.triangles);
}

TEST(ObjTest, FormatRoundTripsUvsExactly) {
  TriangleMesh mesh;
  mesh.positions = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  mesh.triangles = {{0, 1, 2}, {0, 2, 3}};
  // A seam: vertex 0 and 2 have different UVs in the two triangles.
  mesh.corner_uvs = {0.1f,  -0.0f, 1.0f / 3.0f, 2.5e-7f, 1e6f, 1,
                     -3.5f, 0.5f,  0.75f,       0.25f,   0,    1};
  const std::string text = FormatObj(mesh);
  EXPECT_THAT(text, HasSubstr("f 1/4 3/5 4/6\n"));
  const auto back = ParseObj(text, "roundtrip");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->positions, mesh.positions);
  EXPECT_EQ(back->triangles, mesh.triangles);
  ASSERT_EQ(back->corner_uvs.size(), mesh.corner_uvs.size());
  for (size_t i = 0; i < mesh.corner_uvs.size(); ++i) {
    // Bit for bit (-0.0 stays -0.0).
    EXPECT_EQ(std::signbit(back->corner_uvs[i]),
              std::signbit(mesh.corner_uvs[i]));
    EXPECT_EQ(back->corner_uvs[i], mesh.corner_uvs[i]) << i;
  }
}

TEST(ObjTest, WriteRefusesCornerUvsOfTheWrongSize) {
  TriangleMesh mesh;
  mesh.positions = {0, 0, 0, 1, 0, 0, 1, 1, 0};
  mesh.triangles = {{0, 1, 2}};
  mesh.corner_uvs = {0, 0, 1, 0};
  const absl::Status status = WriteObj("/nonexistent/never.obj", mesh);
  EXPECT_TRUE(absl::IsInvalidArgument(status)) << status;
  EXPECT_THAT(status.message(),
              HasSubstr("4 corner_uvs floats for 1 triangles, need 6"));
}

TEST(ObjTest, ReadsBundledFoxSoup) {
  const auto mesh = ReadObj(testing::BundledPath("fox_walk.obj"));
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->num_vertices(), 1728);
  EXPECT_EQ(mesh->num_triangles(), 576);
}

}  // namespace
}  // namespace crease::io
