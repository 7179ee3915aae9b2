#include "wrinkle/joining.h"

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
  // Candidate pairs of ends, key = ((i * 2 + side) * 2n + (j * 2 + side)).
  scratch.candidates.clear();
  for (int i = 0; i < n; ++i) {
    if ((*paths)[i].points.size() < 2) continue;
    for (int j = i + 1; j < n; ++j) {
      if ((*paths)[j].points.size() < 2) continue;
      for (int si = 0; si < 2; ++si) {
        const PathEnd ei = EndOf(surface, (*paths)[i], si);
        for (int sj = 0; sj < 2; ++sj) {
          const PathEnd ej = EndOf(surface, (*paths)[j], sj);
          const Eigen::Vector3d gap = ej.point - ei.point;
          const double distance = gap.norm();
          if (distance > params.max_gap) continue;
          if (ei.out.dot(ej.out) > -params.min_alignment) continue;
          if (ei.out.dot(gap) < 0 || ej.out.dot(gap) > 0) continue;
          scratch.candidates.push_back(
              {distance, (i * 2 + si) * 2 * n + (j * 2 + sj)});
        }
      }
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
