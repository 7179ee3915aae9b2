#include "wrinkle/sca2015/joining.h"

#include <algorithm>
#include <utility>

namespace crease {
namespace {

void Reverse(WrinklePath* path) {
  std::reverse(path->points.begin(), path->points.end());
  std::reverse(path->faces.begin(), path->faces.end());
}

// End `side` (0: front, 1: back) of a path: the point and the unit direction
// pointing out of the path there.
struct PathEnd {
  Eigen::Vector3d point, out;
};
PathEnd EndOf(const SurfaceFrame& surface, const WrinklePath& path, int side) {
  const size_t n = path.points.size();
  const Eigen::Vector3d p = surface.Position(path.points[side ? n - 1 : 0]);
  const Eigen::Vector3d q = surface.Position(path.points[side ? n - 2 : 1]);
  const Eigen::Vector3d out = p - q;
  const double len = out.norm();
  return {p, len > 0 ? Eigen::Vector3d(out / len) : Eigen::Vector3d::Zero()};
}

// The triangle across `edge` from `face`, or -1 (boundary, non-manifold).
int32_t Across(const MeshTopology& topology, int32_t edge, int32_t face) {
  const absl::Span<const int32_t> faces = topology.edge_faces(edge);
  if (faces.size() != 2) return -1;
  return faces[0] == face ? faces[1] : faces[0];
}

// A straight walk from a's last point to b's first point through triangles
// neither path crosses (stamped), at most max_faces of them. Fills the
// points strictly between the two ends and the bridge's faces.
bool Bridge(const SurfaceFrame& surface, const WrinklePath& a,
            const WrinklePath& b, const JoinParams& params,
            const SegmentIndex& segments, int32_t path_index,
            JoinScratch& scratch) {
  const MeshTopology& topology = *surface.topology;
  scratch.bridge_points.clear();
  scratch.bridge_faces.clear();
  const EdgePoint start = a.points.back(), goal = b.points.front();
  const Eigen::Vector3d target = surface.Position(goal);
  Eigen::Vector3d from = surface.Position(start);
  int32_t edge = start.edge;
  int32_t face = Across(topology, edge, a.faces.back());
  for (int step = 0; step < params.max_bridge_faces; ++step) {
    if (face < 0 || scratch.stamp[face] == scratch.counter) return false;
    scratch.stamp[face] = scratch.counter;
    scratch.bridge_faces.push_back(face);
    if (EdgeSlot(topology, face, goal.edge) >= 0) {
      return !segments.Crosses(surface, face, path_index, from, target);
    }
    const LocalFrame& frame = surface.frames[face];
    const Eigen::Vector3d to_goal = target - from;
    const Eigen::Vector2d d(to_goal.dot(frame.x_axis),
                            to_goal.dot(frame.y_axis));
    int slot;
    double u;
    if (!RayExit(surface, face, surface.ToFace(face, from), d,
                 EdgeSlot(topology, face, edge), &slot, &u)) {
      return false;
    }
    edge = topology.face_edges(face)[slot];
    const EdgePoint exit{edge, SlotToEdgeT(topology, face, slot, u)};
    const Eigen::Vector3d to = surface.Position(exit);
    if (segments.Crosses(surface, face, path_index, from, to)) return false;
    scratch.bridge_points.push_back(exit);
    from = to;
    face = Across(topology, edge, face);
  }
  return false;
}

// Joins b onto the back of a (a's back end meets b's front end) if a bridge
// exists; the joined path takes the slot of a and the older id.
bool TryJoin(const SurfaceFrame& surface, const JoinParams& params,
             const SegmentIndex& segments, int32_t a_index,
             JoinScratch& scratch, WrinklePath* a, WrinklePath* b) {
  // A path crosses each triangle once: the two may not share one.
  ++scratch.counter;
  for (int32_t f : a->faces) scratch.stamp[f] = scratch.counter;
  for (int32_t f : b->faces) {
    if (scratch.stamp[f] == scratch.counter) return false;
    scratch.stamp[f] = scratch.counter;
  }
  const bool same_edge = a->points.back().edge == b->points.front().edge;
  if (same_edge) {
    if (a->faces.back() == b->faces.front()) return false;
    scratch.bridge_points.clear();
    scratch.bridge_faces.clear();
  } else if (!Bridge(surface, *a, *b, params, segments, a_index, scratch)) {
    return false;
  }
  const int total = a->num_segments() + b->num_segments() +
                    static_cast<int>(scratch.bridge_faces.size());
  if (total > params.max_segments) return false;
  // On a shared edge the two end points become one, half-way between.
  if (same_edge)
    a->points.back().t = 0.5 * (a->points.back().t + b->points[0].t);
  a->points.insert(a->points.end(), scratch.bridge_points.begin(),
                   scratch.bridge_points.end());
  a->points.insert(a->points.end(), b->points.begin() + (same_edge ? 1 : 0),
                   b->points.end());
  a->faces.insert(a->faces.end(), scratch.bridge_faces.begin(),
                  scratch.bridge_faces.end());
  a->faces.insert(a->faces.end(), b->faces.begin(), b->faces.end());
  // The joined wrinkle is the older one, state and all (fade and shape then
  // move from there at their usual rates).
  if (b->age > a->age) {
    std::swap(a->id, b->id);
    std::swap(a->age, b->age);
    std::swap(a->fade, b->fade);
    std::swap(a->shape_compression, b->shape_compression);
  }
  a->dormant = std::min(a->dormant, b->dormant);
  b->points.clear();
  b->faces.clear();
  return true;
}

}  // namespace

int JoinMeetingEnds(const SurfaceFrame& surface, const JoinParams& params,
                    const SegmentIndex& segments, JoinScratch& scratch,
                    std::vector<WrinklePath>* paths) {
  const int n = static_cast<int>(paths->size());
  if (scratch.stamp.size() !=
      static_cast<size_t>(surface.topology->num_triangles())) {
    scratch.stamp.assign(surface.topology->num_triangles(), 0);
    scratch.counter = 0;
  }
  // Every end (path * 2 + side), swept in x so that only ends within max_gap
  // of each other along x are compared: O(n log n + pairs), not O(n^2).
  scratch.end_point.resize(2 * n);
  scratch.end_out.resize(2 * n);
  scratch.sweep.clear();
  for (int i = 0; i < n; ++i) {
    if ((*paths)[i].points.size() < 2) continue;
    for (int side = 0; side < 2; ++side) {
      const PathEnd e = EndOf(surface, (*paths)[i], side);
      scratch.end_point[2 * i + side] = e.point;
      scratch.end_out[2 * i + side] = e.out;
      scratch.sweep.push_back({e.point.x(), 2 * i + side});
    }
  }
  std::sort(scratch.sweep.begin(), scratch.sweep.end());
  // Candidate pairs of ends, key = end_i * 2n + end_j with path i < path j.
  scratch.candidates.clear();
  for (size_t a = 0; a < scratch.sweep.size(); ++a) {
    for (size_t b = a + 1;
         b < scratch.sweep.size() &&
         scratch.sweep[b].first - scratch.sweep[a].first <= params.max_gap;
         ++b) {
      int32_t ei = scratch.sweep[a].second, ej = scratch.sweep[b].second;
      if (ei / 2 == ej / 2) continue;
      if (ei > ej) std::swap(ei, ej);
      const Eigen::Vector3d gap = scratch.end_point[ej] - scratch.end_point[ei];
      const double distance = gap.norm();
      if (distance > params.max_gap) continue;
      const Eigen::Vector3d& out_i = scratch.end_out[ei];
      const Eigen::Vector3d& out_j = scratch.end_out[ej];
      if (out_i.dot(out_j) > -params.min_alignment) continue;
      if (out_i.dot(gap) < 0 || out_j.dot(gap) > 0) continue;
      scratch.candidates.push_back({distance, ei * 2 * n + ej});
    }
  }
  std::sort(scratch.candidates.begin(), scratch.candidates.end());
  scratch.joined.assign(n, 0);
  int joins = 0;
  for (const auto& [distance, key] : scratch.candidates) {
    const int i = key / (2 * n) / 2, si = key / (2 * n) % 2;
    const int j = key % (2 * n) / 2, sj = key % (2 * n) % 2;
    WrinklePath& a = (*paths)[i];
    WrinklePath& b = (*paths)[j];
    // Joined or absorbed earlier in this call: its ends have moved.
    if (scratch.joined[i] || scratch.joined[j]) continue;
    if (si == 0) Reverse(&a);
    if (sj == 1) Reverse(&b);
    if (TryJoin(surface, params, segments, i, scratch, &a, &b)) {
      scratch.joined[i] = scratch.joined[j] = 1;
      ++joins;
      continue;
    }
    if (si == 0) Reverse(&a);
    if (sj == 1) Reverse(&b);
  }
  return joins;
}

}  // namespace crease
