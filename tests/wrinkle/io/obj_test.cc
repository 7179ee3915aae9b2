#include "wrinkle/io/obj.h"

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
      "v 0 0 0\r\nv 1 0 0\r\nv 0 1 0 1.0\r\nvt 0 0\r\nf 1/1/1 2//1 -1/1\r\n",
      "t.obj");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  ASSERT_EQ(mesh->num_triangles(), 1);
  EXPECT_THAT(mesh->triangles[0], ElementsAre(0, 1, 2));
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
               "bad.obj:1: face index 1"}));

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

TEST(ObjTest, ReadsBundledFoxSoup) {
  const auto mesh = ReadObj(testing::BundledPath("fox_walk.obj"));
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->num_vertices(), 1728);
  EXPECT_EQ(mesh->num_triangles(), 576);
}

}  // namespace
}  // namespace crease::io
