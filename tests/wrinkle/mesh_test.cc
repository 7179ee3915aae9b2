#include "wrinkle/core/mesh.h"

#include <algorithm>
#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/bundled_data.h"
#include "wrinkle/core/synthetic_sheet.h"
#include "wrinkle/io/obj.h"

namespace crease {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

// Consecutive triangles of a manifold vertex's one-ring share an edge.
bool ShareEdge(const MeshTopology& mesh, int32_t f, int32_t g) {
  for (int k = 0; k < 3; ++k) {
    if (mesh.face_neighbors(f)[k] == g) return true;
  }
  return false;
}

TEST(MeshTest, TwoTrianglesShareOneEdge) {
  const float positions[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  const io::Triangle triangles[] = {{0, 1, 2}, {0, 2, 3}};
  const auto mesh = MeshTopology::Build(triangles, positions);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->num_edges(), 5);
  EXPECT_EQ(mesh->boundary_edges().size(), 4u);
  EXPECT_TRUE(mesh->non_manifold_edges().empty());
  EXPECT_THAT(mesh->adjacent_face_pairs(), ElementsAre(std::make_pair(0, 1)));
  // Triangle 0 = (0, 1, 2) meets triangle 1 across its edge 2, corners 2 -> 0.
  EXPECT_THAT(mesh->face_neighbors(0), ElementsAre(-1, -1, 1));
}

TEST(MeshTest, ClosedTetrahedron) {
  const float positions[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  const io::Triangle triangles[] = {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {0, 3, 2}};
  const auto mesh = MeshTopology::Build(triangles, positions);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->num_edges(), 6);
  EXPECT_TRUE(mesh->boundary_edges().empty());
  EXPECT_EQ(mesh->adjacent_face_pairs().size(), 6u);
  for (int32_t w = 0; w < 4; ++w) {
    const auto faces = mesh->vertex_faces(w);
    ASSERT_EQ(faces.size(), 3u);
    EXPECT_TRUE(mesh->is_manifold_vertex(w));
    for (size_t i = 0; i < faces.size(); ++i) {
      EXPECT_TRUE(ShareEdge(*mesh, faces[i], faces[(i + 1) % faces.size()]));
    }
    EXPECT_EQ(mesh->vertex_neighbors(w).size(), 3u);
  }
}

TEST(MeshTest, EdgesKeepTheCallersIndices) {
  // A soup: two triangles with their own copies of the shared corners.
  const float positions[] = {0, 0, 0, 1, 0, 0, 1, 1, 0,
                             0, 0, 0, 1, 1, 0, 0, 1, 0};
  const io::Triangle triangles[] = {{0, 1, 2}, {3, 4, 5}};
  const auto mesh = MeshTopology::Build(triangles, positions);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->num_welded_vertices(), 4);
  EXPECT_THAT(mesh->weld_map(), ElementsAre(0, 1, 2, 0, 2, 3));
  EXPECT_EQ(mesh->num_edges(), 5);
  EXPECT_THAT(mesh->adjacent_face_pairs(), ElementsAre(std::make_pair(0, 1)));
  // The shared edge is named by triangle 0's vertices, the first to use it.
  const int32_t shared = mesh->face_edges(1)[0];
  EXPECT_EQ(shared, mesh->face_edges(0)[2]);
  EXPECT_EQ(mesh->edge(shared).v0, 2);
  EXPECT_EQ(mesh->edge(shared).v1, 0);
  // Triangle 1's own indices are untouched.
  EXPECT_THAT(mesh->triangles()[1], ElementsAre(3, 4, 5));

  MeshTopologyOptions no_weld;
  no_weld.weld_relative_tolerance = -1;
  const auto soup = MeshTopology::Build(triangles, positions, no_weld);
  ASSERT_TRUE(soup.ok());
  EXPECT_TRUE(soup->adjacent_face_pairs().empty());
  EXPECT_EQ(soup->num_edges(), 6);
}

TEST(MeshTest, WeldToleranceIsRelativeToMeshSize) {
  // Same soup at 1e4 scale with 1e-7 relative jitter: welds.
  const float s = 1e4f, j = 1e-3f;
  const float positions[] = {0, 0, 0, s, 0,     0, s, s, 0,
                             j, 0, 0, s, s + j, 0, 0, s, 0};
  const io::Triangle triangles[] = {{0, 1, 2}, {3, 4, 5}};
  const auto mesh = MeshTopology::Build(triangles, positions);
  ASSERT_TRUE(mesh.ok());
  EXPECT_EQ(mesh->num_welded_vertices(), 4);
  MeshTopologyOptions tight;
  tight.weld_relative_tolerance = 1e-9;
  const auto unwelded = MeshTopology::Build(triangles, positions, tight);
  ASSERT_TRUE(unwelded.ok());
  EXPECT_EQ(unwelded->num_welded_vertices(), 6);
}

TEST(MeshTest, NonManifoldEdgeConnectsNothing) {
  // Three triangles on edge (0, 1), plus a fourth attached normally to the
  // first.
  const float positions[] = {0, 0,  0, 1, 0, 0, 0, 1, 0,
                             0, -1, 0, 0, 0, 1, 1, 1, 0};
  const io::Triangle triangles[] = {{0, 1, 2}, {1, 0, 3}, {0, 1, 4}, {1, 5, 2}};
  const auto mesh = MeshTopology::Build(triangles, positions);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  ASSERT_EQ(mesh->non_manifold_edges().size(), 1u);
  const int32_t e = mesh->non_manifold_edges()[0];
  EXPECT_THAT(mesh->edge_faces(e), UnorderedElementsAre(0, 1, 2));
  EXPECT_THAT(mesh->adjacent_face_pairs(), ElementsAre(std::make_pair(0, 3)));
  EXPECT_EQ(mesh->face_neighbors(0)[0], -1);
  EXPECT_FALSE(mesh->is_manifold_vertex(0));
}

TEST(MeshTest, CollapsedTriangleHasNoEdges) {
  const float positions[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0};
  const io::Triangle triangles[] = {{0, 1, 2}, {0, 1, 3}};  // 3 welds onto 1
  const auto mesh = MeshTopology::Build(triangles, positions);
  ASSERT_TRUE(mesh.ok());
  EXPECT_EQ(mesh->num_collapsed_triangles(), 1);
  EXPECT_THAT(mesh->face_edges(1), ElementsAre(-1, -1, -1));
  EXPECT_TRUE(mesh->adjacent_face_pairs().empty());
}

TEST(MeshTest, RejectsBadInput) {
  const float positions[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  const io::Triangle out_of_range[] = {{0, 1, 3}};
  EXPECT_EQ(MeshTopology::Build(out_of_range, positions).status().code(),
            absl::StatusCode::kInvalidArgument);
  const io::Triangle ok[] = {{0, 1, 2}};
  const float nan_positions[] = {0, 0, 0, 1, 0, 0, 0, NAN, 0};
  EXPECT_EQ(MeshTopology::Build(ok, nan_positions).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MeshTopology::Build({}, positions).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MeshTopology::Build(ok, absl::MakeConstSpan(positions, 8))
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(MeshTest, GridOneRingsAreOrderedFans) {
  const io::TriangleMesh sheet = MakeGridSheet(4, 3, 1.0f, 1.0f);
  const auto mesh = MeshTopology::Build(sheet.triangles, sheet.positions);
  ASSERT_TRUE(mesh.ok());
  EXPECT_EQ(mesh->num_edges(), 4 * 4 + 5 * 3 + 12);
  EXPECT_EQ(mesh->boundary_edges().size(), 14u);
  for (int32_t w = 0; w < mesh->num_welded_vertices(); ++w) {
    const auto faces = mesh->vertex_faces(w);
    ASSERT_FALSE(faces.empty());
    EXPECT_TRUE(mesh->is_manifold_vertex(w));
    for (size_t i = 0; i + 1 < faces.size(); ++i) {
      EXPECT_TRUE(ShareEdge(*mesh, faces[i], faces[i + 1])) << "vertex " << w;
    }
    // Fan of k triangles: k + 1 neighbours on the boundary, k inside.
    const bool closed =
        ShareEdge(*mesh, faces.front(), faces.back()) && faces.size() > 2;
    EXPECT_EQ(mesh->vertex_neighbors(w).size(),
              faces.size() + (closed ? 0 : 1));
  }
}

TEST(MeshTest, FoxSoupWeldsToClosedManifold) {
  const auto obj = io::ReadObj(testing::BundledPath("fox_walk.obj"));
  ASSERT_TRUE(obj.ok()) << obj.status();
  const auto mesh = MeshTopology::Build(obj->triangles, obj->positions);
  ASSERT_TRUE(mesh.ok());
  EXPECT_EQ(mesh->num_vertices(), 1728);
  EXPECT_EQ(mesh->num_welded_vertices(), 290);
  EXPECT_EQ(mesh->num_edges(), 864);
  EXPECT_TRUE(mesh->boundary_edges().empty());
  EXPECT_TRUE(mesh->non_manifold_edges().empty());
  EXPECT_EQ(mesh->num_collapsed_triangles(), 0);
  EXPECT_EQ(mesh->adjacent_face_pairs().size(), 864u);
  // Euler characteristic of a sphere: V - E + F = 2.
  EXPECT_EQ(
      mesh->num_welded_vertices() - mesh->num_edges() + mesh->num_triangles(),
      2);
  for (int32_t w = 0; w < mesh->num_welded_vertices(); ++w) {
    EXPECT_TRUE(mesh->is_manifold_vertex(w)) << w;
  }
}

TEST(MeshTest, CesiumManWeldedAndSplitGiveTheSameAdjacency) {
  const auto split = io::ReadObj(testing::BundledPath("cesiumman_walk.obj"));
  const auto welded =
      io::ReadObj(testing::BundledPath("cesiumman_walk_welded.obj"));
  ASSERT_TRUE(split.ok() && welded.ok());
  ASSERT_EQ(split->num_triangles(), welded->num_triangles());
  const auto a = MeshTopology::Build(split->triangles, split->positions);
  const auto b = MeshTopology::Build(welded->triangles, welded->positions);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->num_vertices(), 3273);
  EXPECT_EQ(a->num_welded_vertices(), 2338);
  EXPECT_EQ(b->num_welded_vertices(), 2338);
  EXPECT_EQ(a->num_edges(), 7008);
  EXPECT_EQ(b->num_edges(), 7008);
  EXPECT_TRUE(a->boundary_edges().empty());
  EXPECT_EQ(a->adjacent_face_pairs(), b->adjacent_face_pairs());
  for (int32_t f = 0; f < a->num_triangles(); ++f) {
    ASSERT_EQ(a->face_neighbors(f), b->face_neighbors(f)) << "triangle " << f;
  }
}

}  // namespace
}  // namespace crease
