#ifndef CREASE_WRINKLE_CORE_MESH_H_
#define CREASE_WRINKLE_CORE_MESH_H_

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "wrinkle/data/weld.h"
#include "wrinkle/io/triangle_mesh.h"

namespace crease {

struct MeshTopologyOptions {
  // Vertices whose positions are closer than this fraction of the bounding-box
  // diagonal are one vertex for adjacency (game meshes are split along UV
  // seams, or stored as triangle soups). Negative: no welding, only shared
  // indices connect triangles. The rule is WeldVerticesRelative's.
  double weld_relative_tolerance = kDefaultWeldRelativeTolerance;
};

// Connectivity of a triangle mesh with fixed topology.
//
// Adjacency is computed on *welded* vertices, but every output keeps the
// caller's vertex and triangle indexing: edges name caller vertex indices
// (those of the first triangle that uses the edge), faces are the caller's
// triangles.
//
// Non-manifold edges (used by three or more triangles) are reported and connect
// none of their triangles: for adjacency they act as boundary edges. Triangles
// with two corners on the same welded vertex are "collapsed": they have no
// edges and no neighbours.
class MeshTopology {
 public:
  struct Edge {
    int32_t v0 = -1;  // caller vertex indices, ordered as in the first triangle
    int32_t v1 = -1;
  };

  // `positions` are packed xyz (3 per caller vertex) used only for welding.
  // InvalidArgument for indices out of range, a wrong positions length,
  // non-finite positions, or no triangles.
  static absl::StatusOr<MeshTopology> Build(
      absl::Span<const io::Triangle> triangles,
      absl::Span<const float> positions,
      const MeshTopologyOptions& options = {});

  int num_vertices() const { return static_cast<int>(weld_map_.size()); }
  int num_triangles() const { return static_cast<int>(triangles_.size()); }
  int num_welded_vertices() const { return num_welded_vertices_; }
  int num_edges() const { return static_cast<int>(edges_.size()); }

  const std::vector<io::Triangle>& triangles() const { return triangles_; }
  // Caller vertex -> welded vertex id (welded ids are numbered in order of
  // first appearance among the caller's vertices).
  int32_t welded_vertex(int32_t v) const { return weld_map_[v]; }
  const std::vector<int32_t>& weld_map() const { return weld_map_; }

  const Edge& edge(int32_t e) const { return edges_[e]; }
  // Triangles using edge e (1 on a boundary, 2 inside, 3+ if non-manifold).
  absl::Span<const int32_t> edge_faces(int32_t e) const {
    return Slice(edge_face_offsets_, edge_face_list_, e);
  }
  bool is_boundary_edge(int32_t e) const { return edge_faces(e).size() == 1; }
  bool is_non_manifold_edge(int32_t e) const {
    return edge_faces(e).size() > 2;
  }
  const std::vector<int32_t>& boundary_edges() const { return boundary_edges_; }
  const std::vector<int32_t>& non_manifold_edges() const {
    return non_manifold_edges_;
  }

  // Edge k of triangle f joins corners k and (k + 1) % 3; -1 for collapsed
  // triangles.
  const std::array<int32_t, 3>& face_edges(int32_t f) const {
    return face_edges_[f];
  }
  // Triangle across edge k of f, or -1 (boundary, non-manifold or collapsed).
  const std::array<int32_t, 3>& face_neighbors(int32_t f) const {
    return face_neighbors_[f];
  }
  // Each pair (f, g), f < g, of triangles sharing a manifold edge, once.
  const std::vector<std::pair<int32_t, int32_t>>& adjacent_face_pairs() const {
    return adjacent_face_pairs_;
  }
  int num_collapsed_triangles() const { return num_collapsed_triangles_; }

  // One-ring of a welded vertex: its triangles, in rotational order around it
  // when the vertex is manifold (starting at a boundary for boundary vertices),
  // and its welded neighbour vertices in the same order.
  absl::Span<const int32_t> vertex_faces(int32_t welded) const {
    return Slice(vertex_face_offsets_, vertex_face_list_, welded);
  }
  absl::Span<const int32_t> vertex_neighbors(int32_t welded) const {
    return Slice(vertex_neighbor_offsets_, vertex_neighbor_list_, welded);
  }
  // True when the vertex's triangles form one fan connected across manifold
  // edges.
  bool is_manifold_vertex(int32_t welded) const {
    return manifold_vertex_[welded];
  }

 private:
  static absl::Span<const int32_t> Slice(const std::vector<int32_t>& offsets,
                                         const std::vector<int32_t>& list,
                                         int32_t i) {
    return absl::MakeConstSpan(list).subspan(offsets[i],
                                             offsets[i + 1] - offsets[i]);
  }
  // Build's steps, in order. BuildEdges returns each edge's face count.
  std::vector<int32_t> BuildEdges();
  void BuildEdgeFaces(const std::vector<int32_t>& edge_face_counts);
  void ClassifyEdges();  // boundary, non-manifold, adjacent face pairs
  void BuildFaceNeighbors();
  void BuildOneRings();
  // BuildOneRings' steps. GroupFacesByVertex fills vertex_face_offsets_ and
  // returns each welded vertex's triangles, unordered.
  std::vector<int32_t> GroupFacesByVertex();
  // The two edge slots of triangle f that touch welded vertex w.
  void EdgeSlotsAt(int32_t f, int32_t w, int* a, int* b) const;
  // Orders w's triangles (`faces`) into fans across shared edges, into
  // `fan`; `used` is scratch. Returns the number of fans.
  int OrderFans(int32_t w, absl::Span<const int32_t> faces,
                std::vector<int32_t>* fan, std::vector<bool>* used) const;
  // Appends the distinct welded neighbours of w around `fan`.
  void AppendNeighbors(int32_t w, absl::Span<const int32_t> fan);

  std::vector<io::Triangle> triangles_;
  std::vector<int32_t> weld_map_;
  int num_welded_vertices_ = 0;
  std::vector<Edge> edges_;
  std::vector<int32_t> edge_face_offsets_, edge_face_list_;
  std::vector<int32_t> boundary_edges_, non_manifold_edges_;
  std::vector<std::array<int32_t, 3>> face_edges_, face_neighbors_;
  std::vector<std::pair<int32_t, int32_t>> adjacent_face_pairs_;
  int num_collapsed_triangles_ = 0;
  std::vector<int32_t> vertex_face_offsets_, vertex_face_list_;
  std::vector<int32_t> vertex_neighbor_offsets_, vertex_neighbor_list_;
  std::vector<bool> manifold_vertex_;
};

}  // namespace crease

#endif  // CREASE_WRINKLE_CORE_MESH_H_
