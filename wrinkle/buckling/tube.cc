#include "wrinkle/buckling/tube.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "wrinkle/buckling/tube_annulus.h"

namespace crease {
namespace tube_internal {
namespace {

// The triangles of a part as a set: in range, each once, none collapsed,
// connected across manifold edges inside it.
absl::StatusOr<absl::flat_hash_set<int32_t>> TriangleSet(
    const MeshTopology& topology, absl::Span<const int32_t> triangles) {
  if (triangles.empty()) return absl::InvalidArgumentError("no triangles");
  absl::flat_hash_set<int32_t> in_tube;
  for (int32_t f : triangles) {
    if (f < 0 || f >= topology.num_triangles()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("triangle %d is out of range (the mesh has %d)", f,
                          topology.num_triangles()));
    }
    if (!in_tube.insert(f).second) {
      return absl::InvalidArgumentError(
          absl::StrFormat("triangle %d is listed twice", f));
    }
    if (topology.face_edges(f)[0] < 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "triangle %d is collapsed (two corners on one vertex)", f));
    }
  }
  // Connected across manifold edges inside the set.
  std::vector<int32_t> stack = {triangles[0]};
  absl::flat_hash_set<int32_t> reached = {triangles[0]};
  while (!stack.empty()) {
    const int32_t f = stack.back();
    stack.pop_back();
    for (int32_t g : topology.face_neighbors(f)) {
      if (g >= 0 && in_tube.contains(g) && reached.insert(g).second) {
        stack.push_back(g);
      }
    }
  }
  if (reached.size() != in_tube.size()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "its triangles are not connected (%d of %d reach triangle %d)",
        reached.size(), in_tube.size(), triangles[0]));
  }
  return in_tube;
}

// The boundary's loops from its directed edges (welded from -> to), each from
// its lowest vertex, the loop with the lowest vertex first: a fixed order,
// whatever the hash map's (the first loop sets the axis's sense).
absl::StatusOr<std::vector<std::vector<int32_t>>> TraceLoops(
    const absl::flat_hash_map<int32_t, int32_t>& next) {
  std::vector<std::vector<int32_t>> loops;
  absl::flat_hash_set<int32_t> traced;
  for (const auto& [start, unused] : next) {
    if (traced.contains(start)) continue;
    std::vector<int32_t> loop;
    for (int32_t v = start; traced.insert(v).second;) {
      loop.push_back(v);
      const auto it = next.find(v);
      if (it == next.end()) {
        return absl::InvalidArgumentError("its boundary is not closed");
      }
      v = it->second;
    }
    std::rotate(loop.begin(), std::min_element(loop.begin(), loop.end()),
                loop.end());
    loops.push_back(std::move(loop));
  }
  std::sort(loops.begin(), loops.end());
  return loops;
}

}  // namespace

absl::Status CheckAnnulus(const MeshTopology& topology,
                          absl::Span<const int32_t> triangles,
                          std::vector<std::vector<int32_t>>* loops) {
  absl::StatusOr<absl::flat_hash_set<int32_t>> in_tube =
      TriangleSet(topology, triangles);
  if (!in_tube.ok()) return in_tube.status();
  // Edges, vertices and the boundary as directed welded edges.
  absl::flat_hash_set<int32_t> edges, vertices;
  absl::flat_hash_map<int32_t, int32_t> next;  // boundary: from -> to
  for (int32_t f : triangles) {
    const io::Triangle& t = topology.triangles()[f];
    for (int k = 0; k < 3; ++k) {
      const int32_t e = topology.face_edges(f)[k];
      vertices.insert(topology.welded_vertex(t[k]));
      edges.insert(e);
      if (topology.is_non_manifold_edge(e)) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "triangle %d has a non-manifold edge (three or more triangles)",
            f));
      }
      const int32_t g = topology.face_neighbors(f)[k];
      if (g >= 0 && in_tube->contains(g)) continue;
      const int32_t from = topology.welded_vertex(t[k]);
      if (!next.emplace(from, topology.welded_vertex(t[(k + 1) % 3])).second) {
        return absl::InvalidArgumentError(
            absl::StrFormat("its boundary touches itself at vertex %d", t[k]));
      }
    }
  }
  const int64_t euler = static_cast<int64_t>(vertices.size()) -
                        static_cast<int64_t>(edges.size()) +
                        static_cast<int64_t>(triangles.size());
  absl::StatusOr<std::vector<std::vector<int32_t>>> traced = TraceLoops(next);
  if (!traced.ok()) return traced.status();
  *loops = *std::move(traced);
  if (loops->size() != 2 || euler != 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "it has %d boundary loops and Euler characteristic %d; an open tube "
        "has 2 and 0",
        loops->size(), euler));
  }
  return absl::OkStatus();
}

CallerMap CallerOfWelded(const MeshTopology& topology,
                         absl::Span<const int32_t> triangles) {
  CallerMap caller;
  for (int32_t f : triangles) {
    for (int32_t v : topology.triangles()[f]) {
      caller.emplace(topology.welded_vertex(v), v);
    }
  }
  return caller;
}

}  // namespace tube_internal

namespace {

using tube_internal::CallerMap;
using tube_internal::CallerOfWelded;
using tube_internal::CheckAnnulus;
using tube_internal::Position;

// Fills the tube's axis (from the loops when not described) and radius.
absl::Status PlaceAxis(const std::vector<std::vector<int32_t>>& loops,
                       const CallerMap& caller,
                       absl::Span<const float> positions,
                       const TubeDescription* description, Tube* tube) {
  Eigen::Vector3d centroid[2];
  for (int i = 0; i < 2; ++i) {
    centroid[i].setZero();
    for (int32_t w : loops[i]) centroid[i] += Position(positions, caller.at(w));
    centroid[i] /= static_cast<double>(loops[i].size());
  }
  if (description != nullptr && description->axis_direction) {
    const Eigen::Vector3d d = *description->axis_direction;
    if (!d.allFinite() || d.norm() < 1e-12) {
      return absl::InvalidArgumentError("its axis direction is zero");
    }
    tube->axis_direction = d.normalized();
    tube->axis_origin = description->axis_origin.value_or(centroid[0]);
  } else {
    const Eigen::Vector3d d = centroid[1] - centroid[0];
    if (d.norm() < 1e-12) {
      return absl::InvalidArgumentError(
          "its two boundary loops have one centroid: give the axis");
    }
    tube->axis_direction = d.normalized();
    tube->axis_origin = centroid[0];
  }
  const Eigen::Vector3d& axis = tube->axis_direction;
  Eigen::Vector3d zero =
      Position(positions, caller.at(loops[0][0])) - tube->axis_origin;
  zero -= zero.dot(axis) * axis;
  if (zero.norm() < 1e-12) zero = axis.unitOrthogonal();
  tube->angle_zero = zero.normalized();
  return absl::OkStatus();
}

absl::StatusOr<Tube> ValidateTube(const MeshTopology& topology,
                                  absl::Span<const float> positions,
                                  std::vector<int32_t> triangles,
                                  const TubeDescription* description) {
  std::vector<std::vector<int32_t>> loops;
  if (absl::Status s = CheckAnnulus(topology, triangles, &loops); !s.ok()) {
    return s;
  }
  if (description != nullptr && description->axis_origin.has_value() !=
                                    description->axis_direction.has_value()) {
    return absl::InvalidArgumentError(
        "its axis needs both an origin and a direction");
  }
  Tube tube;
  tube.triangles = std::move(triangles);
  if (absl::Status s =
          PlaceAxis(loops, CallerOfWelded(topology, tube.triangles), positions,
                    description, &tube);
      !s.ok()) {
    return s;
  }
  // The first loop is the one nearer the axis origin's side.
  absl::StatusOr<TubeChart> chart = TubeChart::Build(topology, positions, tube);
  if (!chart.ok()) return chart.status();
  return tube;
}

}  // namespace

namespace {

// Checks one ring (`name` for messages) and adds its edges to `ring_edges`
// and the triangles beside them to `beside`: each vertex in range and once,
// consecutive vertices sharing an edge.
absl::Status AddRing(const MeshTopology& topology, const char* name,
                     absl::Span<const int32_t> ring,
                     absl::flat_hash_set<int32_t>* ring_edges,
                     std::vector<int32_t>* beside) {
  if (ring.size() < 3) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: %d vertices, need 3 or more", name, ring.size()));
  }
  // Each vertex once (so a ring costs at most its vertices' triangles).
  absl::flat_hash_set<int32_t> seen;
  for (int32_t v : ring) {
    if (v >= 0 && v < topology.num_vertices() &&
        !seen.insert(topology.welded_vertex(v)).second) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: vertex %d appears twice", name, v));
    }
  }
  for (size_t i = 0; i < ring.size(); ++i) {
    const int32_t a = ring[i], b = ring[(i + 1) % ring.size()];
    if (a < 0 || a >= topology.num_vertices()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: vertex %d is out of range (the mesh has %d)",
                          name, a, topology.num_vertices()));
    }
    if (b < 0 || b >= topology.num_vertices()) continue;  // reported next
    const int32_t wa = topology.welded_vertex(a),
                  wb = topology.welded_vertex(b);
    bool found = false;
    for (int32_t f : topology.vertex_faces(wa)) {
      for (int k = 0; k < 3; ++k) {
        const io::Triangle& t = topology.triangles()[f];
        const int32_t e = topology.face_edges(f)[k];
        const int32_t u = topology.welded_vertex(t[k]);
        const int32_t v = topology.welded_vertex(t[(k + 1) % 3]);
        if (e >= 0 && ((u == wa && v == wb) || (u == wb && v == wa))) {
          found = true;
          ring_edges->insert(e);
          beside->push_back(f);
        }
      }
    }
    if (!found) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: vertices %d and %d are consecutive but share no edge", name, a,
          b));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<int32_t>> TrianglesBetweenRings(
    const MeshTopology& topology, absl::Span<const int32_t> ring_a,
    absl::Span<const int32_t> ring_b, absl::flat_hash_set<int32_t>* owned) {
  // Each ring as the set of its edges' triangles (welded edge -> faces).
  absl::flat_hash_set<int32_t> ring_edges;
  std::vector<int32_t> seeds[2];
  CREASE_RETURN_IF_ERROR(
      AddRing(topology, "ring_a", ring_a, &ring_edges, &seeds[0]));
  CREASE_RETURN_IF_ERROR(
      AddRing(topology, "ring_b", ring_b, &ring_edges, &seeds[1]));
  // From each triangle beside ring_a, the region bounded by both rings; the
  // first that reaches a triangle beside ring_b.
  const absl::flat_hash_set<int32_t> beside_b(seeds[1].begin(), seeds[1].end());
  absl::flat_hash_set<int32_t> tried;
  for (int32_t seed : seeds[0]) {
    if (tried.contains(seed)) continue;
    if (owned != nullptr && owned->contains(seed)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "the part beside ring_a (triangle %d) is already in another tube",
          seed));
    }
    std::vector<int32_t> region, stack = {seed};
    absl::flat_hash_set<int32_t> in_region = {seed};
    bool reaches_b = false;
    while (!stack.empty()) {
      const int32_t f = stack.back();
      stack.pop_back();
      region.push_back(f);
      reaches_b = reaches_b || beside_b.contains(f);
      for (int k = 0; k < 3; ++k) {
        const int32_t g = topology.face_neighbors(f)[k];
        if (g < 0 || ring_edges.contains(topology.face_edges(f)[k])) continue;
        if (in_region.insert(g).second) stack.push_back(g);
      }
    }
    tried.insert(region.begin(), region.end());
    if (reaches_b) {
      std::sort(region.begin(), region.end());
      if (owned != nullptr) owned->insert(region.begin(), region.end());
      return region;
    }
  }
  return absl::InvalidArgumentError(
      "ring_a and ring_b bound no part of the mesh between them");
}

namespace {

// The described tubes, rings resolved to the triangles between them, each
// checked.
absl::StatusOr<std::vector<Tube>> DescribedTubes(
    const MeshTopology& topology, absl::Span<const float> rest_positions,
    absl::Span<const TubeDescription> descriptions) {
  std::vector<Tube> tubes;
  if (descriptions.size() > kMaxTubes) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%d tubes described, over %d", descriptions.size(), kMaxTubes));
  }
  // Rings first become the triangles between them; a ring pair whose part
  // another description holds is refused before its part is filled.
  std::vector<TubeDescription> resolved(descriptions.begin(),
                                        descriptions.end());
  absl::flat_hash_set<int32_t> owned;
  for (const TubeDescription& d : resolved) {
    owned.insert(d.triangles.begin(), d.triangles.end());
  }
  for (size_t i = 0; i < resolved.size(); ++i) {
    TubeDescription& d = resolved[i];
    if (d.ring_a.empty() && d.ring_b.empty()) continue;
    if (!d.triangles.empty() || d.ring_a.empty() || d.ring_b.empty()) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "tube %d: give its triangles or two rings (ring_a and ring_b), "
          "not both",
          i));
    }
    absl::StatusOr<std::vector<int32_t>> between =
        TrianglesBetweenRings(topology, d.ring_a, d.ring_b, &owned);
    if (!between.ok()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("tube %d: %s", i, between.status().message()));
    }
    d.triangles = *std::move(between);
  }
  descriptions = resolved;
  if (absl::Status s = CheckTubeTopology(topology, descriptions); !s.ok()) {
    return s;
  }
  for (size_t i = 0; i < descriptions.size(); ++i) {
    absl::StatusOr<Tube> tube = ValidateTube(
        topology, rest_positions, descriptions[i].triangles, &descriptions[i]);
    if (!tube.ok()) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "tube %d is not a tube: %s", i, tube.status().message()));
    }
    tubes.push_back(*std::move(tube));
  }
  return tubes;
}

// Every connected part that is an open tube.
absl::StatusOr<std::vector<Tube>> DetectedTubes(
    const MeshTopology& topology, absl::Span<const float> rest_positions) {
  std::vector<Tube> tubes;
  std::vector<int32_t> part(topology.num_triangles(), -1);
  std::string rejected;
  int parts = 0;
  for (int32_t seed = 0; seed < topology.num_triangles(); ++seed) {
    if (part[seed] >= 0 || topology.face_edges(seed)[0] < 0) continue;
    std::vector<int32_t> triangles, stack = {seed};
    part[seed] = parts;
    while (!stack.empty()) {
      const int32_t f = stack.back();
      stack.pop_back();
      triangles.push_back(f);
      for (int32_t g : topology.face_neighbors(f)) {
        if (g >= 0 && part[g] < 0) {
          part[g] = parts;
          stack.push_back(g);
        }
      }
    }
    std::sort(triangles.begin(), triangles.end());
    absl::StatusOr<Tube> tube =
        ValidateTube(topology, rest_positions, std::move(triangles), nullptr);
    if (tube.ok()) {
      if (tubes.size() == kMaxTubes) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "more than %d parts of the mesh are open tubes; describe the "
            "ones to fold",
            kMaxTubes));
      }
      tubes.push_back(*std::move(tube));
    } else if (parts < 3) {
      absl::StrAppendFormat(&rejected, "; part %d (from triangle %d): %s",
                            parts, seed, tube.status().message());
    }
    ++parts;
  }
  if (tubes.empty()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "no part of the mesh is an open tube between two boundary loops (%d "
        "parts%s); describe the tubes",
        parts, rejected));
  }
  return tubes;
}

}  // namespace

absl::StatusOr<std::vector<Tube>> FindTubes(
    const MeshTopology& topology, absl::Span<const float> rest_positions,
    absl::Span<const TubeDescription> descriptions) {
  if (descriptions.empty()) return DetectedTubes(topology, rest_positions);
  return DescribedTubes(topology, rest_positions, descriptions);
}

absl::Status CheckTubeTopology(const MeshTopology& topology,
                               absl::Span<const TubeDescription> descriptions) {
  absl::flat_hash_map<int32_t, size_t> owner;
  for (size_t i = 0; i < descriptions.size(); ++i) {
    for (int32_t f : descriptions[i].triangles) {
      if (const auto [it, fresh] = owner.emplace(f, i);
          !fresh && it->second != i) {
        return absl::InvalidArgumentError(absl::StrFormat(
            "tube %d: triangle %d is already in tube %d", i, f, it->second));
      }
    }
  }
  for (size_t i = 0; i < descriptions.size(); ++i) {
    std::vector<std::vector<int32_t>> loops;
    if (absl::Status s =
            CheckAnnulus(topology, descriptions[i].triangles, &loops);
        !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("tube %d is not a tube: %s", i, s.message()));
    }
  }
  return absl::OkStatus();
}

}  // namespace crease
