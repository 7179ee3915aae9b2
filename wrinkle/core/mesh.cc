#include "wrinkle/core/mesh.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"

namespace crease {
namespace {

uint64_t EdgeKey(int32_t a, int32_t b) {
  if (a > b) std::swap(a, b);
  return (static_cast<uint64_t>(a) << 32) | static_cast<uint32_t>(b);
}

// Input Build accepts: whole vertices, finite coordinates, some triangles,
// every corner a vertex, and sizes that fit 32-bit indices.
absl::Status ValidateMeshInput(absl::Span<const io::Triangle> triangles,
                               absl::Span<const float> positions) {
  if (positions.size() % 3 != 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "positions: %d floats is not a multiple of 3", positions.size()));
  }
  const int64_t num_vertices = static_cast<int64_t>(positions.size() / 3);
  if (triangles.empty())
    return absl::InvalidArgumentError("triangles: none given");
  if (num_vertices > std::numeric_limits<int32_t>::max() / 2 ||
      triangles.size() >
          static_cast<size_t>(std::numeric_limits<int32_t>::max() / 3)) {
    return absl::InvalidArgumentError("mesh too large for 32-bit indices");
  }
  for (size_t i = 0; i < positions.size(); ++i) {
    if (!std::isfinite(positions[i])) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "positions: vertex %d has a non-finite coordinate", i / 3));
    }
  }
  for (size_t f = 0; f < triangles.size(); ++f) {
    for (int k = 0; k < 3; ++k) {
      if (triangles[f][k] < 0 || triangles[f][k] >= num_vertices) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "triangles: triangle %d corner %d is vertex %d, outside [0, %d)", f,
            k, triangles[f][k], num_vertices));
      }
    }
  }
  return absl::OkStatus();
}

// Where triangle f is in `faces`, or -1.
int LocalIndex(absl::Span<const int32_t> faces, int32_t f) {
  for (size_t i = 0; i < faces.size(); ++i) {
    if (faces[i] == f) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

absl::StatusOr<MeshTopology> MeshTopology::Build(
    absl::Span<const io::Triangle> triangles, absl::Span<const float> positions,
    const MeshTopologyOptions& options) {
  if (absl::Status valid = ValidateMeshInput(triangles, positions);
      !valid.ok()) {
    return valid;
  }
  MeshTopology mesh;
  mesh.triangles_.assign(triangles.begin(), triangles.end());
  mesh.weld_map_ = WeldVerticesRelative(
      positions, options.weld_relative_tolerance, &mesh.num_welded_vertices_);
  const std::vector<int32_t> edge_face_counts = mesh.BuildEdges();
  mesh.BuildEdgeFaces(edge_face_counts);
  mesh.ClassifyEdges();
  mesh.BuildFaceNeighbors();
  mesh.BuildOneRings();
  return mesh;
}

std::vector<int32_t> MeshTopology::BuildEdges() {
  const int32_t num_faces = num_triangles();
  face_edges_.assign(num_faces, {-1, -1, -1});
  absl::flat_hash_map<uint64_t, int32_t> edge_ids;
  edge_ids.reserve(triangles_.size() * 3 / 2 + 1);
  std::vector<int32_t> edge_face_counts;
  for (int32_t f = 0; f < num_faces; ++f) {
    const io::Triangle& t = triangles_[f];
    const int32_t w[3] = {weld_map_[t[0]], weld_map_[t[1]], weld_map_[t[2]]};
    if (w[0] == w[1] || w[1] == w[2] || w[2] == w[0]) {
      ++num_collapsed_triangles_;
      continue;
    }
    for (int k = 0; k < 3; ++k) {
      auto [it, inserted] = edge_ids.try_emplace(
          EdgeKey(w[k], w[(k + 1) % 3]), static_cast<int32_t>(edges_.size()));
      if (inserted) {
        edges_.push_back({t[k], t[(k + 1) % 3]});
        edge_face_counts.push_back(0);
      }
      face_edges_[f][k] = it->second;
      ++edge_face_counts[it->second];
    }
  }
  return edge_face_counts;
}

void MeshTopology::BuildEdgeFaces(
    const std::vector<int32_t>& edge_face_counts) {
  const int32_t num_faces = num_triangles();
  const int32_t num_edges = static_cast<int32_t>(edges_.size());
  edge_face_offsets_.assign(num_edges + 1, 0);
  for (int32_t e = 0; e < num_edges; ++e) {
    edge_face_offsets_[e + 1] = edge_face_offsets_[e] + edge_face_counts[e];
  }
  edge_face_list_.resize(edge_face_offsets_[num_edges]);
  std::vector<int32_t> fill(edge_face_offsets_.begin(),
                            edge_face_offsets_.end() - 1);
  for (int32_t f = 0; f < num_faces; ++f) {
    for (int k = 0; k < 3; ++k) {
      const int32_t e = face_edges_[f][k];
      if (e >= 0) edge_face_list_[fill[e]++] = f;
    }
  }
}

void MeshTopology::ClassifyEdges() {
  const int32_t num_edges = static_cast<int32_t>(edges_.size());
  for (int32_t e = 0; e < num_edges; ++e) {
    const absl::Span<const int32_t> faces = edge_faces(e);
    if (faces.size() == 1) boundary_edges_.push_back(e);
    if (faces.size() > 2) non_manifold_edges_.push_back(e);
    if (faces.size() == 2) {
      const int32_t f = faces[0], g = faces[1];
      adjacent_face_pairs_.emplace_back(std::min(f, g), std::max(f, g));
    }
  }
}

void MeshTopology::BuildFaceNeighbors() {
  const int32_t num_faces = num_triangles();
  face_neighbors_.assign(num_faces, {-1, -1, -1});
  for (int32_t f = 0; f < num_faces; ++f) {
    for (int k = 0; k < 3; ++k) {
      const int32_t e = face_edges_[f][k];
      if (e < 0) continue;
      const absl::Span<const int32_t> faces = edge_faces(e);
      if (faces.size() == 2)
        face_neighbors_[f][k] = faces[0] == f ? faces[1] : faces[0];
    }
  }
}

void MeshTopology::BuildOneRings() {
  const int32_t num_welded = num_welded_vertices_;
  const std::vector<int32_t> unordered = GroupFacesByVertex();
  vertex_face_list_.resize(unordered.size());
  vertex_neighbor_offsets_.assign(num_welded + 1, 0);
  vertex_neighbor_list_.clear();
  manifold_vertex_.assign(num_welded, true);
  std::vector<int32_t> fan;
  std::vector<bool> used;
  for (int32_t w = 0; w < num_welded; ++w) {
    const int32_t begin = vertex_face_offsets_[w],
                  end = vertex_face_offsets_[w + 1];
    const absl::Span<const int32_t> faces =
        absl::MakeConstSpan(unordered).subspan(begin, end - begin);
    if (OrderFans(w, faces, &fan, &used) > 1) manifold_vertex_[w] = false;
    std::copy(fan.begin(), fan.end(), vertex_face_list_.begin() + begin);
    AppendNeighbors(w, fan);
    vertex_neighbor_offsets_[w + 1] =
        static_cast<int32_t>(vertex_neighbor_list_.size());
  }
}

std::vector<int32_t> MeshTopology::GroupFacesByVertex() {
  const int32_t num_welded = num_welded_vertices_;
  const int32_t num_faces = num_triangles();
  vertex_face_offsets_.assign(num_welded + 1, 0);
  for (int32_t f = 0; f < num_faces; ++f) {
    if (face_edges_[f][0] < 0) continue;  // collapsed
    for (int32_t v : triangles_[f]) ++vertex_face_offsets_[weld_map_[v] + 1];
  }
  for (int32_t w = 0; w < num_welded; ++w) {
    vertex_face_offsets_[w + 1] += vertex_face_offsets_[w];
  }
  std::vector<int32_t> unordered(vertex_face_offsets_[num_welded]);
  std::vector<int32_t> fill(vertex_face_offsets_.begin(),
                            vertex_face_offsets_.end() - 1);
  for (int32_t f = 0; f < num_faces; ++f) {
    if (face_edges_[f][0] < 0) continue;
    for (int32_t v : triangles_[f]) unordered[fill[weld_map_[v]]++] = f;
  }
  return unordered;
}

void MeshTopology::EdgeSlotsAt(int32_t f, int32_t w, int* a, int* b) const {
  for (int k = 0; k < 3; ++k) {
    if (weld_map_[triangles_[f][k]] == w) {
      *a = k;            // edge k: corners k, k+1
      *b = (k + 2) % 3;  // edge k+2: corners k+2, k
      return;
    }
  }
}

int MeshTopology::OrderFans(int32_t w, absl::Span<const int32_t> faces,
                            std::vector<int32_t>* fan,
                            std::vector<bool>* used) const {
  used->assign(faces.size(), false);
  fan->clear();
  int fans = 0;
  // Start open fans at a triangle whose "incoming" side has no neighbour, so
  // boundary vertices list their triangles from one boundary edge to the
  // other.
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < faces.size(); ++i) {
      if ((*used)[i]) continue;
      int a = 0, b = 2;
      EdgeSlotsAt(faces[i], w, &a, &b);
      if (pass == 0 && face_neighbors_[faces[i]][b] >= 0) continue;
      ++fans;
      int32_t f = faces[i];
      int exit_slot = a;
      while (true) {
        const int li = LocalIndex(faces, f);
        if (li < 0 || (*used)[li]) break;
        (*used)[li] = true;
        fan->push_back(f);
        const int32_t g = face_neighbors_[f][exit_slot];
        if (g < 0) break;
        const int32_t crossed = face_edges_[f][exit_slot];
        int ga = 0, gb = 2;
        EdgeSlotsAt(g, w, &ga, &gb);
        exit_slot = face_edges_[g][ga] == crossed ? gb : ga;
        f = g;
      }
    }
  }
  return fans;
}

void MeshTopology::AppendNeighbors(int32_t w, absl::Span<const int32_t> fan) {
  const size_t neighbor_begin = vertex_neighbor_list_.size();
  for (int32_t f : fan) {
    int a = 0, b = 2;
    EdgeSlotsAt(f, w, &a, &b);
    for (int corner : {(a + 1) % 3, b}) {
      const int32_t n = weld_map_[triangles_[f][corner]];
      if (std::find(vertex_neighbor_list_.begin() + neighbor_begin,
                    vertex_neighbor_list_.end(),
                    n) == vertex_neighbor_list_.end()) {
        vertex_neighbor_list_.push_back(n);
      }
    }
  }
}

}  // namespace crease
