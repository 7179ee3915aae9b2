#ifndef CREASE_WRINKLE_DATA_REFINED_TOPOLOGY_H_
#define CREASE_WRINKLE_DATA_REFINED_TOPOLOGY_H_

// The fixed topology of the wrinkled mesh: every coarse triangle cut into
// level^2 triangles by level segments per edge (level 1: the coarse mesh).
// Computed once per session; the positions and normals of each frame are
// WrinkledMeshBuilder's (wrinkled_mesh.h).

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace crease {

// Levels accepted by RefineTopology (the server may allow fewer).
inline constexpr int kMaxRefinementLevel = 64;

// Where one refined vertex lies on the coarse mesh, so a frame can place it.
struct RefinedVertex {
  // A coarse triangle holding it (the first that does; its wrinkle lists are
  // looked up), or -1 for a coarse vertex no triangle uses.
  int32_t triangle = -1;
  // Coarse vertices: a corner is {a, -1, -1}; a point on an edge is {a, b,
  // -1} with a < b, at a + weight[1] (b - a) (from the edge's lower id, so
  // both triangles on the edge compute the same bits); inside a triangle
  // {a, b, c}, the triangle's corners in its order, at weight[0] a +
  // weight[1] b + weight[2] c (weights i / level).
  std::array<int32_t, 3> corners = {-1, -1, -1};
  std::array<float, 3> weights = {1, 0, 0};
};

struct RefinedTopology {
  int level = 1;
  int num_coarse_vertices = 0;
  // The coarse mesh's triangles (smooth normals are summed over them).
  std::vector<std::array<int32_t, 3>> coarse_triangles;
  // Refined triangle t lies in coarse triangle t / level^2, wound the same
  // way.
  std::vector<std::array<int32_t, 3>> triangles;
  // Refined vertex ids: the coarse vertices first, with their own ids; then
  // the new ones in order of the first triangle that has them, each
  // triangle's new edge vertices (edges 01, 12, 20) before its inner ones.
  std::vector<RefinedVertex> vertices;

  int num_vertices() const { return static_cast<int>(vertices.size()); }
  int num_triangles() const { return static_cast<int>(triangles.size()); }
};

// The counts RefineTopology would give, without building anything (the edges
// are counted in a hash set): for checking a request's size first.
// Preconditions as RefineTopology's.
struct RefinedCounts {
  int64_t vertices = 0;
  int64_t triangles = 0;
};
RefinedCounts CountRefined(absl::Span<const std::array<int32_t, 3>> triangles,
                           int num_vertices, int level);

// Refines `triangles` (indices below num_vertices) at `level`. A vertex on a
// coarse edge is shared by the triangles that share that edge by vertex ids
// (a < b or b < a alike); triangles that only meet at coincident but distinct
// vertices (UV seams, soups) keep separate vertices, as the input has them.
// So V' = V + (level - 1) E + (level - 1)(level - 2) / 2 T and T' = level^2 T,
// with E the edges by vertex ids. InvalidArgument for a level outside
// 1..kMaxRefinementLevel, an index out of range, or counts past int32.
absl::StatusOr<RefinedTopology> RefineTopology(
    absl::Span<const std::array<int32_t, 3>> triangles, int num_vertices,
    int level);

// Refined vertex `vertex` on the undisplaced coarse surface, as the
// renderer's evaluation stage places a tessellated vertex: the position
// interpolated linearly from `positions` (xyz per coarse vertex), and the
// sums of area vectors `normal_sums` (xyz per welded id, SumWeldedNormals'
// smooth normals before normalisation; `welded` per coarse vertex)
// interpolated the same way, then normalised (+Z where they cancel). On an
// edge both from the edge's lower vertex id, so every triangle on it computes
// the same bits. The server's wrinkled mesh and the client's export place
// refined vertices by this one rule.
void PlaceRefinedVertex(const RefinedVertex& vertex,
                        absl::Span<const float> positions,
                        absl::Span<const int32_t> welded,
                        absl::Span<const float> normal_sums,
                        Eigen::Vector3f* position, Eigen::Vector3f* normal);

// Texture coordinates per refined triangle corner (u v, 6 floats per refined
// triangle) from the coarse ones (6 floats per coarse triangle; see
// io::TriangleMesh::corner_uvs), interpolated like positions. Empty when
// `coarse_corner_uvs` does not have 6 per coarse triangle.
std::vector<float> RefineCornerUvs(const RefinedTopology& topology,
                                   absl::Span<const float> coarse_corner_uvs);

}  // namespace crease

#endif  // CREASE_WRINKLE_DATA_REFINED_TOPOLOGY_H_
